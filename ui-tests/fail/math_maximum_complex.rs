// `maximum` and `minimum` need an order: a real tensor with a complex one
// compares in complex64, which PyTorch refuses
// (`maximum not implemented for complex tensors.`).
use num_complex::Complex;
use shaped::prelude::*;

fn main() {
    let x = Tensor::<f32, shape![2]>::ones();
    let z = Tensor::<Complex<f32>, shape![2]>::ones();
    let _ = x.maximum(&z);
}
