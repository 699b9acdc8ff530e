// `view` keeps every element: (4, 4) has 16, (3, 5) has 15.
use shaped::prelude::*;

fn main() {
    let t = Tensor::<f32, shape![4, 4]>::zeros();
    let _ = t.view::<shape![3, 5]>();
}
