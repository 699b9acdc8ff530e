// The quantiles interpolate, and PyTorch computes them for float32 and
// float64 tensors only ("quantile() input tensor must be either float or
// double dtype"): on an integer (or half) tensor `quantile` does not
// compile; cast it first.
use shaped::prelude::*;

fn main() {
    let x = Tensor::<i32, shape![5]>::zeros();
    let _ = x.quantile(0.5, Interpolation::Linear);
    let _ = x.cast::<f32>().quantile(0.5, Interpolation::Linear); // compiles
}
