// `unique` (and `unique_consecutive`, `searchsorted`, `bucketize`) need an
// order, and complex numbers have none (PyTorch: "\"unique\" not
// implemented for 'ComplexFloat'"). On a complex tensor of static dtype
// they do not compile; use the real parts or the magnitudes.
use num_complex::Complex;
use shaped::prelude::*;

fn main() {
    let z = Tensor::<Complex<f32>, shape![4]>::zeros();
    let _ = z.unique(true, false, false);
    let _ = z.real().unique(true, false, false); // compiles
}
