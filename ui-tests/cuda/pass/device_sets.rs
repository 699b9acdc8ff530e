// The sets and bins of CUDA tensors run on their device and their results
// stay there: `unique` (the values of run-time length, the inverse of the
// input's static shape), `searchsorted`, `bincount` and `histc::<BINS>`
// with its static shape.
use shaped::prelude::*;

fn main() -> Result<(), Error> {
    let Ok(gpu) = Cuda::new(0) else { return Ok(()) };
    let x = Tensor::<i64, shape![2, 3]>::from_vec(vec![4, 1, 4, 0, 1, 4])?.to_device(&gpu)?;
    let (values, inverse, counts): (
        Tensor<i64, (Dyn,), Cuda>,
        Option<Tensor<i64, shape![2, 3], Cuda>>,
        Option<Tensor<i64, (Dyn,), Cuda>>,
    ) = x.unique(true, true, true);
    assert_eq!(values.to_cpu()?.to_vec(), [0, 1, 4]);
    assert_eq!(inverse.expect("asked for").to_cpu()?.to_vec(), [2, 1, 2, 0, 1, 2]);
    assert_eq!(counts.expect("asked for").to_cpu()?.to_vec(), [1, 2, 3]);
    let d = DynTensor::<f32>::from_vec(vec![0.5, 1.5, 2.5], &[3])?.to_device(&gpu)?;
    let at: DynTensor<i64, Cuda> = d.searchsorted(&d, true)?;
    assert_eq!(at.to_cpu()?.to_vec(), [1, 2, 3]);
    let flat = DynTensor::<i64>::from_vec(vec![4, 1, 4], &[3])?.to_device(&gpu)?;
    assert_eq!(flat.bincount(0)?.to_cpu()?.to_vec(), [0, 1, 0, 0, 2]);
    let typed: Tensor<f32, shape![3], Cuda> = d.into_static()?;
    let h: Tensor<f32, shape![3], Cuda> = typed.histc::<3>(0.0, 3.0)?;
    assert_eq!(h.to_cpu()?.to_vec(), [1.0, 1.0, 1.0]);
    Ok(())
}
