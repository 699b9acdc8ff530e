// In `x += y`, each size of `y` must equal `x`'s or be 1: (2,3) += (4,3)
// clashes at dimension 0 (4 into 2).
use shaped::prelude::*;

fn main() {
    let mut a = Tensor::<f32, shape![2, 3]>::zeros();
    let b = Tensor::<f32, shape![4, 3]>::zeros();
    a += &b;
}
