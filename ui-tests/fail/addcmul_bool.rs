// `addcmul` of bool tensors: PyTorch has no bool kernel ("addcmul_cpu_out"
// not implemented for 'Bool'). Cast first: `.cast::<u8>()`.
use shaped::prelude::*;

fn main() {
    let x = tensor![true, false];
    let _ = x.addcmul(&x, &x, 1.0);
}
