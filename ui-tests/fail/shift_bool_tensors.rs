// Shifts compute in the operands' common type, which must be an integer
// type: two bool tensors have no `<<` (PyTorch: "lshift_cpu" not
// implemented for 'Bool'). A bool tensor shifted by an integer one, or by
// a number, computes in the integer type, as in PyTorch.
use shaped::prelude::*;

fn main() {
    let m = Tensor::<bool, shape![2]>::zeros();
    let _ = &m << &m;
}
