//! Property tests of `sort`, `argsort`, `msort` and `topk` (the head of
//! the stable sort, equal elements by position): the dynamic forms
//! against the standard library's stable sort with PyTorch's order (NaN
//! above every number, `-0.0` equal to `0.0`) on random shapes (sizes 0 to
//! 6, every dim, transposed views, lines long enough for the radix passes
//! and for the two-thread split), and the static forms against the dynamic
//! ones. Indices must agree exactly: the sort is stable.

use proptest::collection::vec;
use proptest::prelude::*;
use shaped::prelude::*;
use std::cmp::Ordering;

/// PyTorch's order of floats: NaN above all, -0.0 == 0.0.
fn order(a: f32, b: f32) -> Ordering {
    match (a.is_nan(), b.is_nan()) {
        (true, true) => Ordering::Equal,
        (true, false) => Ordering::Greater,
        (false, true) => Ordering::Less,
        (false, false) => a.partial_cmp(&b).unwrap(),
    }
}

/// The stable sorting positions of each line of row-major `x` along `dim`.
fn reference(x: &[f32], sizes: &[usize], dim: usize, descending: bool) -> Vec<i64> {
    let n = sizes[dim];
    let inner: usize = sizes[dim + 1..].iter().product();
    let outer: usize = sizes[..dim].iter().product();
    let mut out = vec![0; x.len()];
    for o in 0..outer {
        for i in 0..inner {
            let at = |k: usize| o * n * inner + k * inner + i;
            let mut ks: Vec<usize> = (0..n).collect();
            ks.sort_by(|&a, &b| {
                let c = order(x[at(a)], x[at(b)]);
                if descending { c.reverse() } else { c }
            });
            for (k, &from) in ks.iter().enumerate() {
                out[at(k)] = from as i64;
            }
        }
    }
    out
}

fn case() -> impl Strategy<Value = (Vec<usize>, usize, bool, Vec<f32>)> {
    (
        vec(0usize..7, 1..4),
        any::<prop::sample::Index>(),
        any::<bool>(),
        0usize..4,
        1usize..400,
    )
        .prop_flat_map(|(mut sizes, dim, transposed, long, factor)| {
            let dim = dim.index(sizes.len());
            if long == 0 {
                sizes[dim] = sizes[dim].max(1) * factor;
            }
            let n: usize = sizes.iter().product();
            // Few distinct values (ties), signed zeros and NaNs.
            let value = prop_oneof![
                8 => (-4i32..4).prop_map(|v| v as f32 * 0.5),
                1 => Just(-0.0f32),
                1 => Just(f32::NAN),
                1 => any::<f32>(),
            ];
            (Just(sizes), Just(dim), Just(transposed), vec(value, n))
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn sort_is_pytorchs_stable_order((sizes, dim, transposed, x) in case(), descending in any::<bool>()) {
        let logical = DynTensor::<f32>::from_vec(x.clone(), &sizes).unwrap();
        let t = if transposed && sizes.len() > 1 {
            let rev: Vec<isize> = (0..sizes.len() as isize).rev().collect();
            logical.permute(&rev).unwrap().contiguous().permute(&rev).unwrap().to_owned()
        } else {
            logical
        };
        let (values, indices) = t.sort(dim as isize, descending, true).unwrap();
        let want = reference(&x, &sizes, dim, descending);
        prop_assert_eq!(indices.shape(), &sizes[..]);
        prop_assert_eq!(indices.to_vec(), want.clone());
        prop_assert_eq!(t.argsort(dim as isize, descending, false).unwrap().to_vec(), want.clone());
        // The values are the input's elements at the indices, bit for bit.
        let inner: usize = sizes[dim + 1..].iter().product();
        let n = sizes[dim];
        for (pos, (v, &from)) in values.to_vec().iter().zip(&want).enumerate() {
            let (block, i) = (pos / (n * inner), pos % inner);
            let source = x[block * n * inner + from as usize * inner + i];
            prop_assert_eq!(v.to_bits(), source.to_bits());
        }
    }

    #[test]
    fn topk_is_the_head_of_the_stable_sort((sizes, dim, _, x) in case(), largest in any::<bool>(), k in 0usize..8) {
        let t = DynTensor::<f32>::from_vec(x, &sizes).unwrap();
        let k = k.min(sizes[dim]);
        let (values, indices) = t.topk(k as isize, dim as isize, largest, true).unwrap();
        let (sorted, order) = t.sort(dim as isize, largest, true).unwrap();
        let head = |u: &DynTensor<f32>| u.narrow(dim as isize, 0, k as isize).unwrap().to_owned();
        let head_i = |u: &DynTensor<i64>| u.narrow(dim as isize, 0, k as isize).unwrap().to_owned();
        prop_assert_eq!(indices.to_vec(), head_i(&order).to_vec());
        let bits = |v: Vec<f32>| v.into_iter().map(f32::to_bits).collect::<Vec<_>>();
        prop_assert_eq!(bits(values.to_vec()), bits(head(&sorted).to_vec()));
    }

    #[test]
    fn integers_sort_as_numbers(x in vec(any::<i64>(), 0..3000), descending in any::<bool>()) {
        let t = DynTensor::<i64>::from_vec(x.clone(), &[x.len()]).unwrap();
        let (values, _) = t.sort(0, descending, true).unwrap();
        let mut want = x;
        want.sort();
        if descending { want.reverse(); }
        prop_assert_eq!(values.to_vec(), want);
    }
}

/// The static forms give the dynamic forms' results; a long line (the two
/// threads' halves, merged) keeps equal elements in order.
#[test]
fn static_forms_and_a_long_line() {
    let x: Vec<f32> = (0..3 * 700)
        .map(|i| ((i * 7919) % 13) as f32 - 6.0)
        .collect();
    let typed = Tensor::<f32, shape![3, 700]>::from_vec(x.clone()).unwrap();
    let dynamic = DynTensor::<f32>::from_vec(x, &[3, 700]).unwrap();
    for descending in [false, true] {
        let (v, i) = typed.sort::<1>(descending);
        let (dv, di) = dynamic.sort(1, descending, true).unwrap();
        assert_eq!((v.to_vec(), i.to_vec()), (dv.to_vec(), di.to_vec()));
        assert_eq!(
            typed.argsort::<0>(descending).to_vec(),
            dynamic.argsort(0, descending, true).unwrap().to_vec()
        );
    }
    assert_eq!(typed.msort().to_vec(), dynamic.msort().unwrap().to_vec());
    let n = 5 << 20;
    // Signed values: several buckets of the highest byte, sorted on the
    // threads.
    let keys: Vec<f32> = (0..n).map(|i| (i % 5) as f32 - 2.0).collect();
    let line = DynTensor::<f32>::from_vec(keys, &[n]).unwrap();
    let indices = line.argsort(0, false, true).unwrap().to_vec();
    // Each key's positions in increasing order, key after key.
    let per = n / 5;
    for (k, chunk) in indices.chunks(per).enumerate() {
        assert!(chunk.iter().all(|&i| i as usize % 5 == k));
        assert!(chunk.windows(2).all(|w| w[0] < w[1]));
    }
}
