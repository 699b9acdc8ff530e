// `unfold::<DIM, SIZE, STEP>` windows cannot be longer than the dimension: 5 > 4.
use shaped::prelude::*;

fn main() {
    let t = Tensor::<f32, shape![3, 4]>::zeros();
    let _ = t.unfold::<1, 5, 1>();
}
