// Mixed element types broadcast by the same rule: an int32 (3, 2) and a
// float32 (1, 5) clash at dimension 1 whatever their types.
use shaped::prelude::*;

fn main() {
    let a = Tensor::<i32, shape![3, 2]>::zeros();
    let b = Tensor::<f32, shape![1, 5]>::zeros();
    let _ = &a + &b;
}
