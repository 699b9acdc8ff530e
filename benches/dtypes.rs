//! Elementwise addition of 16M elements in each of six element types
//! (float16, bfloat16, float32, float64, int32, complex64), against a
//! plain parallel copy of the same bytes (the memory-bandwidth reference)
//! and against ndarray where it has the type, in the same run. Plus one
//! mixed-dtype addition (int32 + float32, promoted to float32 in the
//! kernel). The PyTorch counterpart is `scripts/bench/dtypes.py`.
//!
//! Run with `cargo bench --bench dtypes`. Throughput counts the bytes of
//! `a`, `b` and the result once each: 3 x itemsize x n (mixed: 4 + 4 + 4).

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use half::{bf16, f16};
use num_complex::Complex;
use rayon::prelude::*;
use shaped::dtype::cast::cast;
use shaped::prelude::*;
use std::hint::black_box;
use std::time::Duration;

/// Elements of each operand: 16M.
const N: usize = 1 << 24;
type Flat = shape![16777216];

/// Deterministic, non-constant values of any element type.
fn values<T: Element>(seed: usize) -> Vec<T> {
    (0..N)
        .map(|i| {
            cast::<f64, T>(((i.wrapping_mul(2654435761).wrapping_add(seed)) % 1000) as f64 * 0.01)
        })
        .collect()
}

fn add_of<T: Element>(c: &mut Criterion, name: &str)
where
    for<'a> &'a Tensor<T, Flat>: core::ops::Add<&'a Tensor<T, Flat>, Output = Tensor<T, Flat>>,
{
    let a = Tensor::<T, Flat>::from_vec(values(1)).unwrap();
    let b = Tensor::<T, Flat>::from_vec(values(2)).unwrap();
    let bytes = 3 * (N * size_of::<T>()) as u64;
    let mut g = c.benchmark_group(format!("add_16M/{name}"));
    g.throughput(Throughput::Bytes(bytes));
    g.bench_function("shaped", |bch| bch.iter(|| black_box(&a + &b)));
    // The copy reference moves the same number of bytes: read 2, write 1
    // buffers' worth, as one read and one write of 1.5 buffers.
    let src: Vec<T> = values(3);
    let mut dst = vec![T::ZERO; N];
    g.bench_function("copy_reference", |bch| {
        bch.iter(|| {
            dst.par_chunks_mut(1 << 16)
                .zip(src.par_chunks(1 << 16))
                .for_each(|(d, s)| d.copy_from_slice(s));
            black_box(&dst);
        })
    });
    g.finish();
}

/// float16 `a / b` (blocks through F16C, as `+`), against the same
/// division in float32.
fn div_half(c: &mut Criterion) {
    let a = Tensor::<f16, Flat>::from_vec(values(1)).unwrap();
    let b = Tensor::<f16, Flat>::from_vec(values(2)).unwrap();
    let (a32, b32) = (a.cast::<f32>(), b.cast::<f32>());
    let mut g = c.benchmark_group("div_16M");
    g.throughput(Throughput::Bytes(3 * 2 * N as u64));
    g.bench_function("float16", |bch| bch.iter(|| black_box(&a / &b)));
    g.bench_function("float32", |bch| bch.iter(|| black_box(&a32 / &b32)));
    g.finish();
}

fn dtypes(c: &mut Criterion) {
    add_of::<f16>(c, "float16");
    add_of::<bf16>(c, "bfloat16");
    add_of::<f32>(c, "float32");
    add_of::<f64>(c, "float64");
    add_of::<i32>(c, "int32");
    add_of::<Complex<f32>>(c, "complex64");

    let mut g = c.benchmark_group("add_16M/ndarray");
    g.throughput(Throughput::Bytes(3 * 4 * N as u64));
    let a = ndarray::Array1::from_vec(values::<f32>(1));
    let b = ndarray::Array1::from_vec(values::<f32>(2));
    g.bench_function("float32", |bch| bch.iter(|| black_box(&a + &b)));
    let a = ndarray::Array1::from_vec(values::<i32>(1));
    let b = ndarray::Array1::from_vec(values::<i32>(2));
    g.bench_function("int32", |bch| bch.iter(|| black_box(&a + &b)));
    g.finish();

    let mut g = c.benchmark_group("add_16M/mixed");
    g.throughput(Throughput::Bytes(3 * 4 * N as u64));
    let a = Tensor::<i32, Flat>::from_vec(values(1)).unwrap();
    let b = Tensor::<f32, Flat>::from_vec(values(2)).unwrap();
    g.bench_function("int32_plus_float32", |bch| bch.iter(|| black_box(&a + &b)));
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    targets = dtypes, div_half
}
criterion_main!(benches);
