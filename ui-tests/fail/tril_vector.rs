// `tril` and `triu` work on the last two dimensions: PyTorch refuses a
// vector ("tril: input tensor must have at least 2 dimensions").
use shaped::prelude::*;

fn main() {
    let x = Tensor::<f32, shape![4]>::ones();
    let _ = x.tril(0);
}
