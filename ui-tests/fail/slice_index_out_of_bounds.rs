// A literal index must lie in the dimension: size 4 takes -4 to 3.
use shaped::prelude::*;

fn main() {
    let t = Tensor::<f32, shape![3, 4]>::zeros();
    let _ = t.slice(s![.., 4]);
}
