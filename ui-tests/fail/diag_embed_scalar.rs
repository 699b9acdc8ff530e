// `diag_embed` puts the last dimension on a diagonal: a rank-0 tensor has
// none (PyTorch: "Dimension out of range (expected to be in range of [-1,
// 0], but got -2)").
use shaped::prelude::*;

fn main() {
    let x = Tensor::<f32, shape![]>::ones();
    let _ = x.diag_embed();
}
