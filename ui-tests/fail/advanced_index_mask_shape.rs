// A mask of rank r covers r dimensions and must have their sizes (PyTorch: "The shape of
// the mask [5, 7] at index 1 does not match the shape of the indexed tensor [4, 5, 6] at
// index 2"). With static shapes, a mismatch does not compile.
use shaped::prelude::*;

fn main() {
    let x = Tensor::<f32, shape![4, 5, 6]>::zeros();
    let mask = Tensor::<bool, shape![5, 7]>::ones();
    let _ = x.index((.., &mask));
}
