// `kthvalue`, `median` and `nanmedian` rank numbers; PyTorch refuses bool
// tensors ("\"median_out\" not implemented for 'Bool'"), and so does the
// compiler here. `mode` takes bool tensors.
use shaped::prelude::*;

fn main() {
    let b = Tensor::<bool, shape![4]>::zeros();
    let _ = b.median_dim::<0>();
    let _ = b.mode::<0>(); // compiles
}
