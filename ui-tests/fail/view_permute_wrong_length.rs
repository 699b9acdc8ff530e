// A permutation lists as many axes as the tensor has dimensions.
use shaped::prelude::*;

fn main() {
    let t = Tensor::<f32, shape![3, 4]>::zeros();
    let _ = t.permute::<axes![1, 0, 2]>();
}
