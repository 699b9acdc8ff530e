//! `cast::<U>()`: a copy in another element type, with PyTorch's conversion
//! rules ([`crate::dtype::cast`]).

use super::functions::Cast;
use super::unary;
use crate::backend::Elementwise;
use crate::backend::StridedRef;
use crate::dtype::Element;
use crate::error::Error;
use crate::error::OrPanic;
use crate::shape::Shape;
use crate::storage::Repr;
use crate::tensor::{Tensor, from_parts};

impl<T: Element, S: Shape, D: Elementwise, R: Repr> Tensor<T, S, D, R> {
    /// A contiguous copy with elements converted to `U` (PyTorch's
    /// `x.to(dtype)`, which converts floats to integers by truncation toward
    /// zero, to bool by `!= 0`, and complex to real by the real part).
    /// Panics only when the copy cannot be allocated; see
    /// [`try_cast`](Self::try_cast).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = tensor![-1.5f32, 0.0, 2.7];
    /// assert_eq!(x.cast::<i32>().to_vec(), vec![-1, 0, 2]);
    /// assert_eq!(x.cast::<bool>().to_vec(), vec![true, false, true]);
    /// assert_eq!(x.cast::<u8>().to_vec(), vec![255, 0, 2]);
    /// ```
    pub fn cast<U: Element>(&self) -> Tensor<U, S, D> {
        self.try_cast().or_panic()
    }

    /// [`cast`](Self::cast), or `Err` when the copy cannot be allocated.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = Tensor::<i64, shape![2, 2]>::from_vec(vec![0, 1, 2, 3]).unwrap();
    /// assert_eq!(x.try_cast::<f32>().unwrap().to_vec(), vec![0.0, 1.0, 2.0, 3.0]);
    /// ```
    pub fn try_cast<U: Element>(&self) -> Result<Tensor<U, S, D>, Error> {
        let parts = unary(StridedRef::new(&self.data, &self.layout), Cast::<U>::new())?;
        Ok(from_parts!(parts))
    }
}
