//! `where(cond, a, b)` on CUDA: one launch of `shaped_where_<output dtype>`
//! (`kernels/select.cuh`), which converts `a`'s and `b`'s elements to the
//! output's type as it loads them; and the functions of three tensors
//! (`lerp`, `addcmul`, `addcdiv`), one launch of `shaped_ternary_<dtype>`,
//! the same way.
//!
//! The planning knows nothing of devices, so the tests run the same plans
//! through the kernels compiled for the host.

use super::launch::{MAX_RANK, Operand, OperandArgs, dtype_name, merge, operand_args, walk};
use crate::dtype::{DType, Scalar};
use crate::error::Error;
use crate::ops::op_codes::TernaryOp;

/// The argument block of the `where` kernels (`shaped::WhereArgs`).
#[repr(C)]
#[derive(Copy, Clone, Debug, Default)]
pub(crate) struct WhereArgs {
    pub(crate) numel: u64,
    pub(crate) sizes: [u64; MAX_RANK],
    pub(crate) out: OperandArgs,
    pub(crate) cond: OperandArgs,
    pub(crate) a: OperandArgs,
    pub(crate) b: OperandArgs,
    pub(crate) rank: i32,
    pub(crate) a_dtype: i32,
    pub(crate) b_dtype: i32,
    pub(crate) narrow: i32,
    pub(crate) magic: [u32; MAX_RANK],
    pub(crate) shift: [u32; MAX_RANK],
}

/// A planned `where`.
#[derive(Clone, Debug)]
pub(crate) struct WhereLaunch {
    /// The kernel's name in the module.
    pub kernel: String,
    pub args: WhereArgs,
}

impl WhereLaunch {
    /// Blocks of `block` threads for one element per thread, at most
    /// `max_blocks` (the loop strides over the rest).
    pub fn grid(&self, block: u32, max_blocks: u32) -> u32 {
        let blocks = self.args.numel.div_ceil(u64::from(block)).max(1);
        u32::try_from(blocks).unwrap_or(u32::MAX).min(max_blocks)
    }
}

/// The operands of a `where`: the output (of `output`'s dtype), the bool
/// condition, and `a` and `b` of their dtypes, all broadcast to the sizes.
#[derive(Copy, Clone, Debug)]
pub(crate) struct WhereOperands<'a> {
    pub output: DType,
    pub out: Operand<'a>,
    pub cond: Operand<'a>,
    pub a: (DType, Operand<'a>),
    pub b: (DType, Operand<'a>),
}

/// Plans `out = where(cond, a, b)` over `sizes`, or `None` when there are
/// no elements.
pub(crate) fn plan_where(
    sizes: &[usize],
    x: WhereOperands<'_>,
) -> Result<Option<WhereLaunch>, Error> {
    // (With a size 0 the others may multiply past `usize`.)
    let numel = crate::layout::numel(sizes);
    if numel == 0 {
        return Ok(None);
    }
    let operands = [x.out, x.cond, x.a.1, x.b.1];
    let merged = merge(sizes, operands.map(|o| o.strides))?;
    let rank = merged.rank;
    let mut args = WhereArgs {
        numel: numel as u64,
        rank: rank as i32,
        a_dtype: x.a.0 as i32,
        b_dtype: x.b.0 as i32,
        ..WhereArgs::default()
    };
    for (arg, &size) in args.sizes.iter_mut().zip(&merged.sizes[..rank]) {
        *arg = size as u64;
    }
    [args.out, args.cond, args.a, args.b] =
        [0, 1, 2, 3].map(|k| operand_args(operands[k], &merged.strides[k], rank));
    let steps = walk(
        args.numel,
        &args.sizes[..rank],
        &[&args.out, &args.cond, &args.a, &args.b],
    );
    (args.narrow, args.magic, args.shift) = (steps.narrow, steps.magic, steps.shift);
    Ok(Some(WhereLaunch {
        kernel: format!("shaped_where_{}", dtype_name(x.output)),
        args,
    }))
}

/// The argument block of the kernels of three operands
/// (`shaped::TernaryArgs`).
#[repr(C)]
#[derive(Copy, Clone, Debug, Default)]
pub(crate) struct TernaryArgs {
    pub(crate) numel: u64,
    pub(crate) sizes: [u64; MAX_RANK],
    pub(crate) out: OperandArgs,
    pub(crate) a: OperandArgs,
    pub(crate) b: OperandArgs,
    pub(crate) c: OperandArgs,
    pub(crate) value_re: f64,
    pub(crate) value_im: f64,
    pub(crate) value_int: i64,
    pub(crate) value_kind: i32,
    pub(crate) rank: i32,
    pub(crate) a_dtype: i32,
    pub(crate) b_dtype: i32,
    pub(crate) c_dtype: i32,
    pub(crate) op: i32,
    pub(crate) narrow: i32,
    pub(crate) magic: [u32; MAX_RANK],
    pub(crate) shift: [u32; MAX_RANK],
}

/// A planned launch of `shaped_ternary_<dtype>`.
#[derive(Clone, Debug)]
pub(crate) struct TernaryLaunch {
    /// The kernel's name in the module.
    pub kernel: String,
    pub args: TernaryArgs,
}

impl TernaryLaunch {
    /// Blocks of `block` threads for one element per thread, at most
    /// `max_blocks` (the loop strides over the rest).
    pub fn grid(&self, block: u32, max_blocks: u32) -> u32 {
        let blocks = self.args.numel.div_ceil(u64::from(block)).max(1);
        u32::try_from(blocks).unwrap_or(u32::MAX).min(max_blocks)
    }
}

/// The operands of a function of three tensors: the output (of `output`'s
/// dtype, which the function computes in), and `a`, `b`, `c` of their
/// dtypes, all broadcast to the sizes (`out` may be `a`: in place).
#[derive(Copy, Clone, Debug)]
pub(crate) struct TernaryOperands<'a> {
    pub output: DType,
    pub out: Operand<'a>,
    pub a: (DType, Operand<'a>),
    pub b: (DType, Operand<'a>),
    pub c: (DType, Operand<'a>),
}

/// Plans `out = op(a, b, c)` over `sizes`, or `None` when there are no
/// elements.
pub(crate) fn plan_ternary(
    sizes: &[usize],
    op: TernaryOp,
    x: TernaryOperands<'_>,
) -> Result<Option<TernaryLaunch>, Error> {
    let numel = crate::layout::numel(sizes);
    if numel == 0 {
        return Ok(None);
    }
    let operands = [x.out, x.a.1, x.b.1, x.c.1];
    let merged = merge(sizes, operands.map(|o| o.strides))?;
    let rank = merged.rank;
    let (value_kind, value_re, value_im, value_int) = match op.value {
        Scalar::Bool(b) => (1, 0.0, 0.0, i64::from(b)),
        Scalar::Int(i) => (1, 0.0, 0.0, i),
        Scalar::Float(f) => (0, f, 0.0, 0),
        Scalar::Complex(re, im) => (2, re, im, 0),
    };
    let mut args = TernaryArgs {
        numel: numel as u64,
        rank: rank as i32,
        a_dtype: x.a.0 as i32,
        b_dtype: x.b.0 as i32,
        c_dtype: x.c.0 as i32,
        op: op.code as i32,
        value_kind,
        value_re,
        value_im,
        value_int,
        ..TernaryArgs::default()
    };
    for (arg, &size) in args.sizes.iter_mut().zip(&merged.sizes[..rank]) {
        *arg = size as u64;
    }
    [args.out, args.a, args.b, args.c] =
        [0, 1, 2, 3].map(|k| operand_args(operands[k], &merged.strides[k], rank));
    let steps = walk(
        args.numel,
        &args.sizes[..rank],
        &[&args.out, &args.a, &args.b, &args.c],
    );
    (args.narrow, args.magic, args.shift) = (steps.narrow, steps.magic, steps.shift);
    Ok(Some(TernaryLaunch {
        kernel: format!("shaped_ternary_{}", dtype_name(x.output)),
        args,
    }))
}
