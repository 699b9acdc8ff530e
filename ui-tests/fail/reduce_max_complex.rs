// Complex numbers have no order: `max`, `argmax`, `amax` (and the min forms) do not take them.
use num_complex::Complex;
use shaped::prelude::*;

fn main() {
    let t = Tensor::<Complex<f32>, shape![2, 3]>::zeros();
    let _ = t.max_dim::<0>();
}
