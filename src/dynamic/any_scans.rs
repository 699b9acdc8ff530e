//! The scans on [`AnyTensor`]: `cumsum`, `cumprod`, `logcumsumexp`,
//! `cummax` and `cummin` of a runtime dtype, with PyTorch's texts where it
//! refuses one.

use super::any::{AnyTensor, any_tensor};
use crate::backend::Scanning;
use crate::error::Error;

impl<D: Scanning> AnyTensor<D> {
    /// Running sums along `dim`: integers and bool give int64, the others
    /// their own dtype.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = AnyTensor::from(DynTensor::<bool>::from_vec(vec![true, true], &[2]).unwrap());
    /// let y = x.cumsum(0).unwrap();
    /// assert_eq!(y.dtype(), DType::I64);
    /// assert_eq!(y.downcast::<i64>().unwrap().to_vec(), [1, 2]);
    /// ```
    pub fn cumsum(&self, dim: isize) -> Result<AnyTensor<D>, Error> {
        Ok(any_tensor!(@each self, x => x.cumsum(dim)?.into()))
    }

    /// Running products along `dim`: integers and bool give int64.
    pub fn cumprod(&self, dim: isize) -> Result<AnyTensor<D>, Error> {
        Ok(any_tensor!(@each self, x => x.cumprod(dim)?.into()))
    }

    /// `log(sum(exp(x)))` of every prefix along `dim`: floating and complex
    /// dtypes; PyTorch's error for the others.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = AnyTensor::from(DynTensor::<u8>::from_vec(vec![1], &[1]).unwrap());
    /// assert_eq!(
    ///     x.logcumsumexp(0).unwrap_err().to_string(),
    ///     "\"logcumsumexp_out_cpu\" not implemented for 'Byte'"
    /// );
    /// ```
    pub fn logcumsumexp(&self, dim: isize) -> Result<AnyTensor<D>, Error> {
        Ok(any_tensor!(@each self, x => x.logcumsumexp(dim)?.into()))
    }

    /// Running maxima along `dim` and their indices (int64); PyTorch's
    /// error for a complex tensor.
    pub fn cummax(&self, dim: isize) -> Result<(AnyTensor<D>, AnyTensor<D>), Error> {
        Ok(any_tensor!(@each self, x => {
            let (values, indices) = x.cummax(dim)?;
            (values.into(), indices.into())
        }))
    }

    /// Running minima along `dim` and their indices (int64).
    pub fn cummin(&self, dim: isize) -> Result<(AnyTensor<D>, AnyTensor<D>), Error> {
        Ok(any_tensor!(@each self, x => {
            let (values, indices) = x.cummin(dim)?;
            (values.into(), indices.into())
        }))
    }
}
