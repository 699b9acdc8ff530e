//! The static forms of the sets and bins: result shapes in the type, and
//! misuse the compiler can see (complex `unique`, float `bincount`,
//! integer `histc`, boundaries that are not 1-D or whose leading dims
//! differ from the values') refused with a compile error in words.

use super::{search_checks, unique_parts, vector_of};
use crate::backend::cpu::sets::{BinIndex, HistcElement, SetElement};
use crate::backend::{Backend, SetOps};
use crate::dtype::Element;
use crate::error::{Error, or_panic};
use crate::layout::StridedLayout;
use crate::shape::axes::ConstSize;
use crate::shape::list::TupleShape;
use crate::shape::{Dim, Dyn, Shape};
use crate::storage::Repr;
use crate::tensor::Tensor;

/// Boundaries' shapes `searchsorted` takes for values of shape `SV`: 1-D,
/// or the values' leading dims (the same size types) and any last one.
#[diagnostic::on_unimplemented(
    message = "searchsorted needs 1-D boundaries, or boundaries whose leading dims are the values': `{Self}` does not fit values of shape `{SV}`",
    label = "boundaries of shape `{Self}`",
    note = "PyTorch raises \"torch.searchsorted(): boundaries tensor should be 1 dimension or the first N-1 dimensions of boundaries tensor and input value tensor must match\""
)]
pub trait SearchShape<SV> {}
impl<N: Dim, SV: Shape> SearchShape<SV> for (N,) {}
impl<A: Dim, N: Dim, SV: LeadingDims<(A,)>> SearchShape<SV> for (A, N) {}
impl<A: Dim, B: Dim, N: Dim, SV: LeadingDims<(A, B)>> SearchShape<SV> for (A, B, N) {}
impl<A: Dim, B: Dim, C: Dim, N: Dim, SV: LeadingDims<(A, B, C)>> SearchShape<SV> for (A, B, C, N) {}

/// Values' shapes that start with the leading dims `L` of boundaries of
/// rank 2 or more (and have one dim more).
#[diagnostic::on_unimplemented(
    message = "searchsorted's boundaries and values must share their leading dims: values of shape `{Self}` do not start with the boundaries' `{L}`",
    label = "values of shape `{Self}`",
    note = "PyTorch raises \"torch.searchsorted(): boundaries tensor should be 1 dimension or the first N-1 dimensions of boundaries tensor and input value tensor must match\""
)]
pub trait LeadingDims<L> {}
impl<A: Dim, M: Dim> LeadingDims<(A,)> for (A, M) {}
impl<A: Dim, B: Dim, M: Dim> LeadingDims<(A, B)> for (A, B, M) {}
impl<A: Dim, B: Dim, C: Dim, M: Dim> LeadingDims<(A, B, C)> for (A, B, C, M) {}

/// 1-D shapes: `bucketize`'s boundaries, `bincount`'s input.
#[diagnostic::on_unimplemented(
    message = "a vector is needed here (bucketize's boundaries, bincount's input): `{Self}` is not 1-D",
    label = "of shape `{Self}`",
    note = "PyTorch raises \"boundaries tensor must be 1 dimension\" or \"bincount only supports 1-d non-negative integral inputs.\"; flatten it first"
)]
pub trait Boundaries {}
impl<N: Dim> Boundaries for (N,) {}

/// `histc::<BINS>`'s result shape.
type Bins<const BINS: usize> = (<typenum::Const<BINS> as ConstSize>::Dec,);

/// The static forms.
impl<T: Element, S: Shape + TupleShape, D: Backend, R: Repr> Tensor<T, S, D, R> {
    /// The distinct elements, ascending (`sorted` aside: always sorted), a
    /// vector of run-time length; the inverse keeps `self`'s static shape.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = Tensor::<i32, shape![2, 3]>::from_vec(vec![5, 1, 5, 2, 1, 5]).unwrap();
    /// let (values, inverse, counts) = x.unique(true, true, true);
    /// assert_eq!(values.to_vec(), [1, 2, 5]);
    /// let inverse: Tensor<i64, shape![2, 3]> = inverse.unwrap();
    /// assert_eq!(inverse.to_vec(), [2, 0, 2, 1, 0, 2]);
    /// assert_eq!(counts.unwrap().to_vec(), [2, 1, 3]);
    /// ```
    #[allow(clippy::type_complexity)]
    pub fn unique(
        &self,
        sorted: bool,
        return_inverse: bool,
        return_counts: bool,
    ) -> (
        Tensor<T, (Dyn,), D>,
        Option<Tensor<i64, S, D>>,
        Option<Tensor<i64, (Dyn,), D>>,
    )
    where
        T: SetElement,
        D: SetOps,
    {
        let _ = sorted;
        self.typed_uniques(false, return_inverse, return_counts)
    }

    /// The first element of each run of equal neighbours (row-major), the
    /// inverse (`self`'s shape) and the run lengths.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = Tensor::<u8, shape![5]>::from_vec(vec![7, 7, 1, 7, 7]).unwrap();
    /// let (values, _, counts) = x.unique_consecutive(false, true);
    /// assert_eq!(values.to_vec(), [7, 1, 7]);
    /// assert_eq!(counts.unwrap().to_vec(), [2, 1, 2]);
    /// ```
    #[allow(clippy::type_complexity)]
    pub fn unique_consecutive(
        &self,
        return_inverse: bool,
        return_counts: bool,
    ) -> (
        Tensor<T, (Dyn,), D>,
        Option<Tensor<i64, S, D>>,
        Option<Tensor<i64, (Dyn,), D>>,
    )
    where
        T: SetElement,
        D: SetOps,
    {
        self.typed_uniques(true, return_inverse, return_counts)
    }

    #[allow(clippy::type_complexity)]
    fn typed_uniques(
        &self,
        consecutive: bool,
        inverse: bool,
        counts: bool,
    ) -> (
        Tensor<T, (Dyn,), D>,
        Option<Tensor<i64, S, D>>,
        Option<Tensor<i64, (Dyn,), D>>,
    )
    where
        T: SetElement,
        D: SetOps,
    {
        let u = unique_parts(self.strided(), consecutive, inverse, counts);
        let sizes = self.shape();
        (
            vector_of(u.values, u.count),
            u.inverse
                .map(|b| Tensor::from_buffer(b, StridedLayout::contiguous(sizes))),
            u.counts.map(|b| vector_of(b, u.count)),
        )
    }

    /// Where each of `values` would go in `self`'s sorted lines: int64 of
    /// `values`' static shape. `self` is 1-D, or has `values`' leading dims
    /// (else a compile error; [`Dyn`] sizes are checked at run time and
    /// panic with PyTorch's text).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let b = Tensor::<f32, shape![4]>::from_vec(vec![1.0, 2.0, 2.0, 3.0]).unwrap();
    /// let v = Tensor::<f32, shape![2, 2]>::from_vec(vec![2.0, 0.0, 9.0, 2.5]).unwrap();
    /// let left: Tensor<i64, shape![2, 2]> = b.searchsorted(&v, false);
    /// assert_eq!(left.to_vec(), [1, 0, 4, 3]);
    /// assert_eq!(b.searchsorted(&v, true).to_vec(), [3, 0, 4, 3]);
    /// ```
    pub fn searchsorted<SV, RV: Repr>(
        &self,
        values: &Tensor<T, SV, D, RV>,
        right: bool,
    ) -> Tensor<i64, SV, D>
    where
        T: SetElement,
        D: SetOps,
        SV: Shape + TupleShape,
        S: SearchShape<SV>,
    {
        or_panic(search_typed(self, values, right))
    }

    /// The bucket of each element among the 1-D `boundaries`: int64 of
    /// `self`'s static shape.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = Tensor::<i64, shape![3]>::from_vec(vec![0, 5, 10]).unwrap();
    /// let b = Tensor::<i64, shape![2]>::from_vec(vec![1, 5]).unwrap();
    /// assert_eq!(x.bucketize(&b, false).to_vec(), [0, 1, 2]);
    /// assert_eq!(x.bucketize(&b, true).to_vec(), [0, 2, 2]);
    /// ```
    pub fn bucketize<SB, RB: Repr>(
        &self,
        boundaries: &Tensor<T, SB, D, RB>,
        right: bool,
    ) -> Tensor<i64, S, D>
    where
        T: SetElement,
        D: SetOps,
        SB: Shape + TupleShape + Boundaries,
    {
        or_panic(search_typed(boundaries, self, right))
    }

    /// How often each value `0..n` occurs in the 1-D `self` (`n` at least
    /// `minlength`): int64 of run-time length; `Err` (PyTorch's text) for
    /// a negative element.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = Tensor::<i64, shape![4]>::from_vec(vec![2, 0, 2, 2]).unwrap();
    /// assert_eq!(x.bincount(0).unwrap().to_vec(), [1, 0, 3]);
    /// ```
    pub fn bincount(&self, minlength: usize) -> Result<Tensor<i64, (Dyn,), D>, Error>
    where
        T: BinIndex,
        D: SetOps,
        S: Boundaries,
    {
        let (buffer, n) = D::bincount(self.strided(), minlength)?;
        Ok(vector_of(buffer, n))
    }

    /// The histogram of the elements in `BINS` equal bins over
    /// `[min, max]` (`min == max`: the elements' own range): a vector of
    /// `BINS` in `self`'s float type; `Err` (PyTorch's text) for a range
    /// that is not finite or not increasing.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = Tensor::<f64, shape![2, 2]>::from_vec(vec![0.1, 0.9, 0.5, 0.5]).unwrap();
    /// let h: Tensor<f64, shape![2]> = x.histc::<2>(0.0, 1.0).unwrap();
    /// assert_eq!(h.to_vec(), [1.0, 3.0]);
    /// ```
    pub fn histc<const BINS: usize>(
        &self,
        min: f64,
        max: f64,
    ) -> Result<Tensor<T, Bins<BINS>, D>, Error>
    where
        T: HistcElement + super::SetInput,
        D: SetOps,
        typenum::Const<BINS>: ConstSize,
        Bins<BINS>: Shape<Sizes = [usize; 1]>,
    {
        let buffer = T::histc_on(self.strided(), BINS as i64, min, max)?;
        Ok(Tensor::from_buffer(
            buffer,
            StridedLayout::contiguous([BINS]),
        ))
    }
}

/// `searchsorted` of typed operands: PyTorch's checks on the run-time
/// sizes (static ones already agree), the values' shape kept.
fn search_typed<T, SB, RB, SV, RV, D>(
    boundaries: &Tensor<T, SB, D, RB>,
    values: &Tensor<T, SV, D, RV>,
    right: bool,
) -> Result<Tensor<i64, SV, D>, Error>
where
    T: SetElement,
    SB: Shape,
    SV: Shape,
    RB: Repr,
    RV: Repr,
    D: SetOps + Backend,
{
    let sizes = values.shape();
    let right = search_checks(
        boundaries.layout.sizes(),
        values.layout.sizes(),
        right,
        None,
        None,
    )?;
    let n: usize = values.layout.sizes().iter().product();
    let buffer = match n {
        0 => D::map1(values.strided(), crate::ops::functions::Constant(0i64))?,
        _ => D::searchsorted(boundaries.strided(), values.strided(), None, right)?,
    };
    Ok(Tensor::from_buffer(
        buffer,
        StridedLayout::contiguous(sizes),
    ))
}
