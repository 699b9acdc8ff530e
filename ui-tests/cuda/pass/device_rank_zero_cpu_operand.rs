// A rank-0 CPU tensor may take part in an operation with a CUDA tensor, on
// either side, in place and in comparisons: PyTorch's one exception to the
// device rule. (Without a GPU this compiles and returns early.)
use shaped::prelude::*;

fn main() -> Result<(), Error> {
    let Ok(gpu) = Cuda::new(0) else { return Ok(()) };
    let mut x = Tensor::<f32, shape![2, 3]>::ones().to_device(&gpu)?;
    let s = Tensor::<f32, shape![]>::full(2.0);
    let a: Tensor<f32, shape![2, 3], Cuda> = &x + &s;
    let b: Tensor<f32, shape![2, 3], Cuda> = &s * &x;
    let c: Tensor<f32, shape![2, 3], Cuda> = a / s.as_view();
    x -= &s;
    let m: Tensor<bool, shape![2, 3], Cuda> = b.ge(&s);
    let d: DynTensor<f32, Cuda> = c.into_dyn() - &s;
    assert_eq!(m.to_cpu()?.to_vec(), vec![true; 6]);
    assert_eq!(d.to_cpu()?.to_vec(), vec![-1.5; 6]);
    assert_eq!(x.to_cpu()?.to_vec(), vec![-1.0; 6]);
    Ok(())
}
