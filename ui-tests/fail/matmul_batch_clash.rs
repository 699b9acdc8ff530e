// The batch (leading) dimensions of `matmul` broadcast: 2 and 3 do not.
use shaped::prelude::*;

fn main() {
    let a = Tensor::<f32, shape![2, 4, 5]>::ones();
    let b = Tensor::<f32, shape![3, 5, 6]>::ones();
    let _ = a.matmul(&b);
}
