// `expand_as` follows `expand`'s rule with the other tensor's shape: (3,)
// cannot take the shape (3,2).
use shaped::prelude::*;

fn main() {
    let a = Tensor::<f32, shape![3]>::zeros();
    let b = Tensor::<f32, shape![3, 2]>::zeros();
    let _ = a.expand_as(&b);
}
