// Each axis of `flip` once: PyTorch refuses "dim 0 appears multiple times
// in the list of dims".
use shaped::prelude::*;

fn main() {
    let x = Tensor::<f32, shape![2, 3]>::ones();
    let _ = x.flip::<axes![0, 0]>();
}
