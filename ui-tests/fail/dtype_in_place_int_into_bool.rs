// A bool tensor takes only bool results in place: `mask += int_tensor`
// promotes to int64, which cannot go back into bool.
use shaped::prelude::*;

fn main() {
    let mut mask = Tensor::<bool, shape![2]>::zeros();
    mask += &Tensor::<i64, shape![2]>::ones();
}
