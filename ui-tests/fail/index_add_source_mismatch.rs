// `index_add::<DIM>`'s source has the tensor's shape with the index's length along DIM: here
// (2, 2), not (2, 3) (PyTorch: "source tensor shape must match self tensor shape, excluding the
// specified dimension. Got self.shape = [3, 2] source.shape = [2, 3]").
use shaped::prelude::*;

fn main() {
    let x = Tensor::<f32, shape![3, 2]>::zeros();
    let idx = Tensor::<i64, shape![2]>::zeros();
    let src = Tensor::<f32, shape![2, 3]>::ones();
    let _ = x.index_add::<0>(&idx, &src, 1.0);
}
