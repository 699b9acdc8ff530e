// `bitwise_not` (PyTorch's `~`) takes integer and bool tensors; for a mask
// of a float tensor, compare first (`x.eq(0.0)`) or use `logical_not`.
use shaped::prelude::*;

fn main() {
    let x = Tensor::<f64, shape![2, 2]>::zeros();
    let _ = x.bitwise_not();
}
