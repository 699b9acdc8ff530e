// A `Dyn` entry defers only its own size: beside it, static sizes are still
// checked at compile time. (Dyn, 2) += (3,) clashes at dimension 1 (3 into 2).
use shaped::prelude::*;

fn main() {
    let mut rows = Tensor::<f32, shape![Dyn, 2]>::zeros_with(&[4, 2]);
    let b = Tensor::<f32, shape![3]>::ones();
    rows += &b;
}
