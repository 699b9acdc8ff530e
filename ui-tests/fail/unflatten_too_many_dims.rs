// `unflatten` cannot give more dimensions than the 8 of a static shape.
use shaped::prelude::*;

fn main() {
    let t = Tensor::<f32, shape![1, 1, 1, 1, 1, 1, 8]>::zeros();
    let _ = t.unflatten::<6, shape![2, 2, 2]>();
}
