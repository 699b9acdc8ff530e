//! Selecting by masks on CUDA: `nonzero`, `masked_select` and
//! `masked_scatter_`, whose results' lengths depend on the data. One kernel
//! per element type, `shaped_compact_<dtype>` (`kernels/indexing.cuh`), in
//! two launches: the first counts the flagged positions of each chunk of
//! the row-major order, the host turns the counts into each chunk's first
//! number (one read back of at most [`MAX_CHUNKS`] words, the one wait of
//! the operation), and the second writes each flagged position at its
//! number. So the order is PyTorch's, and the result is the same on every
//! run.
//!
//! The planning knows nothing of devices, so the tests run the same plans
//! through the kernels compiled for the host.

use super::launch::{MAX_RANK, Operand, OperandArgs, Walk, dtype_name, merge, operand_args, walk};
use super::{Cuda, CudaBuffer, check};
use crate::backend::{Masking, StridedMut, StridedRef};
use crate::dtype::{DType, Element};
use crate::error::Error;
use core::ffi::c_void;
use cust::sys;

/// Threads per block of the compaction kernels
/// (`SHAPED_COMPACT_BLOCK`).
pub(crate) const COMPACT_BLOCK: u32 = 256;

/// The most chunks a compaction splits its positions into (the words the
/// host reads back and sums).
pub(crate) const MAX_CHUNKS: u64 = 4096;

/// What the kernel does with a flagged position (`COMPACT_*`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Mode {
    /// Writes its coordinates.
    Nonzero = 0,
    /// Copies the data's element to the output.
    Select = 1,
    /// Writes the source's next element into the data (the target).
    Scatter = 2,
}

/// The argument block of the compaction kernels (`shaped::CompactArgs`).
#[repr(C)]
#[derive(Copy, Clone, Debug, Default)]
pub(crate) struct CompactArgs {
    pub(crate) numel: u64,
    pub(crate) sizes: [u64; MAX_RANK],
    pub(crate) flag: OperandArgs,
    pub(crate) data: OperandArgs,
    pub(crate) source: OperandArgs,
    pub(crate) chunk: u64,
    pub(crate) counts: u64,
    pub(crate) out: u64,
    pub(crate) total: u64,
    pub(crate) rank: i32,
    pub(crate) columns: i32,
    pub(crate) mode: i32,
    pub(crate) pass: i32,
    pub(crate) narrow: i32,
    pub(crate) magic: [u32; MAX_RANK],
    pub(crate) shift: [u32; MAX_RANK],
}

/// A planned compaction: its arguments (the count pass; the write pass
/// sets `pass`, `out` and `total`), kernel and grid.
#[derive(Clone, Debug)]
pub(crate) struct CompactLaunch {
    pub kernel: String,
    pub args: CompactArgs,
    /// How many chunks (words of `counts`).
    pub chunks: u64,
}

impl CompactLaunch {
    /// Blocks: one per chunk, at most `max_blocks` (the loop strides over
    /// the rest).
    pub fn grid(&self, max_blocks: u32) -> u32 {
        u32::try_from(self.chunks)
            .unwrap_or(u32::MAX)
            .clamp(1, max_blocks.max(1))
    }

    /// The starts of the chunks from their counts (in place), and the
    /// total.
    pub fn starts(counts: &mut [u64]) -> u64 {
        let mut total = 0u64;
        for c in counts {
            let n = *c;
            *c = total;
            total += n;
        }
        total
    }
}

/// Plans a compaction over `sizes` of `flag` (and `data`, `source`), or
/// `None` when there are no positions. `Nonzero` keeps the sizes as they
/// are (its coordinates are the tensor's); the others merge what they can.
/// The positions go in at most `max_chunks` chunks ([`MAX_CHUNKS`]; the
/// tests take fewer, so that a chunk has several rounds).
pub(crate) fn plan_compact(
    element: DType,
    mode: Mode,
    max_chunks: u64,
    sizes: &[usize],
    flag: Operand<'_>,
    data: Option<Operand<'_>>,
    source: Option<Operand<'_>>,
) -> Result<Option<CompactLaunch>, Error> {
    let numel = crate::layout::numel(sizes);
    if numel == 0 {
        return Ok(None);
    }
    let zeros = vec![0; sizes.len()];
    let none = Operand {
        addr: 0,
        offset: 0,
        strides: &zeros,
    };
    let data = data.unwrap_or(none);
    let (rank, dims, strides): (usize, Vec<u64>, [OperandArgs; 2]) = match mode {
        Mode::Nonzero => {
            if sizes.len() > MAX_RANK {
                return Err(Error::KernelRank {
                    rank: sizes.len(),
                    max: MAX_RANK,
                });
            }
            // (A rank-0 tensor walks one position of size 1.)
            let (mut flag_strides, mut data_strides) = ([0; MAX_RANK], [0; MAX_RANK]);
            flag_strides[..sizes.len()].copy_from_slice(flag.strides);
            data_strides[..sizes.len()].copy_from_slice(data.strides);
            let dims = match sizes.is_empty() {
                true => vec![1u64],
                false => sizes.iter().map(|&n| n as u64).collect(),
            };
            let rank = dims.len();
            (
                rank,
                dims,
                [
                    operand_args(flag, &flag_strides, rank),
                    operand_args(data, &data_strides, rank),
                ],
            )
        }
        _ => {
            let merged = merge(sizes, [flag.strides, data.strides])?;
            let rank = merged.rank;
            (
                rank,
                merged.sizes[..rank].iter().map(|&n| n as u64).collect(),
                [
                    operand_args(flag, &merged.strides[0], rank),
                    operand_args(data, &merged.strides[1], rank),
                ],
            )
        }
    };
    let mut args = CompactArgs {
        numel: numel as u64,
        flag: strides[0],
        data: strides[1],
        rank: rank as i32,
        columns: sizes.len() as i32,
        mode: mode as i32,
        ..CompactArgs::default()
    };
    args.sizes[..rank].copy_from_slice(&dims);
    if let Some(s) = source {
        args.source = operand_args(s, &[0; MAX_RANK], 0);
    }
    let steps: Walk = walk(args.numel, &dims, &[&args.flag, &args.data]);
    (args.narrow, args.magic, args.shift) = (steps.narrow, steps.magic, steps.shift);
    // Chunks of whole rounds, at most MAX_CHUNKS of them.
    let block = u64::from(COMPACT_BLOCK);
    let per_chunk = args
        .numel
        .div_ceil(max_chunks.max(1))
        .div_ceil(block)
        .max(1)
        * block;
    args.chunk = per_chunk;
    Ok(Some(CompactLaunch {
        kernel: format!("shaped_compact_{}", dtype_name(element)),
        args,
        chunks: args.numel.div_ceil(per_chunk),
    }))
}

/// Runs a planned compaction's count pass on `device`, reads the counts
/// back and returns the launch ready for its write pass (`counts` holds
/// the starts) and the total. (`counts` is a buffer of int64 for the
/// kernel's unsigned words: both 8 bytes, never negative here.)
fn count(
    device: usize,
    mut launch: CompactLaunch,
    counts: &CudaBuffer<i64>,
) -> Result<(CompactLaunch, u64), Error> {
    let state = super::state(device)?;
    state.make_current()?;
    launch.args.counts = counts.ptr().addr;
    let function = state.function(&launch.kernel)?;
    let grid = launch.grid(state.resident_blocks(&launch.kernel, &function, COMPACT_BLOCK)?);
    // SAFETY: the compaction kernels take one `shaped::CompactArgs` by
    // value, which `CompactArgs` mirrors (`repr(C)`, checked by the host
    // tests); the flag's and data's layouts lie inside their buffers, and
    // the count pass writes only the `chunks` words of `counts`.
    unsafe { super::launch::queue(state, &function, grid, COMPACT_BLOCK, launch.args) }?;
    let chunks = usize::try_from(launch.chunks).expect("at most MAX_CHUNKS");
    let mut words = vec![0u64; chunks];
    // SAFETY: `counts` holds `chunks` words, written by the launch queued
    // above on this stream; `words` has room for them.
    let result = unsafe {
        sys::cuMemcpyDtoHAsync_v2(
            words.as_mut_ptr().cast::<c_void>(),
            counts.ptr().addr,
            chunks * 8,
            state.stream.as_inner(),
        )
    };
    check(result, "copying to the host")?;
    state.synchronize()?;
    let total = CompactLaunch::starts(&mut words);
    // SAFETY: as above; `words` lives until the wait below.
    let result = unsafe {
        sys::cuMemcpyHtoDAsync_v2(
            counts.ptr().addr,
            words.as_ptr().cast::<c_void>(),
            chunks * 8,
            state.stream.as_inner(),
        )
    };
    check(result, "copying to the device")?;
    state.synchronize()?;
    launch.args.pass = 1;
    launch.args.total = total;
    Ok((launch, total))
}

/// Queues a compaction's write pass.
fn write(device: usize, launch: &CompactLaunch) -> Result<(), Error> {
    let state = super::state(device)?;
    state.make_current()?;
    let function = state.function(&launch.kernel)?;
    let grid = launch.grid(state.resident_blocks(&launch.kernel, &function, COMPACT_BLOCK)?);
    // SAFETY: as for the count pass; `out` (or the data, for a scatter)
    // has room for `total` flagged positions, each written at its number
    // (below `total`), and `counts` holds each chunk's first number.
    unsafe { super::launch::queue(state, &function, grid, COMPACT_BLOCK, launch.args) }
}

fn operand<'a, T: Element>(x: &StridedRef<'a, T, Cuda>) -> Operand<'a> {
    Operand {
        addr: x.ptr.addr,
        offset: x.offset,
        strides: x.strides,
    }
}

impl Masking for Cuda {
    fn masked_select<T: Element>(
        sizes: &[usize],
        src: StridedRef<'_, T, Cuda>,
        mask: StridedRef<'_, bool, Cuda>,
    ) -> Result<CudaBuffer<T>, Error> {
        let device = src.ptr.device;
        super::elementwise::same_device(device, mask.ptr.device)?;
        let plan = plan_compact(
            T::DTYPE,
            Mode::Select,
            MAX_CHUNKS,
            sizes,
            operand(&mask),
            Some(operand(&src)),
            None,
        )?;
        let Some(launch) = plan else {
            return CudaBuffer::uninit(device, 0);
        };
        let counts = CudaBuffer::<i64>::uninit(device, launch.chunks as usize)?;
        let (mut launch, total) = count(device, launch, &counts)?;
        let out = CudaBuffer::<T>::uninit(device, total as usize)?;
        if total > 0 {
            launch.args.out = out.ptr().addr;
            write(device, &launch)?;
        }
        Ok(out)
    }

    fn nonzero<T: Element>(x: StridedRef<'_, T, Cuda>) -> Result<(CudaBuffer<i64>, usize), Error> {
        let device = x.ptr.device;
        let plan = plan_compact(
            T::DTYPE,
            Mode::Nonzero,
            MAX_CHUNKS,
            x.sizes,
            operand(&x),
            None,
            None,
        )?;
        let Some(launch) = plan else {
            return Ok((CudaBuffer::uninit(device, 0)?, 0));
        };
        let counts = CudaBuffer::<i64>::uninit(device, launch.chunks as usize)?;
        let (mut launch, total) = count(device, launch, &counts)?;
        let total = total as usize;
        let columns = x.sizes.len();
        let cells = total
            .checked_mul(columns)
            .ok_or(Error::OutOfMemory { bytes: usize::MAX })?;
        let out = CudaBuffer::<i64>::uninit(device, cells)?;
        if cells > 0 {
            launch.args.out = out.ptr().addr;
            write(device, &launch)?;
        }
        Ok((out, total))
    }

    fn masked_scatter<T: Element>(
        out: StridedMut<'_, T, Cuda>,
        mask: StridedRef<'_, bool, Cuda>,
        source: StridedRef<'_, T, Cuda>,
    ) -> Result<(), Error> {
        let device = out.ptr.device;
        super::elementwise::same_device(device, mask.ptr.device)?;
        super::elementwise::same_device(device, source.ptr.device)?;
        let target = Operand {
            addr: out.ptr.addr,
            offset: out.offset,
            strides: out.strides,
        };
        let plan = plan_compact(
            T::DTYPE,
            Mode::Scatter,
            MAX_CHUNKS,
            out.sizes,
            operand(&mask),
            Some(target),
            Some(operand(&source)),
        )?;
        let Some(launch) = plan else {
            return Ok(());
        };
        let counts = CudaBuffer::<i64>::uninit(device, launch.chunks as usize)?;
        let (launch, total) = count(device, launch, &counts)?;
        if total > crate::layout::numel(source.sizes) as u64 {
            return Err(Error::MaskedScatterSource);
        }
        match total {
            0 => Ok(()),
            _ => write(device, &launch),
        }
    }
}
