// `repeat_interleave::<N, DIM>` names a dimension of the tensor.
use shaped::prelude::*;

fn main() {
    let x = Tensor::<f32, shape![2, 3]>::ones();
    let _ = x.repeat_interleave::<2, 3>();
}
