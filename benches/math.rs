//! Elementwise math and concatenation, `f32`: `shaped` against `ndarray`
//! in the same run. The PyTorch/numpy counterpart is `scripts/bench/math.py`.
//!
//! Run with `cargo bench --bench math`.
//!
//! Cases:
//! - `exp`, `sigmoid`, `tanh`, `gelu`, `silu`, `sin` of 16M `f32` in [-4, 4) and `log` of
//!   them plus 4.5 (a new output each time, as in every library compared):
//!   `shaped` (rayon's pool, all cores) and `ndarray`'s `mapv` (one
//!   thread, `f32::exp` from the platform's libm).
//! - `x.iter().sum()` against the same elements' slice and ndarray's
//!   `iter().sum()`.
//! - `map(|x| x * 2.0 + 1.0)` (a user closure, one pass) against the
//!   built-in `&(&x * 2.0) + 1.0` (two passes) and ndarray's `mapv`.
//! - `lerp` (a number weight and a weight tensor), `addcmul` and `addcdiv`
//!   of 16M `f32` (`ternary_16M`) against ndarray's `Zip::map_collect` of
//!   the same formulas (one thread).
//! - `cat` of two contiguous (2048, 4096) `f32` along axis 0 and axis 1:
//!   `shaped`'s static `(&a, &b).cat::<AXIS>()` and `ndarray::concatenate`.
//!
//! Throughput counts each element read or written once (4 bytes each):
//! 2 x 4 x n for the unary functions and for `cat`.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use ndarray::{Array1, Array2, Axis, concatenate};
use shaped::prelude::*;
use std::hint::black_box;
use std::time::Duration;

/// Elements of the unary cases: 16M.
const N: usize = 1 << 24;
type Flat = shape![16777216];
type Half = shape![2048, 4096];

/// The C library's `erff` (Rust's standard library has no `erf`), for
/// ndarray's `gelu`.
fn erf_f32(x: f32) -> f32 {
    unsafe extern "C" {
        // SAFETY: a pure C function of one float, defined for every input.
        safe fn erff(x: f32) -> f32;
    }
    erff(x)
}

/// Deterministic values in [-4, 4).
fn values(n: usize) -> Vec<f32> {
    (0..n)
        .map(|i| ((i.wrapping_mul(2654435761) % 8000) as f32) * 0.001 - 4.0)
        .collect()
}

fn unary(c: &mut Criterion) {
    let x = Tensor::<f32, Flat>::from_vec(values(N)).unwrap();
    let nd = Array1::from_vec(values(N));
    let mut g = c.benchmark_group("unary_16M");
    g.sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(4))
        .throughput(Throughput::Bytes(2 * 4 * N as u64));
    g.bench_function("exp/shaped", |b| b.iter(|| black_box(x.exp())));
    g.bench_function("exp/ndarray_mapv", |b| {
        b.iter(|| black_box(nd.mapv(f32::exp)))
    });
    // In place (repeated tanh stays in (-1, 1)): the vectorized kernel on
    // chunks of the run, against tanh into a new tensor above.
    let mut y = x.clone();
    g.bench_function("tanh_inplace/shaped", |b| {
        b.iter(|| {
            y.tanh_();
            black_box(&y);
        })
    });
    let mut nd_y = nd.clone();
    g.bench_function("tanh_inplace/ndarray_mapv_inplace", |b| {
        b.iter(|| {
            nd_y.mapv_inplace(f32::tanh);
            black_box(&nd_y);
        })
    });
    g.bench_function("sigmoid/shaped", |b| b.iter(|| black_box(x.sigmoid())));
    g.bench_function("sigmoid/ndarray_mapv", |b| {
        b.iter(|| black_box(nd.mapv(|v| 1.0 / (1.0 + (-v).exp()))))
    });
    g.bench_function("tanh/shaped", |b| b.iter(|| black_box(x.tanh())));
    g.bench_function("tanh/ndarray_mapv", |b| {
        b.iter(|| black_box(nd.mapv(f32::tanh)))
    });
    g.bench_function("gelu/shaped", |b| b.iter(|| black_box(x.gelu())));
    g.bench_function("gelu/ndarray_mapv", |b| {
        b.iter(|| {
            black_box(nd.mapv(|v| v * 0.5 * (1.0 + erf_f32(v * core::f32::consts::FRAC_1_SQRT_2))))
        })
    });
    g.bench_function("silu/shaped", |b| b.iter(|| black_box(x.silu())));
    g.bench_function("silu/ndarray_mapv", |b| {
        b.iter(|| black_box(nd.mapv(|v| v / (1.0 + (-v).exp()))))
    });
    g.bench_function("sin/shaped", |b| b.iter(|| black_box(x.sin())));
    g.bench_function("sin/ndarray_mapv", |b| {
        b.iter(|| black_box(nd.mapv(f32::sin)))
    });
    // A user closure against the built-in operations (two passes, an
    // intermediate tensor) and ndarray's `mapv`.
    g.bench_function("map_x2p1/shaped_map", |b| {
        b.iter(|| black_box(x.map(|v| v * 2.0 + 1.0)))
    });
    g.bench_function("map_x2p1/shaped_builtin", |b| {
        b.iter(|| black_box(&(&x * 2.0) + 1.0))
    });
    g.bench_function("map_x2p1/ndarray_mapv", |b| {
        b.iter(|| black_box(nd.mapv(|v| v * 2.0 + 1.0)))
    });
    // Iteration: a contiguous tensor's `iter().sum()` against its slice's
    // and ndarray's (one thread each: a sequential sum).
    let slice = x.as_slice().expect("contiguous");
    g.bench_function("iter_sum/shaped_iter", |b| {
        b.iter(|| black_box(x.iter().sum::<f32>()))
    });
    g.bench_function("iter_sum/slice", |b| {
        b.iter(|| black_box(slice.iter().sum::<f32>()))
    });
    g.bench_function("iter_sum/ndarray_iter", |b| {
        b.iter(|| black_box(nd.iter().sum::<f32>()))
    });
    let positive = &x + 4.5;
    let nd_positive = nd.mapv(|v| v + 4.5);
    g.bench_function("log/shaped", |b| b.iter(|| black_box(positive.ln())));
    g.bench_function("log/ndarray_mapv", |b| {
        b.iter(|| black_box(nd_positive.mapv(f32::ln)))
    });
    g.finish();
}

/// float16 `exp`, `tanh` and `gelu` of 16M elements: converted by blocks
/// (F16C where the machine has it) onto the float32 kernels; ndarray's
/// `mapv` of the same computation one element at a time.
fn unary_half(c: &mut Criterion) {
    let halves: Vec<half::f16> = values(N).into_iter().map(half::f16::from_f32).collect();
    let x = Tensor::<half::f16, Flat>::from_vec(halves.clone()).unwrap();
    let nd = Array1::from_vec(halves);
    let mut g = c.benchmark_group("unary_16M_f16");
    g.sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(4))
        .throughput(Throughput::Bytes(2 * 2 * N as u64));
    let each = |f: fn(f32) -> f32| move |v: half::f16| half::f16::from_f32(f(v.to_f32()));
    g.bench_function("exp/shaped", |b| b.iter(|| black_box(x.exp())));
    g.bench_function("exp/ndarray_mapv", |b| {
        b.iter(|| black_box(nd.mapv(each(f32::exp))))
    });
    g.bench_function("tanh/shaped", |b| b.iter(|| black_box(x.tanh())));
    g.bench_function("tanh/ndarray_mapv", |b| {
        b.iter(|| black_box(nd.mapv(each(f32::tanh))))
    });
    g.bench_function("gelu/shaped", |b| b.iter(|| black_box(x.gelu())));
    g.bench_function("gelu/ndarray_mapv", |b| {
        b.iter(|| {
            black_box(nd.mapv(each(|v| {
                v * 0.5 * (1.0 + erf_f32(v * core::f32::consts::FRAC_1_SQRT_2))
            })))
        })
    });
    g.finish();
}

fn cat(c: &mut Criterion) {
    let n = 2048 * 4096;
    let a = Tensor::<f32, Half>::from_vec(values(n)).unwrap();
    let b = Tensor::<f32, Half>::from_vec(values(n)).unwrap();
    let na = Array2::from_shape_vec((2048, 4096), values(n)).unwrap();
    let nb = Array2::from_shape_vec((2048, 4096), values(n)).unwrap();
    let mut g = c.benchmark_group("cat_2x(2048,4096)");
    g.sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(4))
        .throughput(Throughput::Bytes(2 * 4 * 2 * n as u64));
    g.bench_function("axis0/shaped", |bch| {
        bch.iter(|| black_box((&a, &b).cat::<0>()))
    });
    g.bench_function("axis0/ndarray", |bch| {
        bch.iter(|| black_box(concatenate(Axis(0), &[na.view(), nb.view()]).unwrap()))
    });
    g.bench_function("axis1/shaped", |bch| {
        bch.iter(|| black_box((&a, &b).cat::<1>()))
    });
    g.bench_function("axis1/ndarray", |bch| {
        bch.iter(|| black_box(concatenate(Axis(1), &[na.view(), nb.view()]).unwrap()))
    });
    g.finish();
}

/// The functions of three tensors, 16M `f32` each: 3 reads and a write per
/// element (2 reads for `lerp` by a number).
fn ternary(c: &mut Criterion) {
    let x = Tensor::<f32, Flat>::from_vec(values(N)).unwrap();
    let y = x.map(|v| v * 0.5 + 1.0);
    let w = x.map(|v| (v + 4.0) * 0.125);
    let (nx, ny, nw) = (
        Array1::from_vec(x.to_vec()),
        Array1::from_vec(y.to_vec()),
        Array1::from_vec(w.to_vec()),
    );
    let mut g = c.benchmark_group("ternary_16M");
    g.sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(4));
    g.throughput(Throughput::Bytes(3 * 4 * N as u64));
    g.bench_function("lerp_number/shaped", |b| {
        b.iter(|| black_box(x.lerp(&y, 0.3)))
    });
    g.bench_function("lerp_number/ndarray_zip", |b| {
        b.iter(|| {
            black_box(
                ndarray::Zip::from(&nx)
                    .and(&ny)
                    .map_collect(|&s, &e| 0.3f32.mul_add(e - s, s)),
            )
        })
    });
    g.throughput(Throughput::Bytes(4 * 4 * N as u64));
    g.bench_function("lerp_tensor/shaped", |b| {
        b.iter(|| black_box(x.lerp(&y, &w)))
    });
    g.bench_function("addcmul/shaped", |b| {
        b.iter(|| black_box(x.addcmul(&y, &w, 0.5)))
    });
    g.bench_function("addcmul/ndarray_zip", |b| {
        b.iter(|| {
            black_box(
                ndarray::Zip::from(&nx)
                    .and(&ny)
                    .and(&nw)
                    .map_collect(|&s, &t1, &t2| (0.5 * t1).mul_add(t2, s)),
            )
        })
    });
    g.bench_function("addcdiv/shaped", |b| {
        b.iter(|| black_box(x.addcdiv(&y, &w, 0.5)))
    });
    g.bench_function("addcdiv/ndarray_zip", |b| {
        b.iter(|| {
            black_box(
                ndarray::Zip::from(&nx)
                    .and(&ny)
                    .and(&nw)
                    .map_collect(|&s, &t1, &t2| s + 0.5 * t1 / t2),
            )
        })
    });
    g.finish();
}

criterion_group!(benches, unary, unary_half, ternary, cat);
criterion_main!(benches);
