// cummax and cummin need an order, and complex numbers have none (PyTorch:
// "\"cummax_cpu\" not implemented for 'ComplexFloat'"). On a complex tensor
// of static dtype they do not compile; scan the real parts or magnitudes.
use shaped::prelude::*;
use num_complex::Complex;

fn main() {
    let z = Tensor::<Complex<f32>, shape![3]>::zeros();
    let _ = z.cummax::<0>();
    let _ = z.real().cummax::<0>(); // compiles
}
