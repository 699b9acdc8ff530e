// `unflatten::<DIM, L>` needs at least one size in L.
use shaped::prelude::*;

fn main() {
    let t = Tensor::<f32, shape![3, 1]>::zeros();
    let _ = t.unflatten::<1, shape![]>();
}
