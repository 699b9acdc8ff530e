// The rotation's dimensions must exist: a 2-d tensor has no dimension 2.
use shaped::prelude::*;

fn main() {
    let x = Tensor::<f32, shape![2, 3]>::ones();
    let _ = x.rot90::<1, 0, 2>();
}
