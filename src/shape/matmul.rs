//! The shape rule of `matmul` (PyTorch's `torch.matmul`), computed by the
//! compiler for static shapes.
//!
//! Written with the trailing dimension first (the lists of
//! [`TupleShape::Rev`]), `a` is `[k, m, batch_a..]` and `b` is
//! `[n, k', batch_b..]`; a 1-d operand has only `k`. The rule is one impl per
//! pair of forms:
//!
//! | a \ b | `[k']` (1-d) | `[n, k', batch_b..]` |
//! |---|---|---|
//! | `[k]` (1-d) | `[]` (a dot product) | `[n, batch_b..]` |
//! | `[k, m, batch_a..]` | `[m, batch_a..]` | `[n, m, broadcast(batch_a, batch_b)..]` |
//!
//! Each needs `k == k'` ([`InnerDim`]); a [`Dyn`] on either side is checked at
//! run time. The batch dimensions broadcast by [`BroadcastRev`], with its
//! error. A rank-0 operand has no form: [`MatmulOfRankZero`] reports it.
//!
//! ```
//! use shaped::prelude::*;
//! use shaped::shape::MatmulOf;
//! let z: Tensor<f32, MatmulOf<shape![5, 1, 2, 3], shape![4, 3, 6]>> =
//!     Tensor::<f32, shape![5, 4, 2, 6]>::zeros();
//! assert_eq!(z.shape(), [5, 4, 2, 6]);
//! ```

use super::Shape;
use super::broadcast::BroadcastRev;
use super::digits::{DigitCount, SizeEq};
use super::dim::{Dec, Dim, Dyn, StaticDim};
use super::list::{Cons, FromRev, Nil, TupleShape};
use crate::shape::dynamic::DynShape;
use typenum::{False, True};

/// Two shapes that `matmul` multiplies, and the shape of the product.
///
/// `a.matmul(&b)` requires `A: MatmulShape<B>`; the result has shape
/// [`MatmulOf<A, B>`].
pub trait MatmulShape<Rhs: Shape>: Shape {
    /// The shape of the product.
    type Output: Shape;
}

/// The shape of `a.matmul(&b)` for `a` of shape `A` and `b` of shape `B`.
pub type MatmulOf<A, B> = <A as MatmulShape<B>>::Output;

impl<A, B> MatmulShape<B> for A
where
    A: Shape + TupleShape,
    B: Shape + TupleShape,
    A::Rev: MatmulRev<B::Rev>,
    <A::Rev as MatmulRev<B::Rev>>::Output: FromRev,
    <<A::Rev as MatmulRev<B::Rev>>::Output as FromRev>::Tuple: Shape,
{
    type Output = <<A::Rev as MatmulRev<B::Rev>>::Output as FromRev>::Tuple;
}

/// The matmul rule on reversed dimension lists (trailing dimension first).
pub trait MatmulRev<Rhs> {
    /// The product's reversed list.
    type Output;
}

/// 1-d · 1-d: a dot product, rank 0.
impl<K1, K2> MatmulRev<Cons<K2, Nil>> for Cons<K1, Nil>
where
    K1: InnerDim<K2>,
{
    type Output = Nil;
}

/// (.., m, k) · (k): a matrix (or a batch) times a vector drops `k`.
impl<K1, M, BatchA, K2> MatmulRev<Cons<K2, Nil>> for Cons<K1, Cons<M, BatchA>>
where
    K1: InnerDim<K2>,
{
    type Output = Cons<M, BatchA>;
}

/// (k) · (.., k, n): a vector times a matrix (or a batch) drops `k`.
impl<K1, N, K2, BatchB> MatmulRev<Cons<N, Cons<K2, BatchB>>> for Cons<K1, Nil>
where
    K1: InnerDim<K2>,
{
    type Output = Cons<N, BatchB>;
}

/// (.., m, k) · (.., k, n): `(broadcast batch.., m, n)`.
impl<K1, M, BatchA, N, K2, BatchB> MatmulRev<Cons<N, Cons<K2, BatchB>>>
    for Cons<K1, Cons<M, BatchA>>
where
    K1: InnerDim<K2>,
    BatchA: BroadcastRev<BatchB>,
{
    type Output = Cons<N, Cons<M, <BatchA as BroadcastRev<BatchB>>::Output>>;
}

/// A rank-0 left operand: no product.
impl<H, T> MatmulRev<Cons<H, T>> for Nil
where
    (Nil, Cons<H, T>): MatmulOfRankZero,
{
    type Output = Nil;
}

/// Two rank-0 operands: no product.
impl<Rhs: IsNil> MatmulRev<Rhs> for Nil
where
    (Nil, Rhs): MatmulOfRankZero,
{
    type Output = Nil;
}

/// The empty list only (a bound that keeps an impl generic).
pub trait IsNil {}
impl IsNil for Nil {}

/// A rank-0 right operand: no product.
impl<H, T> MatmulRev<Nil> for Cons<H, T>
where
    (Cons<H, T>, Nil): MatmulOfRankZero,
{
    type Output = Nil;
}

/// Holds for no pair: requiring it reports a rank-0 operand of `matmul`.
#[diagnostic::on_unimplemented(
    message = "matmul: both arguments need at least one dimension, but one of them is a rank-0 tensor",
    label = "a rank-0 tensor cannot be an operand of matmul",
    note = "PyTorch: both arguments to matmul need to be at least 1D; multiply by a scalar with `*` instead"
)]
pub trait MatmulOfRankZero {}

/// No shape holds it (it is not a [`Dim`]). Its one impl of
/// [`MatmulOfRankZero`] keeps that trait from being unsatisfiable for every
/// type, so that the compiler waits for the other operand's shape and then
/// reports the rank-0 operand, instead of guessing a dynamic shape for it.
#[doc(hidden)]
#[derive(Copy, Clone, Debug)]
pub enum NeverAnOperand {}
impl<T> MatmulOfRankZero for (Nil, Cons<NeverAnOperand, T>) {}

/// Two sizes that a product needs equal: equal static sizes, or a [`Dyn`]
/// checked at run time. `Rule` ([`Inner`] or [`Batch`]) says which rule
/// reports a mismatch.
pub trait EqualDim<Rhs, Rule> {}

/// Two static sizes must be equal.
impl<A, B, Rule> EqualDim<B, Rule> for A
where
    A: StaticDim + SizeEq<B>,
    B: StaticDim,
    A::Out: PassIfEqual<A, B, Rule>,
{
}

/// A static size against `Dyn`: checked at run time.
impl<A: StaticDim, Rule> EqualDim<Dyn, Rule> for A {}

/// `Dyn` against any size: checked at run time.
impl<B: Dim, Rule> EqualDim<B, Rule> for Dyn {}

/// Equal sizes pass; unequal ones are `Rule`'s compile error.
pub trait PassIfEqual<A, B, Rule> {}
impl<A, B, Rule> PassIfEqual<A, B, Rule> for True {}
impl<A, B, Rule: ReportMismatch<A, B>> PassIfEqual<A, B, Rule> for False {}

/// A rule that turns two different sizes into its compile error.
pub trait ReportMismatch<A, B> {}

/// The contracted dimensions of `a` (its last) and `b` (its only or its
/// second-to-last); a mismatch is
/// [`MatmulInnerMismatch`](super::diagnostics::MatmulInnerMismatch)'s error.
#[derive(Copy, Clone, Debug, Default)]
pub struct Inner;
impl<A, B> ReportMismatch<A, B> for Inner
where
    A: DigitCount,
    B: DigitCount,
    (A, B, Dec<0>): super::diagnostics::MatmulInnerMismatch<A::Out, B::Out>,
{
}

/// The batch sizes of `bmm`, which does not broadcast; a mismatch is
/// [`BmmBatchMismatch`](super::diagnostics::BmmBatchMismatch)'s error.
#[derive(Copy, Clone, Debug, Default)]
pub struct Batch;
impl<A, B> ReportMismatch<A, B> for Batch
where
    A: DigitCount,
    B: DigitCount,
    (A, B, Dec<0>): super::diagnostics::BmmBatchMismatch<A::Out, B::Out>,
{
}

/// The inner sizes of a product are equal (or checked at run time).
pub trait InnerDim<Rhs>: EqualDim<Rhs, Inner> {}
impl<A: EqualDim<B, Inner>, B> InnerDim<B> for A {}

/// The batch sizes of `bmm` are equal (or checked at run time).
pub trait SameBatch<Rhs>: EqualDim<Rhs, Batch> {}
impl<A: EqualDim<B, Batch>, B> SameBatch<B> for A {}

/// A dynamic-rank operand multiplies with anything, checked at run time.
#[diagnostic::do_not_recommend]
impl<B: Shape> MatmulShape<B> for DynShape {
    type Output = DynShape;
}

/// A static-rank shape with a dynamic-rank one gives a dynamic-rank shape.
#[diagnostic::do_not_recommend]
impl<A: Shape + TupleShape> MatmulShape<DynShape> for A {
    type Output = DynShape;
}
