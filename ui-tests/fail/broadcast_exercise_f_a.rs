// Exercise set, F + A: F = 5x3 and A = 2x1x2 do not broadcast: aligned at
// the right, dimension 2 of the result pairs 3 with 2.
use shaped::prelude::*;

fn main() {
    let f = Tensor::<f32, shape![5, 3]>::ones();
    let a = Tensor::<f32, shape![2, 1, 2]>::ones();
    let _ = &f + &a;
}
