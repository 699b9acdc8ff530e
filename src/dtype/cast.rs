//! Conversions between the twelve element types, as PyTorch converts
//! (`x.to(dtype)`, and every mixed-dtype operation on its way in and out).
//!
//! - floating or complex to integer: the real part, truncated toward zero
//!   through int64, then wrapped to the destination's width (as PyTorch on
//!   x86-64: `-1.0` to uint8 is 255, `300.7` is 44). A NaN, an infinity or a
//!   value outside int64 has no defined result in PyTorch (C++ undefined
//!   behaviour); here it saturates (NaN gives 0), never undefined behaviour.
//! - to bool: `x != 0` (a NaN is `true`; a complex value is `true` when
//!   either part is non-zero).
//! - complex to real: the real part.
//! - to float16 and bfloat16: through float32, rounding once more (as
//!   PyTorch's `Half(float)` and `BFloat16(float)` constructors do).
//! - bool to numbers: 0 or 1.
//!
//! ```
//! use shaped::dtype::cast::cast;
//! use num_complex::Complex;
//! assert_eq!(cast::<f32, i32>(-2.7), -2);
//! assert_eq!(cast::<f32, u8>(-1.0), 255);
//! assert!(cast::<f64, bool>(f64::NAN));
//! assert_eq!(cast::<Complex<f64>, f32>(Complex::new(1.5, -2.5)), 1.5);
//! assert_eq!(cast::<i64, half::f16>(70000), half::f16::INFINITY);
//! ```

use super::Element;
use core::any::Any;
use half::{bf16, f16};
use num_complex::Complex;

/// The conversions every element type supports, in and out: what
/// [`cast`] is made of.
pub trait Convert: Copy + 'static {
    /// The value (its real part) as float32, rounded once.
    fn to_f32(self) -> f32;
    /// The value (its real part) as float64, rounded once.
    fn to_f64(self) -> f64;
    /// The value (its real part) truncated toward zero to int64 (saturating;
    /// NaN gives 0).
    fn to_i64(self) -> i64;
    /// `self != 0`.
    fn to_bool(self) -> bool;
    /// The imaginary part as float32 (0 for real types).
    fn imag_f32(self) -> f32 {
        0.0
    }
    /// The imaginary part as float64 (0 for real types).
    fn imag_f64(self) -> f64 {
        0.0
    }
    /// `source` converted to this type.
    fn convert_from<S: Convert>(source: S) -> Self;
}

/// `x` as a `U`, with PyTorch's conversion rules (see the
/// [module](self)); the identity when `T` is `U`.
#[inline(always)]
pub fn cast<T: Element, U: Element>(x: T) -> U {
    match (&x as &dyn Any).downcast_ref::<U>() {
        Some(same) => *same,
        None => U::convert_from(x),
    }
}

/// Integers and floats: `as` casts do the conversions in one rounding.
macro_rules! convert_real {
    ($($t:ty => |$s:ident| $from:expr),* $(,)?) => {$(
        impl Convert for $t {
            #[inline(always)]
            fn to_f32(self) -> f32 { self as f32 }
            #[inline(always)]
            fn to_f64(self) -> f64 { self as f64 }
            #[inline(always)]
            fn to_i64(self) -> i64 { self as i64 }
            #[inline(always)]
            #[allow(clippy::float_cmp)]
            fn to_bool(self) -> bool { self != (0 as $t) }
            #[inline(always)]
            fn convert_from<S: Convert>($s: S) -> Self { $from }
        }
    )*};
}
convert_real! {
    f32 => |s| s.to_f32(),
    f64 => |s| s.to_f64(),
    u8 => |s| s.to_i64() as u8,
    i8 => |s| s.to_i64() as i8,
    i16 => |s| s.to_i64() as i16,
    i32 => |s| s.to_i64() as i32,
    i64 => |s| s.to_i64(),
}

/// The half types: through float32, both ways.
macro_rules! convert_half {
    ($($t:ty),*) => {$(
        impl Convert for $t {
            #[inline(always)]
            fn to_f32(self) -> f32 { <$t>::to_f32(self) }
            #[inline(always)]
            fn to_f64(self) -> f64 { <$t>::to_f64(self) }
            #[inline(always)]
            fn to_i64(self) -> i64 { <$t>::to_f32(self) as i64 }
            #[inline(always)]
            fn to_bool(self) -> bool { <$t>::to_f32(self) != 0.0 }
            #[inline(always)]
            fn convert_from<S: Convert>(s: S) -> Self { <$t>::from_f32(s.to_f32()) }
        }
    )*};
}
convert_half!(f16, bf16);

/// The complex types: the real part goes where one number is wanted.
macro_rules! convert_complex {
    ($($t:ty => $to_parts:ident),*) => {$(
        impl Convert for Complex<$t> {
            #[inline(always)]
            fn to_f32(self) -> f32 { self.re as f32 }
            #[inline(always)]
            fn to_f64(self) -> f64 { self.re as f64 }
            #[inline(always)]
            fn to_i64(self) -> i64 { self.re as i64 }
            #[inline(always)]
            fn to_bool(self) -> bool { self.re != 0.0 || self.im != 0.0 }
            #[inline(always)]
            fn imag_f32(self) -> f32 { self.im as f32 }
            #[inline(always)]
            fn imag_f64(self) -> f64 { self.im as f64 }
            #[inline(always)]
            fn convert_from<S: Convert>(s: S) -> Self { $to_parts(s) }
        }
    )*};
}
/// A complex64 from any value.
#[inline(always)]
fn c64_parts<S: Convert>(s: S) -> Complex<f32> {
    Complex::new(s.to_f32(), s.imag_f32())
}
/// A complex128 from any value.
#[inline(always)]
fn c128_parts<S: Convert>(s: S) -> Complex<f64> {
    Complex::new(s.to_f64(), s.imag_f64())
}
convert_complex!(f32 => c64_parts, f64 => c128_parts);

impl Convert for bool {
    #[inline(always)]
    fn to_f32(self) -> f32 {
        f32::from(u8::from(self))
    }
    #[inline(always)]
    fn to_f64(self) -> f64 {
        f64::from(u8::from(self))
    }
    #[inline(always)]
    fn to_i64(self) -> i64 {
        i64::from(self)
    }
    #[inline(always)]
    fn to_bool(self) -> bool {
        self
    }
    #[inline(always)]
    fn convert_from<S: Convert>(s: S) -> Self {
        s.to_bool()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conversions_follow_pytorch() {
        assert_eq!(cast::<f32, i64>(-2.7), -2);
        assert_eq!(cast::<f32, u8>(300.7), 44);
        assert_eq!(cast::<f32, i8>(-129.0), 127);
        assert!(!cast::<f32, bool>(-0.0));
        assert!(cast::<Complex<f32>, bool>(Complex::new(0.0, 1.0)));
        assert_eq!(cast::<bool, f64>(true), 1.0);
        assert_eq!(cast::<i64, u8>(-1), 255);
        assert_eq!(cast::<f64, Complex<f32>>(0.1), Complex::new(0.1f32, 0.0));
        // float64 -> float16 rounds through float32.
        assert_eq!(cast::<f64, f16>(65504.0), f16::MAX);
        assert_eq!(cast::<f32, f16>(65520.0), f16::INFINITY);
        assert_eq!(cast::<f16, bf16>(f16::from_f32(1.5)), bf16::from_f32(1.5));
        // NaN and out-of-range values saturate (PyTorch: undefined).
        assert_eq!(cast::<f32, i64>(f32::NAN), 0);
    }
}
