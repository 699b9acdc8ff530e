// `matmul` of two matrices needs a's column count to equal b's row count:
// (2, 3) · (4, 5) does not compile.
use shaped::prelude::*;

fn main() {
    let a = Tensor::<f32, shape![2, 3]>::ones();
    let b = Tensor::<f32, shape![4, 5]>::ones();
    let _ = a.matmul(&b);
}
