// Element assignment `x[[i, j]] = v` needs a writable tensor; an expanded
// (stride-0) view is read-only. rustc's own E0594 says so.
use shaped::prelude::*;

fn main() {
    let x = Tensor::<f32, shape![3]>::zeros();
    let e = x.expand::<shape![2, 3]>();
    e[[0, 0]] = 1.0;
}
