// `&a / &b` follows the broadcasting rule: (2,3,4) / (3,5) clashes at
// dimension 2 (4 vs 5).
use shaped::prelude::*;

fn main() {
    let a = Tensor::<f32, shape![2, 3, 4]>::zeros();
    let b = Tensor::<f32, shape![3, 5]>::zeros();
    let _ = &a / &b;
}
