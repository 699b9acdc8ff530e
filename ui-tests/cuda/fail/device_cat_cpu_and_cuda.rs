// The parts of a `cat` (or `stack`) live on one device: a CPU part with a
// CUDA part does not compile. Copy one of them over first.
use shaped::prelude::*;

fn main() -> Result<(), Error> {
    let gpu = Cuda::new(0)?;
    let a = Tensor::<f32, shape![2, 3]>::ones().to_device(&gpu)?;
    let b = Tensor::<f32, shape![2, 3]>::ones();
    let _ = (&a, &b).cat::<0>();
    Ok(())
}
