// A `Dyn` size elsewhere does not hide a static clash: the inner sizes 3
// and 4 are both known, so the compiler rejects them.
use shaped::prelude::*;

fn main() {
    let a = Tensor::<f32, shape![Dyn, 3]>::zeros_with(&[2, 3]);
    let b = Tensor::<f32, shape![4, Dyn]>::zeros_with(&[4, 5]);
    let _ = a.matmul(&b);
}
