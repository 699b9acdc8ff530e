//! `f32` sums: `shaped` against `ndarray` on the same data, in the same run,
//! with a plain copy of the same bytes as the memory-bandwidth reference.
//! The PyTorch/numpy counterpart is `scripts/bench/reductions.py`.
//!
//! Run with `cargo bench --bench reductions` (about a minute).
//!
//! Cases:
//! - `whole`: the sum of 16M `f32` (64 MiB): `sum_all()` against ndarray's
//!   `sum()`.
//! - `rows`: `(4096, 4096)` summed along axis 1 (the contiguous one):
//!   `sum(&[1], false)` against `sum_axis(Axis(1))`.
//! - `columns`: along axis 0: `sum(&[0], false)` against `sum_axis(Axis(0))`.
//! - `copy`: the same 64 MiB copied into a preallocated buffer, on 1 and 2
//!   threads.
//!
//! Threads: `shaped` uses rayon's global pool (both cores of the machine, or
//! `RAYON_NUM_THREADS`); `shaped_1_thread` runs inside a one-thread pool.
//! ndarray's reductions are single-threaded.
//!
//! Throughput counts the bytes read (4 x 16M) for every reduction; for the
//! copy it counts the bytes read and written (2 x 4 x 16M), the traffic a
//! sum's read is compared with.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use ndarray::{Array1, Array2, Axis};
use rayon::ThreadPoolBuilder;
use rayon::prelude::*;
use shaped::prelude::*;
use std::hint::black_box;
use std::time::Duration;

/// Side of the square matrix.
const SIDE: usize = 4096;
/// Elements: 16M.
const N: usize = SIDE * SIDE;
/// Bytes read by a reduction of all elements.
const BYTES: u64 = 4 * N as u64;

/// Deterministic, non-constant values.
fn values(n: usize) -> Vec<f32> {
    (0..n)
        .map(|i| (i.wrapping_mul(2654435761) % 1000) as f32 * 0.001)
        .collect()
}

fn bench(c: &mut Criterion) {
    let data = values(N);
    let flat = DynTensor::<f32>::from_vec(data.clone(), &[N]).unwrap();
    let square = DynTensor::<f32>::from_vec(data.clone(), &[SIDE, SIDE]).unwrap();
    let nd_flat = Array1::from_vec(data.clone());
    let nd_square = Array2::from_shape_vec((SIDE, SIDE), data.clone()).unwrap();
    let one = ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("a one-thread pool");

    let mut g = c.benchmark_group("copy");
    g.sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    g.throughput(Throughput::Bytes(2 * BYTES));
    let mut dst = vec![0f32; N];
    g.bench_function("1_thread", |b| {
        b.iter(|| dst.copy_from_slice(black_box(&data)))
    });
    g.bench_function("2_threads", |b| {
        b.iter(|| {
            dst.par_chunks_mut(1 << 16)
                .zip(black_box(&data).par_chunks(1 << 16))
                .for_each(|(d, s)| d.copy_from_slice(s))
        })
    });
    g.finish();

    let mut g = c.benchmark_group("whole");
    g.sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    g.throughput(Throughput::Bytes(BYTES));
    g.bench_function("shaped", |b| b.iter(|| black_box(&flat).sum_all()));
    g.bench_function("shaped_1_thread", |b| {
        one.install(|| b.iter(|| black_box(&flat).sum_all()))
    });
    g.bench_function("ndarray", |b| b.iter(|| black_box(&nd_flat).sum()));
    g.finish();

    for (name, axis) in [("rows", 1usize), ("columns", 0)] {
        let mut g = c.benchmark_group(name);
        g.sample_size(10)
            .warm_up_time(Duration::from_secs(1))
            .measurement_time(Duration::from_secs(3));
        g.throughput(Throughput::Bytes(BYTES));
        let dims = [axis as isize];
        g.bench_function("shaped", |b| {
            b.iter(|| black_box(&square).sum(&dims, false).unwrap())
        });
        g.bench_function("shaped_1_thread", |b| {
            one.install(|| b.iter(|| black_box(&square).sum(&dims, false).unwrap()))
        });
        g.bench_function("ndarray", |b| {
            b.iter(|| black_box(&nd_square).sum_axis(Axis(axis)))
        });
        g.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
