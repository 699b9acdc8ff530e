//! Basic indexing (`t.slice(s![..])`) on static shapes: the compiler
//! computes the result shape from the items of `s![..]`.
//!
//! `s![..]` records, next to the runtime [`SliceItem`]s, what kind each item
//! is: a literal index or range has its numbers in its type, anything else
//! is known only by its kind (an index drops its dimension whatever its
//! value; a range of runtime bounds gives a [`Dyn`] size). PyTorch's rules
//! then run at compile time on the static sizes:
//!
//! - an index drops its dimension; a literal one must be in bounds
//!   (`-n <= i < n`), or the program does not compile;
//! - a range keeps its dimension with `ceil((end - start) / step)` entries,
//!   its bounds counted from the end when negative and clamped to `0..=n`,
//!   as PyTorch clamps them (so `1..100` of a size-4 dimension has 3);
//! - `NewAxis` inserts a size-1 dimension; `Ellipsis` stands for the
//!   dimensions the other items do not name;
//! - more indices and ranges than dimensions do not compile.
//!
//! ```
//! use shaped::prelude::*;
//! use shaped::shape::slice::Sliced;
//! type S = shape![4, 6, 5];
//! let _: <S as Sliced<shaped::s_kinds![-1, 1..;2, NewAxis]>>::Output
//!     = (Dec::<3>, Dec::<1>, Dec::<5>);
//! ```

use super::Shape;
use super::arith::{FromBin, ToBin};
use super::diagnostics::{IndexFromEndOutOfBounds, IndexOutOfBounds};
use super::digits::DigitCount;
use super::dim::{Dec, Dyn, StaticDim};
use super::list::{Cons, FromForward, Nil, TupleShape};
use crate::layout::views::{Ellipsis, ItemCounts, NewAxis, SliceCursor, SliceItem};
use core::marker::PhantomData;
use core::ops::{Add, Deref, Div, Sub};
use typenum::{
    B1, Diff, Gr, IsGreater, IsLess, IsLessOrEqual, Le, LeEq, Max, Maximum, Min, Minimum, Quot,
    Sub1, Sum, U0, U1, Unsigned,
};
use typenum::{False, True};

/// The items of `s![..]`: their runtime values, and their kinds as a
/// type-level list `L` for the static shape rules.
///
/// ```
/// use shaped::prelude::*;
/// use shaped::layout::views::SliceItem;
/// let items = s![0, 2.., 1..7;2, NewAxis];
/// assert_eq!(items.len(), 4);
/// assert_eq!(items[2], SliceItem::Range { start: 1, end: Some(7), step: 2 });
/// ```
pub struct SliceSpec<L, const N: usize> {
    items: [SliceItem; N],
    kinds: PhantomData<fn() -> L>,
}

impl<L, const N: usize> SliceSpec<L, N> {
    /// The items with their kinds (what `s![..]` expands to).
    pub fn new(items: [SliceItem; N], kinds: PhantomData<L>) -> Self {
        let _ = kinds;
        SliceSpec {
            items,
            kinds: PhantomData,
        }
    }

    /// The runtime items.
    pub fn items(&self) -> &[SliceItem; N] {
        &self.items
    }
}

impl<L, const N: usize> Clone for SliceSpec<L, N> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<L, const N: usize> Copy for SliceSpec<L, N> {}

impl<L, const N: usize> core::fmt::Debug for SliceSpec<L, N> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        self.items.fmt(f)
    }
}

impl<L, const N: usize> Deref for SliceSpec<L, N> {
    type Target = [SliceItem; N];
    fn deref(&self) -> &[SliceItem; N] {
        &self.items
    }
}

impl<L, const N: usize> AsRef<[SliceItem]> for SliceSpec<L, N> {
    fn as_ref(&self) -> &[SliceItem] {
        &self.items
    }
}

/// `Cons<H, T>` as a `PhantomData` (for the expansion of `s![..]`).
pub fn cons<H, T>(_: PhantomData<H>, _: PhantomData<T>) -> PhantomData<Cons<H, T>> {
    PhantomData
}

/// The kind of a runtime item of `s![..]`.
pub fn kind_of<A: SliceArg>(_: &A) -> PhantomData<A::Kind> {
    PhantomData
}

/// The kind of a runtime item of `s![..]` given a step (`a;step`).
pub fn stepped_kind_of<A: SliceArg>(_: &A) -> PhantomData<A::Stepped> {
    PhantomData
}

// ---------------------------------------------------------------------------
// Kinds of items
// ---------------------------------------------------------------------------

/// A literal index `I >= 0`, `M` its size as a `Dec`(super::Dec).
pub struct Index<const I: isize, M>(PhantomData<M>);
/// A literal index `I < 0` (counted from the end), `M` = `-I`.
pub struct IndexFromEnd<const I: isize, M>(PhantomData<M>);
/// An index known at run time.
pub struct AnyIndex;
/// A literal range: bounds `B` and `E` ([`Front`], [`Back`] or [`Open`]),
/// step `St` (a `Dec`(super::Dec), at least 1).
pub struct Range<B, E, St>(PhantomData<(B, E, St)>);
/// A range bound `M >= 0`.
pub struct Front<M>(PhantomData<M>);
/// A range bound `-M < 0`, counted from the end.
pub struct Back<M>(PhantomData<M>);
/// An absent end bound: the dimension's size.
pub struct Open;
/// A range with a bound or step known only at run time.
pub struct AnyRange;
/// A [`SliceItem`] value: whether it is an index or a range is known only
/// at run time.
pub struct AnyItem;

/// A runtime value that can be an item of `s![..]`, and its kind.
pub trait SliceArg: Into<SliceItem> {
    /// The kind of the item.
    type Kind;
    /// The kind of the item with a runtime step.
    type Stepped;
}

macro_rules! integer_args {
    ($($t:ty),*) => {$(
        impl SliceArg for $t {
            type Kind = AnyIndex;
            type Stepped = AnyIndex;
        }
        integer_args!(@range $t; core::ops::Range<$t>, core::ops::RangeFrom<$t>,
            core::ops::RangeTo<$t>, core::ops::RangeInclusive<$t>, core::ops::RangeToInclusive<$t>);
    )*};
    (@range $i:ty; $($r:ty),*) => {$(
        impl SliceArg for $r {
            type Kind = AnyRange;
            type Stepped = AnyRange;
        }
    )*};
}
integer_args!(i32, i64, isize, usize);

impl SliceArg for core::ops::RangeFull {
    type Kind = Range<Front<super::Dec<0>>, Open, super::Dec<1>>;
    type Stepped = AnyRange;
}
impl SliceArg for NewAxis {
    type Kind = NewAxis;
    type Stepped = NewAxis;
}
impl SliceArg for Ellipsis {
    type Kind = Ellipsis;
    type Stepped = Ellipsis;
}
impl SliceArg for SliceItem {
    type Kind = AnyItem;
    type Stepped = AnyItem;
}

/// The value of an item of a literal kind, as a constant the compiler folds
/// into the view's layout arithmetic (`None` for a kind known only at run
/// time, whose runtime value serves).
///
/// ```
/// use shaped::prelude::*;
/// use shaped::layout::views::SliceItem;
/// use shaped::shape::slice::{Front, LiteralItem, Open, Range};
/// assert_eq!(
///     <Range<Front<Dec<1>>, Open, Dec<2>> as LiteralItem>::LITERAL, // `1..;2`
///     Some(SliceItem::Range { start: 1, end: None, step: 2 })
/// );
/// ```
pub trait LiteralItem {
    /// The item, when its kind holds its value.
    const LITERAL: Option<SliceItem>;
}
impl<const I: isize, M> LiteralItem for Index<I, M> {
    const LITERAL: Option<SliceItem> = Some(SliceItem::Index(I));
}
impl<const I: isize, M> LiteralItem for IndexFromEnd<I, M> {
    const LITERAL: Option<SliceItem> = Some(SliceItem::Index(I));
}
impl<B: RangeBound, E: RangeBound, St: StaticDim> LiteralItem for Range<B, E, St> {
    const LITERAL: Option<SliceItem> = Some(SliceItem::Range {
        start: match B::VALUE {
            Some(v) => v,
            None => 0,
        },
        end: E::VALUE,
        step: St::N as isize,
    });
}
impl LiteralItem for NewAxis {
    const LITERAL: Option<SliceItem> = Some(SliceItem::NewAxis);
}
impl LiteralItem for Ellipsis {
    const LITERAL: Option<SliceItem> = Some(SliceItem::Ellipsis);
}
macro_rules! runtime_items {
    ($($k:ty),*) => {$(
        impl LiteralItem for $k {
            const LITERAL: Option<SliceItem> = None;
        }
    )*};
}
runtime_items!(AnyIndex, AnyRange, AnyItem);

/// A literal range bound's value: `M`, `-M`, or none for [`Open`].
pub trait RangeBound {
    /// The bound.
    const VALUE: Option<isize>;
}
impl<M: StaticDim> RangeBound for Front<M> {
    const VALUE: Option<isize> = Some(M::N as isize);
}
impl<M: StaticDim> RangeBound for Back<M> {
    const VALUE: Option<isize> = Some(-(M::N as isize));
}
impl RangeBound for Open {
    const VALUE: Option<isize> = None;
}

/// A list of item kinds, walked in line by a static slice: each item is
/// its kind's literal value (see [`LiteralItem`]) or, for a kind known only
/// at run time, the runtime item; `slice(s![1.., ..;2])` thus computes its
/// layout from constants, a few moves once inlined.
pub trait LiteralItems {
    /// [`ItemCounts`] of the items from position `at`.
    fn counts(items: &[SliceItem], at: usize, counts: ItemCounts) -> ItemCounts;
    /// Steps `cursor` through the items from position `at`.
    fn steps(items: &[SliceItem], at: usize, cursor: &mut SliceCursor<'_>) -> Option<()>;
}
impl LiteralItems for Nil {
    #[inline(always)]
    fn counts(_: &[SliceItem], _: usize, counts: ItemCounts) -> ItemCounts {
        counts
    }
    #[inline(always)]
    fn steps(_: &[SliceItem], _: usize, _: &mut SliceCursor<'_>) -> Option<()> {
        Some(())
    }
}
impl<K: LiteralItem, T: LiteralItems> LiteralItems for Cons<K, T> {
    #[inline(always)]
    fn counts(items: &[SliceItem], at: usize, counts: ItemCounts) -> ItemCounts {
        let item = K::LITERAL.unwrap_or(items[at]);
        T::counts(items, at + 1, counts.with(&item))
    }
    #[inline(always)]
    fn steps(items: &[SliceItem], at: usize, cursor: &mut SliceCursor<'_>) -> Option<()> {
        cursor.step(K::LITERAL.unwrap_or(items[at]))?;
        T::steps(items, at + 1, cursor)
    }
}

/// How many dimensions an item consumes: 1 for indices and ranges, 0 for
/// `NewAxis` and `Ellipsis`.
pub trait ItemKind {
    /// 0 or 1.
    type Consumes: Unsigned;
}
macro_rules! consumes {
    ($n:ty; $($k:ty),*) => {$(
        impl ItemKind for $k {
            type Consumes = $n;
        }
    )*};
}
consumes!(U1; AnyIndex, AnyRange);
consumes!(U0; NewAxis, Ellipsis);
impl<const I: isize, M> ItemKind for Index<I, M> {
    type Consumes = U1;
}
impl<const I: isize, M> ItemKind for IndexFromEnd<I, M> {
    type Consumes = U1;
}
impl<B, E, St> ItemKind for Range<B, E, St> {
    type Consumes = U1;
}

/// The number of dimensions a list of items consumes.
pub trait Consumed {
    /// The count.
    type N: Unsigned;
}
impl Consumed for Nil {
    type N = U0;
}
impl<K: ItemKind, T: Consumed> Consumed for Cons<K, T>
where
    T::N: Add<K::Consumes>,
    Sum<T::N, K::Consumes>: Unsigned,
{
    type N = Sum<T::N, K::Consumes>;
}

/// The number of dimensions of a list.
pub trait ListLen {
    /// The count.
    type N: Unsigned;
}
impl ListLen for Nil {
    type N = U0;
}
impl<H, T: ListLen> ListLen for Cons<H, T>
where
    T::N: Add<B1>,
    Sum<T::N, B1>: Unsigned,
{
    type N = Sum<T::N, B1>;
}

// ---------------------------------------------------------------------------
// One dimension
// ---------------------------------------------------------------------------

/// A dimension accepts the index `K` (checked here for literal indices and
/// static sizes, at run time otherwise).
pub trait IndexFits<K> {}
impl<K> IndexFits<K> for Dyn where K: IndexKind {}
impl<X: StaticDim> IndexFits<AnyIndex> for X {}
impl<X: StaticDim + ToBin, const I: isize, M: ToBin> IndexFits<Index<I, M>> for X
where
    M::Bin: IsLess<X::Bin>,
    (Le<M::Bin, X::Bin>, M, X): IndexInBounds,
{
}
impl<X: StaticDim + ToBin, const I: isize, M: ToBin> IndexFits<IndexFromEnd<I, M>> for X
where
    M::Bin: IsLessOrEqual<X::Bin>,
    (LeEq<M::Bin, X::Bin>, M, X): IndexFromEndInBounds,
{
}

/// The kinds that select one entry.
pub trait IndexKind {}
impl IndexKind for AnyIndex {}
impl<const I: isize, M> IndexKind for Index<I, M> {}
impl<const I: isize, M> IndexKind for IndexFromEnd<I, M> {}

/// `(in bounds, index, size)`, or the error that the index is not.
pub trait IndexInBounds {}
impl<M, X> IndexInBounds for (True, M, X) {}
impl<M: DigitCount, X: DigitCount> IndexInBounds for (False, M, X) where
    (M, X, Dec<0>): IndexOutOfBounds<M::Out, X::Out>
{
}

/// `(in bounds, -index, size)`, or the error that the index is not.
pub trait IndexFromEndInBounds {}
impl<M, X> IndexFromEndInBounds for (True, M, X) {}
impl<M: DigitCount, X: DigitCount> IndexFromEndInBounds for (False, M, X) where
    (M, X, Dec<0>): IndexFromEndOutOfBounds<M::Out, X::Out>
{
}

/// The size of a dimension sliced by the range `K`.
pub trait RangeLen<K> {
    /// The size (`Dyn` when not known at compile time).
    type Len: super::Dim;
}
impl<B, E, St> RangeLen<Range<B, E, St>> for Dyn {
    type Len = Dyn;
}
impl RangeLen<AnyRange> for Dyn {
    type Len = Dyn;
}
impl<X: StaticDim> RangeLen<AnyRange> for X {
    type Len = Dyn;
}
impl<X: StaticDim + ToBin, B, E, St: ToBin> RangeLen<Range<B, E, St>> for X
where
    B: BoundAt<X::Bin>,
    E: BoundAt<X::Bin>,
    E::Pos: StepCount<B::Pos, St::Bin>,
    <E::Pos as StepCount<B::Pos, St::Bin>>::Len: FromBin,
    <<E::Pos as StepCount<B::Pos, St::Bin>>::Len as FromBin>::Dec: StaticDim,
{
    type Len = <<E::Pos as StepCount<B::Pos, St::Bin>>::Len as FromBin>::Dec;
}

/// Where a range bound falls in a dimension of size `N`, clamped to `0..=N`
/// (PyTorch clamps slice bounds rather than rejecting them).
pub trait BoundAt<N> {
    /// The position.
    type Pos: Unsigned;
}
impl<N: Unsigned> BoundAt<N> for Open {
    type Pos = N;
}
impl<N, M: ToBin> BoundAt<N> for Front<M>
where
    M::Bin: Min<N>,
    Minimum<M::Bin, N>: Unsigned,
{
    type Pos = Minimum<M::Bin, N>;
}
impl<N, M: ToBin> BoundAt<N> for Back<M>
where
    M::Bin: Min<N>,
    N: Sub<Minimum<M::Bin, N>>,
    Diff<N, Minimum<M::Bin, N>>: Unsigned,
{
    type Pos = Diff<N, Minimum<M::Bin, N>>;
}

/// `ceil((max(Self, S) - S) / St)`: the entries from `S` to the end `Self`
/// every `St`.
pub trait StepCount<S, St> {
    /// The count.
    type Len: Unsigned;
}
impl<E, S, St> StepCount<S, St> for E
where
    E: Max<S>,
    Maximum<E, S>: Sub<S>,
    St: Sub<B1>,
    Diff<Maximum<E, S>, S>: Add<Sub1<St>>,
    Sum<Diff<Maximum<E, S>, S>, Sub1<St>>: Div<St>,
    Quot<Sum<Diff<Maximum<E, S>, S>, Sub1<St>>, St>: Unsigned,
{
    type Len = Quot<Sum<Diff<Maximum<E, S>, S>, Sub1<St>>, St>;
}

// ---------------------------------------------------------------------------
// The list of dimensions
// ---------------------------------------------------------------------------

/// The dimensions (a list, first at the head) left by the items `L`; `S`
/// is the whole shape, for the error message.
pub trait SliceDims<L, S> {
    /// The result, a list.
    type Out;
}
impl<D, S> SliceDims<Nil, S> for D {
    type Out = D;
}
impl<D: SliceDims<T, S>, T, S> SliceDims<Cons<NewAxis, T>, S> for D {
    type Out = Cons<super::Dec<1>, D::Out>;
}
macro_rules! index_items {
    ($($k:ty => [$($g:tt)*]),*) => {$(
        impl<X: IndexFits<$k>, D: SliceDims<T, S>, T, S, $($g)*> SliceDims<Cons<$k, T>, S> for Cons<X, D> {
            type Out = D::Out;
        }
        impl<T, S: TooManyIndices, $($g)*> SliceDims<Cons<$k, T>, S> for Nil {
            type Out = Nil;
        }
    )*};
}
index_items!(AnyIndex => [], Index<I, M> => [const I: isize, M], IndexFromEnd<I, M> => [const I: isize, M]);
macro_rules! range_items {
    ($($k:ty => [$($g:tt)*]),*) => {$(
        impl<X: RangeLen<$k>, D: SliceDims<T, S>, T, S, $($g)*> SliceDims<Cons<$k, T>, S> for Cons<X, D> {
            type Out = Cons<X::Len, D::Out>;
        }
        impl<T, S: TooManyIndices, $($g)*> SliceDims<Cons<$k, T>, S> for Nil {
            type Out = Nil;
        }
    )*};
}
range_items!(AnyRange => [], Range<B, E, St> => [B, E, St]);

/// A [`SliceItem`] value (kind [`AnyItem`]) stops the static rules.
impl<D, T, S> SliceDims<Cons<AnyItem, T>, S> for D
where
    Cons<AnyItem, T>: KnownKinds,
{
    type Out = D;
}

/// Holds for no list: a list of kinds that starts with a [`SliceItem`]
/// value.
#[diagnostic::on_unimplemented(
    message = "the shape of this slice is unknown: a `SliceItem` value may be an index or a range",
    label = "write the item itself inside `s![..]` (an integer, a range, `NewAxis`, `Ellipsis`), or use `slice_dyn(&items)`"
)]
pub trait KnownKinds {}

/// An ellipsis keeps dimensions while there are more left than the items
/// after it consume.
impl<D, T, S> SliceDims<Cons<Ellipsis, T>, S> for D
where
    D: ListLen,
    T: Consumed,
    D::N: IsGreater<T::N>,
    (Gr<D::N, T::N>, D): EllipsisKeeps<T, S>,
{
    type Out = <(Gr<D::N, T::N>, D) as EllipsisKeeps<T, S>>::Out;
}

/// `(one more dimension for the ellipsis, dimensions)`.
pub trait EllipsisKeeps<T, S> {
    /// The result, a list.
    type Out;
}
impl<X, D, T, S> EllipsisKeeps<T, S> for (True, Cons<X, D>)
where
    D: SliceDims<Cons<Ellipsis, T>, S>,
{
    type Out = Cons<X, D::Out>;
}
impl<D: SliceDims<T, S>, T, S> EllipsisKeeps<T, S> for (False, D) {
    type Out = D::Out;
}

// ---------------------------------------------------------------------------
// The shape
// ---------------------------------------------------------------------------

/// The shape of `slice(s![..])` with items of kinds `L` (a list).
pub trait Sliced<L> {
    /// The result shape.
    type Output: Shape;
}
impl<S, L> Sliced<L> for S
where
    S: Shape + TupleShape,
    S::Fwd: SliceDims<L, S>,
    <S::Fwd as SliceDims<L, S>>::Out: FromForward,
{
    type Output = <<S::Fwd as SliceDims<L, S>>::Out as FromForward>::Tuple;
}

/// Holds for no shape: more indices and ranges than dimensions.
#[diagnostic::on_unimplemented(
    message = "too many indices for this tensor: more indices and ranges than dimensions",
    label = "the shape `{Self}`: each index or range names one dimension; `NewAxis` and `Ellipsis` name none"
)]
pub trait TooManyIndices {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::FixedShape;
    use crate::{s_kinds, shape};

    fn sizes<S: FixedShape>() -> Vec<usize> {
        S::SIZES.as_ref().to_vec()
    }

    #[test]
    fn literal_items_give_static_sizes() {
        type S = shape![4, 6, 5];
        assert_eq!(sizes::<<S as Sliced<s_kinds![0]>>::Output>(), [6, 5]);
        assert_eq!(sizes::<<S as Sliced<s_kinds![-4]>>::Output>(), [6, 5]);
        assert_eq!(
            sizes::<<S as Sliced<s_kinds![1..3, ..;4]>>::Output>(),
            [2, 2, 5]
        );
        assert_eq!(
            sizes::<<S as Sliced<s_kinds![-3.., 2..100;3]>>::Output>(),
            [3, 2, 5]
        );
        assert_eq!(sizes::<<S as Sliced<s_kinds![3..1]>>::Output>(), [0, 6, 5]);
        assert_eq!(
            sizes::<<S as Sliced<s_kinds![..-1, ..=-2]>>::Output>(),
            [3, 5, 5]
        );
        assert_eq!(
            sizes::<<S as Sliced<s_kinds![Ellipsis, 0]>>::Output>(),
            [4, 6]
        );
        assert_eq!(
            sizes::<<S as Sliced<s_kinds![NewAxis, 1, Ellipsis, NewAxis, 1..]>>::Output>(),
            [1, 6, 1, 4]
        );
        assert_eq!(
            sizes::<<S as Sliced<s_kinds![Ellipsis]>>::Output>(),
            [4, 6, 5]
        );
        assert_eq!(
            sizes::<<S as Sliced<s_kinds![0, 0, 0]>>::Output>(),
            [0usize; 0]
        );
    }
}
