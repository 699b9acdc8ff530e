// `addcdiv` of two integer tensors: PyTorch removed integer division here
// ("Integer division with addcdiv is no longer supported ..."), even when
// `self` is floating. Cast one of them: `t1.cast::<f32>()`.
use shaped::prelude::*;

fn main() {
    let x = tensor![1.0f32, 2.0];
    let t1 = tensor![3i64, 4];
    let t2 = tensor![2i32, 2];
    let _ = x.addcdiv(&t1, &t2, 1.0);
}
