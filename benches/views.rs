//! Views and `contiguous()`: `shaped` against `ndarray` in the same run. The
//! PyTorch/numpy counterpart is `scripts/bench/views.py`.
//!
//! Run with `cargo bench --bench views` (about two minutes; add
//! `-- --warm-up-time 1 --measurement-time 3` for a shorter run of the view
//! groups), or a subset with e.g. `cargo bench --bench views -- contiguous`.
//!
//! What is measured:
//! - `views/*`: building one view of a `(64, 64)` `f32` tensor, per second
//!   (`Throughput::Elements(1)`: criterion's "elem/s" is views/s). The
//!   receiver goes through `black_box` and the view is handed to
//!   `black_box` by reference ([`kept`]), so it is really built, in memory.
//!   (Criterion's by-value `black_box` of the returned view measured a
//!   store-forwarding stall instead: its 16-byte reloads of a 64-byte view
//!   whose last words were just stored one by one cost `select` 6 ns on an
//!   AMD EPYC, against 1.5 ns for ndarray's 24-byte view, whatever the
//!   view's work.) `static` is `Tensor<f32, shape![64, 64]>`
//!   (axes and lengths in the type), `dyn` a `DynTensor<f32>` (everything at
//!   run time, `Result` unwrapped), `ndarray` an `Array2<f32>` (`.view()`
//!   first where the operation consumes its receiver). A static `slice`
//!   takes literal `s![..]` items, so its result shape is in the type too.
//! - Before criterion starts, a counting global allocator checks how many
//!   heap allocations each kind of view makes, and prints the counts and the
//!   `size_of` of each view type. Creating a view of a static shape must make
//!   none (asserted).
//! - `contiguous/*`: a row-major copy of a transposed `(4096, 4096)` `f32`
//!   tensor (64 MiB). Throughput counts the bytes read plus the bytes
//!   written, 2 x 4 x n. `shaped` uses rayon's global pool (all cores, or
//!   `RAYON_NUM_THREADS`); `*_1_thread` runs inside a one-thread pool.
//!   `shaped` takes its output from its cache of freed large blocks (pages
//!   already mapped); `ndarray_as_standard_layout` allocates a fresh `Vec`
//!   (first-touch page faults included), so `ndarray_assign` (into a
//!   preallocated array, single-threaded) shows ndarray's copy loop alone.
//!   `ndarray_to_owned_memcpy` is *not* a transpose: ndarray's `to_owned` of
//!   a transposed view keeps its strides and copies memory as it lies (what
//!   PyTorch's `clone()` does); it is there as a reference. `copy/*` is a
//!   plain contiguous copy into a preallocated buffer: the memory-bandwidth
//!   reference.

use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, Criterion, Throughput, criterion_group, criterion_main};
use ndarray::{Array2, ArrayView2, Axis, Slice};
use rayon::prelude::*;
use rayon::{ThreadPool, ThreadPoolBuilder};
use shaped::prelude::*;
use std::alloc::{GlobalAlloc, Layout, System};
use std::hint::black_box;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

/// Counts allocations (and reallocations) while `COUNTING` is set; otherwise
/// forwards to the system allocator with one relaxed load.
struct CountingAlloc;

static COUNTING: AtomicBool = AtomicBool::new(false);
static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call forwards to `System` with the same arguments.
unsafe impl GlobalAlloc for CountingAlloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if COUNTING.load(Ordering::Relaxed) {
            ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        }
        // SAFETY: the caller's contract, passed on.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if COUNTING.load(Ordering::Relaxed) {
            ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        }
        // SAFETY: the caller's contract, passed on.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if COUNTING.load(Ordering::Relaxed) {
            ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        }
        // SAFETY: the caller's contract, passed on.
        unsafe { System.realloc(ptr, layout, new_size) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's contract, passed on.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: CountingAlloc = CountingAlloc;

/// Heap allocations made by `REPS` calls of `f` (whose result is dropped
/// each time), on this thread with nothing else running.
fn allocations<O>(mut f: impl FnMut() -> O) -> usize {
    const REPS: usize = 1000;
    ALLOCATIONS.store(0, Ordering::Relaxed);
    COUNTING.store(true, Ordering::SeqCst);
    for _ in 0..REPS {
        black_box(f());
    }
    COUNTING.store(false, Ordering::SeqCst);
    ALLOCATIONS.load(Ordering::Relaxed) / REPS
}

/// Side of the small tensor whose views are built.
const SMALL: usize = 64;
/// Side of the large square tensor that is transposed and copied.
const SIDE: usize = 4096;
/// Elements of the large tensor: 16M.
const N: usize = SIDE * SIDE;
/// Bytes of one `f32`.
const F32: u64 = 4;

type Small = shape![64, 64];
type Square = shape![4096, 4096];

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

/// The same `(64, 64)` values in the three forms compared.
fn small_operands() -> (Tensor<f32, Small>, DynTensor<f32>, Array2<f32>) {
    let v = values(SMALL * SMALL, 1);
    let s = Tensor::<f32, Small>::from_vec(v.clone()).unwrap();
    let d = s.clone().into_dyn();
    let a = Array2::from_shape_vec((SMALL, SMALL), v).unwrap();
    (s, d, a)
}

/// Checks that the views compared are the same views (shape, strides,
/// elements), then prints heap allocations per view and view sizes.
fn check_views() {
    let (s, d, a) = small_operands();
    let same = |shape: &[usize], strides: &[usize], elems: Vec<f32>, n: ArrayView2<'_, f32>| {
        let n_strides: Vec<usize> = n.strides().iter().map(|&x| x as usize).collect();
        assert_eq!((shape, strides), (n.shape(), n_strides.as_slice()));
        assert_eq!(elems, n.iter().copied().collect::<Vec<_>>());
    };
    let t = s.transpose::<0, 1>();
    same(&t.shape(), &t.strides(), t.to_vec(), a.t());
    let t = d.transpose(0, 1).unwrap();
    same(
        &t.shape(),
        &t.strides(),
        t.to_vec(),
        a.view().reversed_axes(),
    );
    let t = s.narrow::<1, 16>(8);
    let n = a.slice_axis(Axis(1), Slice::from(8..24));
    same(&t.shape(), &t.strides(), t.to_vec(), n.view());
    let t = d.narrow(1, 8, 16).unwrap();
    same(&t.shape(), &t.strides(), t.to_vec(), n.view());
    let t = s.slice(s![1.., ..;2]);
    let n = a.slice(ndarray::s![1.., ..;2]);
    same(&t.shape(), &t.strides(), t.to_vec(), n.view());
    let t = d.slice(s![1.., ..;2]).unwrap();
    same(&t.shape(), &t.strides(), t.to_vec(), n.view());
    let (t, u, n) = (
        s.select::<0>(3),
        d.select(0, 3).unwrap(),
        a.index_axis(Axis(0), 3),
    );
    assert_eq!((t.shape(), t.strides()), ([SMALL], [1]));
    assert_eq!(
        (u.shape(), u.strides()),
        ([SMALL].as_slice().into(), [1].as_slice().into())
    );
    assert_eq!(
        (n.shape(), n.strides()),
        ([SMALL].as_slice(), [1].as_slice())
    );
    assert_eq!(t.to_vec(), n.to_vec());
    assert_eq!(u.to_vec(), n.to_vec());

    let rows: [(&str, usize, usize, usize); 6] = [
        (
            "transpose",
            allocations(|| black_box(&s).transpose::<0, 1>()),
            allocations(|| black_box(&d).transpose(0, 1).unwrap()),
            allocations(|| black_box(&a).view().reversed_axes()),
        ),
        (
            "t",
            allocations(|| black_box(&s).t()),
            allocations(|| black_box(&d).t().unwrap()),
            allocations(|| black_box(&a).t()),
        ),
        (
            "narrow(1, 8, 16)",
            allocations(|| black_box(&s).narrow::<1, 16>(8)),
            allocations(|| black_box(&d).narrow(1, 8, 16).unwrap()),
            allocations(|| black_box(&a).slice_axis(Axis(1), Slice::from(8..24))),
        ),
        (
            "select(0, 3)",
            allocations(|| black_box(&s).select::<0>(3)),
            allocations(|| black_box(&d).select(0, 3).unwrap()),
            allocations(|| black_box(&a).index_axis(Axis(0), 3)),
        ),
        (
            "slice(s![1.., ..;2])",
            allocations(|| black_box(&s).slice(s![1.., ..;2])),
            allocations(|| black_box(&d).slice(s![1.., ..;2]).unwrap()),
            allocations(|| black_box(&a).slice(ndarray::s![1.., ..;2])),
        ),
        (
            "permute(1, 0)",
            allocations(|| black_box(&s).permute::<axes![1, 0]>()),
            allocations(|| black_box(&d).permute(&[1, 0]).unwrap()),
            allocations(|| black_box(&a).view().permuted_axes([1, 0])),
        ),
    ];
    println!("heap allocations per view (64x64 f32): static | DynTensor | ndarray");
    for (name, st, dy, nd) in rows {
        println!("  {name:22} {st:6} | {dy:9} | {nd:7}");
    }
    for (name, st, ..) in &rows {
        assert_eq!(*st, 0, "a static-shape `{name}` view allocated");
    }

    println!("size_of (bytes):");
    println!(
        "  static view TensorView<f32, shape![64, 64]>  {}",
        size_of_val(&s.transpose::<0, 1>())
    );
    println!(
        "  static slice view TensorView<f32, shape![63, 32]>  {}",
        size_of_val(&s.slice(s![1.., ..;2]))
    );
    println!(
        "  DynTensor view                               {}",
        size_of_val(&d.transpose(0, 1).unwrap())
    );
    println!(
        "  ndarray ArrayView2<f32>                      {}",
        size_of::<ArrayView2<'_, f32>>()
    );
    println!(
        "  owned: Tensor<f32, shape![64, 64]> {}, DynTensor<f32> {}, Array2<f32> {}",
        size_of::<Tensor<f32, Small>>(),
        size_of::<DynTensor<f32>>(),
        size_of::<Array2<f32>>()
    );
}

fn view_group<'a>(c: &'a mut Criterion, name: &str) -> BenchmarkGroup<'a, WallTime> {
    let mut g = c.benchmark_group(name);
    g.throughput(Throughput::Elements(1));
    g
}

/// Keeps a view observable without copying it by value (see the module
/// documentation).
#[inline(always)]
fn kept<V>(view: V) {
    black_box(&view);
}

/// Views per second of a `(64, 64)` tensor, one group per operation.
fn bench_views(c: &mut Criterion) {
    check_views();
    let (s, d, a) = small_operands();

    let mut g = view_group(c, "views/transpose");
    g.bench_function("static", |b| {
        b.iter(|| kept(black_box(&s).transpose::<0, 1>()))
    });
    g.bench_function("static_t", |b| b.iter(|| kept(black_box(&s).t())));
    g.bench_function("dyn", |b| {
        b.iter(|| kept(black_box(&d).transpose(0, 1).unwrap()))
    });
    g.bench_function("ndarray_t", |b| b.iter(|| kept(black_box(&a).t())));
    g.bench_function("ndarray_reversed_axes", |b| {
        b.iter(|| kept(black_box(&a).view().reversed_axes()))
    });
    g.finish();

    // A view of the whole tensor: a copy of its layout (`DynSizes` clones
    // its inline arrays by `SizeArray::copied`), and for `AnyTensor` the
    // dispatch over the dtypes.
    let mut g = view_group(c, "views/as_view");
    g.bench_function("static", |b| b.iter(|| kept(black_box(&s).as_view())));
    g.bench_function("dyn", |b| b.iter(|| kept(black_box(&d).as_view())));
    let any = AnyTensor::from(d.clone());
    g.bench_function("any", |b| b.iter(|| kept(black_box(&any).as_view())));
    g.bench_function("ndarray_view", |b| b.iter(|| kept(black_box(&a).view())));
    g.finish();

    let mut g = view_group(c, "views/permute_1_0");
    g.bench_function("static", |b| {
        b.iter(|| kept(black_box(&s).permute::<axes![1, 0]>()))
    });
    g.bench_function("dyn", |b| {
        b.iter(|| kept(black_box(&d).permute(&[1, 0]).unwrap()))
    });
    g.bench_function("ndarray_permuted_axes", |b| {
        b.iter(|| kept(black_box(&a).view().permuted_axes([1, 0])))
    });
    g.finish();

    let mut g = view_group(c, "views/unsqueeze_1");
    g.bench_function("static", |b| {
        b.iter(|| kept(black_box(&s).unsqueeze::<1>()))
    });
    g.bench_function("dyn", |b| {
        b.iter(|| kept(black_box(&d).unsqueeze(1).unwrap()))
    });
    g.bench_function("ndarray_insert_axis", |b| {
        b.iter(|| kept(black_box(&a).view().insert_axis(Axis(1))))
    });
    g.finish();

    let mut g = view_group(c, "views/expand_4_64_64");
    g.bench_function("static", |b| {
        b.iter(|| kept(black_box(&s).expand::<shape![4, 64, 64]>()))
    });
    g.bench_function("dyn", |b| {
        b.iter(|| kept(black_box(&d).expand(&[4, 64, 64]).unwrap()))
    });
    g.bench_function("ndarray_broadcast", |b| {
        b.iter(|| kept(black_box(&a).broadcast((4, 64, 64)).unwrap()))
    });
    g.finish();

    let mut g = view_group(c, "views/diagonal");
    g.bench_function("static", |b| b.iter(|| kept(black_box(&s).diagonal())));
    g.bench_function("dyn", |b| {
        b.iter(|| kept(black_box(&d).diagonal(0, 0, 1).unwrap()))
    });
    g.bench_function("ndarray_diag", |b| b.iter(|| kept(black_box(&a).diag())));
    g.finish();

    let mut g = view_group(c, "views/chunk_0_4");
    g.bench_function("static", |b| b.iter(|| kept(black_box(&s).chunk::<0, 4>())));
    g.bench_function("dyn", |b| {
        b.iter(|| kept(black_box(&d).chunk(4, 0).unwrap()))
    });
    g.bench_function("ndarray_axis_chunks_iter", |b| {
        b.iter(|| {
            let mut it = black_box(&a).axis_chunks_iter(Axis(0), 16);
            kept([it.next(), it.next(), it.next(), it.next()])
        })
    });
    g.finish();

    let mut g = view_group(c, "views/narrow_1_8_16");
    g.bench_function("static", |b| {
        b.iter(|| kept(black_box(&s).narrow::<1, 16>(black_box(8))))
    });
    g.bench_function("dyn", |b| {
        b.iter(|| kept(black_box(&d).narrow(1, black_box(8), 16).unwrap()))
    });
    g.bench_function("ndarray_slice_axis", |b| {
        b.iter(|| kept(black_box(&a).slice_axis(Axis(1), Slice::from(black_box(8)..24))))
    });
    g.finish();

    let mut g = view_group(c, "views/select_0_3");
    g.bench_function("static", |b| {
        b.iter(|| kept(black_box(&s).select::<0>(black_box(3))))
    });
    g.bench_function("dyn", |b| {
        b.iter(|| kept(black_box(&d).select(0, black_box(3)).unwrap()))
    });
    g.bench_function("ndarray_index_axis", |b| {
        b.iter(|| kept(black_box(&a).index_axis(Axis(0), black_box(3))))
    });
    g.finish();

    let mut g = view_group(c, "views/slice_1.._..;2");
    g.bench_function("static", |b| {
        b.iter(|| kept(black_box(&s).slice(black_box(s![1.., ..;2]))))
    });
    g.bench_function("dyn", |b| {
        b.iter(|| kept(black_box(&d).slice(black_box(s![1.., ..;2])).unwrap()))
    });
    g.bench_function("ndarray", |b| {
        b.iter(|| kept(black_box(&a).slice(black_box(ndarray::s![1.., ..;2]))))
    });
    g.finish();
}

fn large_group<'a>(c: &'a mut Criterion, name: &str) -> BenchmarkGroup<'a, WallTime> {
    let mut g = c.benchmark_group(name);
    g.sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .throughput(Throughput::Bytes(2 * F32 * N as u64));
    g
}

/// `dst.copy_from_slice(src)` split into one contiguous chunk per thread of
/// the current pool.
fn par_copy(src: &[f32], dst: &mut [f32]) {
    let chunk = src.len().div_ceil(rayon::current_num_threads());
    dst.par_chunks_mut(chunk)
        .zip(src.par_chunks(chunk))
        .for_each(|(d, s)| d.copy_from_slice(s));
}

/// `contiguous()` of a transposed `(4096, 4096)` tensor: a 64 MiB transpose.
fn bench_contiguous(c: &mut Criterion) {
    let v = values(N, 1);
    let s = Tensor::<f32, Square>::from_vec(v.clone()).unwrap();
    let d = s.clone().into_dyn();
    let a = Array2::from_shape_vec((SIDE, SIDE), v.clone()).unwrap();
    let (st, dt, at) = (s.t(), d.t().unwrap(), a.t());
    assert_eq!(
        (st.strides(), at.strides()),
        ([1, SIDE], [1, SIDE as isize].as_slice())
    );
    let expected = at.as_standard_layout();
    let expected = expected.as_slice().unwrap();
    assert_eq!(st.contiguous().to_vec(), expected);
    assert_eq!(dt.contiguous().to_vec(), expected);
    assert!(st.contiguous().is_contiguous() && !st.contiguous().is_borrowed());
    let one = pool(1);
    let two = pool(2);

    let mut g = large_group(c, "copy");
    let mut dst = vec![0.0f32; N];
    g.bench_function("2_threads", |b| {
        b.iter(|| {
            two.install(|| par_copy(black_box(&v), &mut dst));
            black_box(&mut dst);
        })
    });
    g.bench_function("1_thread", |b| {
        b.iter(|| {
            one.install(|| par_copy(black_box(&v), &mut dst));
            black_box(&mut dst);
        })
    });
    g.finish();

    let mut g = large_group(c, "contiguous/transposed_4096x4096");
    g.bench_function("shaped", |b| b.iter(|| black_box(&st).contiguous()));
    g.bench_function("shaped_dyn", |b| b.iter(|| black_box(&dt).contiguous()));
    g.bench_function("shaped_1_thread", |b| {
        b.iter(|| one.install(|| black_box(&st).contiguous()))
    });
    g.bench_function("shaped_dyn_1_thread", |b| {
        b.iter(|| one.install(|| black_box(&dt).contiguous()))
    });
    g.bench_function("ndarray_as_standard_layout", |b| {
        b.iter(|| black_box(&a).t().as_standard_layout().into_owned())
    });
    let mut out = Array2::<f32>::zeros((SIDE, SIDE));
    g.bench_function("ndarray_assign", |b| {
        b.iter(|| {
            out.assign(&black_box(&a).t());
            black_box(&mut out);
        })
    });
    g.bench_function("ndarray_to_owned_memcpy", |b| {
        b.iter(|| black_box(&a).t().to_owned())
    });
    g.finish();
}

criterion_group!(benches, bench_views, bench_contiguous);
criterion_main!(benches);
