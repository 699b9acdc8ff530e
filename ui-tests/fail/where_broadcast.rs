// `where_(cond, a, b)` broadcasts all three: a condition of (2, 3) with
// `a` of (4,) does not broadcast.
use shaped::prelude::*;

fn main() {
    let cond = Tensor::<bool, shape![2, 3]>::ones();
    let a = Tensor::<f32, shape![4]>::ones();
    let b = Tensor::<f32, shape![3]>::ones();
    let _ = shaped::where_(&cond, &a, &b);
}
