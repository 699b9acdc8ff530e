// Only the right-most clash is reported: in (2,3,1) + (3,4,7) dimension 2
// stretches and dimensions 0 and 1 clash; the error names dimension 1 (3 vs 4).
use shaped::prelude::*;

fn main() {
    let a = Tensor::<f32, shape![2, 3, 1]>::zeros();
    let b = Tensor::<f32, shape![3, 4, 7]>::zeros();
    let _ = &a + &b;
}
