// `pow` of two bool tensors: PyTorch has no kernel for it
// (`"pow" not implemented for 'Bool'`).
use shaped::prelude::*;

fn main() {
    let m = Tensor::<bool, shape![2]>::ones();
    let _ = m.pow(&m);
}
