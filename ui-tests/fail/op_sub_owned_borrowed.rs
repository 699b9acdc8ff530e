// `a - &b` follows the broadcasting rule: (4,3) - (2,3) clashes at dimension 0.
use shaped::prelude::*;

fn main() {
    let a = Tensor::<f32, shape![4, 3]>::zeros();
    let b = Tensor::<f32, shape![2, 3]>::zeros();
    let _ = a - &b;
}
