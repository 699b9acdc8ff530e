//! Elementwise addition and sums on a CUDA device against the device's copy
//! bandwidth: f32 and bf16, 256M elements, contiguous and broadcast; the
//! whole tensor, its rows and its columns summed; f32 + bf16 (mixed dtypes).
//! Indexing by tensors on f32: `index_select` of random rows, `gather` and
//! `scatter_add_` with a random index per element along the rows, `take`
//! anywhere, `masked_fill` and `masked_select` with a random mask, and
//! `x[idx]` of random rows. Softmax, log-softmax, logsumexp, the variance
//! and the 2-norm of f32 along the rows and the columns; random fills
//! (`randn_like`, `rand_like`, `uniform_`, `normal_`, `bernoulli_`, `random_`,
//! `poisson`) against the copy of the bytes they write; `cumsum`, `cummax`
//! and `logcumsumexp` along them and of all elements as one line. Sorts,
//! `topk`, and the sets and bins (`unique`, `bincount`, `searchsorted`,
//! `histc`) in elements per second. The math kernels (`exp`, `tanh`, `gelu`,
//! `abs`) of 256M f32 and f16 elements. Then 4096 x 4096 matrix products and a
//! batch of 64 of 512 x 512 (f32, bf16, f16, f64), in TFLOP/s.
//!
//! ```sh
//! cargo run --release --features cuda --example cuda_bandwidth
//! cargo run --release --features cuda --example cuda_bandwidth -- math matmul
//! ```
//!
//! Groups named after `--` run alone: `add`, `index`, `normalize`, `scan`,
//! `sort`, `math`, `matmul`.
//!
//! Bandwidth counts the bytes every operation must move: a copy of n bytes
//! reads n and writes n; `a + b` reads both operands (a broadcast operand
//! once) and writes the output; a sum reads its input (its output is small).
//! The reference is the driver's
//! device-to-device copy (`cuMemcpyDtoD`) of the same number of bytes.

use shaped::prelude::*;
use std::time::Instant;

/// Elements per operand.
const N: usize = 256 << 20;
/// Rows and columns of the broadcast cases (ROWS * COLS = N).
const ROWS: usize = 16384;
const COLS: usize = N / ROWS;
const REPEATS: u32 = 20;

/// Seconds per run of `f`, after a warm-up, waiting for the device. With
/// `SHAPED_BENCH_ONCE` set, `f` runs once and is not timed (for a
/// profiler: one launch per case).
fn time<R>(gpu: &Cuda, mut f: impl FnMut() -> R) -> Result<f64, Error> {
    drop(f());
    gpu.synchronize()?;
    if std::env::var_os("SHAPED_BENCH_ONCE").is_some() {
        return Ok(f64::NAN);
    }
    let start = Instant::now();
    for _ in 0..REPEATS {
        drop(f());
    }
    gpu.synchronize()?;
    Ok(start.elapsed().as_secs_f64() / f64::from(REPEATS))
}

/// Prints each case's time and bandwidth (bytes moved over seconds) against
/// the copy's, the case names padded to `width`.
fn report<C: std::fmt::Display>(group: &str, width: usize, cases: &[(C, f64, usize)], copy: f64) {
    for (case, seconds, moved) in cases {
        let gbs = *moved as f64 / seconds / 1e9;
        println!(
            "{group}: {:<width$} {:8.3} ms {gbs:6.0} GB/s = {:5.1}% of copy",
            case.to_string(),
            seconds * 1e3,
            100.0 * gbs / copy
        );
    }
}

/// The driver's device-to-device copy of `bytes` bytes, in GB/s (read and
/// write counted).
fn copy_bandwidth(gpu: &Cuda, bytes: usize) -> Result<f64, Box<dyn std::error::Error>> {
    use cust::memory::{CopyDestination, DeviceBuffer};
    let src = DeviceBuffer::<u8>::zeroed(bytes)?;
    let mut dst = DeviceBuffer::<u8>::zeroed(bytes)?;
    let seconds = time(gpu, || dst.copy_from(&src).expect("device copy"))?;
    Ok(2.0 * bytes as f64 / seconds / 1e9)
}

fn run<T: shaped::dtype::Numeric + shaped::ops::reductions::Reduce>(
    gpu: &Cuda,
    name: &str,
) -> Result<(), Box<dyn std::error::Error>> {
    let bytes = N * size_of::<T>();
    let copy = copy_bandwidth(gpu, bytes)?;
    println!("{name}: device copy of {} MiB: {copy:.0} GB/s", bytes >> 20);
    let a = DynTensor::<T, Cuda>::full_on(gpu, &[ROWS, COLS], T::ONE)?;
    let b = DynTensor::<T, Cuda>::full_on(gpu, &[ROWS, COLS], T::ONE)?;
    let row = DynTensor::<T, Cuda>::full_on(gpu, &[COLS], T::ONE)?;
    let column = DynTensor::<T, Cuda>::full_on(gpu, &[ROWS, 1], T::ONE)?;
    let mut in_place = DynTensor::<T, Cuda>::full_on(gpu, &[ROWS, COLS], T::ONE)?;
    let clone = time(gpu, || a.clone())?;
    let cases = [
        ("a.clone()", clone, 2 * bytes),
        ("a + b (contiguous)", time(gpu, || &a + &b)?, 3 * bytes),
        (
            "a += b (in place, no new buffer)",
            time(gpu, || in_place += &b)?,
            3 * bytes,
        ),
        (
            "a + row (16384x16384 + 16384)",
            time(gpu, || &a + &row)?,
            2 * bytes,
        ),
        (
            "a + column (16384x16384 + 16384x1)",
            time(gpu, || &a + &column)?,
            2 * bytes,
        ),
        ("a.sum_all()", time(gpu, || a.sum_all())?, bytes),
        (
            "a.sum(&[1]) (rows)",
            time(gpu, || a.sum(&[1], false))?,
            bytes,
        ),
        (
            "a.sum(&[0]) (columns)",
            time(gpu, || a.sum(&[0], false))?,
            bytes,
        ),
    ];
    report(name, 36, &cases, copy);
    Ok(())
}

/// Mixed dtypes: float32 + bfloat16 in the promoted kernel, which reads
/// each operand in its own dtype and converts in registers (4 + 2 bytes read
/// and 4 written per element).
fn mixed(gpu: &Cuda) -> Result<(), Box<dyn std::error::Error>> {
    let bytes = N * (4 + 2 + 4);
    let copy = copy_bandwidth(gpu, N * 4)?;
    let a = DynTensor::<f32, Cuda>::full_on(gpu, &[ROWS, COLS], 1.0)?;
    let b = DynTensor::<half::bf16, Cuda>::full_on(gpu, &[ROWS, COLS], half::bf16::ONE)?;
    let seconds = time(gpu, || a.try_add(&b).expect("float32 + bfloat16"))?;
    let gbs = bytes as f64 / seconds / 1e9;
    println!(
        "mixed: {:<36} {:8.3} ms {gbs:6.0} GB/s = {:5.1}% of copy",
        "f32 a + bf16 b (promoted, contiguous)",
        seconds * 1e3,
        100.0 * gbs / copy
    );
    Ok(())
}

/// Pseudo-random numbers below `bound` (xorshift64*: the example needs
/// spread, not quality).
fn random_below(count: usize, bound: u64, seed: u64) -> Vec<i64> {
    let mut state = seed | 1;
    (0..count)
        .map(|_| {
            state ^= state >> 12;
            state ^= state << 25;
            state ^= state >> 27;
            (state.wrapping_mul(0x2545_f491_4f6c_dd1d) % bound) as i64
        })
        .collect()
}

/// Indexing by tensors on f32, against the copy bandwidth. Bytes counted:
/// every index read, every element gathered or written once (`scatter_add_`
/// reads and writes each target once, `take` and the scatters' random
/// accesses count one element each, though a GPU moves 32-byte sectors).
fn indexing(gpu: &Cuda) -> Result<(), Box<dyn std::error::Error>> {
    let bytes = N * 4;
    let copy = copy_bandwidth(gpu, bytes)?;
    let values: Vec<f32> = random_below(N, 1000, 7)
        .into_iter()
        .map(|v| v as f32)
        .collect();
    let a = DynTensor::<f32>::from_vec(values, &[ROWS, COLS])?.to_device(gpu)?;
    let rows =
        DynTensor::<i64>::from_vec(random_below(ROWS, ROWS as u64, 11), &[ROWS])?.to_device(gpu)?;
    let along = DynTensor::<i64>::from_vec(random_below(N, COLS as u64, 13), &[ROWS, COLS])?
        .to_device(gpu)?;
    let anywhere =
        DynTensor::<i64>::from_vec(random_below(N / 4, N as u64, 17), &[N / 4])?.to_device(gpu)?;
    let mask = DynTensor::<i64>::from_vec(random_below(N, 2, 19), &[ROWS, COLS])?
        .eq(1)
        .to_device(gpu)?;
    let mut target = DynTensor::<f32, Cuda>::full_on(gpu, &[ROWS, COLS], 0.0)?;
    let cases = [
        (
            "a.index_select(0, rows) (16384 rows)",
            time(gpu, || a.index_select(0, &rows).expect("index_select"))?,
            2 * bytes + ROWS * 8,
        ),
        (
            "a.gather(1, idx) (int64 idx, a's shape)",
            time(gpu, || a.gather(1, &along).expect("gather"))?,
            2 * bytes + N * 8,
        ),
        (
            "a.take(idx) (N/4 anywhere)",
            time(gpu, || a.take(&anywhere).expect("take"))?,
            (N / 4) * (4 + 4 + 8),
        ),
        (
            "t.scatter_add_(1, idx, a) (in place)",
            time(gpu, || {
                target.scatter_add_(1, &along, &a).expect("scatter_add_")
            })?,
            3 * bytes + N * 8,
        ),
        (
            "a.masked_fill(mask, 0) (bool mask)",
            time(gpu, || a.masked_fill(&mask, 0.0).expect("masked_fill"))?,
            2 * bytes + N,
        ),
        (
            "a.masked_select(mask) (half picked)",
            time(gpu, || a.masked_select(&mask).expect("masked_select"))?,
            bytes + N + bytes / 2,
        ),
        (
            "a.index(&[rows]) (x[idx], 16384 rows)",
            time(gpu, || a.index(&[Index::Tensor(&rows)]).expect("index"))?,
            2 * bytes + ROWS * 8,
        ),
    ];
    report("index", 40, &cases, copy);
    Ok(())
}

/// Softmax-like operations and moments along the rows (dim 1) and columns
/// (dim 0) of a 16384 x 16384 f32 matrix: softmax and log-softmax read their
/// input once and write their output once; logsumexp, the variance and the
/// norm read their input once (their outputs are small).
fn normalize(gpu: &Cuda) -> Result<(), Box<dyn std::error::Error>> {
    let bytes = N * 4;
    let copy = copy_bandwidth(gpu, bytes)?;
    let values: Vec<f32> = random_below(N, 1000, 23)
        .into_iter()
        .map(|v| v as f32 / 100.0)
        .collect();
    let a = DynTensor::<f32>::from_vec(values, &[ROWS, COLS])?.to_device(gpu)?;
    let mut cases = Vec::new();
    for dim in [1isize, 0] {
        let along = if dim == 1 { "rows" } else { "columns" };
        cases.extend([
            (
                format!("a.softmax({dim}) ({along})"),
                time(gpu, || a.softmax(dim).expect("softmax"))?,
                2 * bytes,
            ),
            (
                format!("a.log_softmax({dim}) ({along})"),
                time(gpu, || a.log_softmax(dim).expect("log_softmax"))?,
                2 * bytes,
            ),
            (
                format!("a.logsumexp([{dim}]) ({along})"),
                time(gpu, || a.logsumexp(&[dim], false).expect("logsumexp"))?,
                bytes,
            ),
            (
                format!("a.var([{dim}], 1) ({along})"),
                time(gpu, || a.var(&[dim], 1.0, false).expect("var"))?,
                bytes,
            ),
            (
                format!("a.vector_norm(2, [{dim}]) ({along})"),
                time(gpu, || a.vector_norm(2.0, &[dim], false).expect("norm"))?,
                bytes,
            ),
        ]);
    }
    report("normalize", 36, &cases, copy);
    Ok(())
}

/// The scans of the same 16384 x 16384 f32 matrix along its rows and
/// columns, and of its elements as one line: each reads its input once and
/// writes its output once (cummax also its int64 indices).
/// Random tensors of N float32 on the device, against the copy of their
/// bytes (written once: issue 26 asks `randn` at 80% of the copy's
/// bandwidth): new `rand`/`randn`-like tensors through `rand_like` and
/// `randn_like`, `uniform_` in place, `bernoulli_` and `random_` (the
/// whole-number draws), `poisson` of rates 4.
fn random(gpu: &Cuda) -> Result<(), Box<dyn std::error::Error>> {
    use shaped::random::Generator;
    let bytes = N * 4;
    let copy = copy_bandwidth(gpu, bytes)?;
    let like = DynTensor::<f32>::zeros(&[ROWS, COLS]).to_device(gpu)?;
    let mut x = like.zeros_like();
    let mut g = Generator::new(1);
    let mut cases = vec![
        (
            "randn_like (new, 256M)",
            time(gpu, || like.randn_like(&mut g))?,
            bytes,
        ),
        (
            "rand_like (new, 256M)",
            time(gpu, || like.rand_like(&mut g))?,
            bytes,
        ),
    ];
    cases.push((
        "x.uniform_(-1, 1) (in place)",
        time(gpu, || x.uniform_(-1.0, 1.0, &mut g).expect("uniform_"))?,
        bytes,
    ));
    cases.push((
        "x.normal_(0, 1) (in place)",
        time(gpu, || x.normal_(0.0, 1.0, &mut g).expect("normal_"))?,
        bytes,
    ));
    cases.push((
        "x.bernoulli_(0.3) (in place)",
        time(gpu, || x.bernoulli_(0.3, &mut g).expect("bernoulli_"))?,
        bytes,
    ));
    cases.push((
        "x.random_to_(1000) (in place)",
        time(gpu, || x.random_to_(1000, &mut g).expect("random_"))?,
        bytes,
    ));
    let rates = like.full_like(4.0);
    cases.push((
        "rates.poisson() (rate 4)",
        time(gpu, || rates.poisson(&mut g).expect("poisson"))?,
        2 * bytes,
    ));
    report("random", 32, &cases, copy);
    Ok(())
}

fn scans(gpu: &Cuda) -> Result<(), Box<dyn std::error::Error>> {
    let bytes = N * 4;
    let copy = copy_bandwidth(gpu, bytes)?;
    let values: Vec<f32> = random_below(N, 1000, 29)
        .into_iter()
        .map(|v| v as f32 / 1000.0 + 0.5)
        .collect();
    let a = DynTensor::<f32>::from_vec(values, &[ROWS, COLS])?.to_device(gpu)?;
    let flat = a.reshape(&[-1])?;
    let mut cases = vec![(
        "a.flatten().cumsum(0) (one line)".to_string(),
        time(gpu, || flat.cumsum(0).expect("cumsum"))?,
        2 * bytes,
    )];
    for dim in [1isize, 0] {
        let along = if dim == 1 { "rows" } else { "columns" };
        cases.extend([
            (
                format!("a.cumsum({dim}) ({along})"),
                time(gpu, || a.cumsum(dim).expect("cumsum"))?,
                2 * bytes,
            ),
            (
                format!("a.cummax({dim}) ({along})"),
                time(gpu, || a.cummax(dim).expect("cummax"))?,
                4 * bytes,
            ),
            (
                format!("a.logcumsumexp({dim}) ({along})"),
                time(gpu, || a.logcumsumexp(dim).expect("logcumsumexp"))?,
                2 * bytes,
            ),
        ]);
    }
    report("scan", 36, &cases, copy);
    Ok(())
}

/// Sorts of f32 (`kernels/sort.cuh`), in milliseconds and sorted elements
/// per second: 16M elements as one line (values and indices), each row of
/// a 4096 x 4096 matrix, and `topk(10)` of those rows.
fn sort(gpu: &Cuda) -> Result<(), Box<dyn std::error::Error>> {
    const SIDE: usize = 4096;
    let n = SIDE * SIDE;
    let values: Vec<f32> = random_below(n, 1 << 24, 31)
        .into_iter()
        .map(|v| v as f32 / 4096.0 - 2048.0)
        .collect();
    let a = DynTensor::<f32>::from_vec(values, &[SIDE, SIDE])?.to_device(gpu)?;
    let flat = a.reshape(&[-1])?;
    let cases = [
        (
            "a.flatten().sort(0) (16M, one line)",
            time(gpu, || flat.sort(0, false, true).expect("sort"))?,
        ),
        (
            "a.sort(1) (rows of 4096)",
            time(gpu, || a.sort(1, false, true).expect("sort"))?,
        ),
        (
            "a.topk(10, 1) (rows of 4096)",
            time(gpu, || a.topk(10, 1, true, true).expect("topk"))?,
        ),
    ];
    for (case, seconds) in cases {
        println!(
            "sort: {case:<36} {:8.3} ms {:6.2} G elements/s",
            seconds * 1e3,
            n as f64 / seconds / 1e9
        );
    }
    Ok(())
}

/// The sets and bins (`kernels/sets.cuh`), in milliseconds and input
/// elements per second: `unique` of 16M int64 below 65536 (counted) and of
/// 4M f32 (sorted), `bincount` of the 16M, `searchsorted` of 4M f32 in
/// 65536 boundaries, `histc` of 16M f32 in 100 bins.
fn sets(gpu: &Cuda) -> Result<(), Box<dyn std::error::Error>> {
    let n = 1 << 24;
    let m = 1 << 22;
    let ints = DynTensor::<i64>::from_vec(random_below(n, 65536, 41), &[n])?.to_device(gpu)?;
    let unit = |count: usize, seed: u64| -> Vec<f32> {
        random_below(count, 1 << 24, seed)
            .into_iter()
            .map(|v| v as f32 / 16_777_216.0)
            .collect()
    };
    let floats = DynTensor::<f32>::from_vec(unit(m, 43), &[m])?.to_device(gpu)?;
    let bounds: Vec<f32> = (0..65536).map(|k| k as f32 / 65536.0).collect();
    let bounds = DynTensor::<f32>::from_vec(bounds, &[65536])?.to_device(gpu)?;
    let wide = DynTensor::<f32>::from_vec(unit(n, 47), &[n])?.to_device(gpu)?;
    let cases = [
        (
            "x.unique() (16M int64 < 65536)",
            n,
            time(gpu, || ints.unique(true, false, false).expect("unique"))?,
        ),
        (
            "x.unique(inverse, counts) (16M int64)",
            n,
            time(gpu, || ints.unique(true, true, true).expect("unique"))?,
        ),
        (
            "x.bincount() (16M int64 < 65536)",
            n,
            time(gpu, || ints.bincount(0).expect("bincount"))?,
        ),
        (
            "f.unique(inverse) (4M f32)",
            m,
            time(gpu, || floats.unique(true, true, false).expect("unique"))?,
        ),
        (
            "b.searchsorted(f) (4M f32 in 64K)",
            m,
            time(gpu, || {
                bounds.searchsorted(&floats, false).expect("searchsorted")
            })?,
        ),
        (
            "u.histc(100) (16M f32)",
            n,
            time(gpu, || wide.histc(100, 0.0, 1.0).expect("histc"))?,
        ),
    ];
    for (case, count, seconds) in cases {
        println!(
            "sets: {case:<36} {:8.3} ms {:6.2} G elements/s",
            seconds * 1e3,
            count as f64 / seconds / 1e9
        );
    }
    Ok(())
}

/// The math and special kernel families (one loop per result type, the
/// operation chosen per element) on 256M elements: each reads its input and
/// writes its output once.
macro_rules! math {
    ($gpu:expr, $t:ty, $name:expr) => {{
        let gpu = $gpu;
        let bytes = N * size_of::<$t>();
        let copy = copy_bandwidth(gpu, bytes)?;
        let values: Vec<f32> = (0..N).map(|i| (i % 2001) as f32 / 250.0 - 4.0).collect();
        let a = DynTensor::<f32>::from_vec(values, &[ROWS, COLS])?
            .cast::<$t>()
            .to_device(gpu)?;
        let cases = [
            ("a.exp()", time(gpu, || a.exp())?, 2 * bytes),
            ("a.tanh()", time(gpu, || a.tanh())?, 2 * bytes),
            ("a.gelu() (erf)", time(gpu, || a.gelu())?, 2 * bytes),
            ("a.abs()", time(gpu, || a.abs::<$t>())?, 2 * bytes),
        ];
        report($name, 36, &cases, copy);
    }};
}

/// Matrix products of `M` x `M` matrices and a batch of 64 products of
/// 512 x 512 (cuBLAS for floats when it is found, else the tiled kernel of
/// `kernels/matmul.cuh`), in TFLOP/s (2 M N K operations each).
fn matmul<T: shaped::dtype::Numeric + shaped::ops::matmul::MatmulElement>(
    gpu: &Cuda,
    name: &str,
) -> Result<(), Box<dyn std::error::Error>> {
    for (batch, m, case) in [
        (1, 4096, "a.matmul(&b) (4096x4096)"),
        (64, 512, "a.bmm(&b) (64x512x512)"),
    ] {
        let sizes: &[usize] = if batch == 1 { &[m, m] } else { &[batch, m, m] };
        let a = DynTensor::<T, Cuda>::full_on(gpu, sizes, T::ONE)?;
        let b = DynTensor::<T, Cuda>::full_on(gpu, sizes, T::ONE)?;
        let seconds = time(gpu, || a.matmul(&b).expect("a product"))?;
        let tflops = 2.0 * batch as f64 * (m as f64).powi(3) / seconds / 1e12;
        // The host's share: queueing alone (what a short product's time
        // is bounded by when the host is slower than the device).
        let start = Instant::now();
        for _ in 0..REPEATS {
            drop(a.matmul(&b).expect("a product"));
        }
        let queued = start.elapsed().as_secs_f64() / f64::from(REPEATS);
        gpu.synchronize()?;
        println!(
            "{name}: {case:<36} {:8.3} ms {tflops:6.1} TFLOP/s (queued in {:.1} us)",
            seconds * 1e3,
            queued * 1e6
        );
    }
    Ok(())
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let gpu = match Cuda::new(0) {
        Ok(gpu) => gpu,
        Err(e) => {
            eprintln!("SKIPPED: no CUDA device answered ({e})");
            return Ok(());
        }
    };
    println!("device: {}", gpu.name()?);
    println!("products: {:?}", gpu.blas_library());
    // Groups named on the command line run alone (`cuda_bandwidth math`).
    let chosen: Vec<String> = std::env::args().skip(1).collect();
    let runs = |group: &str| chosen.is_empty() || chosen.iter().any(|c| c == group);
    if runs("add") {
        run::<f32>(&gpu, "f32")?;
        run::<half::bf16>(&gpu, "bf16")?;
        mixed(&gpu)?;
    }
    if runs("index") {
        indexing(&gpu)?;
    }
    if runs("normalize") {
        normalize(&gpu)?;
    }
    if runs("scan") {
        scans(&gpu)?;
    }
    if runs("random") {
        random(&gpu)?;
    }
    if runs("sort") {
        sort(&gpu)?;
        sets(&gpu)?;
    }
    if runs("math") {
        math!(&gpu, f32, "math f32");
        math!(&gpu, half::f16, "math f16");
    }
    if runs("matmul") {
        matmul::<f32>(&gpu, "f32")?;
        matmul::<half::bf16>(&gpu, "bf16")?;
        matmul::<half::f16>(&gpu, "f16")?;
        matmul::<f64>(&gpu, "f64")?;
    }
    Ok(())
}
