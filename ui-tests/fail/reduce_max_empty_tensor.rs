// The whole-tensor `max()`, `amax()` and `argmax()` need an element: a static size 0 anywhere
// leaves none (PyTorch: "max(): Expected reduction dim to be specified for input.numel() == 0").
use shaped::prelude::*;

fn main() {
    let t = Tensor::<i64, shape![0, 2]>::zeros();
    let _ = t.max();
}
