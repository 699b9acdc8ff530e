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
use crate::backend::{GatherFault, GatherSource, IndexWrap, Indexing, StridedRef};
use crate::dtype::{Element, IndexElement};
use crate::layout::numel;
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
