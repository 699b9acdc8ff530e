//! The pointwise catalogue's functions of two tensors: `atan2`, `hypot`,
//! `copysign`, `nextafter`, `logaddexp`, `logaddexp2` and `xlogy`, with
//! broadcasting and type promotion as `+`.
//!
//! Result types follow PyTorch: `atan2`, `copysign` and `xlogy` of integer
//! and bool operands compute in and give float32; the others need floating
//! operands (complex ones too for `logaddexp`) and keep their common type.
//! What PyTorch refuses (complex `atan2`, integer `hypot`, ...) does not
//! compile, with a message that says so ([`crate::dtype::pairs`]);
//! `AnyTensor`'s forms return PyTorch's texts.
//!
//! ```
//! use shaped::prelude::*;
//! let y = tensor![1.0f64, -1.0];
//! let x = tensor![[1.0f64], [-1.0]];
//! let angles = y.atan2(&x); // (2, 2), broadcast
//! assert_eq!(angles[[0, 0]], core::f64::consts::FRAC_PI_4);
//! assert_eq!(tensor![3.0f32].hypot(&tensor![4.0f32]).to_vec(), vec![5.0]);
//! assert_eq!(tensor![2i64, 0].xlogy(&tensor![1.0f32, 0.0]).to_vec(), vec![0.0, 0.0]);
//! ```

use super::functions::BinaryFn;
use super::math::MathOperand;
use super::op_codes::{KernelOp, OpCode};
use crate::backend::Elementwise;
use crate::dtype::Element;
use crate::dtype::pairs::{FloatPair, LogAddExp as HasLogAddExp, PairMath, RealPair};
use crate::error::{Error, OrPanic};
use crate::shape::Shape;
use crate::storage::Repr;
use crate::tensor::{Tensor, from_parts};

/// Declares element functions of two operands of one type.
macro_rules! pair_fns {
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
    )*};
}

pair_fns! {
    /// `atan2(a, b)`, the angle of the point `(b, a)`.
    Atan2: |a, b| [PairMath] PairMath::atan2(a, b);
    /// `sqrt(a² + b²)`.
    Hypot: |a, b| [PairMath] PairMath::hypot(a, b);
    /// `|a|` with the sign of `b`.
    Copysign: |a, b| [PairMath] PairMath::copysign(a, b);
    /// The next number after `a` toward `b`.
    Nextafter: |a, b| [PairMath] PairMath::nextafter(a, b);
    /// `ln(e^a + e^b)`.
    LogAddExp: |a, b| [HasLogAddExp] HasLogAddExp::logaddexp(a, b);
    /// `log2(2^a + 2^b)`.
    LogAddExp2: |a, b| [PairMath] PairMath::logaddexp2(a, b);
    /// `a ln(b)`: 0 where `a` is 0, NaN where `b` is NaN.
    Xlogy: |a, b| [PairMath] PairMath::xlogy(a, b);
}

/// `atan2`, `copysign`, `xlogy` and their `try_` forms: computed in the
/// common type's [`RealPair::Real`] (float32 for integers and bool). The
/// result type is a parameter `U` fixed by `RealPair<Real = U>`, so that a
/// complex operand's error is [`RealPair`]'s, in words.
macro_rules! real_pair_methods {
    ($($(#[$doc:meta])* $name:ident, $try_name:ident => $Fn:ident;)*) => {
        impl<T: Element, S: Shape, D: Elementwise, R: Repr> Tensor<T, S, D, R> {$(
            $(#[$doc])*
            pub fn $name<O, U>(&self, other: &O) -> Tensor<U, O::Shape, D>
            where
                O: MathOperand<T, S, D>,
                O::Common: RealPair<Real = U>,
                U: PairMath + Element,
            {
                from_parts!(other.apply_in(self, $Fn).or_panic())
            }

            #[doc = concat!("[`", stringify!($name), "`](Self::", stringify!($name), "), or `Err` with PyTorch's message when `Dyn` sizes do not broadcast.")]
            ///
            /// ```
            /// use shaped::prelude::*;
            /// let a = DynTensor::<f32>::ones(&[2, 3]);
            #[doc = concat!("assert!(a.", stringify!($try_name), "(&DynTensor::<f32>::ones(&[4])).is_err());")]
            /// ```
            pub fn $try_name<O, U>(&self, other: &O) -> Result<Tensor<U, O::Shape, D>, Error>
            where
                O: MathOperand<T, S, D>,
                O::Common: RealPair<Real = U>,
                U: PairMath + Element,
            {
                Ok(from_parts!(other.apply_in(self, $Fn)?))
            }
        )*}
    };
}

real_pair_methods! {
    /// `atan2(self, other)` elementwise: the angle of the point
    /// `(other, self)` in `[-pi, pi]`, with broadcasting and type
    /// promotion; integers and bool give float32. Not for complex tensors.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let a = tensor![0.0f32, -0.0, 1.0].atan2(&tensor![-1.0f32]);
    /// assert_eq!(a.to_vec(), vec![core::f32::consts::PI, -core::f32::consts::PI, 2.3561945]);
    /// ```
    atan2, try_atan2 => Atan2;
    /// `|self|` with the sign bit of `other` elementwise, with broadcasting
    /// and type promotion; integers and bool give float32. Not for complex
    /// tensors.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let c = tensor![1i32, 2].copysign(&tensor![-0.0f32, 1.0]);
    /// assert_eq!(c.to_vec(), vec![-1.0, 2.0]);
    /// ```
    copysign, try_copysign => Copysign;
    /// `self * ln(other)` elementwise, 0 where `self` is 0 (even where
    /// `ln(other)` is infinite) and NaN where `other` is NaN; with
    /// broadcasting and type promotion; integers and bool give float32.
    /// Not for complex tensors.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let v = tensor![0.0f64, 2.0].xlogy(&tensor![0.0f64, 1.0]);
    /// assert_eq!(v.to_vec(), vec![0.0, 0.0]);
    /// ```
    xlogy, try_xlogy => Xlogy;
}

/// `hypot`, `nextafter`, `logaddexp`, `logaddexp2` and their `try_` forms:
/// computed in the common type, which must have the function (`$bound`).
macro_rules! float_pair_methods {
    ($($(#[$doc:meta])* $name:ident, $try_name:ident => $Fn:ident: $bound:ident;)*) => {
        impl<T: Element, S: Shape, D: Elementwise, R: Repr> Tensor<T, S, D, R> {$(
            $(#[$doc])*
            pub fn $name<O: MathOperand<T, S, D>>(&self, other: &O) -> Tensor<O::Common, O::Shape, D>
            where
                O::Common: $bound,
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
                O::Common: $bound,
            {
                Ok(from_parts!(other.apply(self, $Fn)?))
            }
        )*}
    };
}

float_pair_methods! {
    /// `sqrt(self² + other²)` elementwise without overflow on the way,
    /// with broadcasting and type promotion. Floating tensors only.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// assert_eq!(tensor![3.0f32, 1e30].hypot(&tensor![4.0f32, 1e30]).to_vec(), vec![5.0, 1.4142135e30]);
    /// ```
    hypot, try_hypot => Hypot: FloatPair;
    /// The next representable number after each element of `self` toward
    /// the one of `other` (`other` itself where they are equal), with
    /// broadcasting and type promotion. Floating tensors only.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let n = tensor![1.0f32, 0.0].nextafter(&tensor![2.0f32, -1.0]);
    /// assert_eq!(n.to_vec(), vec![1.0 + f32::EPSILON, -f32::from_bits(1)]);
    /// ```
    nextafter, try_nextafter => Nextafter: FloatPair;
    /// `ln(e^self + e^other)` elementwise without overflow, with
    /// broadcasting and type promotion (an infinity with itself gives
    /// itself). Floating and complex tensors.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let l = tensor![1000.0f64, f64::NEG_INFINITY].logaddexp(&tensor![1000.0f64, f64::NEG_INFINITY]);
    /// assert_eq!(l.to_vec(), vec![1000.0 + 2f64.ln(), f64::NEG_INFINITY]);
    /// ```
    logaddexp, try_logaddexp => LogAddExp: HasLogAddExp;
    /// `log2(2^self + 2^other)` elementwise without overflow, with
    /// broadcasting and type promotion. Floating tensors only.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// assert_eq!(tensor![3.0f32].logaddexp2(&tensor![3.0f32]).to_vec(), vec![4.0]);
    /// ```
    logaddexp2, try_logaddexp2 => LogAddExp2: FloatPair;
}
