//! `sort`, `argsort`, `msort`, `topk` and the order statistics on
//! [`AnyTensor`], with PyTorch's texts for the dtypes each refuses.

use super::any::{AnyTensor, any_tensor};
use crate::backend::{OrderStatistics, Sorting};
use crate::dtype::DType;
use crate::error::Error;
use crate::ops::sorting::Interpolation;

impl<D: Sorting, R: crate::storage::Repr> AnyTensor<D, R> {
    /// The elements sorted along `dim` and their int64 positions; stable
    /// whatever `stable` says (see [`crate::ops::sorting`]).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = AnyTensor::from(DynTensor::<bool>::from_vec(vec![true, false], &[2]).unwrap());
    /// let (values, indices) = x.sort(0, false, true).unwrap();
    /// assert_eq!(values.downcast::<bool>().unwrap().to_vec(), [false, true]);
    /// assert_eq!(indices.downcast::<i64>().unwrap().to_vec(), [1, 0]);
    /// ```
    pub fn sort(
        &self,
        dim: isize,
        descending: bool,
        stable: bool,
    ) -> Result<(AnyTensor<D>, AnyTensor<D>), Error> {
        Ok(any_tensor!(@each self, x => {
            let (values, indices) = x.sort(dim, descending, stable)?;
            (values.into(), indices.into())
        }))
    }

    /// The int64 positions that sort `dim`.
    pub fn argsort(
        &self,
        dim: isize,
        descending: bool,
        stable: bool,
    ) -> Result<AnyTensor<D>, Error> {
        Ok(any_tensor!(@each self, x => x.argsort(dim, descending, stable)?.into()))
    }

    /// The elements sorted along dim 0, ascending.
    pub fn msort(&self) -> Result<AnyTensor<D>, Error> {
        Ok(any_tensor!(@each self, x => x.msort()?.into()))
    }

    /// The `k` largest (or smallest) elements along `dim` and their int64
    /// positions (see [`Tensor::topk`](crate::Tensor::topk)).
    pub fn topk(
        &self,
        k: isize,
        dim: isize,
        largest: bool,
        sorted: bool,
    ) -> Result<(AnyTensor<D>, AnyTensor<D>), Error> {
        Ok(any_tensor!(@each self, x => {
            let (values, indices) = x.topk(k, dim, largest, sorted)?;
            (values.into(), indices.into())
        }))
    }
}

/// Two values and their int64 positions, as `AnyTensor`s.
type Pair<D> = (AnyTensor<D>, AnyTensor<D>);

impl<D: OrderStatistics, R: crate::storage::Repr> AnyTensor<D, R> {
    /// The `k`-th smallest element along `dim` and its int64 position
    /// (see [`crate::ops::sorting`]).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = AnyTensor::from(DynTensor::<i32>::from_vec(vec![4, 2, 8], &[3]).unwrap());
    /// let (value, index) = x.kthvalue(2, 0, false).unwrap();
    /// assert_eq!(value.downcast::<i32>().unwrap().to_vec(), [4]);
    /// assert_eq!(index.downcast::<i64>().unwrap().to_vec(), [0]);
    /// ```
    pub fn kthvalue(&self, k: isize, dim: isize, keepdim: bool) -> Result<Pair<D>, Error> {
        Ok(any_tensor!(@each self, x => {
            let (values, indices) = x.kthvalue(k, dim, keepdim)?;
            (values.into(), indices.into())
        }))
    }

    /// The lower median of all the elements, rank 0.
    pub fn median(&self) -> Result<AnyTensor<D>, Error> {
        Ok(any_tensor!(@each self, x => x.median()?.into()))
    }

    /// The lower median of the elements that are not NaN, rank 0.
    pub fn nanmedian(&self) -> Result<AnyTensor<D>, Error> {
        Ok(any_tensor!(@each self, x => x.nanmedian()?.into()))
    }

    /// The lower median along `dim` and its int64 position.
    pub fn median_dim(&self, dim: isize, keepdim: bool) -> Result<Pair<D>, Error> {
        Ok(any_tensor!(@each self, x => {
            let (values, indices) = x.median_dim(dim, keepdim)?;
            (values.into(), indices.into())
        }))
    }

    /// The lower median along `dim` of the elements that are not NaN, and
    /// its int64 position.
    pub fn nanmedian_dim(&self, dim: isize, keepdim: bool) -> Result<Pair<D>, Error> {
        Ok(any_tensor!(@each self, x => {
            let (values, indices) = x.nanmedian_dim(dim, keepdim)?;
            (values.into(), indices.into())
        }))
    }

    /// The most frequent value along `dim` and its int64 position.
    pub fn mode(&self, dim: isize, keepdim: bool) -> Result<Pair<D>, Error> {
        Ok(any_tensor!(@each self, x => {
            let (values, indices) = x.mode(dim, keepdim)?;
            (values.into(), indices.into())
        }))
    }

    /// The `q`-quantile along `dim` (all the elements when `None`).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = AnyTensor::from(DynTensor::<i64>::from_vec(vec![1, 2], &[2]).unwrap());
    /// assert_eq!(
    ///     x.quantile(0.5, None, false, Interpolation::Linear).unwrap_err().to_string(),
    ///     "quantile() input tensor must be either float or double dtype"
    /// );
    /// ```
    pub fn quantile(
        &self,
        q: f64,
        dim: Option<isize>,
        keepdim: bool,
        interpolation: Interpolation,
    ) -> Result<AnyTensor<D>, Error> {
        Ok(any_tensor!(@each self, x => x.quantile(q, dim, keepdim, interpolation)?.into()))
    }

    /// [`quantile`](Self::quantile) with the NaNs left out.
    pub fn nanquantile(
        &self,
        q: f64,
        dim: Option<isize>,
        keepdim: bool,
        interpolation: Interpolation,
    ) -> Result<AnyTensor<D>, Error> {
        Ok(any_tensor!(@each self, x => x.nanquantile(q, dim, keepdim, interpolation)?.into()))
    }

    /// The quantiles of the numbers of the 0-d or 1-d tensor `q`, which
    /// must have this tensor's dtype (PyTorch's rule and texts).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = AnyTensor::from(DynTensor::<f32>::from_vec(vec![1.0, 3.0], &[2]).unwrap());
    /// let q = AnyTensor::from(DynTensor::<f64>::from_vec(vec![0.5], &[1]).unwrap());
    /// assert_eq!(
    ///     x.quantiles(&q, None, false, Interpolation::Linear).unwrap_err().to_string(),
    ///     "quantile() q tensor must be same dtype as the input tensor"
    /// );
    /// ```
    pub fn quantiles(
        &self,
        q: &AnyTensor<D>,
        dim: Option<isize>,
        keepdim: bool,
        interpolation: Interpolation,
    ) -> Result<AnyTensor<D>, Error> {
        Ok(any_tensor!(@each self, x => match q.downcast_ref() {
            Some(q) => x.quantiles(q, dim, keepdim, interpolation)?.into(),
            None => return Err(q_dtype_refusal(self, q)),
        }))
    }

    /// [`quantiles`](Self::quantiles) with the NaNs left out.
    pub fn nanquantiles(
        &self,
        q: &AnyTensor<D>,
        dim: Option<isize>,
        keepdim: bool,
        interpolation: Interpolation,
    ) -> Result<AnyTensor<D>, Error> {
        Ok(any_tensor!(@each self, x => match q.downcast_ref() {
            Some(q) => x.nanquantiles(q, dim, keepdim, interpolation)?.into(),
            None => return Err(q_dtype_refusal(self, q)),
        }))
    }
}

/// PyTorch's first error for a `q` tensor of another dtype than `x`'s,
/// in its order of checks.
fn q_dtype_refusal<D: OrderStatistics, R: crate::storage::Repr>(
    x: &AnyTensor<D, R>,
    q: &AnyTensor<D>,
) -> Error {
    let message = if x.numel() == 0 {
        "quantile() input tensor must be non-empty"
    } else if q.rank() > 1 {
        "quantile() q must be a scalar or 1D tensor"
    } else if !matches!(x.dtype(), DType::F32 | DType::F64) {
        "quantile() input tensor must be either float or double dtype"
    } else {
        "quantile() q tensor must be same dtype as the input tensor"
    };
    Error::Unsupported { message }
}
