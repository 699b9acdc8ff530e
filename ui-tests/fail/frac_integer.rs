// `frac` takes real floating tensors: PyTorch refuses integer ones at run
// time ("frac_cpu" not implemented for 'Long'); an integer has no
// fractional part.
use shaped::prelude::*;

fn main() {
    let x = tensor![7i64, -2];
    let _ = x.frac();
}
