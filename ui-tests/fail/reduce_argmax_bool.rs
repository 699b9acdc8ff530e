// PyTorch's `argmax` and `argmin` reject bool tensors ("argmax(): does not support bool input");
// `max_dim` gives values and indices, or cast first.
use shaped::prelude::*;

fn main() {
    let t = Tensor::<bool, shape![2, 3]>::zeros();
    let _ = t.argmax_dim::<1>();
}
