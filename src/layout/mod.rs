//! Strided layouts, as PyTorch's: sizes, strides and a storage offset.
//!
//! Element `[i0, i1, ..]` of a tensor lives at
//! `offset + i0 * strides[0] + i1 * strides[1] + ..` of its storage. A view
//! is a new layout over the same storage; every view operation is a pure
//! function from one [`Layout`] to another, shared by all shapes and devices.

use crate::error::Error;

mod memory_format;
pub mod views;

use crate::shape::{Shape, SizeArray};
pub use memory_format::MemoryFormat;

/// Sizes, strides (in elements) and the storage offset of a tensor of
/// shape `S`.
///
/// For a static rank the arrays are `[usize; N]`: no heap allocation. The
/// layout type depends only on that array, not on the shape, so every
/// shape of one rank shares one compiled copy of its methods.
///
/// ```
/// use shaped::prelude::*;
/// use shaped::layout::Layout;
/// let l = Layout::<shape![2, 5]>::contiguous([2, 5]);
/// assert_eq!(l.strides(), &[5, 1]);
/// assert!(l.is_contiguous());
/// ```
pub type Layout<S> = StridedLayout<<S as Shape>::Sizes>;

/// The layout type behind [`Layout`]: sizes and strides held in `A`
/// (`[usize; N]` for a static rank), and the storage offset.
///
/// ```
/// use shaped::layout::StridedLayout;
/// let l = StridedLayout::contiguous([3, 4]);
/// assert_eq!(l.strides(), &[4, 1]);
/// assert_eq!(l.storage_span(), Some(12));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct StridedLayout<A: SizeArray> {
    sizes: A,
    strides: A,
    offset: usize,
}

impl<A: SizeArray> StridedLayout<A> {
    /// A row-major (C-contiguous) layout of the given sizes, offset 0.
    pub fn contiguous(sizes: A) -> Self {
        let strides = contiguous_strides::<A>(sizes.as_ref());
        StridedLayout {
            sizes,
            strides,
            offset: 0,
        }
    }

    /// A layout from its parts. Nothing is checked here: a tensor checks a
    /// layout against its storage before using it.
    pub fn from_parts(sizes: A, strides: A, offset: usize) -> Self {
        StridedLayout {
            sizes,
            strides,
            offset,
        }
    }

    /// The sizes, the strides and the offset.
    #[inline]
    pub(crate) fn into_parts(self) -> (A, A, usize) {
        (self.sizes, self.strides, self.offset)
    }

    /// The sizes.
    pub fn sizes(&self) -> &[usize] {
        self.sizes.as_ref()
    }

    /// The sizes, as the shape's array type.
    pub fn size_array(&self) -> &A {
        &self.sizes
    }

    /// The strides, in elements.
    pub fn strides(&self) -> &[usize] {
        self.strides.as_ref()
    }

    /// The strides, as the shape's array type.
    pub fn stride_array(&self) -> &A {
        &self.strides
    }

    /// The storage offset of element `[0, 0, ..]`.
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// The rank.
    pub fn rank(&self) -> usize {
        self.sizes.as_ref().len()
    }

    /// The number of elements.
    pub fn numel(&self) -> usize {
        numel(self.sizes.as_ref())
    }

    /// PyTorch's `is_contiguous()`: row-major with no gaps, ignoring the
    /// strides of size-1 dimensions; empty tensors are contiguous.
    pub fn is_contiguous(&self) -> bool {
        is_contiguous(self.sizes(), self.strides())
    }

    /// The storage index of the element at `index`, checked in PyTorch's
    /// order: too many indices, then the first index out of range, then too
    /// few (an element needs one index per dimension).
    pub fn index_offset(&self, index: &[usize]) -> Result<usize, Error> {
        let sizes = self.sizes();
        if index.len() > sizes.len() {
            return Err(Error::IndexRank {
                rank: sizes.len(),
                indices: index.len(),
            });
        }
        for (dim, (&i, &n)) in index.iter().zip(sizes).enumerate() {
            if i >= n {
                return Err(Error::IndexOutOfRange {
                    index: i as isize,
                    dim,
                    size: n,
                });
            }
        }
        if index.len() != sizes.len() {
            return Err(Error::IndexRank {
                rank: sizes.len(),
                indices: index.len(),
            });
        }
        // Every index is in range, so the tensor has elements and the offset
        // is at most its last element's: no overflow.
        let at = self.offset
            + index
                .iter()
                .zip(self.strides())
                .map(|(&i, &s)| i * s)
                .sum::<usize>();
        Ok(at)
    }

    /// One past the largest storage index this layout reaches (its offset
    /// when empty): the storage must be at least this long. `None` when that
    /// does not fit in `usize` (no tensor holds such a layout: see
    /// [`check_layout`]).
    pub fn storage_span(&self) -> Option<usize> {
        storage_span(self.sizes(), self.strides(), self.offset)
    }

    /// True when no two indices share a storage element: the layout may be
    /// written through. (Zero strides on dimensions of size > 1 overlap.)
    pub fn is_non_overlapping(&self) -> bool {
        is_non_overlapping(self.sizes(), self.strides())
    }

    /// A read-only view of this layout expanded to `sizes` (PyTorch's
    /// `expand`): new leading dimensions and stretched size-1 dimensions get
    /// stride 0. The caller has checked that the sizes broadcast.
    pub(crate) fn expand_to<B: SizeArray>(&self, sizes: B) -> StridedLayout<B> {
        // PyTorch's `infer_expand_geometry`, right to left: a new leading
        // dimension takes the stride that would step over the ones after it,
        // and any dimension that is stretched gets stride 0.
        let rank = sizes.as_ref().len();
        let extra = rank - self.rank();
        let mut strides = B::filled(rank, 0);
        for i in (0..rank).rev() {
            let target = sizes.as_ref()[i];
            let (size, stride) = match i.checked_sub(extra) {
                Some(d) => (self.sizes()[d], self.strides()[d]),
                None if i + 1 < rank => (
                    1,
                    sizes.as_ref()[i + 1].saturating_mul(strides.as_ref()[i + 1]),
                ),
                None => (1, 0),
            };
            strides.as_mut()[i] = if size == target { stride } else { 0 };
        }
        StridedLayout {
            sizes,
            strides,
            offset: self.offset,
        }
    }
}

/// The number of elements of `sizes`: 0 when one of them is 0, else their
/// product. Every tensor's sizes pass [`checked_numel`] in their own order,
/// but a view may put them in another (a permuted `[0, huge, huge]` is
/// `[huge, huge, 0]`), and engine code reorders dimensions: multiplied in
/// order, huge sizes before the 0 would overflow first. Without a 0, the
/// product of a tensor's sizes is its element count, which fits; sizes
/// that no tensor has yet (a broadcast before it is checked) saturate at
/// `usize::MAX`, in debug and release builds alike.
///
/// ```
/// use shaped::layout::numel;
/// assert_eq!(numel(&[2, 3, 4]), 24);
/// assert_eq!(numel(&[1 << 40, 1 << 40, 0]), 0);
/// assert_eq!(numel(&[]), 1);
/// ```
#[inline]
pub fn numel(sizes: &[usize]) -> usize {
    if sizes.contains(&0) {
        0
    } else {
        sizes.iter().fold(1, |n, &s| n.saturating_mul(s))
    }
}

/// The number of elements of `sizes`, or PyTorch's error when it does not
/// fit: as in PyTorch, the sizes are multiplied left to right and no partial
/// product may overflow (see [`checked_storage`]). Every tensor's sizes pass
/// this check.
///
/// ```
/// use shaped::layout::checked_numel;
/// assert_eq!(checked_numel(&[2, 3, 0]).unwrap(), 0);
/// assert_eq!(checked_numel(&[1 << 62, 0, 4]).unwrap(), 0);
/// assert_eq!(
///     checked_numel(&[1 << 62, 4, 0]).unwrap_err().to_string(),
///     "Storage size calculation overflowed with sizes=[4611686018427387904, 4, 0]"
/// );
/// ```
#[inline]
pub fn checked_numel(sizes: &[usize]) -> Result<usize, Error> {
    checked_storage(sizes, 1)
}

/// The bytes of a buffer for `sizes` with elements of `itemsize` bytes, or
/// PyTorch's overflow error, as its `computeStorageNbytesContiguous`: the
/// sizes multiply left to right without overflowing 64 bits (a 0 after
/// the overflow does not undo it), then the item size, and the bytes must
/// fit in `isize` (`[2^62, 2, 0]` of any type and `[2^62, 0]` of `f32` are
/// fine, `[2^62, 4, 0]` is not). No size may pass `isize::MAX` either
/// (PyTorch's sizes are `int64`).
///
/// ```
/// use shaped::layout::checked_storage;
/// assert_eq!(checked_storage(&[2, 3], 4).unwrap(), 24);
/// assert_eq!(checked_storage(&[1 << 62, 2, 0], 8).unwrap(), 0);
/// assert!(checked_storage(&[1 << 62, 4, 0], 1).is_err());
/// assert!(checked_storage(&[1 << 61, 4], 1).is_err());
/// ```
#[inline]
pub fn checked_storage(sizes: &[usize], itemsize: usize) -> Result<usize, Error> {
    let overflow = || Error::StorageOverflow {
        sizes: sizes.to_vec(),
    };
    if sizes.iter().any(|&s| s > isize::MAX as usize) {
        return Err(overflow());
    }
    sizes
        .iter()
        .try_fold(1usize, |n, &s| n.checked_mul(s))
        .and_then(|numel| numel.checked_mul(itemsize))
        .filter(|&bytes| bytes <= isize::MAX as usize)
        .ok_or_else(overflow)
}

/// The product of `sizes` modulo 2^64, as PyTorch's `multiply_integers`
/// computes the size of merged dimensions (`flatten`): exact for a
/// tensor's sizes unless another of them is 0, where PyTorch's wraps too
/// (`[0, 2^40, 2^40]` flattened from dimension 1 is `[0, 0]`).
#[inline]
pub fn wrapping_numel(sizes: &[usize]) -> usize {
    sizes.iter().fold(1, |n, &s| n.wrapping_mul(s))
}

/// Checks that row-major strides for `sizes` fit (they can overflow only
/// when a size is 0 and the others are huge), with PyTorch's text.
#[inline]
pub fn check_contiguous_strides(sizes: &[usize]) -> Result<(), Error> {
    sizes
        .iter()
        .skip(1)
        .try_fold(1usize, |n, &s| {
            n.checked_mul(s.max(1))
                .filter(|&n| n <= isize::MAX as usize)
        })
        .map(|_| ())
        .ok_or(Error::StrideOverflow)
}

/// A shape's array type holding a copy of `values` (whose length is its rank).
#[inline]
pub(crate) fn array_from<A: SizeArray>(values: &[usize]) -> A {
    A::copied(values)
}

/// Row-major strides for `sizes` (size-0 and size-1 dimensions get the
/// stride they would have with size 1, as PyTorch does). The products
/// saturate: they can only overflow when a size is 0, and then no element
/// is ever addressed.
#[inline]
pub fn contiguous_strides<A: SizeArray>(sizes: &[usize]) -> A {
    let mut strides = A::filled(sizes.len(), 0);
    let mut step = 1usize;
    for (s, &n) in strides.as_mut().iter_mut().zip(sizes).rev() {
        *s = step;
        step = step.saturating_mul(n.max(1));
    }
    strides
}

/// PyTorch's contiguity test on raw sizes and strides (the running
/// product saturates: only sizes no tensor has could reach it).
#[inline]
pub fn is_contiguous(sizes: &[usize], strides: &[usize]) -> bool {
    if sizes.contains(&0) {
        return true;
    }
    let mut expected = 1usize;
    for (&n, &s) in sizes.iter().zip(strides).rev() {
        if n != 1 {
            if s != expected {
                return false;
            }
            expected = expected.saturating_mul(n);
        }
    }
    true
}

/// Column-major (Fortran) order with no gaps: the first dimension moves
/// fastest, size-1 dimensions ignored; empty tensors count as such.
///
/// ```
/// use shaped::layout::is_column_major;
/// assert!(is_column_major(&[2, 3], &[1, 2]));
/// assert!(!is_column_major(&[2, 3], &[3, 1]));
/// assert!(is_column_major(&[1, 3], &[3, 1])); // one row: both orders
/// ```
#[inline]
pub fn is_column_major(sizes: &[usize], strides: &[usize]) -> bool {
    if sizes.contains(&0) {
        return true;
    }
    let mut expected = 1usize;
    for (&n, &s) in sizes.iter().zip(strides) {
        if n != 1 {
            if s != expected {
                return false;
            }
            expected = expected.saturating_mul(n);
        }
    }
    true
}

/// True when the strided layout maps distinct indices to distinct elements.
///
/// A sufficient test, as PyTorch's `has_internal_overlap` is a conservative
/// one: sorted by stride, every dimension that moves must step past the whole
/// extent of the smaller ones. Layouts that interleave dimensions without
/// sharing an element (sizes `[2, 2]`, strides `[3, 2]`) count as
/// overlapping. Allocation-free; extents that overflow count as overlapping.
///
/// ```
/// use shaped::layout::is_non_overlapping;
/// assert!(is_non_overlapping(&[4, 3], &[1, 4]));
/// assert!(!is_non_overlapping(&[4, 3], &[0, 1])); // an expanded dimension
/// assert!(is_non_overlapping(&[4, 0], &[0, 1])); // no elements
/// ```
pub fn is_non_overlapping(sizes: &[usize], strides: &[usize]) -> bool {
    if sizes.contains(&0) {
        return true;
    }
    let mut dims: smallvec::SmallVec<[(usize, usize); views::INLINE_DIMS]> = sizes
        .iter()
        .zip(strides)
        .filter(|&(&n, _)| n > 1)
        .map(|(&n, &s)| (s, n))
        .collect();
    dims.sort_unstable();
    let mut extent = 1usize;
    for (s, n) in dims {
        if s < extent {
            return false;
        }
        match s.checked_mul(n - 1).and_then(|e| e.checked_add(extent)) {
            Some(e) => extent = e,
            None => return false,
        }
    }
    true
}

/// One past the largest storage index of a layout (its offset when it has
/// no elements), or `None` when that does not fit in `usize`.
///
/// ```
/// use shaped::layout::storage_span;
/// assert_eq!(storage_span(&[3, 4], &[4, 1], 2), Some(14));
/// assert_eq!(storage_span(&[0, 4], &[4, 1], 99), Some(99));
/// assert_eq!(storage_span(&[3], &[usize::MAX], 0), None);
/// ```
#[inline]
pub fn storage_span(sizes: &[usize], strides: &[usize], offset: usize) -> Option<usize> {
    if sizes.contains(&0) {
        return Some(offset);
    }
    sizes
        .iter()
        .zip(strides)
        .try_fold(offset.checked_add(1)?, |end, (&n, &s)| {
            end.checked_add((n - 1).checked_mul(s)?)
        })
}

/// The tensor invariant, checked wherever a layout is attached to storage
/// (every view, static or runtime, `as_strided`, the complex views): the
/// layout of `sizes`, `strides` and `offset` over a storage of `storage_len`
/// elements of `itemsize` bytes
/// - reaches no element past the storage: the bytes up to its last element
///   fit in `isize`, else PyTorch's "Storage size calculation overflowed
///   ...", and lie inside the storage, else its "setStorage: ... out of
///   bounds ..." (a layout with no elements addresses nothing and passes, as
///   in PyTorch's `checkInBoundsForStorage`);
/// - has an element count that fits in `isize` (a stride-0 view can name
///   more elements than its storage holds), else PyTorch's "numel: integer
///   multiplication overflow";
/// - when `writable`, puts no two indices on one element, else PyTorch's
///   "unsupported operation: more than one element of the written-to tensor
///   refers to a single memory location. ...".
///
/// The checks run in PyTorch's order for `as_strided`. Kernels rely on them:
/// every index of a tensor's layout is below its storage's length, and
/// element counts and offsets computed from a layout do not overflow.
///
/// ```
/// use shaped::layout::check_layout;
/// assert!(check_layout(&[3, 4], &[4, 1], 0, 12, 4, true).is_ok());
/// assert!(check_layout(&[3, 4], &[0, 1], 0, 12, 4, false).is_ok());
/// assert_eq!(
///     check_layout(&[1 << 40, 1 << 40], &[0, 0], 0, 1, 4, false).unwrap_err().to_string(),
///     "numel: integer multiplication overflow"
/// );
/// assert!(check_layout(&[3, 4], &[0, 1], 0, 12, 4, true).is_err()); // writes would collide
/// assert!(check_layout(&[3, 4], &[4, 1], 1, 12, 4, false).is_err()); // one past the end
/// ```
#[inline]
pub fn check_layout(
    sizes: &[usize],
    strides: &[usize],
    offset: usize,
    storage_len: usize,
    itemsize: usize,
    writable: bool,
) -> Result<(), Error> {
    // PyTorch's sizes are `int64`: no size passes `isize::MAX`, not even
    // beside a 0, so every size converts to `isize` unchanged.
    let fits = sizes.iter().all(|&n| n <= isize::MAX as usize);
    if fits && sizes.contains(&0) {
        return Ok(());
    }
    let bytes = storage_span(sizes, strides, offset)
        .filter(|_| fits)
        .and_then(|span| span.checked_mul(itemsize))
        .filter(|&b| b <= isize::MAX as usize);
    if bytes.is_none_or(|b| b > storage_len.saturating_mul(itemsize)) {
        return Err(Error::AsStridedBounds {
            sizes: sizes.to_vec(),
            strides: strides.to_vec(),
            offset,
            itemsize,
            required: bytes,
            storage: storage_len.saturating_mul(itemsize),
        });
    }
    sizes
        .iter()
        .try_fold(1usize, |n, &s| n.checked_mul(s))
        .filter(|&n| n <= isize::MAX as usize)
        .ok_or(Error::NumelOverflow)?;
    if writable && !is_non_overlapping(sizes, strides) {
        return Err(Error::InternalOverlap);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn contiguity_follows_pytorch() {
        assert!(is_contiguous(&[2, 5], &[5, 1]));
        assert!(!is_contiguous(&[5, 2], &[1, 5]));
        assert!(is_contiguous(&[2, 1, 5], &[5, 99, 1]));
        assert!(is_contiguous(&[0, 3], &[7, 7]));
        assert!(is_contiguous(&[], &[]));
    }

    #[test]
    fn overlap_detection() {
        assert!(is_non_overlapping(&[4, 3], &[3, 1]));
        assert!(is_non_overlapping(&[3, 4], &[1, 3]));
        assert!(!is_non_overlapping(&[4, 3], &[0, 1]));
        assert!(is_non_overlapping(&[1, 3], &[0, 1]));
        assert!(!is_non_overlapping(&[2, 2], &[1, 1]));
        assert!(is_non_overlapping(&[2, 2], &[3, 1]));
    }

    #[test]
    fn offsets_and_spans() {
        let l = Layout::<()>::contiguous([]);
        assert_eq!(l.storage_span(), Some(1));
        let l = Layout::<(crate::shape::Dyn, crate::shape::Dyn)>::from_parts([3, 4], [1, 3], 2);
        assert_eq!(l.index_offset(&[2, 3]).unwrap(), 2 + 2 + 9);
        assert_eq!(l.storage_span(), Some(2 + 1 + 2 + 9));
        assert_eq!(
            l.index_offset(&[3, 0]).unwrap_err().to_string(),
            "index 3 is out of bounds for dimension 0 with size 3"
        );
    }
}
