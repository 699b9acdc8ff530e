// An in-place function stores its result in the tensor's own dtype, under
// PyTorch's casting rule: `exp` of an integer tensor is float32, which an
// integer tensor cannot hold (PyTorch: "result type Float can't be cast to
// the desired output type Long"). Use the out-of-place `x.exp()`, or cast
// first: `x.cast::<f32>()`.
use shaped::prelude::*;

fn main() {
    let mut x = tensor![1i64, 2];
    x.exp_();
}
