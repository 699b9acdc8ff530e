// logcumsumexp takes floating and complex tensors (PyTorch:
// "\"logcumsumexp_out_cpu\" not implemented for 'Long'"). On an integer
// tensor of static dtype it does not compile; convert first.
use shaped::prelude::*;

fn main() {
    let counts = Tensor::<i64, shape![4]>::zeros();
    let _ = counts.logcumsumexp::<0>();
    let _ = counts.cast::<f32>().logcumsumexp::<0>(); // compiles
}
