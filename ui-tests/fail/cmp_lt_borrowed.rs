// `a.lt(&b)` broadcasts like `+`: (2,1,3) vs (4,2) clashes at dimension 2.
use shaped::prelude::*;

fn main() {
    let a = Tensor::<f32, shape![2, 1, 3]>::zeros();
    let b = Tensor::<f32, shape![4, 2]>::zeros();
    let _ = a.lt(&b);
}
