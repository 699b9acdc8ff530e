//! Elementwise math: unary functions (`exp`, `ln`, `sqrt`, `abs`, `floor`,
//! `clamp`, ...), binary `maximum`, `minimum`, `pow` with broadcasting and
//! type promotion, and [`where_`].
//!
//! Result types follow PyTorch: the transcendental functions of integer
//! and bool tensors give float32 ([`ToFloat`]); `abs` of a complex tensor
//! gives its real type; `floor`, `ceil`, `round` of integers keep them.
//! What PyTorch refuses (`floor` of complex values, `relu` of bools,
//! `maximum` of complex values, ...) does not compile, with a message that
//! says so; `AnyTensor`'s forms return PyTorch's error instead.
//!
//! ```
//! use shaped::prelude::*;
//! let x = tensor![[-1.5f32, 0.0], [2.5, 4.0]];
//! assert_eq!(x.abs().to_vec(), vec![1.5, 0.0, 2.5, 4.0]);
//! assert_eq!(x.round().to_vec(), vec![-2.0, 0.0, 2.0, 4.0]); // half to even
//! assert_eq!(x.relu().maximum(&tensor![1.0f32, 0.5]).to_vec(), vec![1.0, 0.5, 2.5, 4.0]);
//! let n = tensor![1i64, 4, 9];
//! assert_eq!(n.sqrt().to_vec(), vec![1.0f32, 2.0, 3.0]); // int64 -> float32
//! ```

use super::arith::{operand, promoted_binary, promoted_binary_in};
use super::functions::{BinaryFn, ElementOp, UnaryFn, same_type};
use super::op_codes::{KernelOp, OpCode, Side};
use super::{broadcast_strides, unary};
use crate::backend::Elementwise;
use crate::backend::cpu::vector_math::{self, VectorFn};
use crate::backend::{Backend, StridedRef};
use crate::device::Device;
use crate::dtype::cast::cast;
use crate::dtype::math::{
    Abs, Clampable, FloatMath, FloatOf, FloatPower, FloatPowerOf, MaxMin, Power, Rounding, ToFloat,
};
use crate::dtype::promote::{
    Common, CommonScalar, CommonType, CommonWithScalar, check_runtime_rank,
};
use crate::dtype::{Element, Scalar};
use crate::dynamic::scalar_as;
use crate::error::Error;
use crate::error::OrPanic;
use crate::layout::{StridedLayout, checked_numel};
use crate::shape::{Broadcast, BroadcastShape, Shape, SizeArray, broadcast_sizes_into};
use crate::storage::Repr;
use crate::tensor::{PartsOf, Tensor, from_parts};

/// Declares unit element functions of one argument: `Name: |x: T| -> Out
/// [bound] body`, whose device kernel is `OpCode::Name` (or `Name as
/// Code`: `OpCode::Code`).
macro_rules! unary_fns {
    ($($(#[$doc:meta])* $name:ident $(as $code:ident)? $(, vectorized $vector:ident)?: |$x:ident| -> $out:ty [$bound:ident] $body:expr;)*) => {$(
        $(#[$doc])*
        #[derive(Copy, Clone, Debug, Default)]
        pub struct $name;
        impl<T: $bound> UnaryFn<T, $out> for $name {
            #[inline(always)]
            fn call(&self, $x: T) -> $out {
                $body
            }
            $(
            #[inline(always)]
            fn call_slice(&self, a: &[T], out: &mut [core::mem::MaybeUninit<$out>]) {
                vector_math::map_or_each(VectorFn::$vector, a, out, |x| self.call(x))
            }
            )?
            fn kernel_op(&self) -> Option<KernelOp> {
                Some(KernelOp::new(unary_fns!(@code $name $($code)?)))
            }
        }
    )*};
    (@code $name:ident) => { OpCode::$name };
    (@code $name:ident $code:ident) => { OpCode::$code };
}
pub(crate) use unary_fns;

unary_fns! {
    /// `e^x`, in [`FloatOf<T>`].
    Exp, vectorized Exp: |x| -> FloatOf<T> [ToFloat] FloatMath::exp(cast::<T, FloatOf<T>>(x));
    /// The natural logarithm (PyTorch's `log`).
    Ln, vectorized Ln: |x| -> FloatOf<T> [ToFloat] FloatMath::ln(cast::<T, FloatOf<T>>(x));
    /// The base-2 logarithm.
    Log2: |x| -> FloatOf<T> [ToFloat] FloatMath::log2(cast::<T, FloatOf<T>>(x));
    /// The square root.
    Sqrt: |x| -> FloatOf<T> [ToFloat] FloatMath::sqrt(cast::<T, FloatOf<T>>(x));
    /// The sine.
    Sin: |x| -> FloatOf<T> [ToFloat] FloatMath::sin(cast::<T, FloatOf<T>>(x));
    /// The cosine.
    Cos: |x| -> FloatOf<T> [ToFloat] FloatMath::cos(cast::<T, FloatOf<T>>(x));
    /// The hyperbolic tangent.
    Tanh, vectorized Tanh: |x| -> FloatOf<T> [ToFloat] FloatMath::tanh(cast::<T, FloatOf<T>>(x));
    /// `1 / (1 + e^-x)`.
    Sigmoid, vectorized Sigmoid: |x| -> FloatOf<T> [ToFloat] FloatMath::sigmoid(cast::<T, FloatOf<T>>(x));
    /// `1 / x` (PyTorch's `reciprocal`).
    Recip: |x| -> FloatOf<T> [ToFloat] FloatMath::recip(cast::<T, FloatOf<T>>(x));
    /// The tangent.
    Tan: |x| -> FloatOf<T> [ToFloat] FloatMath::tan(cast::<T, FloatOf<T>>(x));
    /// The inverse sine.
    Asin: |x| -> FloatOf<T> [ToFloat] FloatMath::asin(cast::<T, FloatOf<T>>(x));
    /// The inverse cosine.
    Acos: |x| -> FloatOf<T> [ToFloat] FloatMath::acos(cast::<T, FloatOf<T>>(x));
    /// The inverse tangent.
    Atan: |x| -> FloatOf<T> [ToFloat] FloatMath::atan(cast::<T, FloatOf<T>>(x));
    /// The hyperbolic sine.
    Sinh: |x| -> FloatOf<T> [ToFloat] FloatMath::sinh(cast::<T, FloatOf<T>>(x));
    /// The hyperbolic cosine.
    Cosh: |x| -> FloatOf<T> [ToFloat] FloatMath::cosh(cast::<T, FloatOf<T>>(x));
    /// The inverse hyperbolic sine.
    Asinh: |x| -> FloatOf<T> [ToFloat] FloatMath::asinh(cast::<T, FloatOf<T>>(x));
    /// The inverse hyperbolic cosine.
    Acosh: |x| -> FloatOf<T> [ToFloat] FloatMath::acosh(cast::<T, FloatOf<T>>(x));
    /// The inverse hyperbolic tangent.
    Atanh: |x| -> FloatOf<T> [ToFloat] FloatMath::atanh(cast::<T, FloatOf<T>>(x));
    /// `2^x`.
    Exp2: |x| -> FloatOf<T> [ToFloat] FloatMath::exp2(cast::<T, FloatOf<T>>(x));
    /// `e^x - 1`, accurate near 0.
    Expm1: |x| -> FloatOf<T> [ToFloat] FloatMath::expm1(cast::<T, FloatOf<T>>(x));
    /// The base-10 logarithm.
    Log10: |x| -> FloatOf<T> [ToFloat] FloatMath::log10(cast::<T, FloatOf<T>>(x));
    /// `ln(1 + x)`, accurate near 0.
    Log1p: |x| -> FloatOf<T> [ToFloat] FloatMath::log1p(cast::<T, FloatOf<T>>(x));
    /// `1 / sqrt(x)`.
    Rsqrt: |x| -> FloatOf<T> [ToFloat] FloatMath::rsqrt(cast::<T, FloatOf<T>>(x));
    /// `|x|`; the magnitude of a complex value.
    AbsFn as Abs: |x| -> T::Output [Abs] Abs::abs(x);
    /// The largest integer not above `x`.
    Floor: |x| -> T [Rounding] Rounding::floor(x);
    /// The smallest integer not below `x`.
    Ceil: |x| -> T [Rounding] Rounding::ceil(x);
    /// The nearest integer, half to even.
    Round: |x| -> T [Rounding] Rounding::round(x);
    /// `max(x, 0)`; NaN stays NaN.
    Relu: |x| -> T [Clampable] if x < T::ZERO { T::ZERO } else { x };
}

/// `min(max(x, lo), hi)`: NaN stays NaN, and `lo > hi` gives `hi`
/// everywhere, as PyTorch's `clamp`.
#[derive(Copy, Clone, Debug)]
pub struct Clamp<T>(pub T, pub T);
impl<T: Clampable> UnaryFn<T, T> for Clamp<T> {
    #[inline(always)]
    fn call(&self, x: T) -> T {
        let y = if x < self.0 { self.0 } else { x };
        if y > self.1 { self.1 } else { y }
    }
    fn kernel_op(&self) -> Option<KernelOp> {
        Some(KernelOp::clamp(self.0.to_scalar(), self.1.to_scalar()))
    }
}

/// `x^e` for an exponent given as a number, as PyTorch's
/// `pow(tensor, scalar)` ([`Power::power_scalar`]).
#[derive(Copy, Clone, Debug)]
pub struct PowScalar<T>(pub T);
impl<T: Power> UnaryFn<T, T> for PowScalar<T> {
    #[inline(always)]
    fn call(&self, x: T) -> T {
        x.power_scalar(self.0)
    }
    fn kernel_op(&self) -> Option<KernelOp> {
        Some(KernelOp::new(OpCode::PowScalar).with_scalar(Side::Right, self.0.to_scalar()))
    }
}

/// The bounds of `clamp` as elements of type `C`. For an integer type,
/// bounds outside its range are limited to it, and a bound that leaves no
/// value (a minimum above the largest value, a maximum below the smallest)
/// is PyTorch's error.
pub(crate) fn clamp_bounds<C: Clampable>(min: Scalar, max: Scalar) -> Result<(C, C), Error> {
    let Some((lo, hi)) = C::RANGE else {
        return Ok((scalar_as(min), scalar_as(max)));
    };
    let int = |s: Scalar| match s {
        Scalar::Int(i) => i,
        Scalar::Bool(b) => i64::from(b),
        Scalar::Float(f) => f as i64,
        Scalar::Complex(re, _) => re as i64,
    };
    let (a, b) = (int(min), int(max));
    if a > hi {
        return Err(Error::ClampRange {
            bound: "min",
            value: a,
            dtype: C::DTYPE,
        });
    }
    if b < lo {
        return Err(Error::ClampRange {
            bound: "max",
            value: b,
            dtype: C::DTYPE,
        });
    }
    Ok((cast(a.max(lo)), cast(b.min(hi))))
}

/// Declares unit element functions of two arguments of one type.
macro_rules! binary_fns {
    ($($(#[$doc:meta])* $name:ident: |$a:ident, $b:ident| [$bound:ident] $body:expr;)*) => {$(
        $(#[$doc])*
        #[derive(Copy, Clone, Debug, Default)]
        pub struct $name;
        impl<T: $bound> BinaryFn<T, T, T> for $name {
            #[inline(always)]
            fn call(&self, $a: T, $b: T) -> T {
                $body
            }
            fn kernel_op(&self) -> Option<KernelOp> {
                Some(KernelOp::new(OpCode::$name))
            }
        }
        impl<C: Element> ElementOp<C> for $name {
            type Output = C;
        }
    )*};
}

binary_fns! {
    /// The larger of `a` and `b`; NaN if either is NaN.
    Maximum: |a, b| [MaxMin] {
        #[allow(clippy::eq_op)]
        let nan = |v: T| v != v;
        if nan(a) || (!nan(b) && a >= b) { a } else { b }
    };
    /// The smaller of `a` and `b`; NaN if either is NaN.
    Minimum: |a, b| [MaxMin] {
        #[allow(clippy::eq_op)]
        let nan = |v: T| v != v;
        if nan(a) || (!nan(b) && a <= b) { a } else { b }
    };
    /// `a^b`.
    Pow: |a, b| [Power] Power::power(a, b);
}

/// Element-function methods of one tensor, each with its doc lines, and
/// its in-place form (`name, name_`) where PyTorch has one.
macro_rules! unary_methods {
    ($($(#[$doc:meta])* $name:ident $(, $in_place:ident)? => $Fn:ident: $bound:ident -> $out:ty;)*) => {
        impl<T: Element, S: Shape, D: Elementwise, R: Repr> Tensor<T, S, D, R> {$(
            $(#[$doc])*
            pub fn $name(&self) -> Tensor<$out, S, D>
            where
                T: $bound,
            {
                from_parts!(unary(StridedRef::new(&self.data, &self.layout), $Fn).or_panic())
            }
        )*}
        impl<T: Element, S: Shape, D: Elementwise, R: $crate::storage::Writable> Tensor<T, S, D, R> {$($(
            $crate::ops::math::in_place_method!($name, $in_place, $Fn, $bound, $out);
        )?)*}
    };
}

/// The in-place form `$in_place` of the element-function method `$name`:
/// the result stored back where PyTorch's casting rule lets it
/// ([`StorableIn`](crate::dtype::promote::StorableIn): an integer tensor
/// has no `exp_`, as PyTorch's "result type Float can't be cast to the
/// desired output type Long").
macro_rules! in_place_method {
    ($name:ident, $in_place:ident, $Fn:ident, $bound:ident, $out:ty) => {
        #[doc = concat!("[`", stringify!($name), "`](Self::", stringify!($name), ") in place (PyTorch's `", stringify!($in_place), "`), on a tensor whose dtype holds the result.")]
        ///
        /// ```
        /// use shaped::prelude::*;
        /// let mut x = tensor![[0.5f32, -2.25], [1.0, 3.5]];
        #[doc = concat!("let want = x.", stringify!($name), "();")]
        #[doc = concat!("x.", stringify!($in_place), "();")]
        /// let bits = |v: Vec<f32>| v.into_iter().map(f32::to_bits).collect::<Vec<_>>();
        /// assert_eq!(bits(x.to_vec()), bits(want.to_vec()));
        /// ```
        pub fn $in_place(&mut self)
        where
            T: $bound,
            $out: $crate::dtype::promote::StorableIn<T>,
        {
            let ptr = R::ptr_mut(&mut self.data);
            let f = $crate::ops::functions::StoreInPlace::<_, $out>::new($Fn);
            D::update1($crate::ops::assign::output(self, ptr), f).or_panic();
        }
    };
}
pub(crate) use in_place_method;
pub(crate) use unary_methods;

impl<T: Element, S: Shape, D: Elementwise, R: Repr> Tensor<T, S, D, R> {
    /// `|x|` elementwise; complex tensors give their real type `U`, integers
    /// wrap (`abs(-128i8)` is `-128`). Not for bool tensors. (`U` is a
    /// parameter rather than `T::Output` so that a bool tensor's `abs()` is
    /// the error of [`Abs`], in words, not "method exists but its trait
    /// bounds were not satisfied".)
    ///
    /// ```
    /// use shaped::prelude::*;
    /// use num_complex::Complex;
    /// let z = tensor![Complex::new(3.0f32, 4.0)];
    /// let m: Tensor<f32, shape![1]> = z.abs();
    /// assert_eq!(m.to_vec(), vec![5.0]);
    /// assert_eq!(tensor![-2i8].abs().to_vec(), vec![2]);
    /// ```
    pub fn abs<U: Element>(&self) -> Tensor<U, S, D>
    where
        T: Abs<Output = U>,
    {
        from_parts!(unary(StridedRef::new(&self.data, &self.layout), AbsFn).or_panic())
    }
}

unary_methods! {
    /// `e^x` elementwise; integers and bool give float32.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// assert_eq!(tensor![0.0f64].exp().to_vec(), vec![1.0]);
    /// assert_eq!(tensor![0i32].exp().dtype(), DType::F32);
    /// ```
    exp, exp_ => Exp: ToFloat -> FloatOf<T>;
    /// The natural logarithm elementwise (PyTorch's `log`).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// assert_eq!(tensor![1.0f32].ln().to_vec(), vec![0.0]);
    /// ```
    ln, ln_ => Ln: ToFloat -> FloatOf<T>;
    /// The base-2 logarithm elementwise.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// assert_eq!(tensor![8u8].log2().to_vec(), vec![3.0f32]);
    /// ```
    log2, log2_ => Log2: ToFloat -> FloatOf<T>;
    /// The square root elementwise (NaN for negative reals).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// assert_eq!(tensor![4.0f32].sqrt().to_vec(), vec![2.0]);
    /// ```
    sqrt, sqrt_ => Sqrt: ToFloat -> FloatOf<T>;
    /// The sine elementwise.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// assert_eq!(tensor![0.0f32].sin().to_vec(), vec![0.0]);
    /// ```
    sin, sin_ => Sin: ToFloat -> FloatOf<T>;
    /// The cosine elementwise.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// assert_eq!(tensor![0.0f32].cos().to_vec(), vec![1.0]);
    /// ```
    cos, cos_ => Cos: ToFloat -> FloatOf<T>;
    /// The hyperbolic tangent elementwise.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// assert_eq!(tensor![0.0f32].tanh().to_vec(), vec![0.0]);
    /// ```
    tanh, tanh_ => Tanh: ToFloat -> FloatOf<T>;
    /// The logistic function `1 / (1 + e^-x)` elementwise.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// assert_eq!(tensor![0.0f32].sigmoid().to_vec(), vec![0.5]);
    /// ```
    sigmoid, sigmoid_ => Sigmoid: ToFloat -> FloatOf<T>;
    /// `1 / x` elementwise (PyTorch's `reciprocal`); integers give float32.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// assert_eq!(tensor![4i64].recip().to_vec(), vec![0.25f32]);
    /// ```
    recip, recip_ => Recip: ToFloat -> FloatOf<T>;
    /// The tangent elementwise; integers and bool give float32.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// assert_eq!(tensor![0.0f32].tan().to_vec(), vec![0.0]);
    /// ```
    tan, tan_ => Tan: ToFloat -> FloatOf<T>;
    /// The inverse sine elementwise; integers and bool give float32.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// assert_eq!(tensor![1.0f64].asin().to_vec(), vec![core::f64::consts::FRAC_PI_2]);
    /// ```
    asin, asin_ => Asin: ToFloat -> FloatOf<T>;
    /// The inverse cosine elementwise; integers and bool give float32.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// assert_eq!(tensor![1.0f32].acos().to_vec(), vec![0.0]);
    /// ```
    acos, acos_ => Acos: ToFloat -> FloatOf<T>;
    /// The inverse tangent elementwise; integers and bool give float32.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// assert_eq!(tensor![0i32].atan().to_vec(), vec![0.0f32]);
    /// ```
    atan, atan_ => Atan: ToFloat -> FloatOf<T>;
    /// The hyperbolic sine elementwise; integers and bool give float32.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// assert_eq!(tensor![0.0f64].sinh().to_vec(), vec![0.0]);
    /// ```
    sinh, sinh_ => Sinh: ToFloat -> FloatOf<T>;
    /// The hyperbolic cosine elementwise; integers and bool give float32.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// assert_eq!(tensor![0u8].cosh().to_vec(), vec![1.0f32]);
    /// ```
    cosh, cosh_ => Cosh: ToFloat -> FloatOf<T>;
    /// The inverse hyperbolic sine elementwise; integers and bool give float32.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// assert_eq!(tensor![0.0f32].asinh().to_vec(), vec![0.0]);
    /// ```
    asinh, asinh_ => Asinh: ToFloat -> FloatOf<T>;
    /// The inverse hyperbolic cosine elementwise; integers and bool give float32.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// assert_eq!(tensor![1.0f64].acosh().to_vec(), vec![0.0]);
    /// ```
    acosh, acosh_ => Acosh: ToFloat -> FloatOf<T>;
    /// The inverse hyperbolic tangent elementwise; integers and bool give float32.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// assert_eq!(tensor![0.0f32].atanh().to_vec(), vec![0.0]);
    /// ```
    atanh, atanh_ => Atanh: ToFloat -> FloatOf<T>;
    /// `2^x` elementwise; integers and bool give float32.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// assert_eq!(tensor![3i64].exp2().to_vec(), vec![8.0f32]);
    /// ```
    exp2, exp2_ => Exp2: ToFloat -> FloatOf<T>;
    /// `e^x - 1`, accurate near 0 elementwise; integers and bool give float32.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// assert_eq!(tensor![0.0f64].expm1().to_vec(), vec![0.0]);
    /// ```
    expm1, expm1_ => Expm1: ToFloat -> FloatOf<T>;
    /// The base-10 logarithm elementwise; integers and bool give float32.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// assert_eq!(tensor![100.0f64].log10().to_vec(), vec![2.0]);
    /// ```
    log10, log10_ => Log10: ToFloat -> FloatOf<T>;
    /// `ln(1 + x)`, accurate near 0 elementwise; integers and bool give float32.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// assert_eq!(tensor![0.0f32].log1p().to_vec(), vec![0.0]);
    /// ```
    log1p, log1p_ => Log1p: ToFloat -> FloatOf<T>;
    /// `1 / sqrt(x)` elementwise; integers and bool give float32.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// assert_eq!(tensor![4.0f32].rsqrt().to_vec(), vec![0.5]);
    /// ```
    rsqrt, rsqrt_ => Rsqrt: ToFloat -> FloatOf<T>;
    /// The largest integer not above each element; integers are unchanged.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// assert_eq!(tensor![-0.5f32, 1.5].floor().to_vec(), vec![-1.0, 1.0]);
    /// ```
    floor, floor_ => Floor: Rounding -> T;
    /// The smallest integer not below each element; integers are unchanged.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// assert_eq!(tensor![-0.5f32, 1.5].ceil().to_vec(), vec![-0.0, 2.0]);
    /// ```
    ceil, ceil_ => Ceil: Rounding -> T;
    /// The nearest integer to each element, half to even (as PyTorch).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// assert_eq!(tensor![0.5f64, 1.5, 2.5].round().to_vec(), vec![0.0, 2.0, 2.0]);
    /// ```
    round, round_ => Round: Rounding -> T;
    /// `max(x, 0)` elementwise; NaN stays NaN. Not for complex or bool
    /// tensors.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// assert_eq!(tensor![-2i32, 3].relu().to_vec(), vec![0, 3]);
    /// ```
    relu, relu_ => Relu: Clampable -> T;
}

/// The other operand of `maximum`, `minimum` and `pow`: a tensor whose
/// element type and shape combine with `T` and `S` (type promotion and
/// broadcasting, as for `+`).
pub trait MathOperand<T: Element, S: Shape, D: Elementwise> {
    /// The common element type, which is also the result's.
    type Common: Element;
    /// The broadcast shape.
    type Shape: Shape;
    /// `f(lhs, self)` elementwise in the common type; `Err` when `Dyn`
    /// sizes do not broadcast.
    fn apply<R: Repr, F: BinaryFn<Self::Common, Self::Common, Self::Common>>(
        &self,
        lhs: &Tensor<T, S, D, R>,
        f: F,
    ) -> Result<PartsOf<Self::Common, D, Self::Shape>, Error>;
    /// `f(lhs, self)` elementwise computed in `K`, both operands converted
    /// to it (`float_power`'s float64); `Err` when `Dyn` sizes do not
    /// broadcast.
    fn apply_in<K: Element, R: Repr, F: BinaryFn<K, K, K>>(
        &self,
        lhs: &Tensor<T, S, D, R>,
        f: F,
    ) -> Result<PartsOf<K, D, Self::Shape>, Error>;
}

impl<T, S, T2, S2, D, R2> MathOperand<T, S, D> for Tensor<T2, S2, D, R2>
where
    T: CommonType<T2, S, S2>,
    T2: Element,
    S: BroadcastShape<S2>,
    S2: Shape,
    D: Elementwise,
    R2: Repr,
{
    type Common = Common<T, S, T2, S2>;
    type Shape = Broadcast<S, S2>;
    fn apply<R: Repr, F: BinaryFn<Self::Common, Self::Common, Self::Common>>(
        &self,
        lhs: &Tensor<T, S, D, R>,
        f: F,
    ) -> Result<PartsOf<Self::Common, D, Self::Shape>, Error> {
        promoted_binary::<_, _, Self::Common, _, _, _, _>(operand!(lhs, S), operand!(self, S2), f)
    }
    fn apply_in<K: Element, R: Repr, F: BinaryFn<K, K, K>>(
        &self,
        lhs: &Tensor<T, S, D, R>,
        f: F,
    ) -> Result<PartsOf<K, D, Self::Shape>, Error> {
        promoted_binary_in::<_, _, Self::Common, K, _, _, _, _>(
            operand!(lhs, S),
            operand!(self, S2),
            f,
        )
    }
}

/// `maximum`, `minimum`, `pow` and their `try_` forms.
macro_rules! binary_methods {
    ($($(#[$doc:meta])* $name:ident, $try_name:ident => $Fn:ident;)*) => {
        impl<T: Element, S: Shape, D: Elementwise, R: Repr> Tensor<T, S, D, R> {$(
            $(#[$doc])*
            pub fn $name<O: MathOperand<T, S, D>>(&self, other: &O) -> Tensor<O::Common, O::Shape, D>
            where
                $Fn: BinaryFn<O::Common, O::Common, O::Common>,
            {
                from_parts!(other.apply(self, $Fn).or_panic())
            }

            #[doc = concat!("[`", stringify!($name), "`](Self::", stringify!($name), "), or `Err` with PyTorch's message when `Dyn` sizes do not broadcast.")]
            ///
            /// ```
            /// use shaped::prelude::*;
            /// let a = DynTensor::<f32>::ones(&[2, 3]);
            #[doc = concat!("assert!(a.", stringify!($try_name), "(&DynTensor::<f32>::ones(&[4])).is_err());")]
            /// ```
            pub fn $try_name<O: MathOperand<T, S, D>>(
                &self,
                other: &O,
            ) -> Result<Tensor<O::Common, O::Shape, D>, Error>
            where
                $Fn: BinaryFn<O::Common, O::Common, O::Common>,
            {
                Ok(from_parts!(other.apply(self, $Fn)?))
            }
        )*}
    };
}

binary_methods! {
    /// The larger element of `self` and `other`, with broadcasting and type
    /// promotion; NaN where either is NaN. Not for complex tensors.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let a = tensor![[1.0f32, f32::NAN, 3.0]];
    /// let b = tensor![[2i32], [0]];
    /// let m = a.maximum(&b); // (2, 3), float32
    /// assert_eq!(m.shape(), [2, 3]);
    /// assert_eq!(m[[0, 0]], 2.0);
    /// assert!(m[[1, 1]].is_nan());
    /// ```
    maximum, try_maximum => Maximum;
    /// The smaller element of `self` and `other`, with broadcasting and type
    /// promotion; NaN where either is NaN. Not for complex tensors.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// assert_eq!(tensor![1u8, 5].minimum(&tensor![3u8]).to_vec(), vec![1, 3]);
    /// ```
    minimum, try_minimum => Minimum;
    /// `self` to the power `other`, with broadcasting and type promotion.
    /// Integers wrap; an integer to a negative power is 0 (1 and -1 keep
    /// their reciprocals), as PyTorch. Not for bool tensors.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// assert_eq!(tensor![2i32, 3].pow(&tensor![3i32, -1]).to_vec(), vec![8, 0]);
    /// assert_eq!(tensor![4.0f32].pow(&tensor![0.5f64]).to_vec(), vec![2.0f64]);
    /// ```
    pow, try_pow => Pow;
}

impl<T: Element, S: Shape, D: Elementwise, R: Repr> Tensor<T, S, D, R> {
    /// PyTorch's `float_power`: `self` to the power `other` in float64
    /// (complex128 when either is complex), both converted first, with
    /// broadcasting.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let p = tensor![2i32, 4].float_power(&tensor![0.5f32]);
    /// assert_eq!(p.to_vec(), vec![2f64.sqrt(), 2.0]); // float64
    /// ```
    pub fn float_power<O: MathOperand<T, S, D>>(
        &self,
        other: &O,
    ) -> Tensor<FloatPowerOf<O::Common>, O::Shape, D>
    where
        O::Common: FloatPower,
    {
        from_parts!(other.apply_in(self, Pow).or_panic())
    }

    /// [`float_power`](Self::float_power), or `Err` with PyTorch's message
    /// when `Dyn` sizes do not broadcast.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let a = DynTensor::<f32>::ones(&[2, 3]);
    /// assert!(a.try_float_power(&DynTensor::<f32>::ones(&[4])).is_err());
    /// ```
    #[allow(clippy::type_complexity)]
    pub fn try_float_power<O: MathOperand<T, S, D>>(
        &self,
        other: &O,
    ) -> Result<Tensor<FloatPowerOf<O::Common>, O::Shape, D>, Error>
    where
        O::Common: FloatPower,
    {
        Ok(from_parts!(other.apply_in(self, Pow)?))
    }

    /// PyTorch's `float_power` with a real number for exponent: `self` in
    /// float64 (complex128 for complex tensors) to the power `e`, the
    /// exponents 2, 3, ±0.5, -1 and -2 through multiplication, `sqrt` and
    /// reciprocals, as `pow`'s.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// assert_eq!(tensor![3u8].float_powf(2.0).to_vec(), vec![9.0f64]);
    /// ```
    pub fn float_powf(&self, e: f64) -> Tensor<FloatPowerOf<T>, S, D>
    where
        T: FloatPower,
    {
        let e: FloatPowerOf<T> = cast(e);
        let f = InCommonUnary::<_, FloatPowerOf<T>>::new(PowScalar(e));
        from_parts!(unary(StridedRef::new(&self.data, &self.layout), f).or_panic())
    }

    /// `self` to the power `e`, a plain number: an integer or bool tensor
    /// gives float32, as `x.pow(2.5)` in PyTorch.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// assert_eq!(tensor![4.0f32, 9.0].powf(0.5).to_vec(), vec![2.0, 3.0]);
    /// assert_eq!(tensor![4i64].powf(0.5).to_vec(), vec![2.0f32]);
    /// ```
    pub fn powf(&self, e: f64) -> Tensor<CommonScalar<T, S, f64>, S, D>
    where
        T: CommonWithScalar<f64, S>,
        CommonScalar<T, S, f64>: Power,
    {
        let e: CommonScalar<T, S, f64> = cast(e);
        let f = InCommonUnary::<_, CommonScalar<T, S, f64>>::new(PowScalar(e));
        from_parts!(unary(StridedRef::new(&self.data, &self.layout), f).or_panic())
    }

    /// Each element limited to `[min, max]`, the bounds plain numbers that
    /// promote as PyTorch's scalars (`int_tensor.clamp(0.5, 1.5)` is
    /// float32, `int_tensor.clamp(0, 6)` keeps its type). NaN stays NaN;
    /// `min > max` gives `max` everywhere. Integer bounds outside an
    /// integer type's range are limited to it; a minimum above its largest
    /// value (or a maximum below its smallest) panics with PyTorch's message
    /// (`try_clamp` returns it). Not for complex tensors.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// assert_eq!(tensor![-1.0f32, 0.5, 9.0].clamp(0.0, 1.0).to_vec(), vec![0.0, 0.5, 1.0]);
    /// assert_eq!(tensor![-3i16, 7].clamp(0, 6).to_vec(), vec![0i16, 6]);
    /// ```
    pub fn clamp<N: Number>(&self, min: N, max: N) -> Tensor<CommonScalar<T, S, N>, S, D>
    where
        T: CommonWithScalar<N, S>,
        CommonScalar<T, S, N>: Clampable,
    {
        self.try_clamp(min, max).or_panic()
    }

    /// [`clamp`](Self::clamp), or `Err` with PyTorch's message when a bound
    /// leaves no value of an integer type.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// assert_eq!(
    ///     tensor![1i8].try_clamp(200, 300).unwrap_err().to_string(),
    ///     "Clamp min value 200 is outside the representable range of Char"
    /// );
    /// assert_eq!(tensor![1u8, 9].try_clamp(-5, 4).unwrap().to_vec(), vec![1, 4]);
    /// ```
    #[allow(clippy::type_complexity)]
    pub fn try_clamp<N: Number>(
        &self,
        min: N,
        max: N,
    ) -> Result<Tensor<CommonScalar<T, S, N>, S, D>, Error>
    where
        T: CommonWithScalar<N, S>,
        CommonScalar<T, S, N>: Clampable,
    {
        let (lo, hi) = clamp_bounds(min.to_scalar(), max.to_scalar())?;
        let f = InCommonUnary::<_, CommonScalar<T, S, N>>::new(Clamp(lo, hi));
        Ok(from_parts!(unary(
            StridedRef::new(&self.data, &self.layout),
            f
        )?))
    }
}

/// The plain numbers `clamp` takes as bounds: Python's scalar kinds, as
/// the operators take them (`bool`, `i64`, `f64`, `Complex<f64>`), so
/// unsuffixed literals infer on their own; a number counts only by its
/// category.
pub trait Number: Element {}
impl Number for bool {}
impl Number for i64 {}
impl Number for f64 {}
impl Number for num_complex::Complex<f64> {}

/// A unary function computed in the type `C`: the element is converted to
/// `C` first (the identity when it already is one).
#[derive(Debug)]
pub struct InCommonUnary<F, C>(pub F, core::marker::PhantomData<fn() -> C>);
impl<F, C> InCommonUnary<F, C> {
    /// `f` in the type `C`.
    pub fn new(f: F) -> Self {
        InCommonUnary(f, core::marker::PhantomData)
    }
}
impl<F: Copy, C> Clone for InCommonUnary<F, C> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<F: Copy, C> Copy for InCommonUnary<F, C> {}
impl<A: Element, C: Element, U, F: UnaryFn<C, U>> UnaryFn<A, U> for InCommonUnary<F, C> {
    #[inline(always)]
    fn call(&self, a: A) -> U {
        self.0.call(cast::<A, C>(a))
    }
    /// `f`'s own runs when the element already has the type `C`.
    #[inline(always)]
    fn call_slice(&self, a: &[A], out: &mut [core::mem::MaybeUninit<U>]) {
        if let Some(a) = crate::ops::functions::retyped::<A, C>(a) {
            return self.0.call_slice(a, out);
        }
        for (o, &x) in out.iter_mut().zip(a) {
            o.write(self.call(x));
        }
    }
    /// `f`'s own kernel when the element already has the type `C`, else
    /// the same function computed in `C` by a converting kernel.
    fn kernel_op(&self) -> Option<KernelOp> {
        let op = self.0.kernel_op()?;
        if same_type::<A, C>() {
            Some(op)
        } else {
            Some(op.computed_in(C::DTYPE))
        }
    }
}

/// `x`'s elements broadcast to `sizes`, with `strides` (0 where stretched).
fn broadcast_ref<'a, T: Element, D: Backend>(
    x: StridedRef<'a, T, D>,
    sizes: &'a [usize],
    strides: &'a [usize],
) -> StridedRef<'a, T, D> {
    StridedRef {
        ptr: x.ptr,
        sizes,
        strides,
        offset: x.offset,
    }
}

/// The device two tensors' operation runs on: their own when they share
/// one, the GPU's when one is on the CPU (which only a rank-0 CPU tensor may
/// be: [`TakesFrom`] says so). One rule per impl, as typenum's operators.
///
/// ```
/// use shaped::ops::math::JoinDevice;
/// use shaped::backend::Cpu;
/// let _: <Cpu as JoinDevice<Cpu>>::Out = Cpu;
/// ```
pub trait JoinDevice<Other: Backend>: Backend {
    /// The device of the operation.
    type Out: Elementwise;
}
/// `JoinDevice` impls: `Self with Other is Out`.
macro_rules! join_devices {
    ($($(#[$attr:meta])* $a:ty, $b:ty => $out:ty;)*) => {$(
        $(#[$attr])*
        impl JoinDevice<$b> for $a {
            type Out = $out;
        }
    )*};
}
join_devices! {
    crate::backend::Cpu, crate::backend::Cpu => crate::backend::Cpu;
    #[cfg(feature = "cuda")]
    crate::backend::Cuda, crate::backend::Cuda => crate::backend::Cuda;
    #[cfg(feature = "cuda")]
    crate::backend::Cpu, crate::backend::Cuda => crate::backend::Cuda;
    #[cfg(feature = "cuda")]
    crate::backend::Cuda, crate::backend::Cpu => crate::backend::Cuda;
}

/// The device `where_` runs on, for a condition on `DC` and operands on
/// `DA` and `DB`.
pub type WhereDevice<DC, DA, DB> = <<DC as JoinDevice<DA>>::Out as JoinDevice<DB>>::Out;

/// The device of a `where_` (`Self`) taking a tensor of shape `S` that
/// lives on `D`: a tensor on `Self` itself, or, as PyTorch allows, a rank-0
/// CPU tensor with CUDA tensors (its one element is copied to the GPU), the
/// condition as well as an operand. (A trait rather than one type
/// parameter, so that a mismatch is explained in words.)
///
/// ```
/// use shaped::ops::math::TakesFrom;
/// use shaped::backend::Cpu;
/// fn takes<D: TakesFrom<Cpu, ()>>() {}
/// takes::<Cpu>();
/// ```
#[diagnostic::on_unimplemented(
    message = "expected all tensors to be on the same device, but `where_` got a tensor on `{D}` with tensors on `{Self}`",
    label = "one of these tensors, of shape `{S}`, lives on `{D}`",
    note = "move it first: `to_device(&gpu)` or `to_cpu()` (only a rank-0 CPU tensor may join CUDA tensors)"
)]
pub trait TakesFrom<D: Backend, S: Shape>: Backend {
    /// The tensor `x` on this device, whose runtime identity is `device`.
    fn take<T: Element, R: Repr>(
        x: &Tensor<T, S, D, R>,
        device: Device,
    ) -> Result<OnDevice<'_, T, S, Self>, Error>;
}

/// A `where_` tensor on the operation's device: the tensor itself, or a copy
/// of a rank-0 CPU tensor on the GPU.
///
/// ```
/// use shaped::ops::math::{OnDevice, TakesFrom};
/// use shaped::prelude::*;
/// let x = Tensor::<f32, shape![2]>::ones();
/// let on = <Cpu as TakesFrom<Cpu, shape![2]>>::take(&x, x.device()).unwrap();
/// assert!(matches!(on, OnDevice::Same(_)));
/// ```
pub enum OnDevice<'a, T: Element, S: Shape, D: Backend> {
    /// The operand, already on the device.
    Same(StridedRef<'a, T, D>),
    /// A copy on the device.
    Copied(Tensor<T, S, D>),
}

impl<T: Element, S: Shape, D: Backend> OnDevice<'_, T, S, D> {
    fn strided(&self) -> StridedRef<'_, T, D> {
        match self {
            OnDevice::Same(x) => StridedRef { ..*x },
            OnDevice::Copied(x) => x.strided(),
        }
    }
}

impl<D: Backend, S: Shape> TakesFrom<D, S> for D {
    fn take<T: Element, R: Repr>(
        x: &Tensor<T, S, D, R>,
        _: Device,
    ) -> Result<OnDevice<'_, T, S, D>, Error> {
        Ok(OnDevice::Same(x.strided()))
    }
}

#[cfg(feature = "cuda")]
impl TakesFrom<crate::backend::Cpu, ()> for crate::backend::Cuda {
    fn take<T: Element, R: Repr>(
        x: &Tensor<T, (), crate::backend::Cpu, R>,
        device: Device,
    ) -> Result<OnDevice<'_, T, (), Self>, Error> {
        let gpu = crate::backend::Cuda::open(&device)?;
        Ok(OnDevice::Copied(x.to_device(&gpu)?))
    }
}

/// The element type of `where_`'s condition: `bool` alone, as PyTorch's.
///
/// ```
/// use shaped::ops::math::Condition;
/// fn condition<C: Condition>() {}
/// condition::<bool>();
/// ```
#[diagnostic::on_unimplemented(
    message = "where expected condition to be a boolean tensor, but got a tensor of `{Self}`",
    label = "this condition has `{Self}` elements",
    note = "compare to make one: `x.ne(0)`, `x.gt(0.5)`"
)]
pub trait Condition: Element {
    /// The condition's elements, as bools.
    fn truth<D: Backend>(x: StridedRef<'_, Self, D>) -> StridedRef<'_, bool, D>;
}

impl Condition for bool {
    fn truth<D: Backend>(x: StridedRef<'_, bool, D>) -> StridedRef<'_, bool, D> {
        x
    }
}

/// `where_` and `try_where`, which share their bounds.
macro_rules! where_functions {
    ($($(#[$doc:meta])* $name:ident -> $ret:ty => |$c:ident, $a:ident, $b:ident| $body:expr;)*) => {$(
        $(#[$doc])*
        #[allow(clippy::type_complexity)]
        pub fn $name<C, A, B, SC, SA, SB, DC, DA, DB, RC, RA, RB>(
            $c: &Tensor<C, SC, DC, RC>,
            $a: &Tensor<A, SA, DA, RA>,
            $b: &Tensor<B, SB, DB, RB>,
        ) -> $ret
        where
            C: Condition,
            A: CommonType<B, SA, SB>,
            DA: Backend,
            DB: Backend,
            DC: JoinDevice<DA>,
            <DC as JoinDevice<DA>>::Out: JoinDevice<DB>,
            WhereDevice<DC, DA, DB>: TakesFrom<DC, SC> + TakesFrom<DA, SA> + TakesFrom<DB, SB>,
            B: Element,
            SC: BroadcastShape<SA>,
            Broadcast<SC, SA>: BroadcastShape<SB>,
            SA: Shape,
            SB: Shape,
            RC: Repr,
            RA: Repr,
            RB: Repr,
        {
            $body
        }
    )*};
}

where_functions! {
    /// `where(cond, a, b)`: `a` where `cond` is true, else `b`, the three
    /// broadcast together (the result shape is computed by the compiler) and
    /// `a`, `b` promoted to their common type, as `torch.where`. The three
    /// live on one device, except that any of them may be a rank-0 CPU tensor
    /// with CUDA tensors ([`TakesFrom`]).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let cond = tensor![[true], [false]];
    /// let a = tensor![1i32, 2, 3];
    /// let b = tensor![0.5f32];
    /// let w = shaped::where_(&cond, &a, &b); // (2, 3), float32
    /// assert_eq!(w.to_vec(), vec![1.0, 2.0, 3.0, 0.5, 0.5, 0.5]);
    /// ```
    where_ -> Tensor<Common<A, SA, B, SB>, Broadcast<Broadcast<SC, SA>, SB>, WhereDevice<DC, DA, DB>>
        => |cond, a, b| try_where(cond, a, b).or_panic();
    /// [`where_`], or `Err` with PyTorch's message when `Dyn` sizes do not
    /// broadcast (the condition with `a` first, then with `b`, as PyTorch
    /// reports it).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let cond = DynTensor::<bool>::ones(&[2, 3]);
    /// let err = shaped::ops::math::try_where(&cond, &DynTensor::<f32>::ones(&[4]), &DynTensor::<f32>::ones(&[3]));
    /// assert_eq!(
    ///     err.unwrap_err().to_string(),
    ///     "The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 1"
    /// );
    /// ```
    try_where -> Result<Tensor<Common<A, SA, B, SB>, Broadcast<Broadcast<SC, SA>, SB>, WhereDevice<DC, DA, DB>>, Error>
        => |cond, a, b| {
        check_runtime_rank::<Common<A, SA, B, SB>>(
            (A::DTYPE, SA::RANK, a.rank()),
            (B::DTYPE, SB::RANK, b.rank()),
        )?;
        let ca = cond.rank().max(a.rank());
        let mut first = vec![0; ca];
        broadcast_sizes_into(cond.layout.sizes(), a.layout.sizes(), &mut first)?;
        let rank = ca.max(b.rank());
        let mut sizes = <Broadcast<Broadcast<SC, SA>, SB> as Shape>::Sizes::filled(rank, 0);
        broadcast_sizes_into(&first, b.layout.sizes(), sizes.as_mut())?;
        checked_numel(sizes.as_ref())?;
        let strides_of = |s: &[usize], st: &[usize]| {
            let mut out = vec![0; rank];
            broadcast_strides(s, st, sizes.as_ref(), &mut out);
            out
        };
        let sc = strides_of(cond.layout.sizes(), cond.layout.strides());
        let sa = strides_of(a.layout.sizes(), a.layout.strides());
        let sb = strides_of(b.layout.sizes(), b.layout.strides());
        // The operation's device: the first that is not the CPU (the types
        // allow CPU tensors beside a GPU's only of rank 0).
        let device = [cond.device(), a.device(), b.device()]
            .into_iter()
            .find(|d| *d != Device::Cpu)
            .unwrap_or(Device::Cpu);
        type On<DC, DA, DB> = WhereDevice<DC, DA, DB>;
        let c_on = <On<DC, DA, DB> as TakesFrom<DC, SC>>::take(cond, device)?;
        let a_on = <On<DC, DA, DB> as TakesFrom<DA, SA>>::take(a, device)?;
        let b_on = <On<DC, DA, DB> as TakesFrom<DB, SB>>::take(b, device)?;
        let buffer = <WhereDevice<DC, DA, DB>>::select(
            sizes.as_ref(),
            broadcast_ref(C::truth(c_on.strided()), sizes.as_ref(), &sc),
            broadcast_ref(a_on.strided(), sizes.as_ref(), &sa),
            broadcast_ref(b_on.strided(), sizes.as_ref(), &sb),
        )?;
        Ok(Tensor::from_buffer(buffer, StridedLayout::contiguous(sizes)))
        };
}
