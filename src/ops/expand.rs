//! `expand`, `expand_as`, `broadcast_to`: zero-copy views with stride 0
//! along stretched dimensions. They are read-only ([`TensorView`]): several
//! indices share one element, so writing through them is a compile error
//! (`ui-tests/fail/write_expanded_view.rs`). `to_owned()` makes a writable copy.
//!
//! ```
//! use shaped::prelude::*;
//! let b = Tensor::<i64, shape![3]>::arange();
//! let e = b.expand::<shape![3, 3]>();
//! assert_eq!(e.strides(), [0, 1]);
//! assert!(e.shares_storage_with(&b));
//! assert_eq!(e.to_vec(), vec![0, 1, 2, 0, 1, 2, 0, 1, 2]);
//! ```

use crate::dtype::Element;
use crate::layout::array_from;
use crate::shape::{check_expand, ExpandTo, FixedShape, Shape};
use crate::storage::{self, Backend, Repr};
use crate::tensor::{Tensor, TensorView};

impl<T: Element, S: Shape, D: Backend, R: Repr> Tensor<T, S, D, R> {
    /// A view of this tensor stretched to the static shape `S2` (PyTorch's
    /// `expand`): size-1 dimensions repeat, new leading dimensions appear.
    /// Shapes that do not fit are a compile error; with `Dyn` sizes in `S`
    /// the check runs here and panics with PyTorch's message.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let col = Tensor::<f32, shape![3, 1]>::ones();
    /// let e = col.expand::<shape![2, 3, 4]>();
    /// assert_eq!(e.shape(), [2, 3, 4]);
    /// assert_eq!(e.strides(), [0, 1, 0]);
    /// ```
    pub fn expand<S2: FixedShape>(&self) -> TensorView<'_, T, S2, D>
    where
        S: ExpandTo<S2>,
    {
        self.expand_to_sizes(S2::SIZES)
    }

    /// The same as [`expand`](Self::expand) (PyTorch's `broadcast_to`).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = tensor![1, 2, 3];
    /// assert_eq!(x.broadcast_to::<shape![2, 3]>().to_vec(), vec![1, 2, 3, 1, 2, 3]);
    /// ```
    pub fn broadcast_to<S2: FixedShape>(&self) -> TensorView<'_, T, S2, D>
    where
        S: ExpandTo<S2>,
    {
        self.expand_to_sizes(S2::SIZES)
    }

    /// A view of this tensor expanded to `other`'s shape.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let a = Tensor::<i64, shape![3, 3]>::zeros();
    /// let b = Tensor::<i64, shape![3]>::arange();
    /// assert_eq!(b.expand_as(&a).to_vec(), vec![0, 1, 2, 0, 1, 2, 0, 1, 2]);
    /// ```
    pub fn expand_as<T2: Element, S2: Shape, R2: Repr>(
        &self,
        other: &Tensor<T2, S2, D, R2>,
    ) -> TensorView<'_, T, S2, D>
    where
        S: ExpandTo<S2>,
    {
        self.expand_to_sizes(other.shape())
    }

    fn expand_to_sizes<S2: Shape>(&self, sizes: S2::Sizes) -> TensorView<'_, T, S2, D> {
        check_expand(self.layout.sizes(), sizes.as_ref(), T::DTYPE)
            .unwrap_or_else(|e| panic!("{e}"));
        let layout = self
            .layout
            .expand_to::<S2>(array_from::<S2>(sizes.as_ref()));
        Tensor {
            data: storage::borrow(&self.data),
            layout,
        }
    }
}
