// An expanded view (stride 0) maps many indices to one element, so it is
// read-only: `+=` on it does not compile. Copy it first with `to_owned()`.
use shaped::prelude::*;

fn main() {
    let x = Tensor::<f32, shape![3]>::zeros();
    let mut e = x.expand::<shape![2, 3]>();
    e += &Tensor::<f32, shape![2, 3]>::ones();
}
