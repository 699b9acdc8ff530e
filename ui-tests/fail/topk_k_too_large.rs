// `topk::<K, DIM>` keeps K elements of dimension DIM, so K may be no larger
// than its size (PyTorch: "selected index k out of range"). With both
// static, a K too large does not compile; a `Dyn` size is checked at run
// time.
use shaped::prelude::*;

fn main() {
    let x = Tensor::<f32, shape![2, 3]>::zeros();
    let _ = x.topk::<4, 1>();
    let _ = x.topk::<3, 1>(); // compiles
}
