// PyTorch has no subtraction of bool tensors, even beside another type:
// `mask - ints` does not compile (cast the mask to an integer type first).
use shaped::prelude::*;

fn main() {
    let mask = Tensor::<bool, shape![2]>::ones();
    let ints = Tensor::<i64, shape![2]>::ones();
    let _ = &ints - &mask;
}
