// `broadcast_to` follows `expand`'s rule: (2,1) cannot become (3,4), since 2
// would have to become 3 at dimension 0.
use shaped::prelude::*;

fn main() {
    let a = Tensor::<f32, shape![2, 1]>::zeros();
    let _ = a.broadcast_to::<shape![3, 4]>();
}
