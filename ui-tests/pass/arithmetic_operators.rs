// `+ - * /` broadcast for every owned/borrowed combination of two tensors,
// and take a plain number on either side (the number keeps the tensor's
// shape). Views (`as_view()`, `expand()`) are operands like any tensor.
use shaped::prelude::*;

fn main() {
    let a = Tensor::<f32, shape![2, 1]>::from_vec(vec![1.0, 2.0]).unwrap();
    let b = Tensor::<f32, shape![3]>::from_vec(vec![4.0, 8.0, 16.0]).unwrap();

    // `+`: &a + &b, a + &b, &a + b, a + b; all (2,1) + (3,) = (2,3).
    let r: Tensor<f32, shape![2, 3]> = &a + &b;
    assert_eq!(r.to_vec(), vec![5.0, 9.0, 17.0, 6.0, 10.0, 18.0]);
    let r: Tensor<f32, shape![2, 3]> = a.clone() + &b;
    assert_eq!(r.shape(), [2, 3]);
    let r: Tensor<f32, shape![2, 3]> = &a + b.clone();
    assert_eq!(r.shape(), [2, 3]);
    let r: Tensor<f32, shape![2, 3]> = a.clone() + b.clone();
    assert_eq!(r.shape(), [2, 3]);

    // `-`
    let r: Tensor<f32, shape![2, 3]> = &a - &b;
    assert_eq!(r.to_vec(), vec![-3.0, -7.0, -15.0, -2.0, -6.0, -14.0]);
    let r: Tensor<f32, shape![2, 3]> = a.clone() - &b;
    assert_eq!(r.shape(), [2, 3]);
    let r: Tensor<f32, shape![2, 3]> = &a - b.clone();
    assert_eq!(r.shape(), [2, 3]);
    let r: Tensor<f32, shape![2, 3]> = a.clone() - b.clone();
    assert_eq!(r.shape(), [2, 3]);

    // `*`
    let r: Tensor<f32, shape![2, 3]> = &a * &b;
    assert_eq!(r.to_vec(), vec![4.0, 8.0, 16.0, 8.0, 16.0, 32.0]);
    let r: Tensor<f32, shape![2, 3]> = a.clone() * &b;
    assert_eq!(r.shape(), [2, 3]);
    let r: Tensor<f32, shape![2, 3]> = &a * b.clone();
    assert_eq!(r.shape(), [2, 3]);
    let r: Tensor<f32, shape![2, 3]> = a.clone() * b.clone();
    assert_eq!(r.shape(), [2, 3]);

    // `/` (true division, floating and complex tensors)
    let r: Tensor<f32, shape![2, 3]> = &a / &b;
    assert_eq!(r.to_vec(), vec![0.25, 0.125, 0.0625, 0.5, 0.25, 0.125]);
    let r: Tensor<f32, shape![2, 3]> = a.clone() / &b;
    assert_eq!(r.shape(), [2, 3]);
    let r: Tensor<f32, shape![2, 3]> = &a / b.clone();
    assert_eq!(r.shape(), [2, 3]);
    let r: Tensor<f32, shape![2, 3]> = a.clone() / b.clone();
    assert_eq!(r.shape(), [2, 3]);

    // A plain number on the right, with a borrowed or an owned tensor.
    let r: Tensor<f32, shape![3]> = &b + 1.0;
    assert_eq!(r.to_vec(), vec![5.0, 9.0, 17.0]);
    let r: Tensor<f32, shape![3]> = b.clone() - 1.0;
    assert_eq!(r.to_vec(), vec![3.0, 7.0, 15.0]);
    let r: Tensor<f32, shape![3]> = &b * 0.5;
    assert_eq!(r.to_vec(), vec![2.0, 4.0, 8.0]);
    let r: Tensor<f32, shape![3]> = b.clone() / 4.0;
    assert_eq!(r.to_vec(), vec![1.0, 2.0, 4.0]);

    // A plain number on the left.
    let r: Tensor<f32, shape![3]> = 1.0 + &b;
    assert_eq!(r.to_vec(), vec![5.0, 9.0, 17.0]);
    let r: Tensor<f32, shape![3]> = 20.0 - b.clone();
    assert_eq!(r.to_vec(), vec![16.0, 12.0, 4.0]);
    let r: Tensor<f32, shape![3]> = 0.5 * &b;
    assert_eq!(r.to_vec(), vec![2.0, 4.0, 8.0]);
    let r: Tensor<f32, shape![3]> = 32.0 / b.clone();
    assert_eq!(r.to_vec(), vec![8.0, 4.0, 2.0]);

    // Integers: `+ - *` with numbers on either side (wrapping, as PyTorch).
    let i = Tensor::<i64, shape![2, 2]>::from_vec(vec![1, 2, 3, 4]).unwrap();
    let r: Tensor<i64, shape![2, 2]> = 10 - &i * 2 + 1;
    assert_eq!(r.to_vec(), vec![9, 7, 5, 3]);
    let u = Tensor::<u8, shape![2]>::from_vec(vec![255, 1]).unwrap();
    assert_eq!((&u + 1).to_vec(), vec![0, 2]);
    // Numbers are Python's kinds: bool, i64, f64 and Complex<f64>; a number
    // of another Rust type converts first.
    let step: u8 = 1;
    assert_eq!((&u + i64::from(step)).to_vec(), vec![0, 2]);

    // Views are operands too: a read-only view, and an expanded view.
    let v = b.as_view();
    let r: Tensor<f32, shape![2, 3]> = &a + &v;
    assert_eq!(r.shape(), [2, 3]);
    let e = a.expand::<shape![2, 3]>();
    let r: Tensor<f32, shape![2, 3]> = &e * &b;
    assert_eq!(r.to_vec(), vec![4.0, 8.0, 16.0, 8.0, 16.0, 32.0]);

    // Results chain: the output shape of one operator feeds the next.
    let r: Tensor<f32, shape![4, 2, 3]> = &(&a + &b) * &Tensor::<f32, shape![4, 1, 1]>::ones();
    assert_eq!(r.shape(), [4, 2, 3]);
}
