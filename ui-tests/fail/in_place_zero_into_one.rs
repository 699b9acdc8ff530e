// In place, size 0 does not fit an output of size 1 (the broadcast would be 0):
// (2,1) += (0,) is an error although (2,1) + (0,) is (2,0).
use shaped::prelude::*;

fn main() {
    let mut a = Tensor::<f32, shape![2, 1]>::zeros();
    let b = Tensor::<f32, shape![0]>::zeros();
    a += &b;
}
