//! The shapes of the split family, `unfold`, `unflatten` and `flatten` on
//! static shapes, computed by the compiler (typenum does the arithmetic on
//! the sizes, see [`arith`](super::arith)).
//!
//! A split's result is described by a *plan*: a [`Group<N, S>`] is `N`
//! pieces of shape `S`, and a pair of groups is a split whose last pieces
//! differ from the first ones. `N` is a typenum number, giving a
//! [`GenericArray`] of `N` views, or [`Dyn`] (the size of the dimension is
//! known only at run time), giving a `Vec` (typenum's `consts::U2`, ...,
//! name the lengths in type annotations). PyTorch's rules, with `n` the
//! size of the dimension:
//!
//! | operation | pieces |
//! |---|---|
//! | `unbind::<DIM>` | `n` of `S` without `DIM` |
//! | `split::<DIM, SIZE>` | `n / SIZE` of size `SIZE`, then one of `n % SIZE` if that is not 0 (or if `n` is 0) |
//! | `chunk::<DIM, CHUNKS>` | `split` by `ceil(n / CHUNKS)` (`CHUNKS` empty pieces when `n` is 0) |
//! | `tensor_split::<DIM, SECTIONS>` | `n % SECTIONS` of size `n / SECTIONS + 1`, then the rest of size `n / SECTIONS` |
//! | `hsplit`/`vsplit::<SECTIONS>` | `SECTIONS` of size `n / SECTIONS` (dimension 1, or 0 for `vsplit` and vectors) |
//!
//! With a [`Dyn`] dimension the pieces keep `Dyn` there; their count is
//! `SECTIONS` for `tensor_split`, `hsplit` and `vsplit`, and `Dyn` (a `Vec`)
//! otherwise.
//!
//! What is known at compile time is checked there, with a message that says
//! what went wrong: a dimension out of range, a split size, a number of chunks
//! or sections, or an unfold step of 0, `hsplit`/`vsplit` sections that do
//! not divide the size, an unfold window longer than the dimension, an
//! `unflatten` to a different number of elements or to more than 8
//! dimensions, and `flatten::<START, END>` with `START > END`. The
//! `ui-tests/fail/{split,unfold,unflatten,flatten}_*.rs` cases show each
//! message.
//!
//! The const arguments (sizes, counts, steps) become typenum numbers through
//! `typenum::Const`, which covers 0 to 1024 and the powers of 2 and of 10;
//! other values do not compile. The `GenericArray`s of views live on the
//! stack: for a dimension of many thousands, `into_dyn()` and the `Vec` of
//! the dynamic forms are the better choice.
//!
//! ```
//! use shaped::prelude::*;
//! use shaped::shape::split::{ChunkPlan, Group};
//! use typenum::consts::*;
//! // 7 in chunks of 3: two pieces of size 3 and one of size 1.
//! let _: Option<<shape![7, 2] as ChunkPlan<0, 3>>::Plan> =
//!     None::<(Group<U2, shape![3, 2]>, Group<U1, shape![1, 2]>)>;
//! ```

use super::arith::{FromBin, ToBin};
use super::axes::{At, ConstSize, Numel, Remove, Replace};
use super::digits::DigitCount;
use super::dim::{Dec, Dim, Dyn, StaticDim};
use core::marker::PhantomData;
use core::ops::{Add, Div, Rem, Sub};
use generic_array::ArrayLength;
use typenum::{B0, B1, Const, IsEqual, IsLessOrEqual, ToUInt, U0, U1, Unsigned};

pub use generic_array::GenericArray;

/// A static size as a typenum number.
type Bin<X> = <X as ToBin>::Bin;
/// The const argument `N` as a typenum number.
type Num<const N: usize> = typenum::U<N>;
/// A typenum number as a decimal size.
type DecOf<N> = <N as FromBin>::Dec;
/// The const argument `N` as a decimal size.
type DecConst<const N: usize> = <Const<N> as ConstSize>::Dec;
/// `A == B`, as a typenum bit.
type Is<A, B> = <A as IsEqual<B>>::Output;
/// `A / B` of typenum numbers.
type Quot<A, B> = <A as Div<B>>::Output;
/// `A % B` of typenum numbers.
type Mod<A, B> = <A as Rem<B>>::Output;

/// What the per-dimension rules of a split look at: whether the const
/// argument `ARG` is 0, dimension `DIM` of `S`, and `ARG` as a typenum number.
type Key<S, const DIM: usize, const ARG: usize> =
    (Is<Num<ARG>, U0>, <S as At<DIM>>::Output, Num<ARG>);
/// [`Key`] with `DIM` as a decimal size, for the messages that quote it.
type KeyAt<S, const DIM: usize, const ARG: usize> = (
    Is<Num<ARG>, U0>,
    <S as At<DIM>>::Output,
    Num<ARG>,
    DecConst<DIM>,
);

/// `N` pieces of shape `S`: one entry of a split's plan. `N` is a typenum
/// number or [`Dyn`]. (Inside the rules, before [`PlaceAt`], `S` is the
/// size of the pieces along the split dimension.)
pub struct Group<N, S>(PhantomData<(N, S)>);

/// How many pieces a group has, and what holds them: a [`GenericArray`] for
/// a typenum number, a `Vec` for [`Dyn`].
pub trait PieceCount {
    /// The container of the pieces.
    type Array<V>;
    /// Takes this many pieces from `pieces` (every one for [`Dyn`]).
    fn collect<V>(pieces: impl Iterator<Item = V>) -> Self::Array<V>;
}
impl PieceCount for Dyn {
    type Array<V> = Vec<V>;
    fn collect<V>(pieces: impl Iterator<Item = V>) -> Vec<V> {
        use crate::error::OrPanic;
        let pieces = pieces.map(Ok);
        crate::layout::views::collect_pieces(pieces.size_hint().0, pieces).or_panic()
    }
}
impl<N: ArrayLength> PieceCount for N {
    type Array<V> = GenericArray<V, N>;
    #[inline]
    fn collect<V>(mut pieces: impl Iterator<Item = V>) -> GenericArray<V, N> {
        <GenericArray<V, N> as generic_array::sequence::GenericSequence<V>>::generate(|_| {
            pieces
                .next()
                .expect("a split cuts as many pieces as the shape rule counts")
        })
    }
}

/// A plan whose pieces have their size along dimension `DIM` put into the
/// shape `S`.
pub trait PlaceAt<S, const DIM: usize> {
    /// The plan with whole shapes.
    type Output;
}
impl<N, X, S: Replace<DIM, X>, const DIM: usize> PlaceAt<S, DIM> for Group<N, X> {
    type Output = Group<N, <S as Replace<DIM, X>>::Output>;
}
impl<A: PlaceAt<S, DIM>, B: PlaceAt<S, DIM>, S, const DIM: usize> PlaceAt<S, DIM> for (A, B) {
    type Output = (A::Output, B::Output);
}

/// The number of entries of a dimension: its size as a typenum number, or
/// [`Dyn`].
pub trait DimCount {
    /// `U..` or `Dyn`.
    type Count;
}
impl DimCount for Dyn {
    type Count = Dyn;
}
impl<X: StaticDim + ToBin> DimCount for X {
    type Count = X::Bin;
}

/// An element count as a dimension: a typenum number as its `Dec`,
/// [`Dyn`] as itself.
pub trait CountDim {
    /// The dimension.
    type Dim: Dim;
}
impl CountDim for Dyn {
    type Dim = Dyn;
}
impl<N: Unsigned + FromBin> CountDim for N
where
    N::Dec: Dim,
{
    type Dim = N::Dec;
}

/// The dimension that several dimensions merge into: the product of their
/// sizes, or [`Dyn`] when one of them is.
pub trait MergedDim {
    /// The merged dimension.
    type Output;
}
impl<M: Numel> MergedDim for M
where
    M::Count: CountDim,
{
    type Output = <M::Count as CountDim>::Dim;
}

// ---------------------------------------------------------------- unbind

/// The plan of `unbind::<DIM>()`: one piece per entry of dimension `DIM`,
/// without that dimension.
pub trait Unbound<const DIM: usize> {
    /// The plan.
    type Plan;
}
impl<S, const DIM: usize> Unbound<DIM> for S
where
    S: At<DIM>,
    <S as At<DIM>>::Output: Unbinds<S, DIM>,
{
    type Plan = <<S as At<DIM>>::Output as Unbinds<S, DIM>>::Plan;
}

/// The pieces of `unbind` for dimension `DIM` (of size `Self`) of `S`.
pub trait Unbinds<S, const DIM: usize> {
    /// The plan.
    type Plan;
}
impl<X: DimCount, S: Remove<DIM>, const DIM: usize> Unbinds<S, DIM> for X {
    type Plan = Group<X::Count, <S as Remove<DIM>>::Output>;
}

// ----------------------------------------------------------------- split

/// The plan of `split::<DIM, SIZE>()`.
pub trait SplitPlan<const DIM: usize, const SIZE: usize> {
    /// The plan.
    type Plan;
}
impl<S, const DIM: usize, const SIZE: usize> SplitPlan<DIM, SIZE> for S
where
    S: At<DIM>,
    Const<SIZE>: ToUInt,
    Num<SIZE>: IsEqual<U0>,
    Key<S, DIM, SIZE>: SplitSizes,
    <Key<S, DIM, SIZE> as SplitSizes>::Plan: PlaceAt<S, DIM>,
{
    type Plan = <<Key<S, DIM, SIZE> as SplitSizes>::Plan as PlaceAt<S, DIM>>::Output;
}

/// `split`'s pieces for `(size is 0, dimension, size)`.
pub trait SplitSizes {
    /// The plan, by sizes along the split dimension.
    type Plan;
}
impl<X: SplitSizeZero, Sz> SplitSizes for (B1, X, Sz) {
    type Plan = Group<U0, X>;
}
impl<Sz> SplitSizes for (B0, Dyn, Sz) {
    type Plan = Group<Dyn, Dyn>;
}
impl<X: StaticDim + ToBin, Sz> SplitSizes for (B0, X, Sz)
where
    (Bin<X>, Sz): SplitStatic,
{
    type Plan = <(Bin<X>, Sz) as SplitStatic>::Plan;
}

/// Pieces of size `Sz` (not 0) of a dimension of size `N`: `N / Sz` full
/// pieces, then one of `N % Sz` unless that is 0 with `N` not 0 (PyTorch
/// gives one empty piece of an empty dimension).
pub trait SplitStatic {
    /// The plan, by sizes along the split dimension.
    type Plan;
}
impl<N, Sz> SplitStatic for (N, Sz)
where
    N: Div<Sz> + Rem<Sz> + IsEqual<U0>,
    Sz: FromBin,
    Mod<N, Sz>: IsEqual<U0> + FromBin,
    (Is<Mod<N, Sz>, U0>, Is<N, U0>): LastPiece,
{
    type Plan = (
        Group<Quot<N, Sz>, DecOf<Sz>>,
        Group<<(Is<Mod<N, Sz>, U0>, Is<N, U0>) as LastPiece>::Count, DecOf<Mod<N, Sz>>>,
    );
}

/// Whether a split has a shorter last piece, by `(remainder is 0,
/// dimension is 0)`.
pub trait LastPiece {
    /// `U0` or `U1`.
    type Count;
}
impl LastPiece for (B1, B0) {
    type Count = U0;
}
impl LastPiece for (B0, B0) {
    type Count = U1;
}
impl LastPiece for (B1, B1) {
    type Count = U1;
}

// ----------------------------------------------------------------- chunk

/// The plan of `chunk::<DIM, CHUNKS>()`.
pub trait ChunkPlan<const DIM: usize, const CHUNKS: usize> {
    /// The plan.
    type Plan;
}
impl<S, const DIM: usize, const CHUNKS: usize> ChunkPlan<DIM, CHUNKS> for S
where
    S: At<DIM>,
    Const<CHUNKS>: ToUInt,
    Num<CHUNKS>: IsEqual<U0>,
    Key<S, DIM, CHUNKS>: ChunkSizes,
    <Key<S, DIM, CHUNKS> as ChunkSizes>::Plan: PlaceAt<S, DIM>,
{
    type Plan = <<Key<S, DIM, CHUNKS> as ChunkSizes>::Plan as PlaceAt<S, DIM>>::Output;
}

/// `chunk`'s pieces for `(chunks is 0, dimension, chunks)`.
pub trait ChunkSizes {
    /// The plan, by sizes along the split dimension.
    type Plan;
}
impl<X: ChunksZero, K> ChunkSizes for (B1, X, K) {
    type Plan = Group<U0, X>;
}
impl<K> ChunkSizes for (B0, Dyn, K) {
    type Plan = Group<Dyn, Dyn>;
}
impl<X: StaticDim + ToBin, K> ChunkSizes for (B0, X, K)
where
    Bin<X>: IsEqual<U0>,
    (Is<Bin<X>, U0>, Bin<X>, K): ChunkStatic,
{
    type Plan = <(Is<Bin<X>, U0>, Bin<X>, K) as ChunkStatic>::Plan;
}

/// `K` chunks of a static dimension `N`, by `(N is 0, N, K)`: `K` empty
/// pieces of an empty dimension, else pieces of `ceil(N / K)`.
pub trait ChunkStatic {
    /// The plan, by sizes along the split dimension.
    type Plan;
}
impl<N, K> ChunkStatic for (B1, N, K) {
    type Plan = (Group<K, Dec<0>>, Group<U0, Dec<0>>);
}
impl<N, K> ChunkStatic for (B0, N, K)
where
    N: Add<K>,
    <N as Add<K>>::Output: Sub<U1>,
    <<N as Add<K>>::Output as Sub<U1>>::Output: Div<K>,
    (N, Quot<<<N as Add<K>>::Output as Sub<U1>>::Output, K>): SplitStatic,
{
    type Plan = <(N, Quot<<<N as Add<K>>::Output as Sub<U1>>::Output, K>) as SplitStatic>::Plan;
}

// ---------------------------------------------------------- tensor_split

/// The plan of `tensor_split::<DIM, SECTIONS>()`.
pub trait TensorSplitPlan<const DIM: usize, const SECTIONS: usize> {
    /// The plan.
    type Plan;
}
impl<S, const DIM: usize, const SECTIONS: usize> TensorSplitPlan<DIM, SECTIONS> for S
where
    S: At<DIM>,
    Const<SECTIONS>: ToUInt,
    Num<SECTIONS>: IsEqual<U0>,
    Key<S, DIM, SECTIONS>: SectionSizes,
    <Key<S, DIM, SECTIONS> as SectionSizes>::Plan: PlaceAt<S, DIM>,
{
    type Plan = <<Key<S, DIM, SECTIONS> as SectionSizes>::Plan as PlaceAt<S, DIM>>::Output;
}

/// `tensor_split`'s pieces for `(sections is 0, dimension, sections)`:
/// `N % K` pieces of `N / K + 1`, then `K - N % K` of `N / K`.
pub trait SectionSizes {
    /// The plan, by sizes along the split dimension.
    type Plan;
}
impl<X: SectionsZero, K> SectionSizes for (B1, X, K) {
    type Plan = Group<U0, X>;
}
impl<K> SectionSizes for (B0, Dyn, K) {
    type Plan = Group<K, Dyn>;
}
impl<X: StaticDim + ToBin, K> SectionSizes for (B0, X, K)
where
    Bin<X>: Div<K> + Rem<K>,
    Quot<Bin<X>, K>: Add<U1> + FromBin,
    <Quot<Bin<X>, K> as Add<U1>>::Output: FromBin,
    K: Sub<Mod<Bin<X>, K>>,
{
    type Plan = (
        Group<Mod<Bin<X>, K>, DecOf<<Quot<Bin<X>, K> as Add<U1>>::Output>>,
        Group<<K as Sub<Mod<Bin<X>, K>>>::Output, DecOf<Quot<Bin<X>, K>>>,
    );
}

// -------------------------------------------------------- hsplit, vsplit

/// The plan of `SECTIONS` equal pieces along dimension `DIM` (`hsplit` and
/// `vsplit`): the number of sections must divide a static size.
pub trait EvenSplit<const DIM: usize, const SECTIONS: usize> {
    /// The plan.
    type Plan;
}
impl<S, const DIM: usize, const SECTIONS: usize> EvenSplit<DIM, SECTIONS> for S
where
    S: At<DIM>,
    Const<SECTIONS>: ToUInt,
    Num<SECTIONS>: IsEqual<U0>,
    Const<DIM>: ConstSize,
    KeyAt<S, DIM, SECTIONS>: EvenSizes,
    <KeyAt<S, DIM, SECTIONS> as EvenSizes>::Plan: PlaceAt<S, DIM>,
{
    type Plan = <<KeyAt<S, DIM, SECTIONS> as EvenSizes>::Plan as PlaceAt<S, DIM>>::Output;
}

/// Equal pieces for `(sections is 0, dimension, sections, DIM)`.
pub trait EvenSizes {
    /// The plan, by sizes along the split dimension.
    type Plan;
}
impl<X: SectionsZero, K, I> EvenSizes for (B1, X, K, I) {
    type Plan = Group<U0, X>;
}
impl<K, I> EvenSizes for (B0, Dyn, K, I) {
    type Plan = Group<K, Dyn>;
}
impl<X: StaticDim + ToBin, K, I> EvenSizes for (B0, X, K, I)
where
    Bin<X>: Rem<K>,
    Mod<Bin<X>, K>: IsEqual<U0>,
    (Is<Mod<Bin<X>, K>, U0>, Bin<X>, K, I): Divides,
{
    type Plan = <(Is<Mod<Bin<X>, K>, U0>, Bin<X>, K, I) as Divides>::Plan;
}

/// `K` equal pieces of `N`, by `(K divides N, N, K, DIM)`.
pub trait Divides {
    /// The plan, by sizes along the split dimension.
    type Plan;
}
impl<N: Div<K>, K, I> Divides for (B1, N, K, I)
where
    Quot<N, K>: FromBin,
{
    type Plan = Group<K, DecOf<Quot<N, K>>>;
}
impl<N: FromBin, K: FromBin, I> Divides for (B0, N, K, I)
where
    N::Dec: DigitCount,
    K::Dec: DigitCount,
    (N::Dec, K::Dec, I):
        SectionsNotDivisible<<N::Dec as DigitCount>::Out, <K::Dec as DigitCount>::Out>,
{
    type Plan = Group<U0, Dec<0>>;
}

/// The plan of `hsplit::<SECTIONS>()`: dimension 1, or 0 for a vector.
pub trait HSplit<const SECTIONS: usize> {
    /// The plan.
    type Plan;
}
impl<S: HSplitByRank<K>, const K: usize> HSplit<K> for S {
    type Plan = S::Plan;
}

/// The plan of `vsplit::<SECTIONS>()`: dimension 0 of a shape of rank 2 or
/// more.
pub trait VSplit<const SECTIONS: usize> {
    /// The plan.
    type Plan;
}
impl<S: VSplitByRank<K>, const K: usize> VSplit<K> for S {
    type Plan = S::Plan;
}

/// [`HSplit`] for each rank (a scalar gets [`HSplitOfAScalar`]'s error).
pub trait HSplitByRank<const SECTIONS: usize> {
    /// The plan.
    type Plan;
}
impl<const K: usize> HSplitByRank<K> for ()
where
    Const<K>: ToUInt,
    Num<K>: ScalarHSplit<()>,
{
    type Plan = Group<U0, ()>;
}
impl<A, const K: usize> HSplitByRank<K> for (A,)
where
    (A,): EvenSplit<0, K>,
{
    type Plan = <(A,) as EvenSplit<0, K>>::Plan;
}

/// [`VSplit`] for each rank (a scalar or a vector gets
/// [`VSplitOfAVector`]'s error).
pub trait VSplitByRank<const SECTIONS: usize> {
    /// The plan.
    type Plan;
}
impl<const K: usize> VSplitByRank<K> for ()
where
    Const<K>: ToUInt,
    Num<K>: VectorVSplit<()>,
{
    type Plan = Group<U0, ()>;
}
impl<A, const K: usize> VSplitByRank<K> for (A,)
where
    Const<K>: ToUInt,
    Num<K>: VectorVSplit<(A,)>,
{
    type Plan = Group<U0, (A,)>;
}

/// `hsplit` of the scalar `S`, reported once the number of sections (`Self`)
/// is known: a bound that needs it keeps method lookup from rejecting the
/// call before the argument is known, which would hide the message.
pub trait ScalarHSplit<S> {}
impl<N, S: HSplitOfAScalar> ScalarHSplit<S> for N {}

/// `vsplit` of the shape `S` of rank 0 or 1, reported once the number of
/// sections (`Self`) is known (as [`ScalarHSplit`]).
pub trait VectorVSplit<S> {}
impl<N, S: VSplitOfAVector> VectorVSplit<S> for N {}
macro_rules! hv_split {
    ($($t:ident)*) => {
        impl<A, B, $($t,)* const K: usize> HSplitByRank<K> for (A, B, $($t,)*)
        where
            Self: EvenSplit<1, K>,
        {
            type Plan = <Self as EvenSplit<1, K>>::Plan;
        }
        impl<A, B, $($t,)* const K: usize> VSplitByRank<K> for (A, B, $($t,)*)
        where
            Self: EvenSplit<0, K>,
        {
            type Plan = <Self as EvenSplit<0, K>>::Plan;
        }
    };
}
hv_split!();
hv_split!(C);
hv_split!(C E);
hv_split!(C E F);
hv_split!(C E F G);
hv_split!(C E F G H);
hv_split!(C E F G H I);

// ---------------------------------------------------------------- unfold

/// The shape of `unfold::<DIM, SIZE, STEP>()`: dimension `DIM` becomes the
/// number of windows, `(n - SIZE) / STEP + 1`, and a last dimension of
/// `SIZE` is added.
pub trait Unfolded<const DIM: usize, const SIZE: usize, const STEP: usize> {
    /// The new shape.
    type Output;
}
impl<S, const DIM: usize, const SIZE: usize, const STEP: usize> Unfolded<DIM, SIZE, STEP> for S
where
    S: At<DIM>,
    Const<SIZE>: ToUInt + ConstSize,
    Const<STEP>: ToUInt,
    Num<STEP>: IsEqual<U0>,
    Const<DIM>: ConstSize,
    WindowKey<S, DIM, SIZE, STEP>: Windows,
    S: Pushed<DecConst<SIZE>>,
    <S as Pushed<DecConst<SIZE>>>::Output: Replace<DIM, WindowsOf<S, DIM, SIZE, STEP>>,
{
    type Output = <<S as Pushed<DecConst<SIZE>>>::Output as Replace<
        DIM,
        WindowsOf<S, DIM, SIZE, STEP>,
    >>::Output;
}

/// What [`Windows`] looks at for `unfold::<DIM, SIZE, STEP>()` on `S`.
type WindowKey<S, const DIM: usize, const SIZE: usize, const STEP: usize> = (
    Is<Num<STEP>, U0>,
    <S as At<DIM>>::Output,
    Num<SIZE>,
    Num<STEP>,
    DecConst<DIM>,
);
/// The number of windows of `unfold::<DIM, SIZE, STEP>()` on `S`.
type WindowsOf<S, const DIM: usize, const SIZE: usize, const STEP: usize> =
    <WindowKey<S, DIM, SIZE, STEP> as Windows>::Count;

/// The number of windows for `(step is 0, dimension, size, step, DIM)`.
pub trait Windows {
    /// The window count, as a dimension.
    type Count;
}
impl<X: UnfoldStepZero, Sz, St, I> Windows for (B1, X, Sz, St, I) {
    type Count = X;
}
impl<Sz, St, I> Windows for (B0, Dyn, Sz, St, I) {
    type Count = Dyn;
}
impl<X: StaticDim + ToBin, Sz, St, I> Windows for (B0, X, Sz, St, I)
where
    Sz: IsLessOrEqual<Bin<X>>,
    (typenum::LeEq<Sz, Bin<X>>, Bin<X>, Sz, St, I): WindowCount,
{
    type Count = <(typenum::LeEq<Sz, Bin<X>>, Bin<X>, Sz, St, I) as WindowCount>::Count;
}

/// `(N - Sz) / St + 1` windows, by `(Sz <= N, N, Sz, St, DIM)`.
pub trait WindowCount {
    /// The window count, as a dimension.
    type Count;
}
impl<N: Sub<Sz>, Sz, St, I> WindowCount for (B1, N, Sz, St, I)
where
    <N as Sub<Sz>>::Output: Div<St>,
    Quot<<N as Sub<Sz>>::Output, St>: Add<U1>,
    <Quot<<N as Sub<Sz>>::Output, St> as Add<U1>>::Output: FromBin,
{
    type Count = DecOf<<Quot<<N as Sub<Sz>>::Output, St> as Add<U1>>::Output>;
}
impl<N: FromBin, Sz: FromBin, St, I> WindowCount for (B0, N, Sz, St, I)
where
    N::Dec: DigitCount,
    Sz::Dec: DigitCount,
    (Sz::Dec, N::Dec, I): UnfoldTooLong<<Sz::Dec as DigitCount>::Out, <N::Dec as DigitCount>::Out>,
{
    type Count = Dec<0>;
}

/// The shape with `X` added as a new last dimension (a shape of rank 8
/// gets [`UnfoldTooManyDims`]'s error).
pub trait Pushed<X> {
    /// The new shape.
    type Output;
}
macro_rules! pushed {
    ($($t:ident)*) => {
        impl<$($t,)* X> Pushed<X> for ($($t,)*) {
            type Output = ($($t,)* X,);
        }
    };
}
pushed!();
pushed!(A);
pushed!(A B);
pushed!(A B C);
pushed!(A B C E);
pushed!(A B C E F);
pushed!(A B C E F G);
pushed!(A B C E F G H);
impl<A, B, C, E, F, G, H, I, X: UnfoldTooManyDims> Pushed<X> for (A, B, C, E, F, G, H, I) {
    type Output = (A, B, C, E, F, G, H, I);
}

// ------------------------------------------------------ flatten, unflatten

/// The shape of `unflatten::<DIM, L>()`: dimension `DIM` replaced by the
/// dimensions of `L` (a `shape![..]`), whose element count must equal its
/// size (checked here when both are static, at run time otherwise).
pub trait Unflattened<const DIM: usize, L> {
    /// The new shape.
    type Output;
}
impl<S: UnflattenAt<DIM, L>, L, const DIM: usize> Unflattened<DIM, L> for S {
    type Output = S::Output;
}

/// The shape of `flatten::<START, END>()`: dimensions `START..=END`
/// merged into one whose size is their product ([`Dyn`] when one of them
/// is). A scalar flattens to one dimension of size 1.
pub trait Flattened<const START: usize, const END: usize> {
    /// The new shape.
    type Output;
}
impl<S: FlattenRange<START, END>, const START: usize, const END: usize> Flattened<START, END>
    for S
{
    type Output = S::Output;
}

/// [`Unflattened`] for each rank, position and number of sizes.
#[diagnostic::on_unimplemented(
    message = "cannot unflatten dimension {DIM} into these sizes: the shape has no dimension {DIM}, or the sizes are not `shape![..]`",
    label = "the shape `{Self}`, the sizes `{L}`",
    note = "dimensions are counted from 0; a shape of rank n has dimensions 0 to n - 1"
)]
pub trait UnflattenAt<const DIM: usize, L> {
    /// The new shape.
    type Output;
}

/// [`Flattened`] for each rank and range.
#[diagnostic::on_unimplemented(
    message = "cannot flatten dimensions {START} to {END}: a dimension is out of range",
    label = "the shape `{Self}` has no dimension {END}, or {START} is after {END}",
    note = "dimensions are counted from 0; a shape of rank n has dimensions 0 to n - 1"
)]
pub trait FlattenRange<const START: usize, const END: usize> {
    /// The new shape.
    type Output;
}

shaped_macros::tuple_range_impls!();

/// The shape of `flatten_all()`: one dimension holding every element.
pub trait FlattenedAll {
    /// The new shape.
    type Output;
}
impl<S: Numel> FlattenedAll for S
where
    S::Count: CountDim,
{
    type Output = (<S::Count as CountDim>::Dim,);
}

/// A dimension of size `Self` unflattens into the sizes `L` (`I` is the
/// dimension, for the message): a static size must equal their product.
pub trait UnflattenCount<I, L> {}
impl<I, L> UnflattenCount<I, L> for Dyn {}
impl<X: StaticDim + ToBin, I, L: Numel> UnflattenCount<I, L> for X where
    (L::Count, Bin<X>, I): CountsMatch
{
}

/// `(count of the sizes, size, DIM)`: an unknown count is checked at run
/// time.
pub trait CountsMatch {}
impl<N, I> CountsMatch for (Dyn, N, I) {}
impl<C: Unsigned + IsEqual<N>, N, I> CountsMatch for (C, N, I) where
    (Is<C, N>, C, N, I): CountVerdict
{
}

/// `(equal, count, size, DIM)`.
pub trait CountVerdict {}
impl<C, N, I> CountVerdict for (B1, C, N, I) {}
impl<C: FromBin, N: FromBin, I> CountVerdict for (B0, C, N, I)
where
    C::Dec: DigitCount,
    N::Dec: DigitCount,
    (C::Dec, N::Dec, I):
        UnflattenNumelMismatch<<C::Dec as DigitCount>::Out, <N::Dec as DigitCount>::Out>,
{
}

/// The sizes of a tuple shape, `None` for [`Dyn`] (the sizes of
/// `unflatten::<DIM, L>`).
pub trait SizeList {
    /// The sizes, in order.
    const SIZES: &'static [Option<usize>];
}
macro_rules! size_list {
    ($($t:ident)*) => {
        impl<$($t: Dim),*> SizeList for ($($t,)*) {
            const SIZES: &'static [Option<usize>] = &[$($t::SIZE),*];
        }
    };
}
size_list!();
size_list!(A);
size_list!(A B);
size_list!(A B C);
size_list!(A B C E);
size_list!(A B C E F);
size_list!(A B C E F G);
size_list!(A B C E F G H);

// ------------------------------------------------------- the error texts

/// Holds for no dimension: `split` into pieces of size 0.
#[diagnostic::on_unimplemented(
    message = "cannot split into pieces of size 0",
    label = "`split::<DIM, SIZE>` needs SIZE of at least 1",
    note = "PyTorch accepts a split size of 0 only for a dimension of size 0; a static split size of 0 does not compile"
)]
pub trait SplitSizeZero {}

/// Holds for no dimension: `chunk` into 0 chunks.
#[diagnostic::on_unimplemented(
    message = "cannot split into 0 chunks",
    label = "`chunk::<DIM, CHUNKS>` needs CHUNKS of at least 1"
)]
pub trait ChunksZero {}

/// Holds for no dimension: `tensor_split`, `hsplit` or `vsplit` into 0
/// sections.
#[diagnostic::on_unimplemented(
    message = "cannot split into 0 sections",
    label = "`tensor_split`, `hsplit` and `vsplit` need SECTIONS of at least 1"
)]
pub trait SectionsZero {}

/// Holds for no dimension: `unfold` with a step of 0.
#[diagnostic::on_unimplemented(
    message = "cannot unfold with a step of 0",
    label = "`unfold::<DIM, SIZE, STEP>` needs STEP of at least 1"
)]
pub trait UnfoldStepZero {}

/// Holds for no shape: `hsplit` of a scalar.
#[diagnostic::on_unimplemented(
    message = "`hsplit` needs at least one dimension, not a scalar",
    label = "a scalar has nothing to split"
)]
pub trait HSplitOfAScalar {}

/// Holds for no shape: `vsplit` of a scalar or a vector.
#[diagnostic::on_unimplemented(
    message = "`vsplit` needs at least two dimensions",
    label = "the shape `{Self}` has fewer than two",
    note = "`vsplit` splits dimension 0 of a matrix or more; `hsplit` or `tensor_split::<0, SECTIONS>` split a vector"
)]
pub trait VSplitOfAVector {}

/// Holds for no size: `unfold` of a shape that already has 8 dimensions.
#[diagnostic::on_unimplemented(
    message = "`unfold` adds a dimension, and the shape already has 8, the most a static shape may have",
    label = "the result would have 9 dimensions",
    note = "use a `DynTensor` (`into_dyn()`) for more dimensions"
)]
pub trait UnfoldTooManyDims {}

/// Holds for no dimension: `unflatten` into no sizes.
#[diagnostic::on_unimplemented(
    message = "cannot unflatten into `shape![]`: the sizes must not be empty",
    label = "`unflatten::<DIM, L>` needs at least one size in L"
)]
pub trait UnflattenEmptySizes {}

/// Holds for no dimension: `unflatten` to more than 8 dimensions.
#[diagnostic::on_unimplemented(
    message = "`unflatten` would give {RANK} dimensions, more than the 8 a static shape may have",
    label = "too many dimensions",
    note = "use a `DynTensor` (`into_dyn()`) for more dimensions"
)]
pub trait UnflattenTooManyDims<const RANK: usize> {}

/// Holds for no dimension: `flatten::<START, END>` with `START > END`.
#[diagnostic::on_unimplemented(
    message = "cannot flatten dimensions {START} to {END}: the start comes after the end",
    label = "`flatten::<START, END>` merges START..=END and needs START <= END"
)]
pub trait FlattenStartAfterEnd<const START: usize, const END: usize> {}

/// The texts of the errors that quote sizes, as plain numbers (one message
/// trait per pair of digit counts, as in [`diagnostics`](super::diagnostics)).
pub mod messages {
    shaped_macros::size_mismatch_diagnostic! {
        family: SectionsNotDivisible,
        message: "cannot split dimension {i} of size {a} into {b} equal sections",
        label: "{b} does not divide {a}",
        note: "`hsplit` and `vsplit` need the number of sections to divide the size; `tensor_split` allows sections that differ by one",
    }

    shaped_macros::size_mismatch_diagnostic! {
        family: UnfoldTooLong,
        message: "cannot unfold windows of size {a}: dimension {i} has size {b}",
        label: "`unfold::<DIM, SIZE, STEP>` needs SIZE no larger than the dimension's size",
    }

    shaped_macros::size_mismatch_diagnostic! {
        family: UnflattenNumelMismatch,
        message: "cannot unflatten: the sizes hold {a} elements, but dimension {i} has size {b}",
        label: "the product of the sizes must equal the size of dimension {i}",
    }
}
use messages::{SectionsNotDivisible, UnflattenNumelMismatch, UnfoldTooLong};
