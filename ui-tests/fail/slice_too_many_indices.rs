// Each index or range names one dimension: three items for a rank-2 tensor.
use shaped::prelude::*;

fn main() {
    let t = Tensor::<f32, shape![3, 4]>::zeros();
    let _ = t.slice(s![0, 1, 2]);
}
