// A reduction axis must be a dimension of the shape: a (2, 3) tensor has no axis 2.
use shaped::prelude::*;

fn main() {
    let t = Tensor::<f32, shape![2, 3]>::zeros();
    let _ = t.sum_dim::<2>();
}
