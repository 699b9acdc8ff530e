// `relu` needs real, non-bool numbers: PyTorch refuses bool inputs
// (`Boolean inputs not supported for relu`).
use shaped::prelude::*;

fn main() {
    let m = Tensor::<bool, shape![2]>::ones();
    let _ = m.relu();
}
