// A static size has at most 10 decimal digits (up to 9999999999); a larger
// size is a runtime `Dyn` dimension.
use shaped::prelude::*;

fn main() {
    let _ = Tensor::<f32, shape![12345678901, 2]>::zeros;
}
