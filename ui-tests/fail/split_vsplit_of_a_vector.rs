// `vsplit` splits dimension 0 of a matrix or more, never a vector.
use shaped::prelude::*;

fn main() {
    let t = Tensor::<f32, shape![6]>::zeros();
    let _ = t.vsplit::<2>();
}
