//! Property tests of the sets and bins: `unique` (both paths: integers of
//! a small range are counted, wide ranges and floats sorted),
//! `unique_consecutive`, `searchsorted`, `bincount` and `histc`, the
//! dynamic forms against plain references (a `BTreeMap` of the values, a
//! linear scan of the boundaries, a loop of counts), and the static forms
//! against the dynamic ones, on random lengths up to a few thousand (long
//! enough for the two-thread passes) and transposed views.

use proptest::collection::vec;
use proptest::prelude::*;
use shaped::prelude::*;
use std::collections::BTreeMap;

/// The plain reference of `unique`: sorted values, inverse, counts.
fn reference_unique(x: &[i64]) -> (Vec<i64>, Vec<i64>, Vec<i64>) {
    let mut counts = BTreeMap::new();
    for &v in x {
        *counts.entry(v).or_insert(0i64) += 1;
    }
    let values: Vec<i64> = counts.keys().copied().collect();
    let inverse = x
        .iter()
        .map(|v| values.binary_search(v).unwrap() as i64)
        .collect();
    (values, inverse, counts.values().copied().collect())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn unique_matches_the_reference(
        x in vec(-50i64..50, 0..3000),
        wide in any::<bool>(),
    ) {
        // `wide`: the same pattern spread over a range too large to count.
        let x: Vec<i64> = match wide {
            true => x.iter().map(|v| v * 1_000_000_007).collect(),
            false => x,
        };
        let (values, inverse, counts) = reference_unique(&x);
        let d = DynTensor::<i64>::from_vec(x.clone(), &[x.len()]).unwrap();
        let (v, i, c) = d.unique(true, true, true).unwrap();
        prop_assert_eq!(v.to_vec(), values.clone());
        prop_assert_eq!(i.unwrap().to_vec(), inverse.clone());
        prop_assert_eq!(c.unwrap().to_vec(), counts.clone());
        // As floats: the sort path.
        let f = DynTensor::<f64>::from_vec(x.iter().map(|&v| v as f64).collect(), &[x.len()]).unwrap();
        let (fv, fi, _) = f.unique(false, true, false).unwrap();
        prop_assert_eq!(fv.to_vec(), values.iter().map(|&v| v as f64).collect::<Vec<_>>());
        prop_assert_eq!(fi.unwrap().to_vec(), inverse);
    }

    #[test]
    fn static_unique_is_the_dynamic_one(x in vec(0u8..20, 12)) {
        let t = Tensor::<u8, shape![3, 4]>::from_vec(x.clone()).unwrap();
        let (v, i, c) = t.unique(true, true, true);
        let d = DynTensor::<u8>::from_vec(x, &[3, 4]).unwrap();
        let (dv, di, dc) = d.unique(true, true, true).unwrap();
        prop_assert_eq!(v.to_vec(), dv.to_vec());
        let (i, di) = (i.unwrap(), di.unwrap());
        prop_assert_eq!(i.shape(), [3, 4]);
        prop_assert_eq!(i.to_vec(), di.to_vec());
        prop_assert_eq!(c.unwrap().to_vec(), dc.unwrap().to_vec());
        let (cv, _, cc) = t.unique_consecutive(false, true);
        let (dcv, _, dcc) = d.unique_consecutive(false, true, None).unwrap();
        prop_assert_eq!(cv.to_vec(), dcv.to_vec());
        prop_assert_eq!(cc.unwrap().to_vec(), dcc.unwrap().to_vec());
    }

    #[test]
    fn unique_consecutive_matches_the_reference(x in vec(0i32..4, 0..500)) {
        let mut values: Vec<i32> = x.clone();
        values.dedup();
        let d = DynTensor::<i32>::from_vec(x.clone(), &[x.len()]).unwrap();
        let (v, _, c) = d.unique_consecutive(false, true, None).unwrap();
        prop_assert_eq!(v.to_vec(), values);
        prop_assert_eq!(c.unwrap().to_vec().iter().sum::<i64>(), x.len() as i64);
    }

    #[test]
    fn searchsorted_matches_a_linear_scan(
        mut b in vec(-100i32..100, 0..200),
        v in vec(-120i32..120, 0..3000),
        right in any::<bool>(),
    ) {
        b.sort();
        let want: Vec<i64> = v
            .iter()
            .map(|&x| b.iter().filter(|&&y| if right { y <= x } else { y < x }).count() as i64)
            .collect();
        let bd = DynTensor::<i32>::from_vec(b.clone(), &[b.len()]).unwrap();
        let vd = DynTensor::<i32>::from_vec(v.clone(), &[v.len()]).unwrap();
        prop_assert_eq!(bd.searchsorted(&vd, right).unwrap().to_vec(), want.clone());
        prop_assert_eq!(vd.bucketize(&bd, right).unwrap().to_vec(), want);
    }

    #[test]
    fn static_searchsorted_is_the_dynamic_one(
        mut b in vec(-10.0f32..10.0, 8),
        v in vec(-12.0f32..12.0, 6),
    ) {
        b[..4].sort_by(f32::total_cmp);
        b[4..].sort_by(f32::total_cmp);
        let bt = Tensor::<f32, shape![2, 4]>::from_vec(b.clone()).unwrap();
        let vt = Tensor::<f32, shape![2, 3]>::from_vec(v.clone()).unwrap();
        let got: Tensor<i64, shape![2, 3]> = bt.searchsorted(&vt, false);
        let bd = DynTensor::<f32>::from_vec(b, &[2, 4]).unwrap();
        let vd = DynTensor::<f32>::from_vec(v, &[2, 3]).unwrap();
        prop_assert_eq!(got.to_vec(), bd.searchsorted(&vd, false).unwrap().to_vec());
    }

    #[test]
    fn bincount_matches_a_loop(x in vec(0u8..40, 0..5000), minlength in 0isize..50) {
        let n = x.iter().map(|&v| v as usize + 1).max().unwrap_or(0).max(minlength as usize);
        let mut want = vec![0i64; n];
        for &v in &x {
            want[v as usize] += 1;
        }
        let d = DynTensor::<u8>::from_vec(x.clone(), &[x.len()]).unwrap();
        prop_assert_eq!(d.bincount(minlength).unwrap().to_vec(), want);
    }

    #[test]
    fn histc_counts_every_element_in_range(x in vec(-2.0f64..2.0, 1..4000), bins in 1usize..40) {
        let d = DynTensor::<f64>::from_vec(x.clone(), &[x.len()]).unwrap();
        let h = d.histc(bins as isize, -1.0, 1.0).unwrap().to_vec();
        let inside = x.iter().filter(|&&v| (-1.0..=1.0).contains(&v)).count();
        prop_assert_eq!(h.iter().sum::<f64>() as usize, inside);
        for &v in &x {
            if (-1.0..=1.0).contains(&v) {
                let k = (((v + 1.0) * bins as f64 / 2.0) as usize).min(bins - 1);
                prop_assert!(h[k] >= 1.0);
            }
        }
    }

    #[test]
    fn views_give_what_copies_give(x in vec(0i64..30, 24)) {
        let d = DynTensor::<i64>::from_vec(x, &[4, 6]).unwrap();
        let t = d.transpose(0, 1).unwrap();
        let copy = t.to_owned();
        let (a, ai, _) = t.unique(true, true, false).unwrap();
        let (b, bi, _) = copy.unique(true, true, false).unwrap();
        prop_assert_eq!(a.to_vec(), b.to_vec());
        prop_assert_eq!(ai.unwrap().to_vec(), bi.unwrap().to_vec());
        let (r, _, _) = t.unique_dim(1, true, false, false).unwrap();
        let (s, _, _) = copy.unique_dim(1, true, false, false).unwrap();
        prop_assert_eq!(r.to_vec(), s.to_vec());
    }
}
