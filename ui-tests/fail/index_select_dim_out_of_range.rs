// `index_select::<DIM>` picks entries along dimension `DIM`, which must exist: a (3, 4) tensor
// has dimensions 0 and 1 (PyTorch: "Dimension out of range (expected to be in range of [-2, 1],
// but got 2)"). `DynTensor::index_select(dim, &idx)` takes a runtime dim and returns that error.
use shaped::prelude::*;

fn main() {
    let x = Tensor::<f32, shape![3, 4]>::zeros();
    let idx = Tensor::<i64, shape![2]>::zeros();
    let _ = x.index_select::<2>(&idx);
}
