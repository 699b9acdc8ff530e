// Two sizes of 2 or more must be equal: (3,2) + (1,5) clashes at dimension 1
// (2 vs 5), although the leading 3 vs 1 would stretch.
use shaped::prelude::*;

fn main() {
    let a = Tensor::<f32, shape![3, 2]>::zeros();
    let b = Tensor::<f32, shape![1, 5]>::zeros();
    let _ = &a + &b;
}
