// Each index tensor covers one dimension, a mask as many as it has: more than the tensor
// has does not compile (PyTorch: "too many indices for tensor of dimension 2").
use shaped::prelude::*;

fn main() {
    let x = Tensor::<f32, shape![4, 5]>::zeros();
    let i = Tensor::<i64, shape![2]>::zeros();
    let _ = x.index((&i, &i, &i));
}
