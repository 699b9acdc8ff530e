//! Files in and out: safetensors (reading one tensor of a 1 GiB file, and
//! loading a whole 256 MiB one), `.npy` of 256 MiB of `f32` (write and
//! read), and the ndarray view conversion. The Python counterpart is
//! `scripts/bench/io.py` (safetensors.torch, numpy.save/numpy.load, on the
//! same files and sizes).
//!
//! Run with `cargo bench --bench io --features ndarray`.
//!
//! The files live in the system's temporary directory and are read from the
//! page cache (written just before), as in the Python script: the numbers
//! are the libraries' own costs, not the disk's.

use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use shaped::io::HostTensor;
use shaped::io::npy;
use shaped::io::safetensors::{self, SafeTensors};
use shaped::prelude::*;
use std::hint::black_box;
use std::path::PathBuf;
use std::time::Duration;

const MIB: usize = 1 << 20;

fn temp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("shaped-bench-{name}"))
}

/// A safetensors file of `count` tensors of 64 MiB of f32 each.
fn safetensors_file(name: &str, count: usize) -> PathBuf {
    let path = temp(name);
    let t = DynTensor::<f32>::from_fn_with(&[16 * MIB], |i| i[0] as f32).unwrap();
    let names: Vec<String> = (0..count).map(|i| format!("layer.{i:02}")).collect();
    let refs: Vec<(&str, &dyn HostTensor)> = names.iter().map(|n| (n.as_str(), &t as _)).collect();
    safetensors::save(&path, &refs, None).unwrap();
    path
}

fn safetensors_reads(c: &mut Criterion) {
    let big = safetensors_file("1GiB.safetensors", 16);
    let small = safetensors_file("128MiB.safetensors", 2);
    let mut g = c.benchmark_group("safetensors_one_tensor");
    g.sample_size(20)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    for (label, path) in [("1GiB", &big), ("128MiB", &small)] {
        g.bench_function(format!("mmap_take/{label}/shaped"), |b| {
            b.iter(|| {
                // SAFETY: the benchmark's own file, unchanged while mapped.
                let mut file = unsafe { SafeTensors::mmap(path).unwrap() };
                black_box(file.take("layer.01").unwrap())
            })
        });
        g.bench_function(format!("open_read/{label}/shaped"), |b| {
            b.iter(|| black_box(SafeTensors::open(path).unwrap().tensor("layer.01").unwrap()))
        });
    }
    g.finish();
    let whole = safetensors_file("256MiB.safetensors", 4);
    let mut g = c.benchmark_group("safetensors_load_256MiB");
    g.sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(4))
        .throughput(Throughput::Bytes(256 * MIB as u64));
    g.bench_function("mmap_into_tensors/shaped", |b| {
        // SAFETY: the benchmark's own file, unchanged while mapped.
        b.iter(|| {
            black_box(
                unsafe { SafeTensors::mmap(&whole) }
                    .unwrap()
                    .into_tensors()
                    .unwrap(),
            )
        })
    });
    g.bench_function("load_all/shaped", |b| {
        b.iter(|| black_box(safetensors::load_all(&whole).unwrap()))
    });
    g.finish();
    for p in [big, small, whole] {
        std::fs::remove_file(p).unwrap();
    }
}

fn npy_files(c: &mut Criterion) {
    let path = temp("256MiB.npy");
    let x = DynTensor::<f32>::from_fn_with(&[64 * MIB], |i| i[0] as f32).unwrap();
    let mut g = c.benchmark_group("npy_256MiB");
    g.sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(4))
        .throughput(Throughput::Bytes(256 * MIB as u64));
    // Over the file of the last write (its pages reused), then to a new
    // file (the setup removes it, outside the timing).
    g.bench_function("write/shaped", |b| {
        b.iter(|| npy::write_npy(&path, &x).unwrap())
    });
    g.bench_function("write_new/shaped", |b| {
        b.iter_batched(
            || std::fs::remove_file(&path).unwrap(),
            |()| npy::write_npy(&path, &x).unwrap(),
            BatchSize::PerIteration,
        )
    });
    // A transposed matrix (Fortran order, no copy) and every other column
    // of it (gathered 4 MiB at a time: 128 MiB written).
    let m = x.reshape(&[8192, 8192]).unwrap();
    let t = m.t().unwrap();
    g.bench_function("write_transposed/shaped", |b| {
        b.iter(|| npy::write_npy(&path, &t).unwrap())
    });
    let stepped = m.slice(s![.., ..;2]).unwrap();
    g.throughput(Throughput::Bytes(128 * MIB as u64));
    g.bench_function("write_every_other_column/shaped", |b| {
        b.iter(|| npy::write_npy(&path, &stepped).unwrap())
    });
    g.throughput(Throughput::Bytes(256 * MIB as u64));
    npy::write_npy(&path, &x).unwrap();
    g.bench_function("read/shaped", |b| {
        b.iter(|| black_box(npy::read_npy(&path).unwrap()))
    });
    g.finish();
    // Absent when a filter skipped the cases.
    let _ = std::fs::remove_file(path);
}

/// Views between ndarray and shaped: O(1), no allocation up to rank 4.
#[cfg(feature = "ndarray")]
fn ndarray_views(c: &mut Criterion) {
    let a = ndarray::Array3::<f32>::zeros((8, 64, 64));
    let t = DynTensor::<f32>::zeros(&[8, 64, 64]);
    let mut g = c.benchmark_group("ndarray_view_8x64x64");
    g.warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(2));
    g.bench_function("from_ndarray_view/shaped", |b| {
        b.iter(|| {
            black_box(TensorView::<f32, DynShape>::from_ndarray_view(black_box(&a).view()).unwrap())
        })
    });
    g.bench_function("static_from_ndarray_view/shaped", |b| {
        b.iter(|| {
            black_box(
                TensorView::<f32, shape![8, 64, 64]>::from_ndarray_view(black_box(&a).view())
                    .unwrap(),
            )
        })
    });
    g.bench_function("as_ndarray/shaped", |b| {
        b.iter(|| black_box(black_box(&t).as_ndarray()))
    });
    g.bench_function("as_ndarray_dim_ix3/shaped", |b| {
        b.iter(|| black_box(black_box(&t).as_ndarray_dim::<ndarray::Ix3>().unwrap()))
    });
    g.bench_function("view/ndarray", |b| {
        b.iter(|| black_box(black_box(&a).view()))
    });
    g.bench_function("view_into_dyn/ndarray", |b| {
        b.iter(|| black_box(black_box(&a).view().into_dyn()))
    });
    g.finish();
}

#[cfg(not(feature = "ndarray"))]
fn ndarray_views(_: &mut Criterion) {
    eprintln!("ndarray_view: run with `--features ndarray`");
}

criterion_group!(benches, safetensors_reads, npy_files, ndarray_views);
criterion_main!(benches);
