//! `contiguous()`, `clone()`, `detach()` and memory formats (SPEC.md
//! section 5): when elements move, and in which order they are laid out.

use super::CowOf;
use crate::dtype::Element;
use crate::error::Error;
use crate::layout::views::Strided;
use crate::layout::{is_contiguous, is_non_overlapping};
use crate::ops::Elementwise;
use crate::shape::Shape;
use crate::storage::{Backend, Repr};
use crate::tensor::Tensor;

/// An order of a tensor's elements in memory (PyTorch's `memory_format`).
///
/// ```
/// use shaped::prelude::*;
/// let img = Tensor::<f32, shape![2, 3, 4, 5]>::zeros();
/// let nhwc = img.contiguous_in(MemoryFormat::ChannelsLast);
/// assert_eq!(nhwc.strides(), [60, 1, 15, 3]);
/// assert!(nhwc.is_contiguous_in(MemoryFormat::ChannelsLast));
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum MemoryFormat {
    /// Row-major: strides decrease from the first dimension to the last.
    Contiguous,
    /// NHWC for 4-d tensors: `strides[0] > strides[2] > strides[3] > strides[1] == 1`.
    ChannelsLast,
    /// NDHWC for 5-d tensors.
    ChannelsLast3d,
    /// Keep the input's strides when it is dense and non-overlapping
    /// (for `clone`), else row-major.
    Preserve,
}

impl MemoryFormat {
    /// The order of the dimensions from the fastest-varying to the slowest,
    /// for a tensor of rank `rank`; `None` when the format does not apply.
    fn fastest_first(self, rank: usize) -> Option<Vec<usize>> {
        match (self, rank) {
            (MemoryFormat::Contiguous, _) => Some((0..rank).rev().collect()),
            (MemoryFormat::ChannelsLast, 4) => Some(vec![1, 3, 2, 0]),
            (MemoryFormat::ChannelsLast3d, 5) => Some(vec![1, 4, 3, 2, 0]),
            _ => None,
        }
    }
}

/// Strides that lay `sizes` out with `order[0]` varying fastest.
fn strides_in_order(sizes: &[usize], order: &[usize]) -> Vec<usize> {
    let mut strides = vec![0; sizes.len()];
    let mut step = 1usize;
    for &d in order {
        strides[d] = step;
        step = step.saturating_mul(sizes[d].max(1));
    }
    strides
}

/// Whether `sizes`/`strides` are laid out in `order` (fastest first),
/// ignoring size-1 dimensions, as PyTorch's `is_contiguous(memory_format)`.
fn is_in_order(sizes: &[usize], strides: &[usize], order: &[usize]) -> bool {
    if sizes.contains(&0) {
        return true;
    }
    let mut expected = 1;
    for &d in order {
        if sizes[d] != 1 {
            if strides[d] != expected {
                return false;
            }
            expected *= sizes[d];
        }
    }
    true
}

impl<T: Element, S: Shape, D: Backend, R: Repr> Tensor<T, S, D, R> {
    /// Whether the elements are laid out in `format` (`Preserve` answers
    /// for row-major).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = Tensor::<f32, shape![2, 3]>::zeros();
    /// assert!(x.is_contiguous_in(MemoryFormat::Contiguous));
    /// assert!(!x.t().is_contiguous_in(MemoryFormat::Contiguous));
    /// assert!(!x.is_contiguous_in(MemoryFormat::ChannelsLast)); // not 4-d
    /// ```
    pub fn is_contiguous_in(&self, format: MemoryFormat) -> bool {
        let format = if format == MemoryFormat::Preserve {
            MemoryFormat::Contiguous
        } else {
            format
        };
        match format.fastest_first(self.rank()) {
            Some(order) => is_in_order(self.layout.sizes(), self.layout.strides(), &order),
            None => false,
        }
    }

    /// The same tensor, detached (there is no autograd here: a view sharing
    /// storage, as PyTorch's `detach()`).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = Tensor::<f32, shape![2]>::ones();
    /// assert!(x.detach().shares_storage_with(&x));
    /// ```
    pub fn detach(&self) -> super::ViewOf<'_, T, S, D, R> {
        self.as_view()
    }
}

impl<T: Element, S: Shape, D: Elementwise, R: Repr> Tensor<T, S, D, R> {
    /// The tensor itself when it is contiguous, else a contiguous copy
    /// (PyTorch's `contiguous()`).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let base = tensor![[0, 1], [2, 3]];
    /// let t = base.t();
    /// assert!(!t.is_contiguous());
    /// let c = t.contiguous();
    /// assert!(c.is_contiguous() && !c.shares_storage_with(&base));
    /// assert_eq!(c.to_vec(), vec![0, 2, 1, 3]);
    /// ```
    pub fn contiguous(&self) -> CowOf<'_, T, S, D, R> {
        self.contiguous_in(MemoryFormat::Contiguous)
    }

    /// The tensor itself when it is laid out in `format`, else a copy that
    /// is. Formats that do not apply to this rank (channels-last needs 4-d,
    /// channels-last-3d 5-d) panic, as in PyTorch; `Preserve` is
    /// `Contiguous` here.
    pub fn contiguous_in(&self, format: MemoryFormat) -> CowOf<'_, T, S, D, R> {
        self.try_contiguous_in(format)
            .unwrap_or_else(|e| panic!("{e}"))
    }

    /// [`contiguous_in`](Self::contiguous_in), with `Err` for a format that
    /// does not apply to the rank or a failed allocation.
    pub fn try_contiguous_in(&self, format: MemoryFormat) -> Result<CowOf<'_, T, S, D, R>, Error> {
        let format = if format == MemoryFormat::Preserve {
            MemoryFormat::Contiguous
        } else {
            format
        };
        let order = format
            .fastest_first(self.rank())
            .ok_or(Error::MemoryFormatRank {
                format,
                rank: self.rank(),
            })?;
        if is_in_order(self.layout.sizes(), self.layout.strides(), &order) {
            return Ok(self.cow_view(self.strided_layout()));
        }
        let copy = self.copy_in_order(&order)?;
        Ok(Tensor {
            data: R::cow_owned(copy.data),
            layout: copy.layout,
        })
    }

    /// A new tensor with the same elements (PyTorch's `clone()` with
    /// `preserve_format`): a non-overlapping layout keeps the order of its
    /// strides (a transpose stays a transpose; gaps close up), an
    /// overlapping one (an expanded view) becomes row-major.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let base = Tensor::<f32, shape![2, 3]>::zeros();
    /// let c = base.t().clone();
    /// assert_eq!(c.strides(), [1, 3]);
    /// assert!(!c.shares_storage_with(&base));
    /// ```
    #[allow(clippy::should_implement_trait)]
    pub fn clone(&self) -> Tensor<T, S, D> {
        self.try_clone().unwrap_or_else(|e| panic!("{e}"))
    }

    /// [`clone`](Self::clone), with `Err` when allocation fails.
    pub fn try_clone(&self) -> Result<Tensor<T, S, D>, Error> {
        let (sizes, strides) = (self.layout.sizes(), self.layout.strides());
        // As PyTorch: a dense layout keeps its strides exactly; any other
        // non-overlapping one keeps the order of its strides with the gaps
        // closed; an overlapping one becomes row-major.
        if !is_non_overlapping(sizes, strides) {
            return self.contiguous_copy();
        }
        let mut order: Vec<usize> = (0..self.rank()).collect();
        // Fastest first; ties (size-1 dims) keep the row-major order.
        order.sort_by_key(|&d| (strides[d], usize::MAX - d));
        let mut copy = self.copy_in_order(&order)?;
        if is_dense(sizes, strides) {
            copy.layout = crate::layout::Layout::from_parts(
                crate::layout::array_from::<S>(sizes),
                crate::layout::array_from::<S>(strides),
                0,
            );
        }
        Ok(copy)
    }

    /// A contiguous copy (row-major), as an owned tensor.
    pub(crate) fn contiguous_copy(&self) -> Result<Tensor<T, S, D>, Error> {
        self.copy_in_order(&(0..self.rank()).rev().collect::<Vec<_>>())
    }

    /// A copy whose layout has `order[0]` varying fastest.
    fn copy_in_order(&self, order: &[usize]) -> Result<Tensor<T, S, D>, Error> {
        let sizes = self.layout.sizes();
        // Walk the elements in the target order: permute so that order[0] is
        // the last dimension, copy row-major, then put the dimensions back.
        let slowest_first: Vec<isize> = order.iter().rev().map(|&d| d as isize).collect();
        let walked = self.strided_layout().permute(&slowest_first)?;
        let view: super::ViewOf<'_, T, crate::DynShape, D, R> = self.reinterpret(walked);
        let buffer = D::map1(view.strided(), crate::ops::kernels::Identity)?;
        let strides = strides_in_order(sizes, order);
        let layout = crate::layout::Layout::from_parts(
            crate::layout::array_from::<S>(sizes),
            crate::layout::array_from::<S>(&strides),
            0,
        );
        Ok(Tensor::from_buffer(buffer, layout))
    }
}

/// PyTorch's `is_non_overlapping_and_dense`: some order of the dimensions
/// (size-1 ones aside) is row-major with no gaps.
fn is_dense(sizes: &[usize], strides: &[usize]) -> bool {
    if sizes.contains(&0) {
        return true;
    }
    let mut dims: Vec<usize> = (0..sizes.len()).filter(|&d| sizes[d] != 1).collect();
    dims.sort_by_key(|&d| strides[d]);
    let mut expected = 1;
    for d in dims {
        if strides[d] != expected {
            return false;
        }
        expected *= sizes[d];
    }
    true
}

impl Strided {
    /// Whether the layout is row-major.
    pub fn is_contiguous(&self) -> bool {
        is_contiguous(self.sizes(), self.strides())
    }
}
