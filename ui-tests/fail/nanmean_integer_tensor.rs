// nanmean takes floating tensors (PyTorch: "nanmean(): expected input to have floating point
// or complex dtype but got Long"; complex ones only on CUDA). On an integer tensor of static
// shape `nanmean_dim` does not compile: integers have no NaN, and `mean` needs a float.
use shaped::prelude::*;

fn main() {
    let counts = Tensor::<i64, shape![2, 3]>::zeros();
    let _ = counts.nanmean_dim::<1>();
    let _ = counts.cast::<f32>().nanmean_dim::<1>(); // compiles
}
