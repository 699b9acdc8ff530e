// Advanced indexing takes int64 and int32 index tensors and bool (or uint8) masks. An index
// tensor of a float dtype does not compile (PyTorch: "tensors used as indices must be long,
// int, byte or bool tensors"); an `AnyTensor` index gives that error at run time.
use shaped::prelude::*;

fn main() {
    let x = DynTensor::<f32>::zeros(&[3, 4]);
    let idx = DynTensor::<f32>::zeros(&[2]);
    let _ = x.index(&[Index::Tensor(&idx)]);
}
