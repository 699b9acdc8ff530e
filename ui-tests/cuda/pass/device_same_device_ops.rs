// Operands on one CUDA device take every operator form that CPU tensors take:
// broadcasting, numbers on either side, comparisons, in place, views.
use shaped::prelude::*;

fn main() -> Result<(), Error> {
    let Ok(gpu) = Cuda::new(0) else { return Ok(()) };
    let x = Tensor::<f32, shape![5, 1, 4, 1]>::zeros().to_device(&gpu)?;
    let y = Tensor::<f32, shape![3, 1, 1]>::ones().to_device(&gpu)?;
    let z: Tensor<f32, shape![5, 3, 4, 1], Cuda> = &x + &y;
    let w = 2.0 * -(z.contiguous().clone() - 1.0);
    let mut acc = Tensor::<f32, shape![5, 3, 4, 1]>::zeros().to_device(&gpu)?;
    acc += &y;
    acc /= 2.0;
    let e: Tensor<bool, shape![5, 3, 4, 1], Cuda> = w.eq(0.0);
    assert_eq!(e.to_cpu()?.to_vec(), vec![true; 60]);
    assert_eq!(acc.to_cpu()?.to_vec(), vec![0.5; 60]);
    Ok(())
}
