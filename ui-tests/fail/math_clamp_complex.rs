// `clamp` needs an order: complex tensors cannot be clamped
// (`clamp is not supported for complex types`).
use num_complex::Complex;
use shaped::prelude::*;

fn main() {
    let z = Tensor::<Complex<f64>, shape![2]>::ones();
    let _ = z.clamp(0.0, 1.0);
}
