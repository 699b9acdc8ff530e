// `hypot`, `nextafter` and `logaddexp2` take real floating tensors only:
// PyTorch refuses integer ones at run time ("hypot_cpu" not implemented for
// 'Long'), where `atan2` would promote them. Cast first:
// `a.cast::<f32>().hypot(&b)`.
use shaped::prelude::*;

fn main() {
    let a = tensor![3i64, 5];
    let b = tensor![4i64, 12];
    let _ = a.hypot(&b);
}
