//! The shape rules of `cat` and `stack`, computed by the compiler.
//!
//! - [`CatWith<AXIS, B>`]: two shapes concatenate along `AXIS` when they
//!   have the same rank ([`SameRank`]) and equal sizes everywhere else
//!   ([`SameSizes`]); the result's size along `AXIS` is the sum of theirs
//!   ([`AddSizes`]: `Dyn` if either is).
//! - [`Repeated<AXIS, N>`]: `N` parts of one shape: the size along `AXIS`
//!   times `N`.
//! - [`Stacked<AXIS, N>`]: `N` parts of one shape stacked: a new dimension
//!   of size `N` at `AXIS`.
//!
//! A `Dyn` size agrees with any size here and is checked at run time. A
//! clash is a compile error quoting both sizes and the dimension.
//!
//! ```
//! use shaped::prelude::*;
//! use shaped::shape::concat::CatWith;
//! let _: <shape![2, 3] as CatWith<1, shape![2, 5]>>::Output = (Dec::<2>, Dec::<8>);
//! let _: <shape![Dyn, 3] as CatWith<0, shape![4, 3]>>::Output = (Dyn, Dec::<3>);
//! ```

use super::Shape;
use super::arith::{AddDigits, PackDigits, Product, Sum, ToBin};
use super::axes::{At, ConstSize, Insert, Replace};
use super::digits::{Dig, DigitCount, Len, LowDigitsFirst, MaxLen, SizeEq};
use super::dim::{Dec, Dyn, StaticDim};
use super::list::{Cons, Nil, TupleShape};
use typenum::{False, True};

shaped_macros::size_mismatch_diagnostic! {
    family: ConcatMismatch,
    message: "cannot concatenate: sizes of tensors must match except in the concatenation dimension, but got size {a} and size {b} at dimension {i}",
    label: "size {a} vs size {b} at dimension {i}",
    note: "`cat` joins shapes that differ only along its dimension; `stack` needs equal shapes",
}

/// Two shapes of different ranks passed to `cat` or `stack`.
#[diagnostic::on_unimplemented(
    message = "cannot concatenate tensors of different ranks",
    label = "the shapes `{A}` and `{B}` differ in rank",
    note = "PyTorch raises `Tensors must have same number of dimensions: got m and n`; `unsqueeze` the smaller one first"
)]
pub trait CatRankMismatch<A, B> {}

/// Two static shapes of the same rank.
pub trait SameRank<B> {}
impl<A, B> SameRank<B> for A
where
    A: TupleShape,
    B: TupleShape,
    A::Fwd: Len,
    B::Fwd: Len,
    <A::Fwd as Len>::Out: SizeEq<<B::Fwd as Len>::Out>,
    (
        <<A::Fwd as Len>::Out as SizeEq<<B::Fwd as Len>::Out>>::Out,
        A,
        B,
    ): RankCheck,
{
}

/// `(ranks equal, A, B)`, or the error that they differ.
pub trait RankCheck {}
impl<A, B> RankCheck for (True, A, B) {}
impl<A, B> RankCheck for (False, A, B) where (): CatRankMismatch<A, B> {}

/// Two static shapes whose sizes agree (equal, or one of them `Dyn`).
pub trait SameSizes<B> {}
impl<A: TupleShape, B: TupleShape> SameSizes<B> for A where A::Rev: SameSizesRev<B::Rev> {}

/// [`SameSizes`] on reversed lists. Lists of different lengths hold here:
/// [`SameRank`] reports them.
pub trait SameSizesRev<B> {}
impl SameSizesRev<Nil> for Nil {}
impl<H, T> SameSizesRev<Nil> for Cons<H, T> {}
impl<H, T> SameSizesRev<Cons<H, T>> for Nil {}
impl<H1, T1, H2, T2> SameSizesRev<Cons<H2, T2>> for Cons<H1, T1>
where
    (H1, H2, (T1, T2)): SizesAgree,
    T1: SameSizesRev<T2>,
{
}

/// One pair of sizes agrees; the third entry holds the leading dimensions
/// left, from which an error finds the dimension's index.
pub trait SizesAgree {}
impl<B, R> SizesAgree for (Dyn, B, R) {}
impl<A: StaticDim, R> SizesAgree for (A, Dyn, R) {}
impl<A: StaticDim + SizeEq<B>, B: StaticDim, R> SizesAgree for (A, B, R) where
    (A::Out, A, B, R): EqualOrReport
{
}

/// `(equal, a, b, rest)`, or the error quoting both sizes.
pub trait EqualOrReport {}
impl<A, B, R> EqualOrReport for (True, A, B, R) {}
impl<A: DigitCount, B: DigitCount, R: MaxLen> EqualOrReport for (False, A, B, R) where
    (A, B, R::Out): ConcatMismatch<A::Out, B::Out>
{
}

/// The sum of two sizes along the concatenation dimension: `Dyn` if either
/// is.
pub trait AddSizes {
    /// The sum.
    type Output;
}
impl<B> AddSizes for (Dyn, B) {
    type Output = Dyn;
}
impl<A: StaticDim> AddSizes for (A, Dyn) {
    type Output = Dyn;
}
impl<A: StaticDim + LowDigitsFirst, B: StaticDim + LowDigitsFirst> AddSizes for (A, B)
where
    A::Out: AddDigits<B::Out, Dig<0>>,
    <A::Out as AddDigits<B::Out, Dig<0>>>::Out: PackDigits,
{
    type Output = Sum<A, B>;
}

/// `Self` and `B` concatenated along `AXIS` (`cat`).
pub trait CatWith<const AXIS: usize, B> {
    /// The result's shape.
    type Output: Shape;
}
impl<const AXIS: usize, A, B> CatWith<AXIS, B> for A
where
    A: SameRank<B> + At<AXIS> + Replace<AXIS, Dec<0>>,
    B: At<AXIS> + Replace<AXIS, Dec<0>>,
    <A as Replace<AXIS, Dec<0>>>::Output: SameSizes<<B as Replace<AXIS, Dec<0>>>::Output>,
    (<A as At<AXIS>>::Output, <B as At<AXIS>>::Output): AddSizes,
    A: Replace<AXIS, <(<A as At<AXIS>>::Output, <B as At<AXIS>>::Output) as AddSizes>::Output>,
    <A as Replace<
        AXIS,
        <(<A as At<AXIS>>::Output, <B as At<AXIS>>::Output) as AddSizes>::Output,
    >>::Output: Shape,
{
    type Output = <A as Replace<
        AXIS,
        <(<A as At<AXIS>>::Output, <B as At<AXIS>>::Output) as AddSizes>::Output,
    >>::Output;
}

/// A size times a count: `Dyn` stays `Dyn`.
pub trait TimesSize<N> {
    /// The product.
    type Output;
}
impl<N> TimesSize<N> for Dyn {
    type Output = Dyn;
}
impl<A: StaticDim + ToBin, N: StaticDim + ToBin> TimesSize<N> for A
where
    A::Bin: core::ops::Mul<N::Bin>,
    <A::Bin as core::ops::Mul<N::Bin>>::Output: super::arith::FromBin,
{
    type Output = Product<A, N>;
}

/// `N` tensors of shape `Self` concatenated along `AXIS`
/// (`repeat_interleave::<N, AXIS>()` has the same shape).
#[diagnostic::on_unimplemented(
    message = "dimension {AXIS} is out of range for this shape",
    label = "the shape `{Self}` has no dimension {AXIS}",
    note = "dimensions are counted from 0; a shape of rank n has dimensions 0 to n - 1"
)]
pub trait Repeated<const AXIS: usize, const N: usize> {
    /// The result's shape.
    type Output: Shape;
}
impl<S, const AXIS: usize, const N: usize> Repeated<AXIS, N> for S
where
    typenum::Const<N>: ConstSize,
    S: At<AXIS>,
    <S as At<AXIS>>::Output: TimesSize<<typenum::Const<N> as ConstSize>::Dec>,
    S: Replace<
            AXIS,
            <<S as At<AXIS>>::Output as TimesSize<<typenum::Const<N> as ConstSize>::Dec>>::Output,
        >,
    <S as Replace<
        AXIS,
        <<S as At<AXIS>>::Output as TimesSize<<typenum::Const<N> as ConstSize>::Dec>>::Output,
    >>::Output: Shape,
{
    type Output = <S as Replace<
        AXIS,
        <<S as At<AXIS>>::Output as TimesSize<<typenum::Const<N> as ConstSize>::Dec>>::Output,
    >>::Output;
}

/// `N` tensors of shape `Self` stacked along a new dimension at `AXIS`.
pub trait Stacked<const AXIS: usize, const N: usize> {
    /// The result's shape.
    type Output: Shape;
}
impl<S, const AXIS: usize, const N: usize> Stacked<AXIS, N> for S
where
    typenum::Const<N>: ConstSize,
    S: Insert<AXIS, <typenum::Const<N> as ConstSize>::Dec>,
    <S as Insert<AXIS, <typenum::Const<N> as ConstSize>::Dec>>::Output: Shape,
{
    type Output = <S as Insert<AXIS, <typenum::Const<N> as ConstSize>::Dec>>::Output;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::FixedShape;

    fn sizes<S: FixedShape>() -> Vec<usize> {
        S::SIZES.as_ref().to_vec()
    }

    #[test]
    fn concatenated_shapes() {
        type A = (Dec<2>, Dec<3>);
        type B = (Dec<2>, Dec<9, 9>);
        assert_eq!(sizes::<<A as CatWith<1, B>>::Output>(), [2, 102]);
        assert_eq!(sizes::<<A as CatWith<0, A>>::Output>(), [4, 3]);
        assert_eq!(sizes::<<A as Repeated<1, 3>>::Output>(), [2, 9]);
        assert_eq!(sizes::<<A as Stacked<2, 4>>::Output>(), [2, 3, 4]);
        assert_eq!(sizes::<<A as Stacked<0, 1>>::Output>(), [1, 2, 3]);
    }
}
