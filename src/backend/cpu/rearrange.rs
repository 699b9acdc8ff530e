//! `impl Rearranging for Cpu`: the output row by row (a row: the last
//! merged dimension), rows spread over rayon's threads in pieces. The last
//! dimension's map is cut once into runs ([`Run`]): stretches that read the
//! source forwards, backwards, in place, or not at all (the fill value), so
//! a flipped row is one reversed copy, a rolled row two copies and a padded
//! row copies between fills; each row then adds its outer dimensions'
//! offset and moves its runs, clipped to a band's kept columns.

use super::parallel::for_each_piece;
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

/// The runs of a last dimension of length `n` read through `map`.
fn runs_of(map: AxisMap, n: usize, out_len: usize) -> Vec<Run> {
    let mut runs: Vec<Run> = Vec::new();
    for k in 0..out_len {
        let at = map.source(k, n);
        if let Some(last) = runs.last_mut() {
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
    runs
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
    /// Writes output row `row` into `dst` (one row's length).
    fn write(&self, row: usize, dst: &mut [MaybeUninit<T>]) {
        let plan = self.plan;
        let rank = plan.sizes.len();
        let cols = dst.len();
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
        let stride = plan.strides[rank - 1];
        let mut at = 0;
        for run in &self.runs {
            let (lo, hi) = (at.max(window.0), (at + run.len).min(window.1));
            if lo >= hi {
                fill(&mut dst[at..at + run.len], self.fill);
            } else {
                fill(&mut dst[at..lo], self.fill);
                match run.start {
                    None => fill(&mut dst[lo..hi], self.fill),
                    Some(start) => {
                        let first = start as isize + run.step * (lo - at) as isize;
                        // SAFETY: every position the run reads, `first + j *
                        // step` for `j < hi - lo`, is a source position of the
                        // last dimension (the map named it), and `base` the
                        // offset of valid outer positions: each read is an
                        // index of the source's checked layout, inside its
                        // buffer, and the source is only read meanwhile.
                        unsafe {
                            read_run(
                                &mut dst[lo..hi],
                                self.src.add(base),
                                first as usize,
                                run.step * stride as isize,
                                stride,
                            )
                        };
                    }
                }
                fill(&mut dst[hi..at + run.len], self.fill);
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
            1 => core::ptr::copy_nonoverlapping(from, dst.as_mut_ptr().cast::<T>(), len),
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
        let per_piece = (PIECE / cols).max(1);
        let write = |out: &mut [MaybeUninit<T>]| {
            let pieces: Vec<&mut [MaybeUninit<T>]> = out.chunks_mut(per_piece * cols).collect();
            for_each_piece(pieces, |k, piece| {
                for (r, row) in piece.chunks_mut(cols).enumerate() {
                    rows.write(k * per_piece + r, row);
                }
            });
        };
        // SAFETY: the pieces cover the buffer in whole rows, and `Rows::write`
        // writes every element of its row (fills and runs cover it).
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
        let mut src: Vec<i32> = (0..3 * PIECE as i32).collect();
        let (sizes, strides) = ([3, PIECE], [PIECE, 1]);
        let maps = [AxisMap::Reverse, AxisMap::Roll(7)];
        assert_eq!(
            run(&mut src, &sizes, &strides, &maps, None),
            reference(&src, &sizes, &strides, &maps, None)
        );
        let (sizes, strides) = ([PIECE, 3], [3, 1]);
        let tri = Some(Band::triu(0));
        assert_eq!(
            run(&mut src, &sizes, &strides, &[AxisMap::Same; 2], tri),
            reference(&src, &sizes, &strides, &[AxisMap::Same; 2], tri)
        );
    }
}
