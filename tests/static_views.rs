//! Static views made without the runtime layout engine (`transpose`,
//! `swapaxes`, `mt`, `permute` on static shapes) give exactly the layouts
//! of the runtime forms on `DynTensor`: sizes, strides, offset, elements.

use shaped::prelude::*;

/// The layout and the elements of a view.
fn seen<S: shaped::shape::Shape>(
    v: &TensorView<'_, i64, S>,
) -> (Vec<usize>, Vec<usize>, usize, Vec<i64>) {
    (
        v.shape().as_ref().to_vec(),
        v.strides().as_ref().to_vec(),
        v.storage_offset(),
        v.to_vec(),
    )
}

#[test]
fn static_permutations_match_the_runtime_engine() {
    let base = Tensor::<i64, shape![3, 3, 4, 5]>::from_vec((0..180).collect()).unwrap();
    // An offset, strided operand: rows 1..3 of the first dimension.
    let x = base.narrow::<0, 2>(1);
    let d = base.clone().into_dyn();
    let d = d.narrow(0, 1, 2).unwrap();
    assert_eq!(
        seen(&x.transpose::<0, 3>()),
        seen(&d.transpose(0, 3).unwrap())
    );
    assert_eq!(
        seen(&x.transpose::<2, 1>()),
        seen(&d.transpose(2, 1).unwrap())
    );
    assert_eq!(
        seen(&x.transpose::<2, 2>()),
        seen(&d.transpose(2, 2).unwrap())
    );
    assert_eq!(
        seen(&x.swapaxes::<1, 3>()),
        seen(&d.swapaxes(1, 3).unwrap())
    );
    assert_eq!(seen(&x.mt()), seen(&d.mt().unwrap()));
    assert_eq!(
        seen(&x.permute::<axes![3, 1, 0, 2]>()),
        seen(&d.permute(&[3, 1, 0, 2]).unwrap())
    );
    // Views of views chain, and the result types are the permuted shapes.
    let p: TensorView<'_, i64, shape![5, 3, 2, 4]> = x.permute::<axes![3, 1, 0, 2]>();
    let back: TensorView<'_, i64, shape![2, 3, 4, 5]> = p.permute::<axes![2, 1, 3, 0]>();
    assert_eq!(seen(&back), seen(&x.as_view()));
    // Rank 1.
    let v = Tensor::<i64, shape![4]>::arange();
    assert_eq!(v.permute::<axes![0]>().to_vec(), vec![0, 1, 2, 3]);
    assert_eq!(v.transpose::<0, 0>().strides(), [1]);
}
