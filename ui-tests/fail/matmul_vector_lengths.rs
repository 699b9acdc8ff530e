// `matmul` of two vectors is a dot product: their lengths must be equal.
use shaped::prelude::*;

fn main() {
    let a = Tensor::<f32, shape![3]>::ones();
    let b = Tensor::<f32, shape![4]>::ones();
    let _ = a.matmul(&b);
}
