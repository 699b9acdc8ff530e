// `silu` takes floating and complex tensors; PyTorch refuses bool ones
// ("silu_cpu" not implemented for 'Bool'). Convert first:
// `m.cast::<f32>().silu()`.
use shaped::prelude::*;

fn main() {
    let m = tensor![true, false];
    let _ = m.silu();
}
