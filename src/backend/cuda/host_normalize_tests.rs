//! The statistics of the reduction kernel (`OP_SOFTMAX`, `OP_LOGSUMEXP`,
//! `OP_VAR` and `OP_NORM` of `kernels/reduce.cuh`) compiled for the host,
//! against the CPU backend: `softmax` and `log_softmax` along every dim of
//! every layout of the reduction tests, `logsumexp`, the moments and the
//! norms (orders 0, 1, 2, ±inf) along every subset of the dims, each in
//! every launch shape (rows and columns, one pass or chunks combined), and
//! rows of NaN, infinities and -inf alone.
//!
//! The kernels take one running maximum and sum (softmax, logsumexp) or
//! Welford's updates (the moments) where the CPU takes the maximum, then
//! the exponentials, or the mean, then the deviations: the results agree
//! within a tolerance per dtype, and NaN for NaN.

use super::host_reduce_tests::{CONFIGS, Close, LAYOUTS, masks, run_on_host};
use super::host_tests::{Sample, Spec, data, spec, strided};
use super::reduce::{Config, Extra, FLAG_STD, Source, outputs, plan_reduce, plan_softmax};
use crate::backend::cpu::Cpu;
use crate::backend::{Normalizing, SoftmaxFloat};
use crate::ops::moments::composed_moments;
use crate::ops::normalize::composed_logsumexp;
use crate::ops::norms::composed_vector_norm;
use crate::ops::op_codes::ReduceOp;

/// The kernels' view of `x` laid out as `s`.
fn source<T>(x: &[T], s: Spec) -> Source<'static> {
    Source {
        addr: x.as_ptr() as u64,
        offset: s.offset,
        sizes: s.sizes,
        strides: s.strides,
    }
}

/// `softmax` of `x` (laid out as `s`) along `dim` on the host kernel.
fn host_softmax<T: SoftmaxFloat>(x: &[T], s: Spec, dim: usize, log: bool, c: Config) -> Vec<T> {
    // Outputs start as sevens: an element the kernel leaves alone shows.
    let mut out = vec![T::from(7).unwrap(); s.sizes.iter().product()];
    if let Some(mut plan) = plan_softmax(source(x, s), size_of::<T>(), dim, log, c).unwrap() {
        run_on_host(
            ReduceOp::Softmax,
            &mut plan,
            T::DTYPE,
            out.as_mut_ptr() as u64,
            0,
        );
    }
    out
}

/// Reduction `op` (`LogSumExp` or `Var`, with `extra`) of `x` along `mask`
/// on the host kernel: the outputs and, for `Var`, the means.
fn host_stat<T: SoftmaxFloat>(
    op: ReduceOp,
    x: &[T],
    s: Spec,
    mask: &[bool],
    extra: Extra,
    c: Config,
) -> (Vec<T>, Vec<T>) {
    let n = outputs(s.sizes, mask).unwrap();
    let (mut out, mut beside) = (vec![T::from(7).unwrap(); n], vec![T::from(7).unwrap(); n]);
    if let Some(mut plan) = plan_reduce(op, source(x, s), size_of::<T>(), mask, c).unwrap() {
        for launch in &mut plan.launches {
            (launch.args.param, launch.args.flags) = (extra.param, extra.flags);
        }
        let beside_addr = if op == ReduceOp::Var {
            beside.as_mut_ptr() as u64
        } else {
            0
        };
        run_on_host(
            op,
            &mut plan,
            T::DTYPE,
            out.as_mut_ptr() as u64,
            beside_addr,
        );
    }
    (out, beside)
}

/// Means as the front-end leaves them (`x + (x - x)`: NaN where infinite,
/// which Welford's updates may leave infinite or NaN).
fn settled<T: SoftmaxFloat>(means: &[T]) -> Vec<T> {
    means
        .iter()
        .map(|&m| if m.is_infinite() { T::nan() } else { m })
        .collect()
}

fn agree<T: Close>(got: &[T], want: &[T], tol: f64) -> bool {
    got.len() == want.len() && got.iter().zip(want).all(|(&g, &w)| T::close(g, w, tol))
}

/// Checks `softmax` and `log_softmax` of `x` (laid out as `s`) along every
/// dim in every launch shape.
fn check_softmax<T: SoftmaxFloat + Close>(x: &[T], s: Spec, tol: f64) {
    for dim in 0..s.sizes.len() {
        for log in [false, true] {
            let mut buffer = x.to_vec();
            let want = Cpu::softmax(strided(&mut buffer, s), dim, log).unwrap();
            for c in CONFIGS {
                let got = host_softmax(x, s, dim, log, c);
                assert!(
                    agree(&got, want.as_slice(), tol),
                    "softmax (log: {log}) of {} on {s:?} along {dim} with {c:?}:\nhost kernel {got:?}\nCPU {:?}",
                    core::any::type_name::<T>(),
                    want.as_slice()
                );
            }
        }
    }
}

/// Checks `logsumexp`, the moments and the norms of `x` (laid out as `s`)
/// along `mask` in every launch shape.
fn check_stats<T: SoftmaxFloat + Close>(x: &[T], s: Spec, mask: &[bool], tol: f64) {
    let mut buffer = x.to_vec();
    let empty = s.sizes.iter().zip(mask).any(|(&n, &m)| m && n == 0);
    for (order, ord) in [
        (0, 0.0),
        (1, 1.0),
        (2, 2.0),
        (3, f64::INFINITY),
        (4, f64::NEG_INFINITY),
    ] {
        // (The norms of order ±inf of nothing are refused before.)
        if empty && order >= 3 {
            continue;
        }
        let want = composed_vector_norm::<T, Cpu>(strided(&mut buffer, s), ord, mask).unwrap();
        let extra = Extra {
            param: 0.0,
            flags: order,
        };
        for c in CONFIGS {
            let (got, _) = host_stat(ReduceOp::Norm, x, s, mask, extra, c);
            assert!(
                agree(&got, want.as_slice(), tol),
                "vector_norm({ord}) of {} on {s:?} along {mask:?} with {c:?}:\nhost kernel {got:?}\nCPU {:?}",
                core::any::type_name::<T>(),
                want.as_slice()
            );
        }
    }
    let want = composed_logsumexp::<T, Cpu>(strided(&mut buffer, s), mask).unwrap();
    for c in CONFIGS {
        let (got, _) = host_stat(ReduceOp::LogSumExp, x, s, mask, Extra::default(), c);
        assert!(
            agree(&got, want.as_slice(), tol),
            "logsumexp of {} on {s:?} along {mask:?} with {c:?}:\nhost kernel {got:?}\nCPU {:?}",
            core::any::type_name::<T>(),
            want.as_slice()
        );
    }
    for correction in [0.0, 1.0, 2.5] {
        for std in [false, true] {
            let (spread, mean) =
                composed_moments::<T, Cpu>(strided(&mut buffer, s), mask, correction, std).unwrap();
            let extra = Extra {
                param: correction,
                flags: if std { FLAG_STD } else { 0 },
            };
            for c in CONFIGS {
                let (got, got_mean) = host_stat(ReduceOp::Var, x, s, mask, extra, c);
                assert!(
                    agree(&got, spread.as_slice(), tol)
                        && agree(&settled(&got_mean), &settled(mean.as_slice()), tol),
                    "var (correction {correction}, std: {std}) of {} on {s:?} along {mask:?} with {c:?}:\nhost kernel {got:?} mean {got_mean:?}\nCPU {:?} mean {:?}",
                    core::any::type_name::<T>(),
                    spread.as_slice(),
                    mean.as_slice()
                );
            }
        }
    }
}

fn check_every_layout<T: SoftmaxFloat + Sample + Close>(tol: f64) {
    for s in LAYOUTS {
        let x = data::<T>(s.len, 5);
        check_softmax(&x, s, tol);
        for mask in masks(s.sizes.len()) {
            check_stats(&x, s, &mask, tol);
        }
    }
}

#[test]
fn softmax_logsumexp_and_moments_on_every_layout_and_plan() {
    check_every_layout::<f32>(1e-5);
    check_every_layout::<f64>(1e-12);
}

/// Rows of a NaN, +inf (alone, twice, with -inf), -inf alone and with
/// finite elements, large and tiny magnitudes, as a (9, 4) matrix read
/// along its rows and, transposed, along its columns.
fn edge_rows<T: SoftmaxFloat>() -> Vec<T> {
    let (nan, inf) = (T::nan(), T::infinity());
    let v = |x: f64| T::from(x).unwrap();
    [
        [v(1.0), nan, v(2.0), v(3.0)],
        [inf, v(1.0), v(2.0), v(-1.0)],
        [inf, inf, v(0.0), v(1.0)],
        [-inf, inf, v(0.0), v(1.0)],
        [-inf, -inf, -inf, -inf],
        [-inf, v(0.5), -inf, v(-2.0)],
        [v(1e30), v(-1e30), v(0.0), v(1e-30)],
        [v(88.0), v(89.0), v(87.5), v(-88.0)],
        [v(0.0), v(0.0), v(0.0), v(0.0)],
    ]
    .into_iter()
    .flatten()
    .collect()
}

fn check_edges<T: SoftmaxFloat + Close>(tol: f64) {
    let x = edge_rows::<T>();
    let layouts = [
        spec(36, &[9, 4], &[4, 1], 0),
        spec(36, &[4, 9], &[1, 4], 0),
        spec(36, &[36], &[1], 0),
    ];
    for s in layouts {
        check_softmax(&x, s, tol);
        for mask in masks(s.sizes.len()) {
            check_stats(&x, s, &mask, tol);
        }
    }
}

#[test]
fn statistics_of_nan_infinities_and_minus_infinity_rows() {
    check_edges::<f32>(1e-5);
    check_edges::<f64>(1e-12);
}

#[test]
fn softmax_plans_rows_and_columns() {
    let config = CONFIGS[2];
    let row = spec(2145, &[33, 65], &[65, 1], 0);
    let x = data::<f32>(row.len, 1);
    let plan = |s, dim| {
        plan_softmax(source(&x, s), 4, dim, false, config)
            .unwrap()
            .unwrap()
    };
    // Along the nearest dim: one output per block.
    let rows = plan(row, 1);
    let args = rows.launches[0].args;
    assert_eq!(
        (args.outputs_per_block, args.numel_out, args.numel_red),
        (1, 33, 65)
    );
    assert_eq!(rows.launches[0].grid, 33);
    assert_eq!((args.out_red_stride, args.out_strides[0]), (1, 65));
    // Along a far dim: 32 neighbouring outputs per block.
    let columns = plan(row, 0);
    let args = columns.launches[0].args;
    assert_eq!((args.outputs_per_block, args.numel_out), (32, 65));
    assert_eq!((args.out_red_stride, args.out_strides[0]), (65, 1));
    // An empty input: nothing to launch.
    let empty = spec(0, &[2, 0, 3], &[0, 3, 1], 0);
    assert!(
        plan_softmax(source(&x, empty), 4, 2, true, config)
            .unwrap()
            .is_none()
    );
    // Many rows: those that 128 lanes hold in registers (32 KiB) on every
    // resident block; longer ones as many at once as half the cache holds
    // (64 KiB rows, 25 MiB: 400 of the 1000 resident blocks); rows too long
    // for a quarter of them: every resident block; columns: every resident
    // block.
    let grid = |sizes: &'static [usize], strides: &'static [usize], dim| {
        let s = spec(0, sizes, strides, 0);
        let plan = plan_softmax(source(&x, s), 4, dim, false, config);
        plan.unwrap().unwrap().launches[0].grid
    };
    assert_eq!(grid(&[100_000, 16384], &[16384, 1], 1), 400);
    assert_eq!(grid(&[100_000, 1 << 20], &[1 << 20, 1], 1), 1000);
    assert_eq!(grid(&[16384, 100_000], &[100_000, 1], 0), 1000);
    assert_eq!(grid(&[100_000, 1024], &[1024, 1], 1), 1000);
    assert_eq!(grid(&[100_000, 8192], &[8192, 1], 1), 1000);
}
