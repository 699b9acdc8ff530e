//! Broadcasting (SPEC.md section 1), computed by the compiler for static
//! shapes and at run time for every shape.
//!
//! Walking two shapes from their last dimension, each pair of sizes must be
//! equal, or one of them 1, or one of them missing. The result takes the
//! other size where one side is 1 (so `1` vs `0` gives `0`). Rank 0 broadcasts
//! with everything. For static sizes the rule is a table of disjoint impls on
//! the *kind* of each size (see [`SizeKind`]):
//!
//! | a \ b   | `0`   | `1` | `n >= 2`           | `Dyn` |
//! |---------|-------|-----|--------------------|-------|
//! | `0`     | `0`   | `0` | error              | `0`, checked at run time |
//! | `1`     | `0`   | `1` | `n`                | `Dyn` |
//! | `m >= 2`| error | `m` | `m` if `m == n`, else error | `m`, checked at run time |
//! | `Dyn`   | `0`, checked | `Dyn` | `n`, checked | `Dyn` |
//!
//! A clash is a compile error whose first line is PyTorch's own text, with the
//! sizes and the dimension in decimal (see `ui-tests/fail/broadcast_*.rs`).

use super::Shape;
use super::digits::{DigitCount, Many, MaxLen, One, SizeEq, SizeKind, Zero};
use super::dim::{Dyn, StaticDim};
use super::list::{Cons, FromRev, Nil, TupleShape};
use crate::error::Error;
use typenum::{False, True};

/// Two shapes that broadcast together, and the shape they give.
///
/// `&a + &b` requires `A: BroadcastShape<B>`; the result has shape
/// [`Broadcast<A, B>`]. Users rarely name this trait: the operators do.
///
/// ```
/// use shaped::prelude::*;
/// use shaped::shape::Broadcast;
/// let z: Tensor<f32, Broadcast<shape![5, 1, 4, 1], shape![3, 1, 1]>> =
///     Tensor::<f32, shape![5, 3, 4, 1]>::zeros();
/// assert_eq!(z.shape(), [5, 3, 4, 1]);
/// ```
pub trait BroadcastShape<Rhs: Shape>: Shape {
    /// The broadcast shape.
    type Output: Shape;
}

/// The shape that `A` and `B` broadcast to.
pub type Broadcast<A, B> = <A as BroadcastShape<B>>::Output;

impl<A, B> BroadcastShape<B> for A
where
    A: Shape + TupleShape,
    B: Shape + TupleShape,
    A::Rev: BroadcastRev<B::Rev>,
    <A::Rev as BroadcastRev<B::Rev>>::Output: FromRev,
    <<A::Rev as BroadcastRev<B::Rev>>::Output as FromRev>::Tuple: Shape,
{
    type Output = <<A::Rev as BroadcastRev<B::Rev>>::Output as FromRev>::Tuple;
}

/// Broadcasting of two reversed dimension lists (trailing dimension first).
pub trait BroadcastRev<Rhs> {
    /// The broadcast list.
    type Output;
}

impl BroadcastRev<Nil> for Nil {
    type Output = Nil;
}

/// `b` ran out: `a`'s leading dimensions carry over.
impl<H, T> BroadcastRev<Nil> for Cons<H, T> {
    type Output = Cons<H, T>;
}

/// `a` ran out: `b`'s leading dimensions carry over.
impl<H, T> BroadcastRev<Cons<H, T>> for Nil {
    type Output = Cons<H, T>;
}

impl<H1, T1, H2, T2> BroadcastRev<Cons<H2, T2>> for Cons<H1, T1>
where
    H1: BroadcastDim<H2, (T1, T2)>,
    (H1::Status, T1, T2): BroadcastRest,
{
    type Output = Cons<H1::Output, <(H1::Status, T1, T2) as BroadcastRest>::Output>;
}

/// Goes on to the leading dimensions after a pair that broadcasts; stops
/// after a clash, so that only the right-most clash is reported (as PyTorch
/// reports it).
pub trait BroadcastRest {
    /// The broadcast of the leading dimensions.
    type Output;
}
impl<T1: BroadcastRev<T2>, T2> BroadcastRest for (Fine, T1, T2) {
    type Output = T1::Output;
}
impl<T1, T2> BroadcastRest for (Clash, T1, T2) {
    type Output = Nil;
}

/// A pair of dimensions that satisfies a shape rule.
#[derive(Copy, Clone, Debug, Default)]
pub struct Fine;
/// A pair of dimensions that breaks a shape rule (already reported).
#[derive(Copy, Clone, Debug, Default)]
pub struct Clash;

/// Broadcasting of one pair of aligned dimensions. `Rest` holds the two
/// shapes' remaining leading dimensions, from which an error finds the index
/// of the clash.
pub trait BroadcastDim<Rhs, Rest> {
    /// The broadcast size.
    type Output;
    /// [`Fine`], or [`Clash`] when the sizes do not broadcast.
    type Status;
}

impl<A, B, Rest> BroadcastDim<B, Rest> for A
where
    A: StaticDim + SizeKind,
    B: StaticDim + SizeKind,
    (A::Kind, B::Kind): BroadcastKinds<A, B, Rest>,
{
    type Output = <(A::Kind, B::Kind) as BroadcastKinds<A, B, Rest>>::Output;
    type Status = <(A::Kind, B::Kind) as BroadcastKinds<A, B, Rest>>::Status;
}

impl<A, Rest> BroadcastDim<Dyn, Rest> for A
where
    A: StaticDim + SizeKind,
    A::Kind: WithDyn<A>,
{
    type Output = <A::Kind as WithDyn<A>>::Output;
    type Status = Fine;
}

impl<B, Rest> BroadcastDim<B, Rest> for Dyn
where
    B: StaticDim + SizeKind,
    B::Kind: WithDyn<B>,
{
    type Output = <B::Kind as WithDyn<B>>::Output;
    type Status = Fine;
}

impl<Rest> BroadcastDim<Dyn, Rest> for Dyn {
    type Output = Dyn;
    type Status = Fine;
}

/// The rule table for two static sizes, by their kinds `(a, b)`.
pub trait BroadcastKinds<A, B, Rest> {
    /// The broadcast size.
    type Output;
    /// [`Fine`] or [`Clash`].
    type Status;
}

impl<A, B, R> BroadcastKinds<A, B, R> for (Zero, Zero) {
    type Output = A;
    type Status = Fine;
}
/// `0` vs `1` gives `0`.
impl<A, B, R> BroadcastKinds<A, B, R> for (Zero, One) {
    type Output = A;
    type Status = Fine;
}
/// `1` vs `0` gives `0`.
impl<A, B, R> BroadcastKinds<A, B, R> for (One, Zero) {
    type Output = B;
    type Status = Fine;
}
impl<A, B, R> BroadcastKinds<A, B, R> for (One, One) {
    type Output = A;
    type Status = Fine;
}
/// `1` stretches to `n`.
impl<A, B, R> BroadcastKinds<A, B, R> for (One, Many) {
    type Output = B;
    type Status = Fine;
}
/// `1` stretches to `m`.
impl<A, B, R> BroadcastKinds<A, B, R> for (Many, One) {
    type Output = A;
    type Status = Fine;
}
/// `m` vs `n`: they must be equal.
impl<A, B, R> BroadcastKinds<A, B, R> for (Many, Many)
where
    A: SizeEq<B>,
    A::Out: KeepIfEqual<A, B, R>,
{
    type Output = <A::Out as KeepIfEqual<A, B, R>>::Output;
    type Status = <A::Out as KeepIfEqual<A, B, R>>::Status;
}
/// `0` vs `n >= 2`: an error.
impl<A, B, R> BroadcastKinds<A, B, R> for (Zero, Many)
where
    (A, B, R): BroadcastFails,
{
    type Output = A;
    type Status = Clash;
}
/// `m >= 2` vs `0`: an error.
impl<A, B, R> BroadcastKinds<A, B, R> for (Many, Zero)
where
    (A, B, R): BroadcastFails,
{
    type Output = A;
    type Status = Clash;
}

/// Two sizes of 2 or more: equal ones are kept, others are an error.
pub trait KeepIfEqual<A, B, Rest> {
    /// `A`, when it equals `B`.
    type Output;
    /// [`Fine`] or [`Clash`].
    type Status;
}
impl<A, B, R> KeepIfEqual<A, B, R> for True {
    type Output = A;
    type Status = Fine;
}
impl<A, B, R> KeepIfEqual<A, B, R> for False
where
    (A, B, R): BroadcastFails,
{
    type Output = A;
    type Status = Clash;
}

/// A static size against [`Dyn`]: `1` gives `Dyn`; any other size is kept
/// and the dynamic one is checked at run time.
pub trait WithDyn<A> {
    /// The broadcast size.
    type Output;
}
impl<A> WithDyn<A> for One {
    type Output = Dyn;
}
impl<A> WithDyn<A> for Zero {
    type Output = A;
}
impl<A> WithDyn<A> for Many {
    type Output = A;
}

/// Holds for no `(a, b, rest)`: requiring it turns a clash into the compile
/// error of [`BroadcastMismatch`](super::diagnostics::BroadcastMismatch),
/// which quotes both sizes and the dimension in decimal.
pub trait BroadcastFails {}
impl<A, B, R> BroadcastFails for (A, B, R)
where
    A: DigitCount,
    B: DigitCount,
    R: MaxLen,
    (A, B, R::Out): super::diagnostics::BroadcastMismatch<A::Out, B::Out>,
{
}

/// The broadcast of two runtime shapes, written into `out` (whose length is
/// the larger rank), or PyTorch's error naming the right-most clash.
///
/// ```
/// use shaped::shape::broadcast_sizes;
/// assert_eq!(broadcast_sizes(&[5, 1, 4, 1], &[3, 1, 1]).unwrap(), vec![5, 3, 4, 1]);
/// let err = broadcast_sizes(&[5, 2, 4, 1], &[3, 1, 1]).unwrap_err();
/// assert_eq!(
///     err.to_string(),
///     "The size of tensor a (2) must match the size of tensor b (3) at non-singleton dimension 1"
/// );
/// ```
pub fn broadcast_sizes(a: &[usize], b: &[usize]) -> Result<Vec<usize>, Error> {
    let mut out = vec![0; a.len().max(b.len())];
    broadcast_sizes_into(a, b, &mut out)?;
    Ok(out)
}

/// [`broadcast_sizes`] without allocating: `out.len()` must be the larger rank.
#[inline]
pub(crate) fn broadcast_sizes_into(
    a: &[usize],
    b: &[usize],
    out: &mut [usize],
) -> Result<(), Error> {
    let rank = out.len();
    debug_assert_eq!(rank, a.len().max(b.len()));
    for i in (0..rank).rev() {
        let from_end = rank - i;
        let sa = if from_end <= a.len() {
            a[a.len() - from_end]
        } else {
            1
        };
        let sb = if from_end <= b.len() {
            b[b.len() - from_end]
        } else {
            1
        };
        out[i] = if sa == sb || sb == 1 {
            sa
        } else if sa == 1 {
            sb
        } else {
            return Err(Error::BroadcastMismatch {
                size_a: sa,
                size_b: sb,
                dim: i,
            });
        };
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runtime_rule_matches_the_spec_table() {
        let ok: &[(&[usize], &[usize], &[usize])] = &[
            (&[5, 7, 3], &[5, 7, 3], &[5, 7, 3]),
            (&[5, 3, 4, 1], &[3, 1, 1], &[5, 3, 4, 1]),
            (&[5, 1, 4, 1], &[3, 1, 1], &[5, 3, 4, 1]),
            (&[1], &[3, 1, 7], &[3, 1, 7]),
            (&[3, 3], &[3], &[3, 3]),
            (&[3, 1], &[1, 4], &[3, 4]),
            (&[2, 3, 4], &[4], &[2, 3, 4]),
            (&[1, 0], &[3, 1], &[3, 0]),
            (&[], &[2, 2], &[2, 2]),
        ];
        for (a, b, r) in ok {
            assert_eq!(broadcast_sizes(a, b).unwrap(), r.to_vec(), "{a:?} {b:?}");
        }
        let err = |a: &[usize], b: &[usize]| broadcast_sizes(a, b).unwrap_err().to_string();
        assert_eq!(
            err(&[0], &[2, 2]),
            "The size of tensor a (0) must match the size of tensor b (2) at non-singleton dimension 1"
        );
        assert_eq!(
            err(&[3, 2], &[1, 5]),
            "The size of tensor a (2) must match the size of tensor b (5) at non-singleton dimension 1"
        );
        // Several clashes: the right-most is reported.
        assert_eq!(
            err(&[2, 3], &[4, 5]),
            "The size of tensor a (3) must match the size of tensor b (5) at non-singleton dimension 1"
        );
    }
}
