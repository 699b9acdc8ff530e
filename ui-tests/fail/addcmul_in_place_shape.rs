// In place, the operands broadcast to `self`'s shape without changing it
// (PyTorch's "output with shape [2] doesn't match the broadcast shape
// [3, 2]"): a (3, 2) tensor1 cannot update a (2,) tensor.
use shaped::prelude::*;

fn main() {
    let mut x = Tensor::<f32, shape![2]>::zeros();
    let t1 = Tensor::<f32, shape![3, 2]>::ones();
    let t2 = Tensor::<f32, shape![2]>::ones();
    let _ = x.addcmul_(&t1, &t2, 1.0);
}
