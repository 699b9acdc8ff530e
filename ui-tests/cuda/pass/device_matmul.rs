// Matrix products of CUDA tensors run on their device, with the static
// rules of CPU tensors: the compiler computes the product's shape (batch
// dimensions broadcast, vectors dropped) and checks the inner sizes.
use shaped::prelude::*;

fn main() -> Result<(), Error> {
    let Ok(gpu) = Cuda::new(0) else { return Ok(()) };
    let a = Tensor::<f32, shape![2, 3]>::ones().to_device(&gpu)?;
    let b = Tensor::<f32, shape![4, 3, 5]>::ones().to_device(&gpu)?;
    let v = Tensor::<f32, shape![3]>::ones().to_device(&gpu)?;
    let c: Tensor<f32, shape![4, 2, 5], Cuda> = a.matmul(&b);
    let w: Tensor<f32, shape![2], Cuda> = a.matmul(&v);
    let d = DynTensor::<f64>::ones(&[2, 3]).to_device(&gpu)?;
    let e: DynTensor<f64, Cuda> = d.matmul(&d.t()?)?;
    assert_eq!((c.shape(), w.shape()), ([4, 2, 5], [2]));
    assert_eq!(e.rank(), 2);
    Ok(())
}
