// `linspace` makes numeric tensors: PyTorch refuses `torch.linspace(0, 1,
// 5, dtype=torch.bool)` ("linspace_cpu" not implemented for 'Bool').
use shaped::prelude::*;

fn main() {
    let _ = Tensor::<bool, shape![5]>::linspace(false, true);
}
