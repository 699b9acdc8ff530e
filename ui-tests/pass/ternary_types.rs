// `lerp`, `addcmul` and `addcdiv` compute their result's shape (the three
// broadcast) and dtype (promotion, as `+`) at compile time.
use shaped::prelude::*;

fn main() {
    let start = Tensor::<f32, shape![2]>::zeros();
    let end = Tensor::<f32, shape![3, 1]>::ones();
    let weight = Tensor::<f32, shape![4, 1, 1]>::full(0.5);
    let by_tensor: Tensor<f32, shape![4, 3, 2]> = start.lerp(&end, &weight);
    let by_number: Tensor<f32, shape![3, 2]> = start.lerp(&end, 0.25);
    assert_eq!(by_tensor[[0, 0, 0]], 0.5);
    assert_eq!(by_number[[2, 1]], 0.25);

    let x = Tensor::<i32, shape![2, 1]>::ones();
    let t1 = Tensor::<f32, shape![3]>::full(2.0);
    let t2 = Tensor::<f64, shape![]>::full(4.0);
    // A rank-0 float64 beside dimensioned float32: float32, as PyTorch.
    let y: Tensor<f32, shape![2, 3]> = x.addcmul(&t1, &t2, 0.5);
    let z: Tensor<f32, shape![2, 3]> = x.addcdiv(&t1, &t2, 2.0);
    assert_eq!(y[[1, 2]], 5.0);
    assert_eq!(z[[0, 0]], 2.0);

    let mut acc = Tensor::<f64, shape![2, 3]>::zeros();
    acc.addcmul_(&Tensor::<f64, shape![3]>::ones(), &Tensor::<f64, shape![2, 1]>::full(3.0), 2.0)
        .unwrap();
    assert_eq!(acc[[1, 1]], 6.0);
}
