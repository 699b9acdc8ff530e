// `narrow::<DIM, LEN>` cannot be longer than a static dimension: 5 > 4.
use shaped::prelude::*;

fn main() {
    let t = Tensor::<f32, shape![3, 4]>::zeros();
    let _ = t.narrow::<1, 5>(0);
}
