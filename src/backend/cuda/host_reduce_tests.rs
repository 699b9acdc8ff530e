//! The reduction kernels (`kernels/reduce.cuh`) compiled for the host,
//! against the CPU reduction engine: the plans of [`plan_reduce`] (rows and
//! columns, one pass or chunks combined in a second) on strided, permuted,
//! offset, expanded, empty and rank-0 layouts along every subset of their
//! dimensions, every reduction on every dtype that has it, and the edge
//! values (NaN, ties, signed zeros, overflow, empty reductions). The threads
//! of a block run as fibers that meet at every `__syncthreads`, so the
//! shared-memory trees run as on a GPU.
//!
//! Integer, bool, order-based and logical results must match exactly. Sums,
//! products and means of floating types add in another order than the
//! CPU's, so they match within a tolerance per dtype.

use super::host_tests::{Sample, Spec, data, spec};
use super::reduce::{Config, ReduceArgs, ReducePlan, Source, kernel_name, outputs, plan_reduce};
use crate::backend::cpu::reduce::{Input, reduce};
use crate::dtype::DType;
use crate::dtype::Element;
use crate::ops::op_codes::ReduceOp;
use crate::ops::reductions::Reducer;
use crate::ops::reductions::reducers::{
    Direction, Extreme, ExtremeAt, Extremum, Largest, Logical, Mean, MeanElement, Prod, Smallest,
    Sum, Summable, Truth,
};
use core::ffi::c_char;
use core::mem::offset_of;
use half::{bf16, f16};
use num_complex::Complex;
use std::ffi::CString;

// SAFETY: these are the C++ functions of kernels/host_launch.cpp, with the
// same signatures; build.rs links that library with the `cuda` feature.
unsafe extern "C" {
    fn shaped_host_reduce_launch(
        name: *const c_char,
        grid: u32,
        block: u32,
        args: *const ReduceArgs,
    ) -> i32;
    fn shaped_host_reduce_args_layout(out: *mut u64);
}

#[test]
fn reduce_args_layout_matches_the_kernels() {
    let mut c = [0u64; 12];
    // SAFETY: the function writes 12 values.
    unsafe { shaped_host_reduce_args_layout(c.as_mut_ptr()) };
    let rust = [
        size_of::<ReduceArgs>(),
        offset_of!(ReduceArgs, input),
        offset_of!(ReduceArgs, kept_sizes),
        offset_of!(ReduceArgs, red_strides),
        offset_of!(ReduceArgs, numel_out),
        offset_of!(ReduceArgs, chunk),
        offset_of!(ReduceArgs, kept_rank),
        offset_of!(ReduceArgs, splits),
        offset_of!(ReduceArgs, out_strides),
        offset_of!(ReduceArgs, out_red_stride),
        offset_of!(ReduceArgs, param),
        offset_of!(ReduceArgs, flags),
    ];
    assert_eq!(c.map(|x| x as usize), rust);
}

/// Launch shapes: small grids and chunks so that the grid-stride loops go
/// round, outputs split into chunks and the combining pass runs on small
/// tensors; the device's block size; and one pass with many blocks.
pub(super) const CONFIGS: [Config; 3] = [
    Config {
        block: 64,
        max_blocks: 3,
        min_per_thread: 1,
        cache_bytes: 1 << 10,
    },
    Config {
        block: 256,
        max_blocks: 7,
        min_per_thread: 2,
        cache_bytes: 0,
    },
    Config {
        block: 128,
        max_blocks: 1000,
        min_per_thread: 32,
        cache_bytes: 50 << 20,
    },
];

/// Input layouts: contiguous, transposed, permuted, offset with a gap,
/// expanded (stride 0), with size-1 dimensions, odd sizes, long rows and
/// columns, empty, and rank 0; the last two have columns whose 2-byte
/// elements are read two outputs at a time (an even offset, and outer kept
/// and reduced strides that are even).
pub(super) const LAYOUTS: [Spec; 15] = [
    spec(20, &[4, 5], &[5, 1], 0),
    spec(42, &[7, 6], &[1, 7], 0),
    spec(120, &[2, 3, 4, 5], &[60, 1, 15, 3], 0),
    spec(80, &[10, 4], &[8, 1], 3),
    spec(8, &[16, 8], &[0, 1], 0),
    spec(12, &[3, 1, 4], &[4, 4, 1], 0),
    spec(2145, &[33, 65], &[65, 1], 0),
    spec(5000, &[5000], &[1], 0),
    spec(6144, &[1536, 4], &[4, 1], 0),
    spec(6144, &[4, 1536], &[1, 4], 0),
    spec(0, &[2, 0, 3], &[0, 3, 1], 0),
    spec(7, &[], &[], 4),
    spec(36, &[3, 3, 4], &[12, 1, 3], 0),
    spec(4096, &[64, 64], &[64, 1], 0),
    spec(520, &[6, 10, 8], &[80, 8, 1], 2),
];

/// Columns of 2-byte elements are planned two outputs per thread exactly
/// where each pair is one aligned 4-byte word on every row; the partial
/// pass reads pairs, the combining pass one output per thread.
#[test]
fn two_byte_columns_are_planned_in_pairs() {
    let plan = |s: Spec, bytes: usize, mask: &[bool], config: Config| {
        let source = Source {
            addr: 1 << 20,
            offset: s.offset,
            sizes: s.sizes,
            strides: s.strides,
        };
        let plan = plan_reduce(ReduceOp::Sum, source, bytes, mask, config)
            .unwrap()
            .unwrap();
        plan.launches
            .iter()
            .map(|l| (l.args.pairs, l.grid))
            .collect::<Vec<_>>()
    };
    let big = CONFIGS[2];
    let columns = spec(4096, &[64, 64], &[64, 1], 0);
    assert_eq!(plan(columns, 2, &[true, false], big), [(1, 1)]); // 64 outputs: one block
    assert_eq!(plan(columns, 4, &[true, false], big), [(0, 2)]);
    assert_eq!(plan(columns, 2, &[false, true], big), [(0, 64)]); // rows
    let odd_offset = spec(4097, &[64, 64], &[64, 1], 1);
    assert_eq!(plan(odd_offset, 2, &[true, false], big)[0].0, 0);
    let odd_width = spec(2145, &[33, 65], &[65, 1], 0);
    assert_eq!(plan(odd_width, 2, &[true, false], big)[0].0, 0);
    let three = spec(520, &[6, 10, 8], &[80, 8, 1], 2);
    assert_eq!(plan(three, 2, &[false, true, false], big)[0].0, 1);
    assert_eq!(plan(three, 2, &[true, true, false], big)[0].0, 1);
    // Chunks: the partial pass in pairs, the combining pass not.
    let tall = spec(1 << 16, &[1024, 64], &[64, 1], 0);
    let passes = plan(tall, 2, &[true, false], CONFIGS[1]);
    assert_eq!(passes.iter().map(|p| p.0).collect::<Vec<_>>(), [1, 0]);
}

/// Every subset of `rank` dimensions, as masks.
pub(super) fn masks(rank: usize) -> impl Iterator<Item = Vec<bool>> {
    (0..1usize << rank).map(move |bits| (0..rank).map(|d| bits >> d & 1 == 1).collect())
}

/// Runs reduction `op` of `x` (laid out as `s`) on the host kernels;
/// returns the outputs and, for `max`/`min`, the indices.
fn host_reduce<T: Element, U: Element>(
    op: ReduceOp,
    x: &[T],
    s: Spec,
    mask: &[bool],
    config: Config,
) -> (Vec<U>, Vec<i64>) {
    let n = outputs(s.sizes, mask).expect("the outputs fit");
    // Outputs start as ones: an output the kernel leaves alone shows.
    let mut out = vec![U::ONE; n];
    let mut indices = vec![-7i64; n];
    let source = Source {
        addr: x.as_ptr() as u64,
        offset: s.offset,
        sizes: s.sizes,
        strides: s.strides,
    };
    let Some(mut plan) = plan_reduce(op, source, size_of::<T>(), mask, config).unwrap() else {
        assert_eq!(n, 0, "a plan for every reduction with outputs");
        return (out, indices);
    };
    run_on_host(
        op,
        &mut plan,
        T::DTYPE,
        out.as_mut_ptr() as u64,
        indices.as_mut_ptr() as u64,
    );
    (out, indices)
}

/// Runs `plan` (of reduction `op`) on the host kernel of `dtype` into `out` and `indices`,
/// which must hold what the plan writes (the input is already in its
/// arguments).
pub(super) fn run_on_host(
    op: ReduceOp,
    plan: &mut ReducePlan,
    dtype: DType,
    out: u64,
    indices: u64,
) {
    let mut workspace = vec![0u128; plan.workspace.div_ceil(size_of::<u128>())];
    plan.bind(out, indices, workspace.as_mut_ptr() as u64);
    let kernel = kernel_name(op, dtype);
    let name = CString::new(kernel.as_str()).unwrap();
    for launch in &plan.launches {
        // SAFETY: `name` is a C string; the arguments mirror the kernel's
        // (`reduce_args_layout_matches_the_kernels`); the caller's input
        // holds every index of its layout and `out`/`indices` what the
        // plan writes, the workspace the bytes the plan asked for.
        let status = unsafe {
            shaped_host_reduce_launch(name.as_ptr(), launch.grid, plan.block, &launch.args)
        };
        assert_eq!(status, 0, "{kernel} ran on the host");
    }
}

/// Agreement of a GPU-order result with the CPU's.
pub(super) trait Close: Element {
    /// `a` and `b` agree within `tol` relative to `b` (or both are NaN);
    /// exact for `tol == 0`.
    fn close(a: Self, b: Self, tol: f64) -> bool;
}
macro_rules! close_exact {
    ($($t:ty),*) => {$(
        impl Close for $t {
            fn close(a: Self, b: Self, _: f64) -> bool {
                a == b
            }
        }
    )*};
}
close_exact!(u8, i8, i16, i32, i64, bool);
fn close_f64(a: f64, b: f64, tol: f64) -> bool {
    a == b || (a.is_nan() && b.is_nan()) || (a - b).abs() <= tol * b.abs().max(1.0)
}
macro_rules! close_float {
    ($($t:ty),*) => {$(
        impl Close for $t {
            fn close(a: Self, b: Self, tol: f64) -> bool {
                close_f64(f64::from(a), f64::from(b), tol)
            }
        }
        impl Close for Complex<$t> {
            fn close(a: Self, b: Self, tol: f64) -> bool {
                close_f64(f64::from(a.re), f64::from(b.re), tol)
                    && close_f64(f64::from(a.im), f64::from(b.im), tol)
            }
        }
    )*};
}
close_float!(f32, f64);
macro_rules! close_half {
    ($($t:ty),*) => {$(
        impl Close for $t {
            fn close(a: Self, b: Self, tol: f64) -> bool {
                close_f64(a.to_f64(), b.to_f64(), tol)
            }
        }
    )*};
}
close_half!(f16, bf16);

/// Checks reducer `r` of `x` (laid out as `s`) along `mask` in every
/// configuration.
fn check_one<T, R>(r: R, op: ReduceOp, x: &[T], s: Spec, mask: &[bool], tol: f64)
where
    T: Element,
    R: Reducer<T>,
    R::Out: Close,
{
    let input = Input::from_slice(x, s.sizes, s.strides, s.offset).unwrap();
    let want = reduce(input, mask, r).unwrap();
    for config in CONFIGS {
        let (got, _) = host_reduce::<T, R::Out>(op, x, s, mask, config);
        assert!(
            got.len() == want.len()
                && got
                    .iter()
                    .zip(&want)
                    .all(|(&g, &w)| R::Out::close(g, w, tol)),
            "{op:?} of {} on {s:?} along {mask:?} with {config:?}:\nhost kernel {got:?}\nCPU {want:?}",
            core::any::type_name::<T>(),
        );
    }
}

/// Checks `max`/`min` with indices of `x` (laid out as `s`) along `mask`.
fn check_indexed_one<T: Extremum + Close, W: Direction + Default>(x: &[T], s: Spec, mask: &[bool]) {
    let op = Reducer::<T>::device_op(ExtremeAt::<W>::default()).unwrap();
    let input = Input::from_slice(x, s.sizes, s.strides, s.offset).unwrap();
    let want = reduce(input, mask, ExtremeAt::<W>::default()).unwrap();
    for config in CONFIGS {
        let (values, indices) = host_reduce::<T, T>(op, x, s, mask, config);
        let agree = values.len() == want.len()
            && want
                .iter()
                .zip(values.iter().zip(&indices))
                .all(|(&(v, i), (&gv, &gi))| T::close(gv, v, 0.0) && gi == i);
        assert!(
            agree,
            "{op:?} of {} on {s:?} along {mask:?} with {config:?}:\nhost kernel {values:?} at {indices:?}\nCPU {want:?}",
            core::any::type_name::<T>(),
        );
    }
}

/// Reducer `r` on every layout along every subset of its dimensions.
fn check_layouts<T: Sample, R>(r: R, tol: f64)
where
    R: Reducer<T>,
    R::Out: Close,
{
    let op = r.device_op().expect("the reducers have kernels");
    for s in LAYOUTS {
        let x = data::<T>(s.len, 3);
        for mask in masks(s.sizes.len()) {
            check_one(r, op, &x, s, &mask, tol);
        }
    }
}

#[test]
fn sums_on_every_layout_and_plan() {
    check_layouts::<i64, _>(Sum, 0.0);
    check_layouts::<f64, _>(Sum, 1e-12);
    check_layouts::<u8, _>(Logical::<true>, 0.0);
}

#[test]
fn extremes_on_every_layout_and_plan() {
    check_layouts::<i16, _>(Extreme::<Largest>::default(), 0.0);
    check_layouts::<f32, _>(Extreme::<Smallest>::default(), 0.0);
}

#[test]
fn indices_on_every_layout_and_plan() {
    for s in LAYOUTS {
        let x = data::<f32>(s.len, 1);
        // `max`/`min` take one dim (or a rank-0 tensor, none).
        for d in 0..s.sizes.len().max(1) {
            let mut mask = vec![false; s.sizes.len()];
            if let Some(m) = mask.get_mut(d) {
                *m = true;
            }
            // A dimension of size 0 has no extreme: an error before the kernels.
            if s.sizes.get(d) == Some(&0) {
                continue;
            }
            check_indexed_one::<f32, Largest>(&x, s, &mask);
            check_indexed_one::<f32, Smallest>(&x, s, &mask);
        }
    }
}

/// A few layouts and masks, for every reduction and dtype; the last two
/// read 2-byte columns in pairs (`two_byte_columns_are_planned_in_pairs`).
const SOME: [(Spec, &[bool]); 7] = [
    (spec(2145, &[33, 65], &[65, 1], 0), &[false, true]),
    (spec(2145, &[33, 65], &[65, 1], 0), &[true, false]),
    (
        spec(120, &[2, 3, 4, 5], &[60, 1, 15, 3], 0),
        &[true, false, true, true],
    ),
    (spec(5000, &[5000], &[1], 0), &[true]),
    (spec(42, &[7, 6], &[1, 7], 0), &[true, false]),
    (spec(4096, &[64, 64], &[64, 1], 0), &[true, false]),
    (
        spec(520, &[6, 10, 8], &[80, 8, 1], 2),
        &[false, true, false],
    ),
];

/// The reductions every dtype has.
fn check_every_dtype<T: Sample + Summable + Truth>(tol: f64)
where
    T::Sum: Close,
    T::Logical: Close,
{
    for (s, mask) in SOME {
        let x = data::<T>(s.len, 2);
        check_one(Sum, ReduceOp::Sum, &x, s, mask, tol);
        check_one(Prod, ReduceOp::Prod, &x, s, mask, tol);
        check_one(Logical::<false>, ReduceOp::All, &x, s, mask, 0.0);
        check_one(Logical::<true>, ReduceOp::Any, &x, s, mask, 0.0);
    }
}

/// `mean`, for floating and complex dtypes.
fn check_mean<T: Sample + MeanElement + Close>(tol: f64) {
    for (s, mask) in SOME {
        check_one(Mean, ReduceOp::Mean, &data::<T>(s.len, 4), s, mask, tol);
    }
}

/// The order-based reductions, for real dtypes.
fn check_ordered<T: Sample + Extremum + Close>() {
    for (s, mask) in SOME {
        let x = data::<T>(s.len, 6);
        check_one(
            Extreme::<Largest>::default(),
            ReduceOp::Amax,
            &x,
            s,
            mask,
            0.0,
        );
        check_one(
            Extreme::<Smallest>::default(),
            ReduceOp::Amin,
            &x,
            s,
            mask,
            0.0,
        );
        if mask.iter().filter(|&&m| m).count() == 1 {
            check_indexed_one::<T, Largest>(&x, s, mask);
            check_indexed_one::<T, Smallest>(&x, s, mask);
        }
    }
}

#[test]
fn every_reduction_on_every_dtype() {
    // Sums and products of floating types: another order of the same
    // additions; the half types round once from f32, as on the CPU.
    check_every_dtype::<f16>(2e-3);
    check_every_dtype::<bf16>(1e-2);
    check_every_dtype::<f32>(1e-5);
    check_every_dtype::<f64>(1e-12);
    check_every_dtype::<Complex<f32>>(1e-5);
    check_every_dtype::<Complex<f64>>(1e-12);
    check_every_dtype::<u8>(0.0);
    check_every_dtype::<i8>(0.0);
    check_every_dtype::<i16>(0.0);
    check_every_dtype::<i32>(0.0);
    check_every_dtype::<i64>(0.0);
    check_every_dtype::<bool>(0.0);
    check_mean::<f16>(2e-3);
    check_mean::<bf16>(1e-2);
    check_mean::<f32>(1e-5);
    check_mean::<f64>(1e-12);
    check_mean::<Complex<f32>>(1e-5);
    check_mean::<Complex<f64>>(1e-12);
    check_ordered::<f16>();
    check_ordered::<bf16>();
    check_ordered::<f32>();
    check_ordered::<f64>();
    check_ordered::<u8>();
    check_ordered::<i8>();
    check_ordered::<i16>();
    check_ordered::<i32>();
    check_ordered::<i64>();
    check_ordered::<bool>();
}

/// `all` and `any` of a row.
fn check_truth<T: Truth>(x: &[T])
where
    T::Logical: Close,
{
    let s = spec(x.len(), Vec::leak(vec![x.len()]), &[1], 0);
    check_one(Logical::<false>, ReduceOp::All, x, s, &[true], 0.0);
    check_one(Logical::<true>, ReduceOp::Any, x, s, &[true], 0.0);
}

#[test]
fn edge_values() {
    // A contiguous row of `n` (the layout's sizes live as long as the test).
    let row = |n: usize| spec(n, Vec::leak(vec![n]), &[1], 0);
    let along = [true];
    let nan = f32::NAN;
    // NaN wins `amax`/`amin`; `argmax` points at the first NaN, or else at
    // the first of equal extremes (the tree combines out of order).
    let mut x = vec![1.0f32; 3000];
    x[2500] = nan;
    x[1700] = nan;
    x[10] = 5.0;
    check_one(
        Extreme::<Largest>::default(),
        ReduceOp::Amax,
        &x,
        row(3000),
        &along,
        0.0,
    );
    check_indexed_one::<f32, Largest>(&x, row(3000), &along);
    check_indexed_one::<f32, Smallest>(&x, row(3000), &along);
    let ties = vec![2.0f32; 3000];
    check_indexed_one::<f32, Largest>(&ties, row(3000), &along);
    check_indexed_one::<f32, Smallest>(&ties, row(3000), &along);
    let mut late = vec![-1i32; 3000];
    late[2999] = 4;
    late[1234] = 4;
    check_indexed_one::<i32, Largest>(&late, row(3000), &along);
    // Infinities, signed zeros, and the half types' extremes.
    let edges = [f32::INFINITY, -0.0, 0.0, f32::NEG_INFINITY, 65504.0, -3.0];
    check_one(
        Extreme::<Largest>::default(),
        ReduceOp::Amax,
        &edges,
        row(6),
        &along,
        0.0,
    );
    check_one(
        Extreme::<Smallest>::default(),
        ReduceOp::Amin,
        &edges,
        row(6),
        &along,
        0.0,
    );
    check_one(Sum, ReduceOp::Sum, &edges[1..], row(5), &along, 0.0);
    let halves: Vec<f16> = [65504.0f32, 65504.0, -1.0, 0.5].map(f16::from_f32).to_vec();
    // Past f16's range: the f32 sum rounds to infinity once.
    check_one(Sum, ReduceOp::Sum, &halves, row(4), &along, 0.0);
    check_indexed_one::<f16, Largest>(&halves, row(4), &along);
    // Truth: NaN is true, -0 false; u8 answers in u8.
    check_truth(&[nan, 1.0, -0.0]);
    check_truth(&[-0.0f32, 0.0]);
    check_truth(&[0u8, 0, 9]);
    check_truth(&[Complex::new(0.0f64, 0.0), Complex::new(0.0, -2.0)]);
    // Integer sums and products wrap in i64.
    let big = [i64::MAX, 1, i64::MAX];
    check_one(Sum, ReduceOp::Sum, &big, row(3), &along, 0.0);
    check_one(Prod, ReduceOp::Prod, &big, row(3), &along, 0.0);
    check_one(Sum, ReduceOp::Sum, &[255u8; 1000], row(1000), &along, 0.0);
    // Reductions of no elements: 0, 1, NaN, true, false.
    let empty = spec(0, &[3, 0], &[0, 1], 0);
    let none: [f32; 0] = [];
    for r in [ReduceOp::Sum, ReduceOp::Prod] {
        let (got, _) = host_reduce::<f32, f32>(r, &none, empty, &[false, true], CONFIGS[0]);
        let want = if r == ReduceOp::Sum { 0.0 } else { 1.0 };
        assert_eq!(got, vec![want; 3], "{r:?} of nothing");
    }
    check_one(Mean, ReduceOp::Mean, &none, empty, &[false, true], 0.0);
    check_one(
        Logical::<false>,
        ReduceOp::All,
        &none,
        empty,
        &[false, true],
        0.0,
    );
    check_one(
        Logical::<true>,
        ReduceOp::Any,
        &none,
        empty,
        &[true, true],
        0.0,
    );
}
