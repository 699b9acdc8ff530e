// Off the dimension it writes along, `scatter`'s index may be no larger than the tensor:
// position (i, j) of the index writes row i (PyTorch: "Expected index [5, 2] to be no larger than
// self [3, 4] apart from dimension 1 and to be no larger size than src [5, 2]").
use shaped::prelude::*;

fn main() {
    let x = Tensor::<f32, shape![3, 4]>::zeros();
    let idx = Tensor::<i64, shape![5, 2]>::zeros();
    let src = Tensor::<f32, shape![5, 2]>::zeros();
    let _ = x.scatter::<1>(&idx, &src);
}
