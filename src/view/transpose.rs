//! `t()`: the transpose of a tensor of rank 2 or less.

use crate::dtype::Element;
use crate::error::OrPanic;
use crate::layout::{StridedLayout, check_layout};
use crate::shape::Dim;
use crate::storage::{Backend, Repr, Storage};
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
        // A permutation of a tensor's layout keeps the tensor invariant; it
        // is checked all the same, as every view's (two dimensions: cheap).
        check_layout(
            layout.sizes(),
            layout.strides(),
            layout.offset(),
            Storage::len(&self.data),
            size_of::<T>(),
            false,
        )
        .or_panic();
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
