//! Casts and mixed-dtype operations of the host-compiled kernels, for every
//! pair of the twelve dtypes, against the CPU backend through [`AnyTensor`]
//! (whose operations convert both operands to the common type, as PyTorch
//! does, and whose `to_dtype` is the CPU cast).
//!
//! Each operand lives in a host buffer of its own dtype, read by the kernel
//! through the layouts of [`PAIRS`] (broadcast, transposed, offset, stride
//! 0, size 0, rank 0); the CPU side gets the same elements gathered.

use super::host_tests::{
    PAIRS, Spec, UPDATE_OUTS, UPDATE_RHS, broadcast_pair, contiguous, data, host_run, spec,
};
use super::launch::{Input, Operand, Types, plan};
use crate::dtype::promote::OperandKind;
use crate::dtype::{DType, Element, Scalar, with_dtype};
use crate::dynamic::{AnyTensor, DynTensor};
use crate::error::Error;
use crate::ops::broadcast_strides;
use crate::ops::op_codes::{KernelOp, OpCode, Side};
use core::any::Any;
use num_complex::Complex;

/// Values at the edges of the conversions: NaN, infinities, signed zero,
/// halfway cases of float16 and bfloat16, values out of the integer types'
/// range (which wrap through int64) and beyond int64 (which saturate), with
/// imaginary parts.
const EDGES: [(f64, f64); 16] = [
    (f64::NAN, 1.0),
    (f64::INFINITY, 0.0),
    (f64::NEG_INFINITY, -2.0),
    (-0.0, 0.0),
    (0.0, -0.0),
    (300.7, 0.0),
    (-129.5, 3.0),
    (65520.0, 0.0),
    (65519.0, f64::NAN),
    (1.0 + 1.0 / 2048.0, 0.0),
    (1.0 + 1.0 / 256.0, 0.25),
    (1e10, 0.0),
    (-1e19, 0.0),
    (3.5e38, 0.0),
    (1e-8, 1e-40),
    (-2.5, 0.0),
];

/// One operand: a host buffer of its dtype (kept alive), and the elements
/// its layout addresses, gathered into a contiguous tensor for the CPU.
pub(super) struct HostOperand {
    pub(super) addr: u64,
    buffer: Box<dyn Any>,
    pub(super) gathered: AnyTensor,
}

impl HostOperand {
    /// The buffer as a kernel's input, from `offset` with `strides`.
    pub(super) fn input<'a>(&self, offset: usize, strides: &'a [usize]) -> Input<'a> {
        Input::Memory(Operand {
            addr: self.addr,
            offset,
            strides,
        })
    }
}

fn operand_from<T: Element>(values: Vec<T>, s: Spec) -> HostOperand
where
    AnyTensor: From<DynTensor<T>>,
{
    let all = DynTensor::<T>::from_vec_with(values.clone(), &[s.len]).unwrap();
    let view = all.as_strided(s.sizes, s.strides, s.offset).unwrap();
    let gathered = DynTensor::<T>::from_vec_with(view.to_vec(), s.sizes).unwrap();
    HostOperand {
        addr: values.as_ptr() as u64,
        buffer: Box::new(values),
        gathered: gathered.into(),
    }
}

/// `s.len` sample values of `dtype` (as the other host tests make them),
/// seen through `s`.
pub(super) fn sample_operand(dtype: DType, s: Spec, seed: usize) -> HostOperand {
    with_dtype!(dtype, T => operand_from(data::<T>(s.len, seed), s))
}

/// The [`EDGES`] converted to `dtype` by the CPU, as a 16-element operand.
pub(super) fn edge_operand(dtype: DType) -> HostOperand {
    edge_operand_as(dtype, spec(16, &[16], &[1], 0))
}

/// The [`EDGES`] of `dtype` seen through `s` (16 elements long).
pub(super) fn edge_operand_as(dtype: DType, s: Spec) -> HostOperand {
    let values: Vec<Complex<f64>> = EDGES.iter().map(|&(re, im)| Complex::new(re, im)).collect();
    let edges = AnyTensor::from(DynTensor::from_vec_with(values, &[16]).unwrap()).to_dtype(dtype);
    with_dtype!(dtype, T => {
        let values = edges.downcast_ref::<T>().unwrap().to_vec();
        operand_from(values, s)
    })
}

/// A zeroed host buffer of `n` elements of `dtype`.
fn outputbuffer(dtype: DType, n: usize) -> (u64, Box<dyn Any>) {
    with_dtype!(dtype, T => {
        let v = vec![T::ZERO; n];
        (v.as_ptr() as u64, Box::new(v) as Box<dyn Any>)
    })
}

/// The output buffer as a tensor of `sizes`.
fn output_tensor(dtype: DType, buffer: Box<dyn Any>, sizes: &[usize]) -> AnyTensor {
    with_dtype!(dtype, T => {
        let v = *buffer.downcast::<Vec<T>>().unwrap();
        AnyTensor::from(DynTensor::<T>::from_vec_with(v, sizes).unwrap())
    })
}

/// Equal values (NaN matching NaN, in each part), dtypes and shapes.
pub(super) fn assert_same(got: &AnyTensor, want: &AnyTensor, what: &str) {
    assert_eq!(got.dtype(), want.dtype(), "{what}: dtype");
    assert_eq!(got.shape(), want.shape(), "{what}: shape");
    let same_float = |x: f64, y: f64| x == y || (x.is_nan() && y.is_nan());
    for (k, (g, w)) in got
        .to_scalars()
        .into_iter()
        .zip(want.to_scalars())
        .enumerate()
    {
        let same = match (g, w) {
            (Scalar::Float(x), Scalar::Float(y)) => same_float(x, y),
            (Scalar::Complex(a, b), Scalar::Complex(c, d)) => same_float(a, c) && same_float(b, d),
            (g, w) => g == w,
        };
        assert!(same, "{what}: element {k}: got {g:?}, want {w:?}");
    }
}

/// Runs a plan on the host into a new contiguous buffer of `output` of
/// `sizes`.
pub(super) fn run_planned(
    op: KernelOp,
    types: Types,
    sizes: &[usize],
    a: Input<'_>,
    b: Input<'_>,
) -> AnyTensor {
    let n = sizes.iter().product();
    let (addr, buffer) = outputbuffer(types.output, n);
    let strides = contiguous(sizes);
    let out = Operand {
        addr,
        offset: 0,
        strides: &strides,
    };
    if let Some(launch) = plan(op, types, sizes, out, a, b).unwrap() {
        host_run(&launch);
    }
    output_tensor(types.output, buffer, sizes)
}

pub(super) fn kind(rank: usize) -> OperandKind {
    if rank == 0 {
        OperandKind::ZeroDim
    } else {
        OperandKind::Dimensioned
    }
}

/// Every single-operand layout of [`PAIRS`].
pub(super) fn layouts() -> impl Iterator<Item = Spec> {
    PAIRS.iter().flat_map(|&(a, b)| [a, b])
}

/// `x.cast::<U>()` for every pair of dtypes, every layout (the vectorized
/// path included) and the edge values.
#[test]
fn host_casts_every_pair_of_dtypes() {
    let mut cases = 0;
    for from in DType::ALL {
        let mut operands: Vec<HostOperand> =
            layouts().map(|s| sample_operand(from, s, 3)).collect();
        let mut specs: Vec<Spec> = layouts().collect();
        operands.push(edge_operand(from));
        specs.push(spec(16, &[16], &[1], 0));
        for to in DType::ALL {
            for (x, s) in operands.iter().zip(&specs) {
                let a = x.input(s.offset, s.strides);
                let op = KernelOp::new(OpCode::Cast);
                let got = run_planned(op, Types::new(from, to), s.sizes, a, a);
                assert_same(
                    &got,
                    &x.gathered.to_dtype(to),
                    &format!("{from} -> {to} {s:?}"),
                );
                cases += 1;
            }
        }
    }
    assert_eq!(cases, 144 * (2 * PAIRS.len() + 1));
}

/// The binary operations, as `AnyTensor` names them: first those that also
/// take a plain number ([`WITH_NUMBERS`] of them), then `maximum`,
/// `minimum` (tensors only) and `pow` (whose number form is `PowScalar`,
/// host_math_tests.rs).
const OPS: [OpCode; 13] = [
    OpCode::Add,
    OpCode::Sub,
    OpCode::Mul,
    OpCode::Div,
    OpCode::Eq,
    OpCode::Ne,
    OpCode::Lt,
    OpCode::Le,
    OpCode::Gt,
    OpCode::Ge,
    OpCode::Maximum,
    OpCode::Minimum,
    OpCode::Pow,
];

/// How many of [`OPS`] take a plain number as an operand.
const WITH_NUMBERS: usize = 10;

/// The CPU result of `a op b` (`AnyTensor`'s runtime promotion).
pub(super) fn cpu_binary<'a>(
    a: &AnyTensor,
    b: impl Into<crate::dynamic::Operand<'a>>,
    op: OpCode,
) -> Result<AnyTensor, Error> {
    match op {
        OpCode::Add => a.try_add(b),
        OpCode::Sub => a.try_sub(b),
        OpCode::Mul => a.try_mul(b),
        OpCode::Div => a.try_div(b),
        OpCode::Eq => a.try_eq(b),
        OpCode::Ne => a.try_ne(b),
        OpCode::Lt => a.try_lt(b),
        OpCode::Le => a.try_le(b),
        OpCode::Gt => a.try_gt(b),
        OpCode::Ge => a.try_ge(b),
        OpCode::Maximum | OpCode::Minimum => {
            let crate::dynamic::Operand::Tensor(b) = b.into() else {
                unreachable!("maximum and minimum take two tensors")
            };
            match op {
                OpCode::Maximum => a.try_maximum(&b),
                _ => a.try_minimum(&b),
            }
        }
        OpCode::Pow => a.try_pow(b),
        _ => unreachable!("{op:?} is not a binary operation"),
    }
}

/// Layouts small enough for the CPU reference in a debug build, which runs
/// 144 dtype pairs by 10 operations on each.
pub(super) fn small(s: &Spec) -> bool {
    s.len <= 6144
}

/// `a op b` for every pair of dtypes (both tensors), every operation the
/// pair supports, every small pair of layouts in both orders: computed in
/// PyTorch's common type (with the rank-0 rule where one operand has rank 0)
/// by the converting kernel, which reads each operand in its own dtype.
#[test]
fn host_promoted_operations_every_pair_of_dtypes() {
    let mut cases = 0;
    for ta in DType::ALL {
        for tb in DType::ALL {
            for (k, &(sa, sb)) in PAIRS.iter().enumerate() {
                if !small(&sa) || !small(&sb) {
                    continue;
                }
                for (sa, sb) in [(sa, sb), (sb, sa)] {
                    let (xa, xb) = (sample_operand(ta, sa, 1), sample_operand(tb, sb, 7));
                    let (sizes, st_a, st_b) = broadcast_pair(sa, sb);
                    let common =
                        DType::result_type((ta, kind(sa.sizes.len())), (tb, kind(sb.sizes.len())));
                    for op in OPS {
                        // Bool subtraction and ordered complex comparisons
                        // are errors (the CPU says which).
                        let Ok(want) = cpu_binary(&xa.gathered, &xb.gathered, op) else {
                            continue;
                        };
                        let (a, b) = (xa.input(sa.offset, &st_a), xb.input(sb.offset, &st_b));
                        let types = Types {
                            a: ta,
                            b: tb,
                            output: want.dtype(),
                        };
                        let kernel_op = KernelOp::new(op).computed_in(common);
                        let got = run_planned(kernel_op, types, &sizes, a, b);
                        assert_same(&got, &want, &format!("{ta} {op:?} {tb}, case {k}"));
                        cases += 1;
                    }
                }
            }
        }
    }
    // 144 pairs: 10 operations for 81 real pairs without bool, ...
    assert!(cases > 144 * 6 * 2 * 10, "{cases} cases");
}

/// The dtype a plain number stands for before its category's default.
fn number_dtype(value: Scalar) -> DType {
    match value {
        Scalar::Bool(_) => DType::Bool,
        Scalar::Int(_) => DType::I64,
        Scalar::Float(_) => DType::F64,
        Scalar::Complex(..) => DType::C128,
    }
}

/// `value` converted to `dtype` by the CPU, as the operators convert a
/// number before it becomes the kernel's fixed operand.
pub(super) fn number_as(value: Scalar, dtype: DType) -> Scalar {
    fn one<T: Element>(x: T) -> AnyTensor
    where
        AnyTensor: From<DynTensor<T>>,
    {
        AnyTensor::from(DynTensor::<T>::from_vec_with(vec![x], &[]).unwrap())
    }
    let one = match value {
        Scalar::Bool(b) => one(b),
        Scalar::Int(i) => one(i),
        Scalar::Float(x) => one(x),
        Scalar::Complex(re, im) => one(Complex::new(re, im)),
    };
    one.to_dtype(dtype).to_scalars()[0]
}

/// `x op number` for every dtype, number kind and operation: the number,
/// converted to the common type on the host, is the kernel's fixed operand;
/// the tensor is converted in the kernel when its dtype is not the common
/// one (else the same-type kernel runs, as the operators choose).
#[test]
fn host_promoted_numbers_every_dtype() {
    let numbers = [
        Scalar::Bool(true),
        Scalar::Int(-3),
        Scalar::Int(300),
        Scalar::Float(2.5),
        Scalar::Float(-0.0),
        Scalar::Complex(1.5, -2.0),
    ];
    let mut cases = 0;
    for ta in DType::ALL {
        for s in layouts().filter(small) {
            let x = sample_operand(ta, s, 4);
            let a = x.input(s.offset, s.strides);
            for number in numbers {
                let common = DType::result_type(
                    (ta, kind(s.sizes.len())),
                    (number_dtype(number), OperandKind::Scalar),
                );
                for &op in &OPS[..WITH_NUMBERS] {
                    let Ok(want) = cpu_binary(&x.gathered, number, op) else {
                        continue;
                    };
                    let mut kernel_op =
                        KernelOp::new(op).with_scalar(Side::Right, number_as(number, common));
                    if ta != common {
                        kernel_op = kernel_op.computed_in(common);
                    }
                    let types = Types::new(ta, want.dtype());
                    let got = run_planned(kernel_op, types, s.sizes, a, a);
                    assert_same(&got, &want, &format!("{ta} {op:?} {number:?} {s:?}"));
                    cases += 1;
                }
            }
        }
    }
    assert!(cases > 12 * 6 * 6, "{cases} cases");
}

/// `x op= y` for every pair of dtypes that PyTorch allows (the result type
/// castable to `x`'s), computed in the common type and stored back as `x`'s
/// dtype, into strided, offset and transposed outputs with `y` broadcast.
#[test]
fn host_promoted_in_place_every_pair_of_dtypes() {
    let mut cases = 0;
    for tx in DType::ALL {
        for ty in DType::ALL {
            for (so, sy) in UPDATE_OUTS.iter().zip(UPDATE_RHS) {
                for op in [OpCode::Add, OpCode::Sub, OpCode::Mul, OpCode::Div] {
                    let x = sample_operand(tx, *so, 2);
                    let y = sample_operand(ty, sy, 5);
                    let mut want = x.gathered.clone();
                    let done = match op {
                        OpCode::Add => want.try_add_assign(&y.gathered),
                        OpCode::Sub => want.try_sub_assign(&y.gathered),
                        OpCode::Mul => want.try_mul_assign(&y.gathered),
                        _ => want.try_div_assign(&y.gathered),
                    };
                    if done.is_err() {
                        continue;
                    }
                    let mut st_y = vec![0; so.sizes.len()];
                    broadcast_strides(sy.sizes, sy.strides, so.sizes, &mut st_y);
                    let target = Operand {
                        addr: x.addr,
                        offset: so.offset,
                        strides: so.strides,
                    };
                    let b = y.input(sy.offset, &st_y);
                    let common =
                        DType::result_type((tx, kind(so.sizes.len())), (ty, kind(sy.sizes.len())));
                    let types = Types {
                        a: tx,
                        b: ty,
                        output: tx,
                    };
                    let kernel_op = KernelOp::new(op).computed_in(common);
                    let launch = plan(kernel_op, types, so.sizes, target, Input::Memory(target), b)
                        .unwrap()
                        .unwrap();
                    host_run(&launch);
                    // The kernel wrote into x's buffer: read it through the
                    // same layout.
                    let got = with_dtype!(tx, T => {
                        let buffer = x.buffer.downcast_ref::<Vec<T>>().unwrap();
                        operand_from(buffer.clone(), *so).gathered
                    });
                    assert_same(&got, &want, &format!("{tx} {op:?}= {ty} {so:?}"));
                    cases += 1;
                }
            }
        }
    }
    assert!(cases > 4 * 100, "{cases} cases");
}

/// The edge values through every mixed operation pair: conversions of NaN,
/// infinities and out-of-range values on the way in.
#[test]
fn host_promoted_operations_on_edge_values() {
    let s = spec(16, &[16], &[1], 0);
    let mut cases = 0;
    for ta in DType::ALL {
        for tb in DType::ALL {
            let (xa, xb) = (edge_operand(ta), sample_operand(tb, s, 2));
            let common = DType::promote(ta, tb);
            for op in OPS {
                let Ok(want) = cpu_binary(&xa.gathered, &xb.gathered, op) else {
                    continue;
                };
                let memory = |x: &HostOperand| x.input(0, s.strides);
                let (a, b) = (memory(&xa), memory(&xb));
                let types = Types {
                    a: ta,
                    b: tb,
                    output: want.dtype(),
                };
                let got = run_planned(KernelOp::new(op).computed_in(common), types, s.sizes, a, b);
                assert_same(&got, &want, &format!("edges {ta} {op:?} {tb}"));
                cases += 1;
            }
        }
    }
    assert!(cases > 144 * 5, "{cases} cases");
}
