//! Element traits of the bitwise and logical operations and the
//! predicates: [`Bitwise`] (`& | ^ !` of integers and bool), [`Shiftable`]
//! (`<< >>` of integers, PyTorch's rules for shifts past the width),
//! [`Classify`] (`isnan`, `isinf`, `isfinite`, `isreal` of every dtype) and
//! [`SignedInfinity`] (`isposinf`, `isneginf` of real dtypes).
//!
//! ```
//! use shaped::dtype::logic::{Bitwise, Classify, Shiftable};
//! assert_eq!(Bitwise::bit_xor(0b1100u8, 0b1010), 0b0110);
//! assert_eq!(Shiftable::shl(1i8, 7), -128);
//! assert_eq!(Shiftable::shl(1i8, 8), 0); // past the width: 0, as PyTorch
//! assert_eq!(Shiftable::shr(-8i8, 9), -1); // the sign fills
//! assert!(Classify::is_nan(f32::NAN) && !Classify::is_nan(3i64));
//! ```

use super::Element;
use half::{bf16, f16};
use num_complex::Complex;

/// Element types with bitwise `&`, `|`, `^` and `!`: the integers, and bool
/// (where they are the logical operations).
#[diagnostic::on_unimplemented(
    message = "bitwise operations need integer or bool tensors, not `{Self}`",
    label = "an operand of this bitwise operation holds `{Self}`",
    note = "PyTorch raises `\"bitwise_and_cpu\" not implemented for 'Float'`; for masks of floating tensors compare first (`x.ne(0.0)`) or use `logical_and`"
)]
pub trait Bitwise: Element {
    /// `a & b`.
    fn bit_and(a: Self, b: Self) -> Self;
    /// `a | b`.
    fn bit_or(a: Self, b: Self) -> Self;
    /// `a ^ b`.
    fn bit_xor(a: Self, b: Self) -> Self;
    /// `!a` (PyTorch's `~`): every bit flipped; `not` for bool.
    fn bit_not(a: Self) -> Self;
}

/// Integer element types, with PyTorch's shifts: a left shift by a negative
/// amount or by the width or more gives 0; a right shift by such an amount
/// gives the sign (`-1` or `0`).
#[diagnostic::on_unimplemented(
    message = "shifts need integer tensors, not `{Self}`",
    label = "an operand of this shift holds `{Self}`",
    note = "PyTorch raises `\"lshift_cpu\" not implemented for 'Float'` (and for 'Bool' between bool tensors)"
)]
pub trait Shiftable: Bitwise {
    /// `a << b`.
    fn shl(a: Self, b: Self) -> Self;
    /// `a >> b`, arithmetic for signed types.
    fn shr(a: Self, b: Self) -> Self;
}

macro_rules! integer_bits {
    ($($t:ty: $signed:ty, $unsigned:ty);*) => {$(
        impl Bitwise for $t {
            #[inline(always)]
            fn bit_and(a: Self, b: Self) -> Self { a & b }
            #[inline(always)]
            fn bit_or(a: Self, b: Self) -> Self { a | b }
            #[inline(always)]
            fn bit_xor(a: Self, b: Self) -> Self { a ^ b }
            #[inline(always)]
            fn bit_not(a: Self) -> Self { !a }
        }
        impl Shiftable for $t {
            #[inline(always)]
            fn shl(a: Self, b: Self) -> Self {
                if (b as $signed) < 0 || (b as $unsigned) >= <$t>::BITS as $unsigned {
                    0
                } else {
                    ((a as $unsigned) << (b as u32)) as $t
                }
            }
            #[inline(always)]
            fn shr(a: Self, b: Self) -> Self {
                // The shifts that keep a bit: up to the width less the sign.
                let signed = <$t>::MIN != 0;
                let keep = <$t>::BITS - u32::from(signed);
                if (b as $signed) < 0 || (b as $unsigned) >= keep as $unsigned {
                    if signed && a < 0 as $t { !0 } else { 0 }
                } else {
                    a >> (b as u32)
                }
            }
        }
    )*};
}
integer_bits!(u8: i8, u8; i8: i8, u8; i16: i16, u16; i32: i32, u32; i64: i64, u64);

impl Bitwise for bool {
    #[inline(always)]
    fn bit_and(a: Self, b: Self) -> Self {
        a & b
    }
    #[inline(always)]
    fn bit_or(a: Self, b: Self) -> Self {
        a | b
    }
    #[inline(always)]
    fn bit_xor(a: Self, b: Self) -> Self {
        a ^ b
    }
    #[inline(always)]
    fn bit_not(a: Self) -> Self {
        !a
    }
}

/// What an element is: NaN, infinite, finite, real. Integers and bool are
/// finite and real; a complex value is NaN (infinite) when either part is,
/// finite when both are, real when its imaginary part is 0.
pub trait Classify: Element {
    /// Whether the value is NaN (`isnan`).
    fn is_nan(self) -> bool;
    /// Whether the value is infinite (`isinf`).
    fn is_inf(self) -> bool;
    /// Whether the value is finite (`isfinite`).
    fn is_finite(self) -> bool;
    /// Whether the imaginary part is 0 (`isreal`).
    fn is_real(self) -> bool;
}

/// Real element types, whose infinities have a sign (`isposinf`,
/// `isneginf`).
#[diagnostic::on_unimplemented(
    message = "isposinf and isneginf do not support complex inputs (`{Self}`)",
    label = "this tensor holds `{Self}`",
    note = "PyTorch raises \"isposinf does not support complex inputs.\"; test the parts (`real()`, `imag()`) instead"
)]
pub trait SignedInfinity: Classify {
    /// Whether the value is `+inf`.
    fn is_pos_inf(self) -> bool;
    /// Whether the value is `-inf`.
    fn is_neg_inf(self) -> bool;
}

macro_rules! exact_classify {
    ($($t:ty),*) => {$(
        impl Classify for $t {
            #[inline(always)]
            fn is_nan(self) -> bool { false }
            #[inline(always)]
            fn is_inf(self) -> bool { false }
            #[inline(always)]
            fn is_finite(self) -> bool { true }
            #[inline(always)]
            fn is_real(self) -> bool { true }
        }
        impl SignedInfinity for $t {
            #[inline(always)]
            fn is_pos_inf(self) -> bool { false }
            #[inline(always)]
            fn is_neg_inf(self) -> bool { false }
        }
    )*};
}
exact_classify!(u8, i8, i16, i32, i64, bool);

macro_rules! float_classify {
    ($($t:ty),*) => {$(
        impl Classify for $t {
            #[inline(always)]
            fn is_nan(self) -> bool { <$t>::is_nan(self) }
            #[inline(always)]
            fn is_inf(self) -> bool { <$t>::is_infinite(self) }
            #[inline(always)]
            fn is_finite(self) -> bool { <$t>::is_finite(self) }
            #[inline(always)]
            fn is_real(self) -> bool { true }
        }
        impl SignedInfinity for $t {
            #[inline(always)]
            fn is_pos_inf(self) -> bool { <$t>::is_infinite(self) && self.is_sign_positive() }
            #[inline(always)]
            fn is_neg_inf(self) -> bool { <$t>::is_infinite(self) && self.is_sign_negative() }
        }
    )*};
}
float_classify!(f16, bf16, f32, f64);

macro_rules! complex_classify {
    ($($r:ty),*) => {$(
        impl Classify for Complex<$r> {
            #[inline(always)]
            fn is_nan(self) -> bool { self.re.is_nan() || self.im.is_nan() }
            #[inline(always)]
            fn is_inf(self) -> bool { self.re.is_infinite() || self.im.is_infinite() }
            #[inline(always)]
            fn is_finite(self) -> bool { self.re.is_finite() && self.im.is_finite() }
            #[inline(always)]
            fn is_real(self) -> bool { self.im == 0.0 }
        }
    )*};
}
complex_classify!(f32, f64);

#[cfg(test)]
mod tests {
    use super::*;

    /// PyTorch's shifts, recorded from torch 2.15 (`scripts/fixtures/logic.py`
    /// covers every dtype; these are the width edges).
    #[test]
    fn shifts_past_the_width() {
        assert_eq!(i8::shl(1, 7), -128);
        assert_eq!(i8::shl(-8, 9), 0);
        assert_eq!(i8::shr(1, 7), 0);
        assert_eq!(i8::shr(-8, 9), -1);
        assert_eq!(i8::shr(-8, -1), -1);
        assert_eq!(i8::shr(-8, 8), -1);
        assert_eq!(i8::shr(-8, 6), -1);
        assert_eq!(u8::shr(200, 7), 1);
        assert_eq!(u8::shr(200, 8), 0);
        assert_eq!(u8::shl(1, 200), 0); // 200 is -56 as a signed byte
        assert_eq!(i64::shl(1, -1), 0);
        assert_eq!(i64::shl(3, 64), 0);
        assert_eq!(i64::shr(-1, -1), -1);
        assert_eq!(i64::shr(3, 64), 0);
        assert_eq!(i64::shr(i64::MIN, 63), -1);
    }

    #[test]
    fn classes() {
        let z = Complex::new(f32::INFINITY, f32::NAN);
        assert!(z.is_nan() && z.is_inf() && !z.is_finite());
        assert!(Complex::new(f64::NAN, 0.0).is_real());
        assert!(!Complex::new(0.0f64, -0.5).is_real());
        assert!(f16::NEG_INFINITY.is_neg_inf() && !f16::NEG_INFINITY.is_pos_inf());
        assert!(bf16::NAN.is_nan() && !bf16::NAN.is_finite());
        assert!(true.is_finite() && !(-3i16).is_inf());
    }
}
