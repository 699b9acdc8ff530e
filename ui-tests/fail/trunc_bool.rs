// `trunc` (like `floor`, `ceil` and `round`) takes real numbers that are
// not bool: PyTorch refuses bool tensors ("trunc_vml_cpu" not implemented
// for 'Bool').
use shaped::prelude::*;

fn main() {
    let m = tensor![true, false];
    let _ = m.trunc();
}
