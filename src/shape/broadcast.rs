//! Broadcasting (PyTorch's broadcasting semantics), computed by the compiler for static
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
use super::dim::{Dim, Dyn, StaticDim};
use super::list::{Cons, Nil, TupleShape};
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
    A: Shape + TupleShape + BroadcastTuples<A, B>,
    B: Shape + TupleShape,
{
    type Output = <A as BroadcastTuples<A, B>>::Output;
}

/// [`BroadcastShape`] of the tuple shapes `A` and `B`: one impl per pair of
/// ranks (`shaped_macros::broadcast_shape_impls`), which aligns the shapes
/// at their last dimension and requires [`BroadcastDim`] of each aligned
/// pair and [`NoClash`] of their statuses. Each impl is for every `Self`
/// (the operator asks it of `A`): a compile error lists the impls of a
/// trait whose `Self` looks like the failing one, and these 81 would only
/// bury the message.
pub trait BroadcastTuples<A, B> {
    /// The broadcast shape.
    type Output: Shape;
}
shaped_macros::broadcast_shape_impls!();

/// Broadcasting of one pair of aligned dimensions, wherever they sit in
/// their shapes (so the compiler solves each pair of sizes once).
pub trait BroadcastDim<Rhs> {
    /// The broadcast size.
    type Output: Dim;
    /// [`Fine`], or [`Mismatch`] when the sizes do not broadcast.
    type Status;
}

impl<A, B> BroadcastDim<B> for A
where
    A: StaticDim + SizeKind,
    B: StaticDim + SizeKind,
    (A::Kind, B::Kind): BroadcastKinds<A, B>,
{
    type Output = <(A::Kind, B::Kind) as BroadcastKinds<A, B>>::Output;
    type Status = <(A::Kind, B::Kind) as BroadcastKinds<A, B>>::Status;
}

impl<A> BroadcastDim<Dyn> for A
where
    A: StaticDim + SizeKind,
    A::Kind: WithDyn<A>,
{
    type Output = <A::Kind as WithDyn<A>>::Output;
    type Status = Fine;
}

impl<B> BroadcastDim<B> for Dyn
where
    B: StaticDim + SizeKind,
    B::Kind: WithDyn<B>,
{
    type Output = <B::Kind as WithDyn<B>>::Output;
    type Status = Fine;
}

impl BroadcastDim<Dyn> for Dyn {
    type Output = Dyn;
    type Status = Fine;
}

/// A pair of dimensions that satisfies a shape rule.
#[derive(Copy, Clone, Debug, Default)]
pub struct Fine;
/// A pair of dimensions that breaks a shape rule (already reported).
#[derive(Copy, Clone, Debug, Default)]
pub struct Clash;
/// Sizes `A` and `B` that do not broadcast.
#[derive(Copy, Clone, Debug, Default)]
pub struct Mismatch<A, B>(A, B);

/// The rule table for two static sizes, by their kinds `(a, b)`.
pub trait BroadcastKinds<A, B> {
    /// The broadcast size.
    type Output: Dim;
    /// [`Fine`] or [`Mismatch`].
    type Status;
}

impl<A: Dim, B> BroadcastKinds<A, B> for (Zero, Zero) {
    type Output = A;
    type Status = Fine;
}
/// `0` vs `1` gives `0`.
impl<A: Dim, B> BroadcastKinds<A, B> for (Zero, One) {
    type Output = A;
    type Status = Fine;
}
/// `1` vs `0` gives `0`.
impl<A, B: Dim> BroadcastKinds<A, B> for (One, Zero) {
    type Output = B;
    type Status = Fine;
}
impl<A: Dim, B> BroadcastKinds<A, B> for (One, One) {
    type Output = A;
    type Status = Fine;
}
/// `1` stretches to `n`.
impl<A, B: Dim> BroadcastKinds<A, B> for (One, Many) {
    type Output = B;
    type Status = Fine;
}
/// `1` stretches to `m`.
impl<A: Dim, B> BroadcastKinds<A, B> for (Many, One) {
    type Output = A;
    type Status = Fine;
}
/// `m` vs `n`: they must be equal.
impl<A: Dim, B> BroadcastKinds<A, B> for (Many, Many)
where
    A: SizeEq<B>,
    A::Out: EqualOrMismatch<A, B>,
{
    type Output = A;
    type Status = <A::Out as EqualOrMismatch<A, B>>::Status;
}
/// `0` vs `n >= 2`: an error.
impl<A: Dim, B> BroadcastKinds<A, B> for (Zero, Many) {
    type Output = A;
    type Status = Mismatch<A, B>;
}
/// `m >= 2` vs `0`: an error.
impl<A: Dim, B> BroadcastKinds<A, B> for (Many, Zero) {
    type Output = A;
    type Status = Mismatch<A, B>;
}

/// Two sizes of 2 or more: equal ones are [`Fine`], others a [`Mismatch`].
pub trait EqualOrMismatch<A, B> {
    /// [`Fine`] or [`Mismatch`].
    type Status;
}
impl<A, B> EqualOrMismatch<A, B> for True {
    type Status = Fine;
}
impl<A, B> EqualOrMismatch<A, B> for False {
    type Status = Mismatch<A, B>;
}

/// A static size against [`Dyn`]: `1` gives `Dyn`; any other size is kept
/// and the dynamic one is checked at run time.
pub trait WithDyn<A> {
    /// The broadcast size.
    type Output: Dim;
}
impl<A> WithDyn<A> for One {
    type Output = Dyn;
}
impl<A: Dim> WithDyn<A> for Zero {
    type Output = A;
}
impl<A: Dim> WithDyn<A> for Many {
    type Output = A;
}

/// The statuses of the aligned pairs of two shapes, last pair first, each
/// with its dimension in the result (`Cons<(Status, Dec<i>), ..>`): holds
/// when no pair clashes. The right-most [`Mismatch`] requires
/// [`BroadcastFails`], the compile error, and the pairs before it are not
/// looked at, so only that clash is reported (as PyTorch reports it).
pub trait NoClash {}
impl NoClash for Nil {}
impl<I, T: NoClash> NoClash for Cons<(Fine, I), T> {}
impl<A, B, I, T> NoClash for Cons<(Mismatch<A, B>, I), T> where (A, B, I): BroadcastFails {}

/// Broadcasting of two reversed dimension lists (trailing dimension first):
/// the batch dimensions of `matmul`, whose shapes are lists, and the index
/// tensors of advanced indexing. `W` names whose clash it is, for the
/// compile error ([`ClashReport`]).
pub trait BroadcastRev<Rhs, W = Operands> {
    /// The broadcast list.
    type Output;
}

impl<W> BroadcastRev<Nil, W> for Nil {
    type Output = Nil;
}

/// `b` ran out: `a`'s leading dimensions carry over.
impl<H, T, W> BroadcastRev<Nil, W> for Cons<H, T> {
    type Output = Cons<H, T>;
}

/// `a` ran out: `b`'s leading dimensions carry over.
impl<H, T, W> BroadcastRev<Cons<H, T>, W> for Nil {
    type Output = Cons<H, T>;
}

impl<H1, T1, H2, T2, W> BroadcastRev<Cons<H2, T2>, W> for Cons<H1, T1>
where
    H1: BroadcastDim<H2>,
    (H1::Status, T1, T2): BroadcastRest<W>,
{
    type Output = Cons<H1::Output, <(H1::Status, T1, T2) as BroadcastRest<W>>::Output>;
}

/// Goes on to the leading dimensions after a pair that broadcasts; stops
/// after a clash, so that only the right-most clash is reported. The index
/// of a clash is the number of leading dimensions left (`MaxLen`).
pub trait BroadcastRest<W = Operands> {
    /// The broadcast of the leading dimensions.
    type Output;
}
impl<T1: BroadcastRev<T2, W>, T2, W> BroadcastRest<W> for (Fine, T1, T2) {
    type Output = T1::Output;
}
impl<A, B, T1, T2, W> BroadcastRest<W> for (Mismatch<A, B>, T1, T2)
where
    (T1, T2): MaxLen,
    W: ClashReport<A, B, <(T1, T2) as MaxLen>::Out>,
{
    type Output = Nil;
}

/// Whose shapes clash in [`BroadcastRev`]: two operands.
#[derive(Copy, Clone, Debug, Default)]
pub struct Operands;
/// Whose shapes clash in [`BroadcastRev`]: the index tensors of advanced
/// indexing.
#[derive(Copy, Clone, Debug, Default)]
pub struct IndexTensors;

/// The compile error of a clash of sizes `A` and `B` at dimension `I`, in
/// the words of whose shapes they are.
pub trait ClashReport<A, B, I> {}
impl<A, B, I> ClashReport<A, B, I> for Operands where (A, B, I): BroadcastFails {}
impl<A, B, I> ClashReport<A, B, I> for IndexTensors
where
    A: DigitCount,
    B: DigitCount,
    (A, B, I): super::diagnostics::IndexBroadcastMismatch<A::Out, B::Out>,
{
}

/// Holds for no `(a, b, index)`: requiring it turns a clash into the compile
/// error of [`BroadcastMismatch`](super::diagnostics::BroadcastMismatch),
/// which quotes both sizes and the dimension in decimal.
pub trait BroadcastFails {}
impl<A, B, I> BroadcastFails for (A, B, I)
where
    A: DigitCount,
    B: DigitCount,
    (A, B, I): super::diagnostics::BroadcastMismatch<A::Out, B::Out>,
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
