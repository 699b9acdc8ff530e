//! The sets and bins: `shaped` on the cases of `scripts/bench/sets.py`
//! (PyTorch and NumPy on the same data; ndarray has none of these ops, so
//! the standard library's sort stands in where it can).
//!
//! Run with `cargo bench --bench sets`.
//!
//! Data: `h(i) = i * 2654435761 mod 2^32`. Cases:
//! - `unique_i64_16m`: `unique` of 16M int64 `h(i) >> 16` (in [0, 65536)),
//!   sorted values only; `unique_i64_16m_inverse_counts`: with the inverse
//!   and the counts; `std_sort_dedup_i64_16m`: `sort_unstable` and `dedup`
//!   of a copy (one thread).
//! - `unique_f32_4m_inverse`: `unique` of 4M float32 `(h(i) >> 20) / 4096`
//!   (4096 values, many repeats; floats take the sort path), with the
//!   inverse.
//! - `searchsorted_f32_4m_in_64k`: 4M float32 values `h(i) / 2^32` into
//!   65,536 sorted boundaries `k / 65536`.
//! - `bincount_i64_16m`: the 16M int64 of `unique`.
//! - `histc_f32_16m_100`: 16M float32 `h(i) / 2^32` in 100 bins of [0, 1].

use criterion::{Criterion, criterion_group, criterion_main};
use shaped::prelude::*;
use std::hint::black_box;
use std::time::Duration;

fn h(i: usize) -> u64 {
    (i as u64).wrapping_mul(2654435761) % (1 << 32)
}

fn bench(c: &mut Criterion) {
    let n = 1 << 24;
    let mut g = c.benchmark_group("sets");
    g.sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(5));
    let ints: Vec<i64> = (0..n).map(|i| (h(i) >> 16) as i64).collect();
    let x = DynTensor::<i64>::from_vec(ints.clone(), &[n]).unwrap();
    g.bench_function("unique_i64_16m", |b| {
        b.iter(|| black_box(x.unique(true, false, false).unwrap()))
    });
    g.bench_function("unique_i64_16m_inverse_counts", |b| {
        b.iter(|| black_box(x.unique(true, true, true).unwrap()))
    });
    g.bench_function("std_sort_dedup_i64_16m", |b| {
        b.iter(|| {
            let mut v = ints.clone();
            v.sort_unstable();
            v.dedup();
            black_box(v)
        })
    });
    g.bench_function("bincount_i64_16m", |b| {
        b.iter(|| black_box(x.bincount(0).unwrap()))
    });
    let m = 1 << 22;
    let floats: Vec<f32> = (0..m).map(|i| ((h(i) >> 20) as f32) / 4096.0).collect();
    let f = DynTensor::<f32>::from_vec(floats, &[m]).unwrap();
    g.bench_function("unique_f32_4m_inverse", |b| {
        b.iter(|| black_box(f.unique(true, true, false).unwrap()))
    });
    let bounds: Vec<f32> = (0..65536).map(|k| k as f32 / 65536.0).collect();
    let bounds = DynTensor::<f32>::from_vec(bounds, &[65536]).unwrap();
    let probes: Vec<f32> = (0..m).map(|i| h(i) as f32 / 4294967296.0).collect();
    let probes = DynTensor::<f32>::from_vec(probes, &[m]).unwrap();
    g.bench_function("searchsorted_f32_4m_in_64k", |b| {
        b.iter(|| black_box(bounds.searchsorted(&probes, false).unwrap()))
    });
    let unit: Vec<f32> = (0..n).map(|i| h(i) as f32 / 4294967296.0).collect();
    let unit = DynTensor::<f32>::from_vec(unit, &[n]).unwrap();
    g.bench_function("histc_f32_16m_100", |b| {
        b.iter(|| black_box(unit.histc(100, 0.0, 1.0).unwrap()))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
