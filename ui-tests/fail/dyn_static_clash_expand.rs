// Expanding a shape with a `Dyn` entry to a static shape still checks the
// static sizes at compile time: the 2 of (Dyn, 2) cannot become 3.
use shaped::prelude::*;

fn main() {
    let rows = Tensor::<f32, shape![Dyn, 2]>::zeros_with(&[1, 2]);
    let _ = rows.expand::<shape![4, 3]>();
}
