// `round` of a bool tensor: PyTorch has no kernel for it
// (`"round_vml_cpu" not implemented for 'Bool'`).
use shaped::prelude::*;

fn main() {
    let m = Tensor::<bool, shape![2]>::ones();
    let _ = m.round();
}
