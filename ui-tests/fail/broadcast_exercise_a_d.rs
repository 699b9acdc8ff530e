// Exercise set, A + D: A = 2x1x2 and D = 1x5 do not broadcast: aligned at
// the right, dimension 2 of the result pairs 2 with 5.
use shaped::prelude::*;

fn main() {
    let a = Tensor::<f32, shape![2, 1, 2]>::ones();
    let d = Tensor::<f32, shape![1, 5]>::ones();
    let _ = &a + &d;
}
