// Exercise set, B + D: B = 2x1x1x3 and D = 1x5 do not broadcast: aligned at
// the right, dimension 3 of the result pairs 3 with 5.
use shaped::prelude::*;

fn main() {
    let b = Tensor::<f32, shape![2, 1, 1, 3]>::ones();
    let d = Tensor::<f32, shape![1, 5]>::ones();
    let _ = &b + &d;
}
