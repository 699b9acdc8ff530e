// When several dimensions clash, only the right-most is reported (as PyTorch
// does): (2,3) + (4,5) clash at dimensions 0 and 1; the error names dimension 1.
use shaped::prelude::*;

fn main() {
    let a = Tensor::<f32, shape![2, 3]>::zeros();
    let b = Tensor::<f32, shape![4, 5]>::zeros();
    let _ = &a + &b;
}
