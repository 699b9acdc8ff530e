// `/=` is true division too, so an integer tensor cannot be divided in place:
// the quotient would not fit its element type.
use shaped::prelude::*;

fn main() {
    let mut a = Tensor::<i64, shape![2, 3]>::ones();
    let b = Tensor::<i64, shape![3]>::ones();
    a /= &b;
}
