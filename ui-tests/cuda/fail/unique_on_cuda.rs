// The sets and bins have no CUDA kernels yet: `unique` (and
// `searchsorted`, `bucketize`, `bincount`, `histc`) of a CUDA tensor do not
// compile (rather than copying behind the caller's back); copy it to the
// CPU with `to_cpu()` first.
use shaped::prelude::*;

fn main() -> Result<(), Error> {
    let gpu = Cuda::new(0)?;
    let x = Tensor::<i64, shape![2, 3]>::zeros().to_device(&gpu)?;
    let _ = x.unique(true, true, false);
    let _ = x.to_cpu()?.unique(true, true, false); // compiles
    Ok(())
}
