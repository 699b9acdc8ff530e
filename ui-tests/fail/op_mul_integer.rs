// Integer tensors broadcast like any other: (2,2) * (3,) clashes at dimension 1.
use shaped::prelude::*;

fn main() {
    let a = Tensor::<i64, shape![2, 2]>::zeros();
    let b = Tensor::<i64, shape![3]>::zeros();
    let _ = &a * &b;
}
