// `scatter`'s index has the rank of the tensor it writes (PyTorch: "Index tensor must have the
// same number of dimensions as self tensor"); `unsqueeze` the index first.
use shaped::prelude::*;

fn main() {
    let x = Tensor::<f32, shape![3, 4]>::zeros();
    let idx = Tensor::<i64, shape![4]>::zeros();
    let src = Tensor::<f32, shape![4]>::zeros();
    let _ = x.scatter_add::<1>(&idx, &src);
}
