//! Reading by index tensors: `index_select`, `gather`, `take` and
//! `take_along_dim`, with PyTorch's semantics. Each returns a copy.
//!
//! | operation | static shapes | runtime dims (`DynTensor`) |
//! |---|---|---|
//! | rows or columns by a vector of indices | `x.index_select::<0>(&idx)` | `x.index_select(0, &idx)?` |
//! | one element per index position, along a dim | `x.gather::<1>(&idx)` | `x.gather(1, &idx)?` |
//! | elements of the flattened tensor | `x.take(&idx)` | `x.take(&idx)?` |
//! | `gather` with broadcasting | `x.take_along_dim::<1>(&idx)` | `x.take_along_dim(&idx, Some(1))?` |
//!
//! On static shapes the compiler computes the result's shape and refuses
//! what PyTorch refuses on shapes and dtypes (a dim out of range, ranks
//! that differ, an index larger than the input, an index of a float
//! dtype); see `ui-tests/fail/index_*.rs`. Index values are checked at run
//! time: the panicking forms panic with PyTorch's text, their `try_` twins
//! return it. The typed forms that take a dim in the type are the methods
//! of [`IndexBy`] (in the prelude).
//!
//! As in PyTorch 2.15: `index_select` and `gather` take int64 or int32
//! indices, `take` and `take_along_dim` int64. A negative index is an
//! error for `index_select` and `gather`, counts from the end for `take`,
//! and `take_along_dim` along a dim takes every index modulo the
//! dimension's size (so it never reports one outside).
//!
//! ```
//! use shaped::prelude::*;
//! let x = Tensor::<f32, shape![3, 2]>::from_vec(vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0]).unwrap();
//! let rows = Tensor::<i64, shape![2]>::from_vec(vec![2, 0]).unwrap();
//! let picked: Tensor<f32, shape![2, 2]> = x.index_select::<0>(&rows);
//! assert_eq!(picked.to_vec(), [5.0, 6.0, 1.0, 2.0]);
//!
//! let idx = Tensor::<i64, shape![3, 1]>::from_vec(vec![1, 0, 1]).unwrap();
//! let one_per_row: Tensor<f32, shape![3, 1]> = x.gather::<1>(&idx);
//! assert_eq!(one_per_row.to_vec(), [2.0, 3.0, 6.0]);
//! ```

use crate::backend::{GatherFault, GatherSource, IndexWrap, Indexing, StridedRef};
use crate::dtype::{DType, Element, IndexElement, LongIndex};
use crate::error::{Error, IndexOp, OrPanic};
use crate::layout::views::wrap_dim;
use crate::layout::{StridedLayout, checked_numel, is_contiguous, numel};
use crate::ops::broadcast_strides;
use crate::ops::functions::Identity;
use crate::shape::broadcast_sizes_into;
use crate::shape::dynamic::DynShape;
use crate::shape::index::{GatherShape, IndexSelect, TakeAlongShape};
use crate::shape::list::TupleShape;
use crate::shape::{Shape, SizeArray};
use crate::storage::Repr;
use crate::tensor::{OwnedParts, Tensor, from_parts, owned_parts};

/// `D::gather` over `sizes` into an owned tensor's parts; `fault` words
/// an index outside the dimension.
fn gathered<T: Element, I: IndexElement, Z: SizeArray, D: Indexing>(
    sizes: Z,
    source: GatherSource<'_, T, D>,
    index: StridedRef<'_, I, D>,
    wrap: IndexWrap,
    fault: impl FnOnce(i64) -> Error,
) -> Result<OwnedParts<T, D, Z>, Error> {
    checked_numel(sizes.as_ref())?;
    match D::gather(sizes.as_ref(), source, index, wrap) {
        Ok(buffer) => Ok(owned_parts(buffer, StridedLayout::contiguous(sizes))),
        Err(GatherFault::Index(index)) => Err(fault(index)),
        Err(GatherFault::Failed(e)) => Err(e),
    }
}

/// `strides` over the output's sizes `out` (of the same rank): its own
/// where the sizes agree, 0 where a size 1 is stretched and along `dim`.
fn strides_over<Z: SizeArray>(
    sizes: &[usize],
    strides: &[usize],
    out: &[usize],
    dim: Option<usize>,
) -> Z {
    let mut over = Z::filled(out.len(), 0);
    broadcast_strides(sizes, strides, out, over.as_mut());
    // (A rank-0 output has no dimension `dim`.)
    if let Some(o) = dim.and_then(|d| over.as_mut().get_mut(d)) {
        *o = 0;
    }
    over
}

/// `index_select` on shape-erased operands.
fn index_select_parts<T: Element, I: IndexElement, Z: SizeArray, D: Indexing>(
    src: StridedRef<'_, T, D>,
    dim: isize,
    index: StridedRef<'_, I, D>,
) -> Result<OwnedParts<T, D, Z>, Error> {
    let rank = src.sizes.len();
    let d = wrap_dim(dim, rank)?;
    if index.sizes.len() > 1 {
        return Err(Error::IndexSelectRank);
    }
    let count = numel(index.sizes);
    if rank == 0 && count != 1 {
        return Err(Error::IndexToScalar { count });
    }
    // A rank-0 tensor is one element along its one dim.
    let (dim_len, dim_stride) = match rank {
        0 => (1, 0),
        _ => (src.sizes[d], src.strides[d]),
    };
    // PyTorch's texts for an index outside: its fast path's along
    // dimension 1 of a matrix or more (and on every dimension of an empty
    // tensor), the generic one elsewhere.
    let data_bounds = rank >= 2 && (d == 1 || numel(src.sizes) == 0);
    let fault = |id| match data_bounds {
        true => Error::IndicesOutOfData {
            id,
            axis_dim: dim_len,
        },
        false => Error::IndexOutOfBounds {
            op: IndexOp::IndexSelect,
            index: id,
            dim: d,
            size: dim_len,
        },
    };
    if numel(src.sizes) == 0 && count > 0 {
        // Nothing to read, but PyTorch still checks the indices.
        if dim_len == 0 && rank >= 2 {
            return Err(Error::IndexSelectEmptyAxis);
        }
        let all = StridedRef {
            ptr: index.ptr,
            ..index
        };
        match D::check_indices(all, dim_len, IndexWrap::Never) {
            Err(GatherFault::Index(id)) => return Err(fault(id)),
            Err(GatherFault::Failed(e)) => return Err(e),
            Ok(()) => {}
        }
    }
    let mut sizes = Z::copied(src.sizes);
    let mut index_strides = Z::filled(rank, 0);
    if rank > 0 {
        sizes.as_mut()[d] = count;
        index_strides.as_mut()[d] = index.strides.first().copied().unwrap_or(0);
    }
    let src_strides: Z = strides_over(src.sizes, src.strides, sizes.as_ref(), Some(d));
    let source = GatherSource {
        elements: StridedRef {
            ptr: src.ptr,
            sizes: sizes.as_ref(),
            strides: src_strides.as_ref(),
            offset: src.offset,
        },
        dim_stride,
        dim_len,
    };
    let index = StridedRef {
        ptr: index.ptr,
        sizes: sizes.as_ref(),
        strides: index_strides.as_ref(),
        offset: index.offset,
    };
    gathered(sizes.clone(), source, index, IndexWrap::Never, fault)
}

/// `gather` on shape-erased operands (also `take_along_dim` once
/// broadcast, with `wrap` [`IndexWrap::Modulo`]).
fn gather_parts<T: Element, I: IndexElement, Z: SizeArray, D: Indexing>(
    src: StridedRef<'_, T, D>,
    dim: isize,
    index: StridedRef<'_, I, D>,
    wrap: IndexWrap,
) -> Result<OwnedParts<T, D, Z>, Error> {
    let rank = src.sizes.len();
    let d = wrap_dim(dim, rank)?;
    // Ranks 0 and 1 count as one.
    if index.sizes.len().max(1) != rank.max(1) {
        return Err(Error::GatherRank);
    }
    let same_rank = index.sizes.len() == rank;
    // (An empty index is not compared.)
    let compared = same_rank && numel(index.sizes) > 0;
    if let Some(k) = (0..rank).find(|&k| compared && k != d && index.sizes[k] > src.sizes[k]) {
        return Err(Error::GatherSize {
            dim: k,
            index: index.sizes.to_vec(),
            input: src.sizes.to_vec(),
            gathered: d,
        });
    }
    let sizes = Z::copied(index.sizes);
    let (dim_len, dim_stride) = match rank {
        0 => (1, 0),
        _ => (src.sizes[d], src.strides[d]),
    };
    // The index is no larger than the source off `d`: the source's own
    // strides walk the index's positions (a rank-0 source or index has
    // none but `d`'s).
    let mut src_strides = Z::filled(index.sizes.len(), 0);
    if same_rank {
        src_strides.as_mut().copy_from_slice(src.strides);
        if rank > 0 {
            src_strides.as_mut()[d] = 0;
        }
    }
    let source = GatherSource {
        elements: StridedRef {
            ptr: src.ptr,
            sizes: sizes.as_ref(),
            strides: src_strides.as_ref(),
            offset: src.offset,
        },
        dim_stride,
        dim_len,
    };
    let index = StridedRef {
        sizes: sizes.as_ref(),
        ..index
    };
    let fault = |index| Error::IndexOutOfBounds {
        op: IndexOp::Gather,
        index,
        dim: d,
        size: dim_len,
    };
    gathered(sizes.clone(), source, index, wrap, fault)
}

/// `take` on shape-erased operands: `src` read as one row-major vector.
fn take_parts<T: Element, I: IndexElement, Z: SizeArray, D: Indexing>(
    src: StridedRef<'_, T, D>,
    index: StridedRef<'_, I, D>,
) -> Result<OwnedParts<T, D, Z>, Error> {
    let count = checked_numel(src.sizes)?;
    if count == 0 && numel(index.sizes) > 0 {
        return Err(Error::TakeFromEmpty);
    }
    // A strided source is read from a row-major copy.
    let copy;
    let (ptr, offset) = if is_contiguous(src.sizes, src.strides) {
        (src.ptr, src.offset)
    } else {
        copy = D::map1(src, Identity)?;
        (D::ptr(&copy), 0)
    };
    let sizes = Z::copied(index.sizes);
    let zeros = Z::filled(sizes.as_ref().len(), 0);
    let source = GatherSource {
        elements: StridedRef {
            ptr,
            sizes: sizes.as_ref(),
            strides: zeros.as_ref(),
            offset,
        },
        dim_stride: 1,
        dim_len: count,
    };
    let fault = |index| Error::IndexOutOfBounds {
        op: IndexOp::Take,
        index,
        dim: 0,
        size: count,
    };
    gathered(sizes.clone(), source, index, IndexWrap::FromEnd, fault)
}

/// `take_along_dim` along `dim` on shape-erased operands, in PyTorch's
/// order of checks: ranks, the index's dtype, the dim; then both broadcast
/// (the input with `dim` as long as the index's) and `gather` with every
/// index taken modulo the dimension's size.
fn take_along_parts<T: Element, I: IndexElement, Z: SizeArray, D: Indexing>(
    src: StridedRef<'_, T, D>,
    dim: isize,
    index: StridedRef<'_, I, D>,
) -> Result<OwnedParts<T, D, Z>, Error> {
    let rank = src.sizes.len();
    if index.sizes.len() != rank {
        return Err(Error::TakeAlongRank {
            input: rank,
            index: index.sizes.len(),
        });
    }
    if I::DTYPE != DType::I64 {
        return Err(Error::IndexDType {
            op: IndexOp::TakeAlongDim,
            dtype: I::DTYPE,
        });
    }
    let d = wrap_dim(dim, rank)?;
    if rank == 0 {
        return Err(Error::NoDimensions { dim: d });
    }
    let mut stretched = Z::copied(src.sizes);
    stretched.as_mut()[d] = index.sizes[d];
    let mut sizes = Z::filled(rank, 0);
    broadcast_sizes_into(stretched.as_ref(), index.sizes, sizes.as_mut())?;
    if src.sizes[d] == 0 && numel(sizes.as_ref()) > 0 {
        return Err(Error::ZeroDivision);
    }
    let src_strides: Z = strides_over(src.sizes, src.strides, sizes.as_ref(), Some(d));
    let index_strides: Z = strides_over(index.sizes, index.strides, sizes.as_ref(), None);
    let source = GatherSource {
        elements: StridedRef {
            ptr: src.ptr,
            sizes: sizes.as_ref(),
            strides: src_strides.as_ref(),
            offset: src.offset,
        },
        dim_stride: src.strides[d],
        dim_len: src.sizes[d],
    };
    let index = StridedRef {
        ptr: index.ptr,
        sizes: sizes.as_ref(),
        strides: index_strides.as_ref(),
        offset: index.offset,
    };
    // Modulo a non-zero size, no index is outside.
    let fault = |index| Error::IndexOutOfBounds {
        op: IndexOp::TakeAlongDim,
        index,
        dim: d,
        size: 0,
    };
    gathered(sizes.clone(), source, index, IndexWrap::Modulo, fault)
}

/// A tensor as a shape-erased operand.
macro_rules! erased {
    ($x:expr) => {
        StridedRef::new(&$x.data, &$x.layout)
    };
}
#[allow(clippy::useless_attribute, unused_imports)]
use erased;

mod advanced;
mod masks;
pub(crate) use advanced::indexed_shape;
pub use advanced::{AsIndex, Index, IndexDType, IndexItem, IndexOperand, Indices, IntoStepped};
mod scatter;
pub use masks::{MaskElement, RankAsSize};
pub use scatter::{
    IndexAddBy, IndexInto, Reduce, ScatterBy, ScatterElement, ScatterInto, WithReducer,
};
#[cfg(all(test, feature = "cuda"))]
pub(crate) use scatter::{MeanOf, scatter_assign};

/// The result of `index_select::<DIM>` on `X` by `Idx`.
pub type Selected<X, Idx, const DIM: usize> = Tensor<
    <X as IndexBy<Idx>>::Element,
    <<X as IndexBy<Idx>>::InputShape as IndexSelect<DIM, <X as IndexBy<Idx>>::IndexShape>>::Output,
    <X as IndexBy<Idx>>::Device,
>;
/// The result of `gather` on `X` by `Idx`: the index's shape.
pub type Gathered<X, Idx> = Tensor<
    <X as IndexBy<Idx>>::Element,
    <X as IndexBy<Idx>>::IndexShape,
    <X as IndexBy<Idx>>::Device,
>;
/// The result of `take_along_dim::<DIM>` on `X` by `Idx`.
pub type TakenAlong<X, Idx, const DIM: usize> = Tensor<
    <X as IndexBy<Idx>>::Element,
    <<X as IndexBy<Idx>>::InputShape as TakeAlongShape<DIM, <X as IndexBy<Idx>>::IndexShape>>::Output,
    <X as IndexBy<Idx>>::Device,
>;

/// The typed forms of indexing by an index tensor `Idx` on static shapes,
/// with the dim in the type: `x.index_select::<0>(&idx)`,
/// `x.gather::<1>(&idx)`, `x.take_along_dim::<1>(&idx)` (in the prelude).
/// The compiler computes each result's shape and refuses a dim out of
/// range, ranks that differ, an index larger than the input and an index
/// of a dtype the operation does not take. The panicking forms panic with
/// PyTorch's text on an index outside the dimension; the `try_` forms
/// return it.
///
/// ```
/// use shaped::prelude::*;
/// let x = Tensor::<i32, shape![2, 3]>::from_vec(vec![1, 2, 3, 4, 5, 6]).unwrap();
/// let cols = Tensor::<i64, shape![4]>::from_vec(vec![2, 2, 0, 1]).unwrap();
/// let y: Tensor<i32, shape![2, 4]> = x.index_select::<1>(&cols);
/// assert_eq!(y.to_vec(), [3, 3, 1, 2, 6, 6, 4, 5]);
/// let far = Tensor::<i64, shape![1]>::from_vec(vec![3]).unwrap();
/// assert_eq!(
///     x.try_index_select::<1>(&far).unwrap_err().to_string(),
///     "INDICES element is out of DATA bounds, id=3 axis_dim=3"
/// );
/// ```
pub trait IndexBy<Idx> {
    /// The input's element type.
    type Element: Element;
    /// The device of both.
    type Device: Indexing;
    /// The input's shape.
    type InputShape: Shape;
    /// The index's shape.
    type IndexShape: Shape;
    /// The index's element type.
    type IndexElement: Element;

    /// The entries of dimension `DIM` at `index` (a vector, or one number,
    /// of int64 or int32), in its order: dimension `DIM` becomes as long as
    /// the index.
    fn index_select<const DIM: usize>(&self, index: &Idx) -> Selected<Self, Idx, DIM>
    where
        Self::InputShape: IndexSelect<DIM, Self::IndexShape>,
        Self::IndexElement: IndexElement;

    /// [`index_select`](Self::index_select), with `Err` for an index outside
    /// the dimension.
    fn try_index_select<const DIM: usize>(
        &self,
        index: &Idx,
    ) -> Result<Selected<Self, Idx, DIM>, Error>
    where
        Self::InputShape: IndexSelect<DIM, Self::IndexShape>,
        Self::IndexElement: IndexElement;

    /// For each position of `index` (int64 or int32), the input's element
    /// there with its coordinate along `DIM` replaced by the index's value:
    /// the result has the index's shape. The index has the input's rank and,
    /// off `DIM`, sizes no larger.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = Tensor::<f32, shape![2, 3]>::from_vec(vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0]).unwrap();
    /// let idx = Tensor::<i64, shape![2, 2]>::from_vec(vec![2, 0, 1, 1]).unwrap();
    /// assert_eq!(x.gather::<1>(&idx).to_vec(), [3.0, 1.0, 5.0, 5.0]);
    /// ```
    fn gather<const DIM: usize>(&self, index: &Idx) -> Gathered<Self, Idx>
    where
        Self::InputShape: GatherShape<DIM, Self::IndexShape>,
        Self::IndexElement: IndexElement;

    /// [`gather`](Self::gather), with `Err` for an index outside the
    /// dimension.
    fn try_gather<const DIM: usize>(&self, index: &Idx) -> Result<Gathered<Self, Idx>, Error>
    where
        Self::InputShape: GatherShape<DIM, Self::IndexShape>,
        Self::IndexElement: IndexElement;

    /// `gather` along `DIM` of the input and an int64 index broadcast
    /// together (the input with `DIM` as long as the index's), as NumPy's
    /// `take_along_axis`; every index is taken modulo the dimension's size,
    /// as PyTorch 2.15 does. Panics only on an empty dimension (PyTorch's
    /// `ZeroDivisionError`) or `Dyn` sizes that do not broadcast.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = Tensor::<f32, shape![2, 3]>::from_vec(vec![3.0, 1.0, 2.0, 9.0, 7.0, 8.0]).unwrap();
    /// let smallest = Tensor::<i64, shape![2, 1]>::from_vec(vec![1, -2]).unwrap();
    /// let y: Tensor<f32, shape![2, 1]> = x.take_along_dim::<1>(&smallest);
    /// assert_eq!(y.to_vec(), [1.0, 7.0]);
    /// ```
    fn take_along_dim<const DIM: usize>(&self, index: &Idx) -> TakenAlong<Self, Idx, DIM>
    where
        Self::InputShape: TakeAlongShape<DIM, Self::IndexShape>,
        Self::IndexElement: LongIndex;

    /// [`take_along_dim`](Self::take_along_dim), with `Err` where it
    /// panics.
    fn try_take_along_dim<const DIM: usize>(
        &self,
        index: &Idx,
    ) -> Result<TakenAlong<Self, Idx, DIM>, Error>
    where
        Self::InputShape: TakeAlongShape<DIM, Self::IndexShape>,
        Self::IndexElement: LongIndex;
}

impl<T, S, D, R, I, SI, RI> IndexBy<Tensor<I, SI, D, RI>> for Tensor<T, S, D, R>
where
    T: Element,
    S: Shape + TupleShape,
    D: Indexing,
    R: Repr,
    I: Element,
    SI: Shape,
    RI: Repr,
{
    type Element = T;
    type Device = D;
    type InputShape = S;
    type IndexShape = SI;
    type IndexElement = I;

    fn index_select<const DIM: usize>(
        &self,
        index: &Tensor<I, SI, D, RI>,
    ) -> Tensor<T, <S as IndexSelect<DIM, SI>>::Output, D>
    where
        S: IndexSelect<DIM, SI>,
        I: IndexElement,
    {
        self.try_index_select::<DIM>(index).or_panic()
    }

    fn try_index_select<const DIM: usize>(
        &self,
        index: &Tensor<I, SI, D, RI>,
    ) -> Result<Tensor<T, <S as IndexSelect<DIM, SI>>::Output, D>, Error>
    where
        S: IndexSelect<DIM, SI>,
        I: IndexElement,
    {
        Ok(from_parts!(index_select_parts(
            erased!(self),
            DIM as isize,
            erased!(index)
        )?))
    }

    fn gather<const DIM: usize>(&self, index: &Tensor<I, SI, D, RI>) -> Tensor<T, SI, D>
    where
        S: GatherShape<DIM, SI>,
        I: IndexElement,
    {
        self.try_gather::<DIM>(index).or_panic()
    }

    fn try_gather<const DIM: usize>(
        &self,
        index: &Tensor<I, SI, D, RI>,
    ) -> Result<Tensor<T, SI, D>, Error>
    where
        S: GatherShape<DIM, SI>,
        I: IndexElement,
    {
        let parts = gather_parts(
            erased!(self),
            DIM as isize,
            erased!(index),
            IndexWrap::Never,
        )?;
        Ok(from_parts!(parts))
    }

    fn take_along_dim<const DIM: usize>(
        &self,
        index: &Tensor<I, SI, D, RI>,
    ) -> Tensor<T, <S as TakeAlongShape<DIM, SI>>::Output, D>
    where
        S: TakeAlongShape<DIM, SI>,
        I: LongIndex,
    {
        self.try_take_along_dim::<DIM>(index).or_panic()
    }

    fn try_take_along_dim<const DIM: usize>(
        &self,
        index: &Tensor<I, SI, D, RI>,
    ) -> Result<Tensor<T, <S as TakeAlongShape<DIM, SI>>::Output, D>, Error>
    where
        S: TakeAlongShape<DIM, SI>,
        I: LongIndex,
    {
        Ok(from_parts!(take_along_parts(
            erased!(self),
            DIM as isize,
            erased!(index)
        )?))
    }
}

impl<T: Element, S: Shape + TupleShape, D: Indexing, R: Repr> Tensor<T, S, D, R> {
    /// The elements of `self` read as one row-major vector, at `index`
    /// (int64; negative indices count from the end): the result has the
    /// index's shape. Panics with PyTorch's text when an index is outside.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = Tensor::<i32, shape![2, 2]>::from_vec(vec![1, 2, 3, 4]).unwrap();
    /// let idx = Tensor::<i64, shape![3]>::from_vec(vec![3, -4, 1]).unwrap();
    /// assert_eq!(x.take(&idx).to_vec(), [4, 1, 2]);
    /// ```
    pub fn take<I: LongIndex, SI: Shape, RI: Repr>(
        &self,
        index: &Tensor<I, SI, D, RI>,
    ) -> Tensor<T, SI, D> {
        self.try_take(index).or_panic()
    }

    /// [`take`](Self::take), with `Err` for an index outside the tensor.
    pub fn try_take<I: LongIndex, SI: Shape, RI: Repr>(
        &self,
        index: &Tensor<I, SI, D, RI>,
    ) -> Result<Tensor<T, SI, D>, Error> {
        Ok(from_parts!(take_parts(erased!(self), erased!(index))?))
    }
}

impl<T: Element, D: Indexing, R: Repr> Tensor<T, DynShape, D, R> {
    /// The entries of dimension `dim` (negative counts from the end) at
    /// `index`, a vector or one number, of dtype int64 or int32; PyTorch's
    /// errors.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = DynTensor::<f32>::from_vec(vec![1.0, 2.0, 3.0, 4.0], &[2, 2]).unwrap();
    /// let idx = DynTensor::<i64>::from_vec(vec![1, 1, 0], &[3]).unwrap();
    /// assert_eq!(x.index_select(0, &idx).unwrap().shape(), [3, 2]);
    /// assert_eq!(x.index_select(-1, &idx).unwrap().to_vec(), [2.0, 2.0, 1.0, 4.0, 4.0, 3.0]);
    /// let far = DynTensor::<i64>::from_vec(vec![2], &[1]).unwrap();
    /// assert_eq!(x.index_select(0, &far).unwrap_err().to_string(), "index out of range in self");
    /// ```
    pub fn index_select<I: IndexElement, SI: Shape, RI: Repr>(
        &self,
        dim: isize,
        index: &Tensor<I, SI, D, RI>,
    ) -> Result<Tensor<T, DynShape, D>, Error> {
        Ok(from_parts!(index_select_parts(
            erased!(self),
            dim,
            erased!(index)
        )?))
    }

    /// `gather` along `dim` (negative counts from the end) with an int64
    /// or int32 index of the same rank; PyTorch's errors.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = DynTensor::<i32>::from_vec(vec![1, 2, 3, 4], &[2, 2]).unwrap();
    /// let idx = DynTensor::<i64>::from_vec(vec![1, 0], &[2, 1]).unwrap();
    /// assert_eq!(x.gather(1, &idx).unwrap().to_vec(), [2, 3]);
    /// let bad = DynTensor::<i64>::from_vec(vec![2, 0], &[2, 1]).unwrap();
    /// assert_eq!(
    ///     x.gather(1, &bad).unwrap_err().to_string(),
    ///     "index 2 is out of bounds for dimension 1 with size 2"
    /// );
    /// ```
    pub fn gather<I: IndexElement, SI: Shape, RI: Repr>(
        &self,
        dim: isize,
        index: &Tensor<I, SI, D, RI>,
    ) -> Result<Tensor<T, DynShape, D>, Error> {
        let parts = gather_parts(erased!(self), dim, erased!(index), IndexWrap::Never)?;
        Ok(from_parts!(parts))
    }

    /// `take`: the elements of the flattened tensor at `index` (int64;
    /// negative counts from the end); the result has the index's sizes.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = DynTensor::<f32>::from_vec(vec![1.0, 2.0, 3.0], &[3]).unwrap();
    /// let idx = DynTensor::<i64>::from_vec(vec![-1, 0], &[2]).unwrap();
    /// assert_eq!(x.take(&idx).unwrap().to_vec(), [3.0, 1.0]);
    /// ```
    pub fn take<I: LongIndex, SI: Shape, RI: Repr>(
        &self,
        index: &Tensor<I, SI, D, RI>,
    ) -> Result<Tensor<T, DynShape, D>, Error> {
        Ok(from_parts!(take_parts(erased!(self), erased!(index))?))
    }

    /// `take_along_dim(index, dim)`: along `Some(dim)`, an int64 index and
    /// the input broadcast together, then `gather` with every index taken
    /// modulo the dimension's size (PyTorch 2.15); with `None`, both
    /// flattened and gathered (PyTorch views them: a tensor that cannot be
    /// viewed flat is its error; int32 indices pass; no index wraps).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = DynTensor::<f32>::from_vec(vec![3.0, 1.0, 2.0, 9.0, 7.0, 8.0], &[2, 3]).unwrap();
    /// let idx = DynTensor::<i64>::from_vec(vec![0, 5], &[1, 2]).unwrap();
    /// assert_eq!(x.take_along_dim(&idx, Some(1)).unwrap().to_vec(), [3.0, 2.0, 9.0, 8.0]);
    /// assert_eq!(x.take_along_dim(&idx, None).unwrap().to_vec(), [3.0, 8.0]);
    /// ```
    pub fn take_along_dim<I: IndexElement, SI: Shape, RI: Repr>(
        &self,
        index: &Tensor<I, SI, D, RI>,
        dim: Option<isize>,
    ) -> Result<Tensor<T, DynShape, D>, Error> {
        match dim {
            Some(dim) => Ok(from_parts!(take_along_parts(
                erased!(self),
                dim,
                erased!(index)
            )?)),
            None => {
                let flat = self.view(&[-1])?;
                let index = index.as_view().into_dyn();
                let index = index.view(&[-1])?;
                let parts = gather_parts(erased!(flat), 0, erased!(index), IndexWrap::Never)?;
                Ok(from_parts!(parts))
            }
        }
    }
}
