// Elementwise math on static tensors: each function's result type is
// PyTorch's (integers and bool give float32 for the transcendental
// functions, complex `abs` gives the real type, rounding keeps integers),
// on owned tensors and views; `maximum`, `minimum`, `pow` broadcast and
// promote like `+`; `where_` broadcasts its three operands.
use num_complex::Complex;
use shaped::prelude::*;

fn main() {
    let x = Tensor::<f32, shape![2, 3]>::from_vec(vec![-1.5, 0.0, 0.5, 1.0, 2.5, 4.0]).unwrap();
    let _: Tensor<f32, shape![2, 3]> = x.exp();
    let _: Tensor<f32, shape![2, 3]> = x.ln();
    let _: Tensor<f32, shape![2, 3]> = x.log2();
    let _: Tensor<f32, shape![2, 3]> = x.sqrt();
    let _: Tensor<f32, shape![2, 3]> = x.sin();
    let _: Tensor<f32, shape![2, 3]> = x.cos();
    let _: Tensor<f32, shape![2, 3]> = x.tanh();
    let _: Tensor<f32, shape![2, 3]> = x.sigmoid();
    let _: Tensor<f32, shape![2, 3]> = x.recip();
    let _: Tensor<f32, shape![2, 3]> = x.abs();
    let _: Tensor<f32, shape![2, 3]> = x.relu();
    let _: Tensor<f32, shape![2, 3]> = x.floor();
    let _: Tensor<f32, shape![2, 3]> = x.ceil();
    let r: Tensor<f32, shape![2, 3]> = x.round();
    assert_eq!(r.to_vec(), vec![-2.0, 0.0, 0.0, 1.0, 2.0, 4.0]);
    let _: Tensor<f32, shape![2, 3]> = x.clamp(0.0, 1.0);
    let _: Tensor<f32, shape![2, 3]> = x.powf(2.0);

    // A view (the transpose) works the same way.
    let _: Tensor<f32, shape![3, 2]> = x.t().exp();

    // Integers: transcendental functions give float32, the rest keep the type.
    let n = Tensor::<i16, shape![3]>::from_vec(vec![-2, 0, 7]).unwrap();
    let _: Tensor<f32, shape![3]> = n.exp();
    let _: Tensor<f32, shape![3]> = n.recip();
    let _: Tensor<i16, shape![3]> = n.abs();
    let _: Tensor<i16, shape![3]> = n.relu();
    let _: Tensor<i16, shape![3]> = n.floor();
    let _: Tensor<i16, shape![3]> = n.clamp(0, 5);
    let _: Tensor<f32, shape![3]> = n.clamp(0.5, 5.0);
    let _: Tensor<f32, shape![3]> = n.powf(0.5);

    // Bool: the transcendental functions give float32.
    let m = Tensor::<bool, shape![2]>::ones();
    let _: Tensor<f32, shape![2]> = m.sigmoid();
    let _: Tensor<bool, shape![2]> = m.maximum(&m);

    // Complex: abs gives the real type.
    let z = Tensor::<Complex<f64>, shape![2]>::ones();
    let _: Tensor<f64, shape![2]> = z.abs();
    let _: Tensor<Complex<f64>, shape![2]> = z.exp();
    let _: Tensor<Complex<f64>, shape![2]> = z.pow(&z);

    // Half types.
    let h = Tensor::<half::f16, shape![2]>::ones();
    let _: Tensor<half::f16, shape![2]> = h.tanh();
    let _: Tensor<f32, shape![2]> = h.maximum(&Tensor::<half::bf16, shape![2]>::ones());

    // Binary functions broadcast and promote.
    let col = Tensor::<i32, shape![2, 1]>::from_vec(vec![0, 3]).unwrap();
    let mx: Tensor<f32, shape![2, 3]> = x.maximum(&col);
    assert_eq!(mx[[1, 0]], 3.0);
    let _: Tensor<f32, shape![2, 3]> = x.minimum(&col);
    let _: Tensor<i32, shape![2, 2]> = col.pow(&Tensor::<i32, shape![2]>::ones());
    let _: Tensor<f32, shape![2, 3]> = x.try_maximum(&col).unwrap();

    // where_: the broadcast of the three shapes, a and b promoted.
    let cond = Tensor::<bool, shape![2, 1]>::from_vec(vec![true, false]).unwrap();
    let w: Tensor<f32, shape![2, 3]> = shaped::where_(&cond, &Tensor::<i64, shape![3]>::ones(), &x);
    assert_eq!(w[[0, 0]], 1.0);

    // Dyn sizes are checked at run time.
    let d = Tensor::<f32, shape![Dyn, 3]>::ones_with(&[4, 3]);
    let _: Tensor<f32, shape![Dyn, 3]> = d.exp();
    let _: Tensor<f32, shape![Dyn, 3]> = d.maximum(&Tensor::<f32, shape![3]>::ones());
}
