// Size 0 is an ordinary size: it broadcasts only with 0 or 1, so (0,) + (2,2)
// clashes at the last dimension (0 vs 2).
use shaped::prelude::*;

fn main() {
    let a = Tensor::<f32, shape![0]>::zeros();
    let b = Tensor::<f32, shape![2, 2]>::zeros();
    let _ = &a + &b;
}
