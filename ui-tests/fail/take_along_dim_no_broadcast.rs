// `take_along_dim` broadcasts the input (with the gathered dimension as long as the index's) and
// the index: off that dimension their sizes must broadcast, and 3 and 2 do not (PyTorch: "The
// size of tensor a (3) must match the size of tensor b (2) at non-singleton dimension 0").
use shaped::prelude::*;

fn main() {
    let x = Tensor::<f32, shape![3, 4]>::zeros();
    let idx = Tensor::<i64, shape![2, 5]>::zeros();
    let _ = x.take_along_dim::<1>(&idx);
}
