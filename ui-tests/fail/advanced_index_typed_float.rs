// A typed index takes int64 and int32 index tensors and bool (or uint8) masks; an index
// tensor of a float dtype does not compile (PyTorch: "tensors used as indices must be long,
// int, byte or bool tensors").
use shaped::prelude::*;

fn main() {
    let x = Tensor::<f32, shape![4, 5]>::zeros();
    let i = Tensor::<f32, shape![2]>::zeros();
    let _ = x.index((.., &i));
}
