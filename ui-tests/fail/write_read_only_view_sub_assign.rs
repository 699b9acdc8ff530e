// `as_view()` gives a read-only view: `-=` on it does not compile; use
// `view_mut()` to write through a view.
use shaped::prelude::*;

fn main() {
    let x = Tensor::<f32, shape![2, 3]>::zeros();
    let mut v = x.as_view();
    v -= Tensor::<f32, shape![3]>::ones();
}
