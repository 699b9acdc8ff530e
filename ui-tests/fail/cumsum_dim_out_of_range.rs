// A scan's dim is checked against the rank at compile time: a (2, 3) tensor
// has dims 0 and 1, so `cumsum::<2>()` does not compile (PyTorch: "Dimension
// out of range (expected to be in range of [-2, 1], but got 2)").
use shaped::prelude::*;

fn main() {
    let x = Tensor::<f32, shape![2, 3]>::zeros();
    let _ = x.cumsum::<2>();
    let _ = x.cumsum::<1>(); // compiles
}
