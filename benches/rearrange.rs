//! Rearrangements of a (4096, 4096) `f32` matrix: `tril`, `flip` of either
//! dimension, `roll`, a constant and a reflecting `pad`, `repeat` of a
//! (2048, 4096) half and `rot90`, against a copy (`clone`: the copy
//! bandwidth of the same run) and ndarray's copy and reversed-slice copy.
//! The PyTorch counterpart is `scripts/bench/rearrange.py` (2 threads).
//!
//! Run with `cargo bench --bench rearrange`. Throughput counts the bytes
//! written (4 per element of the output).

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use ndarray::{Array2, s};
use shaped::prelude::*;
use std::hint::black_box;
use std::time::Duration;

const SIDE: usize = 4096;

fn rearrange(c: &mut Criterion) {
    let mut g = c.benchmark_group("rearrange_4096");
    g.sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .throughput(Throughput::Bytes(4 * (SIDE * SIDE) as u64));
    let x = DynTensor::<f32>::ones(&[SIDE, SIDE]);
    let half = DynTensor::<f32>::ones(&[SIDE / 2, SIDE]);
    let a = Array2::<f32>::ones((SIDE, SIDE));
    g.bench_function("copy/shaped", |b| b.iter(|| black_box(x.clone())));
    g.bench_function("copy/ndarray", |b| b.iter(|| black_box(a.to_owned())));
    g.bench_function("tril/shaped", |b| b.iter(|| black_box(x.tril(0).unwrap())));
    g.bench_function("flip_0/shaped", |b| {
        b.iter(|| black_box(x.flip(&[0]).unwrap()))
    });
    g.bench_function("flip_0/ndarray", |b| {
        b.iter(|| black_box(a.slice(s![..;-1, ..]).to_owned()))
    });
    g.bench_function("flip_1/shaped", |b| {
        b.iter(|| black_box(x.flip(&[1]).unwrap()))
    });
    g.bench_function("flip_1/ndarray", |b| {
        b.iter(|| black_box(a.slice(s![.., ..;-1]).to_owned()))
    });
    g.bench_function("roll_1/shaped", |b| {
        b.iter(|| black_box(x.roll(&[1], &[1]).unwrap()))
    });
    g.bench_function("rot90/shaped", |b| {
        b.iter(|| black_box(x.rot90(1, &[0, 1]).unwrap()))
    });
    g.bench_function("repeat_2x1/shaped", |b| {
        b.iter(|| black_box(half.repeat(&[2, 1]).unwrap()))
    });
    let inner = DynTensor::<f32>::ones(&[SIDE - 2, SIDE - 2]);
    g.bench_function("pad_constant/shaped", |b| {
        b.iter(|| black_box(inner.pad(&[1, 1, 1, 1], PadMode::Constant, None).unwrap()))
    });
    let rows = DynTensor::<f32>::ones(&[1, SIDE, SIDE - 2]);
    g.bench_function("pad_reflect/shaped", |b| {
        b.iter(|| black_box(rows.pad(&[1, 1], PadMode::Reflect, None).unwrap()))
    });
    g.finish();
}

criterion_group!(benches, rearrange);
criterion_main!(benches);
