// `unbind::<DIM>` needs a dimension DIM: a vector has only dimension 0.
use shaped::prelude::*;

fn main() {
    let t = Tensor::<f32, shape![4]>::zeros();
    let _ = t.unbind::<1>();
}
