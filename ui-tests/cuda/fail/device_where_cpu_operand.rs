// An operand of `where_` with dimensions lives on the condition's device: a
// CPU operand of shape (3) with a CUDA condition does not compile (only a
// rank-0 CPU tensor may join CUDA tensors, as in PyTorch).
use shaped::prelude::*;

fn main() -> Result<(), Error> {
    let gpu = Cuda::new(0)?;
    let cond = Tensor::<bool, shape![3]>::ones().to_device(&gpu)?;
    let a = Tensor::<f32, shape![3]>::ones().to_device(&gpu)?;
    let b = Tensor::<f32, shape![3]>::zeros();
    let _ = shaped::where_(&cond, &a, &b);
    Ok(())
}
