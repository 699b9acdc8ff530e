// PyTorch has no matrix product of bool tensors on the CPU.
use shaped::prelude::*;

fn main() {
    let a = Tensor::<bool, shape![2, 2]>::ones();
    let _ = a.matmul(&a);
}
