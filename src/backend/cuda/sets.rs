//! `unique` (also along a dim, and `unique_consecutive`), `searchsorted`
//! and `bucketize`, `bincount` and `histc` on CUDA: the phases of
//! `shaped_sets_<dtype>` (`kernels/sets.cuh`) between the device's own
//! sort, scan and reductions.
//!
//! - `unique`: an integer tensor whose values span a small range (at most
//!   about twice its length, under 2^24, as on the CPU) is counted: its
//!   minimum and maximum (two reductions), a histogram (64-bit atomics),
//!   the ranks of the non-empty bins (a scan), and each element's inverse a
//!   look-up of its bin's rank. Any other input is sorted (the stable sort
//!   of `sort.rs`, for its positions), the heads of the runs of equal
//!   elements marked, their inclusive sums (a scan) numbering the runs,
//!   and one launch writes each run's first element, start and the
//!   inverse; the counts are the distances between the starts.
//!   `unique_consecutive` is the same without the sort.
//! - `unique` along a dim: the slices are rows; they are sorted
//!   lexicographically by one stable sort per column, the last column
//!   first (a least-significant-digit sort), then marked, numbered and
//!   written as the elements are.
//! - `searchsorted`: a thread per value, PyTorch's binary search; a
//!   `sorter` is checked first (its minimum and maximum).
//! - `bincount`: the minimum (none below 0) and maximum size the bins;
//!   then a histogram, or with weights an atomic sum per bin (in an order
//!   that varies from run to run, as PyTorch's on CUDA).
//! - `histc`: each element's bin by the CPU's arithmetic, counted in 64
//!   bits and converted to the element type with one rounding.
//!
//! So the results are the CPU's, bit for bit (but for weighted sums'
//! rounding), and counts never depend on the order threads run in. Each
//! operation whose result's length depends on the data reads that length
//! back (one wait), as PyTorch's does.
//!
//! The steps are written once, over [`SetsDevice`], so the host tests run
//! them on the CPU backend with the kernels compiled for the host.

use super::launch::{dtype_name, queue_with_shared};
use super::sort::thread_grid;
use super::{Cuda, CudaBuffer, CudaPtr, check};
use crate::backend::cpu::sets::{BinIndex, BinWeight, HistcElement, SetElement};
use crate::backend::{Backend, Reductions, Scanning, SetOps, Sorting, StridedRef, Uniques};
use crate::dtype::{DType, Element};
use crate::error::Error;
use crate::layout::{checked_numel, is_contiguous};
use crate::ops::functions::Identity;
use crate::ops::reductions::reducers::{Extreme, Largest, Smallest};
use crate::ops::scans::CumSum;
use core::marker::PhantomData;
use cust::sys;

/// Threads per block (`SHAPED_SETS_BLOCK`).
pub(crate) const BLOCK: u32 = 256;

/// The phases (`SETS_*` of `kernels/sets.cuh`).
pub(crate) const HEADS: i32 = 0;
pub(crate) const GATHER: i32 = 1;
pub(crate) const COUNTS: i32 = 2;
pub(crate) const HISTOGRAM: i32 = 3;
pub(crate) const PRESENT: i32 = 4;
pub(crate) const COUNTED: i32 = 5;
pub(crate) const LOOKUP: i32 = 6;
pub(crate) const SEARCH: i32 = 7;
pub(crate) const HISTC: i32 = 8;
/// The most bins a histc block counts in shared memory
/// (`SHAPED_HISTC_SHARED` in `kernels/sets.cuh`).
pub(crate) const HISTC_SHARED_BINS: u64 = 4096;
pub(crate) const TO_FLOAT: i32 = 9;
pub(crate) const COLUMN: i32 = 10;
pub(crate) const PERMUTE: i32 = 11;

/// The argument block of the sets kernels (`shaped::SetsArgs`); the
/// addresses 0 where a phase takes none.
#[repr(C)]
#[derive(Copy, Clone, Debug, Default)]
pub(crate) struct SetsArgs {
    pub(crate) x: u64,
    pub(crate) order: u64,
    pub(crate) marks: u64,
    pub(crate) ids: u64,
    pub(crate) values: u64,
    pub(crate) inverse: u64,
    pub(crate) counts: u64,
    pub(crate) starts: u64,
    pub(crate) boundaries: u64,
    pub(crate) sorter: u64,
    pub(crate) weights: u64,
    pub(crate) out: u64,
    pub(crate) positions: u64,
    pub(crate) n: u64,
    pub(crate) row: u64,
    pub(crate) count: u64,
    pub(crate) line: u64,
    pub(crate) per_line: u64,
    pub(crate) bins: u64,
    pub(crate) column: u64,
    pub(crate) lo: i64,
    pub(crate) min: f64,
    pub(crate) max: f64,
    pub(crate) phase: i32,
    pub(crate) right: i32,
    pub(crate) weight_kind: i32,
    pub(crate) pad: i32,
}

/// The sets kernel of element type `dtype`.
pub(crate) fn kernel_name(dtype: DType) -> String {
    format!("shaped_sets_{}", dtype_name(dtype))
}

/// What the steps of the sets need of a device besides its sort, scan and
/// reductions: zeroed buffers, addresses, and the sets kernels.
pub(crate) trait SetsDevice: Sorting + Scanning + Reductions {
    /// `len` zeroed elements on the device of `near`.
    fn zeroed<T: Element, U: Element>(
        near: Self::Ptr<U>,
        len: usize,
    ) -> Result<Self::Buffer<T>, Error>;

    /// The address of element `offset` from `ptr`.
    fn address<T: Element>(ptr: Self::Ptr<T>, offset: usize) -> u64;

    /// Runs phase `args.phase` of the sets kernel of `dtype` on the device
    /// of `near`, a thread for each of `items` items (fewer threads loop).
    ///
    /// # Safety
    /// Every address in `args` is a live buffer of this device holding
    /// every element the phase reaches with these arguments (as
    /// `kernels/sets.cuh` describes each), of the types it reads them as,
    /// and no one else writes them until the phase is done.
    unsafe fn launch<U: Element>(
        near: Self::Ptr<U>,
        dtype: DType,
        items: u64,
        args: SetsArgs,
    ) -> Result<(), Error>;
}

impl SetsDevice for Cuda {
    fn zeroed<T: Element, U: Element>(
        near: CudaPtr<U>,
        len: usize,
    ) -> Result<CudaBuffer<T>, Error> {
        let buffer = CudaBuffer::<T>::uninit(near.device, len)?;
        if len > 0 {
            let state = super::state(near.device)?;
            state.make_current()?;
            // SAFETY: the buffer's `len * size_of::<T>()` bytes, just
            // allocated on this stream (zero bytes are a valid element of
            // every dtype).
            let result = unsafe {
                sys::cuMemsetD8Async(
                    buffer.ptr().addr,
                    0,
                    len * size_of::<T>(),
                    state.stream.as_inner(),
                )
            };
            check(result, "clearing device memory")?;
        }
        Ok(buffer)
    }

    fn address<T: Element>(ptr: CudaPtr<T>, offset: usize) -> u64 {
        ptr.addr + (offset * size_of::<T>()) as u64
    }

    unsafe fn launch<U: Element>(
        near: CudaPtr<U>,
        dtype: DType,
        items: u64,
        args: SetsArgs,
    ) -> Result<(), Error> {
        if items == 0 {
            return Ok(());
        }
        let state = super::state(near.device)?;
        state.make_current()?;
        let name = kernel_name(dtype);
        let function = state.function(&name)?;
        let blocks = state.resident_blocks(&name, &function, BLOCK)?;
        // A histc of few bins counts per block in shared memory first: a
        // word per bin (at most 16 KiB; 8 blocks of 256 threads still fit).
        let shared = if args.phase == HISTC && args.bins <= HISTC_SHARED_BINS {
            u32::try_from(args.bins * 4).expect("at most 16 KiB")
        } else {
            0
        };
        // SAFETY: the sets kernels take one `shaped::SetsArgs` by value,
        // which `SetsArgs` mirrors field for field (`repr(C)`, checked by
        // the host tests); the addresses are the caller's contract; the
        // histc phase reaches `bins` words of shared memory exactly when
        // `bins <= SHAPED_HISTC_SHARED` (= HISTC_SHARED_BINS).
        unsafe {
            queue_with_shared(
                state,
                &function,
                thread_grid(items, blocks),
                BLOCK,
                shared,
                args,
            )
        }
    }
}

/// A dense row-major copy of `x` when its layout is not one already
/// (kept alive by the caller), and where its elements start.
struct Dense<T: Element, D: Backend> {
    _copy: Option<D::Buffer<T>>,
    ptr: D::Ptr<T>,
    offset: usize,
}

impl<T: Element, D: SetsDevice> Dense<T, D> {
    fn of(x: StridedRef<'_, T, D>) -> Result<Self, Error> {
        if is_contiguous(x.sizes, x.strides) {
            return Ok(Dense {
                _copy: None,
                ptr: x.ptr,
                offset: x.offset,
            });
        }
        let copy = D::map1(x, Identity)?;
        let ptr = D::ptr(&copy);
        Ok(Dense {
            _copy: Some(copy),
            ptr,
            offset: 0,
        })
    }

    fn addr(&self) -> u64 {
        D::address(self.ptr, self.offset)
    }

    /// The elements as one line of `n`.
    fn line<'a>(&self, n: &'a [usize; 1]) -> StridedRef<'a, T, D> {
        StridedRef {
            ptr: self.ptr,
            sizes: n,
            strides: &[1],
            offset: self.offset,
        }
    }
}

/// The address of a buffer's first element.
fn addr_of<T: Element, D: SetsDevice>(buffer: &D::Buffer<T>) -> u64 {
    D::address(D::ptr(buffer), 0)
}

/// Element `at` of `buffer`, read back.
fn read<T: Element, D: SetsDevice>(buffer: &D::Buffer<T>, at: usize) -> Result<T, Error> {
    D::item(StridedRef {
        ptr: D::ptr(buffer),
        sizes: &[],
        strides: &[],
        offset: at,
    })
}

/// The inclusive sums of the first `n` words of `marks`.
fn inclusive_sums<D: SetsDevice>(
    marks: &D::Buffer<i64>,
    n: usize,
) -> Result<D::Buffer<i64>, Error> {
    let sizes = [n];
    D::scan(
        StridedRef {
            ptr: D::ptr(marks),
            sizes: &sizes,
            strides: &[1],
            offset: 0,
        },
        0,
        CumSum,
    )
}

/// The smallest and largest elements of the line `x` (NaN when it holds
/// one), `None` when it is empty.
fn extremes_of<T: SetElement, D: SetsDevice>(
    x: StridedRef<'_, T, D>,
) -> Result<Option<(T, T)>, Error> {
    if crate::layout::numel(x.sizes) == 0 {
        return Ok(None);
    }
    let all = vec![true; x.sizes.len()];
    let lo = D::reduce(x, &all, Extreme::<Smallest>(PhantomData))?;
    let hi = D::reduce(x, &all, Extreme::<Largest>(PhantomData))?;
    Ok(Some((read::<T, D>(&lo, 0)?, read::<T, D>(&hi, 0)?)))
}

/// The runs of equal rows of the `n` rows of `row` elements at `x` (read
/// in `order` when given): each run's first row, and the inverse and the
/// counts when wanted.
#[allow(clippy::too_many_arguments)]
fn runs<T: SetElement, D: SetsDevice>(
    near: D::Ptr<T>,
    x: u64,
    order: Option<&D::Buffer<i64>>,
    n: usize,
    row: usize,
    inverse: bool,
    counts: bool,
) -> Result<Uniques<T, D>, Error> {
    if n == 0 {
        return Ok(Uniques {
            values: D::zeroed(near, 0)?,
            count: 0,
            inverse: inverse.then(|| D::zeroed(near, 0)).transpose()?,
            counts: counts.then(|| D::zeroed(near, 0)).transpose()?,
        });
    }
    let order = order.map_or(0, addr_of::<i64, D>);
    let marks = D::zeroed::<i64, T>(near, n)?;
    let args = SetsArgs {
        x,
        order,
        n: n as u64,
        row: row as u64,
        ..SetsArgs::default()
    };
    // SAFETY: `x` holds the `n` rows of `row` elements of `T` (at the
    // positions of `order`, `n` int64 of them, when given); `marks` is `n`
    // int64 of our own.
    let heads = SetsArgs {
        phase: HEADS,
        marks: addr_of::<i64, D>(&marks),
        ..args
    };
    unsafe { D::launch(near, T::DTYPE, n as u64, heads) }?;
    let ids = inclusive_sums::<D>(&marks, n)?;
    let count = read::<i64, D>(&ids, n - 1)? as usize;
    let values = D::zeroed::<T, T>(near, count * row)?;
    let starts = D::zeroed::<i64, T>(near, count)?;
    let inverse = inverse.then(|| D::zeroed::<i64, T>(near, n)).transpose()?;
    let gather = SetsArgs {
        phase: GATHER,
        ids: addr_of::<i64, D>(&ids),
        values: addr_of::<T, D>(&values),
        starts: addr_of::<i64, D>(&starts),
        inverse: inverse.as_ref().map_or(0, addr_of::<i64, D>),
        ..args
    };
    // SAFETY: as above, with `ids` the `n` sums (each run's number plus one,
    // below `count + 1`), `values` `count` rows, `starts` `count` words and
    // `inverse` `n` words (the positions of `order` are below `n`).
    unsafe { D::launch(near, T::DTYPE, n as u64, gather) }?;
    let counts = match counts {
        false => None,
        true => {
            let c = D::zeroed::<i64, T>(near, count)?;
            let tally = SetsArgs {
                phase: COUNTS,
                starts: addr_of::<i64, D>(&starts),
                counts: addr_of::<i64, D>(&c),
                count: count as u64,
                ..args
            };
            // SAFETY: `starts` and `c` hold `count` words each.
            unsafe { D::launch(near, T::DTYPE, count as u64, tally) }?;
            Some(c)
        }
    };
    Ok(Uniques {
        values,
        count,
        inverse,
        counts,
    })
}

/// `unique` by counting, when `x` (dense, `n` elements) is of an integer
/// type and its values span a small range; `None` otherwise.
fn counted<T: SetElement, D: SetsDevice>(
    x: &Dense<T, D>,
    n: usize,
    inverse: bool,
    counts: bool,
) -> Result<Option<Uniques<T, D>>, Error> {
    if !T::INTEGRAL || n == 0 {
        return Ok(None);
    }
    let sizes = [n];
    let Some((lo, hi)) = extremes_of(x.line(&sizes))? else {
        return Ok(None);
    };
    let (lo, hi) = (lo.to_int(), hi.to_int());
    let span = (i128::from(hi) - i128::from(lo)) as u128;
    if span >= 1 << 24 || span > 2 * n as u128 + 1024 {
        return Ok(None);
    }
    let bins = span as usize + 1;
    let near = x.ptr;
    let hist = D::zeroed::<i64, T>(near, bins)?;
    let present = D::zeroed::<i64, T>(near, bins)?;
    let args = SetsArgs {
        x: x.addr(),
        marks: addr_of::<i64, D>(&hist),
        starts: addr_of::<i64, D>(&present),
        lo,
        ..SetsArgs::default()
    };
    // SAFETY: `x` holds `n` elements, each within `lo..=hi`, so each bin
    // `x - lo` is one of the `bins` words of `hist`.
    let histogram = SetsArgs {
        phase: HISTOGRAM,
        n: n as u64,
        ..args
    };
    unsafe { D::launch(near, T::DTYPE, n as u64, histogram) }?;
    let flags = SetsArgs {
        phase: PRESENT,
        n: bins as u64,
        ..args
    };
    // SAFETY: `hist` and `present` hold `bins` words each.
    unsafe { D::launch(near, T::DTYPE, bins as u64, flags) }?;
    let ids = inclusive_sums::<D>(&present, bins)?;
    let count = read::<i64, D>(&ids, bins - 1)? as usize;
    let values = D::zeroed::<T, T>(near, count)?;
    let tallies = counts
        .then(|| D::zeroed::<i64, T>(near, count))
        .transpose()?;
    let written = SetsArgs {
        phase: COUNTED,
        n: bins as u64,
        ids: addr_of::<i64, D>(&ids),
        values: addr_of::<T, D>(&values),
        counts: tallies.as_ref().map_or(0, addr_of::<i64, D>),
        ..args
    };
    // SAFETY: `hist` and `ids` hold `bins` words, and the ranks of the
    // non-empty bins are below `count`: the lengths of `values` and
    // `tallies`.
    unsafe { D::launch(near, T::DTYPE, bins as u64, written) }?;
    let inverse = match inverse {
        false => None,
        true => {
            let inv = D::zeroed::<i64, T>(near, n)?;
            let lookup = SetsArgs {
                phase: LOOKUP,
                n: n as u64,
                ids: addr_of::<i64, D>(&ids),
                inverse: addr_of::<i64, D>(&inv),
                ..args
            };
            // SAFETY: `x` holds `n` elements within the bins of `ids`;
            // `inv` is `n` words.
            unsafe { D::launch(near, T::DTYPE, n as u64, lookup) }?;
            Some(inv)
        }
    };
    Ok(Some(Uniques {
        values,
        count,
        inverse,
        counts: tallies,
    }))
}

/// `unique` (or `unique_consecutive`) of the elements of `x` in row-major
/// order.
pub(crate) fn unique_elements<T: SetElement, D: SetsDevice>(
    x: StridedRef<'_, T, D>,
    consecutive: bool,
    inverse: bool,
    counts: bool,
) -> Result<Uniques<T, D>, Error> {
    let n = checked_numel(x.sizes)?;
    let dense = Dense::of(x)?;
    if !consecutive && let Some(u) = counted(&dense, n, inverse, counts)? {
        return Ok(u);
    }
    let sizes = [n];
    let order = match consecutive || n == 0 {
        true => None,
        false => Some(D::sort(dense.line(&sizes), 0, false, false)?.1),
    };
    runs(
        dense.ptr,
        dense.addr(),
        order.as_ref(),
        n,
        1,
        inverse,
        counts,
    )
}

/// `unique` of the slices of `x` along `dim` (or of runs of equal
/// neighbours), each slice row-major over the other dims.
pub(crate) fn unique_slices<T: SetElement, D: SetsDevice>(
    x: StridedRef<'_, T, D>,
    dim: usize,
    consecutive: bool,
    inverse: bool,
    counts: bool,
) -> Result<Uniques<T, D>, Error> {
    // The slices as rows: `dim` moved first (PyTorch's layout).
    let mut sizes = x.sizes.to_vec();
    let mut strides = x.strides.to_vec();
    let (rows, stride) = (sizes.remove(dim), strides.remove(dim));
    sizes.insert(0, rows);
    strides.insert(0, stride);
    checked_numel(&sizes)?;
    let row = crate::layout::numel(&sizes[1..]);
    let dense = Dense::of(StridedRef {
        sizes: &sizes,
        strides: &strides,
        ..x
    })?;
    let near = dense.ptr;
    // Sorted by one stable sort per column, the last first: the rows end in
    // lexicographic order of their elements' keys, equal rows in theirs.
    let mut order: Option<D::Buffer<i64>> = None;
    if !consecutive && rows > 1 {
        let column = D::zeroed::<T, T>(near, rows)?;
        let lines = [rows];
        for c in (0..row).rev() {
            let args = SetsArgs {
                phase: COLUMN,
                x: dense.addr(),
                order: order.as_ref().map_or(0, addr_of::<i64, D>),
                values: addr_of::<T, D>(&column),
                n: rows as u64,
                row: row as u64,
                column: c as u64,
                ..SetsArgs::default()
            };
            // SAFETY: `x` holds `rows` rows of `row` elements (`c` below
            // `row`), read at the positions of `order` (`rows` of them,
            // each below `rows`); `column` holds `rows` elements.
            unsafe { D::launch(near, T::DTYPE, rows as u64, args) }?;
            let column_ref = StridedRef {
                ptr: D::ptr(&column),
                sizes: &lines,
                strides: &[1],
                offset: 0,
            };
            let (_, positions) = D::sort(column_ref, 0, false, false)?;
            let next = D::zeroed::<i64, T>(near, rows)?;
            let permute = SetsArgs {
                phase: PERMUTE,
                positions: addr_of::<i64, D>(&positions),
                out: addr_of::<i64, D>(&next),
                ..args
            };
            // SAFETY: `positions` and `next` hold `rows` words; the
            // positions are below `rows`, the length of `order`.
            unsafe { D::launch(near, T::DTYPE, rows as u64, permute) }?;
            order = Some(next);
        }
    }
    runs(
        near,
        dense.addr(),
        order.as_ref(),
        rows,
        row,
        inverse,
        counts,
    )
}

/// The positions of `values` in `boundaries` (see [`SetOps::searchsorted`]).
pub(crate) fn search<T: SetElement, D: SetsDevice>(
    boundaries: StridedRef<'_, T, D>,
    values: StridedRef<'_, T, D>,
    sorter: Option<StridedRef<'_, i64, D>>,
    right: bool,
) -> Result<D::Buffer<i64>, Error> {
    let line = boundaries.sizes.last().copied().unwrap_or(1);
    let per_line = match boundaries.sizes.len() {
        0 | 1 => 0,
        _ => values.sizes.last().copied().unwrap_or(1).max(1),
    };
    let n = checked_numel(values.sizes)?;
    let sorted = sorter.map(|s| checked_numel(s.sizes)).transpose()?;
    let sorter = sorter.map(Dense::of).transpose()?;
    if let (Some(s), Some(total)) = (&sorter, sorted)
        && let Some((lo, hi)) = extremes_of(s.line(&[total]))?
        && (lo < 0 || hi >= line as i64)
    {
        return Err(Error::Unsupported {
            message: "torch.searchsorted(): sorter index out of range",
        });
    }
    let near = values.ptr;
    let out = D::zeroed::<i64, T>(near, n)?;
    let bounds = Dense::of(boundaries)?;
    let values = Dense::of(values)?;
    let args = SetsArgs {
        phase: SEARCH,
        x: values.addr(),
        boundaries: bounds.addr(),
        sorter: sorter.as_ref().map_or(0, Dense::addr),
        out: addr_of::<i64, D>(&out),
        n: n as u64,
        line: line as u64,
        per_line: per_line as u64,
        right: i32::from(right),
        ..SetsArgs::default()
    };
    // SAFETY: `x` holds the `n` values, `out` `n` words; each value's line
    // (`i / per_line`, or the one line) holds `line` boundaries (the
    // caller checked the leading dims), and the sorter, as long as the
    // boundaries, holds positions within each line (checked above).
    unsafe { D::launch(near, T::DTYPE, n as u64, args) }?;
    Ok(out)
}

/// `bincount`'s bins: the larger of `minlength` and the maximum plus one;
/// `Err` (PyTorch's text) for a negative element.
fn bins_of<T: BinIndex, D: SetsDevice>(
    x: &Dense<T, D>,
    n: usize,
    minlength: usize,
) -> Result<usize, Error> {
    let sizes = [n];
    match extremes_of(x.line(&sizes))? {
        None => Ok(minlength),
        Some((lo, _)) if lo.to_int() < 0 => Err(Error::Unsupported {
            message: "bincount only supports 1-d non-negative integral inputs.",
        }),
        Some((_, hi)) => {
            let top = usize::try_from(hi.to_int()).map_err(|_| Error::NumelOverflow)?;
            Ok(top
                .checked_add(1)
                .ok_or(Error::NumelOverflow)?
                .max(minlength))
        }
    }
}

/// The count (or with `weights`, the sum of the weights) of each value
/// `0..bins` of `x`.
fn histogram<T: BinIndex, W: Element, D: SetsDevice>(
    x: StridedRef<'_, T, D>,
    weights: Option<StridedRef<'_, W, D>>,
    minlength: usize,
) -> Result<(D::Buffer<W>, usize), Error> {
    let n = checked_numel(x.sizes)?;
    let dense = Dense::of(x)?;
    let bins = bins_of(&dense, n, minlength)?;
    let near = dense.ptr;
    let out = D::zeroed::<W, T>(near, bins)?;
    let weights = weights.map(Dense::of).transpose()?;
    let kind = match (&weights, W::DTYPE) {
        (None, _) => 0,
        (Some(_), DType::F32) => 1,
        (Some(_), _) => 2,
    };
    let args = SetsArgs {
        phase: HISTOGRAM,
        x: dense.addr(),
        marks: addr_of::<W, D>(&out),
        values: addr_of::<W, D>(&out),
        weights: weights.as_ref().map_or(0, Dense::addr),
        weight_kind: kind,
        n: n as u64,
        ..SetsArgs::default()
    };
    // SAFETY: `x` holds `n` elements in `0..bins` (checked above), `out`
    // `bins` words (int64 counts, or the weights' float or double), and
    // the weights `n` of them.
    unsafe { D::launch(near, T::DTYPE, n as u64, args) }?;
    Ok((out, bins))
}

/// The histogram of `x` in `bins` bins over `[min, max]`.
pub(crate) fn histc<T: HistcElement, D: SetsDevice>(
    x: StridedRef<'_, T, D>,
    bins: usize,
    min: T,
    max: T,
) -> Result<D::Buffer<T>, Error> {
    let n = checked_numel(x.sizes)?;
    let dense = Dense::of(x)?;
    let near = dense.ptr;
    let marks = D::zeroed::<i64, T>(near, bins)?;
    let values = D::zeroed::<T, T>(near, bins)?;
    let args = SetsArgs {
        x: dense.addr(),
        marks: addr_of::<i64, D>(&marks),
        values: addr_of::<T, D>(&values),
        bins: bins as u64,
        min: HistcElement::to_f64(min),
        max: HistcElement::to_f64(max),
        ..SetsArgs::default()
    };
    let count = SetsArgs {
        phase: HISTC,
        n: n as u64,
        ..args
    };
    // SAFETY: `x` holds `n` elements; each bin is below `bins` (clipped),
    // the words of `marks`.
    unsafe { D::launch(near, T::DTYPE, n as u64, count) }?;
    let convert = SetsArgs {
        phase: TO_FLOAT,
        n: bins as u64,
        ..args
    };
    // SAFETY: `marks` and `values` hold `bins` elements each.
    unsafe { D::launch(near, T::DTYPE, bins as u64, convert) }?;
    Ok(values)
}

/// The set operations of any [`SetsDevice`] (the host tests call these
/// with the CPU backend).
pub(crate) fn bincount_on<T: BinIndex, D: SetsDevice>(
    x: StridedRef<'_, T, D>,
    minlength: usize,
) -> Result<(D::Buffer<i64>, usize), Error> {
    histogram::<T, i64, D>(x, None, minlength)
}

/// `bincount` with weights on any [`SetsDevice`].
pub(crate) fn bincount_weighted_on<T: BinIndex, W: BinWeight, D: SetsDevice>(
    x: StridedRef<'_, T, D>,
    weights: StridedRef<'_, W, D>,
    minlength: usize,
) -> Result<(D::Buffer<W>, usize), Error> {
    histogram::<T, W, D>(x, Some(weights), minlength)
}

/// The smallest and largest elements on any [`SetsDevice`].
pub(crate) fn extremes_on<T: SetElement, D: SetsDevice>(
    x: StridedRef<'_, T, D>,
) -> Result<Option<(T, T)>, Error> {
    let n = checked_numel(x.sizes)?;
    let dense = Dense::of(x)?;
    let sizes = [n];
    extremes_of(dense.line(&sizes))
}

impl SetOps for Cuda {
    fn unique<T: SetElement>(
        x: StridedRef<'_, T, Cuda>,
        consecutive: bool,
        inverse: bool,
        counts: bool,
    ) -> Result<Uniques<T, Cuda>, Error> {
        unique_elements(x, consecutive, inverse, counts)
    }

    fn unique_dim<T: SetElement>(
        x: StridedRef<'_, T, Cuda>,
        dim: usize,
        consecutive: bool,
        inverse: bool,
        counts: bool,
    ) -> Result<Uniques<T, Cuda>, Error> {
        unique_slices(x, dim, consecutive, inverse, counts)
    }

    fn searchsorted<T: SetElement>(
        boundaries: StridedRef<'_, T, Cuda>,
        values: StridedRef<'_, T, Cuda>,
        sorter: Option<StridedRef<'_, i64, Cuda>>,
        right: bool,
    ) -> Result<CudaBuffer<i64>, Error> {
        search(boundaries, values, sorter, right)
    }

    fn bincount<T: BinIndex>(
        x: StridedRef<'_, T, Cuda>,
        minlength: usize,
    ) -> Result<(CudaBuffer<i64>, usize), Error> {
        bincount_on(x, minlength)
    }

    fn bincount_weighted<T: BinIndex, W: BinWeight>(
        x: StridedRef<'_, T, Cuda>,
        weights: StridedRef<'_, W, Cuda>,
        minlength: usize,
    ) -> Result<(CudaBuffer<W>, usize), Error> {
        bincount_weighted_on(x, weights, minlength)
    }

    fn extremes<T: SetElement>(x: StridedRef<'_, T, Cuda>) -> Result<Option<(T, T)>, Error> {
        extremes_on(x)
    }

    fn histc<T: HistcElement>(
        x: StridedRef<'_, T, Cuda>,
        bins: usize,
        min: T,
        max: T,
    ) -> Result<CudaBuffer<T>, Error> {
        histc(x, bins, min, max)
    }
}
