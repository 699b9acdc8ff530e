// `hsplit::<SECTIONS>` cuts equal sections of dimension 1: 4 does not divide 6.
use shaped::prelude::*;

fn main() {
    let t = Tensor::<f32, shape![2, 6]>::zeros();
    let _ = t.hsplit::<4>();
}
