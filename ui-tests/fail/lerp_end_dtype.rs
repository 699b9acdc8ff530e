// `lerp`'s `end` (and a weight tensor) must have `self`'s dtype: PyTorch
// does not promote here ("expected dtype float for `end` but got dtype
// double"). Convert first: `end.cast::<f32>()`.
use shaped::prelude::*;

fn main() {
    let start = tensor![0.0f32, 1.0];
    let end = tensor![2.0f64, 3.0];
    let _ = start.lerp(&end, 0.5);
}
