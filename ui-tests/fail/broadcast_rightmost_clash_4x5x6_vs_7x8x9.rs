// Only the right-most clash is reported: (4,5,6) + (7,8,9) clash at every
// dimension; the error names dimension 2 (6 vs 9).
use shaped::prelude::*;

fn main() {
    let a = Tensor::<f32, shape![4, 5, 6]>::zeros();
    let b = Tensor::<f32, shape![7, 8, 9]>::zeros();
    let _ = &a + &b;
}
