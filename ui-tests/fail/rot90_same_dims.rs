// A rotation turns a plane of two different dimensions: PyTorch refuses
// one named twice ("expected rotation dims to be different").
use shaped::prelude::*;

fn main() {
    let x = Tensor::<f32, shape![2, 3]>::ones();
    let _ = x.rot90::<1, 0, 0>();
}
