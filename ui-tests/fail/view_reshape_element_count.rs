// `reshape` keeps every element too: (2, 3) has 6, (4, 2) has 8.
use shaped::prelude::*;

fn main() {
    let t = Tensor::<f32, shape![2, 3]>::zeros();
    let _ = t.reshape::<shape![4, 2]>();
}
