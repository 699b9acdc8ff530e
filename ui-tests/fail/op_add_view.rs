// Views broadcast like tensors: a (2,3) view + a (3,2) tensor clashes at
// dimension 1.
use shaped::prelude::*;

fn main() {
    let a = Tensor::<f32, shape![2, 3]>::zeros();
    let b = Tensor::<f32, shape![3, 2]>::zeros();
    let _ = &a.as_view() + &b;
}
