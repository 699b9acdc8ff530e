// `flip::<axes![..]>()` names dimensions of the tensor: a 2-d tensor has
// no dimension 2 (PyTorch: "Dimension out of range").
use shaped::prelude::*;

fn main() {
    let x = Tensor::<f32, shape![2, 3]>::ones();
    let _ = x.flip::<axes![0, 2]>();
}
