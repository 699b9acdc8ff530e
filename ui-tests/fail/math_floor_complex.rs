// `floor`, `ceil` and `round` need real numbers: PyTorch has no rounding of
// complex values (`floor is not supported for complex inputs`).
use num_complex::Complex;
use shaped::prelude::*;

fn main() {
    let z = Tensor::<Complex<f32>, shape![2]>::ones();
    let _ = z.floor();
}
