// The in-place rule where it holds: in `x op= y`, `y` broadcasts *to* `x`'s
// shape, so `x` keeps its shape. Each of `y`'s sizes equals `x`'s or is 1,
// and `y` has at most as many dimensions as `x`.
use shaped::prelude::*;

fn main() {
    // PyTorch: (5,3,4,1) += (3,1,1) is fine.
    let mut x = Tensor::<f32, shape![5, 3, 4, 1]>::zeros();
    x += &Tensor::<f32, shape![3, 1, 1]>::ones();
    assert_eq!(x.shape(), [5, 3, 4, 1]);
    assert_eq!(x.to_vec(), vec![1.0; 60]);

    // The same shape.
    let mut x = Tensor::<f32, shape![2, 3]>::zeros();
    x += &Tensor::<f32, shape![2, 3]>::ones();
    assert_eq!(x.to_vec(), vec![1.0; 6]);

    // Fewer dimensions: (2,3) += (3,) adds the row to each row.
    let mut x = Tensor::<i64, shape![2, 3]>::zeros();
    x += &Tensor::<i64, shape![3]>::arange();
    assert_eq!(x.to_vec(), vec![0, 1, 2, 0, 1, 2]);

    // Size-1 dimensions of the operand stretch: (2,3) -= (2,1), (2,3) *= (1,3).
    let mut x = Tensor::<i64, shape![2, 3]>::ones();
    x -= &Tensor::<i64, shape![2, 1]>::from_vec(vec![1, 2]).unwrap();
    assert_eq!(x.to_vec(), vec![0, 0, 0, -1, -1, -1]);
    x *= &Tensor::<i64, shape![1, 3]>::from_vec(vec![1, 2, 3]).unwrap();
    assert_eq!(x.to_vec(), vec![0, 0, 0, -1, -2, -3]);

    // Scalars: a rank-0 tensor and a plain number fit every output.
    let mut x = Tensor::<f64, shape![2, 2]>::ones();
    x /= &Tensor::<f64, shape![]>::full(4.0);
    assert_eq!(x.to_vec(), vec![0.25; 4]);
    x *= 8.0;
    assert_eq!(x.to_vec(), vec![2.0; 4]);
    let mut s = Tensor::<f64, shape![]>::zeros();
    s += 1.5;
    assert_eq!(s.to_vec(), vec![1.5]);

    // A size-1 operand fits an output of size 0.
    let mut x = Tensor::<f32, shape![0, 3]>::zeros();
    x += &Tensor::<f32, shape![1, 3]>::ones();
    assert_eq!(x.shape(), [0, 3]);
}
