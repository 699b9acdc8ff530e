// `where_` of CUDA tensors runs on their device: the three broadcast
// together (the result's shape computed at compile time) and `a`, `b`
// promoted to their common type, as for CPU tensors. A rank-0 CPU operand
// or condition joins them, as in PyTorch (its element is copied to the
// GPU): the result lives on the GPU.
use shaped::prelude::*;

fn main() -> Result<(), Error> {
    let Ok(gpu) = Cuda::new(0) else { return Ok(()) };
    let cond = Tensor::<bool, shape![2, 1]>::ones().to_device(&gpu)?;
    let a = Tensor::<i32, shape![3]>::ones().to_device(&gpu)?;
    let b = Tensor::<f32, shape![1]>::zeros().to_device(&gpu)?;
    let w: Tensor<f32, shape![2, 3], Cuda> = shaped::where_(&cond, &a, &b);
    let d = DynTensor::<bool>::ones(&[4]).to_device(&gpu)?;
    let x = DynTensor::<f64>::ones(&[4]).to_device(&gpu)?;
    let v: DynTensor<f64, Cuda> = shaped::ops::math::try_where(&d, &x, &x)?;
    let zero = Tensor::<f64, shape![]>::full(0.0);
    let u: Tensor<f64, shape![2, 3], Cuda> = shaped::where_(&cond, &a, &zero);
    let yes = Tensor::<bool, shape![]>::full(true);
    let t: Tensor<f32, shape![3], Cuda> = shaped::where_(&yes, &a, &b);
    assert_eq!(t.shape(), [3]);
    assert_eq!(u.shape(), [2, 3]);
    assert_eq!(w.shape(), [2, 3]);
    assert_eq!(v.rank(), 1);
    Ok(())
}
