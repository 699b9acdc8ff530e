// `stack::<AXIS>` inserts a dimension at a position from 0 to the rank: a
// rank-2 tensor has positions 0, 1 and 2, not 3.
use shaped::prelude::*;

fn main() {
    let a = Tensor::<f32, shape![2, 3]>::ones();
    let _ = [&a, &a].stack::<3>();
}
