// Padding amounts come in (before, after) pairs: PyTorch refuses an odd
// number ("Padding length must be divisible by 2").
use shaped::prelude::*;

fn main() {
    let x = Tensor::<f32, shape![2, 3]>::ones();
    let _ = x.pad::<shape![1, 2, 3]>(0.0);
}
