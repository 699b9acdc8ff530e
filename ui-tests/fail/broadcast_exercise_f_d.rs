// Exercise set, F + D: F = 5x3 and D = 1x5 do not broadcast: aligned at
// the right, dimension 1 of the result pairs 3 with 5.
use shaped::prelude::*;

fn main() {
    let f = Tensor::<f32, shape![5, 3]>::ones();
    let d = Tensor::<f32, shape![1, 5]>::ones();
    let _ = &f + &d;
}
