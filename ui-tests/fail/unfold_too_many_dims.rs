// `unfold` adds a dimension: not to a shape that already has 8.
use shaped::prelude::*;

fn main() {
    let t = Tensor::<f32, shape![1, 1, 1, 1, 1, 1, 1, 4]>::zeros();
    let _ = t.unfold::<7, 2, 1>();
}
