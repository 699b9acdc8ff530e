// `a / b` with owned tensors follows the broadcasting rule: (5,1) / (1,6,2)
// clashes at dimension 1 (5 vs 6).
use shaped::prelude::*;

fn main() {
    let a = Tensor::<f32, shape![5, 1]>::zeros();
    let b = Tensor::<f32, shape![1, 6, 2]>::zeros();
    let _ = a / b;
}
