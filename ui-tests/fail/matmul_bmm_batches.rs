// `bmm` does not broadcast: both batches must have the same size.
use shaped::prelude::*;

fn main() {
    let a = Tensor::<f32, shape![8, 2, 3]>::ones();
    let b = Tensor::<f32, shape![4, 3, 5]>::ones();
    let _ = a.bmm(&b);
}
