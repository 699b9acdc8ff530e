// `flatten::<START, END>` merges START..=END: START cannot come after END.
use shaped::prelude::*;

fn main() {
    let t = Tensor::<f32, shape![2, 3, 4]>::zeros();
    let _ = t.flatten::<2, 1>();
}
