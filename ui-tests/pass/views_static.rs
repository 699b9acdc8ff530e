// View operations on static shapes: the compiler computes every result shape
// (checked here by the annotated types), and the views share storage.
use shaped::prelude::*;

fn main() {
    let mut t = Tensor::<i64, shape![4, 4]>::from_vec((0..16).collect()).unwrap();
    let v: TensorView<'_, i64, shape![2, 8]> = t.view::<shape![2, 8]>().unwrap();
    assert!(v.shares_storage_with(&t));
    let r: TensorCow<'_, i64, shape![8, 2]> = t.reshape::<shape![8, 2]>();
    assert!(r.is_borrowed());
    let tt: TensorView<'_, i64, shape![4, 4]> = t.transpose::<0, 1>();
    assert!(!tt.is_contiguous());
    let c = tt.contiguous();
    assert!(c.is_contiguous() && !c.is_borrowed());
    let n: TensorView<'_, i64, shape![4, 2]> = t.narrow::<1, 2>(1);
    assert_eq!(n.to_vec(), vec![1, 2, 5, 6, 9, 10, 13, 14]);
    let s: TensorView<'_, i64, shape![4]> = t.select::<0>(2);
    assert_eq!(s.to_vec(), vec![8, 9, 10, 11]);
    let u: TensorView<'_, i64, shape![1, 4, 4]> = t.unsqueeze::<0>();
    let q: TensorView<'_, i64, shape![4, 4]> = u.squeeze();
    assert_eq!(q.shape(), [4, 4]);
    let d: TensorView<'_, i64, shape![4]> = t.diagonal();
    assert_eq!(d.to_vec(), vec![0, 5, 10, 15]);
    let w: TensorView<'_, i64, shape![3, 2]> = t.slice(s![1.., ..;2]);
    assert_eq!(w.shape(), [3, 2]);

    let cube = Tensor::<f32, shape![2, 3, 4]>::zeros();
    let p: TensorView<'_, f32, shape![4, 2, 3]> = cube.permute::<axes![2, 0, 1]>();
    assert_eq!(p.strides(), [1, 12, 4]);
    let m: TensorView<'_, f32, shape![3, 4, 2]> = cube.movedim::<0, 2>();
    assert_eq!(m.shape(), [3, 4, 2]);
    let mt: TensorView<'_, f32, shape![2, 4, 3]> = cube.mt();
    assert_eq!(mt.shape(), [2, 4, 3]);
    let sw: TensorView<'_, f32, shape![4, 3, 2]> = cube.swapaxes::<0, 2>();
    assert_eq!(sw.shape(), [4, 3, 2]);

    // Views of views keep the original borrow, and writes land in the base.
    let chained = t.transpose::<0, 1>().narrow::<0, 2>(1).select::<1>(0);
    assert_eq!(chained.to_vec(), vec![1, 2]);
    {
        let mut vm = t.view_mut();
        vm[[0, 0]] = 100;
    }
    assert_eq!(t[[0, 0]], 100);

    // A `Dyn` size narrows at run time and squeezes to a runtime rank.
    let rows = Tensor::<f32, shape![Dyn, 3]>::zeros_with(&[5, 3]);
    let first: TensorView<'_, f32, shape![2, 3]> = rows.narrow::<0, 2>(0);
    assert_eq!(first.shape(), [2, 3]);
    assert!(rows.try_narrow::<0, 2>(4).is_err());
    let sq: TensorView<'_, f32, DynShape> = rows.squeeze();
    assert_eq!(sq.shape(), [5, 3]);

    // Memory formats.
    let img = Tensor::<f32, shape![2, 3, 4, 5]>::zeros();
    let nhwc = img.contiguous_in(MemoryFormat::ChannelsLast);
    assert_eq!(nhwc.strides(), [60, 1, 15, 3]);
}
