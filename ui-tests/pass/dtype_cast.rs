// `cast::<U>()` converts as PyTorch's `to(dtype)`: floats truncate toward
// zero into integers, anything non-zero is `true`, complex keeps its real
// part.
use num_complex::Complex;
use shaped::prelude::*;

fn main() {
    let x = tensor![-2.7f32, 0.0, 300.7];
    let i: Tensor<i32, shape![3]> = x.cast::<i32>();
    assert_eq!(i.to_vec(), vec![-2, 0, 300]);
    assert_eq!(x.cast::<u8>().to_vec(), vec![254, 0, 44]);
    assert_eq!(x.cast::<bool>().to_vec(), vec![true, false, true]);
    let z = tensor![Complex::new(1.5f64, -2.0)];
    assert_eq!(z.cast::<f32>().to_vec(), vec![1.5]);
    let d: DynTensor<half::bf16> = DynTensor::<f64>::full(&[2], 1.0 / 3.0).cast();
    assert_eq!(d.dtype(), DType::BF16);
}
