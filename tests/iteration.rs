//! `iter`, `iter_mut`, `indexed_iter`, `as_slice`, `as_mut_slice`,
//! `into_iter` and the constructors `from_slice`, `from_fn`,
//! `from_fn_with` and `collect`, against `to_vec` and plain loops: static
//! and dynamic shapes, contiguous tensors, transposed, offset, stepped and
//! empty views, and writes through mutable views.

use shaped::prelude::*;

#[test]
fn every_layout_iterates_in_logical_order() {
    let x = Tensor::<i32, shape![4, 6]>::from_vec((0..24).collect()).unwrap();
    assert_eq!(x.iter().copied().collect::<Vec<_>>(), x.to_vec());
    let t = x.t();
    assert_eq!(t.iter().copied().collect::<Vec<_>>(), t.to_vec());
    assert_eq!(t.iter().len(), 24);
    let stepped = x.slice(s![1..;2, 1..5;3]);
    assert_eq!(
        stepped.iter().copied().collect::<Vec<_>>(),
        stepped.to_vec()
    );
    assert_eq!(stepped.iter().copied().collect::<Vec<_>>(), [7, 10, 19, 22]);
    let xd = x.clone().into_dyn();
    let d = xd.permute(&[1, 0]).unwrap();
    assert_eq!(d.iter().map(|&v| i64::from(v)).sum::<i64>(), 276);
    assert_eq!((&d).into_iter().count(), 24);
    let empty = DynTensor::<f32>::zeros(&[3, 0]);
    assert_eq!(empty.iter().count(), 0);
    assert_eq!(empty.as_slice(), Some(&[][..]));
}

#[test]
fn slices_only_for_contiguous_layouts() {
    let mut x = Tensor::<f64, shape![2, 3]>::from_vec(vec![1., 2., 3., 4., 5., 6.]).unwrap();
    assert_eq!(x.as_slice().map(<[f64]>::len), Some(6));
    assert!(x.t().as_slice().is_none());
    assert_eq!(x.select::<0>(1).as_slice(), Some(&[4., 5., 6.][..]));
    x.select_mut::<0>(1).as_mut_slice().unwrap()[2] = -6.0;
    assert!(x.select_mut::<1>(0).as_mut_slice().is_none());
    assert_eq!(x.to_vec(), [1., 2., 3., 4., 5., -6.]);
}

#[test]
fn iter_mut_writes_each_element_once_through_views() {
    let mut x = DynTensor::<i64>::zeros(&[5, 7]);
    // Every other column: a strided view, walked row by row.
    for (k, v) in x.slice_mut(s![.., ..;2]).unwrap().iter_mut().enumerate() {
        *v += 1 + k as i64;
    }
    let got = x.to_vec();
    for i in 0..5 {
        for j in 0..7 {
            let want = if j % 2 == 0 {
                (1 + i * 4 + j / 2) as i64
            } else {
                0
            };
            assert_eq!(got[i * 7 + j], want, "[{i}, {j}]");
        }
    }
    for v in x.iter_mut() {
        *v *= 2;
    }
    assert_eq!(x.to_vec()[..3], [2, 0, 4]);
    let mut column = Tensor::<u8, shape![3, 2]>::zeros();
    for v in column.select_mut::<1>(1).iter_mut() {
        *v = 9;
    }
    assert_eq!(column.to_vec(), [0, 9, 0, 9, 0, 9]);
}

#[test]
fn indexed_iter_gives_the_indices() {
    let x = Tensor::<u8, shape![2, 3]>::from_fn(|[i, j]| (10 * i + j) as u8);
    for (ix, &v) in x.t().indexed_iter() {
        assert_eq!(v as usize, 10 * ix[1] + ix[0]);
    }
    let d = DynTensor::<u8>::from_fn_with(&[2, 2, 2], |ix| (4 * ix[0] + 2 * ix[1] + ix[2]) as u8)
        .unwrap();
    let seen: Vec<(Vec<usize>, u8)> = d
        .indexed_iter()
        .map(|(ix, &v)| (ix.as_ref().to_vec(), v))
        .collect();
    assert_eq!(seen[5], (vec![1, 0, 1], 5));
    assert_eq!(seen.len(), 8);
}

#[test]
fn constructors_fill_in_row_major_order() {
    let x = Tensor::<i16, shape![3]>::from_slice(&[1, 2, 3]).unwrap();
    assert_eq!(x.into_iter().collect::<Vec<_>>(), [1, 2, 3]);
    assert_eq!(
        Tensor::<i16, shape![2]>::from_slice(&[1, 2, 3])
            .unwrap_err()
            .to_string(),
        "shape '[2]' is invalid for input of size 3"
    );
    let v: DynTensor<f32> = (0..5).map(|i| i as f32).collect();
    assert_eq!(v.shape().as_ref(), [5]);
    assert!(DynTensor::<u8>::from_fn_with(&[usize::MAX, 2], |_| 0).is_err());
}

#[test]
fn axis_iter_yields_typed_views() {
    let x = Tensor::<i32, shape![2, 3, 4]>::from_fn(|[i, j, k]| (100 * i + 10 * j + k) as i32);
    let middle: Vec<Tensor<i32, shape![2, 4], Cpu, _>> = x.axis_iter::<1>().collect();
    assert_eq!(middle.len(), 3);
    assert_eq!(middle[2].to_vec(), x.select::<1>(2).to_vec());
    assert!(middle[0].shares_storage_with(&x));
    let m = x.select::<2>(3);
    let rows: Vec<Vec<i32>> = m.rows().map(|r| r.to_vec()).collect();
    assert_eq!(rows, [vec![3, 13, 23], vec![103, 113, 123]]);
    assert_eq!(x.axis_iter::<0>().len(), 2);
}
