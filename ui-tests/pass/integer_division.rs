// `/` is true division (as in PyTorch): integer and bool tensors divide
// as float32, so the quotient of two i32 tensors is a `Tensor<f32, _>`.
use shaped::prelude::*;

fn main() {
    let a = Tensor::<i32, shape![2, 3]>::from_vec(vec![1, 2, 3, 4, 5, 6]).unwrap();
    let b = Tensor::<i32, shape![3]>::from_vec(vec![2, 4, 8]).unwrap();
    let q: Tensor<f32, shape![2, 3]> = &a / &b;
    assert_eq!(q.to_vec(), vec![0.5, 0.5, 0.375, 2.0, 1.25, 0.75]);

    let u = Tensor::<u8, shape![4]>::from_vec(vec![1, 2, 3, 255]).unwrap();
    let halves: Tensor<f32, shape![4]> = &u / 2;
    assert_eq!(halves.to_vec(), vec![0.5, 1.0, 1.5, 127.5]);
    let inverse: Tensor<f32, shape![4]> = 3 / &Tensor::<i64, shape![4]>::ones();
    assert_eq!(inverse.to_vec(), vec![3.0; 4]);

    // Floating tensors divide in their own type, in place too.
    let mut f = Tensor::<f64, shape![2]>::from_vec(vec![1.0, 3.0]).unwrap();
    f /= 2.0;
    f /= &Tensor::<f64, shape![2]>::from_vec(vec![0.5, 0.25]).unwrap();
    assert_eq!(f.to_vec(), vec![1.0, 6.0]);
}
