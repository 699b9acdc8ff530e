//! Views: tensors that reinterpret another tensor's storage, as
//! PyTorch's views. Each is a pure layout transform from
//! [`layout::views`](crate::layout::views) plus a borrow of the storage; no
//! element moves.
//!
//! - [`dynamic`]: view operations with runtime arguments on
//!   [`DynTensor`](crate::DynTensor) (`view`, `transpose`, `narrow`, the
//!   splits, ...), PyTorch's names and errors.
//! - [`copy`]: `contiguous()`, `clone()`, `detach()` and memory formats.
//! - [`t`](crate::Tensor::t) on static shapes: the transpose of a matrix.

pub mod axis_iter;
pub mod complex;
pub mod copy;
mod direct;
pub mod dynamic;
mod split;
mod transpose;
mod typed;
mod typed_mut;

pub use crate::layout::MemoryFormat;
pub use split::{Pieces, PiecesOf};

use crate::backend::Backend;
use crate::dtype::Element;
use crate::error::Error;
use crate::layout::views::{SignedDims, Strided};
use crate::layout::{StridedLayout, array_from};
use crate::shape::{Shape, SizeArray};
use crate::storage::{CowData, CowView, Repr, Storage};
use crate::tensor::{Tensor, TensorViewMut};

/// Either a read-only view or an owned copy: what `reshape`, `flatten` and
/// `contiguous()` give (the same storage when the layout allows).
///
/// ```
/// use shaped::prelude::*;
/// let x = Tensor::<f32, shape![2, 3]>::zeros();
/// let c: TensorCow<'_, f32, shape![2, 3]> = x.contiguous();
/// assert!(c.shares_storage_with(&x));
/// ```
pub type TensorCow<'a, T, S, D = crate::backend::Cpu> = Tensor<T, S, D, CowView<'a>>;

/// A read-only view of a tensor of storage kind `R` borrowed for `'s`: a
/// [`TensorView<'s, ..>`](crate::TensorView) of an owned tensor, and of a view
/// `TensorView<'a, ..>` a view with the same `'a` (so views of views chain).
pub type ViewOf<'s, T, S, D, R> = Tensor<T, S, D, <R as Repr>::Viewed<'s>>;

/// The copy-on-write counterpart of [`ViewOf`] (`reshape`, `contiguous`).
pub type CowOf<'s, T, S, D, R> = Tensor<T, S, D, <R as Repr>::CowViewed<'s>>;

impl<T: Element, S: Shape, D: Backend, R: Repr> Tensor<T, S, D, R> {
    /// The layout as plain runtime values, for the view engine.
    #[inline]
    pub(crate) fn strided_layout(&self) -> Strided {
        Strided::new(
            self.layout.sizes(),
            self.layout.strides(),
            self.layout.offset(),
        )
    }

    /// Checks the layout `l` of a view of this tensor's storage (the tensor
    /// invariant, [`Strided::check`]): every layout a tensor is given passes
    /// here, whatever transform made it.
    #[inline]
    pub(crate) fn check_view(&self, l: &Strided, writable: bool) -> Result<(), Error> {
        l.check(Storage::len(&self.data), size_of::<T>(), writable)
    }

    /// A read-only view with the layout `l` over the same storage, or the
    /// error that keeps it from being one (see [`check_view`](Self::check_view)).
    #[inline]
    pub(crate) fn reinterpret<S2: Shape>(
        &self,
        l: Strided,
    ) -> Result<ViewOf<'_, T, S2, D, R>, Error> {
        self.check_view(&l, false)?;
        Ok(Tensor {
            data: R::viewed(&self.data),
            layout: layout_of::<S2::Sizes>(&l),
        })
    }

    /// A copy-on-write tensor that borrows this one's storage with layout
    /// `l`, checked as [`reinterpret`](Self::reinterpret).
    pub(crate) fn cow_view<S2: Shape>(&self, l: Strided) -> Result<CowOf<'_, T, S2, D, R>, Error> {
        self.check_view(&l, false)?;
        Ok(Tensor {
            data: R::cow_viewed(&self.data),
            layout: layout_of::<S2::Sizes>(&l),
        })
    }
}

impl<T: Element, S: Shape, D: Backend, R: crate::storage::Writable> Tensor<T, S, D, R> {
    /// A writable view with the layout `l` over the same storage, borrowing
    /// this tensor exclusively, or the error that keeps it from being one:
    /// besides [`reinterpret`](Tensor::reinterpret)'s checks, no two of its
    /// indices may share an element.
    pub(crate) fn reinterpret_mut<S2: Shape>(
        &mut self,
        l: Strided,
    ) -> Result<TensorViewMut<'_, T, S2, D>, Error> {
        self.check_view(&l, true)?;
        Ok(Tensor {
            data: crate::storage::borrow_mut::<T, D, R>(&mut self.data),
            layout: layout_of::<S2::Sizes>(&l),
        })
    }
}

impl<'a, T: Element, S: Shape, D: Backend> Tensor<T, S, D, CowView<'a>> {
    /// True when this shares the storage of the tensor it came from.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = Tensor::<f32, shape![2, 3]>::zeros();
    /// assert!(x.contiguous().is_borrowed());
    /// assert!(!x.t().contiguous().is_borrowed());
    /// ```
    pub fn is_borrowed(&self) -> bool {
        matches!(self.data, CowData::Borrowed(_))
    }
}

/// A static dimension, count, size or start as the engine's signed argument.
/// A value past `isize::MAX` (past every dimension) saturates, and the
/// engine reports it out of range.
pub(crate) const fn signed(n: usize) -> isize {
    if n > isize::MAX as usize {
        isize::MAX
    } else {
        n as isize
    }
}

/// Static dims or sizes as the engine's signed arguments, inline (no heap).
pub(crate) fn signed_dims(dims: &[usize]) -> SignedDims {
    dims.iter().map(|&d| signed(d)).collect()
}

/// `l` as a layout whose arrays are `A` (of `l`'s rank).
#[inline]
pub(crate) fn layout_of<A: SizeArray>(l: &Strided) -> StridedLayout<A> {
    StridedLayout::from_parts(
        array_from::<A>(l.sizes()),
        array_from::<A>(l.strides()),
        l.offset(),
    )
}
