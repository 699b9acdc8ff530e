//! The shape rules of indexing by tensors, computed by the compiler.
//!
//! - [`IndexSelect<I, Idx>`]: `index_select::<I>(&idx)` replaces dimension
//!   `I` by the index's length; the index is a vector or a single number
//!   ([`IndexVector`]).
//! - [`GatherShape<I, Idx>`]: `gather::<I>(&idx)` has the index's shape,
//!   which needs the input's rank and, on every dimension but `I`, sizes no
//!   larger than the input's ([`FitsWithin`]).
//! - [`TakeAlongShape<I, Idx>`]: `take_along_dim::<I>(&idx)` broadcasts the
//!   input (with dimension `I` as long as the index's) and the index.
//!
//! A `Dyn` size passes here and is checked at run time, as are the index
//! values.
//!
//! ```
//! use shaped::prelude::*;
//! use shaped::shape::index::{IndexSelect, TakeAlongShape};
//! let _: <shape![5, 3] as IndexSelect<0, shape![7]>>::Output = (Dec::<7>, Dec::<3>);
//! let _: <shape![5, 1] as TakeAlongShape<0, shape![2, 4]>>::Output = (Dec::<2>, Dec::<4>);
//! ```

use super::arith::ToBin;
use super::axes::{At, Replace};
use super::diagnostics::{
    GatherIndexTooLarge, IndexSourceMismatch, ScatterIndexTooLarge, ScatterSourceTooSmall,
};
use super::digits::{DigitCount, MaxLen};
use super::dim::{Dec, Dim, Dyn, StaticDim};
use super::list::{Cons, Nil, TupleShape};
use super::{Broadcast, BroadcastShape, Shape};
use typenum::{False, IsLessOrEqual, LeEq, True};

/// The index of `index_select`: a vector, or a single number (rank 0);
/// `Len` is how many entries it has.
#[diagnostic::on_unimplemented(
    message = "`index_select` takes an index of rank 0 or 1 (a vector)",
    label = "this index has more than one dimension",
    note = "PyTorch raises `index_select(): Index is supposed to be a vector`; `flatten` the index first"
)]
pub trait IndexVector {
    /// The number of entries.
    type Len: Dim;
}
impl IndexVector for () {
    type Len = Dec<1>;
}
impl<N: Dim> IndexVector for (N,) {
    type Len = N;
}

/// The shape of `index_select::<I>(&idx)`: dimension `I` replaced by the
/// index's length.
#[diagnostic::on_unimplemented(
    message = "`index_select::<{I}>` needs a dimension {I} and an index of rank 0 or 1",
    label = "this shape has no dimension {I}, or the index is not a vector"
)]
pub trait IndexSelect<const I: usize, Idx> {
    /// The result's shape.
    type Output: Shape;
}
impl<S, Idx, const I: usize> IndexSelect<I, Idx> for S
where
    Idx: IndexVector,
    S: Replace<I, Idx::Len>,
    <S as Replace<I, Idx::Len>>::Output: Shape,
{
    type Output = <S as Replace<I, Idx::Len>>::Output;
}

/// An index with the rank of the input `S`, for `gather` (`Self` is the
/// index, so that the rule waits for the index's type).
#[diagnostic::on_unimplemented(
    message = "`gather` needs an index with as many dimensions as the input",
    label = "the input has shape `{S}`, the index `{Self}`",
    note = "PyTorch raises `Index tensor must have the same number of dimensions as input tensor`"
)]
pub trait GatherRankOf<S> {}

/// An index with the rank of the input `S`, for `take_along_dim`.
#[diagnostic::on_unimplemented(
    message = "`take_along_dim` needs an index with as many dimensions as the input",
    label = "the input has shape `{S}`, the index `{Self}`",
    note = "PyTorch raises `torch.take_along_dim(): input and indices should have the same number of dimensions`"
)]
pub trait TakeAlongRankOf<S> {}

/// One impl of each rank rule per rank.
macro_rules! same_rank {
    ($(($($a:ident $b:ident)*))*) => {$(
        impl<$($a,)* $($b,)*> GatherRankOf<($($a,)*)> for ($($b,)*) {}
        impl<$($a,)* $($b,)*> TakeAlongRankOf<($($a,)*)> for ($($b,)*) {}
        impl<$($a,)* $($b,)*> ScatterRankOf<($($a,)*)> for ($($b,)*) {}
    )*};
}
same_rank! {
    ()
    (A0 B0)
    (A0 B0 A1 B1)
    (A0 B0 A1 B1 A2 B2)
    (A0 B0 A1 B1 A2 B2 A3 B3)
    (A0 B0 A1 B1 A2 B2 A3 B3 A4 B4)
    (A0 B0 A1 B1 A2 B2 A3 B3 A4 B4 A5 B5)
    (A0 B0 A1 B1 A2 B2 A3 B3 A4 B4 A5 B5 A6 B6)
    (A0 B0 A1 B1 A2 B2 A3 B3 A4 B4 A5 B5 A6 B6 A7 B7)
}

/// `gather::<I>(&idx)` on a shape: the index has the input's rank and, on
/// every dimension but `I`, no larger a size. The result has the index's
/// shape.
#[diagnostic::on_unimplemented(
    message = "`gather::<{I}>` needs a dimension {I} and an index of the input's rank, no larger off dimension {I}",
    label = "this index does not fit the input"
)]
pub trait GatherShape<const I: usize, Idx> {}
impl<S, Idx, const I: usize> GatherShape<I, Idx> for S
where
    Idx: GatherRankOf<S> + Replace<I, Dyn>,
    S: At<I> + Replace<I, Dyn>,
    <Idx as Replace<I, Dyn>>::Output: FitsWithin<<S as Replace<I, Dyn>>::Output, GatherFits>,
{
}

/// Every size of `Self` is no larger than `S`'s at the same dimension
/// (`Dyn` passes, checked at run time); `Op` words the error.
pub trait FitsWithin<S, Op> {}
impl<Idx: TupleShape, S: TupleShape, Op> FitsWithin<S, Op> for Idx where
    Idx::Rev: FitsWithinRev<S::Rev, Op>
{
}

/// [`FitsWithin`] on reversed lists. Lists of different lengths hold here:
/// the rank rules report them.
pub trait FitsWithinRev<S, Op> {}
impl<Op> FitsWithinRev<Nil, Op> for Nil {}
impl<H, T, Op> FitsWithinRev<Nil, Op> for Cons<H, T> {}
impl<H, T, Op> FitsWithinRev<Cons<H, T>, Op> for Nil {}
impl<H1, T1, H2, T2, Op> FitsWithinRev<Cons<H2, T2>, Op> for Cons<H1, T1>
where
    (H1, H2, (T1, T2)): NoLarger<Op>,
    T1: FitsWithinRev<T2, Op>,
{
}

/// One index size is no larger than the other's; the third entry holds the
/// leading dimensions left, from which an error finds the dimension's index.
pub trait NoLarger<Op> {}
impl<B, R, Op> NoLarger<Op> for (Dyn, B, R) {}
impl<A: StaticDim, R, Op> NoLarger<Op> for (A, Dyn, R) {}
impl<A: StaticDim + ToBin, B: StaticDim + ToBin, R, Op> NoLarger<Op> for (A, B, R)
where
    A::Bin: IsLessOrEqual<B::Bin>,
    (LeEq<A::Bin, B::Bin>, A, B, R): NoLargerOrReport<Op>,
{
}

/// `gather`'s index against its input.
pub struct GatherFits;
/// `scatter`'s index against the tensor it writes.
pub struct ScatterFitsSelf;
/// `scatter`'s index against its source.
pub struct ScatterFitsSource;
/// An `index_add`/`index_copy` source against the shape it must have
/// (one direction: its sizes no larger).
pub struct SourceNoLarger;
/// The other direction: the expected sizes no larger than the source's.
pub struct SourceNoSmaller;

/// `(no larger, index size, other size, rest)`, or `Op`'s error quoting
/// both.
pub trait NoLargerOrReport<Op> {}
impl<A, B, R, Op> NoLargerOrReport<Op> for (True, A, B, R) {}
impl<A: DigitCount, B: DigitCount, R: MaxLen> NoLargerOrReport<GatherFits> for (False, A, B, R) where
    (A, B, R::Out): GatherIndexTooLarge<A::Out, B::Out>
{
}
impl<A: DigitCount, B: DigitCount, R: MaxLen> NoLargerOrReport<ScatterFitsSelf> for (False, A, B, R) where
    (A, B, R::Out): ScatterIndexTooLarge<A::Out, B::Out>
{
}
impl<A: DigitCount, B: DigitCount, R: MaxLen> NoLargerOrReport<ScatterFitsSource>
    for (False, A, B, R)
where
    (A, B, R::Out): ScatterSourceTooSmall<A::Out, B::Out>,
{
}
impl<A: DigitCount, B: DigitCount, R: MaxLen> NoLargerOrReport<SourceNoLarger> for (False, A, B, R) where
    (A, B, R::Out): IndexSourceMismatch<A::Out, B::Out>
{
}
impl<A: DigitCount, B: DigitCount, R: MaxLen> NoLargerOrReport<SourceNoSmaller> for (False, A, B, R) where
    (B, A, R::Out): IndexSourceMismatch<B::Out, A::Out>
{
}

/// The shape of `index_add::<I>(&idx, &src, alpha)` and
/// `index_copy::<I>(&idx, &src)`: a vector index, and a source with the
/// tensor's sizes off dimension `I` and the index's length along it.
#[diagnostic::on_unimplemented(
    message = "`index_add::<{I}>` and `index_copy::<{I}>` need a dimension {I}, a vector index and a source of the tensor's shape with the index's length at {I}",
    label = "this source or index does not fit"
)]
pub trait IndexSourceShape<const I: usize, Idx, Src> {}
impl<S, Idx, Src, const I: usize> IndexSourceShape<I, Idx, Src> for S
where
    S: IndexSelect<I, Idx>,
    Src: FitsWithin<<S as IndexSelect<I, Idx>>::Output, SourceNoLarger>,
    <S as IndexSelect<I, Idx>>::Output: FitsWithin<Src, SourceNoSmaller>,
    Src: ScatterRankOf<<S as IndexSelect<I, Idx>>::Output>,
{
}

/// An index with the rank of the tensor `S` it writes, for `scatter`.
#[diagnostic::on_unimplemented(
    message = "`scatter` needs an index with as many dimensions as the tensor it writes",
    label = "the tensor has shape `{S}`, the index `{Self}`",
    note = "PyTorch raises `Index tensor must have the same number of dimensions as self tensor`"
)]
pub trait ScatterRankOf<S> {}

/// `scatter::<I>(&idx, &src)` on a shape: the index has the tensor's rank,
/// no larger a size off dimension `I`, and no larger a size than the
/// source's anywhere.
#[diagnostic::on_unimplemented(
    message = "`scatter::<{I}>` needs a dimension {I} and an index of the tensor's rank that fits it and its source",
    label = "this index does not fit"
)]
pub trait ScatterShape<const I: usize, Idx, Src> {}
impl<S, Idx, Src, const I: usize> ScatterShape<I, Idx, Src> for S
where
    Idx: ScatterRankOf<S> + Replace<I, Dyn> + FitsWithin<Src, ScatterFitsSource>,
    S: At<I> + Replace<I, Dyn>,
    <Idx as Replace<I, Dyn>>::Output: FitsWithin<<S as Replace<I, Dyn>>::Output, ScatterFitsSelf>,
{
}

/// The shape of `take_along_dim::<I>(&idx)`: the input, with dimension `I`
/// as long as the index's, broadcast with the index.
#[diagnostic::on_unimplemented(
    message = "`take_along_dim::<{I}>` needs a dimension {I} and an index of the input's rank that broadcasts with it",
    label = "this index does not fit the input"
)]
pub trait TakeAlongShape<const I: usize, Idx> {
    /// The result's shape.
    type Output: Shape;
}
impl<S, Idx, const I: usize> TakeAlongShape<I, Idx> for S
where
    Idx: TakeAlongRankOf<S> + At<I> + Shape,
    S: Replace<I, <Idx as At<I>>::Output>,
    <S as Replace<I, <Idx as At<I>>::Output>>::Output: BroadcastShape<Idx>,
{
    type Output = Broadcast<<S as Replace<I, <Idx as At<I>>::Output>>::Output, Idx>;
}
