// `+= -= *= /=` take a borrowed tensor, an owned tensor or a plain number, on
// an owned tensor or a mutable view (`view_mut()`); the right-hand side
// broadcasts to the left's shape, which never changes.
use shaped::prelude::*;

fn main() {
    let row = Tensor::<f32, shape![3]>::from_vec(vec![1.0, 2.0, 4.0]).unwrap();
    let mut x = Tensor::<f32, shape![2, 3]>::zeros();

    // With a borrowed tensor.
    x += &row;
    assert_eq!(x.to_vec(), vec![1.0, 2.0, 4.0, 1.0, 2.0, 4.0]);
    x -= &row;
    assert_eq!(x.to_vec(), vec![0.0; 6]);
    x += 1.0;
    x *= &row;
    assert_eq!(x.to_vec(), vec![1.0, 2.0, 4.0, 1.0, 2.0, 4.0]);
    x /= &row;
    assert_eq!(x.to_vec(), vec![1.0; 6]);

    // With an owned tensor.
    x += row.clone();
    assert_eq!(x.to_vec(), vec![2.0, 3.0, 5.0, 2.0, 3.0, 5.0]);
    x -= row.clone();
    assert_eq!(x.to_vec(), vec![1.0; 6]);
    x *= row.clone();
    assert_eq!(x.to_vec(), vec![1.0, 2.0, 4.0, 1.0, 2.0, 4.0]);
    x /= row.clone();
    assert_eq!(x.to_vec(), vec![1.0; 6]);

    // With a plain number.
    x += 3.0;
    assert_eq!(x.to_vec(), vec![4.0; 6]);
    x -= 1.0;
    assert_eq!(x.to_vec(), vec![3.0; 6]);
    x *= 2.0;
    assert_eq!(x.to_vec(), vec![6.0; 6]);
    x /= 4.0;
    assert_eq!(x.to_vec(), vec![1.5; 6]);

    // The right-hand side may be a view, even an expanded one (it is only read).
    x -= &row.expand::<shape![2, 3]>();
    assert_eq!(x.to_vec(), vec![0.5, -0.5, -2.5, 0.5, -0.5, -2.5]);

    // Through a mutable view, the base tensor changes.
    {
        let mut v = x.view_mut();
        v *= 0.0;
        v += &row;
        v -= 1.0;
        v /= 2.0;
    }
    assert_eq!(x.to_vec(), vec![0.0, 0.5, 1.5, 0.0, 0.5, 1.5]);

    // Integer tensors: `+= -= *=` (`/=` is for floating and complex tensors).
    let mut i = Tensor::<i32, shape![2, 2]>::ones();
    i += &Tensor::<i32, shape![2, 1]>::from_vec(vec![1, 2]).unwrap();
    i *= 3;
    i -= 1;
    assert_eq!(i.to_vec(), vec![5, 5, 8, 8]);
}
