// `histc` bins floating-point values: on an integer tensor of static dtype
// it does not compile (PyTorch: "\"histogram_cpu\" not implemented for
// 'Long'"); convert to a float type first.
use shaped::prelude::*;

fn main() {
    let x = Tensor::<i64, shape![3]>::from_vec(vec![0, 1, 1]).unwrap();
    let _ = x.histc::<4>(0.0, 2.0);
    let _ = x.cast::<f32>().histc::<4>(0.0, 2.0); // compiles
}
