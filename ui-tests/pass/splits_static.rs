// The split family, `unfold`, `unflatten` and `flatten` on static shapes: the
// compiler computes the shape of every piece (checked here by the annotated
// types), a static count gives a `GenericArray`, a `Dyn` size a `Vec` (or a
// `GenericArray` when the count is given), and the views share storage.
use shaped::prelude::*;
use shaped::shape::split::GenericArray;
use typenum::consts::*;

fn main() {
    let t = Tensor::<i64, shape![5, 4]>::from_vec((0..20).collect()).unwrap();

    // unbind: one view per entry, the dimension removed.
    let rows: GenericArray<TensorView<'_, i64, shape![4]>, U5> = t.unbind::<0>();
    assert_eq!(rows[2].to_vec(), vec![8, 9, 10, 11]);
    assert!(rows.iter().all(|r| r.shares_storage_with(&t)));

    // split: 5 = 2 + 2 + 1 (the shorter last piece has its own shape) ...
    let (full, last): (
        GenericArray<TensorView<'_, i64, shape![2, 4]>, U2>,
        GenericArray<TensorView<'_, i64, shape![1, 4]>, U1>,
    ) = t.split::<0, 2>();
    assert_eq!((full[1].to_vec()[0], last[0].to_vec()[0]), (8, 16));
    // ... and 4 = 2 + 2, with no last piece.
    let (halves, none): (
        GenericArray<TensorView<'_, i64, shape![5, 2]>, U2>,
        GenericArray<TensorView<'_, i64, shape![5, 0]>, U0>,
    ) = t.split::<1, 2>();
    assert_eq!((halves[1].to_vec()[0], none.len()), (2, 0));

    // chunk: ceil(5 / 3) = 2, so 2 + 2 + 1.
    let (chunks, rest): (
        GenericArray<TensorView<'_, i64, shape![2, 4]>, U2>,
        GenericArray<TensorView<'_, i64, shape![1, 4]>, U1>,
    ) = t.chunk::<0, 3>();
    assert_eq!((chunks.len(), rest.len()), (2, 1));

    // tensor_split: 5 = 2 + 2 + 1 as 3 sections; 4 into 3 is 2 + 1 + 1.
    let (longer, shorter): (
        GenericArray<TensorView<'_, i64, shape![5, 2]>, U1>,
        GenericArray<TensorView<'_, i64, shape![5, 1]>, U2>,
    ) = t.tensor_split::<1, 3>();
    assert_eq!((longer[0].to_vec()[1], shorter[1].to_vec()[0]), (1, 3));

    // hsplit (dimension 1) and vsplit (dimension 0): equal sections.
    let h: GenericArray<TensorView<'_, i64, shape![5, 1]>, U4> = t.hsplit::<4>();
    assert_eq!(h[3].to_vec(), vec![3, 7, 11, 15, 19]);
    let v: GenericArray<TensorView<'_, i64, shape![1, 4]>, U5> = t.vsplit::<5>();
    assert_eq!(v[4].to_vec(), vec![16, 17, 18, 19]);
    let vector = Tensor::<i64, shape![6]>::arange();
    let thirds: GenericArray<TensorView<'_, i64, shape![2]>, U3> = vector.hsplit::<3>();
    assert_eq!(thirds[2].to_vec(), vec![4, 5]);

    // unfold: (5 - 3) / 1 + 1 = 3 windows of 3, a new last dimension.
    let w: TensorView<'_, i64, shape![3, 4, 3]> = t.unfold::<0, 3, 1>();
    assert_eq!(w.strides(), [4, 1, 4]);

    // unflatten and flatten (a view when the strides allow, else a copy).
    let u: TensorView<'_, i64, shape![5, 2, 2]> = t.unflatten::<1, shape![2, 2]>();
    assert_eq!(u.shape(), [5, 2, 2]);
    let f: TensorCow<'_, i64, shape![20]> = u.flatten::<0, 2>();
    assert!(f.is_borrowed());
    let tf: TensorCow<'_, i64, shape![20]> = t.t().flatten_all();
    assert!(!tf.is_borrowed());
    let cube = Tensor::<f32, shape![2, 3, 4]>::zeros();
    let merged: TensorCow<'_, f32, shape![2, 12]> = cube.flatten::<1, 2>();
    assert_eq!(merged.shape(), [2, 12]);

    // A `Dyn` size: a `Vec` where the count is unknown, a `GenericArray`
    // where it is given; `Dyn` stays in the shapes.
    let d = Tensor::<i64, shape![Dyn, 4]>::from_vec_with((0..20).collect(), &[5, 4]).unwrap();
    let dyn_rows: Vec<TensorView<'_, i64, shape![4]>> = d.unbind::<0>();
    assert_eq!(dyn_rows.len(), 5);
    let dyn_pieces: Vec<TensorView<'_, i64, shape![Dyn, 4]>> = d.split::<0, 2>();
    assert_eq!(dyn_pieces[2].shape(), [1, 4]);
    let dyn_chunks: Vec<TensorView<'_, i64, shape![Dyn, 4]>> = d.chunk::<0, 2>();
    assert_eq!(dyn_chunks.len(), 2);
    let dyn_sections: GenericArray<TensorView<'_, i64, shape![Dyn, 4]>, U2> =
        d.tensor_split::<0, 2>();
    assert_eq!(dyn_sections[0].shape(), [3, 4]);
    let dyn_v: GenericArray<TensorView<'_, i64, shape![Dyn, 4]>, U5> = d.vsplit::<5>();
    assert_eq!(dyn_v[0].shape(), [1, 4]);
    assert!(d.try_vsplit::<2>().is_err()); // 5 rows: checked at run time
    let dyn_w: TensorView<'_, i64, shape![Dyn, 4, 2]> = d.unfold::<0, 2, 2>();
    assert_eq!(dyn_w.shape(), [2, 4, 2]);
    let dyn_u: TensorView<'_, i64, shape![Dyn, 2, 2]> = d.unflatten::<1, shape![2, 2]>();
    assert_eq!(dyn_u.shape(), [5, 2, 2]);
    let inferred: TensorView<'_, i64, shape![5, 2, Dyn]> = t.unflatten::<1, shape![2, Dyn]>();
    assert_eq!(inferred.shape(), [5, 2, 2]); // `Dyn` is inferred, as PyTorch's -1
    let dyn_f: TensorCow<'_, i64, shape![Dyn]> = d.flatten_all();
    assert_eq!(dyn_f.shape(), [20]);
}
