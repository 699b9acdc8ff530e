// `!` is PyTorch's `~` (`bitwise_not`): integer and bool tensors only. Rust
// words a refused unary operator itself ("cannot apply unary operator");
// `x.bitwise_not()` says why (see bitwise_not_float_tensor.rs).
use shaped::prelude::*;

fn main() {
    let x = Tensor::<f64, shape![2, 2]>::zeros();
    let _ = !&x;
}
