// A negative index counts from the end, at most the size: -4 is too far for size 3.
use shaped::prelude::*;

fn main() {
    let t = Tensor::<f32, shape![3, 4]>::zeros();
    let _ = t.slice(s![-4]);
}
