//! `map`, `map_inplace`, `zip_with` and `try_zip_with` against plain loops
//! over `to_vec()`: static and dynamic shapes, transposed and offset views,
//! broadcasting, and tensors large enough to be shared across threads (so
//! that every piece's closure call is checked).

use proptest::prelude::*;
use shaped::prelude::*;

#[test]
fn map_matches_a_loop_on_every_layout() {
    let n = 3 * 70_001;
    let x = DynTensor::<f32>::from_vec(
        (0..n).map(|i| (i % 1000) as f32 * 0.01 - 5.0).collect(),
        &[3, 70_001],
    )
    .unwrap();
    let want: Vec<f32> = x.to_vec().iter().map(|v| v * 2.0 + 1.0).collect();
    assert_eq!(x.map(|v| v * 2.0 + 1.0).to_vec(), want);
    // A transposed view: the result in the view's logical order.
    let t = x.transpose(0, 1).unwrap();
    let want_t: Vec<i64> = t.to_vec().iter().map(|&v| v.round() as i64).collect();
    assert_eq!(t.map(|v| v.round() as i64).to_vec(), want_t);
    // A closure that captures by reference.
    let table = [10u8, 20, 30];
    let picks = DynTensor::<i64>::from_vec(vec![2, 0, 1, 2], &[2, 2]).unwrap();
    assert_eq!(picks.map(|k| table[k as usize]).to_vec(), [30, 10, 20, 30]);
}

#[test]
fn map_inplace_writes_through_views() {
    let mut x = DynTensor::<i64>::from_vec((0..200_000).collect(), &[400, 500]).unwrap();
    x.map_inplace(|v| v * 3);
    assert_eq!(x.to_vec()[..3], [0, 3, 6]);
    let mut col = x.select_mut(1, 7).unwrap();
    col.map_inplace(|v| -v);
    let got = x.to_vec();
    for (i, &v) in got.iter().enumerate() {
        let want = 3 * i as i64;
        assert_eq!(v, if i % 500 == 7 { -want } else { want }, "element {i}");
    }
}

#[test]
fn zip_with_broadcasts_as_addition() {
    let a = Tensor::<f64, shape![4, 1, 3]>::from_vec((0..12).map(f64::from).collect()).unwrap();
    let b = Tensor::<f64, shape![5, 1]>::from_vec((0..5).map(|i| f64::from(i) * 0.5).collect())
        .unwrap();
    let zipped: Tensor<f64, shape![4, 5, 3]> = a.zip_with(&b, |x, y| x + y);
    assert_eq!(zipped.to_vec(), (&a + &b).to_vec());
    let mixed: Tensor<bool, shape![4, 5, 3]> =
        a.zip_with(&b.cast::<i32>(), |x, k| x > f64::from(k));
    assert_eq!(
        mixed.to_vec(),
        a.gt(&b.cast::<i32>().cast::<f64>()).to_vec()
    );
}

proptest! {
    /// Static against dynamic against a plain loop, on random sizes.
    #[test]
    fn static_dynamic_and_a_loop_agree(values in proptest::collection::vec(-100i32..100, 12), k in -5i32..5) {
        let s = Tensor::<i32, shape![3, 4]>::from_vec(values.clone()).unwrap();
        let d = DynTensor::<i32>::from_vec(values.clone(), &[3, 4]).unwrap();
        let want: Vec<i32> = values.iter().map(|v| v * k - 1).collect();
        prop_assert_eq!(s.map(|v| v * k - 1).to_vec(), want.clone());
        prop_assert_eq!(d.map(|v| v * k - 1).to_vec(), want);
        let row = DynTensor::<i32>::from_vec(vec![1, -1, 2, -2], &[4]).unwrap();
        let zipped = d.try_zip_with(&row, |a, b| a.max(b)).unwrap();
        let want: Vec<i32> = values.iter().enumerate().map(|(i, &v)| v.max([1, -1, 2, -2][i % 4])).collect();
        prop_assert_eq!(zipped.to_vec(), want);
    }
}
