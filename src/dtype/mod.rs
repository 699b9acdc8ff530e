//! Element types (dtypes): the twelve of PyTorch.
//!
//! - [`Element`]: every element type, with its [`DType`].
//! - [`Numeric`]: the ones with `+ - *` and unary `-` (PyTorch's integer
//!   arithmetic wraps; so does ours).
//! - [`Float`]: the ones with true division `/` (floating and complex).
//! - [`Ordered`]: the ones with `lt`/`le`/`gt`/`ge` (all but complex).

pub mod bytes;
pub mod cast;
pub mod logic;
pub mod math;
pub mod pairs;
pub mod promote;
pub mod special;
pub mod ternary;

use core::fmt::Debug;
use half::{bf16, f16};
use num_complex::Complex;

/// Runs `$body` with `$T` the element type of the runtime `$dtype`: the
/// one bridge from a [`DType`] value to generic code over its type.
macro_rules! with_dtype {
    ($dtype:expr, $T:ident => $body:expr) => {
        $crate::dtype::with_dtype!(@pairs $dtype, $T, $body;
            F16 => half::f16, BF16 => half::bf16, F32 => f32, F64 => f64,
            C64 => num_complex::Complex<f32>, C128 => num_complex::Complex<f64>,
            U8 => u8, I8 => i8, I16 => i16, I32 => i32, I64 => i64, Bool => bool)
    };
    (@pairs $dtype:expr, $T:ident, $body:expr; $($variant:ident => $t:ty),*) => {
        match $dtype {
            $($crate::dtype::DType::$variant => {
                type $T = $t;
                $body
            })*
        }
    };
}
pub(crate) use with_dtype;

mod sealed {
    pub trait Sealed {}
}

/// The runtime tag of an element type, named as PyTorch names it.
///
/// ```
/// use shaped::prelude::*;
/// assert_eq!(f32::DTYPE, DType::F32);
/// assert_eq!(DType::C64.name(), "complex64");
/// assert!(DType::BF16.is_floating_point());
/// assert_eq!(DType::I16.itemsize(), 2);
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum DType {
    /// `torch.float16`, `half::f16`.
    F16,
    /// `torch.bfloat16`, `half::bf16`.
    BF16,
    /// `torch.float32`, `f32`.
    F32,
    /// `torch.float64`, `f64`.
    F64,
    /// `torch.complex64`, `Complex<f32>`.
    C64,
    /// `torch.complex128`, `Complex<f64>`.
    C128,
    /// `torch.uint8`, `u8`.
    U8,
    /// `torch.int8`, `i8`.
    I8,
    /// `torch.int16`, `i16`.
    I16,
    /// `torch.int32`, `i32`.
    I32,
    /// `torch.int64`, `i64`.
    I64,
    /// `torch.bool`, `bool`.
    Bool,
}

impl DType {
    /// PyTorch's name without the `torch.` prefix: `"float32"`.
    pub const fn name(self) -> &'static str {
        match self {
            DType::F16 => "float16",
            DType::BF16 => "bfloat16",
            DType::F32 => "float32",
            DType::F64 => "float64",
            DType::C64 => "complex64",
            DType::C128 => "complex128",
            DType::U8 => "uint8",
            DType::I8 => "int8",
            DType::I16 => "int16",
            DType::I32 => "int32",
            DType::I64 => "int64",
            DType::Bool => "bool",
        }
    }

    /// The name with its article, for messages: `"a float32"`, `"an int8"`,
    /// `"a uint8"`.
    pub(crate) fn with_article(self) -> String {
        let article = if self.name().starts_with('i') {
            "an"
        } else {
            "a"
        };
        format!("{article} {}", self.name())
    }

    /// True for float16, bfloat16, float32 and float64.
    pub const fn is_floating_point(self) -> bool {
        matches!(self, DType::F16 | DType::BF16 | DType::F32 | DType::F64)
    }

    /// True for complex64 and complex128.
    pub const fn is_complex(self) -> bool {
        matches!(self, DType::C64 | DType::C128)
    }

    /// Bytes per element.
    pub const fn itemsize(self) -> usize {
        match self {
            DType::Bool | DType::U8 | DType::I8 => 1,
            DType::F16 | DType::BF16 | DType::I16 => 2,
            DType::F32 | DType::I32 => 4,
            DType::F64 | DType::I64 | DType::C64 => 8,
            DType::C128 => 16,
        }
    }
}

impl core::fmt::Display for DType {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "torch.{}", self.name())
    }
}

/// One element as a plain number, widened exactly: what PyTorch's `item()`
/// gives in Python (`bool`, `int`, `float` or `complex`).
///
/// ```
/// use shaped::dtype::Scalar;
/// use shaped::prelude::*;
/// assert_eq!(7u8.to_scalar(), Scalar::Int(7));
/// assert_eq!(half::f16::from_f32(0.5).to_scalar(), Scalar::Float(0.5));
/// ```
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Scalar {
    /// A bool.
    Bool(bool),
    /// An integer of any integral dtype.
    Int(i64),
    /// A floating value of any floating dtype.
    Float(f64),
    /// A complex value: real and imaginary parts.
    Complex(f64, f64),
}

/// Any element as the number of its kind ([`Element::to_scalar`]), so that
/// functions taking `impl Into<Scalar>` take plain numbers: `0`, `2.5`,
/// `true`.
///
/// ```
/// use shaped::dtype::Scalar;
/// assert_eq!(Scalar::from(3), Scalar::Int(3));
/// assert_eq!(Scalar::from(0.5f32), Scalar::Float(0.5));
/// ```
impl<T: Element> From<T> for Scalar {
    fn from(value: T) -> Self {
        value.to_scalar()
    }
}

/// An element type of a tensor: one of the twelve dtypes.
///
/// ```
/// use shaped::prelude::*;
/// fn dtype_of<T: Element>(_: &[T]) -> DType { T::DTYPE }
/// assert_eq!(dtype_of(&[1u8]), DType::U8);
/// ```
pub trait Element:
    Copy + Default + Debug + PartialEq + Send + Sync + 'static + sealed::Sealed + cast::Convert
{
    /// The runtime tag.
    const DTYPE: DType;
    /// Zero (`false` for bool).
    const ZERO: Self;
    /// One (`true` for bool).
    const ONE: Self;
    /// The category, for type promotion: bool, integer, floating, complex.
    type Category: promote::Category;
    /// PyTorch's C++ name as a type (`names::Float`), for the texts of
    /// casting errors.
    type TorchName;

    /// The element as a plain number, widened exactly.
    fn to_scalar(self) -> Scalar;
}

/// The dtypes of index tensors: int64 everywhere, int32 where PyTorch takes
/// it too (`index_select`).
///
/// ```
/// use shaped::dtype::IndexElement;
/// assert_eq!(IndexElement::to_index(-3i32), -3i64);
/// ```
#[diagnostic::on_unimplemented(
    message = "an index tensor holds integers of dtype int64 (or int32 for `index_select`), not `{Self}`",
    label = "this index holds `{Self}`",
    note = "convert the index first: `idx.cast::<i64>()`"
)]
pub trait IndexElement: Element {
    /// The index as a signed 64-bit number.
    fn to_index(self) -> i64;
}
impl IndexElement for i64 {
    #[inline(always)]
    fn to_index(self) -> i64 {
        self
    }
}
impl IndexElement for i32 {
    #[inline(always)]
    fn to_index(self) -> i64 {
        self.into()
    }
}

/// The dtype of index tensors for `gather`, `take` and `take_along_dim`,
/// which take int64 only.
#[diagnostic::on_unimplemented(
    message = "this operation takes an index of dtype int64, not `{Self}`",
    label = "this index holds `{Self}`",
    note = "convert the index first: `idx.cast::<i64>()`"
)]
pub trait LongIndex: IndexElement {}
impl LongIndex for i64 {}

/// Element types with `+`, `-`, `*` and unary `-`, as PyTorch computes them:
/// integers wrap on overflow, half types compute in `f32` and round once.
///
/// ```
/// use shaped::dtype::Numeric;
/// assert_eq!(<u8 as Numeric>::mul(1, 254u8.wrapping_neg()), 2);
/// assert_eq!(<i8 as Numeric>::add(127, 1), -128);
/// ```
pub trait Numeric: Element + Subtractable {
    /// `a + b`.
    fn add(a: Self, b: Self) -> Self;
    /// `a - b`.
    fn sub(a: Self, b: Self) -> Self;
    /// `a * b`.
    fn mul(a: Self, b: Self) -> Self;
    /// `-a`.
    fn neg(a: Self) -> Self;
    /// `n` converted as PyTorch's `arange` does.
    fn from_index(n: usize) -> Self;
}

/// Element types that may be operands of `-`: all but bool (PyTorch has no
/// bool subtraction, even beside another type).
#[diagnostic::on_unimplemented(
    message = "Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.",
    label = "an operand of this subtraction is bool",
    note = "to subtract as integers, `cast::<u8>()` or `cast::<i64>()` the bool operand first"
)]
pub trait Subtractable: Element {}
impl Subtractable for f16 {}
impl Subtractable for bf16 {}
impl Subtractable for f32 {}
impl Subtractable for f64 {}
impl Subtractable for Complex<f32> {}
impl Subtractable for Complex<f64> {}
impl Subtractable for u8 {}
impl Subtractable for i8 {}
impl Subtractable for i16 {}
impl Subtractable for i32 {}
impl Subtractable for i64 {}

/// Element types with true division: floating and complex.
///
/// ```
/// use shaped::dtype::Float;
/// assert_eq!(<f32 as Float>::div(1.0, 4.0), 0.25);
/// ```
pub trait Float: Numeric {
    /// `a / b`.
    fn div(a: Self, b: Self) -> Self;
}

/// PyTorch's true division `/`: floating and complex types divide in their
/// own type; integers and bool divide as `float32` (the default dtype), so
/// `7 / 2` is `3.5`.
///
/// ```
/// use shaped::dtype::TrueDiv;
/// assert_eq!(<i64 as TrueDiv>::true_div(7, 2), 3.5f32);
/// assert_eq!(<f64 as TrueDiv>::true_div(1.0, 8.0), 0.125f64);
/// ```
pub trait TrueDiv: Element {
    /// The quotient's element type.
    type Quotient: Element;
    /// `a / b`.
    fn true_div(a: Self, b: Self) -> Self::Quotient;
}

impl<T: Float> TrueDiv for T {
    type Quotient = T;
    #[inline(always)]
    fn true_div(a: T, b: T) -> T {
        T::div(a, b)
    }
}

macro_rules! true_div_as_f32 {
    ($($t:ty => |$x:ident| $to_f32:expr),*) => {$(
        impl TrueDiv for $t {
            type Quotient = f32;
            #[inline(always)]
            fn true_div(a: $t, b: $t) -> f32 {
                let f = |$x: $t| -> f32 { $to_f32 };
                f(a) / f(b)
            }
        }
    )*};
}
true_div_as_f32!(
    u8 => |x| f32::from(x),
    i8 => |x| f32::from(x),
    i16 => |x| f32::from(x),
    i32 => |x| x as f32,
    i64 => |x| x as f32,
    bool => |x| f32::from(u8::from(x))
);

/// The complex element types, made of two parts of type `Real`.
pub trait ComplexElement: Element {
    /// The type of each part.
    type Real: Element;
}
impl ComplexElement for Complex<f32> {
    type Real = f32;
}
impl ComplexElement for Complex<f64> {
    type Real = f64;
}

/// The complex conjugate: `a - bi` for complex values, the value itself for
/// real ones.
pub trait Conjugate: Element {
    /// The conjugate.
    fn conj(self) -> Self;
}
macro_rules! real_conjugate {
    ($($t:ty),*) => {$(
        impl Conjugate for $t {
            #[inline(always)]
            fn conj(self) -> Self {
                self
            }
        }
    )*};
}
real_conjugate!(f16, bf16, f32, f64, u8, i8, i16, i32, i64, bool);
impl<R: num_traits::Float> Conjugate for Complex<R>
where
    Complex<R>: Element,
{
    #[inline(always)]
    fn conj(self) -> Self {
        Complex::conj(&self)
    }
}

/// Element types with an order, for `lt`, `le`, `gt`, `ge` (all but complex).
#[diagnostic::on_unimplemented(
    message = "complex numbers have no order: `lt`, `le`, `gt` and `ge` need operands whose common type is real, not {Self}",
    label = "compared as {Self}",
    note = "PyTorch raises `\"lt_cpu\" not implemented for 'ComplexFloat'`; compare real parts (`cast::<f32>()`) or use `eq`/`ne`"
)]
pub trait Ordered: Element + PartialOrd {}

macro_rules! element {
    ($($t:ty => $dtype:ident, $cat:ident, $name:ident, $zero:expr, $one:expr, |$x:ident| $scalar:expr);* $(;)?) => {$(
        impl sealed::Sealed for $t {}
        impl Element for $t {
            const DTYPE: DType = DType::$dtype;
            type Category = promote::$cat;
            type TorchName = promote::names::$name;
            const ZERO: Self = $zero;
            const ONE: Self = $one;
            fn to_scalar(self) -> Scalar {
                let $x = self;
                $scalar
            }
        }
    )*};
}
element! {
    f16 => F16, FloatingCategory, Half, f16::ZERO, f16::ONE,
        |x| Scalar::Float(f64::from(x.to_f32()));
    bf16 => BF16, FloatingCategory, BFloat16, bf16::ZERO, bf16::ONE,
        |x| Scalar::Float(f64::from(x.to_f32()));
    f32 => F32, FloatingCategory, Float, 0.0, 1.0, |x| Scalar::Float(f64::from(x));
    f64 => F64, FloatingCategory, Double, 0.0, 1.0, |x| Scalar::Float(x);
    Complex<f32> => C64, ComplexCategory, ComplexFloat,
        Complex { re: 0.0, im: 0.0 }, Complex { re: 1.0, im: 0.0 },
        |z| Scalar::Complex(f64::from(z.re), f64::from(z.im));
    Complex<f64> => C128, ComplexCategory, ComplexDouble,
        Complex { re: 0.0, im: 0.0 }, Complex { re: 1.0, im: 0.0 },
        |z| Scalar::Complex(z.re, z.im);
    u8 => U8, IntegerCategory, Byte, 0, 1, |x| Scalar::Int(i64::from(x));
    i8 => I8, IntegerCategory, Char, 0, 1, |x| Scalar::Int(i64::from(x));
    i16 => I16, IntegerCategory, Short, 0, 1, |x| Scalar::Int(i64::from(x));
    i32 => I32, IntegerCategory, Int, 0, 1, |x| Scalar::Int(i64::from(x));
    i64 => I64, IntegerCategory, Long, 0, 1, |x| Scalar::Int(x);
    bool => Bool, BoolCategory, Bool, false, true, |x| Scalar::Bool(x);
}

macro_rules! numeric_int {
    ($($t:ty),*) => {$(
        impl Numeric for $t {
            #[inline(always)]
            fn add(a: Self, b: Self) -> Self { a.wrapping_add(b) }
            #[inline(always)]
            fn sub(a: Self, b: Self) -> Self { a.wrapping_sub(b) }
            #[inline(always)]
            fn mul(a: Self, b: Self) -> Self { a.wrapping_mul(b) }
            #[inline(always)]
            fn neg(a: Self) -> Self { a.wrapping_neg() }
            #[inline(always)]
            fn from_index(n: usize) -> Self { n as $t }
        }
        impl Ordered for $t {}
    )*};
}
numeric_int!(u8, i8, i16, i32, i64);

macro_rules! numeric_float {
    ($($t:ty => $from:expr, $div:expr),*) => {$(
        impl Numeric for $t {
            #[inline(always)]
            fn add(a: Self, b: Self) -> Self { a + b }
            #[inline(always)]
            fn sub(a: Self, b: Self) -> Self { a - b }
            #[inline(always)]
            fn mul(a: Self, b: Self) -> Self { a * b }
            #[inline(always)]
            fn neg(a: Self) -> Self { -a }
            #[inline(always)]
            fn from_index(n: usize) -> Self { $from(n) }
        }
        impl Float for $t {
            #[inline(always)]
            fn div(a: Self, b: Self) -> Self { $div(a, b) }
        }
    )*};
}
numeric_float!(
    f16 => |n: usize| f16::from_f64(n as f64), |a: f16, b: f16| a / b,
    bf16 => |n: usize| bf16::from_f64(n as f64), |a: bf16, b: bf16| a / b,
    f32 => |n: usize| n as f32, |a: f32, b: f32| a / b,
    f64 => |n: usize| n as f64, |a: f64, b: f64| a / b,
    Complex<f32> => |n: usize| Complex::new(n as f32, 0.0), complex_div::<f32>,
    Complex<f64> => |n: usize| Complex::new(n as f64, 0.0), complex_div::<f64>
);

/// Complex division as PyTorch (and numpy) compute it: Smith's scaled
/// formula, which avoids overflow in `c² + d²`, and a division by zero that
/// gives a complex infinity or NaN (`(2+0i)/0` is `inf + NaN i`), where the
/// textbook formula would give NaN in both parts.
#[inline(always)]
pub(crate) fn complex_div<T: num_traits::Float>(x: Complex<T>, y: Complex<T>) -> Complex<T> {
    let (a, b, c, d) = (x.re, x.im, y.re, y.im);
    if c.abs() >= d.abs() {
        if c == T::zero() && d == T::zero() {
            return Complex::new(a / c.abs(), b / d.abs());
        }
        let rat = d / c;
        let scl = T::one() / (c + d * rat);
        Complex::new((a + b * rat) * scl, (b - a * rat) * scl)
    } else {
        let rat = c / d;
        let scl = T::one() / (d + c * rat);
        Complex::new((a * rat + b) * scl, (b * rat - a) * scl)
    }
}

impl Ordered for f16 {}
impl Ordered for bf16 {}
impl Ordered for f32 {}
impl Ordered for f64 {}
impl Ordered for bool {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integer_arithmetic_wraps_like_pytorch() {
        // uint8 [1, 2, 3] *= -2 gives [254, 252, 250].
        let minus_two = 2u8.wrapping_neg();
        let got: Vec<u8> = [1u8, 2, 3].iter().map(|&x| u8::mul(x, minus_two)).collect();
        assert_eq!(got, vec![254, 252, 250]);
        assert_eq!(i64::neg(i64::MIN), i64::MIN);
    }

    #[test]
    fn half_types_round_once_per_op() {
        // Between 2048 and 4096 float16 steps by 2: 2048 + 1 rounds to even
        // (2048), 2048 + 3 = 2051 rounds to even (2052).
        let h = |x: f32| f16::from_f32(x);
        assert_eq!(f16::add(h(2048.0), h(1.0)), h(2048.0));
        assert_eq!(f16::add(h(2048.0), h(3.0)), h(2052.0));
        assert_eq!(
            bf16::mul(bf16::from_f32(3.0), bf16::from_f32(1.0 / 3.0)).to_f32(),
            1.0
        );
    }

    #[test]
    fn dtype_facts() {
        let all = DType::ALL;
        let sizes: Vec<usize> = all.iter().map(|d| d.itemsize()).collect();
        assert_eq!(sizes, vec![2, 2, 4, 8, 8, 16, 1, 1, 2, 4, 8, 1]);
        assert_eq!(all.iter().filter(|d| d.is_floating_point()).count(), 4);
        assert_eq!(all.iter().filter(|d| d.is_complex()).count(), 2);
        assert_eq!(
            <Complex<f64> as Element>::DTYPE.to_string(),
            "torch.complex128"
        );
    }
}
