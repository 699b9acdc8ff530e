// `&`, `|` and `^` take integer and bool tensors: a float32 operand does
// not compile, as PyTorch refuses it at run time ("bitwise_and_cpu" not
// implemented for 'Float').
use shaped::prelude::*;

fn main() {
    let a = Tensor::<f32, shape![3]>::zeros();
    let b = Tensor::<i32, shape![3]>::zeros();
    let _ = &a & &b;
}
