// Tensors never move between devices implicitly: a CUDA tensor and a CPU
// tensor with dimensions cannot be added (as in PyTorch).
use shaped::prelude::*;

fn main() -> Result<(), Error> {
    let gpu = Cuda::new(0)?;
    let x = Tensor::<f32, shape![2, 3]>::zeros().to_device(&gpu)?;
    let y = Tensor::<f32, shape![2, 3]>::ones();
    let _ = &x + &y;
    Ok(())
}
