// The index tensors of one index broadcast together (PyTorch: "shape mismatch: indexing
// tensors could not be broadcast together"). With static shapes, index tensors of sizes 2
// and 3 do not compile; the error names the sizes and the dimension of the broadcast shape.
use shaped::prelude::*;

fn main() {
    let x = Tensor::<f32, shape![4, 5]>::zeros();
    let rows = Tensor::<i64, shape![2]>::zeros();
    let cols = Tensor::<i64, shape![3]>::zeros();
    let _ = x.index((&rows, &cols));
}
