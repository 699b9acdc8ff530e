//! `sort` and `argsort` (`f32`): `shaped` against the standard library's
//! sorts on the same data, in the same run (ndarray has no sort). The
//! PyTorch counterpart is `scripts/bench/sort.py`.
//!
//! Run with `cargo bench --bench sort`.
//!
//! Values: a hash of the position, `(i * 2654435761 mod 2^32) / 2^32`, in
//! [0, 1). Cases:
//! - `sort_flat`: values and indices of 16M elements as one line;
//!   `std_sort_flat`: `sort_unstable_by(total_cmp)` of a copy (values only,
//!   one thread); `std_stable_flat`: `sort_by` of (value, index) pairs.
//! - `sort_rows` / `argsort_rows`: each row of a (4096, 4096) matrix;
//!   `std_sort_rows`: `sort_unstable_by` of each row of a copy, rows split
//!   over the threads with rayon.
//! - `sort_cols`: each column (dim 0).
//! - `topk10_rows`: the 10 largest of each row, values and indices.
//! - `kthvalue_rows` (k = 100), `median_rows`, `mode_rows` (of values
//!   rounded to 1/64: many ties), `quantile_rows` (q = 0.9, linear) and
//!   `median_flat` (of all 16M); `numpy`-like `select_nth_unstable` of each
//!   row (`std_select_rows`) for scale.

use criterion::{Criterion, criterion_group, criterion_main};
use rayon::prelude::*;
use shaped::prelude::*;
use std::hint::black_box;
use std::time::Duration;

fn values(n: usize) -> Vec<f32> {
    (0..n)
        .map(|i| ((i as u64).wrapping_mul(2654435761) % (1 << 32)) as f32 / 4294967296.0)
        .collect()
}

fn bench(c: &mut Criterion) {
    let side = 4096;
    let n = side * side;
    let data = values(n);
    let mut g = c.benchmark_group("sort");
    g.sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(5));
    let flat = DynTensor::<f32>::from_vec(data.clone(), &[n]).unwrap();
    g.bench_function("sort_flat", |b| {
        b.iter(|| black_box(flat.sort(0, false, true).unwrap()))
    });
    g.bench_function("std_sort_flat", |b| {
        b.iter(|| {
            let mut v = data.clone();
            v.sort_unstable_by(f32::total_cmp);
            black_box(v)
        })
    });
    g.bench_function("std_stable_flat", |b| {
        b.iter(|| {
            let mut v: Vec<(f32, i64)> = data.iter().copied().zip(0..).collect();
            v.sort_by(|a, b| a.0.total_cmp(&b.0));
            black_box(v)
        })
    });
    let x = Tensor::<f32, shape![4096, 4096]>::from_vec(data.clone()).unwrap();
    g.bench_function("sort_rows", |b| b.iter(|| black_box(x.sort::<1>(false))));
    g.bench_function("argsort_rows", |b| {
        b.iter(|| black_box(x.argsort::<1>(false)))
    });
    g.bench_function("std_sort_rows", |b| {
        b.iter(|| {
            let mut v = data.clone();
            v.par_chunks_mut(side)
                .for_each(|row| row.sort_unstable_by(f32::total_cmp));
            black_box(v)
        })
    });
    g.bench_function("sort_cols", |b| b.iter(|| black_box(x.sort::<0>(false))));
    let d = x.clone().into_dyn();
    g.bench_function("topk10_rows", |b| {
        b.iter(|| black_box(d.topk(10, 1, true, true).unwrap()))
    });
    g.bench_function("kthvalue_rows", |b| {
        b.iter(|| black_box(x.kthvalue::<100, 1>()))
    });
    g.bench_function("median_rows", |b| b.iter(|| black_box(x.median_dim::<1>())));
    g.bench_function("quantile_rows", |b| {
        b.iter(|| black_box(x.quantile_dim::<1>(0.9, Interpolation::Linear)))
    });
    let coarse = Tensor::<f32, shape![4096, 4096]>::from_vec(
        data.iter().map(|v| (v * 64.0).floor() / 64.0).collect(),
    )
    .unwrap();
    g.bench_function("mode_rows", |b| b.iter(|| black_box(coarse.mode::<1>())));
    g.bench_function("median_flat", |b| {
        b.iter(|| black_box(flat.median().unwrap()))
    });
    g.bench_function("std_select_rows", |b| {
        b.iter(|| {
            let mut v = data.clone();
            v.par_chunks_mut(side).for_each(|row| {
                row.select_nth_unstable_by(side / 2, f32::total_cmp);
            });
            black_box(v)
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
