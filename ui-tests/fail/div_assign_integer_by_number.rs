// `/=` is true division: dividing an integer tensor in place by a number
// would need to store float32 quotients into it, which PyTorch refuses too.
use shaped::prelude::*;

fn main() {
    let mut a = Tensor::<u8, shape![4]>::ones();
    a /= 2;
}
