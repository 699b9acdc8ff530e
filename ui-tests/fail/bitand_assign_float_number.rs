// `&=` keeps the in-place rule and the bitwise rule: an integer tensor with
// a float number would compute in float32, which has no `&`.
use shaped::prelude::*;

fn main() {
    let mut x = Tensor::<i64, shape![3]>::zeros();
    x &= 1.5;
}
