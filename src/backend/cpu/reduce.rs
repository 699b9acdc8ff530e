//! The CPU reduction engine shared by every reduction (`sum`, `mean`,
//! `prod`, `amax`, `amin`, `max`, `min`, `argmax`, `argmin`, `all`, `any`).
//!
//! It is shape-erased: the input arrives as sizes, strides and an offset, and
//! the reduced dimensions as a mask, so one compiled loop per reducer and
//! dtype serves every shape. What to compute is a [`Reducer`]: an
//! accumulator with `init`, `step`, `combine` and `finish`.
//!
//! Plan, after dropping size-1 dimensions and merging reduced dimensions that
//! are contiguous with each other:
//! - **Rows** (the reduced dimensions include the one with the smallest
//!   stride, e.g. `sum(-1)` of a contiguous tensor or a whole-tensor sum):
//!   each output element reduces runs of the input with [`LANES`]
//!   independent accumulators, which the compiler turns into SIMD lanes.
//!   Long runs split in halves (pairwise summation, as PyTorch's cascade
//!   sum), in parallel above [`PARALLEL_MIN_ELEMENTS`].
//! - **Columns** (a kept dimension has the smallest stride, e.g. `sum(0)` of
//!   a contiguous matrix): a block of output columns keeps a row of
//!   accumulators, and whole input rows are added into it, so memory is read
//!   in order. The reduced rows split in halves (pairwise) too.
//!
//! Output blocks are shared out across rayon's threads.

use super::parallel::{for_each_index, for_each_piece, join};
use crate::backend::Reductions;
use crate::backend::cpu::{CpuBuffer, try_vec_with_capacity};
use crate::backend::{Cpu, StridedRef};
use crate::dtype::Element;
use crate::error::Error;
use crate::layout::{checked_numel, storage_span};
use crate::ops::reductions::Reducer;
use crate::ops::reductions::reducers::{Direction, ExtremeAt, Extremum};
use core::marker::PhantomData;
use core::ptr::NonNull;
use smallvec::SmallVec;
use std::sync::{Mutex, PoisonError};

pub use super::engine::PARALLEL_MIN_ELEMENTS;

/// Independent accumulators per run: 16 `f32`s are four SSE or two AVX
/// registers, enough to hide the latency of the additions.
pub const LANES: usize = 16;

/// Runs longer than this split in halves (pairwise summation).
const ROW_BLOCK: usize = 4096;

/// Output columns per block of the column plan: whole rows of up to 16 KiB
/// of `f32` accumulators (L1), read in order.
const COLUMN_BLOCK: usize = 4096;

/// Input rows added into one block of column accumulators before the
/// pairwise split.
const ROWS_PER_LEAF: usize = 128;

/// A shape-erased, read-only strided operand: the start of a storage and
/// the layout of the tensor within it. Every index of the layout lies
/// inside the storage, and nothing writes those elements while it exists.
#[derive(Copy, Clone, Debug)]
pub struct Input<'a, T> {
    start: NonNull<T>,
    len: usize,
    sizes: &'a [usize],
    strides: &'a [usize],
    offset: usize,
    borrow: PhantomData<&'a [T]>,
}

// SAFETY: an `Input` is a shared borrow of elements (`&'a [T]` is `Send`
// and `Sync` for `T: Sync`); it only reads.
unsafe impl<T: Sync> Send for Input<'_, T> {}
// SAFETY: as for `Send`.
unsafe impl<T: Sync> Sync for Input<'_, T> {}

impl<'a, T: Copy> Input<'a, T> {
    /// The operand of layout `(sizes, strides, offset)` over `data`; `None`
    /// when an index of the layout falls outside `data` or the lengths of
    /// `sizes` and `strides` differ.
    pub fn from_slice(
        data: &'a [T],
        sizes: &'a [usize],
        strides: &'a [usize],
        offset: usize,
    ) -> Option<Self> {
        let fits = sizes.len() == strides.len()
            && (sizes.contains(&0)
                || storage_span(sizes, strides, offset).is_some_and(|end| end <= data.len()));
        fits.then(|| Input {
            start: NonNull::from(data).cast(),
            len: data.len(),
            sizes,
            strides,
            offset,
            borrow: PhantomData,
        })
    }

    /// The operand of a tensor's layout over its storage.
    ///
    /// # Safety
    /// `start` points at `len` initialized elements that stay valid and
    /// unwritten for `'a`, and every index of the layout is below `len`.
    pub(crate) unsafe fn from_raw(
        start: NonNull<T>,
        len: usize,
        sizes: &'a [usize],
        strides: &'a [usize],
        offset: usize,
    ) -> Self {
        Input {
            start,
            len,
            sizes,
            strides,
            offset,
            borrow: PhantomData,
        }
    }

    /// The `len` elements from storage index `at` on, all indices of the
    /// layout (the callers only ask for runs of the layout).
    #[inline(always)]
    fn run(&self, at: usize, len: usize) -> &'a [T] {
        assert!(
            at.checked_add(len).is_some_and(|end| end <= self.len),
            "a run of the layout lies in the storage"
        );
        // SAFETY: in bounds (checked above) of `len` initialized elements
        // that nothing writes for `'a` (the contract of the constructors).
        unsafe { core::slice::from_raw_parts(self.start.as_ptr().add(at), len) }
    }

    /// The element at storage index `at`, an index of the layout.
    #[inline(always)]
    fn get(&self, at: usize) -> T {
        assert!(at < self.len, "an index of the layout lies in the storage");
        // SAFETY: as in `run`.
        unsafe { *self.start.as_ptr().add(at) }
    }
}

impl<'a, T: Element> Input<'a, T> {
    /// The operand of a CPU tensor's shape-erased layout.
    fn of(x: StridedRef<'a, T, Cpu>) -> Self {
        // The storage holds at least the layout's elements: up to its last
        // index, `offset + Σ (n - 1) · s`, which is below the storage's
        // length (the tensor invariant, checked when the layout was attached
        // to the tensor), so `extent` (that index + 1) does not overflow.
        let extent = if x.sizes.contains(&0) {
            0
        } else {
            storage_span(x.sizes, x.strides, x.offset).expect("a tensor's layout fits its storage")
        };
        // SAFETY: a `StridedRef` of the CPU borrows a tensor's storage for
        // `'a`: every index of its layout lies inside it (the tensor
        // invariant, checked when the layout was attached to the tensor), so
        // the `extent` elements from its start are initialized, and nothing
        // writes the elements the layout addresses while it is borrowed.
        // With no elements, `extent` is 0 and nothing is read.
        unsafe {
            Input::from_raw(
                NonNull::new(x.ptr.as_ptr()).expect("storage pointers are never null"),
                extent,
                x.sizes,
                x.strides,
                x.offset,
            )
        }
    }
}

/// The CPU's reductions: [`reduce`], into a new buffer, allocated (and
/// filled with the result of no elements) before anything is reduced:
/// `Err` with PyTorch's out-of-memory text when it cannot be.
impl Reductions for Cpu {
    fn reduce<T: Element, R: Reducer<T>>(
        x: StridedRef<'_, T, Cpu>,
        mask: &[bool],
        r: R,
    ) -> Result<CpuBuffer<R::Out>, Error>
    where
        R::Out: Element,
    {
        let input = Input::of(x);
        let plan = Plan::new(&input, mask)?;
        let mut out = CpuBuffer::try_full(plan.out_numel, r.finish(r.init(), 0))?;
        plan.run(input, r, out.as_mut_slice());
        Ok(out)
    }

    fn reduce_indexed<T: Extremum, W: Direction>(
        x: StridedRef<'_, T, Cpu>,
        mask: &[bool],
        r: ExtremeAt<W>,
    ) -> Result<(CpuBuffer<T>, CpuBuffer<i64>), Error> {
        let input = Input::of(x);
        let plan = Plan::new(&input, mask)?;
        // The values, then the indices, as PyTorch allocates them.
        let (value, index) = Reducer::<T>::finish(r, Reducer::<T>::init(r), 0);
        let mut values = CpuBuffer::try_full(plan.out_numel, value)?;
        let mut indices = CpuBuffer::try_full(plan.out_numel, index)?;
        plan.run(input, r, (values.as_mut_slice(), indices.as_mut_slice()));
        Ok((values, indices))
    }
}

/// Where a reduction writes its outputs, in row-major order of the kept
/// dimensions: a slice, or two written in step (the values and the indices
/// of `max(dim)`, each into its own buffer).
trait Outputs<O>: Send + Sized {
    /// The number of outputs.
    fn len(&self) -> usize;
    /// Sets output `i`.
    fn set(&mut self, i: usize, o: O);
    /// The outputs before `mid` and from `mid` on.
    fn split_at(self, mid: usize) -> (Self, Self);
}

impl<O: Send> Outputs<O> for &mut [O] {
    fn len(&self) -> usize {
        <[O]>::len(self)
    }
    #[inline(always)]
    fn set(&mut self, i: usize, o: O) {
        self[i] = o;
    }
    fn split_at(self, mid: usize) -> (Self, Self) {
        self.split_at_mut(mid)
    }
}

impl<A: Send, B: Send> Outputs<(A, B)> for (&mut [A], &mut [B]) {
    fn len(&self) -> usize {
        self.0.len()
    }
    #[inline(always)]
    fn set(&mut self, i: usize, (a, b): (A, B)) {
        self.0[i] = a;
        self.1[i] = b;
    }
    fn split_at(self, mid: usize) -> (Self, Self) {
        let (a0, a1) = self.0.split_at_mut(mid);
        let (b0, b1) = self.1.split_at_mut(mid);
        ((a0, b0), (a1, b1))
    }
}

/// A dimension: its size and stride (in the input; for kept dimensions also
/// the stride of the contiguous output).
#[derive(Copy, Clone, Debug)]
struct Axis {
    size: usize,
    stride: usize,
    out_stride: usize,
}

type Axes = SmallVec<[Axis; 6]>;

/// Reduces `input` along the dimensions where `reduced` is true, giving the
/// outputs in row-major order of the kept dimensions. `Err` with PyTorch's
/// text when the output cannot be allocated (or its size overflows); it is
/// allocated before anything is reduced.
pub fn reduce<T, R>(input: Input<'_, T>, reduced: &[bool], r: R) -> Result<Vec<R::Out>, Error>
where
    T: Copy + Send + Sync,
    R: Reducer<T>,
{
    let plan = Plan::new(&input, reduced)?;
    let mut out = try_vec_with_capacity(plan.out_numel)?;
    // Within the capacity just reserved: no further allocation.
    out.resize(plan.out_numel, r.finish(r.init(), 0));
    plan.run(input, r, &mut out[..]);
    Ok(out)
}

/// Merges neighbouring reduced dimensions that walk memory as one (an outer
/// dimension whose stride is the inner one's extent). Only the set of
/// elements matters to a multi-dimension reduction, and those reduce one
/// dimension at most, whose index stays intact.
fn coalesce(axes: Axes) -> Axes {
    let mut out = Axes::new();
    for a in axes {
        match out.last_mut() {
            Some(prev) if a.stride.checked_mul(a.size) == Some(prev.stride) => {
                // A factor of the element count when the input has elements;
                // an empty input's plan runs nothing.
                prev.size = prev.size.saturating_mul(a.size);
                prev.stride = a.stride;
            }
            _ => out.push(a),
        }
    }
    out
}

/// The input offset and output offset of linear index `i` over `axes`.
fn locate(axes: &[Axis], mut i: usize) -> (usize, usize) {
    let (mut input, mut output) = (0, 0);
    for a in axes.iter().rev() {
        let k = i % a.size;
        i /= a.size;
        input += k * a.stride;
        output += k * a.out_stride;
    }
    (input, output)
}

/// An odometer over `axes`, giving input offsets in row-major order.
struct Odometer<'a> {
    axes: &'a [Axis],
    index: SmallVec<[usize; 6]>,
    offset: usize,
}

impl<'a> Odometer<'a> {
    /// Starts at linear index `start`.
    fn new(axes: &'a [Axis], mut start: usize) -> Self {
        let mut index = SmallVec::from_elem(0, axes.len());
        let mut offset = 0;
        for (d, a) in axes.iter().enumerate().rev() {
            index[d] = start % a.size;
            start /= a.size;
            offset += index[d] * a.stride;
        }
        Odometer {
            axes,
            index,
            offset,
        }
    }

    /// Moves to the next index. (Past the last index of a dimension the
    /// offset may briefly leave the layout before it is rewound: wrapping
    /// arithmetic, exact modulo 2^64, ends at the right offset.)
    fn advance(&mut self) {
        for (d, a) in self.axes.iter().enumerate().rev() {
            self.index[d] += 1;
            self.offset = self.offset.wrapping_add(a.stride);
            if self.index[d] < a.size {
                return;
            }
            self.offset = self.offset.wrapping_sub(a.size.wrapping_mul(a.stride));
            self.index[d] = 0;
        }
    }
}

/// What a reduction walks: the kept and reduced dimensions (without
/// size-1 ones), the number of outputs, and the elements per output.
struct Plan {
    kept: Axes,
    red: Axes,
    out_numel: usize,
    count: usize,
    parallel: bool,
}

impl Plan {
    /// The plan of reducing `input` along the dimensions where `reduced` is
    /// true. `Err` when the number of outputs does not fit (PyTorch's
    /// `Storage size calculation overflowed`: the kept sizes of an empty
    /// input may multiply past `isize::MAX`), or when a layout that
    /// [`Input::from_slice`] took (stride 0 over a short slice) has more
    /// elements than `usize` counts.
    fn new<T>(input: &Input<'_, T>, reduced: &[bool]) -> Result<Plan, Error> {
        assert_eq!(
            input.sizes.len(),
            reduced.len(),
            "one mask entry per dimension"
        );
        assert_eq!(
            input.sizes.len(),
            input.strides.len(),
            "one stride per size"
        );
        let kept_sizes: SmallVec<[usize; 6]> = input
            .sizes
            .iter()
            .zip(reduced)
            .filter(|&(_, &r)| !r)
            .map(|(&n, _)| n)
            .collect();
        let out_numel = checked_numel(&kept_sizes)?;
        let mut reduced_sizes = input.sizes.iter().zip(reduced).filter(|&(_, &r)| r);
        // With no outputs, or one of the reduced sizes 0, the input has no
        // elements and nothing is counted; else the reduced sizes multiply
        // to a factor of its element count, which fits in `isize` for every
        // tensor (a stride-0 layout over a short slice may claim more).
        let count = if out_numel == 0 || reduced_sizes.clone().any(|(&n, _)| n == 0) {
            0
        } else {
            reduced_sizes
                .try_fold(1usize, |c, (&n, _)| c.checked_mul(n))
                .filter(|c| {
                    c.checked_mul(out_numel)
                        .is_some_and(|n| n <= isize::MAX as usize)
                })
                .ok_or(Error::NumelOverflow)?
        };
        let mut kept = Axes::new();
        let mut red = Axes::new();
        // Row-major output strides: partial products of `out_numel`'s
        // factors (it is 0 when a kept size is, and then unused).
        let mut out_stride = 1usize;
        for d in (0..reduced.len()).rev() {
            let (size, stride) = (input.sizes[d], input.strides[d]);
            if size == 1 {
                continue;
            }
            let axis = Axis {
                size,
                stride,
                out_stride: if reduced[d] { 0 } else { out_stride },
            };
            if reduced[d] {
                red.push(axis);
            } else {
                kept.push(axis);
                out_stride = out_stride.saturating_mul(size);
            }
        }
        kept.reverse();
        red.reverse();
        Ok(Plan {
            parallel: out_numel.saturating_mul(count) >= PARALLEL_MIN_ELEMENTS,
            kept,
            red: coalesce(red),
            out_numel,
            count,
        })
    }

    /// Writes the reduction into `out` (`out_numel` outputs), which holds
    /// the result of no elements already: nothing is left to do when there
    /// are no outputs or no elements per output.
    fn run<T, R, W>(&self, input: Input<'_, T>, r: R, out: W)
    where
        T: Copy + Send + Sync,
        R: Reducer<T>,
        W: Outputs<R::Out>,
    {
        assert_eq!(out.len(), self.out_numel, "one slot per output");
        if self.out_numel == 0 || self.count == 0 {
            return;
        }
        let smallest_reduced = self.red.last().map_or(usize::MAX, |a| a.stride);
        let smallest_kept = self
            .kept
            .iter()
            .map(|a| a.stride)
            .min()
            .unwrap_or(usize::MAX);
        if self.kept.is_empty() || smallest_reduced < smallest_kept {
            self.rows(input, r, out)
        } else {
            self.columns(input, r, out)
        }
    }

    /// The fields, by value where `Copy`.
    fn parts(&self) -> (&[Axis], &[Axis], usize, usize, bool) {
        (
            &self.kept,
            &self.red,
            self.out_numel,
            self.count,
            self.parallel,
        )
    }

    /// The row plan: every output element reduces runs along the innermost
    /// reduced dimension.
    fn rows<T, R, W>(&self, input: Input<'_, T>, r: R, mut out: W)
    where
        T: Copy + Send + Sync,
        R: Reducer<T>,
        W: Outputs<R::Out>,
    {
        let (kept, red, out_numel, count, parallel) = self.parts();
        let (inner, outer) = red.split_last().map_or(
            (
                Axis {
                    size: 1,
                    stride: 0,
                    out_stride: 0,
                },
                &[][..],
            ),
            |(i, o)| (*i, o),
        );
        let outer_count = count / inner.size;
        let one = |o: usize| {
            let base = input.offset + locate(kept, o).0;
            let mut acc = r.init();
            let mut rows = Odometer::new(outer, 0);
            for _ in 0..outer_count {
                let row = reduce_run(
                    input,
                    base + rows.offset,
                    inner.stride,
                    inner.size,
                    0,
                    parallel,
                    r,
                );
                acc = r.combine(acc, row);
                rows.advance();
            }
            r.finish(acc, count)
        };
        if parallel && out_numel > 1 {
            // A few pieces of the output per thread, each written by one.
            let chunk = out_numel.div_ceil(4 * rayon::current_num_threads()).max(1);
            let mut pieces = Vec::with_capacity(out_numel.div_ceil(chunk));
            let mut rest = out;
            while rest.len() > chunk {
                let (piece, tail) = rest.split_at(chunk);
                pieces.push(piece);
                rest = tail;
            }
            pieces.push(rest);
            for_each_piece(pieces, |c, piece| {
                for k in 0..piece.len() {
                    piece.set(k, one(c * chunk + k));
                }
            });
        } else {
            for o in 0..out_numel {
                out.set(o, one(o));
            }
        }
    }

    /// The column plan: blocks of output columns along the kept dimension of
    /// smallest stride, each with a row of accumulators. Each block's
    /// outputs are written as soon as it is done, so the memory in use is a
    /// row of accumulators per block in progress, whatever the output size.
    fn columns<T, R, W>(&self, input: Input<'_, T>, r: R, out: W)
    where
        T: Copy + Send + Sync,
        R: Reducer<T>,
        W: Outputs<R::Out>,
    {
        let (kept, red, out_numel, count, parallel) = self.parts();
        let c = (0..kept.len())
            .min_by_key(|&d| kept[d].stride)
            .expect("the column plan has a kept dimension");
        let column = kept[c];
        let others: Axes = kept
            .iter()
            .enumerate()
            .filter(|&(d, _)| d != c)
            .map(|(_, a)| *a)
            .collect();
        let blocks = column.size.div_ceil(COLUMN_BLOCK);
        let items = out_numel / column.size * blocks;
        let work = |item: usize, out: &Mutex<W>| {
            let (q, b) = (item / blocks, item % blocks);
            let (in_base, out_base) = locate(&others, q);
            let j0 = b * COLUMN_BLOCK;
            let cols = COLUMN_BLOCK.min(column.size - j0);
            let block = Columns {
                data: input,
                base: input.offset + in_base + j0 * column.stride,
                stride: column.stride,
                cols,
                red,
                parallel,
            };
            let acc = block.reduce(0, count, r);
            let at = out_base + j0 * column.out_stride;
            let mut out = out.lock().unwrap_or_else(PoisonError::into_inner);
            for (j, a) in acc.into_iter().enumerate() {
                out.set(at + j * column.out_stride, r.finish(a, count));
            }
        };
        let out = Mutex::new(out);
        if parallel && items > 1 {
            for_each_index(items, &|item| work(item, &out));
        } else {
            for item in 0..items {
                work(item, &out);
            }
        }
    }
}

/// Reduces `len` elements from `start`, `stride` apart; `first` is the
/// index of the first along the reduced dimension.
fn reduce_run<T, R>(
    data: Input<'_, T>,
    start: usize,
    stride: usize,
    len: usize,
    first: usize,
    parallel: bool,
    r: R,
) -> R::Acc
where
    T: Copy + Send + Sync,
    R: Reducer<T>,
{
    if len > ROW_BLOCK {
        let half = (len / 2).next_multiple_of(LANES);
        let left = || reduce_run(data, start, stride, half, first, parallel, r);
        let right = || {
            reduce_run(
                data,
                start + half * stride,
                stride,
                len - half,
                first + half,
                parallel,
                r,
            )
        };
        let (a, b) = if parallel && len >= PARALLEL_MIN_ELEMENTS {
            join(left, right)
        } else {
            (left(), right())
        };
        return r.combine(a, b);
    }
    let mut acc = [r.init(); LANES];
    if stride == 1 {
        let run = data.run(start, len);
        let mut chunks = run.chunks_exact(LANES);
        let mut index = first;
        for chunk in &mut chunks {
            for (a, &x) in acc.iter_mut().zip(chunk) {
                *a = r.step(*a, x, index);
                index += 1;
            }
        }
        for (a, &x) in acc.iter_mut().zip(chunks.remainder()) {
            *a = r.step(*a, x, index);
            index += 1;
        }
    } else {
        for k in 0..len {
            let lane = &mut acc[k % LANES];
            *lane = r.step(*lane, data.get(start + k * stride), first + k);
        }
    }
    combine_lanes(&acc, r)
}

/// Joins lane accumulators pairwise.
fn combine_lanes<T, R: Reducer<T>>(acc: &[R::Acc], r: R) -> R::Acc {
    match acc {
        [a] => *a,
        _ => {
            let (lo, hi) = acc.split_at(acc.len() / 2);
            r.combine(combine_lanes(lo, r), combine_lanes(hi, r))
        }
    }
}

/// One block of output columns of the column plan.
struct Columns<'a, T> {
    data: Input<'a, T>,
    base: usize,
    stride: usize,
    cols: usize,
    red: &'a [Axis],
    parallel: bool,
}

impl<T: Copy + Send + Sync> Columns<'_, T> {
    /// Accumulators of the reduced rows `from..to` (row-major over the
    /// reduced dimensions), split in halves above [`ROWS_PER_LEAF`].
    fn reduce<R: Reducer<T>>(&self, from: usize, to: usize, r: R) -> Vec<R::Acc> {
        let rows = to - from;
        if rows > ROWS_PER_LEAF {
            let mid = from + rows / 2;
            let (a, b) = if self.parallel && rows * self.cols >= PARALLEL_MIN_ELEMENTS {
                join(|| self.reduce(from, mid, r), || self.reduce(mid, to, r))
            } else {
                (self.reduce(from, mid, r), self.reduce(mid, to, r))
            };
            return a.into_iter().zip(b).map(|(x, y)| r.combine(x, y)).collect();
        }
        let mut acc = vec![r.init(); self.cols];
        let mut odometer = Odometer::new(self.red, from);
        for row in from..to {
            let start = self.base + odometer.offset;
            if self.stride == 1 {
                for (a, &x) in acc.iter_mut().zip(self.data.run(start, self.cols)) {
                    *a = r.step(*a, x, row);
                }
            } else {
                for (j, a) in acc.iter_mut().enumerate() {
                    *a = r.step(*a, self.data.get(start + j * self.stride), row);
                }
            }
            odometer.advance();
        }
        acc
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Copy, Clone)]
    struct Sum;
    impl Reducer<i64> for Sum {
        type Acc = i64;
        type Out = i64;
        fn init(self) -> i64 {
            0
        }
        fn step(self, acc: i64, x: i64, _: usize) -> i64 {
            acc + x
        }
        fn combine(self, a: i64, b: i64) -> i64 {
            a + b
        }
        fn finish(self, acc: i64, _: usize) -> i64 {
            acc
        }
    }

    /// The sum along `reduced` by a plain loop over every index.
    fn reference(data: &[i64], sizes: &[usize], strides: &[usize], reduced: &[bool]) -> Vec<i64> {
        let out_sizes: Vec<usize> = sizes
            .iter()
            .zip(reduced)
            .map(|(&s, &r)| if r { 1 } else { s })
            .collect();
        let mut out = vec![0; out_sizes.iter().product()];
        let numel: usize = sizes.iter().product();
        for i in 0..numel {
            let (mut rest, mut at, mut o, mut ostride) = (i, 0, 0, 1);
            for d in (0..sizes.len()).rev() {
                let k = rest % sizes[d];
                rest /= sizes[d];
                at += k * strides[d];
                if !reduced[d] {
                    o += k * ostride;
                    ostride *= sizes[d];
                }
            }
            out[o] += data[at];
        }
        out
    }

    #[test]
    fn rows_and_columns_agree_with_a_plain_loop() {
        let data: Vec<i64> = (0..3 * 5000).map(|i| (i * 7919 % 1000) as i64).collect();
        // (3, 5000) contiguous and its transpose (5000, 3), every mask.
        for (sizes, strides) in [([3, 5000], [5000, 1]), ([5000, 3], [1, 5000])] {
            for mask in [[true, false], [false, true], [true, true], [false, false]] {
                let x = Input::from_slice(&data, &sizes, &strides, 0).unwrap();
                assert_eq!(
                    reduce(x, &mask, Sum).unwrap(),
                    reference(&data, &sizes, &strides, &mask),
                    "{sizes:?} {strides:?} {mask:?}"
                );
            }
        }
    }

    #[test]
    fn large_inputs_split_across_threads() {
        let n = 3 * PARALLEL_MIN_ELEMENTS + 17;
        let data: Vec<i64> = (0..n as i64).collect();
        let flat = [n];
        let whole = Input::from_slice(&data, &flat, &[1], 0).unwrap();
        assert_eq!(
            reduce(whole, &[true], Sum).unwrap(),
            vec![(n as i64 - 1) * n as i64 / 2]
        );
        let cols = n / 17;
        let (sizes, strides) = ([17, cols], [cols, 1]);
        let m = Input::from_slice(&data, &sizes, &strides, 0).unwrap();
        assert_eq!(
            reduce(m, &[true, false], Sum).unwrap(),
            reference(&data, &sizes, &strides, &[true, false])
        );
        assert_eq!(
            reduce(m, &[false, true], Sum).unwrap(),
            reference(&data, &sizes, &strides, &[false, true])
        );
    }

    #[test]
    fn layouts_outside_the_slice_are_refused() {
        let data = [1i64; 6];
        assert!(Input::from_slice(&data, &[2, 3], &[3, 1], 1).is_none());
        assert!(Input::from_slice(&data, &[2, 3], &[4, 1], 0).is_none());
        assert!(Input::from_slice(&data, &[2, 3], &[1], 0).is_none());
        assert!(Input::from_slice(&data, &[0, 9], &[9, 1], 99).is_some());
        let x = Input::from_slice(&data, &[2, 2], &[3, 2], 0).unwrap();
        assert_eq!(reduce(x, &[true, true], Sum).unwrap(), vec![4]);
    }

    #[test]
    fn empty_reductions_give_the_initial_state() {
        let data: Vec<i64> = vec![];
        let x = Input::from_slice(&data, &[0, 4], &[4, 1], 0).unwrap();
        assert_eq!(reduce(x, &[true, false], Sum).unwrap(), vec![0; 4]);
        assert!(reduce(x, &[false, true], Sum).unwrap().is_empty());
    }

    #[test]
    fn outputs_are_allocated_fallibly() {
        // No elements, 2^58 outputs (2^61 bytes: past any address space, so
        // refused even where the kernel overcommits): PyTorch's
        // out-of-memory error for the output's bytes, not an abort.
        let data: Vec<i64> = vec![];
        let sizes = [0, 1 << 58];
        let x = Input::from_slice(&data, &sizes, &[1 << 58, 1], 0).unwrap();
        let err = reduce(x, &[true, false], Sum).unwrap_err();
        assert_eq!(err, Error::OutOfMemory { bytes: 8 << 58 });
        // Kept sizes whose product passes `isize::MAX` (an empty input may
        // have them): PyTorch's overflow error.
        let sizes = [0, 1 << 62, 4];
        let x = Input::from_slice(&data, &sizes, &[0, 0, 0], 0).unwrap();
        assert_eq!(
            reduce(x, &[true, false, false], Sum)
                .unwrap_err()
                .to_string(),
            "Storage size calculation overflowed with sizes=[4611686018427387904, 4]"
        );
        // Reduced sizes of a stride-0 layout that no `usize` counts: the
        // element count's overflow, before anything is read.
        let one = [1i64];
        let sizes = [1 << 40, 1 << 40];
        let x = Input::from_slice(&one, &sizes, &[0, 0], 0).unwrap();
        assert_eq!(reduce(x, &[true, true], Sum), Err(Error::NumelOverflow));
        assert_eq!(reduce(x, &[false, true], Sum), Err(Error::NumelOverflow));
    }

    #[test]
    fn many_column_blocks_write_straight_into_the_output() {
        // The column plan over many blocks of outputs, in parallel: every
        // output is written once, where it belongs.
        let (rows, cols) = (20, 3 * COLUMN_BLOCK + 5);
        let data: Vec<i64> = (0..(rows * cols) as i64).map(|i| i % 1009).collect();
        let (sizes, strides) = ([rows, cols], [cols, 1]);
        let x = Input::from_slice(&data, &sizes, &strides, 0).unwrap();
        assert_eq!(
            reduce(x, &[true, false], Sum).unwrap(),
            reference(&data, &sizes, &strides, &[true, false])
        );
        let (sizes, strides) = ([2, rows, cols / 2], [cols / 2 * rows, cols / 2, 1]);
        let x = Input::from_slice(&data, &sizes, &strides, 0).unwrap();
        assert_eq!(
            reduce(x, &[false, true, false], Sum).unwrap(),
            reference(&data, &sizes, &strides, &[false, true, false])
        );
    }
}
