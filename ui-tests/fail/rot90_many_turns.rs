// The static `rot90` takes -8 to 8 quarter turns (its result's shape
// depends on their parity); `DynTensor::rot90` takes any number.
use shaped::prelude::*;

fn main() {
    let x = Tensor::<f32, shape![2, 3]>::ones();
    let _ = x.rot90::<9, 0, 1>();
}
