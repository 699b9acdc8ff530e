// A rank-0 tensor (a scalar, `shape![]`) broadcasts with every shape, on
// either side, and the result has the other operand's shape.
use shaped::prelude::*;

fn main() {
    let s = Tensor::<f32, shape![]>::full(2.0);

    // Scalar with scalar: still rank 0.
    let r: Tensor<f32, shape![]> = &s + &s;
    assert_eq!(r.shape(), [0usize; 0]);
    assert_eq!(r.to_vec(), vec![4.0]);

    // The exercise set A..F, both orders.
    let a = Tensor::<f32, shape![2, 1, 2]>::ones();
    let r: Tensor<f32, shape![2, 1, 2]> = &s + &a;
    assert_eq!(r.shape(), [2, 1, 2]);
    let r: Tensor<f32, shape![2, 1, 2]> = &a + &s;
    assert_eq!(r.shape(), [2, 1, 2]);

    let b = Tensor::<f32, shape![2, 1, 1, 3]>::ones();
    let r: Tensor<f32, shape![2, 1, 1, 3]> = &s + &b;
    assert_eq!(r.shape(), [2, 1, 1, 3]);
    let r: Tensor<f32, shape![2, 1, 1, 3]> = &b + &s;
    assert_eq!(r.shape(), [2, 1, 1, 3]);

    let c = Tensor::<f32, shape![5, 1]>::ones();
    let r: Tensor<f32, shape![5, 1]> = &s + &c;
    assert_eq!(r.shape(), [5, 1]);
    let r: Tensor<f32, shape![5, 1]> = &c + &s;
    assert_eq!(r.shape(), [5, 1]);

    let d = Tensor::<f32, shape![1, 5]>::ones();
    let r: Tensor<f32, shape![1, 5]> = &s + &d;
    assert_eq!(r.shape(), [1, 5]);
    let r: Tensor<f32, shape![1, 5]> = &d + &s;
    assert_eq!(r.shape(), [1, 5]);

    let e = Tensor::<f32, shape![1]>::ones();
    let r: Tensor<f32, shape![1]> = &s + &e;
    assert_eq!(r.shape(), [1]);
    let r: Tensor<f32, shape![1]> = &e + &s;
    assert_eq!(r.shape(), [1]);

    let f = Tensor::<f32, shape![5, 3]>::ones();
    let r: Tensor<f32, shape![5, 3]> = &s + &f;
    assert_eq!(r.shape(), [5, 3]);
    let r: Tensor<f32, shape![5, 3]> = &f + &s;
    assert_eq!(r.shape(), [5, 3]);
    assert_eq!(r.to_vec(), vec![3.0; 15]);

    // Even the shapes that broadcast with nothing else: size 0, and (2,2),
    // which clashes with (0,).
    let z = Tensor::<f32, shape![0]>::zeros();
    let r: Tensor<f32, shape![0]> = &s + &z;
    assert_eq!(r.shape(), [0]);
    let r: Tensor<f32, shape![0]> = &z + &s;
    assert_eq!(r.shape(), [0]);
    let q = Tensor::<f32, shape![2, 2]>::zeros();
    let r: Tensor<f32, shape![2, 2]> = &q + &s;
    assert_eq!(r.shape(), [2, 2]);

    // Every operator and comparison takes a scalar tensor.
    let x = Tensor::<f32, shape![2, 3]>::ones();
    let r: Tensor<f32, shape![2, 3]> = &x - &s;
    assert_eq!(r.to_vec(), vec![-1.0; 6]);
    let r: Tensor<f32, shape![2, 3]> = &s * &x;
    assert_eq!(r.to_vec(), vec![2.0; 6]);
    let r: Tensor<f32, shape![2, 3]> = &x / &s;
    assert_eq!(r.to_vec(), vec![0.5; 6]);
    let r: Tensor<bool, shape![2, 3]> = x.lt(&s);
    assert_eq!(r.to_vec(), vec![true; 6]);
    let r: Tensor<bool, shape![]> = s.eq(&s);
    assert_eq!(r.to_vec(), vec![true]);

    // In place: a scalar tensor broadcasts into any output, and into a scalar.
    let mut x = Tensor::<f32, shape![2, 3]>::zeros();
    x += &s;
    assert_eq!(x.to_vec(), vec![2.0; 6]);
    let mut t = Tensor::<f32, shape![]>::zeros();
    t -= &s;
    assert_eq!(t.to_vec(), vec![-2.0]);
}
