// Unary `-`, on a borrowed or an owned tensor (or view), keeps the shape;
// integers wrap as in PyTorch.
use shaped::prelude::*;

fn main() {
    let x = Tensor::<f32, shape![2, 3]>::ones();
    let r: Tensor<f32, shape![2, 3]> = -&x;
    assert_eq!(r.to_vec(), vec![-1.0; 6]);
    let r: Tensor<f32, shape![2, 3]> = -x;
    assert_eq!(r.to_vec(), vec![-1.0; 6]);

    let i = Tensor::<i8, shape![3]>::from_vec(vec![1, -128, 0]).unwrap();
    let r: Tensor<i8, shape![3]> = -&i;
    assert_eq!(r.to_vec(), vec![-1, -128, 0]);

    let s = Tensor::<f64, shape![]>::full(2.0);
    let r: Tensor<f64, shape![]> = -&s;
    assert_eq!(r.to_vec(), vec![-2.0]);

    let col = Tensor::<f32, shape![3, 1]>::ones();
    let r: Tensor<f32, shape![2, 3, 4]> = -col.expand::<shape![2, 3, 4]>();
    assert_eq!(r.to_vec(), vec![-1.0; 24]);
}
