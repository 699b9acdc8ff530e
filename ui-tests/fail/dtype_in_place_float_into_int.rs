// In place, the result must be storable in the left-hand side (PyTorch's
// casting rule): an integer tensor cannot take a floating result.
// `int32 *= float32` promotes to float32, which cannot go back into int32.
use shaped::prelude::*;

fn main() {
    let mut counts = Tensor::<i32, shape![3]>::ones();
    let scale = Tensor::<f32, shape![3]>::full(0.5);
    counts *= &scale;
}
