// `isposinf` and `isneginf` are for real tensors: a complex infinity has no
// sign (PyTorch: "isposinf does not support complex inputs.").
use num_complex::Complex;
use shaped::prelude::*;

fn main() {
    let z = Tensor::<Complex<f32>, shape![2]>::zeros();
    let _ = z.isposinf();
}
