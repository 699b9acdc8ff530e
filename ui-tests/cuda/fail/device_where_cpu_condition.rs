// The condition of `where_` lives on the device of its operands: a CPU
// condition with dimensions beside CUDA operands does not compile (copy it
// over first with `to_device`; only a rank-0 CPU condition may join them).
use shaped::prelude::*;

fn main() -> Result<(), Error> {
    let gpu = Cuda::new(0)?;
    let cond = Tensor::<bool, shape![3]>::ones();
    let a = Tensor::<f32, shape![3]>::ones().to_device(&gpu)?;
    let _ = shaped::where_(&cond, &a, &a);
    Ok(())
}
