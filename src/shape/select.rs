//! The shape rules of `topk::<K, DIM>()` and `kthvalue::<K, DIM>()`: `K`
//! no larger than the size of dimension `DIM` (a `Dyn` size is checked at
//! run time), and at least 1 for `kthvalue`.

use super::arith::{FromBin, ToBin};
use super::axes::{At, ConstSize, Replace};
use super::diagnostics::SelectTooMany;
use super::digits::DigitCount;
use super::dim::{Dyn, StaticDim};
use typenum::{B0, B1, Const, IsEqual, IsLessOrEqual, LeEq, ToUInt, U0};

/// The const argument `N` as a typenum number.
type Num<const N: usize> = typenum::U<N>;
/// The const argument `N` as a decimal size.
type DecConst<const N: usize> = <Const<N> as ConstSize>::Dec;

/// `topk::<K, DIM>()` on a shape: dimension `DIM` holds at least `K`
/// elements. The result has `K` elements there.
#[diagnostic::on_unimplemented(
    message = "`topk::<{K}, {DIM}>` needs a dimension {DIM} of at least {K} elements",
    label = "the shape `{Self}` has no dimension {DIM} of {K} elements or more"
)]
pub trait TopkShape<const K: usize, const DIM: usize> {
    /// The shape with `K` at dimension `DIM`.
    type Output;
}
impl<S, const K: usize, const DIM: usize> TopkShape<K, DIM> for S
where
    S: At<DIM> + Replace<DIM, DecConst<K>>,
    Const<K>: ToUInt + ConstSize,
    Const<DIM>: ConstSize,
    (<S as At<DIM>>::Output, Num<K>, DecConst<DIM>): FitsK,
{
    type Output = <S as Replace<DIM, DecConst<K>>>::Output;
}

/// `kthvalue::<K, DIM>()` on a shape: `K` from 1 to the size of dimension
/// `DIM`.
#[diagnostic::on_unimplemented(
    message = "`kthvalue::<{K}, {DIM}>` needs K of at least 1 and a dimension {DIM} of at least {K} elements",
    label = "the shape `{Self}` has no {K}th value along dimension {DIM}"
)]
pub trait KthShape<const K: usize, const DIM: usize> {}
impl<S, const K: usize, const DIM: usize> KthShape<K, DIM> for S
where
    S: TopkShape<K, DIM>,
    Const<K>: ToUInt,
    Num<K>: IsEqual<U0>,
    (<Num<K> as IsEqual<U0>>::Output, Num<K>): KFromOne,
{
}

/// `(size of the dimension, K, DIM)`: `K` no larger than the size.
pub trait FitsK {}
impl<K, I> FitsK for (Dyn, K, I) {}
impl<X: StaticDim + ToBin, K, I> FitsK for (X, K, I)
where
    K: IsLessOrEqual<X::Bin>,
    (LeEq<K, X::Bin>, X::Bin, K, I): FitsKOrReport,
{
}

/// `(K <= size, size, K, DIM)`, or the error quoting both.
pub trait FitsKOrReport {}
impl<N, K, I> FitsKOrReport for (B1, N, K, I) {}
impl<N: FromBin, K: FromBin, I> FitsKOrReport for (B0, N, K, I)
where
    N::Dec: DigitCount,
    K::Dec: DigitCount,
    (K::Dec, N::Dec, I): SelectTooMany<<K::Dec as DigitCount>::Out, <N::Dec as DigitCount>::Out>,
{
}

/// `(K == 0, K)`: `kthvalue` counts from 1.
pub trait KFromOne {}
impl<K> KFromOne for (B0, K) {}
impl<K: KthvalueOfZero> KFromOne for (B1, K) {}

/// Holds for no `K`: `kthvalue::<0, DIM>`.
#[diagnostic::on_unimplemented(
    message = "`kthvalue::<0, _>` asks for the 0th smallest element: K counts from 1",
    label = "K must be at least 1",
    note = "PyTorch raises \"kthvalue(): selected number k out of range for dimension\" here; `kthvalue::<1, DIM>` is the smallest"
)]
pub trait KthvalueOfZero {}
