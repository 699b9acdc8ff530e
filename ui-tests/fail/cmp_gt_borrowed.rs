// `a.gt(&b)` broadcasts like `+`: (0,) vs (3,) clashes at dimension 0.
use shaped::prelude::*;

fn main() {
    let a = Tensor::<f32, shape![0]>::zeros();
    let b = Tensor::<f32, shape![3]>::zeros();
    let _ = a.gt(&b);
}
