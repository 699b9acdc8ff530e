//! (Unit tests of the library, so that they add no test binary to build.)
//!
//! The random fills checked statistically and for reproducibility:
//! moments and a Kolmogorov–Smirnov test per distribution at a fixed seed
//! (each with its stated threshold), a deliberately biased stream that the
//! same test rejects (so it can fail), independence across the pieces the
//! threads fill, the same bits for any thread count and any output layout,
//! and PyTorch's texts for bad bounds (checked against PyTorch 2.15.0).

use crate::prelude::*;
use crate::random::{Generator, manual_seed};

unsafe extern "C" {
    /// The C library's complementary error function (for the normal CDF).
    safe fn erfc(x: f64) -> f64;
}

/// The Kolmogorov–Smirnov statistic of `sample` against `cdf`.
fn ks_statistic(mut sample: Vec<f64>, cdf: impl Fn(f64) -> f64) -> f64 {
    sample.sort_by(f64::total_cmp);
    let n = sample.len() as f64;
    sample
        .iter()
        .enumerate()
        .map(|(i, &x)| {
            let f = cdf(x);
            (f - i as f64 / n).abs().max(((i + 1) as f64 / n - f).abs())
        })
        .fold(0.0, f64::max)
}

/// The KS critical value at significance 0.001: `1.95 / sqrt(n)` (the
/// asymptotic Kolmogorov quantile). A correct stream exceeds it once in a
/// thousand seeds; the seeds here are fixed, so the tests are
/// deterministic.
fn ks_threshold(n: usize) -> f64 {
    1.95 / (n as f64).sqrt()
}

fn normal_cdf(x: f64) -> f64 {
    0.5 * erfc(-x / core::f64::consts::SQRT_2)
}

fn as_f64<T: Copy + Into<f64>>(x: &[T]) -> Vec<f64> {
    x.iter().map(|&v| v.into()).collect()
}

fn mean_var(x: &[f64]) -> (f64, f64) {
    let n = x.len() as f64;
    let mean = x.iter().sum::<f64>() / n;
    (
        mean,
        x.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>() / (n - 1.0),
    )
}

const N: usize = 200_000;

#[test]
fn uniform_moments_and_ks() {
    let mut g = Generator::new(2024);
    let u32s = DynTensor::<f32>::rand(&[N], &mut g).to_vec();
    assert!(u32s.iter().all(|v| (0.0..1.0).contains(v)));
    let u64s = DynTensor::<f64>::rand(&[N], &mut g).to_vec();
    assert!(u64s.iter().all(|v| (0.0..1.0).contains(v)));
    for (what, x) in [("float32", as_f64(&u32s)), ("float64", u64s)] {
        let (mean, var) = mean_var(&x);
        // Standard errors: 0.00065 for the mean, 0.00017 for the variance.
        assert!((mean - 0.5).abs() < 0.004, "{what} mean {mean}");
        assert!((var - 1.0 / 12.0).abs() < 0.001, "{what} variance {var}");
        let d = ks_statistic(x, |v| v.clamp(0.0, 1.0));
        assert!(d < ks_threshold(N), "{what} KS {d} >= {}", ks_threshold(N));
    }
    // uniform_ on [lo, hi).
    let mut x = DynTensor::<f64>::zeros(&[N]);
    x.uniform_(-3.0, 5.0, &mut g).unwrap();
    let v = x.to_vec();
    assert!(v.iter().all(|v| (-3.0..5.0).contains(v)));
    let d = ks_statistic(v, |t| ((t + 3.0) / 8.0).clamp(0.0, 1.0));
    assert!(d < ks_threshold(N), "uniform_ KS {d}");
}

#[test]
fn normal_moments_and_ks() {
    let mut g = Generator::new(7);
    let z32 = as_f64(&DynTensor::<f32>::randn(&[N], &mut g).to_vec());
    let z64 = DynTensor::<f64>::randn(&[N], &mut g).to_vec();
    for (what, z) in [("float32", z32), ("float64", z64)] {
        let (mean, var) = mean_var(&z);
        // Standard errors: 0.0022 for the mean, 0.0032 for the variance.
        assert!(mean.abs() < 0.012, "{what} mean {mean}");
        assert!((var - 1.0).abs() < 0.02, "{what} variance {var}");
        let d = ks_statistic(z, normal_cdf);
        assert!(d < ks_threshold(N), "{what} KS {d} >= {}", ks_threshold(N));
    }
    let mut x = DynTensor::<f32>::zeros(&[N]);
    x.normal_(10.0, 0.5, &mut g).unwrap();
    let d = ks_statistic(as_f64(&x.to_vec()), |t| normal_cdf((t - 10.0) / 0.5));
    assert!(d < ks_threshold(N), "normal_ KS {d}");
}

#[test]
fn exponential_cauchy_and_geometric() {
    let mut g = Generator::new(31);
    for lambda in [0.5, 3.0] {
        let mut x32 = DynTensor::<f32>::zeros(&[N]);
        x32.exponential_(lambda, &mut g).unwrap();
        let mut x64 = DynTensor::<f64>::zeros(&[N]);
        x64.exponential_(lambda, &mut g).unwrap();
        for (what, x) in [
            ("float32", as_f64(&x32.to_vec())),
            ("float64", x64.to_vec()),
        ] {
            assert!(x.iter().all(|&v| v >= 0.0 && v.is_finite()), "{what}");
            let (mean, var) = mean_var(&x);
            // Standard error of the mean: 1 / (lambda sqrt(N)).
            let se = 1.0 / (lambda * (N as f64).sqrt());
            assert!((mean - 1.0 / lambda).abs() < 6.0 * se, "{what} mean {mean}");
            assert!(
                (var * lambda * lambda - 1.0).abs() < 0.04,
                "{what} variance {var}"
            );
            let d = ks_statistic(x, |t| 1.0 - (-lambda * t.max(0.0)).exp());
            assert!(d < ks_threshold(N), "{what} exponential KS {d}");
        }
    }
    let (median, sigma) = (2.0, 0.5);
    let mut c32 = DynTensor::<f32>::zeros(&[N]);
    c32.cauchy_(median, sigma, &mut g).unwrap();
    let mut c64 = DynTensor::<f64>::zeros(&[N]);
    c64.cauchy_(median, sigma, &mut g).unwrap();
    for (what, x) in [
        ("float32", as_f64(&c32.to_vec())),
        ("float64", c64.to_vec()),
    ] {
        // No moments: the median and the quartiles, then KS.
        let mut sorted = x.clone();
        sorted.sort_by(f64::total_cmp);
        let q = |p: f64| sorted[(p * N as f64) as usize];
        assert!((q(0.5) - median).abs() < 0.01, "{what} median {}", q(0.5));
        assert!(
            (q(0.75) - q(0.25) - 2.0 * sigma).abs() < 0.02,
            "{what} quartiles"
        );
        let d = ks_statistic(x, |t| {
            0.5 + ((t - median) / sigma).atan() / core::f64::consts::PI
        });
        assert!(d < ks_threshold(N), "{what} Cauchy KS {d}");
    }
    // Geometric: P(X = k) = (1 - p)^(k - 1) p; a chi-square over k = 1..=8
    // and the tail.
    for p in [0.3, 0.05] {
        let mut x = DynTensor::<f64>::zeros(&[N]);
        x.geometric_(p, &mut g).unwrap();
        let v = x.to_vec();
        assert!(v.iter().all(|&k| k >= 1.0 && k.fract() == 0.0));
        let (mean, _) = mean_var(&v);
        assert!((mean * p - 1.0).abs() < 0.02, "geometric mean {mean}");
        let mut counts = [0u64; 9];
        for &k in &v {
            counts[(k as usize).min(9) - 1] += 1;
        }
        let expected: Vec<f64> = (1..=9)
            .map(|k| {
                let q: f64 = 1.0 - p;
                if k < 9 { q.powi(k - 1) * p } else { q.powi(8) }
            })
            .collect();
        let chi: f64 = counts
            .iter()
            .zip(&expected)
            .map(|(&c, &e)| (c as f64 - e * N as f64).powi(2) / (e * N as f64))
            .sum();
        // 8 degrees of freedom: 26.1 is the 0.999 quantile.
        assert!(chi < 26.1, "geometric({p}) chi-square {chi}");
    }
    // A stream of the wrong rate fails the same test.
    let mut x = DynTensor::<f64>::zeros(&[N]);
    x.exponential_(1.05, &mut g).unwrap();
    let d = ks_statistic(x.to_vec(), |t| 1.0 - (-t.max(0.0)).exp());
    assert!(d > ks_threshold(N), "a rate of 1.05 passed as 1: KS {d}");
    // PyTorch's texts.
    let err = |r: Result<(), crate::Error>| r.unwrap_err().to_string();
    assert_eq!(
        err(x.exponential_(f64::NAN, &mut g)),
        "exponential_ expects lambda > 0.0, but found lambda=nan"
    );
    assert_eq!(
        err(x.exponential_(0.0, &mut g)),
        "exponential_ expects lambda > 0.0, but found lambda=0"
    );
    assert_eq!(
        err(x.cauchy_(0.0, -1.0, &mut g)),
        "cauchy_ expects sigma > 0.0, but found sigma=-1"
    );
    assert_eq!(
        err(x.geometric_(1.5, &mut g)),
        "geometric_ expects p to be in (0, 1), but got p=1.5"
    );
    assert_eq!(
        err(x.geometric_(f64::NAN, &mut g)),
        "geometric_ expects p to be in (0, 1), but got p=nan"
    );
    assert_eq!(
        err(x.geometric_(0.0, &mut g)),
        "geometric_ expects p to be in (0, 1), but got p=0"
    );
}

/// The KS test can fail: a stream biased by squaring its uniforms (and a
/// normal stream scaled by 1.05) is rejected by the thresholds above.
#[test]
fn a_biased_stream_fails_the_test() {
    let mut g = Generator::new(2024);
    let squared: Vec<f64> = DynTensor::<f64>::rand(&[N], &mut g)
        .to_vec()
        .iter()
        .map(|v| v * v)
        .collect();
    assert!(ks_statistic(squared, |v| v.clamp(0.0, 1.0)) > ks_threshold(N));
    let wide: Vec<f64> = DynTensor::<f64>::randn(&[N], &mut g)
        .to_vec()
        .iter()
        .map(|v| v * 1.05)
        .collect();
    assert!(ks_statistic(wide, normal_cdf) > ks_threshold(N));
}

/// The half types: the values their precision can hold, right moments.
#[test]
fn half_types() {
    let mut g = Generator::new(11);
    let h: Vec<f64> = DynTensor::<half::f16>::rand(&[N], &mut g)
        .to_vec()
        .iter()
        .map(|v| f64::from(v.to_f32()))
        .collect();
    assert!(h.iter().all(|v| (0.0..1.0).contains(v)));
    assert!(
        h.iter().all(|v| (v * 2048.0).fract() == 0.0),
        "11 bits, as PyTorch"
    );
    assert!((mean_var(&h).0 - 0.5).abs() < 0.004);
    let b: Vec<f64> = DynTensor::<half::bf16>::randn(&[N], &mut g)
        .to_vec()
        .iter()
        .map(|v| f64::from(v.to_f32()))
        .collect();
    let (mean, var) = mean_var(&b);
    assert!(
        mean.abs() < 0.012 && (var - 1.0).abs() < 0.03,
        "bfloat16 randn {mean} {var}"
    );
}

/// Neighbours are uncorrelated, across the boundaries of the pieces the
/// threads fill (every 16384 elements) too, and no block repeats.
#[test]
fn independence_across_pieces() {
    let x = DynTensor::<f64>::rand(&[1 << 20], &mut Generator::new(3)).to_vec();
    let n = x.len() - 1;
    let lag1: f64 = (0..n).map(|i| (x[i] - 0.5) * (x[i + 1] - 0.5)).sum::<f64>() / n as f64 * 12.0;
    assert!(
        lag1.abs() < 5.0 / (n as f64).sqrt(),
        "lag-1 correlation {lag1}"
    );
    let at_boundaries: Vec<f64> = (1..64)
        .flat_map(|k| [x[k * 16384 - 1], x[k * 16384]])
        .collect();
    assert!(at_boundaries.windows(2).all(|w| w[0] != w[1]));
    let mut sorted = x.clone();
    sorted.sort_by(f64::total_cmp);
    let repeats = sorted.windows(2).filter(|w| w[0] == w[1]).count();
    assert!(
        repeats < 4,
        "{repeats} repeated values among 2^20 of 53 bits"
    );
}

/// The numbers depend only on (seed, offset, index): any thread count, any
/// layout of the output, fills in two parts or one.
#[test]
fn the_same_bits_for_any_threads_layout_and_split() {
    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let serial =
        one.install(|| DynTensor::<f32>::randn(&[100_003], &mut Generator::new(5)).to_vec());
    let parallel = DynTensor::<f32>::randn(&[100_003], &mut Generator::new(5)).to_vec();
    assert_eq!(serial, parallel);
    // A stepped view filled in place takes the row-major values.
    let mut base = DynTensor::<f64>::zeros(&[40, 60]);
    let mut view = base.slice_mut(s![.., ..;2]).unwrap();
    view.uniform_(0.0, 1.0, &mut Generator::new(9)).unwrap();
    let row_major = DynTensor::<f64>::rand(&[40, 30], &mut Generator::new(9));
    let every_other: Vec<f64> = base.to_vec().chunks(2).map(|p| p[0]).collect();
    assert_eq!(every_other, row_major.to_vec());
    assert!(base.to_vec().chunks(2).all(|p| p[1] == 0.0));
    // Two fills of whole blocks continue the stream as one.
    let mut g = Generator::new(1);
    let mut parts = DynTensor::<f32>::rand(&[8], &mut g).to_vec();
    parts.extend(DynTensor::<f32>::rand(&[8], &mut g).to_vec());
    assert_eq!(g.offset(), 4);
    assert_eq!(
        parts,
        DynTensor::<f32>::rand(&[16], &mut Generator::new(1)).to_vec()
    );
    // Static shapes, the default generator and the global seed.
    manual_seed(77);
    let a = Tensor::<f32, shape![4, 4]>::rand(&mut Generator::default_for(&Device::Cpu));
    assert_eq!(
        a.to_vec(),
        DynTensor::<f32>::rand(&[16], &mut Generator::new(77)).to_vec()
    );
}

/// PyTorch's texts for bounds it refuses (recorded from PyTorch 2.15.0),
/// the tensor untouched.
#[test]
fn bad_bounds_give_pytorchs_texts() {
    let mut g = Generator::new(0);
    let mut x = DynTensor::<f32>::zeros(&[3]);
    let text = |r: Result<(), Error>| r.unwrap_err().to_string();
    assert_eq!(
        text(x.uniform_(2.0, 1.0, &mut g)),
        "uniform_ expects to return a [from, to) range, but found from=2 > to=1"
    );
    assert_eq!(
        text(x.uniform_(-3e38, 3e38, &mut g)),
        "uniform_ expects to-from <= std::numeric_limits<Float>::max(), but found to=3e+38 and from=-3e+38 which result in to-from to exceed the limit"
    );
    assert_eq!(
        text(x.uniform_(f64::NAN, 1.0, &mut g)),
        "from is out of bounds for float"
    );
    assert_eq!(
        text(x.uniform_(0.0, f64::INFINITY, &mut g)),
        "to is out of bounds for float"
    );
    let mut h = DynTensor::<half::f16>::zeros(&[3]);
    assert_eq!(
        text(h.uniform_(0.0, 1e5, &mut g)),
        "to is out of bounds for c10::Half"
    );
    assert_eq!(
        text(x.normal_(0.0, -1.0, &mut g)),
        "normal expects std >= 0.0, but found std -1"
    );
    assert_eq!(x.to_vec(), vec![0.0; 3]);
    assert_eq!(g.offset(), 0, "a refused fill takes no numbers");
    // PyTorch's edge cases that it accepts.
    x.uniform_(1.0, 1.0, &mut g).unwrap();
    assert_eq!(x.to_vec(), vec![1.0; 3]);
    x.normal_(0.0, 0.0, &mut g).unwrap();
    assert_eq!(x.to_vec(), vec![0.0; 3]);
    x.normal_(f64::NAN, 1.0, &mut g).unwrap();
    assert!(x.to_vec().iter().all(|v| v.is_nan()));
}

/// Pearson's chi-square statistic of `counts` against equal expected
/// counts.
fn chi_square(counts: &[u64]) -> f64 {
    let total: u64 = counts.iter().sum();
    let expected = total as f64 / counts.len() as f64;
    counts
        .iter()
        .map(|&c| (c as f64 - expected).powi(2) / expected)
        .sum()
}

/// The chi-square critical value at significance 0.001 for `dof` degrees
/// of freedom, from the Wilson–Hilferty approximation (within 1% above 5
/// degrees of freedom): 27.9 for 9, 16.3 for 3.
fn chi_square_threshold(dof: usize) -> f64 {
    let k = dof as f64;
    let z = 3.090_232; // the normal quantile at 0.999
    k * (1.0 - 2.0 / (9.0 * k) + z * (2.0 / (9.0 * k)).sqrt()).powi(3)
}

/// `randint` over 10 values: equal counts by chi-square at a fixed seed,
/// and at a range near `2^63` (the 64-bit path), both halves equally often.
#[test]
fn randint_is_uniform() {
    let mut g = Generator::new(11);
    let x = DynTensor::<i64>::randint(-3, 7, &[200_000], &mut g).unwrap();
    let mut counts = [0u64; 10];
    for &v in x.iter() {
        counts[(v + 3) as usize] += 1;
    }
    let chi = chi_square(&counts);
    assert!(chi < chi_square_threshold(9), "chi-square {chi}");
    let wide = DynTensor::<i64>::randint(i64::MIN, i64::MAX, &[100_000], &mut g).unwrap();
    let negative = wide.iter().filter(|&&v| v < 0).count() as u64;
    let chi = chi_square(&[negative, 100_000 - negative]);
    assert!(chi < chi_square_threshold(1), "chi-square {chi}");
}

/// The chi-square test can fail: a draw biased as `bits % 3` of 3-bit
/// words would be (0, 1 twice as often as 2 among 8 values).
#[test]
fn a_biased_integer_stream_fails_the_test() {
    let mut counts = [0u64; 3];
    for bits in 0..200_000u64 {
        counts[((bits % 8) % 3) as usize] += 1;
    }
    assert!(chi_square(&counts) > chi_square_threshold(2));
}

/// `randperm` gives permutations whose first element is uniform (chi-square
/// over many draws from one generator), the same permutation for the same
/// seed, and PyTorch's texts for lengths a dtype cannot count to.
#[test]
fn randperm_is_a_uniform_permutation() {
    let mut g = Generator::new(3);
    let mut first = [0u64; 6];
    for _ in 0..30_000 {
        let p = DynTensor::<i32>::randperm(6, &mut g).unwrap().to_vec();
        let mut sorted = p.clone();
        sorted.sort();
        assert_eq!(sorted, vec![0, 1, 2, 3, 4, 5]);
        first[p[0] as usize] += 1;
    }
    let chi = chi_square(&first);
    assert!(chi < chi_square_threshold(5), "chi-square {chi}");
    let a = DynTensor::<i64>::randperm(1000, &mut Generator::new(9)).unwrap();
    let b = DynTensor::<i64>::randperm(1000, &mut Generator::new(9)).unwrap();
    assert_eq!(a.to_vec(), b.to_vec());
    let err = DynTensor::<f32>::randperm((1 << 24) + 2, &mut g).unwrap_err();
    assert_eq!(
        err.to_string(),
        "n cannot be greater than 2^24+1 for Float type."
    );
    assert_eq!(DynTensor::<u8>::randperm(0, &mut g).unwrap().numel(), 0);
}

/// Pearson's chi-square statistic of `counts` against `expected` counts.
fn chi_square_against(counts: &[u64], expected: &[f64]) -> f64 {
    counts
        .iter()
        .zip(expected)
        .map(|(&c, &e)| (c as f64 - e).powi(2) / e)
        .sum()
}

/// `random_` on u8 (every byte equally often), on float16 within its
/// exact integers, and `random_from_(i64::MIN, None)` on both halves; the
/// same stream as `randint` of the same range.
#[test]
fn random_is_uniform() {
    let mut g = Generator::new(12);
    let mut bytes = DynTensor::<u8>::zeros(&[256_000]);
    bytes.random_(&mut g).unwrap();
    let mut counts = [0u64; 256];
    for &v in bytes.iter() {
        counts[v as usize] += 1;
    }
    let chi = chi_square(&counts);
    assert!(chi < chi_square_threshold(255), "chi-square {chi}");
    let mut halves = DynTensor::<half::f16>::zeros(&[100_000]);
    halves.random_(&mut g).unwrap();
    assert!(
        halves
            .iter()
            .all(|v| v.to_f32().fract() == 0.0 && (0.0..=2048.0).contains(&v.to_f32()))
    );
    let mut all = DynTensor::<i64>::zeros(&[100_000]);
    all.random_from_(i64::MIN, None, &mut g).unwrap();
    let negative = all.iter().filter(|&&v| v < 0).count() as u64;
    let chi = chi_square(&[negative, 100_000 - negative]);
    assert!(chi < chi_square_threshold(1), "chi-square {chi}");
    let mut a = DynTensor::<i32>::zeros(&[1001]);
    a.random_from_(-7, Some(90), &mut Generator::new(5))
        .unwrap();
    let b = DynTensor::<i32>::randint(-7, 90, &[1001], &mut Generator::new(5)).unwrap();
    assert_eq!(a.to_vec(), b.to_vec());
}

/// `bernoulli_(p)` and `bernoulli` of mixed probabilities: each frequency
/// within 5 standard errors, on a strided output too; the biased reading
/// of the same counts (p + 1%) is rejected.
#[test]
fn bernoulli_frequencies() {
    let mut g = Generator::new(13);
    for p in [0.3, 0.999, 1e-3] {
        let mut x = Tensor::<bool, shape![400, 500]>::zeros();
        x.transpose_mut::<0, 1>().bernoulli_(p, &mut g).unwrap();
        let hits = x.iter().filter(|&&b| b).count() as f64;
        let n = 200_000.0;
        let se = (p * (1.0 - p) / n).sqrt();
        assert!((hits / n - p).abs() < 5.0 * se, "p {p}: {}", hits / n);
        if p == 0.3 {
            assert!(
                (hits / n - (p + 0.01)).abs() > 5.0 * se,
                "a 1% bias is seen"
            );
        }
    }
    let probs =
        DynTensor::<f32>::from_vec([0.1f32, 0.5, 0.9, 0.0].repeat(50_000), &[50_000, 4]).unwrap();
    let x = probs.bernoulli(&mut g).unwrap();
    let v = x.to_vec();
    for (j, p) in [0.1f64, 0.5, 0.9, 0.0].into_iter().enumerate() {
        let hits = (0..50_000).filter(|i| v[i * 4 + j] == 1.0).count() as f64;
        let se = (p * (1.0 - p) / 50_000.0).sqrt().max(1e-9);
        assert!(
            (hits / 50_000.0 - p).abs() <= 5.0 * se,
            "column {j}: {hits}"
        );
    }
}

/// `log_normal_`: the logarithm of the sample is normal (KS) in float32 and
/// float64, and the same bits on a strided output as a contiguous one.
#[test]
fn log_normal_is_exp_of_normal() {
    let mut g = Generator::new(14);
    let (mean, std) = (0.5, 1.5);
    let mut x32 = DynTensor::<f32>::zeros(&[N]);
    x32.log_normal_(mean, std, &mut g).unwrap();
    let mut x64 = DynTensor::<f64>::zeros(&[N]);
    x64.log_normal_(mean, std, &mut g).unwrap();
    for (what, x) in [
        ("float32", as_f64(&x32.to_vec())),
        ("float64", x64.to_vec()),
    ] {
        assert!(x.iter().all(|&v| v > 0.0), "{what}");
        let logs: Vec<f64> = x.iter().map(|v| v.ln()).collect();
        let d = ks_statistic(logs, |t| normal_cdf((t - mean) / std));
        assert!(d < ks_threshold(N), "{what} log-normal KS {d}");
    }
    let mut strided = Tensor::<f64, shape![30, 40]>::zeros();
    strided
        .transpose_mut::<0, 1>()
        .log_normal_(0.0, 1.0, &mut Generator::new(1))
        .unwrap();
    let mut plain = DynTensor::<f64>::zeros(&[40, 30]);
    plain.log_normal_(0.0, 1.0, &mut Generator::new(1)).unwrap();
    assert_eq!(strided.t().to_vec(), plain.to_vec());
}

/// `multinomial`: with replacement every sample's category by chi-square
/// against the weights; without replacement the first pick likewise, and
/// never a category twice in a row.
#[test]
fn multinomial_follows_the_weights() {
    let mut g = Generator::new(15);
    let weights = [1.0f64, 2.0, 3.0, 4.0];
    let p = DynTensor::<f64>::from_vec(weights.to_vec(), &[4]).unwrap();
    let x = p.multinomial(40_000, true, &mut g).unwrap();
    let mut counts = [0u64; 4];
    for &i in x.iter() {
        counts[i as usize] += 1;
    }
    let expected: Vec<f64> = weights.iter().map(|w| w / 10.0 * 40_000.0).collect();
    let chi = chi_square_against(&counts, &expected);
    assert!(
        chi < chi_square_threshold(3),
        "with replacement: chi-square {chi}"
    );
    let uniform = [10_000.0; 4];
    assert!(chi_square_against(&counts, &uniform) > chi_square_threshold(3));
    let rows =
        DynTensor::<f32>::from_vec([1.0f32, 2.0, 3.0, 4.0].repeat(20_000), &[20_000, 4]).unwrap();
    let x = rows.multinomial(3, false, &mut g).unwrap();
    let v = x.to_vec();
    let mut first = [0u64; 4];
    for row in v.chunks(3) {
        first[row[0] as usize] += 1;
        assert!(
            row[0] != row[1] && row[1] != row[2] && row[0] != row[2],
            "{row:?}"
        );
    }
    let expected: Vec<f64> = weights.iter().map(|w| w / 10.0 * 20_000.0).collect();
    let chi = chi_square_against(&first, &expected);
    assert!(
        chi < chi_square_threshold(3),
        "first picks: chi-square {chi}"
    );
}

/// `normal` with tensor arguments: each column's mean and standard
/// deviation as asked, the broadcast shape computed by the compiler.
#[test]
fn normal_with_tensor_arguments() {
    let mut g = Generator::new(16);
    let mean = Tensor::<f64, shape![1, 3]>::from_vec(vec![-1.0, 0.0, 10.0]).unwrap();
    let std = Tensor::<f32, shape![50000, 1]>::full(2.0);
    let x: Tensor<f64, shape![50000, 3]> =
        Tensor::normal_tensor_tensor(&mean, &std, &mut g).unwrap();
    let v = x.to_vec();
    for (j, m) in [-1.0, 0.0, 10.0].into_iter().enumerate() {
        let column: Vec<f64> = v.iter().skip(j).step_by(3).copied().collect();
        let (mu, var) = mean_var(&column);
        assert!(
            (mu - m).abs() < 6.0 * 2.0 / (50_000f64).sqrt(),
            "column {j} mean {mu}"
        );
        assert!((var / 4.0 - 1.0).abs() < 0.04, "column {j} variance {var}");
    }
    // A complex mean: complex noise, each part of variance std^2 / 2.
    let mean = DynTensor::<num_complex::Complex<f64>>::zeros(&[100_000]);
    let std = DynTensor::<f32>::full(&[1], 2.0);
    let z = DynTensor::normal_tensor_tensor(&mean, &std, &mut g).unwrap();
    for part in [z.real().to_vec(), z.imag().to_vec()] {
        let (mu, var) = mean_var(&part);
        assert!(mu.abs() < 6.0 * (2.0f64 / 100_000.0).sqrt(), "mean {mu}");
        assert!((var / 2.0 - 1.0).abs() < 0.04, "variance {var}");
    }
}

/// `poisson`: for a small rate (the product of uniforms) the counts of 0..=9
/// by chi-square against the probabilities; for large rates (the rejection
/// sampler) mean and variance within 6 standard errors; infinite and zero
/// rates; a wrong rate's counts are rejected.
#[test]
fn poisson_follows_its_law() {
    let mut g = Generator::new(17);
    let rate = 3.0f64;
    let x = DynTensor::<f32>::full(&[200_000], rate as f32)
        .poisson(&mut g)
        .unwrap();
    let mut counts = [0u64; 11];
    for &k in x.iter() {
        counts[(k as usize).min(10)] += 1;
    }
    let mut pmf = [0.0f64; 11];
    let mut term = (-rate).exp();
    for (k, p) in pmf.iter_mut().enumerate().take(10) {
        *p = term;
        term *= rate / (k + 1) as f64;
    }
    pmf[10] = 1.0 - pmf[..10].iter().sum::<f64>();
    let expected: Vec<f64> = pmf.iter().map(|p| p * 200_000.0).collect();
    let chi = chi_square_against(&counts, &expected);
    assert!(chi < chi_square_threshold(10), "rate 3: chi-square {chi}");
    let shifted: Vec<f64> = {
        let rate = 3.1f64;
        let mut term = (-rate).exp();
        let mut e = [0.0f64; 11];
        for (k, p) in e.iter_mut().enumerate().take(10) {
            *p = term * 200_000.0;
            term *= rate / (k + 1) as f64;
        }
        e[10] = 200_000.0 - e[..10].iter().sum::<f64>();
        e.to_vec()
    };
    assert!(chi_square_against(&counts, &shifted) > chi_square_threshold(10));
    for rate in [10.0f64, 57.5, 1e4] {
        let x = DynTensor::<f64>::full(&[200_000], rate)
            .poisson(&mut g)
            .unwrap()
            .to_vec();
        assert!(x.iter().all(|k| k.fract() == 0.0 && *k >= 0.0));
        let (mean, var) = mean_var(&x);
        let se = (rate / 200_000.0).sqrt();
        assert!((mean - rate).abs() < 6.0 * se, "rate {rate}: mean {mean}");
        assert!(
            (var / rate - 1.0).abs() < 0.03,
            "rate {rate}: variance {var}"
        );
    }
    let edge = DynTensor::<f64>::from_vec(vec![0.0, f64::INFINITY], &[2]).unwrap();
    assert_eq!(
        edge.poisson(&mut g).unwrap().to_vec(),
        vec![0.0, f64::INFINITY]
    );
}

/// Complex `randn`: each part normal of variance 1/2 (PyTorch's), so the
/// complex number's variance is 1 (KS of each part, scaled); complex
/// `uniform_` fills both parts.
#[test]
fn complex_fills_by_parts() {
    let mut g = Generator::new(18);
    let z = DynTensor::<num_complex::Complex<f64>>::randn(&[N / 2], &mut g);
    for part in [z.real().to_vec(), z.imag().to_vec()] {
        let scaled: Vec<f64> = part.iter().map(|v| v * core::f64::consts::SQRT_2).collect();
        let d = ks_statistic(scaled, normal_cdf);
        assert!(d < ks_threshold(N / 2), "complex randn part KS {d}");
    }
    let mut u = DynTensor::<num_complex::Complex<f32>>::zeros(&[1000]);
    u.uniform_(2.0, 3.0, &mut g).unwrap();
    assert!(
        u.iter()
            .all(|c| (2.0..3.0).contains(&c.re) && (2.0..3.0).contains(&c.im))
    );
    assert_ne!(u.real().to_vec(), u.imag().to_vec());
}

/// `geometric_` of an integer tensor: the counts of 1..=8 by chi-square
/// against `(1 - p)^(k - 1) p` (the rest pooled); a wrong p is rejected.
#[test]
fn integer_geometric_follows_its_law() {
    let mut g = Generator::new(19);
    let p = 0.3f64;
    let mut x = DynTensor::<i32>::zeros(&[200_000]);
    x.geometric_(p, &mut g).unwrap();
    let mut counts = [0u64; 9];
    for &k in x.iter() {
        assert!(k >= 1);
        counts[(k as usize - 1).min(8)] += 1;
    }
    let law = |p: f64| -> Vec<f64> {
        let mut e: Vec<f64> = (0..8).map(|k| (1.0 - p).powi(k) * p * 200_000.0).collect();
        e.push(200_000.0 - e.iter().sum::<f64>());
        e
    };
    let chi = chi_square_against(&counts, &law(p));
    assert!(chi < chi_square_threshold(8), "chi-square {chi}");
    assert!(chi_square_against(&counts, &law(0.31)) > chi_square_threshold(8));
}
