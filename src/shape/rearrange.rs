//! The result shapes of the copying rearrangements on static shapes:
//! `repeat::<R>()` ([`RepeatBy`]), `tile::<R>()` ([`TileBy`]),
//! `pad::<P>()` ([`PadBy`]), `rot90::<K, D0, D1>()` ([`Rot90`]), and the
//! rank that `tril`/`triu` need ([`Matrices`]). What PyTorch refuses on
//! these shapes is a compile error that says so.
//!
//! ```
//! use shaped::prelude::*;
//! use shaped::shape::rearrange::{PadBy, RepeatBy, Rot90, TileBy};
//! type S = shape![2, 3];
//! let _: <S as RepeatBy<shape![4, 2, 1]>>::Output = (Dec::<4>, Dec::<4>, Dec::<3>);
//! let _: <S as TileBy<shape![2]>>::Output = (Dec::<2>, Dec::<6>);
//! let _: <S as PadBy<shape![1, 2]>>::Output = (Dec::<2>, Dec::<6>);
//! let _: <S as Rot90<1, 0, 1>>::Output = (Dec::<3>, Dec::<2>);
//! let _: <S as Rot90<2, 0, 1>>::Output = (Dec::<2>, Dec::<3>);
//! ```

use super::Shape;
use super::axes::{At, ConstSize, Replace};
use super::concat::{AddSizes, TimesSize};
use super::digits::SizeEq;
use super::dim::Dim;
use super::list::{Cons, FromRev, Nil, TupleShape};
use typenum::{False, True};

/// Shapes of 2 dimensions or more: what `tril` and `triu` work on.
#[diagnostic::on_unimplemented(
    message = "`tril` and `triu` need a tensor of at least 2 dimensions",
    label = "the shape `{Self}` has fewer than 2",
    note = "PyTorch raises \"tril: input tensor must have at least 2 dimensions\" here"
)]
pub trait Matrices {}
macro_rules! matrices {
    ($($t:ident)*) => {
        impl<$($t: Dim),*> Matrices for ($($t,)*) {}
    };
}
matrices!(A B);
matrices!(A B C);
matrices!(A B C D);
matrices!(A B C D E);
matrices!(A B C D E F);
matrices!(A B C D E F G);
matrices!(A B C D E F G H);

/// The shape with its last dimension repeated (`diag_embed()`: the last
/// dimension becomes the diagonal of new last two).
pub trait DiagEmbedded {
    /// The result's shape.
    type Output: Shape;
}
impl<S: TupleShape> DiagEmbedded for S
where
    S::Rev: LastRepeated,
    <S::Rev as LastRepeated>::Out: FromRev,
    <<S::Rev as LastRepeated>::Out as FromRev>::Tuple: Shape,
{
    type Output = <<S::Rev as LastRepeated>::Out as FromRev>::Tuple;
}

/// A reversed shape with its first entry (the last dimension) twice.
#[diagnostic::on_unimplemented(
    message = "`diag_embed` needs a tensor of at least 1 dimension",
    label = "the shape has no last dimension to put on a diagonal",
    note = "PyTorch raises \"Dimension out of range (expected to be in range of [-1, 0], but got -2)\" here"
)]
pub trait LastRepeated {
    /// The reversed result.
    type Out;
}
impl<X, T> LastRepeated for Cons<X, T> {
    type Out = Cons<X, Cons<X, T>>;
}

/// The shape repeated `R` times per dimension (`repeat::<R>()`): `R` has at
/// least the shape's rank; its extra leading entries add dimensions.
pub trait RepeatBy<R> {
    /// The result's shape.
    type Output: Shape;
}
impl<S: TupleShape, R: TupleShape> RepeatBy<R> for S
where
    S::Rev: RepeatRev<R::Rev>,
    <S::Rev as RepeatRev<R::Rev>>::Out: FromRev,
    <<S::Rev as RepeatRev<R::Rev>>::Out as FromRev>::Tuple: Shape,
{
    type Output = <<S::Rev as RepeatRev<R::Rev>>::Out as FromRev>::Tuple;
}

/// [`RepeatBy`] on the reversed lists (last dimension first).
pub trait RepeatRev<R> {
    /// The reversed result.
    type Out;
}
impl RepeatRev<Nil> for Nil {
    type Out = Nil;
}
impl<H, T> RepeatRev<Cons<H, T>> for Nil {
    type Out = Cons<H, T>;
}
impl<X: TimesSize<H>, T: RepeatRev<RT>, H, RT> RepeatRev<Cons<H, RT>> for Cons<X, T> {
    type Out = Cons<X::Output, T::Out>;
}
impl<X, T> RepeatRev<Nil> for Cons<X, T>
where
    (): RepeatTooShort<Cons<X, T>>,
{
    type Out = Nil;
}

/// Holds for nothing: `repeat` with fewer counts than dimensions.
#[diagnostic::on_unimplemented(
    message = "`repeat` needs a count for every dimension of the tensor",
    label = "the counts are fewer than the tensor's dimensions",
    note = "PyTorch raises \"Number of dimensions of repeat dims can not be smaller than number of dimensions of tensor\"; `tile` completes the counts with ones"
)]
pub trait RepeatTooShort<Dims> {}

/// The shape tiled `R` times (`tile::<R>()`): `R` completed with ones in
/// front up to the rank, then [`RepeatBy`].
pub trait TileBy<R> {
    /// The result's shape.
    type Output: Shape;
}
impl<S: TupleShape, R: TupleShape> TileBy<R> for S
where
    S::Rev: TileRev<R::Rev>,
    <S::Rev as TileRev<R::Rev>>::Out: FromRev,
    <<S::Rev as TileRev<R::Rev>>::Out as FromRev>::Tuple: Shape,
{
    type Output = <<S::Rev as TileRev<R::Rev>>::Out as FromRev>::Tuple;
}

/// [`TileBy`] on the reversed lists.
pub trait TileRev<R> {
    /// The reversed result.
    type Out;
}
impl TileRev<Nil> for Nil {
    type Out = Nil;
}
impl<H, T> TileRev<Cons<H, T>> for Nil {
    type Out = Cons<H, T>;
}
impl<X: TimesSize<H>, T: TileRev<RT>, H, RT> TileRev<Cons<H, RT>> for Cons<X, T> {
    type Out = Cons<X::Output, T::Out>;
}
impl<X, T> TileRev<Nil> for Cons<X, T> {
    type Out = Cons<X, T>;
}

/// The shape padded by `P` (`pad::<P>()`): `(before, after)` pairs from the
/// last dimension backwards, at most two per dimension.
pub trait PadBy<P> {
    /// The result's shape.
    type Output: Shape;
}
impl<S: TupleShape, P: TupleShape> PadBy<P> for S
where
    S::Rev: PadRev<P::Fwd>,
    <S::Rev as PadRev<P::Fwd>>::Out: FromRev,
    <<S::Rev as PadRev<P::Fwd>>::Out as FromRev>::Tuple: Shape,
{
    type Output = <<S::Rev as PadRev<P::Fwd>>::Out as FromRev>::Tuple;
}

/// [`PadBy`] on the reversed shape and the amounts in order.
pub trait PadRev<P> {
    /// The reversed result.
    type Out;
}
impl<S> PadRev<Nil> for S {
    type Out = S;
}
impl<X, T: PadRev<P>, L, R, P> PadRev<Cons<L, Cons<R, P>>> for Cons<X, T>
where
    (X, L): AddSizes,
    (<(X, L) as AddSizes>::Output, R): AddSizes,
{
    type Out = Cons<<(<(X, L) as AddSizes>::Output, R) as AddSizes>::Output, T::Out>;
}
impl<X, T, L> PadRev<Cons<L, Nil>> for Cons<X, T>
where
    (): PadOdd<L>,
{
    type Out = Nil;
}
impl<L, P> PadRev<Cons<L, P>> for Nil
where
    (): PadTooLong<Cons<L, P>>,
{
    type Out = Nil;
}

/// Holds for nothing: padding amounts of odd number.
#[diagnostic::on_unimplemented(
    message = "padding amounts come in pairs (before, after)",
    label = "an odd number of amounts",
    note = "PyTorch raises \"Padding length must be divisible by 2\""
)]
pub trait PadOdd<Amount> {}

/// Holds for nothing: more padding pairs than dimensions.
#[diagnostic::on_unimplemented(
    message = "more padding pairs than the tensor has dimensions",
    label = "at most one (before, after) pair per dimension",
    note = "PyTorch raises \"Padding length should be less than or equal to two times the input dimension\""
)]
pub trait PadTooLong<Amounts> {}

/// The number of quarter turns `K` of `rot90`, as odd or even.
#[diagnostic::on_unimplemented(
    message = "the static `rot90` takes from -8 to 8 quarter turns",
    label = "`DynTensor::rot90(k, dims)` takes any number"
)]
pub trait QuarterTurns {
    /// `True` for an odd number of turns.
    type Odd;
}

/// `K` quarter turns, as a type.
pub struct Turns<const K: i32>;
macro_rules! turns {
    ($($k:literal: $odd:ident),*) => {$(
        impl QuarterTurns for Turns<$k> {
            type Odd = $odd;
        }
    )*};
}
turns!(-8: False, -7: True, -6: False, -5: True, -4: False, -3: True, -2: False, -1: True,
       0: False, 1: True, 2: False, 3: True, 4: False, 5: True, 6: False, 7: True, 8: False);

/// The shape turned by `K` quarter turns in the plane of `D0` and `D1`
/// (`rot90::<K, D0, D1>()`): the two sizes trade places for odd `K`. The
/// dimensions must exist and differ.
pub trait Rot90<const K: i32, const D0: usize, const D1: usize> {
    /// The result's shape.
    type Output: Shape;
}
impl<S, const K: i32, const D0: usize, const D1: usize> Rot90<K, D0, D1> for S
where
    Turns<K>: QuarterTurns,
    S: At<D0> + At<D1>,
    typenum::Const<D0>: ConstSize,
    typenum::Const<D1>: ConstSize,
    <typenum::Const<D0> as ConstSize>::Dec: SizeEq<<typenum::Const<D1> as ConstSize>::Dec>,
    <<typenum::Const<D0> as ConstSize>::Dec as SizeEq<<typenum::Const<D1> as ConstSize>::Dec>>::Out:
        DistinctPlaneDims,
    (<Turns<K> as QuarterTurns>::Odd, S): SwapIf<D0, D1>,
{
    type Output = <(<Turns<K> as QuarterTurns>::Odd, S) as SwapIf<D0, D1>>::Output;
}

/// `False`: the two dimensions of a rotation differ.
#[diagnostic::on_unimplemented(
    message = "the two dimensions of `rot90` must differ",
    label = "the same dimension named twice",
    note = "PyTorch raises \"expected rotation dims to be different\""
)]
pub trait DistinctPlaneDims {}
impl DistinctPlaneDims for False {}

/// `(odd, shape)`: the shape with `D0` and `D1` swapped when odd.
pub trait SwapIf<const D0: usize, const D1: usize> {
    /// The shape.
    type Output: Shape;
}
impl<S: Shape, const D0: usize, const D1: usize> SwapIf<D0, D1> for (False, S) {
    type Output = S;
}
impl<S, const D0: usize, const D1: usize> SwapIf<D0, D1> for (True, S)
where
    S: At<D0> + At<D1> + Replace<D0, <S as At<D1>>::Output>,
    <S as Replace<D0, <S as At<D1>>::Output>>::Output: Replace<D1, <S as At<D0>>::Output>,
    <<S as Replace<D0, <S as At<D1>>::Output>>::Output as Replace<D1, <S as At<D0>>::Output>>::Output:
        Shape,
{
    type Output =
        <<S as Replace<D0, <S as At<D1>>::Output>>::Output as Replace<D1, <S as At<D0>>::Output>>::Output;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::{Dec, Dyn, FixedShape};

    fn sizes<S: FixedShape>() -> Vec<usize> {
        S::SIZES.as_ref().to_vec()
    }

    #[test]
    fn result_shapes() {
        type S = (Dec<2>, Dec<3>);
        assert_eq!(sizes::<<S as RepeatBy<(Dec<2>, Dec<2>)>>::Output>(), [4, 6]);
        assert_eq!(
            sizes::<<S as RepeatBy<(Dec<5>, Dec<1>, Dec<1>)>>::Output>(),
            [5, 2, 3]
        );
        assert_eq!(sizes::<<S as TileBy<(Dec<4>,)>>::Output>(), [2, 12]);
        assert_eq!(
            sizes::<<S as TileBy<(Dec<2>, Dec<1>, Dec<1>)>>::Output>(),
            [2, 2, 3]
        );
        assert_eq!(
            sizes::<<S as PadBy<(Dec<1>, Dec<1>, Dec<0>, Dec<2>)>>::Output>(),
            [4, 5]
        );
        assert_eq!(sizes::<<S as PadBy<()>>::Output>(), [2, 3]);
        assert_eq!(sizes::<<S as Rot90<-1, 1, 0>>::Output>(), [3, 2]);
        assert_eq!(sizes::<<S as Rot90<4, 0, 1>>::Output>(), [2, 3]);
        let _: <(Dyn, Dec<3>) as RepeatBy<(Dec<2>, Dec<2>)>>::Output = (Dyn, Dec::<6>);
        assert_eq!(sizes::<<S as DiagEmbedded>::Output>(), [2, 3, 3]);
    }
}
