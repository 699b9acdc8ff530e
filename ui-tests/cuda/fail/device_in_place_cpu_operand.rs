// An in-place operation on a CUDA tensor cannot read a CPU tensor that has
// dimensions.
use shaped::prelude::*;

fn main() -> Result<(), Error> {
    let gpu = Cuda::new(0)?;
    let mut x = Tensor::<f32, shape![2, 3]>::zeros().to_device(&gpu)?;
    let y = Tensor::<f32, shape![3]>::ones();
    x += &y;
    Ok(())
}
