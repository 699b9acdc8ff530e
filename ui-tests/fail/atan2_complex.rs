// `atan2`, `copysign` and `xlogy` take real tensors (integers and bool
// compute in float32): PyTorch refuses complex ones at run time
// ("atan2_cpu" not implemented for 'ComplexFloat'). Here the common type of
// a float32 and a complex64 tensor is complex64, so the call does not
// compile.
use num_complex::Complex;
use shaped::prelude::*;

fn main() {
    let y = tensor![1.0f32, 2.0];
    let z = tensor![Complex::new(1.0f32, 2.0)];
    let _ = y.atan2(&z);
}
