//! The scans (`f32`): `shaped` against `ndarray` on the same data, in the
//! same run. The PyTorch counterpart is `scripts/bench/scans.py`.
//!
//! Run with `cargo bench --bench scans`.
//!
//! Values `(i * 2654435761 mod 1000) / 1000 + 0.5`, in [0.5, 1.5). Cases:
//! - `copy_flat`: 16M elements (64 MiB) copied into a preallocated buffer
//!   on both threads: the memory-bandwidth reference.
//! - `cumsum_flat`: `cumsum` of the 16M elements as one line;
//!   `ndarray_cumsum_flat`: ndarray's `accumulate_axis_inplace` on a copy.
//! - `copy`: the same 64 MiB as a (4096, 4096) matrix.
//! - `cumsum_dim1` / `cumsum_dim0`: along each row / down each column;
//!   `ndarray_cumsum_dim1` / `ndarray_cumsum_dim0`: the same with ndarray
//!   (a copy, then `accumulate_axis_inplace`; one thread).
//! - `cumprod_dim1`, `cummax_dim1` (values and indices), `logcumsumexp_dim1`.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use ndarray::{Array1, Array2, Axis};
use rayon::prelude::*;
use shaped::prelude::*;
use std::hint::black_box;
use std::time::Duration;

fn values(n: usize) -> Vec<f32> {
    (0..n)
        .map(|i| (i.wrapping_mul(2654435761) % 1000) as f32 * 0.001 + 0.5)
        .collect()
}

fn bench(c: &mut Criterion) {
    let side = 4096;
    let n = side * side;
    let data = values(n);
    let mut g = c.benchmark_group("scans");
    g.sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .throughput(Throughput::Bytes(8 * n as u64));
    let mut dst = vec![0f32; n];
    g.bench_function("copy_flat", |b| {
        b.iter(|| {
            dst.par_chunks_mut(1 << 16)
                .zip(data.par_chunks(1 << 16))
                .for_each(|(d, s)| d.copy_from_slice(s))
        })
    });
    let flat = DynTensor::<f32>::from_vec(data.clone(), &[n]).unwrap();
    g.bench_function("cumsum_flat", |b| {
        b.iter(|| black_box(flat.cumsum(0).unwrap()))
    });
    let a1 = Array1::from_vec(data.clone());
    g.bench_function("ndarray_cumsum_flat", |b| {
        b.iter(|| {
            let mut y = a1.clone();
            y.accumulate_axis_inplace(Axis(0), |&prev, cur| *cur += prev);
            black_box(y)
        })
    });
    let x = Tensor::<f32, shape![4096, 4096]>::from_vec(data.clone()).unwrap();
    g.bench_function("cumsum_dim1", |b| b.iter(|| black_box(x.cumsum::<1>())));
    g.bench_function("cumsum_dim0", |b| b.iter(|| black_box(x.cumsum::<0>())));
    g.bench_function("cumprod_dim1", |b| b.iter(|| black_box(x.cumprod::<1>())));
    g.bench_function("cummax_dim1", |b| b.iter(|| black_box(x.cummax::<1>())));
    g.bench_function("logcumsumexp_dim1", |b| {
        b.iter(|| black_box(x.logcumsumexp::<1>()))
    });
    let a = Array2::from_shape_vec((side, side), data.clone()).unwrap();
    for (name, axis) in [("ndarray_cumsum_dim1", 1), ("ndarray_cumsum_dim0", 0)] {
        g.bench_function(name, |b| {
            b.iter(|| {
                let mut y = a.clone();
                y.accumulate_axis_inplace(Axis(axis), |&prev, cur| *cur += prev);
                black_box(y)
            })
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
