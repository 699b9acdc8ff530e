// A `Dyn` size defers only its own dimension to run time: in (Dyn, 2) + (3,)
// the static sizes 2 and 3 still clash at compile time (dimension 1).
use shaped::prelude::*;

fn main() {
    let a = Tensor::<f32, shape![Dyn, 2]>::zeros_with(&[4, 2]);
    let b = Tensor::<f32, shape![3]>::zeros();
    let _ = &a + &b;
}
