// `chunk::<DIM, CHUNKS>` needs at least one chunk.
use shaped::prelude::*;

fn main() {
    let t = Tensor::<f32, shape![4, 6]>::zeros();
    let _ = t.chunk::<0, 0>();
}
