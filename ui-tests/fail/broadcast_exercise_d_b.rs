// Exercise set, D + B: D = 1x5 and B = 2x1x1x3 do not broadcast: aligned at
// the right, dimension 3 of the result pairs 5 with 3.
use shaped::prelude::*;

fn main() {
    let d = Tensor::<f32, shape![1, 5]>::ones();
    let b = Tensor::<f32, shape![2, 1, 1, 3]>::ones();
    let _ = &d + &b;
}
