//! `kthvalue`, `median`, `nanmedian`, `mode` and the quantiles on the CPU.
//!
//! Elements are compared by the keys of [`SortKey`], whose unsigned order
//! is PyTorch's (NaN above every number, `-0.0` equal to `0.0`). The
//! selections pick the element at place `k` of the line's stable
//! ascending order, as sorting would: the `k`-th smallest key by a
//! selection on the keys alone (`select_nth_unstable`, linear time), then,
//! among the elements with that key, the occurrence the smaller places
//! leave (PyTorch leaves that index unspecified). `mode` and the quantiles
//! sort the line with `sort`'s radix sort. Values are the input's own
//! elements (read at the chosen position), so `-0.0` and NaN payloads
//! stay. Lines are shared out across the threads.

use super::parallel::for_each_piece;
use super::sort::{RadixKey, Scratch, SortKey, sort_line};
use crate::backend::cpu::CpuBuffer;
use crate::backend::{Cpu, StridedRef};
use crate::error::Error;
use core::mem::MaybeUninit;

/// Elements per piece of work handed to one thread (at least one line).
const PIECE: usize = 1 << 15;

/// What `select` takes from each line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Statistic {
    /// The element at place `k` (from 0) of the ascending order.
    Kth(usize),
    /// The lower median; NaN (the first one) when the line holds any.
    Median,
    /// The lower median of the numbers, NaNs left out (the first NaN when
    /// every element is one).
    NanMedian,
    /// The most frequent value (the smallest of the most frequent ones),
    /// at its last position.
    Mode,
}

/// How a quantile between two elements is taken (PyTorch's
/// `interpolation`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Interpolation {
    /// `below + (above - below) * fraction` (the default).
    #[default]
    Linear,
    /// The element below.
    Lower,
    /// The element above.
    Higher,
    /// Halfway between the two.
    Midpoint,
    /// The nearer one (a rank halfway rounds to the even one).
    Nearest,
}

/// Float element types the quantiles take: `f32` and `f64` (PyTorch's
/// rule); their `lerp` is PyTorch's.
#[diagnostic::on_unimplemented(
    message = "quantile needs a float32 or float64 tensor, not `{Self}`",
    label = "a tensor of `{Self}`",
    note = "PyTorch raises \"quantile() input tensor must be either float or double dtype\"; `cast::<f32>()` first"
)]
pub trait QuantileFloat: SortKey {
    /// PyTorch's `lerp(below, above, weight)`: from `below` for a small
    /// weight, from `above` for a large one, in this type's arithmetic
    /// with fused multiply-adds.
    fn lerp(below: Self, above: Self, weight: f64) -> Self;
    /// `q` rounded to this type, as a float64 (PyTorch turns `q` into a
    /// tensor of the input's dtype).
    fn round_q(q: f64) -> f64;
}
macro_rules! quantile_floats {
    ($($t:ty),*) => {$(
        impl QuantileFloat for $t {
            #[inline]
            fn lerp(below: $t, above: $t, weight: f64) -> $t {
                // (One rounding per step, as PyTorch's vectorized kernel
                // with its fused multiply-adds.)
                let w = weight as $t;
                if w.abs() < 0.5 {
                    w.mul_add(above - below, below)
                } else {
                    (below - above).mul_add(1.0 - w, above)
                }
            }
            #[inline]
            fn round_q(q: f64) -> f64 {
                q as $t as f64
            }
        }
    )*};
}
quantile_floats!(f32, f64);

/// Whether `v` is a NaN (an element unequal to itself).
#[inline]
#[allow(clippy::eq_op)]
fn is_nan<T: SortKey>(v: T) -> bool {
    v != v
}

/// Lines longer than this select through a histogram of their keys' top
/// 16 bits first.
const HISTOGRAM_SELECT: usize = 1 << 16;

/// The digit of `key` a long line's histogram counts: its top 16 bits (its
/// only byte for one-byte keys).
#[inline(always)]
fn top_digit<K: RadixKey>(key: K) -> usize {
    match K::BYTES {
        1 => key.byte(0),
        b => (key.byte(b - 1) << 8) | key.byte(b - 2),
    }
}

/// The position in `line` of the element at place `k` of its stable
/// ascending order: the `k`-th smallest key (a selection on the keys
/// alone; for a long line, only on the keys of the histogram bucket that
/// holds place `k`), then, of the elements with that key, the one the
/// places below `k` leave.
fn nth_position<T: SortKey>(line: &[T], k: usize, keys: &mut Vec<T::Key>) -> Result<usize, Error> {
    let (kth, smaller) = if line.len() > HISTOGRAM_SELECT {
        let mut counts = vec![0usize; 1 << 16];
        for &v in line {
            counts[top_digit(v.key())] += 1;
        }
        let (mut below, mut digit) = (0, 0);
        while below + counts[digit] <= k {
            below += counts[digit];
            digit += 1;
        }
        keys.clear();
        keys.try_reserve_exact(counts[digit])
            .map_err(|_| Error::NumelOverflow)?;
        keys.extend(
            line.iter()
                .map(|&v| v.key())
                .filter(|&key| top_digit(key) == digit),
        );
        let (lower, &mut kth, _) = keys.select_nth_unstable(k - below);
        (kth, below + lower.iter().filter(|&&key| key < kth).count())
    } else {
        keys.clear();
        keys.try_reserve_exact(line.len())
            .map_err(|_| Error::NumelOverflow)?;
        keys.extend(line.iter().map(|&v| v.key()));
        let (lower, &mut kth, _) = keys.select_nth_unstable(k);
        (kth, lower.iter().filter(|&&key| key < kth).count())
    };
    Ok(line
        .iter()
        .enumerate()
        .filter(|&(_, &v)| v.key() == kth)
        .nth(k - smaller)
        .expect("the k-th key occurs k - smaller times or more")
        .0)
}

/// The position of line's statistic (`line` not empty).
fn pick<T: SortKey>(
    line: &[T],
    stat: Statistic,
    scratch: &mut Scratch<T::Key>,
) -> Result<usize, Error> {
    match stat {
        Statistic::Kth(k) => nth_position(line, k, &mut scratch.spare_keys),
        Statistic::Median => match line.iter().position(|&v| is_nan(v)) {
            Some(first_nan) => Ok(first_nan),
            None => nth_position(line, (line.len() - 1) / 2, &mut scratch.spare_keys),
        },
        Statistic::NanMedian => {
            let numbers = line.iter().filter(|&&v| !is_nan(v)).count();
            match numbers {
                0 => Ok(0),
                // NaN's key is the largest: the numbers come first.
                m => nth_position(line, (m - 1) / 2, &mut scratch.spare_keys),
            }
        }
        Statistic::Mode => {
            scratch.fit(line.len())?;
            sort_line(line, false, scratch);
            let (keys, order) = (&scratch.keys, &scratch.order);
            let (mut best, mut best_count) = (0, 0);
            let mut start = 0;
            while start < keys.len() {
                let key = keys[start];
                let end = start + keys[start..].partition_point(|&k| k == key);
                if end - start > best_count {
                    // (Stable: the last of equal keys is the last position.)
                    (best, best_count) = (order[end - 1] as usize, end - start);
                }
                start = end;
            }
            Ok(best)
        }
    }
}

/// Lines of `n` of the contiguous `xs`, `m` outputs each, in pieces for
/// the threads: `(lines, values, indices)`.
type Piece<'a, T> = (
    &'a [T],
    &'a mut [MaybeUninit<T>],
    &'a mut [MaybeUninit<i64>],
);

/// Runs `per_line` on each line of `n` elements of `xs` (not empty) with
/// its `m` values and indices to write, across the threads; the first
/// error (a scratch allocation) is returned.
fn each_line<T: SortKey>(
    xs: &[T],
    n: usize,
    m: usize,
    values: &mut [MaybeUninit<T>],
    indices: &mut [MaybeUninit<i64>],
    per_line: impl Fn(
        &[T],
        &mut [MaybeUninit<T>],
        &mut [MaybeUninit<i64>],
        &mut Scratch<T::Key>,
    ) -> Result<(), Error>
    + Sync,
) -> Result<(), Error> {
    let lines_per_piece = (PIECE / n.max(1)).max(1);
    let mut index_chunks: Box<dyn Iterator<Item = &mut [MaybeUninit<i64>]>> =
        match indices.is_empty() {
            true => Box::new(core::iter::repeat_with(<&mut [MaybeUninit<i64>]>::default)),
            false => Box::new(indices.chunks_mut(lines_per_piece * m)),
        };
    let mut pieces: Vec<Piece<'_, T>> = Vec::new();
    for (x, v) in xs
        .chunks(lines_per_piece * n)
        .zip(values.chunks_mut(lines_per_piece * m))
    {
        pieces.push((x, v, index_chunks.next().expect("one per piece")));
    }
    let failed = std::sync::Mutex::new(None);
    for_each_piece(pieces, |_, (x, v, i)| {
        let mut scratch = match Scratch::new(0) {
            Ok(s) => s,
            Err(e) => {
                *failed
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner) = Some(e);
                return;
            }
        };
        for (l, line) in x.chunks_exact(n).enumerate() {
            let idx = match i.is_empty() {
                true => &mut [][..],
                false => &mut i[l * m..][..m],
            };
            if let Err(e) = per_line(line, &mut v[l * m..][..m], idx, &mut scratch) {
                *failed
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner) = Some(e);
                return;
            }
        }
    });
    match failed
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
    {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// `x` with `dim` moved last, as a contiguous slice for `f` (a copy where
/// it is not), and the size of `dim`.
fn lines_of<T: SortKey, R>(
    x: StridedRef<'_, T, Cpu>,
    dim: usize,
    f: impl FnOnce(&[T], usize) -> Result<R, Error>,
) -> Result<R, Error> {
    let n = x.sizes[dim];
    if u32::try_from(n).is_err() {
        return Err(Error::Unsupported {
            message: "order statistics: a line of 2^32 elements or more",
        });
    }
    let (sizes, strides) = super::sort::dim_last(x.sizes, x.strides, dim);
    let last = StridedRef {
        sizes: &sizes,
        strides: &strides,
        ..x
    };
    super::with_dense(last, |xs| f(xs, n))
}

/// The statistic of each line of `x` (rank 1 or more) along `dim`: its
/// value and position, one per line, in the order of the lines (`x`'s
/// other dims, row-major). Lines of no element (the median of an empty
/// tensor) give NaN (converted to `T`) at position 0.
pub(crate) fn select<T: SortKey>(
    x: StridedRef<'_, T, Cpu>,
    dim: usize,
    stat: Statistic,
) -> Result<(CpuBuffer<T>, CpuBuffer<i64>), Error> {
    let lines: usize = x
        .sizes
        .iter()
        .enumerate()
        .filter(|&(d, _)| d != dim)
        .map(|(_, &s)| s)
        .product();
    let n = x.sizes[dim];
    lines_of(x, dim, |xs, _| {
        let mut values = None;
        // SAFETY: with lines of elements `each_line` calls `per_line` once
        // for each line, which writes its one value and one index; lines
        // of none are each written below; the lines cover both buffers.
        let indices = unsafe {
            CpuBuffer::try_new_fallible(lines, |indices| {
                values = Some(CpuBuffer::try_new_fallible(lines, |vals| {
                    if n == 0 {
                        for (v, i) in vals.iter_mut().zip(indices.iter_mut()) {
                            v.write(T::convert_from(f64::NAN));
                            i.write(0);
                        }
                        return Ok(());
                    }
                    if lines == 0 {
                        return Ok(());
                    }
                    each_line(xs, n, 1, vals, indices, |line, v, i, scratch| {
                        let at = pick(line, stat, scratch)?;
                        v[0].write(line[at]);
                        i[0].write(at as i64);
                        Ok(())
                    })
                })?);
                Ok(())
            })
        }?;
        Ok((values.expect("the indices' fill made the values"), indices))
    })
}

/// The quantiles `q` (each in [0, 1], already rounded to `T`) of each
/// line of `x` (rank 1 or more, not empty) along `dim`: `q.len()` values
/// per line, laid out `[lines, q]` row-major. With `ignore_nan` the NaNs
/// are left out (a line of NaNs gives NaN); else a line holding NaN gives
/// NaN.
pub(crate) fn quantiles<T: QuantileFloat>(
    x: StridedRef<'_, T, Cpu>,
    dim: usize,
    q: &[f64],
    interpolation: Interpolation,
    ignore_nan: bool,
) -> Result<CpuBuffer<T>, Error> {
    lines_of(x, dim, |xs, n| {
        let total = xs
            .len()
            .checked_div(n)
            .unwrap_or(0)
            .checked_mul(q.len())
            .ok_or(Error::NumelOverflow)?;
        // SAFETY: each line writes its `q.len()` values, and the lines
        // cover the buffer; with no line (or no `q`) it is empty.
        unsafe {
            CpuBuffer::try_new_fallible(total, |out| {
                if total == 0 {
                    return Ok(());
                }
                each_line(xs, n, q.len(), out, &mut [], |line, out, _, scratch| {
                    scratch.fit(line.len())?;
                    sort_line(line, false, scratch);
                    let order = &scratch.order;
                    let numbers = match line.iter().any(|&v| is_nan(v)) {
                        false => n,
                        true => line.iter().filter(|&&v| !is_nan(v)).count(),
                    };
                    for (o, &q) in out.iter_mut().zip(q) {
                        let rank = match (ignore_nan, numbers < n) {
                            (true, _) => (q * (numbers as f64 - 1.0)).max(0.0),
                            // A NaN: the last place, which holds one.
                            (false, true) => (n - 1) as f64,
                            (false, false) => q * (n - 1) as f64,
                        };
                        let rank = match interpolation {
                            Interpolation::Lower => rank.floor(),
                            Interpolation::Higher => rank.ceil(),
                            Interpolation::Nearest => rank.round_ties_even(),
                            Interpolation::Linear | Interpolation::Midpoint => rank,
                        };
                        let below_at = rank as usize;
                        let below = line[order[below_at] as usize];
                        let value = match interpolation {
                            Interpolation::Linear | Interpolation::Midpoint => {
                                let above = line[order[rank.ceil() as usize] as usize];
                                let weight = match interpolation {
                                    Interpolation::Midpoint => 0.5,
                                    _ => rank - below_at as f64,
                                };
                                T::lerp(below, above, weight)
                            }
                            _ => below,
                        };
                        o.write(value);
                    }
                    Ok(())
                })
            })
        }
    })
}

impl crate::backend::OrderStatistics for Cpu {
    fn order_statistic<T: SortKey>(
        x: StridedRef<'_, T, Cpu>,
        dim: usize,
        stat: Statistic,
    ) -> Result<(CpuBuffer<T>, CpuBuffer<i64>), Error> {
        select(x, dim, stat)
    }

    fn quantiles<T: QuantileFloat>(
        x: StridedRef<'_, T, Cpu>,
        dim: usize,
        q: &[f64],
        interpolation: Interpolation,
        ignore_nan: bool,
    ) -> Result<CpuBuffer<T>, Error> {
        quantiles(x, dim, q, interpolation, ignore_nan)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The histogram path of long lines picks what a stable sort puts at
    /// place `k`: ties (few distinct values), NaNs, both zeros.
    #[test]
    fn long_lines_select_the_stable_orders_element() {
        let n = HISTOGRAM_SELECT * 2 + 7;
        let line: Vec<f32> = (0..n)
            .map(|i| match (i * 7919) % 23 {
                0 => f32::NAN,
                1 => -0.0,
                2 => 0.0,
                r => (r as f32 - 12.0) * 0.25,
            })
            .collect();
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by_key(|&i| line[i].key());
        let mut keys = Vec::new();
        for k in [0, 1, n / 3, n / 2, n - 2, n - 1] {
            assert_eq!(
                nth_position(&line, k, &mut keys).unwrap(),
                order[k],
                "k = {k}"
            );
        }
        let ints: Vec<u8> = (0..n).map(|i| (i % 5) as u8).collect();
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by_key(|&i| ints[i]);
        let mut keys = Vec::new();
        assert_eq!(nth_position(&ints, n / 2, &mut keys).unwrap(), order[n / 2]);
    }
}
