//! Dimensions of a static shape by position: the type-level side of the view
//! operations (`transpose::<0, 1>()`, `select::<0>(i)`, `unsqueeze::<2>()`,
//! `permute::<axes![2, 0, 1]>()`, `view::<S2>()`). A position past the rank, a
//! repeated or missing axis in a permutation, or a view to a different
//! number of elements is a compile error that says so.
//!
//! ```
//! use shaped::prelude::*;
//! use shaped::shape::axes::{At, Remove};
//! type S = shape![2, 3, 4];
//! let _: <S as At<1>>::Output = Dec::<3>;
//! let _: <S as Remove<0>>::Output = (Dec::<3>, Dec::<4>);
//! ```

use super::Shape;
use super::arith::{FromBin, ToBin};
use super::digits::{DigitCount, Many, One, SizeEq, SizeKind, Zero};
use super::dim::{Dec, Dim, Dyn, StaticDim};
use super::list::{Cons, Nil, TupleShape};
use core::ops::Mul;
use typenum::{False, IsEqual, True, Unsigned};

/// Dimension `I` of a static shape.
#[diagnostic::on_unimplemented(
    message = "dimension {I} is out of range for this shape",
    label = "the shape `{Self}` has no dimension {I}",
    note = "dimensions are counted from 0; a shape of rank n has dimensions 0 to n - 1"
)]
pub trait At<const I: usize> {
    /// The dimension.
    type Output;
}

/// Dimension `I` of a static shape, `I` given as a `Dec` (for `axes![..]`).
#[diagnostic::on_unimplemented(
    message = "an axis of `axes![..]` is out of range for this shape",
    label = "the shape `{Self}` has no dimension `{I}`",
    note = "dimensions are counted from 0; a shape of rank n has dimensions 0 to n - 1"
)]
pub trait AtDec<I> {
    /// The dimension.
    type Output;
}

/// The shape with dimension `I` replaced by `X`.
#[diagnostic::on_unimplemented(
    message = "dimension {I} is out of range for this shape",
    label = "the shape `{Self}` has no dimension {I}"
)]
pub trait Replace<const I: usize, X> {
    /// The new shape.
    type Output;
}

/// The shape without dimension `I`.
#[diagnostic::on_unimplemented(
    message = "dimension {I} is out of range for this shape",
    label = "the shape `{Self}` has no dimension {I}",
    note = "dimensions are counted from 0; a shape of rank n has dimensions 0 to n - 1"
)]
pub trait Remove<const I: usize> {
    /// The new shape.
    type Output;
}

/// The shape with `X` inserted before dimension `I` (`I` may be the rank).
#[diagnostic::on_unimplemented(
    message = "cannot insert a dimension at position {I}: positions go from 0 to the rank",
    label = "the shape `{Self}`; static shapes have at most 8 dimensions"
)]
pub trait Insert<const I: usize, X> {
    /// The new shape.
    type Output;
}

shaped_macros::tuple_axis_impls!();

/// The shape's dimensions in the order `P` (a tuple of axes written
/// `axes![2, 0, 1]`), checked to be a permutation of `0..rank`.
pub trait PermuteBy<P> {
    /// The permuted shape.
    type Output: Shape;
}

/// A type-level list contains `K`.
#[diagnostic::on_unimplemented(
    message = "not a permutation: an axis is missing",
    label = "axis `{K}` is missing: a permutation lists every dimension exactly once",
    note = "`permute::<axes![..]>()` takes each of 0..rank once, e.g. `axes![2, 0, 1]` for rank 3"
)]
pub trait ListHas<K> {}
impl<K, H, T> ListHas<K> for Cons<H, T>
where
    H: SizeEq<K>,
    (H::Out, T): ListHasOr<K>,
{
}

/// `(found here, rest)`.
pub trait ListHasOr<K> {}
impl<K, T> ListHasOr<K> for (True, T) {}
impl<K, T: ListHas<K>> ListHasOr<K> for (False, T) {}

macro_rules! permute_by {
    ($n:literal; $($p:ident $k:literal),*) => {
        permute_by!(@impl $n; ($($p,)*); $($p)*; $($k)*);
    };
    (@impl $n:literal; $tuple:ty; $($p:ident)*; $($k:literal)*) => {
        impl<S, $($p),*> PermuteBy<$tuple> for S
        where
            S: RankIs<$n> $(+ AtDec<$p>)*,
            ($(<S as AtDec<$p>>::Output,)*): Shape,
            $($tuple: PermutationHas<Dec<$k>>,)*
        {
            type Output = ($(<S as AtDec<$p>>::Output,)*);
        }
    };
}

/// A static shape of rank `N`.
#[diagnostic::on_unimplemented(
    message = "the permutation lists {N} axes, but the shape has a different rank",
    label = "`axes![..]` must name every dimension of `{Self}` once",
    note = "`permute::<axes![..]>()` takes each of 0..rank once, e.g. `axes![2, 0, 1]` for rank 3"
)]
pub trait RankIs<const N: usize> {}
macro_rules! rank_is {
    ($($n:literal: $($t:ident)*;)*) => {$(
        impl<$($t),*> RankIs<$n> for ($($t,)*) {}
    )*};
}
rank_is! {
    0: ;
    1: A;
    2: A B;
    3: A B C;
    4: A B C E;
    5: A B C E F;
    6: A B C E F G;
    7: A B C E F G H;
    8: A B C E F G H I;
}

/// A permutation of rank `n` mentions axis `K` (`K < n`).
#[diagnostic::on_unimplemented(
    message = "not a permutation: an axis is missing",
    label = "axis `{K}` is missing from `{Self}`: a permutation lists every dimension exactly once",
    note = "`permute::<axes![..]>()` takes each of 0..rank once, e.g. `axes![2, 0, 1]` for rank 3"
)]
pub trait PermutationHas<K> {}
macro_rules! permutation_has {
    ($($p:ident),*) => {
        impl<K, $($p),*> PermutationHas<K> for ($($p,)*) where Cons_list!($($p),*): ListHas<K> {}
    };
}
macro_rules! Cons_list {
    () => { Nil };
    ($h:ident $(, $t:ident)*) => { Cons<$h, Cons_list!($($t),*)> };
}
permutation_has!(P0);
permutation_has!(P0, P1);
permutation_has!(P0, P1, P2);
permutation_has!(P0, P1, P2, P3);
permutation_has!(P0, P1, P2, P3, P4);
permutation_has!(P0, P1, P2, P3, P4, P5);
permutation_has!(P0, P1, P2, P3, P4, P5, P6);
permutation_has!(P0, P1, P2, P3, P4, P5, P6, P7);

permute_by!(0;);
permute_by!(1; P0 0);
permute_by!(2; P0 0, P1 1);
permute_by!(3; P0 0, P1 1, P2 2);
permute_by!(4; P0 0, P1 1, P2 2, P3 3);
permute_by!(5; P0 0, P1 1, P2 2, P3 3, P4 4);
permute_by!(6; P0 0, P1 1, P2 2, P3 3, P4 4, P5 5);
permute_by!(7; P0 0, P1 1, P2 2, P3 3, P4 4, P5 5, P6 6);
permute_by!(8; P0 0, P1 1, P2 2, P3 3, P4 4, P5 5, P6 6, P7 7);

/// The number of elements of a shape at compile time: a typenum number
/// when every size is static, [`Dyn`] when one is not.
pub trait Numel {
    /// `U..` or `Dyn`.
    type Count;
}
impl<S: TupleShape> Numel for S
where
    S::Rev: ListNumel,
{
    type Count = <S::Rev as ListNumel>::Count;
}

/// [`Numel`] of a list of dimensions.
pub trait ListNumel {
    /// `U..` or `Dyn`.
    type Count;
}
impl ListNumel for Nil {
    type Count = typenum::U1;
}
impl<T: ListNumel> ListNumel for Cons<Dyn, T> {
    type Count = Dyn;
}
impl<H: StaticDim + ToBin, T: ListNumel> ListNumel for Cons<H, T>
where
    (H::Bin, T::Count): TimesCount,
{
    type Count = <(H::Bin, T::Count) as TimesCount>::Count;
}

/// `size * count`, where an unknown count stays unknown.
pub trait TimesCount {
    /// The product, or `Dyn`.
    type Count;
}
impl<A> TimesCount for (A, Dyn) {
    type Count = Dyn;
}
impl<A: Mul<B>, B: Unsigned> TimesCount for (A, B) {
    type Count = <A as Mul<B>>::Output;
}

/// `view`/`reshape` from `Self` to `Target` keeps the number of elements
/// (checked at compile time when both are known, at run time otherwise).
pub trait SameNumel<Target> {}
impl<S, Target> SameNumel<Target> for S
where
    S: Numel,
    Target: Numel,
    (Target::Count, S::Count): CountsAgree,
{
}

/// Two element counts agree, or one is unknown.
pub trait CountsAgree {}
impl<A> CountsAgree for (A, Dyn) {}
impl<B: Unsigned> CountsAgree for (Dyn, B) {}
impl<A: Unsigned + IsEqual<B>, B: Unsigned> CountsAgree for (A, B) where
    (A::Output, A, B): CountsEqual
{
}

/// The counts are equal (`True`), or the error that they are not.
pub trait CountsEqual {}
impl<A, B> CountsEqual for (True, A, B) {}
impl<A: FromBin, B: FromBin> CountsEqual for (False, A, B)
where
    A::Dec: super::digits::DigitCount,
    B::Dec: super::digits::DigitCount,
    (A::Dec, B::Dec, Dec<0>): super::diagnostics::ViewNumelMismatch<
            <A::Dec as super::digits::DigitCount>::Out,
            <B::Dec as super::digits::DigitCount>::Out,
        >,
{
}

/// The shape without its size-1 dimensions (`squeeze()`); a shape with a
/// `Dyn` size squeezes to [`DynShape`](crate::DynShape), since whether that
/// size is 1 is known only at run time.
pub trait Squeeze {
    /// The squeezed shape.
    type Output: Shape;
}
impl<S: TupleShape> Squeeze for S
where
    S::Rev: SqueezeRev<Nil>,
{
    type Output = <S::Rev as SqueezeRev<Nil>>::Output;
}

/// Squeezes a reversed list, accumulating the kept dimensions (in order) in `Acc`.
pub trait SqueezeRev<Acc> {
    /// The squeezed shape.
    type Output: Shape;
}
impl<Acc: super::list::FromForward> SqueezeRev<Acc> for Nil {
    type Output = Acc::Tuple;
}
impl<Acc, T> SqueezeRev<Acc> for Cons<Dyn, T> {
    type Output = crate::DynShape;
}
impl<Acc, H: StaticDim + SizeKind, T> SqueezeRev<Acc> for Cons<H, T>
where
    (H::Kind, H, T, Acc): SqueezeStep,
{
    type Output = <(H::Kind, H, T, Acc) as SqueezeStep>::Output;
}

/// Drops a size of 1, keeps others.
pub trait SqueezeStep {
    /// The squeezed shape.
    type Output: Shape;
}
impl<H, T: SqueezeRev<Acc>, Acc> SqueezeStep for (One, H, T, Acc) {
    type Output = T::Output;
}
impl<H, T: SqueezeRev<Cons<H, Acc>>, Acc> SqueezeStep for (Zero, H, T, Acc) {
    type Output = T::Output;
}
impl<H, T: SqueezeRev<Cons<H, Acc>>, Acc> SqueezeStep for (Many, H, T, Acc) {
    type Output = T::Output;
}

/// The shape with dimensions `I` and `J` swapped.
pub trait Transposed<const I: usize, const J: usize> {
    /// The new shape.
    type Output: Shape;
}
impl<S, const I: usize, const J: usize> Transposed<I, J> for S
where
    S: At<I> + At<J> + Replace<I, <S as At<J>>::Output>,
    <S as Replace<I, <S as At<J>>::Output>>::Output: Replace<J, <S as At<I>>::Output>,
    <<S as Replace<I, <S as At<J>>::Output>>::Output as Replace<J, <S as At<I>>::Output>>::Output:
        Shape,
{
    type Output = <<S as Replace<I, <S as At<J>>::Output>>::Output as Replace<
        J,
        <S as At<I>>::Output,
    >>::Output;
}

/// The shape with its last two dimensions swapped (`mt()`).
#[diagnostic::on_unimplemented(
    message = "`mt()` needs a matrix or a batch of matrices",
    label = "the shape `{Self}` has fewer than two dimensions"
)]
pub trait LastTwoSwapped {
    /// The new shape.
    type Output: Shape;
}
macro_rules! last_two_swapped {
    ($($n:literal: $($t:ident)*;)*) => {$(
        impl<$($t,)* Y, Z> LastTwoSwapped for ($($t,)* Y, Z)
        where
            ($($t,)* Z, Y): Shape,
        {
            type Output = ($($t,)* Z, Y);
        }
    )*};
}
last_two_swapped! {
    2: ;
    3: A;
    4: A B;
    5: A B C;
    6: A B C D;
    7: A B C D E;
    8: A B C D E F;
}

/// The shape with dimension `SRC` moved to position `DST`.
pub trait MovedDim<const SRC: usize, const DST: usize> {
    /// The new shape.
    type Output: Shape;
}
impl<S, const SRC: usize, const DST: usize> MovedDim<SRC, DST> for S
where
    S: At<SRC> + Remove<SRC>,
    <S as Remove<SRC>>::Output: Insert<DST, <S as At<SRC>>::Output>,
    <<S as Remove<SRC>>::Output as Insert<DST, <S as At<SRC>>::Output>>::Output: Shape,
{
    type Output = <<S as Remove<SRC>>::Output as Insert<DST, <S as At<SRC>>::Output>>::Output;
}

/// The static size `N` as a `Dec` (for the sizes given as const generic
/// arguments, such as `narrow::<DIM, LEN>`; typenum maps 0 to 1024 and the
/// powers of two).
pub trait ConstSize {
    /// The size.
    type Dec: StaticDim;
}
impl<const N: usize> ConstSize for typenum::Const<N>
where
    typenum::Const<N>: typenum::ToUInt,
    typenum::U<N>: FromBin,
    <typenum::U<N> as FromBin>::Dec: StaticDim,
{
    type Dec = <typenum::U<N> as FromBin>::Dec;
}

/// The shape with dimension `DIM` narrowed to `LEN` (checked against a
/// static size at compile time).
pub trait Narrowed<const DIM: usize, const LEN: usize> {
    /// The new shape.
    type Output: Shape;
}
impl<S, const DIM: usize, const LEN: usize> Narrowed<DIM, LEN> for S
where
    typenum::Const<LEN>: ConstSize,
    S: At<DIM> + Replace<DIM, <typenum::Const<LEN> as ConstSize>::Dec>,
    <S as At<DIM>>::Output: HoldsLength<LEN>,
    <S as Replace<DIM, <typenum::Const<LEN> as ConstSize>::Dec>>::Output: Shape,
{
    type Output = <S as Replace<DIM, <typenum::Const<LEN> as ConstSize>::Dec>>::Output;
}

/// A dimension is at least `LEN` long (static sizes at compile time, `Dyn`
/// at run time).
pub trait HoldsLength<const LEN: usize> {}
impl<const LEN: usize> HoldsLength<LEN> for Dyn {}
impl<X: StaticDim + ToBin, const LEN: usize> HoldsLength<LEN> for X
where
    typenum::Const<LEN>: typenum::ToUInt,
    typenum::U<LEN>: typenum::IsLessOrEqual<X::Bin> + FromBin,
    (
        typenum::LeEq<typenum::U<LEN>, X::Bin>,
        <typenum::U<LEN> as FromBin>::Dec,
        X,
    ): LengthFits,
{
}

/// `(fits, length, size)`, or the error that the length does not fit.
pub trait LengthFits {}
impl<L, X> LengthFits for (True, L, X) {}
impl<L: DigitCount, X: DigitCount> LengthFits for (False, L, X) where
    (L, X, Dec<0>): super::diagnostics::NarrowTooLong<L::Out, X::Out>
{
}

/// The shape of `diagonal()`: dimensions 0 and 1 replaced by a last
/// dimension as long as the shorter of them.
#[diagnostic::on_unimplemented(
    message = "`diagonal()` needs at least two dimensions",
    label = "the shape `{Self}` has fewer than two"
)]
pub trait Diagonal {
    /// The new shape.
    type Output: Shape;
}
macro_rules! diagonal_shape {
    ($($t:ident)*) => {
        impl<A, B, $($t),*> Diagonal for (A, B, $($t,)*)
        where
            (A, B): ShorterOf,
            ($($t,)* <(A, B) as ShorterOf>::Output,): Shape,
        {
            type Output = ($($t,)* <(A, B) as ShorterOf>::Output,);
        }
    };
}
diagonal_shape!();
diagonal_shape!(C);
diagonal_shape!(C E);
diagonal_shape!(C E F);
diagonal_shape!(C E F G);
diagonal_shape!(C E F G H);
diagonal_shape!(C E F G H I);

/// The shorter of two sizes (`Dyn` if either is).
pub trait ShorterOf {
    /// The size.
    type Output;
}
impl<A> ShorterOf for (A, Dyn) {
    type Output = Dyn;
}
impl<B: StaticDim> ShorterOf for (Dyn, B) {
    type Output = Dyn;
}
impl<A: StaticDim + ToBin, B: StaticDim + ToBin> ShorterOf for (A, B)
where
    A::Bin: typenum::Min<B::Bin>,
    typenum::Minimum<A::Bin, B::Bin>: FromBin,
{
    type Output = <typenum::Minimum<A::Bin, B::Bin> as FromBin>::Dec;
}

/// The shape with one more dimension `X` at the end (`view_as_real` adds a
/// last dimension of 2). A runtime-rank shape stays one.
#[diagnostic::on_unimplemented(
    message = "cannot add a dimension: a static shape has at most 8",
    label = "the shape `{Self}` has 8 already",
    note = "use a `DynTensor` (`into_dyn()`) for more dimensions"
)]
pub trait Append<X> {
    /// The new shape.
    type Output: Shape;
}
macro_rules! append {
    ($($($t:ident)*;)*) => {$(
        impl<$($t: Dim,)* X: Dim> Append<X> for ($($t,)*) {
            type Output = ($($t,)* X,);
        }
    )*};
}
append!(; A; A B; A B C; A B C E; A B C E F; A B C E F G; A B C E F G H;);
impl<X> Append<X> for crate::shape::dynamic::DynShape {
    type Output = crate::shape::dynamic::DynShape;
}
