// Complex numbers have no order: `aminmax` of a complex tensor is PyTorch's runtime error
// ("aminmax not implemented for ComplexFloat" on the dynamic forms) and, on a static shape, a
// compile error.
use shaped::prelude::*;

fn main() {
    let z = Tensor::<num_complex::Complex<f32>, shape![2, 3]>::zeros();
    let _ = z.aminmax_dim::<1>();
    let _ = z.real().aminmax_dim::<1>(); // compiles
}
