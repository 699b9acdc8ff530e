//! The copying rearrangements on CUDA: one launch of
//! `shaped_rearrange_<width>` (`kernels/rearrange.cuh`), the kernel of the
//! element's width, over the plan both devices share
//! ([`Rearrangement`]).
//!
//! The planning knows nothing of devices, so the tests run the same plans
//! through the kernels compiled for the host.

use super::elementwise::output;
use super::launch::{BLOCK, Divisor, MAX_RANK, queue};
use super::{Cuda, CudaBuffer};
use crate::backend::StridedRef;
use crate::backend::rearrange::{AxisMap, Band, Rearrangement, Rearranging};
use crate::dtype::Element;
use crate::error::Error;

/// The argument block of the rearrangement kernels
/// (`shaped::RearrangeArgs`).
#[repr(C)]
#[derive(Copy, Clone, Debug, Default)]
pub(crate) struct RearrangeArgs {
    pub(crate) numel: u64,
    pub(crate) sizes: [u64; MAX_RANK],
    pub(crate) src_sizes: [u64; MAX_RANK],
    pub(crate) src_strides: [u64; MAX_RANK],
    pub(crate) amount: [i64; MAX_RANK],
    pub(crate) out: u64,
    pub(crate) src: u64,
    pub(crate) src_offset: u64,
    pub(crate) fill: [u64; 2],
    pub(crate) band_lower: i64,
    pub(crate) band_upper: i64,
    pub(crate) rank: i32,
    pub(crate) banded: i32,
    pub(crate) narrow: i32,
    pub(crate) map: [i32; MAX_RANK],
    pub(crate) magic: [u32; MAX_RANK],
    pub(crate) shift: [u32; MAX_RANK],
}

/// A planned rearrangement.
#[derive(Clone, Debug)]
pub(crate) struct RearrangeLaunch {
    /// The kernel's name in the module.
    pub kernel: String,
    pub args: RearrangeArgs,
}

impl RearrangeLaunch {
    /// Blocks of `block` threads for one element per thread, at most
    /// `max_blocks` (the loop strides over the rest).
    pub fn grid(&self, block: u32, max_blocks: u32) -> u32 {
        let blocks = self.args.numel.div_ceil(u64::from(block)).max(1);
        u32::try_from(blocks).unwrap_or(u32::MAX).min(max_blocks)
    }
}

/// The bytes of `value`, as the kernels read the fill value.
pub(crate) fn fill_bits<T: Element>(value: T) -> [u64; 2] {
    const { assert!(size_of::<T>() <= 16) };
    let mut bits = [0u64; 2];
    // SAFETY: `T` is a plain element of at most 16 bytes (checked above),
    // copied byte for byte into a 16-byte array that does not overlap it.
    unsafe {
        core::ptr::copy_nonoverlapping(
            (&raw const value).cast::<u8>(),
            bits.as_mut_ptr().cast::<u8>(),
            size_of::<T>(),
        );
    }
    bits
}

/// Plans `maps` (and `band`) over a source at `src` (the buffer's device
/// address; its layout `sizes`, `strides`, `offset`) into `out`, elements
/// of `width` bytes; `None` when the output is empty.
#[allow(clippy::too_many_arguments)]
pub(crate) fn plan_rearrange(
    src: u64,
    sizes: &[usize],
    strides: &[usize],
    offset: usize,
    maps: &[AxisMap],
    band: Option<Band>,
    out: u64,
    width: usize,
    fill: [u64; 2],
) -> Result<Option<RearrangeLaunch>, Error> {
    let plan = Rearrangement::new(sizes, strides, offset, maps, band);
    let numel = plan.numel();
    if numel == 0 {
        return Ok(None);
    }
    let rank = plan.sizes.len();
    if rank > MAX_RANK {
        return Err(Error::KernelRank {
            rank,
            max: MAX_RANK,
        });
    }
    let mut args = RearrangeArgs {
        numel: numel as u64,
        out,
        src,
        src_offset: offset as u64,
        fill,
        rank: rank as i32,
        narrow: i32::from((numel as u64) < Divisor::NARROW),
        ..RearrangeArgs::default()
    };
    if let Some(band) = plan.band {
        (args.banded, args.band_lower, args.band_upper) = (1, band.lower, band.upper);
    }
    for d in 0..rank {
        args.sizes[d] = plan.out_sizes[d] as u64;
        args.src_sizes[d] = plan.sizes[d] as u64;
        args.src_strides[d] = plan.strides[d] as u64;
        (args.map[d], args.amount[d]) = plan.maps[d].code();
        if d > 0
            && let Some(divisor) = Divisor::new(plan.out_sizes[d])
        {
            (args.magic[d], args.shift[d]) = (divisor.magic, divisor.shift);
        }
    }
    let name = match width {
        1 => "b1",
        2 => "b2",
        4 => "b4",
        8 => "b8",
        _ => "b16",
    };
    Ok(Some(RearrangeLaunch {
        kernel: format!("shaped_rearrange_{name}"),
        args,
    }))
}

impl Rearranging for Cuda {
    fn rearrange<T: Element>(
        src: StridedRef<'_, T, Cuda>,
        maps: &[AxisMap],
        fill: T,
        band: Option<Band>,
    ) -> Result<CudaBuffer<T>, Error> {
        let device = src.ptr.device;
        let out_sizes: Vec<usize> = src
            .sizes
            .iter()
            .zip(maps)
            .map(|(&n, m)| m.out_len(n))
            .collect();
        let (buffer, _) = output::<T>(device, &out_sizes)?;
        let Some(launch) = plan_rearrange(
            src.ptr.addr,
            src.sizes,
            src.strides,
            src.offset,
            maps,
            band,
            buffer.ptr().addr,
            size_of::<T>(),
            fill_bits(fill),
        )?
        else {
            return Ok(buffer);
        };
        let state = super::state(device)?;
        state.make_current()?;
        let function = state.function(&launch.kernel)?;
        let grid = launch.grid(
            BLOCK,
            state.resident_blocks(&launch.kernel, &function, BLOCK)?,
        );
        // SAFETY: the rearrangement kernels take one `shaped::RearrangeArgs`
        // by value, which `RearrangeArgs` mirrors field for field (`repr(C)`,
        // checked by the host tests). Every source position a map names lies
        // in its dimension, so each read is an index of the source's checked
        // layout, inside its buffer; the output is a new buffer of `numel`
        // elements of this width, each written once, which nothing else
        // touches until the launch completes.
        unsafe { queue(state, &function, grid, BLOCK, launch.args) }?;
        Ok(buffer)
    }
}

impl<T: Element, R: crate::storage::Repr> crate::tensor::Tensor<T, crate::DynShape, Cuda, R> {
    /// [`repeat_interleave_by`](crate::DynTensor::repeat_interleave_by) on
    /// the device: the counts copied to the host (as PyTorch does, to size
    /// the result), the positions computed there and copied back, then an
    /// `index_select` on the device.
    ///
    /// ```no_run
    /// use shaped::prelude::*;
    /// let gpu = Cuda::new(0)?;
    /// let x = DynTensor::<i32>::from_vec(vec![1, 2, 3], &[3])?.to_device(&gpu)?;
    /// let counts = DynTensor::<i64>::from_vec(vec![2, 0, 1], &[3])?.to_device(&gpu)?;
    /// let y = x.repeat_interleave_by(&counts, Some(0))?;
    /// assert_eq!(y.to_cpu()?.to_vec(), [1, 1, 3]);
    /// # Ok::<(), shaped::Error>(())
    /// ```
    pub fn repeat_interleave_by<I: crate::dtype::IndexElement, RI: crate::storage::Repr>(
        &self,
        repeats: &crate::tensor::Tensor<I, crate::DynShape, Cuda, RI>,
        dim: Option<isize>,
    ) -> Result<crate::DynTensor<T, Cuda>, Error> {
        let gpu = Cuda::new(crate::storage::Storage::ptr(&self.data).device)?;
        let counts = repeats.to_cpu()?;
        let Some(dim) = dim else {
            let n = self.layout.numel();
            let flat = self.contiguous_copy()?;
            let flat = flat.reshape(&[n as isize])?;
            let (d, index) =
                crate::ops::rearrange::interleave_index(flat.layout.sizes(), &counts, 0)?;
            return flat.index_select(d as isize, &index.to_device(&gpu)?);
        };
        let (d, index) =
            crate::ops::rearrange::interleave_index(self.layout.sizes(), &counts, dim)?;
        self.index_select(d as isize, &index.to_device(&gpu)?)
    }
}
