// `floor_divide` (and `%`, `fmod`) of two bool tensors computes in bool,
// which PyTorch refuses ("div_floor_cpu" not implemented for 'Bool'). A
// bool tensor with an integer one computes in the integer type and compiles.
use shaped::prelude::*;

fn main() {
    let m = tensor![true, false];
    let _ = m.floor_divide(&m);
}
