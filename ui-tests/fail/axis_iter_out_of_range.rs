// `axis_iter::<I>()` yields `select::<I>(k)` for each index: axis I must
// exist, as for `select`.
use shaped::prelude::*;

fn main() {
    let t = Tensor::<f32, shape![3, 4]>::zeros();
    for _row in t.axis_iter::<2>() {}
}
