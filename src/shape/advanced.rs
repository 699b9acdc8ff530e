//! Advanced indexing (`x.index((&rows, .., &cols))`) on static shapes: the
//! compiler computes the result shape from the index tensors' shapes and
//! the basic items, by PyTorch's rules.
//!
//! Each item of the tuple has a kind: an integer tensor of shape `S`
//! ([`IndexTensor`]), a mask of shape `S` ([`MaskTensor`]), or a basic
//! item of `s![..]` (see [`slice`](super::slice)). The rules run in three
//! steps:
//!
//! 1. The items walk the dimensions ([`AdvancedDims`]), as basic indexing
//!    does: an integer drops its dimension, a range keeps it (narrowed),
//!    `NewAxis` adds one, `Ellipsis` keeps the dimensions nobody names. An
//!    integer tensor covers one dimension; a mask of rank `r` covers `r`,
//!    whose sizes it must have (a compile error otherwise). Each tensor
//!    leaves a slot ([`Advanced`]) holding its shape; a mask's is `(Dyn,)`,
//!    the number of its true elements.
//! 2. The tensors' shapes broadcast together ([`IndexBroadcast`]): sizes
//!    that cannot is a compile error in PyTorch's words.
//! 3. The broadcast shape goes where the tensors stand when nothing kept
//!    separates them, and first otherwise ([`Separated`], [`Arranged`]).
//!    A rank-0 integer tensor is read as an integer: it separates nothing.
//!
//! ```
//! use shaped::prelude::*;
//! use shaped::shape::advanced::{AdvancedShape, IndexTensor};
//! use shaped::shape::slice::{AnyIndex, Range, Front, Open};
//! type Full = Range<Front<Dec<0>>, Open, Dec<1>>;
//! type S = shape![5, 6, 7];
//! // x[:, i, j] with i, j of shape (2, 3) and (3,): in place.
//! type L1 = shaped::shape::list::Cons<Full, shaped::shape::list::Cons<IndexTensor<shape![2, 3]>,
//!     shaped::shape::list::Cons<IndexTensor<shape![3]>, shaped::shape::list::Nil>>>;
//! let _: <S as AdvancedShape<L1>>::Output = (Dec::<5>, Dec::<2>, Dec::<3>);
//! // x[i, :, j]: separated, the broadcast shape first.
//! type L2 = shaped::shape::list::Cons<IndexTensor<shape![2, 3]>, shaped::shape::list::Cons<Full,
//!     shaped::shape::list::Cons<IndexTensor<shape![3]>, shaped::shape::list::Nil>>>;
//! let _: <S as AdvancedShape<L2>>::Output = (Dec::<2>, Dec::<3>, Dec::<6>);
//! // x[i, 0, j]: the integer drops its dimension and separates nothing.
//! type L3 = shaped::shape::list::Cons<IndexTensor<shape![3]>, shaped::shape::list::Cons<AnyIndex,
//!     shaped::shape::list::Cons<IndexTensor<shape![3]>, shaped::shape::list::Nil>>>;
//! let _: <S as AdvancedShape<L3>>::Output = (Dec::<3>,);
//! ```

use super::Shape;
use super::broadcast::{BroadcastRev, IndexTensors};
use super::digits::{DigitCount, SizeEq, Succ};
use super::dim::{Dec, Dyn, StaticDim};
use super::dynamic::DynShape;
use super::list::{Cons, FromForward, Nil, TupleShape};
use super::slice::{
    AnyIndex, AnyRange, Consumed, ItemKind, ListLen, Range, RangeLen, TooManyIndices,
};
use crate::layout::views::{Ellipsis, NewAxis};
use core::marker::PhantomData;
use typenum::{False, Gr, IsGreater, True, U1};

/// The kind of an integer index tensor (int64 or int32) of shape `S`.
pub struct IndexTensor<S>(PhantomData<S>);
/// The kind of a mask (bool or uint8) of shape `S`.
pub struct MaskTensor<S>(PhantomData<S>);

impl<S> ItemKind for IndexTensor<S> {
    type Consumes = U1;
}
impl<S: StaticIndexShape> ItemKind for MaskTensor<S>
where
    S::Fwd: ListLen,
{
    type Consumes = <S::Fwd as ListLen>::N;
}

/// A dimension of the view that the result keeps.
pub struct Kept<X>(PhantomData<X>);
/// An index tensor's place, with its shape as a reversed list `R` (a
/// mask's is `(Dyn,)`).
pub struct Advanced<R>(PhantomData<R>);

// ---------------------------------------------------------------------------
// Step 1: the items walk the dimensions
// ---------------------------------------------------------------------------

/// The slots (a list of [`Kept`] and [`Advanced`]) that the items `L` leave
/// on the dimensions `Self` (a list, first at the head); `S` is the whole
/// shape, for the error message.
pub trait AdvancedDims<L, S> {
    /// The slots.
    type Out;
}

/// No items left: the remaining dimensions are kept.
impl<S> AdvancedDims<Nil, S> for Nil {
    type Out = Nil;
}
impl<X, D: AdvancedDims<Nil, S>, S> AdvancedDims<Nil, S> for Cons<X, D> {
    type Out = Cons<Kept<X>, D::Out>;
}

impl<D: AdvancedDims<T, S>, T, S> AdvancedDims<Cons<NewAxis, T>, S> for D {
    type Out = Cons<Kept<Dec<1>>, D::Out>;
}

impl<X, D: AdvancedDims<T, S>, T, S> AdvancedDims<Cons<AnyIndex, T>, S> for Cons<X, D> {
    type Out = D::Out;
}

macro_rules! one_dimension_items {
    ($($k:ty => [$($g:tt)*]),*) => {$(
        impl<T, S: TooManyIndices, $($g)*> AdvancedDims<Cons<$k, T>, S> for Nil {
            type Out = Nil;
        }
    )*};
}
one_dimension_items!(AnyIndex => [], AnyRange => [], Range<B, E, St> => [B, E, St], IndexTensor<SI> => [SI]);

impl<X: RangeLen<AnyRange>, D: AdvancedDims<T, S>, T, S> AdvancedDims<Cons<AnyRange, T>, S>
    for Cons<X, D>
{
    type Out = Cons<Kept<X::Len>, D::Out>;
}
impl<X: RangeLen<Range<B, E, St>>, D: AdvancedDims<T, S>, T, S, B, E, St>
    AdvancedDims<Cons<Range<B, E, St>, T>, S> for Cons<X, D>
{
    type Out = Cons<Kept<X::Len>, D::Out>;
}

/// An integer tensor covers one dimension, whatever its size (its values
/// are checked at run time).
impl<X, D: AdvancedDims<T, S>, T, S, SI: StaticIndexShape> AdvancedDims<Cons<IndexTensor<SI>, T>, S>
    for Cons<X, D>
{
    type Out = Cons<Advanced<SI::Rev>, D::Out>;
}

/// A mask covers as many dimensions as it has, and must have their sizes.
impl<D, T, S, SM: StaticIndexShape> AdvancedDims<Cons<MaskTensor<SM>, T>, S> for D
where
    D: MaskCovers<SM::Fwd, Dec<0>, S>,
    <D as MaskCovers<SM::Fwd, Dec<0>, S>>::Rest: AdvancedDims<T, S>,
{
    type Out = Cons<
        Advanced<Cons<Dyn, Nil>>,
        <<D as MaskCovers<SM::Fwd, Dec<0>, S>>::Rest as AdvancedDims<T, S>>::Out,
    >;
}

/// An ellipsis keeps dimensions while there are more left than the items
/// after it consume.
impl<D, T, S> AdvancedDims<Cons<Ellipsis, T>, S> for D
where
    D: ListLen,
    T: Consumed,
    D::N: IsGreater<T::N>,
    (Gr<D::N, T::N>, D): EllipsisKept<T, S>,
{
    type Out = <(Gr<D::N, T::N>, D) as EllipsisKept<T, S>>::Out;
}

/// `(one more dimension for the ellipsis, dimensions)`.
pub trait EllipsisKept<T, S> {
    /// The slots.
    type Out;
}
impl<X, D, T, S> EllipsisKept<T, S> for (True, Cons<X, D>)
where
    D: AdvancedDims<Cons<Ellipsis, T>, S>,
{
    type Out = Cons<Kept<X>, D::Out>;
}
impl<D: AdvancedDims<T, S>, T, S> EllipsisKept<T, S> for (False, D) {
    type Out = D::Out;
}

/// The shape of an index tensor in a typed index: a static rank.
#[diagnostic::on_unimplemented(
    message = "an index tensor of runtime shape gives no static result shape",
    label = "the index tensor's shape `{Self}` has no static rank",
    note = "index with a list, `x.index(&[Index::Tensor(&i), ..])`, for a runtime result shape, or give the index a static shape (`into_static`)"
)]
pub trait StaticIndexShape {
    /// The dimensions, last first.
    type Rev;
    /// The dimensions in order.
    type Fwd;
}
macro_rules! static_index_shapes {
    ($($($t:ident)*;)*) => {$(
        impl<$($t: super::Dim),*> StaticIndexShape for ($($t,)*) {
            type Rev = <Self as TupleShape>::Rev;
            type Fwd = <Self as TupleShape>::Fwd;
        }
    )*};
}
static_index_shapes!(; A; A B; A B C; A B C E; A B C E F; A B C E F G; A B C E F G H; A B C E F G H J;);

/// The dimensions `Self` (a list) with a mask of sizes `MF` (a list) over
/// their first ones; `J` counts the mask's dimensions, for the error.
pub trait MaskCovers<MF, J, S> {
    /// The dimensions after the mask's.
    type Rest;
}
impl<D, J, S> MaskCovers<Nil, J, S> for D {
    type Rest = D;
}
impl<M, MT, X, DT, J, S> MaskCovers<Cons<M, MT>, J, S> for Cons<X, DT>
where
    M: MaskDimFits<X, J>,
    J: Succ,
    DT: MaskCovers<MT, J::Next, S>,
{
    type Rest = DT::Rest;
}
impl<M, MT, J, S: TooManyIndices> MaskCovers<Cons<M, MT>, J, S> for Nil {
    type Rest = Nil;
}

/// A mask's size fits the size `X` of the dimension it covers: equal, or
/// one of them known only at run time (checked there).
pub trait MaskDimFits<X, J> {}
impl<X, J> MaskDimFits<X, J> for Dyn {}
impl<M: StaticDim, J> MaskDimFits<Dyn, J> for M {}
impl<M, X, J> MaskDimFits<X, J> for M
where
    M: StaticDim + SizeEq<X>,
    X: StaticDim,
    (M::Out, M, X, J): MaskFits,
{
}

/// `(equal, mask size, dimension size, mask dimension)`, or the error.
pub trait MaskFits {}
impl<M, X, J> MaskFits for (True, M, X, J) {}
impl<M: DigitCount, X: DigitCount, J> MaskFits for (False, M, X, J) where
    (M, X, J): super::diagnostics::MaskShapeMismatch<M::Out, X::Out>
{
}

// ---------------------------------------------------------------------------
// Step 2: the index tensors broadcast together
// ---------------------------------------------------------------------------

/// The broadcast of the [`Advanced`] slots' shapes, onto `Acc` (reversed
/// lists).
pub trait IndexBroadcast<Acc> {
    /// The broadcast shape, reversed.
    type Out;
}
impl<Acc> IndexBroadcast<Acc> for Nil {
    type Out = Acc;
}
impl<X, T: IndexBroadcast<Acc>, Acc> IndexBroadcast<Acc> for Cons<Kept<X>, T> {
    type Out = T::Out;
}
impl<R, T, Acc> IndexBroadcast<Acc> for Cons<Advanced<R>, T>
where
    Acc: BroadcastRev<R, IndexTensors>,
    T: IndexBroadcast<<Acc as BroadcastRev<R, IndexTensors>>::Output>,
{
    type Out = <T as IndexBroadcast<<Acc as BroadcastRev<R, IndexTensors>>::Output>>::Out;
}

// ---------------------------------------------------------------------------
// Step 3: where the broadcast shape goes
// ---------------------------------------------------------------------------

/// Walking the slots: no index tensor seen yet.
pub struct NoneYet;
/// Walking the slots: in the first run of index tensors.
pub struct InRun;
/// Walking the slots: a kept dimension after the first run.
pub struct AfterRun;

/// Whether a kept dimension separates two index tensors (`True`: the
/// broadcast shape goes first). Rank-0 index tensors count as integers.
pub trait Separated<State> {
    /// `True` or `False`.
    type Out;
}
impl<State> Separated<State> for Nil {
    type Out = False;
}
impl<X, T: Separated<NoneYet>> Separated<NoneYet> for Cons<Kept<X>, T> {
    type Out = T::Out;
}
impl<X, T: Separated<AfterRun>> Separated<InRun> for Cons<Kept<X>, T> {
    type Out = T::Out;
}
impl<X, T: Separated<AfterRun>> Separated<AfterRun> for Cons<Kept<X>, T> {
    type Out = T::Out;
}
impl<State, T: Separated<State>> Separated<State> for Cons<Advanced<Nil>, T> {
    type Out = T::Out;
}
impl<H, R, T: Separated<InRun>> Separated<NoneYet> for Cons<Advanced<Cons<H, R>>, T> {
    type Out = T::Out;
}
impl<H, R, T: Separated<InRun>> Separated<InRun> for Cons<Advanced<Cons<H, R>>, T> {
    type Out = T::Out;
}
impl<H, R, T> Separated<AfterRun> for Cons<Advanced<Cons<H, R>>, T> {
    type Out = True;
}

/// The kept dimensions of a list of slots, in order.
pub trait KeptDims {
    /// The dimensions.
    type Out;
}
impl KeptDims for Nil {
    type Out = Nil;
}
impl<X, T: KeptDims> KeptDims for Cons<Kept<X>, T> {
    type Out = Cons<X, T::Out>;
}
impl<R, T: KeptDims> KeptDims for Cons<Advanced<R>, T> {
    type Out = T::Out;
}

/// The result's dimensions when no kept dimension separates the index
/// tensors: the kept ones, with the broadcast shape `B` (a list) at the
/// first index tensor; `Placed` says whether it is there already.
pub trait InPlaceOf<B, Placed> {
    /// The dimensions.
    type Out;
}
impl<B, P> InPlaceOf<B, P> for Nil {
    type Out = Nil;
}
impl<X, T: InPlaceOf<B, P>, B, P> InPlaceOf<B, P> for Cons<Kept<X>, T> {
    type Out = Cons<X, T::Out>;
}
impl<T: InPlaceOf<B, P>, B, P> InPlaceOf<B, P> for Cons<Advanced<Nil>, T> {
    type Out = T::Out;
}
impl<H, R, T: InPlaceOf<B, True>, B> InPlaceOf<B, False> for Cons<Advanced<Cons<H, R>>, T>
where
    B: Concat<T::Out>,
{
    type Out = B::Out;
}
impl<H, R, T: InPlaceOf<B, True>, B> InPlaceOf<B, True> for Cons<Advanced<Cons<H, R>>, T> {
    type Out = T::Out;
}

/// `(separated, slots)`: the result's dimensions given the broadcast shape
/// `B` (a list, first at the head).
pub trait PlaceBroadcast<B> {
    /// The dimensions.
    type Out;
}
impl<L: KeptDims, B: Concat<L::Out>> PlaceBroadcast<B> for (True, L) {
    type Out = B::Out;
}
impl<L: InPlaceOf<B, False>, B> PlaceBroadcast<B> for (False, L) {
    type Out = L::Out;
}

/// The result's dimensions from the slots `Self`.
pub trait Arranged {
    /// The dimensions, a list.
    type Out;
}
impl<L> Arranged for L
where
    L: IndexBroadcast<Nil> + Separated<NoneYet>,
    <L as IndexBroadcast<Nil>>::Out: ReverseOnto<Nil>,
    (<L as Separated<NoneYet>>::Out, L):
        PlaceBroadcast<<<L as IndexBroadcast<Nil>>::Out as ReverseOnto<Nil>>::Out>,
{
    type Out = <(<L as Separated<NoneYet>>::Out, L) as PlaceBroadcast<
        <<L as IndexBroadcast<Nil>>::Out as ReverseOnto<Nil>>::Out,
    >>::Out;
}

/// A list reversed onto `Acc`.
pub trait ReverseOnto<Acc> {
    /// The result.
    type Out;
}
impl<Acc> ReverseOnto<Acc> for Nil {
    type Out = Acc;
}
impl<H, T: ReverseOnto<Cons<H, Acc>>, Acc> ReverseOnto<Acc> for Cons<H, T> {
    type Out = T::Out;
}

/// Two lists joined.
pub trait Concat<Tail> {
    /// `Self` then `Tail`.
    type Out;
}
impl<Tail> Concat<Tail> for Nil {
    type Out = Tail;
}
impl<H, T: Concat<Tail>, Tail> Concat<Tail> for Cons<H, T> {
    type Out = Cons<H, T::Out>;
}

// ---------------------------------------------------------------------------
// The shape
// ---------------------------------------------------------------------------

/// The shape of `x.index(items)` for a tensor of shape `Self` and items of
/// kinds `L` (a list); a [`DynShape`] tensor gives a `DynShape`.
pub trait AdvancedShape<L> {
    /// The result shape.
    type Output: Shape;
}
impl<S, L> AdvancedShape<L> for S
where
    S: Shape + TupleShape,
    S::Fwd: AdvancedDims<L, S>,
    <S::Fwd as AdvancedDims<L, S>>::Out: Arranged,
    <<S::Fwd as AdvancedDims<L, S>>::Out as Arranged>::Out: FromForward,
{
    type Output = <<<S::Fwd as AdvancedDims<L, S>>::Out as Arranged>::Out as FromForward>::Tuple;
}
impl<L> AdvancedShape<L> for DynShape {
    type Output = DynShape;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::FixedShape;
    use crate::shape::slice::{Front, Open};
    use crate::{s_kinds, shape};

    type Full = Range<Front<Dec<0>>, Open, Dec<1>>;
    type I<S> = IndexTensor<S>;
    type M<S> = MaskTensor<S>;

    fn sizes<S>() -> Vec<Option<usize>>
    where
        S: Shape + TupleShape,
        S::Fwd: SizesOf,
    {
        <S::Fwd as SizesOf>::sizes()
    }

    trait SizesOf {
        fn sizes() -> Vec<Option<usize>>;
    }
    impl SizesOf for Nil {
        fn sizes() -> Vec<Option<usize>> {
            Vec::new()
        }
    }
    impl<X: crate::shape::Dim, T: SizesOf> SizesOf for Cons<X, T> {
        fn sizes() -> Vec<Option<usize>> {
            let mut v = vec![X::SIZE];
            v.extend(T::sizes());
            v
        }
    }

    macro_rules! kinds {
        () => { Nil };
        ($h:ty $(, $t:ty)*) => { Cons<$h, kinds!($($t),*)> };
    }
    type S = shape![5, 6, 7];
    fn of<L>() -> Vec<Option<usize>>
    where
        S: AdvancedShape<L>,
        <S as AdvancedShape<L>>::Output: TupleShape,
        <<S as AdvancedShape<L>>::Output as TupleShape>::Fwd: SizesOf,
    {
        sizes::<<S as AdvancedShape<L>>::Output>()
    }
    fn fixed(v: &[usize]) -> Vec<Option<usize>> {
        v.iter().map(|&n| Some(n)).collect()
    }

    #[test]
    fn adjacent_index_tensors_stay_in_place() {
        assert_eq!(of::<kinds![I<shape![4]>]>(), fixed(&[4, 6, 7]));
        assert_eq!(
            of::<kinds![I<shape![2, 3]>, I<shape![3]>]>(),
            fixed(&[2, 3, 7])
        );
        assert_eq!(
            of::<kinds![Full, I<shape![4, 1]>, I<shape![3]>]>(),
            fixed(&[5, 4, 3])
        );
        assert_eq!(of::<kinds![Ellipsis, I<shape![2]>]>(), fixed(&[5, 6, 2]));
        // An integer between them drops its dimension and separates nothing.
        assert_eq!(
            of::<kinds![I<shape![3]>, AnyIndex, I<shape![3]>]>(),
            fixed(&[3])
        );
        // A rank-0 index tensor is an integer.
        assert_eq!(
            of::<kinds![Full, I<shape![]>, I<shape![2]>]>(),
            fixed(&[5, 2])
        );
        assert_eq!(
            of::<kinds![I<shape![2]>, I<shape![]>, I<shape![2]>]>(),
            fixed(&[2])
        );
        assert_eq!(
            of::<kinds![I<shape![2]>, Full, I<shape![]>]>(),
            fixed(&[2, 6])
        );
        // An empty ellipsis between them separates nothing.
        assert_eq!(
            of::<kinds![Full, I<shape![2]>, Ellipsis, I<shape![2]>]>(),
            fixed(&[5, 2])
        );
    }

    #[test]
    fn separated_index_tensors_go_first() {
        assert_eq!(
            of::<kinds![I<shape![2, 3]>, Full, I<shape![3]>]>(),
            fixed(&[2, 3, 6])
        );
        assert_eq!(
            of::<kinds![I<shape![2]>, NewAxis, I<shape![2]>, Full]>(),
            fixed(&[2, 1, 7])
        );
        assert_eq!(
            of::<kinds![I<shape![2]>, Ellipsis, I<shape![2]>]>(),
            fixed(&[2, 6])
        );
        assert_eq!(
            of::<kinds![I<shape![2]>, AnyRange, I<shape![1]>]>(),
            vec![Some(2), None]
        );
    }

    #[test]
    fn masks_cover_their_dimensions_and_count_at_run_time() {
        assert_eq!(of::<kinds![M<shape![5, 6]>]>(), vec![None, Some(7)]);
        assert_eq!(of::<kinds![Full, M<shape![6, 7]>]>(), vec![Some(5), None]);
        assert_eq!(
            of::<kinds![M<shape![5]>, Full, I<shape![1]>]>(),
            vec![None, Some(6)]
        );
        assert_eq!(
            of::<kinds![M<shape![]>]>(),
            vec![None, Some(5), Some(6), Some(7)]
        );
        assert_eq!(of::<kinds![M<(Dyn, Dyn)>]>(), vec![None, Some(7)]);
    }

    #[test]
    fn basic_items_alone_slice() {
        assert_eq!(of::<kinds![AnyIndex, NewAxis]>(), fixed(&[1, 6, 7]));
        assert_eq!(of::<s_kinds![..;2]>(), fixed(&[3, 6, 7]));
        assert_eq!(<S as FixedShape>::SIZES, [5, 6, 7]);
    }
}
