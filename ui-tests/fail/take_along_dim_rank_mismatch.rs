// `take_along_dim` broadcasts an index of the input's rank (PyTorch: "torch.take_along_dim():
// input and indices should have the same number of dimensions, but got 2 dimensions for input,
// and 1 dimensions for indices"); `unsqueeze` the index first.
use shaped::prelude::*;

fn main() {
    let x = Tensor::<f32, shape![3, 4]>::zeros();
    let idx = Tensor::<i64, shape![4]>::zeros();
    let _ = x.take_along_dim::<1>(&idx);
}
