// In place, `masked_fill_` cannot grow its tensor: the mask must broadcast to the tensor's shape
// (PyTorch: "output with shape [3, 1] doesn't match the broadcast shape [3, 4]"). The
// out-of-place `masked_fill` broadcasts both and returns the larger shape.
use shaped::prelude::*;

fn main() {
    let mut x = Tensor::<f32, shape![3, 1]>::zeros();
    let mask = Tensor::<bool, shape![3, 4]>::zeros();
    x.masked_fill_(&mask, 1.0);
}
