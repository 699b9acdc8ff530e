//! The scans on the CPU (`cumsum`, `cumprod`, `logcumsumexp`, `cummax`,
//! `cummin`): one engine for every [`Scanner`] and dtype.
//!
//! The input is made contiguous first (a strided view is copied once), the
//! output is contiguous; the scanned dim splits the elements into `outer`
//! blocks of `n` rows of `inner` elements.
//!
//! - **Lines** (`inner == 1`, the last dim): each line is scanned in blocks
//!   of [`BLOCK`] elements, cut into [`Scanner::CHAINS`] lanes scanned side
//!   by side (independent chains, so an addition does not wait for the one
//!   before), each lane's states kept in a scratch block, then joined to
//!   the carry from the lanes before it as they are written. Many lines
//!   are shared out across threads; a few long ones are cut into parts, the
//!   parts folded in parallel, their carries joined in order, and the parts
//!   scanned in parallel from their carries.
//! - **Columns** (`inner > 1`): a piece of up to [`COLUMNS`] columns keeps a
//!   row of states and adds each input row into it, reading and writing
//!   memory in order (vectorized); the pieces are shared out across threads.

use super::parallel::for_each_piece;
use crate::backend::cpu::{CpuBuffer, try_vec_with_capacity};
use crate::backend::{Cpu, Scanning, StridedRef};
use crate::dtype::Element;
use crate::error::Error;
use crate::ops::reductions::reducers::{Direction, Extremum};
use crate::ops::scans::{CumExtreme, Scanner};
use core::mem::MaybeUninit;

/// Elements of a line scanned as one block of side-by-side chains.
const BLOCK: usize = 1024;
/// Columns a piece keeps states for (their row stays in the L1 cache).
const COLUMNS: usize = 1024;
/// Elements per piece of work handed to one thread (at least one line).
const PIECE: usize = 1 << 15;

/// Where a piece writes: the values, and (`INDEXED`) the indices (empty
/// otherwise).
struct Sink<'a, O> {
    values: &'a mut [MaybeUninit<O>],
    indices: &'a mut [MaybeUninit<i64>],
}

/// The rows a column piece writes: a whole block (its width is the
/// block's), or one segment of each row.
enum Rows<'a, O> {
    Block(&'a mut [MaybeUninit<O>]),
    Segments(Vec<&'a mut [MaybeUninit<O>]>),
}

/// A piece of work for one thread.
enum Piece<'a, T, S: Scanner<T>> {
    /// Whole lines of `n` elements.
    Lines { x: &'a [T], out: Sink<'a, S::Out> },
    /// Elements `first..` of a long line, after a prefix whose state is
    /// `carry`.
    Part {
        x: &'a [T],
        first: usize,
        carry: S::Acc,
        out: Sink<'a, S::Out>,
    },
    /// Columns `col..col + width` of one block of `n` rows of `inner`.
    Columns {
        x: &'a [T],
        span: Span,
        values: Rows<'a, S::Out>,
        indices: Rows<'a, i64>,
    },
}

/// Columns `col..col + width` of rows of `inner` elements.
#[derive(Copy, Clone)]
struct Span {
    inner: usize,
    col: usize,
    width: usize,
}

/// Writes `value` and (`INDEXED`) `index` of state `a` at `k`.
#[inline(always)]
fn put<T, S: Scanner<T>, const INDEXED: bool>(
    s: S,
    a: S::Acc,
    k: usize,
    out: &mut Sink<'_, S::Out>,
) {
    out.values[k].write(s.value(a));
    if INDEXED {
        out.indices[k].write(s.index(a));
    }
}

/// Scans one block of `x` (its elements `base..` of the line) from
/// `carry` into `values`/`indices` in `N` lanes side by side, each lane's
/// states kept in `scratch`; the state after the block.
#[inline(always)]
fn scan_block<T: Copy, S: Scanner<T>, const INDEXED: bool, const N: usize>(
    s: S,
    x: &[T; BLOCK],
    base: usize,
    carry: S::Acc,
    values: &mut [MaybeUninit<S::Out>; BLOCK],
    indices: &mut [MaybeUninit<i64>],
    scratch: &mut [S::Acc; BLOCK],
) -> S::Acc {
    let lane = BLOCK / N;
    // `N` lanes side by side, each from the identity.
    let mut acc = [s.init(); N];
    for i in 0..lane {
        for (c, a) in acc.iter_mut().enumerate() {
            let k = c * lane + i;
            *a = s.step(*a, x[k], base + k);
            scratch[k] = *a;
        }
    }
    // Each lane joined to the carry of those before it.
    let mut lane_carry = carry;
    for (c, &total) in acc.iter().enumerate() {
        let range = c * lane..(c + 1) * lane;
        for (o, &a) in values[range.clone()]
            .iter_mut()
            .zip(&scratch[range.clone()])
        {
            o.write(s.value(s.combine(lane_carry, a)));
        }
        if INDEXED {
            for (o, &a) in indices[range.clone()].iter_mut().zip(&scratch[range]) {
                o.write(s.index(s.combine(lane_carry, a)));
            }
        }
        lane_carry = s.combine(lane_carry, total);
    }
    lane_carry
}

/// Scans the line `x` (elements `first..` of it) from `carry` into `out`;
/// the state after its last element.
fn scan_line<T: Copy, S: Scanner<T>, const INDEXED: bool>(
    s: S,
    x: &[T],
    first: usize,
    mut carry: S::Acc,
    out: &mut Sink<'_, S::Out>,
    scratch: &mut [S::Acc],
) -> S::Acc {
    let whole = match S::CHAINS > 1 {
        true => x.len() / BLOCK * BLOCK,
        false => 0,
    };
    let scratch: &mut [S::Acc; BLOCK] = (&mut scratch[..BLOCK])
        .try_into()
        .expect("the scratch holds a block");
    for b in (0..whole).step_by(BLOCK) {
        let xs: &[T; BLOCK] = x[b..b + BLOCK].try_into().expect("a whole block");
        let values: &mut [MaybeUninit<S::Out>; BLOCK] = (&mut out.values[b..b + BLOCK])
            .try_into()
            .expect("a whole block");
        let indices = match INDEXED {
            true => &mut out.indices[b..b + BLOCK],
            false => &mut [],
        };
        let base = first + b;
        carry = match S::CHAINS {
            8 => scan_block::<T, S, INDEXED, 8>(s, xs, base, carry, values, indices, scratch),
            _ => scan_block::<T, S, INDEXED, 4>(s, xs, base, carry, values, indices, scratch),
        };
    }
    for (k, &v) in x.iter().enumerate().skip(whole) {
        carry = s.step(carry, v, first + k);
        put::<T, S, INDEXED>(s, carry, k, out);
    }
    carry
}

/// Scans the four lines of `n` elements of `x` side by side into `values`.
fn scan_four_lines<T: Copy, S: Scanner<T>>(
    s: S,
    x: &[T],
    values: &mut [MaybeUninit<S::Out>],
    n: usize,
) {
    let (x0, rest) = x.split_at(n);
    let (x1, rest) = rest.split_at(n);
    let (x2, x3) = rest.split_at(n);
    let (v0, rest) = values.split_at_mut(n);
    let (v1, rest) = rest.split_at_mut(n);
    let (v2, v3) = rest.split_at_mut(n);
    let mut acc = [s.init(); 4];
    for k in 0..n {
        acc[0] = s.step(acc[0], x0[k], k);
        acc[1] = s.step(acc[1], x1[k], k);
        acc[2] = s.step(acc[2], x2[k], k);
        acc[3] = s.step(acc[3], x3[k], k);
        v0[k].write(s.value(acc[0]));
        v1[k].write(s.value(acc[1]));
        v2[k].write(s.value(acc[2]));
        v3[k].write(s.value(acc[3]));
    }
}

/// The state after the elements `first..` of a line, from the identity.
fn fold_line<T: Copy, S: Scanner<T>>(s: S, x: &[T], first: usize) -> S::Acc {
    const N: usize = 8;
    let whole = x.len() / BLOCK * BLOCK;
    let mut total = s.init();
    for b in (0..whole).step_by(BLOCK) {
        let xs: &[T; BLOCK] = x[b..b + BLOCK].try_into().expect("a whole block");
        let lane = BLOCK / N;
        let mut acc = [s.init(); N];
        for i in 0..lane {
            for (c, a) in acc.iter_mut().enumerate() {
                let k = c * lane + i;
                *a = s.step(*a, xs[k], first + b + k);
            }
        }
        for a in acc {
            total = s.combine(total, a);
        }
    }
    for (k, &v) in x.iter().enumerate().skip(whole) {
        total = s.step(total, v, first + k);
    }
    total
}

/// Scans columns `col..col + width` of a block of `n` rows of `inner`.
fn scan_columns<T: Copy, S: Scanner<T>, const INDEXED: bool>(
    s: S,
    x: &[T],
    Span { inner, col, width }: Span,
    values: &mut Rows<'_, S::Out>,
    indices: &mut Rows<'_, i64>,
    states: &mut [S::Acc],
) {
    let states = &mut states[..width];
    states.fill(s.init());
    let n = x.len() / inner;
    for k in 0..n {
        let row = &x[k * inner + col..][..width];
        let vals: &mut [MaybeUninit<S::Out>] = match values {
            Rows::Block(block) => &mut block[k * inner..][..width],
            Rows::Segments(segments) => &mut segments[k][..],
        };
        for ((a, &v), o) in states.iter_mut().zip(row).zip(vals.iter_mut()) {
            *a = s.step(*a, v, k);
            o.write(s.value(*a));
        }
        if INDEXED {
            let idxs: &mut [MaybeUninit<i64>] = match indices {
                Rows::Block(block) => &mut block[k * inner..][..width],
                Rows::Segments(segments) => &mut segments[k][..],
            };
            for (a, o) in states.iter().zip(idxs.iter_mut()) {
                o.write(s.index(*a));
            }
        }
    }
}

/// The rows segments `col..col + width` of every row of a block, or the
/// block itself when one piece covers its width.
fn column_rows<O>(block: &mut [MaybeUninit<O>], inner: usize, width: usize) -> Vec<Rows<'_, O>> {
    if width == inner || block.is_empty() {
        return vec![Rows::Block(block)];
    }
    let n = block.len() / inner;
    let mut segments: Vec<Vec<&mut [MaybeUninit<O>]>> = (0..inner.div_ceil(width))
        .map(|_| Vec::with_capacity(n))
        .collect();
    for row in block.chunks_exact_mut(inner) {
        for (c, segment) in row.chunks_mut(width).enumerate() {
            segments[c].push(segment);
        }
    }
    segments.into_iter().map(Rows::Segments).collect()
}

/// `indices` in chunks of `len` (`INDEXED`), or empty slices.
fn index_chunks<const INDEXED: bool>(
    indices: &mut [MaybeUninit<i64>],
    len: usize,
) -> Box<dyn Iterator<Item = &mut [MaybeUninit<i64>]> + '_> {
    match INDEXED {
        true => Box::new(indices.chunks_mut(len)),
        false => Box::new(core::iter::repeat_with(<&mut [MaybeUninit<i64>]>::default)),
    }
}

/// Scans the contiguous `x` of `sizes` along `dim` into `values` and
/// (`INDEXED`) `indices` (empty otherwise), all of `x`'s length.
fn scan_into<T: Element, S: Scanner<T>, const INDEXED: bool>(
    s: S,
    x: &[T],
    sizes: &[usize],
    dim: usize,
    values: &mut [MaybeUninit<S::Out>],
    indices: &mut [MaybeUninit<i64>],
) -> Result<(), Error> {
    let total = x.len();
    let n = sizes[dim];
    if total == 0 {
        return Ok(());
    }
    let inner: usize = sizes[dim + 1..].iter().product();
    let mut pieces: Vec<Piece<'_, T, S>> = Vec::new();
    let threads = rayon::current_num_threads();
    let lines = total / n;
    if inner > 1 {
        let width = COLUMNS.min(inner);
        let block = n * inner;
        let index_blocks = index_chunks::<INDEXED>(indices, block);
        for ((xs, vals), idxs) in x
            .chunks_exact(block)
            .zip(values.chunks_exact_mut(block))
            .zip(index_blocks)
        {
            let value_rows = column_rows(vals, inner, width);
            let mut index_rows = match INDEXED {
                true => column_rows(idxs, inner, width),
                false => Vec::new(),
            };
            index_rows.resize_with(value_rows.len(), || Rows::Block(&mut []));
            for (c, (values, indices)) in value_rows.into_iter().zip(index_rows).enumerate() {
                pieces.push(Piece::Columns {
                    x: xs,
                    span: Span {
                        inner,
                        col: c * width,
                        width: width.min(inner - c * width),
                    },
                    values,
                    indices,
                });
            }
        }
    } else if S::CHAINS > 1 && lines < 2 * threads && n >= 4 * BLOCK && threads > 1 {
        // A few long lines: each cut into parts, folded, then scanned from
        // the joined carries.
        let parts = threads.min(n / BLOCK);
        let part = n.div_ceil(parts).div_ceil(BLOCK) * BLOCK;
        let mut totals = vec![s.init(); lines * n.div_ceil(part)];
        let folds: Vec<(&[T], usize, &mut S::Acc)> = x
            .chunks_exact(n)
            .flat_map(|line| line.chunks(part).enumerate())
            .zip(totals.iter_mut())
            .map(|((p, xs), total)| (xs, p * part, total))
            .collect();
        for_each_piece(folds, |_, (xs, first, total)| {
            **total = fold_line(s, xs, *first)
        });
        let mut parts_out = values
            .chunks_exact_mut(n)
            .zip(index_chunks::<INDEXED>(indices, n))
            .flat_map(|(vals, idxs)| {
                let idxs: Box<dyn Iterator<Item = &mut [MaybeUninit<i64>]>> = match INDEXED {
                    true => Box::new(idxs.chunks_mut(part)),
                    false => Box::new(core::iter::repeat_with(<&mut [MaybeUninit<i64>]>::default)),
                };
                vals.chunks_mut(part).zip(idxs)
            });
        for (line, line_totals) in x.chunks_exact(n).zip(totals.chunks(n.div_ceil(part))) {
            let mut carry = s.init();
            for ((p, xs), total) in line.chunks(part).enumerate().zip(line_totals) {
                let (vals, idxs) = parts_out.next().expect("one output part per input part");
                pieces.push(Piece::Part {
                    x: xs,
                    first: p * part,
                    carry,
                    out: Sink {
                        values: vals,
                        indices: idxs,
                    },
                });
                carry = s.combine(carry, *total);
            }
        }
    } else {
        let per_piece = (PIECE / n).max(1) * n;
        for ((xs, vals), idxs) in x
            .chunks(per_piece)
            .zip(values.chunks_mut(per_piece))
            .zip(index_chunks::<INDEXED>(indices, per_piece))
        {
            pieces.push(Piece::Lines {
                x: xs,
                out: Sink {
                    values: vals,
                    indices: idxs,
                },
            });
        }
    }
    let scratch_len = if inner > 1 { COLUMNS.min(inner) } else { BLOCK };
    let failed = std::sync::Mutex::new(None);
    for_each_piece(pieces, |_, piece| {
        let mut scratch = match try_vec_with_capacity::<S::Acc>(scratch_len) {
            Ok(v) => v,
            Err(e) => {
                *failed
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner) = Some(e);
                return;
            }
        };
        scratch.resize(scratch_len, s.init());
        run_piece::<T, S, INDEXED>(s, piece, n, &mut scratch);
    });
    match failed
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
    {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

fn run_piece<T: Copy, S: Scanner<T>, const INDEXED: bool>(
    s: S,
    piece: &mut Piece<'_, T, S>,
    n: usize,
    scratch: &mut [S::Acc],
) {
    match piece {
        Piece::Lines { x, out } => {
            let mut done = 0;
            if S::CHAINS == 1 && !INDEXED {
                // A long step (`logcumsumexp`): four lines side by side, so
                // that one line's step does not wait for the one before.
                done = x.len() / (4 * n) * 4;
                for (xs, values) in x
                    .chunks_exact(4 * n)
                    .zip(out.values.chunks_exact_mut(4 * n))
                {
                    scan_four_lines(s, xs, values, n);
                }
            }
            for (l, line) in x.chunks_exact(n).enumerate().skip(done) {
                let mut sink = Sink {
                    values: &mut out.values[l * n..][..n],
                    indices: match INDEXED {
                        true => &mut out.indices[l * n..][..n],
                        false => &mut [],
                    },
                };
                scan_line::<T, S, INDEXED>(s, line, 0, s.init(), &mut sink, scratch);
            }
        }
        Piece::Part {
            x,
            first,
            carry,
            out,
        } => {
            scan_line::<T, S, INDEXED>(s, x, *first, *carry, out, scratch);
        }
        Piece::Columns {
            x,
            span,
            values,
            indices,
        } => scan_columns::<T, S, INDEXED>(s, x, *span, values, indices, scratch),
    }
}

impl Scanning for Cpu {
    fn scan<T: Element, S: Scanner<T>>(
        x: StridedRef<'_, T, Cpu>,
        dim: usize,
        s: S,
    ) -> Result<CpuBuffer<S::Out>, Error> {
        let sizes = x.sizes;
        super::with_dense(x, |xs| {
            // SAFETY: `scan_into` writes every element of the values when it
            // returns `Ok` (each piece writes every element it covers, and
            // the pieces cover the output).
            unsafe {
                CpuBuffer::try_new_fallible(xs.len(), |values| {
                    scan_into::<T, S, false>(s, xs, sizes, dim, values, &mut [])
                })
            }
        })
    }

    fn scan_indexed<T: Extremum, W: Direction>(
        x: StridedRef<'_, T, Cpu>,
        dim: usize,
        s: CumExtreme<W>,
    ) -> Result<(CpuBuffer<T>, CpuBuffer<i64>), Error> {
        let sizes = x.sizes;
        super::with_dense(x, |xs| {
            let mut indices = None;
            // SAFETY: as in `scan`, for the values and (indexed) the indices.
            let values = unsafe {
                CpuBuffer::try_new_fallible(xs.len(), |values| {
                    indices = Some(CpuBuffer::try_new_fallible(xs.len(), |indices| {
                        scan_into::<T, CumExtreme<W>, true>(s, xs, sizes, dim, values, indices)
                    })?);
                    Ok(())
                })
            }?;
            Ok((values, indices.expect("the values' fill made the indices")))
        })
    }
}
