//! Broadcasting *to* a given shape, which must not change: the in-place rule
//! (`x += y`, PyTorch's in-place rule) and `expand`/`broadcast_to`.
//!
//! Aligned at the trailing dimension, each size of the operand must equal the
//! target's or be 1, and the operand may not have more dimensions than the
//! target (even of size 1: PyTorch rejects `(3,) += (1, 3)`).
//!
//! | operand \ target | `0` | `1`   | `n >= 2`       | `Dyn` |
//! |------------------|-----|-------|----------------|-------|
//! | `0`              | ok  | error | error          | checked at run time |
//! | `1`              | ok  | ok    | ok             | ok    |
//! | `m >= 2`         | error | error | ok if `m == n` | checked at run time |
//! | `Dyn`            | checked | checked | checked  | checked |
//!
//! The two uses differ only in their error texts, chosen by the `Rule`
//! parameter: [`InPlace`] or [`Expand`].

use super::Shape;
use super::broadcast::{Clash, Fine};
use super::diagnostics::{ExpandMismatch, ExpandRankReport, InPlaceMismatch, InPlaceRankReport};
use super::digits::{DigitCount, Len, Many, One, SizeEq, SizeKind, Zero};
use super::dim::{Dyn, StaticDim};
use super::list::{Cons, Nil, TupleShape};
use crate::dtype::DType;
use crate::error::Error;
use typenum::{False, True};

/// `Self` (the right-hand side of `x op= y`) broadcasts to `Target` without
/// changing `Target`'s shape.
///
/// ```
/// use shaped::prelude::*;
/// let mut acc = Tensor::<f32, shape![5, 3, 4, 1]>::zeros();
/// acc += &Tensor::<f32, shape![3, 1, 1]>::ones(); // (3, 1, 1) fits (5, 3, 4, 1)
/// assert_eq!(acc.to_vec(), vec![1.0; 60]);
/// ```
pub trait BroadcastInto<Target: Shape>: Shape {}

impl<Y, X> BroadcastInto<X> for Y
where
    Y: Shape + TupleShape,
    X: Shape + TupleShape,
    Y::Rev: FitsRev<X::Rev, InPlace>,
{
}

/// `Self` can be expanded (`expand`, `broadcast_to`) to `Target`.
///
/// ```
/// use shaped::prelude::*;
/// let row = Tensor::<f32, shape![3]>::arange();
/// let grid = row.expand::<shape![4, 3]>();
/// assert_eq!(grid.strides(), [0, 1]);
/// ```
pub trait ExpandTo<Target: Shape>: Shape {}

impl<Y, X> ExpandTo<X> for Y
where
    Y: Shape + TupleShape,
    X: Shape + TupleShape,
    Y::Rev: FitsRev<X::Rev, Expand>,
{
}

/// The in-place rule's error texts.
#[derive(Copy, Clone, Debug)]
pub struct InPlace;
/// `expand`'s error texts.
#[derive(Copy, Clone, Debug)]
pub struct Expand;

/// The operand list fits the target list under `Rule` (reversed lists).
pub trait FitsRev<Target, Rule> {}

impl<Rule> FitsRev<Nil, Rule> for Nil {}

/// The target has extra leading dimensions: fine.
impl<H, T, Rule> FitsRev<Cons<H, T>, Rule> for Nil {}

/// The operand has extra leading dimensions: an error.
impl<H, T, Rule> FitsRev<Nil, Rule> for Cons<H, T>
where
    Cons<H, T>: Len,
    (<Cons<H, T> as Len>::Out, Rule): RankFails,
{
}

impl<HY, TY, HX, TX, Rule> FitsRev<Cons<HX, TX>, Rule> for Cons<HY, TY>
where
    HY: FitsDim<HX, (TX, TY), Rule>,
    (HY::Status, TY, TX, Rule): FitsRest,
{
}

/// Goes on to the leading dimensions after a pair that fits; stops after a
/// clash, so that one error is reported per operation.
pub trait FitsRest {}
impl<TY: FitsRev<TX, Rule>, TX, Rule> FitsRest for (Fine, TY, TX, Rule) {}
impl<TY, TX, Rule> FitsRest for (Clash, TY, TX, Rule) {}

/// One pair of aligned sizes. `Rest` holds the target's and the operand's
/// remaining leading dimensions (for the error's dimension index and ranks).
pub trait FitsDim<Target, Rest, Rule> {
    /// [`Fine`] or [`Clash`].
    type Status;
}

impl<Y, X, R, Rule> FitsDim<X, R, Rule> for Y
where
    Y: StaticDim + SizeKind,
    X: StaticDim + SizeKind,
    (Y::Kind, X::Kind): FitsKinds<Y, X, R, Rule>,
{
    type Status = <(Y::Kind, X::Kind) as FitsKinds<Y, X, R, Rule>>::Status;
}
impl<Y: StaticDim, R, Rule> FitsDim<Dyn, R, Rule> for Y {
    type Status = Fine;
}
impl<X: StaticDim, R, Rule> FitsDim<X, R, Rule> for Dyn {
    type Status = Fine;
}
impl<R, Rule> FitsDim<Dyn, R, Rule> for Dyn {
    type Status = Fine;
}

/// The rule table for static sizes, by the kinds `(operand, target)`.
pub trait FitsKinds<Y, X, Rest, Rule> {
    /// [`Fine`] or [`Clash`].
    type Status;
}
macro_rules! fits_kinds {
    (fine: $(($y:ident, $x:ident))*; clash: $(($cy:ident, $cx:ident))*) => {
        $(impl<Y, X, R, Rule> FitsKinds<Y, X, R, Rule> for ($y, $x) {
            type Status = Fine;
        })*
        $(impl<Y, X, R, Rule> FitsKinds<Y, X, R, Rule> for ($cy, $cx)
        where
            (Y, X, R, Rule): SizeFails,
        {
            type Status = Clash;
        })*
    };
}
fits_kinds!(
    fine: (One, Zero) (One, One) (One, Many) (Zero, Zero);
    clash: (Zero, One) (Zero, Many) (Many, Zero) (Many, One)
);
impl<Y, X, R, Rule> FitsKinds<Y, X, R, Rule> for (Many, Many)
where
    Y: SizeEq<X>,
    Y::Out: FitsIfEqual<Y, X, R, Rule>,
{
    type Status = <Y::Out as FitsIfEqual<Y, X, R, Rule>>::Status;
}

/// Two sizes of 2 or more: equal is fine, unequal an error.
pub trait FitsIfEqual<Y, X, Rest, Rule> {
    /// [`Fine`] or [`Clash`].
    type Status;
}
impl<Y, X, R, Rule> FitsIfEqual<Y, X, R, Rule> for True {
    type Status = Fine;
}
impl<Y, X, R, Rule> FitsIfEqual<Y, X, R, Rule> for False
where
    (Y, X, R, Rule): SizeFails,
{
    type Status = Clash;
}

/// Holds for no `(operand, target, rest, rule)`: requiring it produces the
/// rule's size-mismatch error, quoting both sizes and the dimension index.
pub trait SizeFails {}
impl<Y, X, TX, TY> SizeFails for (Y, X, (TX, TY), InPlace)
where
    X: DigitCount,
    Y: DigitCount,
    TX: Len,
    (X, Y, TX::Out): InPlaceMismatch<X::Out, Y::Out>,
{
}
impl<Y, X, TX, TY> SizeFails for (Y, X, (TX, TY), Expand)
where
    X: DigitCount,
    Y: DigitCount,
    TX: Len,
    (X, Y, TX::Out): ExpandMismatch<X::Out, Y::Out>,
{
}

/// Holds for no `(extra, rule)`: the operand has `extra` more dimensions
/// than the target.
pub trait RankFails {}
impl<N> RankFails for (N, InPlace) where N: InPlaceRankReport {}
impl<N> RankFails for (N, Expand) where N: ExpandRankReport {}

/// Checks the in-place rule at run time: `operand` must broadcast to
/// `output` without changing it. Errors carry PyTorch's texts.
///
/// ```
/// use shaped::shape::check_in_place;
/// assert!(check_in_place(&[5, 3, 4, 1], &[3, 1, 1]).is_ok());
/// assert_eq!(
///     check_in_place(&[1, 3, 1], &[3, 1, 7]).unwrap_err().to_string(),
///     "output with shape [1, 3, 1] doesn't match the broadcast shape [3, 3, 7]"
/// );
/// ```
#[inline]
pub fn check_in_place(output: &[usize], operand: &[usize]) -> Result<(), Error> {
    if fits(operand, output) {
        return Ok(());
    }
    let mut broadcast = vec![0; output.len().max(operand.len())];
    super::broadcast::broadcast_sizes_into(output, operand, &mut broadcast)?;
    Err(Error::InPlaceShape {
        output: output.to_vec(),
        broadcast,
    })
}

/// Checks that a tensor of sizes `existing` and element type `dtype` can be
/// expanded to `target`, with PyTorch's texts.
///
/// ```
/// use shaped::prelude::*;
/// use shaped::shape::check_expand;
/// assert!(check_expand(&[3], &[4, 3], DType::F32).is_ok());
/// assert_eq!(
///     check_expand(&[3], &[4, 4], DType::F32).unwrap_err().to_string(),
///     "The expanded size of the tensor (4) must match the existing size (3) at non-singleton dimension 1.  Target sizes: [4, 4].  Tensor sizes: [3]"
/// );
/// ```
pub fn check_expand(existing: &[usize], target: &[usize], dtype: DType) -> Result<(), Error> {
    let signed: Vec<isize> = target
        .iter()
        .map(|&t| isize::try_from(t).unwrap_or(isize::MAX))
        .collect();
    resolve_expand(existing, &signed, dtype).map(|_| ())
}

/// Whether `existing` expands to the sizes `target` (each size equal, or 1
/// and stretched, and new leading dimensions): [`check_expand`] without
/// building its error.
///
/// ```
/// use shaped::shape::expands_to;
/// assert!(expands_to(&[3, 1], &[2, 3, 4]));
/// assert!(!expands_to(&[3, 2], &[3, 4]));
/// assert!(!expands_to(&[3, 1], &[1]));
/// ```
#[inline]
pub fn expands_to(existing: &[usize], target: &[usize]) -> bool {
    let Some(extra) = target.len().checked_sub(existing.len()) else {
        return false;
    };
    existing
        .iter()
        .zip(&target[extra..])
        .all(|(&e, &t)| e == t || e == 1)
        && target.iter().all(|&t| t <= isize::MAX as usize)
}

/// The sizes of `existing` expanded to `target` as PyTorch's `expand` reads
/// it: `-1` keeps an existing size, size-1 dimensions stretch, new leading
/// dimensions appear. `Err` with PyTorch's texts otherwise.
///
/// ```
/// use shaped::prelude::*;
/// use shaped::shape::resolve_expand;
/// assert_eq!(resolve_expand(&[3, 1], &[2, -1, 4], DType::F32).unwrap(), vec![2, 3, 4]);
/// assert_eq!(
///     resolve_expand(&[3, 1], &[-1, 3, 4], DType::F32).unwrap_err().to_string(),
///     "The expanded size of the tensor (-1) isn't allowed in a leading, non-existing dimension 0"
/// );
/// ```
pub fn resolve_expand(
    existing: &[usize],
    target: &[isize],
    dtype: DType,
) -> Result<Vec<usize>, Error> {
    if existing.len() > target.len() {
        return Err(Error::ExpandRank {
            dtype,
            existing: existing.to_vec(),
            target: target.to_vec(),
        });
    }
    let extra = target.len() - existing.len();
    let mut sizes = vec![0; target.len()];
    let mut negative = false;
    // Right to left, as PyTorch walks them: the first error it meets wins;
    // a negative size is only found out when the elements are counted.
    for i in (0..target.len()).rev() {
        let t = target[i];
        let resolved = match (i.checked_sub(extra).map(|d| existing[d]), t) {
            (None, -1) => return Err(Error::ExpandLeadingMinusOne { dim: i }),
            (None, t) => t,
            (Some(n), -1) => n as isize,
            (Some(n), t) if n as isize == t || n == 1 => t,
            (Some(_), _) => {
                return Err(Error::ExpandMismatch {
                    target: target.to_vec(),
                    existing: existing.to_vec(),
                    dim: i,
                });
            }
        };
        negative |= resolved < 0;
        sizes[i] = resolved.max(0) as usize;
    }
    if negative {
        return Err(Error::NumelOverflow);
    }
    crate::layout::checked_numel(&sizes).map_err(|_| Error::NumelOverflow)?;
    Ok(sizes)
}

/// The in-place rule on runtime sizes.
#[inline]
fn fits(operand: &[usize], target: &[usize]) -> bool {
    operand.len() <= target.len()
        && operand
            .iter()
            .rev()
            .zip(target.iter().rev())
            .all(|(&y, &x)| y == x || y == 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runtime_in_place_rule() {
        assert!(check_in_place(&[5, 3, 4, 1], &[3, 1, 1]).is_ok());
        assert!(check_in_place(&[0, 3], &[1, 3]).is_ok());
        assert!(check_in_place(&[3], &[]).is_ok());
        assert_eq!(
            check_in_place(&[3], &[1, 3]).unwrap_err().to_string(),
            "output with shape [3] doesn't match the broadcast shape [1, 3]"
        );
        assert_eq!(
            check_in_place(&[1], &[0]).unwrap_err().to_string(),
            "output with shape [1] doesn't match the broadcast shape [0]"
        );
        assert_eq!(
            check_in_place(&[2, 3], &[4]).unwrap_err().to_string(),
            "The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 1"
        );
    }

    #[test]
    fn runtime_expand_rule() {
        let f32 = DType::F32;
        assert!(check_expand(&[1, 3], &[2, 5, 3], f32).is_ok());
        assert!(check_expand(&[2, 1], &[2, 0], f32).is_ok());
        assert_eq!(
            check_expand(&[2, 3], &[3], f32).unwrap_err().to_string(),
            "expand(torch.FloatTensor{[2, 3]}, size=[3]): the number of sizes provided (1) must be greater or equal to the number of dimensions in the tensor (2)"
        );
        assert_eq!(
            check_expand(&[0], &[4, 1], f32).unwrap_err().to_string(),
            "The expanded size of the tensor (1) must match the existing size (0) at non-singleton dimension 1.  Target sizes: [4, 1].  Tensor sizes: [0]"
        );
    }
}
