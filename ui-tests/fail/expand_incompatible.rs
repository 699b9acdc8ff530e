// `expand` only stretches size-1 dimensions: (3,) cannot become (4,4), since
// 3 would have to become 4 at dimension 1.
use shaped::prelude::*;

fn main() {
    let a = Tensor::<f32, shape![3]>::zeros();
    let _ = a.expand::<shape![4, 4]>();
}
