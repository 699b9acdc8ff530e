// `isclose` and `allclose` compare tensors of one element type (PyTorch
// refuses two at run time: "Float did not match Double"); convert one side
// first (`b.cast::<f32>()`). `equal` takes two types and promotes.
use shaped::prelude::*;

fn main() {
    let a = Tensor::<f32, shape![3]>::zeros();
    let b = Tensor::<f64, shape![3]>::zeros();
    let _ = a.isclose(&b, 1e-5, 1e-8, false);
}
