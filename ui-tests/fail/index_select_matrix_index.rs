// The index of `index_select` is a vector (or a single number): a (2, 2) index has no one
// length to put in place of the dimension (PyTorch: "index_select(): Index is supposed to be a
// vector"). Flatten it first, or use `gather` for one index per position.
use shaped::prelude::*;

fn main() {
    let x = Tensor::<f32, shape![3, 4]>::zeros();
    let idx = Tensor::<i64, shape![2, 2]>::zeros();
    let _ = x.index_select::<0>(&idx);
}
