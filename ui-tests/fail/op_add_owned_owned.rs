// `a + b` with owned tensors follows the broadcasting rule: (2,3) + (2,4)
// clashes at dimension 1.
use shaped::prelude::*;

fn main() {
    let a = Tensor::<f32, shape![2, 3]>::zeros();
    let b = Tensor::<f32, shape![2, 4]>::zeros();
    let _ = a + b;
}
