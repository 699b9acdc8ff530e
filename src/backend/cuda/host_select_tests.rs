//! The `where` kernels (`kernels/select.cuh`) compiled for the host, against
//! the CPU backend's `select`: the operand pairs of [`PAIRS`] (broadcasts,
//! transposed, offset, expanded, size 0, rank 0) with a full, an expanded and
//! a rank-0 condition, on operands of one dtype and of mixed dtypes (each
//! converted to the output's as it is loaded). Results must match exactly.
//! Likewise the kernels of three operands (`lerp`, `addcmul`, `addcdiv`)
//! against the CPU's `map3` and `update3`.

use super::host_tests::{PAIRS, Sample, Spec, contiguous, data};
use super::launch::Operand;
use super::select::{
    TernaryArgs, TernaryOperands, WhereArgs, WhereOperands, plan_ternary, plan_where,
};
use crate::backend::Elementwise;
use crate::backend::cpu::CpuPtr;
use crate::backend::{Cpu, StridedMut, StridedRef};
use crate::dtype::Element;
use crate::dtype::Scalar;
use crate::dtype::cast::cast;
use crate::dtype::ternary::{Addcmul, Interpolate};
use crate::ops::broadcast_strides;
use crate::ops::functions::TernaryFn;
use crate::ops::op_codes::TernaryOp;
use crate::ops::ternary::{AddcdivBy, AddcmulBy, ByNumber, InCommon3, Lerp, LerpBy};
use core::ffi::c_char;
use core::mem::offset_of;
use half::{bf16, f16};
use num_complex::Complex;
use std::ffi::CString;

// SAFETY: these are the C++ functions of kernels/host_launch.cpp, with the
// same signatures; build.rs links that library with the `cuda` feature.
unsafe extern "C" {
    fn shaped_host_where_launch(
        name: *const c_char,
        grid: u32,
        block: u32,
        args: *const WhereArgs,
    ) -> i32;
    fn shaped_host_where_args_layout(out: *mut u64);
}

#[test]
fn where_args_layout_matches_the_kernels() {
    let mut c = [0u64; 10];
    // SAFETY: the function writes 10 values.
    unsafe { shaped_host_where_args_layout(c.as_mut_ptr()) };
    let rust = [
        size_of::<WhereArgs>(),
        offset_of!(WhereArgs, sizes),
        offset_of!(WhereArgs, out),
        offset_of!(WhereArgs, cond),
        offset_of!(WhereArgs, a),
        offset_of!(WhereArgs, b),
        offset_of!(WhereArgs, rank),
        offset_of!(WhereArgs, b_dtype),
        offset_of!(WhereArgs, narrow),
        offset_of!(WhereArgs, shift),
    ];
    assert_eq!(c.map(|x| x as usize), rust);
}

/// An operand's elements and its strides broadcast to the operation's sizes.
struct Broadcast<T> {
    data: Vec<T>,
    offset: usize,
    strides: Vec<usize>,
}

impl<T: Element> Broadcast<T> {
    fn new(data: Vec<T>, s: Spec, sizes: &[usize]) -> Self {
        let mut strides = vec![0; sizes.len()];
        broadcast_strides(s.sizes, s.strides, sizes, &mut strides);
        Broadcast {
            data,
            offset: s.offset,
            strides,
        }
    }

    fn cpu<'a>(&'a mut self, sizes: &'a [usize]) -> StridedRef<'a, T, Cpu> {
        StridedRef {
            ptr: CpuPtr::from_mut(&mut self.data),
            sizes,
            strides: &self.strides,
            offset: self.offset,
        }
    }

    fn device(&self) -> (crate::dtype::DType, Operand<'_>) {
        let operand = Operand {
            addr: self.data.as_ptr() as u64,
            offset: self.offset,
            strides: &self.strides,
        };
        (T::DTYPE, operand)
    }
}

/// The conditions of each pair: every element its own, one per row (the
/// last dimension expanded), and a rank-0 one.
fn conditions(sizes: &[usize]) -> Vec<(Vec<bool>, Vec<usize>)> {
    let numel: usize = sizes.iter().product();
    let full = (0..numel).map(|i| i % 3 != 1).collect();
    let mut per_row = contiguous(sizes);
    if let Some(last) = per_row.last_mut() {
        *last = 0;
    }
    let rows = (0..numel.max(1)).map(|i| i % 2 == 0).collect();
    vec![
        (full, contiguous(sizes)),
        (rows, per_row),
        (vec![true], vec![0; sizes.len()]),
        (vec![false], vec![0; sizes.len()]),
    ]
}

/// `where(cond, a, b)` into `U` on the host kernels and on the CPU, for
/// every pair of layouts and every condition.
fn check<A: Sample, B: Sample, U: Element>() {
    for &(sa, sb) in PAIRS {
        let (sizes, _, _) = super::host_tests::broadcast_pair(sa, sb);
        let mut a = Broadcast::new(data::<A>(sa.len, 1), sa, &sizes);
        let mut b = Broadcast::new(data::<B>(sb.len, 2), sb, &sizes);
        for (values, strides) in conditions(&sizes) {
            let mut cond = Broadcast {
                data: values,
                offset: 0,
                strides,
            };
            let want =
                Cpu::select::<A, B, U>(&sizes, cond.cpu(&sizes), a.cpu(&sizes), b.cpu(&sizes))
                    .unwrap();
            let numel: usize = sizes.iter().product();
            // The output starts as ones: an element the kernel leaves
            // alone shows.
            let mut got = vec![U::ONE; numel];
            let out_strides = contiguous(&sizes);
            let operands = WhereOperands {
                output: U::DTYPE,
                out: Operand {
                    addr: got.as_mut_ptr() as u64,
                    offset: 0,
                    strides: &out_strides,
                },
                cond: cond.device().1,
                a: a.device(),
                b: b.device(),
            };
            if let Some(launch) = plan_where(&sizes, operands).unwrap() {
                let name = CString::new(launch.kernel.as_str()).unwrap();
                // A grid of at most 3 blocks of 64 threads, so that the
                // grid-stride loop goes round.
                let grid = launch.grid(64, 3);
                // SAFETY: `name` is a C string; the arguments mirror the
                // kernel's (`where_args_layout_matches_the_kernels`); the
                // inputs hold every index of their broadcast layouts and
                // the output `numel` elements of `U`.
                let status =
                    unsafe { shaped_host_where_launch(name.as_ptr(), grid, 64, &launch.args) };
                assert_eq!(status, 0, "{} ran on the host", launch.kernel);
            }
            #[allow(clippy::eq_op)]
            let same = got.len() == want.len()
                && got
                    .iter()
                    .zip(want.as_slice())
                    .all(|(x, y)| x == y || (x != x && y != y));
            assert!(
                same,
                "where into {:?} of {:?} and {:?} over {sizes:?}, condition strides {:?}:\nhost kernel {got:?}\nCPU {:?}",
                U::DTYPE,
                A::DTYPE,
                B::DTYPE,
                cond.strides,
                want.as_slice()
            );
        }
    }
}

#[test]
fn where_of_one_dtype() {
    check::<f32, f32, f32>();
    check::<f64, f64, f64>();
    check::<f16, f16, f16>();
    check::<bf16, bf16, bf16>();
    check::<Complex<f32>, Complex<f32>, Complex<f32>>();
    check::<Complex<f64>, Complex<f64>, Complex<f64>>();
    check::<u8, u8, u8>();
    check::<i8, i8, i8>();
    check::<i16, i16, i16>();
    check::<i32, i32, i32>();
    check::<i64, i64, i64>();
    check::<bool, bool, bool>();
}

#[test]
fn where_of_mixed_dtypes() {
    // Each into the pair's common type, as `where_` asks.
    check::<i32, f64, f64>();
    check::<u8, bool, u8>();
    check::<f16, bf16, f32>();
    check::<Complex<f32>, f64, Complex<f64>>();
    check::<i8, u8, i16>();
    check::<i64, f16, f16>();
    check::<bool, Complex<f64>, Complex<f64>>();
}

// SAFETY: as above: kernels/host_launch.cpp's functions, same signatures.
unsafe extern "C" {
    fn shaped_host_ternary_launch(
        name: *const c_char,
        grid: u32,
        block: u32,
        args: *const TernaryArgs,
    ) -> i32;
    fn shaped_host_ternary_args_layout(out: *mut u64);
}

#[test]
fn ternary_args_layout_matches_the_kernels() {
    let mut c = [0u64; 12];
    // SAFETY: the function writes 12 values.
    unsafe { shaped_host_ternary_args_layout(c.as_mut_ptr()) };
    let rust = [
        size_of::<TernaryArgs>(),
        offset_of!(TernaryArgs, sizes),
        offset_of!(TernaryArgs, out),
        offset_of!(TernaryArgs, c),
        offset_of!(TernaryArgs, value_re),
        offset_of!(TernaryArgs, value_int),
        offset_of!(TernaryArgs, value_kind),
        offset_of!(TernaryArgs, rank),
        offset_of!(TernaryArgs, c_dtype),
        offset_of!(TernaryArgs, op),
        offset_of!(TernaryArgs, narrow),
        offset_of!(TernaryArgs, shift),
    ];
    assert_eq!(c.map(|x| x as usize), rust);
}

/// Runs a planned launch of three operands on the host kernels.
fn host_ternary(sizes: &[usize], op: TernaryOp, operands: TernaryOperands<'_>) {
    if let Some(launch) = plan_ternary(sizes, op, operands).unwrap() {
        let name = CString::new(launch.kernel.as_str()).unwrap();
        let grid = launch.grid(64, 3);
        // SAFETY: `name` is a C string; the arguments mirror the kernel's
        // (`ternary_args_layout_matches_the_kernels`); the caller's
        // operands hold every index of their broadcast layouts.
        let status = unsafe { shaped_host_ternary_launch(name.as_ptr(), grid, 64, &launch.args) };
        assert_eq!(status, 0, "{} ran on the host", launch.kernel);
    }
}

fn same_bits<U: Element>(got: &[U], want: &[U]) -> bool {
    #[allow(clippy::eq_op)]
    let same = got.len() == want.len()
        && got
            .iter()
            .zip(want)
            .all(|(x, y)| x == y || (x != x && y != y));
    same
}

/// `f(a, b, c)` into `U` on the host kernels and on the CPU, out of place
/// for every pair of layouts (`c` laid out as `b`, and as a rank-0
/// operand), and in place into a contiguous `a` of the broadcast sizes.
fn check_ternary<A: Sample, B: Sample, C: Sample, U: Element, F>(f: F)
where
    F: TernaryFn<A, B, C, U> + TernaryFn<U, B, C, U> + core::fmt::Debug,
{
    let op = TernaryFn::<A, B, C, U>::kernel_op(&f).unwrap();
    for &(sa, sb) in PAIRS {
        let (sizes, _, _) = super::host_tests::broadcast_pair(sa, sb);
        let numel: usize = sizes.iter().product();
        let mut a = Broadcast::new(data::<A>(sa.len, 1), sa, &sizes);
        let mut b = Broadcast::new(data::<B>(sb.len, 2), sb, &sizes);
        let thirds = [
            Broadcast::new(data::<C>(sb.len, 5), sb, &sizes),
            Broadcast {
                data: data::<C>(1, 7),
                offset: 0,
                strides: vec![0; sizes.len()],
            },
        ];
        for mut c in thirds {
            let want =
                Cpu::map3::<A, B, C, U, F>(&sizes, a.cpu(&sizes), b.cpu(&sizes), c.cpu(&sizes), f)
                    .unwrap();
            let mut got = vec![U::ONE; numel];
            let out_strides = contiguous(&sizes);
            let out = Operand {
                addr: got.as_mut_ptr() as u64,
                offset: 0,
                strides: &out_strides,
            };
            let operands = TernaryOperands {
                output: U::DTYPE,
                out,
                a: a.device(),
                b: b.device(),
                c: c.device(),
            };
            host_ternary(&sizes, op, operands);
            assert!(
                same_bits(&got, want.as_slice()),
                "{f:?} into {:?} over {sizes:?}:\nhost kernel {got:?}\nCPU {:?}",
                U::DTYPE,
                want.as_slice()
            );
            // In place: `out = f(out, b, c)` from a contiguous `a` of `U`s.
            let start: Vec<U> = data::<A>(numel, 3).into_iter().map(cast).collect();
            let mut on_cpu = start.clone();
            let cpu_out = StridedMut {
                ptr: CpuPtr::from_mut(&mut on_cpu),
                sizes: &sizes,
                strides: &out_strides,
                offset: 0,
            };
            Cpu::update3::<U, B, C, F>(cpu_out, b.cpu(&sizes), c.cpu(&sizes), f).unwrap();
            let mut on_host = start;
            let target = Operand {
                addr: on_host.as_mut_ptr() as u64,
                offset: 0,
                strides: &out_strides,
            };
            let operands = TernaryOperands {
                output: U::DTYPE,
                out: target,
                a: (U::DTYPE, target),
                b: b.device(),
                c: c.device(),
            };
            host_ternary(&sizes, op, operands);
            assert!(
                same_bits(&on_host, &on_cpu),
                "{f:?} in place into {:?} over {sizes:?}:\nhost kernel {on_host:?}\nCPU {on_cpu:?}",
                U::DTYPE
            );
        }
    }
}

/// Every function of three operands of type `T`, computed in `T`, with
/// the numbers `numbers` (weights and values).
fn ternary_of_floats<T: Sample + Interpolate>(numbers: &[Scalar]) {
    check_ternary::<T, T, T, T, _>(InCommon3::<_, T>::new(Lerp));
    for &n in numbers {
        check_ternary::<T, T, T, T, _>(InCommon3::<_, T>::new(LerpBy(
            ByNumber::new::<T>(n).unwrap(),
        )));
        check_ternary::<T, T, T, T, _>(InCommon3::<_, T>::new(AddcmulBy(
            ByNumber::new::<T>(n).unwrap(),
        )));
        check_ternary::<T, T, T, T, _>(InCommon3::<_, T>::new(AddcdivBy(
            ByNumber::new::<T>(n).unwrap(),
        )));
    }
}

const NUMBERS: &[Scalar] = &[
    Scalar::Float(0.3),
    Scalar::Float(-1.75),
    Scalar::Int(2),
    Scalar::Float(0.5),
];

#[test]
fn ternary_of_real_floats() {
    ternary_of_floats::<f32>(NUMBERS);
    ternary_of_floats::<f64>(NUMBERS);
    ternary_of_floats::<f16>(NUMBERS);
    ternary_of_floats::<bf16>(NUMBERS);
}

#[test]
fn ternary_of_complex_numbers() {
    let numbers = [NUMBERS, &[Scalar::Complex(0.25, -0.5)]].concat();
    ternary_of_floats::<Complex<f32>>(&numbers);
    ternary_of_floats::<Complex<f64>>(&numbers);
}

#[test]
fn addcmul_of_integers_and_mixed_dtypes() {
    fn ints<T: Sample + Addcmul>() {
        for n in [
            Scalar::Int(3),
            Scalar::Int(-3),
            Scalar::Float(2.9),
            Scalar::Bool(true),
        ] {
            check_ternary::<T, T, T, T, _>(InCommon3::<_, T>::new(AddcmulBy(
                ByNumber::new::<T>(n).unwrap(),
            )));
        }
    }
    ints::<u8>();
    ints::<i8>();
    ints::<i16>();
    ints::<i32>();
    ints::<i64>();
    // Each converted to the common type as it is loaded.
    let value = |n| ByNumber::new::<f64>(Scalar::Float(n)).unwrap();
    check_ternary::<i32, f32, u8, f64, _>(InCommon3::<_, f64>::new(AddcmulBy(value(0.5))));
    check_ternary::<bool, i64, f16, f64, _>(InCommon3::<_, f64>::new(AddcdivBy(value(2.0))));
    let half = ByNumber::new::<f16>(Scalar::Float(0.3)).unwrap();
    check_ternary::<f16, bf16, i8, f16, _>(InCommon3::<_, f16>::new(AddcmulBy(half)));
}
