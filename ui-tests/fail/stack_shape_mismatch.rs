// `stack` needs parts of one shape: (2, 3) and (2, 4) differ at dimension 1.
use shaped::prelude::*;

fn main() {
    let a = Tensor::<f32, shape![2, 3]>::ones();
    let b = Tensor::<f32, shape![2, 4]>::ones();
    let _ = (&a, &b).stack::<0>();
}
