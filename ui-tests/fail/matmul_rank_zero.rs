// `matmul` needs at least one dimension on each side: a rank-0 tensor is
// not an operand (multiply by a scalar with `*`).
use shaped::prelude::*;

fn main() {
    let m = Tensor::<f32, shape![2, 3]>::ones();
    let s = Tensor::<f32, shape![]>::ones();
    let _ = m.matmul(&s);
}
