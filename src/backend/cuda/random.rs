//! Random fills on CUDA: one launch of `shaped_random_<dtype>` (floating
//! fills) or `shaped_draw_<dtype>` (whole numbers) from
//! `kernels/random.cuh`, a thread per Philox block.
//!
//! The planning knows nothing of devices, so the tests run the same plans
//! through the kernels compiled for the host.

use super::Cuda;
use super::launch::{
    BLOCK, MAX_RANK, Operand, OperandArgs, dtype_name, merge, operand_args, queue, walk,
};
use crate::backend::{DrawFill, Random, RandomFill, StridedMut, StridedRef};
use crate::dtype::DType;
use crate::error::Error;
use crate::random::distributions::{Draw, RandomWhole};
use crate::random::{Distribution, RandomFloat};

/// The argument block of the random kernels (`shaped::RandomArgs`).
#[repr(C)]
#[derive(Copy, Clone, Debug, Default)]
pub(crate) struct RandomArgs {
    pub(crate) numel: u64,
    pub(crate) sizes: [u64; MAX_RANK],
    pub(crate) out: OperandArgs,
    pub(crate) rates: OperandArgs,
    pub(crate) seed: u64,
    pub(crate) offset: u64,
    pub(crate) a: f64,
    pub(crate) b: f64,
    pub(crate) low: i64,
    pub(crate) range: u64,
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

/// The arguments common to fills and draws over `sizes` into `out` (and
/// from `rates`, of the same sizes, for Poisson), or `None` when there are
/// no elements.
fn plan_args(
    sizes: &[usize],
    out: Operand<'_>,
    rates: Option<Operand<'_>>,
    seed: u64,
    offset: u64,
) -> Result<Option<RandomArgs>, Error> {
    let numel = crate::layout::numel(sizes);
    if numel == 0 {
        return Ok(None);
    }
    let rates_strides = rates.as_ref().map_or(out.strides, |r| r.strides);
    let merged = merge(sizes, [out.strides, rates_strides])?;
    let rank = merged.rank;
    let mut args = RandomArgs {
        numel: numel as u64,
        rank: rank as i32,
        seed,
        offset,
        ..RandomArgs::default()
    };
    for (arg, &size) in args.sizes.iter_mut().zip(&merged.sizes[..rank]) {
        *arg = size as u64;
    }
    args.out = operand_args(out, &merged.strides[0], rank);
    if let Some(rates) = rates {
        args.rates = operand_args(rates, &merged.strides[1], rank);
    }
    let steps = walk(args.numel, &args.sizes[..rank], &[&args.out, &args.rates]);
    (args.narrow, args.magic, args.shift) = (steps.narrow, steps.magic, steps.shift);
    Ok(Some(args))
}

/// Plans Poisson samples of `rates` into `out` (both of `dtype`, over
/// `sizes`), element `i` from counter `offset + i`.
pub(crate) fn plan_poisson(
    sizes: &[usize],
    rates: Operand<'_>,
    out: Operand<'_>,
    dtype: DType,
    seed: u64,
    offset: u64,
) -> Result<Option<RandomLaunch>, Error> {
    let Some(args) = plan_args(sizes, out, Some(rates), seed, offset)? else {
        return Ok(None);
    };
    Ok(Some(RandomLaunch {
        kernel: format!("shaped_poisson_{}", dtype_name(dtype)),
        blocks: args.numel,
        args,
    }))
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
    let Some(mut args) = plan_args(sizes, out, None, fill.seed, fill.offset)? else {
        return Ok(None);
    };
    (args.dist, args.a, args.b) = match fill.dist {
        Distribution::Uniform { lo, hi } => (0, lo, hi),
        Distribution::Normal { mean, std } => (1, mean, std),
        Distribution::Exponential { lambda } => (2, 1.0 / lambda, 0.0),
        Distribution::Cauchy { median, sigma } => (3, median, sigma),
        Distribution::Geometric { p } => (4, Distribution::geometric_log(p), 0.0),
        Distribution::LogNormal { mean, std } => (5, mean, std),
    };
    Ok(Some(RandomLaunch {
        kernel: format!("shaped_random_{}", dtype_name(dtype)),
        blocks: args.numel.div_ceil(per_block as u64),
        args,
    }))
}

/// Plans the whole-number draws of `fill` into `out` (of `dtype`) over
/// `sizes`, or `None` when there are no elements.
pub(crate) fn plan_draws(
    sizes: &[usize],
    out: Operand<'_>,
    dtype: DType,
    fill: DrawFill,
) -> Result<Option<RandomLaunch>, Error> {
    let Some(mut args) = plan_args(sizes, out, None, fill.seed, fill.offset)? else {
        return Ok(None);
    };
    (args.dist, args.low, args.range) = match fill.draw {
        Draw::Integers { low, range } => (0, low, range),
        Draw::Bernoulli { threshold } => (1, 0, threshold),
        Draw::Bits => (2, 0, 0),
        Draw::Geometric { ln_q } => {
            args.a = f64::from_bits(ln_q);
            (3, 0, 0)
        }
    };
    Ok(Some(RandomLaunch {
        kernel: format!("shaped_draw_{}", dtype_name(dtype)),
        blocks: args.numel.div_ceil(2),
        args,
    }))
}

/// Runs a planned fill or draw on `out`'s device.
fn run<T: crate::dtype::Element>(
    out: &StridedMut<'_, T, Cuda>,
    plan: impl FnOnce(Operand<'_>) -> Result<Option<RandomLaunch>, Error>,
) -> Result<(), Error> {
    let device = out.ptr.device;
    let target = Operand {
        addr: out.ptr.addr,
        offset: out.offset,
        strides: out.strides,
    };
    let Some(launch) = plan(target)? else {
        return Ok(());
    };
    let state = super::state(device)?;
    state.make_current()?;
    let function = state.function(&launch.kernel)?;
    let grid = launch.grid(
        BLOCK,
        state.resident_blocks(&launch.kernel, &function, BLOCK)?,
    );
    // SAFETY: the random and draw kernels take one `shaped::RandomArgs` by
    // value, which `RandomArgs` mirrors field for field (`repr(C)`, checked
    // by the host tests); its address is `out`'s, an exclusively borrowed
    // writable layout inside its buffer (distinct indices), which nothing
    // else touches until the launch completes.
    unsafe { queue(state, &function, grid, BLOCK, launch.args) }
}

impl Random for Cuda {
    fn fill_random<T: RandomFloat>(
        out: StridedMut<'_, T, Cuda>,
        fill: RandomFill,
    ) -> Result<(), Error> {
        run(&out, |target| {
            plan_random(out.sizes, target, T::DTYPE, T::PER_BLOCK, fill)
        })
    }

    fn poisson<T: RandomFloat>(
        rates: StridedRef<'_, T, Cuda>,
        out: StridedMut<'_, T, Cuda>,
        seed: u64,
        offset: u64,
    ) -> Result<(), Error> {
        let source = Operand {
            addr: rates.ptr.addr,
            offset: rates.offset,
            strides: rates.strides,
        };
        // SAFETY (of the launch in `run`, beyond its own argument): the
        // rates are a live layout of `out`'s sizes inside their buffer,
        // only read, and a tensor distinct from `out` (a new buffer).
        run(&out, |target| {
            plan_poisson(out.sizes, source, target, T::DTYPE, seed, offset)
        })
    }

    fn fill_draws<T: RandomWhole>(
        out: StridedMut<'_, T, Cuda>,
        fill: DrawFill,
    ) -> Result<(), Error> {
        run(&out, |target| plan_draws(out.sizes, target, T::DTYPE, fill))
    }
}
