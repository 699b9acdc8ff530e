//! float32 `exp`, `tanh`, `sigmoid`, `ln`, `gelu` and `silu` as polynomials, vectorized across
//! SIMD lanes: each a function of one element whose loop over a slice
//! LLVM vectorizes, compiled three times (AVX-512 with FMA, AVX2 with FMA,
//! and the baseline) and chosen at run time (`is_x86_feature_detected!`),
//! never by the build machine.
//!
//! Every multiply-add is fused (`mul_add`), on every path: so the three
//! compilations, the scalar form that strided loops call, and the CUDA
//! kernels (`kernels/math.cuh`, `fmaf`) give the same bits. (A machine
//! without FMA computes the fused operations in software: right, slowly.
//! Every machine this project runs on has FMA.)
//!
//! - `exp`: Cephes' `expf` (a reduction by `ln 2` in two parts, a degree-6
//!   polynomial, two scalings by powers of two so that results down to the
//!   denormals come out right).
//! - `tanh`: below 0.625 in magnitude, Cephes' odd polynomial of degree 11;
//!   above, `(1 - e) / (1 + e)` with `e = exp(-2|x|)`, signed as `x`, the
//!   sums kept in two floats and the quotient corrected once.
//! - `sigmoid`: `1 / (1 + e)` with `e = exp(-|x|)`, or `e / (1 + e)`
//!   for negative `x` (no overflow where the result is a denormal), the
//!   sum kept in two floats and the quotient corrected once.
//! - `ln`: Cephes' `logf` (the exponent and a mantissa near 1 from the
//!   bits, a degree-8 polynomial, `ln 2` in two parts).
//! - `gelu`: `x / 2 (1 + erf(x / sqrt 2))` with `erf` as polynomials of
//!   our own fit (least squares; see `gelu`), `erfc` through `exp` where
//!   `1 + erf` would cancel, so that the negative side keeps its relative
//!   accuracy (PyTorch's float32 `gelu` is 0 from about -7.4 down).
//! - `silu`: `x / (1 + exp(-x))`, as PyTorch's.
//!
//! The unit tests bound each against a float64 reference over a sweep of
//! float32 arguments (see `ACCURACY`).

use crate::ops::functions::{retyped, retyped_out};
use core::mem::MaybeUninit;

/// The functions this module vectorizes.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum VectorFn {
    /// `e^x`.
    Exp,
    /// The hyperbolic tangent.
    Tanh,
    /// `1 / (1 + e^-x)`.
    Sigmoid,
    /// The natural logarithm (PyTorch's `log`).
    Ln,
    /// `x Φ(x)` (PyTorch's `gelu`).
    Gelu,
    /// `x / (1 + e^-x)` (PyTorch's `silu`).
    Silu,
}

/// `a * b + c`, fused with `FMA`.
#[inline(always)]
fn madd<const FMA: bool>(a: f32, b: f32, c: f32) -> f32 {
    if FMA { a.mul_add(b, c) } else { a * b + c }
}

/// Cephes' `expf`, the multiply-adds fused with `FMA` (softmax's kernels
/// also take it unfused on machines without FMA); NaN gives NaN, `-inf`
/// and anything below about -103.97 give 0, and above about 88.72 `inf`.
#[inline(always)]
pub(crate) fn exp_with<const FMA: bool>(x: f32) -> f32 {
    const LOG2E: f32 = core::f32::consts::LOG2_E;
    const LN2_HI: f32 = 0.693_359_4;
    const LN2_LO: f32 = -2.121_944_4e-4;
    // Rounds to the nearest integer, ties to even, for |v| < 2^22.
    const ROUND: f32 = 12_582_912.0;
    let x = x.clamp(-104.0, 88.8);
    let shifted = madd::<FMA>(x, LOG2E, ROUND);
    let fx = shifted - ROUND;
    let r = madd::<FMA>(fx, -LN2_LO, madd::<FMA>(fx, -LN2_HI, x));
    let r2 = r * r;
    let mut p = 1.987_569_1e-4;
    for c in [
        1.398_199_9e-3,
        8.333_452e-3,
        4.166_579_6e-2,
        1.666_666_5e-1,
        0.5,
    ] {
        p = madd::<FMA>(p, r, c);
    }
    let p = madd::<FMA>(p, r2, r + 1.0);
    // `fx` as an integer, read from the low bits of `shifted` (a
    // float-to-int conversion would not vectorize: Rust's saturates).
    // NaN gives some `n`, and `p` NaN keeps the result NaN.
    let n = (shifted.to_bits() as i32).wrapping_sub(0x4B40_0000);
    let half = n >> 1;
    let scale = |k: i32| f32::from_bits((k.wrapping_add(127) as u32) << 23);
    p * scale(half) * scale(n.wrapping_sub(half))
}

/// `e^x` (see the module's documentation).
#[inline(always)]
fn exp(x: f32) -> f32 {
    exp_with::<true>(x)
}

/// The hyperbolic tangent (see the module's documentation).
#[inline(always)]
fn tanh(x: f32) -> f32 {
    let a = x.abs();
    let z = x * x;
    let mut p: f32 = -5.704_988_7e-3;
    for c in [2.063_909e-2, -5.373_971_6e-2, 1.333_144_2e-1, -3.333_328e-1] {
        p = p.mul_add(z, c);
    }
    // (`x` itself where `x * x` is 0: keeps the sign of -0.0.)
    let small = if z == 0.0 { x } else { (p * z).mul_add(x, x) };
    // (1 - e) / (1 + e), both kept in two floats (1 >= e: the errors of
    // the sums are exact) and the quotient corrected once.
    let e = exp(-2.0 * a);
    let (num, den) = (1.0 - e, 1.0 + e);
    let (num_lo, den_lo) = ((1.0 - num) - e, (1.0 - den) + e);
    let q = num / den;
    let residual = (-q).mul_add(den, num) + num_lo - q * den_lo;
    let large = (q + residual / den).copysign(x);
    // (Both computed, one chosen: a select, which vectorizes.)
    if a < 0.625 { small } else { large }
}

/// `1 / (1 + e^-x)`, as `e / (1 + e)` with `e = e^x` below 0 (so that no
/// `e^-x` overflows where the result is a denormal), and 0 where PyTorch's
/// `e^-x` overflows. The sum `1 + e`
/// is kept as two floats and the quotient corrected by one step, so that
/// only `exp`'s error and one rounding remain.
#[inline(always)]
fn sigmoid(x: f32) -> f32 {
    let e = exp(-x.abs());
    let num = if x < 0.0 { e } else { 1.0 };
    // 1 + e exactly: hi + lo (1 >= e, so the error of the sum is exact).
    let hi = 1.0 + e;
    let lo = (1.0 - hi) + e;
    let q = num / hi;
    let residual = (-q).mul_add(hi, num) - q * lo;
    // PyTorch computes `1 / (1 + e^-x)`: 0 where `e^-x` overflows.
    if x <= OVERFLOWS {
        0.0
    } else {
        q + residual / hi
    }
}

/// The largest `x` whose `e^-x` overflows float32 (`-ln(f32::MAX)`,
/// rounded down to a float32).
const OVERFLOWS: f32 = -88.722_84;

/// The natural logarithm: Cephes' `logf`. The argument split into a
/// mantissa `m` in [sqrt(1/2), sqrt(2)) and an exponent `e` from its bits
/// (denormals scaled by 2^23 first), then `ln(m)` as `m - 1` plus a
/// degree-8 polynomial and `e * ln 2` in two parts. 0 gives `-inf`, `inf`
/// itself, a negative number or NaN gives NaN.
#[inline(always)]
fn ln(x: f32) -> f32 {
    const SQRT_HALF: f32 = core::f32::consts::FRAC_1_SQRT_2;
    let tiny = x < f32::MIN_POSITIVE;
    let scaled = if tiny { x * 8_388_608.0 } else { x };
    let bits = scaled.to_bits();
    let e = ((bits >> 23) & 0xff) as i32 - if tiny { 126 + 23 } else { 126 };
    // The mantissa in [0.5, 1).
    let m = f32::from_bits((bits & 0x007f_ffff) | 0x3f00_0000);
    let low = m < SQRT_HALF;
    let e = if low { e - 1 } else { e };
    let m = if low { m + m - 1.0 } else { m - 1.0 };
    let z = m * m;
    let mut p: f32 = 7.037_683_6e-2;
    for c in [
        -1.151_461e-1,
        1.167_699_9e-1,
        -1.242_014_1e-1,
        1.424_932_3e-1,
        -1.666_805_8e-1,
        2.000_071_4e-1,
        -2.499_999_4e-1,
        3.333_333e-1,
    ] {
        p = p.mul_add(m, c);
    }
    let fe = e as f32;
    let y = p * m * z;
    let y = fe.mul_add(-2.121_944_4e-4, y);
    let y = (-0.5f32).mul_add(z, y);
    let r = fe.mul_add(0.693_359_4, m + y);
    if x == f32::INFINITY {
        x
    } else if x == 0.0 {
        f32::NEG_INFINITY
    } else if x > 0.0 {
        r
    } else {
        f32::NAN
    }
}

/// `c0 v^n + c1 v^(n-1) + ... + cn` by Horner's rule, every step a fused
/// multiply-add (unrolled, so that the loop around it vectorizes).
macro_rules! horner {
    ($v:expr; $c0:expr $(, $c:expr)*) => {{
        let v: f32 = $v;
        let p: f32 = $c0;
        $(let p = p.mul_add(v, $c);)*
        p
    }};
}

/// `x Φ(x) = x / 2 (1 + erf(x / sqrt 2))`. With `y = x / sqrt 2`: for
/// `y` in (-0.5, 1), `erf(y) = y P(y^2)` (a degree-7 polynomial, a
/// least-squares fit within 4e-11 of `erf(y) / y`); elsewhere `1 + erf(y)`
/// is `2 - erfc(|y|)` or `erfc(|y|)`, with `erfc(a) = e^(-a^2) F(1/a) / a`
/// (`F` a degree-11 polynomial in `1/a - 0.55` for `a` in [1, 11], within
/// 2e-8 of `erfc(a) e^(a^2) a`, and one of degree 8 in `1/a - 1.5` for `a`
/// in [0.5, 1), within 5e-9) and `a^2 = x^2 / 2` kept exactly in two floats,
/// so that the negative side keeps its relative accuracy where `1 + erf`
/// cancels.
/// Zero below -14.8 (`erfc` underflows), NaN for `-inf` and NaN, as
/// PyTorch's.
#[inline(always)]
fn gelu(x: f32) -> f32 {
    let y = x * core::f32::consts::FRAC_1_SQRT_2;
    let a = y.abs();
    let z = y * y;
    let p = horner!(z; -9.635_096e-6, 1.125_467_75e-4, -8.482_513e-4, 5.220_923_6e-3,
        -2.686_539_3e-2, 1.128_378_2e-1, -3.761_263_8e-1, core::f32::consts::FRAC_2_SQRT_PI);
    let small = y.mul_add(p, 1.0);
    let t = 1.0 / a;
    // F on a in [1, 11] (t in [0.09, 1]) and on [0.5, 1) (t in (1, 2]).
    let far = horner!(t - 0.55; 0.125_403_78, -0.050_719_786, -0.099_010_46, 0.106_910_14,
        -0.059_883_542, 0.009_451_484, 0.049_809_285, -0.096_901_43, 0.098_359_26,
        -0.020_365_912, -0.170_035_12, 0.502_353_4);
    let near = horner!(t - 1.5; -4.462_091e-4, 9.492_809e-4, -1.488_085_5e-3, 2.044_333_6e-3,
        -1.164_898_5e-3, -5.931_855e-3, 3.315_694_6e-2, -1.183_980_5e-1, 3.595_229_4e-1);
    let q = if a < 1.0 { near } else { far };
    // a^2 = x^2 / 2 exactly as hi + lo (from x, not from the rounded y).
    let square = x * x;
    let (hi, lo) = (square * 0.5, x.mul_add(x, -square) * 0.5);
    let e = exp(-hi);
    let e = (-e).mul_add(lo, e);
    let erfc = if a > 10.5 { 0.0 } else { e * (q * t) };
    let large = if y > 0.0 { 2.0 - erfc } else { erfc };
    let one_plus = if (a < 1.0) & (y > -0.5) { small } else { large };
    x * 0.5 * one_plus
}

/// `x / (1 + e^-x)`, as PyTorch's `silu`.
#[inline(always)]
fn silu(x: f32) -> f32 {
    x / (1.0 + exp(-x))
}

/// `f` of one element.
#[inline(always)]
fn apply(f: VectorFn, x: f32) -> f32 {
    match f {
        VectorFn::Exp => exp(x),
        VectorFn::Tanh => tanh(x),
        VectorFn::Sigmoid => sigmoid(x),
        VectorFn::Ln => ln(x),
        VectorFn::Gelu => gelu(x),
        VectorFn::Silu => silu(x),
    }
}

/// `f` of each element of `a` into `out` (as long): one loop per function,
/// each vectorized by LLVM for the features of its caller.
#[inline(always)]
fn each(f: VectorFn, a: &[f32], out: &mut [MaybeUninit<f32>]) {
    // Plain loops, not closures: a closure is a function of its own, which
    // LLVM may leave out of line when its body is large (`gelu`), and then
    // without this caller's target features (its `mul_add`s become calls).
    macro_rules! each_with {
        ($g:ident) => {
            for (o, &x) in out.iter_mut().zip(a) {
                o.write($g(x));
            }
        };
    }
    match f {
        VectorFn::Exp => each_with!(exp),
        VectorFn::Tanh => each_with!(tanh),
        VectorFn::Sigmoid => each_with!(sigmoid),
        VectorFn::Ln => each_with!(ln),
        VectorFn::Gelu => each_with!(gelu),
        VectorFn::Silu => each_with!(silu),
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,fma")]
fn each_avx512(f: VectorFn, a: &[f32], out: &mut [MaybeUninit<f32>]) {
    each(f, a, out)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
fn each_avx2(f: VectorFn, a: &[f32], out: &mut [MaybeUninit<f32>]) {
    each(f, a, out)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "fma")]
fn apply_fma(f: VectorFn, x: f32) -> f32 {
    apply(f, x)
}

/// The widest float32 kernels this machine runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Simd {
    Avx512,
    Avx2,
    Baseline,
}

/// This machine's [`Simd`] (`is_x86_feature_detected!` caches what it
/// finds: a load and a test).
pub(crate) fn simd() -> Simd {
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx512f")
            && std::arch::is_x86_feature_detected!("fma")
        {
            return Simd::Avx512;
        }
        if std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("fma")
        {
            return Simd::Avx2;
        }
    }
    Simd::Baseline
}

/// Whether this machine fuses multiply-adds in hardware.
fn has_fma() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("fma")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// `f` of each element of `a` into `out` (as long), on this machine's
/// widest lanes.
pub(crate) fn map_slice(f: VectorFn, a: &[f32], out: &mut [MaybeUninit<f32>]) {
    match simd() {
        // SAFETY: the machine has the features this was compiled for.
        #[cfg(target_arch = "x86_64")]
        Simd::Avx512 => unsafe { each_avx512(f, a, out) },
        // SAFETY: as above.
        #[cfg(target_arch = "x86_64")]
        Simd::Avx2 => unsafe { each_avx2(f, a, out) },
        _ => each(f, a, out),
    }
}

/// `f` of one element: the same bits as [`map_slice`].
pub(crate) fn one(f: VectorFn, x: f32) -> f32 {
    #[cfg(target_arch = "x86_64")]
    if has_fma() {
        // SAFETY: the machine has FMA.
        return unsafe { apply_fma(f, x) };
    }
    apply(f, x)
}

/// `f` of each element of `a` into `out` (as long): [`map_slice`] when the
/// elements and results are float32, or float16 or bfloat16 ones converted
/// to float32 by blocks ([`halves_map_slice`]), else `scalar` of each.
#[inline(always)]
pub(crate) fn map_or_each<A: 'static + Copy, U: 'static>(
    f: VectorFn,
    a: &[A],
    out: &mut [MaybeUninit<U>],
    scalar: impl Fn(A) -> U,
) {
    if let (Some(a), Some(out)) = (retyped::<A, f32>(a), retyped_out::<U, f32>(out)) {
        return map_slice(f, a, out);
    }
    if let (Some(a), Some(out)) = (retyped::<A, half::f16>(a), retyped_out::<U, half::f16>(out)) {
        return halves_map_slice(f, a, out);
    }
    if let (Some(a), Some(out)) = (
        retyped::<A, half::bf16>(a),
        retyped_out::<U, half::bf16>(out),
    ) {
        return halves_map_slice(f, a, out);
    }
    for (o, &x) in out.iter_mut().zip(a) {
        o.write(scalar(x));
    }
}

/// `f` of float16 or bfloat16 elements: blocks converted to float32
/// (F16C's eight at a time where the machine has it, through `half`'s
/// slice conversions), [`map_slice`] on each, rounded back once. The bits of
/// the element functions, which compute in float32 on the same kernel and
/// round once too.
fn halves_map_slice<H>(f: VectorFn, a: &[H], out: &mut [MaybeUninit<H>])
where
    H: Copy + Default,
    [H]: half::slice::HalfFloatSliceExt,
{
    use half::slice::HalfFloatSliceExt;
    const BLOCK: usize = 512;
    let mut wide = [0f32; BLOCK];
    let mut mapped = [MaybeUninit::new(0f32); BLOCK];
    let mut narrow = [H::default(); BLOCK];
    for (a, out) in a.chunks(BLOCK).zip(out.chunks_mut(BLOCK)) {
        let n = out.len().min(a.len());
        a[..n].convert_to_f32_slice(&mut wide[..n]);
        map_slice(f, &wide[..n], &mut mapped[..n]);
        // SAFETY: every element of `mapped` was initialized when it was
        // made (and `map_slice` writes only initialized values), so its
        // first `n` are `n` initialized `f32`s; `MaybeUninit<f32>` has the
        // layout of `f32`.
        let mapped = unsafe { core::slice::from_raw_parts(mapped.as_ptr().cast::<f32>(), n) };
        narrow[..n].convert_from_f32_slice(mapped);
        for (o, &v) in out.iter_mut().zip(&narrow[..n]) {
            o.write(v);
        }
    }
}

/// `scalar` of each pair of `a` and `b` (as long as `out`) into `out`;
/// for float16 operands and results, `wide` of the pairs converted to
/// float32 by blocks (F16C's eight at a time where the machine has it,
/// through `half`'s slice conversions) and rounded back once: the bits of
/// `scalar`, which computes in float32 and rounds once too.
#[inline(always)]
pub(crate) fn halves_or_each<A: 'static + Copy, U: 'static>(
    a: &[A],
    b: &[A],
    out: &mut [MaybeUninit<U>],
    scalar: impl Fn(A, A) -> U,
    wide: impl Fn(f32, f32) -> f32,
) {
    use half::f16;
    use half::slice::HalfFloatSliceExt;
    if let (Some(a), Some(b)) = (retyped::<A, f16>(a), retyped::<A, f16>(b))
        && let Some(out) = retyped_out::<U, f16>(out)
    {
        const BLOCK: usize = 512;
        let (mut x, mut y) = ([0f32; BLOCK], [0f32; BLOCK]);
        let mut r = [f16::ZERO; BLOCK];
        for ((a, b), out) in a
            .chunks(BLOCK)
            .zip(b.chunks(BLOCK))
            .zip(out.chunks_mut(BLOCK))
        {
            let n = out.len().min(a.len()).min(b.len());
            a[..n].convert_to_f32_slice(&mut x[..n]);
            b[..n].convert_to_f32_slice(&mut y[..n]);
            for (x, &y) in x[..n].iter_mut().zip(&y[..n]) {
                *x = wide(*x, y);
            }
            r[..n].convert_from_f32_slice(&x[..n]);
            for (o, &v) in out.iter_mut().zip(&r[..n]) {
                o.write(v);
            }
        }
        return;
    }
    for ((o, &x), &y) in out.iter_mut().zip(a).zip(b) {
        o.write(scalar(x, y));
    }
}

/// `scalar` of each element of `a` into `out` (as long); for float16
/// elements and results, `wide` of the elements converted to float32 by
/// blocks (F16C where the machine has it) and rounded back once: the bits
/// of `scalar`, which computes in float32 and rounds once too.
#[inline(always)]
pub(crate) fn half_map_or_each<A: 'static + Copy, U: 'static>(
    a: &[A],
    out: &mut [MaybeUninit<U>],
    scalar: impl Fn(A) -> U,
    wide: impl Fn(f32) -> f32,
) {
    use half::f16;
    use half::slice::HalfFloatSliceExt;
    if let (Some(a), Some(out)) = (retyped::<A, f16>(a), retyped_out::<U, f16>(out)) {
        const BLOCK: usize = 512;
        let mut x = [0f32; BLOCK];
        let mut r = [f16::ZERO; BLOCK];
        for (a, out) in a.chunks(BLOCK).zip(out.chunks_mut(BLOCK)) {
            let n = out.len().min(a.len());
            a[..n].convert_to_f32_slice(&mut x[..n]);
            for x in &mut x[..n] {
                *x = wide(*x);
            }
            r[..n].convert_from_f32_slice(&x[..n]);
            for (o, &v) in out.iter_mut().zip(&r[..n]) {
                o.write(v);
            }
        }
        return;
    }
    for (o, &x) in out.iter_mut().zip(a) {
        o.write(scalar(x));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The distance in float32 units in the last place between `got` and
    /// the float64 `want` rounded to float32.
    fn ulps(got: f32, want: f64) -> u32 {
        let want = want as f32;
        if got.is_nan() && want.is_nan() {
            return 0;
        }
        let line = |v: f32| {
            let b = v.to_bits() as i64;
            if b < 0x8000_0000 { b } else { 0x8000_0000 - b }
        };
        (line(got) - line(want)).unsigned_abs() as u32
    }

    /// The largest error of each function, in float32 ulps against
    /// float64: what a sweep of every 7th float32 in [-110, 110] measured
    /// (`ln`: every 13th positive float32); this test takes every 193rd.
    const ACCURACY: [(VectorFn, u32); 6] = [
        (VectorFn::Exp, 1),
        (VectorFn::Tanh, 1),
        (VectorFn::Sigmoid, 2),
        (VectorFn::Ln, 1),
        (VectorFn::Gelu, 8),
        (VectorFn::Silu, 3),
    ];

    fn reference(f: VectorFn, x: f64) -> f64 {
        match f {
            VectorFn::Exp => x.exp(),
            VectorFn::Tanh => x.tanh(),
            VectorFn::Sigmoid if x <= f64::from(OVERFLOWS) => 0.0,
            VectorFn::Sigmoid => 1.0 / (1.0 + (-x).exp()),
            VectorFn::Ln => x.ln(),
            // Below -14.8 the float32 result is 0 or a denormal of a few
            // units (compared in ulps, those count as equal below).
            VectorFn::Gelu => x * 0.5 * libm_erfc_neg(x),
            // PyTorch's `x / (1 + e^-x)`: -0 where `e^-x` overflows.
            VectorFn::Silu if x <= f64::from(OVERFLOWS) => -0.0,
            VectorFn::Silu => x / (1.0 + (-x).exp()),
        }
    }

    /// `1 + erf(x / sqrt 2)`, without cancellation for negative `x`.
    fn libm_erfc_neg(x: f64) -> f64 {
        unsafe extern "C" {
            // SAFETY: a pure C function of one float, defined for every
            // input.
            safe fn erfc(x: f64) -> f64;
        }
        erfc(-x * core::f64::consts::FRAC_1_SQRT_2)
    }

    /// Every 193rd float32 between -110 and 110 (both signs, the
    /// denormals' neighbours, the branch points and the saturations):
    /// 11.6M values, about 22,000 in each binade.
    fn sweep() -> Vec<f32> {
        let top = 110.0f32.to_bits();
        (0..top)
            .step_by(193)
            .flat_map(|b| [f32::from_bits(b), -f32::from_bits(b)])
            .collect()
    }

    /// Every vectorized function.
    const EVERY: [VectorFn; 6] = [
        VectorFn::Exp,
        VectorFn::Tanh,
        VectorFn::Sigmoid,
        VectorFn::Ln,
        VectorFn::Gelu,
        VectorFn::Silu,
    ];

    /// The half types' blocks (converted to float32, mapped on the
    /// vectorized kernel, rounded back) give the bits of each element's own
    /// function, for every float16 and bfloat16 value (the unsafe read of
    /// the mapped block included), at lengths that end mid-block.
    #[test]
    fn half_blocks_match_each_element_for_every_value() {
        use half::{bf16, f16};
        // Every value of `$h`, mapped whole and at lengths that end
        // mid-block, against each element's own function.
        macro_rules! check {
            ($h:ty, $f:expr) => {
                let all: Vec<$h> = (0..=u16::MAX).map(<$h>::from_bits).collect();
                for n in [all.len(), 700, 1] {
                    let mut out = vec![MaybeUninit::new(<$h>::ZERO); n];
                    let own = |x: $h| <$h>::from_f32(one($f, x.to_f32()));
                    map_or_each($f, &all[..n], &mut out, own);
                    for (&x, o) in all.iter().zip(&out) {
                        // SAFETY: map_or_each wrote every element (and each
                        // was initialized when made).
                        let got = unsafe { o.assume_init() };
                        let want = own(x);
                        assert!(
                            got.to_bits() == want.to_bits() || (got.is_nan() && want.is_nan()),
                            "{:?} {} {x}",
                            $f,
                            stringify!($h)
                        );
                    }
                }
            };
        }
        for f in EVERY {
            check!(f16, f);
            check!(bf16, f);
        }
    }

    #[test]
    fn each_function_is_within_its_bound_of_float64() {
        // `ln` over every 193rd positive float32, denormals to the largest.
        // (The functions run side by side: this test is the longest of the
        // unit tests in a debug build.)
        use rayon::prelude::*;
        ACCURACY.par_iter().for_each(|&(f, bound)| {
            let xs: Vec<f32> = if f == VectorFn::Ln {
                (1..f32::MAX.to_bits())
                    .step_by(193)
                    .map(f32::from_bits)
                    .collect()
            } else {
                sweep()
            };
            let mut out = vec![MaybeUninit::uninit(); xs.len()];
            map_slice(f, &xs, &mut out);
            let mut worst = (0, 0.0f32);
            for (&x, o) in xs.iter().zip(&out) {
                // SAFETY: `map_slice` wrote every element.
                let got = unsafe { o.assume_init() };
                let e = ulps(got, reference(f, f64::from(x)));
                if e > worst.0 {
                    worst = (e, x);
                }
            }
            assert!(worst.0 <= bound, "{f:?}: {} ulps at {}", worst.0, worst.1);
        });
    }

    #[test]
    fn every_path_gives_the_same_bits() {
        let xs: Vec<f32> = sweep().into_iter().step_by(13).collect();
        for f in EVERY {
            let mut wide = vec![MaybeUninit::uninit(); xs.len()];
            map_slice(f, &xs, &mut wide);
            let mut base = vec![MaybeUninit::uninit(); xs.len()];
            each(f, &xs, &mut base);
            for ((&x, w), b) in xs.iter().zip(&wide).zip(&base) {
                // SAFETY: both loops wrote every element.
                let (w, b) = unsafe { (w.assume_init(), b.assume_init()) };
                let o = one(f, x);
                assert!(
                    w.to_bits() == b.to_bits() && w.to_bits() == o.to_bits(),
                    "{f:?}({x}): {w} / {b} / {o}"
                );
            }
        }
    }

    #[test]
    fn the_edges_are_pytorchs() {
        for f in EVERY {
            assert!(one(f, f32::NAN).is_nan(), "{f:?}(NaN)");
        }
        assert_eq!(one(VectorFn::Ln, 0.0), f32::NEG_INFINITY);
        assert_eq!(one(VectorFn::Ln, -0.0), f32::NEG_INFINITY);
        assert_eq!(one(VectorFn::Ln, f32::INFINITY), f32::INFINITY);
        assert!(one(VectorFn::Ln, -1.0).is_nan() && one(VectorFn::Ln, f32::NEG_INFINITY).is_nan());
        assert_eq!(one(VectorFn::Ln, 1.0).to_bits(), 0);
        assert_eq!(
            one(VectorFn::Ln, f32::from_bits(1)),
            (f64::from(f32::from_bits(1))).ln() as f32
        );
        assert_eq!(one(VectorFn::Exp, f32::NEG_INFINITY), 0.0);
        assert_eq!(one(VectorFn::Exp, f32::INFINITY), f32::INFINITY);
        assert_eq!(one(VectorFn::Exp, 0.0), 1.0);
        assert_eq!(one(VectorFn::Tanh, f32::INFINITY), 1.0);
        assert_eq!(one(VectorFn::Tanh, f32::NEG_INFINITY), -1.0);
        assert_eq!(one(VectorFn::Tanh, -0.0).to_bits(), (-0.0f32).to_bits());
        assert_eq!(one(VectorFn::Tanh, 1e-30), 1e-30);
        assert_eq!(one(VectorFn::Sigmoid, f32::NEG_INFINITY), 0.0);
        assert_eq!(one(VectorFn::Sigmoid, f32::INFINITY), 1.0);
        assert_eq!(one(VectorFn::Sigmoid, 0.0), 0.5);
        // PyTorch's 1 / (1 + inf) below -ln(f32::MAX); a denormal above.
        assert_eq!(one(VectorFn::Sigmoid, -100.0), 0.0);
        assert_eq!(one(VectorFn::Sigmoid, OVERFLOWS), 0.0);
        let above = f32::from_bits(OVERFLOWS.to_bits() - 1);
        assert!(one(VectorFn::Sigmoid, above) > 0.0);
        assert!((-above as f64).exp() < f64::from(f32::MAX));
    }

    #[test]
    fn float16_blocks_give_the_scalar_bits() {
        use half::f16;
        // Every float16 against a few partners (NaNs, infinities, both
        // zeros, denormals, overflow to infinity), a length that ends in a
        // partial block.
        let a: Vec<f16> = (0..=u16::MAX).map(f16::from_bits).collect();
        for partner in [0x3c00u16, 0x8000, 0x7c00, 0x0001, 0x7bff, 0xfe00, 0x4d2a] {
            let b = vec![f16::from_bits(partner); a.len()];
            for (op, wide) in [
                (0, (|x, y| x + y) as fn(f32, f32) -> f32),
                (1, |x, y| x * y),
                (2, |x, y| x - y),
                (3, |x, y| x / y),
            ] {
                let scalar = |x: f16, y: f16| f16::from_f32(wide(x.to_f32(), y.to_f32()));
                let mut out = vec![MaybeUninit::uninit(); a.len() - 3];
                halves_or_each(&a[3..], &b[3..], &mut out, scalar, wide);
                for (i, o) in out.iter().enumerate() {
                    // SAFETY: written above.
                    let got = unsafe { o.assume_init() };
                    let want = scalar(a[i + 3], b[i + 3]);
                    // (`half`'s own operators round the same float32 value.)
                    let own = [
                        a[i + 3] + b[i + 3],
                        a[i + 3] * b[i + 3],
                        a[i + 3] - b[i + 3],
                        a[i + 3] / b[i + 3],
                    ];
                    assert!(own[op].to_bits() == want.to_bits() || want.is_nan());
                    assert!(
                        got.to_bits() == want.to_bits() || (got.is_nan() && want.is_nan()),
                        "op {op}: {:?} and {partner:#x}: {got:?} vs {want:?}",
                        a[i + 3]
                    );
                }
            }
        }
    }

    #[test]
    fn other_types_take_the_scalar_function() {
        let a = [1.0f64, 2.0];
        let mut out = [MaybeUninit::<f64>::uninit(); 2];
        map_or_each(VectorFn::Exp, &a, &mut out, |x: f64| x * 10.0);
        // SAFETY: written above.
        assert_eq!(
            unsafe { [out[0].assume_init(), out[1].assume_init()] },
            [10.0, 20.0]
        );
        let a = [0.0f32, 1.0];
        let mut out = [MaybeUninit::<f32>::uninit(); 2];
        map_or_each(VectorFn::Tanh, &a, &mut out, |_| f32::NAN);
        // SAFETY: written above.
        assert_eq!(unsafe { out[0].assume_init() }, 0.0);
    }
}

/// `f` of each triple of `a`, `b` and `c` (as long as `out`) into `out`,
/// in a loop compiled for this machine's widest lanes with FMA, so that the
/// element functions' `mul_add` is one instruction (a call to the C
/// library's `fma` otherwise) and the loop vectorizes: the same bits.
#[inline(always)]
pub(crate) fn fused_each<A: Copy, B: Copy, C: Copy, U>(
    a: &[A],
    b: &[B],
    c: &[C],
    out: &mut [MaybeUninit<U>],
    f: impl Fn(A, B, C) -> U,
) {
    match simd() {
        // SAFETY: the machine has the features this was compiled for.
        #[cfg(target_arch = "x86_64")]
        Simd::Avx512 => unsafe { each3_avx512(a, b, c, out, f) },
        // SAFETY: as above.
        #[cfg(target_arch = "x86_64")]
        Simd::Avx2 => unsafe { each3_avx2(a, b, c, out, f) },
        _ => each3(a, b, c, out, f),
    }
}

#[inline(always)]
fn each3<A: Copy, B: Copy, C: Copy, U>(
    a: &[A],
    b: &[B],
    c: &[C],
    out: &mut [MaybeUninit<U>],
    f: impl Fn(A, B, C) -> U,
) {
    let n = out.len().min(a.len()).min(b.len()).min(c.len());
    let (a, b, c) = (&a[..n], &b[..n], &c[..n]);
    for (((o, &x), &y), &z) in out[..n].iter_mut().zip(a).zip(b).zip(c) {
        o.write(f(x, y, z));
    }
}

/// [`each3`] compiled with each feature set, chosen by [`fused_each`].
macro_rules! each3_with {
    ($($name:ident: $features:literal),*) => {$(
        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = $features)]
        fn $name<A: Copy, B: Copy, C: Copy, U>(
            a: &[A],
            b: &[B],
            c: &[C],
            out: &mut [MaybeUninit<U>],
            f: impl Fn(A, B, C) -> U,
        ) {
            each3(a, b, c, out, f)
        }
    )*};
}
each3_with!(each3_avx512: "avx512f,fma", each3_avx2: "avx2,fma");
