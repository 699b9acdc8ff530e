//! The element functions of two numbers in the pointwise catalogue:
//! `atan2`, `hypot`, `copysign`, `nextafter`, `logaddexp`, `logaddexp2` and
//! `xlogy` ([`PairMath`]), and which element types have them.
//!
//! Each computes as PyTorch's CPU kernels do: `atan2` and `hypot` are the C
//! library's; `logaddexp` is `max + log1p(exp(-|a - b|))` (an infinity
//! paired with itself gives itself), `logaddexp2` the same in base 2;
//! `xlogy` is NaN where `y` is NaN, 0 where `x` is 0, else `x * ln(y)`;
//! `nextafter` steps the bits (C's `nextafter`, and c10's for the half
//! types). float16 and bfloat16 compute in float32 and round once, but for
//! `nextafter` and `copysign`, which work on their own bits, and `xlogy`,
//! whose `ln(y)` PyTorch rounds to the half type before the product. Complex `logaddexp` is
//! PyTorch's `_log_add_exp_helper`.
//!
//! Which operand types have them, as PyTorch's dispatch:
//! - `atan2`, `copysign`, `xlogy`: real numbers; integers and bool compute
//!   in and give float32 ([`RealPair`]).
//! - `hypot`, `nextafter`, `logaddexp2`: real floating numbers only
//!   ([`FloatPair`]).
//! - `logaddexp`: real floating and complex numbers ([`LogAddExp`]).
//!
//! ```
//! use shaped::dtype::pairs::{LogAddExp, PairMath};
//! assert_eq!(PairMath::atan2(1.0f64, 1.0), core::f64::consts::FRAC_PI_4);
//! assert_eq!(PairMath::nextafter(1.0f32, 2.0), 1.0 + f32::EPSILON);
//! assert_eq!(PairMath::xlogy(0.0f32, 0.0), 0.0);
//! assert_eq!(LogAddExp::logaddexp(f64::NEG_INFINITY, f64::NEG_INFINITY), f64::NEG_INFINITY);
//! ```

use super::Element;
use super::math::FloatMath;
use half::{bf16, f16};
use num_complex::Complex;

/// The functions of two real numbers, in the real floating types.
pub trait PairMath: Copy {
    /// The angle of the point `(other, self)`: `atan2(self, other)`.
    fn atan2(self, other: Self) -> Self;
    /// `sqrt(self² + other²)` without overflow or underflow on the way.
    fn hypot(self, other: Self) -> Self;
    /// `|self|` with the sign bit of `sign`.
    fn copysign(self, sign: Self) -> Self;
    /// The next representable number after `self` toward `toward`
    /// (`toward` itself when they are equal).
    fn nextafter(self, toward: Self) -> Self;
    /// `ln(exp(self) + exp(other))` without overflow.
    fn logaddexp(self, other: Self) -> Self;
    /// `log2(2^self + 2^other)` without overflow.
    fn logaddexp2(self, other: Self) -> Self;
    /// `self * ln(y)`: 0 where `self` is 0 (unless `y` is NaN).
    fn xlogy(self, y: Self) -> Self;
}

/// `nextafter` on the bits of `from`, C's rule: NaN from NaN, `to` when
/// they are equal, the smallest subnormal toward `to` from a zero, else one
/// step of the bit pattern away from or toward zero.
macro_rules! next_after {
    ($from:expr, $to:expr, $t:ty, $bits:ty) => {{
        let (from, to): ($t, $t) = ($from, $to);
        #[allow(clippy::eq_op)]
        if from != from || to != to {
            return from + to;
        }
        if from == to {
            return to;
        }
        let sign = 1 << (<$bits>::BITS - 1);
        let (a, b) = (from.to_bits(), to.to_bits());
        if a & !sign == 0 {
            return <$t>::from_bits((b & sign) | 1);
        }
        let away = (a & !sign) > (b & !sign) || (a ^ b) & sign != 0;
        <$t>::from_bits(if away { a - 1 } else { a + 1 })
    }};
}

macro_rules! pair_math_native {
    ($($t:ident: $bits:ty, $inv_ln2:expr;)*) => {$(
        impl PairMath for $t {
            #[inline(always)]
            fn atan2(self, other: $t) -> $t {
                $t::atan2(self, other)
            }
            #[inline(always)]
            fn hypot(self, other: $t) -> $t {
                $t::hypot(self, other)
            }
            #[inline(always)]
            fn copysign(self, sign: $t) -> $t {
                $t::copysign(self, sign)
            }
            #[inline(always)]
            fn nextafter(self, toward: $t) -> $t {
                next_after!(self, toward, $t, $bits)
            }
            #[inline(always)]
            fn logaddexp(self, other: $t) -> $t {
                if self.is_infinite() && self == other {
                    return self;
                }
                // `std::max(a, b)`: `a` unless `a < b`.
                let max = if self < other { other } else { self };
                max + (-(self - other).abs()).exp().ln_1p()
            }
            #[inline(always)]
            fn logaddexp2(self, other: $t) -> $t {
                if self.is_infinite() && self == other {
                    return self;
                }
                let max = if self < other { other } else { self };
                // PyTorch's `m + log1p(..) * inv_log_2`, which its build
                // fuses into one multiply-add.
                (-(self - other).abs()).exp2().ln_1p().mul_add($inv_ln2, max)
            }
            #[inline(always)]
            fn xlogy(self, y: $t) -> $t {
                if y.is_nan() {
                    return $t::NAN;
                }
                if self == 0.0 {
                    return 0.0;
                }
                self * y.ln()
            }
        }
    )*};
}
pair_math_native! {
    f32: u32, (1.0 / core::f64::consts::LN_2) as f32;
    f64: u64, 1.0 / core::f64::consts::LN_2;
}

macro_rules! pair_math_half {
    ($($t:ident: $bits:ty;)*) => {$(
        impl PairMath for $t {
            #[inline(always)]
            fn atan2(self, other: $t) -> $t {
                $t::from_f32(self.to_f32().atan2(other.to_f32()))
            }
            #[inline(always)]
            fn hypot(self, other: $t) -> $t {
                $t::from_f32(self.to_f32().hypot(other.to_f32()))
            }
            #[inline(always)]
            fn copysign(self, sign: $t) -> $t {
                let mask = 1 << (<$bits>::BITS - 1);
                $t::from_bits((self.to_bits() & !mask) | (sign.to_bits() & mask))
            }
            #[inline(always)]
            fn nextafter(self, toward: $t) -> $t {
                next_after!(self, toward, $t, $bits)
            }
            #[inline(always)]
            fn logaddexp(self, other: $t) -> $t {
                $t::from_f32(PairMath::logaddexp(self.to_f32(), other.to_f32()))
            }
            #[inline(always)]
            fn logaddexp2(self, other: $t) -> $t {
                $t::from_f32(PairMath::logaddexp2(self.to_f32(), other.to_f32()))
            }
            /// `ln(y)` rounded to the type first, then the product rounded
            /// (PyTorch's `x * std::log(y)` on half numbers).
            #[inline(always)]
            fn xlogy(self, y: $t) -> $t {
                if y.is_nan() {
                    return $t::NAN;
                }
                if self.to_f32() == 0.0 {
                    return $t::ZERO;
                }
                let ln = $t::from_f32(y.to_f32().ln());
                $t::from_f32(self.to_f32() * ln.to_f32())
            }
        }
    )*};
}
pair_math_half! {
    f16: u16;
    bf16: u16;
}

/// Element types with `atan2`, `copysign` and `xlogy`: real numbers.
/// [`Real`](Self::Real) is what the functions compute in and give: the
/// type itself for the floating types, float32 for integers and bool, as
/// PyTorch's.
///
/// ```
/// use shaped::dtype::pairs::RealPair;
/// let x: <i64 as RealPair>::Real = 0.5f32;
/// # let _ = x;
/// ```
#[diagnostic::on_unimplemented(
    message = "`atan2`, `copysign` and `xlogy` need real numbers, not {Self}",
    label = "computed as {Self}",
    note = "PyTorch raises `\"atan2_cpu\" not implemented for 'ComplexFloat'` (and `copysign_cpu`, `xlogy_cpu`); apply them to `real()` and `imag()` instead"
)]
pub trait RealPair: Element {
    /// The type of the result, which the function computes in.
    type Real: PairMath + Element;
}
macro_rules! real_pair {
    ($($t:ty => $real:ty),*) => {$(
        impl RealPair for $t {
            type Real = $real;
        }
    )*};
}
real_pair!(f16 => f16, bf16 => bf16, f32 => f32, f64 => f64, u8 => f32, i8 => f32, i16 => f32,
    i32 => f32, i64 => f32, bool => f32);

/// The type [`RealPair`] functions of `T` operands give.
pub type RealPairOf<T> = <T as RealPair>::Real;

/// Element types with `hypot`, `nextafter` and `logaddexp2`: the real
/// floating types.
///
/// ```
/// use shaped::dtype::pairs::{FloatPair, PairMath};
/// fn hyp<T: FloatPair>(a: T, b: T) -> T { a.hypot(b) }
/// assert_eq!(hyp(3.0f32, 4.0), 5.0);
/// ```
#[diagnostic::on_unimplemented(
    message = "`hypot`, `nextafter` and `logaddexp2` need real floating numbers, not {Self}",
    label = "computed as {Self}",
    note = "PyTorch raises `\"hypot_cpu\" not implemented for 'Long'` (and `nextafter_cpu`, `logaddexp2_cpu`, and for complex numbers); `cast::<f32>()` the operands first"
)]
pub trait FloatPair: PairMath + Element {}
impl FloatPair for f16 {}
impl FloatPair for bf16 {}
impl FloatPair for f32 {}
impl FloatPair for f64 {}

/// Element types with `logaddexp`: the real floating and the complex
/// types.
///
/// ```
/// use shaped::dtype::pairs::LogAddExp;
/// use num_complex::Complex;
/// assert_eq!(LogAddExp::logaddexp(0.0f64, 0.0), 2f64.ln());
/// let z = LogAddExp::logaddexp(Complex::new(f64::NEG_INFINITY, 1.0), Complex::new(0.5, 0.0));
/// assert_eq!(z, Complex::new(0.5, 0.0));
/// ```
#[diagnostic::on_unimplemented(
    message = "`logaddexp` needs floating or complex numbers, not {Self}",
    label = "computed as {Self}",
    note = "PyTorch raises `\"logaddexp_cpu\" not implemented for 'Long'`; `cast::<f32>()` the operands first"
)]
pub trait LogAddExp: Element {
    /// `ln(exp(self) + exp(other))`.
    fn logaddexp(self, other: Self) -> Self;
}
macro_rules! log_add_exp_real {
    ($($t:ty),*) => {$(
        impl LogAddExp for $t {
            #[inline(always)]
            fn logaddexp(self, other: $t) -> $t {
                PairMath::logaddexp(self, other)
            }
        }
    )*};
}
log_add_exp_real!(f16, bf16, f32, f64);
macro_rules! log_add_exp_complex {
    ($($r:ty),*) => {$(
        impl LogAddExp for Complex<$r> {
            #[inline(always)]
            fn logaddexp(self, other: Complex<$r>) -> Complex<$r> {
                log_add_exp_complex(self, other)
            }
        }
    )*};
}
log_add_exp_complex!(f32, f64);

/// PyTorch's `_log_add_exp_helper` of complex numbers: the smaller and
/// larger by their real parts, NaN (in either part) spreading as NaN; two
/// infinite real parts of one sign give the smaller (-inf) or
/// `ln(exp(min) + exp(max))` (+inf); else `ln(1 + exp(min - max)) + max`,
/// with the C library's complex `exp` and `ln` (as PyTorch's `std::exp`
/// and `std::log`, and the kernels').
#[inline(always)]
pub(crate) fn log_add_exp_complex<F: num_traits::Float>(x: Complex<F>, y: Complex<F>) -> Complex<F>
where
    Complex<F>: FloatMath,
{
    let nan = |c: Complex<F>| c.re.is_nan() || c.im.is_nan();
    let (min, max) = if nan(y) {
        (y, y)
    } else if nan(x) {
        (x, x)
    } else if x.re < y.re {
        (x, y)
    } else {
        (y, x)
    };
    if nan(min) {
        Complex::new(F::nan(), F::nan())
    } else if !min.re.is_finite() && min.re == max.re {
        if min.re < F::zero() {
            min
        } else {
            FloatMath::ln(FloatMath::exp(min) + FloatMath::exp(max))
        }
    } else {
        let e = FloatMath::exp(min - max);
        FloatMath::ln(Complex::new(F::one(), F::zero()) + e) + max
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nextafter_steps_every_kind_of_value() {
        let smallest = f32::from_bits(1);
        assert_eq!(0.0f32.nextafter(1.0), smallest);
        assert_eq!(0.0f32.nextafter(-1.0), -smallest);
        assert_eq!((-0.0f32).nextafter(0.0).to_bits(), 0.0f32.to_bits());
        assert_eq!(smallest.nextafter(0.0), 0.0);
        assert_eq!(f32::MAX.nextafter(f32::INFINITY), f32::INFINITY);
        assert_eq!(f32::INFINITY.nextafter(0.0), f32::MAX);
        assert_eq!((-1.0f64).nextafter(0.0), -1.0 + f64::EPSILON / 2.0);
        assert!(f64::NAN.nextafter(0.0).is_nan() && 1.0f64.nextafter(f64::NAN).is_nan());
        assert_eq!(
            f16::ONE.nextafter(f16::MAX),
            f16::from_bits(f16::ONE.to_bits() + 1)
        );
        assert_eq!(bf16::ZERO.nextafter(bf16::NEG_ONE), bf16::from_bits(0x8001));
    }

    #[test]
    fn logaddexp_keeps_equal_infinities_and_spreads_nan() {
        assert_eq!(
            PairMath::logaddexp(f32::INFINITY, f32::INFINITY),
            f32::INFINITY
        );
        assert_eq!(
            PairMath::logaddexp2(f64::NEG_INFINITY, f64::NEG_INFINITY),
            f64::NEG_INFINITY
        );
        assert!(PairMath::logaddexp(f32::INFINITY, f32::NEG_INFINITY) == f32::INFINITY);
        assert!(PairMath::logaddexp(f32::NAN, 1.0).is_nan());
        assert_eq!(PairMath::logaddexp2(3.0f64, 3.0), 4.0);
        assert!(PairMath::xlogy(0.0f32, f32::NAN).is_nan());
        assert_eq!(PairMath::xlogy(0.0f32, f32::INFINITY), 0.0);
        assert_eq!(
            PairMath::copysign(bf16::ONE, bf16::from_f32(-0.0)),
            bf16::NEG_ONE
        );
    }
}
