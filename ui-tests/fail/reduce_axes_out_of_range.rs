// Every axis of `axes![..]` must be a dimension of the shape: a (2, 3, 4) tensor has no axis 3.
use shaped::prelude::*;

fn main() {
    let t = Tensor::<f32, shape![2, 3, 4]>::zeros();
    let _ = t.sum_dims::<axes![0, 3]>();
}
