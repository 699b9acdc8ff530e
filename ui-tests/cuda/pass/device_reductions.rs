// Reductions of CUDA tensors run on their device: the axes leave the type
// (or stay with size 1) as for CPU tensors, and the results are CUDA
// tensors; the `DynTensor` forms take their dims at run time.
use shaped::prelude::*;

fn main() -> Result<(), Error> {
    let Ok(gpu) = Cuda::new(0) else { return Ok(()) };
    let x = Tensor::<f32, shape![2, 3, 4]>::ones().to_device(&gpu)?;
    let rows: Tensor<f32, shape![2, 4], Cuda> = x.sum_dim::<1>();
    let kept: Tensor<f32, shape![2, 1, 4], Cuda> = x.mean_keepdim::<1>();
    let whole: Tensor<f32, shape![], Cuda> = x.sum();
    let (values, indices): (Tensor<f32, shape![3, 4], Cuda>, Tensor<i64, shape![3, 4], Cuda>) =
        x.max_dim::<0>();
    let n = Tensor::<i32, shape![5]>::ones().to_device(&gpu)?;
    let total: Tensor<i64, shape![], Cuda> = n.sum();
    let any: Tensor<bool, shape![], Cuda> = n.any();
    let d = DynTensor::<f32>::ones(&[2, 3]).to_device(&gpu)?;
    let s: DynTensor<f32, Cuda> = d.sum(&[0, -1], false)?;
    let a: DynTensor<i64, Cuda> = d.argmax(1, false)?;
    assert_eq!((rows.shape(), kept.shape(), whole.shape()), ([2, 4], [2, 1, 4], []));
    assert_eq!((values.shape(), indices.shape()), ([3, 4], [3, 4]));
    assert_eq!((total.shape(), any.shape()), ([], []));
    assert_eq!((s.rank(), a.shape()[..].to_vec()), (0, vec![2]));
    Ok(())
}
