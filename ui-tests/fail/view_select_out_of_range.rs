// `select::<DIM>` removes dimension DIM, which must exist.
use shaped::prelude::*;

fn main() {
    let t = Tensor::<f32, shape![3, 4]>::zeros();
    let _ = t.select::<2>(0);
}
