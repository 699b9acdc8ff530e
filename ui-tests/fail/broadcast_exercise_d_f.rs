// Exercise set, D + F: D = 1x5 and F = 5x3 do not broadcast: aligned at
// the right, dimension 1 of the result pairs 5 with 3.
use shaped::prelude::*;

fn main() {
    let d = Tensor::<f32, shape![1, 5]>::ones();
    let f = Tensor::<f32, shape![5, 3]>::ones();
    let _ = &d + &f;
}
