//! The element functions of the pointwise catalogue beyond
//! [`super::math`]: the special functions (`erf`, `erfc`, `erfinv`,
//! `lgamma`, `digamma`) and the angle conversions ([`Special`]), and the
//! functions of signs and parts: `sign`, `signbit` ([`Signs`]), `sgn`
//! ([`Sgn`]), `frac` ([`Fractional`]), `square` ([`Square`]) and
//! `nan_to_num` ([`NanToNum`]).
//!
//! Each computes as PyTorch's CPU kernels do: `erf`, `erfc` and `lgamma`
//! are the C library's; `erfinv` and `digamma` are PyTorch's own algorithms
//! (Cephes' recurrence and asymptotic series), written again here step for
//! step, and `erfinv` a rational first guess refined by two Newton steps, as
//! PyTorch's fallback, but on `erfc` in the tails (PyTorch's CPU build calls
//! MKL's `erfinv`, accurate to an ulp; Newton on `erf` alone loses up to
//! hundreds of ulps near ±1); float16 and bfloat16 compute in float32 and
//! round once.
//!
//! ```
//! use shaped::dtype::special::{SpecialMath, Signs, Sgn, Square};
//! use num_complex::Complex;
//! assert_eq!(SpecialMath::erfinv(0.0f64), 0.0);
//! assert_eq!(SpecialMath::lgamma(1.0f32), 0.0);
//! assert_eq!(Signs::sign(-0.5f32), -1.0);
//! assert_eq!(Sgn::sgn(Complex::new(3.0f64, -4.0)), Complex::new(0.6, -0.8));
//! assert_eq!(Square::square(true), 1i64);
//! ```

use super::Element;
use super::math::{CMath, Rounding};
use half::{bf16, f16};
use num_complex::Complex;

/// The special functions and angle conversions, in the types they compute
/// in (`f32` and `f64`).
pub trait SpecialMath: Copy {
    /// The error function.
    fn erf(self) -> Self;
    /// `1 - erf(x)`, accurate where `erf` is near 1.
    fn erfc(self) -> Self;
    /// The inverse of `erf` on [-1, 1] (±inf at ±1, NaN outside).
    fn erfinv(self) -> Self;
    /// `ln |Γ(x)|` (+inf at the poles).
    fn lgamma(self) -> Self;
    /// `Γ'(x) / Γ(x)`: `-inf`/`+inf` at `+0`/`-0`, NaN at the negative
    /// integers.
    fn digamma(self) -> Self;
    /// Degrees to radians: `x` times `pi / 180` rounded to the type.
    fn deg2rad(self) -> Self;
    /// Radians to degrees: `x` times `180 / pi` rounded to the type.
    fn rad2deg(self) -> Self;
}

/// `pi / 180` and `180 / pi` as PyTorch writes them (its `M_PI_180` and
/// `M_180_PI`), rounded to float64.
const PI_OVER_180: f64 = 0.017_453_292_519_943_295;
const ONE_EIGHTY_OVER_PI: f64 = 57.295_779_513_082_32;

/// Cephes' coefficients of digamma's asymptotic series in `1 / x^2`,
/// highest power first.
const DIGAMMA_SERIES: [f64; 7] = [
    8.333_333_333_333_333e-2,
    -2.109_279_609_279_609_3e-2,
    7.575_757_575_757_576e-3,
    -4.166_666_666_666_667e-3,
    3.968_253_968_253_968e-3,
    -8.333_333_333_333_333e-3,
    8.333_333_333_333_333e-2,
];
/// `digamma(10)`.
const DIGAMMA_AT_10: f64 = 2.251_752_589_066_721;

/// The rational first guess of `erfinv` (PyTorch's `calc_erfinv`): for
/// `|y| <= 0.7`, `y a(y^2) / b(y^2)`; beyond, `c(z) / d(z)` in
/// `z = sqrt(-ln((1 - |y|) / 2))`. Lowest power first; `b` and `d` have a
/// leading 1 not written.
const ERFINV_A: [f64; 4] = [0.886_226_899, -1.645_349_621, 0.914_624_893, -0.140_543_331];
const ERFINV_B: [f64; 4] = [-2.118_377_725, 1.442_710_462, -0.329_097_515, 0.012_229_801];
const ERFINV_C: [f64; 4] = [-1.970_840_454, -1.624_906_493, 3.429_567_803, 1.641_345_311];
const ERFINV_D: [f64; 2] = [3.543_889_2, 1.637_067_8];

macro_rules! special_math {
    ($($r:ident),*) => {$(
        impl SpecialMath for $r {
            #[inline(always)]
            fn erf(self) -> $r {
                CMath::erf(self)
            }
            #[inline(always)]
            fn erfc(self) -> $r {
                CMath::erfc(self)
            }
            fn erfinv(self) -> $r {
                let y = self;
                let k = |i: f64| i as $r;
                let magnitude = y.abs();
                if magnitude > 1.0 {
                    return $r::NAN;
                }
                if magnitude == 1.0 {
                    return $r::INFINITY.copysign(y);
                }
                let (a, b, c, d) = (ERFINV_A, ERFINV_B, ERFINV_C, ERFINV_D);
                let mut x = if magnitude <= k(0.7) {
                    let z = y * y;
                    let num = ((k(a[3]) * z + k(a[2])) * z + k(a[1])) * z + k(a[0]);
                    let den = (((k(b[3]) * z + k(b[2])) * z + k(b[1])) * z + k(b[0])) * z + 1.0;
                    y * num / den
                } else {
                    let z = (-((1.0 - magnitude) / 2.0).ln()).sqrt();
                    let num = ((k(c[3]) * z + k(c[2])) * z + k(c[1])) * z + k(c[0]);
                    let den = (k(d[1]) * z + k(d[0])) * z + 1.0;
                    num.copysign(y) / den
                };
                // Two Newton steps on erf(x) = y; in the tails on
                // erfc(|x|) = 1 - |y| (exact there), which keeps the digits
                // that erf(x) - y would cancel.
                let slope = core::f64::consts::FRAC_2_SQRT_PI as $r;
                if magnitude <= k(0.7) {
                    for _ in 0..2 {
                        x -= (CMath::erf(x) - y) / (slope * (-x * x).exp());
                    }
                    return x;
                }
                let (tail, mut t) = (1.0 - magnitude, x.abs());
                for _ in 0..2 {
                    t += (CMath::erfc(t) - tail) / (slope * (-t * t).exp());
                }
                t.copysign(y)
            }
            #[inline(always)]
            fn lgamma(self) -> $r {
                CMath::lgamma(self)
            }
            fn digamma(self) -> $r {
                let mut x = self;
                if x == 0.0 {
                    return $r::INFINITY.copysign(-x);
                }
                if x < 0.0 {
                    if x == x.trunc() {
                        return $r::NAN;
                    }
                    // The reflection, with tan(pi r) of the fractional part
                    // r in float64 (more accurate than tan(pi x)).
                    let r = (x - x.trunc()) as f64;
                    let pi = core::f64::consts::PI;
                    return (1.0 - x).digamma() - (pi / (pi * r).tan()) as $r;
                }
                let mut result: $r = 0.0;
                while x < 10.0 {
                    result -= 1.0 / x;
                    x += 1.0;
                }
                if x == 10.0 {
                    return result + DIGAMMA_AT_10 as $r;
                }
                let mut series: $r = 0.0;
                if x < 1.0e17 {
                    let z = 1.0 / (x * x);
                    let poly = DIGAMMA_SERIES.iter().fold(0.0, |p: $r, &c| p * z + c as $r);
                    series = z * poly;
                }
                result + x.ln() - 0.5 / x - series
            }
            #[inline(always)]
            fn deg2rad(self) -> $r {
                self * PI_OVER_180 as $r
            }
            #[inline(always)]
            fn rad2deg(self) -> $r {
                self * ONE_EIGHTY_OVER_PI as $r
            }
        }
    )*};
}
special_math!(f32, f64);

/// Element types with the special functions `erf`, `erfc`, `erfinv`,
/// `lgamma`, `digamma` and the angle conversions `deg2rad`, `rad2deg`: real
/// numbers. Real floating types keep their type; integers and bool give
/// float32, as PyTorch's.
///
/// ```
/// use shaped::dtype::special::Special;
/// let x: <i64 as Special>::Real = 0.5f32;
/// let y: <half::f16 as Special>::Compute = 0.5f32;
/// # let _ = (x, y);
/// ```
#[diagnostic::on_unimplemented(
    message = "`erf`, `erfc`, `erfinv`, `lgamma`, `digamma`, `deg2rad` and `rad2deg` need real numbers, not {Self}",
    label = "the elements are {Self}",
    note = "PyTorch raises `\"erf_vml_cpu\" not implemented for 'ComplexFloat'` and `deg2rad is not supported for complex tensors.`; apply them to `real()` and `imag()` instead"
)]
pub trait Special: Element {
    /// The type of the result.
    type Real: Element;
    /// The type the functions compute in: float32 for the half types,
    /// integers and bool.
    type Compute: SpecialMath + Element;
}
macro_rules! special {
    ($($t:ty => $real:ty, $compute:ty);*) => {$(
        impl Special for $t {
            type Real = $real;
            type Compute = $compute;
        }
    )*};
}
special!(f16 => f16, f32; bf16 => bf16, f32; f32 => f32, f32; f64 => f64, f64;
    u8 => f32, f32; i8 => f32, f32; i16 => f32, f32; i32 => f32, f32; i64 => f32, f32;
    bool => f32, f32);

/// The type [`Special`] functions of a `T` give.
pub type RealOf<T> = <T as Special>::Real;

/// Element types with `frac`: the real floating types.
///
/// ```
/// use shaped::dtype::special::Fractional;
/// assert_eq!(Fractional::frac(-2.75f64), -0.75);
/// ```
#[diagnostic::on_unimplemented(
    message = "`frac` needs real floating numbers, not {Self}",
    label = "the elements are {Self}",
    note = "PyTorch raises `\"frac_cpu\" not implemented for 'Long'` (and 'ComplexFloat'); an integer's fractional part is 0"
)]
pub trait Fractional: Rounding {
    /// `x - trunc(x)`, with the sign of `x` (NaN for infinities).
    fn frac(self) -> Self;
}
impl Fractional for f32 {
    #[inline(always)]
    fn frac(self) -> f32 {
        self - self.trunc()
    }
}
impl Fractional for f64 {
    #[inline(always)]
    fn frac(self) -> f64 {
        self - self.trunc()
    }
}
impl Fractional for f16 {
    #[inline(always)]
    fn frac(self) -> f16 {
        f16::from_f32(self.to_f32().frac())
    }
}
impl Fractional for bf16 {
    #[inline(always)]
    fn frac(self) -> bf16 {
        bf16::from_f32(self.to_f32().frac())
    }
}

/// Element types with `sign` and `signbit`: real numbers and bool.
///
/// ```
/// use shaped::dtype::special::Signs;
/// assert_eq!(Signs::sign(f32::NAN), 0.0); // PyTorch's: not NaN
/// assert!(Signs::signbit(-0.0f64));
/// assert_eq!(Signs::sign(200u8), 1);
/// ```
#[diagnostic::on_unimplemented(
    message = "`sign` and `signbit` need real numbers, not {Self}",
    label = "the elements are {Self}",
    note = "PyTorch raises `Unlike NumPy, torch.sign is not intended to support complex numbers. Please use torch.sgn instead.` and `signbit is not implemented for complex tensors.`; `sgn()` gives z / |z|"
)]
pub trait Signs: Element {
    /// 1, -1 or 0: PyTorch's `(0 < x) - (x < 0)`, so ±0 and NaN give +0; a
    /// bool is its own sign.
    fn sign(self) -> Self;
    /// Whether the sign bit is set: true for -0.0 and negative NaN, and for
    /// negative integers.
    fn signbit(self) -> bool;
}
macro_rules! float_signs {
    ($($t:ty => $zero:expr, $one:expr);*) => {$(
        impl Signs for $t {
            #[inline(always)]
            fn sign(self) -> Self {
                if $zero < self {
                    $one
                } else if self < $zero {
                    -$one
                } else {
                    $zero
                }
            }
            #[inline(always)]
            fn signbit(self) -> bool {
                self.is_sign_negative()
            }
        }
    )*};
}
float_signs!(f32 => 0.0, 1.0; f64 => 0.0, 1.0; f16 => f16::ZERO, f16::ONE;
    bf16 => bf16::ZERO, bf16::ONE);
macro_rules! int_signs {
    ($($t:ty),*) => {$(
        impl Signs for $t {
            #[inline(always)]
            #[allow(unused_comparisons)]
            fn sign(self) -> Self {
                (0 < self) as $t - (self < 0) as $t
            }
            #[inline(always)]
            #[allow(unused_comparisons)]
            fn signbit(self) -> bool {
                self < 0
            }
        }
    )*};
}
int_signs!(u8, i8, i16, i32, i64);
impl Signs for bool {
    #[inline(always)]
    fn sign(self) -> bool {
        self
    }
    #[inline(always)]
    fn signbit(self) -> bool {
        false
    }
}

/// Element types with `sgn`: every type. A real number's is its
/// [`Signs::sign`]; a complex one's `z / |z|` (0 at 0), `|z|` without
/// overflow (PyTorch's vectorized kernel's `hypot`).
pub trait Sgn: Element {
    /// The sign, or the unit vector of a complex value.
    fn sgn(self) -> Self;
}
macro_rules! real_sgn {
    ($($t:ty),*) => {$(
        impl Sgn for $t {
            #[inline(always)]
            fn sgn(self) -> Self {
                Signs::sign(self)
            }
        }
    )*};
}
real_sgn!(f16, bf16, f32, f64, u8, i8, i16, i32, i64, bool);
macro_rules! complex_sgn {
    ($($r:ty),*) => {$(
        impl Sgn for Complex<$r> {
            #[inline(always)]
            fn sgn(self) -> Self {
                if self.re == 0.0 && self.im == 0.0 {
                    return Complex::new(0.0, 0.0);
                }
                let magnitude = self.re.hypot(self.im);
                Complex::new(self.re / magnitude, self.im / magnitude)
            }
        }
    )*};
}
complex_sgn!(f32, f64);

/// Element types with `square`: every type. Bool squares to int64, as
/// PyTorch's (`pow(x, 2)` promotes bool); integers wrap; float16 and
/// bfloat16 multiply in float32 and round once.
pub trait Square: Element {
    /// The result's type.
    type Output: Element;
    /// `x * x`.
    fn square(self) -> Self::Output;
}
macro_rules! square_impls {
    ($($t:ty => |$x:ident| $body:expr),*) => {$(
        impl Square for $t {
            type Output = $t;
            #[inline(always)]
            fn square(self) -> $t {
                let $x = self;
                $body
            }
        }
    )*};
}
square_impls!(f32 => |x| x * x, f64 => |x| x * x,
    f16 => |x| f16::from_f32(x.to_f32() * x.to_f32()),
    bf16 => |x| bf16::from_f32(x.to_f32() * x.to_f32()),
    u8 => |x| x.wrapping_mul(x), i8 => |x| x.wrapping_mul(x), i16 => |x| x.wrapping_mul(x),
    i32 => |x| x.wrapping_mul(x), i64 => |x| x.wrapping_mul(x),
    Complex<f32> => |z| z * z, Complex<f64> => |z| z * z);
impl Square for bool {
    type Output = i64;
    #[inline(always)]
    fn square(self) -> i64 {
        i64::from(self)
    }
}

/// Element types with `nan_to_num`: every type. NaN, +inf and -inf become
/// three replacements of the type's [`Part`](NanToNum::Part) (a complex
/// value's parts are replaced one by one); integers and bool are unchanged.
///
/// ```
/// use shaped::dtype::special::NanToNum;
/// let with = <f32 as NanToNum>::replacements(0.0, None, Some(-1.0));
/// assert_eq!(f32::INFINITY.nan_to_num(with), f32::MAX);
/// assert_eq!(f32::NEG_INFINITY.nan_to_num(with), -1.0);
/// ```
pub trait NanToNum: Element {
    /// The type of the replacements.
    type Part: Element;
    /// PyTorch's replacements for NaN, +inf and -inf: `nan`, and `posinf`
    /// and `neginf` or the part type's largest and lowest finite values,
    /// each converted to the part type as PyTorch converts them (float16
    /// and bfloat16 through float32: `1e10` becomes +inf in float16).
    fn replacements(nan: f64, posinf: Option<f64>, neginf: Option<f64>) -> [Self::Part; 3];
    /// The value with its NaN and infinities replaced.
    fn nan_to_num(self, with: [Self::Part; 3]) -> Self;
}
macro_rules! float_nan_to_num {
    ($($t:ty => $inf:expr, $max:expr, |$v:ident| $from:expr);*) => {$(
        impl NanToNum for $t {
            type Part = $t;
            fn replacements(nan: f64, posinf: Option<f64>, neginf: Option<f64>) -> [$t; 3] {
                let of = |$v: f64| -> $t { $from };
                [of(nan), posinf.map_or($max, of), neginf.map_or(-$max, of)]
            }
            #[inline(always)]
            fn nan_to_num(self, with: [$t; 3]) -> $t {
                #[allow(clippy::eq_op)]
                if self != self {
                    with[0]
                } else if self == $inf {
                    with[1]
                } else if self == -$inf {
                    with[2]
                } else {
                    self
                }
            }
        }
    )*};
}
float_nan_to_num!(f32 => f32::INFINITY, f32::MAX, |v| v as f32;
    f64 => f64::INFINITY, f64::MAX, |v| v;
    f16 => f16::INFINITY, f16::MAX, |v| f16::from_f32(v as f32);
    bf16 => bf16::INFINITY, bf16::MAX, |v| bf16::from_f32(v as f32));
macro_rules! exact_nan_to_num {
    ($($t:ty),*) => {$(
        impl NanToNum for $t {
            type Part = $t;
            fn replacements(_: f64, _: Option<f64>, _: Option<f64>) -> [$t; 3] {
                [<$t>::default(); 3]
            }
            #[inline(always)]
            fn nan_to_num(self, _: [$t; 3]) -> $t {
                self
            }
        }
    )*};
}
exact_nan_to_num!(u8, i8, i16, i32, i64, bool);
macro_rules! complex_nan_to_num {
    ($($r:ty),*) => {$(
        impl NanToNum for Complex<$r> {
            type Part = $r;
            fn replacements(nan: f64, posinf: Option<f64>, neginf: Option<f64>) -> [$r; 3] {
                <$r as NanToNum>::replacements(nan, posinf, neginf)
            }
            #[inline(always)]
            fn nan_to_num(self, with: [$r; 3]) -> Self {
                Complex::new(self.re.nan_to_num(with), self.im.nan_to_num(with))
            }
        }
    )*};
}
complex_nan_to_num!(f32, f64);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn erfinv_inverts_erf_and_keeps_its_edges() {
        for y in [-0.999f64, -0.7, -0.3, 0.0, 1e-8, 0.5, 0.7, 0.9, 0.999_999] {
            let x = y.erfinv();
            assert!(
                (SpecialMath::erf(x) - y).abs() <= 4e-16 * y.abs() + 1e-300,
                "{y}"
            );
        }
        assert_eq!(1.0f32.erfinv(), f32::INFINITY);
        assert_eq!((-1.0f64).erfinv(), f64::NEG_INFINITY);
        assert!(1.5f32.erfinv().is_nan());
        assert!((-0.0f64).erfinv().is_sign_negative());
    }

    #[test]
    fn digamma_meets_known_values() {
        let euler = 0.577_215_664_901_532_9;
        assert!((1.0f64.digamma() + euler).abs() < 1e-15);
        assert!((0.5f64.digamma() + euler + 2.0 * core::f64::consts::LN_2).abs() < 1e-15);
        assert_eq!(0.0f32.digamma(), f32::NEG_INFINITY);
        assert_eq!((-0.0f64).digamma(), f64::INFINITY);
        assert!((-3.0f64).digamma().is_nan());
        assert_eq!(10.0f64.digamma(), DIGAMMA_AT_10);
    }

    #[test]
    fn lgamma_is_reentrant_and_exact_at_small_integers() {
        assert_eq!(SpecialMath::lgamma(1.0f64), 0.0);
        assert_eq!(SpecialMath::lgamma(2.0f32), 0.0);
        assert!((SpecialMath::lgamma(0.5f64) - core::f64::consts::PI.sqrt().ln()).abs() < 1e-15);
        assert_eq!(SpecialMath::lgamma(-2.0f64), f64::INFINITY);
    }

    #[test]
    fn nan_to_num_replaces_parts_as_pytorch_converts_them() {
        let with = <f16 as NanToNum>::replacements(1.5, Some(1e10), None);
        assert_eq!(f16::INFINITY.nan_to_num(with), f16::INFINITY);
        assert_eq!(f16::NEG_INFINITY.nan_to_num(with), f16::MIN);
        assert_eq!(f16::NAN.nan_to_num(with), f16::from_f32(1.5));
        let z = Complex::new(f64::NAN, f64::NEG_INFINITY);
        let with = <Complex<f64> as NanToNum>::replacements(0.0, None, Some(-7.0));
        assert_eq!(z.nan_to_num(with), Complex::new(0.0, -7.0));
        assert_eq!(
            5i8.nan_to_num(<i8 as NanToNum>::replacements(1.0, None, None)),
            5
        );
    }
}
