// `expand::<S>()`, `broadcast_to::<S>()` and `expand_as(&t)` give a read-only
// view of shape `S` without copying: size-1 dimensions stretch (stride 0) and
// new leading dimensions appear. The same rule as the in-place one: the
// tensor must broadcast *to* the target.
use shaped::prelude::*;

fn main() {
    // expand: a row repeated along a new leading dimension.
    let row = Tensor::<i64, shape![3]>::arange();
    let e: TensorView<'_, i64, shape![4, 3]> = row.expand::<shape![4, 3]>();
    assert_eq!(e.shape(), [4, 3]);
    assert_eq!(e.strides(), [0, 1]);
    assert!(e.shares_storage_with(&row));
    assert_eq!(e.to_vec(), vec![0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2]);

    // expand: size-1 dimensions anywhere, plus new leading ones.
    let col = Tensor::<f32, shape![3, 1]>::ones();
    let e = col.expand::<shape![2, 3, 4]>();
    assert_eq!(e.shape(), [2, 3, 4]);
    assert_eq!(e.strides(), [0, 1, 0]);

    // expand to the same shape: a plain view.
    let same = col.expand::<shape![3, 1]>();
    assert_eq!(same.strides(), [1, 1]);

    // broadcast_to: the same as expand.
    let b: TensorView<'_, i64, shape![2, 3]> = row.broadcast_to::<shape![2, 3]>();
    assert_eq!(b.to_vec(), vec![0, 1, 2, 0, 1, 2]);

    // expand_as: the target shape is another tensor's (of any element type).
    let grid = Tensor::<bool, shape![3, 3]>::zeros();
    let g: TensorView<'_, i64, shape![3, 3]> = row.expand_as(&grid);
    assert_eq!(g.shape(), [3, 3]);
    assert_eq!(g.strides(), [0, 1]);

    // A rank-0 tensor expands to any shape.
    let s = Tensor::<f32, shape![]>::full(7.0);
    let e = s.expand::<shape![2, 2]>();
    assert_eq!(e.to_vec(), vec![7.0; 4]);

    // The expanded view can be read and used as an operand; to write, copy it.
    let r: Tensor<i64, shape![4, 3]> = &row.expand::<shape![4, 3]>() * 2;
    assert_eq!(r.shape(), [4, 3]);
    let mut owned: Tensor<i64, shape![4, 3]> = row.expand::<shape![4, 3]>().to_owned();
    owned[[0, 0]] = 9;
    owned += 1;
    assert_eq!(owned[[0, 0]], 10);
    assert_eq!(row.to_vec(), vec![0, 1, 2]);
}
