// A list of reduction axes names each axis once: `axes![1, 0, 1]` repeats axis 1.
use shaped::prelude::*;

fn main() {
    let t = Tensor::<f32, shape![2, 3, 4]>::zeros();
    let _ = t.amax_dims::<axes![1, 0, 1]>();
}
