// Size 0 is an ordinary size: it broadcasts with 1 (giving 0, not max(1, 0))
// and with 0, and clashes with every size of 2 or more.
use shaped::prelude::*;

fn main() {
    // PyTorch: (1,0) + (3,1) is (3,0).
    let a = Tensor::<f32, shape![1, 0]>::zeros();
    let b = Tensor::<f32, shape![3, 1]>::zeros();
    let r: Tensor<f32, shape![3, 0]> = &a + &b;
    assert_eq!(r.shape(), [3, 0]);
    assert_eq!(r.numel(), 0);
    let r: Tensor<f32, shape![3, 0]> = &b + &a;
    assert_eq!(r.shape(), [3, 0]);

    // 0 with 0, 0 with 1, and a missing dimension.
    let z = Tensor::<f32, shape![0]>::zeros();
    let one = Tensor::<f32, shape![1]>::zeros();
    let r: Tensor<f32, shape![0]> = &z + &z;
    assert_eq!(r.shape(), [0]);
    let r: Tensor<f32, shape![0]> = &one + &z;
    assert_eq!(r.shape(), [0]);
    let m = Tensor::<f32, shape![2, 0]>::zeros();
    let r: Tensor<f32, shape![2, 0]> = &m * &z;
    assert_eq!(r.shape(), [2, 0]);

    // Comparisons of empty tensors are empty too.
    let r: Tensor<bool, shape![3, 0]> = b.eq(&a);
    assert_eq!(r.to_vec(), Vec::<bool>::new());

    // In place: a size-1 (or size-0) operand fits an output of size 0.
    let mut out = Tensor::<f32, shape![2, 0]>::zeros();
    out += &Tensor::<f32, shape![1, 0]>::ones();
    out += &Tensor::<f32, shape![1]>::ones();
    assert_eq!(out.shape(), [2, 0]);

    // expand: a size-1 dimension may become size 0.
    let e = one.expand::<shape![4, 0]>();
    assert_eq!(e.shape(), [4, 0]);
}
