//! Random tensors, `f32`: `shaped`'s counter-based fills. The PyTorch
//! counterpart is `scripts/bench/random.py` (its CPU generator, a Mersenne
//! Twister, on 2 threads).
//!
//! Run with `cargo bench --bench random`.
//!
//! Cases: `rand` and `randn` of 16M `f32` (a new tensor each time, as in
//! PyTorch), and `uniform_` in place on an existing one. Throughput counts
//! the 4 bytes written per element. And `randperm(1_000_000)` (int64).

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use shaped::prelude::*;
use shaped::random::Generator;
use std::hint::black_box;
use std::time::Duration;

const N: usize = 1 << 24;

fn random(c: &mut Criterion) {
    let mut g = c.benchmark_group("random_16M");
    g.sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(4))
        .throughput(Throughput::Bytes(4 * N as u64));
    let mut generator = Generator::new(0);
    g.bench_function("rand/shaped", |b| {
        b.iter(|| black_box(DynTensor::<f32>::rand(&[N], &mut generator)))
    });
    g.bench_function("randn/shaped", |b| {
        b.iter(|| black_box(DynTensor::<f32>::randn(&[N], &mut generator)))
    });
    let mut x = DynTensor::<f32>::zeros(&[N]);
    g.bench_function("uniform_/shaped", |b| {
        b.iter(|| {
            x.uniform_(-1.0, 1.0, &mut generator).unwrap();
            black_box(&x);
        })
    });
    g.bench_function("randn_f64/shaped", |b| {
        b.iter(|| black_box(DynTensor::<f64>::randn(&[N], &mut generator)))
    });
    g.finish();
    let mut g = c.benchmark_group("randperm_1M");
    g.sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .throughput(Throughput::Elements(1 << 20));
    g.bench_function("randperm/shaped", |b| {
        b.iter(|| black_box(DynTensor::<i64>::randperm(1_000_000, &mut generator).unwrap()))
    });
    g.finish();
}

criterion_group!(benches, random);
criterion_main!(benches);
