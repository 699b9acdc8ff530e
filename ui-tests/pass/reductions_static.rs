// Every static reduction form: the axes live in the type, and the result type
// drops them (`_dim`, `_dims`) or keeps them as size 1 (`_keepdim`,
// `_dims_keepdim`); whole-tensor forms give rank-0 tensors.
use num_complex::Complex;
use shaped::prelude::*;

fn main() {
    let x = Tensor::<f32, shape![2, 3, 4]>::ones();
    let _: Tensor<f32, shape![]> = x.sum();
    let _: Tensor<f32, shape![2, 4]> = x.sum_dim::<1>();
    let _: Tensor<f32, shape![2, 1, 4]> = x.sum_keepdim::<1>();
    let _: Tensor<f32, shape![3]> = x.sum_dims::<axes![2, 0]>();
    let _: Tensor<f32, shape![1, 3, 1]> = x.sum_dims_keepdim::<axes![0, 2]>();
    let _: Tensor<f32, shape![]> = x.mean();
    let _: Tensor<f32, shape![2, 3]> = x.mean_dim::<2>();
    let _: Tensor<f32, shape![2, 3, 1]> = x.mean_keepdim::<2>();
    let _: Tensor<f32, shape![4]> = x.mean_dims::<axes![0, 1]>();
    let _: Tensor<f32, shape![1, 1, 4]> = x.mean_dims_keepdim::<axes![0, 1]>();
    let _: Tensor<f32, shape![]> = x.prod();
    let _: Tensor<f32, shape![3, 4]> = x.prod_dim::<0>();
    let _: Tensor<f32, shape![1, 3, 4]> = x.prod_keepdim::<0>();
    let _: Tensor<bool, shape![]> = x.all();
    let _: Tensor<bool, shape![2, 3]> = x.all_dim::<2>();
    let _: Tensor<bool, shape![2, 1, 4]> = x.any_keepdim::<1>();
    let _: Tensor<bool, shape![3]> = x.any_dims::<axes![0, 2]>();
    let _: Tensor<bool, shape![1, 3, 1]> = x.all_dims_keepdim::<axes![0, 2]>();

    let i = Tensor::<i32, shape![2, 3]>::ones();
    let _: Tensor<i64, shape![]> = i.sum();
    let _: Tensor<i64, shape![2]> = i.prod_dim::<1>();
    let _: Tensor<i32, shape![]> = i.amax();
    let _: Tensor<i32, shape![3]> = i.amin_dim::<0>();
    let _: Tensor<i32, shape![1, 3]> = i.amax_keepdim::<0>();
    let _: Tensor<i32, shape![]> = i.amin_dims::<axes![1, 0]>();
    let _: Tensor<i32, shape![1, 1]> = i.amax_dims_keepdim::<axes![0, 1]>();
    let _: Tensor<i32, shape![]> = i.max();
    let _: Tensor<i32, shape![]> = i.min();
    let (_, _): (Tensor<i32, shape![2]>, Tensor<i64, shape![2]>) = i.max_dim::<1>();
    let (_, _): (Tensor<i32, shape![2, 1]>, Tensor<i64, shape![2, 1]>) = i.min_keepdim::<1>();
    let _: Tensor<i64, shape![]> = i.argmax();
    let _: Tensor<i64, shape![3]> = i.argmin_dim::<0>();
    let _: Tensor<i64, shape![1, 3]> = i.argmax_keepdim::<0>();
    // The order reductions need an element: on static non-empty axes they
    // return tensors; the `try_` forms take any shape (a `Dyn` size is
    // checked at run time) and return `Result`.
    let r = Tensor::<i32, shape![Dyn, 3]>::zeros_with(&[2, 3]);
    let _: Tensor<i32, shape![Dyn]> = r.amax_dim::<1>();
    let _: Result<Tensor<i32, shape![3]>, shaped::Error> = r.try_amin_dim::<0>();
    let _: Result<Tensor<i64, shape![]>, shaped::Error> = r.try_argmax();
    let _: Result<(Tensor<i32, shape![Dyn]>, Tensor<i64, shape![Dyn]>), shaped::Error> = r.try_max_dim::<1>();

    let u = Tensor::<u8, shape![4]>::ones();
    let _: Tensor<u8, shape![]> = u.all();
    let b = Tensor::<bool, shape![4]>::ones();
    let _: Tensor<i64, shape![]> = b.sum();

    let c = Tensor::<Complex<f64>, shape![2, 2]>::ones();
    let _: Tensor<Complex<f64>, shape![2]> = c.sum_dim::<0>();
    let _: Tensor<Complex<f64>, shape![2]> = c.mean_dim::<1>();
    let _: Tensor<Complex<f64>, shape![]> = c.prod();

    // A `Dyn` size stays in the result where it is not reduced.
    let m = Tensor::<f32, shape![Dyn, 3]>::zeros_with(&[5, 3]);
    let s: Tensor<f32, shape![Dyn]> = m.sum_dim::<1>();
    assert_eq!(s.shape(), [5]);
    let h = Tensor::<half::f16, shape![2, 2]>::ones();
    let _: Tensor<half::f16, shape![2]> = h.sum_dim::<0>();
}
