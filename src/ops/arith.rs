//! `+ - * /` and unary `-`, with broadcasting.
//!
//! Every owned/borrowed combination works (`&x + &y`, `x + &y`, `&x + y`,
//! `x + y`), and a plain number on either side (`&x * 2.0`, `1.0 - &x`). The
//! result shape is [`Broadcast<S1, S2>`], computed by the compiler; shapes
//! that cannot broadcast do not compile (see `ui-tests/fail/broadcast_*.rs`).
//! With `Dyn` sizes the check happens at run time and the operator panics
//! with PyTorch's message.
//!
//! Integer arithmetic wraps as in PyTorch. `/` is true division: integer
//! (and bool) tensors divide as `float32`, so `Tensor<i64, _> / Tensor<i64, _>`
//! is a `Tensor<f32, _>`.
//!
//! ```
//! use shaped::prelude::*;
//! let a = Tensor::<i64, shape![3, 1]>::from_vec(vec![0, 1, 2]).unwrap();
//! let b = Tensor::<i64, shape![1, 4]>::from_vec(vec![0, 1, 2, 3]).unwrap();
//! let c = &a + &b; // both stretch: (3, 4)
//! assert_eq!(c.to_vec(), vec![0, 1, 2, 3, 1, 2, 3, 4, 2, 3, 4, 5]);
//! let d = 10 - &c * 2;
//! assert_eq!(d[[2, 3]], 0);
//! ```

use super::kernels::{self, WithLeft, WithRight};
use super::{broadcast_binary, unary, Elementwise};
use crate::dtype::{Element, Numeric, TrueDiv};
use crate::error::Error;
use crate::shape::{Broadcast, BroadcastShape, Shape};
use crate::storage::Repr;
use crate::tensor::Tensor;
use core::borrow::Borrow;
use core::ops::{Add, Div, Mul, Neg, Sub};
use half::{bf16, f16};
use num_complex::Complex;

macro_rules! binary_operator {
    ($Trait:ident, $method:ident, $Fn:ident, $bound:ident, $Out:ty) => {
        binary_operator!(@forms $Trait, $method, $Fn, $bound, $Out;
            [&'a Tensor<T, S1, D, R1>] [&'b Tensor<T, S2, D, R2>];
            [Tensor<T, S1, D, R1>] [&'b Tensor<T, S2, D, R2>];
            [&'a Tensor<T, S1, D, R1>] [Tensor<T, S2, D, R2>];
            [Tensor<T, S1, D, R1>] [Tensor<T, S2, D, R2>];
        );
        binary_operator!(@scalar $Trait, $method, $Fn, $bound, $Out;
            [&'a Tensor<T, S, D, R>];
            [Tensor<T, S, D, R>];
        );
    };
    // Tensor with tensor, owned or borrowed on each side: one body, which
    // borrows both (`Borrow` covers `Tensor` and `&Tensor` alike).
    (@forms $Trait:ident, $method:ident, $Fn:ident, $bound:ident, $Out:ty;
        $([$($Lhs:tt)*] [$($Rhs:tt)*];)*) => {$(
        impl<'a, 'b, T, S1, S2, D, R1, R2> $Trait<$($Rhs)*> for $($Lhs)*
        where
            T: $bound,
            S1: BroadcastShape<S2>,
            S2: Shape,
            D: Elementwise,
            R1: Repr,
            R2: Repr,
        {
            type Output = Tensor<$Out, Broadcast<S1, S2>, D>;
            fn $method(self, rhs: $($Rhs)*) -> Self::Output {
                let lhs: &Tensor<T, S1, D, R1> = self.borrow();
                let rhs: &Tensor<T, S2, D, R2> = rhs.borrow();
                broadcast_binary(lhs, rhs, kernels::$Fn).unwrap_or_else(|e| panic!("{e}"))
            }
        }
    )*};
    // Tensor with a plain number on the right.
    (@scalar $Trait:ident, $method:ident, $Fn:ident, $bound:ident, $Out:ty; $([$($Lhs:tt)*];)*) => {$(
        impl<'a, T: $bound, S: Shape, D: Elementwise, R: Repr> $Trait<T> for $($Lhs)* {
            type Output = Tensor<$Out, S, D>;
            fn $method(self, rhs: T) -> Self::Output {
                let lhs: &Tensor<T, S, D, R> = self.borrow();
                unary(lhs, WithRight(kernels::$Fn, rhs)).unwrap_or_else(|e| panic!("{e}"))
            }
        }
    )*};
}

binary_operator!(Add, add, Add, Numeric, T);
binary_operator!(Sub, sub, Sub, Numeric, T);
binary_operator!(Mul, mul, Mul, Numeric, T);
binary_operator!(Div, div, Div, TrueDiv, <T as TrueDiv>::Quotient);

/// `scalar op tensor` needs one impl per scalar type (Rust's orphan rule).
macro_rules! scalar_left {
    ($Trait:ident, $method:ident, $Fn:ident, $Out:ident; $($t:ty),*) => {$(
        scalar_left!(@forms $Trait, $method, $Fn, $t, $Out<$t>;
            [&'a Tensor<$t, S, D, R>] [Tensor<$t, S, D, R>]);
    )*};
    (@forms $Trait:ident, $method:ident, $Fn:ident, $t:ty, $Out:ty; $([$($Rhs:tt)*])*) => {$(
        impl<'a, S: Shape, D: Elementwise, R: Repr> $Trait<$($Rhs)*> for $t {
            type Output = Tensor<$Out, S, D>;
            fn $method(self, rhs: $($Rhs)*) -> Self::Output {
                let rhs: &Tensor<$t, S, D, R> = rhs.borrow();
                unary(rhs, WithLeft(kernels::$Fn, self)).unwrap_or_else(|e| panic!("{e}"))
            }
        }
    )*};
}

/// The element type itself, as the result type of `+ - *`.
type Same<T> = T;
/// The element type of `a / b`.
type Quotient<T> = <T as TrueDiv>::Quotient;

macro_rules! numeric_scalars_left {
    ($($Trait:ident, $method:ident, $Fn:ident, $Out:ident);*) => {$(
        scalar_left!($Trait, $method, $Fn, $Out;
            f16, bf16, f32, f64, Complex<f32>, Complex<f64>, u8, i8, i16, i32, i64);
    )*};
}
numeric_scalars_left!(Add, add, Add, Same; Sub, sub, Sub, Same; Mul, mul, Mul, Same; Div, div, Div, Quotient);

/// `-x`, elementwise (integers wrap), for owned and borrowed tensors.
macro_rules! negation {
    ($([$($X:tt)*])*) => {$(
        impl<'a, T: Numeric, S: Shape, D: Elementwise, R: Repr> Neg for $($X)* {
            type Output = Tensor<T, S, D>;
            fn neg(self) -> Self::Output {
                let x: &Tensor<T, S, D, R> = self.borrow();
                unary(x, kernels::Neg).unwrap_or_else(|e| panic!("{e}"))
            }
        }
    )*};
}
negation!([&'a Tensor<T, S, D, R>] [Tensor<T, S, D, R>]);

/// `try_add`, `try_sub`, `try_mul`, `try_div`: the operators, returning
/// PyTorch's error instead of panicking when `Dyn` sizes do not broadcast.
macro_rules! fallible_operators {
    ($($(#[$doc:meta])* $name:ident => $Fn:ident, $bound:ident, $Out:ty;)*) => {
        impl<T: Element, S: Shape, D: Elementwise, R: Repr> Tensor<T, S, D, R> {$(
            $(#[$doc])*
            pub fn $name<S2: Shape, R2: Repr>(
                &self,
                rhs: &Tensor<T, S2, D, R2>,
            ) -> Result<Tensor<$Out, Broadcast<S, S2>, D>, Error>
            where
                T: $bound,
                S: BroadcastShape<S2>,
            {
                broadcast_binary(self, rhs, kernels::$Fn)
            }
        )*}
    };
}

fallible_operators! {
    /// `self + rhs`, or `Err` when `Dyn` sizes do not broadcast.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let a = DynTensor::<f32>::zeros(&[5, 2, 4, 1]);
    /// let b = DynTensor::<f32>::zeros(&[3, 1, 1]);
    /// assert_eq!(
    ///     a.try_add(&b).unwrap_err().to_string(),
    ///     "The size of tensor a (2) must match the size of tensor b (3) at non-singleton dimension 1"
    /// );
    /// assert_eq!(a.try_add(&DynTensor::zeros(&[4, 1])).unwrap().shape(), [5, 2, 4, 1]);
    /// ```
    try_add => Add, Numeric, T;
    /// `self - rhs`, or `Err` when `Dyn` sizes do not broadcast.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let a = Tensor::<i32, shape![Dyn, 2]>::ones_with(&[3, 2]);
    /// let b = Tensor::<i32, shape![Dyn]>::ones_with(&[3]); // 2 vs a runtime 3
    /// assert!(a.try_sub(&b).is_err());
    /// ```
    try_sub => Sub, Numeric, T;
    /// `self * rhs`, or `Err` when `Dyn` sizes do not broadcast.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let a = DynTensor::<f64>::full(&[2], 3.0);
    /// assert_eq!(a.try_mul(&a).unwrap().to_vec(), vec![9.0, 9.0]);
    /// ```
    try_mul => Mul, Numeric, T;
    /// `self / rhs` (true division), or `Err` when `Dyn` sizes do not
    /// broadcast.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let a = DynTensor::<i64>::full(&[2], 3);
    /// assert_eq!(a.try_div(&DynTensor::full(&[1], 2)).unwrap().to_vec(), vec![1.5f32, 1.5]);
    /// ```
    try_div => Div, TrueDiv, <T as TrueDiv>::Quotient;
}
