//! The logarithm and the sine and cosine of `2 pi u` that the normal
//! distribution needs, from additions, multiplications, fused
//! multiply-adds, one division and square roots only: IEEE operations that
//! round the same everywhere, so the CPU and the CUDA kernels
//! (`kernels/random.cuh`, the same steps) give the same bits. (The C
//! library's and CUDA's `logf`, `cosf` differ in their last bits.)
//!
//! - `ln(u)`: `u = 2^e m` with `m` in `[sqrt(1/2), sqrt(2))`, then
//!   `ln m = 2 atanh(s)`, `s = (m - 1) / (m + 1)`, a series in `s^2`
//!   (`|s| <= 0.1716`): within 1 ulp of the true value in the tests.
//! - `exp(x)`: `x = k ln 2 + r`, a Taylor polynomial of `e^r`, times `2^k`
//!   (the log-normal distribution).
//! - `sincos_2pi(u)`: `u` reduced to the nearest quarter turn `q / 4`
//!   (exactly: `u` is a multiple of `2^-24`, or of `2^-53`), the rest
//!   `x = 2 pi (u - q / 4)` in `[-pi/4, pi/4]` through Taylor series, then
//!   rotated by `q` quarter turns.
//!
//! ```
//! use shaped::random::math::{ln_f32, sincos_2pi_f64};
//! assert!((ln_f32(0.5) - 0.5f32.ln()).abs() <= f32::EPSILON);
//! let (s, c) = sincos_2pi_f64(0.125);
//! assert!((s - core::f64::consts::FRAC_1_SQRT_2).abs() < 1e-15 && (c - s).abs() < 1e-15);
//! ```

/// Declares `ln` and `sincos_2pi` for one float type.
macro_rules! random_math {
    ($ln:ident, $sincos:ident, $t:ty, $bits:ty, $mant:expr, $bias:expr, $one:expr,
     $ln2_hi:expr, $ln2_lo:expr, $two_pi:expr, [$($ln_c:expr),*], [$($sin_c:expr),*], [$($cos_c:expr),*]) => {
        /// The natural logarithm of a positive normal number (see the module).
        #[inline(always)]
        pub fn $ln(u: $t) -> $t {
            let bits = u.to_bits();
            let mut e = ((bits >> $mant) as i32) - $bias;
            let mut m = <$t>::from_bits((bits & ((1 << $mant) - 1)) | $one);
            if m > core::f64::consts::SQRT_2 as $t {
                m *= 0.5;
                e += 1;
            }
            let s = (m - 1.0) / (m + 1.0);
            let s2 = s * s;
            // 2 s (1 + s^2 / 3 + s^4 / 5 + ...), by Horner from the end.
            let mut p: $t = 0.0;
            for c in [$($ln_c),*] {
                p = p.mul_add(s2, c);
            }
            let ln_m = 2.0 * s * p;
            let e = e as $t;
            e.mul_add($ln2_hi, e.mul_add($ln2_lo, ln_m))
        }

        /// `(sin(2 pi u), cos(2 pi u))` for `u` in `[0, 1)` (see the module).
        #[inline(always)]
        pub fn $sincos(u: $t) -> ($t, $t) {
            let q = (u * 4.0 + 0.5).floor();
            let x = (u - q * 0.25) * $two_pi;
            let x2 = x * x;
            let mut sp: $t = 0.0;
            for c in [$($sin_c),*] {
                sp = sp.mul_add(x2, c);
            }
            let sin = (x * x2).mul_add(sp, x);
            let mut cp: $t = 0.0;
            for c in [$($cos_c),*] {
                cp = cp.mul_add(x2, c);
            }
            let cos = x2.mul_add(cp, 1.0);
            // Rotated by q quarter turns: (s, c), (c, -s), (-s, -c), (-c, s),
            // as selects (no branch: the loops over lanes vectorize).
            let q = q as u32;
            let odd = q & 1 != 0;
            let (a, b) = (if odd { cos } else { sin }, if odd { sin } else { cos });
            let a = if q & 2 != 0 { -a } else { a };
            let b = if (q + 1) & 2 != 0 { -b } else { b };
            (a, b)
        }
    };
}

random_math!(
    ln_f32,
    sincos_2pi_f32,
    f32,
    u32,
    23,
    127,
    0x3f80_0000,
    0.693_145_75,
    1.428_606_8e-6,
    core::f32::consts::TAU,
    [1.0 / 11.0, 1.0 / 9.0, 1.0 / 7.0, 1.0 / 5.0, 1.0 / 3.0, 1.0],
    [1.0 / 362_880.0, -1.0 / 5040.0, 1.0 / 120.0, -1.0 / 6.0],
    [
        -1.0 / 3_628_800.0,
        1.0 / 40_320.0,
        -1.0 / 720.0,
        1.0 / 24.0,
        -0.5
    ]
);

random_math!(
    ln_f64,
    sincos_2pi_f64,
    f64,
    u64,
    52,
    1023,
    0x3ff0_0000_0000_0000,
    6.931_471_803_691_238e-1,
    1.908_214_929_270_587_7e-10,
    core::f64::consts::TAU,
    [
        1.0 / 23.0,
        1.0 / 21.0,
        1.0 / 19.0,
        1.0 / 17.0,
        1.0 / 15.0,
        1.0 / 13.0,
        1.0 / 11.0,
        1.0 / 9.0,
        1.0 / 7.0,
        1.0 / 5.0,
        1.0 / 3.0,
        1.0
    ],
    [
        1.0 / 355_687_428_096_000.0,
        -1.0 / 1_307_674_368_000.0,
        1.0 / 6_227_020_800.0,
        -1.0 / 39_916_800.0,
        1.0 / 362_880.0,
        -1.0 / 5040.0,
        1.0 / 120.0,
        -1.0 / 6.0
    ],
    [
        -1.0 / 6_402_373_705_728_000.0,
        1.0 / 20_922_789_888_000.0,
        -1.0 / 87_178_291_200.0,
        1.0 / 479_001_600.0,
        -1.0 / 3_628_800.0,
        1.0 / 40_320.0,
        -1.0 / 720.0,
        1.0 / 24.0,
        -0.5
    ]
);

/// Declares `exp` for one float type: `x = k ln 2 + r` (Cody and Waite's
/// two-part `ln 2`, exact products), `e^r` for `|r| <= ln(2) / 2` by a
/// Taylor polynomial, then `2^k` in two exact factors (so that subnormal
/// results round once).
macro_rules! random_exp {
    ($exp:ident, $t:ty, $bits:ty, $mant:expr, $bias:expr, $over:expr, $under:expr,
     $ln2_hi:expr, $ln2_lo:expr, [$($c:expr),*]) => {
        /// `e^x`, within an ulp or two of the true value (see the module).
        #[inline(always)]
        pub fn $exp(x: $t) -> $t {
            if x.is_nan() {
                return x;
            }
            if x > $over {
                return <$t>::INFINITY;
            }
            if x < $under {
                return 0.0;
            }
            let k = (x * core::f64::consts::LOG2_E as $t + 0.5).floor();
            let r = k.mul_add(-$ln2_lo, k.mul_add(-$ln2_hi, x));
            let mut p: $t = 0.0;
            for c in [$($c),*] {
                p = p.mul_add(r, c);
            }
            let k = k as i32;
            let half = k / 2;
            let power = |e: i32| <$t>::from_bits(((e + $bias) as $bits) << $mant);
            p * power(half) * power(k - half)
        }
    };
}

random_exp!(
    exp_f32,
    f32,
    u32,
    23,
    127,
    88.722_84,
    -103.972_08,
    0.693_359_4,
    -2.121_944_4e-4,
    [
        1.0 / 5040.0,
        1.0 / 720.0,
        1.0 / 120.0,
        1.0 / 24.0,
        1.0 / 6.0,
        0.5,
        1.0,
        1.0
    ]
);

random_exp!(
    exp_f64,
    f64,
    u64,
    52,
    1023,
    709.782_712_893_384,
    -745.133_219_101_941_2,
    6.931_471_803_691_238e-1,
    1.908_214_929_270_587_7e-10,
    [
        1.0 / 6_227_020_800.0,
        1.0 / 479_001_600.0,
        1.0 / 39_916_800.0,
        1.0 / 3_628_800.0,
        1.0 / 362_880.0,
        1.0 / 40_320.0,
        1.0 / 5040.0,
        1.0 / 720.0,
        1.0 / 120.0,
        1.0 / 24.0,
        1.0 / 6.0,
        0.5,
        1.0,
        1.0
    ]
);

#[cfg(test)]
mod tests {
    use super::*;

    /// Against the C library in float64, over the uniforms the samplers
    /// feed them (multiples of `2^-24`, `2^-53`): within a couple of ulps.
    #[test]
    fn close_to_the_c_library() {
        let mut worst = [0f64; 4];
        for i in 1..=(1u32 << 24) / 4099 {
            let u = (i * 4099) as f32 * (1.0 / 16_777_216.0);
            let ln = f64::from(ln_f32(u));
            let want = f64::from(u).ln();
            worst[0] =
                worst[0].max((ln - want).abs() / f64::from(f32::EPSILON) / want.abs().max(1e-30));
            let (s, c) = sincos_2pi_f32(u);
            let (ws, wc) = (core::f64::consts::TAU * f64::from(u)).sin_cos();
            worst[1] = worst[1].max((f64::from(s) - ws).abs().max((f64::from(c) - wc).abs()));
            let v = f64::from(u) + f64::from(i) * 2f64.powi(-53) * 7.0;
            if v > 0.0 && v < 1.0 {
                let ln = ln_f64(v);
                worst[2] =
                    worst[2].max((ln - v.ln()).abs() / f64::EPSILON / v.ln().abs().max(1e-300));
                let (s, c) = sincos_2pi_f64(v);
                let (ws, wc) = (core::f64::consts::TAU * v).sin_cos();
                worst[3] = worst[3].max((s - ws).abs().max((c - wc).abs()));
            }
        }
        assert!(worst[0] <= 2.0, "ln_f32: {} ulps", worst[0]);
        assert!(
            worst[1] <= 4.0 * f64::from(f32::EPSILON),
            "sincos_2pi_f32: {}",
            worst[1]
        );
        assert!(worst[2] <= 2.0, "ln_f64: {} ulps", worst[2]);
        assert!(
            worst[3] <= 8.0 * f64::EPSILON,
            "sincos_2pi_f64: {}",
            worst[3]
        );
        let mut worst_exp = [0f64; 2];
        for i in 0..100_000 {
            let x = -104.0 + 193.0 * f64::from(i) / 100_000.0;
            let got = f64::from(exp_f32(x as f32));
            let want32 = f64::from((x as f32).exp());
            if (x as f32).exp().is_normal() && want32 < f64::from(f32::MAX) {
                worst_exp[0] =
                    worst_exp[0].max((got - want32).abs() / want32 / f64::from(f32::EPSILON));
            }
            let x = -746.0 + 1456.0 * f64::from(i) / 100_000.0;
            let got = exp_f64(x);
            let want = x.exp();
            if want.is_normal() && want < f64::MAX {
                worst_exp[1] = worst_exp[1].max((got - want).abs() / want / f64::EPSILON);
            }
        }
        assert!(worst_exp[0] <= 2.0, "exp_f32: {} ulps", worst_exp[0]);
        assert!(worst_exp[1] <= 2.0, "exp_f64: {} ulps", worst_exp[1]);
        assert_eq!((exp_f32(0.0), exp_f64(0.0)), (1.0, 1.0));
        assert_eq!(
            (exp_f32(89.0), exp_f64(710.0)),
            (f32::INFINITY, f64::INFINITY)
        );
        assert_eq!((exp_f32(-105.0), exp_f64(-746.0)), (0.0, 0.0));
        assert!(exp_f32(f32::NAN).is_nan() && exp_f64(f64::NAN).is_nan());
        assert!(
            exp_f32(-100.0) > 0.0 && exp_f64(-740.0) > 0.0,
            "subnormal results"
        );
        assert_eq!(ln_f32(1.0), 0.0);
        assert_eq!(sincos_2pi_f32(0.0), (0.0, 1.0));
        assert_eq!(sincos_2pi_f64(0.5).1, -1.0);
    }
}
