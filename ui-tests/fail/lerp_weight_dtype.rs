// A weight tensor of another dtype than `self`'s: PyTorch refuses it
// ("expected dtype float for `weight` but got dtype double"). A number
// weight is a plain `f64`.
use shaped::prelude::*;

fn main() {
    let start = tensor![0.0f32, 1.0];
    let end = tensor![2.0f32, 3.0];
    let weight = tensor![0.5f64, 0.25];
    let _ = start.lerp(&end, &weight);
}
