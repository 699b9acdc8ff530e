// `sort`, `argsort`, `msort` and `topk` of CUDA tensors run on their
// device, with the CPU's order (stable, NaN above every number), and their
// results stay there: the shapes as on the CPU.
use shaped::prelude::*;

fn main() -> Result<(), Error> {
    let Ok(gpu) = Cuda::new(0) else { return Ok(()) };
    let x = Tensor::<f32, shape![2, 3]>::from_vec(vec![3.0, f32::NAN, 1.0, 2.0, 2.0, -1.0])
        .unwrap()
        .to_device(&gpu)?;
    let (values, indices): (Tensor<f32, shape![2, 3], Cuda>, Tensor<i64, shape![2, 3], Cuda>) =
        x.sort::<1>(false);
    assert_eq!(indices.to_cpu()?.to_vec(), [2, 0, 1, 2, 0, 1]);
    assert_eq!(values.to_cpu()?.to_vec()[..2], [1.0, 3.0]);
    let a: Tensor<i64, shape![2, 3], Cuda> = x.argsort::<0>(true);
    let m: Tensor<f32, shape![2, 3], Cuda> = x.msort();
    let d = DynTensor::<i64>::from_vec(vec![2, 1, 2, 1], &[4]).unwrap().to_device(&gpu)?;
    let (top, at): (DynTensor<i64, Cuda>, DynTensor<i64, Cuda>) = d.topk(2, 0, true, true)?;
    assert_eq!((top.to_cpu()?.to_vec(), at.to_cpu()?.to_vec()), (vec![2, 2], vec![0, 2]));
    assert_eq!((a.shape(), m.shape()), ([2, 3], [2, 3]));
    Ok(())
}
