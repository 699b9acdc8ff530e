//! The rest of the pointwise catalogue's functions of one tensor: the
//! special functions `erf`, `erfc`, `erfinv`, `lgamma`, `digamma`; `sinc`;
//! the angle conversions `deg2rad`, `rad2deg`; and `trunc`, `frac`,
//! `sign`, `sgn`, `signbit`, `square`, `nan_to_num`.
//!
//! Result types follow PyTorch: the special functions, `sinc` and the
//! angle conversions of integers and bool give float32; `signbit` gives
//! bool; `square` of bool gives int64; the others keep the dtype. What
//! PyTorch refuses (`erf` of complex values, `frac` of integers, `sign` of
//! complex values, `trunc` of bools) does not compile, with a message that
//! says so ([`crate::dtype::special`]); `AnyTensor`'s forms return
//! PyTorch's texts.
//!
//! ```
//! use shaped::prelude::*;
//! let x = tensor![-2.5f32, 0.0, 0.5];
//! assert_eq!(x.trunc().to_vec(), vec![-2.0, 0.0, 0.0]);
//! assert_eq!(x.frac().to_vec(), vec![-0.5, 0.0, 0.5]);
//! assert_eq!(x.sign().to_vec(), vec![-1.0, 0.0, 1.0]);
//! assert_eq!(x.signbit().to_vec(), vec![true, false, false]);
//! assert_eq!(tensor![0.0f64].erfinv().to_vec(), vec![0.0]);
//! assert_eq!(tensor![true, false].square().to_vec(), vec![1i64, 0]);
//! let y = tensor![f32::NAN, f32::INFINITY].nan_to_num(0.0, None, Some(-1.0));
//! assert_eq!(y.to_vec(), vec![0.0, f32::MAX]);
//! ```

use super::functions::UnaryFn;
use super::math::{in_place_method, unary_fns, unary_methods};
use super::op_codes::{KernelOp, OpCode, Side};
use super::unary;
use crate::backend::{Elementwise, StridedRef};
use crate::dtype::Element;
use crate::dtype::cast::cast;
use crate::dtype::math::{FloatMath, FloatOf, Rounding, ToFloat};
use crate::dtype::special::{
    Fractional, NanToNum, RealOf, Sgn, Signs, Special, SpecialMath, Square,
};
use crate::error::OrPanic;
use crate::shape::Shape;
use crate::storage::{Repr, Writable};
use crate::tensor::{Tensor, from_parts};

/// A [`Special`] function: `x` converted to the compute type, the function
/// computed there, the result rounded to the result type.
macro_rules! special_of {
    ($f:ident, $x:ident) => {
        cast::<T::Compute, RealOf<T>>(SpecialMath::$f(cast::<T, T::Compute>($x)))
    };
}

unary_fns! {
    /// The error function, in [`RealOf<T>`].
    Erf: |x| -> RealOf<T> [Special] special_of!(erf, x);
    /// `1 - erf(x)`.
    Erfc: |x| -> RealOf<T> [Special] special_of!(erfc, x);
    /// The inverse error function.
    Erfinv: |x| -> RealOf<T> [Special] special_of!(erfinv, x);
    /// `ln |Γ(x)|`.
    Lgamma: |x| -> RealOf<T> [Special] special_of!(lgamma, x);
    /// `Γ'(x) / Γ(x)`.
    Digamma: |x| -> RealOf<T> [Special] special_of!(digamma, x);
    /// Degrees to radians.
    Deg2rad: |x| -> RealOf<T> [Special] special_of!(deg2rad, x);
    /// Radians to degrees.
    Rad2deg: |x| -> RealOf<T> [Special] special_of!(rad2deg, x);
    /// `sin(pi x) / (pi x)`, 1 at 0, in [`FloatOf<T>`].
    Sinc: |x| -> FloatOf<T> [ToFloat] FloatMath::sinc(cast::<T, FloatOf<T>>(x));
    /// Rounds toward zero.
    Trunc: |x| -> T [Rounding] Rounding::trunc(x);
    /// `x - trunc(x)`.
    Frac: |x| -> T [Fractional] Fractional::frac(x);
    /// 1, -1 or 0.
    Sign: |x| -> T [Signs] Signs::sign(x);
    /// The sign bit.
    Signbit: |x| -> bool [Signs] Signs::signbit(x);
    /// The sign, or `z / |z|`.
    SgnFn as Sgn: |x| -> T [Sgn] Sgn::sgn(x);
    /// `x * x`.
    SquareFn as Square: |x| -> T::Output [Square] Square::square(x);
}

/// `nan_to_num`'s element function: NaN, +inf and -inf replaced by the
/// three values (of the element's [`Part`](NanToNum::Part) type).
#[derive(Copy, Clone, Debug)]
pub struct ReplaceNonFinite<P>(pub [P; 3]);
impl<T: NanToNum> UnaryFn<T, T> for ReplaceNonFinite<T::Part> {
    #[inline(always)]
    fn call(&self, x: T) -> T {
        x.nan_to_num(self.0)
    }
    fn kernel_op(&self) -> Option<KernelOp> {
        let [nan, posinf, neginf] = self.0.map(Element::to_scalar);
        let mut op = KernelOp::new(OpCode::NanToNum).with_scalar(Side::Right, nan);
        op.upper = Some(posinf);
        op.third = Some(neginf);
        Some(op)
    }
}

/// The methods of the [`Special`] functions. The result type is a
/// parameter `U` fixed by `T: Special<Real = U>` (as `abs`'s), so that a
/// complex tensor's `erf()` is [`Special`]'s error, in words, not "method
/// exists but its trait bounds were not satisfied".
macro_rules! special_methods {
    ($($(#[$doc:meta])* $name:ident, $in_place:ident => $Fn:ident;)*) => {
        impl<T: Element, S: Shape, D: Elementwise, R: Repr> Tensor<T, S, D, R> {$(
            $(#[$doc])*
            pub fn $name<U: Element>(&self) -> Tensor<U, S, D>
            where
                T: Special<Real = U>,
            {
                from_parts!(unary(StridedRef::new(&self.data, &self.layout), $Fn).or_panic())
            }
        )*}
        impl<T: Element, S: Shape, D: Elementwise, R: Writable> Tensor<T, S, D, R> {$(
            in_place_method!($name, $in_place, $Fn, Special, RealOf<T>);
        )*}
    };
}

special_methods! {
    /// The error function elementwise; integers and bool give float32. Not
    /// for complex tensors.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// assert_eq!(tensor![0i32].erf().to_vec(), vec![0.0f32]);
    /// ```
    erf, erf_ => Erf;
    /// `1 - erf(x)` elementwise, accurate where `erf` is near 1; integers
    /// and bool give float32.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// assert_eq!(tensor![0.0f64].erfc().to_vec(), vec![1.0]);
    /// ```
    erfc, erfc_ => Erfc;
    /// The inverse error function elementwise: ±inf at ±1, NaN beyond;
    /// integers and bool give float32.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// assert_eq!(tensor![1.0f32, -1.0].erfinv().to_vec(), vec![f32::INFINITY, f32::NEG_INFINITY]);
    /// ```
    erfinv, erfinv_ => Erfinv;
    /// `ln |Γ(x)|` elementwise (+inf at 0 and the negative integers);
    /// integers and bool give float32.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// assert_eq!(tensor![1i64, 2].lgamma().to_vec(), vec![0.0f32, 0.0]);
    /// ```
    lgamma, lgamma_ => Lgamma;
    /// The digamma function `Γ'(x) / Γ(x)` elementwise (`-inf` at `+0`,
    /// `+inf` at `-0`, NaN at the negative integers); integers and bool
    /// give float32.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// assert_eq!(tensor![0.0f64].digamma().to_vec(), vec![f64::NEG_INFINITY]);
    /// ```
    digamma, digamma_ => Digamma;
    /// Degrees to radians elementwise; integers and bool give float32.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// assert_eq!(tensor![180.0f64].deg2rad().to_vec(), vec![core::f64::consts::PI]);
    /// ```
    deg2rad, deg2rad_ => Deg2rad;
    /// Radians to degrees elementwise; integers and bool give float32.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// assert_eq!(tensor![core::f64::consts::PI].rad2deg().to_vec(), vec![180.0]);
    /// ```
    rad2deg, rad2deg_ => Rad2deg;
}

unary_methods! {
    /// The normalized sinc `sin(pi x) / (pi x)` elementwise, 1 at 0;
    /// integers and bool give float32; complex tensors too.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// assert_eq!(tensor![0.0f32].sinc().to_vec(), vec![1.0]);
    /// ```
    sinc, sinc_ => Sinc: ToFloat -> FloatOf<T>;
    /// Each element rounded toward zero; integers are unchanged. Not for
    /// complex or bool tensors.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// assert_eq!(tensor![-1.5f32, 1.5].trunc().to_vec(), vec![-1.0, 1.0]);
    /// ```
    trunc, trunc_ => Trunc: Rounding -> T;
    /// The fractional part `x - trunc(x)` elementwise (NaN for infinities);
    /// real floating tensors only.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// assert_eq!(tensor![-1.25f64, 2.5].frac().to_vec(), vec![-0.25, 0.5]);
    /// ```
    frac, frac_ => Frac: Fractional -> T;
    /// 1, -1 or 0 elementwise, in the same dtype (±0 and NaN give 0, as
    /// PyTorch's). Not for complex tensors: [`sgn`](Self::sgn) is.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// assert_eq!(tensor![-7i32, 0, 3].sign().to_vec(), vec![-1, 0, 1]);
    /// ```
    sign, sign_ => Sign: Signs -> T;
    /// Whether each element's sign bit is set (true for `-0.0`). Not for
    /// complex tensors.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// assert_eq!(tensor![-0.0f32, 0.0, -2.0].signbit().to_vec(), vec![true, false, true]);
    /// ```
    signbit => Signbit: Signs -> bool;
    /// [`sign`](Self::sign) for real tensors; `z / |z|` (0 at 0) for
    /// complex ones.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// use num_complex::Complex;
    /// let z = tensor![Complex::new(0.0f64, -2.0)];
    /// assert_eq!(z.sgn().to_vec(), vec![Complex::new(0.0, -1.0)]);
    /// ```
    sgn, sgn_ => SgnFn: Sgn -> T;
    /// `x * x` elementwise; integers wrap; bool gives int64.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// assert_eq!(tensor![-3i8, 12].square().to_vec(), vec![9, -112]);
    /// ```
    square, square_ => SquareFn: Square -> T::Output;
}

impl<T: Element, S: Shape, D: Elementwise, R: Repr> Tensor<T, S, D, R> {
    /// PyTorch's `nan_to_num(nan, posinf, neginf)`: NaN becomes `nan`, +inf
    /// `posinf` and -inf `neginf`, or by default the dtype's largest and
    /// lowest finite values; a complex tensor's parts are replaced one by
    /// one; integer and bool tensors are copied unchanged. The numbers are
    /// converted to the dtype as PyTorch's (float16 and bfloat16 through
    /// float32, so `1e10` is +inf in float16).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = tensor![f64::NAN, f64::INFINITY, f64::NEG_INFINITY, 2.5];
    /// let y = x.nan_to_num(0.0, Some(100.0), None);
    /// assert_eq!(y.to_vec(), vec![0.0, 100.0, f64::MIN, 2.5]);
    /// ```
    pub fn nan_to_num(&self, nan: f64, posinf: Option<f64>, neginf: Option<f64>) -> Tensor<T, S, D>
    where
        T: NanToNum,
    {
        let f = ReplaceNonFinite(T::replacements(nan, posinf, neginf));
        from_parts!(unary(StridedRef::new(&self.data, &self.layout), f).or_panic())
    }
}

impl<T: Element, S: Shape, D: Elementwise, R: Writable> Tensor<T, S, D, R> {
    /// [`nan_to_num`](Self::nan_to_num) in place (PyTorch's `nan_to_num_`).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let mut x = tensor![f32::NAN, f32::NEG_INFINITY, 0.5];
    /// x.nan_to_num_(0.0, None, Some(-1.0));
    /// assert_eq!(x.to_vec(), vec![0.0, -1.0, 0.5]);
    /// ```
    pub fn nan_to_num_(&mut self, nan: f64, posinf: Option<f64>, neginf: Option<f64>)
    where
        T: NanToNum,
    {
        let f = ReplaceNonFinite(T::replacements(nan, posinf, neginf));
        let ptr = R::ptr_mut(&mut self.data);
        D::update1(crate::ops::assign::output(self, ptr), f).or_panic();
    }
}
