//! `t()`: the transpose of a tensor of rank 2 or less.

use crate::backend::Backend;
use crate::dtype::Element;
use crate::layout::StridedLayout;
use crate::shape::Dim;
use crate::storage::Repr;
use crate::tensor::Tensor;
use crate::view::ViewOf;

impl<T: Element, A: Dim, B: Dim, D: Backend, R: Repr> Tensor<T, (A, B), D, R> {
    /// The transpose: a view with sizes and strides swapped (PyTorch's
    /// `t()`). Shares storage; usually not contiguous.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = tensor![[1, 2, 3, 4, 5], [6, 7, 8, 9, 10]];
    /// let xt = x.t(); // Tensor view of shape![5, 2]
    /// assert_eq!(xt.strides(), [1, 5]);
    /// assert!(!xt.is_contiguous());
    /// assert_eq!(xt[[4, 1]], 10);
    /// ```
    pub fn t(&self) -> ViewOf<'_, T, (B, A), D, R> {
        let [rows, cols] = *self.layout.size_array();
        let [row_stride, col_stride] = *self.layout.stride_array();
        let layout =
            StridedLayout::from_parts([cols, rows], [col_stride, row_stride], self.layout.offset());
        // A swap of a tensor's two sizes and strides keeps the tensor
        // invariant checked when its layout was attached (the same element
        // count, indices and span), so this one view skips the check: it
        // costs the 2 ns view several times over.
        Tensor {
            data: R::viewed(&self.data),
            layout,
        }
    }
}

impl<T: Element, A: Dim, D: Backend, R: Repr> Tensor<T, (A,), D, R> {
    /// A rank-1 tensor is its own transpose (PyTorch's `t()`).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let v = tensor![1, 2, 3];
    /// assert_eq!(v.t().to_vec(), vec![1, 2, 3]);
    /// ```
    pub fn t(&self) -> ViewOf<'_, T, (A,), D, R> {
        self.as_view()
    }
}

impl<T: Element, D: Backend, R: Repr> Tensor<T, (), D, R> {
    /// A rank-0 tensor is its own transpose (PyTorch's `t()`).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let s = Tensor::<f32, shape![]>::full(2.0);
    /// assert_eq!(s.t().to_vec(), vec![2.0]);
    /// ```
    pub fn t(&self) -> ViewOf<'_, T, (), D, R> {
        self.as_view()
    }
}
