//! `sort`, `argsort` and `msort` on [`AnyTensor`]: every dtype but complex
//! (PyTorch's text for those).

use super::any::{AnyTensor, any_tensor};
use crate::backend::Sorting;
use crate::error::Error;

impl<D: Sorting> AnyTensor<D> {
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
