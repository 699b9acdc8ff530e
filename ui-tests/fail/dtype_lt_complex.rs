// Complex numbers have no order: `lt`, `le`, `gt`, `ge` of a real tensor
// with a complex one compare in complex64, which does not compile.
use shaped::prelude::*;
use num_complex::Complex;

fn main() {
    let x = Tensor::<f32, shape![2]>::ones();
    let z = Tensor::<Complex<f32>, shape![2]>::ones();
    let _ = x.lt(&z);
}
