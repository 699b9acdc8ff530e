// `a.ge(b)` broadcasts like `+`: (3,1) vs (2,5) clashes at dimension 0.
use shaped::prelude::*;

fn main() {
    let a = Tensor::<f32, shape![3, 1]>::zeros();
    let b = Tensor::<f32, shape![2, 5]>::zeros();
    let _ = a.ge(b);
}
