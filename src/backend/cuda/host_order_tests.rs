//! The order statistics' kernels (the sort's `SORT_PICK` and
//! `SORT_QUANTILE` phases, `kernels/sort.cuh`) compiled for the host,
//! against the CPU backend, bit for bit: `kthvalue` (first, middle and
//! last places), `median`, `nanmedian` and `mode` of every sortable dtype,
//! the quantiles of float32 and float64 with every interpolation, both
//! NaN rules and several `q`; inputs with NaNs (payloads, both signs),
//! both zeros, infinities, many ties, lines of NaNs only; lines along the
//! last dim, another dim and transposed views, short and long (several
//! merge launches); ranks 1 to 3.

use super::host_sort_tests::{
    CASES, SortSample, bits_of, dim_last, shaped_host_sort_launch, strides_in_order,
};
use super::host_tests::data;
use super::order::{plan_order, plan_quantiles};
use super::sort::{BLOCK, MERGE, PICK, QUANTILE, SortPlan, TILES, item_bytes, kernel_name};
use crate::backend::cpu::CpuPtr;
use crate::backend::cpu::order_stats::{Interpolation, QuantileFloat, Statistic};
use crate::backend::cpu::sort::SortKey;
use crate::backend::{Cpu, OrderStatistics, StridedRef};
use half::{bf16, f16};
use std::ffi::CString;

/// Runs `plan` on the dense `x` (lines of `n`) with the host kernels, a
/// grid of at most 3 blocks so that the loops go round.
fn run_plan<T: SortKey>(plan: &SortPlan, x: &[T], values: u64, indices: u64) {
    let words = x.len() * item_bytes(T::DTYPE) / 8;
    let mut items = [vec![0u64; words], vec![0u64; words]];
    let addrs = [items[0].as_mut_ptr() as u64, items[1].as_mut_ptr() as u64];
    let kernel = kernel_name(T::DTYPE);
    let name = CString::new(kernel.as_str()).unwrap();
    for step in &plan.steps {
        let args = plan.args_of(step, x.as_ptr() as u64, addrs, values, indices);
        // SAFETY: `name` is a C string; the arguments mirror the kernel's
        // (`sort_args_layout_matches_the_kernels`); the input holds
        // `lines * n` elements, each item buffer `lines * n` items, the
        // outputs what the last step writes (a value and an index per
        // line, or `lines * quantiles` values), the quantiles `quantiles`.
        let status =
            unsafe { shaped_host_sort_launch(name.as_ptr(), step.grid.min(3), BLOCK, &args) };
        assert_eq!(status, 0, "{kernel} ({step:?}) ran on the host");
    }
}

/// `stat` of each line of the dense `x` on the host kernels.
fn run_order<T: SortKey>(x: &[T], n: usize, stat: Statistic) -> (Vec<T>, Vec<i64>) {
    let lines = x.len().checked_div(n).unwrap_or(0);
    let mut values = vec![T::ZERO; lines];
    let mut indices = vec![-1i64; lines];
    let plan = plan_order(lines as u64, n as u64, stat, 2).expect("elements to pick from");
    let (v, i) = (values.as_mut_ptr() as u64, indices.as_mut_ptr() as u64);
    run_plan(&plan, x, v, i);
    (values, indices)
}

/// The quantiles `q` of each line of the dense `x` on the host kernels.
fn run_quantiles<T: SortKey>(
    x: &[T],
    n: usize,
    q: &[f64],
    interpolation: Interpolation,
    ignore_nan: bool,
) -> Vec<T> {
    let lines = x.len() / n;
    let mut values = vec![T::ZERO; lines * q.len()];
    let mut plan = plan_quantiles(
        lines as u64,
        n as u64,
        q.len() as u64,
        interpolation,
        ignore_nan,
        2,
    )
    .expect("quantiles to take");
    plan.args.q = q.as_ptr() as u64;
    run_plan(&plan, x, values.as_mut_ptr() as u64, 0);
    values
}

/// The inputs of each case: smooth samples; the edge values (NaNs, zeros,
/// infinities; the integers' extremes); many ties without NaN; NaNs only
/// (for floats: both signs, a payload).
fn inputs<T: SortSample>(numel: usize) -> [Vec<T>; 4] {
    const TIES: [usize; 10] = [1, 2, 4, 5, 6, 7, 8, 1, 2, 9];
    [
        data(numel, 5),
        (0..numel).map(|i| T::special(i * 7 + 3)).collect(),
        (0..numel).map(|i| T::special(TIES[i * 3 % 10])).collect(),
        (0..numel)
            .map(|i| T::special(if i % 3 == 1 { 3 } else { 0 }))
            .collect(),
    ]
}

fn check_order<T: SortSample>() {
    for case in &CASES {
        let (sizes, dim) = (case.sizes, case.dim);
        let n = sizes[dim];
        let numel: usize = sizes.iter().product();
        if numel == 0 {
            continue;
        }
        let strides = strides_in_order(sizes, case.order);
        for mut buf in inputs::<T>(numel) {
            let dense = dim_last(&buf, sizes, &strides, dim);
            let stats = [
                Statistic::Kth(0),
                Statistic::Kth(n / 2),
                Statistic::Kth(n - 1),
                Statistic::Median,
                Statistic::NanMedian,
                Statistic::Mode,
            ];
            for stat in stats {
                let view = StridedRef::<T, Cpu> {
                    ptr: CpuPtr::from_mut(&mut buf),
                    sizes,
                    strides: &strides,
                    offset: 0,
                };
                let (values, indices) = Cpu::order_statistic(view, dim, stat).unwrap();
                let (got, got_indices) = run_order(&dense, n, stat);
                let what = format!(
                    "{stat:?} of {} {sizes:?} (order {:?}) along {dim}",
                    T::DTYPE,
                    case.order
                );
                assert_eq!(got_indices, indices.as_slice(), "{what}: indices");
                assert_eq!(bits_of(&got), bits_of(values.as_slice()), "{what}: values");
            }
        }
    }
}

fn check_quantiles<T: SortSample + QuantileFloat>() {
    let q: Vec<f64> = [0.0, 0.25, 1.0 / 3.0, 0.5, 0.7, 0.999, 1.0]
        .map(T::round_q)
        .to_vec();
    let interpolations = [
        Interpolation::Linear,
        Interpolation::Lower,
        Interpolation::Higher,
        Interpolation::Midpoint,
        Interpolation::Nearest,
    ];
    for case in &CASES {
        let (sizes, dim) = (case.sizes, case.dim);
        let n = sizes[dim];
        let numel: usize = sizes.iter().product();
        if numel == 0 {
            continue;
        }
        let strides = strides_in_order(sizes, case.order);
        for mut buf in inputs::<T>(numel) {
            let dense = dim_last(&buf, sizes, &strides, dim);
            for interpolation in interpolations {
                for ignore_nan in [false, true] {
                    let view = StridedRef::<T, Cpu> {
                        ptr: CpuPtr::from_mut(&mut buf),
                        sizes,
                        strides: &strides,
                        offset: 0,
                    };
                    let want = Cpu::quantiles(view, dim, &q, interpolation, ignore_nan).unwrap();
                    let got = run_quantiles(&dense, n, &q, interpolation, ignore_nan);
                    let what = format!(
                        "quantiles of {} {sizes:?} (order {:?}) along {dim}, {interpolation:?}, ignore_nan {ignore_nan}",
                        T::DTYPE,
                        case.order
                    );
                    assert_eq!(bits_of(&got), bits_of(want.as_slice()), "{what}");
                }
            }
        }
    }
}

#[test]
fn plans_end_with_a_pick_or_the_quantiles() {
    let phases = |p: &SortPlan| p.steps.iter().map(|s| s.phase).collect::<Vec<_>>();
    let p = plan_order(1, 5000, Statistic::Median, 4).unwrap();
    assert_eq!(phases(&p), [TILES, MERGE, MERGE, PICK]);
    assert_eq!((p.args.k, p.args.statistic), (5000, 1));
    // kthvalue(k) merges only the first k + 1 of each run.
    let p = plan_order(1, 5000, Statistic::Kth(9), 4).unwrap();
    assert_eq!((p.args.k, p.args.place, p.args.statistic), (10, 9, 0));
    let p = plan_order(700, 5, Statistic::Mode, 4).unwrap();
    assert_eq!(phases(&p), [TILES, PICK]);
    assert_eq!(p.steps[1].grid, 3); // 700 lines, 256 threads a block
    let p = plan_quantiles(7, 3000, 4, Interpolation::Nearest, true, 4).unwrap();
    assert_eq!(phases(&p), [TILES, MERGE, QUANTILE]);
    assert_eq!(
        (p.args.quantiles, p.args.interpolation, p.args.ignore_nan),
        (4, 4, 1)
    );
    assert!(plan_order(3, 0, Statistic::Median, 4).is_none());
    assert!(plan_order(0, 5, Statistic::Median, 4).is_none());
    assert!(plan_quantiles(3, 5, 0, Interpolation::Linear, false, 4).is_none());
}

#[test]
fn host_kernels_pick_float_statistics_as_the_cpu() {
    check_order::<f32>();
    check_order::<f64>();
    check_order::<f16>();
    check_order::<bf16>();
}

#[test]
fn host_kernels_pick_integer_and_bool_statistics_as_the_cpu() {
    check_order::<u8>();
    check_order::<i8>();
    check_order::<i16>();
    check_order::<i32>();
    check_order::<i64>();
    check_order::<bool>();
}

#[test]
fn host_kernels_take_quantiles_as_the_cpu() {
    check_quantiles::<f32>();
    check_quantiles::<f64>();
}

#[test]
fn host_kernels_quantiles_of_long_lines_with_ties() {
    // 300 000 elements (several merges), many equal values, one NaN.
    let n = 300_000;
    let mut x: Vec<f64> = (0..n).map(|i| ((i * 7919) % 1013) as f64 / 7.0).collect();
    let q = [0.1, 0.5, 0.9].map(f64::round_q);
    for ignore_nan in [false, true] {
        for nan in [false, true] {
            if nan {
                x[1234] = f64::NAN;
            }
            let view = StridedRef::<f64, Cpu> {
                ptr: CpuPtr::from_mut(&mut x),
                sizes: &[n],
                strides: &[1],
                offset: 0,
            };
            let want = Cpu::quantiles(view, 0, &q, Interpolation::Linear, ignore_nan).unwrap();
            let got = run_quantiles(&x, n, &q, Interpolation::Linear, ignore_nan);
            assert_eq!(bits_of(&got), bits_of(want.as_slice()), "nan {nan}");
        }
    }
}
