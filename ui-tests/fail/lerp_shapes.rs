// The three operands of `lerp` broadcast together, as `+` does: sizes 2
// and 3 in one dimension do not.
use shaped::prelude::*;

fn main() {
    let start = Tensor::<f32, shape![2]>::zeros();
    let end = Tensor::<f32, shape![2]>::ones();
    let weight = Tensor::<f32, shape![3]>::ones();
    let _ = start.lerp(&end, &weight);
}
