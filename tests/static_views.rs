//! Static views made without the runtime layout engine (`transpose`,
//! `swapaxes`, `mt`, `permute`, `movedim`, `narrow`, `select`, `slice`,
//! `unsqueeze`, `squeeze`, `diagonal` on static shapes) give exactly the
//! layouts of the runtime forms on `DynTensor`: sizes, strides, offset,
//! elements; their runtime errors are the engine's.

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

/// The base of the tests below, with its dynamic twin (the tests take
/// offset views of both).
type Base = Tensor<i64, shape![3, 3, 4, 5]>;

fn offset_operands() -> (Base, DynTensor<i64>) {
    let base = Base::from_vec((0..180).collect()).unwrap();
    let d = base.clone().into_dyn();
    (base, d)
}

#[test]
fn static_cuts_match_the_runtime_engine() {
    let (base, d) = offset_operands();
    let x = base.narrow::<0, 2>(1);
    let d = d.narrow(0, 1, 2).unwrap();
    assert_eq!(x.storage_offset(), 60);
    for start in 0..=2 {
        assert_eq!(
            seen(&x.narrow::<3, 3>(start)),
            seen(&d.narrow(3, start as isize, 3).unwrap())
        );
    }
    // Empty pieces, at the end too.
    assert_eq!(
        seen(&x.narrow::<2, 0>(4)),
        seen(&d.narrow(2, 4, 0).unwrap())
    );
    assert_eq!(
        seen(&x.narrow::<1, 3>(0)),
        seen(&d.narrow(1, 0, 3).unwrap())
    );
    for i in -4..4 {
        assert_eq!(seen(&x.select::<2>(i)), seen(&d.select(2, i).unwrap()));
    }
    assert_eq!(seen(&x.select::<0>(-1)), seen(&d.select(0, -1).unwrap()));
    // Errors are the engine's, the start past the end and huge ones too.
    for start in [3, 4, 5, usize::MAX] {
        assert_eq!(
            x.try_narrow::<3, 3>(start).unwrap_err(),
            base.clone()
                .into_dyn()
                .narrow(3, start.min(isize::MAX as usize) as isize, 3)
                .unwrap_err(),
            "start {start}"
        );
    }
    assert_eq!(
        x.try_narrow::<3, 3>(3).unwrap_err().to_string(),
        "start (3) + length (3) exceeds dimension size (5)."
    );
    for i in [-5, 4, isize::MIN, isize::MAX] {
        assert_eq!(
            x.try_select::<2>(i).unwrap_err(),
            d.select(2, i).unwrap_err()
        );
    }
}

#[test]
fn static_reshapes_of_dimensions_match_the_runtime_engine() {
    let (base, d) = offset_operands();
    let x = base.narrow::<0, 2>(1);
    let d = d.narrow(0, 1, 2).unwrap();
    for (dim, u) in [
        (0, seen(&x.unsqueeze::<0>())),
        (1, seen(&x.unsqueeze::<1>())),
        (3, seen(&x.unsqueeze::<3>())),
        (4, seen(&x.unsqueeze::<4>())),
    ] {
        assert_eq!(u, seen(&d.unsqueeze(dim).unwrap()), "unsqueeze({dim})");
    }
    let ones = x.narrow::<1, 1>(2).unsqueeze::<4>();
    let dones = d.narrow(1, 2, 1).unwrap().unsqueeze(4).unwrap();
    let squeezed: TensorView<'_, i64, shape![2, 4, 5]> = ones.squeeze();
    assert_eq!(seen(&squeezed), seen(&dones.squeeze().unwrap()));
    let none = Tensor::<i64, shape![1, 1]>::ones();
    assert_eq!(none.squeeze().shape(), [0usize; 0]);
    for (src, dst, m) in [
        (0, 3, seen(&x.movedim::<0, 3>())),
        (3, 0, seen(&x.movedim::<3, 0>())),
        (1, 2, seen(&x.movedim::<1, 2>())),
        (2, 2, seen(&x.movedim::<2, 2>())),
    ] {
        assert_eq!(
            m,
            seen(&d.movedim(src, dst).unwrap()),
            "movedim({src}, {dst})"
        );
    }
    assert_eq!(seen(&x.diagonal()), seen(&d.diagonal(0, 0, 1).unwrap()));
    let wide = base.narrow::<3, 4>(1).transpose::<0, 3>();
    let dwide = base.clone().into_dyn();
    let dwide = dwide.narrow(3, 1, 4).unwrap();
    let dwide = dwide.transpose(0, 3).unwrap();
    assert_eq!(
        seen(&wide.diagonal()),
        seen(&dwide.diagonal(0, 0, 1).unwrap())
    );
    let empty = Tensor::<i64, shape![0, 3]>::zeros();
    assert_eq!(empty.diagonal().shape(), [0]);
}

#[test]
fn static_slices_match_the_runtime_engine() {
    let (base, d) = offset_operands();
    let x = base.narrow::<0, 2>(1);
    let d = d.narrow(0, 1, 2).unwrap();
    let (i, j) = (1, -2);
    macro_rules! both {
        ($($item:tt)*) => {
            assert_eq!(
                seen(&x.slice(s![$($item)*])),
                seen(&d.slice(s![$($item)*]).unwrap()),
                stringify!($($item)*)
            );
        };
    }
    both![1];
    both![-1, .., 2..];
    both![.., 1..100;2, NewAxis, -3..-1];
    both![Ellipsis, 3];
    both![NewAxis, Ellipsis, NewAxis, 1..;3];
    both![i, Ellipsis, j];
    both![0, 2, 3, 4];
    both![.., 3..1];
    both![NewAxis, NewAxis, 1, 2, 3, 4, NewAxis];
    both![i..j, ..i];
    let k = 7;
    assert_eq!(
        x.try_slice(s![.., k]).unwrap_err(),
        d.slice(s![.., k]).unwrap_err()
    );
}

#[test]
fn static_splits_match_the_runtime_engine() {
    let (base, d) = offset_operands();
    let x = base.narrow::<3, 4>(1); // (3, 3, 4, 4) at offset 1
    let d = d.narrow(3, 1, 4).unwrap();
    let all =
        |v: Vec<TensorView<'_, i64, shaped::DynShape>>| v.iter().map(seen).collect::<Vec<_>>();
    let rows = x.unbind::<1>();
    let got: Vec<_> = rows.iter().map(seen).collect();
    assert_eq!(got, all(d.unbind(1).unwrap()));
    let (full, last) = x.split::<3, 3>();
    let got: Vec<_> = full.iter().map(seen).chain(last.iter().map(seen)).collect();
    assert_eq!(got, all(d.split(3, 3).unwrap()));
    let (full, last) = x.chunk::<0, 2>();
    let got: Vec<_> = full.iter().map(seen).chain(last.iter().map(seen)).collect();
    assert_eq!(got, all(d.chunk(2, 0).unwrap()));
    let (longer, shorter) = x.tensor_split::<2, 3>();
    let got: Vec<_> = longer
        .iter()
        .map(seen)
        .chain(shorter.iter().map(seen))
        .collect();
    assert_eq!(got, all(d.tensor_split(3, 2).unwrap()));
    let got: Vec<_> = x.hsplit::<3>().iter().map(seen).collect();
    assert_eq!(got, all(d.hsplit(3).unwrap()));
    let got: Vec<_> = x.vsplit::<3>().iter().map(seen).collect();
    assert_eq!(got, all(d.vsplit(3).unwrap()));
    // A vector's hsplit cuts dimension 0; an empty dimension's chunks are empty.
    let v = Tensor::<i64, shape![6]>::arange();
    let halves = v.hsplit::<2>();
    assert_eq!(
        (halves[0].to_vec(), halves[1].to_vec()),
        (vec![0, 1, 2], vec![3, 4, 5])
    );
    let e = Tensor::<i64, shape![0, 2]>::zeros();
    let (full, last) = e.chunk::<0, 3>();
    assert_eq!((full.len(), last.len()), (3, 0));
    assert!(full.iter().all(|p| p.shape() == [0, 2]));
    // A `Dyn` size that the sections do not divide: the engine's error.
    let r = Tensor::<i64, shape![2, Dyn]>::zeros_with(&[2, 5]);
    assert_eq!(
        r.try_hsplit::<2>().unwrap_err(),
        r.clone().into_dyn().hsplit(2).unwrap_err()
    );
}
