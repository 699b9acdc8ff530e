// `Dyn` marks a size known only at run time. Beside a `Dyn` the compiler
// accepts the pair and keeps whatever it knows (a static size other than 1
// wins); the runtime sizes are checked when the operator runs, which panics
// with PyTorch's message if they do not broadcast.
use shaped::prelude::*;

fn main() {
    // The broadcasting example: (Dyn, 3) + (3,) = (Dyn, 3).
    let a = Tensor::<f32, shape![Dyn, 3]>::zeros_with(&[4, 3]);
    let b = Tensor::<f32, shape![3]>::ones();
    let r: Tensor<f32, shape![Dyn, 3]> = &a + &b;
    assert_eq!(r.shape(), [4, 3]);

    // A static size other than 1 wins over Dyn: (Dyn, 1) + (5,) = (Dyn, 5),
    // (Dyn,) * (2, 7) = (2, 7) and (2, 7) - (Dyn,) = (2, 7).
    let c = Tensor::<f32, shape![Dyn, 1]>::zeros_with(&[2, 1]);
    let r: Tensor<f32, shape![Dyn, 5]> = &c + &Tensor::<f32, shape![5]>::ones();
    assert_eq!(r.shape(), [2, 5]);
    let d = Tensor::<f32, shape![Dyn]>::ones_with(&[7]);
    let r: Tensor<f32, shape![2, 7]> = &d * &Tensor::<f32, shape![2, 7]>::ones();
    assert_eq!(r.shape(), [2, 7]);
    let d1 = Tensor::<f32, shape![Dyn]>::ones_with(&[1]);
    let r: Tensor<f32, shape![2, 7]> = &Tensor::<f32, shape![2, 7]>::ones() - &d1;
    assert_eq!(r.shape(), [2, 7]);

    // A static 1 against Dyn gives Dyn (the result is the runtime size).
    let one = Tensor::<f32, shape![1]>::ones();
    let r: Tensor<f32, shape![Dyn]> = &one + &d;
    assert_eq!(r.shape(), [7]);

    // Dyn with Dyn, and a comparison.
    let r: Tensor<f32, shape![Dyn]> = &d + &d1;
    assert_eq!(r.shape(), [7]);
    let r: Tensor<bool, shape![Dyn, 3]> = a.lt(&b);
    assert_eq!(r.shape(), [4, 3]);

    // In place and expand with Dyn sizes: checked at run time.
    let mut x = Tensor::<f32, shape![Dyn, 3]>::zeros_with(&[2, 3]);
    x += &b;
    x *= &Tensor::<f32, shape![Dyn, 1]>::ones_with(&[2, 1]);
    assert_eq!(x.to_vec(), vec![1.0; 6]);
    let e = d1.expand::<shape![2, 3]>();
    assert_eq!(e.strides(), [0, 0]);

    // Runtime sizes that do not broadcast: a panic with PyTorch's text.
    std::panic::set_hook(Box::new(|_| {}));
    let two = Tensor::<f32, shape![Dyn]>::ones_with(&[2]);
    let err = std::panic::catch_unwind(|| &two + &b).unwrap_err();
    assert_eq!(
        err.downcast_ref::<String>().unwrap(),
        "The size of tensor a (2) must match the size of tensor b (3) at non-singleton dimension 0"
    );
}
