// The typed `mm` and `mv` check the inner sizes as `matmul` does.
use shaped::prelude::*;

fn main() {
    let a = Tensor::<f32, shape![2, 3]>::ones();
    let _ = a.mv(&Tensor::<f32, shape![4]>::ones());
}
