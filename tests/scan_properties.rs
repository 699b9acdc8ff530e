//! Property tests of the scans: the dynamic forms against a plain serial
//! reference on random shapes (sizes 0 to 6, every dim, transposed views,
//! and lines long enough for the chained blocks and the parallel parts of
//! the CPU kernel), and the static forms against the dynamic ones, to the
//! bit. Integer sums and the extremes' indices must agree exactly.

use proptest::collection::vec;
use proptest::prelude::*;
use shaped::prelude::*;

/// The serial scan of row-major `x` of `sizes` along `dim`: `step(acc, x,
/// k)` from `init`, each state written.
fn reference<T: Copy, A: Copy>(
    x: &[T],
    sizes: &[usize],
    dim: usize,
    init: A,
    step: impl Fn(A, T, usize) -> A,
) -> Vec<A> {
    let n = sizes[dim];
    let inner: usize = sizes[dim + 1..].iter().product();
    let outer: usize = sizes[..dim].iter().product();
    let mut out = vec![init; x.len()];
    for o in 0..outer {
        for i in 0..inner {
            let mut acc = init;
            for k in 0..n {
                let at = o * n * inner + k * inner + i;
                acc = step(acc, x[at], k);
                out[at] = acc;
            }
        }
    }
    out
}

/// Sizes, a dim and a flag for a transposed view; now and then one size
/// made long (up to 9000), so that lines cross blocks and parts.
fn layout() -> impl Strategy<Value = (Vec<usize>, usize, bool)> {
    (
        vec(0usize..7, 1..4),
        any::<prop::sample::Index>(),
        any::<bool>(),
        0usize..4,
        1usize..1300,
    )
        .prop_map(|(mut sizes, dim, transposed, long, factor)| {
            let dim = dim.index(sizes.len());
            if long == 0 {
                sizes[dim] = sizes[dim].max(1) * factor;
            }
            (sizes, dim, transposed)
        })
}

/// `x` of `sizes`, stored row-major or (`transposed`) reversed.
fn tensor<T: shaped::dtype::Element>(x: Vec<T>, sizes: &[usize], transposed: bool) -> DynTensor<T> {
    let logical = DynTensor::<T>::from_vec(x, sizes).unwrap();
    if !transposed || sizes.len() < 2 {
        return logical;
    }
    let rev: Vec<isize> = (0..sizes.len() as isize).rev().collect();
    let stored = logical.permute(&rev).unwrap().contiguous();
    stored.permute(&rev).unwrap().to_owned()
}

fn values_i64(n: usize) -> impl Strategy<Value = Vec<i64>> {
    vec(prop_oneof![any::<i64>(), -5i64..5], n)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 120, ..ProptestConfig::default() })]

    #[test]
    fn integer_sums_and_products_wrap_exactly(
        (sizes, dim, transposed, x) in layout().prop_flat_map(|(s, d, t)| {
            let n: usize = s.iter().product();
            (Just(s), Just(d), Just(t), values_i64(n))
        })
    ) {
        let t = tensor(x.clone(), &sizes, transposed);
        let sums = t.cumsum(dim as isize).unwrap();
        prop_assert_eq!(sums.shape(), &sizes[..]);
        prop_assert_eq!(sums.to_vec(), reference(&x, &sizes, dim, 0i64, |a, v, _| a.wrapping_add(v)));
        let products = t.cumprod(dim as isize).unwrap();
        prop_assert_eq!(products.to_vec(), reference(&x, &sizes, dim, 1i64, |a, v, _| a.wrapping_mul(v)));
    }

    #[test]
    fn float_sums_match_a_float64_reference(
        (sizes, dim, transposed, x) in layout().prop_flat_map(|(s, d, t)| {
            let n: usize = s.iter().product();
            (Just(s), Just(d), Just(t), vec(-100.0f32..100.0, n))
        })
    ) {
        let t = tensor(x.clone(), &sizes, transposed);
        let got = t.cumsum(dim as isize).unwrap().to_vec();
        // The reference keeps the sum of magnitudes too: the error bound.
        let want = reference(&x, &sizes, dim, (0.0f64, 0.0f64), |(s, m), v, _| (s + v as f64, m + v.abs() as f64));
        for (g, (w, m)) in got.iter().zip(&want) {
            prop_assert!((*g as f64 - w).abs() <= 1e-7 * m.max(1e-30) + f32::EPSILON as f64 * w.abs(), "{} vs {}", g, w);
        }
    }

    #[test]
    fn extremes_keep_pytorchs_indices(
        (sizes, dim, transposed, x) in layout().prop_flat_map(|(s, d, t)| {
            let n: usize = s.iter().product();
            // Few distinct values (ties) and NaNs.
            (Just(s), Just(d), Just(t), vec(prop_oneof![8 => (0i32..6).prop_map(|v| v as f32), 1 => Just(f32::NAN)], n))
        }),
        largest in any::<bool>(),
    ) {
        let t = tensor(x.clone(), &sizes, transposed);
        let (values, indices) = match largest {
            true => t.cummax(dim as isize).unwrap(),
            false => t.cummin(dim as isize).unwrap(),
        };
        let want = reference(&x, &sizes, dim, (f32::NAN, -1i64), |(a, i), v, k| {
            let over = i < 0 || v.is_nan() || (!a.is_nan() && if largest { v >= a } else { v <= a });
            if over { (v, k as i64) } else { (a, i) }
        });
        prop_assert_eq!(indices.to_vec(), want.iter().map(|w| w.1).collect::<Vec<_>>());
        for (g, w) in values.to_vec().iter().zip(&want) {
            prop_assert!(g == &w.0 || (g.is_nan() && w.0.is_nan()));
        }
    }

    #[test]
    fn logcumsumexp_matches_a_float64_reference(
        (sizes, dim, transposed, x) in layout().prop_flat_map(|(s, d, t)| {
            let n: usize = s.iter().product();
            (Just(s), Just(d), Just(t), vec(-50.0f64..50.0, n))
        })
    ) {
        let t = tensor(x.clone(), &sizes, transposed);
        let got = t.logcumsumexp(dim as isize).unwrap().to_vec();
        let want = reference(&x, &sizes, dim, f64::NEG_INFINITY, |a: f64, v, _| {
            let m = a.max(v);
            m + ((a - m).exp() + (v - m).exp()).ln()
        });
        for (g, w) in got.iter().zip(&want) {
            prop_assert!((g - w).abs() <= 1e-12 * w.abs().max(1.0), "{} vs {}", g, w);
        }
    }
}

/// The static forms give the dynamic forms' results, to the bit, on a
/// shape long enough for the chained blocks.
#[test]
fn static_forms_match_the_dynamic_ones() {
    let x: Vec<f32> = (0..3 * 2500)
        .map(|i| ((i * 7919) % 1000) as f32 * 0.01 - 5.0)
        .collect();
    let typed = Tensor::<f32, shape![3, 2500]>::from_vec(x.clone()).unwrap();
    let dynamic = DynTensor::<f32>::from_vec(x, &[3, 2500]).unwrap();
    assert_eq!(
        typed.cumsum::<1>().to_vec(),
        dynamic.cumsum(1).unwrap().to_vec()
    );
    assert_eq!(
        typed.cumsum::<0>().to_vec(),
        dynamic.cumsum(0).unwrap().to_vec()
    );
    assert_eq!(
        typed.cumprod::<0>().to_vec(),
        dynamic.cumprod(-2).unwrap().to_vec()
    );
    assert_eq!(
        typed.logcumsumexp::<1>().to_vec(),
        dynamic.logcumsumexp(1).unwrap().to_vec()
    );
    let (v, i) = typed.cummin::<1>();
    let (dv, di) = dynamic.cummin(1).unwrap();
    assert_eq!((v.to_vec(), i.to_vec()), (dv.to_vec(), di.to_vec()));
    let (v, i) = typed.cummax::<0>();
    let (dv, di) = dynamic.cummax(0).unwrap();
    assert_eq!((v.to_vec(), i.to_vec()), (dv.to_vec(), di.to_vec()));
}

/// One line of 16M elements runs in parallel parts: its sums are exact on
/// integers and its last index of a maximum is the last one.
#[test]
fn a_long_line_scans_in_parts() {
    let n = 1 << 22;
    let x: Vec<i32> = (0..n).map(|i| (i % 7) as i32 - 3).collect();
    let t = DynTensor::<i32>::from_vec(x.clone(), &[n]).unwrap();
    let got = t.cumsum(0).unwrap().to_vec();
    let mut acc = 0i64;
    for (k, (g, v)) in got.iter().zip(&x).enumerate() {
        acc += *v as i64;
        assert_eq!(*g, acc, "at {k}");
    }
    let (values, indices) = t.cummax(0).unwrap();
    assert_eq!(values.to_vec()[n - 1], 3);
    assert_eq!(indices.to_vec()[n - 1], (n - 1 - (n - 1 - 6) % 7) as i64);
}

/// `cumsum`/`cumprod` with PyTorch's `dtype=`: the cast comes first and
/// the sums wrap in the dtype (values from PyTorch 2.15).
#[test]
fn scans_with_a_dtype_cast_first() {
    let x = AnyTensor::from(DynTensor::<i64>::from_vec(vec![i32::MAX as i64, 1], &[2]).unwrap());
    let s = x.cumsum_dtype(0, DType::I32).unwrap();
    assert_eq!(s.downcast::<i32>().unwrap().to_vec(), [i32::MAX, i32::MIN]);
    let x = AnyTensor::from(DynTensor::<u8>::from_vec(vec![200, 100], &[2, 1]).unwrap());
    let s = x.cumsum_dtype(0, DType::U8).unwrap();
    assert_eq!(s.shape(), vec![2, 1]);
    assert_eq!(s.downcast::<u8>().unwrap().to_vec(), [200, 44]);
    assert_eq!(
        x.cumprod_dtype(2, DType::F32).unwrap_err().to_string(),
        "Dimension out of range (expected to be in range of [-2, 1], but got 2)"
    );
}
