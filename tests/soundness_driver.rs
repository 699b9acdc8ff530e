//! A randomized driver over the dynamic public API (`DynTensor`, `AnyTensor`):
//! random chains of runtime view operations with random arguments (negative,
//! out-of-range and extreme dims, huge sizes, steps near `isize::MAX`), then
//! reductions, elementwise operations, products, copies and joins of the
//! views it reached. It checks that
//!
//! - no call panics (each runs under `catch_unwind`; the few operations that
//!   panic by design, when a buffer cannot be allocated, are only called on
//!   small tensors) and the process does not abort;
//! - every view keeps the tensor invariant: `numel()` is the product of
//!   `shape()`, its elements stay inside the storage, a writable view never
//!   puts two indices on one element, `is_contiguous()` is PyTorch's;
//! - a view's elements read the same through `to_vec()`, through `get` index
//!   by index, and through a plain model, `base[offset + Σ i_k * stride_k]`,
//!   over a copy of the base's elements kept aside;
//! - the view operations agree with a plain model of PyTorch's layouts
//!   (`transpose`, `permute`, `movedim`, `narrow`, `select`, `squeeze`,
//!   `unsqueeze`, `diagonal`, `unfold`, `expand`, `slice`, `t`, `mt`,
//!   `as_strided`, the splits): the same elements, and `Ok` exactly when
//!   PyTorch accepts the arguments (sizes past `isize::MAX`, which PyTorch
//!   cannot hold, may go either way);
//! - writes through the `_mut` views (`fill`, `get_mut`) land exactly where
//!   the model puts them in the base;
//! - sums, elementwise sums and products and matrix products have the
//!   model's shapes and values (element values are small integers, exact in
//!   every type), and a valid call is not refused.
//!
//! Each case is one seed of a small deterministic generator (SplitMix64).
//! A failure reports its seed and the chain of calls that led to it; the
//! failures are grouped by kind at the end.
//!
//! - `cargo test --test soundness_driver` runs seeds `0..12000` (about 15 s
//!   in debug, 1-2 s in release);
//! - `SHAPED_DRIVER_SEED=<n>` reruns seed `n` alone; add
//!   `SHAPED_DRIVER_TRACE=1` to print each call before it runs (the last one
//!   printed is the culprit of an abort);
//! - `SHAPED_DRIVER_SECONDS=<s>` runs seeds from `SHAPED_DRIVER_START`
//!   (default: taken from the clock, and printed) for that long. The long
//!   run: `SHAPED_DRIVER_SECONDS=600 cargo test --release --test
//!   soundness_driver -- --nocapture` (about 9,000 cases a second);
//! - `SHAPED_DRIVER_CASES=<n>` runs `n` seeds from `SHAPED_DRIVER_START`
//!   (default 0) instead of the default run's.
//!
//! An abort (which `catch_unwind` cannot catch) prints the seed it happened
//! in, and so does a case that runs longer than `SHAPED_DRIVER_CASE_SECONDS`
//! (default 120; the driver then aborts). To keep a runaway allocation from
//! taking the machine, the driver caps its address space at
//! `SHAPED_DRIVER_LIMIT_GB` GiB (default 4; 0 turns the cap off). Under
//! AddressSanitizer, which reserves terabytes of shadow memory, the driver
//! leaves the cap off by itself and skips the splits that could allocate
//! without bound:
//!
//! ```text
//! RUST_MIN_STACK=16777216 ASAN_OPTIONS=allocator_may_return_null=1:abort_on_error=1 \
//! RUSTFLAGS=-Zsanitizer=address RUSTDOCFLAGS=-Zsanitizer=address \
//! cargo +nightly test --target x86_64-unknown-linux-gnu --target-dir /tmp/asan-target \
//!     --test soundness_driver
//! ```
//!
//! (`allocator_may_return_null` lets the impossible allocations the driver
//! asks for fail as `Err` rather than stop the process; the larger stacks
//! make room for ASan's red zones in debug frames.)

use std::cell::{Cell, RefCell};
use std::io::Write as _;
use std::panic::{self, AssertUnwindSafe};
use std::sync::Once;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use num_complex::Complex;
use shaped::layout::views::SliceItem;
use shaped::ops::reductions::Reduce;
use shaped::prelude::*;
use shaped::storage::Repr;

type View<'a, T> = TensorView<'a, T, DynShape>;
type ViewMut<'a, T> = TensorViewMut<'a, T, DynShape>;
type C32 = Complex<f32>;

/// Seeds of the default run.
const DEFAULT_CASES: u64 = 12_000;
/// Views of at most this many elements are compared element by element.
const CHECK_MAX: usize = 4096;
/// Operations read at most this many elements (more would be slow, not wrong).
const WORK_MAX: usize = 100_000;
/// New buffers up to this many elements are fine...
const ALLOC_MAX: usize = 1 << 16;
/// ... and from this many on they cannot be allocated (128 PiB of `u8`, past
/// the user address space of 4- and 5-level paging alike, so the allocation
/// fails even where the kernel overcommits memory without limit), so asking
/// must fail fast. Between the two the driver does not ask.
const ALLOC_IMPOSSIBLE: usize = 1 << 57;
/// Splits into more pieces than this may be refused.
const PIECES_MAX: usize = 1 << 16;
/// Elements of a base tensor.
const BASE_MAX: usize = 20_000;

const HUGE: [usize; 7] = [
    1 << 31,
    1 << 32,
    1 << 40,
    1 << 62,
    (1 << 63) - 1,
    1 << 63,
    usize::MAX,
];
const EXTREME: [isize; 10] = [
    isize::MIN,
    isize::MIN + 1,
    -(1 << 40),
    -(1 << 31),
    1 << 31,
    1 << 32,
    1 << 40,
    1 << 62,
    isize::MAX - 1,
    isize::MAX,
];
const BIG_STEPS: [isize; 7] = [
    isize::MAX,
    isize::MAX - 1,
    isize::MAX - 2,
    isize::MAX / 2 + 1,
    1 << 62,
    1 << 40,
    1 << 31,
];

// ---------------------------------------------------------------------------
// The generator.

/// SplitMix64: small, fast, and the same numbers everywhere.
struct Rng(u64);

impl Rng {
    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (0 when `n` is 0).
    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next_u64() % n as u64) as usize
        }
    }

    /// Uniform in `lo..=hi` (a small range).
    fn between(&mut self, lo: isize, hi: isize) -> isize {
        lo + self.below((hi - lo + 1) as usize) as isize
    }

    fn one_in(&mut self, n: usize) -> bool {
        self.below(n) == 0
    }

    fn flip(&mut self) -> bool {
        self.one_in(2)
    }

    fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
        xs[self.below(xs.len())]
    }

    /// A size: 0-7, now and then a huge one.
    fn size(&mut self) -> usize {
        if self.one_in(20) {
            self.pick(&HUGE)
        } else {
            self.below(8)
        }
    }

    /// A dim for a tensor of rank `rank`: mostly in range, else a little or
    /// very far out of it.
    fn dim(&mut self, rank: usize) -> isize {
        let r = rank.max(1) as isize;
        match self.below(24) {
            0 => self.pick(&EXTREME),
            1..=3 => self.between(-7, 7),
            4 => self.pick(&[-r - 1, r]),
            _ => self.between(-r, r - 1),
        }
    }

    /// A start or an index along a dimension of `size`.
    fn index(&mut self, size: usize) -> isize {
        let s = size.min(isize::MAX as usize) as isize;
        match self.below(14) {
            0 => self.pick(&EXTREME),
            1 => self.pick(&[s, -s, s - 1, s.saturating_add(1), (-s).saturating_sub(1)]),
            _ => {
                let m = s.min(8);
                self.between(-m - 1, m)
            }
        }
    }

    /// A length or a count: mostly small, else negative or extreme.
    fn count(&mut self, size: usize) -> isize {
        let s = size.min(isize::MAX as usize) as isize;
        match self.below(14) {
            0 => self.pick(&EXTREME),
            1 => self.pick(&[-1, -2, 0]),
            2 => self.pick(&[s, s.saturating_add(1), s - 1]),
            _ => self.between(0, s.clamp(1, 8)),
        }
    }

    /// A slice or unfold step: mostly 1-3, else near `isize::MAX`, 0 or
    /// negative.
    fn step(&mut self) -> isize {
        match self.below(12) {
            0 => self.pick(&[0, -1, -2, isize::MIN]),
            1..=3 => self.pick(&BIG_STEPS),
            _ => self.between(1, 3),
        }
    }
}

// ---------------------------------------------------------------------------
// Failures, panics and aborts.

thread_local! {
    static CAPTURING: Cell<bool> = const { Cell::new(false) };
    static PANIC_MESSAGE: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// The seed and the call of the running case, for the abort handler.
static CURRENT_SEED: AtomicU64 = AtomicU64::new(u64::MAX);
static CURRENT_CALL: AtomicUsize = AtomicUsize::new(0);

/// Panics under [`Ctx::call`] are recorded (message and location) instead of
/// printed; other panics go to the previous hook.
fn install_panic_hook() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let previous = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            if CAPTURING.get() {
                let location = info
                    .location()
                    .map(|l| format!(" at {}:{}", l.file(), l.line()))
                    .unwrap_or_default();
                let message = payload_text(info.payload());
                PANIC_MESSAGE.set(Some(format!("{message}{location}")));
            } else {
                previous(info);
            }
        }));
    });
}

fn payload_text(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "(a panic without a message)".to_string()
    }
}

/// On SIGABRT (a failed allocation, a panic that cannot unwind, a stack
/// overflow), names the seed before the process dies.
extern "C" fn on_abort(_: libc::c_int) {
    let mut buf = [0u8; 256];
    let mut n = 0;
    let mut put = |bytes: &[u8]| {
        for &b in bytes {
            if n < buf.len() {
                buf[n] = b;
                n += 1;
            }
        }
    };
    let seed = CURRENT_SEED.load(Ordering::Relaxed);
    let call = CURRENT_CALL.load(Ordering::Relaxed) as u64;
    put(b"\nsoundness_driver: the process aborted in seed ");
    put_decimal(&mut put, seed);
    put(b", call #");
    put_decimal(&mut put, call);
    put(b"; rerun it with SHAPED_DRIVER_SEED=");
    put_decimal(&mut put, seed);
    put(b" SHAPED_DRIVER_TRACE=1\n");
    // SAFETY: `write` and `signal` are async-signal-safe; `buf` is valid for
    // `n` bytes.
    unsafe {
        libc::write(2, buf.as_ptr().cast(), n);
        libc::signal(libc::SIGABRT, libc::SIG_DFL);
    }
}

fn put_decimal(put: &mut impl FnMut(&[u8]), mut v: u64) {
    let mut digits = [0u8; 20];
    let mut i = digits.len();
    loop {
        i -= 1;
        digits[i] = b'0' + (v % 10) as u8;
        v /= 10;
        if v == 0 {
            break;
        }
    }
    put(&digits[i..]);
}

/// When the running case started, in milliseconds since [`watchdog`] began.
static CASE_STARTED_MS: AtomicU64 = AtomicU64::new(u64::MAX);

/// Aborts the process (naming the seed) when one case runs longer than
/// `SHAPED_DRIVER_CASE_SECONDS` (default 120): a hang becomes a failure
/// that can be rerun.
fn watchdog() -> Instant {
    static START: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    *START.get_or_init(|| {
        let start = Instant::now();
        let limit = env_u64("SHAPED_DRIVER_CASE_SECONDS").unwrap_or(120) * 1000;
        std::thread::spawn(move || {
            loop {
                std::thread::sleep(Duration::from_millis(500));
                let began = CASE_STARTED_MS.load(Ordering::Relaxed);
                let now = start.elapsed().as_millis() as u64;
                if began != u64::MAX && now.saturating_sub(began) > limit {
                    let _ = writeln!(
                        std::io::stderr(),
                        "\nsoundness_driver: seed {} ran for more than {} s (stuck in call #{})",
                        CURRENT_SEED.load(Ordering::Relaxed),
                        limit / 1000,
                        CURRENT_CALL.load(Ordering::Relaxed)
                    );
                    std::process::abort();
                }
            }
        });
        start
    })
}

fn install_abort_handler() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let handler = on_abort as extern "C" fn(libc::c_int);
        // SAFETY: installs a handler that only calls async-signal-safe
        // functions.
        unsafe {
            libc::signal(libc::SIGABRT, handler as libc::sighandler_t);
        }
    });
}

/// Caps the address space (see the module's documentation); false when the
/// cap is off, and then the calls that could allocate without bound are
/// skipped.
fn limit_address_space() -> bool {
    let gib: u64 = std::env::var("SHAPED_DRIVER_LIMIT_GB")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(4);
    if gib == 0 {
        return false;
    }
    let limit = gib << 30;
    // Under AddressSanitizer the process already holds terabytes of shadow
    // memory: a cap would fail every allocation.
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let vm_kib: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmSize:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0);
    if vm_kib.saturating_mul(1024) > limit / 2 {
        return false;
    }
    let mut old = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: plain system calls on a valid `rlimit`.
    unsafe {
        if libc::getrlimit(libc::RLIMIT_AS, &mut old) != 0 {
            return false;
        }
        if old.rlim_cur != libc::RLIM_INFINITY && old.rlim_cur <= limit {
            return true;
        }
        let new = libc::rlimit {
            rlim_cur: limit,
            rlim_max: old.rlim_max,
        };
        libc::setrlimit(libc::RLIMIT_AS, &new) == 0
    }
}

/// One case: its generator, the calls made so far, its first failure.
struct Ctx {
    rng: Rng,
    chain: Vec<String>,
    failure: Option<String>,
    trace: bool,
    /// No address-space cap: skip what could allocate without bound.
    cautious: bool,
}

impl Ctx {
    fn done(&self) -> bool {
        self.failure.is_some()
    }

    fn fail(&mut self, message: String) {
        if self.failure.is_none() {
            self.failure = Some(message);
        }
    }

    /// Runs `f` (described by `what`), recording a panic as the failure.
    fn call<R>(&mut self, what: String, f: impl FnOnce() -> R) -> Option<R> {
        if self.done() {
            return None;
        }
        if self.trace {
            let _ = writeln!(std::io::stderr(), "  #{} {what}", self.chain.len());
        }
        CURRENT_CALL.store(self.chain.len(), Ordering::Relaxed);
        self.chain.push(what);
        CAPTURING.set(true);
        let result = panic::catch_unwind(AssertUnwindSafe(f));
        CAPTURING.set(false);
        match result {
            Ok(v) => Some(v),
            Err(payload) => {
                let message = PANIC_MESSAGE
                    .take()
                    .unwrap_or_else(|| payload_text(payload.as_ref()));
                self.fail(format!("panicked: {message}"));
                None
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Element types.

/// The element types the driver runs with, and what it needs of each.
trait Elem: Element + Reduce {
    /// The element of the base tensor at flat index `i`.
    fn at(i: usize) -> Self;
    /// The `k`-th value written through a writable view.
    fn marker(k: u64) -> Self;
    /// As (real, imaginary) parts.
    fn pair(self) -> (f64, f64);
    /// A sum as (real, imaginary) parts.
    fn sum_pair(s: Self::Sum) -> (f64, f64);
    /// `self + o` and `self * o` (wrapping for integers; or/and for bool).
    fn plus(self, o: Self) -> Self;
    fn times(self, o: Self) -> Self;
    fn into_any(t: DynTensor<Self>) -> AnyTensor;
    /// The operations that need a concrete type: arithmetic, products,
    /// complex views. `a` and `b` are views of the base whose elements are
    /// `data`.
    fn typed_ops<'a>(ctx: &mut Ctx, a: &View<'a, Self>, b: &View<'a, Self>, data: &[Self]);
    /// Writes through views of another type (complex parts).
    fn typed_mut(_ctx: &mut Ctx, _data: &[Self], _shape: &[usize]) {}
}

/// Same value (NaN equals NaN).
fn same<T: Element>(a: T, b: T) -> bool {
    #[allow(clippy::eq_op)]
    let nan = |x: T| x != x;
    a == b || (nan(a) && nan(b))
}

// ---------------------------------------------------------------------------
// Layouts and the plain model.

/// A layout in the model: strides and offset in `i128`, so nothing overflows.
#[derive(Clone, Debug, PartialEq)]
struct Lay {
    sizes: Vec<usize>,
    strides: Vec<i128>,
    offset: i128,
}

impl Lay {
    fn of<T: Element, R: Repr>(t: &Tensor<T, DynShape, Cpu, R>) -> Lay {
        Lay {
            sizes: t.shape().to_vec(),
            strides: t.strides().iter().map(|&s| s as i128).collect(),
            offset: t.storage_offset() as i128,
        }
    }

    fn rank(&self) -> usize {
        self.sizes.len()
    }

    /// The storage index of the last element (the largest, strides being
    /// non-negative), when there are elements.
    fn last(&self) -> Option<i128> {
        if self.sizes.contains(&0) {
            return None;
        }
        // Saturating: sizes and strides near 2^64 multiply past `i128`
        // (such a layout lies past any storage either way).
        Some(
            self.sizes
                .iter()
                .zip(&self.strides)
                .map(|(&n, &s)| (n as i128 - 1).saturating_mul(s))
                .fold(self.offset, i128::saturating_add),
        )
    }

    /// The storage index of every element in row-major order (few elements).
    fn offsets(&self) -> Vec<i128> {
        let mut out = Vec::new();
        for_each_index(&self.sizes, |idx| out.push(self.at(idx)));
        out
    }

    fn at(&self, idx: &[usize]) -> i128 {
        self.offset
            + idx
                .iter()
                .zip(&self.strides)
                .map(|(&i, &s)| i as i128 * s)
                .sum::<i128>()
    }
}

/// The element count: 0 with a size 0, else the product (`None` if it
/// overflows).
fn numel_of(sizes: &[usize]) -> Option<usize> {
    if sizes.contains(&0) {
        return Some(0);
    }
    sizes.iter().try_fold(1usize, |n, &s| n.checked_mul(s))
}

/// Calls `f` with each index of `sizes` in row-major order.
fn for_each_index(sizes: &[usize], mut f: impl FnMut(&[usize])) {
    if sizes.contains(&0) {
        return;
    }
    let mut idx = vec![0usize; sizes.len()];
    loop {
        f(&idx);
        let mut k = sizes.len();
        loop {
            if k == 0 {
                return;
            }
            k -= 1;
            idx[k] += 1;
            if idx[k] < sizes[k] {
                break;
            }
            idx[k] = 0;
        }
    }
}

/// PyTorch's `is_contiguous()`.
fn pytorch_contiguous(sizes: &[usize], strides: &[usize]) -> bool {
    if sizes.contains(&0) {
        return true;
    }
    let mut expected = 1usize;
    for k in (0..sizes.len()).rev() {
        if sizes[k] != 1 {
            if strides[k] != expected {
                return false;
            }
            expected = expected.saturating_mul(sizes[k]);
        }
    }
    true
}

/// A new buffer of `n` elements (None: more than `usize`) may be asked for.
fn may_allocate(n: Option<usize>) -> bool {
    match n {
        None => true,
        Some(n) => n <= ALLOC_MAX || n >= ALLOC_IMPOSSIBLE,
    }
}

/// What the model says of a call.
#[derive(Clone, Debug)]
enum Expect {
    /// PyTorch gives this layout.
    Ok(Lay),
    /// PyTorch refuses.
    Err,
    /// Either (sizes PyTorch cannot hold, or no model).
    Any,
    /// The same elements as `Lay` in row-major order, with these sizes (when
    /// known); `Ok` is required when `must`.
    Reordered {
        of: Lay,
        sizes: Option<Vec<usize>>,
        must: bool,
    },
}

/// `Ok(l)`, or `Any` when its sizes or element count pass `isize::MAX`
/// (PyTorch's sizes are `int64`; zero sizes aside, a product past it is
/// refused there).
fn expect_ok(l: Lay) -> Expect {
    let past = |n: usize| n > isize::MAX as usize;
    let big = l.sizes.iter().any(|&s| past(s))
        || l.sizes
            .iter()
            .filter(|&&s| s != 0)
            .try_fold(1usize, |n, &s| n.checked_mul(s))
            .is_none_or(past);
    if big { Expect::Any } else { Expect::Ok(l) }
}

/// PyTorch's `maybe_wrap_dim` (a rank-0 tensor takes -1 and 0).
fn wrap(dim: isize, rank: usize) -> Option<usize> {
    let span = rank.max(1) as i128;
    let d = dim as i128;
    if d < -span || d >= span {
        None
    } else {
        Some(if d < 0 { d + span } else { d } as usize)
    }
}

fn has_huge(l: &Lay) -> bool {
    l.sizes.iter().any(|&s| s > isize::MAX as usize)
}

fn m_transpose(l: &Lay, a: isize, b: isize) -> Expect {
    let (Some(a), Some(b)) = (wrap(a, l.rank()), wrap(b, l.rank())) else {
        return Expect::Err;
    };
    let mut o = l.clone();
    if l.rank() > 0 {
        o.sizes.swap(a, b);
        o.strides.swap(a, b);
    }
    expect_ok(o)
}

fn m_permute(l: &Lay, dims: &[isize]) -> Expect {
    if dims.len() != l.rank() {
        return Expect::Err;
    }
    let mut seen = vec![false; l.rank()];
    let mut o = l.clone();
    for (i, &d) in dims.iter().enumerate() {
        let Some(d) = wrap(d, l.rank()) else {
            return Expect::Err;
        };
        if std::mem::replace(&mut seen[d], true) {
            return Expect::Err;
        }
        o.sizes[i] = l.sizes[d];
        o.strides[i] = l.strides[d];
    }
    expect_ok(o)
}

fn m_movedim(l: &Lay, src: isize, dst: isize) -> Expect {
    let (Some(s), Some(d)) = (wrap(src, l.rank()), wrap(dst, l.rank())) else {
        return Expect::Err;
    };
    let mut o = l.clone();
    if l.rank() > 0 {
        let (n, st) = (o.sizes.remove(s), o.strides.remove(s));
        o.sizes.insert(d, n);
        o.strides.insert(d, st);
    }
    expect_ok(o)
}

fn m_narrow(l: &Lay, dim: isize, start: isize, length: isize) -> Expect {
    if l.rank() == 0 || length < 0 {
        return Expect::Err;
    }
    let Some(d) = wrap(dim, l.rank()) else {
        return Expect::Err;
    };
    if has_huge(l) {
        return Expect::Any;
    }
    let size = l.sizes[d] as i128;
    let (start, length) = (start as i128, length as i128);
    if start < -size || start > size {
        return Expect::Err;
    }
    let start = if start < 0 { start + size } else { start };
    if length > size - start {
        return Expect::Err;
    }
    let mut o = l.clone();
    o.offset += start * l.strides[d];
    o.sizes[d] = length as usize;
    expect_ok(o)
}

fn m_select(l: &Lay, dim: isize, index: isize) -> Expect {
    if l.rank() == 0 {
        return Expect::Err;
    }
    let Some(d) = wrap(dim, l.rank()) else {
        return Expect::Err;
    };
    if has_huge(l) {
        return Expect::Any;
    }
    let size = l.sizes[d] as i128;
    let index = index as i128;
    if index < -size || index >= size {
        return Expect::Err;
    }
    let index = if index < 0 { index + size } else { index };
    let mut o = l.clone();
    o.offset += index * l.strides[d];
    o.sizes.remove(d);
    o.strides.remove(d);
    expect_ok(o)
}

fn m_unsqueeze(l: &Lay, dim: isize) -> Expect {
    let Some(d) = wrap(dim, l.rank() + 1) else {
        return Expect::Err;
    };
    let mut o = l.clone();
    o.sizes.insert(d, 1);
    o.strides.insert(d, 0);
    expect_ok(o)
}

fn m_squeeze_dims(l: &Lay, dims: &[isize]) -> Expect {
    let mut seen = vec![false; l.rank().max(1)];
    let mut drop = vec![false; l.rank()];
    for &d in dims {
        let Some(d) = wrap(d, l.rank()) else {
            return Expect::Err;
        };
        if std::mem::replace(&mut seen[d], true) {
            return Expect::Err;
        }
        if l.rank() > 0 {
            drop[d] = l.sizes[d] == 1;
        }
    }
    let mut o = Lay {
        sizes: vec![],
        strides: vec![],
        offset: l.offset,
    };
    for (k, &dropped) in drop.iter().enumerate() {
        if !dropped {
            o.sizes.push(l.sizes[k]);
            o.strides.push(l.strides[k]);
        }
    }
    expect_ok(o)
}

fn m_diagonal(l: &Lay, offset: isize, d1: isize, d2: isize) -> Expect {
    let (Some(a), Some(b)) = (wrap(d1, l.rank()), wrap(d2, l.rank())) else {
        return Expect::Err;
    };
    if a == b {
        return Expect::Err;
    }
    if has_huge(l) {
        return Expect::Any;
    }
    let (na, nb, off) = (l.sizes[a] as i128, l.sizes[b] as i128, offset as i128);
    let (start, length) = if off >= 0 {
        (off * l.strides[b], na.min(nb - off).max(0))
    } else {
        (-off * l.strides[a], (na + off).min(nb).max(0))
    };
    let mut o = Lay {
        sizes: vec![],
        strides: vec![],
        offset: l.offset + if length > 0 { start } else { 0 },
    };
    for k in 0..l.rank() {
        if k != a && k != b {
            o.sizes.push(l.sizes[k]);
            o.strides.push(l.strides[k]);
        }
    }
    o.sizes.push(length as usize);
    o.strides.push(l.strides[a] + l.strides[b]);
    expect_ok(o)
}

fn m_expand(l: &Lay, target: &[isize]) -> Expect {
    let (r, n) = (l.rank(), target.len());
    if n < r {
        return Expect::Err;
    }
    let mut o = Lay {
        sizes: vec![0; n],
        strides: vec![0; n],
        offset: l.offset,
    };
    for (i, &t) in target.iter().enumerate() {
        if i < n - r {
            if t < 0 {
                return Expect::Err;
            }
            o.sizes[i] = t as usize;
        } else {
            let j = i - (n - r);
            let s = l.sizes[j];
            if t == -1 || (t >= 0 && t as usize == s) {
                o.sizes[i] = s;
                o.strides[i] = l.strides[j];
            } else if t < -1 || s != 1 {
                return Expect::Err;
            } else {
                o.sizes[i] = t as usize;
            }
        }
    }
    expect_ok(o)
}

fn m_unfold(l: &Lay, dim: isize, size: isize, step: isize) -> Expect {
    let Some(d) = wrap(dim, l.rank()) else {
        return Expect::Err;
    };
    let (n, s) = if l.rank() == 0 {
        (1, 1)
    } else {
        (l.sizes[d], l.strides[d])
    };
    if size < 0 || size as usize > n || step <= 0 {
        return Expect::Err;
    }
    if n > isize::MAX as usize {
        return Expect::Any;
    }
    let mut o = l.clone();
    if l.rank() > 0 {
        o.sizes[d] = (n - size as usize) / step as usize + 1;
        o.strides[d] = step as i128 * s;
    }
    o.sizes.push(size as usize);
    o.strides.push(s);
    expect_ok(o)
}

fn m_t(l: &Lay, mt: bool) -> Expect {
    match (l.rank(), mt) {
        (0, _) | (1, false) => expect_ok(l.clone()),
        (1, true) => Expect::Err,
        (2, _) => m_transpose(l, 0, 1),
        (_, false) => Expect::Err,
        (_, true) => m_transpose(l, -2, -1),
    }
}

/// PyTorch's `slice(dim, start, end, step)` clamping: (start, length).
fn clamp_range(size: i128, start: i128, end: Option<i128>, step: i128) -> (i128, i128) {
    let mut start = if start < 0 { start + size } else { start };
    let mut end = match end {
        None => size,
        Some(e) if e < 0 => e + size,
        Some(e) => e,
    };
    start = start.clamp(0, size);
    if end < start {
        end = start;
    } else if end > size {
        end = size;
    }
    (start, (end - start + step - 1) / step)
}

fn m_slice(l: &Lay, items: &[SliceItem]) -> Expect {
    let named = items
        .iter()
        .filter(|i| matches!(i, SliceItem::Index(_) | SliceItem::Range { .. }))
        .count();
    if named > l.rank() {
        return Expect::Err;
    }
    let ellipses = items
        .iter()
        .filter(|i| matches!(i, SliceItem::Ellipsis))
        .count();
    if ellipses > 1 {
        return Expect::Any;
    }
    if items
        .iter()
        .any(|i| matches!(i, SliceItem::Range { step, .. } if *step <= 0))
    {
        return Expect::Err;
    }
    if has_huge(l) {
        return Expect::Any;
    }
    let mut o = l.clone();
    let mut dim = 0;
    for item in items {
        match *item {
            SliceItem::Ellipsis => dim += l.rank() - named,
            SliceItem::NewAxis => {
                o.sizes.insert(dim, 1);
                o.strides.insert(dim, 0);
                dim += 1;
            }
            SliceItem::Index(i) => {
                let (size, i) = (o.sizes[dim] as i128, i as i128);
                if i < -size || i >= size {
                    return Expect::Err;
                }
                let i = if i < 0 { i + size } else { i };
                o.offset += i * o.strides[dim];
                o.sizes.remove(dim);
                o.strides.remove(dim);
            }
            SliceItem::Range { start, end, step } => {
                let size = o.sizes[dim] as i128;
                let (start, length) =
                    clamp_range(size, start as i128, end.map(|e| e as i128), step as i128);
                o.offset += start * o.strides[dim];
                o.sizes[dim] = length as usize;
                o.strides[dim] *= step as i128;
                dim += 1;
            }
        }
    }
    expect_ok(o)
}

fn m_as_strided(storage: usize, sizes: &[usize], strides: &[usize], offset: usize) -> Expect {
    if sizes.len() != strides.len() {
        return Expect::Err;
    }
    let l = Lay {
        sizes: sizes.to_vec(),
        strides: strides.iter().map(|&s| s as i128).collect(),
        offset: offset as i128,
    };
    match l.last() {
        None if offset > storage => Expect::Any,
        None => expect_ok(l),
        Some(last) if last >= storage as i128 => Expect::Err,
        Some(_) => expect_ok(l),
    }
}

/// What the model says of a split: the pieces, an error, or either.
enum Pieces {
    Ok(Vec<Lay>),
    Err,
    Any,
}

fn narrowed(l: &Lay, d: usize, start: i128, length: i128) -> Lay {
    let mut o = l.clone();
    o.offset += start * l.strides[d];
    o.sizes[d] = length as usize;
    o
}

/// The dim of a split (rank 1 or more), or `None`: an error.
fn split_dim(l: &Lay, dim: isize) -> Option<usize> {
    if l.rank() == 0 {
        None
    } else {
        wrap(dim, l.rank())
    }
}

fn m_split(l: &Lay, split_size: isize, dim: isize) -> Pieces {
    let Some(d) = split_dim(l, dim) else {
        return Pieces::Err;
    };
    if split_size < 0 {
        return Pieces::Err;
    }
    if has_huge(l) {
        return Pieces::Any;
    }
    let (size, ss) = (l.sizes[d] as i128, split_size as i128);
    if ss == 0 {
        return if size == 0 {
            Pieces::Ok(vec![l.clone()])
        } else {
            Pieces::Err
        };
    }
    let count = ((size + ss - 1) / ss).max(1);
    if count > PIECES_MAX as i128 {
        return Pieces::Any;
    }
    Pieces::Ok(
        (0..count)
            .map(|i| narrowed(l, d, i * ss, ss.min(size - i * ss)))
            .collect(),
    )
}

fn m_split_with_sizes(l: &Lay, sizes: &[isize], dim: isize) -> Pieces {
    let Some(d) = split_dim(l, dim) else {
        return Pieces::Err;
    };
    if sizes.iter().any(|&s| s < 0) {
        return Pieces::Err;
    }
    if has_huge(l) {
        return Pieces::Any;
    }
    if sizes.iter().map(|&s| s as i128).sum::<i128>() != l.sizes[d] as i128 {
        return Pieces::Err;
    }
    let mut start = 0i128;
    Pieces::Ok(
        sizes
            .iter()
            .map(|&s| {
                let p = narrowed(l, d, start, s as i128);
                start += s as i128;
                p
            })
            .collect(),
    )
}

fn m_chunk(l: &Lay, chunks: isize, dim: isize) -> Pieces {
    let Some(d) = split_dim(l, dim) else {
        return Pieces::Err;
    };
    if chunks <= 0 {
        return Pieces::Err;
    }
    if has_huge(l) {
        return Pieces::Any;
    }
    let (size, c) = (l.sizes[d] as i128, chunks as i128);
    let split_size = (size + c - 1) / c;
    if split_size == 0 && size == 0 {
        if c > PIECES_MAX as i128 {
            return Pieces::Any;
        }
        return Pieces::Ok((0..c).map(|_| l.clone()).collect());
    }
    m_split(l, split_size as isize, dim)
}

fn m_tensor_split(l: &Lay, sections: isize, dim: isize) -> Pieces {
    let Some(d) = split_dim(l, dim) else {
        return Pieces::Err;
    };
    if sections <= 0 {
        return Pieces::Err;
    }
    if has_huge(l) || sections as usize > PIECES_MAX {
        return Pieces::Any;
    }
    let (size, n) = (l.sizes[d] as i128, sections as i128);
    let (small, extra) = (size / n, size % n);
    let mut start = 0i128;
    Pieces::Ok(
        (0..n)
            .map(|i| {
                let length = small + i128::from(i < extra);
                let p = narrowed(l, d, start, length);
                start += length;
                p
            })
            .collect(),
    )
}

fn m_tensor_split_indices(l: &Lay, indices: &[isize], dim: isize) -> Pieces {
    let Some(d) = split_dim(l, dim) else {
        return Pieces::Err;
    };
    if has_huge(l) {
        return Pieces::Any;
    }
    let size = l.sizes[d] as i128;
    let mut start = 0i128;
    let mut out = Vec::new();
    for end in indices.iter().map(|&i| i as i128).chain([i128::MAX]) {
        let end = if end == i128::MAX { None } else { Some(end) };
        let (s, length) = clamp_range(size, start, end, 1);
        out.push(narrowed(l, d, s, length));
        if let Some(e) = end {
            start = e;
        }
    }
    Pieces::Ok(out)
}

fn m_unbind(l: &Lay, dim: isize) -> Pieces {
    let Some(d) = split_dim(l, dim) else {
        return Pieces::Err;
    };
    if has_huge(l) || l.sizes[d] > PIECES_MAX {
        return Pieces::Any;
    }
    Pieces::Ok(
        (0..l.sizes[d])
            .map(|i| {
                let mut o = narrowed(l, d, i as i128, 1);
                o.sizes.remove(d);
                o.strides.remove(d);
                o
            })
            .collect(),
    )
}

/// The product of the sizes other than -1 overflows: PyTorch's result then
/// depends on how its `int64` product wraps.
fn overflowing(sizes: &[isize]) -> bool {
    sizes
        .iter()
        .filter(|&&s| s >= 0)
        .try_fold(1isize, |n, &s| n.checked_mul(s))
        .is_none()
}

/// The sizes `sizes` (one may be -1) give for `numel` elements, if valid.
fn infer_sizes(sizes: &[isize], numel: usize) -> Option<Vec<usize>> {
    let infer: Vec<usize> = (0..sizes.len()).filter(|&k| sizes[k] == -1).collect();
    if infer.len() > 1 || sizes.iter().any(|&s| s < -1) {
        return None;
    }
    let known = sizes
        .iter()
        .filter(|&&s| s != -1)
        .try_fold(1usize, |n, &s| n.checked_mul(s as usize))?;
    let mut out: Vec<usize> = sizes.iter().map(|&s| s.max(0) as usize).collect();
    match infer.first() {
        Some(&k) => {
            if known == 0 || !numel.is_multiple_of(known) {
                return None;
            }
            out[k] = numel / known;
        }
        None if known != numel => return None,
        None => {}
    }
    Some(out)
}

// ---------------------------------------------------------------------------
// Checks.

fn desc<T: Element, R: Repr>(t: &Tensor<T, DynShape, Cpu, R>) -> String {
    format!(
        "x{:?}/{:?}+{}",
        t.shape().to_vec(),
        t.strides().to_vec(),
        t.storage_offset()
    )
}

/// The invariants of a view over a storage holding `base`, and its elements
/// read three ways. False when it failed.
fn check_view<T: Element>(ctx: &mut Ctx, v: &View<'_, T>, base: &[T]) -> bool {
    if ctx.done() {
        return false;
    }
    let sizes = v.shape().to_vec();
    let strides = v.strides().to_vec();
    let d = desc(v);
    if strides.len() != sizes.len() || v.rank() != sizes.len() {
        ctx.fail(format!(
            "{d}: rank {} with {} strides",
            v.rank(),
            strides.len()
        ));
        return false;
    }
    let numel = v.numel();
    if numel_of(&sizes) != Some(numel) {
        ctx.fail(format!(
            "{d}: numel() is {numel}, the sizes give {:?}",
            numel_of(&sizes)
        ));
        return false;
    }
    let l = Lay::of(v);
    if let Some(last) = l.last()
        && last >= base.len() as i128
    {
        ctx.fail(format!(
            "{d}: reaches element {last} of a storage of {}",
            base.len()
        ));
        return false;
    }
    if v.is_contiguous() != pytorch_contiguous(&sizes, &strides) {
        ctx.fail(format!(
            "{d}: is_contiguous() is {}, PyTorch's {}",
            v.is_contiguous(),
            !v.is_contiguous()
        ));
        return false;
    }
    if numel > CHECK_MAX {
        return true;
    }
    let Some(values) = ctx.call(format!("{d} .to_vec()"), || v.to_vec()) else {
        return false;
    };
    let mismatch = ctx.call(format!("{d} .get(..) of every element"), || {
        if values.len() != numel {
            return Some(format!("to_vec() gave {} elements of {numel}", values.len()));
        }
        let mut k = 0;
        let mut bad = None;
        for_each_index(&sizes, |idx| {
            if bad.is_some() {
                return;
            }
            let want = base[l.at(idx) as usize];
            match v.get(idx) {
                Ok(&got) if same(got, want) && same(values[k], want) => {}
                got => {
                    bad = Some(format!(
                        "element {idx:?}: get {got:?}, to_vec {:?}, model {want:?} (storage index {})",
                        values[k],
                        l.at(idx)
                    ))
                }
            }
            k += 1;
        });
        if bad.is_none() && !sizes.is_empty() {
            // Out of range and wrong-length indices are refused.
            let mut idx = vec![0usize; sizes.len()];
            let last = sizes.len() - 1;
            idx[last] = sizes[last];
            if v.get(&idx).is_ok() {
                bad = Some(format!("get({idx:?}) is Ok"));
            }
            idx.push(0);
            if v.get(&idx).is_ok() {
                bad = Some(format!("get({idx:?}) is Ok with rank {}", sizes.len()));
            }
        }
        bad
    });
    match mismatch {
        Some(Some(m)) => {
            ctx.fail(format!("{d}: {m}"));
            false
        }
        Some(None) => true,
        None => false,
    }
}

/// Compares a view's layout with the model's: same sizes, same storage
/// index for every element (the first and last when there are many).
fn compare_lay(ctx: &mut Ctx, what: &str, got: &Lay, want: &Lay) {
    if got.sizes != want.sizes {
        ctx.fail(format!(
            "{what}: sizes {:?}, the model's {:?} (got {got:?}, model {want:?})",
            got.sizes, want.sizes
        ));
        return;
    }
    let n = numel_of(&got.sizes).unwrap_or(usize::MAX);
    if n == 0 {
        return;
    }
    let same_elements = if n <= CHECK_MAX {
        got.offsets() == want.offsets()
    } else {
        got.offset == want.offset && got.last() == want.last()
    };
    if !same_elements {
        ctx.fail(format!(
            "{what}: other elements than the model's (got {got:?}, model {want:?})"
        ));
    }
}

/// Judges the layout a call gave (or its error) against the model.
fn verdict(ctx: &mut Ctx, what: &str, got: Result<&Lay, &Error>, expect: &Expect) {
    match (got, expect) {
        (Ok(l), Expect::Ok(want)) => compare_lay(ctx, what, l, want),
        (Ok(l), Expect::Err) => ctx.fail(format!("{what}: Ok({l:?}), PyTorch refuses it")),
        (Ok(l), Expect::Reordered { of, sizes, .. }) => {
            if let Some(s) = sizes
                && *s != l.sizes
            {
                ctx.fail(format!("{what}: sizes {:?}, expected {s:?}", l.sizes));
            } else if numel_of(&l.sizes) != numel_of(&of.sizes) {
                ctx.fail(format!(
                    "{what}: {:?} elements from {:?}",
                    l.sizes, of.sizes
                ));
            } else if numel_of(&l.sizes).is_some_and(|n| n <= CHECK_MAX)
                && l.offsets() != of.offsets()
            {
                ctx.fail(format!(
                    "{what}: the elements are not in the same order ({l:?} from {of:?})"
                ));
            }
        }
        (Err(e), Expect::Ok(l)) => {
            ctx.fail(format!("{what}: refused ({e}), the model gives {l:?}"))
        }
        (Err(e), Expect::Reordered { must: true, .. }) => {
            ctx.fail(format!("{what}: refused ({e}) a valid view"))
        }
        _ => {}
    }
}

/// Judges a call that gave a view: invariants, then the model.
fn judge<'a, T: Element>(
    ctx: &mut Ctx,
    what: &str,
    got: Result<View<'a, T>, Error>,
    expect: &Expect,
    base: &[T],
) -> Option<View<'a, T>> {
    match got {
        Ok(v) => {
            if !check_view(ctx, &v, base) {
                return None;
            }
            verdict(ctx, what, Ok(&Lay::of(&v)), expect);
            Some(v)
        }
        Err(e) => {
            verdict(ctx, what, Err(&e), expect);
            None
        }
    }
}

/// Judges a split; returns one of its pieces to go on with.
fn judge_pieces<'a, T: Element>(
    ctx: &mut Ctx,
    what: &str,
    got: Result<Vec<View<'a, T>>, Error>,
    expect: Pieces,
    base: &[T],
) -> Option<View<'a, T>> {
    let pieces = match (got, &expect) {
        (Ok(p), _) => p,
        (Err(e), Pieces::Ok(want)) => {
            ctx.fail(format!(
                "{what}: refused ({e}), the model gives {} pieces",
                want.len()
            ));
            return None;
        }
        (Err(_), _) => return None,
    };
    match &expect {
        Pieces::Err => {
            ctx.fail(format!(
                "{what}: {} pieces, PyTorch refuses it",
                pieces.len()
            ));
            return None;
        }
        Pieces::Ok(want) if want.len() != pieces.len() => {
            ctx.fail(format!(
                "{what}: {} pieces, the model gives {}",
                pieces.len(),
                want.len()
            ));
            return None;
        }
        _ => {}
    }
    let n = pieces.len();
    for (k, p) in pieces.iter().enumerate() {
        if k >= 4 && k + 4 < n {
            continue;
        }
        if !check_view(ctx, p, base) {
            return None;
        }
        if let Pieces::Ok(want) = &expect {
            compare_lay(ctx, &format!("{what}, piece {k}"), &Lay::of(p), &want[k]);
        }
    }
    let k = ctx.rng.below(n);
    pieces.into_iter().nth(k)
}

// ---------------------------------------------------------------------------
// Argument generators.

fn random_dims(rng: &mut Rng, rank: usize) -> Vec<isize> {
    let n = rng.below(rank.min(4) + 2);
    (0..n).map(|_| rng.dim(rank)).collect()
}

fn random_permutation(rng: &mut Rng, rank: usize) -> Vec<isize> {
    let mut p: Vec<isize> = (0..rank as isize).collect();
    for k in (1..rank).rev() {
        p.swap(k, rng.below(k + 1));
    }
    for d in &mut p {
        if rng.one_in(3) {
            *d -= rank as isize;
        }
    }
    match rng.below(8) {
        0 if rank > 0 => {
            let k = rng.below(rank);
            p[k] = rng.dim(rank);
        }
        1 => p.push(rng.dim(rank)),
        2 => {
            p.pop();
        }
        _ => {}
    }
    p
}

fn random_slice(rng: &mut Rng, sizes: &[usize]) -> Vec<SliceItem> {
    let n = rng.below(sizes.len() + 3);
    let mut items = Vec::with_capacity(n);
    let mut dim = 0;
    for _ in 0..n {
        let size = sizes.get(dim).copied().unwrap_or(3);
        let item = match rng.below(12) {
            0 => SliceItem::NewAxis,
            1 => SliceItem::Ellipsis,
            2 | 3 => SliceItem::Index(rng.index(size)),
            _ => {
                let start = if rng.one_in(3) { 0 } else { rng.index(size) };
                let end = if rng.one_in(3) {
                    None
                } else {
                    Some(rng.index(size))
                };
                SliceItem::Range {
                    start,
                    end,
                    step: rng.step(),
                }
            }
        };
        if !matches!(item, SliceItem::NewAxis) {
            dim += 1;
        }
        items.push(item);
    }
    items
}

/// Sizes for `view`/`reshape` of a tensor of `sizes`: mostly a valid
/// regrouping (maybe with a -1), else anything.
fn reshape_sizes(rng: &mut Rng, sizes: &[usize]) -> Vec<isize> {
    if rng.one_in(5) {
        let n = rng.below(5);
        return (0..n)
            .map(|_| match rng.below(10) {
                0 => -1,
                1 => rng.pick(&EXTREME),
                2 => rng.size().min(isize::MAX as usize) as isize,
                _ => rng.between(0, 6),
            })
            .collect();
    }
    let mut s: Vec<usize> = sizes.to_vec();
    for _ in 0..rng.below(3) + 1 {
        match rng.below(5) {
            0 if s.len() >= 2 => {
                let k = rng.below(s.len() - 1);
                let merged = s[k].saturating_mul(s[k + 1]);
                s.splice(k..k + 2, [merged]);
            }
            1 => {
                let k = rng.below(s.len() + 1);
                s.insert(k, 1);
            }
            2 => {
                if let Some(k) = (0..s.len()).find(|&k| s[k] >= 4 && s[k].is_multiple_of(2)) {
                    let half = s[k] / 2;
                    s.splice(k..k + 1, [2, half]);
                }
            }
            3 => s = vec![numel_of(sizes).unwrap_or(usize::MAX)],
            _ => s.retain(|&n| n != 1),
        }
    }
    let mut out: Vec<isize> = s
        .iter()
        .map(|&n| n.min(isize::MAX as usize) as isize)
        .collect();
    if !out.is_empty() && rng.one_in(3) {
        let k = rng.below(out.len());
        out[k] = -1;
    }
    out
}

fn random_expand(rng: &mut Rng, sizes: &[usize]) -> Vec<isize> {
    let extra = rng.below(3);
    let mut out: Vec<isize> = (0..extra)
        .map(|_| match rng.below(8) {
            0 => -1,
            1 => rng.pick(&HUGE).min(isize::MAX as usize) as isize,
            _ => rng.between(0, 4),
        })
        .collect();
    for &n in sizes {
        out.push(match rng.below(8) {
            0..=2 => -1,
            3 | 6 if n == 1 => rng.pick(&HUGE).min(isize::MAX as usize) as isize,
            4 if n == 1 => rng.between(0, 5),
            5 => rng.pick(&[-2, 0, 2, 3]),
            _ => n.min(isize::MAX as usize) as isize,
        });
    }
    if rng.one_in(10) {
        out.pop();
    }
    out
}

// ---------------------------------------------------------------------------
// The read-only chain.

/// Runs `steps` random operations from the base tensor `base` (elements
/// `data`); `depth` counts the nested chains started from copies.
fn read_chain<'a, T: Elem>(
    ctx: &mut Ctx,
    base: &'a DynTensor<T>,
    data: &[T],
    steps: usize,
    depth: usize,
) {
    let mut cur: View<'a, T> = base.as_view();
    let mut pool: Vec<View<'a, T>> = vec![base.as_view()];
    for _ in 0..steps {
        if ctx.done() {
            return;
        }
        let next = match ctx.rng.below(100) {
            0..=46 => view_op(ctx, &cur, data),
            47..=56 => split_op(ctx, &cur, data),
            57..=60 => as_strided_op(ctx, &cur, data),
            61..=67 => reshape_op(ctx, &cur, data, steps / 2, depth),
            68..=76 => {
                reduce_ops(ctx, &cur, data);
                None
            }
            77..=88 => {
                let other = partner(ctx, &cur, &pool);
                T::typed_ops(ctx, &cur, &other, data);
                None
            }
            89..=94 => {
                copy_ops(ctx, &cur, data);
                None
            }
            _ => {
                join_ops(ctx, &cur, &pool);
                None
            }
        };
        if let Some(v) = next {
            if pool.len() >= 8 {
                let k = ctx.rng.below(pool.len());
                pool.swap_remove(k);
            }
            pool.push(v.as_view());
            if !ctx.rng.one_in(4) {
                cur = v;
            }
        }
    }
}

/// A second operand: an earlier view, or one of `cur` cut down so that it
/// broadcasts with it.
fn partner<'a, T: Elem>(ctx: &mut Ctx, cur: &View<'a, T>, pool: &[View<'a, T>]) -> View<'a, T> {
    if ctx.rng.one_in(3) {
        return pool[ctx.rng.below(pool.len())].as_view();
    }
    let mut b = cur.as_view();
    for d in 0..b.rank() {
        if b.shape()[d] > 1 && ctx.rng.one_in(3) {
            match ctx.call(format!("{} .narrow({d}, 0, 1)", desc(&b)), || {
                b.narrow(d as isize, 0, 1)
            }) {
                Some(Ok(v)) => b = v,
                _ => return b,
            }
        }
    }
    while b.rank() > 0 && b.shape()[0] > 0 && ctx.rng.one_in(3) {
        match ctx.call(format!("{} .select(0, 0)", desc(&b)), || b.select(0, 0)) {
            Some(Ok(v)) => b = v,
            _ => return b,
        }
    }
    b
}

fn view_op<'a, T: Elem>(ctx: &mut Ctx, cur: &View<'a, T>, data: &[T]) -> Option<View<'a, T>> {
    let l = Lay::of(cur);
    let r = cur.rank();
    let size_at = |dim: isize, or: usize| {
        wrap(dim, r)
            .and_then(|d| l.sizes.get(d).copied())
            .unwrap_or(or)
    };
    // Runs `$call` described by `$what`, then judges it against `$expect`.
    macro_rules! call {
        ($expect:expr, $call:expr, $($what:tt)+) => {{
            let what = format!("{} .{}", desc(cur), format_args!($($what)+));
            let expect = $expect;
            let got = ctx.call(what.clone(), || $call)?;
            judge(ctx, &what, got, &expect, data)
        }};
    }
    let rng = &mut ctx.rng;
    match rng.below(16) {
        0 => {
            let (a, b) = (rng.dim(r), rng.dim(r));
            match rng.below(3) {
                0 => call!(
                    m_transpose(&l, a, b),
                    cur.transpose(a, b),
                    "transpose({a}, {b})"
                ),
                1 => call!(
                    m_transpose(&l, a, b),
                    cur.swapaxes(a, b),
                    "swapaxes({a}, {b})"
                ),
                _ => call!(
                    m_transpose(&l, a, b),
                    cur.swapdims(a, b),
                    "swapdims({a}, {b})"
                ),
            }
        }
        1 => {
            let p = random_permutation(rng, r);
            call!(m_permute(&l, &p), cur.permute(&p), "permute(&{p:?})")
        }
        2 => {
            let (a, b) = (rng.dim(r), rng.dim(r));
            call!(m_movedim(&l, a, b), cur.movedim(a, b), "movedim({a}, {b})")
        }
        3 | 4 => {
            let dim = rng.dim(r);
            let (start, n) = (rng.index(size_at(dim, 3)), rng.count(size_at(dim, 3)));
            call!(
                m_narrow(&l, dim, start, n),
                cur.narrow(dim, start, n),
                "narrow({dim}, {start}, {n})"
            )
        }
        5 => {
            let dim = rng.dim(r);
            let index = rng.index(size_at(dim, 3));
            call!(
                m_select(&l, dim, index),
                cur.select(dim, index),
                "select({dim}, {index})"
            )
        }
        6 => match rng.below(3) {
            0 => {
                let all: Vec<isize> = (0..r as isize).collect();
                call!(m_squeeze_dims(&l, &all), cur.squeeze(), "squeeze()")
            }
            1 => {
                let d = rng.dim(r);
                call!(
                    m_squeeze_dims(&l, &[d]),
                    cur.squeeze_dim(d),
                    "squeeze_dim({d})"
                )
            }
            _ => {
                let dims = random_dims(rng, r);
                call!(
                    m_squeeze_dims(&l, &dims),
                    cur.squeeze_dims(&dims),
                    "squeeze_dims(&{dims:?})"
                )
            }
        },
        7 => {
            let d = rng.dim(r + 1);
            call!(m_unsqueeze(&l, d), cur.unsqueeze(d), "unsqueeze({d})")
        }
        8 => {
            let (o, a, b) = (rng.index(4), rng.dim(r), rng.dim(r));
            call!(
                m_diagonal(&l, o, a, b),
                cur.diagonal(o, a, b),
                "diagonal({o}, {a}, {b})"
            )
        }
        9 => {
            let dim = rng.dim(r);
            let (n, step) = (rng.count(size_at(dim, 1)), rng.step());
            call!(
                m_unfold(&l, dim, n, step),
                cur.unfold(dim, n, step),
                "unfold({dim}, {n}, {step})"
            )
        }
        10 | 11 => {
            let t = random_expand(rng, &l.sizes);
            if rng.flip() {
                call!(m_expand(&l, &t), cur.expand(&t), "expand(&{t:?})")
            } else {
                call!(
                    m_expand(&l, &t),
                    cur.broadcast_to(&t),
                    "broadcast_to(&{t:?})"
                )
            }
        }
        12 | 13 => {
            let items = random_slice(rng, &l.sizes);
            call!(m_slice(&l, &items), cur.slice(&items), "slice({items:?})")
        }
        14 => {
            if rng.flip() {
                call!(m_t(&l, false), cur.t(), "t()")
            } else {
                call!(m_t(&l, true), cur.mt(), "mt()")
            }
        }
        _ => {
            // `view` and `unflatten` keep the elements in row-major order.
            if rng.flip() {
                let s = reshape_sizes(rng, &l.sizes);
                let sizes = infer_sizes(&s, cur.numel());
                let must = sizes.is_some() && cur.is_contiguous();
                let e = Expect::Reordered {
                    of: l.clone(),
                    sizes,
                    must,
                };
                call!(e, cur.view(&s), "view(&{s:?})")
            } else {
                let dim = rng.dim(r);
                let s = reshape_sizes(rng, &[size_at(dim, 1)]);
                let sizes = match (r, wrap(dim, r)) {
                    (1.., Some(d)) if !s.is_empty() => infer_sizes(&s, l.sizes[d]).map(|mid| {
                        let mut all = l.sizes[..d].to_vec();
                        all.extend(mid);
                        all.extend(&l.sizes[d + 1..]);
                        all
                    }),
                    _ => None,
                };
                let must = sizes.is_some() && !has_huge(&l);
                let e = Expect::Reordered {
                    of: l.clone(),
                    sizes,
                    must,
                };
                call!(e, cur.unflatten(dim, &s), "unflatten({dim}, &{s:?})")
            }
        }
    }
}

fn split_op<'a, T: Elem>(ctx: &mut Ctx, cur: &View<'a, T>, data: &[T]) -> Option<View<'a, T>> {
    // Without the address-space cap, a split into 2^40 pieces that the
    // library did not refuse would take the machine.
    if ctx.cautious && cur.shape().iter().any(|&n| n > PIECES_MAX) {
        return None;
    }
    let l = Lay::of(cur);
    let r = cur.rank();
    macro_rules! call {
        ($expect:expr, $call:expr, $($what:tt)+) => {{
            let what = format!("{} .{}", desc(cur), format_args!($($what)+));
            let expect = $expect;
            let got = ctx.call(what.clone(), || $call)?;
            judge_pieces(ctx, &what, got, expect, data)
        }};
    }
    let rng = &mut ctx.rng;
    let dim = rng.dim(r);
    let size = wrap(dim, r)
        .and_then(|d| l.sizes.get(d).copied())
        .unwrap_or(3);
    let indices: Vec<isize> = (0..rng.below(4)).map(|_| rng.index(size)).collect();
    let n = rng.count(size);
    let choice = rng.below(10);
    // `chunk` and `tensor_split` give `n` pieces even of an empty
    // dimension: without the cap, 2^31 of them would be granted and built.
    if ctx.cautious && (4..=6).contains(&choice) && n > PIECES_MAX as isize {
        return None;
    }
    match choice {
        0 => call!(m_unbind(&l, dim), cur.unbind(dim), "unbind({dim})"),
        1 | 2 => call!(m_split(&l, n, dim), cur.split(n, dim), "split({n}, {dim})"),
        3 => {
            let mut parts: Vec<isize> = Vec::new();
            let mut left = size.min(64) as isize;
            while left > 0 && parts.len() < 6 {
                let p = rng.between(0, left);
                parts.push(p);
                left -= p;
            }
            if left > 0 || rng.one_in(4) {
                parts.push(if rng.one_in(3) { n } else { left });
            }
            let e = m_split_with_sizes(&l, &parts, dim);
            call!(
                e,
                cur.split_with_sizes(&parts, dim),
                "split_with_sizes(&{parts:?}, {dim})"
            )
        }
        4 | 5 => call!(m_chunk(&l, n, dim), cur.chunk(n, dim), "chunk({n}, {dim})"),
        6 => call!(
            m_tensor_split(&l, n, dim),
            cur.tensor_split(n, dim),
            "tensor_split({n}, {dim})"
        ),
        7 => {
            let e = m_tensor_split_indices(&l, &indices, dim);
            call!(
                e,
                cur.tensor_split_indices(&indices, dim),
                "tensor_split_indices(&{indices:?}, {dim})"
            )
        }
        8 => {
            let n = rng.count(4);
            // `hsplit`/`vsplit` into `n` sections: `n` pieces, as above.
            if ctx.cautious && n > PIECES_MAX as isize {
                return None;
            }
            if rng.flip() {
                call!(Pieces::Any, cur.hsplit(n), "hsplit({n})")
            } else {
                call!(Pieces::Any, cur.vsplit(n), "vsplit({n})")
            }
        }
        _ => {
            if rng.flip() {
                call!(
                    Pieces::Any,
                    cur.hsplit_indices(&indices),
                    "hsplit_indices(&{indices:?})"
                )
            } else {
                call!(
                    Pieces::Any,
                    cur.vsplit_indices(&indices),
                    "vsplit_indices(&{indices:?})"
                )
            }
        }
    }
}

fn as_strided_op<'a, T: Elem>(ctx: &mut Ctx, cur: &View<'a, T>, data: &[T]) -> Option<View<'a, T>> {
    let rng = &mut ctx.rng;
    let rank = rng.below(5);
    let mut sizes: Vec<usize> = (0..rank).map(|_| rng.size()).collect();
    let mut strides: Vec<usize> = (0..rank)
        .map(|_| match rng.below(10) {
            0 => rng.pick(&HUGE),
            1..=3 => 0,
            _ => rng.below(6),
        })
        .collect();
    match rng.below(6) {
        0 => {
            sizes.push(1);
        }
        1 => {
            strides.push(1);
        }
        _ => {}
    }
    let offset = match rng.below(8) {
        0 => rng.pick(&HUGE),
        1 => data.len(),
        _ => rng.below(data.len() + 2),
    };
    let e = m_as_strided(data.len(), &sizes, &strides, offset);
    let what = format!(
        "{} .as_strided(&{sizes:?}, &{strides:?}, {offset})",
        desc(cur)
    );
    let got = ctx.call(what.clone(), || cur.as_strided(&sizes, &strides, offset))?;
    judge(ctx, &what, got, &e, data)
}

/// `reshape` and `flatten`: a view when `view` with the same sizes works
/// (then the chain goes on from that view), else a copy (then a nested chain
/// starts from the copy).
fn reshape_op<'a, T: Elem>(
    ctx: &mut Ctx,
    cur: &View<'a, T>,
    data: &[T],
    steps: usize,
    depth: usize,
) -> Option<View<'a, T>> {
    let l = Lay::of(cur);
    let r = cur.rank();
    let numel = cur.numel();
    let reshape = ctx.rng.flip();
    let (sizes, a, b) = (
        reshape_sizes(&mut ctx.rng, &l.sizes),
        ctx.rng.dim(r),
        ctx.rng.dim(r),
    );
    let (what, want) = if reshape {
        (format!("reshape(&{sizes:?})"), infer_sizes(&sizes, numel))
    } else {
        let want = match (wrap(a, r), wrap(b, r)) {
            (Some(_), Some(_)) if r == 0 => Some(vec![1]),
            // PyTorch multiplies the merged sizes modulo 2^64 (its
            // `multiply_integers`); a product past `isize::MAX` after that
            // is no size, and refused.
            (Some(a), Some(b)) if a <= b => {
                let merged = l.sizes[a..=b]
                    .iter()
                    .fold(1usize, |n, &s| n.wrapping_mul(s));
                (merged <= isize::MAX as usize).then(|| {
                    let mut s = l.sizes[..a].to_vec();
                    s.push(merged);
                    s.extend(&l.sizes[b + 1..]);
                    s
                })
            }
            _ => None,
        };
        (format!("flatten({a}, {b})"), want)
    };
    // The same sizes through `view`: a view exactly when `reshape` gives one.
    let view_sizes: Option<Vec<isize>> = if reshape {
        Some(sizes.clone())
    } else {
        want.as_ref().map(|w| {
            w.iter()
                .map(|&n| n.min(isize::MAX as usize) as isize)
                .collect()
        })
    };
    let viewed: Option<View<'a, T>> = match &view_sizes {
        Some(s) => ctx.call(format!("{} .view(&{s:?})", desc(cur)), || cur.view(s).ok())?,
        None => None,
    };
    if viewed.is_none() && !may_allocate(Some(numel)) {
        return None;
    }
    let what = format!("{} .{what}", desc(cur));
    let got = ctx.call(what.clone(), || {
        let c = if reshape {
            cur.reshape(&sizes)
        } else {
            cur.flatten(a, b)
        };
        c.map(|c| {
            let copy = (!c.is_borrowed()).then(|| c.to_owned());
            (Lay::of(&c), copy)
        })
    })?;
    let (lay, copy) = match got {
        Err(e) => {
            if want.as_ref().is_some_and(|w| fits(w)) && numel <= ALLOC_MAX && !has_huge(&l) {
                ctx.fail(format!("{what}: refused ({e}) valid sizes"));
            }
            return None;
        }
        Ok(x) => x,
    };
    match &want {
        Some(w) if *w != lay.sizes => {
            ctx.fail(format!("{what}: sizes {:?}, expected {w:?}", lay.sizes));
            return None;
        }
        None if !(has_huge(&l) || reshape && overflowing(&sizes)) => {
            ctx.fail(format!(
                "{what}: Ok({lay:?}), expected an error (invalid sizes, or a size past usize)"
            ));
            return None;
        }
        _ => {}
    }
    match (copy, viewed) {
        (None, Some(v)) => {
            compare_lay(ctx, &format!("{what} (a view)"), &lay, &Lay::of(&v));
            let e = Expect::Reordered {
                of: l,
                sizes: None,
                must: false,
            };
            judge(ctx, &what, Ok(v), &e, data)
        }
        (None, None) => {
            ctx.fail(format!("{what}: a view ({lay:?}) where view() refuses"));
            None
        }
        (Some(_), Some(_)) => {
            ctx.fail(format!("{what}: a copy where view() gives a view"));
            None
        }
        (Some(copy), None) => {
            if !copy.is_contiguous() || copy.storage_offset() != 0 {
                ctx.fail(format!(
                    "{what}: the copy {} is not contiguous",
                    desc(&copy)
                ));
                return None;
            }
            let copied = ctx.call(format!("{} .to_vec()", desc(&copy)), || copy.to_vec())?;
            if numel <= CHECK_MAX {
                let want: Vec<T> = l.offsets().iter().map(|&o| data[o as usize]).collect();
                if copied.len() != want.len()
                    || !copied.iter().zip(&want).all(|(&x, &y)| same(x, y))
                {
                    ctx.fail(format!("{what}: the copy holds other elements"));
                    return None;
                }
            }
            if depth < 2 {
                read_chain(ctx, &copy, &copied, steps, depth + 1);
            }
            None
        }
    }
}

// ---------------------------------------------------------------------------
// Reductions.

/// The reduced dims of a dims list (`None`: PyTorch refuses it).
fn reduce_mask(dims: &[isize], rank: usize, empty_is_all: bool) -> Option<Vec<bool>> {
    let mut mask = vec![dims.is_empty() && empty_is_all; rank];
    let mut seen = vec![false; rank.max(1)];
    for &d in dims {
        let k = wrap(d, rank)?;
        if std::mem::replace(&mut seen[k], true) {
            return None;
        }
        if rank > 0 {
            mask[k] = true;
        }
    }
    Some(mask)
}

fn reduced_sizes(sizes: &[usize], mask: &[bool], keepdim: bool) -> Vec<usize> {
    sizes
        .iter()
        .zip(mask)
        .filter_map(|(&n, &r)| match (r, keepdim) {
            (false, _) => Some(n),
            (true, true) => Some(1),
            (true, false) => None,
        })
        .collect()
}

/// Sizes of a new tensor that must be accepted: each within `isize::MAX`,
/// and so is every product of the sizes in order, times the largest item
/// size (16 bytes). (PyTorch multiplies the sizes in order and the item
/// size last; `shaped` starts from the item size. Either refuses
/// `[huge, huge, 0]`; they differ on `[2^62, 0]`, which this leaves open.)
/// The row-major strides must fit too (PyTorch: "Stride calculation
/// overflowed", as for `[0, 3, 2^62]`).
fn fits(sizes: &[usize]) -> bool {
    let max = isize::MAX as usize;
    let storage = sizes.iter().try_fold(16usize, |n, &s| {
        n.checked_mul(s).filter(|&n| n <= max && s <= max)
    });
    let strides = sizes.iter().skip(1).try_fold(1usize, |n, &s| {
        n.checked_mul(s.max(1)).filter(|&n| n <= max)
    });
    storage.is_some() && strides.is_some()
}

/// Judges a call that gives a new tensor: `want` is the model's shape
/// (`None`: PyTorch refuses); with `strict`, `Ok` and `Err` must agree with
/// it (a refusal of sizes PyTorch cannot hold or allocate aside).
fn judge_new<U: Element>(
    ctx: &mut Ctx,
    what: &str,
    got: Result<DynTensor<U>, Error>,
    want: Option<&[usize]>,
    strict: bool,
) -> Option<DynTensor<U>> {
    match (got, want) {
        (Ok(t), Some(w)) => {
            if t.shape().to_vec() != w {
                ctx.fail(format!(
                    "{what}: shape {:?}, expected {w:?}",
                    t.shape().to_vec()
                ));
                return None;
            }
            Some(t)
        }
        (Ok(t), None) => {
            if strict {
                ctx.fail(format!(
                    "{what}: Ok({:?}), PyTorch refuses it",
                    t.shape().to_vec()
                ));
            }
            None
        }
        (Err(e), Some(w)) => {
            if strict && fits(w) && numel_of(w).is_some_and(|n| n <= ALLOC_MAX) {
                ctx.fail(format!("{what}: refused ({e}), expected shape {w:?}"));
            }
            None
        }
        (Err(_), None) => None,
    }
}

/// The reference sum of the elements `vals` (row-major over `sizes`) along
/// `mask`, as (real, imaginary) parts in row-major order of the result.
fn sum_model<T: Elem>(vals: &[T], sizes: &[usize], mask: &[bool]) -> Vec<(f64, f64)> {
    let kept: Vec<usize> = reduced_sizes(sizes, mask, false);
    let mut out = vec![(0.0, 0.0); numel_of(&kept).unwrap_or(0)];
    let mut k = 0;
    for_each_index(sizes, |idx| {
        let mut flat = 0;
        for (d, &i) in idx.iter().enumerate() {
            if !mask[d] {
                flat = flat * sizes[d] + i;
            }
        }
        let (re, im) = vals[k].pair();
        out[flat].0 += re;
        out[flat].1 += im;
        k += 1;
    });
    out
}

/// What a whole-tensor reduction gave: its shape, and a sum's value.
type Whole = (Vec<usize>, Option<(f64, f64)>);

fn reduce_ops<T: Elem>(ctx: &mut Ctx, v: &View<'_, T>, data: &[T]) {
    let numel = v.numel();
    if numel > WORK_MAX {
        return;
    }
    let l = Lay::of(v);
    let r = v.rank();
    let d = desc(v);
    let keepdim = ctx.rng.flip();
    let dims = random_dims(&mut ctx.rng, r);
    let one = ctx.rng.dim(r);
    // A rank-0 tensor takes dims 0 and -1, and lists of both may go either way.
    let strict = !(r == 0 && dims.len() > 1);
    let mask = reduce_mask(&dims, r, true);
    let mask_one = wrap(one, r).map(|k| (0..r).map(|i| i == k).collect::<Vec<bool>>());
    let shape_of = |m: &Option<Vec<bool>>| m.as_ref().map(|m| reduced_sizes(&l.sizes, m, keepdim));
    let (want, want_one) = (shape_of(&mask), shape_of(&mask_one));
    let out_ok = |w: &Option<Vec<usize>>| w.as_ref().is_none_or(|w| may_allocate(numel_of(w)));
    // `all` and `any` reduce no dim for an empty list.
    let want_logical = shape_of(&reduce_mask(&dims, r, false));
    let op = ctx.rng.below(12);
    let relevant = match op {
        0..=3 | 5 => &want,
        4 | 6 | 7 => &want_one,
        8 | 9 => &want_logical,
        _ => &None,
    };
    if !out_ok(relevant) {
        return;
    }
    // The order-based reductions need an element along each reduced dim.
    let empty_along = |m: &Option<Vec<bool>>| {
        m.as_ref()
            .is_some_and(|m| l.sizes.iter().zip(m).any(|(&n, &r)| r && n == 0))
    };
    let kd = keepdim;
    match op {
        0..=2 => {
            let what = format!("{d} .sum(&{dims:?}, {kd})");
            let Some(got) = ctx.call(what.clone(), || v.sum(&dims, kd)) else {
                return;
            };
            let Some(t) = judge_new(ctx, &what, got, want.as_deref(), strict) else {
                return;
            };
            if numel <= CHECK_MAX
                && let Some(m) = &mask
            {
                let vals: Vec<T> = l.offsets().iter().map(|&o| data[o as usize]).collect();
                let model = sum_model(&vals, &l.sizes, m);
                let Some(got) = ctx.call("sum .to_vec()".into(), || t.to_vec()) else {
                    return;
                };
                let got: Vec<(f64, f64)> = got.into_iter().map(T::sum_pair).collect();
                if got != model {
                    ctx.fail(format!("{what}: {got:?}, the model sums to {model:?}"));
                }
            }
        }
        3 => {
            let what = format!("{d} .mean(&{dims:?}, {kd})");
            let Some(got) = ctx.call(what.clone(), || v.mean(&dims, kd)) else {
                return;
            };
            let want = want.filter(|_| T::HAS_MEAN);
            judge_new(ctx, &what, got, want.as_deref(), strict);
        }
        4 => {
            let what = format!("{d} .prod({one}, {kd})");
            let Some(got) = ctx.call(what.clone(), || v.prod(one, kd)) else {
                return;
            };
            judge_new(ctx, &what, got, want_one.as_deref(), true);
        }
        5 => {
            let largest = ctx.rng.flip();
            let name = if largest { "amax" } else { "amin" };
            let what = format!("{d} .{name}(&{dims:?}, {kd})");
            let Some(got) = ctx.call(what.clone(), || {
                if largest {
                    v.amax(&dims, kd)
                } else {
                    v.amin(&dims, kd)
                }
            }) else {
                return;
            };
            // PyTorch refuses complex values in the kernel, which an empty
            // result never launches (checked with torch 2.15: `amax` of a
            // complex (0, 3) tensor along dim 1 is an empty tensor).
            let no_outputs = mask
                .as_ref()
                .is_some_and(|m| l.sizes.iter().zip(m).any(|(&n, &r)| n == 0 && !r));
            let refused = (!T::ORDERED && !no_outputs) || empty_along(&mask);
            let want = want.filter(|_| !refused);
            judge_new(ctx, &what, got, want.as_deref(), strict);
        }
        6 | 7 => {
            let which = ctx.rng.below(4);
            let name = ["max", "min", "argmax", "argmin"][which];
            let what = format!("{d} .{name}({one}, {kd})");
            let Some(got) = ctx.call(what.clone(), || match which {
                0 => v.max(one, kd).map(|(a, i)| (a.shape().to_vec(), i)),
                1 => v.min(one, kd).map(|(a, i)| (a.shape().to_vec(), i)),
                2 => v.argmax(one, kd).map(|i| (i.shape().to_vec(), i)),
                _ => v.argmin(one, kd).map(|i| (i.shape().to_vec(), i)),
            }) else {
                return;
            };
            let refused = !T::ORDERED
                || (which >= 2 && T::DTYPE == DType::Bool)
                || (r > 0 && empty_along(&mask_one));
            let want = want_one.filter(|_| !refused);
            let size = wrap(one, r)
                .and_then(|k| l.sizes.get(k).copied())
                .unwrap_or(1);
            match got {
                Ok((values, indices)) => {
                    if values != indices.shape().to_vec() {
                        ctx.fail(format!(
                            "{what}: values {values:?}, indices {:?}",
                            indices.shape()
                        ));
                        return;
                    }
                    if let Some(i) = judge_new(ctx, &what, Ok(indices), want.as_deref(), true)
                        && i.numel() <= CHECK_MAX
                    {
                        let idx = i.to_vec();
                        if let Some(bad) = idx.iter().find(|&&k| k < 0 || k as usize >= size) {
                            ctx.fail(format!("{what}: index {bad} along a dim of {size}"));
                        }
                    }
                }
                Err(e) => {
                    judge_new::<i64>(ctx, &what, Err(e), want.as_deref(), true);
                }
            }
        }
        8 | 9 => {
            let any = ctx.rng.flip();
            let name = if any { "any" } else { "all" };
            let what = format!("{d} .{name}(&{dims:?}, {kd})");
            let Some(got) = ctx.call(what.clone(), || {
                if any {
                    v.any(&dims, kd)
                } else {
                    v.all(&dims, kd)
                }
            }) else {
                return;
            };
            judge_new(ctx, &what, got, want_logical.as_deref(), strict);
        }
        _ => {
            // The whole-tensor forms: one element out.
            let which = ctx.rng.below(9);
            let names = [
                "sum_all",
                "prod_all",
                "all_all",
                "any_all",
                "mean_all",
                "max_all",
                "min_all",
                "argmax_all",
                "argmin_all",
            ];
            let what = format!("{d} .{}()", names[which]);
            let got = ctx.call(what.clone(), || -> Result<Whole, Error> {
                Ok(match which {
                    0 => {
                        let s = v.sum_all();
                        (s.shape().to_vec(), Some(T::sum_pair(s.to_vec()[0])))
                    }
                    1 => (v.prod_all().shape().to_vec(), None),
                    2 => (v.all_all().shape().to_vec(), None),
                    3 => (v.any_all().shape().to_vec(), None),
                    4 => (v.mean_all()?.shape().to_vec(), None),
                    5 => (v.max_all()?.shape().to_vec(), None),
                    6 => (v.min_all()?.shape().to_vec(), None),
                    7 => (v.argmax_all()?.shape().to_vec(), None),
                    _ => (v.argmin_all()?.shape().to_vec(), None),
                })
            });
            let Some(got) = got else { return };
            match got {
                Ok((shape, sum)) => {
                    if !shape.is_empty() {
                        ctx.fail(format!("{what}: shape {shape:?}"));
                    }
                    if let Some(s) = sum
                        && numel <= CHECK_MAX
                    {
                        let vals: Vec<T> = l.offsets().iter().map(|&o| data[o as usize]).collect();
                        let model = sum_model(&vals, &l.sizes, &vec![true; r]);
                        if model.first() != Some(&s) {
                            ctx.fail(format!("{what}: {s:?}, the model sums to {model:?}"));
                        }
                    }
                }
                Err(e) => {
                    let refused = match which {
                        4 => !T::HAS_MEAN,
                        5 | 6 => !T::ORDERED || numel == 0,
                        _ => !T::ORDERED || numel == 0 || T::DTYPE == DType::Bool,
                    };
                    if !refused {
                        ctx.fail(format!("{what}: refused ({e})"));
                    }
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Copies and joins.

/// The elements of `v` in row-major order, read through the model.
fn model_values<T: Element>(v: &Lay, data: &[T]) -> Vec<T> {
    v.offsets().iter().map(|&o| data[o as usize]).collect()
}

fn same_values<T: Element>(a: &[T], b: &[T]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(&x, &y)| same(x, y))
}

/// A copy `c` of a view whose elements are `want` (when few).
fn check_copy<T: Element>(
    ctx: &mut Ctx,
    what: &str,
    c: &DynTensor<T>,
    sizes: &[usize],
    want: Option<&[T]>,
) {
    if c.shape().to_vec() != sizes {
        ctx.fail(format!(
            "{what}: shape {:?}, expected {sizes:?}",
            c.shape().to_vec()
        ));
        return;
    }
    if let Some(want) = want {
        let got = c.to_vec();
        if !same_values(&got, want) {
            ctx.fail(format!("{what}: {got:?}, expected {want:?}"));
        }
    }
}

fn copy_ops<T: Elem>(ctx: &mut Ctx, v: &View<'_, T>, data: &[T]) {
    let numel = v.numel();
    let l = Lay::of(v);
    let d = desc(v);
    let small = numel <= WORK_MAX;
    let want_owned = (numel <= CHECK_MAX).then(|| model_values(&l, data));
    let want = want_owned.as_deref();
    let sizes = l.sizes.clone();
    match ctx.rng.below(8) {
        0 if small => {
            let what = format!("{d} .contiguous()");
            let Some(c) = ctx.call(what.clone(), || v.contiguous().to_owned()) else {
                return;
            };
            check_copy(ctx, &what, &c, &sizes, want);
        }
        1 if may_allocate(Some(numel)) => {
            let what = format!("{d} .try_contiguous_in(Contiguous)");
            let got = ctx.call(what.clone(), || {
                v.try_contiguous_in(MemoryFormat::Contiguous)
                    .map(|c| (c.is_contiguous(), c.is_borrowed(), c.shape().to_vec()))
            });
            match got {
                Some(Ok((contiguous, borrowed, shape)))
                    if !contiguous || shape != sizes || borrowed != v.is_contiguous() =>
                {
                    ctx.fail(format!(
                        "{what}: contiguous {contiguous}, borrowed {borrowed}, shape {shape:?}"
                    ));
                }
                Some(Err(e)) if small || v.is_contiguous() => {
                    ctx.fail(format!("{what}: refused ({e})"))
                }
                _ => {}
            }
        }
        2 if may_allocate(Some(numel)) => {
            let what = format!("{d} .try_clone()");
            match ctx.call(what.clone(), || v.try_clone()) {
                Some(Ok(c)) => {
                    if numel >= ALLOC_IMPOSSIBLE {
                        ctx.fail(format!("{what}: Ok with {numel} elements"));
                    } else {
                        check_copy(ctx, &what, &c, &sizes, want);
                    }
                }
                Some(Err(e)) if small => ctx.fail(format!("{what}: refused ({e})")),
                _ => {}
            }
        }
        3 if small => {
            let what = format!("{d} .clone() / .to_owned() / .detach()");
            let Some((c, o, det)) = ctx.call(what.clone(), || {
                (v.clone(), v.to_owned(), Lay::of(&v.detach()))
            }) else {
                return;
            };
            check_copy(ctx, &what, &c, &sizes, want);
            check_copy(ctx, &what, &o, &sizes, want);
            if det != l {
                ctx.fail(format!("{what}: detach() has the layout {det:?}"));
            }
        }
        4 if small => {
            let format = ctx.rng.pick(&[
                MemoryFormat::ChannelsLast,
                MemoryFormat::ChannelsLast3d,
                MemoryFormat::Preserve,
            ]);
            let what = format!("{d} .try_contiguous_in({format:?})");
            let got = ctx.call(what.clone(), || {
                v.try_contiguous_in(format)
                    .map(|c| (c.is_contiguous_in(format), c.to_owned()))
            });
            let applies = match format {
                MemoryFormat::ChannelsLast => sizes.len() == 4,
                MemoryFormat::ChannelsLast3d => sizes.len() == 5,
                _ => true,
            };
            match got {
                Some(Ok((laid_out, c))) => {
                    if !applies || !laid_out {
                        ctx.fail(format!("{what}: Ok, in the format: {laid_out}"));
                        return;
                    }
                    check_copy(ctx, &what, &c, &sizes, want);
                }
                Some(Err(e)) if applies => ctx.fail(format!("{what}: refused ({e})")),
                _ => {}
            }
        }
        5 if numel <= CHECK_MAX => {
            let what = format!("{d} Display");
            if let Some(text) = ctx.call(what.clone(), || format!("{v}"))
                && !text.starts_with("tensor(")
            {
                ctx.fail(format!("{what}: {text}"));
            }
        }
        6 if may_allocate(Some(numel)) => {
            let what = format!("{d} .try_cast::<f64>() / ::<bool>()");
            match ctx.call(what.clone(), || {
                (
                    v.try_cast::<f64>().map(|t| t.shape().to_vec()),
                    v.try_cast::<bool>().map(|t| t.shape().to_vec()),
                )
            }) {
                Some((Ok(a), Ok(b))) if a != sizes || b != sizes => {
                    ctx.fail(format!("{what}: shapes {a:?} and {b:?}"))
                }
                Some((Err(e), _) | (_, Err(e))) if small => {
                    ctx.fail(format!("{what}: refused ({e})"))
                }
                _ => {}
            }
        }
        _ => {}
    }
}

fn join_ops<'a, T: Elem>(ctx: &mut Ctx, cur: &View<'a, T>, pool: &[View<'a, T>]) {
    let n = 1 + ctx.rng.below(3);
    let parts: Vec<&View<'a, T>> = (0..n)
        .map(|_| {
            if ctx.rng.flip() {
                cur
            } else {
                &pool[ctx.rng.below(pool.len())]
            }
        })
        .collect();
    if parts
        .iter()
        .map(|p| p.numel())
        .fold(0, usize::saturating_add)
        > WORK_MAX
    {
        return;
    }
    let shapes: Vec<Vec<usize>> = parts.iter().map(|p| p.shape().to_vec()).collect();
    let names: Vec<String> = parts.iter().map(|p| desc(p)).collect();
    let stack = ctx.rng.flip();
    let rank = shapes[0].len();
    let dim = ctx.rng.dim(rank + usize::from(stack));
    let (what, got, want, strict) = if stack {
        let want = wrap(dim, rank + 1)
            .filter(|_| shapes.iter().all(|s| *s == shapes[0]))
            .map(|d| {
                let mut s = shapes[0].clone();
                s.insert(d, n);
                s
            });
        let what = format!("DynTensor::stack(&{names:?}, {dim})");
        let got = ctx.call(what.clone(), || DynTensor::stack(&parts, dim));
        (what, got, want, true)
    } else {
        // PyTorch skips 1-d parts of size 0 (legacy); the model leaves them out.
        let legacy = shapes.iter().any(|s| *s == [0]);
        let want = if shapes.iter().any(|s| s.is_empty()) || legacy {
            None
        } else {
            wrap(dim, rank)
                .filter(|_| shapes.iter().all(|s| s.len() == rank))
                .and_then(|d| {
                    let same = shapes
                        .iter()
                        .all(|s| (0..rank).all(|k| k == d || s[k] == shapes[0][k]));
                    same.then(|| {
                        let mut s = shapes[0].clone();
                        s[d] = shapes
                            .iter()
                            .map(|s| s[d])
                            .fold(0usize, usize::saturating_add);
                        s
                    })
                })
        };
        let strict = !legacy;
        let what = format!("DynTensor::cat(&{names:?}, {dim})");
        let got = ctx.call(what.clone(), || DynTensor::cat(&parts, dim));
        (what, got, want, strict)
    };
    let Some(got) = got else { return };
    let Some(t) = judge_new(ctx, &what, got, want.as_deref(), strict) else {
        return;
    };
    if t.numel() > CHECK_MAX || want.is_none() {
        return;
    }
    // Each part reads back from its place in the result.
    let mut start = 0isize;
    for (k, p) in parts.iter().enumerate() {
        let d = if stack {
            wrap(dim, rank + 1)
        } else {
            wrap(dim, rank)
        }
        .unwrap_or(0) as isize;
        let back = ctx.call(format!("{what}: part {k} back"), || {
            if stack {
                t.select(d, k as isize).map(|b| b.to_vec())
            } else {
                t.narrow(d, start, p.shape()[d as usize] as isize)
                    .map(|b| b.to_vec())
            }
        });
        if !stack {
            start += p.shape()[d as usize] as isize;
        }
        match back {
            Some(Ok(b)) if same_values(&b, &p.to_vec()) => {}
            Some(b) => {
                ctx.fail(format!(
                    "{what}: part {k} reads back as {b:?}, it is {:?}",
                    p.to_vec()
                ));
                return;
            }
            None => return,
        }
    }
}

// ---------------------------------------------------------------------------
// Elementwise operations, products, AnyTensor.

/// PyTorch's broadcast of two shapes.
fn broadcast(a: &[usize], b: &[usize]) -> Option<Vec<usize>> {
    let n = a.len().max(b.len());
    let at = |s: &[usize], i: usize| {
        if i + s.len() >= n {
            s[i + s.len() - n]
        } else {
            1
        }
    };
    (0..n)
        .map(|i| {
            let (x, y) = (at(a, i), at(b, i));
            if x == y || y == 1 {
                Some(x)
            } else if x == 1 {
                Some(y)
            } else {
                None
            }
        })
        .collect()
}

/// The row-major flat index in `sizes` of the out index `idx` broadcast to
/// it (leading dims dropped, size-1 dims read at 0).
fn broadcast_flat(idx: &[usize], sizes: &[usize]) -> usize {
    let skip = idx.len() - sizes.len();
    sizes
        .iter()
        .zip(&idx[skip..])
        .fold(0, |f, (&n, &i)| f * n + if n == 1 { 0 } else { i })
}

/// Checks a binary elementwise result against the broadcast model and, with
/// `f`, the values.
fn check_binary<A: Element, B: Element, O: Element>(
    ctx: &mut Ctx,
    what: &str,
    (a, b): (&View<'_, A>, &View<'_, B>),
    got: Result<DynTensor<O>, Error>,
    f: Option<&dyn Fn(A, B) -> O>,
) {
    let (sa, sb) = (a.shape().to_vec(), b.shape().to_vec());
    let want = broadcast(&sa, &sb);
    let Some(t) = judge_new(ctx, what, got, want.as_deref(), true) else {
        return;
    };
    let (Some(f), Some(w)) = (f, want) else {
        return;
    };
    if t.numel() > CHECK_MAX {
        return;
    }
    let (va, vb) = (a.to_vec(), b.to_vec());
    let mut model = Vec::new();
    for_each_index(&w, |idx| {
        model.push(f(
            va[broadcast_flat(idx, &sa)],
            vb[broadcast_flat(idx, &sb)],
        ))
    });
    let got = t.to_vec();
    if !same_values(&got, &model) {
        ctx.fail(format!("{what}: {got:?}, the model gives {model:?}"));
    }
}

/// Both operands small, and the result too (or impossible to allocate).
fn binary_fits<A: Element, B: Element>(a: &View<'_, A>, b: &View<'_, B>) -> bool {
    a.numel() <= WORK_MAX
        && b.numel() <= WORK_MAX
        && broadcast(&a.shape(), &b.shape()).is_none_or(|w| may_allocate(numel_of(&w)))
}

/// PyTorch's `matmul` shapes, and `mm`, `bmm`, `mv`, `dot` as special cases.
fn matmul_shape(op: &str, a: &[usize], b: &[usize]) -> Option<Vec<usize>> {
    let ok = match op {
        "mm" => a.len() == 2 && b.len() == 2,
        "bmm" => a.len() == 3 && b.len() == 3 && a[0] == b[0],
        "mv" => a.len() == 2 && b.len() == 1,
        "dot" => a.len() == 1 && b.len() == 1,
        _ => !a.is_empty() && !b.is_empty(),
    };
    if !ok {
        return None;
    }
    let (am, ak) = if a.len() == 1 {
        (None, a[0])
    } else {
        (Some(a[a.len() - 2]), a[a.len() - 1])
    };
    let (bk, bn) = if b.len() == 1 {
        (b[0], None)
    } else {
        (b[b.len() - 2], Some(b[b.len() - 1]))
    };
    if ak != bk {
        return None;
    }
    let batch = |s: &[usize]| s[..s.len().saturating_sub(2)].to_vec();
    let mut out = broadcast(&batch(a), &batch(b))?;
    out.extend(am);
    out.extend(bn);
    Some(out)
}

/// The model's product of `a` (elements `va`) and `b`, in row-major order.
fn matmul_model<T: Elem>(va: &[T], a: &[usize], vb: &[T], b: &[usize]) -> Vec<T> {
    let a2: Vec<usize> = if a.len() == 1 {
        vec![1, a[0]]
    } else {
        a.to_vec()
    };
    let b2: Vec<usize> = if b.len() == 1 {
        vec![b[0], 1]
    } else {
        b.to_vec()
    };
    let (ab, bb) = (&a2[..a2.len() - 2], &b2[..b2.len() - 2]);
    let (m, k, n) = (a2[a2.len() - 2], a2[a2.len() - 1], b2[b2.len() - 1]);
    let batch = broadcast(ab, bb).unwrap_or_default();
    let mut out = Vec::new();
    let mut visit = |bi: &[usize]| {
        let (fa, fb) = (broadcast_flat(bi, ab), broadcast_flat(bi, bb));
        for i in 0..m {
            for j in 0..n {
                let mut acc = T::ZERO;
                for p in 0..k {
                    acc = acc.plus(va[(fa * m + i) * k + p].times(vb[(fb * k + p) * n + j]));
                }
                out.push(acc);
            }
        }
    };
    if batch.is_empty() {
        visit(&[]);
    } else {
        for_each_index(&batch, visit);
    }
    out
}

fn matmul_ops<'a, T: Elem + shaped::ops::matmul::MatmulElement>(
    ctx: &mut Ctx,
    a: &View<'a, T>,
    other: &View<'a, T>,
) {
    let d = desc(a);
    let b: View<'a, T> = match ctx.rng.below(4) {
        0 => other.as_view(),
        1 => match ctx.call(format!("{d} .mt()"), || a.mt()) {
            Some(Ok(t)) => t,
            _ => return,
        },
        2 => match ctx.call(format!("{d} .select(0, 0)"), || a.select(0, 0)) {
            Some(Ok(t)) => t,
            _ => other.as_view(),
        },
        _ => a.as_view(),
    };
    let op = ctx.rng.pick(&["matmul", "mm", "bmm", "mv", "dot"]);
    let (sa, sb) = (a.shape().to_vec(), b.shape().to_vec());
    let want = matmul_shape(op, &sa, &sb);
    if a.numel() > WORK_MAX || b.numel() > WORK_MAX {
        return;
    }
    if let Some(w) = &want {
        let inner = sa.last().copied().unwrap_or(1).max(1);
        let out = numel_of(w);
        if !may_allocate(out) || out.is_some_and(|o| o.saturating_mul(inner) > 20_000_000) {
            return;
        }
    }
    let what = format!("{d} .{op}({})", desc(&b));
    let Some(got) = ctx.call(what.clone(), || match op {
        "matmul" => a.matmul(&b),
        "mm" => a.mm(&b),
        "bmm" => a.bmm(&b),
        "mv" => a.mv(&b),
        _ => a.dot(&b),
    }) else {
        return;
    };
    let Some(t) = judge_new(ctx, &what, got, want.as_deref(), true) else {
        return;
    };
    if (1..=CHECK_MAX).contains(&t.numel()) && a.numel() * b.numel().max(1) <= 1 << 22 {
        let model = matmul_model(&a.to_vec(), &sa, &b.to_vec(), &sb);
        let got = t.to_vec();
        if !same_values(&got, &model) {
            ctx.fail(format!("{what}: {got:?}, the model gives {model:?}"));
        }
    }
}

/// A small tensor of a random dtype whose shape mostly broadcasts with `sizes`.
fn any_operand(rng: &mut Rng, sizes: &[usize]) -> AnyTensor {
    let mut s: Vec<usize> = sizes[rng.below(sizes.len() + 1)..].to_vec();
    for n in &mut s {
        if rng.one_in(3) {
            *n = 1;
        }
    }
    if rng.one_in(5) {
        s = (0..rng.below(3)).map(|_| rng.below(4)).collect();
    }
    if !fits(&s) || numel_of(&s).is_none_or(|n| n > 4096) {
        s = vec![1];
    }
    let n = numel_of(&s).unwrap_or(1);
    match rng.below(5) {
        0 => {
            AnyTensor::from(DynTensor::<f32>::from_vec((0..n).map(f32::at).collect(), &s).unwrap())
        }
        1 => {
            AnyTensor::from(DynTensor::<i64>::from_vec((0..n).map(i64::at).collect(), &s).unwrap())
        }
        2 => AnyTensor::from(DynTensor::<u8>::from_vec((0..n).map(u8::at).collect(), &s).unwrap()),
        3 => AnyTensor::from(
            DynTensor::<bool>::from_vec((0..n).map(bool::at).collect(), &s).unwrap(),
        ),
        _ => {
            AnyTensor::from(DynTensor::<C32>::from_vec((0..n).map(C32::at).collect(), &s).unwrap())
        }
    }
}

/// Mixed-dtype operations through `AnyTensor` (shapes and Ok/Err only).
fn any_ops<T: Elem>(ctx: &mut Ctx, a: &View<'_, T>) {
    if a.numel() > WORK_MAX {
        return;
    }
    let sizes = a.shape().to_vec();
    let other = any_operand(&mut ctx.rng, &sizes);
    let d = desc(a);
    let Some(x) = ctx.call(format!("AnyTensor::from({d} .to_owned())"), || {
        T::into_any(a.to_owned())
    }) else {
        return;
    };
    let want = broadcast(&sizes, &other.shape());
    if want.as_ref().is_some_and(|w| !may_allocate(numel_of(w))) {
        return;
    }
    let which = ctx.rng.below(6);
    let name = ["try_add", "try_mul", "try_lt", "try_maximum", "exp", "cat"][which];
    let what = format!(
        "{d} as {:?} .{name}({:?} {:?})",
        x.dtype(),
        other.dtype(),
        other.shape()
    );
    let Some(got) = ctx.call(what.clone(), || match which {
        0 => x.try_add(&other),
        1 => x.try_mul(&other),
        2 => x.try_lt(&other),
        3 => x.try_maximum(&other),
        4 => x.exp(),
        _ => AnyTensor::cat(&[&x, &other], 0),
    }) else {
        return;
    };
    let want = match which {
        4 => Some(sizes.clone()),
        5 => None,
        _ => want,
    };
    match (got, want) {
        (Ok(t), Some(w)) if t.shape() != w => {
            ctx.fail(format!("{what}: shape {:?}, expected {w:?}", t.shape()))
        }
        (Ok(t), None) if which < 4 => {
            ctx.fail(format!("{what}: Ok({:?}), PyTorch refuses it", t.shape()))
        }
        _ => {}
    }
}

/// The elementwise operations of a numeric type `$t` on views `a`, `b`:
/// `$add`, `$mul`, `$neg` give the model's values.
macro_rules! arithmetic {
    ($ctx:expr, $a:expr, $b:expr, $t:ty, add: $add:expr, mul: $mul:expr, neg: $neg:expr) => {{
        let (ctx, a, b): (&mut Ctx, &View<'_, $t>, &View<'_, $t>) = ($ctx, $a, $b);
        if !binary_fits(a, b) {
            return;
        }
        let (da, db) = (desc(a), desc(b));
        match ctx.rng.below(7) {
            0 => {
                let what = format!("{da} .try_add({db})");
                if let Some(got) = ctx.call(what.clone(), || a.try_add(b)) {
                    check_binary(ctx, &what, (a, b), got, Some(&$add));
                }
            }
            1 => {
                let what = format!("{da} .try_mul({db})");
                if let Some(got) = ctx.call(what.clone(), || a.try_mul(b)) {
                    check_binary(ctx, &what, (a, b), got, Some(&$mul));
                }
            }
            2 => {
                let what = format!("{da} .try_sub({db})");
                if let Some(got) = ctx.call(what.clone(), || a.try_sub(b)) {
                    check_binary::<_, _, $t>(ctx, &what, (a, b), got, None);
                }
            }
            3 => {
                let what = format!("{da} .try_div({db})");
                if let Some(got) = ctx.call(what.clone(), || a.try_div(b)) {
                    check_binary(ctx, &what, (a, b), got, None::<&dyn Fn($t, $t) -> _>);
                }
            }
            4 => {
                let what = format!("{da} .try_eq({db})");
                if let Some(got) = ctx.call(what.clone(), || a.try_eq(b)) {
                    check_binary(ctx, &what, (a, b), got, Some(&|x: $t, y: $t| x == y));
                }
            }
            5 => {
                // In place: the result must keep `a`'s shape.
                let what = format!("{da} .to_owned().try_add_assign({db})");
                let Some((before, got)) = ctx.call(what.clone(), || {
                    let mut c = a.to_owned();
                    let r = c.try_add_assign(b);
                    (c.to_vec(), r.map(|()| c.to_vec()))
                }) else {
                    return;
                };
                let fits_a =
                    broadcast(&a.shape(), &b.shape()).is_some_and(|w| w == a.shape().to_vec());
                match got {
                    Ok(after) if !fits_a => ctx.fail(format!("{what}: Ok ({after:?})")),
                    Err(e) if fits_a => ctx.fail(format!("{what}: refused ({e})")),
                    Err(_) if before != a.to_vec() => {
                        ctx.fail(format!("{what}: refused, and changed the tensor"))
                    }
                    _ => {}
                }
            }
            _ => {
                let what = format!("-&{da}, .abs(), .exp()");
                let Some((n, abs, exp)) = ctx.call(what.clone(), || {
                    let n: DynTensor<$t> = -a;
                    (n, a.abs().shape().to_vec(), a.exp().shape().to_vec())
                }) else {
                    return;
                };
                let s = a.shape().to_vec();
                if n.shape().to_vec() != s || abs != s || exp != s {
                    ctx.fail(format!(
                        "{what}: shapes {:?}, {abs:?}, {exp:?} of {s:?}",
                        n.shape()
                    ));
                } else if n.numel() <= CHECK_MAX {
                    let model: Vec<$t> = a.to_vec().into_iter().map($neg).collect();
                    if !same_values(&n.to_vec(), &model) {
                        ctx.fail(format!(
                            "{what}: {:?}, the model gives {model:?}",
                            n.to_vec()
                        ));
                    }
                }
            }
        }
    }};
}

/// Operations of any element type, then the arithmetic of this one.
fn typed_common<T: Elem>(ctx: &mut Ctx, a: &View<'_, T>) -> bool {
    if ctx.rng.one_in(3) {
        any_ops(ctx, a);
        return true;
    }
    false
}

impl Elem for f32 {
    fn at(i: usize) -> Self {
        (i % 61) as f32 - 30.0
    }
    fn marker(k: u64) -> Self {
        100.0 + k as f32
    }
    fn pair(self) -> (f64, f64) {
        (self as f64, 0.0)
    }
    fn sum_pair(s: f32) -> (f64, f64) {
        (s as f64, 0.0)
    }
    fn plus(self, o: Self) -> Self {
        self + o
    }
    fn times(self, o: Self) -> Self {
        self * o
    }
    fn into_any(t: DynTensor<Self>) -> AnyTensor {
        AnyTensor::from(t)
    }
    fn typed_ops<'a>(ctx: &mut Ctx, a: &View<'a, Self>, b: &View<'a, Self>, _: &[Self]) {
        if typed_common(ctx, a) {
            return;
        }
        if ctx.rng.one_in(3) {
            return matmul_ops(ctx, a, b);
        }
        arithmetic!(ctx, a, b, f32, add: |x: f32, y: f32| x + y, mul: |x: f32, y: f32| x * y, neg: |x: f32| -x)
    }
}

/// The integer element types: wrapping arithmetic, small values from
/// `at`, and a marker per write.
macro_rules! int_elem {
    ($t:ty, at: |$i:ident| $at:expr, marker: |$k:ident| $marker:expr) => {
        impl Elem for $t {
            fn at($i: usize) -> Self {
                $at
            }
            fn marker($k: u64) -> Self {
                $marker
            }
            fn pair(self) -> (f64, f64) {
                (self as f64, 0.0)
            }
            fn sum_pair(s: i64) -> (f64, f64) {
                (s as f64, 0.0)
            }
            fn plus(self, o: Self) -> Self {
                self.wrapping_add(o)
            }
            fn times(self, o: Self) -> Self {
                self.wrapping_mul(o)
            }
            fn into_any(t: DynTensor<Self>) -> AnyTensor {
                AnyTensor::from(t)
            }
            fn typed_ops<'a>(ctx: &mut Ctx, a: &View<'a, Self>, b: &View<'a, Self>, _: &[Self]) {
                if typed_common(ctx, a) {
                    return;
                }
                if ctx.rng.one_in(3) {
                    return matmul_ops(ctx, a, b);
                }
                arithmetic!(ctx, a, b, $t, add: |x: $t, y: $t| x.wrapping_add(y), mul: |x: $t, y: $t| x.wrapping_mul(y), neg: |x: $t| x.wrapping_neg())
            }
        }
    };
}

int_elem!(i64, at: |i| i as i64 - 7, marker: |k| -1000 - k as i64);
int_elem!(u8, at: |i| (i % 251) as u8, marker: |k| (k % 256) as u8);

impl Elem for bool {
    fn at(i: usize) -> Self {
        i.is_multiple_of(3)
    }
    fn marker(k: u64) -> Self {
        k.is_multiple_of(2)
    }
    fn pair(self) -> (f64, f64) {
        (f64::from(u8::from(self)), 0.0)
    }
    fn sum_pair(s: i64) -> (f64, f64) {
        (s as f64, 0.0)
    }
    fn plus(self, o: Self) -> Self {
        self | o
    }
    fn times(self, o: Self) -> Self {
        self & o
    }
    fn into_any(t: DynTensor<Self>) -> AnyTensor {
        AnyTensor::from(t)
    }
    fn typed_ops<'a>(ctx: &mut Ctx, a: &View<'a, Self>, b: &View<'a, Self>, _: &[Self]) {
        if typed_common(ctx, a) || !binary_fits(a, b) {
            return;
        }
        let (da, db) = (desc(a), desc(b));
        match ctx.rng.below(3) {
            0 => {
                let what = format!("{da} .try_add({db})");
                if let Some(got) = ctx.call(what.clone(), || a.try_add(b)) {
                    check_binary(ctx, &what, (a, b), got, Some(&|x: bool, y: bool| x | y));
                }
            }
            1 => {
                let what = format!("{da} .try_mul({db})");
                if let Some(got) = ctx.call(what.clone(), || a.try_mul(b)) {
                    check_binary(ctx, &what, (a, b), got, Some(&|x: bool, y: bool| x & y));
                }
            }
            _ => {
                let what = format!("{da} .try_ne({db})");
                if let Some(got) = ctx.call(what.clone(), || a.try_ne(b)) {
                    check_binary(ctx, &what, (a, b), got, Some(&|x: bool, y: bool| x != y));
                }
            }
        }
    }
}

impl Elem for C32 {
    fn at(i: usize) -> Self {
        Complex::new((i % 61) as f32 - 30.0, (i % 7) as f32 - 3.0)
    }
    fn marker(k: u64) -> Self {
        Complex::new(100.0 + k as f32, -1.0)
    }
    fn pair(self) -> (f64, f64) {
        (self.re as f64, self.im as f64)
    }
    fn sum_pair(s: C32) -> (f64, f64) {
        (s.re as f64, s.im as f64)
    }
    fn plus(self, o: Self) -> Self {
        self + o
    }
    fn times(self, o: Self) -> Self {
        self * o
    }
    fn into_any(t: DynTensor<Self>) -> AnyTensor {
        AnyTensor::from(t)
    }
    fn typed_ops<'a>(ctx: &mut Ctx, a: &View<'a, Self>, b: &View<'a, Self>, data: &[Self]) {
        if typed_common(ctx, a) {
            return;
        }
        match ctx.rng.below(4) {
            0 | 1 => complex_views(ctx, a, data),
            2 => matmul_ops(ctx, a, b),
            _ => {
                if a.numel() > WORK_MAX {
                    return;
                }
                let d = desc(a);
                let what = format!("{d} .try_conj(), .try_mh()");
                let Some((conj, mh)) = ctx.call(what.clone(), || {
                    (a.try_conj(), a.try_mh().map(|m| m.shape().to_vec()))
                }) else {
                    return;
                };
                match conj {
                    Ok(c) if c.numel() <= CHECK_MAX => {
                        let model: Vec<C32> = a.to_vec().iter().map(|z| z.conj()).collect();
                        if !same_values(&c.to_vec(), &model) {
                            ctx.fail(format!(
                                "{what}: conj {:?}, the model gives {model:?}",
                                c.to_vec()
                            ));
                        }
                    }
                    Ok(_) => {}
                    Err(e) => ctx.fail(format!("{what}: conj refused ({e})")),
                }
                let l = Lay::of(a);
                // As `mT`, PyTorch's `mH` takes rank 0 (deprecated) and
                // refuses rank 1.
                let want = match m_t(&l, true) {
                    Expect::Ok(t) => Some(t.sizes),
                    _ => None,
                };
                match (mh, want) {
                    (Ok(s), Some(w)) if s != w => {
                        ctx.fail(format!("{what}: mh shape {s:?}, expected {w:?}"))
                    }
                    (Ok(s), None) if l.rank() == 1 => {
                        ctx.fail(format!("{what}: mh of rank 1 is Ok({s:?})"))
                    }
                    (Err(e), Some(_)) => ctx.fail(format!("{what}: mh refused ({e})")),
                    _ => {}
                }
            }
        }
    }
    fn typed_mut(ctx: &mut Ctx, data: &[Self], shape: &[usize]) {
        complex_writes(ctx, data, shape);
    }
}

/// The parts of complex elements, as the real storage under them.
fn parts_of(data: &[C32]) -> Vec<f32> {
    data.iter().flat_map(|z| [z.re, z.im]).collect()
}

/// The layout of the real (or imaginary) parts of a complex layout.
fn part_lay(l: &Lay, imag: bool) -> Lay {
    Lay {
        sizes: l.sizes.clone(),
        strides: l.strides.iter().map(|s| s * 2).collect(),
        offset: l.offset * 2 + i128::from(imag),
    }
}

fn complex_views(ctx: &mut Ctx, a: &View<'_, C32>, data: &[C32]) {
    let parts = parts_of(data);
    let l = Lay::of(a);
    let d = desc(a);
    let which = ctx.rng.below(3);
    let name = ["real", "imag", "view_as_real"][which];
    let what = format!("{d} .{name}()");
    if which == 2 {
        // Twice the elements must fit in `isize`; else PyTorch's error.
        let fits = numel_of(&l.sizes).is_some_and(|n| n <= isize::MAX as usize / 2);
        let refused = ctx.call(what.clone(), || a.try_view_as_real().is_err());
        if refused == Some(true) {
            if fits {
                ctx.fail(format!("{what}: refused"));
            }
            return;
        }
    }
    let Some(v) = ctx.call(what.clone(), || match which {
        0 => a.real(),
        1 => a.imag(),
        _ => a.view_as_real(),
    }) else {
        return;
    };
    if !check_view(ctx, &v, &parts) {
        return;
    }
    let mut want = part_lay(&l, which == 1);
    if which == 2 {
        want.sizes.push(2);
        want.strides.push(1);
    }
    compare_lay(ctx, &what, &Lay::of(&v), &want);
}

/// Writes through `real_mut()`/`imag_mut()` (maybe of a narrowed or
/// transposed view) land in the parts the model says.
fn complex_writes(ctx: &mut Ctx, data: &[C32], shape: &[usize]) {
    if !ctx.rng.one_in(3) {
        return;
    }
    let what = format!(
        "DynTensor::<C32>::from_vec(<{} elements>, &{shape:?})",
        data.len()
    );
    let Some(Ok(mut owned)) = ctx.call(what, || DynTensor::<C32>::from_vec(data.to_vec(), shape))
    else {
        return;
    };
    let mut parts = parts_of(data);
    let r = shape.len();
    let (a, b) = (ctx.rng.dim(r), ctx.rng.dim(r));
    let imag = ctx.rng.flip();
    let value = f32::marker(ctx.rng.below(100) as u64);
    let transpose = ctx.rng.flip();
    let what = format!(
        "base .{}({a}, {b})?.{}().fill({value})",
        if transpose {
            "transpose_mut"
        } else {
            "diagonal_mut(0, ..)"
        },
        if imag { "imag_mut" } else { "real_mut" }
    );
    let got = ctx.call(what.clone(), || {
        let mut m = if transpose {
            owned.transpose_mut(a, b)?
        } else {
            owned.diagonal_mut(0, a, b)?
        };
        let l = Lay::of(&m);
        let mut part = if imag { m.imag_mut() } else { m.real_mut() };
        let pl = Lay::of(&part);
        part.fill(value);
        Ok::<_, Error>((l, pl))
    });
    let Some(Ok((l, pl))) = got else { return };
    let want = part_lay(&l, imag);
    compare_lay(ctx, &what, &pl, &want);
    if numel_of(&l.sizes).is_none_or(|n| n > parts.len()) {
        ctx.fail(format!(
            "{what}: a writable view {l:?} of a storage of {}",
            data.len()
        ));
        return;
    }
    for o in want.offsets() {
        parts[o as usize] = value;
    }
    let Some(after) = ctx.call("base .to_vec()".into(), || owned.to_vec()) else {
        return;
    };
    if !same_values(&parts_of(&after), &parts) {
        ctx.fail(format!(
            "{what}: the parts are {:?}, the model's {parts:?}",
            parts_of(&after)
        ));
    }
}

// ---------------------------------------------------------------------------
// Writable views.

/// A writable view's invariants, over a storage now holding `state`.
fn check_mut<T: Elem>(ctx: &mut Ctx, m: &ViewMut<'_, T>, state: &[T]) -> bool {
    let l = Lay::of(m);
    match numel_of(&l.sizes) {
        Some(n) if n <= state.len() => {}
        n => {
            ctx.fail(format!(
                "{}: a writable view of {n:?} elements over a storage of {}",
                desc(m),
                state.len()
            ));
            return false;
        }
    }
    let mut offsets = l.offsets();
    offsets.sort_unstable();
    if offsets.windows(2).any(|w| w[0] == w[1]) {
        ctx.fail(format!(
            "{}: a writable view with two indices on one element",
            desc(m)
        ));
        return false;
    }
    check_view(ctx, &m.as_view(), state)
}

/// The row-major index of flat position `k` in `sizes`.
fn unravel(mut k: usize, sizes: &[usize]) -> Vec<usize> {
    let mut idx = vec![0; sizes.len()];
    for d in (0..sizes.len()).rev() {
        idx[d] = k % sizes[d];
        k /= sizes[d];
    }
    idx
}

/// Writes through `m` with `fill` and `get_mut`, and the same in `state`.
fn write<T: Elem>(ctx: &mut Ctx, m: &mut ViewMut<'_, T>, state: &mut [T], marker: &mut u64) {
    let l = Lay::of(m);
    let d = desc(m);
    let offsets = l.offsets();
    if ctx.rng.flip() {
        let v = T::marker(*marker);
        *marker += 1;
        if ctx
            .call(format!("{d} .fill({v:?})"), || m.fill(v))
            .is_none()
        {
            return;
        }
        for &o in &offsets {
            state[o as usize] = v;
        }
    }
    if !offsets.is_empty() {
        let k = ctx.rng.below(offsets.len());
        let idx = unravel(k, &l.sizes);
        let v = T::marker(*marker);
        *marker += 1;
        let got = ctx.call(format!("*{d} .get_mut(&{idx:?})? = {v:?}"), || {
            m.get_mut(&idx).map(|x| *x = v)
        });
        match got {
            Some(Ok(())) => state[offsets[k] as usize] = v,
            Some(Err(e)) => ctx.fail(format!("{d} .get_mut(&{idx:?}): refused ({e})")),
            None => return,
        }
    }
    if let Some(&last) = l.sizes.last() {
        let mut idx = vec![0; l.sizes.len()];
        *idx.last_mut().unwrap() = last;
        if let Some(Ok(())) = ctx.call(format!("{d} .get_mut(&{idx:?})"), || {
            m.get_mut(&idx).map(|_| ())
        }) {
            ctx.fail(format!("{d} .get_mut(&{idx:?}) is Ok"));
        }
    }
}

/// Random `_mut` views of `m`, `depth` deep, with writes along the way.
fn mut_chain<T: Elem>(
    ctx: &mut Ctx,
    m: &mut ViewMut<'_, T>,
    state: &mut Vec<T>,
    depth: usize,
    marker: &mut u64,
) {
    if ctx.done() || !check_mut(ctx, m, state) {
        return;
    }
    if depth == 0 || ctx.rng.one_in(3) {
        write(ctx, m, state, marker);
    }
    if depth == 0 || ctx.done() {
        return;
    }
    let l = Lay::of(m);
    let r = l.rank();
    let size_at = |dim: isize| {
        wrap(dim, r)
            .and_then(|k| l.sizes.get(k).copied())
            .unwrap_or(3)
    };
    // Runs `$call` on `m`, judges it against `$expect`, and goes on from the
    // view it gave (or from `m`).
    macro_rules! call {
        ($expect:expr, |$m:ident| $call:expr, $($what:tt)+) => {{
            let what = format!("{} .{}", desc(m), format_args!($($what)+));
            let expect = $expect;
            let $m = &mut *m;
            match ctx.call(what.clone(), move || $call) {
                None => {}
                Some(Ok(mut child)) if check_mut(ctx, &child, state) => {
                    verdict(ctx, &what, Ok(&Lay::of(&child)), &expect);
                    mut_chain(ctx, &mut child, state, depth - 1, marker);
                }
                Some(Ok(_)) => {}
                Some(Err(e)) => {
                    verdict(ctx, &what, Err(&e), &expect);
                    mut_chain(ctx, m, state, depth - 1, marker);
                }
            }
        }};
    }
    let rng = &mut ctx.rng;
    match rng.below(10) {
        0 => {
            let (a, b) = (rng.dim(r), rng.dim(r));
            call!(
                m_transpose(&l, a, b),
                |m| m.transpose_mut(a, b),
                "transpose_mut({a}, {b})"
            )
        }
        1 => {
            let p = random_permutation(rng, r);
            call!(
                m_permute(&l, &p),
                |m| m.permute_mut(&p),
                "permute_mut(&{p:?})"
            )
        }
        2 | 3 => {
            let dim = rng.dim(r);
            let (start, n) = (rng.index(size_at(dim)), rng.count(size_at(dim)));
            let e = m_narrow(&l, dim, start, n);
            call!(
                e,
                |m| m.narrow_mut(dim, start, n),
                "narrow_mut({dim}, {start}, {n})"
            )
        }
        4 => {
            let dim = rng.dim(r);
            let i = rng.index(size_at(dim));
            call!(
                m_select(&l, dim, i),
                |m| m.select_mut(dim, i),
                "select_mut({dim}, {i})"
            )
        }
        5 | 6 => {
            let items = random_slice(rng, &l.sizes);
            call!(
                m_slice(&l, &items),
                |m| m.slice_mut(&items),
                "slice_mut({items:?})"
            )
        }
        7 => {
            if rng.flip() {
                let all: Vec<isize> = (0..r as isize).collect();
                call!(
                    m_squeeze_dims(&l, &all),
                    |m| m.squeeze_mut(),
                    "squeeze_mut()"
                )
            } else {
                let d = rng.dim(r + 1);
                call!(
                    m_unsqueeze(&l, d),
                    |m| m.unsqueeze_mut(d),
                    "unsqueeze_mut({d})"
                )
            }
        }
        8 => {
            let (o, a, b) = (rng.index(4), rng.dim(r), rng.dim(r));
            let e = m_diagonal(&l, o, a, b);
            call!(
                e,
                |m| m.diagonal_mut(o, a, b),
                "diagonal_mut({o}, {a}, {b})"
            )
        }
        _ => {
            let s = reshape_sizes(rng, &l.sizes);
            let sizes = infer_sizes(&s, numel_of(&l.sizes).unwrap_or(0));
            let strides: Vec<usize> = l.strides.iter().map(|&s| s as usize).collect();
            let must = sizes.is_some() && pytorch_contiguous(&l.sizes, &strides);
            let e = Expect::Reordered {
                of: l.clone(),
                sizes,
                must,
            };
            call!(e, |m| m.view_mut_as(&s), "view_mut_as(&{s:?})")
        }
    }
}

fn mut_case<T: Elem>(ctx: &mut Ctx, data: &[T], shape: &[usize]) {
    let what = format!("DynTensor::from_vec(<{} elements>, &{shape:?})", data.len());
    let Some(Ok(mut owned)) = ctx.call(what, || DynTensor::<T>::from_vec(data.to_vec(), shape))
    else {
        return;
    };
    let mut state = data.to_vec();
    let depth = 1 + ctx.rng.below(5);
    let mut marker = 0;
    {
        let mut m = owned.view_mut();
        mut_chain(ctx, &mut m, &mut state, depth, &mut marker);
    }
    if ctx.done() {
        return;
    }
    let Some(after) = ctx.call("base .to_vec() after the writes".into(), || owned.to_vec()) else {
        return;
    };
    if let Some(k) = (0..state.len()).find(|&k| !same(after[k], state[k])) {
        ctx.fail(format!(
            "after the writes, storage element {k} is {:?}, the model's {:?}",
            after[k], state[k]
        ));
    }
}

// ---------------------------------------------------------------------------
// Cases.

/// A base shape: mostly small (rank 0-6, sizes 0-7), sometimes no elements
/// with huge sizes beside the 0, sometimes one element (to expand).
fn base_shape(rng: &mut Rng) -> Vec<usize> {
    match rng.below(7) {
        0 => {
            // Mostly one huge size (PyTorch refuses a product of the others
            // past `isize::MAX`, zeros aside).
            let rank = 1 + rng.below(4);
            let mut s: Vec<usize> = (0..rank).map(|_| rng.below(4)).collect();
            for _ in 0..1 + usize::from(rng.one_in(4)) {
                s[rng.below(rank)] = rng.pick(&HUGE);
            }
            s[rng.below(rank)] = 0;
            s
        }
        1 => vec![1; rng.below(4)],
        _ => {
            let rank = rng.below(7);
            let cap = if rng.one_in(8) { BASE_MAX } else { 3000 };
            let mut s: Vec<usize> = (0..rank)
                .map(|_| if rng.one_in(16) { 0 } else { 1 + rng.below(7) })
                .collect();
            while numel_of(&s).unwrap_or(usize::MAX) > cap {
                let k = rng.below(rank);
                s[k] /= 2;
            }
            s
        }
    }
}

/// The fallible constructors: huge element counts are refused, counts that
/// do not fill the sizes (wrapping products included) too.
fn constructors<T: Elem>(ctx: &mut Ctx) {
    if !ctx.rng.one_in(4) {
        return;
    }
    let rank = 1 + ctx.rng.below(3);
    let sizes: Vec<usize> = (0..rank)
        .map(|_| {
            if ctx.rng.flip() {
                ctx.rng.pick(&HUGE)
            } else {
                ctx.rng.below(5)
            }
        })
        .collect();
    let n = numel_of(&sizes);
    if may_allocate(n) {
        let what = format!("DynTensor::<{:?}>::try_full_with(&{sizes:?}, ..)", T::DTYPE);
        match ctx.call(what.clone(), || {
            DynTensor::<T>::try_full_with(&sizes, T::at(1)).map(|t| (t.shape().to_vec(), t.numel()))
        }) {
            Some(Ok((s, k))) if s != sizes || Some(k) != n => {
                ctx.fail(format!("{what}: shape {s:?}, numel {k}"))
            }
            Some(Ok(_)) if n.is_none_or(|n| n >= ALLOC_IMPOSSIBLE) => {
                ctx.fail(format!("{what}: Ok with {n:?} elements"))
            }
            Some(Err(e)) if fits(&sizes) && n.is_some_and(|n| n <= ALLOC_MAX) => {
                ctx.fail(format!("{what}: refused ({e})"))
            }
            _ => {}
        }
    }
    let len = ctx.rng.below(3);
    let what = format!(
        "DynTensor::<{:?}>::from_vec(<{len} elements>, &{sizes:?})",
        T::DTYPE
    );
    let got = ctx.call(what.clone(), || {
        DynTensor::<T>::from_vec(vec![T::at(0); len], &sizes).map(|t| t.shape().to_vec())
    });
    match got {
        Some(Ok(s)) if n != Some(len) || s != sizes => ctx.fail(format!("{what}: Ok({s:?})")),
        Some(Err(e)) if n == Some(len) && fits(&sizes) => {
            ctx.fail(format!("{what}: refused ({e})"))
        }
        _ => {}
    }
}

fn case<T: Elem>(ctx: &mut Ctx) {
    constructors::<T>(ctx);
    let shape = base_shape(&mut ctx.rng);
    let numel = numel_of(&shape).unwrap_or(0);
    let data: Vec<T> = (0..numel).map(T::at).collect();
    let what = format!(
        "base = DynTensor::<{:?}>::from_vec(<{numel} elements>, &{shape:?})",
        T::DTYPE
    );
    let base = match ctx.call(what.clone(), || {
        DynTensor::<T>::from_vec(data.clone(), &shape)
    }) {
        Some(Ok(b)) => b,
        Some(Err(e)) => {
            if fits(&shape) {
                ctx.fail(format!("{what}: refused ({e})"));
            }
            return;
        }
        None => return,
    };
    let steps = 4 + ctx.rng.below(12);
    read_chain(ctx, &base, &data, steps, 0);
    mut_case(ctx, &data, &shape);
    T::typed_mut(ctx, &data, &shape);
}

/// A failed case.
struct Failure {
    seed: u64,
    dtype: &'static str,
    message: String,
    chain: Vec<String>,
}

fn run_case(seed: u64, trace: bool, cautious: bool) -> Option<Failure> {
    CURRENT_SEED.store(seed, Ordering::Relaxed);
    let clock = watchdog();
    CASE_STARTED_MS.store(clock.elapsed().as_millis() as u64, Ordering::Relaxed);
    if trace {
        let _ = writeln!(std::io::stderr(), "seed {seed}");
    }
    let mut ctx = Ctx {
        rng: Rng(seed),
        chain: Vec::new(),
        failure: None,
        trace,
        cautious,
    };
    let dtype = ["f32", "i64", "u8", "bool", "complex64"][ctx.rng.below(5)];
    // A panic outside `Ctx::call` is the driver's own (or a library panic in
    // a call the driver did not guard): reported with the seed all the same.
    let outside = panic::catch_unwind(AssertUnwindSafe(|| match dtype {
        "f32" => case::<f32>(&mut ctx),
        "i64" => case::<i64>(&mut ctx),
        "u8" => case::<u8>(&mut ctx),
        "bool" => case::<bool>(&mut ctx),
        _ => case::<C32>(&mut ctx),
    }));
    if let Err(payload) = outside {
        let message = payload_text(payload.as_ref());
        ctx.fail(format!("panicked outside a guarded call: {message}"));
    }
    CASE_STARTED_MS.store(u64::MAX, Ordering::Relaxed);
    let chain = ctx.chain;
    ctx.failure.map(|message| Failure {
        seed,
        dtype,
        message,
        chain,
    })
}

/// A failure's kind: its message with the numbers, the lengths of lists
/// and the flags taken out.
fn signature(message: &str) -> String {
    let mut out = String::new();
    for c in message.chars().take(240) {
        let c = if c.is_ascii_digit() || c == '-' {
            '#'
        } else {
            c
        };
        if !(c == '#' && out.ends_with('#')) {
            out.push(c);
        }
    }
    while out.contains("#, #") {
        out = out.replace("#, #", "#");
    }
    out.replace("true", "#").replace("false", "#")
}

fn env_u64(name: &str) -> Option<u64> {
    std::env::var(name).ok().and_then(|v| v.trim().parse().ok())
}

#[test]
fn random_operation_chains() {
    install_panic_hook();
    install_abort_handler();
    let capped = limit_address_space();
    let trace = std::env::var("SHAPED_DRIVER_TRACE").is_ok_and(|v| v != "0" && !v.is_empty());
    let started = Instant::now();
    let mut failures: Vec<Failure> = Vec::new();
    let mut cases = 0u64;
    let mut run = |seed: u64| {
        cases += 1;
        failures.extend(run_case(seed, trace, !capped));
    };
    let seeds = if let Some(seed) = env_u64("SHAPED_DRIVER_SEED") {
        run(seed);
        format!("seed {seed}")
    } else if let Some(seconds) = env_u64("SHAPED_DRIVER_SECONDS") {
        let first = env_u64("SHAPED_DRIVER_START").unwrap_or_else(|| {
            let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH);
            now.map_or(0, |d| d.as_secs() % 1_000_000 * 1_000_000)
        });
        println!("soundness_driver: seeds from {first} (SHAPED_DRIVER_START={first})");
        let mut seed = first;
        while started.elapsed() < Duration::from_secs(seconds) {
            run(seed);
            seed += 1;
        }
        format!("seeds {first}..{seed}")
    } else {
        let n = env_u64("SHAPED_DRIVER_CASES").unwrap_or(DEFAULT_CASES);
        let first = env_u64("SHAPED_DRIVER_START").unwrap_or(0);
        for seed in first..first + n {
            run(seed);
        }
        format!("seeds {first}..{}", first + n)
    };
    println!(
        "soundness_driver: {cases} cases ({seeds}) in {:.1} s{}",
        started.elapsed().as_secs_f64(),
        if capped {
            ""
        } else {
            " (no address-space cap: unbounded splits skipped)"
        }
    );
    if failures.is_empty() {
        return;
    }
    // One report per kind of failure, with its smallest chain.
    let mut kinds: Vec<(String, Vec<&Failure>)> = Vec::new();
    for f in &failures {
        let s = signature(&f.message);
        match kinds.iter_mut().find(|(k, _)| *k == s) {
            Some((_, list)) => list.push(f),
            None => kinds.push((s, vec![f])),
        }
    }
    let mut report = String::new();
    for (_, list) in &kinds {
        let first = list.iter().min_by_key(|f| f.chain.len()).unwrap();
        let seeds: Vec<u64> = list.iter().take(8).map(|f| f.seed).collect();
        report += &format!(
            "\n{} case(s), seeds {seeds:?}; seed {} ({}): {}\n  calls:\n",
            list.len(),
            first.seed,
            first.dtype,
            first.message
        );
        for c in &first.chain {
            report += &format!("    {c}\n");
        }
    }
    panic!(
        "{} of {cases} cases failed, {} kinds; rerun one with SHAPED_DRIVER_SEED=<seed>\n{report}",
        failures.len(),
        kinds.len()
    );
}
