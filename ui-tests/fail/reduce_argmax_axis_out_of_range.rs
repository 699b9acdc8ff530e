// `argmax_keepdim::<I>` names a dimension of the shape: a (4,) tensor has only axis 0.
use shaped::prelude::*;

fn main() {
    let t = Tensor::<i32, shape![4]>::zeros();
    let _ = t.argmax_keepdim::<1>();
}
