// `expand` can add leading dimensions but never remove them: (2,3) cannot
// become (3,).
use shaped::prelude::*;

fn main() {
    let a = Tensor::<f32, shape![2, 3]>::zeros();
    let _ = a.expand::<shape![3]>();
}
