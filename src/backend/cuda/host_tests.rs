//! The kernels' logic, run on the host: `kernels/elementwise.cu` compiled as
//! C++ (`kernels/host_launch.cpp`), launched by name over every block and
//! thread of the grid that [`launch::plan`](super::launch::plan) chose, on
//! host memory, and compared with the CPU backend's results for the same
//! element function: broadcasts, transposed, offset, stride-0, size-0 and
//! rank-0 operands, the vectorized and the strided paths, every dtype.
//! (Every pair of dtypes, for casts and mixed-dtype operations, is in
//! `host_conversion_tests`.)

use super::launch::{Args, Divisor, Input, Launch, Operand, Types, plan};
use crate::backend::cpu::CpuPtr;
use crate::backend::{Cpu, StridedRef};
use crate::backend::{Elementwise, StridedMut};
use crate::dtype::logic::{Bitwise, Classify, Shiftable, SignedInfinity};
use crate::dtype::{Conjugate, Element, Numeric, Ordered, TrueDiv};
use crate::ops::assign::store_back;
use crate::ops::broadcast_strides;
use crate::ops::functions::{
    Add, BinaryFn, BitAnd, BitOr, BitXor, Cast, Constant, Div, Eq, Ge, Gt, Identity, InCommon, Le,
    LogicalAnd, LogicalOr, LogicalXor, Lt, Mul, Ne, Neg, Shl, Shr, Sub, UnaryFn, WithLeft,
    WithRight,
};
use crate::ops::functions::{ByNumber, FloorDivide, Fmod, Remainder, WideRight};
use crate::ops::logic::{BitNot, IsFinite, IsInf, IsNan, IsNegInf, IsPosInf, IsReal, LogicalNot};
use crate::ops::op_codes::{KernelOp, Side};
use crate::view::complex::Conj;
use core::ffi::c_char;
use core::mem::offset_of;
use half::{bf16, f16};
use num_complex::Complex;
use std::ffi::CString;

// SAFETY: these are the C++ functions of kernels/host_launch.cpp, with the
// same signatures; build.rs links that library with the `cuda` feature.
unsafe extern "C" {
    fn shaped_host_launch(name: *const c_char, grid: u32, block: u32, args: *const Args) -> i32;
    fn shaped_host_args_layout(out: *mut u64);
}

/// Runs a planned launch on the host, over a grid of at most 3 blocks (so
/// that the grid-stride loops go round more than once).
pub(super) fn host_run(launch: &Launch) {
    let name = CString::new(launch.kernel.as_str()).unwrap();
    // SAFETY: `name` is a C string; `args` mirrors the kernels' `Args` (see
    // `args_layout_matches_the_kernels`), and its addresses point into host
    // buffers that the caller keeps alive, laid out as the plan says.
    let status =
        unsafe { shaped_host_launch(name.as_ptr(), launch.grid(3), launch.block(), &launch.args) };
    assert_eq!(status, 0, "no host kernel named {}", launch.kernel);
}

#[test]
fn args_layout_matches_the_kernels() {
    let mut c = [0u64; 15];
    // SAFETY: the function writes 15 values.
    unsafe { shaped_host_args_layout(c.as_mut_ptr()) };
    let rust = [
        size_of::<Args>(),
        offset_of!(Args, numel),
        offset_of!(Args, sizes),
        offset_of!(Args, out),
        offset_of!(Args, a),
        offset_of!(Args, b),
        offset_of!(Args, scalar),
        offset_of!(Args, rank),
        offset_of!(Args, op),
        offset_of!(Args, vec),
        offset_of!(Args, out_dtype),
        offset_of!(Args, a_dtype),
        offset_of!(Args, b_dtype),
        offset_of!(Args, magic),
        offset_of!(Args, shift),
    ];
    assert_eq!(c.map(|x| x as usize), rust);
}

/// Values with negatives, zeros (for division) and, for complex types,
/// imaginary parts.
pub(super) trait Sample: Element {
    fn sample(i: usize) -> Self;
}
macro_rules! sample_ints {
    ($($t:ty),*) => {$(
        impl Sample for $t {
            fn sample(i: usize) -> Self {
                (((i * 37 + 11) % 251) as i64 - 100) as $t
            }
        }
    )*};
}
sample_ints!(i8, i16, i32, i64);
impl Sample for u8 {
    fn sample(i: usize) -> Self {
        ((i * 37 + 11) % 256) as u8
    }
}
impl Sample for bool {
    fn sample(i: usize) -> Self {
        i.is_multiple_of(3)
    }
}
fn float_sample(i: usize) -> f64 {
    ((i * 7 + 3) % 23) as f64 * 0.375 - 4.125
}
impl Sample for f32 {
    fn sample(i: usize) -> Self {
        float_sample(i) as f32 / 3.0
    }
}
impl Sample for f64 {
    fn sample(i: usize) -> Self {
        float_sample(i) / 3.0
    }
}
impl Sample for f16 {
    fn sample(i: usize) -> Self {
        f16::from_f64(float_sample(i) / 3.0)
    }
}
impl Sample for bf16 {
    fn sample(i: usize) -> Self {
        bf16::from_f64(float_sample(i) / 3.0)
    }
}
impl Sample for Complex<f32> {
    fn sample(i: usize) -> Self {
        Complex::new(float_sample(i) as f32 / 3.0, float_sample(i + 5) as f32)
    }
}
impl Sample for Complex<f64> {
    fn sample(i: usize) -> Self {
        Complex::new(float_sample(i) / 3.0, float_sample(i + 5))
    }
}

/// An operand's layout in a buffer of `len` elements.
#[derive(Copy, Clone, Debug)]
pub(super) struct Spec {
    pub(super) len: usize,
    pub(super) sizes: &'static [usize],
    pub(super) strides: &'static [usize],
    pub(super) offset: usize,
}

pub(super) const fn spec(
    len: usize,
    sizes: &'static [usize],
    strides: &'static [usize],
    offset: usize,
) -> Spec {
    Spec {
        len,
        sizes,
        strides,
        offset,
    }
}

/// Operand pairs, as in the PyTorch fixtures: equal shapes, broadcasts,
/// transposed, narrowed (offset), expanded (stride 0), channels-last, size 0,
/// rank 0, and large ones for the vectorized path.
pub(super) const PAIRS: &[(Spec, Spec)] = &[
    (spec(20, &[4, 5], &[5, 1], 0), spec(20, &[4, 5], &[5, 1], 0)),
    (
        spec(20, &[5, 1, 4, 1], &[4, 4, 1, 1], 0),
        spec(3, &[3, 1, 1], &[1, 1, 1], 0),
    ),
    (spec(3, &[3, 1], &[1, 1], 0), spec(4, &[1, 4], &[4, 1], 0)),
    (spec(42, &[7, 6], &[1, 7], 0), spec(42, &[7, 6], &[6, 1], 0)),
    (spec(80, &[10, 4], &[8, 1], 3), spec(4, &[4], &[1], 0)),
    (
        spec(8, &[16, 8], &[0, 1], 0),
        spec(128, &[16, 8], &[8, 1], 0),
    ),
    (
        spec(120, &[2, 3, 4, 5], &[60, 1, 15, 3], 0),
        spec(120, &[2, 3, 4, 5], &[60, 20, 5, 1], 0),
    ),
    (spec(0, &[0, 3], &[3, 1], 0), spec(3, &[3], &[1], 0)),
    (spec(1, &[], &[], 0), spec(6, &[2, 3], &[3, 1], 0)),
    (spec(7, &[], &[], 4), spec(1, &[], &[], 0)),
    (spec(5000, &[5000], &[1], 0), spec(5008, &[5000], &[1], 8)),
    (
        spec(6144, &[64, 96], &[96, 1], 0),
        spec(96, &[1, 96], &[96, 1], 0),
    ),
    (spec(1002, &[1001], &[1], 1), spec(1001, &[1001], &[1], 0)),
    (
        spec(256, &[32, 8], &[8, 1], 0),
        spec(32, &[32, 1], &[1, 1], 0),
    ),
    (
        spec(40000, &[40000], &[1], 0),
        spec(40000, &[40000], &[1], 0),
    ),
    (spec(40000, &[40000], &[1], 0), spec(1, &[], &[], 0)),
];

/// Two layouts broadcast together: the common sizes, and each operand's
/// strides over them (0 where it is broadcast).
pub(super) fn broadcast_pair(sa: Spec, sb: Spec) -> (Vec<usize>, Vec<usize>, Vec<usize>) {
    let rank = sa.sizes.len().max(sb.sizes.len());
    let mut sizes = vec![0; rank];
    crate::shape::broadcast_sizes_into(sa.sizes, sb.sizes, &mut sizes).unwrap();
    let (mut st_a, mut st_b) = (vec![0; rank], vec![0; rank]);
    broadcast_strides(sa.sizes, sa.strides, &sizes, &mut st_a);
    broadcast_strides(sb.sizes, sb.strides, &sizes, &mut st_b);
    (sizes, st_a, st_b)
}

pub(super) fn data<T: Sample>(len: usize, seed: usize) -> Vec<T> {
    (0..len).map(|i| T::sample(i + seed)).collect()
}

pub(super) fn strided<T: Element>(buf: &mut [T], s: Spec) -> StridedRef<'static, T, Cpu> {
    StridedRef {
        ptr: CpuPtr::from_mut(buf),
        sizes: s.sizes,
        strides: s.strides,
        offset: s.offset,
    }
}

fn memory<'a, T: Element>(r: &StridedRef<'a, T, Cpu>) -> Input<'a> {
    Input::Memory(Operand {
        addr: r.ptr.as_ptr() as u64,
        offset: r.offset,
        strides: r.strides,
    })
}

pub(super) fn contiguous(sizes: &[usize]) -> Vec<usize> {
    let mut strides = vec![0; sizes.len()];
    let mut step = 1;
    for (s, &n) in strides.iter_mut().zip(sizes).rev() {
        *s = step;
        step *= n.max(1);
    }
    strides
}

/// Equal, or both NaN somewhere (NaN payloads may differ).
fn same<T: Element>(x: &[T], y: &[T]) -> bool {
    #[allow(clippy::eq_op)]
    let nan = |v: &T| v != v;
    x.len() == y.len() && x.iter().zip(y).all(|(a, b)| a == b || (nan(a) && nan(b)))
}

/// Plans `op` over `sizes` into a new contiguous host buffer of `U`s and
/// runs it on the host, once with the 32-bit offsets the plan chose and once
/// more with 64-bit ones (which the kernels use from 2^31 elements on), which
/// must agree.
fn run_into<A: Element, B: Element, U: Element>(
    op: KernelOp,
    sizes: &[usize],
    a: Input,
    b: Input,
) -> Vec<U> {
    let numel = sizes.iter().product();
    let mut got = vec![U::ZERO; numel];
    let mut wide = vec![U::ZERO; numel];
    let out_strides = contiguous(sizes);
    let types = Types {
        a: A::DTYPE,
        b: B::DTYPE,
        output: U::DTYPE,
    };
    for (buffer, narrow) in [(&mut got, 1), (&mut wide, 0)] {
        let out = Operand {
            addr: buffer.as_mut_ptr() as u64,
            offset: 0,
            strides: &out_strides,
        };
        if let Some(mut launch) = plan(op, types, sizes, out, a, b).unwrap() {
            assert_eq!(launch.args.narrow, 1, "host buffers have 32-bit offsets");
            launch.args.narrow = narrow;
            host_run(&launch);
        }
    }
    assert!(
        same(&got, &wide),
        "{op:?} {sizes:?}: 32-bit {got:?}, 64-bit {wide:?}"
    );
    got
}

/// `f(a, b)` for every pair, by the host-compiled kernels and by the CPU
/// backend.
fn check_binary<T: Sample, U: Element, F: BinaryFn<T, T, U>>(f: F) {
    check_mixed::<T, T, U, F>(f);
}

/// `f(a, b)` on operands of two element types, for every pair of layouts.
fn check_mixed<A: Sample, B: Sample, U: Element, F: BinaryFn<A, B, U>>(f: F) {
    for (k, (sa, sb)) in PAIRS.iter().enumerate() {
        for (sa, sb) in [(*sa, *sb), (*sb, *sa)] {
            let (mut va, mut vb) = (data::<A>(sa.len, 1), data::<B>(sb.len, 7));
            let (sizes, st_a, st_b) = broadcast_pair(sa, sb);
            let a = StridedRef {
                ptr: CpuPtr::from_mut(&mut va),
                sizes: &sizes,
                strides: &st_a,
                offset: sa.offset,
            };
            let b = StridedRef {
                ptr: CpuPtr::from_mut(&mut vb),
                sizes: &sizes,
                strides: &st_b,
                offset: sb.offset,
            };
            let expected = Cpu::map2(&sizes, a, b, f).unwrap().as_slice().to_vec();
            let op = f.kernel_op().unwrap();
            let got = run_into::<A, B, U>(op, &sizes, memory(&a), memory(&b));
            assert!(
                same(&got, &expected),
                "{} {} {op:?} case {k} {sizes:?}:\n got {got:?}\nwant {expected:?}",
                A::DTYPE,
                B::DTYPE,
            );
        }
    }
}

/// `f(a)` for every operand layout.
fn check_unary<T: Sample, U: Element, F: UnaryFn<T, U>>(f: F) {
    for (k, (sa, _)) in PAIRS.iter().enumerate() {
        let mut va = data::<T>(sa.len, 3);
        let a = strided(&mut va, *sa);
        let expected = Cpu::map1(a, f).unwrap().as_slice().to_vec();
        let op = f.kernel_op().unwrap();
        let got = run_into::<T, T, U>(op, sa.sizes, memory(&a), memory(&a));
        assert!(
            same(&got, &expected),
            "{} {op:?} case {k}: {got:?} vs {expected:?}",
            T::DTYPE
        );
    }
}

/// Writable layouts for in-place operations: contiguous, transposed,
/// narrowed (offset), channels-last.
pub(super) const UPDATE_OUTS: [Spec; 4] = [
    spec(20, &[4, 5], &[5, 1], 0),
    spec(42, &[7, 6], &[1, 7], 0),
    spec(80, &[10, 4], &[8, 1], 3),
    spec(120, &[2, 3, 4, 5], &[60, 1, 15, 3], 0),
];
/// Right-hand sides broadcast to [`UPDATE_OUTS`] in turn (rank 0 last).
pub(super) const UPDATE_RHS: [Spec; 4] = [
    spec(5, &[5], &[1], 0),
    spec(6, &[1, 6], &[6, 1], 0),
    spec(40, &[10, 4], &[4, 1], 0),
    spec(1, &[], &[], 0),
];

/// In place: `out = f(out, b)` (and `out = g(out)`) into writable layouts
/// (contiguous, transposed, narrowed, channels-last), `b` broadcast.
fn check_update<T: Sample, F: BinaryFn<T, T, T>, G: UnaryFn<T, T>>(f: F, g: G) {
    check_update_from::<T, T, F, G>(f, g);
}

/// [`check_update`] with a right operand of another element type.
fn check_update_from<T: Sample, B: Sample, F: BinaryFn<T, B, T>, G: UnaryFn<T, T>>(f: F, g: G) {
    for (k, (so, sb)) in UPDATE_OUTS.iter().zip(UPDATE_RHS).enumerate() {
        let mut vb = data::<B>(sb.len, 5);
        let mut st_b = vec![0; so.sizes.len()];
        broadcast_strides(sb.sizes, sb.strides, so.sizes, &mut st_b);
        let b = StridedRef {
            ptr: CpuPtr::from_mut(&mut vb),
            sizes: so.sizes,
            strides: &st_b,
            offset: sb.offset,
        };
        let types = Types {
            a: T::DTYPE,
            b: B::DTYPE,
            output: T::DTYPE,
        };
        let mut expected = data::<T>(so.len, 2);
        let mut got = expected.clone();
        let out_of = |v: &mut Vec<T>| StridedMut {
            ptr: CpuPtr::from_mut(v),
            sizes: so.sizes,
            strides: so.strides,
            offset: so.offset,
        };
        Cpu::update2(out_of(&mut expected), b, f).unwrap();
        Cpu::update1(out_of(&mut expected), g).unwrap();
        let target = Operand {
            addr: got.as_mut_ptr() as u64,
            offset: so.offset,
            strides: so.strides,
        };
        let op = f.kernel_op().unwrap();
        if let Some(launch) = plan(
            op,
            types,
            so.sizes,
            target,
            Input::Memory(target),
            memory(&b),
        )
        .unwrap()
        {
            host_run(&launch);
        }
        let op = g.kernel_op().unwrap();
        let a = Input::Memory(target);
        let types = Types::new(T::DTYPE, T::DTYPE);
        if let Some(launch) = plan(op, types, so.sizes, target, a, a).unwrap() {
            host_run(&launch);
        }
        assert!(
            same(&got, &expected),
            "{} update case {k}: {got:?} vs {expected:?}",
            T::DTYPE
        );
    }
}

fn check_numeric<T: Sample + Numeric + TrueDiv + Conjugate>()
where
    T::Quotient: Element,
{
    check_binary::<T, T, _>(Add);
    check_binary::<T, T, _>(Sub);
    check_binary::<T, T, _>(Mul);
    check_binary::<T, T::Quotient, _>(Div);
    check_binary::<T, bool, _>(Eq);
    check_binary::<T, bool, _>(Ne);
    check_unary::<T, T, _>(Identity);
    check_unary::<T, T, _>(Neg);
    check_unary::<T, T, _>(Constant(T::sample(9)));
    check_unary::<T, T, _>(WithRight(Add, T::sample(4)));
    check_unary::<T, T, _>(WithLeft(Sub, T::sample(5)));
    check_unary::<T, T, _>(WithRight(Mul, T::sample(6)));
    check_unary::<T, T::Quotient, _>(WithLeft(Div, T::sample(8)));
    check_unary::<T, bool, _>(WithRight(Eq, T::sample(3)));
    check_update::<T, _, _>(Add, WithRight(Mul, T::sample(6)));
    check_update::<T, _, _>(Sub, Constant(T::sample(1)));
    check_unary::<T, T, _>(Conj);
    check_unary::<T, f32, _>(Cast::<f32>::new());
    check_unary::<T, u8, _>(Cast::<u8>::new());
    check_unary::<T, Complex<f64>, _>(Cast::<Complex<f64>>::new());
}

fn check_ordered<T: Sample + Ordered>() {
    check_binary::<T, bool, _>(Lt);
    check_binary::<T, bool, _>(Le);
    check_binary::<T, bool, _>(Gt);
    check_binary::<T, bool, _>(Ge);
    check_unary::<T, bool, _>(WithLeft(Lt, T::sample(2)));
    check_unary::<T, bool, _>(WithRight(Ge, T::sample(2)));
}

/// The predicates and the logic, of every dtype.
fn check_logic<T: Sample + Classify>() {
    check_unary::<T, bool, _>(IsNan);
    check_unary::<T, bool, _>(IsInf);
    check_unary::<T, bool, _>(IsFinite);
    check_unary::<T, bool, _>(IsReal);
    check_unary::<T, bool, _>(LogicalNot);
    check_binary::<T, bool, _>(LogicalAnd);
    check_binary::<T, bool, _>(LogicalOr);
    check_binary::<T, bool, _>(LogicalXor);
    check_unary::<T, bool, _>(WithRight(LogicalAnd, T::sample(3)));
    check_unary::<T, bool, _>(WithLeft(LogicalXor, T::ZERO));
}

/// The predicates on the values that make them true: NaN, both
/// infinities, zeros of both signs, a subnormal, complex values with a
/// NaN or infinite part.
#[test]
fn host_kernels_predicates_of_special_values() {
    fn check<T: Element, U: Element, F: UnaryFn<T, U>>(values: &[T], f: F) {
        let mut v = values.to_vec();
        let sizes = [v.len()];
        let a = StridedRef {
            ptr: CpuPtr::from_mut(&mut v),
            sizes: &sizes,
            strides: &[1],
            offset: 0,
        };
        let expected = Cpu::map1(a, f).unwrap().as_slice().to_vec();
        let got = run_into::<T, T, U>(f.kernel_op().unwrap(), &sizes, memory(&a), memory(&a));
        assert!(
            same(&got, &expected),
            "{} {got:?} vs {expected:?}",
            T::DTYPE
        );
    }
    let reals = [
        0.0,
        -0.0,
        1.5,
        f64::NAN,
        f64::INFINITY,
        f64::NEG_INFINITY,
        1e-310,
        -3.0,
    ];
    macro_rules! each_real {
        ($($t:ty: $from:expr),*) => {$(
            let v: Vec<$t> = reals.iter().map(|&x| $from(x)).collect();
            check(&v, IsNan);
            check(&v, IsInf);
            check(&v, IsPosInf);
            check(&v, IsNegInf);
            check(&v, IsFinite);
            check(&v, LogicalNot);
        )*};
    }
    each_real!(f64: |x| x, f32: |x: f64| x as f32, f16: f16::from_f64, bf16: bf16::from_f64);
    let z: Vec<Complex<f32>> = reals
        .iter()
        .flat_map(|&re| {
            reals
                .iter()
                .map(move |&im| Complex::new(re as f32, im as f32))
        })
        .collect();
    check(&z, IsNan);
    check(&z, IsInf);
    check(&z, IsFinite);
    check(&z, IsReal);
    check(&z, LogicalNot);
}

/// `isposinf` and `isneginf`, of the real dtypes.
fn check_signed_inf<T: Sample + SignedInfinity>() {
    check_unary::<T, bool, _>(IsPosInf);
    check_unary::<T, bool, _>(IsNegInf);
}

/// `& | ^ ~` of integers and bool, with numbers and in place.
fn check_bits<T: Sample + Bitwise>() {
    check_binary::<T, T, _>(BitAnd);
    check_binary::<T, T, _>(BitOr);
    check_binary::<T, T, _>(BitXor);
    check_unary::<T, T, _>(BitNot);
    check_unary::<T, T, _>(WithRight(BitXor, T::sample(4)));
    check_update::<T, _, _>(BitAnd, WithLeft(BitOr, T::sample(2)));
}

/// The shifts of integers, by every amount the samples hold (negative ones
/// and past the width among them) and by numbers.
fn check_shifts<T: Sample + Shiftable>() {
    check_binary::<T, T, _>(Shl);
    check_binary::<T, T, _>(Shr);
    check_unary::<T, T, _>(WithLeft(Shl, T::sample(1)));
    check_unary::<T, T, _>(WithRight(Shr, T::sample(6)));
    check_update::<T, _, _>(Shl, Identity);
}

macro_rules! dtype_tests {
    ($($name:ident: $t:ty => [$($check:ident),*];)*) => {$(
        #[test]
        fn $name() {
            $($check::<$t>();)*
        }
    )*};
}

dtype_tests! {
    host_kernels_f16: f16 => [check_numeric, check_ordered, check_logic, check_signed_inf];
    host_kernels_bf16: bf16 => [check_numeric, check_ordered, check_logic, check_signed_inf];
    host_kernels_f32: f32 => [check_numeric, check_ordered, check_logic, check_signed_inf];
    host_kernels_f64: f64 => [check_numeric, check_ordered, check_logic, check_signed_inf];
    host_kernels_c64: Complex<f32> => [check_numeric, check_logic];
    host_kernels_c128: Complex<f64> => [check_numeric, check_logic];
    host_kernels_u8: u8 => [check_numeric, check_ordered, check_logic, check_signed_inf, check_bits, check_shifts];
    host_kernels_i8: i8 => [check_numeric, check_ordered, check_logic, check_signed_inf, check_bits, check_shifts];
    host_kernels_i16: i16 => [check_numeric, check_ordered, check_logic, check_signed_inf, check_bits, check_shifts];
    host_kernels_i32: i32 => [check_numeric, check_ordered, check_logic, check_signed_inf, check_bits, check_shifts];
    host_kernels_i64: i64 => [check_numeric, check_ordered, check_logic, check_signed_inf, check_bits, check_shifts];
}

#[test]
fn host_kernels_bool() {
    check_binary::<bool, bool, _>(Eq);
    check_binary::<bool, bool, _>(Ne);
    check_ordered::<bool>();
    check_unary::<bool, bool, _>(Identity);
    check_unary::<bool, bool, _>(Constant(true));
    check_binary::<bool, f32, _>(Div);
    // PyTorch's bool + is `or`, bool * is `and`.
    check_binary::<bool, bool, _>(Add);
    check_binary::<bool, bool, _>(Mul);
    check_unary::<bool, bool, _>(WithLeft(Add, false));
    check_update::<bool, _, _>(Mul, WithRight(Add, true));
    check_unary::<bool, bool, _>(Conj);
    check_unary::<bool, bf16, _>(Cast::<bf16>::new());
    check_logic::<bool>();
    check_signed_inf::<bool>();
    check_bits::<bool>();
}

/// The element functions of mixed-dtype operations, as the operators make
/// them (`InCommon`, `StoreBack`, a number fixed on one side), name the
/// converting kernels, which agree with the CPU backend.
#[test]
fn host_kernels_promoted_element_functions() {
    let op = BinaryFn::<i32, f32, f32>::kernel_op(&InCommon::<Add, f32>::new(Add)).unwrap();
    assert_eq!(op.compute, Some(crate::DType::F32));
    // No conversion: the same-type kernel.
    let op = BinaryFn::<f32, f32, f32>::kernel_op(&InCommon::<Add, f32>::new(Add)).unwrap();
    assert_eq!(op.compute, None);
    check_mixed::<i32, f32, f32, _>(InCommon::<Add, f32>::new(Add));
    check_mixed::<u8, i8, bool, _>(InCommon::<Lt, i16>::new(Lt));
    check_mixed::<f16, bf16, f32, _>(InCommon::<Div, f32>::new(Div));
    check_mixed::<i64, bool, f32, _>(InCommon::<Div, i64>::new(Div));
    check_mixed::<bool, u8, u8, _>(InCommon::<Mul, u8>::new(Mul));
    check_mixed::<Complex<f32>, f64, Complex<f64>, _>(InCommon::<Mul, Complex<f64>>::new(Mul));
    check_mixed::<Complex<f64>, i8, bool, _>(InCommon::<Ne, Complex<f64>>::new(Ne));
    // int8 with a rank-0 int64: computed in int8.
    check_mixed::<i8, i64, i8, _>(InCommon::<Sub, i8>::new(Sub));
    // The bits and the logic of mixed types.
    check_mixed::<i32, bool, i32, _>(InCommon::<BitAnd, i32>::new(BitAnd));
    check_mixed::<u8, i8, i16, _>(InCommon::<Shl, i16>::new(Shl));
    check_mixed::<i64, i16, i64, _>(InCommon::<Shr, i64>::new(Shr));
    check_mixed::<f32, Complex<f64>, bool, _>(InCommon::<LogicalOr, Complex<f64>>::new(LogicalOr));
    check_mixed::<bf16, u8, bool, _>(InCommon::<LogicalXor, bf16>::new(LogicalXor));
    // `%`, `fmod` and `floor_divide` of mixed types, and with numbers.
    check_mixed::<i8, i64, i64, _>(InCommon::<Remainder, i64>::new(Remainder));
    check_mixed::<u8, f16, f32, _>(InCommon::<FloorDivide, f32>::new(FloorDivide));
    check_unary::<i16, f32, _>(WithRight(InCommon::<Fmod, f32>::new(Fmod), -2.5f32));
    check_unary::<i32, i32, _>(WithLeft(InCommon::<Remainder, i32>::new(Remainder), 7i32));
    check_unary::<bool, i64, _>(WithRight(InCommon::<Shl, i64>::new(Shl), 3i64));
    check_unary::<i32, f32, _>(WithRight(InCommon::<Sub, f32>::new(Sub), 2.5f32));
    check_unary::<u8, f32, _>(WithLeft(InCommon::<Div, f32>::new(Div), -1.5f32));
    check_unary::<f16, bool, _>(WithLeft(InCommon::<Ge, f16>::new(Ge), f16::from_f32(0.5)));
    check_unary::<bool, i64, _>(WithRight(InCommon::<Add, i64>::new(Add), 3i64));
    // In place, stored back: uint8 *= int32 multiplies as int32 and wraps.
    check_update_from::<u8, i32, _, _>(store_back::<Mul, i32>(Mul), Identity);
    check_update_from::<f16, f64, _, _>(store_back::<Add, f64>(Add), Neg);
    check_update_from::<Complex<f32>, i64, _, _>(store_back::<Div, Complex<f32>>(Div), Conj);
    check_update_from::<i16, bool, _, _>(store_back::<Add, i16>(Add), Identity);
    check_update_from::<bf16, f16, _, _>(store_back::<Sub, f32>(Sub), Identity);
}

/// `*` and `/` of a half type with a number, or with one element of
/// another type: computed in float32 from the number's own value.
#[test]
fn host_kernels_half_types_keep_numbers_in_float32() {
    let by = ByNumber::<Mul, f16>::new(Mul, 1e-5f64, Side::Right);
    let op = UnaryFn::<f16, f16>::kernel_op(&by).unwrap();
    assert_eq!(op.compute, Some(crate::DType::F32));
    check_unary::<f16, f16, _>(by);
    check_unary::<bf16, bf16, _>(ByNumber::<Div, bf16>::new(Div, 0.3f64, Side::Left));
    check_unary::<f16, f16, _>(ByNumber::<Div, f16>::new(Div, 70000i64, Side::Right));
    // Stored back in place, and the other types untouched.
    check_unary::<f32, f32, _>(ByNumber::<Mul, f32>::new(Mul, 0.1f64, Side::Right));
    check_unary::<i32, f32, _>(ByNumber::<Div, f32>::new(Div, 3i64, Side::Left));
    check_mixed::<f16, f32, f16, _>(WideRight::<Mul, f16>::new(Mul));
    check_mixed::<bf16, i64, bf16, _>(WideRight::<Div, bf16>::new(Div));
}

#[test]
fn the_vectorized_path_is_taken_where_it_applies() {
    let strides = [1usize];
    let mut buf = vec![0f32; 64];
    let addr = buf.as_mut_ptr() as u64;
    let out = Operand {
        addr,
        offset: 0,
        strides: &strides,
    };
    let types = Types::new(crate::DType::F32, crate::DType::F32);
    let op = crate::ops::op_codes::KernelOp::new(crate::ops::op_codes::OpCode::Add);
    let a = Input::Memory(out);
    let launch = plan(op, types, &[64], out, a, a).unwrap().unwrap();
    assert_eq!((launch.args.vec, launch.work), (4, 16));
    // One element off: not aligned to 16 bytes.
    let shifted = Operand { offset: 1, ..out };
    let launch = plan(op, types, &[63], out, Input::Memory(shifted), a)
        .unwrap()
        .unwrap();
    assert_eq!(launch.args.vec, 1);
    // Mixed types move 16 bytes of the type they are computed in, at most 4
    // elements: float32 (4) from a bfloat16 and a float32 operand, float64
    // (2) from float64 and int32, int16 (4) from uint8 and int8.
    let mixed = |a, b, compute, lanes| {
        let types = Types {
            a,
            b,
            output: compute,
        };
        let op = KernelOp::new(crate::ops::op_codes::OpCode::Add).computed_in(compute);
        let launch = plan(
            op,
            types,
            &[64],
            out,
            Input::Memory(out),
            Input::Memory(out),
        );
        let launch = launch.unwrap().unwrap();
        assert!(
            launch.kernel.starts_with("shaped_promoted_"),
            "{}",
            launch.kernel
        );
        assert_eq!((launch.args.vec, launch.work), (lanes, 64 / lanes as u64));
    };
    use crate::DType::{BF16, F32, F64, I8, I16, I32, U8};
    mixed(BF16, F32, F32, 4);
    mixed(F64, I32, F64, 2);
    mixed(U8, I8, I16, 4);
}

/// The kernels divide indices below 2^31 by a size with a multiply, an add
/// and a shift: exact for every size, at the ends of the range and around
/// multiples of the size.
#[test]
fn divisions_by_magic_numbers_are_exact() {
    let top = (Divisor::NARROW - 1) as u32;
    let mut sizes: Vec<usize> = (1..=2048).collect();
    for shift in 11..31 {
        let p = 1usize << shift;
        sizes.extend([p - 1, p, p + 1, p / 3, p / 3 * 2 + 1]);
    }
    sizes.extend([top as usize, 65_537, 1_000_003, 16_384]);
    for &size in &sizes {
        let d = Divisor::new(size).unwrap();
        let s = size as u64;
        let mut numbers = vec![0, 1, top, top - 1, (top / 2) | 1];
        for k in [1u64, 2, 3, 1000, (top as u64) / s] {
            for n in [k * s - 1, k * s, k * s + 1] {
                numbers.extend(u32::try_from(n).ok().filter(|&n| n <= top));
            }
        }
        for n in numbers {
            assert_eq!(d.divide(n), n / size as u32, "{n} / {size}");
        }
    }
    assert_eq!(Divisor::new(0), None);
    assert_eq!(Divisor::new(1 << 31), None);
}

/// `scatter_reduce`'s `mean`, its last step (the sum over the count where
/// anything was counted), for every dtype that has it: the kernel computes
/// in int64, float32, float64 or the complex type, and agrees with the CPU
/// to the bit, counts of 0 and negative ones included.
#[test]
fn host_kernels_scatter_mean() {
    use crate::ops::indexing::MeanOf;
    macro_rules! each {
        ($($t:ty),*) => {$(
            check_update_from::<$t, i64, _, _>(MeanOf::<$t>::new().unwrap(), Identity);
        )*};
    }
    each!(
        f16,
        bf16,
        f32,
        f64,
        Complex<f32>,
        Complex<f64>,
        u8,
        i8,
        i16,
        i32,
        i64
    );
    assert!(MeanOf::<bool>::new().is_none());
    // The counts start as a fill of int64 over the target's shape, mapped
    // from the target's type.
    check_unary::<f16, i64, _>(Constant(1i64));
    check_unary::<Complex<f64>, i64, _>(Constant(0i64));
}
