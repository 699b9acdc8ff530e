// An in-place operation cannot change the shape of its output: (1,3,1) -= (3,1,7)
// would need (3,3,7); the right-most misfit is reported (7 into 1, dimension 2).
use shaped::prelude::*;

fn main() {
    let mut a = Tensor::<f32, shape![1, 3, 1]>::zeros();
    let b = Tensor::<f32, shape![3, 1, 7]>::zeros();
    a -= b;
}
