// `cat` joins tensors of one rank: (2, 3) and (3,) have different ranks.
use shaped::prelude::*;

fn main() {
    let a = Tensor::<f32, shape![2, 3]>::ones();
    let b = Tensor::<f32, shape![3]>::ones();
    let _ = (&a, &b).cat::<0>();
}
