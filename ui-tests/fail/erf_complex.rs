// The special functions (`erf`, `erfc`, `erfinv`, `lgamma`, `digamma`) and
// `deg2rad`/`rad2deg` take real tensors: PyTorch refuses complex ones at run
// time ("erf_vml_cpu" not implemented for 'ComplexFloat'). Apply them to
// the parts instead: `z.real().erf()`.
use num_complex::Complex;
use shaped::prelude::*;

fn main() {
    let z = tensor![Complex::new(1.0f32, 2.0)];
    let _ = z.erf();
}
