// `cat` and `stack` join CUDA tensors on their device, the result's shape
// computed at compile time as for CPU tensors; the runtime list forms take
// CUDA tensors too.
use shaped::prelude::*;

fn main() -> Result<(), Error> {
    let Ok(gpu) = Cuda::new(0) else { return Ok(()) };
    let a = Tensor::<f32, shape![2, 3]>::ones().to_device(&gpu)?;
    let b = Tensor::<f32, shape![2, 5]>::zeros().to_device(&gpu)?;
    let c: Tensor<f32, shape![2, 8], Cuda> = (&a, &b).cat::<1>();
    let s: Tensor<f32, shape![3, 2, 3], Cuda> = [&a, &a, &a].stack::<0>();
    let x = DynTensor::<f32>::ones(&[2, 2]).to_device(&gpu)?;
    let y: Tensor<f32, DynShape, Cuda> = Tensor::cat(&[&x, &x], 0)?;
    assert_eq!((c.shape(), s.shape()), ([2, 8], [3, 2, 3]));
    assert_eq!(y.shape(), [4, 2]);
    Ok(())
}
