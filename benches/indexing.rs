//! Indexing by tensors (`f32`): `shaped` against `ndarray` on the same data,
//! in the same run. The PyTorch/NumPy counterpart is
//! `scripts/bench/indexing.py`.
//!
//! Run with `cargo bench --bench indexing` (about a minute; the table takes
//! 512 MiB).
//!
//! Cases:
//! - `index_select_rows`: 65,536 random rows of a (1,000,000, 128) table:
//!   `index_select(0, &idx)` against ndarray's `select(Axis(0), &idx)`.
//! - `gather_dim1`: (4096, 4096) gathered along dim 1 with a random index of
//!   the same shape: `gather(1, &idx)` against an ndarray loop
//!   (`Array2::from_shape_fn`), ndarray having no gather.
//! - `scatter_add_dim1`: (4096, 4096) of zeros, the same source scattered
//!   along dim 1 by the same random index (out of place: a copy, then
//!   the adds), against an ndarray loop.
//! - `masked_fill`: (4096, 4096) with a random mask (half true), out of
//!   place (bytes: 4 read + 1 mask + 4 written per element), against an
//!   ndarray `Zip`; `masked_select`: the half of those 16M elements the
//!   mask picks (bytes: 4 + 1 read per element, 4 written per picked one).
//! - `take`: 4M random positions of a 16M-element tensor.
//! - `index_rows`: advanced indexing `x[idx]`, 65,536 random rows of a
//!   (1,000,000, 64) table, against ndarray's `select`; `index_pairs`:
//!   `x[i, j]` for 4M random pairs of (4096, 4096) (one storage offset per
//!   pair), against an ndarray loop; `index_put_accumulate`:
//!   `x.index_put_(&[&i, &j], &ones, true)` of the same pairs (ones of 4M,
//!   repeated pairs adding up), against an ndarray loop.
//! - `copy`: the 64 MiB of a (4096, 4096) matrix copied into a preallocated
//!   buffer on both threads: the memory-bandwidth reference.
//!
//! Throughput counts the bytes a gather must move: each output element read
//! once and written once, and each index read once (8 bytes).

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use ndarray::{Array2, Axis};
use rayon::prelude::*;
use shaped::prelude::*;
use std::hint::black_box;
use std::time::Duration;

/// A deterministic pseudo-random sequence below `bound`.
fn random_indices(n: usize, bound: usize, seed: u64) -> Vec<i64> {
    let mut state = seed;
    (0..n)
        .map(|_| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((state >> 33) % bound as u64) as i64
        })
        .collect()
}

fn values(n: usize) -> Vec<f32> {
    (0..n)
        .map(|i| (i.wrapping_mul(2654435761) % 1000) as f32 * 0.001)
        .collect()
}

fn bench(c: &mut Criterion) {
    let side = 4096;
    let square = values(side * side);
    let mut dst = vec![0f32; side * side];
    let mut g = c.benchmark_group("copy");
    g.sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .throughput(Throughput::Bytes(8 * (side * side) as u64));
    g.bench_function("two_threads", |b| {
        b.iter(|| {
            dst.par_chunks_mut(1 << 16)
                .zip(square.par_chunks(1 << 16))
                .for_each(|(d, s)| d.copy_from_slice(s))
        })
    });
    g.finish();

    // index_select: 65,536 rows of 128 from a million.
    let (rows, width, picked) = (1_000_000, 128, 65_536);
    let table = DynTensor::<f32>::from_vec(values(rows * width), &[rows, width]).unwrap();
    let nd_table = Array2::from_shape_vec((rows, width), table.to_vec()).unwrap();
    let picks = random_indices(picked, rows, 1);
    let idx = DynTensor::<i64>::from_vec(picks.clone(), &[picked]).unwrap();
    let nd_picks: Vec<usize> = picks.iter().map(|&p| p as usize).collect();
    assert_eq!(
        table.index_select(0, &idx).unwrap().to_vec(),
        nd_table
            .select(Axis(0), &nd_picks)
            .into_raw_vec_and_offset()
            .0
    );
    let mut g = c.benchmark_group("index_select_rows");
    g.sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .throughput(Throughput::Bytes(
            (2 * 4 * picked * width + 8 * picked) as u64,
        ));
    g.bench_function("shaped", |b| {
        b.iter(|| table.index_select(0, black_box(&idx)).unwrap())
    });
    g.bench_function("ndarray", |b| {
        b.iter(|| nd_table.select(Axis(0), black_box(&nd_picks)))
    });
    g.finish();
    drop((table, nd_table));

    // gather along dim 1 of (4096, 4096).
    let x = DynTensor::<f32>::from_vec(square.clone(), &[side, side]).unwrap();
    let nd_x = Array2::from_shape_vec((side, side), square.clone()).unwrap();
    let raw = random_indices(side * side, side, 2);
    let gidx = DynTensor::<i64>::from_vec(raw.clone(), &[side, side]).unwrap();
    let nd_idx = Array2::from_shape_vec((side, side), raw).unwrap();
    let nd_gather = |x: &Array2<f32>, idx: &Array2<i64>| {
        Array2::from_shape_fn((side, side), |(i, j)| x[[i, idx[[i, j]] as usize]])
    };
    assert_eq!(
        x.gather(1, &gidx).unwrap().to_vec(),
        nd_gather(&nd_x, &nd_idx).into_raw_vec_and_offset().0
    );
    let mut g = c.benchmark_group("gather_dim1");
    g.sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .throughput(Throughput::Bytes((16 * side * side) as u64));
    g.bench_function("shaped", |b| {
        b.iter(|| x.gather(1, black_box(&gidx)).unwrap())
    });
    g.bench_function("ndarray", |b| {
        b.iter(|| nd_gather(&nd_x, black_box(&nd_idx)))
    });
    g.finish();

    // scatter_add along dim 1 of (4096, 4096), the same random index.
    let zeros = DynTensor::<f32>::zeros(&[side, side]);
    let mut acc = zeros.clone();
    acc.scatter_add_(1, &gidx, &x).unwrap();
    let nd_scatter_add = |idx: &Array2<i64>, src: &Array2<f32>| {
        let mut out = Array2::<f32>::zeros((side, side));
        for (((i, _), &k), &v) in idx.indexed_iter().zip(src.iter()) {
            out[[i, k as usize]] += v;
        }
        out
    };
    assert_eq!(
        acc.to_vec(),
        nd_scatter_add(&nd_idx, &nd_x).into_raw_vec_and_offset().0
    );
    let mut g = c.benchmark_group("scatter_add_dim1");
    g.sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .throughput(Throughput::Bytes((16 * side * side) as u64));
    g.bench_function("shaped", |b| {
        b.iter(|| zeros.scatter_add(1, black_box(&gidx), &x).unwrap())
    });
    g.bench_function("ndarray", |b| {
        b.iter(|| nd_scatter_add(black_box(&nd_idx), &nd_x))
    });
    g.finish();

    // masked_fill of (4096, 4096) with a random mask; masked_select of the
    // same 16M elements, half of them chosen.
    let mask_values: Vec<bool> = random_indices(side * side, 2, 4)
        .iter()
        .map(|&v| v == 1)
        .collect();
    let mask = DynTensor::<bool>::from_vec(mask_values.clone(), &[side, side]).unwrap();
    let nd_mask = Array2::from_shape_vec((side, side), mask_values).unwrap();
    let nd_masked_fill = |x: &Array2<f32>, m: &Array2<bool>| {
        ndarray::Zip::from(x)
            .and(m)
            .map_collect(|&v, &m| if m { 0.0 } else { v })
    };
    assert_eq!(
        x.masked_fill(&mask, 0.0).unwrap().to_vec(),
        nd_masked_fill(&nd_x, &nd_mask).into_raw_vec_and_offset().0
    );
    let mut g = c.benchmark_group("masked_fill");
    g.sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .throughput(Throughput::Bytes((9 * side * side) as u64));
    g.bench_function("shaped", |b| {
        b.iter(|| x.masked_fill(black_box(&mask), 0.0).unwrap())
    });
    g.bench_function("ndarray", |b| {
        b.iter(|| nd_masked_fill(&nd_x, black_box(&nd_mask)))
    });
    g.finish();
    let mut g = c.benchmark_group("masked_select");
    g.sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .throughput(Throughput::Bytes((7 * side * side) as u64));
    g.bench_function("shaped", |b| {
        b.iter(|| x.masked_select(black_box(&mask)).unwrap())
    });
    g.finish();

    // take: 4M random positions of 16M elements.
    let flat = x.view(&[-1]).unwrap();
    let tidx =
        DynTensor::<i64>::from_vec(random_indices(1 << 22, side * side, 3), &[1 << 22]).unwrap();
    let mut g = c.benchmark_group("take");
    g.sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .throughput(Throughput::Bytes(16 << 22));
    g.bench_function("shaped", |b| {
        b.iter(|| flat.take(black_box(&tidx)).unwrap())
    });
    g.finish();

    // Advanced indexing: x[idx] of 65,536 random rows of (1,000,000, 64),
    // against ndarray's `select`.
    let (rows, width, picked) = (1_000_000, 64, 65_536);
    let table = DynTensor::<f32>::from_vec(values(rows * width), &[rows, width]).unwrap();
    let nd_table = Array2::from_shape_vec((rows, width), table.to_vec()).unwrap();
    let picks = random_indices(picked, rows, 4);
    let idx = DynTensor::<i64>::from_vec(picks.clone(), &[picked]).unwrap();
    let nd_picks: Vec<usize> = picks.iter().map(|&p| p as usize).collect();
    assert_eq!(
        table.index(&[Index::Tensor(&idx)]).unwrap().to_vec(),
        nd_table
            .select(Axis(0), &nd_picks)
            .into_raw_vec_and_offset()
            .0
    );
    let mut g = c.benchmark_group("index_rows");
    g.sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .throughput(Throughput::Bytes(
            (2 * 4 * picked * width + 8 * picked) as u64,
        ));
    g.bench_function("shaped", |b| {
        b.iter(|| table.index(&[Index::Tensor(black_box(&idx))]).unwrap())
    });
    g.bench_function("ndarray", |b| {
        b.iter(|| nd_table.select(Axis(0), black_box(&nd_picks)))
    });
    g.finish();
    drop((table, nd_table));

    // x[i, j] of 4M random pairs of (4096, 4096), and x.index_put_((i, j),
    // v, accumulate=True) of the same pairs (ndarray: a loop).
    let n = 1 << 22;
    let (ri, rj) = (random_indices(n, side, 5), random_indices(n, side, 6));
    let i = DynTensor::<i64>::from_vec(ri.clone(), &[n]).unwrap();
    let j = DynTensor::<i64>::from_vec(rj.clone(), &[n]).unwrap();
    let pairs = |x: &Array2<f32>| -> Vec<f32> {
        ri.iter()
            .zip(&rj)
            .map(|(&a, &b)| x[[a as usize, b as usize]])
            .collect()
    };
    assert_eq!(
        x.index(&[Index::Tensor(&i), Index::Tensor(&j)])
            .unwrap()
            .to_vec(),
        pairs(&nd_x)
    );
    let mut g = c.benchmark_group("index_pairs");
    g.sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .throughput(Throughput::Bytes((n * (8 + 8 + 4 + 4)) as u64));
    g.bench_function("shaped", |b| {
        b.iter(|| {
            x.index(&[Index::Tensor(black_box(&i)), Index::Tensor(&j)])
                .unwrap()
        })
    });
    g.bench_function("ndarray", |b| b.iter(|| pairs(black_box(&nd_x))));
    g.finish();
    let ones = DynTensor::<f32>::ones(&[n]);
    let mut acc = DynTensor::<f32>::zeros(&[side, side]);
    let mut nd_acc = Array2::<f32>::zeros((side, side));
    let mut g = c.benchmark_group("index_put_accumulate");
    g.sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .throughput(Throughput::Bytes((n * (8 + 8 + 4 + 8)) as u64));
    g.bench_function("shaped", |b| {
        b.iter(|| acc.index_put_(&[black_box(&i), &j], &ones, true).unwrap())
    });
    g.bench_function("ndarray", |b| {
        b.iter(|| {
            for (&a, &b) in ri.iter().zip(&rj) {
                nd_acc[[a as usize, b as usize]] += 1.0;
            }
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
