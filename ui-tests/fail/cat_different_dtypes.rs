// A static `cat` joins tensors of one element type (convert with
// `cast::<U>()` first, or use `AnyTensor::cat`, which promotes).
use shaped::prelude::*;

fn main() {
    let a = Tensor::<f32, shape![2]>::ones();
    let b = Tensor::<i32, shape![2]>::ones();
    let _ = (&a, &b).cat::<0>();
}
