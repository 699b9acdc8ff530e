//! Reading by index tensors on CUDA: one launch of `shaped_gather_<dtype>`
//! (`kernels/indexing.cuh`) serves `gather`, `index_select`, `take` and
//! `take_along_dim`, as on the CPU.
//!
//! A bad index is not read through: each thread that meets one lowers a
//! device word to its output position, which the host reads back after the
//! launch (the one wait of the operation); it then reads that position's
//! index for the error and drops the output. PyTorch's CUDA kernels stop
//! the process with a device-side assertion instead.
//!
//! The planning knows nothing of devices, so the tests run the same plans
//! through the kernels compiled for the host.

use super::elementwise::{output, same_device};
use super::launch::{
    BLOCK, MAX_RANK, Operand, OperandArgs, Walk, dtype_bytes, dtype_name, merge, operand_args,
    queue, scalar_bits, walk,
};
use super::{Cuda, CudaBuffer, DeviceState, check};
use crate::backend::{
    GatherFault, GatherSource, IndexWrap, Indexing, ScatterTarget, ScatterValues, Scattering,
    StridedRef,
};
use crate::dtype::{DType, Element, IndexElement};
use crate::error::Error;
use crate::ops::functions::BinaryFn;
use crate::ops::op_codes::OpCode;
use core::ffi::c_void;
use cust::sys;

/// The argument block of the gather kernels (`shaped::GatherArgs`).
#[repr(C)]
#[derive(Copy, Clone, Debug, Default)]
pub(crate) struct GatherArgs {
    pub(crate) numel: u64,
    pub(crate) sizes: [u64; MAX_RANK],
    pub(crate) out: OperandArgs,
    pub(crate) src: OperandArgs,
    pub(crate) index: OperandArgs,
    pub(crate) dim_stride: u64,
    pub(crate) dim_len: u64,
    pub(crate) fault: u64,
    pub(crate) rank: i32,
    pub(crate) wrap: i32,
    pub(crate) index_dtype: i32,
    pub(crate) narrow: i32,
    pub(crate) vec: i32,
    pub(crate) magic: [u32; MAX_RANK],
    pub(crate) shift: [u32; MAX_RANK],
}

/// A planned gather.
#[derive(Clone, Debug)]
pub(crate) struct GatherLaunch {
    /// The kernel's name in the module.
    pub kernel: String,
    pub args: GatherArgs,
    /// The merged sizes and the index's merged strides and offset: where
    /// the index of a faulting position lies.
    sizes: Vec<usize>,
    index_strides: Vec<usize>,
    index_offset: usize,
}

impl GatherLaunch {
    /// Blocks of `block` threads for one element per thread, at most
    /// `max_blocks` (the loop strides over the rest).
    pub fn grid(&self, block: u32, max_blocks: u32) -> u32 {
        grid_for(self.args.numel, block, max_blocks)
    }

    /// The index's storage offset (in elements) at row-major position
    /// `position` of the operation.
    pub fn index_at(&self, position: u64) -> usize {
        let mut rest = position as usize;
        let mut at = self.index_offset;
        for (&n, &s) in self.sizes.iter().zip(&self.index_strides).rev() {
            at += (rest % n) * s;
            rest /= n;
        }
        at
    }
}

/// What a gather reads and writes: the output (`None` to check the indices
/// only), the source laid over the sizes with the gathered dimension's
/// stride and length, and the index with its dtype.
#[derive(Copy, Clone, Debug)]
pub(crate) struct GatherOperands<'a> {
    pub element: DType,
    pub out: Option<Operand<'a>>,
    pub src: Operand<'a>,
    pub dim_stride: usize,
    pub dim_len: usize,
    pub index: (DType, Operand<'a>),
    pub wrap: IndexWrap,
    /// The device address of the fault word.
    pub fault: u64,
}

/// The merged layout of a gather's or a scatter's three operands (output
/// or target, source, index) over `sizes`, as the kernels take it; `None`
/// when there are no positions.
struct MergedThree {
    numel: u64,
    rank: usize,
    sizes: [u64; MAX_RANK],
    operands: [OperandArgs; 3],
    /// How the kernels walk from a position to the three offsets.
    walk: Walk,
    /// The merged sizes and the index's merged strides, to find an index.
    merged_sizes: Vec<usize>,
    index_strides: Vec<usize>,
}

fn merge_three(sizes: &[usize], operands: [Operand<'_>; 3]) -> Result<Option<MergedThree>, Error> {
    let numel = crate::layout::numel(sizes);
    if numel == 0 {
        return Ok(None);
    }
    let merged = merge(sizes, operands.map(|o| o.strides))?;
    let rank = merged.rank;
    let mut out_sizes = [0; MAX_RANK];
    for (arg, &size) in out_sizes.iter_mut().zip(&merged.sizes[..rank]) {
        *arg = size as u64;
    }
    let args = [0, 1, 2].map(|k| operand_args(operands[k], &merged.strides[k], rank));
    Ok(Some(MergedThree {
        numel: numel as u64,
        rank,
        sizes: out_sizes,
        walk: walk(
            numel as u64,
            &out_sizes[..rank],
            &[&args[0], &args[1], &args[2]],
        ),
        operands: args,
        merged_sizes: merged.sizes[..rank].to_vec(),
        index_strides: merged.strides[2][..rank].to_vec(),
    }))
}

/// The kernels' code for a wrap.
fn wrap_code(wrap: IndexWrap) -> i32 {
    match wrap {
        IndexWrap::Never => 0,
        IndexWrap::FromEnd => 1,
        IndexWrap::Modulo => 2,
    }
}

/// Blocks of `block` threads for one position per thread, at most
/// `max_blocks` (the kernels' loops stride over the rest).
fn grid_for(numel: u64, block: u32, max_blocks: u32) -> u32 {
    let blocks = numel.div_ceil(u64::from(block)).max(1);
    u32::try_from(blocks).unwrap_or(u32::MAX).min(max_blocks)
}

/// Plans a gather over `sizes`, or `None` when there are no elements.
pub(crate) fn plan_gather(
    sizes: &[usize],
    x: GatherOperands<'_>,
) -> Result<Option<GatherLaunch>, Error> {
    let zeros = vec![0; sizes.len()];
    let out = x.out.unwrap_or(Operand {
        addr: 0,
        offset: 0,
        strides: &zeros,
    });
    let Some(m) = merge_three(sizes, [out, x.src, x.index.1])? else {
        return Ok(None);
    };
    let [out, src, index] = m.operands;
    let mut args = GatherArgs {
        numel: m.numel,
        sizes: m.sizes,
        out,
        src,
        index,
        dim_stride: x.dim_stride as u64,
        dim_len: x.dim_len as u64,
        fault: x.fault,
        rank: m.rank as i32,
        wrap: wrap_code(x.wrap),
        index_dtype: x.index.0 as i32,
        narrow: m.walk.narrow,
        vec: 1,
        magic: m.walk.magic,
        shift: m.walk.shift,
    };
    if x.out.is_some() {
        args.vec = runs_of(&args, dtype_bytes(x.element));
    }
    Ok(Some(GatherLaunch {
        kernel: format!("shaped_gather_{}", dtype_name(x.element)),
        args,
        sizes: m.merged_sizes,
        index_strides: m.index_strides,
        index_offset: x.index.1.offset,
    }))
}

/// Elements per vector of a gather whose index names whole runs: where the
/// index's innermost stride is 0 and the output's and the source's 1, a
/// thread moves 16 bytes of one run (`gather_runs` in
/// `kernels/indexing.cuh`), if every run starts 16-byte aligned in both;
/// else 1.
fn runs_of(args: &GatherArgs, bytes: usize) -> i32 {
    let inner = args.rank as usize - 1;
    let vec = 16 / bytes as u64;
    if bytes > 8 || args.index.strides[inner] != 0 || !args.sizes[inner].is_multiple_of(vec) {
        return 1;
    }
    let aligned = |o: &OperandArgs| {
        o.strides[inner] == 1
            && o.strides[..inner].iter().all(|s| s.is_multiple_of(vec))
            && (o.ptr + o.offset * bytes as u64).is_multiple_of(16)
    };
    if aligned(&args.out) && aligned(&args.src) && args.dim_stride.is_multiple_of(vec) {
        vec as i32
    } else {
        1
    }
}

/// Copies `dst.len()` bytes from device address `src` and waits.
///
/// # Safety
/// `src` must address that many bytes of live device memory of `state`'s
/// device, written by work queued on its stream before this call.
pub(super) unsafe fn read_back(state: &DeviceState, src: u64, dst: &mut [u8]) -> Result<(), Error> {
    // SAFETY: the caller's contract; `dst` holds the bytes.
    let result = unsafe {
        sys::cuMemcpyDtoHAsync_v2(
            dst.as_mut_ptr().cast::<c_void>(),
            src,
            dst.len(),
            state.stream.as_inner(),
        )
    };
    check(result, "copying to the host")?;
    state.synchronize()
}

/// Runs a planned gather on `device` with a fresh fault word: `Ok(())`,
/// or the bad index met first in row-major order.
fn run(device: usize, sizes: &[usize], x: GatherOperands<'_>) -> Result<(), GatherFault> {
    let fault = CudaBuffer::<i64>::uninit(device, 1)?;
    let x = GatherOperands {
        fault: fault.ptr().addr,
        ..x
    };
    let Some(launch) = plan_gather(sizes, x)? else {
        return Ok(());
    };
    let state = super::state(device)?;
    state.make_current()?;
    // SAFETY: the word is the 8 bytes just allocated on this stream.
    let result =
        unsafe { sys::cuMemsetD8Async(fault.ptr().addr, 0xff, 8, state.stream.as_inner()) };
    check(result, "clearing a word")?;
    let function = state.function(&launch.kernel)?;
    let grid = launch.grid(
        BLOCK,
        state.resident_blocks(&launch.kernel, &function, BLOCK)?,
    );
    // SAFETY: the gather kernels take one `shaped::GatherArgs` by value,
    // which `GatherArgs` mirrors field for field (`repr(C)`, checked by the
    // host tests). The output is new memory of `sizes`' elements (or none);
    // the source and index layouts lie inside their buffers, borrowed by
    // the caller; the kernel reads the source only at indices it checked
    // against the gathered dimension; the fault word is ours.
    unsafe { queue(state, &function, grid, BLOCK, launch.args) }?;
    let mut word = [0u8; 8];
    // SAFETY: the word, written by the memset and the kernel queued above.
    unsafe { read_back(state, fault.ptr().addr, &mut word) }?;
    let position = u64::from_ne_bytes(word);
    if position == u64::MAX {
        return Ok(());
    }
    let (dtype, index) = x.index;
    let width = if dtype == DType::I32 { 4 } else { 8 };
    let addr = index.addr + (launch.index_at(position) * width) as u64;
    let mut raw = [0u8; 8];
    // SAFETY: the index element at a position of the operation, inside the
    // index's layout and buffer.
    unsafe { read_back(state, addr, &mut raw[..width]) }?;
    let value = match width {
        4 => i64::from(i32::from_ne_bytes(raw[..4].try_into().expect("4 bytes"))),
        _ => i64::from_ne_bytes(raw),
    };
    Err(GatherFault::Index(value))
}

fn operand<'a, T: Element>(x: &StridedRef<'a, T, Cuda>) -> Operand<'a> {
    Operand {
        addr: x.ptr.addr,
        offset: x.offset,
        strides: x.strides,
    }
}

impl Indexing for Cuda {
    fn gather<T: Element, I: IndexElement>(
        sizes: &[usize],
        source: GatherSource<'_, T, Cuda>,
        index: StridedRef<'_, I, Cuda>,
        wrap: IndexWrap,
    ) -> Result<CudaBuffer<T>, GatherFault> {
        let device = source.elements.ptr.device;
        same_device(device, index.ptr.device)?;
        let (buffer, strides) = output::<T>(device, sizes)?;
        let x = GatherOperands {
            element: T::DTYPE,
            out: Some(Operand {
                addr: buffer.ptr().addr,
                offset: 0,
                strides: &strides,
            }),
            src: operand(&source.elements),
            dim_stride: source.dim_stride,
            dim_len: source.dim_len,
            index: (I::DTYPE, operand(&index)),
            wrap,
            fault: 0,
        };
        run(device, sizes, x)?;
        Ok(buffer)
    }

    fn check_indices<I: IndexElement>(
        index: StridedRef<'_, I, Cuda>,
        len: usize,
        wrap: IndexWrap,
    ) -> Result<(), GatherFault> {
        let zeros = vec![0; index.sizes.len()];
        let x = GatherOperands {
            element: I::DTYPE,
            out: None,
            src: Operand {
                addr: 0,
                offset: 0,
                strides: &zeros,
            },
            dim_stride: 0,
            dim_len: len,
            index: (I::DTYPE, operand(&index)),
            wrap,
            fault: 0,
        };
        run(index.ptr.device, index.sizes, x)
    }
}

/// The argument block of the scatter kernels (`shaped::ScatterArgs`).
#[repr(C)]
#[derive(Copy, Clone, Debug, Default)]
pub(crate) struct ScatterArgs {
    pub(crate) numel: u64,
    pub(crate) sizes: [u64; MAX_RANK],
    pub(crate) out: OperandArgs,
    pub(crate) src: OperandArgs,
    pub(crate) index: OperandArgs,
    pub(crate) dim_stride: u64,
    pub(crate) dim_len: u64,
    pub(crate) value: [u64; 2],
    pub(crate) rank: i32,
    pub(crate) wrap: i32,
    pub(crate) index_dtype: i32,
    pub(crate) op: i32,
    pub(crate) src_scalar: i32,
    pub(crate) narrow: i32,
    pub(crate) magic: [u32; MAX_RANK],
    pub(crate) shift: [u32; MAX_RANK],
}

/// A planned scatter.
#[derive(Clone, Debug)]
pub(crate) struct ScatterLaunch {
    /// The kernel's name in the module.
    pub kernel: String,
    pub args: ScatterArgs,
}

/// Positions per thread and step of the gather and scatter kernels
/// (`SHAPED_INDEX_ILP` in kernels/indexing.cuh).
pub(crate) const INDEX_ILP: u32 = 4;

impl ScatterLaunch {
    /// Blocks of `block` threads for every position, `INDEX_ILP` per
    /// thread: the whole grid, not the blocks the device holds at once.
    /// On an H100, `scatter_add_` of (16384, 16384) float32 by the kernel
    /// of sums took 8.1 ms over the resident blocks and 3.96 ms over the
    /// whole grid (PyTorch 4.02 ms).
    pub fn grid(&self, block: u32) -> u32 {
        let per_block = u64::from(block) * u64::from(INDEX_ILP);
        let blocks = self.args.numel.div_ceil(per_block).max(1);
        // (CUDA's limit on a grid's x dimension.)
        u32::try_from(blocks)
            .unwrap_or(u32::MAX)
            .min(i32::MAX as u32)
    }
}

/// What a scatter writes: the target over the index's sizes, the source
/// (or one value's bits), the index, and how an element combines.
#[derive(Copy, Clone, Debug)]
pub(crate) struct ScatterOperands<'a> {
    pub element: DType,
    pub out: Operand<'a>,
    pub dim_stride: usize,
    pub dim_len: usize,
    pub src: Option<Operand<'a>>,
    pub value: [u64; 2],
    pub index: (DType, Operand<'a>),
    pub wrap: IndexWrap,
    pub op: OpCode,
}

/// The scatter kernel of `op` for elements of `dtype`: writes and sums
/// have one of their own, products and extremes share another.
pub(crate) fn scatter_kernel(dtype: DType, op: OpCode) -> String {
    match op {
        OpCode::Identity | OpCode::Add => format!("shaped_scatter_{}", dtype_name(dtype)),
        _ => format!("shaped_combine_{}", dtype_name(dtype)),
    }
}

/// Plans a scatter over `sizes`, or `None` when there are no positions.
pub(crate) fn plan_scatter(
    sizes: &[usize],
    x: ScatterOperands<'_>,
) -> Result<Option<ScatterLaunch>, Error> {
    let zeros = vec![0; sizes.len()];
    let src = x.src.unwrap_or(Operand {
        addr: 0,
        offset: 0,
        strides: &zeros,
    });
    let Some(m) = merge_three(sizes, [x.out, src, x.index.1])? else {
        return Ok(None);
    };
    let [out, src, index] = m.operands;
    let args = ScatterArgs {
        numel: m.numel,
        sizes: m.sizes,
        out,
        src,
        index,
        dim_stride: x.dim_stride as u64,
        dim_len: x.dim_len as u64,
        value: x.value,
        rank: m.rank as i32,
        wrap: wrap_code(x.wrap),
        index_dtype: x.index.0 as i32,
        op: x.op as i32,
        src_scalar: i32::from(x.src.is_none()),
        narrow: m.walk.narrow,
        magic: m.walk.magic,
        shift: m.walk.shift,
    };
    Ok(Some(ScatterLaunch {
        kernel: scatter_kernel(x.element, x.op),
        args,
    }))
}

impl Scattering for Cuda {
    /// One launch: a thread per index position. Plain writes store (a
    /// repeated index keeps one of its values, which one unspecified, as
    /// PyTorch's CUDA kernels); combining writes update atomically
    /// (compare-and-swap on the element's word), so sums of floats add in
    /// an order that varies from run to run.
    fn scatter<T: Element, I: IndexElement, F: BinaryFn<T, T, T>>(
        sizes: &[usize],
        target: ScatterTarget<'_, T, Cuda>,
        values: ScatterValues<'_, T, Cuda>,
        index: StridedRef<'_, I, Cuda>,
        wrap: IndexWrap,
        combine: F,
    ) -> Result<(), Error> {
        let op = combine
            .kernel_op()
            .map(|k| k.code)
            .filter(|c| {
                matches!(
                    c,
                    OpCode::Identity
                        | OpCode::Add
                        | OpCode::Mul
                        | OpCode::Maximum
                        | OpCode::Minimum
                )
            })
            .ok_or(Error::NoDeviceKernel {
                function: core::any::type_name::<F>(),
            })?;
        if T::DTYPE == DType::C128 && !matches!(op, OpCode::Identity | OpCode::Add) {
            return Err(Error::NoDeviceKernel {
                function: "a complex128 scatter other than a write or a sum",
            });
        }
        let device = target.elements.ptr.device;
        same_device(device, index.ptr.device)?;
        let (src, value) = match values {
            ScatterValues::Tensor(v) => {
                same_device(device, v.ptr.device)?;
                (Some(operand(&v)), [0; 2])
            }
            ScatterValues::Value(x) => (None, scalar_bits(x.to_scalar(), T::DTYPE)),
        };
        let x = ScatterOperands {
            element: T::DTYPE,
            out: Operand {
                addr: target.elements.ptr.addr,
                offset: target.elements.offset,
                strides: target.elements.strides,
            },
            dim_stride: target.dim_stride,
            dim_len: target.dim_len,
            src,
            value,
            index: (I::DTYPE, operand(&index)),
            wrap,
            op,
        };
        let Some(launch) = plan_scatter(sizes, x)? else {
            return Ok(());
        };
        let state = super::state(device)?;
        state.make_current()?;
        let function = state.function(&launch.kernel)?;
        let grid = launch.grid(BLOCK);
        // SAFETY: the scatter kernels take one `shaped::ScatterArgs` by
        // value, which `ScatterArgs` mirrors (`repr(C)`, checked by the
        // host tests). The target is a writable layout borrowed mutably by
        // the caller, over the index's sizes with the scattered dimension
        // stepped by the checked indices (every index was checked before
        // the call; one outside is skipped by the kernel); the source and
        // index layouts lie inside their buffers.
        unsafe { queue(state, &function, grid, BLOCK, launch.args) }
    }
}
