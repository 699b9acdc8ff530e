// The exception is for a rank-0 *CPU* tensor only: a rank-0 CUDA tensor with
// a CPU tensor that has dimensions is an error, as in PyTorch.
use shaped::prelude::*;

fn main() -> Result<(), Error> {
    let gpu = Cuda::new(0)?;
    let s = Tensor::<f32, shape![]>::full(2.0).to_device(&gpu)?;
    let m = Tensor::<f32, shape![4, 4]>::ones();
    let _ = &s - &m;
    Ok(())
}
