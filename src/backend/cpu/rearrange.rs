//! `impl Rearranging for Cpu`: the output row by row (a row: the last
//! merged dimension), rows spread over rayon's threads in pieces. The last
//! dimension's map is cut once into runs ([`Run`]): stretches that read the
//! source forwards, backwards, in place, or not at all (the fill value), so
//! a flipped row is one reversed copy, a rolled row two copies and a padded
//! row copies between fills; each row then adds its outer dimensions'
//! offset and moves its runs, clipped to a band's kept columns.

use super::parallel::for_each_piece;
use super::vector_math::{Simd, simd};
use super::{Cpu, CpuBuffer};
use crate::backend::StridedRef;
use crate::backend::rearrange::{AxisMap, Band, Rearrangement, Rearranging};
use crate::dtype::Element;
use crate::error::Error;
use core::mem::MaybeUninit;

/// Output elements per piece handed to a thread (whole rows, at least one).
const PIECE: usize = 1 << 15;

/// A stretch of a row: `len` positions reading the last dimension from
/// position `start` in steps of `step`, or the fill value (`start: None`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Run {
    len: usize,
    start: Option<usize>,
    step: isize,
}

/// The runs of a last dimension of length `n` read through `map`, in time
/// independent of `n` but for a pad's added positions (a merged dimension
/// may hold a whole tensor).
fn runs_of(map: AxisMap, n: usize, out_len: usize) -> Vec<Run> {
    let forward = |len: usize, start: usize| Run {
        len,
        start: Some(start),
        step: 1,
    };
    let mut runs: Vec<Run> = Vec::new();
    match map {
        AxisMap::Same => runs.push(forward(n, 0)),
        AxisMap::Reverse => runs.push(Run {
            len: n,
            start: n.checked_sub(1),
            step: -1,
        }),
        AxisMap::Roll(shift) => runs.extend([forward(shift, n - shift), forward(n - shift, 0)]),
        AxisMap::Pad { before, .. } => {
            // The input's own stretch is one forward run; the added
            // positions are found one by one.
            let clamp = |k: isize| k.clamp(0, out_len as isize) as usize;
            let (lo, hi) = (clamp(before), clamp(before.saturating_add(n as isize)));
            scan(&mut runs, map, n, 0..lo);
            if lo < hi {
                runs.push(forward(hi - lo, (lo as isize - before) as usize));
            }
            scan(&mut runs, map, n, hi..out_len);
        }
    }
    runs.retain(|r| r.len > 0);
    runs
}

/// Runs for the positions `ks` of `map`, one at a time: a position extends
/// the last run when it continues its step.
fn scan(runs: &mut Vec<Run>, map: AxisMap, n: usize, ks: core::ops::Range<usize>) {
    let first = runs.len();
    for k in ks {
        let at = map.source(k, n);
        if let Some(last) = runs[first..].last_mut() {
            let extends = match (last.start, at) {
                (None, None) => true,
                (Some(s), Some(a)) if last.len == 1 => {
                    last.step = a as isize - s as isize;
                    true
                }
                (Some(s), Some(a)) => s as isize + last.step * last.len as isize == a as isize,
                _ => false,
            };
            if extends {
                last.len += 1;
                continue;
            }
        }
        runs.push(Run {
            len: 1,
            start: at,
            step: 1,
        });
    }
}

/// Everything a row needs: the plan, the last dimension's runs, the
/// source and the fill value.
struct Rows<'a, T: Element> {
    plan: &'a Rearrangement,
    runs: Vec<Run>,
    src: *const T,
    fill: T,
}

// SAFETY: `src` is only read, through indices of the source's layout, and
// the source is borrowed (shared) for as long as `Rows` lives; `T: Element`
// values are `Send + Sync`.
unsafe impl<T: Element> Sync for Rows<'_, T> {}

impl<T: Element> Rows<'_, T> {
    /// Writes columns `first..first + dst.len()` of output row `row` (of
    /// `cols` columns) into `dst`.
    fn write(&self, row: usize, first: usize, cols: usize, dst: &mut [MaybeUninit<T>]) {
        let plan = self.plan;
        let rank = plan.sizes.len();
        // The outer coordinates, last first, and the row's source offset.
        let mut rest = row;
        let mut base = Some(plan.offset);
        let mut window = (0, cols);
        for d in (0..rank - 1).rev() {
            let size = plan.out_sizes[d];
            let k = rest % size;
            rest /= size;
            if d == rank - 2
                && let Some(t) = plan.band
            {
                window = t.kept(k, cols);
            }
            base = match (base, plan.maps[d].source(k, plan.sizes[d])) {
                (Some(b), Some(at)) => Some(b + at * plan.strides[d]),
                _ => None,
            };
        }
        let Some(base) = base else {
            fill(dst, self.fill);
            return;
        };
        // Only this piece's columns are read.
        let end = first + dst.len();
        let window = (
            window.0.max(first),
            window.1.min(end).max(window.0.max(first)),
        );
        let stride = plan.strides[rank - 1];
        let mut at = 0;
        for run in &self.runs {
            let (start, stop) = (at.max(first), (at + run.len).min(end));
            if start < stop {
                let piece = &mut dst[start - first..stop - first];
                let (lo, hi) = (start.max(window.0), stop.min(window.1));
                if lo >= hi {
                    fill(piece, self.fill);
                } else {
                    let (before, rest) = piece.split_at_mut(lo - start);
                    let (kept, after) = rest.split_at_mut(hi - lo);
                    fill(before, self.fill);
                    fill(after, self.fill);
                    match run.start {
                        None => fill(kept, self.fill),
                        Some(from) => {
                            let position = from as isize + run.step * (lo - at) as isize;
                            // SAFETY: every position the run reads,
                            // `position + j * step` for `j < hi - lo`, is a
                            // source position of the last dimension (the map
                            // named it), and `base` the offset of valid outer
                            // positions: each read is an index of the
                            // source's checked layout, inside its buffer, and
                            // the source is only read meanwhile.
                            unsafe {
                                read_run(
                                    kept,
                                    self.src.add(base),
                                    position as usize,
                                    run.step * stride as isize,
                                    stride,
                                )
                            };
                        }
                    }
                }
            }
            at += run.len;
        }
    }
}

/// `dst` filled with `value`.
fn fill<T: Element>(dst: &mut [MaybeUninit<T>], value: T) {
    for slot in dst {
        slot.write(value);
    }
}

/// `dst[j] = row[(first * stride) + j * step]`.
///
/// # Safety
/// Each of those elements is readable (an index of a source layout inside
/// its buffer) and nothing writes them meanwhile.
#[inline]
unsafe fn read_run<T: Element>(
    dst: &mut [MaybeUninit<T>],
    row: *const T,
    first: usize,
    step: isize,
    stride: usize,
) {
    let len = dst.len();
    // SAFETY (all branches): the caller's contract; with a step of 1 or -1
    // the elements read are `len` consecutive ones, which make a slice.
    unsafe {
        let from = row.add(first * stride);
        match step {
            1 => copy_run(from, dst.as_mut_ptr().cast::<T>(), len),
            -1 => {
                let source = core::slice::from_raw_parts(from.sub(len - 1), len);
                for (slot, &x) in dst.iter_mut().zip(source.iter().rev()) {
                    slot.write(x);
                }
            }
            0 => fill(dst, from.read()),
            _ => {
                for (j, slot) in dst.iter_mut().enumerate() {
                    slot.write(from.offset(j as isize * step).read());
                }
            }
        }
    }
}

/// `len` elements from `from` to `to` (not overlapping): wide unaligned
/// vector moves where the machine has them, so a copy whose source and
/// destination sit at different offsets within a cache line (a roll by one
/// element) runs as fast as an aligned one; glibc's `memcpy` takes `rep
/// movsb` for these sizes, which slows to a third when they differ.
///
/// # Safety
/// `from` is readable and `to` writable for `len` elements, and the two do
/// not overlap.
#[inline]
unsafe fn copy_run<T: Element>(from: *const T, to: *mut T, len: usize) {
    let bytes = len * size_of::<T>();
    #[cfg(target_arch = "x86_64")]
    if bytes >= 1024 && !matches!(simd(), Simd::Baseline) {
        // SAFETY: the caller's contract, in bytes; the machine has AVX2
        // (both other levels include it).
        unsafe { copy_bytes_avx2(from.cast::<u8>(), to.cast::<u8>(), bytes) };
        return;
    }
    // SAFETY: the caller's contract.
    unsafe { core::ptr::copy_nonoverlapping(from, to, len) };
}

/// `bytes` bytes from `from` to `to`, 128 at a time in unaligned 32-byte
/// moves, the rest by `copy_nonoverlapping`.
///
/// # Safety
/// As [`copy_run`], in bytes; the machine has AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn copy_bytes_avx2(from: *const u8, to: *mut u8, bytes: usize) {
    use core::arch::x86_64::{__m256i, _mm256_loadu_si256, _mm256_storeu_si256};
    let blocks = bytes / 128;
    for b in 0..blocks {
        // SAFETY: block `b`'s 128 bytes lie within both ranges (b < bytes /
        // 128); the moves are unaligned.
        unsafe {
            let (src, dst) = (
                from.add(b * 128).cast::<__m256i>(),
                to.add(b * 128).cast::<__m256i>(),
            );
            let v = [
                _mm256_loadu_si256(src),
                _mm256_loadu_si256(src.add(1)),
                _mm256_loadu_si256(src.add(2)),
                _mm256_loadu_si256(src.add(3)),
            ];
            for (k, v) in v.into_iter().enumerate() {
                _mm256_storeu_si256(dst.add(k), v);
            }
        }
    }
    let done = blocks * 128;
    // SAFETY: the tail lies within both ranges.
    unsafe { core::ptr::copy_nonoverlapping(from.add(done), to.add(done), bytes - done) };
}

impl Rearranging for Cpu {
    fn rearrange<T: Element>(
        src: StridedRef<'_, T, Cpu>,
        maps: &[AxisMap],
        fill: T,
        band: Option<Band>,
    ) -> Result<CpuBuffer<T>, Error> {
        let plan = Rearrangement::new(src.sizes, src.strides, src.offset, maps, band);
        let n = plan.numel();
        let rank = plan.sizes.len();
        let cols = plan.out_sizes[rank - 1];
        if n == 0 {
            return CpuBuffer::try_full(0, fill);
        }
        let rows = Rows {
            runs: runs_of(plan.maps[rank - 1], plan.sizes[rank - 1], cols),
            plan: &plan,
            src: src.ptr.as_ptr(),
            fill,
        };
        let write = |out: &mut [MaybeUninit<T>]| {
            if cols >= PIECE {
                // Long rows: pieces of columns.
                let pieces: Vec<(usize, usize, &mut [MaybeUninit<T>])> = out
                    .chunks_mut(cols)
                    .enumerate()
                    .flat_map(|(r, row)| {
                        row.chunks_mut(PIECE)
                            .enumerate()
                            .map(move |(k, piece)| (r, k * PIECE, piece))
                    })
                    .collect();
                for_each_piece(pieces, |_, (r, first, piece)| {
                    rows.write(*r, *first, cols, piece)
                });
            } else {
                let per_piece = PIECE / cols;
                let pieces: Vec<&mut [MaybeUninit<T>]> = out.chunks_mut(per_piece * cols).collect();
                for_each_piece(pieces, |k, piece| {
                    for (r, row) in piece.chunks_mut(cols).enumerate() {
                        rows.write(k * per_piece + r, 0, cols, row);
                    }
                });
            }
        };
        // SAFETY: the pieces cover the buffer (whole rows, or a long row's
        // columns), and `Rows::write` writes every element of its piece
        // (fills and runs cover it).
        unsafe { CpuBuffer::try_new_with(n, write) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::rearrange::PadMode;

    /// The output of a plan computed one element at a time.
    fn reference(
        src: &[i32],
        sizes: &[usize],
        strides: &[usize],
        maps: &[AxisMap],
        t: Option<Band>,
    ) -> Vec<i32> {
        let plan = Rearrangement::new(sizes, strides, 0, maps, t);
        let n = plan.numel();
        (0..n)
            .map(|mut i| {
                let mut at = vec![0; plan.out_sizes.len()];
                for d in (0..at.len()).rev() {
                    at[d] = i % plan.out_sizes[d];
                    i /= plan.out_sizes[d];
                }
                plan.source_of(&at).map_or(-1, |o| src[o])
            })
            .collect()
    }

    fn run(
        src: &mut [i32],
        sizes: &[usize],
        strides: &[usize],
        maps: &[AxisMap],
        t: Option<Band>,
    ) -> Vec<i32> {
        let x = StridedRef {
            ptr: super::super::CpuPtr::from_mut(src),
            sizes,
            strides,
            offset: 0,
        };
        Cpu::rearrange(x, maps, -1, t).unwrap().as_slice().to_vec()
    }

    #[test]
    fn rows_match_the_element_by_element_reference() {
        use AxisMap::*;
        let pad = |before, after, mode| Pad {
            before,
            after,
            mode,
        };
        let mut src: Vec<i32> = (0..60).collect();
        let tri = [
            None,
            Some(Band::tril(0)),
            Some(Band::triu(1)),
            Some(Band::tril(-2)),
            Some(Band::diagonal(1)),
        ];
        let maps: &[[AxisMap; 3]] = &[
            [Same, Same, Reverse],
            [Reverse, Same, Same],
            [Same, Roll(2), Roll(3)],
            [
                Same,
                pad(1, 2, PadMode::Constant),
                pad(3, 3, PadMode::Reflect),
            ],
            [
                pad(2, 0, PadMode::Replicate),
                Reverse,
                pad(5, 6, PadMode::Circular),
            ],
            [
                Same,
                pad(-1, -1, PadMode::Constant),
                pad(0, -2, PadMode::Constant),
            ],
        ];
        // Contiguous (3, 4, 5) and a transposed view of it.
        for (sizes, strides) in [([3, 4, 5], [20, 5, 1]), ([3, 5, 4], [20, 1, 5])] {
            for m in maps {
                for t in tri {
                    assert_eq!(
                        run(&mut src, &sizes, &strides, m, t),
                        reference(&src, &sizes, &strides, m, t),
                        "{sizes:?} {strides:?} {m:?} {t:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn long_rows_cross_pieces() {
        // Rows of more than a piece are cut into pieces of columns, which
        // must still meet the runs and the band where they fall.
        let cols = 2 * PIECE + 5;
        let mut src: Vec<i32> = (0..3 * cols as i32).collect();
        let (sizes, strides) = ([3, cols], [cols, 1]);
        let pad = AxisMap::Pad {
            before: 7,
            after: -3,
            mode: PadMode::Reflect,
        };
        for maps in [
            [AxisMap::Reverse, AxisMap::Roll(PIECE + 1)],
            [AxisMap::Same, pad],
        ] {
            for band in [None, Some(Band::triu(PIECE as i64)), Some(Band::tril(-1))] {
                assert_eq!(
                    run(&mut src, &sizes, &strides, &maps, band),
                    reference(&src, &sizes, &strides, &maps, band),
                    "{maps:?} {band:?}"
                );
            }
        }
        let (sizes, strides) = ([PIECE, 3], [3, 1]);
        let tri = Some(Band::triu(0));
        assert_eq!(
            run(&mut src, &sizes, &strides, &[AxisMap::Same; 2], tri),
            reference(&src, &sizes, &strides, &[AxisMap::Same; 2], tri)
        );
    }
}
