//! Constructors, `f32`: `linspace`, `arange_step` and `zeros_like` of 16M
//! elements, `eye` of (4096, 4096), against a copy (`clone` of a 16M
//! tensor: the copy bandwidth of the same run) and ndarray's
//! `Array1::linspace`, `Array1::range` and `Array2::eye`. The PyTorch
//! counterpart is `scripts/bench/creation.py` (2 threads).
//!
//! Run with `cargo bench --bench creation`. Throughput counts the bytes
//! written (4 per element).

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use ndarray::{Array1, Array2};
use shaped::prelude::*;
use std::hint::black_box;
use std::time::Duration;

const N: usize = 1 << 24;
const SIDE: usize = 4096;

fn creation(c: &mut Criterion) {
    let mut g = c.benchmark_group("creation_16M");
    g.sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .throughput(Throughput::Bytes(4 * N as u64));
    let x = DynTensor::<f32>::ones(&[N]);
    g.bench_function("copy/shaped", |b| b.iter(|| black_box(x.clone())));
    g.bench_function("linspace/shaped", |b| {
        b.iter(|| black_box(DynTensor::<f32>::linspace(-1.0, 1.0, N).unwrap()))
    });
    g.bench_function("linspace/ndarray", |b| {
        b.iter(|| black_box(Array1::<f32>::linspace(-1.0, 1.0, N)))
    });
    g.bench_function("arange_step/shaped", |b| {
        b.iter(|| black_box(DynTensor::<f32>::arange_step(0.0, N as f64 * 0.5, 0.5).unwrap()))
    });
    g.bench_function("arange_step/ndarray", |b| {
        b.iter(|| black_box(Array1::<f32>::range(0.0, N as f32 * 0.5, 0.5)))
    });
    g.bench_function("zeros_like/shaped", |b| {
        b.iter(|| black_box(x.zeros_like()))
    });
    g.bench_function("eye_4096/shaped", |b| {
        b.iter(|| black_box(Tensor::<f32, shape![4096, 4096]>::eye()))
    });
    g.bench_function("eye_4096/ndarray", |b| {
        b.iter(|| black_box(Array2::<f32>::eye(SIDE)))
    });
    g.finish();
}

criterion_group!(benches, creation);
criterion_main!(benches);
