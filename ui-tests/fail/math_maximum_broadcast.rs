// `maximum` broadcasts like `+`: (2, 3) and (4,) do not broadcast.
use shaped::prelude::*;

fn main() {
    let a = Tensor::<f32, shape![2, 3]>::ones();
    let b = Tensor::<f32, shape![4]>::ones();
    let _ = a.maximum(&b);
}
