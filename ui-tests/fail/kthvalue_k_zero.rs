// `kthvalue::<K, DIM>` counts K from 1: the smallest element is the first.
// K = 0 (PyTorch: "kthvalue(): selected number k out of range for
// dimension 1") does not compile, nor does a K larger than the size.
use shaped::prelude::*;

fn main() {
    let x = Tensor::<i64, shape![2, 3]>::zeros();
    let _ = x.kthvalue::<0, 1>();
    let _ = x.kthvalue::<4, 1>();
    let _ = x.kthvalue::<1, 1>(); // compiles: the smallest of each row
}
