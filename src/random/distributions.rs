//! What one Philox block (four 32-bit words) becomes in each floating
//! dtype: the samplers of `rand`/`uniform_` and `randn`/`normal_`, `exponential_` and `cauchy_`, the same
//! steps as `kernels/random.cuh`.
//!
//! - float32, float16, bfloat16: four elements per block. A uniform takes a
//!   word's top 24 bits (11 for float16, 8 for bfloat16, the type's
//!   precision, as PyTorch), `lo + u (hi - lo)` computed in float32 with one
//!   fused multiply-add and rounded once, `hi` itself mapped back to `lo`.
//!   A normal pair is Box-Muller on two words: `sqrt(-2 ln u1)` times
//!   `cos` and `sin` of `2 pi u2`, with `u1` in `(0, 1]`.
//! - float64: two elements per block, each uniform from 53 bits of two
//!   words, and one normal pair from all four.
//!
//! ```
//! use shaped::random::distributions::{Distribution, RandomFloat};
//! let (lo, hi) = (-1.0, 1.0);
//! let values = f32::from_block([0, u32::MAX, 1 << 31, 7], &f32::sampler(Distribution::Uniform { lo, hi }));
//! assert_eq!(values[0], -1.0);
//! assert!(values.iter().all(|v| (-1.0..1.0).contains(v)));
//! ```

use super::math::{exp_f32, exp_f64, ln_f32, ln_f64, sincos_2pi_f32, sincos_2pi_f64};
use crate::dtype::Element;
use core::mem::MaybeUninit;
use half::{bf16, f16};

/// A distribution of `rand`-like fills.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Distribution {
    /// Uniform on `[lo, hi)`.
    Uniform {
        /// The lower bound (included).
        lo: f64,
        /// The upper bound (excluded, unless equal to `lo`).
        hi: f64,
    },
    /// Normal with mean `mean` and standard deviation `std`.
    Normal {
        /// The mean.
        mean: f64,
        /// The standard deviation.
        std: f64,
    },
    /// Exponential of rate `lambda`: `-ln(u) / lambda`, `u` in `(0, 1]`.
    Exponential {
        /// The rate (positive).
        lambda: f64,
    },
    /// Cauchy of location `median` and scale `sigma`: `median + sigma *
    /// tan(pi (u - 1/2))`, `u` in `[0, 1)`.
    Cauchy {
        /// The location.
        median: f64,
        /// The scale (positive).
        sigma: f64,
    },
    /// Geometric of success probability `p` (the number of the first
    /// success, from 1): `max(1, ceil(ln(u) / ln(1 - p)))`, `u` in `(0, 1]`.
    Geometric {
        /// The probability, in `(0, 1)`.
        p: f64,
    },
    /// Log-normal: `exp(mean + z * std)`, `z` standard normal.
    LogNormal {
        /// The underlying normal's mean.
        mean: f64,
        /// The underlying normal's standard deviation.
        std: f64,
    },
}

impl Distribution {
    /// `ln(1 - p)` of a geometric distribution, computed once on the host
    /// (by the same IEEE steps as the samples) for both devices.
    pub(crate) fn geometric_log(p: f64) -> f64 {
        ln_f64(1.0 - p)
    }
}

/// A distribution's numbers in the compute type `R` (float32 or float64).
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Sampler<R> {
    /// `lo + u * range`, `hi` mapped back to `lo`.
    Uniform {
        /// The lower bound.
        lo: R,
        /// `hi - lo`.
        range: R,
        /// The upper bound.
        hi: R,
    },
    /// `mean + z * std`.
    Normal {
        /// The mean.
        mean: R,
        /// The standard deviation.
        std: R,
    },
    /// `(0 - ln(u)) * scale`.
    Exponential {
        /// `1 / lambda`.
        scale: R,
    },
    /// `median + sigma * (-cos(pi u) / sin(pi u))`.
    Cauchy {
        /// The location.
        median: R,
        /// The scale.
        sigma: R,
    },
    /// `max(1, ceil(ln(u) / ln_q))`.
    Geometric {
        /// `ln(1 - p)`.
        ln_q: R,
    },
    /// `exp(mean + z * std)`.
    LogNormal {
        /// The mean of the logarithm.
        mean: R,
        /// The standard deviation of the logarithm.
        std: R,
    },
}

/// Floating element types that random fills produce.
#[diagnostic::on_unimplemented(
    message = "this random fill or sampler takes floating tensors (f16, bf16, f32, f64), not `{Self}`",
    label = "this tensor holds `{Self}`",
    note = "PyTorch refuses the others (\"poisson_cpu\" not implemented for 'Long'); convert with `.cast()` first"
)]
pub trait RandomFloat: Element {
    /// Elements per Philox block: 4, or 2 for float64.
    const PER_BLOCK: usize;
    /// The compute type's sampler.
    type Params: Copy + Send + Sync + core::fmt::Debug;
    /// `dist` in the compute type.
    fn sampler(dist: Distribution) -> Self::Params;
    /// The elements of one block (the first [`PER_BLOCK`](Self::PER_BLOCK)).
    fn from_block(words: [u32; 4], p: &Self::Params) -> [Self; 4];
    /// The elements of [`LANES`] consecutive blocks (word `k` of block `j`
    /// at `words[k][j]`), block `j`'s at `out[j * PER_BLOCK..]`: the values
    /// of [`from_block`](Self::from_block), computed lane by lane so that
    /// the CPU's vector units take several blocks at once.
    fn from_lanes(words: &[[u32; LANES]; 4], p: &Self::Params, out: &mut [MaybeUninit<Self>]);
}

/// Blocks the CPU's fills compute together ([`RandomFloat::from_lanes`]).
pub const LANES: usize = 16;

/// [`RandomFloat::from_lanes`] of the float32-computed types: the
/// distribution chosen once, then a loop over the lanes whose body the
/// compiler vectorizes.
#[inline(always)]
fn lanes_f32<T: Copy + PartialEq>(
    w: &[[u32; LANES]; 4],
    p: &Sampler<f32>,
    bits: u32,
    narrow: impl Fn(f32) -> T,
    out: &mut [MaybeUninit<T>],
) {
    let out = &mut out[..4 * LANES];
    match *p {
        Sampler::Uniform { lo, range, hi } => {
            let (nlo, nhi) = (narrow(lo), narrow(hi));
            for k in 0..4 {
                for j in 0..LANES {
                    let x = narrow(unit_f32(w[k][j], bits).mul_add(range, lo));
                    out[4 * j + k].write(if x == nhi { nlo } else { x });
                }
            }
        }
        Sampler::Normal { mean, std } => {
            let mut z = [[0f32; LANES]; 4];
            for pair in 0..2 {
                for j in 0..LANES {
                    let (a, b) = normal_pair_f32(w[2 * pair][j], w[2 * pair + 1][j]);
                    z[2 * pair][j] = a;
                    z[2 * pair + 1][j] = b;
                }
            }
            for k in 0..4 {
                for j in 0..LANES {
                    out[4 * j + k].write(narrow(z[k][j].mul_add(std, mean)));
                }
            }
        }
        _ => {
            for j in 0..LANES {
                let v = block_f32([w[0][j], w[1][j], w[2][j], w[3][j]], p, bits, &narrow);
                for k in 0..4 {
                    out[4 * j + k].write(v[k]);
                }
            }
        }
    }
}

/// `(w >> (32 - bits)) * 2^-bits`: a uniform in `[0, 1)` of `bits` bits.
#[inline(always)]
fn unit_f32(w: u32, bits: u32) -> f32 {
    // (Through i32: exact below 2^24, and a signed conversion vectorizes.)
    (w >> (32 - bits)) as i32 as f32 * f32::from_bits((127 - bits) << 23)
}

/// A normal pair from two words (float32): Box-Muller.
#[inline(always)]
fn normal_pair_f32(w0: u32, w1: u32) -> (f32, f32) {
    let u1 = open_unit_f32(w0);
    let u2 = unit_f32(w1, 24);
    let r = (-2.0 * ln_f32(u1)).sqrt();
    let (s, c) = sincos_2pi_f32(u2);
    (r * c, r * s)
}

/// A uniform in `(0, 1]` of 24 bits (float32): never 0, so its logarithm
/// is finite.
#[inline(always)]
fn open_unit_f32(w: u32) -> f32 {
    ((w >> 8) + 1) as i32 as f32 * (1.0 / 16_777_216.0)
}

/// `tan(pi (u - 1/2))` as `-cos(pi u) / sin(pi u)`, from the sine and
/// cosine of `2 pi (u / 2)` (IEEE operations only, as the devices compute
/// them).
#[inline(always)]
fn cauchy_f32(u: f32) -> f32 {
    let (s, c) = sincos_2pi_f32(u * 0.5);
    -c / s
}

/// A float32-computed block: four uniforms of `bits` bits, or two normal
/// pairs, each rounded to `T` by `narrow`.
#[inline(always)]
fn block_f32<T: Copy + PartialEq>(
    words: [u32; 4],
    p: &Sampler<f32>,
    bits: u32,
    narrow: impl Fn(f32) -> T,
) -> [T; 4] {
    match *p {
        Sampler::Uniform { lo, range, hi } => words.map(|w| {
            let x = narrow(unit_f32(w, bits).mul_add(range, lo));
            if x == narrow(hi) { narrow(lo) } else { x }
        }),
        Sampler::Normal { mean, std } => {
            let (a, b) = normal_pair_f32(words[0], words[1]);
            let (c, d) = normal_pair_f32(words[2], words[3]);
            [a, b, c, d].map(|z| narrow(z.mul_add(std, mean)))
        }
        Sampler::LogNormal { mean, std } => {
            let (a, b) = normal_pair_f32(words[0], words[1]);
            let (c, d) = normal_pair_f32(words[2], words[3]);
            [a, b, c, d].map(|z| narrow(exp_f32(z.mul_add(std, mean))))
        }
        Sampler::Exponential { scale } => {
            words.map(|w| narrow((0.0 - ln_f32(open_unit_f32(w))) * scale))
        }
        Sampler::Cauchy { median, sigma } => {
            words.map(|w| narrow(cauchy_f32(unit_f32(w, 24)).mul_add(sigma, median)))
        }
        Sampler::Geometric { ln_q } => {
            words.map(|w| narrow((ln_f32(open_unit_f32(w)) / ln_q).ceil().max(1.0)))
        }
    }
}

fn sampler_f32(dist: Distribution) -> Sampler<f32> {
    match dist {
        Distribution::Uniform { lo, hi } => Sampler::Uniform {
            lo: lo as f32,
            range: (hi - lo) as f32,
            hi: hi as f32,
        },
        Distribution::Normal { mean, std } => Sampler::Normal {
            mean: mean as f32,
            std: std as f32,
        },
        Distribution::Exponential { lambda } => Sampler::Exponential {
            scale: (1.0 / lambda) as f32,
        },
        Distribution::Cauchy { median, sigma } => Sampler::Cauchy {
            median: median as f32,
            sigma: sigma as f32,
        },
        Distribution::Geometric { p } => Sampler::Geometric {
            ln_q: Distribution::geometric_log(p) as f32,
        },
        Distribution::LogNormal { mean, std } => Sampler::LogNormal {
            mean: mean as f32,
            std: std as f32,
        },
    }
}

macro_rules! float32_computed {
    ($($t:ty => $bits:expr, $narrow:expr;)*) => {$(
        impl RandomFloat for $t {
            const PER_BLOCK: usize = 4;
            type Params = Sampler<f32>;
            fn sampler(dist: Distribution) -> Sampler<f32> {
                sampler_f32(dist)
            }
            #[inline(always)]
            fn from_block(words: [u32; 4], p: &Sampler<f32>) -> [Self; 4] {
                block_f32(words, p, $bits, $narrow)
            }
            #[inline(always)]
            fn from_lanes(words: &[[u32; LANES]; 4], p: &Sampler<f32>, out: &mut [MaybeUninit<Self>]) {
                lanes_f32(words, p, $bits, $narrow, out)
            }
        }
    )*};
}
float32_computed! {
    f32 => 24, |x: f32| x;
    f16 => 11, f16::from_f32;
    bf16 => 8, bf16::from_f32;
}

/// 53 bits of two words as a uniform in `[0, 1)`.
#[inline(always)]
fn unit_f64(hi: u32, lo: u32) -> f64 {
    ((u64::from(hi) << 32 | u64::from(lo)) >> 11) as f64 * (1.0 / 9_007_199_254_740_992.0)
}

/// A normal pair from a block (float64): Box-Muller on 53-bit uniforms.
#[inline(always)]
fn normal_pair_f64(w: [u32; 4]) -> (f64, f64) {
    let u1 = unit_f64(w[0], w[1]) + 1.0 / 9_007_199_254_740_992.0;
    let u2 = unit_f64(w[2], w[3]);
    let r = (-2.0 * ln_f64(u1)).sqrt();
    let (s, c) = sincos_2pi_f64(u2);
    (r * c, r * s)
}

impl RandomFloat for f64 {
    const PER_BLOCK: usize = 2;
    type Params = Sampler<f64>;
    fn sampler(dist: Distribution) -> Sampler<f64> {
        match dist {
            Distribution::Uniform { lo, hi } => Sampler::Uniform {
                lo,
                range: hi - lo,
                hi,
            },
            Distribution::Normal { mean, std } => Sampler::Normal { mean, std },
            Distribution::Exponential { lambda } => Sampler::Exponential {
                scale: 1.0 / lambda,
            },
            Distribution::Cauchy { median, sigma } => Sampler::Cauchy { median, sigma },
            Distribution::Geometric { p } => Sampler::Geometric {
                ln_q: Distribution::geometric_log(p),
            },
            Distribution::LogNormal { mean, std } => Sampler::LogNormal { mean, std },
        }
    }
    #[inline(always)]
    fn from_lanes(w: &[[u32; LANES]; 4], p: &Sampler<f64>, out: &mut [MaybeUninit<Self>]) {
        let out = &mut out[..2 * LANES];
        match *p {
            Sampler::Normal { mean, std } => {
                let mut z = [[0f64; LANES]; 2];
                for j in 0..LANES {
                    let (a, b) = normal_pair_f64([w[0][j], w[1][j], w[2][j], w[3][j]]);
                    z[0][j] = a;
                    z[1][j] = b;
                }
                for k in 0..2 {
                    for j in 0..LANES {
                        out[2 * j + k].write(z[k][j].mul_add(std, mean));
                    }
                }
            }
            _ => {
                for j in 0..LANES {
                    let v = Self::from_block([w[0][j], w[1][j], w[2][j], w[3][j]], p);
                    out[2 * j].write(v[0]);
                    out[2 * j + 1].write(v[1]);
                }
            }
        }
    }

    #[inline(always)]
    fn from_block(w: [u32; 4], p: &Sampler<f64>) -> [Self; 4] {
        match *p {
            Sampler::Uniform { lo, range, hi } => {
                let at = |u: f64| {
                    let x = u.mul_add(range, lo);
                    if x == hi { lo } else { x }
                };
                [at(unit_f64(w[0], w[1])), at(unit_f64(w[2], w[3])), 0.0, 0.0]
            }
            Sampler::Normal { mean, std } => {
                let (a, b) = normal_pair_f64(w);
                [a.mul_add(std, mean), b.mul_add(std, mean), 0.0, 0.0]
            }
            Sampler::LogNormal { mean, std } => {
                let (a, b) = normal_pair_f64(w);
                [
                    exp_f64(a.mul_add(std, mean)),
                    exp_f64(b.mul_add(std, mean)),
                    0.0,
                    0.0,
                ]
            }
            Sampler::Exponential { scale } => {
                let at = |hi, lo| {
                    (0.0 - ln_f64(unit_f64(hi, lo) + 1.0 / 9_007_199_254_740_992.0)) * scale
                };
                [at(w[0], w[1]), at(w[2], w[3]), 0.0, 0.0]
            }
            Sampler::Cauchy { median, sigma } => {
                let at = |hi, lo| {
                    let (s, c) = sincos_2pi_f64(unit_f64(hi, lo) * 0.5);
                    (-c / s).mul_add(sigma, median)
                };
                [at(w[0], w[1]), at(w[2], w[3]), 0.0, 0.0]
            }
            Sampler::Geometric { ln_q } => {
                let at = |hi, lo| {
                    let u = unit_f64(hi, lo) + 1.0 / 9_007_199_254_740_992.0;
                    (ln_f64(u) / ln_q).ceil().max(1.0)
                };
                [at(w[0], w[1]), at(w[2], w[3]), 0.0, 0.0]
            }
        }
    }
}

/// What a whole-number fill ([`crate::backend::Random::fill_draws`]) makes
/// of element `i`'s 64 random bits (half of block `offset + i / 2`: words
/// 0 and 1 for even `i`, 2 and 3 for odd).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Draw {
    /// `low + floor(bits * range / 2^64)`: uniform on `low..low + range`
    /// (Lemire's multiply: no division, a bias below `range / 2^64`).
    Integers {
        /// The smallest value.
        low: i64,
        /// How many values (at least 1).
        range: u64,
    },
    /// 1 when the top 53 bits are below `threshold`, else 0: a Bernoulli
    /// trial of probability `threshold / 2^53`.
    Bernoulli {
        /// `ceil(p 2^53)`.
        threshold: u64,
    },
    /// The bits as an `i64`: every 64-bit integer (`random_(i64::MIN,
    /// None)`).
    Bits,
    /// Geometric (`geometric_` of an integer tensor): `max(1, ceil(ln(u) /
    /// ln_q))` in float64 for `u` in `(0, 1]` of 53 bits, saturated at
    /// `i64::MAX`.
    Geometric {
        /// The bits of `ln(1 - p)` (an `f64`).
        ln_q: u64,
    },
}

impl Draw {
    /// The trial of probability `p` in `[0, 1]` (exact for multiples of
    /// `2^-53`).
    pub fn bernoulli(p: f64) -> Draw {
        Draw::Bernoulli {
            threshold: (p * 9_007_199_254_740_992.0).ceil() as u64,
        }
    }

    /// The value of one element from its 64 bits.
    #[inline(always)]
    pub fn value(self, bits: u64) -> i64 {
        match self {
            Draw::Integers { low, range } => {
                low.wrapping_add(((u128::from(bits) * u128::from(range)) >> 64) as i64)
            }
            Draw::Bernoulli { threshold } => i64::from((bits >> 11) < threshold),
            Draw::Bits => bits as i64,
            Draw::Geometric { ln_q } => {
                let u = ((bits >> 11) + 1) as f64 * (1.0 / 9_007_199_254_740_992.0);
                let k = (ln_f64(u) / f64::from_bits(ln_q)).ceil().max(1.0);
                // (`as` saturates; the kernels compare first, as here.)
                if k >= 9_223_372_036_854_775_807.0 {
                    i64::MAX
                } else {
                    k as i64
                }
            }
        }
    }
}

/// Element `i`'s 64 bits from its block's words (see [`Draw`]).
#[inline(always)]
pub fn draw_bits(words: [u32; 4], i: usize) -> u64 {
    let (hi, lo) = if i.is_multiple_of(2) {
        (words[0], words[1])
    } else {
        (words[2], words[3])
    };
    u64::from(hi) << 32 | u64::from(lo)
}

/// Real element types that whole-number fills (`random_`, `randint_like`,
/// `bernoulli_`) write: integers, bool and the floating types.
#[diagnostic::on_unimplemented(
    message = "`random_`, `randint_like` and `bernoulli_` fill real tensors (integers, bool, floats), not `{Self}`",
    label = "this tensor holds `{Self}`",
    note = "PyTorch: \"random_kernel_cpu\" not implemented for 'ComplexFloat'"
)]
pub trait RandomWhole: Element {
    /// `v` as C++ converts it: integers wrap, floats round to nearest (the
    /// half types through float32), bool is `v != 0`.
    fn from_whole(v: i64) -> Self;
    /// Back to `i64` (C++'s truncating conversion; exact for the values
    /// [`from_whole`](Self::from_whole) makes of in-range integers).
    fn to_whole(self) -> i64;
    /// The largest value `random_()` makes: the dtype's largest integer (1
    /// for bool), `2^digits` for a floating type.
    const RANDOM_MAX: i64;
    /// The mantissa's digits of a floating type (PyTorch's
    /// `numeric_limits<T>::digits`), `None` for the others.
    const DIGITS: Option<u32>;
    /// The lowest and the largest finite value, as PyTorch's bound checks
    /// compare them.
    const BOUNDS: (f64, f64);
    /// The C++ type's name in PyTorch's bound checks.
    const CPP_NAME: &'static str;
}

macro_rules! whole_integers {
    ($($t:ty => $cpp:literal),*) => {$(
        impl RandomWhole for $t {
            #[inline(always)]
            fn from_whole(v: i64) -> Self {
                v as $t
            }
            fn to_whole(self) -> i64 {
                self as i64
            }
            const RANDOM_MAX: i64 = <$t>::MAX as i64;
            const DIGITS: Option<u32> = None;
            const BOUNDS: (f64, f64) = (<$t>::MIN as f64, <$t>::MAX as f64);
            const CPP_NAME: &'static str = $cpp;
        }
    )*};
}
whole_integers!(u8 => "unsigned char", i8 => "signed char", i16 => "short int", i32 => "int", i64 => "long int");

impl RandomWhole for bool {
    #[inline(always)]
    fn from_whole(v: i64) -> Self {
        v != 0
    }
    fn to_whole(self) -> i64 {
        i64::from(self)
    }
    const RANDOM_MAX: i64 = 1;
    const DIGITS: Option<u32> = None;
    const BOUNDS: (f64, f64) = (0.0, 1.0);
    const CPP_NAME: &'static str = "bool";
}

macro_rules! whole_floats {
    ($($t:ty => $digits:expr, $cpp:literal, $from:expr, $to:expr, $bounds:expr);*) => {$(
        impl RandomWhole for $t {
            #[inline(always)]
            fn from_whole(v: i64) -> Self {
                $from(v)
            }
            fn to_whole(self) -> i64 {
                $to(self)
            }
            const RANDOM_MAX: i64 = 1 << $digits;
            const DIGITS: Option<u32> = Some($digits);
            const BOUNDS: (f64, f64) = $bounds;
            const CPP_NAME: &'static str = $cpp;
        }
    )*};
}
whole_floats!(
    f32 => 24, "float", |v: i64| v as f32, |x: f32| x as i64, (f32::MIN as f64, f32::MAX as f64);
    f64 => 53, "double", |v: i64| v as f64, |x: f64| x as i64, (f64::MIN, f64::MAX);
    f16 => 11, "c10::Half", |v: i64| f16::from_f32(v as f32), |x: f16| x.to_f32() as i64, (-65504.0, 65504.0);
    bf16 => 8, "c10::BFloat16", |v: i64| bf16::from_f32(v as f32), |x: bf16| x.to_f32() as i64,
        (-3.389_531_389_251_535_5e38, 3.389_531_389_251_535_5e38)
);

/// Element types that `uniform_`, `normal_`, `rand`, `randn`, `rand_like`
/// and `randn_like` fill: the floating types, and the complex ones, whose
/// real and imaginary parts are filled as PyTorch fills them (through
/// `view_as_real`: both parts uniform in `[from, to)`, or normal of
/// standard deviation `std / sqrt(2)`, so that the complex number's is
/// `std`).
#[diagnostic::on_unimplemented(
    message = "random fills (`rand`, `randn`, `uniform_`, `normal_`) make floating or complex tensors, not `{Self}`",
    label = "this tensor holds `{Self}`",
    note = "PyTorch: \"check_uniform_bounds\" not implemented for 'Long'; fill a float tensor and `.cast()` it, or use `randint`"
)]
pub trait RandomValue: Element {
    /// The type each part is filled in (`Self` for the floating types).
    type Part: RandomFloat;
    /// Parts per element: 1, or 2 for complex numbers.
    const PARTS: usize;
}

impl<T: RandomFloat> RandomValue for T {
    type Part = T;
    const PARTS: usize = 1;
}

impl RandomValue for num_complex::Complex<f32> {
    type Part = f32;
    const PARTS: usize = 2;
}

impl RandomValue for num_complex::Complex<f64> {
    type Part = f64;
    const PARTS: usize = 2;
}

/// Element types `geometric_` fills: the floating types (from the float
/// fills, four or two per block) and the integers (from the whole-number
/// draws, in float64): PyTorch's, but bool and complex.
#[diagnostic::on_unimplemented(
    message = "`geometric_` fills floating and integer tensors, not `{Self}`",
    label = "this tensor holds `{Self}`",
    note = "PyTorch: \"geometric_cpu\" not implemented for 'Bool'"
)]
pub trait RandomGeometric: Element {
    /// Fills `out` with geometric numbers of success probability `p` (in
    /// `(0, 1)`) from the generator's next blocks.
    #[doc(hidden)]
    fn fill_geometric<D: crate::backend::Random>(
        out: crate::backend::StridedMut<'_, Self, D>,
        p: f64,
        generator: &mut super::Generator,
    ) -> Result<(), crate::error::Error>;
}

impl<T: RandomFloat> RandomGeometric for T {
    fn fill_geometric<D: crate::backend::Random>(
        out: crate::backend::StridedMut<'_, Self, D>,
        p: f64,
        generator: &mut super::Generator,
    ) -> Result<(), crate::error::Error> {
        crate::ops::random::fill(out, Distribution::Geometric { p }, generator)
    }
}

macro_rules! geometric_integers {
    ($($t:ty),*) => {$(
        impl RandomGeometric for $t {
            fn fill_geometric<D: crate::backend::Random>(
                out: crate::backend::StridedMut<'_, Self, D>,
                p: f64,
                generator: &mut super::Generator,
            ) -> Result<(), crate::error::Error> {
                let ln_q = Distribution::geometric_log(p).to_bits();
                crate::ops::random::fill_draws(out, Draw::Geometric { ln_q }, generator)
            }
        }
    )*};
}
geometric_integers!(u8, i8, i16, i32, i64);
