// `unsqueeze::<DIM>` inserts before dimension DIM, at most at the rank (2 here).
use shaped::prelude::*;

fn main() {
    let t = Tensor::<f32, shape![3, 4]>::zeros();
    let _ = t.unsqueeze::<3>();
}
