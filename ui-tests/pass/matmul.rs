// `matmul` on static shapes: the compiler computes the product's shape for
// every form (checked by the annotated types): 1-d · 1-d (rank 0), 2-d · 1-d,
// 1-d · 2-d, 2-d · 2-d, batches with broadcast leading dimensions, `Dyn`
// sizes (checked at run time), a `DynTensor` operand, and the typed `mm`,
// `mv`, `dot`, `bmm`.
use shaped::prelude::*;

fn main() {
    let v = Tensor::<f32, shape![3]>::ones();
    let m = Tensor::<f32, shape![2, 3]>::ones();
    let w = Tensor::<f32, shape![3, 4]>::ones();

    let dot: Tensor<f32, shape![]> = v.matmul(&v);
    assert_eq!(dot[[]], 3.0);
    let mv: Tensor<f32, shape![2]> = m.matmul(&v);
    assert_eq!(mv.to_vec(), vec![3.0, 3.0]);
    let vm: Tensor<f32, shape![4]> = v.matmul(&w);
    assert_eq!(vm.shape(), [4]);
    let mm: Tensor<f32, shape![2, 4]> = m.matmul(&w);
    assert_eq!(mm.shape(), [2, 4]);

    // Batches: leading dimensions broadcast.
    let batch = Tensor::<f32, shape![5, 1, 2, 3]>::ones();
    let other = Tensor::<f32, shape![6, 3, 4]>::ones();
    let b: Tensor<f32, shape![5, 6, 2, 4]> = batch.matmul(&other);
    assert_eq!(b.shape(), [5, 6, 2, 4]);
    let bv: Tensor<f32, shape![5, 1, 2]> = batch.matmul(&v);
    assert_eq!(bv.shape(), [5, 1, 2]);
    let vb: Tensor<f32, shape![6, 4]> = v.matmul(&other);
    assert_eq!(vb.shape(), [6, 4]);
    let mb: Tensor<f32, shape![6, 2, 4]> = m.matmul(&other);
    assert_eq!(mb.shape(), [6, 2, 4]);

    // Views are operands too: a transposed matrix is read in place.
    let wt = Tensor::<f32, shape![4, 3]>::ones();
    let t: Tensor<f32, shape![2, 4]> = m.matmul(&wt.t());
    assert_eq!(t.shape(), [2, 4]);

    // `Dyn` sizes: checked at run time.
    let rows = Tensor::<f32, shape![Dyn, 3]>::zeros_with(&[7, 3]);
    let r: Tensor<f32, shape![Dyn, 4]> = rows.matmul(&w);
    assert_eq!(r.shape(), [7, 4]);
    let inner = Tensor::<f32, shape![2, Dyn]>::zeros_with(&[2, 5]);
    assert!(inner.try_matmul(&w).is_err());
    let d: DynTensor<f32> = m.matmul(&DynTensor::<f32>::ones(&[3, 4]));
    assert_eq!(d.shape(), [2, 4]);

    // Every numeric element type.
    let i: Tensor<i64, shape![2, 2]> = tensor![[1, 2], [3, 4]].matmul(&tensor![[1, 0], [0, 1]]);
    assert_eq!(i.to_vec(), vec![1, 2, 3, 4]);

    // The typed forms of `mm`, `mv`, `dot` and `bmm`.
    let mm2: Tensor<f32, shape![2, 4]> = m.mm(&w);
    let mv2: Tensor<f32, shape![2]> = m.mv(&v);
    let dot2: Tensor<f32, shape![]> = v.dot(&v);
    let bmm: Tensor<f32, shape![8, 2, 4]> =
        Tensor::<f32, shape![8, 2, 3]>::ones().bmm(&Tensor::<f32, shape![8, 3, 4]>::ones());
    assert_eq!((mm2.shape(), mv2.shape(), dot2[[]], bmm.shape()), ([2, 4], [2], 3.0, [8, 2, 4]));
}
