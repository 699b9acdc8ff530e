//! `kthvalue`, `median`, `nanmedian`, `mode`, `quantile` and
//! `nanquantile` on CUDA: the sort of `sort.rs` (ascending, stable: items
//! of (key, position)), whose last launch, in place of the write, picks
//! from each sorted line (`SORT_PICK`: a thread per line) or takes its
//! quantiles (`SORT_QUANTILE`: a thread per line and quantile), as the
//! CPU's `order_stats` does: NaNs sort last (counted by a binary search),
//! `mode` scans the runs of equal keys, the values are the input's
//! elements at the chosen positions and a quantile between two of them is
//! PyTorch's fused lerp, so the results are the CPU's bit for bit.
//! `kthvalue(k)` merges only the first `k + 1` items of each run, as
//! `topk` does.
//!
//! The planning knows nothing of devices, so the host tests run the same
//! plans through the kernels compiled for the host.

use super::sort::{
    BLOCK, PICK, QUANTILE, SortPlan, dim_last, kernel_name, plan_sort, run_plan, thread_grid,
};
use super::{Cuda, CudaBuffer, check};
use crate::backend::cpu::order_stats::{Interpolation, QuantileFloat, Statistic};
use crate::backend::cpu::sort::SortKey;
use crate::backend::{Elementwise, OrderStatistics, StridedMut, StridedRef};
use crate::error::Error;
use crate::layout::checked_numel;
use crate::ops::functions::Constant;
use core::ffi::c_void;
use cust::sys;

/// `SORT_PICK`'s code of `stat` (`STAT_*`) and the place of `Kth`.
fn statistic_code(stat: Statistic) -> (i32, u64) {
    match stat {
        Statistic::Kth(k) => (0, k as u64),
        Statistic::Median => (1, 0),
        Statistic::NanMedian => (2, 0),
        Statistic::Mode => (3, 0),
    }
}

/// `SORT_QUANTILE`'s code of `interpolation` (`INTERP_*`).
fn interpolation_code(interpolation: Interpolation) -> i32 {
    match interpolation {
        Interpolation::Linear => 0,
        Interpolation::Lower => 1,
        Interpolation::Higher => 2,
        Interpolation::Midpoint => 3,
        Interpolation::Nearest => 4,
    }
}

/// Plans `stat` of `lines` lines of `n` elements (`Kth(k)`: `k < n`) on a
/// device that runs `blocks` blocks at once: the ascending sort (of the
/// first `k + 1` of each line for `Kth(k)`), then a pick per line; `None`
/// when there is no element.
pub(crate) fn plan_order(lines: u64, n: u64, stat: Statistic, blocks: u32) -> Option<SortPlan> {
    let (code, place) = statistic_code(stat);
    let wanted = match stat {
        Statistic::Kth(k) => (k as u64).saturating_add(1).min(n),
        _ => n,
    };
    let mut plan = plan_sort(lines, n, wanted, false, blocks)?;
    let last = plan.steps.last_mut().expect("a plan ends with its write");
    last.phase = PICK;
    last.grid = thread_grid(lines, blocks);
    plan.args.statistic = code;
    plan.args.place = place;
    Some(plan)
}

/// Plans `quantiles` quantiles of each of `lines` lines of `n` elements:
/// the ascending sort, then a thread per quantile of each line (the
/// quantiles' address `args.q` left to set); `None` when there is nothing
/// to compute.
pub(crate) fn plan_quantiles(
    lines: u64,
    n: u64,
    quantiles: u64,
    interpolation: Interpolation,
    ignore_nan: bool,
    blocks: u32,
) -> Option<SortPlan> {
    if quantiles == 0 {
        return None;
    }
    let mut plan = plan_sort(lines, n, n, false, blocks)?;
    let last = plan.steps.last_mut().expect("a plan ends with its write");
    last.phase = QUANTILE;
    last.grid = thread_grid(lines.saturating_mul(quantiles), blocks);
    plan.args.quantiles = quantiles;
    plan.args.interpolation = interpolation_code(interpolation);
    plan.args.ignore_nan = i32::from(ignore_nan);
    Some(plan)
}

/// The sizes and strides of `x` with `dim` last, its line length and its
/// number of lines.
fn lines_of<T: crate::dtype::Element>(
    x: &StridedRef<'_, T, Cuda>,
    dim: usize,
    what: &'static str,
) -> Result<(Vec<usize>, Vec<usize>, usize, usize), Error> {
    let n = x.sizes[dim];
    if u32::try_from(n).is_err() {
        return Err(Error::Unsupported { message: what });
    }
    let (sizes, strides) = dim_last(x.sizes, x.strides, dim);
    let lines = x
        .sizes
        .iter()
        .enumerate()
        .filter(|&(d, _)| d != dim)
        .try_fold(1usize, |p, (_, &s)| p.checked_mul(s))
        .ok_or(Error::NumelOverflow)?;
    checked_numel(&sizes)?;
    Ok((sizes, strides, n, lines))
}

/// Sets every element of the dense `buffer` to `value`.
fn fill<T: crate::dtype::Element>(buffer: &CudaBuffer<T>, value: T) -> Result<(), Error> {
    if buffer.is_empty() {
        return Ok(());
    }
    let sizes = [buffer.len()];
    let out = StridedMut {
        ptr: buffer.ptr(),
        sizes: &sizes,
        strides: &[1],
        offset: 0,
    };
    <Cuda as Elementwise>::update1(out, Constant(value))
}

/// The statistic of each line of `x` along `dim`: values and positions,
/// one per line, in row-major order of the other dims.
fn order_statistic<T: SortKey>(
    x: StridedRef<'_, T, Cuda>,
    dim: usize,
    stat: Statistic,
) -> Result<(CudaBuffer<T>, CudaBuffer<i64>), Error> {
    let what = "order statistics: a line of 2^32 elements or more";
    let device = x.ptr.device;
    let (sizes, strides, n, lines) = lines_of(&x, dim, what)?;
    if let Statistic::Kth(k) = stat
        && n > 0
        && k >= n
    {
        return Err(Error::Unsupported {
            message: "kthvalue: k out of range of the dim",
        });
    }
    let values = CudaBuffer::<T>::uninit(device, lines)?;
    let indices = CudaBuffer::<i64>::uninit(device, lines)?;
    if n == 0 {
        // The median of nothing: NaN (as `T`) at position 0, as the CPU.
        fill(&values, T::convert_from(f64::NAN))?;
        fill(&indices, 0)?;
        return Ok((values, indices));
    }
    let state = super::state(device)?;
    state.make_current()?;
    let kernel = kernel_name(T::DTYPE);
    let function = state.function(&kernel)?;
    let blocks = state.resident_blocks(&kernel, &function, BLOCK)?;
    let Some(plan) = plan_order(lines as u64, n as u64, stat, blocks) else {
        return Ok((values, indices));
    };
    let (v, i) = (values.ptr().addr, indices.ptr().addr);
    run_plan(x, &sizes, &strides, &plan, v, i, what)?;
    Ok((values, indices))
}

/// The quantiles `q` of each line of `x` along `dim`, `[lines, q]`.
fn quantiles<T: QuantileFloat>(
    x: StridedRef<'_, T, Cuda>,
    dim: usize,
    q: &[f64],
    interpolation: Interpolation,
    ignore_nan: bool,
) -> Result<CudaBuffer<T>, Error> {
    let what = "quantile: a line of 2^32 elements or more";
    let device = x.ptr.device;
    let (sizes, strides, n, lines) = lines_of(&x, dim, what)?;
    let total = lines.checked_mul(q.len()).ok_or(Error::NumelOverflow)?;
    let values = CudaBuffer::<T>::uninit(device, total)?;
    if total == 0 || n == 0 {
        // (The caller rejects an empty dim; no line or no q: nothing.)
        return Ok(values);
    }
    let state = super::state(device)?;
    state.make_current()?;
    let kernel = kernel_name(T::DTYPE);
    let function = state.function(&kernel)?;
    let blocks = state.resident_blocks(&kernel, &function, BLOCK)?;
    let Some(mut plan) = plan_quantiles(
        lines as u64,
        n as u64,
        q.len() as u64,
        interpolation,
        ignore_nan,
        blocks,
    ) else {
        return Ok(values);
    };
    let qs = CudaBuffer::<f64>::uninit(device, q.len())?;
    // SAFETY: the device buffer and `q` both hold `q.len()` doubles; the
    // copy is queued on the device's stream and waited for below, while
    // `q` is still alive.
    let result = unsafe {
        sys::cuMemcpyHtoDAsync_v2(
            qs.ptr().addr,
            q.as_ptr().cast::<c_void>(),
            size_of_val(q),
            state.stream.as_inner(),
        )
    };
    check(result, "copying the quantiles to the device")?;
    state.synchronize()?;
    plan.args.q = qs.ptr().addr;
    run_plan(x, &sizes, &strides, &plan, values.ptr().addr, 0, what)?;
    // (`qs` is freed behind the launches that read it.)
    drop(qs);
    Ok(values)
}

impl OrderStatistics for Cuda {
    fn order_statistic<T: SortKey>(
        x: StridedRef<'_, T, Cuda>,
        dim: usize,
        stat: Statistic,
    ) -> Result<(CudaBuffer<T>, CudaBuffer<i64>), Error> {
        order_statistic(x, dim, stat)
    }

    fn quantiles<T: QuantileFloat>(
        x: StridedRef<'_, T, Cuda>,
        dim: usize,
        q: &[f64],
        interpolation: Interpolation,
        ignore_nan: bool,
    ) -> Result<CudaBuffer<T>, Error> {
        quantiles(x, dim, q, interpolation, ignore_nan)
    }
}
