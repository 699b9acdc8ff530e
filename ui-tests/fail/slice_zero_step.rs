// A slice step is positive (PyTorch has no reverse slices).
use shaped::prelude::*;

fn main() {
    let t = Tensor::<f32, shape![3, 4]>::zeros();
    let _ = t.slice(s![..;0]);
}
