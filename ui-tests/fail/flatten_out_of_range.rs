// `flatten::<START, END>` needs dimensions of the tensor: a matrix has no dimension 2.
use shaped::prelude::*;

fn main() {
    let t = Tensor::<f32, shape![2, 3]>::zeros();
    let _ = t.flatten::<0, 2>();
}
