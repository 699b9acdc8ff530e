// `a.le(b)` broadcasts like `+`: (1,3) vs (2,2) clashes at dimension 1.
use shaped::prelude::*;

fn main() {
    let a = Tensor::<f32, shape![1, 3]>::zeros();
    let b = Tensor::<f32, shape![2, 2]>::zeros();
    let _ = a.le(b);
}
