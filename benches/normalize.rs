//! `softmax` and `log_softmax` (`f32`): `shaped` against `ndarray` on the
//! same data, in the same run. The PyTorch counterpart is
//! `scripts/bench/normalize.py`.
//!
//! Run with `cargo bench --bench normalize`.
//!
//! Cases, on a (4096, 4096) matrix of values in [0, 10):
//! - `copy`: its 64 MiB copied into a preallocated buffer on both threads:
//!   the memory-bandwidth reference (the issue asks softmax to stay within
//!   twice its time).
//! - `softmax_last` / `log_softmax_last`: along dim 1, each row one line.
//! - `softmax_first`: along dim 0, each line down a column.
//! - `ndarray_last`: the same softmax written with ndarray (`map_inplace`
//!   and `sum_axis` over rows, one thread: ndarray has no parallel softmax).
//! - `var_dim1` / `var_dim0`: the variance (correction 1) along each dim;
//!   `ndarray_var_dim1` / `ndarray_var_dim0`: ndarray's `var_axis`.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use ndarray::{Array2, Axis};
use rayon::prelude::*;
use shaped::prelude::*;
use std::hint::black_box;
use std::time::Duration;

fn values(n: usize) -> Vec<f32> {
    (0..n)
        .map(|i| (i.wrapping_mul(2654435761) % 1000) as f32 * 0.01)
        .collect()
}

fn bench(c: &mut Criterion) {
    let side = 4096;
    let data = values(side * side);
    let mut g = c.benchmark_group("softmax");
    g.sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .throughput(Throughput::Bytes(8 * (side * side) as u64));
    let mut dst = vec![0f32; side * side];
    g.bench_function("copy", |b| {
        b.iter(|| {
            dst.par_chunks_mut(1 << 16)
                .zip(data.par_chunks(1 << 16))
                .for_each(|(d, s)| d.copy_from_slice(s))
        })
    });
    let x = Tensor::<f32, shape![4096, 4096]>::from_vec(data.clone()).unwrap();
    g.bench_function("softmax_last", |b| b.iter(|| black_box(x.softmax::<1>())));
    g.bench_function("log_softmax_last", |b| {
        b.iter(|| black_box(x.log_softmax::<1>()))
    });
    g.bench_function("softmax_first", |b| b.iter(|| black_box(x.softmax::<0>())));
    let a = Array2::from_shape_vec((side, side), data.clone()).unwrap();
    g.bench_function("ndarray_last", |b| {
        b.iter(|| {
            let mut y = a.clone();
            for mut row in y.axis_iter_mut(Axis(0)) {
                let m = row.fold(f32::NEG_INFINITY, |m, &v| m.max(v));
                row.mapv_inplace(|v| (v - m).exp());
                let s = row.sum();
                row.mapv_inplace(|v| v / s);
            }
            black_box(y)
        })
    });
    g.finish();

    let mut g = c.benchmark_group("var");
    g.sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .throughput(Throughput::Bytes(4 * (side * side) as u64));
    g.bench_function("var_dim1", |b| b.iter(|| black_box(x.var_dim::<1>(1))));
    g.bench_function("var_dim0", |b| b.iter(|| black_box(x.var_dim::<0>(1))));
    g.bench_function("ndarray_var_dim1", |b| {
        b.iter(|| black_box(a.var_axis(Axis(1), 1.0)))
    });
    g.bench_function("ndarray_var_dim0", |b| {
        b.iter(|| black_box(a.var_axis(Axis(0), 1.0)))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
