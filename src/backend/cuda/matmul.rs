//! `MatmulBackend` for [`Cuda`]: float products (or batches of them, as
//! [`MatmulPlan`] lays them out) through cuBLAS (see [`blas`](super::blas));
//! integer products, and float ones where cuBLAS is missing, as one launch
//! of `shaped_matmul_<dtype>` (`kernels/matmul.cuh`), a shared-memory tiled
//! kernel that reads the operands in place through their strides.
//!
//! The planning knows nothing of devices, so the tests run the same
//! arguments through the kernels compiled for the host.

use super::blas;
use super::elementwise::same_device;
use super::launch::{MAX_RANK, dtype_name, queue};
use super::{Cuda, CudaBuffer, DeviceState};
use crate::backend::{Elementwise, StridedMut, StridedRef};
use crate::dtype::DType;
use crate::error::Error;
use crate::layout::{checked_numel, contiguous_strides};
use crate::ops::matmul::{MatmulBackend, MatmulElement, MatmulOperand, MatmulPlan};

/// The side of an output tile, in elements (`SHAPED_MATMUL_TILE`).
pub(crate) const TILE: u64 = 16;

/// Threads per block: one per element of a tile.
pub(crate) const MATMUL_BLOCK: u32 = (TILE * TILE) as u32;

/// The argument block of the product kernels (`shaped::MatmulArgs`).
#[repr(C)]
#[derive(Copy, Clone, Debug, Default)]
pub(crate) struct MatmulArgs {
    pub(crate) a: u64,
    pub(crate) b: u64,
    pub(crate) out: u64,
    pub(crate) m: u64,
    pub(crate) k: u64,
    pub(crate) n: u64,
    pub(crate) a_rows: u64,
    pub(crate) a_cols: u64,
    pub(crate) b_rows: u64,
    pub(crate) b_cols: u64,
    pub(crate) batch: [u64; MAX_RANK],
    pub(crate) a_batch: [u64; MAX_RANK],
    pub(crate) b_batch: [u64; MAX_RANK],
    pub(crate) count: u64,
    pub(crate) batch_rank: i32,
}

impl MatmulArgs {
    /// Blocks for every tile of every product, at most `max_blocks` (the
    /// kernel strides over the rest).
    pub(crate) fn grid(&self, max_blocks: u32) -> u32 {
        let tiles = self.m.div_ceil(TILE) * self.n.div_ceil(TILE) * self.count;
        u32::try_from(tiles.max(1))
            .unwrap_or(u32::MAX)
            .min(max_blocks)
    }
}

/// The product kernel for elements of `dtype`.
pub(crate) fn kernel_name(dtype: DType) -> String {
    format!("shaped_matmul_{}", dtype_name(dtype))
}

/// The arguments of `plan`'s products, with `a` and `b` the addresses of
/// the operands' first elements (their offsets applied) and `out` the
/// output's; `None` when the output has no elements.
pub(crate) fn matmul_args(
    plan: &MatmulPlan,
    a: u64,
    b: u64,
    out: u64,
) -> Result<Option<MatmulArgs>, Error> {
    let (m, k, n) = plan.mkn();
    let count = plan.batch_count();
    // (Not `m * n * count == 0`: with a size 0 the others may be large.)
    if m == 0 || n == 0 || count == 0 {
        return Ok(None);
    }
    let rank = plan.batch.len();
    if rank > MAX_RANK {
        return Err(Error::KernelRank {
            rank,
            max: MAX_RANK,
        });
    }
    let mut args = MatmulArgs {
        a,
        b,
        out,
        m: m as u64,
        k: k as u64,
        n: n as u64,
        a_rows: plan.a.rows as u64,
        a_cols: plan.a.cols as u64,
        b_rows: plan.b.rows as u64,
        b_cols: plan.b.cols as u64,
        count: count as u64,
        batch_rank: rank as i32,
        ..MatmulArgs::default()
    };
    for d in 0..rank {
        args.batch[d] = plan.batch[d] as u64;
        args.a_batch[d] = plan.a_batch_strides[d] as u64;
        args.b_batch[d] = plan.b_batch_strides[d] as u64;
    }
    Ok(Some(args))
}

impl MatmulBackend for Cuda {
    fn matmul_buffer<T: MatmulElement>(
        plan: &MatmulPlan,
        a: StridedRef<'_, T, Cuda>,
        b: StridedRef<'_, T, Cuda>,
    ) -> Result<CudaBuffer<T>, Error> {
        let device = a.ptr.device;
        same_device(device, b.ptr.device)?;
        let buffer = CudaBuffer::<T>::uninit(device, checked_numel(plan.out_sizes())?)?;
        let bytes = size_of::<T>() as u64;
        // Wrapping: an empty operand's offset may lie anywhere, and its
        // address is then never used (no product runs).
        let start =
            |addr: u64, offset: usize| addr.wrapping_add((offset as u64).wrapping_mul(bytes));
        let Some(args) = matmul_args(
            plan,
            start(a.ptr.addr, a.offset),
            start(b.ptr.addr, b.offset),
            buffer.ptr().addr,
        )?
        else {
            return Ok(buffer);
        };
        let state = super::state(device)?;
        state.make_current()?;
        if blas_product(plan, a, b, buffer.ptr().addr, state)? {
            return Ok(buffer);
        }
        let kernel = kernel_name(T::DTYPE);
        let function = state.function(&kernel)?;
        let grid = args.grid(state.resident_blocks(&kernel, &function, MATMUL_BLOCK)?);
        // SAFETY: the product kernels take one `shaped::MatmulArgs` by
        // value, which `MatmulArgs` mirrors field for field (`repr(C)`,
        // checked by the host tests). The operands' addresses and strides
        // come from the plan of two checked tensors on this device, so every
        // index the products reach lies in their buffers; the output is the
        // new buffer of `count * m * n` elements of `T`.
        unsafe { queue(state, &function, grid, MATMUL_BLOCK, args) }?;
        Ok(buffer)
    }
}

/// `x` copied into a new contiguous buffer, with its contiguous strides.
fn contiguous_copy<T: MatmulElement>(
    x: StridedRef<'_, T, Cuda>,
) -> Result<(CudaBuffer<T>, Vec<usize>), Error> {
    let strides: Vec<usize> = contiguous_strides(x.sizes);
    let copy = CudaBuffer::<T>::uninit(x.ptr.device, checked_numel(x.sizes)?)?;
    let out = StridedMut {
        ptr: copy.ptr(),
        sizes: x.sizes,
        strides: &strides,
        offset: 0,
    };
    <Cuda as Elementwise>::copy_into(out, x)?;
    Ok((copy, strides))
}

/// Queues `plan`'s product into `out` through cuBLAS when it has one for
/// `T` and can be opened on this device: `Ok(true)` once queued,
/// `Ok(false)` for the tiled kernel (integers, a product with `k = 0`
/// (zeros), sizes beyond cuBLAS's 32-bit arguments, or no cuBLAS, said
/// once). An operand cuBLAS cannot read through its strides is copied
/// contiguous first; the copies are freed in stream order, after the
/// product.
fn blas_product<T: MatmulElement>(
    plan: &MatmulPlan,
    a: StridedRef<'_, T, Cuda>,
    b: StridedRef<'_, T, Cuda>,
    out: u64,
    state: &DeviceState,
) -> Result<bool, Error> {
    if blas::types_of(T::DTYPE).is_none() || plan.mkn().1 == 0 {
        return Ok(false);
    }
    let lib = match blas::cublas() {
        Ok(lib) => lib,
        Err(why) => {
            blas::say_fallback(why);
            return Ok(false);
        }
    };
    let handle = match blas::handle(lib, state.index, state.stream.as_inner().cast()) {
        Ok(handle) => handle,
        Err(why) => {
            blas::say_fallback(&why);
            return Ok(false);
        }
    };
    let (copy_a, copy_b) = blas::needs_copies(plan);
    let a_copy = copy_a.then(|| contiguous_copy(a)).transpose()?;
    let b_copy = copy_b.then(|| contiguous_copy(b)).transpose()?;
    let replanned;
    let plan = if copy_a || copy_b {
        let strides = |x: &StridedRef<'_, T, Cuda>, copy: &Option<(CudaBuffer<T>, Vec<usize>)>| {
            copy.as_ref().map_or(x.strides.to_vec(), |c| c.1.clone())
        };
        let (a_strides, b_strides) = (strides(&a, &a_copy), strides(&b, &b_copy));
        replanned = MatmulPlan::new(
            MatmulOperand {
                sizes: a.sizes,
                strides: &a_strides,
            },
            MatmulOperand {
                sizes: b.sizes,
                strides: &b_strides,
            },
        )?;
        &replanned
    } else {
        plan
    };
    let Some(calls) = blas::gemm_calls(plan) else {
        return Ok(false);
    };
    let bytes = size_of::<T>() as u64;
    let start = |x: &StridedRef<'_, T, Cuda>, copy: &Option<(CudaBuffer<T>, Vec<usize>)>| match copy
    {
        Some((buffer, _)) => buffer.ptr().addr,
        None => x
            .ptr
            .addr
            .wrapping_add((x.offset as u64).wrapping_mul(bytes)),
    };
    // SAFETY: the calls come from the plan of these two operands (or of
    // their contiguous copies, whose addresses are passed then), checked
    // tensors on this device of a float dtype cuBLAS has; `out` is the new
    // contiguous buffer of the plan's output; the device is current.
    unsafe {
        blas::queue_gemm(
            lib,
            handle,
            T::DTYPE,
            &calls,
            start(&a, &a_copy),
            start(&b, &b_copy),
            out,
        )
    }
    .map_err(|message| Error::Cuda {
        message,
        during: "a cuBLAS matrix product",
    })?;
    Ok(true)
}
