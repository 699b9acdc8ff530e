// softmax takes floating tensors (PyTorch: "softmax_lastdim_kernel_impl" not implemented for
// 'Long'). On an integer tensor it does not compile; `softmax_in::<f32, DIM>()` converts first,
// as PyTorch's `dtype=` argument does.
use shaped::prelude::*;

fn main() {
    let counts = Tensor::<i64, shape![2, 3]>::zeros();
    let _ = counts.softmax::<1>();
    let _ = counts.softmax_in::<f32, 1>(); // compiles
}
