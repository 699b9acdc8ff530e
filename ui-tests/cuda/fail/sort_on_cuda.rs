// Sorting has no CUDA kernel yet: `sort`, `argsort` and `msort` of a CUDA
// tensor do not compile (rather than copying behind the caller's back);
// copy it to the CPU with `to_cpu()` first.
use shaped::prelude::*;

fn main() -> Result<(), Error> {
    let gpu = Cuda::new(0)?;
    let x = Tensor::<f32, shape![2, 3]>::zeros().to_device(&gpu)?;
    let _ = x.sort::<1>(false);
    let _ = x.to_cpu()?.sort::<1>(false); // compiles
    Ok(())
}
