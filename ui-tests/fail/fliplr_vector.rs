// `fliplr` flips dimension 1: a vector has none (PyTorch: "Input must be
// >= 2-d.").
use shaped::prelude::*;

fn main() {
    let x = Tensor::<f32, shape![3]>::ones();
    let _ = x.fliplr();
}
