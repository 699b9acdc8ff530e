//! The scans on [`AnyTensor`]: `cumsum`, `cumprod`, `logcumsumexp`,
//! `cummax` and `cummin` of a runtime dtype, with PyTorch's texts where it
//! refuses one.

use super::any::{AnyTensor, any_tensor};
use crate::backend::Scanning;
use crate::dtype::DType;
use crate::error::Error;

impl<D: Scanning, R: crate::storage::Repr> AnyTensor<D, R> {
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

    /// PyTorch's `cumsum(dim, dtype=dtype)`: the tensor cast to `dtype`
    /// first, the sums in `dtype` (integers wrap in it); bool refused.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = AnyTensor::from(DynTensor::<i8>::from_vec(vec![100, 100, 100], &[3]).unwrap());
    /// let s = x.cumsum_dtype(0, DType::I8).unwrap();
    /// assert_eq!(s.downcast::<i8>().unwrap().to_vec(), [100, -56, 44]);
    /// let f = AnyTensor::from(DynTensor::<f32>::from_vec(vec![1.5, 2.5], &[2]).unwrap());
    /// assert_eq!(f.cumsum_dtype(0, DType::I64).unwrap().downcast::<i64>().unwrap().to_vec(), [1, 3]);
    /// assert_eq!(
    ///     x.cumsum_dtype(0, DType::Bool).unwrap_err().to_string(),
    ///     "\"cumsum_out_cpu\" not implemented for 'Bool'"
    /// );
    /// ```
    pub fn cumsum_dtype(&self, dim: isize, dtype: DType) -> Result<AnyTensor<D>, Error> {
        self.scan_in(dim, dtype, "cumsum_out_cpu", |x| x.cumsum(dim))
    }

    /// PyTorch's `cumprod(dim, dtype=dtype)`, as [`cumsum_dtype`](Self::cumsum_dtype).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = AnyTensor::from(DynTensor::<i32>::from_vec(vec![1, 2, 3], &[3]).unwrap());
    /// let p = x.cumprod_dtype(0, DType::F64).unwrap();
    /// assert_eq!(p.downcast::<f64>().unwrap().to_vec(), [1.0, 2.0, 6.0]);
    /// ```
    pub fn cumprod_dtype(&self, dim: isize, dtype: DType) -> Result<AnyTensor<D>, Error> {
        self.scan_in(dim, dtype, "cumprod_out_cpu", |x| x.cumprod(dim))
    }

    /// `scan` of the tensor cast to `dtype`, its result cast back to
    /// `dtype` (integer sums are int64 here, wrapped to `dtype` as
    /// PyTorch's accumulate-and-store does); bool refused with `kernel`.
    fn scan_in(
        &self,
        dim: isize,
        dtype: DType,
        kernel: &'static str,
        scan: impl FnOnce(&AnyTensor<D>) -> Result<AnyTensor<D>, Error>,
    ) -> Result<AnyTensor<D>, Error> {
        crate::layout::views::wrap_dim(dim, self.rank())?;
        if dtype == DType::Bool {
            return Err(Error::NotImplementedFor { op: kernel, dtype });
        }
        scan(&self.try_to_dtype(dtype)?)?.try_to_dtype(dtype)
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
