//! From shape-erased operands to one kernel launch: merging dimensions,
//! choosing the vectorized path, and the argument block the kernels take
//! (`Args` in `kernels/elementwise.cuh`).
//!
//! The planning here knows nothing of devices: operands are addresses.
//! [`launch_on`] runs a plan on a CUDA device; the tests run the same plans
//! through the kernels compiled for the host (`kernels/host_launch.cpp`).

use super::{DeviceState, cuda_error};
use crate::dtype::{DType, Scalar};
use crate::error::Error;
use crate::ops::op_codes::{Family, KernelOp, OpCode, Side};
use core::ffi::c_void;

/// The most dimensions a kernel takes (`SHAPED_MAX_RANK`).
pub(crate) const MAX_RANK: usize = 16;

/// Threads per block.
pub(crate) const BLOCK: u32 = 256;

/// One operand, as the kernels see it (`shaped::Operand`).
#[repr(C)]
#[derive(Copy, Clone, Debug, Default)]
pub(crate) struct OperandArgs {
    pub(crate) ptr: u64,
    pub(crate) offset: u64,
    pub(crate) strides: [u64; MAX_RANK],
}

/// The argument block of every elementwise kernel (`shaped::Args`).
#[repr(C)]
#[derive(Copy, Clone, Debug, Default)]
pub(crate) struct Args {
    pub(crate) numel: u64,
    pub(crate) sizes: [u64; MAX_RANK],
    pub(crate) out: OperandArgs,
    pub(crate) a: OperandArgs,
    pub(crate) b: OperandArgs,
    pub(crate) scalar: [u64; 3],
    pub(crate) rank: i32,
    pub(crate) op: i32,
    pub(crate) a_scalar: i32,
    pub(crate) b_scalar: i32,
    pub(crate) vec: i32,
    pub(crate) a_inner: i32,
    pub(crate) b_inner: i32,
    pub(crate) out_dtype: i32,
    pub(crate) a_dtype: i32,
    pub(crate) b_dtype: i32,
    pub(crate) narrow: i32,
    pub(crate) magic: [u32; MAX_RANK],
    pub(crate) shift: [u32; MAX_RANK],
}

/// An operand in memory: its address, offset and strides (in elements),
/// broadcast to the operation's sizes.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Operand<'a> {
    pub addr: u64,
    pub offset: usize,
    pub strides: &'a [usize],
}

/// An input of a kernel: in memory, or the operation's fixed number.
#[derive(Copy, Clone, Debug)]
pub(crate) enum Input<'a> {
    Memory(Operand<'a>),
    Scalar,
}

/// One planned launch.
#[derive(Clone, Debug)]
pub(crate) struct Launch {
    /// The kernel's name in the module.
    pub kernel: String,
    pub args: Args,
    /// Units of work: vectors on the vectorized path, else elements.
    pub work: u64,
}

impl Launch {
    /// Blocks for a grid-stride loop over the work, at most `max_blocks`.
    pub fn grid(&self, max_blocks: u32) -> u32 {
        let blocks = self.work.div_ceil(u64::from(BLOCK)).max(1);
        u32::try_from(blocks).unwrap_or(u32::MAX).min(max_blocks)
    }

    /// Threads per block.
    pub fn block(&self) -> u32 {
        BLOCK
    }
}

/// The element types of one operation: the inputs' and the output's. They
/// differ only for casts and for operations with a `compute` type.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Types {
    pub a: DType,
    pub b: DType,
    pub output: DType,
}

impl Types {
    /// Inputs of one type.
    pub fn new(input: DType, output: DType) -> Types {
        Types {
            a: input,
            b: input,
            output,
        }
    }
}

/// Plans `out = op(a, b)` over `sizes`, or `None` when there is nothing to
/// do (no elements). `op`'s fixed number, if any, replaces the input on its
/// side; operations of one input ignore `b`.
pub(crate) fn plan(
    op: KernelOp,
    types: Types,
    sizes: &[usize],
    out: Operand<'_>,
    a: Input<'_>,
    b: Input<'_>,
) -> Result<Option<Launch>, Error> {
    // (With a size 0 the others may multiply past `usize`.)
    let numel = crate::layout::numel(sizes);
    if numel == 0 {
        return Ok(None);
    }
    let (a, b) = match op.scalar {
        Some((Side::Left, _)) if op.code == OpCode::Constant => (Input::Scalar, Input::Scalar),
        Some((Side::Left, _)) => (Input::Scalar, a),
        Some((Side::Right, _)) => (a, Input::Scalar),
        None if op.code.is_unary() => (a, Input::Scalar),
        None => (a, b),
    };
    // `fill` reads no input: the output's type names its kernel (a map from
    // another type, as the counts of `scatter_reduce`'s `mean`).
    let types = match op.code {
        OpCode::Constant => Types::new(types.output, types.output),
        _ => types,
    };
    let family = op.family();
    // The type the kernel computes in: it names the kernel, and a fixed
    // operand is one of its values.
    let kernel_type = op.compute.unwrap_or(types.a);
    debug_assert!(
        family == Family::Promoted || op.code.is_unary() || types.a == types.b,
        "operands of two types need a compute type"
    );
    let mut args = Args {
        numel: numel as u64,
        op: op.code as i32,
        out_dtype: types.output as i32,
        a_dtype: types.a as i32,
        b_dtype: types.b as i32,
        ..Args::default()
    };
    // `nan_to_num`'s three replacements are numbers of the real part's
    // type, one word each.
    let number_type = match (op.code, kernel_type) {
        (OpCode::NanToNum, DType::C64) => DType::F32,
        (OpCode::NanToNum, DType::C128) => DType::F64,
        (_, t) => t,
    };
    if let Some((_, value)) = op.scalar {
        let [low, high] = scalar_bits(value, number_type);
        args.scalar[..2].copy_from_slice(&[low, high]);
    }
    // `clamp`'s bounds are real numbers of at most 8 bytes: one word each.
    if let Some(upper) = op.upper {
        args.scalar[1] = scalar_bits(upper, number_type)[0];
    }
    if let Some(third) = op.third {
        args.scalar[2] = scalar_bits(third, number_type)[0];
    }
    let inputs = [a, b];
    let (rank, merged) = merge_dimensions(sizes, out, &inputs)?;
    args.rank = rank as i32;
    for (d, &size) in merged.sizes[..rank].iter().enumerate() {
        args.sizes[d] = size as u64;
    }
    args.out = operand_args(out, &merged.strides[0], rank);
    for (k, input) in inputs.iter().enumerate() {
        let (is_scalar, operand) = match input {
            Input::Memory(m) => (0, operand_args(*m, &merged.strides[k + 1], rank)),
            Input::Scalar => (1, OperandArgs::default()),
        };
        if k == 0 {
            (args.a_scalar, args.a) = (is_scalar, operand);
        } else {
            (args.b_scalar, args.b) = (is_scalar, operand);
        }
    }
    let steps = walk(
        args.numel,
        &args.sizes[..rank],
        &[&args.out, &args.a, &args.b],
    );
    (args.narrow, args.magic, args.shift) = (steps.narrow, steps.magic, steps.shift);
    // Elements per vector, as the kernels have them (`run`, `run_compute`,
    // `promoted`): 16 bytes of the widest type, at most 4 elements in the
    // math and special families; for the promoted kernels, 16 bytes of the
    // compute type and at most 4.
    let vec = match family {
        Family::Promoted => (16 / dtype_bytes(kernel_type)).min(4),
        Family::Math | Family::Special => {
            (16 / dtype_bytes(types.a).max(dtype_bytes(types.output))).min(4)
        }
        _ => 16 / dtype_bytes(types.a).max(dtype_bytes(types.output)),
    };
    let mut work = numel as u64;
    if vec > 1 && vectorizable(&args, vec, types) {
        args.vec = vec as i32;
        args.a_inner = (args.a_scalar == 0 && args.a.strides[rank - 1] == 1) as i32;
        args.b_inner = (args.b_scalar == 0 && args.b.strides[rank - 1] == 1) as i32;
        work /= vec as u64;
    } else {
        args.vec = 1;
    }
    Ok(Some(Launch {
        kernel: format!("shaped_{}_{}", family_name(family), dtype_name(kernel_type)),
        args,
        work,
    }))
}

/// Sizes and each operand's strides after merging.
pub(crate) struct Merged<const N: usize> {
    pub rank: usize,
    pub sizes: [usize; MAX_RANK],
    pub strides: [[usize; MAX_RANK]; N],
}

/// Drops size-1 dimensions and merges neighbours that every operand steps
/// through as one (`stride[d] == stride[d + 1] * size[d + 1]`), so that a
/// contiguous operation is one dimension and a broadcast one is two. At
/// least one dimension is left.
pub(crate) fn merge<const N: usize>(
    sizes: &[usize],
    strides: [&[usize]; N],
) -> Result<Merged<N>, Error> {
    let mut dims: Vec<(usize, [usize; N])> = Vec::with_capacity(sizes.len());
    for (d, &size) in sizes.iter().enumerate() {
        if size == 1 {
            continue;
        }
        let steps = strides.map(|s| s[d]);
        // Checked products: the dimensions of a reduction's input left
        // after a size 0 may have any strides and large sizes; a product
        // that overflows does not merge.
        if let Some(last) = dims.last_mut()
            && (0..N).all(|k| steps[k].checked_mul(size) == Some(last.1[k]))
            && let Some(merged) = last.0.checked_mul(size)
        {
            last.0 = merged;
            last.1 = steps;
            continue;
        }
        dims.push((size, steps));
    }
    if dims.is_empty() {
        dims.push((1, [0; N]));
    }
    if dims.len() > MAX_RANK {
        return Err(Error::KernelRank {
            rank: dims.len(),
            max: MAX_RANK,
        });
    }
    let mut merged = Merged {
        rank: dims.len(),
        sizes: [0; MAX_RANK],
        strides: [[0; MAX_RANK]; N],
    };
    for (d, (size, steps)) in dims.iter().enumerate() {
        merged.sizes[d] = *size;
        for (merged, &stride) in merged.strides.iter_mut().zip(steps) {
            merged[d] = stride;
        }
    }
    Ok(merged)
}

/// [`merge`] of an operation's output and inputs (a fixed number steps
/// nowhere: stride 0).
fn merge_dimensions(
    sizes: &[usize],
    out: Operand<'_>,
    inputs: &[Input<'_>; 2],
) -> Result<(usize, Merged<3>), Error> {
    let zeros = vec![0; sizes.len()];
    let [a, b] = inputs.map(|input| match input {
        Input::Memory(m) => m.strides,
        Input::Scalar => &zeros[..],
    });
    let merged = merge(sizes, [out.strides, a, b])?;
    Ok((merged.rank, merged))
}

pub(crate) fn operand_args(
    m: Operand<'_>,
    strides: &[usize; MAX_RANK],
    rank: usize,
) -> OperandArgs {
    let mut args = OperandArgs {
        ptr: m.addr,
        offset: m.offset as u64,
        strides: [0; MAX_RANK],
    };
    for (arg, &stride) in args.strides.iter_mut().zip(&strides[..rank]) {
        *arg = stride as u64;
    }
    args
}

/// Whether every operand allows moving `vec` elements at once along the
/// innermost dimension: the output contiguous there, each input contiguous
/// or broadcast there, every vector aligned to its size.
fn vectorizable(args: &Args, vec: usize, types: Types) -> bool {
    let rank = args.rank as usize;
    let vec = vec as u64;
    if !args.sizes[rank - 1].is_multiple_of(vec) {
        return false;
    }
    let aligned = |o: &OperandArgs, bytes: usize| -> bool {
        let outer = o.strides[..rank - 1].iter().all(|s| s.is_multiple_of(vec));
        let start = o.ptr + o.offset * bytes as u64;
        outer && start.is_multiple_of(vec * bytes as u64)
    };
    if args.out.strides[rank - 1] != 1 || !aligned(&args.out, dtype_bytes(types.output)) {
        return false;
    }
    [
        (args.a_scalar, &args.a, types.a),
        (args.b_scalar, &args.b, types.b),
    ]
    .into_iter()
    .all(|(scalar, o, dtype)| {
        scalar == 1
            || o.strides[rank - 1] == 0
            || (o.strides[rank - 1] == 1 && aligned(o, dtype_bytes(dtype)))
    })
}

/// Whether the kernels may compute element offsets in 32 bits: fewer than
/// 2^31 elements (the range of [`Divisor`]), and every operand's furthest
/// element below offset 2^32 (its walk over `sizes`, the merged sizes).
fn narrow(numel: u64, sizes: &[u64], operands: &[&OperandArgs]) -> bool {
    let reach = |o: &OperandArgs| -> u128 {
        let steps = sizes.iter().zip(&o.strides);
        let far: u128 = steps
            .map(|(&n, &s)| u128::from(n.saturating_sub(1)) * u128::from(s))
            .sum();
        u128::from(o.offset) + far
    };
    numel < Divisor::NARROW && operands.iter().all(|o| reach(o) < 1 << 32)
}

/// How a shape-erased kernel walks from a position to its operands'
/// offsets (`quotient` and the `narrow` branches in
/// `kernels/elementwise.cuh`): in 32 bits when [`narrow`] allows, dividing
/// by every size but the outermost with magic numbers.
#[derive(Copy, Clone, Debug, Default)]
pub(crate) struct Walk {
    pub narrow: i32,
    pub magic: [u32; MAX_RANK],
    pub shift: [u32; MAX_RANK],
}

/// The walk over `sizes` (the merged sizes, one per dimension of the
/// launch) of `operands`.
pub(crate) fn walk(numel: u64, sizes: &[u64], operands: &[&OperandArgs]) -> Walk {
    let mut walk = Walk {
        narrow: i32::from(narrow(numel, sizes, operands)),
        ..Walk::default()
    };
    for (d, &size) in sizes.iter().enumerate().skip(1) {
        // The kernels never divide by the outermost size.
        if let Some(divisor) = usize::try_from(size).ok().and_then(Divisor::new) {
            (walk.magic[d], walk.shift[d]) = (divisor.magic, divisor.shift);
        }
    }
    walk
}

/// Division by a size as the kernels do it for indices below 2^31
/// (`quotient` in `kernels/elementwise.cuh`): `n / size` is
/// `(mul_hi(n, magic) + n) >> shift`, where `mul_hi` is the high word of the
/// 64-bit product. This is Granlund and Montgomery's division by invariant
/// integers, in the form of PyTorch's `IntDivider`: `shift` is the least `s`
/// with `2^s >= size`, and `magic` is `2^32 (2^s - size) / size + 1`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Divisor {
    pub magic: u32,
    pub shift: u32,
}

impl Divisor {
    /// The largest index the kernels divide with 32-bit arithmetic, plus
    /// one (see [`narrow`]): `mul_hi(n, magic) + n` fits 32 bits below it.
    pub const NARROW: u64 = 1 << 31;

    /// The magic numbers of `size`, or `None` for 0 or a size of 2^31 or
    /// more (which only occur where indices are 64-bit).
    pub fn new(size: usize) -> Option<Divisor> {
        let size = u64::try_from(size)
            .ok()
            .filter(|s| (1..Self::NARROW).contains(s))?;
        let shift = u64::BITS - (size - 1).leading_zeros();
        let magic = ((1u64 << 32) * ((1u64 << shift) - size)) / size + 1;
        Some(Divisor {
            magic: u32::try_from(magic).ok()?,
            shift,
        })
    }

    /// `n / size`, as the kernels compute it, for `n < 2^31` (what the tests
    /// check against `/`).
    #[cfg(test)]
    pub fn divide(self, n: u32) -> u32 {
        let high = ((u64::from(n) * u64::from(self.magic)) >> 32) as u32;
        (high + n) >> self.shift
    }
}

/// `value` as the bytes of an element of `dtype`, as the kernels read it.
/// The value came from an element of that type, so the conversion is exact.
pub(crate) fn scalar_bits(value: Scalar, dtype: DType) -> [u64; 2] {
    let (re, im) = match value {
        Scalar::Bool(b) => (f64::from(u8::from(b)), 0.0),
        Scalar::Int(i) => {
            return [int_bits(i, dtype), 0];
        }
        Scalar::Float(x) => (x, 0.0),
        Scalar::Complex(re, im) => (re, im),
    };
    match dtype {
        DType::F16 => [u64::from(half::f16::from_f64(re).to_bits()), 0],
        DType::BF16 => [u64::from(half::bf16::from_f64(re).to_bits()), 0],
        DType::F32 => [u64::from((re as f32).to_bits()), 0],
        DType::F64 => [re.to_bits(), 0],
        DType::C64 => [
            u64::from((re as f32).to_bits()) | u64::from((im as f32).to_bits()) << 32,
            0,
        ],
        DType::C128 => [re.to_bits(), im.to_bits()],
        _ => [int_bits(re as i64, dtype), 0],
    }
}

/// An integer (or bool) as the little-endian bytes of `dtype`.
fn int_bits(i: i64, dtype: DType) -> u64 {
    let bytes = dtype_bytes(dtype) as u32 * 8;
    (i as u64) & (u64::MAX >> (64 - bytes))
}

/// The size of one element of `dtype`, in bytes.
pub(crate) fn dtype_bytes(dtype: DType) -> usize {
    match dtype {
        DType::U8 | DType::I8 | DType::Bool => 1,
        DType::F16 | DType::BF16 | DType::I16 => 2,
        DType::F32 | DType::I32 => 4,
        DType::F64 | DType::I64 | DType::C64 => 8,
        DType::C128 => 16,
    }
}

fn family_name(family: Family) -> &'static str {
    match family {
        Family::Arith => "arith",
        Family::Compare => "compare",
        Family::Unary => "unary",
        Family::Cast => "cast",
        Family::Promoted => "promoted",
        Family::Math => "math",
        Family::Special => "special",
    }
}

/// The kernels' names for the element types.
pub(crate) fn dtype_name(dtype: DType) -> &'static str {
    match dtype {
        DType::F16 => "f16",
        DType::BF16 => "bf16",
        DType::F32 => "f32",
        DType::F64 => "f64",
        DType::C64 => "c64",
        DType::C128 => "c128",
        DType::U8 => "u8",
        DType::I8 => "i8",
        DType::I16 => "i16",
        DType::I32 => "i32",
        DType::I64 => "i64",
        DType::Bool => "bool",
    }
}

/// Queues a planned launch on a device's stream.
pub(crate) fn launch_on(state: &DeviceState, launch: &Launch) -> Result<(), Error> {
    state.make_current()?;
    let function = state.function(&launch.kernel)?;
    let grid = launch.grid(state.resident_blocks(&launch.kernel, &function, BLOCK)?);
    // SAFETY: the elementwise kernels take one `shaped::Args` by value,
    // which `Args` mirrors field for field (`repr(C)`, checked by the host
    // tests). The addresses in it are live device buffers of the operands'
    // element types, borrowed by the caller for the operation, and every
    // index the plan reaches lies inside them (the layouts of the tensors
    // they came from do).
    unsafe { queue(state, &function, grid, launch.block(), launch.args) }
}

/// Queues `function` on the device's stream with `args` as its one
/// parameter. Work on the stream runs in order, so later frees and copies
/// wait for the kernel.
///
/// # Safety
/// The kernel takes exactly one parameter, of the C type that `A` mirrors
/// (`repr(C)`), and every address in `args` is a live device buffer holding
/// every element the kernel reaches with these arguments, freed (if at all)
/// only after this call (a free queues behind the kernel).
pub(crate) unsafe fn queue<A: Copy>(
    state: &DeviceState,
    function: &cust::function::Function<'_>,
    grid: u32,
    block: u32,
    args: A,
) -> Result<(), Error> {
    // SAFETY: the caller's contract.
    unsafe { queue_with_shared(state, function, grid, block, 0, args) }
}

/// [`queue`] with `shared` bytes of dynamic shared memory per block.
///
/// # Safety
/// As [`queue`]; a kernel that declares dynamic shared memory reaches at
/// most `shared` bytes of it with these arguments.
pub(crate) unsafe fn queue_with_shared<A: Copy>(
    state: &DeviceState,
    function: &cust::function::Function<'_>,
    grid: u32,
    block: u32,
    shared: u32,
    args: A,
) -> Result<(), Error> {
    let mut args = args;
    let params = [(&mut args as *mut A).cast::<c_void>()];
    // SAFETY: the caller's contract; the driver copies the parameter before
    // returning.
    unsafe { state.stream.launch(function, grid, block, shared, &params) }
        .map_err(cuda_error("launching a kernel"))
}
