// Shapes broadcast only when trailing sizes are equal or 1: (5,2,4,1) + (3,1,1)
// clashes at dimension 1 (2 vs 3).
use shaped::prelude::*;

fn main() {
    let a = Tensor::<f32, shape![5, 2, 4, 1]>::zeros();
    let b = Tensor::<f32, shape![3, 1, 1]>::zeros();
    let _ = &a + &b;
}
