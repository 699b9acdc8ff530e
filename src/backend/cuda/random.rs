//! Random fills on CUDA: one launch of `shaped_random_<dtype>`
//! (`kernels/random.cuh`), a thread per Philox block.
//!
//! The planning knows nothing of devices, so the tests run the same plans
//! through the kernels compiled for the host.

use super::Cuda;
use super::launch::{
    BLOCK, MAX_RANK, Operand, OperandArgs, dtype_name, merge, operand_args, queue, walk,
};
use crate::backend::{Random, RandomFill, StridedMut};
use crate::dtype::DType;
use crate::error::Error;
use crate::random::{Distribution, RandomFloat};

/// The argument block of the random kernels (`shaped::RandomArgs`).
#[repr(C)]
#[derive(Copy, Clone, Debug, Default)]
pub(crate) struct RandomArgs {
    pub(crate) numel: u64,
    pub(crate) sizes: [u64; MAX_RANK],
    pub(crate) out: OperandArgs,
    pub(crate) seed: u64,
    pub(crate) offset: u64,
    pub(crate) a: f64,
    pub(crate) b: f64,
    pub(crate) rank: i32,
    pub(crate) dist: i32,
    pub(crate) narrow: i32,
    pub(crate) magic: [u32; MAX_RANK],
    pub(crate) shift: [u32; MAX_RANK],
}

/// A planned random fill.
#[derive(Clone, Debug)]
pub(crate) struct RandomLaunch {
    /// The kernel's name in the module.
    pub kernel: String,
    pub args: RandomArgs,
    /// Philox blocks: one thread each.
    pub blocks: u64,
}

impl RandomLaunch {
    /// Blocks of `block` threads, a Philox block per thread, at most
    /// `max_blocks` (the loop strides over the rest).
    pub fn grid(&self, block: u32, max_blocks: u32) -> u32 {
        let blocks = self.blocks.div_ceil(u64::from(block)).max(1);
        u32::try_from(blocks).unwrap_or(u32::MAX).min(max_blocks)
    }
}

/// Plans filling `out` (of `dtype`, `per_block` elements per Philox block)
/// over `sizes`, or `None` when there are no elements.
pub(crate) fn plan_random(
    sizes: &[usize],
    out: Operand<'_>,
    dtype: DType,
    per_block: usize,
    fill: RandomFill,
) -> Result<Option<RandomLaunch>, Error> {
    let numel = crate::layout::numel(sizes);
    if numel == 0 {
        return Ok(None);
    }
    let merged = merge(sizes, [out.strides])?;
    let rank = merged.rank;
    let (dist, a, b) = match fill.dist {
        Distribution::Uniform { lo, hi } => (0, lo, hi),
        Distribution::Normal { mean, std } => (1, mean, std),
        Distribution::Exponential { lambda } => (2, 1.0 / lambda, 0.0),
        Distribution::Cauchy { median, sigma } => (3, median, sigma),
        Distribution::Geometric { p } => (4, Distribution::geometric_log(p), 0.0),
    };
    let mut args = RandomArgs {
        numel: numel as u64,
        rank: rank as i32,
        seed: fill.seed,
        offset: fill.offset,
        dist,
        a,
        b,
        ..RandomArgs::default()
    };
    for (arg, &size) in args.sizes.iter_mut().zip(&merged.sizes[..rank]) {
        *arg = size as u64;
    }
    args.out = operand_args(out, &merged.strides[0], rank);
    let steps = walk(args.numel, &args.sizes[..rank], &[&args.out]);
    (args.narrow, args.magic, args.shift) = (steps.narrow, steps.magic, steps.shift);
    Ok(Some(RandomLaunch {
        kernel: format!("shaped_random_{}", dtype_name(dtype)),
        args,
        blocks: (numel as u64).div_ceil(per_block as u64),
    }))
}

impl Random for Cuda {
    fn fill_random<T: RandomFloat>(
        out: StridedMut<'_, T, Cuda>,
        fill: RandomFill,
    ) -> Result<(), Error> {
        let device = out.ptr.device;
        let target = Operand {
            addr: out.ptr.addr,
            offset: out.offset,
            strides: out.strides,
        };
        let Some(launch) = plan_random(out.sizes, target, T::DTYPE, T::PER_BLOCK, fill)? else {
            return Ok(());
        };
        let state = super::state(device)?;
        state.make_current()?;
        let function = state.function(&launch.kernel)?;
        let grid = launch.grid(
            BLOCK,
            state.resident_blocks(&launch.kernel, &function, BLOCK)?,
        );
        // SAFETY: the random kernels take one `shaped::RandomArgs` by value,
        // which `RandomArgs` mirrors field for field (`repr(C)`, checked by
        // the host tests); its address is `out`'s, an exclusively borrowed
        // writable layout inside its buffer (distinct indices), which nothing
        // else touches until the launch completes.
        unsafe { queue(state, &function, grid, BLOCK, launch.args) }
    }
}
