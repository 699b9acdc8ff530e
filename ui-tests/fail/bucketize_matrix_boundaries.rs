// `bucketize` takes 1-D boundaries: a matrix of boundaries does not compile
// (PyTorch: "boundaries tensor must be 1 dimension, but got dim(2)").
use shaped::prelude::*;

fn main() {
    let x = Tensor::<f64, shape![3]>::zeros();
    let b = Tensor::<f64, shape![1, 4]>::zeros();
    let _ = x.bucketize(&b, false);
    let c = Tensor::<f64, shape![4]>::zeros();
    let _ = x.bucketize(&c, false); // compiles
}
