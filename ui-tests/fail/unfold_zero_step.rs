// `unfold::<DIM, SIZE, STEP>` needs a step of at least 1.
use shaped::prelude::*;

fn main() {
    let t = Tensor::<f32, shape![3, 4]>::zeros();
    let _ = t.unfold::<1, 2, 0>();
}
