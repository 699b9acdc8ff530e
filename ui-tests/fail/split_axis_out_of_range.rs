// The split dimension must exist: a matrix has dimensions 0 and 1.
use shaped::prelude::*;

fn main() {
    let t = Tensor::<f32, shape![4, 6]>::zeros();
    let _ = t.split::<2, 2>();
}
