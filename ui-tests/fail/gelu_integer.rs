// The activations (`gelu`, `softplus`, `mish`, ...) take real floating
// tensors: PyTorch refuses integer ones at run time ("GeluKernelImpl" not
// implemented for 'Long'). Convert first: `x.cast::<f32>().gelu()`.
use shaped::prelude::*;

fn main() {
    let x = tensor![1i64, -2, 3];
    let _ = x.gelu();
}
