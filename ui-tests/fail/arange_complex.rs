// `arange_step` makes real tensors: PyTorch refuses `torch.arange(0, 4, 1,
// dtype=torch.complex64)` ("arange_cpu" not implemented for
// 'ComplexFloat'). Make a float tensor and cast it.
use num_complex::Complex;
use shaped::prelude::*;

fn main() {
    let _ = Tensor::<Complex<f32>, shape![Dyn]>::arange_step(0, 4, 1);
}
