//! Matrices of [`nalgebra`] and 2-d tensors (the `nalgebra` feature).
//!
//! | from | to | elements |
//! |---|---|---|
//! | `DMatrix<T>` | [`Tensor<T, S>`](Tensor::from_dmatrix) (rank 2) | moved: column-major strides `[1, nrows]` |
//! | `Tensor<T, (A, B)>` | [`DMatrix<T>`](Tensor::into_dmatrix) | moved when column-major over its whole buffer, else copied |
//! | any 2-d tensor | [`DMatrix<T>`](Tensor::to_dmatrix) | copied, column-major |
//! | column-major 2-d tensor | [`DMatrixView`](Tensor::as_nalgebra), [`DMatrixViewMut`](Tensor::as_nalgebra_mut) | the same memory |
//! | any matrix | [`TensorView`](Tensor::from_nalgebra_view), [`TensorViewMut`](Tensor::from_nalgebra_view_mut) | the same memory |
//! | `SMatrix<T, R, C>` | `Tensor<T, shape![R, C]>` | copied (`From`, both ways): static sizes to static sizes |
//!
//! nalgebra stores matrices column-major, tensors default to row-major:
//! a `DMatrix` becomes a tensor with the strides of a transpose
//! (`is_contiguous()` is false; `.contiguous()` makes a row-major copy),
//! which goes back to a `DMatrix` without a copy. Tensors of column-major
//! layouts (those, transposes of row-major tensors, their column slices)
//! are nalgebra views as they are; other layouts (row-major, steps along
//! rows, the stride 0 of `expand`) are refused, because nalgebra 0.35's
//! own products read and write out of bounds on views whose row stride is
//! not 1 (dimforge/nalgebra#1616): copy them with
//! [`to_dmatrix`](Tensor::to_dmatrix). The other way, any nalgebra matrix or
//! view is a tensor view. Every element type is a nalgebra `Scalar`.
//!
//! ```
//! use shaped::prelude::*;
//! let m = nalgebra::DMatrix::from_row_slice(2, 3, &[1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0]);
//! let t = Tensor::<f32, shape![2, 3]>::from_dmatrix(m).unwrap();
//! assert_eq!(t.strides(), [1, 2]); // column-major
//! assert_eq!(t.to_vec(), [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
//! let v = t.as_nalgebra().unwrap();
//! assert_eq!(v[(1, 2)], 6.0);
//! let s: nalgebra::SMatrix<f32, 2, 3> = t.into();
//! assert_eq!(s[(0, 1)], 2.0);
//! ```

use crate::backend::Cpu;
use crate::backend::cpu::{CpuBuffer, CpuPtr};
use crate::device::Device;
use crate::dtype::Element;
use crate::dynamic::DynTensor;
use crate::error::Error;
use crate::layout::{
    Layout, StridedLayout, array_from, check_contiguous_strides, check_layout, checked_storage,
    storage_span,
};
use crate::shape::axes::ConstSize;
use crate::shape::{Dim, Shape, StaticDim};
use crate::storage::{Borrowed, BorrowedMut, Repr, Storage, View, ViewMut, Writable};
use crate::tensor::{Tensor, TensorView, TensorViewMut};
use ::nalgebra as na;
use core::ptr::NonNull;
use na::{DMatrix, DMatrixView, DMatrixViewMut, SMatrix};

/// Why a tensor has no nalgebra view: nalgebra's views are column-major.
const NOT_COLUMN_MAJOR: &str = "a nalgebra matrix view needs a column-major layout (row stride 1, \
     column stride at least the number of rows), as nalgebra's own views have; view the transpose \
     (`t()`) of a row-major matrix, or copy it with `to_dmatrix()`";

/// A view's sizes and column stride as nalgebra takes them.
type Parts = ((na::Dyn, na::Dyn), (na::U1, na::Dyn));

/// The parts of a 2-d layout as a nalgebra view takes them: the address of
/// element `(0, 0)` in a buffer starting at `base` (`base` itself when the
/// layout is empty: it addresses nothing), the sizes and the column stride.
/// `Err` unless the layout is column-major: row stride 1 and a column
/// stride of at least the number of rows, ignoring the strides of sizes 0
/// and 1, which never move (they become 1 and the number of rows).
///
/// nalgebra 0.35's own operations go wrong on other strides (its
/// `axcpy_uninit`, under every small product, loops over a strided
/// column's span rather than its length, reading and writing out of
/// bounds: dimforge/nalgebra#1616), so no view with them is handed out.
fn matrix_parts<T>(
    layout: &StridedLayout<[usize; 2]>,
    base: *mut T,
) -> Result<(*mut T, Parts), Error> {
    let [rows, cols] = *layout.size_array();
    let [row_stride, col_stride] = *layout.stride_array();
    let sizes = (na::Dyn(rows), na::Dyn(cols));
    if rows == 0 || cols == 0 {
        return Ok((base, (sizes, (na::U1, na::Dyn(rows)))));
    }
    let col_stride = if cols == 1 { rows } else { col_stride };
    if (rows > 1 && row_stride != 1) || col_stride < rows {
        return Err(Error::Unsupported {
            message: NOT_COLUMN_MAJOR,
        });
    }
    Ok((
        base.wrapping_add(layout.offset()),
        (sizes, (na::U1, na::Dyn(col_stride))),
    ))
}

/// The nalgebra view of a column-major 2-d tensor view, for its lifetime.
fn matrix_view<'a, T: Element, A: Dim, B: Dim>(
    t: TensorView<'a, T, (A, B)>,
) -> Result<DMatrixView<'a, T>, Error> {
    let (ptr, (shape, strides)) = matrix_parts(&t.layout, t.data.ptr().as_ptr())?;
    // SAFETY: the tensor invariant: every element `(i, j)`, at
    // `offset + i + j * col_stride` (the strides as `matrix_parts` checked
    // them; those of sizes 1 never move), is inside the live buffer, which
    // `t` borrows read-only for 'a; a view with no elements reads none.
    let storage = unsafe { na::ViewStorage::from_raw_parts(ptr.cast_const(), shape, strides) };
    Ok(na::Matrix::from_data(storage))
}

/// The nalgebra mutable view of a column-major 2-d tensor mutable view,
/// for its lifetime.
fn matrix_view_mut<'a, T: Element, A: Dim, B: Dim>(
    mut t: TensorViewMut<'a, T, (A, B)>,
) -> Result<DMatrixViewMut<'a, T>, Error> {
    let base = ViewMut::ptr_mut(&mut t.data).as_ptr();
    let (ptr, (shape, strides)) = matrix_parts(&t.layout, base)?;
    // SAFETY: as in `matrix_view`, with `t` borrowing the buffer
    // exclusively for 'a (it is consumed here); a column stride of at least
    // the number of rows puts no two indices on one element.
    let storage = unsafe { na::ViewStorageMut::from_raw_parts(ptr, shape, strides) };
    Ok(na::Matrix::from_data(storage))
}

impl<T: Element, A: Dim, B: Dim, R: Repr> Tensor<T, (A, B), Cpu, R> {
    /// The matrix as a nalgebra view, without copying, when its layout is
    /// column-major (row stride 1, as nalgebra's own views: a `DMatrix`'s
    /// tensor, the transpose of a row-major one, column slices of those);
    /// `Err` otherwise (see [the module](self)).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = Tensor::<f64, shape![2, 3]>::from_vec(vec![1., 2., 3., 4., 5., 6.]).unwrap();
    /// let xt = x.t(); // column-major
    /// let m = xt.as_nalgebra().unwrap();
    /// assert_eq!(m.shape(), (3, 2));
    /// assert_eq!(m.strides(), (1, 3));
    /// assert_eq!(m.column(1).sum(), 15.0);
    /// assert_eq!(m * nalgebra::DMatrix::identity(2, 2), xt.to_dmatrix());
    /// assert!(x.as_nalgebra().is_err()); // row-major: use x.t() or to_dmatrix()
    /// ```
    pub fn as_nalgebra(&self) -> Result<DMatrixView<'_, T>, Error> {
        matrix_view::<T, A, B>(self.reborrow())
    }

    /// A copy as a `DMatrix` (column-major), for any layout.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = Tensor::<i32, shape![2, 2]>::from_vec(vec![1, 2, 3, 4]).unwrap();
    /// let m = x.to_dmatrix();
    /// assert_eq!(m, nalgebra::DMatrix::from_row_slice(2, 2, &[1, 2, 3, 4]));
    /// assert_eq!(x.t().to_dmatrix(), m.transpose());
    /// ```
    pub fn to_dmatrix(&self) -> DMatrix<T> {
        let [rows, cols] = *self.layout.size_array();
        DMatrix::from_vec(rows, cols, self.t().to_vec())
    }
}

impl<T: Element, A: Dim, B: Dim, R: Writable> Tensor<T, (A, B), Cpu, R> {
    /// The matrix as a nalgebra mutable view, without copying, when its
    /// layout is column-major (see [`as_nalgebra`](Self::as_nalgebra)):
    /// writes land in the tensor.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let mut x = Tensor::<f32, shape![2, 2]>::zeros();
    /// let mut m = x.transpose_mut::<0, 1>();
    /// m.as_nalgebra_mut().unwrap().fill_diagonal(1.0);
    /// m.as_nalgebra_mut().unwrap()[(0, 1)] = 5.0;
    /// assert_eq!(x.to_vec(), [1.0, 0.0, 5.0, 1.0]);
    /// ```
    pub fn as_nalgebra_mut(&mut self) -> Result<DMatrixViewMut<'_, T>, Error> {
        matrix_view_mut(self.view_mut())
    }
}

impl<T: Element, A: Dim, B: Dim> Tensor<T, (A, B), Cpu> {
    /// The matrix as a `DMatrix`, moving the buffer without a copy when the
    /// tensor is column-major over all of it (as [`from_dmatrix`](Self::from_dmatrix)
    /// and transposes of row-major tensors are) and it was made from a `Vec`;
    /// otherwise a column-major copy.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let m = nalgebra::DMatrix::<u8>::from_fn(3, 2, |i, j| (i * 2 + j) as u8);
    /// let at = m.as_ptr();
    /// let t = Tensor::<u8, shape![3, 2]>::from_dmatrix(m).unwrap();
    /// let back = t.into_dmatrix();
    /// assert_eq!(back.as_ptr(), at); // the same allocation, both ways
    /// assert_eq!(back[(2, 1)], 5);
    /// ```
    pub fn into_dmatrix(self) -> DMatrix<T> {
        let [rows, cols] = *self.layout.size_array();
        let [row_stride, col_stride] = *self.layout.stride_array();
        // The transpose, owned: its row-major elements are this matrix's
        // column-major ones, and `into_vec` moves them out when they are
        // the whole buffer, in order.
        let transposed = Tensor::<T, (B, A), Cpu> {
            data: self.data,
            layout: StridedLayout::from_parts(
                [cols, rows],
                [col_stride, row_stride],
                self.layout.offset(),
            ),
        };
        DMatrix::from_vec(rows, cols, transposed.into_vec())
    }
}

impl<T: Element, S: Shape> Tensor<T, S, Cpu> {
    /// A 2-d tensor of a `DMatrix`'s elements, moving its buffer without a
    /// copy: the tensor is column-major (strides `[1, nrows]`). `Err` when
    /// `S` is not of rank 2 or contradicts the sizes, or the sizes are not
    /// a tensor's (beyond `isize::MAX`).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let m = nalgebra::DMatrix::from_row_slice(2, 2, &[1i64, 2, 3, 4]);
    /// let t = DynTensor::<i64>::from_dmatrix(m.clone()).unwrap();
    /// assert_eq!(t.shape(), [2, 2]);
    /// assert_eq!(t.to_vec(), [1, 2, 3, 4]);
    /// let err = Tensor::<i64, shape![4]>::from_dmatrix(m).unwrap_err();
    /// assert_eq!(err.to_string(), "a shape of rank 1 cannot take 2 sizes");
    /// ```
    pub fn from_dmatrix(m: DMatrix<T>) -> Result<Self, Error> {
        let (rows, cols) = m.shape();
        let sizes = S::check_sizes(&[rows, cols])?;
        checked_storage(&[rows, cols], size_of::<T>())?;
        let strides = array_from::<S::Sizes>(&[1, rows.max(1)]);
        let elements = Vec::from(m.data);
        Ok(Tensor::from_buffer(
            CpuBuffer::from(elements),
            StridedLayout::from_parts(sizes, strides, 0),
        ))
    }
}

/// The layout of a nalgebra matrix's `rows` by `cols` elements with
/// strides `row_stride` and `col_stride` from element `(0, 0)`, checked as
/// every tensor layout is, and the number of elements from the first to one
/// past the last. An empty matrix gets row-major strides.
fn matrix_layout<S: Shape>(
    [rows, cols]: [usize; 2],
    strides: [usize; 2],
    itemsize: usize,
    writable: bool,
) -> Result<(Layout<S>, usize), Error> {
    let dims = [rows, cols];
    let sizes = S::check_sizes(&dims)?;
    if rows == 0 || cols == 0 {
        checked_storage(&dims, itemsize)?;
        check_contiguous_strides(&dims)?;
        return Ok((StridedLayout::contiguous(sizes), 0));
    }
    let span = storage_span(&dims, &strides, 0).unwrap_or(usize::MAX);
    check_layout(&dims, &strides, 0, span, itemsize, writable)?;
    let strides = array_from::<S::Sizes>(&strides);
    Ok((StridedLayout::from_parts(sizes, strides, 0), span))
}

/// The address of a matrix's element `(0, 0)`.
fn non_null<T>(ptr: *const T) -> NonNull<T> {
    NonNull::new(ptr.cast_mut()).expect("nalgebra's pointers are never null")
}

impl<'a, T: Element, S: Shape> Tensor<T, S, Cpu, View<'a>> {
    /// A read-only view of any nalgebra matrix's elements (a `DMatrix`, an
    /// `SMatrix`, a view), without copying: the same memory, sizes and
    /// strides. `Err` when `S` is not of rank 2 or contradicts the sizes.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let m = nalgebra::Matrix2x3::new(1, 2, 3, 4, 5, 6);
    /// let t = TensorView::<i32, shape![2, 3]>::from_nalgebra_view(&m).unwrap();
    /// assert_eq!(t.strides(), [1, 2]);
    /// assert_eq!(t.to_vec(), [1, 2, 3, 4, 5, 6]);
    /// let c = m.column(1);
    /// let col = TensorView::<i32, shape![Dyn, Dyn]>::from_nalgebra_view(&c).unwrap();
    /// assert_eq!(col.to_vec(), [2, 5]);
    /// ```
    pub fn from_nalgebra_view<R, C, St>(m: &'a na::Matrix<T, R, C, St>) -> Result<Self, Error>
    where
        R: na::Dim,
        C: na::Dim,
        St: na::storage::Storage<T, R, C>,
    {
        let (row_stride, col_stride) = m.strides();
        let (layout, span) = matrix_layout::<S>(
            [m.nrows(), m.ncols()],
            [row_stride, col_stride],
            size_of::<T>(),
            false,
        )?;
        let ptr = CpuPtr::from_non_null(non_null(m.as_ptr()));
        // SAFETY: `m` is borrowed read-only for 'a, and its storage (an
        // initialized `Storage`) holds element `(i, j)` at
        // `ptr + i * row_stride + j * col_stride` for every `i < nrows`,
        // `j < ncols`, in one allocation: the checked layout addresses
        // exactly those, within `span` elements from `ptr`, and the crate
        // reads no element a layout does not address.
        let data = unsafe { Borrowed::foreign(ptr, span, Device::Cpu) };
        Ok(Tensor { data, layout })
    }
}

impl<'a, T: Element, S: Shape> Tensor<T, S, Cpu, ViewMut<'a>> {
    /// A writable view of any nalgebra matrix's elements, without copying:
    /// writes land in the matrix. `Err` when `S` is not of rank 2 or
    /// contradicts the sizes, or the matrix's strides reach one element by
    /// two indices.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let mut m = nalgebra::DMatrix::<f32>::zeros(2, 2);
    /// let mut t = TensorViewMut::<f32, DynShape>::from_nalgebra_view_mut(&mut m).unwrap();
    /// t[[0, 1]] = 3.0;
    /// assert_eq!(m[(0, 1)], 3.0);
    /// ```
    pub fn from_nalgebra_view_mut<R, C, St>(
        m: &'a mut na::Matrix<T, R, C, St>,
    ) -> Result<Self, Error>
    where
        R: na::Dim,
        C: na::Dim,
        St: na::storage::StorageMut<T, R, C>,
    {
        let (row_stride, col_stride) = m.strides();
        let (layout, span) = matrix_layout::<S>(
            [m.nrows(), m.ncols()],
            [row_stride, col_stride],
            size_of::<T>(),
            true,
        )?;
        let ptr = CpuPtr::from_non_null(non_null(m.as_mut_ptr()));
        // SAFETY: as in `from_nalgebra_view`, with `m` borrowed exclusively
        // for 'a, and the layout checked to put no two indices on one
        // element.
        let data = unsafe { BorrowedMut::foreign(ptr, span, Device::Cpu) };
        Ok(Tensor { data, layout })
    }
}

/// [`Tensor::from_dmatrix`]: the buffer moves.
///
/// ```
/// use shaped::prelude::*;
/// let t = Tensor::<f64, shape![Dyn, 2]>::try_from(nalgebra::DMatrix::identity(3, 2)).unwrap();
/// assert_eq!(t.to_vec(), [1.0, 0.0, 0.0, 1.0, 0.0, 0.0]);
/// ```
impl<T: Element, S: Shape> TryFrom<DMatrix<T>> for Tensor<T, S, Cpu> {
    type Error = Error;
    fn try_from(m: DMatrix<T>) -> Result<Self, Error> {
        Self::from_dmatrix(m)
    }
}

/// [`Tensor::into_dmatrix`]: the buffer moves when it can.
///
/// ```
/// use shaped::prelude::*;
/// let m: nalgebra::DMatrix<bool> = Tensor::<bool, shape![1, 2]>::ones().into();
/// assert_eq!(m.shape(), (1, 2));
/// ```
impl<T: Element, A: Dim, B: Dim> From<Tensor<T, (A, B), Cpu>> for DMatrix<T> {
    fn from(t: Tensor<T, (A, B), Cpu>) -> Self {
        t.into_dmatrix()
    }
}

/// [`Tensor::to_dmatrix`]: a copy.
///
/// ```
/// use shaped::prelude::*;
/// let x = Tensor::<i8, shape![2, 1]>::from_vec(vec![3, 4]).unwrap();
/// assert_eq!(nalgebra::DMatrix::from(&x).as_slice(), &[3, 4]);
/// ```
impl<T: Element, A: Dim, B: Dim, R: Repr> From<&Tensor<T, (A, B), Cpu, R>> for DMatrix<T> {
    fn from(t: &Tensor<T, (A, B), Cpu, R>) -> Self {
        t.to_dmatrix()
    }
}

/// A tensor of a runtime rank as a `DMatrix`: [`Tensor::into_dmatrix`]
/// after checking that the rank is 2.
///
/// ```
/// use shaped::prelude::*;
/// let m = nalgebra::DMatrix::try_from(DynTensor::<i16>::zeros(&[2, 5])).unwrap();
/// assert_eq!(m.shape(), (2, 5));
/// let err = nalgebra::DMatrix::try_from(DynTensor::<i16>::zeros(&[10])).unwrap_err();
/// assert_eq!(err.to_string(), "a shape of rank 2 cannot take 1 sizes");
/// ```
impl<T: Element> TryFrom<DynTensor<T>> for DMatrix<T> {
    type Error = Error;
    fn try_from(t: DynTensor<T>) -> Result<Self, Error> {
        Ok(t.into_static::<(crate::Dyn, crate::Dyn)>()?.into_dmatrix())
    }
}

/// A column-major 2-d tensor view as a nalgebra view for the view's
/// lifetime (see [`Tensor::as_nalgebra`]).
///
/// ```
/// use shaped::prelude::*;
/// let x = Tensor::<f32, shape![2, 3]>::from_vec(vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0]).unwrap();
/// let m = nalgebra::DMatrixView::try_from(x.t()).unwrap();
/// assert_eq!(m.shape(), (3, 2));
/// assert_eq!(m.sum(), 21.0);
/// ```
impl<'a, T: Element, A: Dim, B: Dim> TryFrom<TensorView<'a, T, (A, B)>> for DMatrixView<'a, T> {
    type Error = Error;
    fn try_from(t: TensorView<'a, T, (A, B)>) -> Result<Self, Error> {
        matrix_view(t)
    }
}

/// A column-major 2-d tensor mutable view as a nalgebra mutable view for
/// the view's lifetime (see [`Tensor::as_nalgebra_mut`]).
///
/// ```
/// use shaped::prelude::*;
/// let mut x = Tensor::<i32, shape![4, 2]>::zeros();
/// let mut m = nalgebra::DMatrixViewMut::try_from(x.transpose_mut::<0, 1>()).unwrap();
/// m.row_mut(1).fill(1);
/// assert_eq!(x.to_vec(), [0, 1, 0, 1, 0, 1, 0, 1]);
/// ```
impl<'a, T: Element, A: Dim, B: Dim> TryFrom<TensorViewMut<'a, T, (A, B)>>
    for DMatrixViewMut<'a, T>
{
    type Error = Error;
    fn try_from(t: TensorViewMut<'a, T, (A, B)>) -> Result<Self, Error> {
        matrix_view_mut(t)
    }
}

/// A statically sized matrix as a tensor of the same static shape
/// (`SMatrix<T, 2, 3>` to `Tensor<T, shape![2, 3]>`): a row-major copy.
/// The sizes agree at compile time (any size typenum maps: up to 1024, and
/// the powers of two).
///
/// ```
/// use shaped::prelude::*;
/// let m = nalgebra::Matrix2x3::new(1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0);
/// let t: Tensor<f32, shape![2, 3]> = m.into();
/// assert!(t.is_contiguous());
/// assert_eq!(t.to_vec(), [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
/// ```
impl<T, A, B, const R: usize, const C: usize> From<SMatrix<T, R, C>> for Tensor<T, (A, B), Cpu>
where
    T: Element,
    A: StaticDim,
    B: StaticDim,
    typenum::Const<R>: ConstSize<Dec = A>,
    typenum::Const<C>: ConstSize<Dec = B>,
{
    fn from(m: SMatrix<T, R, C>) -> Self {
        Tensor::from_fn(|[i, j]: [usize; 2]| m[(i, j)])
    }
}

/// A tensor of a static shape as the statically sized matrix of the same
/// sizes (`Tensor<T, shape![2, 3]>` to `SMatrix<T, 2, 3>`): a copy, from any
/// layout.
///
/// ```
/// use shaped::prelude::*;
/// let x = Tensor::<i64, shape![2, 2]>::from_vec(vec![1, 2, 3, 4]).unwrap();
/// let m: nalgebra::Matrix2<i64> = x.t().into();
/// assert_eq!(m, nalgebra::Matrix2::new(1, 3, 2, 4));
/// ```
impl<T, A, B, Rp, const R: usize, const C: usize> From<Tensor<T, (A, B), Cpu, Rp>>
    for SMatrix<T, R, C>
where
    T: Element,
    A: StaticDim,
    B: StaticDim,
    Rp: Repr,
    typenum::Const<R>: ConstSize<Dec = A>,
    typenum::Const<C>: ConstSize<Dec = B>,
{
    fn from(t: Tensor<T, (A, B), Cpu, Rp>) -> Self {
        SMatrix::from(&t)
    }
}

/// [`From`] a borrowed tensor of a static shape: a copy.
///
/// ```
/// use shaped::prelude::*;
/// let x = Tensor::<u8, shape![1, 3]>::from_vec(vec![7, 8, 9]).unwrap();
/// let m = nalgebra::RowVector3::<u8>::from(&x);
/// assert_eq!(m, nalgebra::RowVector3::new(7, 8, 9));
/// ```
impl<T, A, B, Rp, const R: usize, const C: usize> From<&Tensor<T, (A, B), Cpu, Rp>>
    for SMatrix<T, R, C>
where
    T: Element,
    A: StaticDim,
    B: StaticDim,
    Rp: Repr,
    typenum::Const<R>: ConstSize<Dec = A>,
    typenum::Const<C>: ConstSize<Dec = B>,
{
    fn from(t: &Tensor<T, (A, B), Cpu, Rp>) -> Self {
        // The transpose's logical order is the matrix's column-major order,
        // and it has exactly R * C elements.
        SMatrix::from_iterator(t.t().iter().copied())
    }
}

#[cfg(test)]
mod tests {
    use crate::prelude::*;
    use half::{bf16, f16};
    use nalgebra::{DMatrix, DMatrixView, DMatrixViewMut, Matrix2x3, Matrix3, SMatrix};
    use num_complex::Complex;

    use crate::interop::first_element as first;

    #[test]
    fn dmatrix_moves_in_and_out() {
        let m = DMatrix::from_fn(3, 4, |i, j| (10 * i + j) as f32);
        let at = m.as_ptr();
        let t = Tensor::<f32, shape![3, 4]>::from_dmatrix(m).unwrap();
        assert_eq!(first(&t), at);
        assert_eq!(t.strides(), [1, 3]);
        assert_eq!(t[[2, 3]], 23.0);
        assert_eq!(
            t.to_vec(),
            (0..3)
                .flat_map(|i| (0..4).map(move |j| (10 * i + j) as f32))
                .collect::<Vec<_>>()
        );
        let back = t.into_dmatrix();
        assert_eq!(back.as_ptr(), at);
        assert_eq!(back, DMatrix::from_fn(3, 4, |i, j| (10 * i + j) as f32));
        // A row-major tensor is copied into column-major order.
        let x = Tensor::<i32, shape![2, 3]>::from_vec((0..6).collect()).unwrap();
        let m = x.into_dmatrix();
        assert_eq!(m, DMatrix::from_row_slice(2, 3, &[0, 1, 2, 3, 4, 5]));
        // Dynamic ranks.
        let d = DynTensor::<u8>::from_dmatrix(DMatrix::from_element(2, 2, 3)).unwrap();
        assert_eq!(d.shape(), [2, 2]);
        let m = DMatrix::try_from(d).unwrap();
        assert_eq!(m, DMatrix::from_element(2, 2, 3));
        let err = DMatrix::try_from(DynTensor::<u8>::zeros(&[2, 2, 2])).unwrap_err();
        assert_eq!(err.to_string(), "a shape of rank 2 cannot take 3 sizes");
        let err = Tensor::<u8, shape![3, 2]>::from_dmatrix(DMatrix::zeros(2, 3)).unwrap_err();
        assert_eq!(
            err.to_string(),
            "size 2 at dimension 0 contradicts the static size 3"
        );
    }

    #[test]
    fn empty_matrices() {
        let t = DynTensor::<f64>::from_dmatrix(DMatrix::zeros(0, 3)).unwrap();
        assert_eq!(t.shape(), [0, 3]);
        assert_eq!(t.strides(), [1, 1]);
        assert_eq!(DMatrix::try_from(t).unwrap().shape(), (0, 3));
        let t = Tensor::<f64, shape![2, 0]>::zeros();
        assert_eq!(t.as_nalgebra().unwrap().shape(), (2, 0));
        assert_eq!(t.to_dmatrix().shape(), (2, 0));
        let x = DynTensor::<f64>::zeros(&[3, 3]);
        let e = x
            .narrow(0, 3, 0)
            .unwrap()
            .into_static::<shape![Dyn, Dyn]>()
            .unwrap();
        assert_eq!(e.storage_offset(), 9); // past the end: nothing addressed
        assert_eq!(e.as_nalgebra().unwrap().shape(), (0, 3));
        assert_eq!(e.as_nalgebra().unwrap().iter().count(), 0);
        let m = DMatrix::<i32>::zeros(0, 0);
        assert_eq!(
            TensorView::<i32, DynShape>::from_nalgebra_view(&m)
                .unwrap()
                .numel(),
            0
        );
        // Sizes beyond a tensor's.
        let huge = DMatrix::<u8>::from_vec(0, usize::MAX, vec![]);
        assert!(DynTensor::<u8>::from_dmatrix(huge).is_err());
    }

    #[test]
    fn column_major_layouts_are_views() {
        let x = Tensor::<f32, shape![3, 4]>::from_vec((0..12).map(|v| v as f32).collect()).unwrap();
        // Transposed: column-major.
        let t = x.t();
        let m = t.as_nalgebra().unwrap();
        assert_eq!(m.as_ptr(), first(&x));
        assert_eq!(m.shape(), (4, 3));
        assert_eq!(m.strides(), (1, 4));
        assert_eq!(m, x.to_dmatrix().transpose());
        // Products of small views, the path nalgebra#1616 breaks for other
        // strides, are right on these.
        assert_eq!(
            m * DMatrix::<f32>::identity(3, 3),
            x.to_dmatrix().transpose()
        );
        assert_eq!(
            (m.transpose() * m)[(0, 0)],
            (0..4).map(|j| (j * j) as f32).sum::<f32>()
        );
        // A column slice with an offset: still column-major, column stride 4.
        let cols = x.t();
        let part = cols.slice(s![1..3, 1..]);
        let m = DMatrixView::try_from(part).unwrap();
        assert_eq!(m.as_ptr(), first(&cols.slice(s![1..3, 1..])));
        assert_eq!(m.shape(), (2, 2));
        assert_eq!(m.strides(), (1, 4));
        assert_eq!(m, DMatrix::from_row_slice(2, 2, &[5.0, 9.0, 6.0, 10.0]));
        // A DMatrix's tensor, and one column (any column stride).
        let d = DynTensor::<f64>::from_dmatrix(DMatrix::from_fn(3, 2, |i, j| (i + 10 * j) as f64))
            .unwrap()
            .into_static::<shape![Dyn, Dyn]>()
            .unwrap();
        assert_eq!(
            d.as_nalgebra().unwrap(),
            DMatrix::from_fn(3, 2, |i, j| (i + 10 * j) as f64)
        );
        let col = d.slice(s![.., 1..]);
        assert_eq!(
            col.as_nalgebra()
                .unwrap()
                .iter()
                .copied()
                .collect::<Vec<_>>(),
            [10.0, 11.0, 12.0]
        );
        // One row: its row stride never moves.
        let row = x.slice(s![1..2, ..]);
        assert_eq!(
            row.as_nalgebra().unwrap(),
            DMatrix::from_row_slice(1, 4, &[4.0, 5.0, 6.0, 7.0])
        );
    }

    #[test]
    fn other_layouts_are_refused() {
        let x = Tensor::<f32, shape![3, 4]>::from_vec((0..12).map(|v| v as f32).collect()).unwrap();
        let err = x.as_nalgebra().unwrap_err();
        assert_eq!(
            err.to_string(),
            "a nalgebra matrix view needs a column-major layout (row stride 1, column stride at \
             least the number of rows), as nalgebra's own views have; view the transpose (`t()`) \
             of a row-major matrix, or copy it with `to_dmatrix()`"
        );
        // Steps along the rows.
        assert!(x.t().slice(s![..;2, ..]).as_nalgebra().is_err());
        // Stride 0 (expand), down the rows or across the columns.
        let row = Tensor::<f32, shape![1, 4]>::from_vec(vec![1.0, 2.0, 3.0, 4.0]).unwrap();
        assert!(row.expand::<shape![3, 4]>().as_nalgebra().is_err());
        let col = Tensor::<f32, shape![3, 1]>::from_vec(vec![1.0, 2.0, 3.0]).unwrap();
        assert!(col.expand::<shape![3, 4]>().as_nalgebra().is_err());
        // They copy.
        assert_eq!(
            row.expand::<shape![3, 4]>().to_dmatrix(),
            DMatrix::from_fn(3, 4, |_, j| (j + 1) as f32)
        );
        let mut y = Tensor::<f32, shape![2, 2]>::zeros();
        assert!(y.as_nalgebra_mut().is_err());
    }

    #[test]
    fn mutable_views_write_into_the_tensor() {
        let mut x = Tensor::<i64, shape![3, 3]>::zeros();
        {
            let mut xt = x.transpose_mut::<0, 1>();
            let mut m = xt.as_nalgebra_mut().unwrap();
            m.fill_diagonal(1);
            m[(2, 0)] = 7;
        }
        assert_eq!(x.to_vec(), [1, 0, 7, 0, 1, 0, 0, 0, 1]);
        {
            let mut xt = x.transpose_mut::<0, 1>();
            let mut part = xt.slice_mut(s![1.., ..]);
            let mut m = DMatrixViewMut::try_from(part.view_mut()).unwrap();
            m.row_mut(0).fill(5);
        }
        assert_eq!(x.to_vec(), [1, 5, 7, 0, 5, 0, 0, 5, 1]);
        let mut d = DynTensor::<i64>::from_dmatrix(DMatrix::zeros(2, 2))
            .unwrap()
            .into_static::<shape![2, 2]>()
            .unwrap();
        d.as_nalgebra_mut().unwrap()[(1, 0)] = -1;
        assert_eq!(d[[1, 0]], -1);
    }

    #[test]
    fn nalgebra_matrices_as_tensor_views() {
        let m = Matrix3::new(1, 2, 3, 4, 5, 6, 7, 8, 9);
        let t = TensorView::<i32, shape![3, 3]>::from_nalgebra_view(&m).unwrap();
        assert_eq!(first(&t), m.as_ptr());
        assert_eq!(t.strides(), [1, 3]);
        assert_eq!(t.to_vec(), (1..=9).collect::<Vec<_>>());
        let block = m.view((1, 1), (2, 2));
        let t = TensorView::<i32, DynShape>::from_nalgebra_view(&block).unwrap();
        assert_eq!(t.strides(), [1, 3]);
        assert_eq!(t.to_vec(), [5, 6, 8, 9]);
        assert_eq!(first(&t), &m[(1, 1)] as *const i32);
        assert!(TensorView::<i32, shape![3]>::from_nalgebra_view(&m).is_err());
        let mut d = DMatrix::<f64>::zeros(2, 3);
        {
            let mut t = TensorViewMut::<f64, shape![2, 3]>::from_nalgebra_view_mut(&mut d).unwrap();
            t.fill(2.0);
            t[[1, 2]] = 4.0;
        }
        assert_eq!(d[(1, 2)], 4.0);
        assert_eq!(d.sum(), 14.0);
        let mut block = d.view_mut((0, 1), (2, 2));
        let mut t = TensorViewMut::<f64, DynShape>::from_nalgebra_view_mut(&mut block).unwrap();
        t[[0, 0]] = -1.0;
        assert_eq!(d[(0, 1)], -1.0);
        // A read-only nalgebra view with a stride of 0 is a tensor view with
        // one; a writable one with overlapping strides is refused.
        let data = [1.0f32, 2.0, 3.0];
        let rows = DMatrixView::from_slice_with_strides(&data, 2, 3, 0, 1);
        let t = TensorView::<f32, DynShape>::from_nalgebra_view(&rows).unwrap();
        assert_eq!(t.strides(), [0, 1]);
        assert_eq!(t.to_vec(), [1.0, 2.0, 3.0, 1.0, 2.0, 3.0]);
        assert_eq!(
            super::matrix_layout::<DynShape>([2, 3], [0, 1], 4, true)
                .unwrap_err()
                .to_string(),
            Error::InternalOverlap.to_string()
        );
    }

    #[test]
    fn static_matrices_to_static_shapes() {
        let m = Matrix2x3::new(1.0f64, 2.0, 3.0, 4.0, 5.0, 6.0);
        let t: Tensor<f64, shape![2, 3]> = m.into();
        assert_eq!(t.to_vec(), [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
        assert!(t.is_contiguous());
        let back: Matrix2x3<f64> = (&t).into();
        assert_eq!(back, m);
        let tt: SMatrix<f64, 3, 2> = t.t().into();
        assert_eq!(tt, m.transpose());
        let owned: Matrix2x3<f64> = t.into();
        assert_eq!(owned, m);
        // Large static sizes: 1024 and a power of two beyond it.
        let v = SMatrix::<u8, 1, 1024>::from_fn(|_, j| j as u8);
        let t = Tensor::<u8, shape![1, 1024]>::from(v);
        assert_eq!(t[[0, 300]], 44);
        let z = SMatrix::<u8, 2048, 1>::zeros();
        assert_eq!(Tensor::<u8, shape![2048, 1]>::from(z).numel(), 2048);
        // Through Dyn and back.
        let d = Tensor::<f64, shape![2, 3]>::from(m).into_dyn();
        let s: Tensor<f64, shape![2, 3]> = d.into_static().unwrap();
        assert_eq!(Matrix2x3::from(s), m);
    }

    #[test]
    fn every_dtype_round_trips() {
        fn check<T: Element>(values: [T; 4]) {
            let m = DMatrix::from_row_slice(2, 2, &values);
            let t = DynTensor::<T>::from_dmatrix(m.clone()).unwrap();
            assert_eq!(t.to_vec(), values);
            let s = t.into_static::<shape![2, 2]>().unwrap();
            assert_eq!(s.as_nalgebra().unwrap(), m);
            assert_eq!(s.to_dmatrix(), m);
            let sm: SMatrix<T, 2, 2> = (&s).into();
            let again: Tensor<T, shape![2, 2]> = sm.into();
            assert_eq!(again.to_vec(), values);
            assert_eq!(s.into_dmatrix(), m);
        }
        check([f16::ONE, f16::ZERO, f16::MAX, f16::MIN_POSITIVE]);
        check([bf16::ONE, bf16::ZERO, bf16::MAX, bf16::MIN_POSITIVE]);
        check([1.5f32, -0.0, 3.0, 4.0]);
        check([1.5f64, -0.0, 3.0, 4.0]);
        check([
            Complex::new(1.0f32, -1.0),
            Complex::default(),
            Complex::new(0.5, 0.5),
            Complex::new(2.0, 0.0),
        ]);
        check([
            Complex::new(1.0f64, -1.0),
            Complex::default(),
            Complex::new(0.5, 0.5),
            Complex::new(2.0, 0.0),
        ]);
        check([0u8, 1, 254, 255]);
        check([i8::MIN, -1, 0, i8::MAX]);
        check([i16::MIN, -1, 0, i16::MAX]);
        check([i32::MIN, -1, 0, i32::MAX]);
        check([i64::MIN, -1, 0, i64::MAX]);
        check([true, false, false, true]);
    }
}
