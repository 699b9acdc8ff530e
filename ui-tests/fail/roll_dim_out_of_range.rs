// `roll::<DIM>` names a dimension of the tensor.
use shaped::prelude::*;

fn main() {
    let x = Tensor::<f32, shape![2, 3]>::ones();
    let _ = x.roll::<2>(1);
}
