// `lerp` interpolates floating or complex tensors only: PyTorch refuses
// integer ones at run time ("lerp_kernel_scalar" not implemented for
// 'Long'). Cast first: `a.cast::<f32>().lerp(&b.cast::<f32>(), 0.5)`.
use shaped::prelude::*;

fn main() {
    let a = tensor![1i64, 2];
    let b = tensor![3i64, 4];
    let _ = a.lerp(&b, 0.5);
}
