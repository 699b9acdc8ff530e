// The dim of a static softmax is in its type: a dim the shape does not have does not compile
// (PyTorch: "Dimension out of range (expected to be in range of [-2, 1], but got 2)").
use shaped::prelude::*;

fn main() {
    let x = Tensor::<f32, shape![2, 3]>::zeros();
    let _ = x.softmax::<2>();
}
