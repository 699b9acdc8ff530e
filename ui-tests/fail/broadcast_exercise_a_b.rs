// Exercise set, A + B: A = 2x1x2 and B = 2x1x1x3 do not broadcast: aligned at
// the right, dimension 3 of the result pairs 2 with 3.
use shaped::prelude::*;

fn main() {
    let a = Tensor::<f32, shape![2, 1, 2]>::ones();
    let b = Tensor::<f32, shape![2, 1, 1, 3]>::ones();
    let _ = &a + &b;
}
