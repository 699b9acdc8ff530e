//! Property tests of `softmax`, `log_softmax` and `logsumexp`: the dynamic forms
//! against a plain float64 reference on random shapes (sizes 0 to 6, every
//! dim, transposed views, rows long enough for the vector paths), and the
//! static forms against the dynamic ones, to the bit.

use proptest::collection::vec;
use proptest::prelude::*;
use shaped::prelude::*;

/// Softmax (`log`) of row-major `x` of `sizes` along `dim`, in float64.
fn reference(x: &[f32], sizes: &[usize], dim: usize, log: bool) -> Vec<f64> {
    let n = sizes[dim];
    let inner: usize = sizes[dim + 1..].iter().product();
    let outer: usize = sizes[..dim].iter().product();
    let mut out = vec![0.0; x.len()];
    for o in 0..outer {
        for i in 0..inner {
            let at = |k: usize| o * n * inner + k * inner + i;
            let m = (0..n)
                .map(|k| x[at(k)] as f64)
                .fold(f64::NEG_INFINITY, f64::max);
            let s: f64 = (0..n).map(|k| (x[at(k)] as f64 - m).exp()).sum();
            for k in 0..n {
                let v = x[at(k)] as f64 - m;
                out[at(k)] = if log { v - s.ln() } else { v.exp() / s };
            }
        }
    }
    out
}

fn case() -> impl Strategy<Value = (Vec<usize>, usize, Vec<f32>, bool)> {
    (
        vec(0usize..7, 1..4),
        any::<prop::sample::Index>(),
        any::<bool>(),
    )
        .prop_flat_map(|(mut sizes, dim, transposed)| {
            if sizes.iter().all(|&s| s > 0) && sizes.len() == 1 {
                sizes[0] *= 7; // long rows: the vector paths and their tails
            }
            let n: usize = sizes.iter().product();
            let dim = dim.index(sizes.len());
            (
                Just(sizes),
                Just(dim),
                vec(-30.0f32..30.0, n),
                Just(transposed),
            )
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn softmax_matches_a_float64_reference((sizes, dim, x, transposed) in case(), log in any::<bool>()) {
        // The same logical tensor, stored row-major or reversed (a view).
        let t = if transposed && sizes.len() > 1 {
            let rev: Vec<usize> = sizes.iter().rev().copied().collect();
            let logical = DynTensor::<f32>::from_vec(x.clone(), &sizes).unwrap();
            let stored = logical.permute(&(0..sizes.len() as isize).rev().collect::<Vec<_>>()).unwrap().contiguous();
            prop_assert_eq!(stored.shape(), &rev[..]);
            stored.permute(&(0..sizes.len() as isize).rev().collect::<Vec<_>>()).unwrap().to_owned()
        } else {
            DynTensor::<f32>::from_vec(x.clone(), &sizes).unwrap()
        };
        let got = match log {
            false => t.softmax(dim as isize).unwrap(),
            true => t.log_softmax(dim as isize).unwrap(),
        };
        prop_assert_eq!(got.shape(), &sizes[..]);
        let want = reference(&x, &sizes, dim, log);
        // Log-softmax's `ln(sum)` is absolute: float32 holds the sum to
        // about 1e-7 of 1, whatever the result's magnitude.
        let floor = if log { 1.0 } else { 1e-3 };
        for (g, w) in got.to_vec().iter().zip(&want) {
            prop_assert!((*g as f64 - w).abs() <= 1e-5 * w.abs().max(floor), "{} vs {}", g, w);
        }
        // float64 computes with the standard library's exp.
        let wide = t.cast::<f64>();
        let got = match log {
            false => wide.softmax(dim as isize).unwrap(),
            true => wide.log_softmax(dim as isize).unwrap(),
        };
        for (g, w) in got.to_vec().iter().zip(&want) {
            prop_assert!((g - w).abs() <= 1e-12 * w.abs().max(floor), "{} vs {}", g, w);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    /// `logsumexp` along one dim against `ln(sum(exp(x)))` in float64.
    #[test]
    fn logsumexp_matches_a_float64_reference((sizes, dim, x, _) in case(), keepdim in any::<bool>()) {
        let t = DynTensor::<f32>::from_vec(x.clone(), &sizes).unwrap();
        let got = t.logsumexp(&[dim as isize], keepdim).unwrap();
        let mut kept = sizes.clone();
        kept[dim] = 1;
        let want_sizes: Vec<usize> = if keepdim { kept } else {
            sizes.iter().enumerate().filter(|&(d, _)| d != dim).map(|(_, &n)| n).collect()
        };
        prop_assert_eq!(got.shape(), &want_sizes[..]);
        let n = sizes[dim];
        let inner: usize = sizes[dim + 1..].iter().product();
        let outer: usize = sizes[..dim].iter().product();
        let mut want = Vec::new();
        for o in 0..outer {
            for i in 0..inner {
                let s: f64 = (0..n).map(|k| (x[o * n * inner + k * inner + i] as f64).exp()).sum();
                want.push(s.ln());
            }
        }
        for (g, w) in got.to_vec().iter().zip(&want) {
            prop_assert!(
                (w.is_infinite() && *g as f64 == *w) || (*g as f64 - w).abs() <= 1e-5 * w.abs().max(1.0),
                "{} vs {}", g, w
            );
        }
    }
}

#[test]
fn static_forms_match_the_dynamic_ones() {
    let data: Vec<f32> = (0..60)
        .map(|k| ((k * 37) % 23) as f32 * 0.7 - 8.0)
        .collect();
    let x = Tensor::<f32, shape![3, 4, 5]>::from_vec(data).unwrap();
    let d = x.clone().into_dyn();
    assert_eq!(x.softmax::<0>().to_vec(), d.softmax(0).unwrap().to_vec());
    assert_eq!(x.softmax::<1>().to_vec(), d.softmax(-2).unwrap().to_vec());
    assert_eq!(x.softmax::<2>().to_vec(), d.softmax(-1).unwrap().to_vec());
    assert_eq!(
        x.log_softmax::<1>().to_vec(),
        d.log_softmax(1).unwrap().to_vec()
    );
    let half: Tensor<half::f16, shape![3, 4, 5]> = x.softmax_in::<half::f16, 2>();
    assert_eq!(
        half.to_vec(),
        d.softmax_in::<half::f16>(2).unwrap().to_vec()
    );
    let lse: Tensor<f32, shape![3, 5]> = x.logsumexp_dim::<1>();
    assert_eq!(lse.to_vec(), d.logsumexp(&[1], false).unwrap().to_vec());
    let lse: Tensor<f32, shape![1, 4, 1]> = x.logsumexp_dims_keepdim::<axes![0, 2]>();
    assert_eq!(lse.to_vec(), d.logsumexp(&[2, 0], true).unwrap().to_vec());
    let ints = Tensor::<i32, shape![2, 2]>::from_vec(vec![1, 2, 3, 3]).unwrap();
    let lse: Tensor<f32, shape![2, 1]> = ints.logsumexp_keepdim::<1>();
    assert!((lse.to_vec()[1] - (3.0 + 2f32.ln())).abs() < 1e-6);
    let p: Tensor<f64, shape![2, 2]> = ints.softmax_in::<f64, 1>();
    assert_eq!(p.to_vec()[2..], [0.5, 0.5]);
    assert_eq!(
        ints.into_dyn().softmax(1).unwrap_err().to_string(),
        "\"softmax_lastdim_kernel_impl\" not implemented for 'Int'"
    );
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    /// `var` and `std` along one dim against a float64 two-pass reference,
    /// with corrections from -1 to 3; `var_mean`'s mean is `mean`'s.
    #[test]
    fn moments_match_a_float64_reference(
        (sizes, dim, x, _) in case(),
        correction in -1i32..4,
        keepdim in any::<bool>(),
    ) {
        let t = DynTensor::<f32>::from_vec(x.clone(), &sizes).unwrap();
        let (var, mean) = t.var_mean(&[dim as isize], correction, keepdim).unwrap();
        let std = t.std(&[dim as isize], correction, keepdim).unwrap();
        let n = sizes[dim];
        let inner: usize = sizes[dim + 1..].iter().product();
        let outer: usize = sizes[..dim].iter().product();
        let (mut want_var, mut want_mean) = (Vec::new(), Vec::new());
        for o in 0..outer {
            for i in 0..inner {
                let line: Vec<f64> = (0..n).map(|k| x[o * n * inner + k * inner + i] as f64).collect();
                let m = line.iter().sum::<f64>() / n as f64;
                let ss: f64 = line.iter().map(|v| (v - m) * (v - m)).sum();
                let divisor = (n as f64 - correction as f64).max(0.0);
                want_var.push(if n == 0 { f64::NAN } else { ss / divisor });
                want_mean.push(if n == 0 { f64::NAN } else { m });
            }
        }
        let near = |g: f32, w: f64, scale: f64| {
            (g.is_nan() && w.is_nan()) || g as f64 == w || (g as f64 - w).abs() <= 1e-4 * scale
        };
        for ((v, s), w) in var.to_vec().iter().zip(std.to_vec()).zip(&want_var) {
            prop_assert!(near(*v, *w, w.abs().max(1.0)), "var {} vs {}", v, w);
            prop_assert!(near(s, w.sqrt(), w.sqrt().max(1.0)), "std {} vs {}", s, w.sqrt());
        }
        for (g, w) in mean.to_vec().iter().zip(&want_mean) {
            prop_assert!(near(*g, *w, 30.0), "mean {} vs {}", g, w);
        }
    }
}

#[test]
fn static_moments_match_the_dynamic_ones() {
    let data: Vec<f32> = (0..60)
        .map(|k| ((k * 37) % 23) as f32 * 0.7 - 8.0)
        .collect();
    let x = Tensor::<f32, shape![3, 4, 5]>::from_vec(data).unwrap();
    let d = x.clone().into_dyn();
    let v: Tensor<f32, shape![3, 5]> = x.var_dim::<1>(1);
    assert_eq!(v.to_vec(), d.var(&[1], 1, false).unwrap().to_vec());
    let s: Tensor<f32, shape![1, 4, 1]> = x.std_dims_keepdim::<axes![0, 2]>(0);
    assert_eq!(s.to_vec(), d.std(&[0, 2], 0, true).unwrap().to_vec());
    let whole: Tensor<f32, shape![]> = x.var(2);
    assert_eq!(whole.to_vec(), d.var(&[], 2, false).unwrap().to_vec());
    let (v, m) = x.var_mean_dim::<2>(1);
    let (dv, dm) = d.var_mean(&[-1], 1, false).unwrap();
    assert_eq!((v.to_vec(), m.to_vec()), (dv.to_vec(), dm.to_vec()));
    let z = Tensor::<num_complex::Complex<f64>, shape![2]>::from_vec(vec![
        num_complex::Complex::new(1.0, 1.0),
        num_complex::Complex::new(-1.0, -1.0),
    ])
    .unwrap();
    let zv: Tensor<f64, shape![]> = z.var(1);
    assert_eq!(zv.to_vec(), [4.0]);
}

#[test]
fn static_norms_and_counts_match_the_dynamic_ones() {
    let mut data: Vec<f32> = (0..60)
        .map(|k| ((k * 37) % 23) as f32 * 0.7 - 8.0)
        .collect();
    data[3] = f32::NAN;
    data[10] = 0.0;
    let x = Tensor::<f32, shape![3, 4, 5]>::from_vec(data).unwrap();
    let d = x.clone().into_dyn();
    let n: Tensor<f32, shape![3, 5]> = x.vector_norm_dim::<1>(3.0);
    let bits = |v: Vec<f32>| v.into_iter().map(f32::to_bits).collect::<Vec<_>>();
    assert_eq!(
        bits(n.to_vec()),
        bits(d.vector_norm(3.0, &[1], false).unwrap().to_vec())
    );
    let s: Tensor<f32, shape![4]> = x.nansum_dims::<axes![0, 2]>();
    assert_eq!(s.to_vec(), d.nansum(&[0, 2], false).unwrap().to_vec());
    assert!(s.to_vec().iter().all(|v| v.is_finite()));
    let c: Tensor<i64, shape![3, 4]> = x.count_nonzero_dim::<2>();
    assert_eq!(c.to_vec(), d.count_nonzero(&[2]).unwrap().to_vec());
    assert_eq!(c.to_vec().iter().sum::<i64>(), 59);
    // nanmean: the NaN (at [0, 0, 3]) left out of its row's mean.
    let m: Tensor<f32, shape![3, 4]> = x.nanmean_dim::<2>();
    assert_eq!(
        bits(m.to_vec()),
        bits(d.nanmean(&[2], false).unwrap().to_vec())
    );
    let row = &x.to_vec()[..5];
    let numbers: Vec<f32> = row.iter().copied().filter(|v| !v.is_nan()).collect();
    assert_eq!(m.to_vec()[0], numbers.iter().sum::<f32>() / 4.0);
    let mk: Tensor<f32, shape![3, 1, 5]> = x.nanmean_keepdim::<1>();
    assert_eq!(
        bits(mk.to_vec()),
        bits(d.nanmean(&[1], true).unwrap().to_vec())
    );
    let md: Tensor<f32, shape![5]> = x.nanmean_dims::<axes![0, 1]>();
    assert_eq!(
        bits(md.to_vec()),
        bits(d.nanmean(&[0, 1], false).unwrap().to_vec())
    );
    // aminmax: the NaN wins its row's extremes, as amin and amax.
    type Rows = Tensor<f32, shape![3, 4]>;
    let (lo, hi): (Rows, Rows) = x.aminmax_dim::<2>();
    let (dlo, dhi) = d.aminmax(Some(2), false).unwrap();
    assert_eq!(bits(lo.to_vec()), bits(dlo.to_vec()));
    assert_eq!(bits(hi.to_vec()), bits(dhi.to_vec()));
    assert!(lo.to_vec()[0].is_nan() && hi.to_vec()[1] >= lo.to_vec()[1]);
    let (klo, khi) = x.aminmax_keepdim::<0>();
    let (dklo, dkhi) = d.aminmax(Some(0), true).unwrap();
    assert_eq!(klo.shape(), [1, 4, 5]);
    assert_eq!(bits(klo.to_vec()), bits(dklo.to_vec()));
    assert_eq!(bits(khi.to_vec()), bits(dkhi.to_vec()));
}
