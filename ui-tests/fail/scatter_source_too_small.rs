// Each position of `scatter`'s index sends the source's element at the same position, so the
// source is at least as large as the index (PyTorch: "Expected index [2, 3] to be no larger than
// self [3, 4] apart from dimension 1 and to be no larger size than src [2, 2]").
use shaped::prelude::*;

fn main() {
    let mut x = Tensor::<f32, shape![3, 4]>::zeros();
    let idx = Tensor::<i64, shape![2, 3]>::zeros();
    let src = Tensor::<f32, shape![2, 2]>::zeros();
    x.scatter_add_::<1>(&idx, &src);
}
