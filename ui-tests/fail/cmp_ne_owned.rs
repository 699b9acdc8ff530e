// `a.ne(b)` broadcasts like `+`: (4,) vs (5,) clashes at dimension 0.
use shaped::prelude::*;

fn main() {
    let a = Tensor::<f32, shape![4]>::zeros();
    let b = Tensor::<f32, shape![5]>::zeros();
    let _ = a.ne(b);
}
