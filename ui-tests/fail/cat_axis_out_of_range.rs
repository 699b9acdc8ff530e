// `cat::<AXIS>` names a dimension of the parts: a rank-2 tensor has no
// dimension 2.
use shaped::prelude::*;

fn main() {
    let a = Tensor::<f32, shape![2, 3]>::ones();
    let _ = [&a, &a].cat::<2>();
}
