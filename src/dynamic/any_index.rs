//! Indexing by tensors on [`AnyTensor`]: the index's dtype is known only at
//! run time, so each operation checks it where PyTorch does (after the
//! checks that come first there) and gives PyTorch's text.

use super::DynShape;
use super::any::{AnyTensor, any_tensor};
use crate::backend::Indexing;
use crate::dtype::DType;
use crate::error::{Error, IndexOp};
use crate::layout::views::wrap_dim;
use crate::storage::Repr;
use crate::tensor::Tensor;

/// An index tensor by its dtype: the two PyTorch takes for indices, or the
/// dtype of another.
pub(super) enum IndexOf<'a, D: Indexing, R: Repr> {
    Long(&'a Tensor<i64, DynShape, D, R>),
    Int(&'a Tensor<i32, DynShape, D, R>),
    Other(DType),
}

pub(super) fn index_of<D: Indexing, R: Repr>(index: &AnyTensor<D, R>) -> IndexOf<'_, D, R> {
    match index {
        AnyTensor::I64(i) => IndexOf::Long(i),
        AnyTensor::I32(i) => IndexOf::Int(i),
        other => IndexOf::Other(other.dtype()),
    }
}

/// Runs `$body` with `$i` the typed index, for int64 and int32 indices;
/// another dtype gives `op`'s error.
macro_rules! with_index {
    ($index:expr, $op:expr, |$i:ident| $body:expr) => {
        match index_of($index) {
            IndexOf::Long($i) => $body,
            IndexOf::Int($i) => $body,
            IndexOf::Other(dtype) => Err(Error::IndexDType { op: $op, dtype }),
        }
    };
}

impl<D: Indexing, R: Repr> AnyTensor<D, R> {
    /// `index_select(dim, index)`: an int64 or int32 index of rank 0 or 1;
    /// PyTorch's errors, in its order (the dim, the index's rank, then its
    /// dtype).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = AnyTensor::from(DynTensor::<f32>::from_vec(vec![1.0, 2.0, 3.0], &[3]).unwrap());
    /// let idx = AnyTensor::from(DynTensor::<i32>::from_vec(vec![2, 0], &[2]).unwrap());
    /// assert_eq!(x.index_select(0, &idx).unwrap().downcast::<f32>().unwrap().to_vec(), [3.0, 1.0]);
    /// let float = AnyTensor::from(DynTensor::<f32>::zeros(&[1]));
    /// assert_eq!(
    ///     x.index_select(0, &float).unwrap_err().to_string(),
    ///     "index_select(): Expected dtype int32 or int64 for index"
    /// );
    /// ```
    pub fn index_select<RI: Repr>(
        &self,
        dim: isize,
        index: &AnyTensor<D, RI>,
    ) -> Result<AnyTensor<D>, Error> {
        wrap_dim(dim, self.rank())?;
        if index.rank() > 1 {
            return Err(Error::IndexSelectRank);
        }
        if self.rank() == 0 && index.numel() != 1 {
            return Err(Error::IndexToScalar {
                count: index.numel(),
            });
        }
        with_index!(index, IndexOp::IndexSelect, |i| {
            Ok(any_tensor!(@each self, x => AnyTensor::from(x.index_select(dim, i)?)))
        })
    }

    /// `gather(dim, index)`: an int64 or int32 index of the same rank;
    /// PyTorch's errors, in its order (the dim, the index's dtype, its
    /// rank and sizes, then its values).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = AnyTensor::from(DynTensor::<i64>::from_vec(vec![1, 2, 3, 4], &[2, 2]).unwrap());
    /// let idx = AnyTensor::from(DynTensor::<i64>::from_vec(vec![1, 1], &[2, 1]).unwrap());
    /// assert_eq!(x.gather(1, &idx).unwrap().downcast::<i64>().unwrap().to_vec(), [2, 4]);
    /// ```
    pub fn gather<RI: Repr>(
        &self,
        dim: isize,
        index: &AnyTensor<D, RI>,
    ) -> Result<AnyTensor<D>, Error> {
        wrap_dim(dim, self.rank())?;
        with_index!(index, IndexOp::Gather, |i| {
            Ok(any_tensor!(@each self, x => AnyTensor::from(x.gather(dim, i)?)))
        })
    }

    /// `take(index)`: an int64 index into the flattened tensor (negative
    /// counts from the end); PyTorch's errors.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = AnyTensor::from(DynTensor::<bool>::from_vec(vec![true, false], &[2]).unwrap());
    /// let idx = AnyTensor::from(DynTensor::<i32>::zeros(&[1]));
    /// assert_eq!(
    ///     x.take(&idx).unwrap_err().to_string(),
    ///     "take(): Expected a long tensor for index, but got Int"
    /// );
    /// ```
    pub fn take<RI: Repr>(&self, index: &AnyTensor<D, RI>) -> Result<AnyTensor<D>, Error> {
        match index_of(index) {
            IndexOf::Long(i) => Ok(any_tensor!(@each self, x => AnyTensor::from(x.take(i)?))),
            IndexOf::Int(_) => Err(Error::IndexDType {
                op: IndexOp::Take,
                dtype: DType::I32,
            }),
            IndexOf::Other(dtype) => Err(Error::IndexDType {
                op: IndexOp::Take,
                dtype,
            }),
        }
    }

    /// `take_along_dim(index, dim)`: along `Some(dim)`, an int64 index of
    /// the same rank, broadcast with the input, every index taken modulo the
    /// dimension's size; with `None`, both flattened (views) and gathered.
    /// PyTorch's errors, in its order.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = AnyTensor::from(DynTensor::<f64>::from_vec(vec![1.0, 2.0, 3.0, 4.0], &[2, 2]).unwrap());
    /// let idx = AnyTensor::from(DynTensor::<i64>::from_vec(vec![1, 0], &[1, 2]).unwrap());
    /// let y = x.take_along_dim(&idx, Some(0)).unwrap();
    /// assert_eq!(y.downcast::<f64>().unwrap().to_vec(), [3.0, 2.0]);
    /// ```
    pub fn take_along_dim<RI: Repr>(
        &self,
        index: &AnyTensor<D, RI>,
        dim: Option<isize>,
    ) -> Result<AnyTensor<D>, Error> {
        let op = match dim {
            Some(_) => {
                if index.rank() != self.rank() {
                    return Err(Error::TakeAlongRank {
                        input: self.rank(),
                        index: index.rank(),
                    });
                }
                IndexOp::TakeAlongDim
            }
            None => {
                // PyTorch views both flat first, then gathers.
                any_tensor!(@each self, x => { x.view(&[-1])?; });
                any_tensor!(@each index, x => { x.view(&[-1])?; });
                wrap_dim(0, 1)?;
                IndexOp::Gather
            }
        };
        with_index!(index, op, |i| {
            Ok(any_tensor!(@each self, x => AnyTensor::from(x.take_along_dim(i, dim)?)))
        })
    }
}
