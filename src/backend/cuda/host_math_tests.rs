//! The math kernels (`kernels/math.cuh`) compiled for the host, against the
//! CPU backend through [`AnyTensor`]: every function on every dtype that has
//! it, on every layout of [`PAIRS`] (the vectorized path included) and on
//! the edge values (NaN, infinities, signed zeros, huge and tiny numbers).
//! On the host the kernels call the same libm as Rust, so results match bit
//! for bit (NaN matching any NaN). Mixed-dtype `maximum`, `minimum` and
//! `pow` run in `host_conversion_tests.rs`, with the other promoted
//! operations.

use super::host_conversion_tests::{
    HostOperand, assert_same, cpu_binary, edge_operand, edge_operand_as, kind, layouts, number_as,
    run_planned, sample_operand,
};
use super::host_tests::{PAIRS, Spec, broadcast_pair, spec};
use super::launch::{Input, Types};
use crate::dtype::promote::OperandKind;
use crate::dtype::{DType, Scalar};
use crate::dynamic::AnyTensor;
use crate::error::Error;
use crate::ops::op_codes::{KernelOp, OpCode, Side};

/// A function's CPU form.
type CpuForm = fn(&AnyTensor) -> Result<AnyTensor, Error>;

/// The functions of one tensor, with their CPU forms.
const UNARY: [(OpCode, CpuForm); 42] = [
    (OpCode::Exp, AnyTensor::exp),
    (OpCode::Ln, AnyTensor::ln),
    (OpCode::Log2, AnyTensor::log2),
    (OpCode::Sqrt, AnyTensor::sqrt),
    (OpCode::Sin, AnyTensor::sin),
    (OpCode::Cos, AnyTensor::cos),
    (OpCode::Tanh, AnyTensor::tanh),
    (OpCode::Sigmoid, AnyTensor::sigmoid),
    (OpCode::Recip, AnyTensor::recip),
    (OpCode::Abs, AnyTensor::abs),
    (OpCode::Floor, AnyTensor::floor),
    (OpCode::Ceil, AnyTensor::ceil),
    (OpCode::Round, AnyTensor::round),
    (OpCode::Relu, AnyTensor::relu),
    (OpCode::Tan, AnyTensor::tan),
    (OpCode::Asin, AnyTensor::asin),
    (OpCode::Acos, AnyTensor::acos),
    (OpCode::Atan, AnyTensor::atan),
    (OpCode::Sinh, AnyTensor::sinh),
    (OpCode::Cosh, AnyTensor::cosh),
    (OpCode::Asinh, AnyTensor::asinh),
    (OpCode::Acosh, AnyTensor::acosh),
    (OpCode::Atanh, AnyTensor::atanh),
    (OpCode::Exp2, AnyTensor::exp2),
    (OpCode::Expm1, AnyTensor::expm1),
    (OpCode::Log10, AnyTensor::log10),
    (OpCode::Log1p, AnyTensor::log1p),
    (OpCode::Rsqrt, AnyTensor::rsqrt),
    (OpCode::Erf, AnyTensor::erf),
    (OpCode::Erfc, AnyTensor::erfc),
    (OpCode::Erfinv, AnyTensor::erfinv),
    (OpCode::Lgamma, AnyTensor::lgamma),
    (OpCode::Digamma, AnyTensor::digamma),
    (OpCode::Deg2rad, AnyTensor::deg2rad),
    (OpCode::Rad2deg, AnyTensor::rad2deg),
    (OpCode::Sinc, AnyTensor::sinc),
    (OpCode::Trunc, AnyTensor::trunc),
    (OpCode::Frac, AnyTensor::frac),
    (OpCode::Sign, AnyTensor::sign),
    (OpCode::Signbit, AnyTensor::signbit),
    (OpCode::Sgn, AnyTensor::sgn),
    (OpCode::Square, AnyTensor::square),
];

/// Every layout's sample operand and the edge values, of `dtype`.
fn operands(dtype: DType) -> Vec<(HostOperand, Spec)> {
    let mut all: Vec<(HostOperand, Spec)> = layouts()
        .map(|s| (sample_operand(dtype, s, 5), s))
        .collect();
    all.push((edge_operand(dtype), spec(16, &[16], &[1], 0)));
    all
}

/// Runs `op` (with `x` as its tensor operand) on the host and compares
/// with `want`.
fn check(op: KernelOp, x: &HostOperand, s: Spec, want: &AnyTensor, what: &str) {
    let a = x.input(s.offset, s.strides);
    let types = Types::new(x.gathered.dtype(), want.dtype());
    let got = run_planned(op, types, s.sizes, a, a);
    assert_same(&got, want, what);
}

#[test]
fn host_unary_math_every_dtype() {
    let mut cases = 0;
    for dtype in DType::ALL {
        for (x, s) in operands(dtype) {
            for (code, cpu) in UNARY {
                // What the CPU refuses (`abs` of bool, `floor` of complex
                // values, ...) has no kernel: the types never ask for it.
                let Ok(want) = cpu(&x.gathered) else {
                    continue;
                };
                let what = format!("{code:?} {dtype} {s:?}");
                check(KernelOp::new(code), &x, s, &want, &what);
                cases += 1;
            }
        }
    }
    // 23 floating functions, sinc, sgn and square on all 12 dtypes, abs on
    // 11, rounding, trunc and relu on the 9 real non-bool ones, the special
    // functions, sign and signbit on the 10 real ones, frac on 4, on every
    // layout.
    let per_layout = 26 * 12 + 11 + 5 * 9 + 9 * 10 + 4;
    assert_eq!(cases, per_layout * (2 * PAIRS.len() + 1));
}

/// `nan_to_num` with PyTorch's default replacements and given ones, on
/// every dtype (the replacements of a complex type are of its parts' type).
#[test]
fn host_nan_to_num_every_dtype() {
    let mut cases = 0;
    for (nan, posinf, neginf) in [
        (0.0, None, None),
        (1.5, Some(100.0), Some(-7.25)),
        (-1.0, Some(1e10), None),
    ] {
        for dtype in DType::ALL {
            for (x, s) in operands(dtype) {
                let want = x.gathered.nan_to_num(nan, posinf, neginf).unwrap();
                let op = nan_to_num_op(dtype, nan, posinf, neginf);
                check(op, &x, s, &want, &format!("nan_to_num {nan} {dtype} {s:?}"));
                cases += 1;
            }
        }
    }
    assert_eq!(cases, 3 * 12 * (2 * PAIRS.len() + 1));
}

/// The kernel of `nan_to_num` on `dtype`, as the typed method builds it.
fn nan_to_num_op(dtype: DType, nan: f64, posinf: Option<f64>, neginf: Option<f64>) -> KernelOp {
    use crate::dtype::special::NanToNum;
    use crate::ops::functions::UnaryFn;
    use crate::ops::pointwise::ReplaceNonFinite;
    use half::{bf16, f16};
    use num_complex::Complex;
    fn op_of<T: NanToNum>(nan: f64, posinf: Option<f64>, neginf: Option<f64>) -> KernelOp {
        let f = ReplaceNonFinite(T::replacements(nan, posinf, neginf));
        UnaryFn::<T, T>::kernel_op(&f).unwrap()
    }
    match dtype {
        DType::F16 => op_of::<f16>(nan, posinf, neginf),
        DType::BF16 => op_of::<bf16>(nan, posinf, neginf),
        DType::F32 => op_of::<f32>(nan, posinf, neginf),
        DType::F64 => op_of::<f64>(nan, posinf, neginf),
        DType::C64 => op_of::<Complex<f32>>(nan, posinf, neginf),
        DType::C128 => op_of::<Complex<f64>>(nan, posinf, neginf),
        DType::U8 => op_of::<u8>(nan, posinf, neginf),
        DType::I8 => op_of::<i8>(nan, posinf, neginf),
        DType::I16 => op_of::<i16>(nan, posinf, neginf),
        DType::I32 => op_of::<i32>(nan, posinf, neginf),
        DType::I64 => op_of::<i64>(nan, posinf, neginf),
        DType::Bool => op_of::<bool>(nan, posinf, neginf),
    }
}

#[test]
fn host_clamp_every_real_dtype() {
    let mut cases = 0;
    // Bounds every type holds (so that they convert exactly); crossed ones
    // give the upper bound everywhere.
    for (lo, hi) in [(0, 1), (1, 3), (3, 1), (0, 0), (2, 100)] {
        let (lo, hi) = (Scalar::Int(lo), Scalar::Int(hi));
        for dtype in DType::ALL {
            for (x, s) in operands(dtype) {
                let Ok(want) = x.gathered.clamp(lo, hi) else {
                    continue;
                };
                // bool tensors clamp in int64 (the bounds' type), converted
                // in the kernel.
                let common = want.dtype();
                let bound = |v| number_as(v, common);
                let mut op = KernelOp::clamp(bound(lo), bound(hi));
                if common != dtype {
                    op = op.computed_in(common);
                }
                check(
                    op,
                    &x,
                    s,
                    &want,
                    &format!("clamp {lo:?} {hi:?} {dtype} {s:?}"),
                );
                cases += 1;
            }
        }
    }
    // The 9 real non-bool dtypes and bool.
    assert_eq!(cases, 5 * 10 * (2 * PAIRS.len() + 1));
}

/// `x^e` for a number `e` of `x`'s type: PyTorch's special exponents (2, 3,
/// ±0.5, -1, -2, which go through multiplication, sqrt and reciprocals) and
/// others.
#[test]
fn host_pow_number_every_dtype() {
    let float_exponents = [2.0, 3.0, 0.5, -0.5, -1.0, -2.0, 1.75, 0.0, -3.25];
    let mut cases = 0;
    for dtype in DType::ALL {
        let exponents: Vec<Scalar> = match dtype {
            DType::Bool => continue,
            d if d.is_floating_point() || d.is_complex() => float_exponents
                .iter()
                .map(|&e| Scalar::Float(e))
                .chain([Scalar::Complex(0.5, 1.0)])
                .filter(|e| d.is_complex() || !matches!(e, Scalar::Complex(..)))
                .collect(),
            _ => [0, 1, 2, 3, 7].map(Scalar::Int).to_vec(),
        };
        for (x, s) in operands(dtype) {
            for &e in &exponents {
                let want = x.gathered.try_pow(e).unwrap();
                assert_eq!(want.dtype(), dtype, "the number keeps the tensor's type");
                let op =
                    KernelOp::new(OpCode::PowScalar).with_scalar(Side::Right, number_as(e, dtype));
                check(op, &x, s, &want, &format!("pow {e:?} {dtype} {s:?}"));
                cases += 1;
            }
        }
    }
    assert!(cases > 10 * 5 * 2 * PAIRS.len(), "{cases} cases");
}

/// Runs `maximum`, `minimum` and `pow` (those the dtype has) on the host
/// kernels, reading `x` as `a` and `y` as `b` over `sizes`, against the CPU
/// on the gathered operands; returns how many ran.
fn check_binary(
    x: &HostOperand,
    a: Input<'_>,
    y: &HostOperand,
    b: Input<'_>,
    sizes: &[usize],
    what: &str,
) -> usize {
    let dtype = x.gathered.dtype();
    let mut ran = 0;
    for code in [OpCode::Maximum, OpCode::Minimum, OpCode::Pow] {
        // maximum of complex values, pow of bools: refused.
        let Ok(want) = cpu_binary(&x.gathered, &y.gathered, code) else {
            continue;
        };
        let got = run_planned(KernelOp::new(code), Types::new(dtype, dtype), sizes, a, b);
        assert_same(&got, &want, &format!("{code:?} {dtype} {what}"));
        ran += 1;
    }
    ran
}

/// `maximum`, `minimum` and `pow` of two tensors of one dtype, broadcast,
/// by the math family's own kernels (no conversions).
#[test]
fn host_binary_math_same_dtype() {
    let mut cases = 0;
    for dtype in DType::ALL {
        for &(sa, sb) in PAIRS {
            for (sa, sb) in [(sa, sb), (sb, sa)] {
                let (xa, xb) = (sample_operand(dtype, sa, 2), sample_operand(dtype, sb, 9));
                let (sizes, st_a, st_b) = broadcast_pair(sa, sb);
                let (a, b) = (xa.input(sa.offset, &st_a), xb.input(sb.offset, &st_b));
                cases += check_binary(&xa, a, &xb, b, &sizes, &format!("{sa:?} {sb:?}"));
            }
        }
    }
    // maximum and minimum on 10 dtypes, pow on 11.
    assert_eq!(cases, (2 * 10 + 11) * 2 * PAIRS.len());
}

/// The edge values against each other (every pair, by broadcasting a
/// column against a row): NaN in either operand of `maximum` and `minimum`,
/// `pow` of zeros, infinities and negative bases.
#[test]
fn host_binary_math_edge_values() {
    let (column, row) = (
        spec(16, &[16, 1], &[1, 1], 0),
        spec(16, &[1, 16], &[16, 1], 0),
    );
    let mut cases = 0;
    for dtype in DType::ALL {
        let (x, y) = (edge_operand_as(dtype, column), edge_operand_as(dtype, row));
        let (a, b) = (x.input(0, &[1, 0]), y.input(0, &[0, 1]));
        cases += check_binary(&x, a, &y, b, &[16, 16], "edges");
    }
    assert_eq!(cases, 2 * 10 + 11);
}

/// `clamp` and `pow` with numbers of another category than the tensor's
/// (`int_tensor.clamp(0.5, 2.5)` and `int_tensor.powf(2.5)` are float32):
/// the converting kernel of the common type reads the tensor in its own
/// dtype.
#[test]
fn host_clamp_and_pow_numbers_promote() {
    let mut cases = 0;
    for dtype in DType::ALL {
        let float = Scalar::Float;
        for (x, s) in operands(dtype) {
            let common = DType::result_type(
                (dtype, kind(s.sizes.len())),
                (DType::F64, OperandKind::Scalar),
            );
            if common == dtype {
                continue;
            }
            let clamped = x.gathered.clamp(float(0.5), float(2.5)).unwrap();
            let op = KernelOp::clamp(number_as(float(0.5), common), number_as(float(2.5), common));
            check(
                op.computed_in(common),
                &x,
                s,
                &clamped,
                &format!("clamp {dtype} {s:?}"),
            );
            for e in [2.5, 2.0, 0.5, -1.0] {
                let want = x.gathered.try_pow(float(e)).unwrap();
                let op = KernelOp::new(OpCode::PowScalar)
                    .with_scalar(Side::Right, number_as(float(e), common))
                    .computed_in(common);
                check(op, &x, s, &want, &format!("pow {e} {dtype} {s:?}"));
            }
            cases += 1;
        }
    }
    // The five integer types and bool, on every layout.
    assert_eq!(cases, 6 * (2 * PAIRS.len() + 1));
}

/// `f(x, y)` by the CPU's element function, with broadcasting and no
/// divisor check (a kernel gives 0 for an integer 0, as the function does).
fn cpu_map<T, F>(x: &crate::DynTensor<T>, y: &crate::DynTensor<T>, f: F) -> AnyTensor
where
    T: crate::dtype::Element,
    F: crate::ops::functions::BinaryFn<T, T, T>,
    AnyTensor: From<crate::DynTensor<T>>,
{
    let (buffer, layout) = crate::ops::broadcast_map2(x.strided(), y.strided(), f).unwrap();
    let t: crate::DynTensor<T> =
        crate::tensor::from_parts!(crate::tensor::owned_parts(buffer, layout));
    AnyTensor::from(t)
}

/// `remainder`, `fmod` and `floor_divide` of `a` and `b` (one integer or
/// real floating dtype) by the CPU's element functions.
fn cpu_division(code: OpCode, a: &AnyTensor, b: &AnyTensor) -> AnyTensor {
    use crate::ops::functions::{FloorDivide, Fmod, Remainder};
    macro_rules! typed {
        ($($v:ident),*) => {
            match (a, b) {
                $((AnyTensor::$v(x), AnyTensor::$v(y)) => match code {
                    OpCode::Remainder => cpu_map(x, y, Remainder),
                    OpCode::Fmod => cpu_map(x, y, Fmod),
                    _ => cpu_map(x, y, FloorDivide),
                },)*
                _ => unreachable!("one integer or real floating dtype"),
            }
        };
    }
    typed!(F16, BF16, F32, F64, U8, I8, I16, I32, I64)
}

/// `remainder`, `fmod` and `floor_divide` on every integer and real
/// floating dtype: the samples on every pair of layouts, and the edge
/// values against each other (zeros, infinities, NaN, the integer extremes:
/// `MIN / -1` wraps, and an integer divisor of 0 gives 0 in both, which the
/// operations refuse before any kernel runs).
#[test]
fn host_division_every_dtype() {
    let (column, row) = (
        spec(16, &[16, 1], &[1, 1], 0),
        spec(16, &[1, 16], &[16, 1], 0),
    );
    let mut cases = 0;
    for dtype in DType::ALL {
        if dtype == DType::Bool || dtype.is_complex() {
            continue;
        }
        for code in [OpCode::Remainder, OpCode::Fmod, OpCode::FloorDivide] {
            for &(sa, sb) in PAIRS {
                let (xa, xb) = (sample_operand(dtype, sa, 2), sample_operand(dtype, sb, 9));
                let (sizes, st_a, st_b) = broadcast_pair(sa, sb);
                let (a, b) = (xa.input(sa.offset, &st_a), xb.input(sb.offset, &st_b));
                let want = cpu_division(code, &xa.gathered, &xb.gathered);
                let got = run_planned(KernelOp::new(code), Types::new(dtype, dtype), &sizes, a, b);
                assert_same(&got, &want, &format!("{code:?} {dtype} {sa:?} {sb:?}"));
                cases += 1;
            }
            let (x, y) = (edge_operand_as(dtype, column), edge_operand_as(dtype, row));
            let (a, b) = (x.input(0, &[1, 0]), y.input(0, &[0, 1]));
            let want = cpu_division(code, &x.gathered, &y.gathered);
            let got = run_planned(
                KernelOp::new(code),
                Types::new(dtype, dtype),
                &[16, 16],
                a,
                b,
            );
            assert_same(&got, &want, &format!("{code:?} {dtype} edges"));
            cases += 1;
        }
    }
    assert_eq!(cases, 9 * 3 * (PAIRS.len() + 1));
}

/// An activation's kernel for `dtype` (float32's for the half types).
fn activation_kernel<F>(f: F, dtype: DType) -> KernelOp
where
    F: crate::ops::functions::UnaryFn<half::f16, half::f16>
        + crate::ops::functions::UnaryFn<half::bf16, half::bf16>
        + crate::ops::functions::UnaryFn<f32, f32>
        + crate::ops::functions::UnaryFn<f64, f64>,
{
    use crate::ops::functions::UnaryFn;
    match dtype {
        DType::F16 => UnaryFn::<half::f16, half::f16>::kernel_op(&f),
        DType::BF16 => UnaryFn::<half::bf16, half::bf16>::kernel_op(&f),
        DType::F32 => UnaryFn::<f32, f32>::kernel_op(&f),
        _ => UnaryFn::<f64, f64>::kernel_op(&f),
    }
    .unwrap()
}

/// The activations on the four floating dtypes, every layout and the edge
/// values, against the CPU (the half types computed in float32 by the
/// promoted kernels, the others by the math family's own); `silu` on the
/// complex dtypes too.
#[test]
fn host_activations_every_floating_dtype() {
    use crate::ops::activations::{
        Elu, Gelu, GeluTanh, Hardsigmoid, Hardswish, LeakyRelu, LogSigmoid, Mish, Silu, Softplus,
    };
    let mut cases = 0;
    for dtype in [DType::F16, DType::BF16, DType::F32, DType::F64] {
        for (x, s) in operands(dtype) {
            let a = &x.gathered;
            let runs: [(KernelOp, Result<AnyTensor, Error>); 11] = [
                (activation_kernel(Gelu {}, dtype), a.gelu("none")),
                (activation_kernel(GeluTanh {}, dtype), a.gelu("tanh")),
                (activation_kernel(Silu, dtype), a.silu()),
                (
                    activation_kernel(
                        Softplus {
                            beta: 2.0,
                            threshold: 5.0,
                        },
                        dtype,
                    ),
                    a.softplus(2.0, 5.0),
                ),
                (activation_kernel(Mish {}, dtype), a.mish()),
                (activation_kernel(Elu { alpha: 0.5 }, dtype), a.elu(0.5)),
                (
                    activation_kernel(LeakyRelu { slope: 0.2 }, dtype),
                    a.leaky_relu(0.2),
                ),
                (activation_kernel(Hardsigmoid {}, dtype), a.hardsigmoid()),
                (activation_kernel(Hardswish {}, dtype), a.hardswish()),
                (activation_kernel(LogSigmoid {}, dtype), a.logsigmoid()),
                (
                    activation_kernel(
                        Softplus {
                            beta: 1.0,
                            threshold: 20.0,
                        },
                        dtype,
                    ),
                    a.softplus(1.0, 20.0),
                ),
            ];
            for (op, want) in runs {
                let what = format!("{:?} {dtype} {s:?}", op.code);
                check(op, &x, s, &want.unwrap(), &what);
                cases += 1;
            }
        }
    }
    for dtype in [DType::C64, DType::C128] {
        for (x, s) in operands(dtype) {
            let want = x.gathered.silu().unwrap();
            check(
                KernelOp::new(OpCode::Silu),
                &x,
                s,
                &want,
                &format!("silu {dtype} {s:?}"),
            );
            cases += 1;
        }
    }
    assert_eq!(cases, (4 * 11 + 2) * (2 * PAIRS.len() + 1));
}

/// `atan2`, `hypot`, `copysign`, `nextafter`, `logaddexp`, `logaddexp2`
/// and `xlogy` of `x` and `y` (one dtype) by the CPU's element functions;
/// `None` for a function the dtype lacks.
fn cpu_pair(code: OpCode, x: &AnyTensor, y: &AnyTensor) -> Option<AnyTensor> {
    use crate::ops::pairs::{Atan2, Copysign, Hypot, LogAddExp, LogAddExp2, Nextafter, Xlogy};
    macro_rules! real {
        ($($v:ident),*) => {
            match (x, y) {
                $((AnyTensor::$v(a), AnyTensor::$v(b)) => Some(match code {
                    OpCode::Atan2 => cpu_map(a, b, Atan2),
                    OpCode::Hypot => cpu_map(a, b, Hypot),
                    OpCode::Copysign => cpu_map(a, b, Copysign),
                    OpCode::Nextafter => cpu_map(a, b, Nextafter),
                    OpCode::LogAddExp => cpu_map(a, b, LogAddExp),
                    OpCode::LogAddExp2 => cpu_map(a, b, LogAddExp2),
                    _ => cpu_map(a, b, Xlogy),
                }),)*
                (AnyTensor::C64(a), AnyTensor::C64(b)) if code == OpCode::LogAddExp => {
                    Some(cpu_map(a, b, LogAddExp))
                }
                (AnyTensor::C128(a), AnyTensor::C128(b)) if code == OpCode::LogAddExp => {
                    Some(cpu_map(a, b, LogAddExp))
                }
                _ => None,
            }
        };
    }
    real!(F16, BF16, F32, F64)
}

/// The functions of two tensors on every floating dtype (complex ones for
/// `logaddexp`): the samples on every pair of layouts and the edge values
/// against each other (zeros of both signs, infinities, NaN, huge and tiny
/// numbers), by the special family's kernels; and mixed dtypes (an int64
/// and a float16 operand) computed in float16 by the promoted kernels.
#[test]
fn host_pairs_every_floating_dtype() {
    const CODES: [OpCode; 7] = [
        OpCode::Atan2,
        OpCode::Hypot,
        OpCode::Copysign,
        OpCode::Nextafter,
        OpCode::LogAddExp,
        OpCode::LogAddExp2,
        OpCode::Xlogy,
    ];
    let (column, row) = (
        spec(16, &[16, 1], &[1, 1], 0),
        spec(16, &[1, 16], &[16, 1], 0),
    );
    let mut cases = 0;
    for dtype in DType::ALL {
        for code in CODES {
            let (x, y) = (edge_operand_as(dtype, column), edge_operand_as(dtype, row));
            let Some(want) = cpu_pair(code, &x.gathered, &y.gathered) else {
                continue;
            };
            let (a, b) = (x.input(0, &[1, 0]), y.input(0, &[0, 1]));
            let got = run_planned(
                KernelOp::new(code),
                Types::new(dtype, dtype),
                &[16, 16],
                a,
                b,
            );
            assert_same(&got, &want, &format!("{code:?} {dtype} edges"));
            for &(sa, sb) in PAIRS {
                let (xa, xb) = (sample_operand(dtype, sa, 2), sample_operand(dtype, sb, 9));
                let (sizes, st_a, st_b) = broadcast_pair(sa, sb);
                let (a, b) = (xa.input(sa.offset, &st_a), xb.input(sb.offset, &st_b));
                let want = cpu_pair(code, &xa.gathered, &xb.gathered).unwrap();
                let got = run_planned(KernelOp::new(code), Types::new(dtype, dtype), &sizes, a, b);
                assert_same(&got, &want, &format!("{code:?} {dtype} {sa:?} {sb:?}"));
            }
            cases += 1;
        }
    }
    // Seven functions on four floating dtypes, logaddexp on two complex.
    assert_eq!(cases, 7 * 4 + 2);
    // The number forms: `copysign` and `xlogy` with a number on the right,
    // `xlogy` and `pow` (`float_power`'s) with one on the left, each the
    // kernel's fixed operand, against `AnyTensor`'s forms on the CPU.
    let s = PAIRS[1].0;
    let st = s.strides.to_vec();
    for dtype in [DType::F16, DType::BF16, DType::F32, DType::F64] {
        let x = edge_operand_as(dtype, spec(16, &[16], &[1], 0));
        let y = sample_operand(dtype, s, 5);
        for number in [
            Scalar::Float(-0.0),
            Scalar::Float(2.5),
            Scalar::Float(f64::NAN),
        ] {
            let right =
                |code: OpCode, x: &HostOperand, sizes: &[usize], strides: &[usize], offset| {
                    let op = KernelOp::new(code).with_scalar(Side::Right, number);
                    run_planned(
                        op,
                        Types::new(dtype, dtype),
                        sizes,
                        x.input(offset, strides),
                        Input::Scalar,
                    )
                };
            let want = x.gathered.try_copysign(number).unwrap();
            assert_same(
                &right(OpCode::Copysign, &x, &[16], &[1], 0),
                &want,
                &format!("copysign {dtype} {number:?}"),
            );
            let want = y.gathered.try_xlogy(number).unwrap();
            assert_same(
                &right(OpCode::Xlogy, &y, s.sizes, &st, s.offset),
                &want,
                &format!("xlogy {dtype} {number:?}"),
            );
            let op = KernelOp::new(OpCode::Xlogy).with_scalar(Side::Left, number);
            // (The planner takes the tensor first, whichever side the
            // number is on, as `map1` passes it.)
            let got = run_planned(
                op,
                Types::new(dtype, dtype),
                &[16],
                x.input(0, &[1]),
                Input::Scalar,
            );
            let want = AnyTensor::try_xlogy_scalar_self(number, &x.gathered).unwrap();
            assert_same(&got, &want, &format!("xlogy of {number:?} and {dtype}"));
        }
    }
    let e = edge_operand_as(DType::F64, spec(16, &[16], &[1], 0));
    for base in [Scalar::Float(2.0), Scalar::Float(-0.5), Scalar::Int(0)] {
        let op = KernelOp::new(OpCode::Pow).with_scalar(Side::Left, base);
        let got = run_planned(
            op,
            Types::new(DType::F64, DType::F64),
            &[16],
            e.input(0, &[1]),
            Input::Scalar,
        );
        let want = AnyTensor::try_float_power_scalar(base, &e.gathered).unwrap();
        assert_same(&got, &want, &format!("{base:?} to float64 powers"));
    }
    for code in CODES {
        let s = PAIRS[0].0;
        let (x, y) = (
            sample_operand(DType::I64, s, 3),
            sample_operand(DType::F16, s, 4),
        );
        let st = s.strides.to_vec();
        let types = Types {
            a: DType::I64,
            b: DType::F16,
            output: DType::F16,
        };
        let got = run_planned(
            KernelOp::new(code).computed_in(DType::F16),
            types,
            s.sizes,
            x.input(s.offset, &st),
            y.input(s.offset, &st),
        );
        let converted = x.gathered.to_dtype(DType::F16);
        let want = cpu_pair(code, &converted, &y.gathered).unwrap();
        assert_same(&got, &want, &format!("{code:?} int64 with float16"));
    }
}
