// `a.eq(&b)` broadcasts like `+`: (2,3) vs (3,2) clashes at dimension 1.
use shaped::prelude::*;

fn main() {
    let a = Tensor::<f32, shape![2, 3]>::zeros();
    let b = Tensor::<f32, shape![3, 2]>::zeros();
    let _ = a.eq(&b);
}
