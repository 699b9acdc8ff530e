// `cat` along dimension 1: the other sizes must match, and 2 vs 3 at
// dimension 0 does not.
use shaped::prelude::*;

fn main() {
    let a = Tensor::<f32, shape![2, 3]>::ones();
    let b = Tensor::<f32, shape![3, 5]>::ones();
    let _ = (&a, &b).cat::<1>();
}
