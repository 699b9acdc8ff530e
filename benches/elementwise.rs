//! Elementwise `f32` addition: `shaped` against `ndarray` on the same shapes,
//! in the same run, with a plain parallel copy as the memory-bandwidth
//! reference. The PyTorch/numpy counterpart is `scripts/bench/elementwise.py`.
//!
//! Run with `cargo bench --bench elementwise` (a few minutes); a subset with
//! e.g. `cargo bench --bench elementwise -- large/a_`.
//!
//! What is measured:
//! - Every `&a + &b` result *includes allocating the output* (and freeing it
//!   at the end of the iteration), as `&a + &b` does in every library compared
//!   (ndarray, numpy, PyTorch). For 64 MiB outputs the allocator hands out
//!   fresh pages, so first-touch page faults are part of the time.
//!   `copy/2_threads_alloc` shows that cost on a plain copy; `copy/2_threads`
//!   (into a preallocated buffer) is the bandwidth reference.
//! - Threads: `shaped` uses rayon's global pool (all cores, or
//!   `RAYON_NUM_THREADS`); `shaped_1_thread` runs the same operation inside a
//!   one-thread pool. `ndarray`'s operators are single-threaded (its `rayon`
//!   feature is not enabled, and `&a + &b` would not use it anyway).
//! - Throughput (`Throughput::Bytes`) counts each distinct element read or
//!   written once, 4 bytes each: `a + b = c` on equal shapes is 3 x 4 x n;
//!   with a broadcast operand of 4096 elements it is 2 x 4 x n + 4 x 4096
//!   (the small operand stays in cache); the copy is 2 x 4 x n. Write-allocate
//!   traffic (reading the destination line before writing it) is not counted,
//!   in any case alike.
//!
//! `shaped_dyn` runs the same operands as `DynTensor`s (rank known only at
//! run time), `shaped_mixed` with `shape![Dyn, Dyn]`.
//!
//! Case (d), `(4096, 4096) + transposed (4096, 4096)`, uses `Tensor::t()`
//! (a view with strides `(1, 4096)`) in `shaped` and `.t()` in `ndarray`.
//!
//! Allocation differs by library, and that is part of what is measured:
//! `shaped` may reuse freed large blocks (its CPU buffer cache; set
//! `SHAPED_CPU_CACHE_BYTES=0` to turn it off), `ndarray` gets a fresh `Vec`.

use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, Criterion, Throughput, criterion_group, criterion_main};
use ndarray::{Array1, Array2};
use rayon::prelude::*;
use rayon::{ThreadPool, ThreadPoolBuilder};
use shaped::prelude::*;
use std::hint::black_box;
use std::time::Duration;

/// Side of the large square operands.
const SIDE: usize = 4096;
/// Elements of the large operands: 16M.
const N: usize = SIDE * SIDE;
/// Bytes of one `f32`.
const F32: u64 = 4;

type Square = shape![4096, 4096];
type Flat = shape![16777216];
type Column = shape![4096, 1];
type Line = shape![1, 4096];

/// Deterministic, non-constant values (so no buffer is a page of zeros).
fn values(n: usize, seed: usize) -> Vec<f32> {
    (0..n)
        .map(|i| ((i.wrapping_mul(2654435761).wrapping_add(seed)) % 1000) as f32 * 0.001)
        .collect()
}

fn pool(threads: usize) -> ThreadPool {
    ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("a rayon thread pool")
}

/// Bytes moved by `c = a + b` with `na`/`nb` distinct elements read.
fn add_bytes(na: usize, nb: usize, n_out: usize) -> Throughput {
    Throughput::Bytes(F32 * (na + nb + n_out) as u64)
}

fn large_group<'a>(c: &'a mut Criterion, name: &str) -> BenchmarkGroup<'a, WallTime> {
    let mut g = c.benchmark_group(name);
    g.sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    g
}

/// The bandwidth reference: 16M `f32` read once and written once.
fn bench_copy(c: &mut Criterion) {
    let src = values(N, 1);
    let mut dst = vec![0.0f32; N];
    let one = pool(1);
    let two = pool(2);
    let mut g = large_group(c, "copy");
    g.throughput(Throughput::Bytes(2 * F32 * N as u64));
    g.bench_function("2_threads", |b| {
        b.iter(|| {
            two.install(|| par_copy(black_box(&src), &mut dst));
            black_box(&mut dst);
        })
    });
    g.bench_function("1_thread", |b| {
        b.iter(|| {
            one.install(|| par_copy(black_box(&src), &mut dst));
            black_box(&mut dst);
        })
    });
    // The same copy into a freshly allocated buffer (`vec![0.0; N]` maps
    // untouched zero pages; the copy takes their page faults), as an
    // allocating `&a + &b` must.
    g.bench_function("2_threads_alloc", |b| {
        b.iter(|| {
            let mut fresh = vec![0.0f32; N];
            two.install(|| par_copy(black_box(&src), &mut fresh));
            fresh
        })
    });
    g.finish();
}

/// `dst.copy_from_slice(src)` split into one contiguous chunk per thread of
/// the current pool.
fn par_copy(src: &[f32], dst: &mut [f32]) {
    let chunk = src.len().div_ceil(rayon::current_num_threads());
    dst.par_chunks_mut(chunk)
        .zip(src.par_chunks(chunk))
        .for_each(|(d, s)| d.copy_from_slice(s));
}

/// (a) equal shapes, 16M elements.
fn bench_same_shape(c: &mut Criterion) {
    let (va, vb) = (values(N, 1), values(N, 2));
    let sa = Tensor::<f32, Square>::from_vec(va.clone()).unwrap();
    let sb = Tensor::<f32, Square>::from_vec(vb.clone()).unwrap();
    let fa = Tensor::<f32, Flat>::from_vec(va.clone()).unwrap();
    let fb = Tensor::<f32, Flat>::from_vec(vb.clone()).unwrap();
    let na = Array2::from_shape_vec((SIDE, SIDE), va.clone()).unwrap();
    let nb = Array2::from_shape_vec((SIDE, SIDE), vb.clone()).unwrap();
    let n1a = Array1::from_vec(va);
    let n1b = Array1::from_vec(vb);
    assert_eq!(
        (&sa + &sb).to_vec().as_slice(),
        (&na + &nb).as_slice().unwrap()
    );
    let one = pool(1);

    let mut g = large_group(c, "large/a_same_shape");
    g.throughput(add_bytes(N, N, N));
    let (da, db) = (sa.clone().into_dyn(), sb.clone().into_dyn());
    g.bench_function("shaped_4096x4096", |b| b.iter(|| &sa + &sb));
    g.bench_function("shaped_dyn_4096x4096", |b| b.iter(|| &da + &db));
    g.bench_function("shaped_16777216", |b| b.iter(|| &fa + &fb));
    g.bench_function("shaped_4096x4096_1_thread", |b| {
        b.iter(|| one.install(|| &sa + &sb))
    });
    g.bench_function("ndarray_4096x4096", |b| b.iter(|| &na + &nb));
    g.bench_function("ndarray_16777216", |b| b.iter(|| &n1a + &n1b));
    g.finish();
}

/// (a) in place, `x += &b`: no output allocation in either library, so the
/// engines are compared without their allocators (an extra, diagnostic case).
fn bench_same_shape_in_place(c: &mut Criterion) {
    let (va, vb) = (values(N, 1), values(N, 2));
    let mut sx = Tensor::<f32, Square>::from_vec(va.clone()).unwrap();
    let sb = Tensor::<f32, Square>::from_vec(vb.clone()).unwrap();
    let mut nx = Array2::from_shape_vec((SIDE, SIDE), va).unwrap();
    let nb = Array2::from_shape_vec((SIDE, SIDE), vb).unwrap();

    let mut g = large_group(c, "large/a_in_place");
    g.throughput(add_bytes(N, N, N));
    g.bench_function("shaped", |b| b.iter(|| sx += &sb));
    g.bench_function("ndarray", |b| b.iter(|| nx += &nb));
    g.finish();
    black_box((&sx, &nx));
}

/// (b) `(4096, 4096) + (4096, 1)`: a stride-0 inner dimension.
fn bench_column(c: &mut Criterion) {
    let (va, vb) = (values(N, 1), values(SIDE, 2));
    let sa = Tensor::<f32, Square>::from_vec(va.clone()).unwrap();
    let sb = Tensor::<f32, Column>::from_vec(vb.clone()).unwrap();
    let na = Array2::from_shape_vec((SIDE, SIDE), va).unwrap();
    let nb = Array2::from_shape_vec((SIDE, 1), vb).unwrap();
    assert_eq!(
        (&sa + &sb).to_vec().as_slice(),
        (&na + &nb).as_slice().unwrap()
    );
    let one = pool(1);

    let (da, db) = (sa.clone().into_dyn(), sb.clone().into_dyn());
    let mut g = large_group(c, "large/b_plus_4096x1");
    g.throughput(add_bytes(N, SIDE, N));
    g.bench_function("shaped", |b| b.iter(|| &sa + &sb));
    g.bench_function("shaped_dyn", |b| b.iter(|| &da + &db));
    g.bench_function("shaped_1_thread", |b| b.iter(|| one.install(|| &sa + &sb)));
    g.bench_function("ndarray", |b| b.iter(|| &na + &nb));
    g.finish();
}

/// (c) `(4096, 4096) + (1, 4096)`: a stride-0 outer dimension.
fn bench_row(c: &mut Criterion) {
    let (va, vb) = (values(N, 1), values(SIDE, 2));
    let sa = Tensor::<f32, Square>::from_vec(va.clone()).unwrap();
    let sb = Tensor::<f32, Line>::from_vec(vb.clone()).unwrap();
    let na = Array2::from_shape_vec((SIDE, SIDE), va).unwrap();
    let nb = Array2::from_shape_vec((1, SIDE), vb).unwrap();
    assert_eq!(
        (&sa + &sb).to_vec().as_slice(),
        (&na + &nb).as_slice().unwrap()
    );
    let one = pool(1);

    let (da, db) = (sa.clone().into_dyn(), sb.clone().into_dyn());
    let mut g = large_group(c, "large/c_plus_1x4096");
    g.throughput(add_bytes(N, SIDE, N));
    g.bench_function("shaped", |b| b.iter(|| &sa + &sb));
    g.bench_function("shaped_dyn", |b| b.iter(|| &da + &db));
    g.bench_function("shaped_1_thread", |b| b.iter(|| one.install(|| &sa + &sb)));
    g.bench_function("ndarray", |b| b.iter(|| &na + &nb));
    g.finish();
}

/// (d) `(4096, 4096) + transposed (4096, 4096)` (strides `(1, 4096)`).
fn bench_transposed(c: &mut Criterion) {
    let (va, vb) = (values(N, 1), values(N, 2));
    let sa = Tensor::<f32, Square>::from_vec(va.clone()).unwrap();
    let sb = Tensor::<f32, Square>::from_vec(vb.clone()).unwrap();
    let na = Array2::from_shape_vec((SIDE, SIDE), va).unwrap();
    let nb = Array2::from_shape_vec((SIDE, SIDE), vb).unwrap();
    let sbt = sb.t();
    assert_eq!(sbt.strides(), [1, SIDE]);
    assert_eq!(nb.t().strides(), &[1, SIDE as isize]);
    assert_eq!(
        (&sa + &sbt).to_vec().as_slice(),
        (&na + &nb.t()).as_slice().unwrap()
    );
    let one = pool(1);

    let (da, dbt) = (sa.clone().into_dyn(), sb.t().into_dyn());
    let mut g = large_group(c, "large/d_plus_transposed");
    g.throughput(add_bytes(N, N, N));
    g.bench_function("shaped", |b| b.iter(|| &sa + &sbt));
    g.bench_function("shaped_dyn", |b| b.iter(|| &da + &dbt));
    g.bench_function("shaped_1_thread", |b| b.iter(|| one.install(|| &sa + &sbt)));
    g.bench_function("ndarray", |b| b.iter(|| &na + &nb.t()));
    g.finish();
}

/// Small tensors: the per-operation overhead (planning, allocation).
fn bench_small(c: &mut Criterion) {
    let s33a = Tensor::<f32, shape![3, 3]>::from_vec(values(9, 1)).unwrap();
    let s33b = Tensor::<f32, shape![3, 3]>::from_vec(values(9, 2)).unwrap();
    let n33a = Array2::from_shape_vec((3, 3), values(9, 1)).unwrap();
    let n33b = Array2::from_shape_vec((3, 3), values(9, 2)).unwrap();
    let s41 = Tensor::<f32, shape![4, 1]>::from_vec(values(4, 1)).unwrap();
    let s14 = Tensor::<f32, shape![1, 4]>::from_vec(values(4, 2)).unwrap();
    let n41 = Array2::from_shape_vec((4, 1), values(4, 1)).unwrap();
    let n14 = Array2::from_shape_vec((1, 4), values(4, 2)).unwrap();
    assert_eq!(
        (&s33a + &s33b).to_vec().as_slice(),
        (&n33a + &n33b).as_slice().unwrap()
    );
    assert_eq!(
        (&s41 + &s14).to_vec().as_slice(),
        (&n41 + &n14).as_slice().unwrap()
    );

    let (d33a, d33b) = (s33a.clone().into_dyn(), s33b.clone().into_dyn());
    let (d41, d14) = (s41.clone().into_dyn(), s14.clone().into_dyn());
    let m33a = Tensor::<f32, shape![Dyn, Dyn]>::from_vec_with(values(9, 1), &[3, 3]).unwrap();
    let m33b = Tensor::<f32, shape![Dyn, Dyn]>::from_vec_with(values(9, 2), &[3, 3]).unwrap();

    let mut g = c.benchmark_group("small");
    g.sample_size(50)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(1));
    g.bench_function("3x3+3x3/shaped", |b| {
        b.iter(|| black_box(&s33a) + black_box(&s33b))
    });
    g.bench_function("3x3+3x3/shaped_mixed", |b| {
        b.iter(|| black_box(&m33a) + black_box(&m33b))
    });
    g.bench_function("3x3+3x3/shaped_dyn", |b| {
        b.iter(|| black_box(&d33a) + black_box(&d33b))
    });
    g.bench_function("3x3+3x3/ndarray", |b| {
        b.iter(|| black_box(&n33a) + black_box(&n33b))
    });
    g.bench_function("4x1+1x4/shaped", |b| {
        b.iter(|| black_box(&s41) + black_box(&s14))
    });
    g.bench_function("4x1+1x4/shaped_dyn", |b| {
        b.iter(|| black_box(&d41) + black_box(&d14))
    });
    g.bench_function("4x1+1x4/ndarray", |b| {
        b.iter(|| black_box(&n41) + black_box(&n14))
    });
    // The runtime-dtype path: promotion, dispatch and operands read as
    // views, owned tensors and views alike.
    let (a33a, a33b) = (AnyTensor::from(d33a.clone()), AnyTensor::from(d33b.clone()));
    let i33 = AnyTensor::from(DynTensor::<i32>::from_vec((0..9).collect(), &[3, 3]).unwrap());
    g.bench_function("3x3+3x3/any", |b| {
        b.iter(|| black_box(&a33a).try_add(black_box(&a33b)).unwrap())
    });
    g.bench_function("3x3+3x3/any_views", |b| {
        let (va, vb) = (a33a.t().unwrap(), a33b.t().unwrap());
        b.iter(|| black_box(&va).try_add(black_box(&vb)).unwrap())
    });
    g.bench_function("3x3+3x3/any_int32_float32", |b| {
        b.iter(|| black_box(&i33).try_add(black_box(&a33b)).unwrap())
    });
    g.finish();
}

criterion_group!(
    benches,
    bench_copy,
    bench_same_shape,
    bench_same_shape_in_place,
    bench_column,
    bench_row,
    bench_transposed,
    bench_small
);
criterion_main!(benches);
