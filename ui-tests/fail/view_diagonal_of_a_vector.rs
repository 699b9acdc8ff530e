// `diagonal()` takes dimensions 0 and 1, so it needs at least two.
use shaped::prelude::*;

fn main() {
    let v = Tensor::<f32, shape![3]>::zeros();
    let _ = v.diagonal();
}
