// `eq ne lt le gt ge` compare elementwise with a tensor (borrowed or owned,
// broadcasting like `+`) or a plain number, and give a `Tensor<bool, _>` of
// the broadcast shape.
use shaped::prelude::*;

fn main() {
    let a = Tensor::<i64, shape![3, 1]>::from_vec(vec![0, 1, 2]).unwrap();
    let b = Tensor::<i64, shape![3]>::from_vec(vec![0, 1, 2]).unwrap();

    // With a borrowed tensor: (3,1) vs (3,) = (3,3).
    let r: Tensor<bool, shape![3, 3]> = a.eq(&b);
    assert_eq!(
        r.to_vec(),
        vec![true, false, false, false, true, false, false, false, true]
    );
    let r: Tensor<bool, shape![3, 3]> = a.ne(&b);
    assert_eq!(r.to_vec().iter().filter(|&&t| t).count(), 6);
    let r: Tensor<bool, shape![3, 3]> = a.lt(&b);
    assert_eq!(r.to_vec().iter().filter(|&&t| t).count(), 3);
    let r: Tensor<bool, shape![3, 3]> = a.le(&b);
    assert_eq!(r.to_vec().iter().filter(|&&t| t).count(), 6);
    let r: Tensor<bool, shape![3, 3]> = a.gt(&b);
    assert_eq!(r.to_vec().iter().filter(|&&t| t).count(), 3);
    let r: Tensor<bool, shape![3, 3]> = a.ge(&b);
    assert_eq!(r.to_vec().iter().filter(|&&t| t).count(), 6);

    // With an owned tensor, in the other order: (3,) vs (3,1) = (3,3).
    let r: Tensor<bool, shape![3, 3]> = b.eq(a.clone());
    assert_eq!(r.shape(), [3, 3]);
    let r: Tensor<bool, shape![3, 3]> = b.ne(a.clone());
    assert_eq!(r.shape(), [3, 3]);
    let r: Tensor<bool, shape![3, 3]> = b.lt(a.clone());
    assert_eq!(r.shape(), [3, 3]);
    let r: Tensor<bool, shape![3, 3]> = b.le(a.clone());
    assert_eq!(r.shape(), [3, 3]);
    let r: Tensor<bool, shape![3, 3]> = b.gt(a.clone());
    assert_eq!(r.shape(), [3, 3]);
    let r: Tensor<bool, shape![3, 3]> = b.ge(a.clone());
    assert_eq!(r.shape(), [3, 3]);

    // With a plain number: the tensor's own shape.
    let r: Tensor<bool, shape![3]> = b.eq(1);
    assert_eq!(r.to_vec(), vec![false, true, false]);
    let r: Tensor<bool, shape![3]> = b.ne(1);
    assert_eq!(r.to_vec(), vec![true, false, true]);
    let r: Tensor<bool, shape![3]> = b.lt(1);
    assert_eq!(r.to_vec(), vec![true, false, false]);
    let r: Tensor<bool, shape![3]> = b.le(1);
    assert_eq!(r.to_vec(), vec![true, true, false]);
    let r: Tensor<bool, shape![3]> = b.gt(1);
    assert_eq!(r.to_vec(), vec![false, false, true]);
    let r: Tensor<bool, shape![3]> = b.ge(1);
    assert_eq!(r.to_vec(), vec![false, true, true]);

    // Floating tensors, and a comparison of bools.
    let f = Tensor::<f32, shape![2, 2]>::full(0.5);
    let r: Tensor<bool, shape![2, 2]> = f.lt(1.0);
    assert_eq!(r.to_vec(), vec![true; 4]);
    let m: Tensor<bool, shape![2, 2]> = r.eq(true);
    assert_eq!(m.to_vec(), vec![true; 4]);
}
