// `abs` of a bool tensor: PyTorch has no kernel for it
// (`"abs_cpu" not implemented for 'Bool'`).
use shaped::prelude::*;

fn main() {
    let m = Tensor::<bool, shape![3]>::ones();
    let _ = m.abs();
}
