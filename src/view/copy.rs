//! `contiguous()`, `clone()`, `detach()` and memory formats: when elements
//! move, and in which order they are laid out.

use super::CowOf;
use crate::backend::Elementwise;
use crate::backend::{Backend, StridedRef};
use crate::dtype::Element;
use crate::error::Error;
use crate::error::OrPanic;
use crate::layout::MemoryFormat;
use crate::layout::views::Strided;
use crate::layout::{StridedLayout, array_from, is_contiguous};
use crate::shape::{Shape, SizeArray};
use crate::storage::Repr;
use crate::tensor::{OwnedParts, Tensor, from_parts, owned_parts};

/// Strides that lay `sizes` out with `order[0]` varying fastest. A size-0
/// dimension counts as 1 (the row-major rule of PyTorch's `empty`, and the
/// one of `infer_dense_strides`); `clone` and `contiguous` with
/// channels-last formats use [`channels_last_strides`] instead.
fn strides_in_order(sizes: &[usize], order: &[usize]) -> Vec<usize> {
    let mut strides = vec![0; sizes.len()];
    let mut step = 1usize;
    for &d in order {
        strides[d] = step;
        step = step.saturating_mul(sizes[d].max(1));
    }
    strides
}

/// PyTorch's `get_channels_last_strides_2d`/`_3d`: the channels-last
/// strides multiply the raw sizes, so a size-0 dimension gives the
/// dimensions after it in the order stride 0 (`[2, 3, 0, 4]` gets
/// `[0, 1, 12, 3]`).
fn channels_last_strides(sizes: &[usize], order: &[usize]) -> Vec<usize> {
    let mut strides = vec![0; sizes.len()];
    let mut step = 1usize;
    for &d in order {
        strides[d] = step;
        step = step.saturating_mul(sizes[d]);
    }
    strides
}

/// Whether `sizes`/`strides` are laid out in `order` (fastest first),
/// ignoring size-1 dimensions, as PyTorch's `is_contiguous(memory_format)`.
/// Row-major contiguity holds for any tensor of no elements; the
/// channels-last tests have no such shortcut in PyTorch (`[2, 3, 0, 4]`
/// with row-major strides is not channels-last contiguous).
fn is_in_order(sizes: &[usize], strides: &[usize], order: &[usize]) -> bool {
    let row_major = order.iter().rev().copied().eq(0..order.len());
    if row_major && sizes.contains(&0) {
        return true;
    }
    let mut expected = 1usize;
    for &d in order {
        if sizes[d] != 1 {
            if strides[d] != expected {
                return false;
            }
            expected = expected.saturating_mul(sizes[d]);
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
        let copy = copy_in_format(
            StridedRef::new(&self.data, &self.layout),
            MemoryFormat::Contiguous,
        );
        self.itself_or(copy.or_panic())
    }

    /// The tensor itself when it is laid out in `format`, else a copy that
    /// is. Formats that do not apply to this rank (channels-last needs 4-d,
    /// channels-last-3d 5-d) panic, as in PyTorch; `Preserve` is
    /// `Contiguous` here.
    pub fn contiguous_in(&self, format: MemoryFormat) -> CowOf<'_, T, S, D, R> {
        let copy = copy_in_format(StridedRef::new(&self.data, &self.layout), format);
        self.itself_or(copy.or_panic())
    }

    /// [`contiguous_in`](Self::contiguous_in), with `Err` for a format that
    /// does not apply to the rank or a failed allocation.
    pub fn try_contiguous_in(&self, format: MemoryFormat) -> Result<CowOf<'_, T, S, D, R>, Error> {
        let copy = copy_in_format(StridedRef::new(&self.data, &self.layout), format)?;
        Ok(self.itself_or(copy))
    }

    /// A copy-on-write tensor: `copy` when there is one, else a view of `self`.
    fn itself_or(&self, copy: Option<OwnedParts<T, D, S::Sizes>>) -> CowOf<'_, T, S, D, R> {
        match copy {
            None => Tensor {
                data: R::cow_viewed(&self.data),
                layout: self.layout.clone(),
            },
            Some((data, layout)) => Tensor {
                data: R::cow_owned(data),
                layout,
            },
        }
    }

    /// A new tensor with the same elements (PyTorch's `clone()` with
    /// `preserve_format`): a dense non-overlapping layout keeps its strides
    /// exactly; any other keeps the order of its strides with the gaps
    /// closed (a sliced transpose stays a transpose), where stride-0
    /// (expanded) dimensions keep their row-major place.
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
        from_parts!(preserving_copy(StridedRef::new(&self.data, &self.layout)).or_panic())
    }

    /// [`clone`](Self::clone), with `Err` when allocation fails.
    pub fn try_clone(&self) -> Result<Tensor<T, S, D>, Error> {
        Ok(from_parts!(preserving_copy(StridedRef::new(
            &self.data,
            &self.layout
        ))?))
    }

    /// A contiguous copy (row-major), as an owned tensor.
    pub(crate) fn contiguous_copy(&self) -> Result<Tensor<T, S, D>, Error> {
        let order: Vec<usize> = (0..self.layout.rank()).rev().collect();
        let (buffer, layout) = copy_in_order(StridedRef::new(&self.data, &self.layout), &order)?;
        Ok(Tensor::from_buffer(buffer, layout))
    }
}

/// The copy behind `contiguous_in(format)`, or `None` when `src` is already
/// laid out in `format`. Like every copy below, it is generic over the
/// layout's arrays (`A`), not the tensor's shape, so one compiled copy
/// serves every shape of a rank.
#[allow(clippy::type_complexity)]
fn copy_in_format<T: Element, D: Elementwise, A: SizeArray>(
    src: StridedRef<'_, T, D>,
    format: MemoryFormat,
) -> Result<Option<OwnedParts<T, D, A>>, Error> {
    let format = if format == MemoryFormat::Preserve {
        MemoryFormat::Contiguous
    } else {
        format
    };
    let (sizes, rank) = (src.sizes, src.sizes.len());
    let order = format
        .fastest_first(rank)
        .ok_or(Error::MemoryFormatRank { format, rank })?;
    if is_in_order(sizes, src.strides, &order) {
        return Ok(None);
    }
    let (buffer, mut layout) = copy_in_order::<T, D, A>(src, &order)?;
    if format != MemoryFormat::Contiguous {
        // Only the strides of a tensor of no elements can differ.
        let strides = channels_last_strides(sizes, &order);
        layout = StridedLayout::from_parts(layout.size_array().clone(), array_from(&strides), 0);
    }
    Ok(Some(owned_parts(buffer, layout)))
}

/// The copy behind `clone()` (PyTorch's `preserve_format`).
fn preserving_copy<T: Element, D: Elementwise, A: SizeArray>(
    src: StridedRef<'_, T, D>,
) -> Result<OwnedParts<T, D, A>, Error> {
    let (sizes, strides) = (src.sizes, src.strides);
    // PyTorch's `clone(preserve_format)`: a dense non-overlapping layout
    // gets `empty_strided` with its own strides; any other gets
    // `empty_like`, whose strides come from `infer_dense_strides`.
    if is_dense(sizes, strides) {
        // Copy in the order of the strides (size-1 dimensions, whose
        // strides are arbitrary, place nothing), then keep the strides.
        let mut order: Vec<usize> = (0..sizes.len()).collect();
        order.sort_by_key(|&d| (sizes[d] > 1, strides[d]));
        let (buffer, _) = copy_in_order::<T, D, A>(src, &order)?;
        let layout = StridedLayout::from_parts(array_from(sizes), array_from(strides), 0);
        return Ok(owned_parts(buffer, layout));
    }
    let (buffer, layout) = copy_in_order(src, &dense_order(sizes, strides))?;
    Ok(owned_parts(buffer, layout))
}

/// The strides PyTorch gives an output "like" an input of `sizes` and
/// `strides` (`empty_like` with `preserve_format`): the input's own when
/// they are dense and non-overlapping, else `infer_dense_strides`.
pub(crate) fn like_strides(sizes: &[usize], strides: &[usize]) -> Vec<usize> {
    match is_dense(sizes, strides) {
        true => strides.to_vec(),
        false => strides_in_order(sizes, &dense_order(sizes, strides)),
    }
}

/// `buffer` (laid out with `strides` over `sizes`) as a tensor's parts in
/// the layout PyTorch gives an output "like" an input of strides `like`
/// (`sort`'s: the input's own strides when they are dense and
/// non-overlapping, else `infer_dense_strides`): the buffer itself when it
/// is laid out so already, else a copy in that order.
pub(crate) fn in_layout_like<T: Element, D: Elementwise, A: SizeArray>(
    buffer: D::Buffer<T>,
    sizes: &[usize],
    strides: &[usize],
    like: &[usize],
) -> Result<OwnedParts<T, D, A>, Error> {
    let target = like_strides(sizes, like);
    let layout = StridedLayout::from_parts(array_from(sizes), array_from(&target), 0);
    let same = (0..sizes.len()).all(|d| sizes[d] <= 1 || strides[d] == target[d]);
    if same || sizes.contains(&0) {
        return Ok(owned_parts(buffer, layout));
    }
    let mut order: Vec<usize> = (0..sizes.len()).collect();
    order.sort_by_key(|&d| (sizes[d] > 1, target[d]));
    let src = StridedRef {
        ptr: D::ptr(&buffer),
        sizes,
        strides,
        offset: 0,
    };
    let (copied, _) = copy_in_order::<T, D, A>(src, &order)?;
    Ok(owned_parts(copied, layout))
}

/// A copy of `src` whose layout has `order[0]` varying fastest.
fn copy_in_order<T: Element, D: Elementwise, A: SizeArray>(
    src: StridedRef<'_, T, D>,
    order: &[usize],
) -> Result<(D::Buffer<T>, StridedLayout<A>), Error> {
    let sizes = src.sizes;
    // Walk the elements in the target order: permute so that order[0] is
    // the last dimension, copy row-major, then put the dimensions back.
    let slowest_first: Vec<isize> = order.iter().rev().map(|&d| d as isize).collect();
    let walked = Strided::new(sizes, src.strides, src.offset).permute(&slowest_first)?;
    let buffer = D::map1(
        StridedRef {
            ptr: src.ptr,
            sizes: walked.sizes(),
            strides: walked.strides(),
            offset: walked.offset(),
        },
        crate::ops::functions::Identity,
    )?;
    let strides = strides_in_order(sizes, order);
    let layout = StridedLayout::from_parts(array_from(sizes), array_from(&strides), 0);
    Ok((buffer, layout))
}

/// PyTorch's `is_non_overlapping_and_dense`: some order of the dimensions
/// (size-1 ones aside) is row-major with no gaps. (PyTorch's flag is also set
/// for every contiguous tensor, so for any tensor of no elements.)
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

/// The order (fastest first) of PyTorch's `infer_dense_strides`, which
/// `empty_like(preserve_format)` uses for a layout that is not dense: a
/// stable insertion sort by stride, starting from row-major, where a stride
/// of 0 compares as a tie (expanded dimensions keep their row-major place)
/// and equal strides put the smaller size first. Laying the sizes out in this
/// order gives PyTorch's strides.
fn dense_order(sizes: &[usize], strides: &[usize]) -> Vec<usize> {
    let rank = sizes.len();
    let mut perm: Vec<usize> = (0..rank).rev().collect();
    // 1: `a` goes after `b`; -1: before; 0: ambiguous.
    let should_swap = |a: usize, b: usize| -> i8 {
        let (sa, sb) = (strides[a], strides[b]);
        if sa == 0 || sb == 0 {
            0
        } else if sa != sb {
            if sa < sb { -1 } else { 1 }
        } else if sizes[a] > sizes[b] {
            1
        } else {
            0
        }
    };
    // PyTorch's loop exactly: on a tie it keeps comparing further left
    // without moving the element.
    for i in 1..rank {
        let mut dim1 = i;
        for j in 1..=i {
            let dim0 = i - j;
            match should_swap(perm[dim0], perm[dim1]) {
                1 => {
                    perm.swap(dim0, dim1);
                    dim1 = dim0;
                }
                -1 => break,
                _ => {}
            }
        }
    }
    perm
}

impl Strided {
    /// Whether the layout is row-major.
    pub fn is_contiguous(&self) -> bool {
        is_contiguous(self.sizes(), self.strides())
    }
}
