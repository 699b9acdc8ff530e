// `permute::<axes![..]>` takes each dimension exactly once: `axes![0, 0]` misses 1.
use shaped::prelude::*;

fn main() {
    let t = Tensor::<f32, shape![3, 4]>::zeros();
    let _ = t.permute::<axes![0, 0]>();
}
