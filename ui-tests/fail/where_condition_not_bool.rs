// The condition of `where_` is a bool tensor (PyTorch: `where expected
// condition to be a boolean tensor, but got a tensor with dtype Int`).
use shaped::prelude::*;

fn main() {
    let cond = Tensor::<i32, shape![2]>::ones();
    let a = Tensor::<f32, shape![2]>::ones();
    let _ = shaped::where_(&cond, &a, &a);
}
