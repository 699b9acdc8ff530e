// Exercise set, A + F: A = 2x1x2 and F = 5x3 do not broadcast: aligned at
// the right, dimension 2 of the result pairs 2 with 3.
use shaped::prelude::*;

fn main() {
    let a = Tensor::<f32, shape![2, 1, 2]>::ones();
    let f = Tensor::<f32, shape![5, 3]>::ones();
    let _ = &a + &f;
}
