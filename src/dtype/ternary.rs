//! The element functions of three numbers in the pointwise catalogue:
//! `addcmul` ([`Addcmul`]), `addcdiv` and `lerp` ([`Interpolate`]), and which
//! element types have them.
//!
//! Each computes as PyTorch's CPU kernels do, in PyTorch's *opmath* type
//! ([`Addcmul::Opmath`]: float32 for float16 and bfloat16, rounded once at
//! the end; the type itself otherwise), with the multiply-adds that
//! PyTorch's build fuses fused here too (`mul_add`), so the bits agree:
//! - `addcmul(x, t1, t2, v)` is `fma(v * t1, t2, x)`; integers wrap.
//! - `addcdiv(x, t1, t2, v)` is `x + (v * t1) / t2`.
//! - `lerp(start, end, w)` is `fma(w, end - start, start)` when `|w| < 0.5`,
//!   else `fma(w - 1, end - start, end)`: exact at both ends.
//!
//! Complex numbers use the textbook product (as the device kernels) and
//! Smith's division, without fused steps.
//!
//! ```
//! use shaped::dtype::Scalar;
//! use shaped::dtype::ternary::{Addcmul, Interpolate};
//! let v = f32::opmath_of(Scalar::Float(0.5)).unwrap();
//! assert_eq!(1.0f32.addcmul(2.0, 3.0, v), 4.0);
//! assert_eq!(1.0f32.addcdiv(2.0, 4.0, v), 1.25);
//! assert_eq!(1.0f32.lerp(3.0, v), 2.0);
//! assert_eq!(u8::opmath_of(Scalar::Int(300)), None); // PyTorch's overflow error
//! ```

use super::{Element, Scalar, complex_div};
use half::{bf16, f16};
use num_complex::Complex;

/// Element types with `addcmul`: all but bool.
#[diagnostic::on_unimplemented(
    message = "`addcmul` is not implemented for bool tensors (PyTorch: \"addcmul_cpu_out\" not implemented for 'Bool')",
    label = "the common type of these operands is `{Self}`",
    note = "cast the operands to an integer or floating type first: `.cast::<u8>()`"
)]
pub trait Addcmul: Element {
    /// The type the arithmetic runs in: PyTorch's `opmath_type`.
    type Opmath: Copy + Send + Sync + core::fmt::Debug + 'static;
    /// PyTorch's C++ name of [`Opmath`](Self::Opmath), for the text of a
    /// number that does not fit it.
    const OPMATH_NAME: &'static str;
    /// `value` in the opmath type (PyTorch's `value.to<opmath_t>()`), or
    /// `None` where PyTorch raises "value cannot be converted to type ..
    /// without overflow": a finite number out of the type's range, or a
    /// complex number with an imaginary part for a real type.
    fn opmath_of(value: Scalar) -> Option<Self::Opmath>;
    /// `self + value * t1 * t2`.
    fn addcmul(self, t1: Self, t2: Self, value: Self::Opmath) -> Self;
}

/// Element types with `lerp` and `addcdiv`: floating and complex.
#[diagnostic::on_unimplemented(
    message = "`lerp` and `addcdiv` need floating or complex tensors, not `{Self}`",
    label = "these operands hold `{Self}`",
    note = "PyTorch refuses integers here (\"lerp_kernel_scalar\" not implemented for 'Long'; \"Integer division with addcdiv is no longer supported\"): cast first, `.cast::<f32>()`"
)]
pub trait Interpolate: Addcmul {
    /// The element in the opmath type (exact).
    fn widen(self) -> Self::Opmath;
    /// `self + weight * (end - self)`, from the nearer end.
    fn lerp(self, end: Self, weight: Self::Opmath) -> Self;
    /// `self + value * t1 / t2`.
    fn addcdiv(self, t1: Self, t2: Self, value: Self::Opmath) -> Self;
}

/// A real number (a bool as 0 or 1, a complex one with no imaginary part)
/// as `f64`, or `None`.
fn real_of(value: Scalar) -> Option<f64> {
    match value {
        Scalar::Bool(b) => Some(f64::from(u8::from(b))),
        Scalar::Int(i) => Some(i as f64),
        Scalar::Float(x) => Some(x),
        Scalar::Complex(re, im) => (im == 0.0).then_some(re),
    }
}

/// `value` as float32, or `None` when finite and out of its range.
fn f32_of(value: Scalar) -> Option<f32> {
    if let Scalar::Int(i) = value {
        // (Rounded once, as C++'s conversion of an int64.)
        return Some(i as f32);
    }
    let x = real_of(value)?;
    let y = x as f32;
    (y.is_finite() || !x.is_finite()).then_some(y)
}

/// The real floating types: float32 and float64 compute in themselves,
/// the half types in float32.
macro_rules! real_floats {
    ($($t:ty => $opmath:ty, $name:literal, $of:expr, $widen:expr, $narrow:expr;)*) => {$(
        impl Addcmul for $t {
            type Opmath = $opmath;
            const OPMATH_NAME: &'static str = $name;
            fn opmath_of(value: Scalar) -> Option<$opmath> {
                $of(value)
            }
            #[inline(always)]
            fn addcmul(self, t1: Self, t2: Self, value: $opmath) -> Self {
                let w = $widen;
                $narrow((value * w(t1)).mul_add(w(t2), w(self)))
            }
        }
        impl Interpolate for $t {
            #[inline(always)]
            fn widen(self) -> $opmath {
                $widen(self)
            }
            #[inline(always)]
            fn lerp(self, end: Self, weight: $opmath) -> Self {
                let w = $widen;
                let (start, end) = (w(self), w(end));
                let diff = end - start;
                $narrow(if weight.abs() < 0.5 {
                    weight.mul_add(diff, start)
                } else {
                    (weight - 1.0).mul_add(diff, end)
                })
            }
            #[inline(always)]
            fn addcdiv(self, t1: Self, t2: Self, value: $opmath) -> Self {
                let w = $widen;
                $narrow(w(self) + value * w(t1) / w(t2))
            }
        }
    )*};
}
real_floats! {
    f16 => f32, "float", f32_of, |x: f16| x.to_f32(), f16::from_f32;
    bf16 => f32, "float", f32_of, |x: bf16| x.to_f32(), bf16::from_f32;
    f32 => f32, "float", f32_of, |x: f32| x, |x: f32| x;
    f64 => f64, "double", real_of, |x: f64| x, |x: f64| x;
}

/// The textbook complex product (as the device kernels compute it).
#[inline(always)]
fn complex_mul<R: num_traits::Float>(a: Complex<R>, b: Complex<R>) -> Complex<R> {
    Complex::new(a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re)
}

macro_rules! complex_floats {
    ($($r:ty, $name:literal, $of:expr;)*) => {$(
        impl Addcmul for Complex<$r> {
            type Opmath = Complex<$r>;
            const OPMATH_NAME: &'static str = $name;
            fn opmath_of(value: Scalar) -> Option<Self> {
                let (re, im) = match value {
                    Scalar::Complex(re, im) => (Scalar::Float(re), Scalar::Float(im)),
                    real => (real, Scalar::Float(0.0)),
                };
                Some(Complex::new($of(re)?, $of(im)?))
            }
            #[inline(always)]
            fn addcmul(self, t1: Self, t2: Self, value: Self) -> Self {
                self + complex_mul(complex_mul(value, t1), t2)
            }
        }
        impl Interpolate for Complex<$r> {
            #[inline(always)]
            fn widen(self) -> Self {
                self
            }
            #[inline(always)]
            fn lerp(self, end: Self, weight: Self) -> Self {
                let diff = end - self;
                if weight.re.hypot(weight.im) < 0.5 {
                    self + complex_mul(weight, diff)
                } else {
                    end + complex_mul(weight - Complex::new(1.0, 0.0), diff)
                }
            }
            #[inline(always)]
            fn addcdiv(self, t1: Self, t2: Self, value: Self) -> Self {
                self + complex_div(complex_mul(value, t1), t2)
            }
        }
    )*};
}
complex_floats! {
    f32, "c10::complex<float>", f32_of;
    f64, "c10::complex<double>", real_of;
}

/// The integer types: an integer must fit the type (uint8 also takes
/// -255..-1, which wrap: c10's rule for unsigned types), a floating number
/// must lie within its range and is truncated toward zero, NaN and complex
/// numbers with an imaginary part never fit; the arithmetic wraps.
macro_rules! integers {
    ($($t:ty, $name:literal;)*) => {$(
        impl Addcmul for $t {
            type Opmath = $t;
            const OPMATH_NAME: &'static str = $name;
            fn opmath_of(value: Scalar) -> Option<$t> {
                match value {
                    Scalar::Int(i) => {
                        let wraps = <$t>::MIN == 0 && i < 0 && i.unsigned_abs() <= <$t>::MAX as u64;
                        if wraps { Some(i as $t) } else { <$t>::try_from(i).ok() }
                    }
                    other => {
                        let x = real_of(other)?;
                        // (NaN fails both comparisons.)
                        (x >= <$t>::MIN as f64 && x <= <$t>::MAX as f64).then_some(x as $t)
                    }
                }
            }
            #[inline(always)]
            fn addcmul(self, t1: Self, t2: Self, value: Self) -> Self {
                self.wrapping_add(value.wrapping_mul(t1).wrapping_mul(t2))
            }
        }
    )*};
}
integers! {
    u8, "uint8_t";
    i8, "int8_t";
    i16, "int16_t";
    i32, "int";
    i64, "int64_t";
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_convert_as_pytorch_checks_them() {
        assert_eq!(f32::opmath_of(Scalar::Float(1e300)), None);
        assert_eq!(
            f32::opmath_of(Scalar::Float(f64::INFINITY)),
            Some(f32::INFINITY)
        );
        assert_eq!(f64::opmath_of(Scalar::Complex(1.0, 1.0)), None);
        assert_eq!(f64::opmath_of(Scalar::Complex(2.0, 0.0)), Some(2.0));
        assert_eq!(i64::opmath_of(Scalar::Float(-0.5)), Some(0));
        assert_eq!(i8::opmath_of(Scalar::Float(127.5)), None);
        assert_eq!(u8::opmath_of(Scalar::Int(-255)), Some(1));
        assert_eq!(u8::opmath_of(Scalar::Int(-256)), None);
        assert_eq!(u8::opmath_of(Scalar::Float(-0.5)), None);
        assert_eq!(i16::opmath_of(Scalar::Int(40_000)), None);
        assert_eq!(u8::opmath_of(Scalar::Float(f64::NAN)), None);
        assert_eq!(i32::opmath_of(Scalar::Bool(true)), Some(1));
        assert_eq!(
            Complex::<f32>::opmath_of(Scalar::Float(1e300)),
            None,
            "PyTorch: value cannot be converted to type c10::complex<float>"
        );
    }

    #[test]
    fn lerp_is_exact_at_both_ends_and_rounds_halves_once() {
        let (a, b) = (1.0e-3f32, 7.25f32);
        assert_eq!(a.lerp(b, 0.0), a);
        assert_eq!(a.lerp(b, 1.0), b);
        // float16 computes in float32 from the unrounded weight.
        let (x, y) = (f16::from_f32(1.0), f16::from_f32(2.0));
        assert_eq!(x.lerp(y, 0.3).to_f32(), f16::from_f32(1.3).to_f32());
        let z = Complex::new(1.0f64, 1.0);
        assert_eq!(
            z.lerp(Complex::new(3.0, -1.0), Complex::new(0.5, 0.0)),
            Complex::new(2.0, 0.0)
        );
    }

    #[test]
    fn integers_wrap() {
        assert_eq!(200u8.addcmul(16, 16, 1), 200u8.wrapping_add(0));
        assert_eq!(i64::MAX.addcmul(1, 1, 1), i64::MIN);
        assert_eq!(1.0f64.addcdiv(1.0, 0.0, 1.0), f64::INFINITY);
    }
}
