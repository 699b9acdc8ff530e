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
    let _: Tensor<i32, shape![]> = i.amax().unwrap();
    let _: Tensor<i32, shape![3]> = i.amin_dim::<0>().unwrap();
    let _: Tensor<i32, shape![1, 3]> = i.amax_keepdim::<0>().unwrap();
    let _: Tensor<i32, shape![]> = i.amin_dims::<axes![1, 0]>().unwrap();
    let _: Tensor<i32, shape![1, 1]> = i.amax_dims_keepdim::<axes![0, 1]>().unwrap();
    let _: Tensor<i32, shape![]> = i.max().unwrap();
    let _: Tensor<i32, shape![]> = i.min().unwrap();
    let (_, _): (Tensor<i32, shape![2]>, Tensor<i64, shape![2]>) = i.max_dim::<1>().unwrap();
    let (_, _): (Tensor<i32, shape![2, 1]>, Tensor<i64, shape![2, 1]>) = i.min_keepdim::<1>().unwrap();
    let _: Tensor<i64, shape![]> = i.argmax().unwrap();
    let _: Tensor<i64, shape![3]> = i.argmin_dim::<0>().unwrap();
    let _: Tensor<i64, shape![1, 3]> = i.argmax_keepdim::<0>().unwrap();

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
