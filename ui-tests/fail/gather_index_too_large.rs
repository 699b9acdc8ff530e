// Off the gathered dimension, `gather`'s index may be no larger than the input: position (i, j)
// of the index reads row i of the input (PyTorch: "Size does not match at dimension 1 expected
// index [3, 5] to be no larger than self [3, 4] apart from dimension 0"). Along the gathered
// dimension any length goes.
use shaped::prelude::*;

fn main() {
    let x = Tensor::<f32, shape![3, 4]>::zeros();
    let idx = Tensor::<i64, shape![3, 5]>::zeros();
    let _ = x.gather::<0>(&idx);
}
