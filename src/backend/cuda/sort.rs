//! `sort`, `argsort`, `msort` and `topk` on CUDA: `shaped_sort_<dtype>` of
//! `kernels/sort.cuh`. Each element becomes an item, its order-preserving
//! key (the CPU's [`SortKey`], inverted for a descending sort) joined with
//! its position, so that items are distinct and any sort of them is the
//! stable sort. One launch sorts tiles of [`TILE`] items in shared memory
//! (a bitonic network; short lines share a tile), then each merge launch
//! doubles the sorted runs of every line (each item placed by a binary
//! search in the other run; for `topk` only the first `k` of each run), and
//! a last launch writes the first `k` of each line: the indices, and the
//! input's elements at them (so the values are the CPU's bit for bit,
//! `-0.0` and NaN payloads included). No atomics: the result does not
//! depend on the order blocks run in.
//!
//! The planning knows nothing of devices, so the host tests run the same
//! plans through the kernels compiled for the host.

use super::launch::{dtype_name, queue};
use super::{Cuda, CudaBuffer};
use crate::backend::cpu::sort::SortKey;
use crate::backend::{Elementwise, Sorting, StridedRef};
use crate::dtype::DType;
use crate::error::Error;
use crate::layout::checked_numel;

/// Threads per block (`SHAPED_SORT_BLOCK`).
pub(crate) const BLOCK: u32 = 256;
/// Items a block sorts in shared memory at once (`SHAPED_SORT_TILE`).
pub(crate) const TILE: u64 = 2048;

/// The phases (`SORT_TILES`, `SORT_MERGE`, `SORT_WRITE`, and in place of
/// the write, `SORT_PICK` and `SORT_QUANTILE` of the order statistics).
pub(crate) const TILES: i32 = 0;
pub(crate) const MERGE: i32 = 1;
pub(crate) const WRITE: i32 = 2;
pub(crate) const PICK: i32 = 3;
pub(crate) const QUANTILE: i32 = 4;

/// The argument block of the sort kernels (`shaped::SortArgs`).
#[repr(C)]
#[derive(Copy, Clone, Debug, Default)]
pub(crate) struct SortArgs {
    pub(crate) x: u64,
    pub(crate) from: u64,
    pub(crate) to: u64,
    pub(crate) values: u64,
    pub(crate) indices: u64,
    pub(crate) lines: u64,
    pub(crate) n: u64,
    pub(crate) width: u64,
    pub(crate) k: u64,
    pub(crate) descending: i32,
    pub(crate) phase: i32,
    pub(crate) q: u64,
    pub(crate) quantiles: u64,
    pub(crate) place: u64,
    pub(crate) statistic: i32,
    pub(crate) interpolation: i32,
    pub(crate) ignore_nan: i32,
    pub(crate) pad: i32,
}

/// The sort kernel of element type `dtype`.
pub(crate) fn kernel_name(dtype: DType) -> String {
    format!("shaped_sort_{}", dtype_name(dtype))
}

/// Bytes of an item of `dtype`: a 64-bit key with its position, or a key
/// of up to 32 bits above its position in one word.
pub(crate) fn item_bytes(dtype: DType) -> usize {
    match dtype {
        DType::F64 | DType::I64 => 16,
        _ => 8,
    }
}

/// One launch of a plan.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct SortStep {
    pub phase: i32,
    /// Segment length (tiles) or run length (merges).
    pub width: u64,
    /// Which item buffer is read (merges, writes), and which written.
    pub from: usize,
    pub to: usize,
    pub grid: u32,
}

/// A planned sort: its arguments (addresses unset) and launches.
#[derive(Clone, Debug)]
pub(crate) struct SortPlan {
    pub args: SortArgs,
    pub steps: Vec<SortStep>,
    /// Item buffers needed (1 or 2), each of `lines * n` items.
    pub buffers: usize,
}

impl SortPlan {
    /// The arguments of step `step`, with the input, the two item buffers
    /// and the outputs (`values` 0: none wanted).
    pub fn args_of(
        &self,
        step: &SortStep,
        x: u64,
        items: [u64; 2],
        values: u64,
        indices: u64,
    ) -> SortArgs {
        SortArgs {
            x,
            from: items[step.from],
            to: items[step.to],
            values,
            indices,
            width: step.width,
            phase: step.phase,
            ..self.args
        }
    }
}

/// Plans the first `k` (at most `n`) of the sorted `lines` lines of `n`
/// elements on a device that runs `blocks` blocks at once, or `None` when
/// nothing is written (no elements, or `k` = 0).
pub(crate) fn plan_sort(
    lines: u64,
    n: u64,
    k: u64,
    descending: bool,
    blocks: u32,
) -> Option<SortPlan> {
    if lines == 0 || n == 0 || k == 0 {
        return None;
    }
    let blocks = u64::from(blocks.max(1));
    let grid = |work: u64| u32::try_from(work.min(blocks * 4).max(1)).unwrap_or(u32::MAX);
    let threads = |work: u64| grid(work.div_ceil(u64::from(BLOCK)));
    // Segments of a power of two, the tile when lines are longer.
    let width = n.next_power_of_two().min(TILE);
    let segments = lines.saturating_mul(n.div_ceil(width));
    let tiles = segments.div_ceil(TILE / width);
    let total = lines.saturating_mul(n);
    let mut steps = vec![SortStep {
        phase: TILES,
        width,
        from: 0,
        to: 0,
        grid: grid(tiles),
    }];
    let mut run = width;
    let mut at = 0;
    while run < n {
        steps.push(SortStep {
            phase: MERGE,
            width: run,
            from: at,
            to: 1 - at,
            grid: threads(total),
        });
        at = 1 - at;
        run = run.saturating_mul(2);
    }
    steps.push(SortStep {
        phase: WRITE,
        width: 0,
        from: at,
        to: at,
        grid: threads(lines.saturating_mul(k)),
    });
    let buffers = if steps.len() > 2 { 2 } else { 1 };
    Some(SortPlan {
        args: SortArgs {
            lines,
            n,
            k,
            descending: i32::from(descending),
            ..SortArgs::default()
        },
        steps,
        buffers,
    })
}

/// Grid of a launch of a thread per item of `work` on a device that runs
/// `blocks` blocks at once (as the plans' merges and writes).
pub(crate) fn thread_grid(work: u64, blocks: u32) -> u32 {
    let most = u64::from(blocks.max(1)) * 4;
    u32::try_from(work.div_ceil(u64::from(BLOCK)).min(most).max(1)).unwrap_or(u32::MAX)
}

/// The sizes and strides of `x` with `dim` moved last.
pub(super) fn dim_last(sizes: &[usize], strides: &[usize], dim: usize) -> (Vec<usize>, Vec<usize>) {
    let mut s: Vec<usize> = sizes.to_vec();
    let mut t: Vec<usize> = strides.to_vec();
    let (n, stride) = (s.remove(dim), t.remove(dim));
    s.push(n);
    t.push(stride);
    (s, t)
}

/// The first `k` of each sorted line of `x` along `dim` (`k` = the
/// line's length for a sort): the indices, and the values when wanted,
/// each a new buffer laid out row-major with `dim` moved last.
fn sort_lines<T: SortKey>(
    x: StridedRef<'_, T, Cuda>,
    dim: usize,
    k: Option<usize>,
    descending: bool,
    want_values: bool,
    what: &'static str,
) -> Result<(Option<CudaBuffer<T>>, CudaBuffer<i64>), Error> {
    let device = x.ptr.device;
    let n = x.sizes[dim];
    if u32::try_from(n).is_err() {
        return Err(Error::Unsupported { message: what });
    }
    let k = k.unwrap_or(n);
    let (sizes, strides) = dim_last(x.sizes, x.strides, dim);
    let total = checked_numel(&sizes)?;
    let lines = match n {
        0 => 0,
        _ => total / n,
    };
    let outputs = lines
        .checked_mul(k)
        .ok_or(Error::Unsupported { message: what })?;
    let values = match want_values {
        true => Some(CudaBuffer::<T>::uninit(device, outputs)?),
        false => None,
    };
    let indices = CudaBuffer::<i64>::uninit(device, outputs)?;
    let state = super::state(device)?;
    state.make_current()?;
    let kernel = kernel_name(T::DTYPE);
    let function = state.function(&kernel)?;
    let blocks = state.resident_blocks(&kernel, &function, BLOCK)?;
    let Some(plan) = plan_sort(lines as u64, n as u64, k as u64, descending, blocks) else {
        return Ok((values, indices));
    };
    let out = values.as_ref().map_or(0, |v| v.ptr().addr);
    run_plan(x, &sizes, &strides, &plan, out, indices.ptr().addr, what)?;
    Ok((values, indices))
}

/// Queues the launches of `plan` on the lines of `x` (on the current
/// device) laid out `sizes`, `strides` (its dim moved last): the kernels
/// read the lines dense, so another layout is copied first. `values` and
/// `indices` are the outputs' addresses (`values` 0: none), of the sizes
/// that the plan's last step writes; `plan.args.q` is an address already.
pub(super) fn run_plan<T: SortKey>(
    x: StridedRef<'_, T, Cuda>,
    sizes: &[usize],
    strides: &[usize],
    plan: &SortPlan,
    values: u64,
    indices: u64,
    what: &'static str,
) -> Result<(), Error> {
    let device = x.ptr.device;
    let state = super::state(device)?;
    state.make_current()?;
    let function = state.function(&kernel_name(T::DTYPE))?;
    let last = StridedRef {
        sizes,
        strides,
        ..x
    };
    let dense;
    let first = if crate::layout::is_contiguous(sizes, strides) {
        x.ptr.addr + (x.offset * size_of::<T>()) as u64
    } else {
        dense = <Cuda as Elementwise>::map1(last, crate::ops::functions::Identity)?;
        dense.ptr().addr
    };
    let total = checked_numel(sizes)?;
    let words = total
        .checked_mul(item_bytes(T::DTYPE) / 8)
        .ok_or(Error::Unsupported { message: what })?;
    let items: Vec<CudaBuffer<i64>> = (0..plan.buffers)
        .map(|_| CudaBuffer::<i64>::uninit(device, words))
        .collect::<Result<_, _>>()?;
    let addrs = [items[0].ptr().addr, items[plan.buffers - 1].ptr().addr];
    for step in &plan.steps {
        let args = plan.args_of(step, first, addrs, values, indices);
        // SAFETY: the sort kernels take one `shaped::SortArgs` by value,
        // which `SortArgs` mirrors field for field (`repr(C)`, checked by
        // the host tests). Its addresses are live device buffers: the dense
        // input of `lines * n` elements (borrowed by the caller, or the copy
        // above), the item buffers of `lines * n` items each, the outputs
        // that the caller sized for the last step (and its quantiles), all
        // dropped after the launches are queued (a free queues behind them).
        unsafe { queue(state, &function, step.grid, BLOCK, args)? };
    }
    Ok(())
}

impl Sorting for Cuda {
    fn sort<T: SortKey>(
        x: StridedRef<'_, T, Cuda>,
        dim: usize,
        descending: bool,
        values: bool,
    ) -> Result<(Option<CudaBuffer<T>>, CudaBuffer<i64>), Error> {
        let what = "sort: a line of 2^32 elements or more";
        sort_lines(x, dim, None, descending, values, what)
    }

    fn topk<T: SortKey>(
        x: StridedRef<'_, T, Cuda>,
        k: usize,
        dim: usize,
        largest: bool,
    ) -> Result<(CudaBuffer<T>, CudaBuffer<i64>), Error> {
        let what = "topk: a line of 2^32 elements or more";
        let (values, indices) = sort_lines(x, dim, Some(k), largest, true, what)?;
        Ok((values.expect("topk asks for the values"), indices))
    }
}
