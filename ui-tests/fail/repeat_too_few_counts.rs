// `repeat` needs a count for every dimension: PyTorch refuses fewer
// ("Number of dimensions of repeat dims can not be smaller than number of
// dimensions of tensor"). `tile` completes them with ones.
use shaped::prelude::*;

fn main() {
    let x = Tensor::<f32, shape![2, 3]>::ones();
    let _ = x.repeat::<shape![2]>();
}
