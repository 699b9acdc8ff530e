//! The scans on CUDA (`cumsum`, `cumprod`, `logcumsumexp`, `cummax`,
//! `cummin`): `shaped_scan_<dtype>` of `kernels/scan.cuh`, one launch when
//! there are lines enough to fill the device, else three (fold each chunk
//! of a line, scan the chunks' totals into carries, scan each chunk from its
//! carry): a reduce-then-scan, deterministic (no atomics, no look-back), so
//! that a result does not depend on the order blocks ran in.
//!
//! The planning knows nothing of devices, so the host tests run the same
//! plans through the kernels compiled for the host.

use super::launch::{dtype_name, queue};
use super::{Cuda, CudaBuffer};
use crate::backend::{Elementwise, Scanning, StridedRef};
use crate::dtype::{DType, Element};
use crate::error::Error;
use crate::layout::checked_numel;
use crate::ops::op_codes::ScanOp;
use crate::ops::reductions::reducers::{Direction, Extremum};
use crate::ops::scans::{CumExtreme, Scanner};

/// Threads per block (`SHAPED_SCAN_BLOCK`).
pub(crate) const BLOCK: u32 = 256;
/// Elements a thread scans per tile (`SHAPED_SCAN_ITEMS`).
const ITEMS: u64 = 4;
/// Bytes of a state in the totals (`sizeof(Acc) <= 16`).
pub(crate) const STATE_BYTES: usize = 16;

/// The phases (`SCAN_TOTALS`, `SCAN_CARRIES`, `SCAN_WRITE`).
pub(crate) const TOTALS: i32 = 0;
pub(crate) const CARRIES: i32 = 1;
pub(crate) const WRITE: i32 = 2;

/// The argument block of the scan kernels (`shaped::ScanArgs`).
#[repr(C)]
#[derive(Copy, Clone, Debug, Default)]
pub(crate) struct ScanArgs {
    pub(crate) x: u64,
    pub(crate) out: u64,
    pub(crate) indices: u64,
    pub(crate) totals: u64,
    pub(crate) outer: u64,
    pub(crate) n: u64,
    pub(crate) inner: u64,
    pub(crate) chunk: u64,
    pub(crate) chunks: u64,
    pub(crate) op: i32,
    pub(crate) phase: i32,
}

/// The scan kernel of input type `dtype`.
pub(crate) fn kernel_name(dtype: DType) -> String {
    format!("shaped_scan_{}", dtype_name(dtype))
}

/// A planned scan: its arguments (addresses unset) and launches.
#[derive(Clone, Debug)]
pub(crate) struct ScanPlan {
    pub args: ScanArgs,
    /// `(phase, grid)` of each launch, in order.
    pub launches: Vec<(i32, u32)>,
    /// States in the totals (0: none needed).
    pub totals: usize,
}

impl ScanPlan {
    /// Points the plan at its buffers.
    pub fn bind(&mut self, x: u64, out: u64, indices: u64, totals: u64) {
        (self.args.x, self.args.out) = (x, out);
        (self.args.indices, self.args.totals) = (indices, totals);
    }
}

/// Plans scan `op` of a contiguous input of `sizes` along `dim` on a
/// device that runs `blocks` blocks at once, or `None` when there are no
/// elements.
pub(crate) fn plan_scan(op: ScanOp, sizes: &[usize], dim: usize, blocks: u32) -> Option<ScanPlan> {
    if crate::layout::numel(sizes) == 0 {
        return None;
    }
    let n = sizes[dim] as u64;
    let inner: u64 = sizes[dim + 1..].iter().map(|&s| s as u64).product();
    let outer: u64 = sizes[..dim].iter().map(|&s| s as u64).product();
    let lines = outer * inner;
    let blocks = u64::from(blocks.max(1));
    // Rows: a block per item, chunks a whole number of tiles. Columns: a
    // thread per item.
    let (unit, workers) = match inner {
        1 => (u64::from(BLOCK) * ITEMS, blocks),
        _ => (1, blocks * u64::from(BLOCK)),
    };
    let mut chunks = 1;
    let mut chunk = n;
    if lines < workers {
        let wanted = workers.div_ceil(lines).min(n.div_ceil(unit));
        chunk = n.div_ceil(wanted).div_ceil(unit) * unit;
        chunks = n.div_ceil(chunk);
    }
    let items = lines * chunks;
    let grid = |work: u64| u32::try_from(work.min(blocks * 4).max(1)).unwrap_or(u32::MAX);
    let item_grid = match inner {
        1 => grid(items),
        _ => grid(items.div_ceil(u64::from(BLOCK))),
    };
    let launches = match chunks {
        1 => vec![(WRITE, item_grid)],
        _ => vec![
            (TOTALS, item_grid),
            (CARRIES, grid(lines)),
            (WRITE, item_grid),
        ],
    };
    Some(ScanPlan {
        args: ScanArgs {
            outer,
            n,
            inner,
            chunk,
            chunks,
            op: op as i32,
            ..ScanArgs::default()
        },
        launches,
        totals: match chunks {
            1 => 0,
            _ => items as usize,
        },
    })
}

/// Runs scan `op` of `x` along `dim` into `out` (and `indices`), each a
/// contiguous buffer of `x`'s sizes.
fn run_scan<T: Element>(
    op: ScanOp,
    x: StridedRef<'_, T, Cuda>,
    dim: usize,
    out: u64,
    indices: u64,
) -> Result<(), Error> {
    let device = x.ptr.device;
    let state = super::state(device)?;
    state.make_current()?;
    let kernel = kernel_name(T::DTYPE);
    let function = state.function(&kernel)?;
    let blocks = state.resident_blocks(&kernel, &function, BLOCK)?;
    let Some(mut plan) = plan_scan(op, x.sizes, dim, blocks) else {
        return Ok(());
    };
    // The kernels read a contiguous input: a strided view is copied first.
    let dense;
    let first = if crate::layout::is_contiguous(x.sizes, x.strides) {
        x.ptr.addr + (x.offset * size_of::<T>()) as u64
    } else {
        dense = <Cuda as Elementwise>::map1(x, crate::ops::functions::Identity)?;
        dense.ptr().addr
    };
    let totals = match plan.totals {
        0 => None,
        states => Some(CudaBuffer::<u8>::uninit(device, states * STATE_BYTES)?),
    };
    plan.bind(
        first,
        out,
        indices,
        totals.as_ref().map_or(0, |t| t.ptr().addr),
    );
    for &(phase, grid) in &plan.launches {
        let args = ScanArgs { phase, ..plan.args };
        // SAFETY: the scan kernels take one `shaped::ScanArgs` by value,
        // which `ScanArgs` mirrors field for field (`repr(C)`, checked by
        // the host tests). Its addresses are live device buffers: the
        // contiguous input of `x`'s sizes (borrowed by the caller, or the
        // copy above), the outputs of the scan's output types made by the
        // caller for every element of those sizes, and the totals of
        // `STATE_BYTES` per (line, chunk), dropped after the launches.
        unsafe { queue(state, &function, grid, BLOCK, args)? };
    }
    Ok(())
}

impl Scanning for Cuda {
    fn scan<T: Element, S: Scanner<T>>(
        x: StridedRef<'_, T, Cuda>,
        dim: usize,
        s: S,
    ) -> Result<CudaBuffer<S::Out>, Error> {
        let out = CudaBuffer::<S::Out>::uninit(x.ptr.device, checked_numel(x.sizes)?)?;
        run_scan(s.device_op(), x, dim, out.ptr().addr, 0)?;
        Ok(out)
    }

    fn scan_indexed<T: Extremum, W: Direction>(
        x: StridedRef<'_, T, Cuda>,
        dim: usize,
        s: CumExtreme<W>,
    ) -> Result<(CudaBuffer<T>, CudaBuffer<i64>), Error> {
        let n = checked_numel(x.sizes)?;
        let values = CudaBuffer::<T>::uninit(x.ptr.device, n)?;
        let indices = CudaBuffer::<i64>::uninit(x.ptr.device, n)?;
        let op = Scanner::<T>::device_op(s);
        run_scan(op, x, dim, values.ptr().addr, indices.ptr().addr)?;
        Ok((values, indices))
    }
}
