//! The CPU's elementwise kernels: the row kernels that apply an element
//! function ([`crate::ops::functions`]) along the runs the
//! [`engine`] hands out, and [`Elementwise`] for [`Cpu`].
//!
//! Each row kernel has a fast path for contiguous rows (plain slices, which
//! the compiler vectorizes), one for a broadcast (stride-0) operand, and a
//! general strided path.

use super::buffer::SMALL_BUFFER_ELEMENTS;
use super::engine::{self, Row, TILE_BYTES, Tile, Visit};
use super::{Cpu, CpuBuffer, CpuPtr, try_vec_with_capacity};
use crate::backend::{Elementwise, StridedMut, StridedRef};
use crate::dtype::Element;
use crate::dtype::cast::cast;
use crate::error::{Error, OrPanic};
use crate::layout::{contiguous_strides, is_contiguous, numel};
use crate::ops::functions::{BinaryFn, Cast, Identity, TernaryFn, UnaryFn};
use core::mem::MaybeUninit;

/// Writes `f(a)` for every element of `a`, in row-major order, into `dst`
/// (whose length is `a`'s element count).
pub(crate) fn write_map1<A: Element, U: Element, F: UnaryFn<A, U>>(
    dst: &mut [MaybeUninit<U>],
    a: StridedRef<'_, A, Cpu>,
    f: F,
) {
    debug_assert_eq!(dst.len(), numel(a.sizes));
    let visit = Map1 {
        dst: CpuPtr::from_mut(dst),
        a: a.ptr,
        f,
    };
    engine::run_contiguous_output(a.sizes, [&[], a.strides], [0, a.offset], visit);
}

/// Writes `f(a)` into the part of `dst` that starts at `offset` with
/// strides `strides` (one run per contiguous stretch, tiles for transposed
/// inputs): how `cat` fills each part of its output.
///
/// # Safety
/// Every index `offset + i · strides` for `i` inside `a.sizes` must lie in
/// the buffer `dst` points to, no two of them equal, and no other access
/// to those elements may happen during the call.
pub(crate) unsafe fn write_map1_strided<A: Element, U: Element, F: UnaryFn<A, U>>(
    dst: CpuPtr<MaybeUninit<U>>,
    strides: &[usize],
    offset: usize,
    a: StridedRef<'_, A, Cpu>,
    f: F,
) {
    let visit = Map1 { dst, a: a.ptr, f };
    engine::run(a.sizes, [strides, a.strides], [offset, a.offset], visit);
}

/// The visitor of `map1`: writes `f(a)` into a fresh contiguous output.
struct Map1<A, U, F> {
    dst: CpuPtr<MaybeUninit<U>>,
    a: CpuPtr<A>,
    f: F,
}

impl<A: Element, U: Element, F: UnaryFn<A, U>> Visit<2> for Map1<A, U, F> {
    fn row(&self, r: Row<2>) {
        // SAFETY: the engine visits each index once, in runs of at least one
        // element; output offsets are inside the fresh output (contiguous,
        // or the block `write_map1_strided`'s caller vouches for) and
        // distinct runs never share an element; input offsets are indices of
        // `a`'s layout, which lie inside its storage (the tensor invariant,
        // checked when the layout was attached to the tensor), and `a` is
        // borrowed shared, so nothing writes it during the operation.
        unsafe { map1_row(self.dst, self.a, r, self.f) }
    }

    fn widest_element(&self) -> usize {
        size_of::<A>().max(size_of::<U>())
    }

    fn tile(&self, t: Tile<2>) {
        if self.f.is_identity()
            && core::any::TypeId::of::<A>() == core::any::TypeId::of::<U>()
            && BLOCK_TRANSPOSED.contains(&size_of::<A>())
            && t.row_strides[1] == 1
            && t.col_strides[0] == 1
        {
            // A transposed copy of elements that move in register blocks:
            // straight from the input into the output, with no staging.
            let src = self.a.as_ptr().wrapping_add(t.offsets[1]);
            let dst = self.dst.as_ptr().wrapping_add(t.offsets[0]).cast::<A>();
            // SAFETY: every `(r, c)` of the tile is inside `a`'s layout, at
            // `src + r + c * col_strides[1]`, and its output element at
            // `dst + r * row_strides[0] + c` is inside the fresh output,
            // written by no other tile; the output does not overlap `a`;
            // `A` is `U`, and the copy keeps every value.
            unsafe {
                transpose_block(src, t.col_strides[1], t.rows, t.cols, dst, t.row_strides[0])
            };
            return;
        }
        let mut scratch = Scratch::new();
        // SAFETY: the tile's input elements lie inside `a`'s layout.
        let (a, ra) = unsafe { stage(self.a, &t, 1, &mut scratch) };
        for r in 0..t.rows {
            let row = Row {
                offsets: [
                    t.offsets[0] + r * t.row_strides[0],
                    ra.offsets[0] + r * ra.row_stride,
                ],
                strides: [t.col_strides[0], ra.col_stride],
                len: t.cols,
            };
            // SAFETY: as in `row`; a staged input is read from `scratch`,
            // where the tile was copied.
            unsafe { map1_row(self.dst, a, row, self.f) }
        }
    }
}

/// A staging buffer for one operand's part of a tile: [`TILE_BYTES`]
/// bytes, aligned for every element type.
#[repr(C, align(64))]
struct Scratch([MaybeUninit<u8>; TILE_BYTES]);

impl Scratch {
    fn new() -> Self {
        Scratch([MaybeUninit::uninit(); TILE_BYTES])
    }
}

/// Where a tile's run `r` of one input starts and steps, after staging.
#[derive(Copy, Clone)]
struct Staged {
    offsets: [usize; 1],
    row_stride: usize,
    col_stride: usize,
}

/// Copies operand `k`'s part of tile `t` into `scratch` as a contiguous
/// `rows x cols` block when its runs are strided (a transposed operand, read
/// here along its contiguous dimension), and says where to read it from.
/// Operands that are already contiguous or broadcast along the runs are
/// read in place.
///
/// # Safety
/// Every element of operand `k` in the tile must be valid for reads, and
/// the tile hold at most [`TILE_BYTES`] bytes of `T` (the engine's tile
/// shapes do, for the widest element of the operation).
unsafe fn stage<T: Element, const N: usize>(
    src: CpuPtr<T>,
    t: &Tile<N>,
    k: usize,
    scratch: &mut Scratch,
) -> (CpuPtr<T>, Staged) {
    let (rs, cs) = (t.row_strides[k], t.col_strides[k]);
    if cs <= 1 {
        return (
            src,
            Staged {
                offsets: [t.offsets[k]],
                row_stride: rs,
                col_stride: cs,
            },
        );
    }
    debug_assert!(t.rows * t.cols * size_of::<T>() <= TILE_BYTES);
    let src = src.as_ptr().wrapping_add(t.offsets[k]);
    // Aligned for `T` (64 bytes), and large enough (caller's contract).
    let staged = core::ptr::NonNull::from(&mut scratch.0).cast::<T>();
    let dst = staged.as_ptr();
    if rs == 1 {
        // A transposed operand: contiguous along the tile's rows.
        // SAFETY: every `(r, c)` of the tile is inside the operand's layout
        // (caller's contract), at `src + r + c * cs`; `scratch` holds
        // `rows * cols` entries of `T` (caller's contract).
        unsafe { transpose_block(src, cs, t.rows, t.cols, dst, t.cols) };
    } else {
        for c in 0..t.cols {
            for r in 0..t.rows {
                // SAFETY: `(r, c)` is inside the tile, so the read is inside
                // the operand's layout (caller's contract), and
                // `r * cols + c < rows * cols`, which `scratch` holds.
                unsafe { dst.add(r * t.cols + c).write(*src.add(r * rs + c * cs)) };
            }
        }
    }
    // The first `rows * cols` entries are now initialized.
    (
        CpuPtr::from_non_null(staged),
        Staged {
            offsets: [0],
            row_stride: t.cols,
            col_stride: 1,
        },
    )
}

/// The elements of `a` in row-major order, in a new `Vec`; `Err`
/// (PyTorch's out-of-memory text) when it cannot be allocated.
pub(crate) fn try_gather<T: Element>(a: StridedRef<'_, T, Cpu>) -> Result<Vec<T>, Error> {
    let n = numel(a.sizes);
    let mut out = try_vec_with_capacity(n)?;
    write_map1(&mut out.spare_capacity_mut()[..n], a, Identity);
    // SAFETY: `write_map1` writes every element of the slice it is given
    // (the engine visits each index of the sizes once), here all `n`.
    unsafe { out.set_len(n) };
    Ok(out)
}

/// Hands `a`'s elements to `sink` in row-major order, in pieces of at
/// most `piece` elements (at least one) gathered into one reused buffer:
/// how a writer saves a strided view of any size without a copy of it all.
/// The pieces are runs of whole slices along the leading dimensions; the
/// buffer starts on a cache line (the kernel copies into the page cache
/// about a tenth faster from there).
pub(crate) fn try_for_each_piece<T: Element>(
    a: StridedRef<'_, T, Cpu>,
    piece: usize,
    sink: &mut dyn FnMut(&[T]) -> Result<(), Error>,
) -> Result<(), Error> {
    const LINE: usize = 64;
    let piece = piece.max(1);
    let room = piece.min(numel(a.sizes)) + LINE / size_of::<T>().max(1);
    let mut scratch = try_vec_with_capacity::<MaybeUninit<T>>(room)?;
    // SAFETY: `MaybeUninit` elements need no initialization.
    unsafe { scratch.set_len(room) };
    let skip = match scratch.as_ptr().align_offset(LINE) {
        skip if skip < room => skip,
        _ => 0,
    };
    pieces_of(a, piece, &mut scratch[skip..], sink)
}

fn pieces_of<T: Element>(
    a: StridedRef<'_, T, Cpu>,
    piece: usize,
    buffer: &mut [MaybeUninit<T>],
    sink: &mut dyn FnMut(&[T]) -> Result<(), Error>,
) -> Result<(), Error> {
    let n = numel(a.sizes);
    if n <= piece {
        let run = &mut buffer[..n];
        write_map1(run, a, Identity);
        // SAFETY: `write_map1` wrote all `n` elements of `run` (the engine
        // visits each index of the sizes once), so they are initialized
        // values of `T`, which `MaybeUninit<T>` lays out alike.
        let run = unsafe { &*(run as *const [MaybeUninit<T>] as *const [T]) };
        return sink(run);
    }
    // More than one piece, so at least one dimension.
    let (&rows, rest) = a.sizes.split_first().expect("n > piece >= 1");
    let row = numel(rest);
    let mut sizes = a.sizes.to_vec();
    let step = (piece / row).max(1);
    for start in (0..rows).step_by(step) {
        // Inside the layout: `start < rows`, so the offset is an index of it.
        let offset = a.offset + start * a.strides[0];
        if row > piece {
            let inner = StridedRef {
                sizes: rest,
                strides: &a.strides[1..],
                offset,
                ..a
            };
            pieces_of(inner, piece, buffer, sink)?;
        } else {
            sizes[0] = step.min(rows - start);
            let run = StridedRef {
                sizes: &sizes,
                offset,
                ..a
            };
            pieces_of(run, piece, buffer, sink)?;
        }
    }
    Ok(())
}

/// [`try_gather`], panicking with PyTorch's out-of-memory text (a panic,
/// not an abort) when the `Vec` cannot be allocated.
pub(crate) fn gather<T: Element>(a: StridedRef<'_, T, Cpu>) -> Vec<T> {
    try_gather(a).or_panic()
}

impl Elementwise for Cpu {
    fn map1<A: Element, U: Element, F: UnaryFn<A, U>>(
        a: StridedRef<'_, A, Cpu>,
        f: F,
    ) -> Result<CpuBuffer<U>, Error> {
        let n = numel(a.sizes);
        if (1..SMALL_BUFFER_ELEMENTS).contains(&n) && is_contiguous(a.sizes, a.strides) {
            let row = Row {
                offsets: [0, a.offset],
                strides: [1; 2],
                len: n,
            };
            // SAFETY: `map1_row` writes the `n` elements of `dst`, reading
            // `a`'s `n` elements from its offset on, which lie in its storage
            // (contiguous: they are the indices of its layout).
            return unsafe {
                CpuBuffer::try_small_with(n, |dst| map1_row(CpuPtr::from_mut(dst), a.ptr, row, f))
            };
        }
        // SAFETY: `write_map1` writes every element of `dst` (the engine
        // visits each index of the sizes once).
        unsafe { CpuBuffer::try_new_with(n, |dst| write_map1(dst, a, f)) }
    }

    fn map2<A: Element, B: Element, U: Element, F: BinaryFn<A, B, U>>(
        sizes: &[usize],
        a: StridedRef<'_, A, Cpu>,
        b: StridedRef<'_, B, Cpu>,
        f: F,
    ) -> Result<CpuBuffer<U>, Error> {
        let n = numel(sizes);
        // A few contiguous elements (a 3x3 addition): one run, without the
        // engine, into a buffer allocated in line.
        // (Not when empty: a view of no elements may have any offset,
        // which no pointer may be moved by.)
        let small = (1..SMALL_BUFFER_ELEMENTS).contains(&n);
        if small && is_contiguous(sizes, a.strides) && is_contiguous(sizes, b.strides) {
            let row = Row {
                offsets: [0, a.offset, b.offset],
                strides: [1; 3],
                len: n,
            };
            // SAFETY: `map2_row` writes the `n` elements of `dst`, reading
            // `n` consecutive elements of each input from its offset on,
            // which are the indices of its contiguous layout over `sizes` and
            // so lie in its storage.
            return unsafe {
                CpuBuffer::try_small_with(n, |dst| {
                    map2_row(CpuPtr::from_mut(dst), a.ptr, b.ptr, row, f)
                })
            };
        }
        if let (true, &[rows, cols]) = (small, sizes) {
            return small_map2_rows([rows, cols], a, b, f);
        }
        let fill = |dst: &mut [MaybeUninit<U>]| {
            let visit = Map2 {
                dst: CpuPtr::from_mut(dst),
                a: a.ptr,
                b: b.ptr,
                f,
            };
            engine::run_contiguous_output(
                sizes,
                [&[], a.strides, b.strides],
                [0, a.offset, b.offset],
                visit,
            )
        };
        // SAFETY: the engine visits each index of `sizes` once, and `Map2`
        // writes the output element of each index it is given.
        unsafe { CpuBuffer::try_new_with(n, fill) }
    }

    fn select<A: Element, B: Element, U: Element>(
        sizes: &[usize],
        cond: StridedRef<'_, bool, Cpu>,
        a: StridedRef<'_, A, Cpu>,
        b: StridedRef<'_, B, Cpu>,
    ) -> Result<CpuBuffer<U>, Error> {
        let (pc, pa, pb) = (cond.ptr, a.ptr, b.ptr);
        let fill = |dst: &mut [MaybeUninit<U>]| {
            let po = CpuPtr::from_mut(dst);
            engine::run_contiguous_output(
                sizes,
                [&[], cond.strides, a.strides, b.strides],
                [0, cond.offset, a.offset, b.offset],
                |r: Row<4>| {
                    // A contiguous run choosing between a contiguous `b` and
                    // one `a` (masked_fill) or a contiguous `a`: both
                    // candidates are read and one kept without a branch, so
                    // a random condition costs no mispredictions and the
                    // loop vectorizes.
                    if let [1, 1, sa @ (0 | 1), 1] = r.strides {
                        // SAFETY: as below; the run's `len` elements of the
                        // output, the condition and `b` (and of `a` with
                        // stride 1, or its one element) are consecutive
                        // indices of their layouts.
                        unsafe {
                            let n = r.len;
                            let out =
                                core::slice::from_raw_parts_mut(po.as_ptr().add(r.offsets[0]), n);
                            let c = core::slice::from_raw_parts(pc.as_ptr().add(r.offsets[1]), n);
                            let b = core::slice::from_raw_parts(pb.as_ptr().add(r.offsets[3]), n);
                            let a = pa.as_ptr().add(r.offsets[2]);
                            if sa == 0 {
                                let x: U = cast(*a);
                                for ((o, &c), &b) in out.iter_mut().zip(c).zip(b) {
                                    let y: U = cast(b);
                                    o.write(if c { x } else { y });
                                }
                            } else {
                                let a = core::slice::from_raw_parts(a, n);
                                for (((o, &c), &a), &b) in out.iter_mut().zip(c).zip(a).zip(b) {
                                    let (x, y): (U, U) = (cast(a), cast(b));
                                    o.write(if c { x } else { y });
                                }
                            }
                        }
                        return;
                    }
                    for i in 0..r.len {
                        let at = |k: usize| r.offsets[k] + i * r.strides[k];
                        // SAFETY: the engine visits each output index once,
                        // inside the fresh output; the inputs' offsets are
                        // indices of their layouts, which lie inside their
                        // storages (checked when the layouts were attached to
                        // the tensors), and nothing writes them meanwhile.
                        unsafe {
                            let value = if *pc.as_ptr().add(at(1)) {
                                cast(*pa.as_ptr().add(at(2)))
                            } else {
                                cast(*pb.as_ptr().add(at(3)))
                            };
                            (*po.as_ptr().add(at(0))).write(value);
                        }
                    }
                },
            )
        };
        // SAFETY: the engine visits each index of `sizes` once, and the row
        // closure writes the output element of each index it is given.
        unsafe { CpuBuffer::try_new_with(numel(sizes), fill) }
    }

    fn update1<T: Element, F: UnaryFn<T, T>>(
        out: StridedMut<'_, T, Cpu>,
        f: F,
    ) -> Result<(), Error> {
        let po = out.ptr;
        engine::run(out.sizes, [out.strides], [out.offset], |r: Row<1>| {
            // SAFETY: `out` is an exclusively borrowed layout whose indices
            // lie inside its storage and never share an element (the tensor
            // invariant for writable layouts, checked when the layout was
            // attached): distinct runs, each of at least one index, touch
            // distinct elements.
            unsafe { update1_row(po, r, f) }
        });
        Ok(())
    }

    fn map3<A: Element, B: Element, C: Element, U: Element, F: TernaryFn<A, B, C, U>>(
        sizes: &[usize],
        a: StridedRef<'_, A, Cpu>,
        b: StridedRef<'_, B, Cpu>,
        c: StridedRef<'_, C, Cpu>,
        f: F,
    ) -> Result<CpuBuffer<U>, Error> {
        let (pa, pb, pc) = (a.ptr, b.ptr, c.ptr);
        let fill = |dst: &mut [MaybeUninit<U>]| {
            let po = CpuPtr::from_mut(dst);
            engine::run_contiguous_output(
                sizes,
                [&[], a.strides, b.strides, c.strides],
                [0, a.offset, b.offset, c.offset],
                // SAFETY: the engine visits each output index once, inside
                // the fresh output; the inputs' offsets are indices of their
                // layouts broadcast to `sizes`, which lie inside their
                // storages (checked when the layouts were attached to the
                // tensors), and nothing writes them meanwhile.
                |r: Row<4>| unsafe { map3_row(po, pa, pb, pc, r, f) },
            )
        };
        // SAFETY: the engine visits each index of `sizes` once, and
        // `map3_row` writes the output element of each index it is given.
        unsafe { CpuBuffer::try_new_with(numel(sizes), fill) }
    }

    fn update3<T: Element, B: Element, C: Element, F: TernaryFn<T, B, C, T>>(
        out: StridedMut<'_, T, Cpu>,
        b: StridedRef<'_, B, Cpu>,
        c: StridedRef<'_, C, Cpu>,
        f: F,
    ) -> Result<(), Error> {
        let (po, pb, pc) = (out.ptr, b.ptr, c.ptr);
        let strides = [out.strides, b.strides, c.strides];
        let offsets = [out.offset, b.offset, c.offset];
        engine::run(out.sizes, strides, offsets, |r: Row<3>| {
            // SAFETY: as in `update2`: `out` is an exclusively borrowed
            // writable layout (distinct indices, inside its storage), so
            // distinct runs write distinct elements; `b` and `c` are shared
            // borrows of other storages whose offsets, indices of their
            // layouts broadcast to `out`'s sizes, lie inside them.
            unsafe { update3_row(po, pb, pc, r, f) }
        });
        Ok(())
    }

    fn update2<T: Element, B: Element, F: BinaryFn<T, B, T>>(
        out: StridedMut<'_, T, Cpu>,
        b: StridedRef<'_, B, Cpu>,
        f: F,
    ) -> Result<(), Error> {
        let (po, pb) = (out.ptr, b.ptr);
        let (sizes, strides, offsets) =
            (out.sizes, [out.strides, b.strides], [out.offset, b.offset]);
        engine::run(sizes, strides, offsets, |r: Row<2>| {
            // SAFETY: `out` is an exclusively borrowed layout whose indices
            // lie inside its storage and never share an element (the tensor
            // invariant for writable layouts, checked when the layout was
            // attached), so distinct runs write distinct elements and nothing
            // else reads or writes them meanwhile; `b` is a shared borrow of
            // other storage (the borrow checker keeps `out`'s storage from
            // being borrowed twice) and its offsets, indices of its layout
            // broadcast to `out`'s sizes, lie inside it.
            unsafe { update2_row(po, pb, r, f) }
        });
        Ok(())
    }

    unsafe fn concatenate<T: Element>(
        parts: &[StridedRef<'_, T, Cpu>],
        axis: usize,
        sizes: &[usize],
    ) -> Result<CpuBuffer<T>, Error> {
        let strides: Vec<usize> = contiguous_strides(sizes);
        let fill = |dst: &mut [MaybeUninit<T>]| {
            if dst.is_empty() {
                // No elements: nothing to write (and, with a size 0, the
                // offsets below could pass the saturated strides).
                return;
            }
            let dst = CpuPtr::from_mut(dst);
            let mut start = 0;
            for part in parts.iter().filter(|p| p.sizes.len() == sizes.len()) {
                // SAFETY: the part's sizes equal the output's except along
                // `axis`, where the blocks `start..start + size` of
                // successive parts are disjoint and end at the output's
                // size (the caller's contract), so every index written lies
                // inside the fresh output, once; the output has elements, so
                // `start * strides[axis]` is at most its length.
                unsafe {
                    write_map1_strided(dst, &strides, start * strides[axis], *part, Identity);
                }
                start += part.sizes[axis];
            }
        };
        // SAFETY: the parts of the output's rank fill it exactly along
        // `axis` (the caller's contract), and `write_map1_strided` writes
        // every index of each part's block.
        unsafe { CpuBuffer::try_new_with(numel(sizes), fill) }
    }

    fn copy_into<T: Element, B: Element>(
        out: StridedMut<'_, T, Cpu>,
        src: StridedRef<'_, B, Cpu>,
    ) -> Result<(), Error> {
        // SAFETY: `out` is a writable layout (no two of its indices on one
        // element, every one inside its buffer) borrowed mutably for the
        // call, so nothing else reads or writes it; `src` is laid over the
        // same sizes; its elements are initialized values, overwritten
        // through `MaybeUninit` pointers without being read.
        unsafe {
            write_map1_strided(
                out.ptr.cast_uninit(),
                out.strides,
                out.offset,
                StridedRef {
                    sizes: out.sizes,
                    ..src
                },
                Cast::<T>::new(),
            );
        }
        Ok(())
    }
}

/// The element sizes `transpose_block` moves through registers in blocks.
const BLOCK_TRANSPOSED: [usize; 2] = [4, 8];

/// Copies the `rows x cols` block whose element `(r, c)` is at
/// `src + r + c * cs` (contiguous along `r`) to `dst + r * ds + c`: a
/// transpose. Four- and eight-byte elements move
/// through SSE2 registers in 4x4 and 2x2 blocks, since a transposed operand
/// is otherwise gathered one element per instruction.
///
/// # Safety
/// For `r < rows`, `c < cols`, every `src + r + c * cs` must be valid for
/// reads and every `dst + r * ds + c` valid for writes, and no element
/// written be one read.
unsafe fn transpose_block<T: Element>(
    src: *const T,
    cs: usize,
    rows: usize,
    cols: usize,
    dst: *mut T,
    ds: usize,
) {
    // SAFETY: the caller's contract; the block functions only move bits, so
    // reinterpreting `T` as same-sized float lanes is exact.
    #[cfg(target_arch = "x86_64")]
    let (r_done, c_done) = unsafe {
        match size_of::<T>() {
            4 => simd::transpose_4x4(src.cast(), cs, rows, cols, dst.cast(), ds),
            8 => simd::transpose_2x2(src.cast(), cs, rows, cols, dst.cast(), ds),
            _ => (0, 0),
        }
    };
    #[cfg(not(target_arch = "x86_64"))]
    let (r_done, c_done) = (0, 0);
    // What the blocks left: the last rows of every column, then the last
    // columns of the rows done.
    for c in 0..cols {
        let r_from = if c < c_done { r_done } else { 0 };
        for r in r_from..rows {
            // SAFETY: `r < rows`, `c < cols`: the caller's contract.
            unsafe { dst.add(r * ds + c).write(*src.add(r + c * cs)) };
        }
    }
}

#[cfg(target_arch = "x86_64")]
mod simd {
    //! SSE2 (always present on x86_64) block transposes; they only move bits.
    use core::arch::x86_64::*;

    /// Transposes 4x4 blocks of 4-byte lanes; returns how many rows and
    /// columns (multiples of 4) it covered.
    ///
    /// # Safety
    /// As `transpose_block`, with `src` and `dst` holding 4-byte elements.
    pub(super) unsafe fn transpose_4x4(
        src: *const f32,
        cs: usize,
        rows: usize,
        cols: usize,
        dst: *mut f32,
        ds: usize,
    ) -> (usize, usize) {
        let (r4, c4) = (rows / 4 * 4, cols / 4 * 4);
        for r in (0..r4).step_by(4) {
            for c in (0..c4).step_by(4) {
                // SAFETY: the 16 elements read are `(r..r + 4, c..c + 4)`,
                // inside the block; the 16 written are inside `dst`. SSE2 is
                // part of every x86_64 target.
                unsafe {
                    let p = src.add(r + c * cs);
                    let mut v0 = _mm_loadu_ps(p);
                    let mut v1 = _mm_loadu_ps(p.add(cs));
                    let mut v2 = _mm_loadu_ps(p.add(2 * cs));
                    let mut v3 = _mm_loadu_ps(p.add(3 * cs));
                    _MM_TRANSPOSE4_PS(&mut v0, &mut v1, &mut v2, &mut v3);
                    let q = dst.add(r * ds + c);
                    _mm_storeu_ps(q, v0);
                    _mm_storeu_ps(q.add(ds), v1);
                    _mm_storeu_ps(q.add(2 * ds), v2);
                    _mm_storeu_ps(q.add(3 * ds), v3);
                }
            }
        }
        (r4, c4)
    }

    /// Transposes 2x2 blocks of 8-byte lanes; returns how many rows and
    /// columns (multiples of 2) it covered.
    ///
    /// # Safety
    /// As `transpose_block`, with `src` and `dst` holding 8-byte elements.
    pub(super) unsafe fn transpose_2x2(
        src: *const f64,
        cs: usize,
        rows: usize,
        cols: usize,
        dst: *mut f64,
        ds: usize,
    ) -> (usize, usize) {
        let (r2, c2) = (rows / 2 * 2, cols / 2 * 2);
        for r in (0..r2).step_by(2) {
            for c in (0..c2).step_by(2) {
                // SAFETY: the 4 elements read are `(r..r + 2, c..c + 2)`,
                // inside the block; the 4 written are inside `dst`.
                unsafe {
                    let p = src.add(r + c * cs);
                    let v0 = _mm_loadu_pd(p);
                    let v1 = _mm_loadu_pd(p.add(cs));
                    let q = dst.add(r * ds + c);
                    _mm_storeu_pd(q, _mm_unpacklo_pd(v0, v1));
                    _mm_storeu_pd(q.add(ds), _mm_unpackhi_pd(v0, v1));
                }
            }
        }
        (r2, c2)
    }
}

/// The visitor of `map2`: writes `f(a, b)` into a fresh contiguous output.
struct Map2<A, B, U, F> {
    dst: CpuPtr<MaybeUninit<U>>,
    a: CpuPtr<A>,
    b: CpuPtr<B>,
    f: F,
}

impl<A: Element, B: Element, U: Element, F: BinaryFn<A, B, U>> Visit<3> for Map2<A, B, U, F> {
    fn row(&self, r: Row<3>) {
        // SAFETY: as in `Map1::row`, for two inputs.
        unsafe { map2_row(self.dst, self.a, self.b, r, self.f) }
    }

    fn widest_element(&self) -> usize {
        size_of::<A>().max(size_of::<B>()).max(size_of::<U>())
    }

    fn tile(&self, t: Tile<3>) {
        let (mut scratch_a, mut scratch_b) = (Scratch::new(), Scratch::new());
        // SAFETY: the tile's input elements lie inside the inputs' layouts.
        let (a, ra) = unsafe { stage(self.a, &t, 1, &mut scratch_a) };
        // SAFETY: as above.
        let (b, rb) = unsafe { stage(self.b, &t, 2, &mut scratch_b) };
        for r in 0..t.rows {
            let row = Row {
                offsets: [
                    t.offsets[0] + r * t.row_strides[0],
                    ra.offsets[0] + r * ra.row_stride,
                    rb.offsets[0] + r * rb.row_stride,
                ],
                strides: [t.col_strides[0], ra.col_stride, rb.col_stride],
                len: t.cols,
            };
            // SAFETY: as in `row`; staged inputs are read from their scratch.
            unsafe { map2_row(self.dst, a, b, row, self.f) }
        }
    }
}

/// One run of `map1`.
///
/// The `*_row` functions are inlined into their visitors' `row` and `tile`
/// in optimized builds. Debug builds (with `debug_assertions`) keep one
/// copy per kernel, which both call: less code to generate and link in
/// every debug program that instantiates a kernel.
///
/// # Safety
/// For `i < r.len`, `dst + r.offsets[0] + i * r.strides[0]` must be valid for
/// writes and `src + r.offsets[1] + i * r.strides[1]` valid for reads, with no
/// other access to those elements during the call.
#[cfg_attr(not(debug_assertions), inline(always))]
unsafe fn map1_row<A: Element, U: Element, F: UnaryFn<A, U>>(
    dst: CpuPtr<MaybeUninit<U>>,
    src: CpuPtr<A>,
    r: Row<2>,
    f: F,
) {
    // SAFETY: the caller upholds this function's contract.
    unsafe {
        let o = dst.as_ptr().add(r.offsets[0]);
        let a = src.as_ptr().add(r.offsets[1]);
        match r.strides {
            [1, 1] => {
                let o = core::slice::from_raw_parts_mut(o, r.len);
                let a = core::slice::from_raw_parts(a, r.len);
                f.call_slice(a, o);
            }
            [1, 0] => {
                let o = core::slice::from_raw_parts_mut(o, r.len);
                let v = f.call(*a);
                for o in o.iter_mut() {
                    o.write(v);
                }
            }
            [so, sa] => {
                for i in 0..r.len {
                    (*o.add(i * so)).write(f.call(*a.add(i * sa)));
                }
            }
        }
    }
}

/// `map2` of a few elements in two dimensions (an outer sum, a matrix and
/// a row): row by row, without the engine. Out of line, so that the
/// contiguous path stays small enough to be compiled in line whole (with
/// this loop beside it a 3x3 addition took 80 ns instead of 47).
#[inline(never)]
fn small_map2_rows<A: Element, B: Element, U: Element, F: BinaryFn<A, B, U>>(
    [rows, cols]: [usize; 2],
    a: StridedRef<'_, A, Cpu>,
    b: StridedRef<'_, B, Cpu>,
    f: F,
) -> Result<CpuBuffer<U>, Error> {
    let (sa, sb) = (a.strides, b.strides);
    // SAFETY: row `i` writes output elements `i * cols` up to `(i + 1) *
    // cols`, so the rows write each of the `rows * cols` elements once; the
    // inputs' indices `offset + i * strides[0] + j * strides[1]` are those of
    // their layouts over the output's sizes, inside their storages.
    unsafe {
        CpuBuffer::try_small_with(rows * cols, |dst| {
            let out = CpuPtr::from_mut(dst);
            for i in 0..rows {
                let row = Row {
                    offsets: [i * cols, a.offset + i * sa[0], b.offset + i * sb[0]],
                    strides: [1, sa[1], sb[1]],
                    len: cols,
                };
                map2_row(out, a.ptr, b.ptr, row, f);
            }
        })
    }
}

/// One run of `map2`.
///
/// # Safety
/// As [`map1_row`], with a second input read at `r.offsets[2]`/`r.strides[2]`.
#[cfg_attr(not(debug_assertions), inline(always))]
unsafe fn map2_row<A: Element, B: Element, U: Element, F: BinaryFn<A, B, U>>(
    dst: CpuPtr<MaybeUninit<U>>,
    pa: CpuPtr<A>,
    pb: CpuPtr<B>,
    r: Row<3>,
    f: F,
) {
    // SAFETY: the caller upholds this function's contract.
    unsafe {
        let o = dst.as_ptr().add(r.offsets[0]);
        let a = pa.as_ptr().add(r.offsets[1]);
        let b = pb.as_ptr().add(r.offsets[2]);
        let n = r.len;
        match r.strides {
            [1, 1, 1] => {
                let o = core::slice::from_raw_parts_mut(o, n);
                let a = core::slice::from_raw_parts(a, n);
                let b = core::slice::from_raw_parts(b, n);
                f.call_slices(a, b, o);
            }
            [1, 1, 0] => {
                let o = core::slice::from_raw_parts_mut(o, n);
                let a = core::slice::from_raw_parts(a, n);
                let y = *b;
                for (o, &x) in o.iter_mut().zip(a) {
                    o.write(f.call(x, y));
                }
            }
            [1, 0, 1] => {
                let o = core::slice::from_raw_parts_mut(o, n);
                let x = *a;
                let b = core::slice::from_raw_parts(b, n);
                for (o, &y) in o.iter_mut().zip(b) {
                    o.write(f.call(x, y));
                }
            }
            [1, 1, sb] => {
                let o = core::slice::from_raw_parts_mut(o, n);
                let a = core::slice::from_raw_parts(a, n);
                for (i, (o, &x)) in o.iter_mut().zip(a).enumerate() {
                    o.write(f.call(x, *b.add(i * sb)));
                }
            }
            [1, sa, 1] => {
                let o = core::slice::from_raw_parts_mut(o, n);
                let b = core::slice::from_raw_parts(b, n);
                for (i, (o, &y)) in o.iter_mut().zip(b).enumerate() {
                    o.write(f.call(*a.add(i * sa), y));
                }
            }
            [so, sa, sb] => {
                for i in 0..n {
                    (*o.add(i * so)).write(f.call(*a.add(i * sa), *b.add(i * sb)));
                }
            }
        }
    }
}

/// One run of `update1`: `out = f(out)`.
///
/// # Safety
/// For `i < r.len`, `po + r.offsets[0] + i * r.strides[0]` must be valid for
/// reads and writes with no other access during the call.
#[cfg_attr(not(debug_assertions), inline(always))]
unsafe fn update1_row<T: Element, F: UnaryFn<T, T>>(po: CpuPtr<T>, r: Row<1>, f: F) {
    // SAFETY: the caller upholds this function's contract.
    unsafe {
        let o = po.as_ptr().add(r.offsets[0]);
        match r.strides {
            [1] => {
                // The function's runs (its vectorized kernel, if any) on a
                // copy of each chunk: the run is read and written at once.
                const CHUNK: usize = 256;
                let run = core::slice::from_raw_parts_mut(o, r.len);
                let mut buffer = [core::mem::MaybeUninit::<T>::uninit(); CHUNK];
                for chunk in run.chunks_mut(CHUNK) {
                    let len = chunk.len();
                    // The chunk's `len <= CHUNK` elements are copied into
                    // the buffer before they are read as `T`s (no pass
                    // filling the buffer first).
                    core::ptr::copy_nonoverlapping(
                        chunk.as_ptr(),
                        buffer.as_mut_ptr().cast::<T>(),
                        len,
                    );
                    let copy = core::slice::from_raw_parts(buffer.as_ptr().cast::<T>(), len);
                    // `MaybeUninit<T>` has `T`'s layout; every element is
                    // initialized and the function only writes values.
                    let out = core::slice::from_raw_parts_mut(
                        chunk.as_mut_ptr().cast::<core::mem::MaybeUninit<T>>(),
                        len,
                    );
                    f.call_slice(copy, out);
                }
            }
            [so] => {
                for i in 0..r.len {
                    let o = o.add(i * so);
                    *o = f.call(*o);
                }
            }
        }
    }
}

/// One run of `update2`: `out = f(out, b)`.
///
/// # Safety
/// For `i < r.len`, `po + r.offsets[0] + i * r.strides[0]` must be valid for
/// reads and writes with no other access during the call, and
/// `pb + r.offsets[1] + i * r.strides[1]` valid for reads.
#[cfg_attr(not(debug_assertions), inline(always))]
unsafe fn update2_row<T: Element, B: Element, F: BinaryFn<T, B, T>>(
    po: CpuPtr<T>,
    pb: CpuPtr<B>,
    r: Row<2>,
    f: F,
) {
    // SAFETY: the caller upholds this function's contract.
    unsafe {
        let o = po.as_ptr().add(r.offsets[0]);
        let b = pb.as_ptr().add(r.offsets[1]);
        match r.strides {
            [1, 1] => {
                let o = core::slice::from_raw_parts_mut(o, r.len);
                let b = core::slice::from_raw_parts(b, r.len);
                for (o, &y) in o.iter_mut().zip(b) {
                    *o = f.call(*o, y);
                }
            }
            [1, 0] => {
                let o = core::slice::from_raw_parts_mut(o, r.len);
                let y = *b;
                for o in o.iter_mut() {
                    *o = f.call(*o, y);
                }
            }
            [so, sb] => {
                for i in 0..r.len {
                    let o = o.add(i * so);
                    *o = f.call(*o, *b.add(i * sb));
                }
            }
        }
    }
}

/// One run of `map3`: a contiguous run of all four through
/// `call_slices`, else element by element.
///
/// # Safety
/// The run's `len` output elements from `r.offsets[0]` (stride
/// `r.strides[0]`) lie in `dst` and nothing else touches them; each input's
/// `len` elements from its offset, at its stride, lie in its storage.
#[inline(always)]
unsafe fn map3_row<A: Element, B: Element, C: Element, U: Element, F: TernaryFn<A, B, C, U>>(
    dst: CpuPtr<MaybeUninit<U>>,
    pa: CpuPtr<A>,
    pb: CpuPtr<B>,
    pc: CpuPtr<C>,
    r: Row<4>,
    f: F,
) {
    // SAFETY: the caller upholds this function's contract.
    unsafe {
        let o = dst.as_ptr().add(r.offsets[0]);
        let a = pa.as_ptr().add(r.offsets[1]);
        let b = pb.as_ptr().add(r.offsets[2]);
        let c = pc.as_ptr().add(r.offsets[3]);
        let n = r.len;
        if r.strides == [1, 1, 1, 1] {
            let o = core::slice::from_raw_parts_mut(o, n);
            let a = core::slice::from_raw_parts(a, n);
            let b = core::slice::from_raw_parts(b, n);
            let c = core::slice::from_raw_parts(c, n);
            f.call_slices(a, b, c, o);
            return;
        }
        let [so, sa, sb, sc] = r.strides;
        for i in 0..n {
            (*o.add(i * so)).write(f.call(*a.add(i * sa), *b.add(i * sb), *c.add(i * sc)));
        }
    }
}

/// One run of `update3`.
///
/// # Safety
/// As [`map3_row`], with the output read before it is written.
#[inline(always)]
unsafe fn update3_row<T: Element, B: Element, C: Element, F: TernaryFn<T, B, C, T>>(
    po: CpuPtr<T>,
    pb: CpuPtr<B>,
    pc: CpuPtr<C>,
    r: Row<3>,
    f: F,
) {
    // SAFETY: the caller upholds this function's contract.
    unsafe {
        let o = po.as_ptr().add(r.offsets[0]);
        let b = pb.as_ptr().add(r.offsets[1]);
        let c = pc.as_ptr().add(r.offsets[2]);
        let [so, sb, sc] = r.strides;
        for i in 0..r.len {
            let o = o.add(i * so);
            *o = f.call(*o, *b.add(i * sb), *c.add(i * sc));
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::dtype::Numeric;
    use crate::prelude::*;
    use num_complex::Complex;

    /// Strided views handed to a writer in pieces of every size from one
    /// element to more than the whole: the pieces, joined, are the
    /// row-major elements, none longer than asked (but whole runs), and a
    /// sink's error stops the walk.
    #[test]
    fn pieces_join_to_the_row_major_elements() {
        use super::try_for_each_piece;
        let x = DynTensor::<i32>::arange(400);
        let layouts: [(&[usize], &[usize], usize); 7] = [
            (&[4, 5, 6], &[1, 24, 4], 3),       // permuted
            (&[3, 7], &[40, 3], 11),            // stepped rows
            (&[2, 3, 4, 5], &[0, 5, 1, 20], 0), // broadcast, transposed
            (&[6], &[13], 1),
            (&[], &[], 17),              // one element
            (&[3, 0, 2], &[1, 1, 1], 0), // none
            (&[1, 1, 9], &[0, 0, 2], 5),
        ];
        for (sizes, strides, offset) in layouts {
            let view = x.as_strided(sizes, strides, offset).unwrap();
            let expected = view.to_vec();
            for piece in [0, 1, 2, 5, 6, 7, 30, 119, 120, 121, 1000] {
                let mut joined = Vec::new();
                try_for_each_piece(view.strided(), piece, &mut |p| {
                    assert!(!p.is_empty() || expected.is_empty());
                    assert!(
                        p.len() <= piece.max(1),
                        "{sizes:?} piece {piece}: {}",
                        p.len()
                    );
                    joined.extend_from_slice(p);
                    Ok(())
                })
                .unwrap();
                assert_eq!(joined, expected, "{sizes:?} {strides:?} piece {piece}");
            }
            let mut calls = 0;
            let stopped = try_for_each_piece(view.strided(), 1, &mut |_| {
                calls += 1;
                Err(Error::OutOfMemory { bytes: 1 })
            });
            assert_eq!(calls, 1);
            assert!(stopped.is_err());
        }
    }

    /// Transposed operands through every staging path: SSE2 blocks for 4-
    /// and 8-byte elements, element by element otherwise, with edges that are
    /// not multiples of the blocks or tiles.
    fn transposed_operands<T: Numeric + core::fmt::Debug>() {
        let value = |i: usize| T::from_index(i % 97);
        let x = Tensor::<T, shape![130, 70]>::from_vec((0..9100).map(value).collect()).unwrap();
        let y = Tensor::<T, shape![70, 130]>::from_vec((0..9100).map(|i| value(i * 7)).collect())
            .unwrap();
        let (xv, yv) = (x.to_vec(), y.to_vec());
        let xs = |r: usize, c: usize| xv[r * 70 + c];
        let ys = |r: usize, c: usize| yv[r * 130 + c];

        // map1: a transposed copy.
        let yt = y.t().to_owned();
        // map2: one transposed operand, then both.
        let sum = &x + &y.t();
        let both = &x.t() * &y;
        // update2: a transposed right-hand side.
        let mut acc = x.clone();
        acc -= &y.t();
        for r in 0..130 {
            for c in 0..70 {
                assert_eq!(yt[[r, c]], ys(c, r));
                assert_eq!(sum[[r, c]], T::add(xs(r, c), ys(c, r)));
                assert_eq!(both[[c, r]], T::mul(xs(r, c), ys(c, r)));
                assert_eq!(acc[[r, c]], T::sub(xs(r, c), ys(c, r)));
            }
        }
    }

    /// The small paths of `map1` and `map2` (one contiguous run; rows of a
    /// two-dimensional output) on views with offsets, broadcast and
    /// transposed strides, empty rows and a single element, against the
    /// element-by-element values.
    #[test]
    fn small_operations_on_views() {
        let base = DynTensor::<i64>::from_vec((0..64).collect(), &[8, 8]).unwrap();
        let at = |t: &DynTensor<i64>, r: usize, c: usize| t.to_vec()[r * t.shape()[1] + c];
        let owned = base
            .narrow(0, 2, 3)
            .unwrap()
            .narrow(1, 1, 4)
            .unwrap()
            .to_owned();
        let views = [
            owned.as_view(),
            base.narrow(0, 2, 3).unwrap().narrow(1, 1, 4).unwrap(),
            base.narrow(0, 1, 4)
                .unwrap()
                .narrow(1, 3, 3)
                .unwrap()
                .t()
                .unwrap(),
            base.narrow(0, 5, 3).unwrap().narrow(1, 0, 4).unwrap(),
        ];
        for x in &views {
            let (r, c) = (x.shape()[0], x.shape()[1]);
            let copy = x.to_owned().to_vec();
            let negated = (-x).to_vec();
            for i in 0..r * c {
                assert_eq!(negated[i], -copy[i]);
            }
            for y in &views {
                let sum = x + y;
                for i in 0..r {
                    for j in 0..c {
                        let y_ij = y.to_owned().to_vec()[i * c + j];
                        assert_eq!(at(&sum, i, j), copy[i * c + j] + y_ij);
                    }
                }
            }
            // A column and a row of `x` broadcast to `x`'s sizes.
            let column = x.narrow(1, 1, 1).unwrap();
            let row = x.narrow(0, 2, 1).unwrap();
            let outer = &column * &row;
            assert_eq!(outer.shape(), [r, c]);
            for i in 0..r {
                for j in 0..c {
                    assert_eq!(at(&outer, i, j), copy[i * c + 1] * copy[2 * c + j]);
                }
            }
        }
        let empty_rows = DynTensor::<i64>::zeros(&[3, 0]);
        assert_eq!(
            (&empty_rows + &DynTensor::<i64>::zeros(&[1, 0])).shape(),
            [3, 0]
        );
        // An empty view may sit at any offset: no path moves a pointer by it.
        for sizes in [[0, 3], [3, 0], [2, 0]] {
            let far = base.as_strided(&sizes, &[3, 1], usize::MAX).unwrap();
            assert_eq!((&far + &far).shape(), sizes);
            assert_eq!((-&far).shape(), sizes);
        }
        let one = base.narrow(0, 7, 1).unwrap().narrow(1, 7, 1).unwrap();
        assert_eq!((&one + &one).to_vec(), [126]);
    }

    /// Sizes of no elements whose product, taken in order, overflows before
    /// the 0 (a permuted view of `[0, huge, huge]`): nothing may multiply
    /// them in order.
    #[test]
    fn no_elements_behind_huge_sizes() {
        use super::gather;
        use crate::backend::cpu::CpuBuffer;
        use crate::backend::cpu::engine::Plan;
        use crate::backend::{Backend, Cpu, StridedRef};
        use crate::backend::{Elementwise, StridedMut};
        use crate::ops::functions::{Add, Constant, Identity, Lt, Neg};

        const HUGE: usize = 1 << 40;
        let mut buffer = CpuBuffer::<f32>::try_full(1, 0.0).unwrap();
        let ptr = Cpu::ptr_mut(&mut buffer);
        let strides = [0, 0, 1];
        for sizes in [[HUGE, HUGE, 0], [HUGE, 0, HUGE], [0, HUGE, HUGE]] {
            assert_eq!(crate::layout::numel(&sizes), 0);
            let a = StridedRef::<f32, Cpu> {
                ptr,
                sizes: &sizes,
                strides: &strides,
                offset: 0,
            };
            assert!(Cpu::map1(a, Neg).unwrap().is_empty());
            assert!(Cpu::map1(a, Identity).unwrap().is_empty());
            assert!(Cpu::map2(&sizes, a, a, Add).unwrap().is_empty());
            assert!(Cpu::map2(&sizes, a, a, Lt).unwrap().is_empty());
            assert!(gather(a).is_empty());
            assert_eq!(Plan::new(&sizes, [&strides], [0]).numel(), 0);
            let out = || StridedMut::<f32, Cpu> {
                ptr,
                sizes: &sizes,
                strides: &strides,
                offset: 0,
            };
            Cpu::update1(out(), Constant(1.0)).unwrap();
            Cpu::update2(out(), a, Add).unwrap();
        }
        assert_eq!(buffer.as_slice(), &[0.0], "no element was written");
    }

    #[test]
    fn transposed_operands_of_every_element_size() {
        transposed_operands::<f32>(); // 4 bytes: 4x4 blocks
        transposed_operands::<i32>();
        transposed_operands::<f64>(); // 8 bytes: 2x2 blocks
        transposed_operands::<i64>();
        transposed_operands::<Complex<f32>>();
        transposed_operands::<i16>(); // element by element
        transposed_operands::<u8>();
        transposed_operands::<half::bf16>();
        transposed_operands::<Complex<f64>>();
    }

    /// Transposed copies over several bands of tiles, batched, from an
    /// offset view.
    fn transposed_copies_across_bands<T: Numeric + core::fmt::Debug>() {
        let x = batches::<T>();
        let v = x.narrow(1, 1, 600).unwrap().transpose(1, 2).unwrap();
        assert!(v.storage_offset() == 300 && !v.is_contiguous());
        let copy = v.contiguous();
        assert!(copy.is_contiguous());
        let xv = x.to_vec();
        for b in 0..2 {
            for r in 0..300 {
                for c in 0..600 {
                    assert_eq!(copy[[b, r, c]], xv[b * 601 * 300 + (c + 1) * 300 + r]);
                }
            }
        }
    }

    /// A `(2, 601, 300)` tensor; the test views its rows 1.. with the last
    /// two dimensions swapped: `(2, 300, 600)` at offset 300.
    fn batches<T: Numeric>() -> DynTensor<T> {
        let values = (0..2 * 601 * 300).map(|i| T::from_index(i % 89)).collect();
        DynTensor::<T>::from_vec(values, &[2, 601, 300]).unwrap()
    }

    /// Operands of different sizes: the tiles are shaped for the widest
    /// (the bound on the staging buffers), and the narrow one is staged.
    #[test]
    fn transposed_operand_narrower_than_the_result() {
        let x = batches::<u8>();
        let v = x.narrow(1, 1, 600).unwrap().transpose(1, 2).unwrap();
        let wide = DynTensor::<Complex<f64>>::ones(&[2, 300, 600]);
        let sum = v.try_add(&wide).unwrap();
        let xv = x.to_vec();
        for b in 0..2 {
            for r in 0..300 {
                for c in 0..600 {
                    let expected = f64::from(xv[b * 601 * 300 + (c + 1) * 300 + r]) + 1.0;
                    assert_eq!(sum[[b, r, c]], Complex::new(expected, 0.0));
                }
            }
        }
    }

    #[test]
    fn transposed_copies_across_bands_of_every_element_size() {
        transposed_copies_across_bands::<f32>();
        transposed_copies_across_bands::<i64>();
        transposed_copies_across_bands::<Complex<f64>>();
        transposed_copies_across_bands::<u8>();
        transposed_copies_across_bands::<i16>();
    }
}
