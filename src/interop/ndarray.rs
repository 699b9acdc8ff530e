//! Tensors and [`ndarray`] arrays (the `ndarray` feature): views both ways
//! without copying, and owned conversions that move the buffer when they
//! can.
//!
//! | from | to | elements |
//! |---|---|---|
//! | `ArrayView<'a, T, D>` | [`TensorView<'a, T, S>`](Tensor::from_ndarray_view) | the same memory |
//! | `ArrayViewMut<'a, T, D>` | [`TensorViewMut<'a, T, S>`](Tensor::from_ndarray_view_mut) | the same memory |
//! | any tensor | [`ArrayViewD<'_, T>`](Tensor::as_ndarray), [`ArrayViewMutD`](Tensor::as_ndarray_mut) | the same memory |
//! | `Array<T, D>` | [`Tensor<T, S>`](Tensor::from_ndarray) | moved (copied only with negative strides) |
//! | `Tensor<T, S>` | [`ArrayD<T>`](Tensor::into_ndarray) | moved when the tensor owns all of its buffer |
//!
//! A tensor's strides are never negative (as in PyTorch), so an ndarray
//! view that steps backwards along an axis (`slice(s![..;-1])`,
//! `invert_axis`) is refused with PyTorch's words for NumPy arrays; any
//! other strides (steps, transposes, the stride 0 of broadcast views) are
//! kept as they are. A writable view must not reach one element by two
//! indices. Views carry their strides over unchanged, so the conversions
//! cost a few comparisons per dimension and allocate nothing up to
//! [`INLINE_RANK`](crate::dynamic::INLINE_RANK) dimensions. Tensors come
//! out as `IxDyn` arrays; ndarray's `into_dimensionality::<Ix2>()` fixes the
//! rank.
//!
//! ```
//! use ndarray::{array, s};
//! use shaped::prelude::*;
//! let a = array![[1.0f32, 2.0, 3.0], [4.0, 5.0, 6.0]];
//! let t = TensorView::<f32, shape![3, 2]>::from_ndarray_view(a.t()).unwrap();
//! assert_eq!(t.to_vec(), [1.0, 4.0, 2.0, 5.0, 3.0, 6.0]);
//! let back = t.as_ndarray();
//! assert_eq!(back.as_ptr(), a.as_ptr()); // no copy either way
//! let err = TensorView::<f32, DynShape>::try_from(a.slice(s![.., ..;-1])).unwrap_err();
//! assert!(err.to_string().starts_with("At least one stride in the given ndarray array is negative"));
//! ```

use crate::backend::Cpu;
use crate::backend::cpu::{CpuBuffer, CpuPtr, try_collect};
use crate::device::Device;
use crate::dtype::Element;
use crate::error::{Error, OrPanic};
use crate::layout::{
    Layout, StridedLayout, check_contiguous_strides, check_layout, checked_storage, storage_span,
};
use crate::shape::{Shape, SizeArray};
use crate::storage::{Borrowed, BorrowedMut, Repr, Storage, View, ViewMut, Writable};
use crate::tensor::{Tensor, TensorView, TensorViewMut};
use core::ptr::NonNull;
use ndarray::{
    Array, ArrayBase, ArrayD, ArrayView, ArrayViewD, ArrayViewMut, ArrayViewMutD, Dimension, Ix0,
    Ix1, Ix2, Ix3, Ix4, Ix5, Ix6, IxDyn, ShapeBuilder, StrideShape,
};

/// PyTorch's text for NumPy arrays with negative strides (`torch.from_numpy`),
/// with ndarray's ways around them.
const NEGATIVE_STRIDES: &str = "At least one stride in the given ndarray array is negative, and \
     tensors with negative strides are not currently supported. (You can probably work around \
     this by making a copy of your array with `Tensor::from_ndarray(array)`, which copies a \
     view, or viewing `array.as_standard_layout()`.)";

/// The layout over an ndarray's elements of its sizes `dims` and strides
/// (from its first element, which has the lowest address when no stride is
/// negative), checked as every tensor layout is, and the number of elements
/// from the first to one past the last. An empty array gets row-major
/// strides (nothing is addressed); a size-1 axis's stride, which never
/// moves, is kept unless it is negative (then 0).
fn layout_of<S: Shape>(
    dims: &[usize],
    strides: &[isize],
    itemsize: usize,
    writable: bool,
) -> Result<(Layout<S>, usize), Error> {
    let sizes = S::check_sizes(dims)?;
    if dims.contains(&0) {
        checked_storage(dims, itemsize)?;
        check_contiguous_strides(dims)?;
        return Ok((StridedLayout::contiguous(sizes), 0));
    }
    let mut steps = S::Sizes::filled(dims.len(), 0);
    for ((step, &n), &s) in steps.as_mut().iter_mut().zip(dims).zip(strides) {
        *step = match usize::try_from(s) {
            Ok(s) => s,
            Err(_) if n == 1 => 0,
            Err(_) => {
                return Err(Error::Unsupported {
                    message: NEGATIVE_STRIDES,
                });
            }
        };
    }
    // ndarray keeps every view within one allocation of at most
    // `isize::MAX` bytes, so the span fits; `check_layout` says so again
    // (and refuses overlapping writable layouts).
    let span = storage_span(dims, steps.as_ref(), 0).unwrap_or(usize::MAX);
    check_layout(dims, steps.as_ref(), 0, span, itemsize, writable)?;
    Ok((StridedLayout::from_parts(sizes, steps, 0), span))
}

/// The non-null address of an array's first element.
fn non_null<T>(ptr: *const T) -> NonNull<T> {
    NonNull::new(ptr.cast_mut()).expect("ndarray's pointers are never null")
}

impl<'a, T: Element, S: Shape> Tensor<T, S, Cpu, View<'a>> {
    /// A read-only view of an ndarray view's elements, without copying:
    /// the same memory, sizes and strides. `Err` when a stride is negative
    /// (see [the module](self)) or the sizes contradict `S`.
    ///
    /// ```
    /// use ndarray::{Array2, Axis};
    /// use shaped::prelude::*;
    /// let a = Array2::from_shape_fn((3, 4), |(i, j)| (10 * i + j) as i32);
    /// let cols = a.slice(ndarray::s![.., 1..;2]);
    /// let t = TensorView::<i32, DynShape>::from_ndarray_view(cols).unwrap();
    /// assert_eq!(t.shape(), [3, 2]);
    /// assert_eq!(t.strides(), [4, 2]);
    /// assert_eq!(t.to_vec(), [1, 3, 11, 13, 21, 23]);
    /// let row = a.row(0).insert_axis(Axis(0));
    /// let b = TensorView::<i32, shape![5, 4]>::from_ndarray_view(row.broadcast((5, 4)).unwrap()).unwrap();
    /// assert_eq!(b.strides(), [0, 1]);
    /// ```
    pub fn from_ndarray_view<D: Dimension>(view: ArrayView<'a, T, D>) -> Result<Self, Error> {
        let (layout, span) = layout_of::<S>(view.shape(), view.strides(), size_of::<T>(), false)?;
        let ptr = CpuPtr::from_non_null(non_null(view.as_ptr()));
        // SAFETY: `view` borrows its elements read-only for 'a, and the
        // checked layout addresses exactly its elements, from its first
        // (offset 0, no negative strides: the lowest address) within the
        // `span` elements up to its last, all in the one allocation ndarray
        // keeps a view in; the crate reads no element a layout does not
        // address.
        let data = unsafe { Borrowed::foreign(ptr, span, Device::Cpu) };
        Ok(Tensor { data, layout })
    }
}

impl<'a, T: Element, S: Shape> Tensor<T, S, Cpu, ViewMut<'a>> {
    /// A writable view of an ndarray mutable view's elements, without
    /// copying: writes land in the array. `Err` when a stride is negative,
    /// an element is reached by two indices, or the sizes contradict `S`.
    ///
    /// ```
    /// use ndarray::Array2;
    /// use shaped::prelude::*;
    /// let mut a = Array2::<f64>::zeros((2, 3));
    /// {
    ///     let mut t = TensorViewMut::<f64, shape![3, 2]>::from_ndarray_view_mut(a.view_mut().reversed_axes()).unwrap();
    ///     t[[2, 1]] = 7.0;
    ///     t.fill(1.5);
    /// }
    /// assert!(a.iter().all(|&v| v == 1.5));
    /// ```
    pub fn from_ndarray_view_mut<D: Dimension>(
        mut view: ArrayViewMut<'a, T, D>,
    ) -> Result<Self, Error> {
        let (layout, span) = layout_of::<S>(view.shape(), view.strides(), size_of::<T>(), true)?;
        let ptr = CpuPtr::from_non_null(non_null(view.as_mut_ptr()));
        // SAFETY: as in `from_ndarray_view`, with `view` borrowing its
        // elements exclusively for 'a (it is consumed here, so nothing else
        // reaches them), and the layout checked to put no two indices on one
        // element.
        let data = unsafe { BorrowedMut::foreign(ptr, span, Device::Cpu) };
        Ok(Tensor { data, layout })
    }
}

/// ndarray's sizes and strides (of its dimension type `D`) for a layout,
/// and the address of its first element in a buffer starting at `base`:
/// the strides are the layout's (a size-1 dimension's is 0 if it does not
/// fit `isize`; an empty layout's are all 0, as ndarray gives empty arrays,
/// over `base`). `Err` when `D` has another number of dimensions.
fn ndarray_shape<T, A: SizeArray, D: Dimension>(
    layout: &StridedLayout<A>,
    base: *mut T,
) -> Result<(StrideShape<D>, *mut T), Error> {
    let sizes = layout.sizes();
    if let Some(rank) = D::NDIM.filter(|&rank| rank != sizes.len()) {
        return Err(Error::RankMismatch {
            expected: rank,
            actual: sizes.len(),
        });
    }
    let mut dim = D::zeros(sizes.len());
    dim.slice_mut().copy_from_slice(sizes);
    let mut strides = D::zeros(sizes.len());
    if sizes.contains(&0) {
        return Ok((dim.strides(strides), base));
    }
    for (to, &s) in strides.slice_mut().iter_mut().zip(layout.strides()) {
        *to = if s <= isize::MAX as usize { s } else { 0 };
    }
    Ok((dim.strides(strides), base.wrapping_add(layout.offset())))
}

/// [`ndarray_shape`] with a dynamic number of dimensions, which any layout has.
fn ndarray_shape_dyn<T, A: SizeArray>(
    layout: &StridedLayout<A>,
    base: *mut T,
) -> (StrideShape<IxDyn>, *mut T) {
    ndarray_shape(layout, base).expect("IxDyn takes every rank")
}

/// An ndarray view of `D` of the elements of `layout` in a buffer from
/// `base`; `Err` when `D` has another number of dimensions.
///
/// # Safety
/// The tensor invariant for `layout` over the buffer (every index inside
/// it; non-negative strides; a non-empty layout's elements, and their
/// count, fitting in `isize` bytes, as `check_layout` ensures), which
/// stays alive and unwritten for `'a`.
unsafe fn raw_view<'a, T, A: SizeArray, D: Dimension>(
    layout: &StridedLayout<A>,
    base: *mut T,
) -> Result<ArrayView<'a, T, D>, Error> {
    let (shape, ptr) = ndarray_shape(layout, base)?;
    // SAFETY: the caller's contract: the strides are the layout's (those of
    // size-1 dimensions too, as `ndarray_shape` gives them), a non-empty
    // layout's first element is at `ptr`; an empty one addresses nothing,
    // from `base`, with strides 0.
    Ok(unsafe { ArrayView::from_shape_ptr(shape, ptr) })
}

/// [`raw_view`], writable.
///
/// # Safety
/// As [`raw_view`], with the buffer borrowed exclusively for `'a` and the
/// layout putting no two indices on one element (a writable tensor's).
unsafe fn raw_view_mut<'a, T, A: SizeArray, D: Dimension>(
    layout: &StridedLayout<A>,
    base: *mut T,
) -> Result<ArrayViewMut<'a, T, D>, Error> {
    let (shape, ptr) = ndarray_shape(layout, base)?;
    // SAFETY: as in `raw_view`, and no other access for 'a.
    Ok(unsafe { ArrayViewMut::from_shape_ptr(shape, ptr) })
}

/// `$view::<D>(layout, base)` through the fixed dimension type `D` of
/// the layout's rank, turned into `IxDyn`: ndarray does that faster than
/// it builds an `IxDyn` view from slices (41 ns against 54 for three
/// dimensions). Past six dimensions, `IxDyn` itself.
macro_rules! through_fixed_dim {
    ($view:ident, $layout:expr, $base:expr) => {{
        let (layout, base) = ($layout, $base);
        match layout.rank() {
            0 => $view::<_, _, Ix0>(layout, base).map(|v| v.into_dyn()),
            1 => $view::<_, _, Ix1>(layout, base).map(|v| v.into_dyn()),
            2 => $view::<_, _, Ix2>(layout, base).map(|v| v.into_dyn()),
            3 => $view::<_, _, Ix3>(layout, base).map(|v| v.into_dyn()),
            4 => $view::<_, _, Ix4>(layout, base).map(|v| v.into_dyn()),
            5 => $view::<_, _, Ix5>(layout, base).map(|v| v.into_dyn()),
            6 => $view::<_, _, Ix6>(layout, base).map(|v| v.into_dyn()),
            _ => $view::<_, _, IxDyn>(layout, base),
        }
        .expect("the dimension type of the layout's rank")
    }};
}

/// The ndarray view of a tensor view, for its lifetime.
fn read_view<'a, T: Element, S: Shape>(t: TensorView<'a, T, S>) -> ArrayViewD<'a, T> {
    // SAFETY: the tensor invariant for `t`'s layout, whose buffer `t`
    // borrows read-only for 'a, so that no one writes it.
    unsafe { through_fixed_dim!(raw_view, &t.layout, t.data.ptr().as_ptr()) }
}

/// The ndarray mutable view of a tensor mutable view, for its lifetime.
fn write_view<'a, T: Element, S: Shape>(mut t: TensorViewMut<'a, T, S>) -> ArrayViewMutD<'a, T> {
    let base = ViewMut::ptr_mut(&mut t.data).as_ptr();
    // SAFETY: the tensor invariant for `t`'s layout, writable (no two
    // indices on one element), whose buffer `t` borrows exclusively for 'a
    // (it is consumed here).
    unsafe { through_fixed_dim!(raw_view_mut, &t.layout, base) }
}

impl<T: Element, S: Shape, R: Repr> Tensor<T, S, Cpu, R> {
    /// The elements as an ndarray view, without copying: the same memory,
    /// sizes and strides, for any layout.
    ///
    /// ```
    /// use ndarray::Ix2;
    /// use shaped::prelude::*;
    /// let x = Tensor::<i64, shape![2, 3]>::from_vec((0..6).collect()).unwrap();
    /// let xt = x.t();
    /// let a = xt.as_ndarray().into_dimensionality::<Ix2>().unwrap();
    /// assert_eq!(a.shape(), &[3, 2]);
    /// assert_eq!(a.strides(), &[1, 3]);
    /// assert_eq!(a[[2, 1]], 5);
    /// assert_eq!(x.as_ndarray().as_ptr(), x.as_slice().unwrap().as_ptr());
    /// ```
    pub fn as_ndarray(&self) -> ArrayViewD<'_, T> {
        // SAFETY: the tensor invariant for its layout; `&self` borrows the
        // buffer read-only for the view's life.
        unsafe { through_fixed_dim!(raw_view, &self.layout, self.data.ptr().as_ptr()) }
    }

    /// [`as_ndarray`](Tensor::as_ndarray) with ndarray's dimension type
    /// `D`: a fixed one (`Ix2`) builds and indexes faster than `IxDyn`.
    /// `Err` when the tensor has another number of dimensions.
    ///
    /// ```
    /// use ndarray::{Ix2, Ix3};
    /// use shaped::prelude::*;
    /// let x = Tensor::<i64, shape![2, 3]>::from_vec((0..6).collect()).unwrap();
    /// let xt = x.t();
    /// let a = xt.as_ndarray_dim::<Ix2>().unwrap();
    /// assert_eq!((a.dim(), a[[2, 1]]), ((3, 2), 5));
    /// let err = x.as_ndarray_dim::<Ix3>().unwrap_err();
    /// assert_eq!(err.to_string(), "a shape of rank 3 cannot take 2 sizes");
    /// ```
    pub fn as_ndarray_dim<D: Dimension>(&self) -> Result<ArrayView<'_, T, D>, Error> {
        // Straight from the layout: no copy of it (a third of the time).
        // SAFETY: as in `as_ndarray`.
        unsafe { raw_view(&self.layout, self.data.ptr().as_ptr()) }
    }
}

impl<T: Element, S: Shape, R: Writable> Tensor<T, S, Cpu, R> {
    /// The elements as an ndarray mutable view, without copying: writes
    /// land in the tensor.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let mut x = Tensor::<f32, shape![2, 2]>::zeros();
    /// x.as_ndarray_mut()[[1, 0]] = 4.0;
    /// x.slice_mut(s![.., 1]).as_ndarray_mut().fill(9.0);
    /// assert_eq!(x.to_vec(), [0.0, 9.0, 4.0, 9.0]);
    /// ```
    pub fn as_ndarray_mut(&mut self) -> ArrayViewMutD<'_, T> {
        write_view(self.view_mut())
    }

    /// [`as_ndarray_mut`](Tensor::as_ndarray_mut) with ndarray's dimension
    /// type `D`; `Err` when the tensor has another number of dimensions.
    ///
    /// ```
    /// use ndarray::Ix1;
    /// use shaped::prelude::*;
    /// let mut x = Tensor::<f32, shape![3]>::zeros();
    /// x.as_ndarray_dim_mut::<Ix1>().unwrap()[2] = 1.5;
    /// assert_eq!(x.to_vec(), [0.0, 0.0, 1.5]);
    /// ```
    pub fn as_ndarray_dim_mut<D: Dimension>(&mut self) -> Result<ArrayViewMut<'_, T, D>, Error> {
        let mut t = self.view_mut();
        let base = ViewMut::ptr_mut(&mut t.data).as_ptr();
        // SAFETY: as in `write_view`, `t` borrowing the buffer exclusively
        // for the view's life (it borrows `self` so).
        unsafe { raw_view_mut(&t.layout, base) }
    }
}

impl<T: Element, S: Shape> Tensor<T, S, Cpu> {
    /// A tensor of an ndarray array's elements. An array that owns its
    /// elements alone (an `Array`, an owning `CowArray`, an `ArcArray` with
    /// no other handle) is moved, buffer, strides and offset: a sliced or
    /// column-major array stays so, and keeps its whole allocation alive.
    /// Views and shared arrays are copied, and so are arrays with negative
    /// strides, into row-major order. `Err` when the sizes contradict `S`
    /// or are not a tensor's, or the copy's memory cannot be had.
    ///
    /// ```
    /// use ndarray::{Array2, ShapeBuilder, array, s};
    /// use shaped::prelude::*;
    /// let a = Array2::<f32>::ones((3, 4).f()); // column-major
    /// let at = a.as_ptr();
    /// let t = Tensor::<f32, shape![3, 4]>::from_ndarray(a).unwrap();
    /// assert_eq!(t.strides(), [1, 3]);
    /// assert_eq!(t.as_ndarray().as_ptr(), at); // moved, not copied
    /// let r = array![1, 2, 3];
    /// let flipped = DynTensor::<i32>::from_ndarray(r.slice(s![..;-1])).unwrap();
    /// assert_eq!(flipped.to_vec(), [3, 2, 1]);
    /// ```
    pub fn from_ndarray<A, D>(array: ArrayBase<A, D>) -> Result<Self, Error>
    where
        A: ndarray::Data<Elem = T>,
        D: Dimension,
    {
        let array = array.into_owned();
        let backwards = array
            .strides()
            .iter()
            .zip(array.shape())
            .any(|(&s, &n)| s < 0 && n > 1);
        if backwards || array.is_empty() {
            let elements = try_collect(array.iter().copied())?;
            return Self::from_vec_with(elements, array.shape());
        }
        let (layout, _) = layout_of::<S>(array.shape(), array.strides(), size_of::<T>(), true)?;
        let (elements, offset) = array.into_raw_vec_and_offset();
        let (sizes, strides, _) = layout.into_parts();
        let offset = offset.unwrap_or(0);
        check_layout(
            sizes.as_ref(),
            strides.as_ref(),
            offset,
            elements.len(),
            size_of::<T>(),
            true,
        )?;
        Ok(Tensor::from_buffer(
            CpuBuffer::from(elements),
            StridedLayout::from_parts(sizes, strides, offset),
        ))
    }

    /// The elements as an owned ndarray array. The buffer moves over
    /// without a copy when the tensor covers all of it, in any order
    /// (row-major, or column-major from [`from_ndarray`](Self::from_ndarray)
    /// or a transpose), and was made from a `Vec` (a pooled block of 1 MiB
    /// or more is copied whole); otherwise the elements are copied in
    /// row-major order.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let v = vec![1u8, 2, 3, 4, 5, 6];
    /// let at = v.as_ptr();
    /// let x = Tensor::<u8, shape![2, 3]>::from_vec(v).unwrap();
    /// let a = x.into_ndarray();
    /// assert_eq!(a.shape(), &[2, 3]);
    /// assert_eq!(a.as_ptr(), at);
    /// assert_eq!(a[[1, 0]], 4);
    /// ```
    pub fn into_ndarray(self) -> ArrayD<T> {
        let numel = self.layout.numel();
        if numel > 0 && numel == self.data.len() {
            // Non-overlapping (owned) and inside the buffer, the layout
            // reaches each of its elements once: the buffer is the array's
            // memory with the layout's strides, from offset 0.
            let (shape, _) = ndarray_shape_dyn(&self.layout, core::ptr::null_mut::<T>());
            let elements = self.data.buffer.try_into_vec().or_panic();
            return Array::from_shape_vec(shape, elements)
                .expect("a non-overlapping layout over its whole buffer is an array's");
        }
        let sizes = IxDyn(self.layout.sizes());
        Array::from_shape_vec(sizes, self.into_vec()).expect("row-major elements fill their sizes")
    }
}

/// [`Tensor::from_ndarray_view`].
///
/// ```
/// use shaped::prelude::*;
/// let a = ndarray::arr2(&[[1u8, 2], [3, 4]]);
/// let t: TensorView<'_, u8, DynShape> = a.view().try_into().unwrap();
/// assert_eq!(t.to_vec(), [1, 2, 3, 4]);
/// ```
impl<'a, T: Element, S: Shape, D: Dimension> TryFrom<ArrayView<'a, T, D>>
    for Tensor<T, S, Cpu, View<'a>>
{
    type Error = Error;
    fn try_from(view: ArrayView<'a, T, D>) -> Result<Self, Error> {
        Self::from_ndarray_view(view)
    }
}

/// [`Tensor::from_ndarray_view_mut`].
///
/// ```
/// use shaped::prelude::*;
/// let mut a = ndarray::Array1::<i16>::zeros(3);
/// let mut t = TensorViewMut::<i16, shape![3]>::try_from(a.view_mut()).unwrap();
/// t[[1]] = 5;
/// assert_eq!(a.to_vec(), [0, 5, 0]);
/// ```
impl<'a, T: Element, S: Shape, D: Dimension> TryFrom<ArrayViewMut<'a, T, D>>
    for Tensor<T, S, Cpu, ViewMut<'a>>
{
    type Error = Error;
    fn try_from(view: ArrayViewMut<'a, T, D>) -> Result<Self, Error> {
        Self::from_ndarray_view_mut(view)
    }
}

/// [`Tensor::from_ndarray`] of an owned array: the buffer moves.
///
/// ```
/// use shaped::prelude::*;
/// let t = DynTensor::<f64>::try_from(ndarray::Array::linspace(0.0, 1.0, 3)).unwrap();
/// assert_eq!(t.to_vec(), [0.0, 0.5, 1.0]);
/// ```
impl<T: Element, S: Shape, D: Dimension> TryFrom<Array<T, D>> for Tensor<T, S, Cpu> {
    type Error = Error;
    fn try_from(array: Array<T, D>) -> Result<Self, Error> {
        Self::from_ndarray(array)
    }
}

/// A tensor view as an ndarray view for the view's lifetime, without
/// copying (see [`Tensor::as_ndarray`]).
///
/// ```
/// use ndarray::ArrayViewD;
/// use shaped::prelude::*;
/// let x = Tensor::<f32, shape![2, 3]>::ones();
/// let a: ArrayViewD<'_, f32> = x.t().into();
/// assert_eq!(a.shape(), &[3, 2]);
/// ```
impl<'a, T: Element, S: Shape> From<TensorView<'a, T, S>> for ArrayViewD<'a, T> {
    fn from(t: TensorView<'a, T, S>) -> Self {
        read_view(t)
    }
}

/// A tensor mutable view as an ndarray mutable view for the view's
/// lifetime, without copying (see [`Tensor::as_ndarray_mut`]).
///
/// ```
/// use ndarray::ArrayViewMutD;
/// use shaped::prelude::*;
/// let mut x = Tensor::<i32, shape![2, 2]>::zeros();
/// let mut a: ArrayViewMutD<'_, i32> = x.slice_mut(s![.., 0]).into();
/// a.fill(3);
/// assert_eq!(x.to_vec(), [3, 0, 3, 0]);
/// ```
impl<'a, T: Element, S: Shape> From<TensorViewMut<'a, T, S>> for ArrayViewMutD<'a, T> {
    fn from(t: TensorViewMut<'a, T, S>) -> Self {
        write_view(t)
    }
}

/// A borrowed tensor as an ndarray view (see [`Tensor::as_ndarray`]).
///
/// ```
/// use ndarray::ArrayViewD;
/// use shaped::prelude::*;
/// let x = DynTensor::<u8>::ones(&[2, 2]);
/// assert_eq!(ArrayViewD::from(&x).sum(), 4);
/// ```
impl<'a, T: Element, S: Shape, R: Repr> From<&'a Tensor<T, S, Cpu, R>> for ArrayViewD<'a, T> {
    fn from(t: &'a Tensor<T, S, Cpu, R>) -> Self {
        t.as_ndarray()
    }
}

/// [`Tensor::into_ndarray`]: the buffer moves when it can.
///
/// ```
/// use ndarray::ArrayD;
/// use shaped::prelude::*;
/// let a = ArrayD::from(Tensor::<i64, shape![3]>::from_vec(vec![7, 8, 9]).unwrap());
/// assert_eq!(a.into_raw_vec_and_offset().0, [7, 8, 9]);
/// ```
impl<T: Element, S: Shape> From<Tensor<T, S, Cpu>> for ArrayD<T> {
    fn from(t: Tensor<T, S, Cpu>) -> Self {
        t.into_ndarray()
    }
}

#[cfg(test)]
mod tests {
    use crate::prelude::*;
    use half::{bf16, f16};
    use ndarray::{
        Array, Array1, Array2, Array3, ArrayD, ArrayViewMut, Axis, Ix2, IxDyn, ShapeBuilder, arr2,
        array,
    };
    use num_complex::Complex;

    use crate::interop::first_element as first;

    #[test]
    fn views_share_memory_both_ways() {
        let a = Array2::from_shape_fn((3, 4), |(i, j)| (10 * i + j) as f32);
        let t = TensorView::<f32, shape![3, 4]>::from_ndarray_view(a.view()).unwrap();
        assert_eq!(first(&t), a.as_ptr());
        assert!(t.is_contiguous());
        assert_eq!(t.as_slice().unwrap().as_ptr(), a.as_ptr());
        assert_eq!(t[[2, 3]], 23.0);
        let back = t.as_ndarray();
        assert_eq!(back.as_ptr(), a.as_ptr());
        assert_eq!(back.strides(), a.strides());
        assert_eq!(back, a.view().into_dyn());
        // Each conversion is a storage of its own.
        let u = TensorView::<f32, DynShape>::from_ndarray_view(a.view()).unwrap();
        assert!(!u.shares_storage_with(&t));
        assert!(u.as_view().shares_storage_with(&u));
    }

    /// Every rank, 0 to 8 (past ndarray's fixed types), through every
    /// view form: the same sizes, strides (a reversed view's) and
    /// elements; a fixed dimension type of another rank is refused.
    #[test]
    fn views_of_every_rank_in_every_form() {
        use ndarray::{ArrayViewD, Ix0, Ix3, Ix6};
        for rank in 0..=8usize {
            let sizes: Vec<usize> = (0..rank).map(|d| 1 + d % 3).collect();
            let n: usize = sizes.iter().product();
            let mut x = DynTensor::<i32>::from_vec((0..n as i32).collect(), &sizes).unwrap();
            let reversed: Vec<isize> = (0..rank as isize).rev().collect();
            let r = x.permute(&reversed).unwrap();
            let (expected, strides) = (r.to_vec(), r.strides().to_vec());
            let whole = r.as_ndarray();
            let signed: Vec<isize> = strides.iter().map(|&s| s as isize).collect();
            assert_eq!(whole.shape(), &r.shape()[..]);
            assert_eq!(whole.strides(), &signed[..]);
            assert_eq!(whole.iter().copied().collect::<Vec<_>>(), expected);
            assert_eq!(r.as_ndarray_dim::<IxDyn>().unwrap(), whole);
            let from_view: ArrayViewD<'_, i32> = r.as_view().into();
            assert_eq!(from_view, whole);
            assert_eq!(r.as_ndarray_dim::<Ix3>().is_ok(), rank == 3);
            assert_eq!(r.as_ndarray_dim::<Ix0>().is_ok(), rank == 0);
            if rank != 6 {
                let err = r.as_ndarray_dim::<Ix6>().unwrap_err();
                assert_eq!(
                    err.to_string(),
                    format!("a shape of rank 6 cannot take {rank} sizes")
                );
            }
            x.permute_mut(&reversed)
                .unwrap()
                .as_ndarray_mut()
                .mapv_inplace(|v| -v);
            x.as_ndarray_dim_mut::<IxDyn>()
                .unwrap()
                .mapv_inplace(|v| v + 1);
            let back: Vec<i32> = (0..n as i32).map(|v| 1 - v).collect();
            assert_eq!(x.to_vec(), back);
        }
    }

    #[test]
    fn strided_transposed_and_broadcast_views() {
        let a = Array3::from_shape_fn((2, 3, 4), |(i, j, k)| (100 * i + 10 * j + k) as i64);
        let v = a.slice(ndarray::s![.., 1.., ..;3]);
        let t = TensorView::<i64, DynShape>::from_ndarray_view(v).unwrap();
        assert_eq!(t.shape(), [2, 2, 2]);
        assert_eq!(t.strides(), [12, 4, 3]);
        assert_eq!(first(&t), v.as_ptr());
        assert_eq!(t.to_vec(), v.iter().copied().collect::<Vec<_>>());
        let p = a.view().permuted_axes([2, 0, 1]);
        let t = TensorView::<i64, shape![4, 2, 3]>::from_ndarray_view(p).unwrap();
        assert_eq!(t.strides(), [1, 12, 4]);
        assert_eq!(t.to_vec(), p.iter().copied().collect::<Vec<_>>());
        // Broadcast: stride 0, read-only.
        let row = array![1u8, 2, 3];
        let b = row.broadcast((4, 3)).unwrap();
        let t = TensorView::<u8, DynShape>::from_ndarray_view(b).unwrap();
        assert_eq!(t.strides(), [0, 1]);
        assert_eq!(first(&t), row.as_ptr());
        assert_eq!(t.to_vec().iter().map(|&v| u32::from(v)).sum::<u32>(), 24);
        // A size-1 axis walked backwards does not move: accepted.
        let mut c = array![[1, 2, 3]];
        c.invert_axis(Axis(0));
        let t = TensorView::<i32, shape![1, 3]>::from_ndarray_view(c.view()).unwrap();
        assert_eq!(t.to_vec(), [1, 2, 3]);
        assert_eq!(t.strides(), [0, 1]);
        // Tensors out: any layout.
        let x = Tensor::<i32, shape![3, 4]>::from_vec((0..12).collect()).unwrap();
        let view = x.slice(s![1.., ..;2]);
        let nd = view.as_ndarray();
        assert_eq!(nd.shape(), &[2, 2]);
        assert_eq!(nd.strides(), &[4, 2]);
        assert_eq!(nd.as_ptr(), first(&view));
        assert_eq!(nd.iter().copied().collect::<Vec<_>>(), [4, 6, 8, 10]);
        let e = Tensor::<i32, shape![3]>::from_vec(vec![1, 2, 3]).unwrap();
        let ex = e.expand::<shape![2, 3]>();
        let nd = ex.as_ndarray().into_dimensionality::<Ix2>().unwrap();
        assert_eq!(nd.strides(), &[0, 1]);
        assert_eq!(nd, array![[1, 2, 3], [1, 2, 3]]);
    }

    #[test]
    fn negative_strides_are_refused_with_advice() {
        let a = array![[1.0f64, 2.0], [3.0, 4.0]];
        let err = TensorView::<f64, DynShape>::from_ndarray_view(a.slice(ndarray::s![..;-1, ..]))
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            "At least one stride in the given ndarray array is negative, and tensors with negative \
             strides are not currently supported. (You can probably work around this by making a \
             copy of your array with `Tensor::from_ndarray(array)`, which copies a view, or viewing \
             `array.as_standard_layout()`.)"
        );
        let mut inverted = a.clone();
        inverted.invert_axis(Axis(1));
        assert!(TensorView::<f64, DynShape>::from_ndarray_view(inverted.view()).is_err());
        let mut m = a.clone();
        assert!(
            TensorViewMut::<f64, DynShape>::from_ndarray_view_mut(
                m.slice_mut(ndarray::s![.., ..;-1])
            )
            .is_err()
        );
        // The ways around it.
        let copied = DynTensor::<f64>::from_ndarray(a.slice(ndarray::s![..;-1, ..])).unwrap();
        assert_eq!(copied.to_vec(), [3.0, 4.0, 1.0, 2.0]);
        let standard = inverted.as_standard_layout();
        let t = TensorView::<f64, DynShape>::from_ndarray_view(standard.view()).unwrap();
        assert_eq!(t.to_vec(), [2.0, 1.0, 4.0, 3.0]);
        let owned = DynTensor::<f64>::from_ndarray(inverted).unwrap();
        assert!(owned.is_contiguous());
        assert_eq!(owned.to_vec(), [2.0, 1.0, 4.0, 3.0]);
    }

    #[test]
    fn static_shapes_are_checked() {
        let a = Array2::<f32>::zeros((2, 3));
        let err = TensorView::<f32, shape![3, 2]>::from_ndarray_view(a.view()).unwrap_err();
        assert_eq!(
            err.to_string(),
            "size 2 at dimension 0 contradicts the static size 3"
        );
        assert!(TensorView::<f32, shape![Dyn, 3]>::from_ndarray_view(a.view()).is_ok());
        assert!(TensorView::<f32, shape![2, 3, 1]>::from_ndarray_view(a.view()).is_err());
        let d = TensorView::<f32, DynShape>::from_ndarray_view(a.view()).unwrap();
        let s: TensorView<'_, f32, shape![2, 3]> = d.into_static().unwrap();
        assert_eq!(s.shape(), [2, 3]);
        assert!(Tensor::<f32, shape![6]>::from_ndarray(a).is_err());
    }

    #[test]
    fn empty_arrays_and_tensors() {
        let a = Array2::<f32>::zeros((0, 3));
        let t = TensorView::<f32, DynShape>::from_ndarray_view(a.view()).unwrap();
        assert_eq!(t.shape(), [0, 3]);
        assert_eq!(t.strides(), [3, 1]);
        assert_eq!(t.to_vec(), Vec::<f32>::new());
        assert_eq!(t.as_ndarray().shape(), &[0, 3]);
        let mut m = Array3::<i8>::zeros((2, 0, 4));
        let mut tm =
            TensorViewMut::<i8, shape![2, 0, 4]>::from_ndarray_view_mut(m.view_mut()).unwrap();
        tm.fill(1);
        assert_eq!(tm.numel(), 0);
        let owned = Tensor::<i8, shape![2, 0, 4]>::from_ndarray(m).unwrap();
        assert_eq!(owned.numel(), 0);
        let nd = owned.into_ndarray();
        assert_eq!(nd.shape(), &[2, 0, 4]);
        // An empty narrow of a tensor, whose offset is past the end.
        let x = DynTensor::<f32>::from_vec(vec![1.0, 2.0, 3.0], &[3]).unwrap();
        let e = x.narrow(0, 3, 0).unwrap();
        let nd = e.as_ndarray();
        assert_eq!(nd.shape(), &[0]);
        assert_eq!(nd.strides(), &[0]);
        assert_eq!(nd.iter().count(), 0);
        let sliced = Array1::<f32>::zeros(4).slice_move(ndarray::s![2..2]);
        assert_eq!(DynTensor::<f32>::from_ndarray(sliced).unwrap().shape(), [0]);
        let scalar = ndarray::arr0(5u8);
        let t = TensorView::<u8, shape![]>::from_ndarray_view(scalar.view()).unwrap();
        assert_eq!(t.to_vec(), [5]);
        assert_eq!(t.as_ndarray().ndim(), 0);
        // Sizes no tensor may have, beside a 0 (ndarray refuses them too).
        assert_eq!(
            super::layout_of::<DynShape>(&[1 << 62, 4, 0], &[0, 0, 0], 1, false)
                .unwrap_err()
                .to_string(),
            "Storage size calculation overflowed with sizes=[4611686018427387904, 4, 0]"
        );
    }

    #[test]
    fn mutable_views_write_into_the_array() {
        let mut a = Array2::<i32>::zeros((3, 4));
        {
            let v = a.slice_mut(ndarray::s![.., 1..;2]);
            let mut t = TensorViewMut::<i32, shape![3, 2]>::from_ndarray_view_mut(v).unwrap();
            assert_eq!(t.strides(), [4, 2]);
            for (k, x) in t.iter_mut().enumerate() {
                *x = k as i32 + 1;
            }
            t[[2, 0]] = 50;
            for x in t.iter_mut() {
                *x += 100;
            }
        }
        assert_eq!(
            a,
            arr2(&[[0, 101, 0, 102], [0, 103, 0, 104], [0, 150, 0, 106]])
        );
        // Transposed.
        let mut t =
            TensorViewMut::<i32, DynShape>::from_ndarray_view_mut(a.view_mut().reversed_axes())
                .unwrap();
        t.as_ndarray_mut()[[3, 2]] = -1;
        assert_eq!(a[[2, 3]], -1);
        // Overlapping mutable views cannot be made safely in ndarray, but a
        // layout that would overlap is refused all the same.
        let mut base = [1.0f32; 4];
        // (Two rows of stride 1 over 4 elements overlap: ndarray's checked
        // constructor refuses them too.)
        let overlapping = ArrayViewMut::from_shape((2, 3).strides((1, 1)), &mut base[..]);
        assert!(overlapping.is_err());
        // Tensors out, writable.
        let mut x = Tensor::<f64, shape![2, 3]>::zeros();
        {
            let mut m = x.as_ndarray_mut();
            m[[1, 2]] = 6.0;
            m.slice_mut(ndarray::s![0, ..]).fill(1.0);
        }
        assert_eq!(x.to_vec(), [1.0, 1.0, 1.0, 0.0, 0.0, 6.0]);
        let mut col: ndarray::ArrayViewMutD<'_, f64> = x.slice_mut(s![.., 1]).into();
        col.fill(-2.0);
        assert_eq!(x.to_vec(), [1.0, -2.0, 1.0, 0.0, -2.0, 6.0]);
        let mut tt = x.transpose_mut::<0, 1>();
        tt.as_ndarray_mut()[[2, 0]] = 9.0;
        assert_eq!(x[[0, 2]], 9.0);
    }

    #[test]
    fn broadcast_mutable_views_are_refused() {
        // A writable layout with a stride of 0 reaches one element twice.
        assert_eq!(
            super::layout_of::<DynShape>(&[2, 3], &[0, 1], 4, true)
                .unwrap_err()
                .to_string(),
            Error::InternalOverlap.to_string()
        );
        assert!(super::layout_of::<DynShape>(&[2, 3], &[0, 1], 4, false).is_ok());
        assert!(super::layout_of::<DynShape>(&[1, 3], &[0, 1], 4, true).is_ok());
    }

    #[test]
    fn owned_arrays_move_in() {
        let a = Array2::from_shape_vec((2, 3), vec![1u8, 2, 3, 4, 5, 6]).unwrap();
        let at = a.as_ptr();
        let t = Tensor::<u8, shape![2, 3]>::from_ndarray(a).unwrap();
        assert_eq!(t.as_slice().unwrap().as_ptr(), at);
        assert_eq!(t.to_vec(), [1, 2, 3, 4, 5, 6]);
        // Column-major stays column-major.
        let f = Array2::from_shape_vec((2, 3).f(), vec![1.0f32, 4.0, 2.0, 5.0, 3.0, 6.0]).unwrap();
        let at = f.as_ptr();
        let t = DynTensor::<f32>::try_from(f).unwrap();
        assert_eq!(t.strides(), [1, 2]);
        assert_eq!(first(&t), at);
        assert_eq!(t.to_vec(), [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
        // Sliced in place: the allocation moves, with the offset.
        let mut s = Array1::from_iter(0i64..10);
        s.slice_collapse(ndarray::s![3..9;2]);
        let start = s.as_ptr();
        let t = DynTensor::<i64>::from_ndarray(s).unwrap();
        assert_eq!(first(&t), start);
        assert_eq!(t.storage_offset(), 3);
        assert_eq!(t.strides(), [2]);
        assert_eq!(t.to_vec(), [3, 5, 7]);
        // Views are copied; arrays that own their elements alone move.
        let a = array![[1i16, 2], [3, 4]];
        let t = DynTensor::<i16>::from_ndarray(a.t()).unwrap();
        assert_ne!(first(&t), a.as_ptr());
        assert_eq!(t.to_vec(), [1, 3, 2, 4]);
        let shared = a.clone().into_shared();
        let at = shared.as_ptr();
        let t = DynTensor::<i16>::from_ndarray(shared).unwrap();
        assert_eq!(first(&t), at); // the only handle: moved
        let shared = a.clone().into_shared();
        let other = shared.clone();
        let t = DynTensor::<i16>::from_ndarray(shared).unwrap();
        assert_ne!(first(&t), other.as_ptr());
        assert_eq!(t.to_vec(), [1, 2, 3, 4]);
    }

    #[test]
    fn owned_tensors_move_out() {
        let v: Vec<f64> = (0..6).map(f64::from).collect();
        let at = v.as_ptr();
        let x = DynTensor::<f64>::from_vec(v, &[2, 3]).unwrap();
        let a = x.into_ndarray();
        assert_eq!(a.as_ptr(), at);
        assert_eq!(
            a,
            Array::from_shape_vec(IxDyn(&[2, 3]), (0..6).map(f64::from).collect()).unwrap()
        );
        // A transposed owned tensor moves as a column-major array.
        let v: Vec<i32> = (0..6).collect();
        let at = v.as_ptr();
        let x = Tensor::<i32, shape![2, 3]>::from_vec(v).unwrap();
        let owned_t = {
            let (data, layout) = (x.data, x.layout);
            let (sizes, strides, offset) = layout.into_parts();
            Tensor::<i32, shape![3, 2]> {
                data,
                layout: crate::layout::StridedLayout::from_parts(
                    [sizes[1], sizes[0]],
                    [strides[1], strides[0]],
                    offset,
                ),
            }
        };
        let a = owned_t.into_ndarray();
        assert_eq!(a.as_ptr(), at);
        assert_eq!(a.strides(), &[1, 3]);
        assert_eq!(
            a.into_dimensionality::<Ix2>().unwrap(),
            arr2(&[[0, 3], [1, 4], [2, 5]])
        );
        // A pooled block is copied whole, still in its strides.
        let big = DynTensor::<f32>::arange(1 << 18)
            .view(&[512, 512])
            .unwrap()
            .to_owned();
        let a = ArrayD::from(big);
        assert_eq!(a[[3, 5]], (3 * 512 + 5) as f32);
        // Partial and offset tensors are copied row-major.
        let x = DynTensor::<u8>::from_vec((0..12).collect(), &[3, 4]).unwrap();
        let part = x.narrow(1, 1, 2).unwrap().to_owned();
        assert_eq!(
            part.into_ndarray().into_raw_vec_and_offset().0,
            [1, 2, 5, 6, 9, 10]
        );
    }

    #[test]
    fn round_trips_of_every_dtype() {
        fn check<T: Element>(values: Vec<T>) {
            let a = Array::from_shape_vec((2, 2), values.clone()).unwrap();
            let v = TensorView::<T, shape![2, 2]>::from_ndarray_view(a.view()).unwrap();
            assert_eq!(v.to_vec(), values);
            let nd = v.as_ndarray();
            assert_eq!(nd.as_ptr(), a.as_ptr());
            let t = DynTensor::<T>::from_ndarray(a).unwrap();
            let back = t.into_ndarray();
            assert_eq!(back.into_raw_vec_and_offset().0, values);
        }
        check(vec![f16::ONE, f16::ZERO, f16::INFINITY, f16::MIN]);
        check(vec![bf16::ONE, bf16::ZERO, bf16::INFINITY, bf16::MAX]);
        check(vec![1.5f32, -0.0, f32::MIN_POSITIVE, 3.0]);
        check(vec![1.5f64, -0.0, f64::EPSILON, 3.0]);
        check(vec![Complex::new(1.0f32, -1.0); 4]);
        check(vec![Complex::new(0.5f64, 2.0); 4]);
        check(vec![0u8, 1, 254, 255]);
        check(vec![i8::MIN, -1, 0, i8::MAX]);
        check(vec![i16::MIN, -1, 0, i16::MAX]);
        check(vec![i32::MIN, -1, 0, i32::MAX]);
        check(vec![i64::MIN, -1, 0, i64::MAX]);
        check(vec![true, false, false, true]);
    }

    #[test]
    fn trait_conversions() {
        let a = array![[1.0f32, 2.0], [3.0, 4.0]];
        let t: TensorView<'_, f32, shape![2, 2]> = a.view().try_into().unwrap();
        let nd: ndarray::ArrayViewD<'_, f32> = t.into();
        assert_eq!(nd.as_ptr(), a.as_ptr());
        let owned: Tensor<f32, shape![2, 2]> = a.try_into().unwrap();
        let back: ArrayD<f32> = owned.into();
        assert_eq!(back.into_raw_vec_and_offset().0, [1.0, 2.0, 3.0, 4.0]);
        let mut m = Array1::<u8>::zeros(2);
        let mut tm: TensorViewMut<'_, u8, DynShape> = m.view_mut().try_into().unwrap();
        tm[[0]] = 1;
        let mut nd: ndarray::ArrayViewMutD<'_, u8> = tm.into();
        nd[[1]] = 2;
        assert_eq!(m.to_vec(), [1, 2]);
    }
}
