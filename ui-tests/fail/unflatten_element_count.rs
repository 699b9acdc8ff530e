// `unflatten::<DIM, L>` keeps every element: 2 * 4 = 8 is not 6.
use shaped::prelude::*;

fn main() {
    let t = Tensor::<f32, shape![3, 6]>::zeros();
    let _ = t.unflatten::<1, shape![2, 4]>();
}
