// A real tensor cannot take a complex result in place: `float32 *=
// complex64` keeps a complex product.
use shaped::prelude::*;
use num_complex::Complex;

fn main() {
    let mut x = Tensor::<f32, shape![2]>::ones();
    x *= &Tensor::<Complex<f32>, shape![2]>::ones();
}
