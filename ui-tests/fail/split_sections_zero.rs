// `tensor_split::<DIM, SECTIONS>` needs at least one section.
use shaped::prelude::*;

fn main() {
    let t = Tensor::<f32, shape![Dyn, 6]>::zeros_with(&[4, 6]);
    let _ = t.tensor_split::<0, 0>();
}
