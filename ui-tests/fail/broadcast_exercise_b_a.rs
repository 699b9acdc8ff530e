// Exercise set, B + A: B = 2x1x1x3 and A = 2x1x2 do not broadcast: aligned at
// the right, dimension 3 of the result pairs 3 with 2.
use shaped::prelude::*;

fn main() {
    let b = Tensor::<f32, shape![2, 1, 1, 3]>::ones();
    let a = Tensor::<f32, shape![2, 1, 2]>::ones();
    let _ = &b + &a;
}
