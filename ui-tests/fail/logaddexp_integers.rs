// `logaddexp` takes floating and complex tensors: PyTorch refuses integer
// and bool ones at run time ("logaddexp_cpu" not implemented for 'Long').
// A float operand makes the common type floating: `a.logaddexp(&b.cast::<f32>())`.
use shaped::prelude::*;

fn main() {
    let a = tensor![1i32, 2];
    let b = tensor![true, false];
    let _ = a.logaddexp(&b);
}
