//! `softmax` and `log_softmax` on [`AnyTensor`]: the dtype to compute in
//! chosen at run time (PyTorch's `dtype=`), PyTorch's texts where it
//! refuses one.

use super::DynTensor;
use super::any::{AnyTensor, any_tensor};
use crate::backend::Normalizing;
use crate::dtype::DType;
use crate::error::Error;
use crate::layout::views::wrap_dim;
use crate::ops::normalize::{SoftmaxInput, kernel_name, softmax_parts};
use crate::shape::dynamic::DynSizes;
use crate::tensor::from_parts;

/// Runtime dtypes: PyTorch's `softmax(x, dim, dtype)`.
impl<D: Normalizing, R: crate::storage::Repr> AnyTensor<D, R> {
    /// Softmax along `dim`, computed in `dtype` (the input converted to it
    /// first) or, with `None`, in the input's own dtype; PyTorch's error
    /// for a dtype that is not floating.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// use shaped::DType;
    /// let x = AnyTensor::from(DynTensor::<i32>::from_vec(vec![3, 3], &[2]).unwrap());
    /// let y = x.softmax(0, Some(DType::F32)).unwrap();
    /// assert_eq!(y.downcast::<f32>().unwrap().to_vec(), [0.5, 0.5]);
    /// assert_eq!(
    ///     x.softmax(0, None).unwrap_err().to_string(),
    ///     "\"softmax_lastdim_kernel_impl\" not implemented for 'Int'"
    /// );
    /// ```
    pub fn softmax(&self, dim: isize, dtype: Option<DType>) -> Result<AnyTensor<D>, Error> {
        self.softmax_any(dim, dtype, false)
    }

    /// Log-softmax along `dim`, computed in `dtype` as [`softmax`](Self::softmax).
    pub fn log_softmax(&self, dim: isize, dtype: Option<DType>) -> Result<AnyTensor<D>, Error> {
        self.softmax_any(dim, dtype, true)
    }

    fn softmax_any(
        &self,
        dim: isize,
        dtype: Option<DType>,
        log: bool,
    ) -> Result<AnyTensor<D>, Error> {
        let rank = self.shape().len();
        let d = wrap_dim(dim, rank)?;
        let Some(target) = dtype else {
            return Ok(any_tensor!(@each self, x => {
                let y: DynTensor<_, D> = from_parts!(SoftmaxInput::softmax_on(x.strided(), d, log)?);
                AnyTensor::from(y)
            }));
        };
        macro_rules! into {
            ($u:ty) => {
                any_tensor!(@each self, x => {
                    let y: DynTensor<$u, D> = from_parts!(softmax_parts::<_, $u, DynSizes, D>(x.strided(), d, log)?);
                    AnyTensor::from(y)
                })
            };
        }
        Ok(match target {
            DType::F16 => into!(half::f16),
            DType::BF16 => into!(half::bf16),
            DType::F32 => into!(f32),
            DType::F64 => into!(f64),
            other => {
                return Err(Error::NotImplementedFor {
                    op: kernel_name(d, rank, log),
                    dtype: other,
                });
            }
        })
    }
}

/// `logsumexp` on runtime dtypes.
impl<D: Normalizing, R: crate::storage::Repr> AnyTensor<D, R> {
    /// PyTorch's `logsumexp(x, dims, keepdim)` (see
    /// [`Tensor::logsumexp`](crate::Tensor::logsumexp)): floating and
    /// complex types keep theirs, integers and bool give float32.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = AnyTensor::from(DynTensor::<u8>::from_vec(vec![1, 1], &[1, 2]).unwrap());
    /// let y = x.logsumexp(&[1], true).unwrap();
    /// assert_eq!(y.dtype(), DType::F32);
    /// assert_eq!(y.shape(), [1, 1]);
    /// ```
    pub fn logsumexp(&self, dims: &[isize], keepdim: bool) -> Result<AnyTensor<D>, Error> {
        Ok(any_tensor!(@each self, x => x.logsumexp(dims, keepdim)?.into()))
    }
}
