// `hsplit` needs a dimension to split: a scalar has none.
use shaped::prelude::*;

fn main() {
    let t = Tensor::<f32, shape![]>::zeros();
    let _ = t.hsplit::<2>();
}
