// Masks hold bools (PyTorch: "masked_fill_ only supports boolean masks, but got mask with dtype
// float"); compare to get one: `x.gt(0.5)`.
use shaped::prelude::*;

fn main() {
    let x = Tensor::<f32, shape![2, 2]>::zeros();
    let mask = Tensor::<f32, shape![2, 2]>::ones();
    let _ = x.masked_fill(&mask, 1.0);
}
