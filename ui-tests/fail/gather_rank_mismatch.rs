// `gather` reads one element per position of its index, so the index has the input's rank
// (PyTorch: "Index tensor must have the same number of dimensions as input tensor").
use shaped::prelude::*;

fn main() {
    let x = Tensor::<f32, shape![3, 4]>::zeros();
    let idx = Tensor::<i64, shape![3]>::zeros();
    let _ = x.gather::<1>(&idx);
}
