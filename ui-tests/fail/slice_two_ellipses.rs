// One `Ellipsis` at most: two would make the named dimensions ambiguous.
use shaped::prelude::*;

fn main() {
    let t = Tensor::<f32, shape![3, 4]>::zeros();
    let _ = t.slice(s![Ellipsis, 0, Ellipsis]);
}
