//! `Reductions` for [`Cuda`]: every reduction as one launch of
//! `shaped_reduce_<dtype>` (`kernels/reduce.cuh`), or two when the outputs
//! are too few to fill the device (a tree over the elements of each chunk,
//! then a tree over each output's chunks).
//!
//! The planning knows nothing of devices, so the tests run the same plans
//! through the kernels compiled for the host.

use super::launch::{MAX_RANK, dtype_name, merge, queue};
use super::{Cuda, CudaBuffer};
use crate::backend::Reductions;
use crate::backend::StridedRef;
use crate::dtype::{DType, Element};
use crate::error::Error;
use crate::layout::checked_numel;
use crate::ops::op_codes::ReduceOp;
use crate::ops::reductions::Reducer;
use crate::ops::reductions::reducers::{Direction, ExtremeAt, Extremum};
use smallvec::SmallVec;

/// The argument block of the reduction kernels (`shaped::ReduceArgs`).
#[repr(C)]
#[derive(Copy, Clone, Debug, Default)]
pub(crate) struct ReduceArgs {
    pub(crate) input: u64,
    pub(crate) offset: u64,
    pub(crate) out: u64,
    pub(crate) indices: u64,
    pub(crate) partials: u64,
    pub(crate) kept_sizes: [u64; MAX_RANK],
    pub(crate) kept_strides: [u64; MAX_RANK],
    pub(crate) red_sizes: [u64; MAX_RANK],
    pub(crate) red_strides: [u64; MAX_RANK],
    pub(crate) numel_out: u64,
    pub(crate) numel_red: u64,
    pub(crate) chunk: u64,
    pub(crate) kept_rank: i32,
    pub(crate) red_rank: i32,
    pub(crate) op: i32,
    pub(crate) pass: i32,
    pub(crate) outputs_per_block: i32,
    pub(crate) splits: i32,
    pub(crate) out_strides: [u64; MAX_RANK],
    pub(crate) out_red_stride: u64,
    pub(crate) param: f64,
    pub(crate) flags: i32,
    /// 1: two neighbouring outputs per thread (`reduce_pairs`).
    pub(crate) pairs: i32,
}

/// `ReduceArgs::flags`: the square root of the variance.
pub(crate) const FLAG_STD: i32 = 1;
/// `ReduceArgs::flags`: `log_softmax`.
pub(crate) const FLAG_LOG: i32 = 2;

/// `ReduceArgs::pass`: every element of an output, into the output.
const PASS_WHOLE: i32 = 0;
/// One chunk of an output's elements, into the workspace.
const PASS_PARTIAL: i32 = 1;
/// An output's chunks, from the workspace into the output.
const PASS_COMBINE: i32 = 2;

/// Bytes of workspace per chunk: room for any accumulator (the largest is
/// the variance's of `double`: a count, a mean and a sum of squares).
pub(crate) const PARTIAL_BYTES: usize = 24;

/// Outputs per block when a kept dimension is the nearest in memory: a
/// warp's worth of neighbouring outputs, read together.
const COLUMN_OUTPUTS: u32 = 32;

/// How the launches are shaped.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Config {
    /// Threads per block: a power of two from 64 to 256.
    pub block: u32,
    /// The most blocks worth launching (the device's resident blocks).
    pub max_blocks: u32,
    /// The fewest elements each thread folds in one chunk before a split
    /// into chunks pays for the second launch.
    pub min_per_thread: u64,
    /// Bytes of the device's L2 cache (the softmax's rows are read twice).
    pub cache_bytes: u64,
}

impl Config {
    /// The device's: blocks of 256 threads, chunks of at least 32 elements
    /// per thread.
    fn device(max_blocks: u32, cache_bytes: u64) -> Config {
        Config {
            block: 256,
            max_blocks,
            min_per_thread: 32,
            cache_bytes,
        }
    }
}

/// One launch of a planned reduction.
#[derive(Clone, Debug)]
pub(crate) struct ReduceLaunch {
    pub grid: u32,
    pub args: ReduceArgs,
}

/// The kernel of reduction `op` for inputs of `dtype`: the statistics
/// (`var`, `logsumexp`) have theirs apart, and the softmax and
/// `vector_norm` their own.
pub(crate) fn kernel_name(op: ReduceOp, dtype: DType) -> String {
    let family = match op {
        ReduceOp::Var | ReduceOp::LogSumExp => "stats",
        ReduceOp::Softmax => "softmax",
        ReduceOp::Norm => "norm",
        _ => "reduce",
    };
    format!("shaped_{family}_{}", dtype_name(dtype))
}

/// A planned reduction: the launches of its kernel (one, or a partial pass
/// and the pass that combines it), before the buffers are known.
#[derive(Clone, Debug)]
pub(crate) struct ReducePlan {
    pub block: u32,
    pub launches: Vec<ReduceLaunch>,
    /// Bytes of workspace the partial pass writes (0: none).
    pub workspace: usize,
}

impl ReducePlan {
    /// Fills in the output's, the indices' and the workspace's addresses.
    pub(crate) fn bind(&mut self, out: u64, indices: u64, partials: u64) {
        for launch in &mut self.launches {
            launch.args.out = out;
            launch.args.indices = indices;
            launch.args.partials = partials;
        }
    }
}

/// The input of a reduction: its buffer's address and its layout.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Source<'a> {
    pub addr: u64,
    pub offset: usize,
    pub sizes: &'a [usize],
    pub strides: &'a [usize],
}

/// The dimensions where `mask` is `reduced`, merged by [`merge`] (size-1
/// ones dropped, neighbours that memory steps through as one joined). The
/// linear order of the elements (row-major) stays the same, so the
/// outputs' order and `argmax`'s indices do. None left: an empty list.
fn merged(x: Source<'_>, mask: &[bool], reduced: bool) -> Result<Vec<(usize, usize)>, Error> {
    let (sizes, strides): (Vec<usize>, Vec<usize>) = x
        .sizes
        .iter()
        .zip(x.strides)
        .zip(mask)
        .filter(|&(_, &m)| m == reduced)
        .map(|((&size, &stride), _)| (size, stride))
        .unzip();
    let m = merge(&sizes, [&strides[..]])?;
    let dims: Vec<(usize, usize)> = (0..m.rank).map(|d| (m.sizes[d], m.strides[0][d])).collect();
    // `merge` leaves one dimension of size 1 where none remain.
    Ok(if dims == [(1, 0)] { Vec::new() } else { dims })
}

/// Copies merged dimensions into the kernel's arrays; returns the rank and
/// the element count.
fn fill(dims: &[(usize, usize)], sizes: &mut [u64], strides: &mut [u64]) -> (i32, u64) {
    for (d, &(size, stride)) in dims.iter().enumerate() {
        sizes[d] = size as u64;
        strides[d] = stride as u64;
    }
    // With no kept size 0 (see `plan_reduce`), these are sizes of the
    // output or of the elements per output (0 if one is 0): they fit. The
    // product saturates all the same, rather than overflow.
    let numel = if dims.iter().any(|&(size, _)| size == 0) {
        0
    } else {
        dims.iter()
            .fold(1u64, |n, &(size, _)| n.saturating_mul(size as u64))
    };
    (dims.len() as i32, numel)
}

/// Whether columns of 2-byte elements can be read two outputs at a time:
/// every pair of neighbouring outputs (the innermost kept dimension
/// contiguous and of even size) one aligned 4-byte word on every row (the
/// other strides, the offset and the address even).
fn pairs_align(x: Source<'_>, kept: &[(usize, usize)], reduced: &[(usize, usize)]) -> bool {
    let Some((&(n, 1), outer)) = kept.split_last() else {
        return false;
    };
    n.is_multiple_of(2)
        && outer
            .iter()
            .chain(reduced)
            .all(|&(_, s)| s.is_multiple_of(2))
        && x.offset.is_multiple_of(2)
        && x.addr.is_multiple_of(4)
}

/// Plans reduction `op` of `x` (of `element_bytes` elements) along the
/// dimensions where `mask` is true, or `None` when there are no outputs.
pub(crate) fn plan_reduce(
    op: ReduceOp,
    x: Source<'_>,
    element_bytes: usize,
    mask: &[bool],
    config: Config,
) -> Result<Option<ReducePlan>, Error> {
    // A kept dimension of size 0 leaves no outputs (one of size 0 among
    // the reduced ones leaves outputs of no elements: 0, NaN, true, ...).
    // Decided first: the other sizes may then multiply past `u64`.
    if x.sizes.iter().zip(mask).any(|(&n, &m)| n == 0 && !m) {
        return Ok(None);
    }
    let kept = merged(x, mask, false)?;
    let reduced = merged(x, mask, true)?;
    let mut args = ReduceArgs {
        input: x.addr,
        offset: x.offset as u64,
        op: op as i32,
        ..ReduceArgs::default()
    };
    (args.kept_rank, args.numel_out) = fill(&kept, &mut args.kept_sizes, &mut args.kept_strides);
    (args.red_rank, args.numel_red) = fill(&reduced, &mut args.red_sizes, &mut args.red_strides);
    // Rows (one output per block, its lanes on neighbouring elements) when
    // the reduced elements are the nearest in memory; else columns.
    let nearest = |dims: &[(usize, usize)]| dims.iter().map(|&(_, s)| s).min();
    let rows = match (nearest(&reduced), nearest(&kept)) {
        (Some(r), Some(k)) => r <= k,
        (Some(_), None) => true,
        (None, _) => false,
    };
    let width = if rows { 1 } else { COLUMN_OUTPUTS };
    let lanes = u64::from(config.block / width);
    // Columns of 2-byte elements: two outputs per thread, from one 4-byte
    // load, where the layout allows (the combining pass reads the
    // workspace, one output per thread).
    let pairs = !rows && element_bytes == 2 && pairs_align(x, &kept, &reduced);
    let per_group = u64::from(width) * if pairs { 2 } else { 1 };
    let groups = args.numel_out.div_ceil(per_group);
    let max_blocks = u64::from(config.max_blocks.max(1));
    // Chunks per output: enough blocks to fill the device, as long as each
    // thread still folds `min_per_thread` elements per chunk.
    let mut splits = 1;
    if groups < max_blocks {
        let to_fill = max_blocks / groups;
        let by_work = args.numel_red / (lanes * config.min_per_thread.max(1));
        splits = to_fill.min(by_work).max(1);
    }
    let chunk = args.numel_red.div_ceil(splits).max(1);
    let splits = args.numel_red.div_ceil(chunk).max(1);
    args.chunk = chunk;
    args.outputs_per_block = width as i32;
    args.splits = i32::try_from(splits).expect("at most max_blocks chunks");
    let grid = |work: u64| u32::try_from(work.min(max_blocks)).expect("grid fits u32");
    let (launches, workspace) = if splits == 1 {
        args.pass = PASS_WHOLE;
        args.pairs = i32::from(pairs);
        (
            vec![ReduceLaunch {
                grid: grid(groups),
                args,
            }],
            0,
        )
    } else {
        let partial = ReduceArgs {
            pass: PASS_PARTIAL,
            pairs: i32::from(pairs),
            ..args
        };
        let combine = ReduceArgs {
            pass: PASS_COMBINE,
            ..args
        };
        let slots = usize::try_from(args.numel_out * splits).expect("the workspace fits memory");
        (
            vec![
                ReduceLaunch {
                    grid: grid(groups * splits),
                    args: partial,
                },
                ReduceLaunch {
                    grid: grid(args.numel_out.div_ceil(u64::from(width))),
                    args: combine,
                },
            ],
            slots * PARTIAL_BYTES,
        )
    };
    Ok(Some(ReducePlan {
        block: config.block,
        launches,
        workspace,
    }))
}

/// Plans `softmax` (`log`: `log_softmax`) of `x` (of `element_bytes`
/// elements) along `dim` into a contiguous output of `x`'s sizes: one
/// launch of `OP_SOFTMAX`, whose blocks take each output's maximum and sum
/// of exponentials as a reduction along `dim` would, then write its
/// elements. `None` when `x` is empty. Rows (lanes along `dim`) that the
/// block's registers hold are read once; longer ones twice: as few run at
/// once as half the L2 cache holds, so that the second read finds them
/// there, unless that leaves under a quarter of the resident blocks (long
/// rows: read twice from memory).
pub(crate) fn plan_softmax(
    x: Source<'_>,
    element_bytes: usize,
    dim: usize,
    log: bool,
    config: Config,
) -> Result<Option<ReducePlan>, Error> {
    if x.sizes.contains(&0) {
        return Ok(None);
    }
    let out = crate::layout::contiguous_strides::<Vec<usize>>(x.sizes);
    let others = |of: &[usize]| -> Vec<usize> {
        of.iter()
            .enumerate()
            .filter(|&(d, _)| d != dim)
            .map(|(_, &v)| v)
            .collect()
    };
    let (sizes, strides, out_strides) = (others(x.sizes), others(x.strides), others(&out));
    let m = merge(&sizes, [&strides[..], &out_strides[..]])?;
    let mut args = ReduceArgs {
        input: x.addr,
        offset: x.offset as u64,
        op: ReduceOp::Softmax as i32,
        flags: if log { FLAG_LOG } else { 0 },
        pass: PASS_WHOLE,
        splits: 1,
        ..ReduceArgs::default()
    };
    for d in 0..m.rank {
        args.kept_sizes[d] = m.sizes[d] as u64;
        args.kept_strides[d] = m.strides[0][d] as u64;
        args.out_strides[d] = m.strides[1][d] as u64;
    }
    args.kept_rank = m.rank as i32;
    // No size is 0: the product is the output's element count over `n`.
    args.numel_out = (0..m.rank).map(|d| m.sizes[d] as u64).product();
    let n = x.sizes[dim];
    (args.red_sizes[0], args.red_strides[0]) = (n as u64, x.strides[dim] as u64);
    args.red_rank = 1;
    args.out_red_stride = out[dim] as u64;
    args.numel_red = n as u64;
    args.chunk = n as u64;
    let nearest_kept = (0..m.rank)
        .filter(|&d| m.sizes[d] > 1)
        .map(|d| m.strides[0][d])
        .min();
    let rows = nearest_kept.is_none_or(|k| x.strides[dim] <= k);
    let width = if rows { 1 } else { COLUMN_OUTPUTS };
    args.outputs_per_block = width as i32;
    let groups = args.numel_out.div_ceil(u64::from(width));
    let resident = u64::from(config.max_blocks.max(1));
    let row_bytes = (n as u64).saturating_mul(element_bytes as u64).max(1);
    let cached = config.cache_bytes / 2 / row_bytes;
    let in_registers = row_bytes <= u64::from(config.block) * softmax_lane_bytes(element_bytes);
    let max_blocks = match rows && !in_registers && cached >= resident / 4 {
        true => cached.clamp(1, resident),
        false => resident,
    };
    let grid = u32::try_from(groups.min(max_blocks)).expect("grid fits u32");
    Ok(Some(ReducePlan {
        block: config.block,
        launches: vec![ReduceLaunch { grid, args }],
        workspace: 0,
    }))
}

/// Bytes of a row that each lane of the softmax's row kernel keeps in
/// registers (`SoftmaxCache` vectors of 16 bytes: 16 of float32, 8 of
/// float64).
fn softmax_lane_bytes(element_bytes: usize) -> u64 {
    if element_bytes >= 8 { 8 * 16 } else { 16 * 16 }
}

/// What a statistic adds to its plan's arguments: `var`'s correction and
/// the `FLAG_*` bits.
#[derive(Copy, Clone, Debug, Default)]
pub(crate) struct Extra {
    pub param: f64,
    pub flags: i32,
}

/// Runs the plan `plan` makes of `x` (on the device's configuration) into
/// the `out` (and `indices`) buffers.
fn run<T: Element>(
    op: ReduceOp,
    x: StridedRef<'_, T, Cuda>,
    plan: impl FnOnce(Source<'_>, Config) -> Result<Option<ReducePlan>, Error>,
    out: u64,
    indices: u64,
) -> Result<(), Error> {
    let device = x.ptr.device;
    let state = super::state(device)?;
    state.make_current()?;
    let kernel = kernel_name(op, T::DTYPE);
    let function = state.function(&kernel)?;
    let blocks = state.resident_blocks(&kernel, &function, 256)?;
    let config = Config::device(blocks, state.l2_bytes);
    let source = Source {
        addr: x.ptr.addr,
        offset: x.offset,
        sizes: x.sizes,
        strides: x.strides,
    };
    let Some(mut plan) = plan(source, config)? else {
        return Ok(());
    };
    let workspace = match plan.workspace {
        0 => None,
        bytes => Some(CudaBuffer::<u8>::uninit(device, bytes)?),
    };
    plan.bind(out, indices, workspace.as_ref().map_or(0, |w| w.ptr().addr));
    for launch in &plan.launches {
        // SAFETY: the reduction kernels take one `shaped::ReduceArgs` by
        // value, which `ReduceArgs` mirrors field for field (`repr(C)`,
        // checked by the host tests). Its addresses are live device
        // buffers: the input (borrowed by the caller, every index of its
        // layout inside it), the outputs of the reduction's output types
        // (made by the caller for this: `numel_out` elements, or for the
        // softmax every element of the input's sizes), and the workspace
        // of `plan.workspace` bytes, dropped after the launches.
        unsafe { queue(state, &function, launch.grid, plan.block, launch.args)? };
    }
    Ok(())
}

/// Runs reduction `op` of `x` along `mask` with `extra` into the `out`
/// (and `indices`) buffers.
pub(crate) fn run_reduce<T: Element>(
    op: ReduceOp,
    x: StridedRef<'_, T, Cuda>,
    mask: &[bool],
    extra: Extra,
    out: u64,
    indices: u64,
) -> Result<(), Error> {
    let plan = |source: Source<'_>, config| {
        let mut plan = plan_reduce(op, source, size_of::<T>(), mask, config)?;
        for launch in plan.iter_mut().flat_map(|p| p.launches.iter_mut()) {
            (launch.args.param, launch.args.flags) = (extra.param, extra.flags);
        }
        Ok(plan)
    };
    run(op, x, plan, out, indices)
}

/// Runs `softmax` (`log`: `log_softmax`) of `x` along `dim` into `out`
/// (contiguous, of `x`'s sizes).
pub(crate) fn run_softmax<T: Element>(
    x: StridedRef<'_, T, Cuda>,
    dim: usize,
    log: bool,
    out: u64,
) -> Result<(), Error> {
    let bytes = size_of::<T>();
    let plan = |source: Source<'_>, config| plan_softmax(source, bytes, dim, log, config);
    run(ReduceOp::Softmax, x, plan, out, 0)
}

/// The number of outputs of a reduction along `mask`.
pub(crate) fn outputs(sizes: &[usize], mask: &[bool]) -> Result<usize, Error> {
    let kept: SmallVec<[usize; 8]> = sizes
        .iter()
        .zip(mask)
        .filter(|&(_, &m)| !m)
        .map(|(&n, _)| n)
        .collect();
    // PyTorch's overflow error when the kept sizes (of an empty input) do
    // not fit.
    checked_numel(&kept)
}

impl Reductions for Cuda {
    fn reduce<T: Element, R: Reducer<T>>(
        x: StridedRef<'_, T, Cuda>,
        mask: &[bool],
        r: R,
    ) -> Result<CudaBuffer<R::Out>, Error>
    where
        R::Out: Element,
    {
        let op = r.device_op().ok_or(Error::NoDeviceKernel {
            function: core::any::type_name::<R>(),
        })?;
        let out = CudaBuffer::<R::Out>::uninit(x.ptr.device, outputs(x.sizes, mask)?)?;
        run_reduce(op, x, mask, Extra::default(), out.ptr().addr, 0)?;
        Ok(out)
    }

    fn reduce_indexed<T: Extremum, W: Direction>(
        x: StridedRef<'_, T, Cuda>,
        mask: &[bool],
        r: ExtremeAt<W>,
    ) -> Result<(CudaBuffer<T>, CudaBuffer<i64>), Error> {
        let op = Reducer::<T>::device_op(r).expect("max and min have kernels");
        let n = outputs(x.sizes, mask)?;
        let values = CudaBuffer::<T>::uninit(x.ptr.device, n)?;
        let indices = CudaBuffer::<i64>::uninit(x.ptr.device, n)?;
        run_reduce(
            op,
            x,
            mask,
            Extra::default(),
            values.ptr().addr,
            indices.ptr().addr,
        )?;
        Ok((values, indices))
    }
}
