// Comparisons follow the same device rule as arithmetic.
use shaped::prelude::*;

fn main() -> Result<(), Error> {
    let gpu = Cuda::new(0)?;
    let x = Tensor::<i32, shape![2, 3]>::zeros().to_device(&gpu)?;
    let y = Tensor::<i32, shape![2, 3]>::ones();
    let _ = x.lt(&y);
    Ok(())
}
