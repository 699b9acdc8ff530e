//! The moments (`var`, `std`, `var_mean`, `std_mean`), the norms and the
//! NaN-aware and counting reductions on [`AnyTensor`]: PyTorch's
//! texts for the dtypes it refuses.

use super::any::{AnyTensor, any_tensor, same_variant};
use crate::backend::Normalizing;
use crate::dtype::DType;
use crate::error::Error;
use crate::storage::Repr;

impl<D: Normalizing, R: Repr> AnyTensor<D, R> {
    /// PyTorch's `var(x, dims, correction=, keepdim=)` (see
    /// [`crate::ops::moments`]): a complex tensor's variance is real.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = AnyTensor::from(DynTensor::<f64>::from_vec(vec![1.0, 3.0], &[2]).unwrap());
    /// assert_eq!(x.var(&[], 1, false).unwrap().downcast::<f64>().unwrap().to_vec(), [2.0]);
    /// let n = AnyTensor::from(DynTensor::<i32>::zeros(&[2]));
    /// assert_eq!(
    ///     n.var(&[0], 1, false).unwrap_err().to_string(),
    ///     "std and var only support floating point and complex dtypes"
    /// );
    /// ```
    pub fn var(
        &self,
        dims: &[isize],
        correction: impl Into<f64>,
        keepdim: bool,
    ) -> Result<AnyTensor<D>, Error> {
        let c = correction.into();
        Ok(any_tensor!(@each self, x => x.var(dims, c, keepdim)?.into()))
    }

    /// PyTorch's `std(x, dims, correction=, keepdim=)`.
    pub fn std(
        &self,
        dims: &[isize],
        correction: impl Into<f64>,
        keepdim: bool,
    ) -> Result<AnyTensor<D>, Error> {
        let c = correction.into();
        Ok(any_tensor!(@each self, x => x.std(dims, c, keepdim)?.into()))
    }

    /// PyTorch's `var_mean`: the variance (real) and the mean.
    pub fn var_mean(
        &self,
        dims: &[isize],
        correction: impl Into<f64>,
        keepdim: bool,
    ) -> Result<(AnyTensor<D>, AnyTensor<D>), Error> {
        let c = correction.into();
        Ok(any_tensor!(@each self, x => {
            let (var, mean) = x.var_mean(dims, c, keepdim)?;
            (var.into(), mean.into())
        }))
    }

    /// PyTorch's `std_mean`: the standard deviation (real) and the mean.
    pub fn std_mean(
        &self,
        dims: &[isize],
        correction: impl Into<f64>,
        keepdim: bool,
    ) -> Result<(AnyTensor<D>, AnyTensor<D>), Error> {
        let c = correction.into();
        Ok(any_tensor!(@each self, x => {
            let (std, mean) = x.std_mean(dims, c, keepdim)?;
            (std.into(), mean.into())
        }))
    }
}

/// Norms and the NaN-aware and counting reductions on runtime dtypes (see
/// [`crate::ops::norms`]).
impl<D: Normalizing, R: Repr> AnyTensor<D, R> {
    /// PyTorch's `linalg.vector_norm(x, ord, dims, keepdim)`.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = AnyTensor::from(DynTensor::<f32>::from_vec(vec![3.0, 4.0], &[2]).unwrap());
    /// assert_eq!(x.vector_norm(2.0, &[], false).unwrap().downcast::<f32>().unwrap().to_vec(), [5.0]);
    /// ```
    pub fn vector_norm(
        &self,
        ord: f64,
        dims: &[isize],
        keepdim: bool,
    ) -> Result<AnyTensor<D>, Error> {
        Ok(any_tensor!(@each self, x => x.vector_norm(ord, dims, keepdim)?.into()))
    }

    /// PyTorch's `linalg.vector_norm(x, ord, dims, keepdim, dtype=dtype)`:
    /// the input converted to `dtype` first, which must be floating (or
    /// complex, for a complex input) and take the input's values without
    /// narrowing; a complex `dtype` gives its real type.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = AnyTensor::from(DynTensor::<f32>::from_vec(vec![3.0, 4.0], &[2]).unwrap());
    /// let n = x.vector_norm_in(2.0, &[], false, DType::F64).unwrap();
    /// assert_eq!(n.downcast::<f64>().unwrap().to_vec(), [5.0]);
    /// assert_eq!(
    ///     x.vector_norm_in(2.0, &[], false, DType::F16).unwrap_err().to_string(),
    ///     "linalg.vector_norm: the dtype of the input (Float) should be convertible without narrowing to the specified dtype (Half)"
    /// );
    /// ```
    pub fn vector_norm_in(
        &self,
        ord: f64,
        dims: &[isize],
        keepdim: bool,
        dtype: DType,
    ) -> Result<AnyTensor<D>, Error> {
        let input = self.dtype();
        if !(input.is_floating_point() || input.is_complex()) {
            return Err(Error::NormDType { dtype: input });
        }
        let refused = !(dtype.is_floating_point() || dtype.is_complex())
            || input.is_complex() != dtype.is_complex()
            || DType::promote(input, dtype) != dtype;
        if refused {
            return Err(Error::NormDTypeArgument { input, dtype });
        }
        self.try_to_dtype(dtype)?.vector_norm(ord, dims, keepdim)
    }

    /// PyTorch's `dist(x, other, p)`: the operands promoted to their common
    /// dtype (as `x - other` would be), broadcast, then the `p`-norm of the
    /// difference.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = AnyTensor::from(DynTensor::<f32>::from_vec(vec![1.0, 1.0], &[2]).unwrap());
    /// let y = AnyTensor::from(DynTensor::<i64>::from_vec(vec![4, 5], &[2]).unwrap());
    /// assert_eq!(x.dist(&y, 2.0).unwrap().downcast::<f32>().unwrap().to_vec(), [5.0]);
    /// ```
    pub fn dist<R2: Repr>(&self, other: &AnyTensor<D, R2>, p: f64) -> Result<AnyTensor<D>, Error> {
        let common = DType::promote(self.dtype(), other.dtype());
        let (a, b) = (self.as_dtype(common)?, other.as_dtype(common)?);
        Ok(same_variant!(&a.view(), &b.view(), |x, y| x.dist(y, p);
            F16, BF16, F32, F64, C64, C128, U8, I8, I16, I32, I64, Bool))
    }

    /// PyTorch's `norm(x, p)` of the whole tensor.
    pub fn norm(&self, p: f64) -> Result<AnyTensor<D>, Error> {
        Ok(any_tensor!(@each self, x => x.norm(p)?.into()))
    }

    /// PyTorch's `nansum(x, dims, keepdim)`.
    pub fn nansum(&self, dims: &[isize], keepdim: bool) -> Result<AnyTensor<D>, Error> {
        Ok(any_tensor!(@each self, x => x.nansum(dims, keepdim)?.into()))
    }

    /// PyTorch's `nanmean(x, dims, keepdim)`.
    pub fn nanmean(&self, dims: &[isize], keepdim: bool) -> Result<AnyTensor<D>, Error> {
        Ok(any_tensor!(@each self, x => x.nanmean(dims, keepdim)?.into()))
    }

    /// PyTorch's `count_nonzero(x, dims)`: int64 counts.
    pub fn count_nonzero(&self, dims: &[isize]) -> Result<AnyTensor<D>, Error> {
        Ok(any_tensor!(@each self, x => x.count_nonzero(dims)?.into()))
    }

    /// PyTorch's `aminmax(x, dim=, keepdim=)`: the smallest and largest
    /// elements.
    pub fn aminmax(
        &self,
        dim: Option<isize>,
        keepdim: bool,
    ) -> Result<(AnyTensor<D>, AnyTensor<D>), Error> {
        Ok(any_tensor!(@each self, x => {
            let (lo, hi) = x.aminmax(dim, keepdim)?;
            (lo.into(), hi.into())
        }))
    }
}
