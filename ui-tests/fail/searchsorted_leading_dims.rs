// `searchsorted` takes 1-D boundaries, or boundaries whose leading dims are
// the values' (one sorted line per row of values). Boundaries of shape
// [2, 5] against values of shape [3, 4] do not compile (PyTorch: "the
// first N-1 dimensions of boundaries tensor and input value tensor must
// match").
use shaped::prelude::*;

fn main() {
    let b = Tensor::<f32, shape![2, 5]>::zeros();
    let v = Tensor::<f32, shape![3, 4]>::zeros();
    let _ = b.searchsorted(&v, false);
    let w = Tensor::<f32, shape![2, 4]>::zeros();
    let _ = b.searchsorted(&w, false); // compiles
}
