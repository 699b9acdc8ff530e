// `expand` cannot grow a size-0 dimension: (0,) cannot become (4,).
use shaped::prelude::*;

fn main() {
    let a = Tensor::<f32, shape![0]>::zeros();
    let _ = a.expand::<shape![4]>();
}
