// An empty list of axes is refused (PyTorch reads it as "every axis"); the whole-tensor form says so: `mean()`.
use shaped::prelude::*;

fn main() {
    let t = Tensor::<f32, shape![2, 3]>::zeros();
    let _ = t.mean_dims::<axes![]>();
}
