//! The sets and bins on the CPU: `unique`, `unique_consecutive`,
//! `searchsorted`, `bincount`, `histc`.
//!
//! `unique` of an integer tensor whose values span a small range (at most
//! about twice its length, and under 2^24) is counted, not sorted: a
//! minimum/maximum pass, a histogram per thread (the values in order and
//! their counts fall out of it), and the inverse is a lookup of each
//! element's rank. Any other input sorts its keys with `sort`'s radix sort
//! (`backend/cpu/sort.rs`, [`SortKey`]) and walks the runs. `searchsorted`
//! is PyTorch's binary search, element for element (so NaN and unsorted
//! boundaries give what PyTorch gives), the values shared out across
//! threads; `bincount` and `histc` count per thread and add the counts up
//! (weighted bincount sums in input order, as PyTorch, so its rounding is
//! PyTorch's).

use super::parallel::for_each_piece;
use super::{CpuBuffer, try_vec_with_capacity, with_dense};
use crate::backend::cpu::sort::{SortKey, sorted_keys};
use crate::backend::{Cpu, SetOps, StridedRef, Uniques};
use crate::dtype::Element;
use crate::error::Error;
use core::mem::MaybeUninit;
use half::{bf16, f16};

/// Elements a thread takes at least, for the passes split across threads.
const PIECE: usize = 1 << 15;

/// Element types the set operations take: all but complex (they need an
/// order).
#[diagnostic::on_unimplemented(
    message = "unique and searchsorted need an order: complex numbers have none, `{Self}` has no set operations",
    label = "ordered as `{Self}`",
    note = "PyTorch raises \"\\\"unique\\\" not implemented for 'ComplexFloat'\"; use the real parts (`real()`) or the magnitudes (`abs()`)"
)]
pub trait SetElement: SortKey + PartialOrd + crate::ops::reductions::reducers::Extremum {
    /// Whether the type is an integer type (or bool): small ranges of it
    /// are counted rather than sorted.
    const INTEGRAL: bool;
    /// The element as an integer (integer types; 0 for floats).
    fn to_int(self) -> i64;
    /// The element whose [`to_int`](Self::to_int) is `i`.
    fn from_int(i: i64) -> Self;
}
macro_rules! set_ints {
    ($($t:ty),*) => {$(
        impl SetElement for $t {
            const INTEGRAL: bool = true;
            #[inline(always)]
            fn to_int(self) -> i64 {
                self as i64
            }
            #[inline(always)]
            fn from_int(i: i64) -> Self {
                i as $t
            }
        }
    )*};
}
set_ints!(u8, i8, i16, i32, i64);
impl SetElement for bool {
    const INTEGRAL: bool = true;
    #[inline(always)]
    fn to_int(self) -> i64 {
        i64::from(self)
    }
    #[inline(always)]
    fn from_int(i: i64) -> Self {
        i != 0
    }
}
macro_rules! set_floats {
    ($($t:ty: $from:expr),*) => {$(
        impl SetElement for $t {
            const INTEGRAL: bool = false;
            #[inline(always)]
            fn to_int(self) -> i64 {
                0
            }
            #[inline(always)]
            fn from_int(i: i64) -> Self {
                $from(i as f64)
            }
        }
    )*};
}
set_floats!(f16: f16::from_f64, bf16: bf16::from_f64, f32: |x: f64| x as f32, f64: |x: f64| x);

/// Element types `bincount` counts: the integer types.
#[diagnostic::on_unimplemented(
    message = "bincount counts non-negative integers: `{Self}` is not an integer type",
    label = "counted as `{Self}`",
    note = "PyTorch raises \"\\\"bincount_cpu\\\" not implemented for 'Float'\"; convert with `cast::<i64>()` first"
)]
pub trait BinIndex: SetElement {}
impl BinIndex for u8 {}
impl BinIndex for i8 {}
impl BinIndex for i16 {}
impl BinIndex for i32 {}
impl BinIndex for i64 {}

/// The weights' types `bincount` sums in: `f32` and `f64` (PyTorch sums
/// float32 weights in float32 and every other dtype in float64).
pub trait BinWeight: Element + core::ops::AddAssign + Default {}
impl BinWeight for f32 {}
impl BinWeight for f64 {}

/// Element types `histc` bins: the float types.
#[diagnostic::on_unimplemented(
    message = "histc bins floating-point values: `{Self}` is not a float type",
    label = "binned as `{Self}`",
    note = "PyTorch raises \"\\\"histogram_cpu\\\" not implemented for 'Long'\"; convert with `cast::<f32>()` first"
)]
pub trait HistcElement: SetElement {
    /// The bin of `self` (within `[lo, hi]`) among `bins`, computed as
    /// PyTorch does in the element type: `(x - lo) * bins / (hi - lo)`,
    /// truncated (half types round after each step). A quotient that
    /// overflows to infinity gives bin 0: PyTorch converts it to `i64::MIN`,
    /// and its write at that offset wraps around to the first bin.
    fn bin_of(self, lo: Self, hi: Self, bins: usize) -> usize;
    /// The element nearest `x`.
    fn from_f64(x: f64) -> Self;
    /// The element as an `f64`.
    fn to_f64(self) -> f64;
}
macro_rules! histc_float {
    ($($t:ty),*) => {$(
        impl HistcElement for $t {
            #[inline(always)]
            fn bin_of(self, lo: Self, hi: Self, bins: usize) -> usize {
                let q = (self - lo) * (bins as $t) / (hi - lo);
                // An overflow to infinity: PyTorch's conversion gives
                // i64::MIN, whose write lands on bin 0.
                if q.is_finite() { q as usize } else { 0 }
            }
            fn from_f64(x: f64) -> Self {
                x as $t
            }
            fn to_f64(self) -> f64 {
                self as f64
            }
        }
    )*};
}
histc_float!(f32, f64);
macro_rules! histc_half {
    ($($t:ty),*) => {$(
        impl HistcElement for $t {
            #[inline(always)]
            fn bin_of(self, lo: Self, hi: Self, bins: usize) -> usize {
                let r = |x: f32| <$t>::from_f32(x).to_f32();
                let shifted = r(self.to_f32() - lo.to_f32());
                let scaled = r(shifted * r(bins as f32));
                let q = r(scaled / r(hi.to_f32() - lo.to_f32()));
                // (An overflow lands on bin 0, as above.)
                if q.is_finite() { q as usize } else { 0 }
            }
            fn from_f64(x: f64) -> Self {
                <$t>::from_f64(x)
            }
            fn to_f64(self) -> f64 {
                self.to_f64()
            }
        }
    )*};
}
histc_half!(f16, bf16);

/// A buffer of `len` elements written by `fill` (which writes them all).
fn filled<T: Element>(
    len: usize,
    fill: impl FnOnce(&mut [MaybeUninit<T>]),
) -> Result<CpuBuffer<T>, Error> {
    // SAFETY: every caller's `fill` writes each element of the slice (the
    // pieces it hands out cover it, each written whole).
    unsafe { CpuBuffer::try_new_with(len, fill) }
}

/// The pieces a pass over `n` elements is cut into: about four per thread
/// (at least `PIECE` elements each), so that a thread held up elsewhere
/// does not hold the pass up.
fn piece_len(n: usize) -> usize {
    let threads = rayon::current_num_threads().max(1);
    n.div_ceil(4 * threads).max(PIECE)
}

/// The smallest and largest [`SetElement::to_int`] of the non-empty `xs`.
fn int_range<T: SetElement>(xs: &[T]) -> (i64, i64) {
    let mut pieces: Vec<(&[T], i64, i64)> = xs
        .chunks(piece_len(xs.len()))
        .map(|c| (c, i64::MAX, i64::MIN))
        .collect();
    for_each_piece(pieces.iter_mut().collect(), |_, piece| {
        let (c, lo, hi) = &mut **piece;
        for &x in c.iter() {
            let v = x.to_int();
            *lo = (*lo).min(v);
            *hi = (*hi).max(v);
        }
    });
    pieces
        .iter()
        .fold((i64::MAX, i64::MIN), |(l, h), p| (l.min(p.1), h.max(p.2)))
}

/// Counts of `xs` (each `to_int() - lo` within `0..len`) per thread, added.
fn histogram<T: SetElement>(xs: &[T], lo: i64, len: usize) -> Result<Vec<u64>, Error> {
    let mut pieces = Vec::new();
    for c in xs.chunks(piece_len(xs.len())) {
        let mut h = try_vec_with_capacity::<u64>(len)?;
        h.resize(len, 0);
        pieces.push((c, h));
    }
    for_each_piece(pieces.iter_mut().collect(), |_, piece| {
        let (c, h) = &mut **piece;
        for &x in c.iter() {
            h[(x.to_int() - lo) as usize] += 1;
        }
    });
    let mut pieces = pieces.into_iter().map(|p| p.1);
    let mut total = pieces.next().unwrap_or_default();
    total.resize(len, 0);
    for h in pieces {
        for (t, c) in total.iter_mut().zip(&h) {
            *t += c;
        }
    }
    Ok(total)
}

/// `unique` by counting, when `xs` is of an integer type and its values
/// span a small range; `None` otherwise.
fn counted<T: SetElement>(
    xs: &[T],
    inverse: bool,
    counts: bool,
) -> Result<Option<Uniques<T, Cpu>>, Error> {
    let n = xs.len();
    if !T::INTEGRAL || n == 0 {
        return Ok(None);
    }
    let (lo, hi) = int_range(xs);
    let span = (i128::from(hi) - i128::from(lo)) as u128;
    if span >= 1 << 24 || span > 2 * n as u128 + 1024 {
        return Ok(None);
    }
    let len = span as usize + 1;
    let hist = histogram(xs, lo, len)?;
    let count = hist.iter().filter(|&&c| c > 0).count();
    let mut values = try_vec_with_capacity::<T>(count)?;
    let mut tallies = try_vec_with_capacity::<i64>(if counts { count } else { 0 })?;
    let mut rank = try_vec_with_capacity::<i64>(if inverse { len } else { 0 })?;
    for (k, &c) in hist.iter().enumerate() {
        if inverse {
            rank.push(values.len() as i64);
        }
        if c > 0 {
            values.push(T::from_int(lo + k as i64));
            if counts {
                tallies.push(c as i64);
            }
        }
    }
    let inverse = match inverse {
        false => None,
        true => Some(filled(n, |out| {
            let step = piece_len(n);
            let pieces: Vec<_> = xs.chunks(step).zip(out.chunks_mut(step)).collect();
            for_each_piece(pieces, |_, (c, o)| {
                for (o, &x) in o.iter_mut().zip(c.iter()) {
                    o.write(rank[(x.to_int() - lo) as usize]);
                }
            });
        })?),
    };
    Ok(Some(Uniques {
        values: values.into(),
        count,
        inverse,
        counts: counts.then(|| tallies.into()),
    }))
}

/// The uniques of runs: `starts` are the positions (in `order`, or in `xs`
/// when `order` is `None`) where each run begins.
fn from_runs<T: SetElement>(
    xs: &[T],
    order: Option<&[u32]>,
    starts: &[usize],
    inverse: bool,
    counts: bool,
) -> Result<Uniques<T, Cpu>, Error> {
    let n = xs.len();
    let at = |i: usize| order.map_or(i, |o| o[i] as usize);
    let mut values = try_vec_with_capacity::<T>(starts.len())?;
    values.extend(starts.iter().map(|&s| xs[at(s)]));
    let counts = match counts {
        false => None,
        true => {
            let mut c = try_vec_with_capacity::<i64>(starts.len())?;
            let ends = starts.iter().skip(1).copied().chain([n]);
            c.extend(starts.iter().zip(ends).map(|(&s, e)| (e - s) as i64));
            Some(c.into())
        }
    };
    let inverse = match inverse {
        false => None,
        true => {
            let mut inv = try_vec_with_capacity::<i64>(n)?;
            inv.resize(n, 0);
            let ends = starts.iter().skip(1).copied().chain([n]);
            for (g, (&s, e)) in starts.iter().zip(ends).enumerate() {
                for i in s..e {
                    inv[at(i)] = g as i64;
                }
            }
            Some(inv.into())
        }
    };
    Ok(Uniques {
        values: values.into(),
        count: starts.len(),
        inverse,
        counts,
    })
}

/// Whether `x` is NaN (never equal to itself).
#[inline(always)]
#[allow(clippy::eq_op)]
fn is_nan<T: PartialEq>(x: T) -> bool {
    x != x
}

/// `unique` of the row-major `xs`.
fn unique_flat<T: SetElement>(
    xs: &[T],
    consecutive: bool,
    inverse: bool,
    counts: bool,
) -> Result<Uniques<T, Cpu>, Error> {
    if consecutive {
        let starts: Vec<usize> = (0..xs.len())
            .filter(|&i| i == 0 || xs[i] != xs[i - 1])
            .collect();
        return from_runs(xs, None, &starts, inverse, counts);
    }
    if let Some(u) = counted(xs, inverse, counts)? {
        return Ok(u);
    }
    let (keys, order) = sorted_keys(xs)?;
    let starts: Vec<usize> = (0..xs.len())
        .filter(|&i| i == 0 || keys[i] != keys[i - 1] || is_nan(xs[order[i] as usize]))
        .collect();
    from_runs(xs, Some(&order), &starts, inverse, counts)
}

/// `unique` of the slices along `dim`.
fn unique_slices<T: SetElement>(
    x: StridedRef<'_, T, Cpu>,
    dim: usize,
    consecutive: bool,
    inverse: bool,
    counts: bool,
) -> Result<Uniques<T, Cpu>, Error> {
    // The slices as rows: `dim` moved first (PyTorch's layout).
    let mut sizes = x.sizes.to_vec();
    let mut strides = x.strides.to_vec();
    let (rows, stride) = (sizes.remove(dim), strides.remove(dim));
    sizes.insert(0, rows);
    strides.insert(0, stride);
    let first = StridedRef {
        sizes: &sizes,
        strides: &strides,
        ..x
    };
    let row_len: usize = sizes[1..].iter().product();
    with_dense(first, |data| {
        let row = |r: usize| &data[r * row_len..][..row_len];
        let mut order: Vec<u32> = (0..rows as u32).collect();
        if !consecutive {
            order.sort_by(|&a, &b| {
                let (a, b) = (row(a as usize), row(b as usize));
                a.iter().map(|v| v.key()).cmp(b.iter().map(|v| v.key()))
            });
        }
        let starts: Vec<usize> = (0..rows)
            .filter(|&i| i == 0 || row(order[i] as usize) != row(order[i - 1] as usize))
            .collect();
        let count = starts.len();
        // The chosen rows, one after the other.
        let values = filled(count * row_len, |out| {
            for (j, &s) in starts.iter().enumerate() {
                let dst = &mut out[j * row_len..][..row_len];
                for (d, &v) in dst.iter_mut().zip(row(order[s] as usize)) {
                    d.write(v);
                }
            }
        })?;
        let counts = match counts {
            false => None,
            true => {
                let mut c = try_vec_with_capacity::<i64>(count)?;
                let ends = starts.iter().skip(1).copied().chain([rows]);
                c.extend(starts.iter().zip(ends).map(|(&s, e)| (e - s) as i64));
                Some(c.into())
            }
        };
        let inverse = match inverse {
            false => None,
            true => {
                let mut inv = try_vec_with_capacity::<i64>(rows)?;
                inv.resize(rows, 0);
                let ends = starts.iter().skip(1).copied().chain([rows]);
                for (g, (&s, e)) in starts.iter().zip(ends).enumerate() {
                    for &r in &order[s..e] {
                        inv[r as usize] = g as i64;
                    }
                }
                Some(inv.into())
            }
        };
        Ok(Uniques {
            values,
            count,
            inverse,
            counts,
        })
    })
}

/// PyTorch's binary search of `v` in `line` (through `sorter`): the first
/// position whose element is not below (`right`: not at most) `v`.
#[inline(always)]
#[allow(clippy::neg_cmp_op_on_partial_ord)] // (PyTorch's test, NaN included)
fn search<T: PartialOrd + Copy>(line: &[T], sorter: Option<&[i64]>, v: T, right: bool) -> i64 {
    let (mut start, mut end) = (0usize, line.len());
    while start < end {
        let mid = start + ((end - start) >> 1);
        let m = match sorter {
            Some(s) => line[s[mid] as usize],
            None => line[mid],
        };
        let past = if right { !(m > v) } else { !(m >= v) };
        if past {
            start = mid + 1;
        } else {
            end = mid;
        }
    }
    start as i64
}

/// How many searches [`search_lanes`] runs side by side.
const LANES: usize = 8;

/// [`search`] of `LANES` values at once, each in its own line (through its
/// own sorter), each taking exactly `search`'s steps: one search is a chain
/// of dependent loads, and side by side their loads overlap.
#[inline(always)]
#[allow(clippy::neg_cmp_op_on_partial_ord)] // (PyTorch's test, NaN included)
fn search_lanes<T: PartialOrd + Copy>(
    lanes: &[(&[T], Option<&[i64]>); LANES],
    values: &[T],
    right: bool,
) -> [i64; LANES] {
    let mut start = [0usize; LANES];
    let mut end: [usize; LANES] = core::array::from_fn(|j| lanes[j].0.len());
    loop {
        let mut active = false;
        for j in 0..LANES {
            if start[j] < end[j] {
                active = true;
                let mid = start[j] + ((end[j] - start[j]) >> 1);
                let (line, sorter) = lanes[j];
                let m = match sorter {
                    Some(s) => line[s[mid] as usize],
                    None => line[mid],
                };
                let v = values[j];
                let past = if right { !(m > v) } else { !(m >= v) };
                // (Selects, not branches: the outcome is a coin toss.)
                start[j] = if past { mid + 1 } else { start[j] };
                end[j] = if past { end[j] } else { mid };
            }
        }
        if !active {
            return start.map(|s| s as i64);
        }
    }
}

/// The dense row-major elements of `x`, as a `Vec` when they must be copied.
fn dense_copy<T: Element>(x: StridedRef<'_, T, Cpu>) -> Result<Vec<T>, Error> {
    with_dense(x, |xs| {
        let mut v = try_vec_with_capacity(xs.len())?;
        v.extend_from_slice(xs);
        Ok(v)
    })
}

impl SetOps for Cpu {
    fn unique<T: SetElement>(
        x: StridedRef<'_, T, Cpu>,
        consecutive: bool,
        inverse: bool,
        counts: bool,
    ) -> Result<Uniques<T, Cpu>, Error> {
        with_dense(x, |xs| unique_flat(xs, consecutive, inverse, counts))
    }

    fn unique_dim<T: SetElement>(
        x: StridedRef<'_, T, Cpu>,
        dim: usize,
        consecutive: bool,
        inverse: bool,
        counts: bool,
    ) -> Result<Uniques<T, Cpu>, Error> {
        unique_slices(x, dim, consecutive, inverse, counts)
    }

    fn searchsorted<T: SetElement>(
        boundaries: StridedRef<'_, T, Cpu>,
        values: StridedRef<'_, T, Cpu>,
        sorter: Option<StridedRef<'_, i64, Cpu>>,
        right: bool,
    ) -> Result<CpuBuffer<i64>, Error> {
        let line = boundaries.sizes.last().copied().unwrap_or(1);
        let per_line = match boundaries.sizes.len() {
            0 | 1 => usize::MAX,
            _ => values.sizes.last().copied().unwrap_or(1).max(1),
        };
        let sorter = sorter.map(dense_copy).transpose()?;
        if let Some(s) = &sorter
            && s.iter().any(|&i| i < 0 || i >= line as i64)
        {
            return Err(Error::Unsupported {
                message: "torch.searchsorted(): sorter index out of range",
            });
        }
        with_dense(boundaries, |bs| {
            with_dense(values, |vs| {
                let n = vs.len();
                filled(n, |out| {
                    let step = piece_len(n);
                    let pieces: Vec<_> = out.chunks_mut(step).enumerate().collect();
                    for_each_piece(pieces, |_, (p, o)| {
                        let base = *p * step;
                        let lane_of = |i: usize| {
                            let l = if per_line == usize::MAX {
                                0
                            } else {
                                i / per_line
                            };
                            let ls = &bs[l * line..][..line];
                            (ls, sorter.as_deref().map(|s| &s[l * line..][..line]))
                        };
                        let done = o.len() / LANES * LANES;
                        let (head, tail) = o.split_at_mut(done);
                        for (c, out) in head.chunks_exact_mut(LANES).enumerate() {
                            let first = base + c * LANES;
                            let lanes: [_; LANES] = core::array::from_fn(|j| lane_of(first + j));
                            let found = search_lanes(&lanes, &vs[first..][..LANES], right);
                            for (o, f) in out.iter_mut().zip(found) {
                                o.write(f);
                            }
                        }
                        for (k, o) in tail.iter_mut().enumerate() {
                            let (ls, ss) = lane_of(base + done + k);
                            o.write(search(ls, ss, vs[base + done + k], right));
                        }
                    });
                })
            })
        })
    }

    fn bincount<T: BinIndex>(
        x: StridedRef<'_, T, Cpu>,
        minlength: usize,
    ) -> Result<(CpuBuffer<i64>, usize), Error> {
        with_dense(x, |xs| {
            if let Some(counts) = counted_in_one_pass(xs, minlength)? {
                let bins = counts.len();
                return Ok((counts.into(), bins));
            }
            let bins = bins_of(xs, minlength)?;
            let mut out = try_vec_with_capacity::<i64>(bins)?;
            out.resize(bins, 0);
            for &x in xs {
                out[x.to_int() as usize] += 1;
            }
            Ok((out.into(), bins))
        })
    }

    fn bincount_weighted<T: BinIndex, W: BinWeight>(
        x: StridedRef<'_, T, Cpu>,
        weights: StridedRef<'_, W, Cpu>,
        minlength: usize,
    ) -> Result<(CpuBuffer<W>, usize), Error> {
        with_dense(x, |xs| {
            with_dense(weights, |ws| {
                let bins = bins_of(xs, minlength)?;
                let mut out = try_vec_with_capacity::<W>(bins)?;
                out.resize(bins, W::default());
                for (&x, &w) in xs.iter().zip(ws) {
                    out[x.to_int() as usize] += w;
                }
                Ok((out.into(), bins))
            })
        })
    }

    fn extremes<T: SetElement>(x: StridedRef<'_, T, Cpu>) -> Result<Option<(T, T)>, Error> {
        with_dense(x, |xs| {
            let Some(&first) = xs.first() else {
                return Ok(None);
            };
            let (mut lo, mut hi) = (first, first);
            for &v in xs {
                if is_nan(v) {
                    return Ok(Some((v, v)));
                }
                if v < lo {
                    lo = v;
                }
                if v > hi {
                    hi = v;
                }
            }
            Ok(Some((lo, hi)))
        })
    }

    fn histc<T: HistcElement>(
        x: StridedRef<'_, T, Cpu>,
        bins: usize,
        min: T,
        max: T,
    ) -> Result<CpuBuffer<T>, Error> {
        with_dense(x, |xs| {
            let mut pieces = Vec::new();
            for c in xs.chunks(piece_len(xs.len())) {
                let mut h = try_vec_with_capacity::<u64>(bins)?;
                h.resize(bins, 0);
                pieces.push((c, h));
            }
            for_each_piece(pieces.iter_mut().collect(), |_, piece| {
                let (c, h) = &mut **piece;
                for &v in c.iter() {
                    if v >= min && v <= max {
                        h[v.bin_of(min, max, bins).min(bins - 1)] += 1;
                    }
                }
            });
            let mut total = try_vec_with_capacity::<T>(bins)?;
            total.extend(
                (0..bins).map(|b| T::from_f64(pieces.iter().map(|p| p.1[b]).sum::<u64>() as f64)),
            );
            Ok(total.into())
        })
    }
}

/// Values below this are counted in one pass, each thread's counts
/// growing to the largest value it meets.
const ONE_PASS_LIMIT: i64 = 1 << 22;

/// `bincount` of `xs` in one pass over memory (no minimum/maximum pass
/// first), when its elements are below [`ONE_PASS_LIMIT`] and at most
/// about twice its length; `None` otherwise (or for few elements). `Err`
/// for a negative element.
fn counted_in_one_pass<T: BinIndex>(xs: &[T], minlength: usize) -> Result<Option<Vec<i64>>, Error> {
    if xs.len() < PIECE {
        return Ok(None);
    }
    let limit = ONE_PASS_LIMIT.min(2 * xs.len() as i64 + 1024);
    // Each piece: its elements, its counts, and whether it met a negative
    // element or one at or above the limit.
    let mut pieces: Vec<(&[T], Vec<i64>, bool, bool)> = xs
        .chunks(piece_len(xs.len()))
        .map(|c| (c, Vec::new(), false, false))
        .collect();
    for_each_piece(pieces.iter_mut().collect(), |_, piece| {
        let (c, counts, negative, large) = &mut **piece;
        for &x in c.iter() {
            let v = x.to_int();
            if v < 0 || v >= limit {
                *negative |= v < 0;
                *large |= v >= limit;
                return;
            }
            let v = v as usize;
            if v >= counts.len() {
                if counts.try_reserve(v + 1 - counts.len()).is_err() {
                    *large = true;
                    return;
                }
                counts.resize(v + 1, 0);
            }
            counts[v] += 1;
        }
    });
    if pieces.iter().any(|p| p.2) {
        return Err(Error::Unsupported {
            message: "bincount only supports 1-d non-negative integral inputs.",
        });
    }
    if pieces.iter().any(|p| p.3) {
        return Ok(None);
    }
    let bins = pieces
        .iter()
        .map(|p| p.1.len())
        .max()
        .unwrap_or(0)
        .max(minlength);
    let mut total = try_vec_with_capacity::<i64>(bins)?;
    total.resize(bins, 0);
    for (_, counts, _, _) in &pieces {
        for (t, c) in total.iter_mut().zip(counts) {
            *t += c;
        }
    }
    Ok(Some(total))
}

/// `bincount`'s bin count: the larger of `minlength` and the maximum of
/// the non-empty `xs` plus one; `Err` (PyTorch's text) for a negative
/// element.
fn bins_of<T: BinIndex>(xs: &[T], minlength: usize) -> Result<usize, Error> {
    if xs.is_empty() {
        return Ok(minlength);
    }
    let (lo, hi) = int_range(xs);
    if lo < 0 {
        return Err(Error::Unsupported {
            message: "bincount only supports 1-d non-negative integral inputs.",
        });
    }
    Ok((hi as usize + 1).max(minlength))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_binary_search_is_pytorchs() {
        let line = [1.0f32, 2.0, 2.0, 3.0, f32::NAN];
        assert_eq!(search(&line, None, 2.0, false), 1);
        // (The NaN at the end is not above 2 for `>`: PyTorch gives 5 too.)
        assert_eq!(search(&line, None, 2.0, true), 5);
        assert_eq!(search(&line[..4], None, 2.0, true), 3);
        assert_eq!(search(&line, None, f32::NAN, false), 5);
        let sorter = [1i64, 2, 0];
        assert_eq!(search(&[3, 1, 2], Some(&sorter), 2, false), 1);
    }

    #[test]
    fn searches_side_by_side_take_the_same_steps() {
        // Unsorted lines with NaNs, repeats and lines of every length up to
        // 9: any other sequence of probes would give other answers.
        let data: Vec<f32> = (0..200)
            .map(|i| match i % 17 {
                3 => f32::NAN,
                5 => 2.0,
                _ => ((i * 7919) % 23) as f32 * 0.5,
            })
            .collect();
        let sorter: Vec<i64> = (0..200).map(|i| (i * 5) % 9).collect();
        for len in 0..=9 {
            for right in [false, true] {
                for offset in 0..20 {
                    let lanes: [(&[f32], Option<&[i64]>); LANES] = core::array::from_fn(|j| {
                        let at = offset * 9 + j;
                        let s = (len == 9 && j % 2 == 0).then(|| &sorter[at..][..len]);
                        (&data[at..][..len], s)
                    });
                    let values: Vec<f32> = (0..LANES).map(|j| data[offset + j * 3]).collect();
                    let got = search_lanes(&lanes, &values, right);
                    for j in 0..LANES {
                        let want = search(lanes[j].0, lanes[j].1, values[j], right);
                        assert_eq!(got[j], want, "len {len} lane {j} right {right}");
                    }
                }
            }
        }
    }

    #[test]
    fn one_pass_bincount_is_the_loop() {
        let xs: Vec<i32> = (0..200_000).map(|i| (i * 7919) % 70_001).collect();
        let counts = counted_in_one_pass(&xs, 5).unwrap().expect("a small range");
        let mut want = vec![0i64; 70_001];
        for &x in &xs {
            want[x as usize] += 1;
        }
        assert_eq!(counts, want);
        let mut negative = xs.clone();
        negative[150_000] = -1;
        assert!(counted_in_one_pass(&negative, 0).is_err());
        let mut wide = xs;
        wide[3] = 1 << 30;
        assert_eq!(counted_in_one_pass(&wide, 0).unwrap(), None);
    }

    #[test]
    fn counting_and_sorting_agree() {
        let xs: Vec<i64> = (0..5000).map(|i| (i * 7919) % 300 - 40).collect();
        let a = counted(&xs, true, true).unwrap().expect("a small range");
        let (keys, order) = sorted_keys(&xs).unwrap();
        let starts: Vec<usize> = (0..xs.len())
            .filter(|&i| i == 0 || keys[i] != keys[i - 1])
            .collect();
        let b = from_runs(&xs, Some(&order), &starts, true, true).unwrap();
        assert_eq!(a.count, b.count);
        assert_eq!(a.values.as_slice(), b.values.as_slice());
        let (ai, bi) = (a.inverse.unwrap(), b.inverse.unwrap());
        assert_eq!(ai.as_slice(), bi.as_slice());
        assert_eq!(a.counts.unwrap().as_slice(), b.counts.unwrap().as_slice());
    }
}
