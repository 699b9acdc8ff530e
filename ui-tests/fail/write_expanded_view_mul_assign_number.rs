// Read-only views take no in-place operation, not even with a plain number:
// `*= 2.0` on a `broadcast_to` view does not compile.
use shaped::prelude::*;

fn main() {
    let x = Tensor::<f32, shape![1, 3]>::zeros();
    let mut e = x.broadcast_to::<shape![4, 3]>();
    e *= 2.0;
}
