//! Matrix products: `shaped` against `ndarray` in the same run. The
//! PyTorch/numpy counterpart is `scripts/bench/matmul.py`.
//!
//! Run with `cargo bench --bench matmul` (a few minutes), or one case with
//! e.g. `cargo bench --bench matmul -- 1024`.
//!
//! Cases (f32, operands filled with deterministic values):
//! - `1024`: (1024, 1024) · (1024, 1024);
//! - `4096`: (4096, 4096) · (4096, 4096);
//! - `batched`: (64, 128, 128) · (64, 128, 128);
//! - `complex64_512`: (512, 512) · (512, 512) of `Complex<f32>`, which
//!   gemm's complex kernel computes with the `complex-gemm` feature and four
//!   real products without it (run it both ways: `cargo bench --bench
//!   matmul [--features complex-gemm] -- complex`). A complex product is
//!   four real ones: throughput counts `8 m k n` operations.
//!
//! Throughput is in elements where one "element" is one floating-point
//! operation (`2 m k n` per product), so criterion's "Gelem/s" reads as
//! GFLOP/s. `shaped` uses rayon's global pool (all cores, or
//! `RAYON_NUM_THREADS`); `ndarray` is `dot` with its `matrixmultiply`
//! backend (built with the `std` feature, no threading: ndarray multiplies
//! on one thread unless built with BLAS), and the batched ndarray case is a
//! loop of `dot`s. Each product allocates its output, in both libraries.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use ndarray::{Array2, Array3, Axis};
use shaped::prelude::*;
use std::hint::black_box;
use std::time::Duration;

/// Deterministic values in [0, 1).
fn values(n: usize, seed: u64) -> Vec<f32> {
    (0..n as u64)
        .map(|i| ((i.wrapping_mul(2654435761).wrapping_add(seed)) % 1000) as f32 * 0.001)
        .collect()
}

fn square(c: &mut Criterion, side: usize, samples: usize) {
    let mut group = c.benchmark_group(format!("matmul/{side}"));
    group.sample_size(samples);
    group.measurement_time(Duration::from_secs(if side > 2048 { 30 } else { 8 }));
    group.throughput(Throughput::Elements(2 * (side * side * side) as u64));
    let a = DynTensor::<f32>::from_vec(values(side * side, 1), &[side, side]).unwrap();
    let b = DynTensor::<f32>::from_vec(values(side * side, 2), &[side, side]).unwrap();
    group.bench_function("shaped", |bench| {
        bench.iter(|| black_box(&a).matmul(black_box(&b)).unwrap())
    });
    let na = Array2::from_shape_vec((side, side), a.to_vec()).unwrap();
    let nb = Array2::from_shape_vec((side, side), b.to_vec()).unwrap();
    group.bench_function("ndarray", |bench| {
        bench.iter(|| black_box(&na).dot(black_box(&nb)))
    });
    group.finish();
}

fn matmul_1024(c: &mut Criterion) {
    square(c, 1024, 20);
}

fn matmul_4096(c: &mut Criterion) {
    square(c, 4096, 10);
}

fn batched(c: &mut Criterion) {
    const B: usize = 64;
    const N: usize = 128;
    let mut group = c.benchmark_group("matmul/batched");
    group.throughput(Throughput::Elements(2 * (B * N * N * N) as u64));
    let a = Tensor::<f32, shape![64, 128, 128]>::from_vec(values(B * N * N, 1)).unwrap();
    let b = Tensor::<f32, shape![64, 128, 128]>::from_vec(values(B * N * N, 2)).unwrap();
    group.bench_function("shaped", |bench| {
        bench.iter(|| black_box(&a).matmul(black_box(&b)))
    });
    let na = Array3::from_shape_vec((B, N, N), a.to_vec()).unwrap();
    let nb = Array3::from_shape_vec((B, N, N), b.to_vec()).unwrap();
    group.bench_function("ndarray", |bench| {
        bench.iter(|| {
            let mut out = Array3::<f32>::zeros((B, N, N));
            for ((x, y), mut o) in na
                .axis_iter(Axis(0))
                .zip(nb.axis_iter(Axis(0)))
                .zip(out.axis_iter_mut(Axis(0)))
            {
                o.assign(&black_box(x).dot(&y));
            }
            out
        })
    });
    group.finish();
}

fn complex64_512(c: &mut Criterion) {
    use num_complex::Complex;
    const N: usize = 512;
    let mut group = c.benchmark_group("matmul/complex64_512");
    group.sample_size(20);
    group.throughput(Throughput::Elements(8 * (N * N * N) as u64));
    let parts = |seed| {
        let (re, im) = (values(N * N, seed), values(N * N, seed + 7));
        re.into_iter()
            .zip(im)
            .map(|(r, i)| Complex::new(r, i))
            .collect::<Vec<_>>()
    };
    let a = DynTensor::<Complex<f32>>::from_vec(parts(1), &[N, N]).unwrap();
    let b = DynTensor::<Complex<f32>>::from_vec(parts(2), &[N, N]).unwrap();
    group.bench_function("shaped", |bench| {
        bench.iter(|| black_box(&a).matmul(black_box(&b)).unwrap())
    });
    let na = Array2::from_shape_vec((N, N), a.to_vec()).unwrap();
    let nb = Array2::from_shape_vec((N, N), b.to_vec()).unwrap();
    group.bench_function("ndarray", |bench| {
        bench.iter(|| black_box(&na).dot(black_box(&nb)))
    });
    group.finish();
}

criterion_group!(benches, matmul_1024, matmul_4096, batched, complex64_512);
criterion_main!(benches);
