// `split::<DIM, SIZE>` cannot cut pieces of size 0.
use shaped::prelude::*;

fn main() {
    let t = Tensor::<f32, shape![4, 6]>::zeros();
    let _ = t.split::<1, 0>();
}
