//! `expand`, `expand_as`, `broadcast_to`: zero-copy views with stride 0
//! along stretched dimensions. They are read-only ([`TensorView`](crate::TensorView)): several
//! indices share one element, so writing through them is a compile error
//! (`ui-tests/fail/write_expanded_view_*.rs`). `to_owned()` makes a writable
//! copy.
//!
//! A static-rank tensor expands to a static shape given as a type
//! (`expand::<shape![4, 3]>()`, checked at compile time); a [`DynTensor`]
//! expands to runtime sizes (`expand(&[4, -1])`, checked at run time, `-1`
//! keeping a size as in PyTorch).
//!
//! ```
//! use shaped::prelude::*;
//! let b = Tensor::<i64, shape![3]>::arange();
//! let e = b.expand::<shape![3, 3]>();
//! assert_eq!(e.strides(), [0, 1]);
//! assert!(e.shares_storage_with(&b));
//! assert_eq!(e.to_vec(), vec![0, 1, 2, 0, 1, 2, 0, 1, 2]);
//! ```
//!
//! [`DynTensor`]: crate::DynTensor

use crate::backend::Backend;
use crate::dtype::Element;
use crate::dynamic::{DynShape, DynSizes};
use crate::error::Error;
use crate::error::OrPanic;
use crate::layout::{array_from, check_layout, checked_numel};
use crate::shape::list::TupleShape;
use crate::shape::{ExpandTo, FixedShape, Shape, check_expand, expands_to, resolve_expand};
use crate::storage::{Repr, Storage};
use crate::tensor::Tensor;
use crate::view::ViewOf;

impl<T: Element, S: Shape + TupleShape, D: Backend, R: Repr> Tensor<T, S, D, R> {
    /// A view of this tensor stretched to the static shape `S2` (PyTorch's
    /// `expand`): size-1 dimensions repeat, new leading dimensions appear.
    /// Shapes that do not fit are a compile error; with `Dyn` sizes in `S`
    /// the check runs here and panics with PyTorch's message
    /// ([`try_expand`](Self::try_expand) returns it).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let col = Tensor::<f32, shape![3, 1]>::ones();
    /// let e = col.expand::<shape![2, 3, 4]>();
    /// assert_eq!(e.shape(), [2, 3, 4]);
    /// assert_eq!(e.strides(), [0, 1, 0]);
    /// ```
    pub fn expand<S2: FixedShape>(&self) -> ViewOf<'_, T, S2, D, R>
    where
        S: ExpandTo<S2>,
    {
        // The view is made in place here, not moved out of a `Result`.
        if self.expands_directly(S2::SIZES.as_ref()) {
            return self.expanded_directly::<S2>(S2::SIZES);
        }
        self.try_expand().or_panic()
    }

    /// [`expand`](Self::expand), or `Err` with PyTorch's message when `Dyn`
    /// sizes do not fit.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let rows = Tensor::<f32, shape![Dyn, 3]>::zeros_with(&[2, 3]);
    /// assert!(rows.try_expand::<shape![4, 2, 3]>().is_ok());
    /// assert!(rows.try_expand::<shape![4, 3]>().is_err());
    /// ```
    pub fn try_expand<S2: FixedShape>(&self) -> Result<ViewOf<'_, T, S2, D, R>, Error>
    where
        S: ExpandTo<S2>,
    {
        self.check_expands_to(S2::SIZES.as_ref())?;
        self.expanded::<S2>(S2::SIZES)
    }

    /// The same as [`expand`](Self::expand) (PyTorch's `broadcast_to`).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = tensor![1, 2, 3];
    /// assert_eq!(x.broadcast_to::<shape![2, 3]>().to_vec(), vec![1, 2, 3, 1, 2, 3]);
    /// ```
    pub fn broadcast_to<S2: FixedShape>(&self) -> ViewOf<'_, T, S2, D, R>
    where
        S: ExpandTo<S2>,
    {
        self.expand()
    }
}

impl<T: Element, D: Backend, R: Repr> Tensor<T, DynShape, D, R> {
    /// A view stretched to runtime sizes (PyTorch's `expand`): `-1` keeps a
    /// size, size-1 dimensions repeat, new leading dimensions appear. `Err`
    /// with PyTorch's message when the sizes do not fit.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = DynTensor::<f32>::zeros(&[3, 1]);
    /// let e = x.expand(&[2, -1, 4]).unwrap();
    /// assert_eq!(e.shape(), [2, 3, 4]);
    /// assert_eq!(e.strides(), [0, 1, 0]);
    /// assert_eq!(
    ///     x.expand(&[3, 4, 2]).unwrap_err().to_string(),
    ///     "The expanded size of the tensor (4) must match the existing size (3) at non-singleton dimension 1.  Target sizes: [3, 4, 2].  Tensor sizes: [3, 1]"
    /// );
    /// ```
    pub fn expand(&self, sizes: &[isize]) -> Result<ViewOf<'_, T, DynShape, D, R>, Error> {
        let sizes = resolve_expand(self.layout.sizes(), sizes, T::DTYPE)?;
        self.expanded::<DynShape>(DynSizes::from_slice(&sizes))
    }

    /// The same as [`expand`](Self::expand) (PyTorch's `broadcast_to`).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = DynTensor::<i64>::arange(3);
    /// assert_eq!(x.broadcast_to(&[2, 3]).unwrap().to_vec(), vec![0, 1, 2, 0, 1, 2]);
    /// ```
    pub fn broadcast_to(&self, sizes: &[isize]) -> Result<ViewOf<'_, T, DynShape, D, R>, Error> {
        self.expand(sizes)
    }
}

impl<T: Element, S: Shape, D: Backend, R: Repr> Tensor<T, S, D, R> {
    /// A view of this tensor expanded to `other`'s shape. Panics with
    /// PyTorch's message when runtime sizes do not fit
    /// ([`try_expand_as`](Self::try_expand_as) returns it).
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
    ) -> ViewOf<'_, T, S2, D, R>
    where
        S: ExpandTo<S2>,
    {
        self.try_expand_as(other).or_panic()
    }

    /// [`expand_as`](Self::expand_as), or `Err` with PyTorch's message.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let a = DynTensor::<f32>::zeros(&[2, 4]);
    /// assert!(DynTensor::<f32>::zeros(&[3]).try_expand_as(&a).is_err());
    /// ```
    pub fn try_expand_as<T2: Element, S2: Shape, R2: Repr>(
        &self,
        other: &Tensor<T2, S2, D, R2>,
    ) -> Result<ViewOf<'_, T, S2, D, R>, Error>
    where
        S: ExpandTo<S2>,
    {
        self.check_expands_to(other.layout.sizes())?;
        self.expanded::<S2>(other.shape())
    }

    /// Whether this tensor expands to `target` with an element count that
    /// fits in `isize`: then [`expanded_directly`](Self::expanded_directly)
    /// makes the view, and no check or error text is needed.
    #[inline]
    fn expands_directly(&self, target: &[usize]) -> bool {
        expands_to(self.layout.sizes(), target) && checked_numel(target).is_ok()
    }

    /// `Ok` when this tensor expands to `target`, else PyTorch's error
    /// (built only then).
    #[inline]
    fn check_expands_to(&self, target: &[usize]) -> Result<(), Error> {
        if expands_to(self.layout.sizes(), target) {
            return Ok(());
        }
        check_expand(self.layout.sizes(), target, T::DTYPE)
    }

    /// The view for `sizes` that [`expands_directly`](Self::expands_directly)
    /// accepted: a stretched dimension has stride 0 and a new one size 1 or
    /// stride 0, the others are this tensor's, so the view names this
    /// tensor's elements, as many as `sizes` counts.
    #[inline]
    fn expanded_directly<S2: Shape>(&self, sizes: S2::Sizes) -> ViewOf<'_, T, S2, D, R> {
        let (sizes, strides, offset) = self.layout.expand_to(sizes).into_parts();
        self.sub_view(sizes, strides, offset)
    }

    /// The view for sizes already checked to broadcast, or the error of the
    /// layout check every view passes (an element count past `isize::MAX`).
    fn expanded<S2: Shape>(&self, sizes: S2::Sizes) -> Result<ViewOf<'_, T, S2, D, R>, Error> {
        if checked_numel(sizes.as_ref()).is_ok() {
            return Ok(self.expanded_directly::<S2>(sizes));
        }
        let layout = self
            .layout
            .expand_to(array_from::<S2::Sizes>(sizes.as_ref()));
        check_layout(
            layout.sizes(),
            layout.strides(),
            layout.offset(),
            Storage::len(&self.data),
            size_of::<T>(),
            false,
        )?;
        Ok(Tensor {
            data: R::viewed(&self.data),
            layout,
        })
    }
}
