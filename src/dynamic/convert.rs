//! Conversions between static, mixed and dynamic shapes: free (no element
//! moves), checked against the runtime sizes, never by element count.

use super::{DynShape, DynSizes};
use crate::backend::Backend;
use crate::dtype::Element;
use crate::error::Error;
use crate::layout::{StridedLayout, array_from};
use crate::shape::Shape;
use crate::storage::Repr;
use crate::tensor::Tensor;

impl<T: Element, S: Shape, D: Backend, R: Repr> Tensor<T, S, D, R> {
    /// The same tensor with a dynamic-rank shape. No element moves.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let s = Tensor::<f32, shape![4, 3]>::ones();
    /// let d: DynTensor<f32> = s.into_dyn();
    /// assert_eq!(d.shape(), [4, 3]);
    /// ```
    pub fn into_dyn(self) -> Tensor<T, DynShape, D, R> {
        let layout = StridedLayout::from_parts(
            DynSizes::from_slice(self.layout.sizes()),
            DynSizes::from_slice(self.layout.strides()),
            self.layout.offset(),
        );
        Tensor {
            data: self.data,
            layout,
        }
    }

    /// The same tensor with shape `S2` (static, mixed or dynamic), after
    /// checking that the rank and every static size of `S2` agree with the
    /// tensor's sizes. No element moves; `Err` on a mismatch (a `(2, 3)`
    /// tensor is never read as `(3, 2)`).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let d = DynTensor::<f32>::zeros(&[4, 3]);
    /// let s: Tensor<f32, shape![4, 3]> = d.into_static().unwrap();
    /// let err = s.into_static::<shape![3, 4]>().unwrap_err();
    /// assert_eq!(err.to_string(), "size 4 at dimension 0 contradicts the static size 3");
    /// ```
    pub fn into_static<S2: Shape>(self) -> Result<Tensor<T, S2, D, R>, Error> {
        let sizes = S2::check_sizes(self.layout.sizes())?;
        let strides = array_from::<S2::Sizes>(self.layout.strides());
        let layout = StridedLayout::from_parts(sizes, strides, self.layout.offset());
        Ok(Tensor {
            data: self.data,
            layout,
        })
    }
}
