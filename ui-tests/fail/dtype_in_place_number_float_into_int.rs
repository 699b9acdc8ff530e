// In place with a plain number: `int64 *= 2.5` computes in float32 (the
// default floating type), which an int64 tensor cannot hold.
use shaped::prelude::*;

fn main() {
    let mut x = Tensor::<i64, shape![2]>::ones();
    x *= 2.5f64;
}
