// `t.slice(s![..])` on a static shape: the compiler computes the result shape
// (written out here) from the literal items, with PyTorch's rules; items
// given as variables are checked at run time, and a range given as a
// variable makes its size `Dyn`.
use shaped::prelude::*;

fn main() {
    let t = Tensor::<i64, shape![4, 6, 5]>::from_vec((0..120).collect()).unwrap();

    // An index drops its dimension; negative indices count from the end.
    let a: TensorView<'_, i64, shape![6, 5]> = t.slice(s![0]);
    let b: TensorView<'_, i64, shape![6, 5]> = t.slice(s![-4]);
    assert_eq!(a.to_vec(), b.to_vec());

    // A range keeps it: ceil((end - start) / step) entries, bounds clamped.
    let c: TensorView<'_, i64, shape![2, 2, 5]> = t.slice(s![1..3, ..;4]);
    assert_eq!(c.strides(), [30, 20, 1]);
    let d: TensorView<'_, i64, shape![3, 2, 5]> = t.slice(s![-3.., 2..100;3]);
    assert_eq!(d.storage_offset(), 30 + 10);
    let e: TensorView<'_, i64, shape![0, 6, 5]> = t.slice(s![3..1]);
    assert_eq!(e.to_vec(), Vec::<i64>::new());
    let f: TensorView<'_, i64, shape![3, 5, 5]> = t.slice(s![..-1, ..=-2]);
    assert_eq!(f.shape(), [3, 5, 5]);

    // `NewAxis` inserts a size-1 dimension, `Ellipsis` stands for the rest.
    let g: TensorView<'_, i64, shape![4, 6]> = t.slice(s![Ellipsis, 0]);
    assert_eq!(g.strides(), [30, 5]);
    let h: TensorView<'_, i64, shape![1, 6, 1, 4]> = t.slice(s![NewAxis, 1, Ellipsis, NewAxis, 1..]);
    assert_eq!(h.storage_offset(), 31);

    // Items given as variables: an index still drops its dimension; a
    // range's size is known at run time only.
    let (i, r) = (2, 1..4);
    let j: TensorView<'_, i64, shape![Dyn, 5]> = t.slice(s![i, r]);
    assert_eq!(j.shape(), [3, 5]);
    let k = 9;
    assert_eq!(
        t.try_slice(s![.., k]).unwrap_err().to_string(),
        "index 9 is out of bounds for dimension 1 with size 6"
    );

    // Views of views keep slicing, and a writable slice writes through.
    let mut m = Tensor::<i32, shape![3, 4]>::zeros();
    let v: TensorView<'_, i64, shape![2]> = a.slice(s![1..3, 0]);
    assert_eq!(v.to_vec(), vec![5, 10]);
    m.view_mut().slice_mut(s![.., ..;2]).fill(1);
    assert_eq!(m.to_vec(), vec![1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0]);
}
