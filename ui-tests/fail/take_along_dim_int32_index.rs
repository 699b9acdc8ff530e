// `take_along_dim` and `take` take int64 indices only (PyTorch: "torch.take_along_dim(): dtype
// of indices should be Long but got Int"); `cast::<i64>()` the index first.
use shaped::prelude::*;

fn main() {
    let x = Tensor::<f32, shape![3, 4]>::zeros();
    let idx = Tensor::<i32, shape![3, 1]>::zeros();
    let _ = x.take_along_dim::<1>(&idx);
}
