//! `+ - * /` and unary `-`, and the bitwise `& | ^ << >>` of integer (and,
//! but for shifts, bool) tensors, with broadcasting.
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
//! is a `Tensor<f32, _>`. A float16 or bfloat16 tensor `*` or `/` a number
//! (or a rank-0 tensor, or one element of another type) computes in
//! float32 from the number's own value and rounds once, as PyTorch's CPU
//! kernels do; `+` and `-` round the number to the half type first, as
//! PyTorch's do.
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

use super::functions::{
    self, BinaryFn, ByNumber, ElementOp, InCommon, NumberOperandOf, OperandOf, OutputOf, WideRight,
    WithLeft, WithRight, reads_wide,
};
use super::op_codes::Side;
use super::{broadcast_map2, unary, with_number_types};
use crate::backend::Elementwise;
use crate::backend::StridedRef;
use crate::dtype::cast::cast;
use crate::dtype::promote::{
    Common, CommonScalar, CommonType, CommonWithScalar, check_runtime_rank,
};
use crate::dtype::{Element, Numeric};
use crate::error::Error;
use crate::error::OrPanic;
use crate::shape::{Broadcast, BroadcastShape, Shape, SizeArray};
use crate::storage::Repr;
use crate::tensor::{OwnedParts, Tensor, from_parts, owned_parts};
use core::ops::{Add, BitAnd, BitOr, BitXor, Div, Mul, Neg, Shl, Shr, Sub};

/// `f(a, b)` in the common type `C` of the operands, with broadcasting,
/// into a contiguous tensor over the size array `Z`: the shape-erased core
/// of every binary operator and comparison (one copy per element types,
/// kernel and rank). Each operand comes with its shape's static rank (`None`
/// for `DynShape`). `Err` when `Dyn` sizes do not broadcast, or a `DynShape`
/// operand of rank 0 makes PyTorch pick another type than `C`.
pub(crate) fn promoted_binary<A, B, C, U, Z, D, F>(
    a: (StridedRef<'_, A, D>, Option<usize>),
    b: (StridedRef<'_, B, D>, Option<usize>),
    f: F,
) -> Result<OwnedParts<U, D, Z>, Error>
where
    A: Element,
    B: Element,
    C: Element,
    U: Element,
    Z: SizeArray,
    D: Elementwise,
    F: BinaryFn<C, C, U>,
{
    promoted_binary_in::<A, B, C, C, U, Z, D, F>(a, b, f)
}

/// [`promoted_binary`] computed in `K` rather than in the common type `C`
/// itself (float64 for `float_power`): both operands converted to `K`,
/// the operands' ranks checked against `C` as PyTorch picks it.
pub(crate) fn promoted_binary_in<A, B, C, K, U, Z, D, F>(
    (a, a_rank): (StridedRef<'_, A, D>, Option<usize>),
    (b, b_rank): (StridedRef<'_, B, D>, Option<usize>),
    f: F,
) -> Result<OwnedParts<U, D, Z>, Error>
where
    A: Element,
    B: Element,
    C: Element,
    K: Element,
    U: Element,
    Z: SizeArray,
    D: Elementwise,
    F: BinaryFn<K, K, U>,
{
    check_runtime_rank::<C>(
        (A::DTYPE, a_rank, a.sizes.len()),
        (B::DTYPE, b_rank, b.sizes.len()),
    )?;
    let (buffer, layout) = broadcast_map2(a, b, InCommon::<F, K>::new(f))?;
    Ok(owned_parts(buffer, layout))
}

/// [`promoted_binary`] of `*` and `/`: when the common type `C` is a
/// half type and `b` is one element of another type (a rank-0 float32
/// tensor, say), the operation computes in float32 from `b`'s own value
/// ([`WideRight`]), as PyTorch's CPU kernels read such an operand.
pub(crate) fn promoted_wide_right<A, B, C, U, Z, D, F>(
    (a, a_rank): (StridedRef<'_, A, D>, Option<usize>),
    (b, b_rank): (StridedRef<'_, B, D>, Option<usize>),
    f: F,
) -> Result<OwnedParts<U, D, Z>, Error>
where
    A: Element,
    B: Element,
    C: Element,
    U: Element,
    Z: SizeArray,
    D: Elementwise,
    F: BinaryFn<C, C, U> + BinaryFn<f32, f32, f32>,
{
    if reads_wide::<B, C>(b.sizes) {
        check_runtime_rank::<C>(
            (A::DTYPE, a_rank, a.sizes.len()),
            (B::DTYPE, b_rank, b.sizes.len()),
        )?;
        let (buffer, layout) = broadcast_map2(a, b, WideRight::<F, U>::new(f))?;
        return Ok(owned_parts(buffer, layout));
    }
    promoted_binary::<A, B, C, U, Z, D, F>((a, a_rank), (b, b_rank), f)
}

/// A tensor as an operand of [`promoted_binary`]: its elements and its
/// shape's static rank (a macro, so that no function is compiled per shape).
macro_rules! operand {
    ($x:expr, $S:ty) => {
        (StridedRef::new(&$x.data, &$x.layout), <$S as Shape>::RANK)
    };
}
pub(crate) use operand;

macro_rules! binary_operator {
    ($Trait:ident, $method:ident, $Fn:ident, $number:ident [$wide:path]) => {
        binary_operator!(@forms $Trait, $method, $Fn, $number [$wide];
            [&'a Tensor<A, S1, D, R1>] [&'b Tensor<B, S2, D, R2>];
            [Tensor<A, S1, D, R1>] [&'b Tensor<B, S2, D, R2>];
            [&'a Tensor<A, S1, D, R1>] [Tensor<B, S2, D, R2>];
            [Tensor<A, S1, D, R1>] [Tensor<B, S2, D, R2>];
        );
        binary_operator!(@scalar $Trait, $method, $Fn, $number [$wide];
            [&'a Tensor<A, S, D, R>];
            [Tensor<A, S, D, R>];
        );
    };
    // Tensor with tensor, owned or borrowed on each side: one body, which
    // borrows both (`Borrow` covers `Tensor` and `&Tensor` alike).
    (@forms $Trait:ident, $method:ident, $Fn:ident, $number:ident [$wide:path];
        $([$($Lhs:tt)*] [$($Rhs:tt)*];)*) => {$(
        impl<'a, 'b, A, B, S1, S2, D, R1, R2> $Trait<$($Rhs)*> for $($Lhs)*
        where
            A: CommonType<B, S1, S2> + OperandOf<functions::$Fn>,
            B: OperandOf<functions::$Fn> + Element,
            S1: BroadcastShape<S2>,
            S2: Shape,
            D: Elementwise,
            R1: Repr,
            R2: Repr,
            functions::$Fn: BinaryFn<Common<A, S1, B, S2>, Common<A, S1, B, S2>, OutputOf<functions::$Fn, Common<A, S1, B, S2>>>,
            functions::$Fn: ElementOp<Common<A, S1, B, S2>> + $wide,
        {
            type Output = Tensor<OutputOf<functions::$Fn, Common<A, S1, B, S2>>, Broadcast<S1, S2>, D>;
            fn $method(self, rhs: $($Rhs)*) -> Self::Output {
                let (lhs, rhs) = (operand!(self, S1), operand!(rhs, S2));
                from_parts!(binary_operator!(@binary $number, Common<A, S1, B, S2>, lhs, rhs, functions::$Fn).or_panic())
            }
        }
    )*};
    (@binary plain, $C:ty, $a:expr, $b:expr, $f:expr) => {
        promoted_binary::<_, _, $C, _, _, _, _>($a, $b, $f)
    };
    (@binary wide, $C:ty, $a:expr, $b:expr, $f:expr) => {
        promoted_wide_right::<_, _, $C, _, _, _, _>($a, $b, $f)
    };
    // Tensor with a plain number on the right.
    // Tensor with a plain number on the right: one impl per number type, so
    // that `&a + &b` of tensors meets only the tensor impls (and a shape
    // error is reported in its own words).
    (@scalar $Trait:ident, $method:ident, $Fn:ident, $number:ident [$wide:path]; $([$($Lhs:tt)*];)*) => {$(
        with_number_types!(binary_operator!(@number $Trait, $method, $Fn, $number [$wide]; [$($Lhs)*]));
    )*};
    (@number $Trait:ident, $method:ident, $Fn:ident, $number:ident [$wide:path]; [$lhs:ty]; $($t:ty),*) => {$(
        impl<'a, A, S, D, R> $Trait<$t> for $lhs
        where
            A: CommonWithScalar<$t, S> + OperandOf<functions::$Fn>,
            for<'x> &'x $t: NumberOperandOf<functions::$Fn>,
            S: Shape,
            D: Elementwise,
            R: Repr,
            functions::$Fn: BinaryFn<CommonScalar<A, S, $t>, CommonScalar<A, S, $t>, OutputOf<functions::$Fn, CommonScalar<A, S, $t>>>,
            functions::$Fn: ElementOp<CommonScalar<A, S, $t>> + $wide,
        {
            type Output = Tensor<OutputOf<functions::$Fn, CommonScalar<A, S, $t>>, S, D>;
            fn $method(self, rhs: $t) -> Self::Output {
                let f = binary_operator!(@with_number $number, functions::$Fn, CommonScalar<A, S, $t>, rhs, Right);
                from_parts!(unary(StridedRef::new(&self.data, &self.layout), f).or_panic())
            }
        }
    )*};
    // A number fixed on one side of `f`, in the common type `$C`; `*` and
    // `/` keep it in float32 when `$C` is a half type ([`ByNumber`]).
    (@with_number plain, $f:expr, $C:ty, $n:expr, Right) => {
        WithRight(InCommon::<_, $C>::new($f), cast::<_, $C>($n))
    };
    (@with_number plain, $f:expr, $C:ty, $n:expr, Left) => {
        WithLeft(InCommon::<_, $C>::new($f), cast::<_, $C>($n))
    };
    (@with_number wide, $f:expr, $C:ty, $n:expr, $side:ident) => {
        ByNumber::<_, $C>::new($f, $n, Side::$side)
    };
}

binary_operator!(Add, add, Add, plain[Copy]);
binary_operator!(Sub, sub, Sub, plain[Copy]);
binary_operator!(Mul, mul, Mul, wide [BinaryFn<f32, f32, f32>]);
binary_operator!(Div, div, Div, wide [BinaryFn<f32, f32, f32>]);
binary_operator!(BitAnd, bitand, BitAnd, plain[Copy]);
binary_operator!(BitOr, bitor, BitOr, plain[Copy]);
binary_operator!(BitXor, bitxor, BitXor, plain[Copy]);
binary_operator!(Shl, shl, Shl, plain[Copy]);
binary_operator!(Shr, shr, Shr, plain[Copy]);

/// `scalar op tensor` needs one impl per scalar type (Rust's orphan rule).
macro_rules! scalar_left {
    ($Trait:ident, $method:ident, $Fn:ident, $number:ident [$wide:path]; $($t:ty),*) => {$(
        scalar_left!(@forms $Trait, $method, $Fn, $number [$wide], $t;
            [&'a Tensor<A, S, D, R>] [Tensor<A, S, D, R>]);
    )*};
    (@forms $Trait:ident, $method:ident, $Fn:ident, $number:ident [$wide:path], $t:ty; $([$($Rhs:tt)*])*) => {$(
        impl<'a, A, S: Shape, D: Elementwise, R: Repr> $Trait<$($Rhs)*> for $t
        where
            A: CommonWithScalar<$t, S> + OperandOf<functions::$Fn>,
            for<'x> &'x $t: NumberOperandOf<functions::$Fn>,
            functions::$Fn: BinaryFn<CommonScalar<A, S, $t>, CommonScalar<A, S, $t>, OutputOf<functions::$Fn, CommonScalar<A, S, $t>>>,
            functions::$Fn: ElementOp<CommonScalar<A, S, $t>> + $wide,
        {
            type Output = Tensor<OutputOf<functions::$Fn, CommonScalar<A, S, $t>>, S, D>;
            fn $method(self, rhs: $($Rhs)*) -> Self::Output {
                let f = binary_operator!(@with_number $number, functions::$Fn, CommonScalar<A, S, $t>, self, Left);
                from_parts!(unary(StridedRef::new(&rhs.data, &rhs.layout), f).or_panic())
            }
        }
    )*};
}

macro_rules! numeric_scalars_left {
    ($($Trait:ident, $method:ident, $Fn:ident, $number:ident [$wide:path]);*) => {$(
        with_number_types!(scalar_left!($Trait, $method, $Fn, $number [$wide]));
    )*};
}
numeric_scalars_left!(
    Add, add, Add, plain [Copy]; Sub, sub, Sub, plain [Copy];
    Mul, mul, Mul, wide [BinaryFn<f32, f32, f32>]; Div, div, Div, wide [BinaryFn<f32, f32, f32>];
    BitAnd, bitand, BitAnd, plain [Copy]; BitOr, bitor, BitOr, plain [Copy]; BitXor, bitxor, BitXor, plain [Copy];
    Shl, shl, Shl, plain [Copy]; Shr, shr, Shr, plain [Copy]
);

/// `-x`, elementwise (integers wrap), for owned and borrowed tensors.
macro_rules! negation {
    ($([$($X:tt)*])*) => {$(
        impl<'a, T: Numeric, S: Shape, D: Elementwise, R: Repr> Neg for $($X)* {
            type Output = Tensor<T, S, D>;
            fn neg(self) -> Self::Output {
                from_parts!(unary(StridedRef::new(&self.data, &self.layout), functions::Neg).or_panic())
            }
        }
    )*};
}
negation!([&'a Tensor<T, S, D, R>] [Tensor<T, S, D, R>]);

/// `try_add`, `try_sub`, `try_mul`, `try_div`: the operators, returning
/// PyTorch's error instead of panicking when `Dyn` sizes do not broadcast.
macro_rules! fallible_operators {
    ($($(#[$doc:meta])* $name:ident => $Fn:ident, $number:ident [$wide:path];)*) => {
        impl<T: Element, S: Shape, D: Elementwise, R: Repr> Tensor<T, S, D, R> {$(
            $(#[$doc])*
            #[allow(clippy::type_complexity)]
            pub fn $name<T2, S2: Shape, R2: Repr>(
                &self,
                rhs: &Tensor<T2, S2, D, R2>,
            ) -> Result<Tensor<OutputOf<functions::$Fn, Common<T, S, T2, S2>>, Broadcast<S, S2>, D>, Error>
            where
                T: CommonType<T2, S, S2> + OperandOf<functions::$Fn>,
                T2: Element + OperandOf<functions::$Fn>,
                S: BroadcastShape<S2>,
                functions::$Fn: BinaryFn<Common<T, S, T2, S2>, Common<T, S, T2, S2>, OutputOf<functions::$Fn, Common<T, S, T2, S2>>>,
                functions::$Fn: ElementOp<Common<T, S, T2, S2>> + $wide,
            {
                let (lhs, rhs) = (operand!(self, S), operand!(rhs, S2));
                Ok(from_parts!(binary_operator!(@binary $number, Common<T, S, T2, S2>, lhs, rhs, functions::$Fn)?))
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
    /// assert_eq!(a.try_add(&DynTensor::<f32>::zeros(&[4, 1])).unwrap().shape(), [5, 2, 4, 1]);
    /// ```
    try_add => Add, plain [Copy];
    /// `self - rhs`, or `Err` when `Dyn` sizes do not broadcast.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let a = Tensor::<i32, shape![Dyn, 2]>::ones_with(&[3, 2]);
    /// let b = Tensor::<i32, shape![Dyn]>::ones_with(&[3]); // 2 vs a runtime 3
    /// assert!(a.try_sub(&b).is_err());
    /// ```
    try_sub => Sub, plain [Copy];
    /// `self * rhs`, or `Err` when `Dyn` sizes do not broadcast.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let a = DynTensor::<f64>::full(&[2], 3.0);
    /// assert_eq!(a.try_mul(&a).unwrap().to_vec(), vec![9.0, 9.0]);
    /// ```
    try_mul => Mul, wide [BinaryFn<f32, f32, f32>];
    /// `self / rhs` (true division), or `Err` when `Dyn` sizes do not
    /// broadcast.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let a = DynTensor::<i64>::full(&[2], 3);
    /// assert_eq!(a.try_div(&DynTensor::full(&[1], 2)).unwrap().to_vec(), vec![1.5f32, 1.5]);
    /// ```
    try_div => Div, wide [BinaryFn<f32, f32, f32>];
    /// `self & rhs` (PyTorch's `bitwise_and`), or `Err` when `Dyn` sizes do
    /// not broadcast. Integer and bool tensors.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let a = DynTensor::<u8>::full(&[2], 0b1010);
    /// assert_eq!(a.try_bitwise_and(&DynTensor::full(&[1], 0b0110u8)).unwrap().to_vec(), vec![2, 2]);
    /// ```
    try_bitwise_and => BitAnd, plain [Copy];
    /// `self | rhs` (PyTorch's `bitwise_or`), or `Err` when `Dyn` sizes do
    /// not broadcast.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let a = DynTensor::<bool>::full(&[2], false);
    /// assert_eq!(a.try_bitwise_or(&DynTensor::full(&[2], true)).unwrap().to_vec(), vec![true, true]);
    /// ```
    try_bitwise_or => BitOr, plain [Copy];
    /// `self ^ rhs` (PyTorch's `bitwise_xor`), or `Err` when `Dyn` sizes do
    /// not broadcast.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let a = DynTensor::<i32>::full(&[1], 5);
    /// assert_eq!(a.try_bitwise_xor(&a).unwrap().to_vec(), vec![0]);
    /// ```
    try_bitwise_xor => BitXor, plain [Copy];
    /// `self << rhs` (PyTorch's `bitwise_left_shift`: 0 for a negative
    /// amount or one of the width or more), or `Err` when `Dyn` sizes do
    /// not broadcast. Integer tensors.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let a = DynTensor::<i8>::full(&[2], 1);
    /// let n = DynTensor::<i8>::from_vec(vec![7, 8], &[2]).unwrap();
    /// assert_eq!(a.try_bitwise_left_shift(&n).unwrap().to_vec(), vec![-128, 0]);
    /// ```
    try_bitwise_left_shift => Shl, plain [Copy];
    /// `self >> rhs` (PyTorch's `bitwise_right_shift`: arithmetic, the
    /// sign for a negative amount or one past the width), or `Err` when
    /// `Dyn` sizes do not broadcast.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let a = DynTensor::<i8>::full(&[2], -8);
    /// let n = DynTensor::<i8>::from_vec(vec![2, 9], &[2]).unwrap();
    /// assert_eq!(a.try_bitwise_right_shift(&n).unwrap().to_vec(), vec![-2, -1]);
    /// ```
    try_bitwise_right_shift => Shr, plain [Copy];
}
