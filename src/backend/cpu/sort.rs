//! `sort` and `argsort` on the CPU: a stable least-significant-digit radix
//! sort of each line, on keys whose unsigned order is PyTorch's order.
//!
//! Each element becomes a key ([`SortKey`]): integers with their sign bit
//! flipped, floats by their bits (negative ones inverted) with `-0.0` taken
//! as `0.0` and every NaN as the largest key, so that equal values (and
//! NaNs) keep their order: a stable sort, as PyTorch's `stable=True` (its
//! default sort is stable on the CPU too). Descending order sorts the
//! inverted keys, which keeps equal values in their order as PyTorch does.
//! The values written are the input's own elements: read back from the
//! sorted keys (in order, without a gather), or, for the zeros and NaNs
//! whose key stands for several, picked by the sorted indices (`-0.0` and
//! NaN payloads stay).
//!
//! A line is sorted a byte at a time (a counting pass, then a scatter per
//! byte; bytes where every key agrees are skipped); lines of up to
//! `SHORT` (32) elements by insertion; lines longer than `IN_CACHE` (65,536) are
//! first split by their highest byte that differs (one pass over memory),
//! and each bucket sorted by the lower bytes the same way, until it is
//! small enough for the L2 cache. A
//! line along another dim than the last is first copied to the last place
//! (the engine's tiled copy); the results stay there, for the front-end to
//! lay out as PyTorch does. Many lines are shared out across threads; one
//! long line's buckets are.

use super::parallel::for_each_piece;
use crate::backend::cpu::{CpuBuffer, try_vec_with_capacity};
use crate::backend::{Cpu, StridedRef};
use crate::dtype::Element;
use crate::error::Error;
use core::mem::MaybeUninit;

/// Lines of at most this many elements are sorted by insertion.
const SHORT: usize = 32;
/// Elements per piece of work handed to one thread (at least one line).
const PIECE: usize = 1 << 16;
/// A line this long sorts its buckets on several threads.
const SPLIT: usize = 1 << 20;
/// `topk` with `k` up to this keeps its best in order in one pass (else a
/// selection, then a sort of the `k`).
const STREAMED: usize = 64;

/// Unsigned keys sorted a byte at a time.
pub trait RadixKey: Copy + Ord + Send + Sync + 'static {
    /// Bytes in the key.
    const BYTES: usize;
    /// The zero key.
    const ZERO: Self;
    /// Byte `b` (0: the least significant).
    fn byte(self, b: usize) -> usize;
    /// The key of the reversed order.
    fn invert(self) -> Self;
}
macro_rules! radix_key {
    ($($k:ty),*) => {$(
        impl RadixKey for $k {
            const BYTES: usize = size_of::<$k>();
            const ZERO: Self = 0;
            #[inline(always)]
            fn byte(self, b: usize) -> usize {
                ((self >> (8 * b)) & 0xff) as usize
            }
            #[inline(always)]
            fn invert(self) -> Self {
                !self
            }
        }
    )*};
}
radix_key!(u8, u16, u32, u64);

/// Element types `sort` takes: all but complex. The key's unsigned order is
/// PyTorch's: NaN above everything, `-0.0` equal to `0.0`.
#[diagnostic::on_unimplemented(
    message = "sort needs an order: complex numbers have none, `{Self}` cannot be sorted",
    label = "sorted as `{Self}`",
    note = "PyTorch raises \"Sort does not support complex dtypes on CPU\"; sort the real parts (`real()`) or the magnitudes (`abs()`)"
)]
pub trait SortKey: Element {
    /// The key type.
    type Key: RadixKey;
    /// The element's key.
    fn key(self) -> Self::Key;
    /// The element of `key`, unless the key stands for several (the
    /// zeros' and the NaNs' of a float): `None`.
    fn from_key(key: Self::Key) -> Option<Self>;
}
macro_rules! int_keys {
    ($($t:ty => $k:ty, $flip:expr;)*) => {$(
        impl SortKey for $t {
            type Key = $k;
            #[inline(always)]
            fn key(self) -> $k {
                (self as $k) ^ $flip
            }
            #[inline(always)]
            fn from_key(key: $k) -> Option<$t> {
                Some((key ^ $flip) as $t)
            }
        }
    )*};
}
int_keys! {
    u8 => u8, 0;
    i8 => u8, 0x80;
    i16 => u16, 0x8000;
    i32 => u32, 0x8000_0000;
    i64 => u64, 1 << 63;
}
impl SortKey for bool {
    type Key = u8;
    #[inline(always)]
    fn key(self) -> u8 {
        u8::from(self)
    }
    #[inline(always)]
    fn from_key(key: u8) -> Option<bool> {
        Some(key != 0)
    }
}
macro_rules! float_keys {
    ($($t:ty => $k:ty, |$x:ident| $bits:expr, $nan:expr, $zero:expr, |$b:ident| $from:expr;)*) => {$(
        impl SortKey for $t {
            type Key = $k;
            #[inline(always)]
            fn key(self) -> $k {
                let $x = self;
                if $nan {
                    return <$k>::MAX;
                }
                let sign = 1 << (8 * size_of::<$k>() - 1);
                let bits: $k = if $zero { 0 } else { $bits };
                if bits & sign != 0 { !bits } else { bits | sign }
            }
            #[inline(always)]
            fn from_key(key: $k) -> Option<$t> {
                let sign: $k = 1 << (8 * size_of::<$k>() - 1);
                if key == <$k>::MAX || key == sign {
                    return None; // any NaN; either zero
                }
                let $b: $k = if key & sign != 0 { key & !sign } else { !key };
                Some($from)
            }
        }
    )*};
}
float_keys! {
    f32 => u32, |x| x.to_bits(), x.is_nan(), x == 0.0, |b| f32::from_bits(b);
    f64 => u64, |x| x.to_bits(), x.is_nan(), x == 0.0, |b| f64::from_bits(b);
    half::f16 => u16, |x| x.to_bits(), x.is_nan(), x.to_f32() == 0.0, |b| half::f16::from_bits(b);
    half::bf16 => u16, |x| x.to_bits(), x.is_nan(), x.to_f32() == 0.0, |b| half::bf16::from_bits(b);
}

/// Lines up to this many elements are sorted a byte at a time from the
/// lowest (their buffers stay in the L2 cache); longer ones are first
/// split by a higher byte into buckets.
const IN_CACHE: usize = 1 << 16;

/// Sorts `keys` with their `order` (positions) stably, using `spare_keys`
/// and `spare_order` (of the same length) as scratch.
fn radix_sort<K: RadixKey>(
    keys: &mut [K],
    order: &mut [u32],
    spare_keys: &mut [K],
    spare_order: &mut [u32],
) {
    msd(keys, order, spare_keys, spare_order, K::BYTES - 1);
}

/// Sorts `keys`/`order` stably by their bytes `byte` down to 0: a line
/// that fits the cache a byte at a time from the lowest, a longer one split
/// by byte `byte` into buckets, each sorted by the bytes below.
fn msd<K: RadixKey>(
    keys: &mut [K],
    order: &mut [u32],
    spare_keys: &mut [K],
    spare_order: &mut [u32],
    byte: usize,
) {
    let n = keys.len();
    if n <= SHORT {
        insertion_sort(keys, order);
        return;
    }
    if n <= IN_CACHE || byte == 0 {
        lsd(keys, order, spare_keys, spare_order, byte + 1);
        return;
    }
    let Some(ranges) = split_by_byte(keys, order, spare_keys, spare_order, byte) else {
        // Every key has this byte.
        return msd(keys, order, spare_keys, spare_order, byte - 1);
    };
    keys.copy_from_slice(spare_keys);
    order.copy_from_slice(spare_order);
    for (k, o, sk, so) in buckets_of(keys, order, spare_keys, spare_order, &ranges) {
        msd(k, o, sk, so, byte - 1);
    }
}

/// Stable scatter of `keys`/`order` by their byte `byte` into the spares;
/// the buckets' ranges (the empty ones left out), or `None` (nothing
/// moved) when every key has the same byte there.
fn split_by_byte<K: RadixKey>(
    keys: &[K],
    order: &[u32],
    spare_keys: &mut [K],
    spare_order: &mut [u32],
    byte: usize,
) -> Option<Vec<core::ops::Range<usize>>> {
    let mut counts = [0usize; 256];
    for &k in keys {
        counts[k.byte(byte)] += 1;
    }
    if counts.contains(&keys.len()) {
        return None;
    }
    let mut starts = [0usize; 256];
    let mut ranges = Vec::new();
    let mut at = 0;
    for (s, &m) in starts.iter_mut().zip(&counts) {
        *s = at;
        if m > 0 {
            ranges.push(at..at + m);
        }
        at += m;
    }
    for (&k, &o) in keys.iter().zip(order) {
        let d = k.byte(byte);
        spare_keys[starts[d]] = k;
        spare_order[starts[d]] = o;
        starts[d] += 1;
    }
    Some(ranges)
}

/// The four buffers cut at the buckets' ranges (which cover them, in order).
#[allow(clippy::type_complexity)]
fn buckets_of<'a, K>(
    mut keys: &'a mut [K],
    mut order: &'a mut [u32],
    mut spare_keys: &'a mut [K],
    mut spare_order: &'a mut [u32],
    ranges: &[core::ops::Range<usize>],
) -> Vec<(&'a mut [K], &'a mut [u32], &'a mut [K], &'a mut [u32])> {
    let mut out = Vec::with_capacity(ranges.len());
    for range in ranges {
        let m = range.len();
        let (k, rest) = core::mem::take(&mut keys).split_at_mut(m);
        keys = rest;
        let (o, rest) = core::mem::take(&mut order).split_at_mut(m);
        order = rest;
        let (sk, rest) = core::mem::take(&mut spare_keys).split_at_mut(m);
        spare_keys = rest;
        let (so, rest) = core::mem::take(&mut spare_order).split_at_mut(m);
        spare_order = rest;
        out.push((k, o, sk, so));
    }
    out
}

/// Stable sort of `keys`/`order` by their lowest `bytes` bytes, a byte at a
/// time (bytes every key shares skipped), the spares as scratch.
fn lsd<K: RadixKey>(
    keys: &mut [K],
    order: &mut [u32],
    spare_keys: &mut [K],
    spare_order: &mut [u32],
    bytes: usize,
) {
    let n = keys.len();
    // Every byte's counts in one pass.
    let mut counts = vec![[0usize; 256]; bytes];
    for &k in keys.iter() {
        for (b, c) in counts.iter_mut().enumerate() {
            c[k.byte(b)] += 1;
        }
    }
    let (mut from_k, mut from_o, mut to_k, mut to_o) = (keys, order, spare_keys, spare_order);
    let mut swapped = false;
    for (b, c) in counts.iter().enumerate() {
        if c.contains(&n) {
            continue; // every key has this byte
        }
        let mut starts = [0usize; 256];
        let mut at = 0;
        for (s, &m) in starts.iter_mut().zip(c) {
            *s = at;
            at += m;
        }
        for (&k, &o) in from_k.iter().zip(from_o.iter()) {
            let d = k.byte(b);
            to_k[starts[d]] = k;
            to_o[starts[d]] = o;
            starts[d] += 1;
        }
        core::mem::swap(&mut from_k, &mut to_k);
        core::mem::swap(&mut from_o, &mut to_o);
        swapped = !swapped;
    }
    if swapped {
        // The result is in the spare buffers: back into place.
        to_k.copy_from_slice(from_k);
        to_o.copy_from_slice(from_o);
    }
}

/// Stable insertion sort of `keys` with their `order`.
fn insertion_sort<K: RadixKey>(keys: &mut [K], order: &mut [u32]) {
    for i in 1..keys.len() {
        let (k, o) = (keys[i], order[i]);
        let mut j = i;
        while j > 0 && keys[j - 1] > k {
            keys[j] = keys[j - 1];
            order[j] = order[j - 1];
            j -= 1;
        }
        keys[j] = k;
        order[j] = o;
    }
}

/// A thread's buffers: the keys, the sorted positions, and the radix
/// passes' spares, for lines of `n`.
pub(super) struct Scratch<K> {
    pub(super) keys: Vec<K>,
    pub(super) order: Vec<u32>,
    pub(super) spare_keys: Vec<K>,
    pub(super) spare_order: Vec<u32>,
}
impl<K: RadixKey> Scratch<K> {
    /// Grows the buffers to lines of `n` (at least), or the allocation's
    /// error.
    pub(super) fn fit(&mut self, n: usize) -> Result<(), Error> {
        if self.keys.len() < n {
            *self = Scratch::new(n)?;
        }
        Ok(())
    }

    pub(super) fn new(n: usize) -> Result<Self, Error> {
        let filled = |v: Vec<K>| -> Vec<K> {
            let mut v = v;
            v.resize(n, K::ZERO);
            v
        };
        let zeros = |v: Vec<u32>| -> Vec<u32> {
            let mut v = v;
            v.resize(n, 0);
            v
        };
        Ok(Scratch {
            keys: filled(try_vec_with_capacity(n)?),
            order: zeros(try_vec_with_capacity(n)?),
            spare_keys: filled(try_vec_with_capacity(n)?),
            spare_order: zeros(try_vec_with_capacity(n)?),
        })
    }
}

/// Sorts `line` into `scratch.order`: the positions of its elements in
/// ascending (or `descending`) order, equal ones in their order.
pub(super) fn sort_line<T: SortKey>(line: &[T], descending: bool, scratch: &mut Scratch<T::Key>) {
    let n = line.len();
    let Scratch {
        keys,
        order,
        spare_keys,
        spare_order,
    } = scratch;
    for ((k, o), (i, &x)) in keys
        .iter_mut()
        .zip(order.iter_mut())
        .zip(line.iter().enumerate())
    {
        *k = if descending {
            x.key().invert()
        } else {
            x.key()
        };
        *o = i as u32;
    }
    if n < SPLIT || <T::Key as RadixKey>::BYTES == 1 {
        radix_sort(keys, order, spare_keys, spare_order);
        return;
    }
    // A long line: split by its highest byte that differs (one pass), then
    // the buckets sorted on the threads.
    for byte in (0..<T::Key as RadixKey>::BYTES).rev() {
        let Some(ranges) = split_by_byte(keys, order, spare_keys, spare_order, byte) else {
            continue;
        };
        keys.copy_from_slice(spare_keys);
        order.copy_from_slice(spare_order);
        let pieces = buckets_of(keys, order, spare_keys, spare_order, &ranges);
        if byte > 0 {
            for_each_piece(pieces, |_, (k, o, sk, so)| msd(k, o, sk, so, byte - 1));
        }
        return;
    }
    // (Every key the same: sorted as it is.)
}

/// The keys of `line` sorted ascending and the positions they came from
/// (equal keys in their order), for the set operations (`backend/cpu/sets.rs`).
pub(crate) fn sorted_keys<T: SortKey>(line: &[T]) -> Result<(Vec<T::Key>, Vec<u32>), Error> {
    if u32::try_from(line.len()).is_err() {
        return Err(Error::Unsupported {
            message: "unique: 2^32 elements or more",
        });
    }
    let mut scratch = Scratch::<T::Key>::new(line.len())?;
    sort_line(line, false, &mut scratch);
    Ok((scratch.keys, scratch.order))
}

/// One thread's lines: the input's, the sorted values' (if any) and the
/// indices'.
struct Lines<'a, T> {
    x: &'a [T],
    values: &'a mut [MaybeUninit<T>],
    indices: &'a mut [MaybeUninit<i64>],
}

/// Sorts each line of `n` of the contiguous `x` into `values` (empty: not
/// wanted) and `indices`.
fn sort_rows<T: SortKey>(
    x: &[T],
    n: usize,
    descending: bool,
    values: &mut [MaybeUninit<T>],
    indices: &mut [MaybeUninit<i64>],
) -> Result<(), Error> {
    if x.is_empty() {
        return Ok(());
    }
    let per_piece = (PIECE / n).max(1) * n;
    let want_values = !values.is_empty();
    let mut value_chunks: Box<dyn Iterator<Item = &mut [MaybeUninit<T>]>> = match want_values {
        true => Box::new(values.chunks_mut(per_piece)),
        false => Box::new(core::iter::repeat_with(<&mut [MaybeUninit<T>]>::default)),
    };
    let mut pieces = Vec::new();
    for (xs, idx) in x.chunks(per_piece).zip(indices.chunks_mut(per_piece)) {
        let values = value_chunks.next().expect("a values chunk per piece");
        pieces.push(Lines {
            x: xs,
            values,
            indices: idx,
        });
    }
    let failed = std::sync::Mutex::new(None);
    for_each_piece(pieces, |_, piece| {
        let mut scratch = match Scratch::<T::Key>::new(n) {
            Ok(s) => s,
            Err(e) => {
                *failed
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner) = Some(e);
                return;
            }
        };
        for (l, line) in piece.x.chunks_exact(n).enumerate() {
            sort_line(line, descending, &mut scratch);
            for (o, &k) in piece.indices[l * n..][..n].iter_mut().zip(&scratch.order) {
                o.write(i64::from(k));
            }
            if want_values {
                // The values from their keys, in order; a zero or a NaN
                // (whose key stands for several) from the input.
                let values = &mut piece.values[l * n..][..n];
                for ((o, &key), &k) in values.iter_mut().zip(&scratch.keys).zip(&scratch.order) {
                    let key = if descending { key.invert() } else { key };
                    o.write(T::from_key(key).unwrap_or_else(|| line[k as usize]));
                }
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

/// The sizes and strides of `x` with `dim` moved last.
pub(super) fn dim_last(sizes: &[usize], strides: &[usize], dim: usize) -> (Vec<usize>, Vec<usize>) {
    let mut s: Vec<usize> = sizes.to_vec();
    let mut t: Vec<usize> = strides.to_vec();
    let (n, stride) = (s.remove(dim), t.remove(dim));
    s.push(n);
    t.push(stride);
    (s, t)
}

/// The sorted values (`values`) and the indices of `x` (rank 1 or more)
/// along `dim`, ascending or `descending`, stable; each laid out row-major
/// with `dim` moved last (see [`Sorting::sort`](crate::backend::Sorting::sort)).
pub(crate) fn sort<T: SortKey>(
    x: StridedRef<'_, T, Cpu>,
    dim: usize,
    descending: bool,
    values: bool,
) -> Result<(Option<CpuBuffer<T>>, CpuBuffer<i64>), Error> {
    let n = x.sizes[dim];
    if u32::try_from(n).is_err() {
        return Err(Error::Unsupported {
            message: "sort: a line of 2^32 elements or more",
        });
    }
    let (sizes, strides) = dim_last(x.sizes, x.strides, dim);
    let last = StridedRef {
        sizes: &sizes,
        strides: &strides,
        ..x
    };
    let total = crate::layout::numel(&sizes);
    let (sorted_values, indices) = super::with_dense(last, |xs| {
        let mut sorted_values = None;
        // SAFETY: `sort_rows` writes every index, and (when wanted) every
        // value, of its lines when it returns `Ok`; the lines cover the
        // buffers.
        let indices = unsafe {
            CpuBuffer::try_new_fallible(total, |indices| {
                if !values {
                    return sort_rows(xs, n, descending, &mut [], indices);
                }
                sorted_values = Some(CpuBuffer::try_new_fallible(total, |vals| {
                    sort_rows(xs, n, descending, vals, indices)
                })?);
                Ok(())
            })
        }?;
        Ok((sorted_values, indices))
    })?;
    Ok((sorted_values, indices))
}

/// The `k` largest (or, not `largest`, smallest) elements of each line of
/// `x` (rank 1 or more) along `dim`, in order (largest first, or smallest
/// first), and their positions; equal elements by position. Each buffer is
/// laid out row-major with `dim` moved last and `k` long.
pub(crate) fn topk<T: SortKey>(
    x: StridedRef<'_, T, Cpu>,
    k: usize,
    dim: usize,
    largest: bool,
) -> Result<(CpuBuffer<T>, CpuBuffer<i64>), Error> {
    let n = x.sizes[dim];
    if u32::try_from(n).is_err() {
        return Err(Error::Unsupported {
            message: "topk: a line of 2^32 elements or more",
        });
    }
    let (sizes, strides) = dim_last(x.sizes, x.strides, dim);
    let last = StridedRef {
        sizes: &sizes,
        strides: &strides,
        ..x
    };
    let lines = match n {
        0 => 0,
        _ => crate::layout::numel(&sizes) / n,
    };
    let total = lines * k;
    super::with_dense(last, |xs| {
        let mut values = None;
        // SAFETY: every line writes its `k` values and indices, and the
        // lines cover both buffers (`lines * k` elements).
        let indices = unsafe {
            CpuBuffer::try_new_fallible(total, |indices| {
                values = Some(CpuBuffer::try_new_fallible(total, |vals| {
                    top_rows(xs, n, k, largest, vals, indices)
                })?);
                Ok(())
            })
        }?;
        Ok((values.expect("the indices' fill made the values"), indices))
    })
}

/// `topk` of each line of `n` of the contiguous `x` into `values` and
/// `indices` (`k` per line).
fn top_rows<T: SortKey>(
    x: &[T],
    n: usize,
    k: usize,
    largest: bool,
    values: &mut [MaybeUninit<T>],
    indices: &mut [MaybeUninit<i64>],
) -> Result<(), Error> {
    if k == 0 || x.is_empty() {
        return Ok(());
    }
    let lines_per_piece = (PIECE / n).max(1);
    let pieces: Vec<_> = x
        .chunks(lines_per_piece * n)
        .zip(values.chunks_mut(lines_per_piece * k))
        .zip(indices.chunks_mut(lines_per_piece * k))
        .collect();
    let failed = std::sync::Mutex::new(None);
    for_each_piece(pieces, |_, ((xs, vals), idxs)| {
        let mut pairs: Vec<(T::Key, u32)> = match try_vec_with_capacity(n) {
            Ok(v) => v,
            Err(e) => {
                *failed
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner) = Some(e);
                return;
            }
        };
        for (l, line) in xs.chunks_exact(n).enumerate() {
            // The smallest keys: the inverted ones when the largest are
            // wanted (NaN's key is the largest, so it comes first then).
            pairs.clear();
            let key_of = |v: T| {
                let key = v.key();
                if largest { key.invert() } else { key }
            };
            if k <= STREAMED {
                // One pass holding the best `k` in order: most elements
                // lose to the last of them, eight comparisons at a time.
                let keep = |key: T::Key, i: u32, pairs: &mut Vec<(T::Key, u32)>| {
                    if pairs.len() == k {
                        if key >= pairs[k - 1].0 {
                            return;
                        }
                        pairs.pop();
                    }
                    let at = pairs.partition_point(|p| p.0 <= key);
                    pairs.insert(at, (key, i));
                };
                let mut chunks = line.chunks_exact(8);
                for (c, chunk) in chunks.by_ref().enumerate() {
                    let keys: [T::Key; 8] = core::array::from_fn(|j| key_of(chunk[j]));
                    if pairs.len() == k {
                        let bar = pairs[k - 1].0;
                        if keys.iter().all(|&key| key >= bar) {
                            continue;
                        }
                    }
                    for (j, &key) in keys.iter().enumerate() {
                        keep(key, (c * 8 + j) as u32, &mut pairs);
                    }
                }
                let done = line.len() / 8 * 8;
                for (j, &v) in chunks.remainder().iter().enumerate() {
                    keep(key_of(v), (done + j) as u32, &mut pairs);
                }
            } else {
                pairs.extend(line.iter().enumerate().map(|(i, &v)| (key_of(v), i as u32)));
                if k < n {
                    pairs.select_nth_unstable(k - 1);
                }
                pairs[..k].sort_unstable();
            }
            let top = &pairs[..k];
            let (vals, idxs) = (&mut vals[l * k..][..k], &mut idxs[l * k..][..k]);
            for ((v, i), &(key, at)) in vals.iter_mut().zip(idxs.iter_mut()).zip(top.iter()) {
                let key = if largest { key.invert() } else { key };
                v.write(T::from_key(key).unwrap_or(line[at as usize]));
                i.write(i64::from(at));
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

impl crate::backend::Sorting for Cpu {
    fn sort<T: SortKey>(
        x: StridedRef<'_, T, Cpu>,
        dim: usize,
        descending: bool,
        values: bool,
    ) -> Result<(Option<CpuBuffer<T>>, CpuBuffer<i64>), Error> {
        sort(x, dim, descending, values)
    }

    fn topk<T: SortKey>(
        x: StridedRef<'_, T, Cpu>,
        k: usize,
        dim: usize,
        largest: bool,
    ) -> Result<(CpuBuffer<T>, CpuBuffer<i64>), Error> {
        topk(x, k, dim, largest)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_order_as_pytorch() {
        let xs = [
            f32::NEG_INFINITY,
            -1.5,
            -0.0,
            0.0,
            1e-40,
            2.0,
            f32::INFINITY,
            f32::NAN,
        ];
        let keys: Vec<u32> = xs.iter().map(|x| x.key()).collect();
        assert!(keys.windows(2).all(|w| w[0] <= w[1]), "{keys:?}");
        assert_eq!((-0.0f32).key(), 0.0f32.key());
        assert_eq!((-f32::NAN).key(), f32::NAN.key());
        assert!((-3i8).key() < 2i8.key() && i64::MIN.key() < i64::MAX.key());
        for x in [-1.5f32, 1e-40, 2.0, f32::INFINITY, f32::NEG_INFINITY] {
            assert_eq!(f32::from_key(x.key()), Some(x));
        }
        assert_eq!(f32::from_key(0.0f32.key()), None);
        assert_eq!(f32::from_key(f32::NAN.key()), None);
        for x in [i64::MIN, -1, 0, i64::MAX] {
            assert_eq!(i64::from_key(x.key()), Some(x));
        }
    }

    #[test]
    fn radix_sort_is_stable_and_sorted() {
        // In the cache, and split by the highest byte first.
        for n in [5000, 200_000] {
            radix_sorts_stably(n);
        }
    }

    fn radix_sorts_stably(n: usize) {
        let mut keys: Vec<u32> = (0..n)
            .map(|i| ((i * 7919) % 97) as u32 * 44_040_193)
            .collect();
        let mut order: Vec<u32> = (0..n as u32).collect();
        let want: Vec<(u32, u32)> = {
            let mut v: Vec<(u32, u32)> = keys.iter().copied().zip(order.iter().copied()).collect();
            v.sort_by_key(|p| p.0);
            v
        };
        let (mut sk, mut so) = (vec![0; n], vec![0; n]);
        radix_sort(&mut keys, &mut order, &mut sk, &mut so);
        let got: Vec<(u32, u32)> = keys.into_iter().zip(order).collect();
        assert_eq!(got, want);
    }
}
