// At most one (before, after) pair per dimension: PyTorch refuses more
// ("Padding length should be less than or equal to two times the input
// dimension").
use shaped::prelude::*;

fn main() {
    let x = Tensor::<f32, shape![3]>::ones();
    let _ = x.pad::<shape![1, 1, 1, 1]>(0.0);
}
