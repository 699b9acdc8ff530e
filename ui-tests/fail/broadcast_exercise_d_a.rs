// Exercise set, D + A: D = 1x5 and A = 2x1x2 do not broadcast: aligned at
// the right, dimension 2 of the result pairs 5 with 2.
use shaped::prelude::*;

fn main() {
    let d = Tensor::<f32, shape![1, 5]>::ones();
    let a = Tensor::<f32, shape![2, 1, 2]>::ones();
    let _ = &d + &a;
}
