// In `x *= y`, `y` may not have more dimensions than `x`, even of size 1:
// (3,) *= (1,3) would give (1,3).
use shaped::prelude::*;

fn main() {
    let mut a = Tensor::<f32, shape![3]>::zeros();
    let b = Tensor::<f32, shape![1, 3]>::zeros();
    a *= &b;
}
