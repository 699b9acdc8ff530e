// `bincount` counts non-negative integers: on a float tensor of static
// dtype it does not compile (PyTorch: "\"bincount_cpu\" not implemented
// for 'Float'"); convert to an integer type first.
use shaped::prelude::*;

fn main() {
    let x = Tensor::<f32, shape![3]>::from_vec(vec![0.0, 1.0, 1.0]).unwrap();
    let _ = x.bincount(0);
    let _ = x.cast::<i64>().bincount(0); // compiles
}
