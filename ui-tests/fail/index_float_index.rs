// Indices are integers: int64, or int32 where PyTorch takes it (`index_select`, `gather`). A
// float index does not compile (PyTorch: "index_select(): Expected dtype int32 or int64 for
// index"); `AnyTensor` gives that error at run time.
use shaped::prelude::*;

fn main() {
    let x = Tensor::<f32, shape![3, 4]>::zeros();
    let idx = Tensor::<f32, shape![2]>::zeros();
    let _ = x.index_select::<0>(&idx);
}
