//! Reading by index tensors on the CPU: `impl Indexing for Cpu`.
//!
//! One kernel serves `gather`, `index_select`, `take` and
//! `take_along_dim`: the elementwise engine walks the output, the source
//! (stride 0 along the gathered dimension) and the index together, and each
//! element reads the source at its run's offset plus `index * dim_stride`.
//! A run whose index does not change (an `index_select` row: the index is
//! stretched along the dimensions after the gathered one) checks its index
//! once and copies a contiguous stretch as one block.

use super::engine::{self, Row, Visit};
use super::{Cpu, CpuBuffer, CpuPtr};
use crate::backend::{
    GatherFault, GatherSource, IndexWrap, Indexing, Masking, ScatterTarget, ScatterValues,
    Scattering, StridedMut, StridedRef,
};
use crate::dtype::{Element, IndexElement};
use crate::error::Error;
use crate::layout::numel;
use crate::ops::functions::BinaryFn;
use core::mem::MaybeUninit;
use core::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

/// The first bad index met, by output position: the engine splits work
/// across threads, and the one reported is the first in row-major order
/// whatever the order the rows ran in.
struct FirstFault {
    seen: AtomicBool,
    first: Mutex<Option<(usize, i64)>>,
}

impl FirstFault {
    fn new() -> Self {
        FirstFault {
            seen: AtomicBool::new(false),
            first: Mutex::new(None),
        }
    }

    #[cold]
    fn record(&self, position: usize, index: i64) {
        self.seen.store(true, Ordering::Relaxed);
        let mut first = self.first.lock().unwrap_or_else(|e| e.into_inner());
        if first.is_none_or(|(p, _)| position < p) {
            *first = Some((position, index));
        }
    }

    fn into_index(self) -> Option<i64> {
        let first = self.first.into_inner().unwrap_or_else(|e| e.into_inner());
        first.map(|(_, index)| index)
    }
}

/// The visitor: operand 0 the fresh output, 1 the source, 2 the index.
struct Gather<'f, T, I> {
    dst: CpuPtr<MaybeUninit<T>>,
    src: CpuPtr<T>,
    index: CpuPtr<I>,
    dim_stride: usize,
    dim_len: usize,
    wrap: IndexWrap,
    fault: &'f FirstFault,
}

impl<T: Element, I: IndexElement> Gather<'_, T, I> {
    /// The position along the gathered dimension of the index `raw`, or
    /// `None` when it lies outside.
    #[inline(always)]
    fn resolve(&self, raw: i64) -> Option<usize> {
        self.wrap.resolve(raw, self.dim_len)
    }
}

impl<T: Element, I: IndexElement> Visit<3> for Gather<'_, T, I> {
    fn row(&self, r: Row<3>) {
        if self.fault.seen.load(Ordering::Relaxed) {
            // Another run met a bad index: the buffer will not be returned,
            // and this run's indices may only be checked for an earlier one.
            for i in 0..r.len {
                // SAFETY: as below, for the index reads.
                let raw = unsafe {
                    (*self.index.as_ptr().add(r.offsets[2] + i * r.strides[2])).to_index()
                };
                if self.resolve(raw).is_none() {
                    self.fault.record(r.offsets[0] + i * r.strides[0], raw);
                    return;
                }
            }
            return;
        }
        // SAFETY: the engine visits each output position once; output
        // offsets lie in the fresh buffer of `numel(sizes)` elements. The
        // index offsets are indices of the index's layout over the output's
        // sizes (its own layout, stretched with stride 0), which lie in its
        // storage. The source offset of a run plus `i * stride` is an index
        // of the source's layout with the gathered coordinate 0, and
        // `resolve` keeps the index in `0..dim_len`, so adding `at *
        // dim_stride` moves along the gathered dimension inside the layout.
        // Nothing writes the source or the index meanwhile (shared borrows).
        unsafe {
            let out = self.dst.as_ptr().add(r.offsets[0]);
            let src = self.src.as_ptr().add(r.offsets[1]);
            let index = self.index.as_ptr().add(r.offsets[2]);
            if r.strides[2] == 0 {
                // One index for the whole run (`index_select`'s rows).
                let raw = (*index).to_index();
                let Some(at) = self.resolve(raw) else {
                    return self.fault.record(r.offsets[0], raw);
                };
                let src = src.add(at * self.dim_stride);
                if r.strides[0] == 1 && r.strides[1] == 1 {
                    core::ptr::copy_nonoverlapping(src.cast::<MaybeUninit<T>>(), out, r.len);
                } else {
                    for i in 0..r.len {
                        (*out.add(i * r.strides[0])).write(*src.add(i * r.strides[1]));
                    }
                }
                return;
            }
            for i in 0..r.len {
                let raw = (*index.add(i * r.strides[2])).to_index();
                let Some(at) = self.resolve(raw) else {
                    return self.fault.record(r.offsets[0] + i * r.strides[0], raw);
                };
                let value = *src.add(i * r.strides[1] + at * self.dim_stride);
                (*out.add(i * r.strides[0])).write(value);
            }
        }
    }

    fn widest_element(&self) -> usize {
        size_of::<T>().max(size_of::<I>())
    }
}

impl Indexing for Cpu {
    fn gather<T: Element, I: IndexElement>(
        sizes: &[usize],
        source: GatherSource<'_, T, Cpu>,
        index: StridedRef<'_, I, Cpu>,
        wrap: IndexWrap,
    ) -> Result<CpuBuffer<T>, GatherFault> {
        let n = numel(sizes);
        let fault = FirstFault::new();
        let src = source.elements;
        let fill = |dst: &mut [MaybeUninit<T>]| {
            let visit = Gather {
                dst: CpuPtr::from_mut(dst),
                src: src.ptr,
                index: index.ptr,
                dim_stride: source.dim_stride,
                dim_len: source.dim_len,
                wrap,
                fault: &fault,
            };
            if n > 0 {
                engine::run_contiguous_output(
                    sizes,
                    [&[], src.strides, index.strides],
                    [0, src.offset, index.offset],
                    visit,
                );
            }
            // A bad index leaves elements unwritten: the buffer must not be
            // kept (the fault below replaces this placeholder error).
            match fault.seen.load(Ordering::Relaxed) {
                false => Ok(()),
                true => Err(crate::error::Error::Unsupported {
                    message: "a bad index",
                }),
            }
        };
        // SAFETY: without a fault every output position was visited once and
        // written; with one, `fill` returns `Err` and the buffer is dropped
        // unread.
        let result = unsafe { CpuBuffer::try_new_fallible(n, fill) };
        match fault.into_index() {
            Some(bad) => Err(GatherFault::Index(bad)),
            None => Ok(result?),
        }
    }

    fn check_indices<I: IndexElement>(
        index: StridedRef<'_, I, Cpu>,
        len: usize,
        wrap: IndexWrap,
    ) -> Result<(), GatherFault> {
        let fault = FirstFault::new();
        let check = |r: Row<2>| {
            for i in 0..r.len {
                // SAFETY: the engine's offsets are indices of the index's
                // layout, inside its storage; nothing writes it meanwhile.
                let raw = unsafe {
                    (*index.ptr.as_ptr().add(r.offsets[1] + i * r.strides[1])).to_index()
                };
                if wrap.resolve(raw, len).is_none() {
                    return fault.record(r.offsets[0] + i * r.strides[0], raw);
                }
            }
        };
        if numel(index.sizes) > 0 {
            engine::run_contiguous_output(
                index.sizes,
                [&[], index.strides],
                [0, index.offset],
                check,
            );
        }
        fault
            .into_index()
            .map_or(Ok(()), |bad| Err(GatherFault::Index(bad)))
    }
}

/// Positions from which a scatter with no scattered dimension (`put`,
/// `index_put_`) splits its target among the threads.
const FLAT_SCATTER_SPLIT: usize = 1 << 16;

/// Lines along the scattered dimension handed to one task: enough work to
/// pay for a task, few enough tasks to share out.
const SCATTER_TASK_ELEMENTS: usize = 1 << 15;

/// The storage offsets of each operand (0 target, 1 values, 2 index) at
/// the start of line `line`: the row-major coordinates of `line` over
/// `sizes` without dimension `dim` (with every dimension when `dim` is
/// none of them).
fn line_starts(
    mut line: usize,
    sizes: &[usize],
    strides: [&[usize]; 3],
    offsets: [usize; 3],
    dim: usize,
) -> [usize; 3] {
    let mut at = offsets;
    for d in (0..sizes.len()).rev().filter(|&d| d != dim) {
        let k = line % sizes[d];
        line /= sizes[d];
        for (a, s) in at.iter_mut().zip(strides) {
            *a += k * s[d];
        }
    }
    at
}

/// One scatter's operands, shape-erased, for the line loop.
struct Scatter<'s, T, I, F> {
    target: CpuPtr<T>,
    values: Option<CpuPtr<T>>,
    value: T,
    index: CpuPtr<I>,
    sizes: &'s [usize],
    strides: [&'s [usize]; 3],
    offsets: [usize; 3],
    dim_stride: usize,
    dim_len: usize,
    wrap: IndexWrap,
    combine: F,
}

impl<T: Element, I: IndexElement, F: BinaryFn<T, T, T>> Scatter<'_, T, I, F> {
    /// The positions of line `line` along `dim`, in order. `false` when an
    /// index lies outside (that position and the rest of the line are not
    /// written).
    ///
    /// # Safety
    /// No other thread may write the target's elements of this line.
    unsafe fn line(&self, line: usize, dim: usize) -> bool {
        let at = line_starts(line, self.sizes, self.strides, self.offsets, dim);
        let step = self.strides.map(|s| s[dim]);
        // SAFETY: the caller's contract for the target's line.
        unsafe { self.run(at, step, self.sizes[dim]) }
    }

    /// One past the furthest target offset a position can write.
    fn target_reach(&self) -> usize {
        let far: usize = self
            .sizes
            .iter()
            .zip(self.strides[0])
            .map(|(&n, &s)| n.saturating_sub(1).saturating_mul(s))
            .fold(self.offsets[0], usize::saturating_add);
        far.saturating_add(
            self.dim_len
                .saturating_sub(1)
                .saturating_mul(self.dim_stride),
        )
        .saturating_add(1)
    }

    /// [`Scatter::run`] writing only the elements whose storage offsets
    /// lie in `within` (the others are skipped, their indices still
    /// checked).
    ///
    /// # Safety
    /// No other thread may write the target's elements in `within`.
    unsafe fn run_within(
        &self,
        at: [usize; 3],
        step: [usize; 3],
        count: usize,
        within: &core::ops::Range<usize>,
    ) -> bool {
        for k in 0..count {
            // SAFETY: as in `run`; the element written lies in `within`,
            // which no other thread writes (the caller's contract).
            unsafe {
                let raw = (*self.index.as_ptr().add(at[2] + k * step[2])).to_index();
                let Some(i) = self.wrap.resolve(raw, self.dim_len) else {
                    return false;
                };
                let offset = at[0] + k * step[0] + i * self.dim_stride;
                if !within.contains(&offset) {
                    continue;
                }
                let value = match self.values {
                    Some(v) => *v.as_ptr().add(at[1] + k * step[1]),
                    None => self.value,
                };
                let out = self.target.as_ptr().add(offset);
                *out = self.combine.call(*out, value);
            }
        }
        true
    }

    /// `count` positions from storage offsets `at`, `step` apart.
    ///
    /// # Safety
    /// As [`Scatter::line`], for the elements these positions write.
    unsafe fn run(&self, at: [usize; 3], step: [usize; 3], count: usize) -> bool {
        for k in 0..count {
            // SAFETY: `at + k * step` is an index of the index's and the
            // values' layouts over the sizes (their own strides, or 0 where
            // stretched), inside their storages; the target's offset plus
            // `resolved * dim_stride` is an index of its layout (the
            // resolved index lies in `0..dim_len`), which no other thread
            // writes (the caller's contract) and no reference aliases (the
            // target is borrowed mutably for the call).
            unsafe {
                let raw = (*self.index.as_ptr().add(at[2] + k * step[2])).to_index();
                let Some(i) = self.wrap.resolve(raw, self.dim_len) else {
                    return false;
                };
                let value = match self.values {
                    Some(v) => *v.as_ptr().add(at[1] + k * step[1]),
                    None => self.value,
                };
                let out = self
                    .target
                    .as_ptr()
                    .add(at[0] + k * step[0] + i * self.dim_stride);
                *out = self.combine.call(*out, value);
            }
        }
        true
    }
}

impl Scattering for Cpu {
    fn scatter<T: Element, I: IndexElement, F: BinaryFn<T, T, T>>(
        sizes: &[usize],
        target: ScatterTarget<'_, T, Cpu>,
        values: ScatterValues<'_, T, Cpu>,
        index: StridedRef<'_, I, Cpu>,
        wrap: IndexWrap,
        combine: F,
    ) -> Result<(), Error> {
        let n = numel(sizes);
        if n == 0 {
            return Ok(());
        }
        let zeros = vec![0; sizes.len()];
        let (values, value, values_strides, values_offset) = match values {
            ScatterValues::Tensor(v) => (Some(v.ptr), T::ZERO, v.strides, v.offset),
            ScatterValues::Value(x) => (None, x, &zeros[..], 0),
        };
        let scatter = Scatter {
            target: target.elements.ptr,
            values,
            value,
            index: index.ptr,
            sizes,
            strides: [target.elements.strides, values_strides, index.strides],
            offsets: [target.elements.offset, values_offset, index.offset],
            dim_stride: target.dim_stride,
            dim_len: target.dim_len,
            wrap,
            combine,
        };
        let bad = AtomicBool::new(false);
        match target.dim {
            // Lines along the scattered dimension write disjoint parts of
            // the target (their other coordinates differ): they run in
            // parallel, each in index order.
            Some(dim) if !sizes.is_empty() => {
                let lines = n / sizes[dim];
                let per_task = (SCATTER_TASK_ELEMENTS / sizes[dim].max(1)).max(1);
                let tasks = lines.div_ceil(per_task);
                let task = |t: usize| {
                    for line in t * per_task..((t + 1) * per_task).min(lines) {
                        // SAFETY: each line is one task's alone.
                        if !unsafe { scatter.line(line, dim) } {
                            bad.store(true, Ordering::Relaxed);
                            return;
                        }
                    }
                };
                if tasks > 1 {
                    super::parallel::for_each_index(tasks, &task);
                } else {
                    task(0);
                }
            }
            // `put` and `index_put_` (flat positions may meet anywhere) and
            // rank 0: every position in row-major order, in runs along the
            // last dimension. Large ones split the target's storage into
            // one range per thread: each thread walks every position and
            // writes those whose element lies in its range, so repeated
            // positions still combine in order and no element has two
            // writers.
            _ => {
                let last = sizes.len().checked_sub(1);
                let run_len = last.map_or(1, |d| sizes[d]);
                let step = last.map_or([0; 3], |d| scatter.strides.map(|s| s[d]));
                let lines = n / run_len.max(1);
                let reach = scatter.target_reach();
                let parts = match n >= FLAT_SCATTER_SPLIT {
                    true => rayon::current_num_threads().max(1),
                    false => 1,
                };
                let width = reach.div_ceil(parts).max(1);
                let part = |p: usize| {
                    let within = p * width..((p + 1) * width).min(reach);
                    for line in 0..lines {
                        let at = line_starts(
                            line,
                            sizes,
                            scatter.strides,
                            scatter.offsets,
                            last.unwrap_or(usize::MAX),
                        );
                        // SAFETY: this part alone writes the elements in
                        // `within`.
                        if !unsafe { scatter.run_within(at, step, run_len, &within) } {
                            bad.store(true, Ordering::Relaxed);
                            return;
                        }
                    }
                };
                if parts > 1 {
                    super::parallel::for_each_index(parts, &part);
                } else {
                    part(0);
                }
            }
        }
        match bad.load(Ordering::Relaxed) {
            false => Ok(()),
            true => Err(Error::Unsupported {
                message: "scatter: an index outside its dimension reached the kernel unchecked",
            }),
        }
    }
}

/// Calls `f` with the storage offsets of each operand at every position
/// of `sizes`, in row-major order, on this thread: the order that
/// `masked_select` and `nonzero` give their results in.
fn for_each_row_major<const N: usize>(
    sizes: &[usize],
    strides: [&[usize]; N],
    offsets: [usize; N],
    mut f: impl FnMut([usize; N]),
) {
    if sizes.contains(&0) {
        return;
    }
    let Some(last) = sizes.len().checked_sub(1) else {
        return f(offsets);
    };
    let step = strides.map(|s| s[last]);
    let mut index = vec![0usize; sizes.len()];
    let mut at = offsets;
    loop {
        for k in 0..sizes[last] {
            f(core::array::from_fn(|n| at[n] + k * step[n]));
        }
        // The odometer over the dimensions before the last.
        let mut d = last;
        loop {
            let Some(outer) = d.checked_sub(1) else {
                return;
            };
            d = outer;
            index[d] += 1;
            if index[d] < sizes[d] {
                at = core::array::from_fn(|n| at[n] + strides[n][d]);
                break;
            }
            at = core::array::from_fn(|n| at[n] - (index[d] - 1) * strides[n][d]);
            index[d] = 0;
        }
    }
}

impl Masking for Cpu {
    fn masked_select<T: Element>(
        sizes: &[usize],
        src: StridedRef<'_, T, Cpu>,
        mask: StridedRef<'_, bool, Cpu>,
    ) -> Result<CpuBuffer<T>, Error> {
        let mut out = Vec::new();
        let (s, m) = (src.ptr, mask.ptr);
        // SAFETY: the offsets are indices of the two layouts over `sizes`,
        // inside their storages, which nothing writes meanwhile.
        let mut first_error = None;
        for_each_row_major(
            sizes,
            [src.strides, mask.strides],
            [src.offset, mask.offset],
            |[a, b]| {
                if first_error.is_none() && unsafe { *m.as_ptr().add(b) } {
                    if out.try_reserve(1).is_err() {
                        first_error = Some(super::buffer::out_of_memory::<T>(out.len() + 1));
                        return;
                    }
                    out.push(unsafe { *s.as_ptr().add(a) });
                }
            },
        );
        match first_error {
            Some(e) => Err(e),
            None => Ok(out.into()),
        }
    }

    fn masked_scatter<T: Element>(
        out: StridedMut<'_, T, Cpu>,
        mask: StridedRef<'_, bool, Cpu>,
        source: StridedRef<'_, T, Cpu>,
    ) -> Result<(), Error> {
        let available = numel(source.sizes);
        let m = mask.ptr;
        let mut trues = 0;
        // SAFETY: the offsets are indices of the mask's layout over the
        // sizes, inside its storage.
        for_each_row_major(out.sizes, [mask.strides], [mask.offset], |[b]| {
            trues += usize::from(unsafe { *m.as_ptr().add(b) });
        });
        if trues > available {
            return Err(Error::MaskedScatterSource);
        }
        let (o, s) = (out.ptr, source.ptr);
        let mut next = source.offset;
        // SAFETY: `out` is a writable layout borrowed mutably for the call
        // (its indices distinct, inside its buffer); the source holds
        // `available >= trues` elements contiguously from its offset, and
        // is another tensor (a shared borrow beside the mutable one).
        for_each_row_major(
            out.sizes,
            [out.strides, mask.strides],
            [out.offset, mask.offset],
            |[a, b]| unsafe {
                if *m.as_ptr().add(b) {
                    *o.as_ptr().add(a) = *s.as_ptr().add(next);
                    next += 1;
                }
            },
        );
        Ok(())
    }

    fn nonzero<T: Element>(x: StridedRef<'_, T, Cpu>) -> Result<(CpuBuffer<i64>, usize), Error> {
        let rank = x.sizes.len();
        let mut out: Vec<i64> = Vec::new();
        let mut count = 0;
        let mut coords = vec![0usize; rank];
        let mut failed = None;
        let p = x.ptr;
        for_each_row_major(x.sizes, [x.strides], [x.offset], |[a]| {
            // SAFETY: `a` is an index of `x`'s layout, inside its storage.
            let v = unsafe { *p.as_ptr().add(a) };
            if failed.is_none() && v != T::ZERO {
                if out.try_reserve(rank).is_err() {
                    failed = Some(super::buffer::out_of_memory::<i64>(out.len() + rank));
                } else {
                    out.extend(coords.iter().map(|&c| c as i64));
                    count += 1;
                }
            }
            // The next position's coordinates, row-major.
            for d in (0..rank).rev() {
                coords[d] += 1;
                if coords[d] < x.sizes[d] {
                    break;
                }
                coords[d] = 0;
            }
        });
        if let Some(e) = failed {
            return Err(e);
        }
        // Column by column (PyTorch's layout of `nonzero`: strides [1, n]).
        let mut columns = super::try_vec_with_capacity::<i64>(out.len())?;
        for d in 0..rank {
            columns.extend(out.iter().skip(d).step_by(rank.max(1)).copied());
        }
        Ok((columns.into(), count))
    }
}
