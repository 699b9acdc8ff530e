// `amax_dim`, `max_dim` and `argmax_dim` need an element along the axis: a static size 0 has none
// (PyTorch: "Expected reduction dim 1 to have non-zero size"). `try_amax_dim` takes any axis
// and returns that error; a `Dyn` size is checked at run time.
use shaped::prelude::*;

fn main() {
    let t = Tensor::<f32, shape![3, 0]>::zeros();
    let _ = t.amax_dim::<1>();
}
