// Sorting needs an order, and complex numbers have none (PyTorch: " Sort
// does not support complex dtypes on CPU"). On a complex tensor of static
// dtype `sort`, `argsort` and `msort` do not compile; sort the real parts or
// the magnitudes.
use num_complex::Complex;
use shaped::prelude::*;

fn main() {
    let z = Tensor::<Complex<f64>, shape![2, 3]>::zeros();
    let _ = z.sort::<1>(false);
    let _ = z.real().sort::<1>(false); // compiles
}
