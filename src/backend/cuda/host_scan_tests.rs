//! The scan kernels (`kernels/scan.cuh`) compiled for the host, the threads
//! of a block as fibers that meet at each `__syncthreads`, against the CPU
//! backend: every scan and dtype, rows and columns, one launch (lines
//! enough) and three (few lines cut into chunks: totals, carries, write).
//! Integers, bool and the extremes' indices agree exactly; floats within
//! a few units in the last place (the blocks add in another order).

use super::host_tests::{Sample, data};
use super::scan::{BLOCK, ScanArgs, ScanPlan, kernel_name, plan_scan};
use crate::backend::cpu::CpuPtr;
use crate::backend::{Cpu, Scanning, StridedRef};
use crate::dtype::{Element, Scalar};
use crate::ops::reductions::reducers::{Extremum, Largest, Smallest};
use crate::ops::scans::{
    CumElement, CumExtreme, CumProd, CumSum, LogCumSumExp, LogCumSumExpElement, Scanner,
};
use core::ffi::c_char;
use core::mem::offset_of;
use half::{bf16, f16};
use num_complex::Complex;
use std::ffi::CString;

// SAFETY: the C++ functions of kernels/host_launch.cpp, with the same
// signatures; build.rs links that library with the `cuda` feature.
unsafe extern "C" {
    fn shaped_host_scan_launch(
        name: *const c_char,
        grid: u32,
        block: u32,
        args: *const ScanArgs,
    ) -> i32;
    fn shaped_host_scan_args_layout(out: *mut u64);
}

#[test]
fn scan_args_layout_matches_the_kernels() {
    let mut c = [0u64; 8];
    // SAFETY: the function writes 8 values.
    unsafe { shaped_host_scan_args_layout(c.as_mut_ptr()) };
    let rust = [
        size_of::<ScanArgs>(),
        offset_of!(ScanArgs, x),
        offset_of!(ScanArgs, totals),
        offset_of!(ScanArgs, outer),
        offset_of!(ScanArgs, chunk),
        offset_of!(ScanArgs, chunks),
        offset_of!(ScanArgs, op),
        offset_of!(ScanArgs, phase),
    ];
    assert_eq!(c.map(|x| x as usize), rust);
}

/// Runs a plan on the host over `x` into `out` (and `indices`), with a
/// grid of at most 3 blocks (so that the loops over items go round).
fn run<T: Element, O: Element>(mut plan: ScanPlan, x: &[T], out: &mut [O], indices: &mut [i64]) {
    let kernel = kernel_name(T::DTYPE);
    // 16 bytes per state, 8-aligned.
    let mut totals = vec![0u64; 2 * plan.totals];
    let indices_addr = match indices.is_empty() {
        true => 0,
        false => indices.as_mut_ptr() as u64,
    };
    plan.bind(
        x.as_ptr() as u64,
        out.as_mut_ptr() as u64,
        indices_addr,
        match totals.is_empty() {
            true => 0,
            false => totals.as_mut_ptr() as u64,
        },
    );
    let name = CString::new(kernel.as_str()).unwrap();
    for &(phase, grid) in &plan.launches {
        let args = ScanArgs { phase, ..plan.args };
        // SAFETY: `name` is a C string; the arguments mirror the kernel's
        // (`scan_args_layout_matches_the_kernels`); the input and outputs
        // hold every element of the plan's sizes, the totals a state per
        // (line, chunk).
        let status = unsafe { shaped_host_scan_launch(name.as_ptr(), grid.min(3), BLOCK, &args) };
        assert_eq!(status, 0, "{kernel} (phase {phase}) ran on the host");
    }
}

/// The parts of a value, for comparing within a tolerance.
fn parts<T: Element>(v: T) -> (f64, f64) {
    match v.to_scalar() {
        Scalar::Bool(b) => (f64::from(u8::from(b)), 0.0),
        Scalar::Int(i) => (i as f64, 0.0),
        Scalar::Float(f) => (f, 0.0),
        Scalar::Complex(re, im) => (re, im),
    }
}

/// How results may differ besides the rounding of another order.
#[derive(Copy, Clone, PartialEq)]
enum Slack {
    /// Not at all.
    None,
    /// Complex products that overflow: which parts become infinite or NaN
    /// depends on the order of the multiplications, so a non-finite value
    /// need only meet a non-finite one.
    Overflow,
    /// Complex `logcumsumexp`: each step adds the phase of its terms, so
    /// the imaginary parts may differ by whole turns (2π) with the order
    /// of the steps; `exp` of either is the same.
    Turns,
}

/// `got` and `want` agree: exactly for integers, within `rel` (relative to
/// the larger magnitude, at least 1) for floats; NaN with NaN.
fn agree<O: Element>(got: &[O], want: &[O], rel: f64, slack: Slack, what: &str) {
    let finite = |p: (f64, f64)| p.0.is_finite() && p.1.is_finite();
    for (k, (g, w)) in got.iter().zip(want).enumerate() {
        let (g, w) = (parts(*g), parts(*w));
        if slack == Slack::Overflow && !finite(w) && !finite(g) {
            continue;
        }
        // (A complex value's parts err relative to its magnitude.)
        let scale = g.0.hypot(g.1).max(w.0.hypot(w.1)).max(1.0);
        for (part, (a, mut b)) in [(g.0, w.0), (g.1, w.1)].into_iter().enumerate() {
            if slack == Slack::Turns && part == 1 && b.is_finite() {
                let turn = 2.0 * core::f64::consts::PI;
                b += ((a - b) / turn).round() * turn;
            }
            let ok = (a.is_nan() && b.is_nan()) || a == b || (a - b).abs() <= rel * scale;
            assert!(ok, "{what}: at {k}, {g:?} against the CPU's {w:?}");
        }
    }
}

/// Shapes, dims, the device's blocks and the launches planned: rows and
/// columns, one launch (lines enough) and three (a few lines cut into
/// chunks).
const CASES: [(&[usize], usize, u32, usize); 8] = [
    (&[5000], 0, 2, 3),
    (&[3, 2100], 1, 8, 3),
    (&[3, 2100], 1, 2, 1),
    (&[700, 3], 0, 1, 3),
    (&[2, 600], 0, 1, 1),
    (&[4, 300, 5], 1, 2, 3),
    (&[2, 3, 4], 2, 64, 1),
    (&[1], 0, 1, 1),
];

fn check<T: Element + Sample, S: Scanner<T>>(s: S, rel: f64, slack: Slack) {
    for (sizes, dim, blocks, launches) in CASES {
        let n: usize = sizes.iter().product();
        let x: Vec<T> = data(n, 7);
        let strides = super::host_tests::contiguous(sizes);
        let mut input = x.clone();
        let want = Cpu::scan(
            StridedRef::<T, Cpu> {
                ptr: CpuPtr::from_mut(&mut input),
                sizes,
                strides: &strides,
                offset: 0,
            },
            dim,
            s,
        )
        .unwrap();
        let plan = plan_scan(s.device_op(), sizes, dim, blocks).unwrap();
        assert_eq!(plan.launches.len(), launches, "{sizes:?} along {dim}");
        let mut got = vec![<S::Out as Element>::ZERO; n];
        run(plan, &x, &mut got, &mut []);
        let what = format!("{:?} {} of {sizes:?} along {dim}", s.device_op(), T::DTYPE);
        agree(&got, want.as_slice(), rel, slack, &what);
    }
}

fn check_extremes<T: Extremum + Sample>() {
    for (sizes, dim, blocks, _) in CASES {
        let n: usize = sizes.iter().product();
        // Few distinct values: ties, whose index rule must hold.
        let x: Vec<T> = data::<T>(n, 7)
            .into_iter()
            .enumerate()
            .map(|(i, v)| if i % 3 == 0 { data::<T>(1, 0)[0] } else { v })
            .collect();
        let strides = super::host_tests::contiguous(sizes);
        for largest in [true, false] {
            let mut input = x.clone();
            let view = StridedRef::<T, Cpu> {
                ptr: CpuPtr::from_mut(&mut input),
                sizes,
                strides: &strides,
                offset: 0,
            };
            let (values, indices) = match largest {
                true => Cpu::scan_indexed(view, dim, CumExtreme::<Largest>::default()).unwrap(),
                false => Cpu::scan_indexed(view, dim, CumExtreme::<Smallest>::default()).unwrap(),
            };
            let op = match largest {
                true => Scanner::<T>::device_op(CumExtreme::<Largest>::default()),
                false => Scanner::<T>::device_op(CumExtreme::<Smallest>::default()),
            };
            let plan = plan_scan(op, sizes, dim, blocks).unwrap();
            let mut got = vec![T::ZERO; n];
            let mut got_indices = vec![-1i64; n];
            run(plan, &x, &mut got, &mut got_indices);
            let what = format!("{op:?} {} of {sizes:?} along {dim}", T::DTYPE);
            agree(&got, values.as_slice(), 0.0, Slack::None, &what);
            assert_eq!(got_indices, indices.as_slice(), "{what}: indices");
        }
    }
}

fn sums<T: CumElement + Sample>(rel: f64) {
    check::<T, _>(CumSum, rel, Slack::None);
    let slack = match T::DTYPE.is_complex() {
        true => Slack::Overflow,
        false => Slack::None,
    };
    check::<T, _>(CumProd, rel, slack);
}

#[test]
fn host_kernels_cumsum_and_cumprod_match_the_cpu() {
    sums::<u8>(0.0);
    sums::<i8>(0.0);
    sums::<i16>(0.0);
    sums::<i32>(0.0);
    sums::<i64>(0.0);
    sums::<bool>(0.0);
    // One rounding of the same float64 (float32) sum taken in another
    // order.
    sums::<f32>(1e-6);
    sums::<f64>(1e-12);
    sums::<f16>(2e-3);
    sums::<bf16>(1.6e-2);
    sums::<Complex<f32>>(1e-6);
    sums::<Complex<f64>>(1e-12);
}

fn logs<T: LogCumSumExpElement + Sample>(rel: f64) {
    check::<T, _>(LogCumSumExp, rel, Slack::Turns);
}

#[test]
fn host_kernels_logcumsumexp_matches_the_cpu() {
    logs::<f32>(1e-6);
    logs::<f64>(1e-12);
    logs::<f16>(2e-3);
    logs::<bf16>(1.6e-2);
    logs::<Complex<f32>>(1e-6);
    logs::<Complex<f64>>(1e-12);
}

#[test]
fn host_kernels_cummax_and_cummin_match_the_cpu() {
    check_extremes::<f32>();
    check_extremes::<f64>();
    check_extremes::<f16>();
    check_extremes::<bf16>();
    check_extremes::<u8>();
    check_extremes::<i8>();
    check_extremes::<i16>();
    check_extremes::<i32>();
    check_extremes::<i64>();
    check_extremes::<bool>();
}
