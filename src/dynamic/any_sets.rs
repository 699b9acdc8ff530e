//! The sets and bins on [`AnyTensor`] (see [`crate::ops::sets`]), with
//! PyTorch's argument lists: `out_int32`, `weights` of any dtype, values
//! and boundaries of different dtypes promoted to their common one.

use super::any::{AnyElement, AnyTensor, any_tensor};
use crate::backend::SetOps;
use crate::backend::StridedRef;
use crate::dtype::DType;
use crate::dtype::promote::OperandKind;
use crate::dynamic::{DynShape, DynTensor};
use crate::error::Error;
use crate::ops::sets::{SearchSorted, SetInput, search_checks, searched};
use crate::storage::{Repr, View};
use crate::tensor::Tensor;

/// What `unique` gives on an [`AnyTensor`]: the values, the inverse and
/// the counts (int64) when asked for.
pub type AnyUniques<D> = (AnyTensor<D>, Option<AnyTensor<D>>, Option<AnyTensor<D>>);

/// The typed results as [`AnyTensor`]s.
fn any_uniques<T: SetInput, D: SetOps>(
    (values, inverse, counts): crate::ops::sets::UniqueResult<T, D>,
) -> AnyUniques<D>
where
    AnyTensor<D>: From<DynTensor<T, D>>,
{
    (
        values.into(),
        inverse.map(Into::into),
        counts.map(Into::into),
    )
}

/// An operand's weight in promotion (a rank-0 tensor weighs less).
fn kind(rank: usize) -> OperandKind {
    match rank {
        0 => OperandKind::ZeroDim,
        _ => OperandKind::Dimensioned,
    }
}

/// `searchsorted` of `boundaries` (typed) and `values` of the same dtype,
/// both checked.
fn search_pair<T: SetInput + AnyElement, D: SetOps, R: Repr>(
    boundaries: &Tensor<T, DynShape, D, R>,
    values: &AnyTensor<D, View<'_>>,
    out_int32: bool,
    sorter: Option<StridedRef<'_, i64, D>>,
    right: bool,
) -> Result<AnyTensor<D>, Error> {
    let values = T::borrow_any(values).expect("converted to the boundaries' dtype");
    let (b, v) = (boundaries.strided(), values.strided());
    Ok(match out_int32 {
        true => searched::<T, i32, D>(b, v, sorter, right)?.into(),
        false => searched::<T, i64, D>(b, v, sorter, right)?.into(),
    })
}

impl<D: SetOps, R: Repr> AnyTensor<D, R> {
    /// The distinct elements, ascending, with the int64 inverse and counts
    /// when asked for (see [`Tensor::unique`](crate::Tensor::unique)).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = AnyTensor::from(DynTensor::<bool>::from_vec(vec![true, false, true], &[3]).unwrap());
    /// let (values, _, counts) = x.unique(true, false, true).unwrap();
    /// assert_eq!(values.downcast::<bool>().unwrap().to_vec(), [false, true]);
    /// assert_eq!(counts.unwrap().downcast::<i64>().unwrap().to_vec(), [1, 2]);
    /// ```
    pub fn unique(
        &self,
        sorted: bool,
        return_inverse: bool,
        return_counts: bool,
    ) -> Result<AnyUniques<D>, Error> {
        Ok(
            any_tensor!(@each self, x => any_uniques(x.unique(sorted, return_inverse, return_counts)?)),
        )
    }

    /// The distinct slices along `dim` (PyTorch's `unique(x, dim=)`).
    pub fn unique_dim(
        &self,
        dim: isize,
        sorted: bool,
        return_inverse: bool,
        return_counts: bool,
    ) -> Result<AnyUniques<D>, Error> {
        Ok(any_tensor!(@each self, x => any_uniques(
            x.unique_dim(dim, sorted, return_inverse, return_counts)?
        )))
    }

    /// The first of each run of equal neighbours (elements, or slices
    /// along `dim`), the inverse and the run lengths.
    pub fn unique_consecutive(
        &self,
        return_inverse: bool,
        return_counts: bool,
        dim: Option<isize>,
    ) -> Result<AnyUniques<D>, Error> {
        Ok(any_tensor!(@each self, x => any_uniques(
            x.unique_consecutive(return_inverse, return_counts, dim)?
        )))
    }

    /// Where each of `values` would go in `self`'s sorted lines: int64
    /// (PyTorch's `searchsorted(self, values, right=)`; the two dtypes
    /// promoted to their common one).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let b = AnyTensor::from(DynTensor::<f32>::from_vec(vec![0.0, 1.5, 3.0], &[3]).unwrap());
    /// let v = AnyTensor::from(DynTensor::<i64>::from_vec(vec![1, 2, 5], &[3]).unwrap());
    /// let found = b.searchsorted(&v, false).unwrap();
    /// assert_eq!(found.downcast::<i64>().unwrap().to_vec(), [1, 2, 3]);
    /// ```
    pub fn searchsorted<R2: Repr>(
        &self,
        values: &AnyTensor<D, R2>,
        right: bool,
    ) -> Result<AnyTensor<D>, Error> {
        self.searchsorted_with(
            values,
            false,
            &SearchSorted::<AnyTensor<D>> {
                right,
                ..Default::default()
            },
        )
    }

    /// PyTorch's `searchsorted(self, values, out_int32=, right=, side=,
    /// sorter=)`: int32 positions with `out_int32`; a sorter must be int64.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// use shaped::ops::sets::SearchSorted;
    /// let b = AnyTensor::from(DynTensor::<i64>::from_vec(vec![1, 2, 3], &[3]).unwrap());
    /// let sorter = AnyTensor::from(DynTensor::<i32>::from_vec(vec![0, 1, 2], &[3]).unwrap());
    /// let opts = SearchSorted { sorter: Some(&sorter), ..Default::default() };
    /// assert_eq!(
    ///     b.searchsorted_with(&b, false, &opts).unwrap_err().to_string(),
    ///     "torch.searchsorted(): sorter must be a tensor of long dtype but got dtype Int"
    /// );
    /// ```
    pub fn searchsorted_with<R2: Repr>(
        &self,
        values: &AnyTensor<D, R2>,
        out_int32: bool,
        options: &SearchSorted<'_, AnyTensor<D>>,
    ) -> Result<AnyTensor<D>, Error> {
        let sorter_sizes = options.sorter.map(AnyTensor::shape);
        let right = search_checks(
            &self.shape(),
            &values.shape(),
            options.right,
            options.side,
            sorter_sizes.as_deref(),
        )?;
        let sorter = match options.sorter {
            None => None,
            Some(s) => Some(
                s.downcast_ref::<i64>()
                    .ok_or(Error::SorterDType { dtype: s.dtype() })?
                    .strided(),
            ),
        };
        let common = DType::result_type(
            (self.dtype(), kind(self.rank())),
            (values.dtype(), kind(values.rank())),
        );
        let boundaries = self.as_dtype(common)?;
        let values = values.as_dtype(common)?;
        let values = &values.view();
        Ok(
            any_tensor!(@each &boundaries.view(), b => search_pair(b, values, out_int32, sorter, right)?),
        )
    }

    /// The bucket of each element among the 1-D `boundaries` (PyTorch's
    /// `bucketize(self, boundaries, out_int32=, right=)`).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = AnyTensor::from(DynTensor::<f64>::from_vec(vec![0.5, 2.0], &[2]).unwrap());
    /// let b = AnyTensor::from(DynTensor::<f64>::from_vec(vec![1.0, 2.0], &[2]).unwrap());
    /// let buckets = x.bucketize(&b, true, true).unwrap();
    /// assert_eq!(buckets.downcast::<i32>().unwrap().to_vec(), [0, 2]);
    /// ```
    pub fn bucketize<R2: Repr>(
        &self,
        boundaries: &AnyTensor<D, R2>,
        out_int32: bool,
        right: bool,
    ) -> Result<AnyTensor<D>, Error> {
        let rank = boundaries.rank();
        if rank != 1 {
            return Err(Error::BoundariesRank { rank });
        }
        boundaries.searchsorted_with(
            self,
            out_int32,
            &SearchSorted::<AnyTensor<D>> {
                right,
                ..Default::default()
            },
        )
    }

    /// How often each value `0..n` occurs in the 1-D `self` (int64), or
    /// the sums of `weights` per value (float32 for float32 weights, else
    /// float64), `n` at least `minlength`.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = AnyTensor::from(DynTensor::<i32>::from_vec(vec![2, 0, 2], &[3]).unwrap());
    /// let w = AnyTensor::from(DynTensor::<i64>::from_vec(vec![1, 2, 3], &[3]).unwrap());
    /// let sums = x.bincount(Some(&w), 0).unwrap();
    /// assert_eq!(sums.downcast::<f64>().unwrap().to_vec(), [2.0, 0.0, 4.0]);
    /// ```
    pub fn bincount(
        &self,
        weights: Option<&AnyTensor<D>>,
        minlength: isize,
    ) -> Result<AnyTensor<D>, Error> {
        match weights {
            None => Ok(any_tensor!(@each self, x => x.bincount(minlength)?.into())),
            Some(w) => self.bincount_weighted(w, minlength),
        }
    }

    /// [`bincount`](Self::bincount) with weights, which may be a view (the
    /// `Option` of `bincount` takes owned tensors, so that `None` needs no
    /// type annotation).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = AnyTensor::from(DynTensor::<i64>::from_vec(vec![1, 1, 3], &[3]).unwrap());
    /// let w = AnyTensor::from(DynTensor::<f32>::from_vec(vec![0.5, 9.0, 0.25, 2.0], &[4]).unwrap());
    /// let sums = x.bincount_weighted(&w.narrow(0, 1, 3).unwrap(), 0).unwrap();
    /// assert_eq!(sums.downcast::<f32>().unwrap().to_vec(), [0.0, 9.25, 0.0, 2.0]);
    /// ```
    pub fn bincount_weighted<RW: Repr>(
        &self,
        weights: &AnyTensor<D, RW>,
        minlength: isize,
    ) -> Result<AnyTensor<D>, Error> {
        Ok(
            any_tensor!(@each self, x => any_tensor!(@each weights, w => x.bincount_weighted(w, minlength)?)),
        )
    }

    /// The histogram of the elements in `bins` equal bins over
    /// `[min, max]` (PyTorch's `histc`; float dtypes only).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = AnyTensor::from(DynTensor::<i64>::from_vec(vec![1, 2], &[2]).unwrap());
    /// assert_eq!(
    ///     x.histc(4, 0.0, 3.0).unwrap_err().to_string(),
    ///     "\"histogram_cpu\" not implemented for 'Long'"
    /// );
    /// ```
    pub fn histc(&self, bins: isize, min: f64, max: f64) -> Result<AnyTensor<D>, Error> {
        Ok(any_tensor!(@each self, x => x.histc(bins, min, max)?.into()))
    }
}
