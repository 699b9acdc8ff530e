// `movedim::<SRC, DST>` moves an existing dimension: rank 2 has no dimension 2.
use shaped::prelude::*;

fn main() {
    let t = Tensor::<f32, shape![3, 4]>::zeros();
    let _ = t.movedim::<2, 0>();
}
