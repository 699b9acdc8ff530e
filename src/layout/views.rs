//! The view engine: every view operation of PyTorch as a pure
//! function from one strided layout to another (candle's lesson). Storage is
//! never touched, so views are zero-copy by construction; static, mixed and
//! dynamic shapes all go through these functions.
//!
//! Arguments follow PyTorch (dims may be negative and count from the end)
//! and invalid ones give PyTorch's error texts. The static-shape API has
//! checked its arguments at compile time and cannot hit those errors.

use crate::error::Error;
use smallvec::SmallVec;

/// Up to this rank a layout's sizes and strides live inline. Every static
/// shape fits (static ranks stop at 8), so a view of a static shape never
/// allocates.
pub const INLINE_DIMS: usize = 8;

/// The sizes or the strides of a [`Strided`] layout.
pub type Dims = SmallVec<[usize; INLINE_DIMS]>;

/// One flag per dimension, inline as [`Dims`].
type DimFlags = SmallVec<[bool; INLINE_DIMS]>;

/// Signed dims, inline as [`Dims`] (for the engine's PyTorch-style arguments).
pub type SignedDims = SmallVec<[isize; INLINE_DIMS]>;

/// A layout as plain runtime values, the input and output of every view
/// transform.
///
/// ```
/// use shaped::layout::views::Strided;
/// let x = Strided::contiguous(&[3, 4]);
/// let t = x.transpose(0, 1).unwrap();
/// assert_eq!((t.sizes(), t.strides()), (&[4, 3][..], &[1, 4][..]));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Strided {
    pub(crate) sizes: Dims,
    pub(crate) strides: Dims,
    pub(crate) offset: usize,
}

/// `offset + index * stride`, saturating. Offsets and strides of a layout
/// that addresses elements stay inside its storage, so this can only
/// saturate where nothing is addressed: an offset of a view with no elements,
/// or a stride of a dimension of size 0 or 1 (PyTorch's int64 wraps there).
/// The same holds for the other saturating stride products of this module;
/// whatever they give, [`Strided::check`] decides whether a tensor may hold
/// the layout.
#[inline]
pub(crate) fn add_mul(offset: usize, index: usize, stride: usize) -> usize {
    offset.saturating_add(index.saturating_mul(stride))
}

/// `index` counted from 0 when it names an entry of a dimension of `size`
/// (a negative one counts from the end), as `select` and indexing read it.
///
/// ```
/// use shaped::layout::views::wrap_index;
/// assert_eq!((wrap_index(-1, 4), wrap_index(3, 4), wrap_index(4, 4)), (Some(3), Some(3), None));
/// ```
#[inline]
pub fn wrap_index(index: isize, size: usize) -> Option<usize> {
    let n = size as isize;
    (-n..n)
        .contains(&index)
        .then_some(if index < 0 { index + n } else { index } as usize)
}

/// Wraps a possibly negative dimension of a tensor of rank `rank` (PyTorch's
/// `maybe_wrap_dim`; a rank-0 tensor accepts -1 and 0).
///
/// ```
/// use shaped::layout::views::wrap_dim;
/// assert_eq!(wrap_dim(-1, 3).unwrap(), 2);
/// assert_eq!(
///     wrap_dim(2, 2).unwrap_err().to_string(),
///     "Dimension out of range (expected to be in range of [-2, 1], but got 2)"
/// );
/// ```
#[inline]
pub fn wrap_dim(dim: isize, rank: usize) -> Result<usize, Error> {
    let span = rank.max(1) as isize;
    if dim < -span || dim >= span {
        return Err(Error::DimOutOfRange { dim, rank });
    }
    Ok(if dim < 0 {
        (dim + span) as usize
    } else {
        dim as usize
    })
}

impl Strided {
    /// A row-major layout of `sizes` at offset 0.
    #[inline]
    pub fn contiguous(sizes: &[usize]) -> Self {
        Strided {
            sizes: Dims::from_slice(sizes),
            strides: crate::layout::contiguous_strides::<Dims>(sizes),
            offset: 0,
        }
    }

    /// A layout from its parts (unchecked against any storage).
    #[inline]
    pub fn new(sizes: &[usize], strides: &[usize], offset: usize) -> Self {
        Strided {
            sizes: Dims::from_slice(sizes),
            strides: Dims::from_slice(strides),
            offset,
        }
    }

    /// The sizes.
    #[inline]
    pub fn sizes(&self) -> &[usize] {
        &self.sizes
    }

    /// The strides.
    #[inline]
    pub fn strides(&self) -> &[usize] {
        &self.strides
    }

    /// The storage offset.
    #[inline]
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// The rank.
    #[inline]
    pub fn rank(&self) -> usize {
        self.sizes.len()
    }

    /// The number of elements (see [`crate::layout::numel`]).
    #[inline]
    pub fn numel(&self) -> usize {
        crate::layout::numel(&self.sizes)
    }

    /// The tensor invariant for this layout over a storage of `storage_len`
    /// elements of `itemsize` bytes, writable or not: see
    /// [`check_layout`](crate::layout::check_layout). Every layout that a
    /// view transform gives passes here before a tensor holds it.
    ///
    /// ```
    /// use shaped::layout::views::Strided;
    /// let x = Strided::contiguous(&[1]);
    /// let e = Strided::new(&[1 << 40, 1 << 40], &[0, 0], 0); // an expanded scalar
    /// assert!(x.check(1, 4, false).is_ok());
    /// assert_eq!(e.check(1, 4, false).unwrap_err().to_string(), "numel: integer multiplication overflow");
    /// ```
    #[inline]
    pub fn check(&self, storage_len: usize, itemsize: usize, writable: bool) -> Result<(), Error> {
        crate::layout::check_layout(
            &self.sizes,
            &self.strides,
            self.offset,
            storage_len,
            itemsize,
            writable,
        )
    }

    /// Dimensions `dim0` and `dim1` swapped (`transpose`, `swapaxes`).
    #[inline]
    pub fn transpose(&self, dim0: isize, dim1: isize) -> Result<Strided, Error> {
        let (a, b) = (wrap_dim(dim0, self.rank())?, wrap_dim(dim1, self.rank())?);
        let mut out = self.clone();
        if self.rank() > 0 {
            out.sizes.swap(a, b);
            out.strides.swap(a, b);
        }
        Ok(out)
    }

    /// The real (`imag == false`) or imaginary parts of a layout of complex
    /// elements, as a layout of their parts: strides and offset double, the
    /// imaginary part one further.
    #[inline]
    pub fn complex_part(&self, imag: bool) -> Strided {
        Strided {
            sizes: self.sizes.clone(),
            strides: self.strides.iter().map(|s| s.saturating_mul(2)).collect(),
            offset: self
                .offset
                .saturating_mul(2)
                .saturating_add(usize::from(imag)),
        }
    }

    /// A layout of complex elements as a layout of their parts with a last
    /// dimension of 2 (PyTorch's `view_as_real`).
    #[inline]
    pub fn view_as_real(&self) -> Strided {
        let mut parts = self.complex_part(false);
        parts.sizes.push(2);
        parts.strides.push(1);
        parts
    }

    /// Dimensions reordered: dimension `i` of the result is `dims[i]` of this one.
    #[inline]
    pub fn permute(&self, dims: &[isize]) -> Result<Strided, Error> {
        if dims.len() != self.rank() {
            return Err(Error::PermuteLength {
                rank: self.rank(),
                dims: dims.len(),
            });
        }
        let mut seen = DimFlags::from_elem(false, self.rank());
        let mut out = self.clone();
        for (i, &d) in dims.iter().enumerate() {
            let d = wrap_dim(d, self.rank())?;
            if std::mem::replace(&mut seen[d], true) {
                return Err(Error::PermuteDuplicate);
            }
            out.sizes[i] = self.sizes[d];
            out.strides[i] = self.strides[d];
        }
        Ok(out)
    }

    /// Length `length` of dimension `dim` from `start` (negative counts from
    /// the end).
    #[inline]
    pub fn narrow(&self, dim: isize, start: isize, length: isize) -> Result<Strided, Error> {
        // PyTorch's order: rank, length, dimension, start.
        if self.rank() == 0 {
            return Err(Error::NarrowRankZero);
        }
        if length < 0 {
            return Err(Error::NarrowNegativeLength);
        }
        let d = wrap_dim(dim, self.rank())?;
        let size = self.sizes[d] as isize;
        if start < -size || start > size {
            return Err(Error::NarrowStart {
                start,
                size: size as usize,
            });
        }
        let start = if start < 0 { start + size } else { start };
        if length > size - start {
            return Err(Error::NarrowLength {
                start: start as usize,
                length: length as usize,
                size: size as usize,
            });
        }
        let mut out = self.clone();
        out.offset = add_mul(out.offset, start as usize, self.strides[d]);
        out.sizes[d] = length as usize;
        Ok(out)
    }

    /// Index `index` of dimension `dim`, which disappears.
    #[inline]
    pub fn select(&self, dim: isize, index: isize) -> Result<Strided, Error> {
        if self.rank() == 0 {
            return Err(Error::SelectRankZero);
        }
        let d = wrap_dim(dim, self.rank())?;
        let index = wrap_index(index, self.sizes[d]).ok_or_else(|| Error::SelectIndex {
            index,
            sizes: self.sizes.to_vec(),
            dim: d,
        })?;
        let mut out = self.clone();
        out.offset = add_mul(out.offset, index, self.strides[d]);
        out.sizes.remove(d);
        out.strides.remove(d);
        Ok(out)
    }

    /// A new dimension of size 1 at `dim` (which may be `rank`).
    #[inline]
    pub fn unsqueeze(&self, dim: isize) -> Result<Strided, Error> {
        let d = wrap_dim(dim, self.rank() + 1)?;
        let stride = if d < self.rank() {
            self.sizes[d].saturating_mul(self.strides[d])
        } else {
            1
        };
        let mut out = self.clone();
        out.sizes.insert(d, 1);
        out.strides.insert(d, stride);
        Ok(out)
    }

    /// Every dimension of size 1 in `dims` removed (others are kept).
    #[inline]
    pub fn squeeze_dims(&self, dims: &[isize]) -> Result<Strided, Error> {
        let mut drop = DimFlags::from_elem(false, self.rank());
        // PyTorch's `dim_list_to_bitset`: each dim is wrapped, then must not
        // have been seen (a rank-0 tensor takes 0 and -1, both dim 0).
        let mut seen = DimFlags::from_elem(false, self.rank().max(1));
        for &d in dims {
            let d = wrap_dim(d, self.rank())?;
            if std::mem::replace(&mut seen[d], true) {
                return Err(Error::DimRepeated { dim: d });
            }
            if self.rank() > 0 {
                drop[d] = self.sizes[d] == 1;
            }
        }
        let mut out = Strided {
            sizes: Dims::new(),
            strides: Dims::new(),
            offset: self.offset,
        };
        for (i, &dropped) in drop.iter().enumerate() {
            if !dropped {
                out.sizes.push(self.sizes[i]);
                out.strides.push(self.strides[i]);
            }
        }
        Ok(out)
    }

    /// Every dimension of size 1 removed.
    #[inline]
    pub fn squeeze(&self) -> Strided {
        let all: SignedDims = (0..self.rank() as isize).collect();
        self.squeeze_dims(&all)
            .expect("every dimension is in range")
    }

    /// The diagonal of dimensions `dim1` and `dim2` (removed), shifted by
    /// `offset` (above the main diagonal when positive), as a new last
    /// dimension.
    #[inline]
    pub fn diagonal(&self, offset: isize, dim1: isize, dim2: isize) -> Result<Strided, Error> {
        let (a, b) = (wrap_dim(dim1, self.rank())?, wrap_dim(dim2, self.rank())?);
        if a == b {
            // PyTorch prints the dims as given (`1, -1`).
            return Err(Error::DiagonalSameDims { dim1, dim2 });
        }
        let (na, nb) = (self.sizes[a] as isize, self.sizes[b] as isize);
        let (mut start, length) = if offset >= 0 {
            (
                (offset as usize).saturating_mul(self.strides[b]),
                na.min(nb - offset).max(0),
            )
        } else {
            (
                offset.unsigned_abs().saturating_mul(self.strides[a]),
                (na + offset).min(nb).max(0),
            )
        };
        if length == 0 {
            start = 0;
        }
        let stride = self.strides[a].saturating_add(self.strides[b]);
        let mut out = Strided {
            sizes: Dims::new(),
            strides: Dims::new(),
            offset: self.offset.saturating_add(start),
        };
        for i in 0..self.rank() {
            if i != a && i != b {
                out.sizes.push(self.sizes[i]);
                out.strides.push(self.strides[i]);
            }
        }
        out.sizes.push(length as usize);
        out.strides.push(stride);
        Ok(out)
    }

    /// Windows of `size` elements every `step` along `dim`: that dimension
    /// becomes the window count and a new last dimension of `size` appears.
    #[inline]
    pub fn unfold(&self, dim: isize, size: usize, step: usize) -> Result<Strided, Error> {
        let d = wrap_dim(dim, self.rank())?;
        let (n, s) = if self.rank() == 0 {
            (1, 1)
        } else {
            (self.sizes[d], self.strides[d])
        };
        if size > n {
            return Err(Error::UnfoldSize {
                dim: d,
                max: n,
                size,
            });
        }
        if step == 0 {
            return Err(Error::UnfoldStep { step: 0 });
        }
        let mut out = self.clone();
        if self.rank() > 0 {
            out.sizes[d] = (n - size) / step + 1;
            out.strides[d] = step.saturating_mul(s);
        }
        out.sizes.push(size);
        out.strides.push(s);
        Ok(out)
    }

    /// [`unfold`](Self::unfold) with PyTorch's signed arguments, checked in
    /// PyTorch's order: the dimension, the maximum size, then `size >= 0`
    /// and `step > 0`.
    #[inline]
    pub fn unfold_checked(&self, dim: isize, size: isize, step: isize) -> Result<Strided, Error> {
        let d = wrap_dim(dim, self.rank())?;
        let max = if self.rank() == 0 { 1 } else { self.sizes[d] };
        if size > 0 && size as usize > max {
            return Err(Error::UnfoldSize {
                dim: d,
                max,
                size: size as usize,
            });
        }
        if size < 0 {
            return Err(Error::UnfoldNegativeSize { size });
        }
        if step <= 0 {
            return Err(Error::UnfoldStep { step });
        }
        self.unfold(dim, size as usize, step as usize)
    }

    /// Strides for `sizes` over the same elements, when they exist (PyTorch's
    /// `computeStride`): a view can merge or split dimensions only within
    /// runs that are contiguous in memory.
    #[inline]
    pub fn view_strides(&self, sizes: &[usize]) -> Option<Dims> {
        let (old, old_strides) = (&self.sizes, &self.strides);
        if old.is_empty() {
            return Some(Dims::from_elem(1, sizes.len()));
        }
        let mut strides = Dims::from_elem(0, sizes.len());
        if old.contains(&0) {
            if old.as_ref() == sizes {
                return Some(old_strides.clone());
            }
            let mut step = 1;
            for (s, &n) in strides.iter_mut().zip(sizes).rev() {
                *s = step;
                step = step.saturating_mul(n.max(1));
            }
            return Some(strides);
        }
        // The products of sizes are partial element counts (no size is 0
        // here, and the count fits); a stride times one may not fit when
        // the stride belongs to a dimension of size 1, which nothing
        // addresses: it saturates, as the other stride products.
        let mut view_d = sizes.len() as isize - 1;
        let mut chunk_base = *old_strides.last().expect("rank > 0");
        let (mut tensor_numel, mut view_numel) = (1usize, 1usize);
        for tensor_d in (0..old.len()).rev() {
            tensor_numel = tensor_numel.saturating_mul(old[tensor_d]);
            let chunk_ends = tensor_d == 0
                || (old[tensor_d - 1] != 1
                    && Some(old_strides[tensor_d - 1]) != tensor_numel.checked_mul(chunk_base));
            if chunk_ends {
                while view_d >= 0 && (view_numel < tensor_numel || sizes[view_d as usize] == 1) {
                    strides[view_d as usize] = view_numel.saturating_mul(chunk_base);
                    view_numel = view_numel.saturating_mul(sizes[view_d as usize]);
                    view_d -= 1;
                }
                if view_numel != tensor_numel {
                    return None;
                }
                if tensor_d > 0 {
                    chunk_base = old_strides[tensor_d - 1];
                    tensor_numel = 1;
                    view_numel = 1;
                }
            }
        }
        (view_d == -1).then_some(strides)
    }

    /// A view with `sizes` (one may be -1), or PyTorch's error: a wrong
    /// element count, or strides that do not allow it (then only a copy can
    /// have that shape: `reshape`).
    #[inline]
    pub fn view(&self, sizes: &[isize]) -> Result<Strided, Error> {
        let sizes = infer_size(sizes, self.numel())?;
        let strides = self.view_strides(&sizes).ok_or(Error::ViewStrides)?;
        Ok(Strided {
            sizes: Dims::from_slice(&sizes),
            strides,
            offset: self.offset,
        })
    }

    /// `size`, `stride` and `offset` over the same storage, checked to stay
    /// inside a storage of `storage_len` elements (PyTorch's `as_strided`:
    /// `offset` is absolute, and a layout with no elements skips the check,
    /// as `checkInBoundsForStorage` does, since it addresses nothing).
    #[inline]
    pub fn as_strided(
        size: &[usize],
        stride: &[usize],
        offset: usize,
        storage_len: usize,
        itemsize: usize,
    ) -> Result<Strided, Error> {
        if size.len() != stride.len() {
            return Err(Error::AsStridedRank {
                sizes: size.len(),
                strides: stride.len(),
            });
        }
        let layout = Strided::new(size, stride, offset);
        layout.check(storage_len, itemsize, false)?;
        Ok(layout)
    }
}

/// The `(start, length)` pieces of a dimension of `size` cut at `bounds`, as
/// `tensor_split` cuts: piece `i` is PyTorch's `slice(bounds[i - 1],
/// bounds[i])` (from 0, to the size), whose bounds wrap when negative and are
/// clamped to `[0, size]`, and whose end is raised to its start when below
/// it. Unsorted bounds thus give an empty piece at the larger start, then a
/// piece starting back at the smaller one.
fn slices_between(bounds: &[isize], size: usize) -> impl Iterator<Item = (usize, usize)> + '_ {
    let n = size as isize;
    let clamp = move |b: isize| (if b < 0 { b + n } else { b }).clamp(0, n) as usize;
    let starts = std::iter::once(0).chain(bounds.iter().copied());
    let ends = bounds.iter().copied().chain(std::iter::once(n));
    starts.zip(ends).map(move |(s, e)| {
        let (s, e) = (clamp(s), clamp(e));
        (s, e.max(s) - s)
    })
}

/// The number of pieces of `split(step)` of a dimension of `n` (`step > 0`,
/// or `n = 0`: one empty piece).
#[inline]
pub(crate) fn split_count(n: usize, step: usize) -> usize {
    if step == 0 {
        1
    } else {
        n.div_ceil(step).max(1)
    }
}

/// The step and the number of pieces of `chunk(chunks)` (`chunks > 0`) of
/// a dimension of `n`: `split` by `ceil(n / chunks)`, or `chunks` empty
/// pieces when `n` is 0.
#[inline]
pub(crate) fn chunk_plan(n: usize, chunks: usize) -> (usize, usize) {
    let step = n.div_ceil(chunks);
    (
        step,
        if step == 0 {
            chunks
        } else {
            split_count(n, step)
        },
    )
}

/// `count` pieces `(start, length)` of `step` entries of a dimension of `n`,
/// the last shorter (`split` and `chunk`): `i * step` is below `n` for
/// every piece but empty ones, which start at `n`.
#[inline]
pub(crate) fn pieces_of(
    n: usize,
    step: usize,
    count: usize,
) -> impl ExactSizeIterator<Item = (usize, usize)> {
    (0..count).map(move |i| {
        let start = i.saturating_mul(step).min(n);
        (start, step.min(n - start))
    })
}

/// The `k > 0` pieces of `tensor_split(k)` of a dimension of `n`: piece `i`
/// starts at `i * (n / k) + min(i, n % k)`, which is at most `n` for `i <=
/// k`, so sizes differ by at most one.
#[inline]
pub(crate) fn sections_of(n: usize, k: usize) -> impl ExactSizeIterator<Item = (usize, usize)> {
    let bound = move |i: usize| i * (n / k) + i.min(n % k);
    (0..k).map(move |i| (bound(i), bound(i + 1) - bound(i)))
}

/// The `count` items of `items` (as many as it yields) in a vector whose
/// memory is asked for first, fallibly: the pieces of a split, whose number a
/// caller may make huge (`chunk(1 << 58, 0)` of an empty tensor), are then
/// PyTorch's error for the `std::vector` it would build (8-byte elements),
/// not an abort.
///
/// ```
/// use shaped::layout::views::collect_pieces;
/// let v = collect_pieces(3, (0..3).map(Ok)).unwrap();
/// assert_eq!(v, vec![0, 1, 2]);
/// let huge = collect_pieces::<u64>(usize::MAX / 4, std::iter::empty());
/// assert_eq!(huge.unwrap_err().to_string(), "cannot create std::vector larger than max_size()");
/// let big = collect_pieces::<[u64; 64]>(1 << 52, std::iter::empty());
/// assert_eq!(big.unwrap_err().to_string(), "std::bad_alloc");
/// ```
pub fn collect_pieces<T>(
    count: usize,
    items: impl Iterator<Item = Result<T, Error>>,
) -> Result<Vec<T>, Error> {
    if count > isize::MAX as usize / 8 {
        return Err(Error::PieceCount { too_long: true });
    }
    let mut out = Vec::new();
    out.try_reserve_exact(count)
        .map_err(|_| Error::PieceCount { too_long: false })?;
    for item in items {
        out.push(item?);
    }
    Ok(out)
}

impl Strided {
    /// The layouts of `count` pieces `(start, length)` along dimension `d`
    /// (already wrapped).
    fn cut(
        &self,
        d: usize,
        count: usize,
        pieces: impl Iterator<Item = (usize, usize)>,
    ) -> Result<Vec<Strided>, Error> {
        collect_pieces(
            count,
            pieces.map(|(start, len)| {
                let mut out = self.clone();
                out.offset = add_mul(out.offset, start, self.strides[d]);
                out.sizes[d] = len;
                Ok(out)
            }),
        )
    }

    /// Pieces of `split_size` along `dim` (the last may be shorter).
    #[inline]
    pub fn split(&self, split_size: isize, dim: isize) -> Result<Vec<Strided>, Error> {
        // PyTorch's order: rank, split_size >= 0, dimension.
        if self.rank() == 0 {
            return Err(Error::SplitRankZero { op: "split" });
        }
        if split_size < 0 {
            return Err(Error::SplitNegative { split_size });
        }
        let d = wrap_dim(dim, self.rank())?;
        let n = self.sizes[d];
        let step = split_size as usize;
        if step == 0 && n != 0 {
            return Err(Error::SplitZero { size: n });
        }
        let count = split_count(n, step);
        self.cut(d, count, pieces_of(n, step, count))
    }

    /// Pieces of the given sizes along `dim` (they must add up to its size).
    #[inline]
    pub fn split_with_sizes(&self, sizes: &[isize], dim: isize) -> Result<Vec<Strided>, Error> {
        if self.rank() == 0 {
            return Err(Error::SplitRankZero { op: "split" });
        }
        let d = wrap_dim(dim, self.rank())?;
        if sizes.iter().any(|&s| s < 0) {
            return Err(Error::SplitSizesNegative {
                split_sizes: sizes.to_vec(),
            });
        }
        let total = sizes
            .iter()
            .try_fold(0usize, |acc, &s| acc.checked_add(s as usize));
        if total != Some(self.sizes[d]) {
            return Err(Error::SplitSizesSum {
                size: self.sizes[d],
                dim, // as given: PyTorch prints `dimension -1`
                split_sizes: sizes.to_vec(),
            });
        }
        // The sizes add up to the dimension's, so no partial sum overflows.
        let mut start = 0;
        let pieces = sizes.iter().map(|&s| {
            start += s as usize;
            (start - s as usize, s as usize)
        });
        self.cut(d, sizes.len(), pieces)
    }

    /// `chunks` pieces of equal size (the last may be shorter, and there may
    /// be fewer) along `dim`.
    #[inline]
    pub fn chunk(&self, chunks: isize, dim: isize) -> Result<Vec<Strided>, Error> {
        // PyTorch's order: rank, chunks > 0, dimension.
        if self.rank() == 0 {
            return Err(Error::SplitRankZero { op: "chunk" });
        }
        if chunks <= 0 {
            return Err(Error::ChunkCount { chunks });
        }
        let d = wrap_dim(dim, self.rank())?;
        let n = self.sizes[d];
        let (step, count) = chunk_plan(n, chunks as usize);
        self.cut(d, count, pieces_of(n, step, count))
    }

    /// `sections` pieces along `dim` whose sizes differ by at most one.
    #[inline]
    pub fn tensor_split(&self, sections: isize, dim: isize) -> Result<Vec<Strided>, Error> {
        // PyTorch's order: rank, dimension, sections > 0.
        let d = self.tensor_split_dim(dim)?;
        if sections <= 0 {
            return Err(Error::TensorSplitSections { sections });
        }
        let (n, k) = (self.sizes[d], sections as usize);
        self.cut(d, k, sections_of(n, k))
    }

    /// Pieces between the given indices along `dim` (clamped to its size).
    #[inline]
    pub fn tensor_split_indices(
        &self,
        indices: &[isize],
        dim: isize,
    ) -> Result<Vec<Strided>, Error> {
        let d = self.tensor_split_dim(dim)?;
        let count = indices.len() + 1;
        self.cut(d, count, slices_between(indices, self.sizes[d]))
    }

    /// Every index of `dim`, as layouts without that dimension.
    #[inline]
    pub fn unbind(&self, dim: isize) -> Result<Vec<Strided>, Error> {
        // PyTorch wraps the dim first (a rank-0 tensor takes 0 and -1), then
        // asks for the size of dimension 0, which a scalar lacks.
        let d = wrap_dim(dim, self.rank())?;
        if self.rank() == 0 {
            return Err(Error::NoDimensions { dim: d });
        }
        let (n, stride) = (self.sizes[d], self.strides[d]);
        let mut rest = self.clone();
        rest.sizes.remove(d);
        rest.strides.remove(d);
        collect_pieces(
            n,
            (0..n).map(|i| {
                let mut out = rest.clone();
                out.offset = add_mul(self.offset, i, stride);
                Ok(out)
            }),
        )
    }

    /// The dimension `tensor_split` cuts (rank 0 has none).
    fn tensor_split_dim(&self, dim: isize) -> Result<usize, Error> {
        if self.rank() == 0 {
            return Err(Error::TensorSplitRankZero);
        }
        wrap_dim(dim, self.rank())
    }

    /// Dimension `source` moved to position `destination`, the others kept
    /// in order.
    #[inline]
    pub fn movedim(&self, source: &[isize], destination: &[isize]) -> Result<Strided, Error> {
        if source.len() != destination.len() {
            return Err(Error::MovedimLengths {
                source: source.to_vec(),
                destination: destination.to_vec(),
            });
        }
        let rank = self.rank();
        let src: Dims = source
            .iter()
            .map(|&d| wrap_dim(d, rank))
            .collect::<Result<_, _>>()?;
        let dst: Dims = destination
            .iter()
            .map(|&d| wrap_dim(d, rank))
            .collect::<Result<_, _>>()?;
        let repeated = |v: &[usize]| (1..v.len()).any(|i| v[..i].contains(&v[i]));
        // PyTorch prints the dims as given.
        if repeated(&src) {
            return Err(Error::MovedimRepeated {
                which: "source",
                dims: source.to_vec(),
            });
        }
        if repeated(&dst) {
            return Err(Error::MovedimRepeated {
                which: "destination",
                dims: destination.to_vec(),
            });
        }
        if rank == 0 {
            // A scalar: nothing moves (PyTorch returns an alias).
            return Ok(self.clone());
        }
        let mut order: SmallVec<[Option<usize>; INLINE_DIMS]> = SmallVec::from_elem(None, rank);
        for (&s, &d) in src.iter().zip(&dst) {
            order[d] = Some(s);
        }
        let mut rest = (0..rank).filter(|i| !src.contains(i));
        let perm: SignedDims = order
            .into_iter()
            .map(|o| o.or_else(|| rest.next()).expect("as many dims as places") as isize)
            .collect();
        self.permute(&perm)
    }

    /// Dimension `dim` split into `sizes` (one may be -1), whose product must
    /// be its size.
    #[inline]
    pub fn unflatten(&self, dim: isize, sizes: &[isize]) -> Result<Strided, Error> {
        // Python's `Tensor.unflatten` rejects empty sizes before ATen runs.
        if sizes.is_empty() {
            return Err(Error::UnflattenEmpty);
        }
        let d = wrap_dim(dim, self.rank())?;
        // PyTorch catches the errors of `infer_size(sizes, self.size(dim))`:
        // an element count that does not match gets unflatten's own text,
        // any other is re-raised as "unflatten got an unexpected error".
        // A scalar has no size to ask for.
        let unexpected = |inner| Error::UnflattenUnexpected {
            inner: Box::new(inner),
        };
        if self.rank() == 0 {
            return Err(unexpected(Error::NoDimensions { dim: d }));
        }
        let n = self.sizes[d];
        let inferred = infer_size(sizes, n).map_err(|e| match e {
            Error::ElementCount { .. } => Error::UnflattenSizes {
                sizes: sizes.to_vec(),
                dim: d,
                size: n,
            },
            other => unexpected(other),
        })?;
        let mut new_sizes: SignedDims = self.sizes.iter().map(|&s| s as isize).collect();
        new_sizes.remove(d);
        new_sizes.insert_many(d, inferred.iter().map(|&s| s as isize));
        self.view(&new_sizes)
    }
}

/// `sizes` with a `-1` replaced so that they hold `numel` elements (PyTorch's
/// `infer_size`), or its error.
///
/// ```
/// use shaped::layout::views::infer_size;
/// assert_eq!(infer_size(&[2, -1], 6).unwrap().as_slice(), [2, 3]);
/// assert_eq!(
///     infer_size(&[5, -1], 12).unwrap_err().to_string(),
///     "shape '[5, -1]' is invalid for input of size 12"
/// );
/// ```
#[inline]
pub fn infer_size(sizes: &[isize], numel: usize) -> Result<Dims, Error> {
    let mut infer = None;
    let mut known: usize = 1;
    for (i, &s) in sizes.iter().enumerate() {
        match s {
            -1 if infer.is_some() => return Err(Error::InferTwice),
            -1 => infer = Some(i),
            s if s < 0 => {
                return Err(Error::InvalidShapeDim {
                    dim: s,
                    index: i,
                    shape: sizes.to_vec(),
                });
            }
            s => known = known.saturating_mul(s as usize),
        }
    }
    let invalid = || Error::ElementCount {
        shape: sizes.to_vec(),
        numel,
    };
    let mut out: Dims = sizes.iter().map(|&s| s.max(0) as usize).collect();
    match infer {
        // As PyTorch: with no elements and a 0 among the sizes, -1 could be
        // anything.
        Some(_) if known == 0 && numel == 0 => {
            return Err(Error::InferAmbiguous {
                shape: sizes.to_vec(),
            });
        }
        Some(i) => {
            if known == 0 || !numel.is_multiple_of(known) {
                return Err(invalid());
            }
            out[i] = numel / known;
        }
        None if known != numel => return Err(invalid()),
        None => {}
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn views_of_a_matrix() {
        let x = Strided::contiguous(&[3, 4]);
        let n = x.narrow(1, -2, 2).unwrap();
        assert_eq!(
            (n.sizes(), n.strides(), n.offset()),
            (&[3, 2][..], &[4, 1][..], 2)
        );
        let s = x.select(0, -1).unwrap();
        assert_eq!((s.sizes(), s.offset()), (&[4][..], 8));
        let u = x.unsqueeze(1).unwrap();
        assert_eq!((u.sizes(), u.strides()), (&[3, 1, 4][..], &[4, 4, 1][..]));
        assert_eq!(u.squeeze().sizes(), &[3, 4]);
        let d = x.diagonal(1, 0, 1).unwrap();
        assert_eq!(
            (d.sizes(), d.strides(), d.offset()),
            (&[3][..], &[5][..], 1)
        );
        let f = x.unfold(1, 2, 1).unwrap();
        assert_eq!((f.sizes(), f.strides()), (&[3, 3, 2][..], &[4, 1, 1][..]));
    }

    #[test]
    fn view_needs_contiguous_runs() {
        let x = Strided::contiguous(&[3, 4]);
        assert_eq!(x.view(&[2, -1]).unwrap().strides(), &[6, 1]);
        let t = x.transpose(0, 1).unwrap();
        assert_eq!(t.view(&[12]).unwrap_err(), Error::ViewStrides);
        assert_eq!(t.view(&[4, 3, 1]).unwrap().strides(), &[1, 4, 4]); // as PyTorch
        assert_eq!(x.view(&[-1, -1]).unwrap_err(), Error::InferTwice);
    }

    #[test]
    fn argument_errors_use_pytorch_texts() {
        let x = Strided::contiguous(&[3, 4]);
        let text = |e: Error| e.to_string();
        assert_eq!(
            text(x.narrow(1, 3, 2).unwrap_err()),
            "start (3) + length (2) exceeds dimension size (4)."
        );
        assert_eq!(
            text(x.select(0, 5).unwrap_err()),
            "select(): index 5 out of range for tensor of size [3, 4] at dimension 0"
        );
        assert_eq!(
            text(x.permute(&[0, 0]).unwrap_err()),
            "permute(): duplicate dims are not allowed."
        );
        assert_eq!(
            text(x.unfold(1, 5, 1).unwrap_err()),
            "maximum size for tensor at dimension 1 is 4 but size is 5"
        );
        assert_eq!(
            text(x.diagonal(0, 0, 0).unwrap_err()),
            "diagonal dimensions cannot be identical 0, 0"
        );
        assert_eq!(
            text(Strided::as_strided(&[3, 4], &[4, 1], 5, 12, 8).unwrap_err()),
            "setStorage: sizes [3, 4], strides [4, 1], storage offset 5, and itemsize 8 requiring a storage size of 136 are out of bounds for storage of size 96"
        );
    }

    /// `slice_into` gives `Strided::slice`'s layout for every list of up to
    /// three items drawn from a set with edge cases (negative and huge
    /// bounds, steps, both ends, out-of-range indices, ellipses) over
    /// layouts with size-0, size-1 and offset dimensions, and declines
    /// exactly where the engine errs or meets two ellipses.
    #[test]
    fn slice_into_agrees_with_the_engine() {
        let pool = [
            SliceItem::Index(0),
            SliceItem::Index(-1),
            SliceItem::Index(2),
            SliceItem::Index(-4),
            SliceItem::Range {
                start: 0,
                end: None,
                step: 1,
            },
            SliceItem::Range {
                start: 1,
                end: Some(100),
                step: 2,
            },
            SliceItem::Range {
                start: -2,
                end: Some(-1),
                step: 1,
            },
            SliceItem::Range {
                start: 3,
                end: Some(1),
                step: 1,
            },
            SliceItem::Range {
                start: isize::MIN,
                end: Some(isize::MAX),
                step: isize::MAX,
            },
            SliceItem::Range {
                start: 0,
                end: None,
                step: 0,
            },
            SliceItem::NewAxis,
            SliceItem::Ellipsis,
        ];
        let layouts = [
            Strided::new(&[3, 4, 2], &[8, 2, 1], 5),
            Strided::new(&[0, 3], &[3, 1], 0),
            Strided::new(&[1, 5], &[7, 1], 2),
            Strided::new(&[4], &[0], 1),
            Strided::new(&[], &[], 3),
        ];
        let mut compared = 0;
        for l in &layouts {
            for len in 0..=3 {
                for code in 0..pool.len().pow(len) {
                    let items: Vec<SliceItem> = (0..len)
                        .map(|k| pool[code / pool.len().pow(k) % pool.len()])
                        .collect();
                    let ellipses = items.iter().filter(|i| **i == SliceItem::Ellipsis).count();
                    let engine = l.slice(&items);
                    let rank = engine.as_ref().map_or(l.rank(), |e| e.rank());
                    let (mut sizes, mut strides) = (vec![0; rank], vec![0; rank]);
                    let fast = slice_into(
                        l.sizes(),
                        l.strides(),
                        l.offset(),
                        &items,
                        &mut sizes,
                        &mut strides,
                    );
                    match (&engine, fast) {
                        (Ok(e), Some(offset)) => {
                            assert_eq!(
                                (e.sizes(), e.strides(), e.offset()),
                                (&sizes[..], &strides[..], offset),
                                "{l:?} {items:?}"
                            );
                            compared += 1;
                        }
                        (Ok(_), None) => assert!(ellipses > 1, "{l:?} {items:?}"),
                        (Err(_), Some(_)) => panic!("{l:?} {items:?}: the engine errs"),
                        (Err(_), None) => {}
                    }
                }
            }
        }
        assert!(compared > 2000, "{compared} layouts compared");
    }
}

/// One entry of a basic index (`s![..]`): an index, a range with a step, a
/// new axis, or an ellipsis.
///
/// ```
/// use shaped::prelude::*;
/// use shaped::layout::views::SliceItem;
/// let items = s![0, 2.., 1..7;2, NewAxis];
/// assert_eq!(items[0], SliceItem::Index(0));
/// assert_eq!(items[2], SliceItem::Range { start: 1, end: Some(7), step: 2 });
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum SliceItem {
    /// One entry of a dimension, which disappears (negative counts from the end).
    Index(isize),
    /// `start..end` every `step` (negative bounds count from the end; an
    /// absent end is the size; bounds are clamped).
    Range {
        /// First entry.
        start: isize,
        /// One past the last entry, if bounded.
        end: Option<isize>,
        /// Distance between entries (> 0).
        step: isize,
    },
    /// A new dimension of size 1 (`None` in PyTorch).
    NewAxis,
    /// As many whole dimensions as needed (`...` in PyTorch).
    Ellipsis,
}

/// A new dimension of size 1 in `s![..]` (PyTorch's `None`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct NewAxis;

/// Every remaining dimension in `s![..]` (PyTorch's `...`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Ellipsis;

impl From<NewAxis> for SliceItem {
    fn from(_: NewAxis) -> Self {
        SliceItem::NewAxis
    }
}

impl From<Ellipsis> for SliceItem {
    fn from(_: Ellipsis) -> Self {
        SliceItem::Ellipsis
    }
}

impl From<core::ops::RangeFull> for SliceItem {
    fn from(_: core::ops::RangeFull) -> Self {
        SliceItem::Range {
            start: 0,
            end: None,
            step: 1,
        }
    }
}

macro_rules! slice_items_from {
    ($($t:ty),*) => {$(
        impl From<$t> for SliceItem {
            fn from(i: $t) -> Self {
                SliceItem::Index(i as isize)
            }
        }
        impl From<core::ops::Range<$t>> for SliceItem {
            fn from(r: core::ops::Range<$t>) -> Self {
                SliceItem::Range { start: r.start as isize, end: Some(r.end as isize), step: 1 }
            }
        }
        impl From<core::ops::RangeFrom<$t>> for SliceItem {
            fn from(r: core::ops::RangeFrom<$t>) -> Self {
                SliceItem::Range { start: r.start as isize, end: None, step: 1 }
            }
        }
        impl From<core::ops::RangeTo<$t>> for SliceItem {
            fn from(r: core::ops::RangeTo<$t>) -> Self {
                SliceItem::Range { start: 0, end: Some(r.end as isize), step: 1 }
            }
        }
        impl From<core::ops::RangeInclusive<$t>> for SliceItem {
            fn from(r: core::ops::RangeInclusive<$t>) -> Self {
                let end = *r.end() as isize;
                SliceItem::Range { start: *r.start() as isize, end: Some(if end == -1 { isize::MAX } else { end + 1 }), step: 1 }
            }
        }
        impl From<core::ops::RangeToInclusive<$t>> for SliceItem {
            fn from(r: core::ops::RangeToInclusive<$t>) -> Self {
                let end = r.end as isize;
                SliceItem::Range { start: 0, end: Some(if end == -1 { isize::MAX } else { end + 1 }), step: 1 }
            }
        }
    )*};
}
slice_items_from!(i32, i64, isize, usize);

impl SliceItem {
    /// This range with a step (`a..b;step` in `s![..]`).
    #[inline]
    pub fn stepped(self, step: isize) -> SliceItem {
        match self {
            SliceItem::Range { start, end, .. } => SliceItem::Range { start, end, step },
            other => other,
        }
    }
}

impl Strided {
    /// PyTorch's basic indexing `x[items]`: indices drop dimensions, ranges
    /// narrow them (with a step), `NewAxis` inserts size-1 dimensions, an
    /// `Ellipsis` stands for the dimensions not named.
    #[inline]
    pub fn slice(&self, items: &[SliceItem]) -> Result<Strided, Error> {
        let named = items
            .iter()
            .filter(|i| matches!(i, SliceItem::Index(_) | SliceItem::Range { .. }))
            .count();
        if named > self.rank() {
            return Err(Error::IndexRank {
                rank: self.rank(),
                indices: named,
            });
        }
        let mut out = self.clone();
        let mut dim = 0usize; // the next dimension of `out` an item applies to
        for (position, item) in items.iter().enumerate() {
            // Only two ellipses can take `dim` past the last dimension (each
            // skips every dimension not named). PyTorch then reads its size
            // as 0 for an index, returns the tensor for a range from 0 with
            // step 1, and rejects any other range.
            let beyond = dim >= out.rank();
            match *item {
                SliceItem::Index(i) if beyond => {
                    return Err(Error::IndexOutOfRange {
                        index: i,
                        dim: position,
                        size: 0,
                    });
                }
                SliceItem::Range { start, step, .. } if beyond && step > 0 => {
                    if start != 0 || step != 1 {
                        return Err(Error::DimOutOfRange {
                            dim: dim as isize,
                            rank: out.rank(),
                        });
                    }
                    dim += 1;
                }
                SliceItem::Index(i) => {
                    // PyTorch names the item's position in the index
                    // (`real_dim`), not a dimension: `x[None, 2, 7]`
                    // reports dimension 2.
                    let i =
                        wrap_index(i, out.sizes[dim]).ok_or_else(|| Error::IndexOutOfRange {
                            index: i,
                            dim: position,
                            size: out.sizes[dim],
                        })?;
                    out.offset = add_mul(out.offset, i, out.strides[dim]);
                    out.sizes.remove(dim);
                    out.strides.remove(dim);
                }
                SliceItem::Range { start, end, step } => {
                    if step == 0 {
                        return Err(Error::SliceStepZero);
                    }
                    if step < 0 {
                        return Err(Error::SliceStepNegative);
                    }
                    let (s, len) = range_entries(start, end, step, out.sizes[dim]);
                    out.offset = add_mul(out.offset, s, out.strides[dim]);
                    out.sizes[dim] = len;
                    out.strides[dim] = out.strides[dim].saturating_mul(step as usize);
                    dim += 1;
                }
                SliceItem::NewAxis => {
                    out = out.unsqueeze(dim as isize)?;
                    dim += 1;
                }
                SliceItem::Ellipsis => {
                    dim += self.rank() - named;
                }
            }
        }
        Ok(out)
    }
}

/// The first entry and the number of entries of `start..end;step` (`step >
/// 0`) in a dimension of `n`: the bounds count from the end when negative
/// and are clamped to `0..=n`, as PyTorch clamps them.
#[inline]
fn range_entries(start: isize, end: Option<isize>, step: isize, n: usize) -> (usize, usize) {
    let n = n as isize;
    let clamp = |v: isize| (if v < 0 { v + n } else { v }).clamp(0, n);
    let s = clamp(start);
    let e = end.map_or(n, clamp).max(s);
    // The entries s, s + step, .. below e. (PyTorch's `(e - s + step - 1) /
    // step` overflows its int64 for steps near 2^63 and reports an internal
    // error; this is the length it means, 0 or 1 there.)
    let span = (e - s) as usize;
    let len = match step {
        1 => span,
        2 => span.div_ceil(2), // a shift, as the common steps need no division
        _ => span.div_ceil(step as usize),
    };
    (s as usize, len)
}

/// [`Strided::slice`] of the layout `sizes`, `strides`, `offset` written
/// straight into `out_sizes` and `out_strides` (exactly the result's rank),
/// in one pass and without the heap: the result's offset, or `None` where
/// `Strided::slice` must decide (an error, two ellipses, another rank).
/// Each index and range names entries of its dimension, so the result names
/// a subset of the layout's elements, or none.
///
/// ```
/// use shaped::layout::views::{SliceItem, Strided, slice_into};
/// let items = [SliceItem::Index(1), SliceItem::NewAxis, SliceItem::Range { start: 1, end: None, step: 2 }];
/// let (mut sizes, mut strides) = ([0; 2], [0; 2]);
/// let offset = slice_into(&[3, 5], &[5, 1], 0, &items, &mut sizes, &mut strides);
/// let engine = Strided::contiguous(&[3, 5]).slice(&items).unwrap();
/// assert_eq!((offset, &sizes[..], &strides[..]), (Some(engine.offset()), engine.sizes(), engine.strides()));
/// ```
#[inline(always)]
pub fn slice_into(
    sizes: &[usize],
    strides: &[usize],
    offset: usize,
    items: &[SliceItem],
    out_sizes: &mut [usize],
    out_strides: &mut [usize],
) -> Option<usize> {
    let counts = items.iter().fold(ItemCounts::default(), ItemCounts::with);
    let mut cursor = SliceCursor::start(counts, sizes, strides, offset, out_sizes, out_strides)?;
    for &item in items {
        cursor.step(item)?;
    }
    Some(cursor.finish())
}

/// What [`slice_into`] counts before it starts: the indices and ranges (each
/// names a dimension), the indices (each drops one), the new axes and the
/// ellipses.
#[derive(Clone, Copy, Debug, Default)]
pub struct ItemCounts {
    named: usize,
    dropped: usize,
    added: usize,
    ellipses: usize,
}

impl ItemCounts {
    /// The counts with `item` added.
    #[inline(always)]
    pub fn with(self, item: &SliceItem) -> Self {
        let mut c = self;
        match item {
            SliceItem::Index(_) => (c.named, c.dropped) = (c.named + 1, c.dropped + 1),
            SliceItem::Range { .. } => c.named += 1,
            SliceItem::NewAxis => c.added += 1,
            SliceItem::Ellipsis => c.ellipses += 1,
        }
        c
    }
}

/// [`slice_into`] one item at a time: the next dimension read (`d`) and
/// written (`p`), and the offset so far. A static slice steps through its
/// items in line, one per kind in its type, so that literal items fold.
pub struct SliceCursor<'a> {
    sizes: &'a [usize],
    strides: &'a [usize],
    out_sizes: &'a mut [usize],
    out_strides: &'a mut [usize],
    named: usize,
    d: usize,
    p: usize,
    offset: usize,
}

impl<'a> SliceCursor<'a> {
    /// A cursor at the first item, or `None` when the counts rule the slice
    /// out here (too many indices, two ellipses, another rank).
    #[inline(always)]
    pub fn start(
        counts: ItemCounts,
        sizes: &'a [usize],
        strides: &'a [usize],
        offset: usize,
        out_sizes: &'a mut [usize],
        out_strides: &'a mut [usize],
    ) -> Option<Self> {
        let rank = sizes.len();
        let ItemCounts {
            named,
            dropped,
            added,
            ellipses,
        } = counts;
        if named > rank || ellipses > 1 || out_sizes.len() != rank - dropped + added {
            return None;
        }
        Some(SliceCursor {
            sizes,
            strides,
            out_sizes,
            out_strides,
            named,
            d: 0,
            p: 0,
            offset,
        })
    }

    /// Applies one item; `None` where the engine must decide (an index out
    /// of range, a step below 1).
    #[inline(always)]
    pub fn step(&mut self, item: SliceItem) -> Option<()> {
        let (sizes, strides, d) = (self.sizes, self.strides, self.d);
        match item {
            SliceItem::Index(i) => {
                let i = wrap_index(i, sizes[d])?;
                self.offset = add_mul(self.offset, i, strides[d]);
                self.d += 1;
            }
            SliceItem::Range { start, end, step } => {
                if step <= 0 {
                    return None;
                }
                let (s, len) = range_entries(start, end, step, sizes[d]);
                self.offset = add_mul(self.offset, s, strides[d]);
                self.put(len, strides[d].saturating_mul(step as usize));
                self.d += 1;
            }
            SliceItem::NewAxis => {
                // `unsqueeze` before the next dimension read.
                let stride = if d < sizes.len() {
                    sizes[d].saturating_mul(strides[d])
                } else {
                    1
                };
                self.put(1, stride);
            }
            SliceItem::Ellipsis => {
                for _ in 0..sizes.len() - self.named {
                    self.put(sizes[self.d], strides[self.d]);
                    self.d += 1;
                }
            }
        }
        Some(())
    }

    /// Writes the next output dimension.
    #[inline(always)]
    fn put(&mut self, size: usize, stride: usize) {
        (self.out_sizes[self.p], self.out_strides[self.p]) = (size, stride);
        self.p += 1;
    }

    /// The dimensions no item named, copied; the result's offset.
    #[inline(always)]
    pub fn finish(mut self) -> usize {
        for k in self.d..self.sizes.len() {
            self.put(self.sizes[k], self.strides[k]);
        }
        self.offset
    }
}
