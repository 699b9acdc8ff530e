// The rule holds in both orders: a CPU tensor with dimensions on the left of
// a CUDA tensor does not compile either.
use shaped::prelude::*;

fn main() -> Result<(), Error> {
    let gpu = Cuda::new(0)?;
    let x = Tensor::<f32, shape![3]>::ones();
    let y = Tensor::<f32, shape![3]>::zeros().to_device(&gpu)?;
    let _ = x * y;
    Ok(())
}
