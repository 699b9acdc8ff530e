// `%`, `fmod` and `floor_divide` take integer and real floating tensors:
// PyTorch refuses complex ones at run time ("remainder_cpu" not implemented
// for 'ComplexFloat'). Take the real parts first (`z.real()`), or use
// `AnyTensor::try_remainder`, which returns PyTorch's error.
use num_complex::Complex;
use shaped::prelude::*;

fn main() {
    let z = Tensor::<Complex<f32>, shape![2]>::zeros();
    let _ = &z % &z;
}
