// `mean` needs a floating or complex tensor, as in PyTorch: an i64 tensor has no mean.
use shaped::prelude::*;

fn main() {
    let t = Tensor::<i64, shape![2, 3]>::zeros();
    let _ = t.mean_dim::<1>();
}
