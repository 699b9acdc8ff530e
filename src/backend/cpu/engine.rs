//! The CPU execution engine shared by every elementwise operation.
//!
//! It is shape-erased: operands arrive as plain sizes and strides, so one
//! compiled loop serves every static shape. It only computes *where* elements
//! are; what to do with them is a row kernel (see [`super::elementwise`]) called
//! once per run of elements along the innermost dimension.
//!
//! Steps, for `N` operands (operand 0 is the output):
//! 1. Coalesce: drop size-1 dimensions and merge neighbours that are
//!    contiguous for every operand, so a contiguous tensor of any rank is one
//!    long row and a `(4096, 4096) + (4096, 1)` pair keeps a stride-0 inner row.
//! 2. Block: when an operand walks its inner dimension with a large stride
//!    (a transposed view), rows are cut into tiles so both the output and that
//!    operand stay in cache.
//! 3. Split: above [`PARALLEL_MIN_ELEMENTS`], the rows are shared out across
//!    rayon's threads in contiguous ranges.

use super::parallel::for_each_index;
use smallvec::SmallVec;

/// Below this many elements an operation runs on the calling thread.
pub const PARALLEL_MIN_ELEMENTS: usize = 1 << 16;

/// Row pieces start at multiples of this many elements (whole cache lines
/// for every dtype of 4 bytes or less).
const PIECE_ALIGN: usize = 64;

/// Bytes of one tile at most: the size of a kernel's staging buffer.
pub const TILE_BYTES: usize = 4096;

/// The shape of the tiles that carry a transposed operand, for elements of
/// a given size. The engine walks bands of `4 * rows` rows in blocks of
/// `cols` columns, and each block in tiles of `rows` runs.
///
/// Chosen by measuring transposed `(4096, 4096)` copies: 4- and 8-byte
/// elements, which move through registers in blocks, go fastest when a
/// transposed operand is read 256 to 512 bytes at a time along its
/// contiguous dimension (a stream the hardware prefetcher follows) and each
/// run of the output is one cache line; elements moved one by one go
/// fastest in small square tiles.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TileShape {
    /// Runs per tile.
    pub rows: usize,
    /// Elements per run.
    pub cols: usize,
}

impl TileShape {
    /// The tile shape for elements of `bytes` bytes (1 to 16); `rows *
    /// cols * bytes` never exceeds [`TILE_BYTES`].
    pub const fn for_element_bytes(bytes: usize) -> Self {
        let (rows, cols) = match bytes {
            4 => (64, 16),
            8 => (64, 8),
            _ => (MIN_TILE_ROWS, 16),
        };
        TileShape { rows, cols }
    }

    /// Rows of a band, the unit of tiled work.
    pub const fn band_rows(self) -> usize {
        4 * self.rows
    }
}

/// The fewest runs of a tile; a plan tiles only dimensions longer than this.
const MIN_TILE_ROWS: usize = 16;

/// One run of elements for a row kernel: for each operand, the storage index
/// of the first element and the stride between consecutive ones.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Row<const N: usize> {
    /// Storage index of the row's first element, per operand.
    pub offsets: [usize; N],
    /// Stride along the row, per operand (0 for a broadcast operand).
    pub strides: [usize; N],
    /// Number of elements.
    pub len: usize,
}

/// Runs `visit` over `sizes` for operands with the given strides and
/// offsets: the whole engine. Small operations whose operands are all
/// contiguous skip planning and go as one run.
pub fn run<const N: usize, V: Visit<N>>(
    sizes: &[usize],
    strides: [&[usize]; N],
    offsets: [usize; N],
    visit: V,
) {
    walk(sizes, strides, offsets, false, &visit)
}

/// [`run`] with a fresh contiguous output as operand 0 (its entry in
/// `strides` is ignored).
pub fn run_contiguous_output<const N: usize, V: Visit<N>>(
    sizes: &[usize],
    strides: [&[usize]; N],
    offsets: [usize; N],
    visit: V,
) {
    walk(sizes, strides, offsets, true, &visit)
}

/// The engine for `N` operands, with the kernel behind a trait object: one
/// copy per operand count, whatever the kernels and dtypes (compiled in this
/// library for one to three operands, see [`super::precompiled`]).
fn walk<const N: usize>(
    sizes: &[usize],
    strides: [&[usize]; N],
    offsets: [usize; N],
    contiguous_output: bool,
    visit: &dyn Visit<N>,
) {
    if let Some(row) = single_run(sizes, strides, offsets, usize::from(contiguous_output)) {
        visit.row(row);
    } else if !small_walk(sizes, strides, offsets, contiguous_output, visit) {
        Plan::coalesce(sizes, strides, offsets, contiguous_output).run_visitor(visit);
    }
}

/// Below this many elements, and up to [`SMALL_MAX_RANK`] dimensions, an
/// operation that is not one contiguous run skips the planner: its rows are
/// walked as they come, uncoalesced and untiled (they are in cache anyway).
/// Planning costs about as much as a `(4, 1) + (1, 4)` add itself.
const SMALL_MAX_ELEMENTS: usize = 1 << 12;
/// The most dimensions a small operation walks without the planner (its
/// odometer and strides live in fixed arrays of this length).
const SMALL_MAX_RANK: usize = 6;

/// Each operand's stride along dimension `d`; operand 0's is `out_stride`
/// when given (a fresh row-major output, whose strides were not passed).
fn dimension_steps<const N: usize>(
    strides: [&[usize]; N],
    d: usize,
    out_stride: Option<usize>,
) -> [usize; N] {
    core::array::from_fn(|k| match out_stride {
        Some(s) if k == 0 => s,
        _ => strides[k][d],
    })
}

/// Walks a small operation (see [`SMALL_MAX_ELEMENTS`]) in batches of rows
/// along its second-innermost dimension, over an odometer of the outer
/// ones. Returns `false`, having done nothing, for any other operation.
fn small_walk<const N: usize>(
    sizes: &[usize],
    strides: [&[usize]; N],
    offsets: [usize; N],
    contiguous_output: bool,
    visit: &dyn Visit<N>,
) -> bool {
    let rank = sizes.len();
    let numel = crate::layout::numel(sizes);
    if rank > SMALL_MAX_RANK || numel >= SMALL_MAX_ELEMENTS {
        return false;
    }
    if numel == 0 {
        return true;
    }
    // (Rank 0 is one contiguous run, which `single_run` took.)
    let Some(last) = rank.checked_sub(1) else {
        return false;
    };
    let mut steps = [[0; N]; SMALL_MAX_RANK];
    let mut out_stride = 1;
    for d in (0..rank).rev() {
        steps[d] = dimension_steps(strides, d, contiguous_output.then_some(out_stride));
        out_stride *= sizes[d];
    }
    let first = |offsets| Row {
        offsets,
        strides: steps[last],
        len: sizes[last],
    };
    let Some(mid) = last.checked_sub(1) else {
        visit.row(first(offsets));
        return true;
    };
    // Odometer over the dimensions before `mid`.
    let mut index = [0; SMALL_MAX_RANK];
    let mut at = offsets;
    loop {
        visit.rows(first(at), steps[mid], sizes[mid]);
        let mut d = mid;
        loop {
            let Some(outer) = d.checked_sub(1) else {
                return true;
            };
            d = outer;
            index[d] += 1;
            if index[d] < sizes[d] {
                at = core::array::from_fn(|k| at[k] + steps[d][k]);
                break;
            }
            at = core::array::from_fn(|k| at[k] - (index[d] - 1) * steps[d][k]);
            index[d] = 0;
        }
    }
}

/// One run over every element, when the operation is small and the
/// operands from `first` on are contiguous (those before it are known to be).
fn single_run<const N: usize>(
    sizes: &[usize],
    strides: [&[usize]; N],
    offsets: [usize; N],
    first: usize,
) -> Option<Row<N>> {
    let numel = crate::layout::numel(sizes);
    let small = numel > 0 && numel < PARALLEL_MIN_ELEMENTS;
    let contiguous = || {
        strides[first..]
            .iter()
            .all(|s| crate::layout::is_contiguous(sizes, s))
    };
    (small && contiguous()).then_some(Row {
        offsets,
        strides: [1; N],
        len: numel,
    })
}

/// A tile of runs: `rows` runs of `cols` elements. Run `r` starts at
/// `offsets + r * row_strides`; consecutive elements of a run are
/// `col_strides` apart.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Tile<const N: usize> {
    /// Storage index of element `(0, 0)`, per operand.
    pub offsets: [usize; N],
    /// Stride from one run to the next, per operand.
    pub row_strides: [usize; N],
    /// Stride along a run, per operand.
    pub col_strides: [usize; N],
    /// Number of runs.
    pub rows: usize,
    /// Elements per run.
    pub cols: usize,
}

impl<const N: usize> Tile<N> {
    /// Run `r` of the tile.
    pub fn row(&self, r: usize) -> Row<N> {
        Row {
            offsets: core::array::from_fn(|k| self.offsets[k] + r * self.row_strides[k]),
            strides: self.col_strides,
            len: self.cols,
        }
    }
}

/// What the engine calls with the work: runs, and (for transposed operands)
/// tiles, which a kernel may stage through a small contiguous buffer.
pub trait Visit<const N: usize>: Sync {
    /// Processes one run.
    fn row(&self, row: Row<N>);

    /// The size in bytes of the widest element the visitor reads or
    /// writes: it sets the [`TileShape`].
    fn widest_element(&self) -> usize {
        4
    }

    /// Processes one tile; by default, run by run.
    fn tile(&self, tile: Tile<N>) {
        for r in 0..tile.rows {
            self.row(tile.row(r));
        }
    }

    /// Processes `count` runs like `first`, each `step` after the one
    /// before. The engine reaches a visitor through a trait object, and
    /// this keeps it at one virtual call per batch of runs: short runs
    /// (a transposed `(n, 3)` copy) are walked in a loop compiled with the
    /// visitor's own `row`.
    fn rows(&self, first: Row<N>, step: [usize; N], count: usize) {
        for r in 0..count {
            self.row(Row {
                offsets: core::array::from_fn(|k| first.offsets[k] + r * step[k]),
                ..first
            });
        }
    }
}

impl<const N: usize, F: Fn(Row<N>) + Sync> Visit<N> for F {
    fn row(&self, row: Row<N>) {
        self(row)
    }
}

/// The iteration space of an elementwise operation after coalescing:
/// dimensions outermost first, each with a size and one stride per operand.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan<const N: usize> {
    sizes: Dims<usize>,
    strides: Dims<[usize; N]>,
    offsets: [usize; N],
    tiled: bool,
}

/// Per-dimension data, inline up to 4 dimensions after coalescing (no
/// allocation for small operations).
type Dims<T> = SmallVec<[T; 4]>;

impl<const N: usize> Plan<N> {
    /// Plans `sizes`, with per-operand strides (`strides[k]` has one entry
    /// per dimension) and storage offsets.
    pub fn new(sizes: &[usize], strides: [&[usize]; N], offsets: [usize; N]) -> Self {
        for s in &strides {
            debug_assert_eq!(s.len(), sizes.len());
        }
        Self::coalesce(sizes, strides, offsets, false)
    }

    /// Plans `sizes` for a fresh contiguous output (operand 0, whose entry
    /// in `strides` is ignored) and inputs with the given strides.
    pub fn with_contiguous_output(
        sizes: &[usize],
        strides: [&[usize]; N],
        offsets: [usize; N],
    ) -> Self {
        Self::coalesce(sizes, strides, offsets, true)
    }

    /// Drops size-1 dimensions, merges neighbours that are contiguous for
    /// every operand, and decides whether to tile. With `contiguous_output`,
    /// operand 0's strides are the row-major ones of `sizes`.
    fn coalesce(
        sizes: &[usize],
        strides: [&[usize]; N],
        offsets: [usize; N],
        contiguous_output: bool,
    ) -> Self {
        let mut plan = Plan {
            sizes: SmallVec::new(),
            strides: SmallVec::new(),
            offsets,
            tiled: false,
        };
        if sizes.contains(&0) {
            plan.sizes.push(0);
            plan.strides.push([0; N]);
            return plan;
        }
        // Innermost first while merging; reversed at the end.
        let mut out_stride = 1;
        for d in (0..sizes.len()).rev() {
            let n = sizes[d];
            let st = dimension_steps(strides, d, contiguous_output.then_some(out_stride));
            out_stride *= n;
            if n == 1 {
                continue;
            }
            if let (Some(inner_n), Some(inner_st)) = (plan.sizes.last_mut(), plan.strides.last())
                && (0..N).all(|k| st[k] == inner_st[k] * *inner_n)
            {
                *inner_n *= n;
                continue;
            }
            plan.sizes.push(n);
            plan.strides.push(st);
        }
        plan.sizes.reverse();
        plan.strides.reverse();
        let (sizes, strides, rank) = (&plan.sizes, &plan.strides, plan.sizes.len());
        // Tile when some operand's inner stride is large while it moves
        // slowly along the next dimension out: a transposed operand.
        plan.tiled = rank >= 2
            && sizes[rank - 1] > MIN_TILE_ROWS
            && sizes[rank - 2] > MIN_TILE_ROWS
            && (0..N)
                .any(|k| strides[rank - 1][k] > 1 && strides[rank - 2][k] < strides[rank - 1][k]);
        plan
    }

    /// The number of elements.
    pub fn numel(&self) -> usize {
        crate::layout::numel(&self.sizes)
    }

    /// The coalesced sizes, outermost first.
    pub fn sizes(&self) -> &[usize] {
        &self.sizes
    }

    /// Whether the plan walks tiles.
    pub fn is_tiled(&self) -> bool {
        self.tiled
    }

    /// Hands every run (or tile) of elements to `visit`, on several threads
    /// when the operation is large. `visit` must tolerate being called
    /// concurrently for distinct runs.
    pub fn run<V: Visit<N>>(&self, visit: V) {
        self.run_visitor(&visit)
    }

    /// [`Plan::run`] behind a trait object: the walk and rayon's splitting
    /// are compiled once per operand count, not once per kernel and dtype
    /// (a virtual call per run or tile costs nothing next to its elements).
    fn run_visitor(&self, visit: &dyn Visit<N>) {
        let numel = self.numel();
        if numel == 0 {
            return;
        }
        let tile = TileShape::for_element_bytes(visit.widest_element());
        let threads = if numel < PARALLEL_MIN_ELEMENTS {
            1
        } else {
            rayon::current_num_threads()
        };
        if threads == 1 {
            let pieces = 1;
            self.run_units(0, self.units(pieces, tile), pieces, tile, visit);
            return;
        }
        // Aim for a few chunks per thread; cut rows into pieces when there
        // are too few rows (a contiguous tensor is a single row).
        let chunks = threads * 4;
        let rows = self.units(1, tile);
        let pieces = if self.tiled || rows >= chunks {
            1
        } else {
            chunks.div_ceil(rows)
        };
        let units = self.units(pieces, tile);
        let chunks = chunks.min(units);
        for_each_index(chunks, &|c| {
            let start = units * c / chunks;
            let end = units * (c + 1) / chunks;
            self.run_units(start, end, pieces, tile, visit);
        });
    }

    /// Rank 0 has one element; otherwise units are rows cut in `pieces`
    /// (plain) or bands of up to `tile.band_rows()` rows (tiled) over all outer
    /// indices. Only for a plan with elements: no size is 0, so every
    /// product of sizes is at most the element count.
    fn units(&self, pieces: usize, tile: TileShape) -> usize {
        let rank = self.sizes.len();
        if rank == 0 {
            return 1;
        }
        if self.tiled {
            let outer: usize = self.sizes[..rank - 2].iter().product();
            outer * self.sizes[rank - 2].div_ceil(tile.band_rows())
        } else {
            self.sizes[..rank - 1].iter().product::<usize>() * pieces
        }
    }

    /// The length of a row piece: rows cut in `pieces`, in whole cache lines.
    fn piece_len(&self, pieces: usize) -> usize {
        let inner_len = self.sizes[self.sizes.len() - 1];
        inner_len.div_ceil(pieces).next_multiple_of(PIECE_ALIGN)
    }

    fn run_units(
        &self,
        start: usize,
        end: usize,
        pieces: usize,
        tile: TileShape,
        visit: &dyn Visit<N>,
    ) {
        let rank = self.sizes.len();
        if rank == 0 {
            visit.row(Row {
                offsets: self.offsets,
                strides: [0; N],
                len: 1,
            });
            return;
        }
        let inner = self.strides[rank - 1];
        let inner_len = self.sizes[rank - 1];
        if !self.tiled && pieces == 1 {
            // Whole rows over the outer dimensions: batches of the rows
            // that run along the innermost of them (a vector is one row).
            let outer = &self.sizes[..rank - 1];
            let Some(last) = outer.len().checked_sub(1) else {
                visit.row(Row {
                    offsets: self.offsets,
                    strides: inner,
                    len: inner_len,
                });
                return;
            };
            let step = self.strides[rank - 2];
            let mut index = unravel(start, outer);
            let mut offsets = self.offsets_at(&index);
            let mut row = start;
            while row < end {
                let count = (outer[last] - index[last]).min(end - row);
                let first = Row {
                    offsets,
                    strides: inner,
                    len: inner_len,
                };
                visit.rows(first, step, count);
                row += count;
                // Move to the last row of the batch, then one further.
                index[last] += count - 1;
                for (k, o) in offsets.iter_mut().enumerate() {
                    *o += (count - 1) * step[k];
                }
                self.advance(&mut index, &mut offsets, outer.len());
            }
            return;
        }
        if !self.tiled {
            // Odometer over the outer dimensions, starting at the row of
            // unit `start`; each row is walked in `pieces` runs.
            let outer = &self.sizes[..rank - 1];
            let piece_len = self.piece_len(pieces);
            let mut piece = start % pieces;
            let mut index = unravel(start / pieces, outer);
            let mut offsets = self.offsets_at(&index);
            for _ in start..end {
                let begin = (piece * piece_len).min(inner_len);
                // The last pieces of a row may be empty (lengths are rounded
                // up to whole cache lines): they are not visited, so every
                // run handed out starts at an element of each operand.
                if begin < inner_len {
                    visit.row(Row {
                        offsets: core::array::from_fn(|k| offsets[k] + begin * inner[k]),
                        strides: inner,
                        len: piece_len.min(inner_len - begin),
                    });
                }
                piece += 1;
                if piece == pieces {
                    piece = 0;
                    self.advance(&mut index, &mut offsets, outer.len());
                }
            }
            return;
        }
        // Tiled: a unit is a band of rows of dimension rank-2 at one outer
        // index. The band is walked in blocks of `tile.cols` columns, and
        // each block in tiles of `tile.rows` rows: a block writes one cache
        // line of each of the band's output rows and reads a few lines
        // running along each of `tile.cols` rows of a transposed operand,
        // which the hardware prefetcher follows.
        let band_rows = tile.band_rows();
        let bands = self.sizes[rank - 2].div_ceil(band_rows);
        let outer = &self.sizes[..rank - 2];
        let mid = self.strides[rank - 2];
        let rows = self.sizes[rank - 2];
        for unit in start..end {
            let (outer_unit, band) = (unit / bands, unit % bands);
            let base = self.offsets_at(&unravel(outer_unit, outer));
            let band_end = ((band + 1) * band_rows).min(rows);
            let mut c0 = 0;
            while c0 < inner_len {
                let len = tile.cols.min(inner_len - c0);
                let mut r0 = band * band_rows;
                while r0 < band_end {
                    let r1 = (r0 + tile.rows).min(band_end);
                    visit.tile(Tile {
                        offsets: core::array::from_fn(|k| base[k] + r0 * mid[k] + c0 * inner[k]),
                        row_strides: mid,
                        col_strides: inner,
                        rows: r1 - r0,
                        cols: len,
                    });
                    r0 = r1;
                }
                c0 += len;
            }
        }
    }

    /// Storage offsets of the element at an index of the leading dimensions.
    fn offsets_at(&self, index: &[usize]) -> [usize; N] {
        let mut offsets = self.offsets;
        for (d, &i) in index.iter().enumerate() {
            for (k, o) in offsets.iter_mut().enumerate() {
                *o += i * self.strides[d][k];
            }
        }
        offsets
    }

    /// Steps an index of the first `dims` dimensions to the next one,
    /// updating the offsets in place.
    fn advance(&self, index: &mut [usize], offsets: &mut [usize; N], dims: usize) {
        for d in (0..dims).rev() {
            index[d] += 1;
            for (k, o) in offsets.iter_mut().enumerate() {
                *o += self.strides[d][k];
            }
            if index[d] < self.sizes[d] {
                return;
            }
            for (k, o) in offsets.iter_mut().enumerate() {
                *o -= index[d] * self.strides[d][k];
            }
            index[d] = 0;
        }
    }
}

/// The multi-index of a linear position in row-major order over `sizes`.
#[inline]
fn unravel(mut linear: usize, sizes: &[usize]) -> Dims<usize> {
    let mut index: Dims<usize> = SmallVec::from_elem(0, sizes.len());
    for d in (0..sizes.len()).rev() {
        index[d] = linear % sizes[d];
        linear /= sizes[d];
    }
    index
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    /// Every element's offsets, in the order visited (sorted when parallel).
    fn visit<const N: usize>(plan: &Plan<N>) -> Vec<[usize; N]> {
        let seen = Mutex::new(Vec::new());
        plan.run(|r: Row<N>| {
            let mut v = seen.lock().unwrap();
            for i in 0..r.len {
                v.push(core::array::from_fn(|k| r.offsets[k] + i * r.strides[k]));
            }
        });
        let mut v = seen.into_inner().unwrap();
        v.sort();
        v
    }

    /// The same offsets from a plain nested loop.
    fn reference<const N: usize>(
        sizes: &[usize],
        strides: [&[usize]; N],
        offsets: [usize; N],
    ) -> Vec<[usize; N]> {
        let numel: usize = sizes.iter().product();
        let mut v: Vec<[usize; N]> = (0..numel)
            .map(|lin| {
                let idx = unravel(lin, sizes);
                core::array::from_fn(|k| {
                    offsets[k]
                        + idx
                            .iter()
                            .zip(strides[k])
                            .map(|(i, s)| i * s)
                            .sum::<usize>()
                })
            })
            .collect();
        v.sort();
        v
    }

    /// Every element's offsets as [`run`] (and [`run_contiguous_output`],
    /// operand 0 given row-major strides) visits them, sorted.
    fn walked<const N: usize>(
        sizes: &[usize],
        strides: [&[usize]; N],
        offsets: [usize; N],
        contiguous_output: bool,
    ) -> Vec<[usize; N]> {
        let seen = Mutex::new(Vec::new());
        let record = |r: Row<N>| {
            let mut v = seen.lock().unwrap();
            for i in 0..r.len {
                v.push(core::array::from_fn(|k| r.offsets[k] + i * r.strides[k]));
            }
        };
        if contiguous_output {
            run_contiguous_output(sizes, strides, offsets, record);
        } else {
            run(sizes, strides, offsets, record);
        }
        let mut v = seen.into_inner().unwrap();
        v.sort();
        v
    }

    /// Small operations skip the planner (`small_walk`), up to its limits
    /// of rank and size, and reach every element once, as do the larger
    /// ones past those limits.
    #[test]
    fn small_operations_visit_every_element_once() {
        type Case = (Vec<usize>, [Vec<usize>; 2], [usize; 2]);
        let cases: Vec<Case> = vec![
            (vec![], [vec![], vec![]], [0, 5]),
            (vec![7], [vec![1], vec![3]], [2, 1]),
            (vec![4, 4], [vec![1, 0], vec![0, 1]], [0, 3]),
            (vec![3, 1, 4], [vec![1, 9, 3], vec![0, 7, 2]], [1, 3]),
            (
                vec![2, 3, 4, 5],
                [vec![1, 2, 6, 24], vec![0, 5, 0, 1]],
                [0, 1],
            ),
            (vec![3, 0, 2], [vec![0, 2, 1], vec![2, 2, 1]], [0, 0]),
            (
                vec![2, 1, 2, 1, 2, 3],
                [vec![1, 0, 2, 0, 4, 8], vec![0; 6]],
                [0, 4],
            ),
            // Past the limits: seven dimensions, 4096 elements.
            (
                vec![2, 1, 2, 1, 2, 1, 3],
                [vec![1, 0, 2, 0, 4, 0, 8], vec![0; 7]],
                [0, 0],
            ),
            (vec![64, 64], [vec![1, 64], vec![64, 1]], [0, 0]),
        ];
        for (sizes, strides, offsets) in cases {
            let s = [strides[0].as_slice(), strides[1].as_slice()];
            assert_eq!(
                walked(&sizes, s, offsets, false),
                reference(&sizes, s, offsets),
                "{sizes:?}"
            );
            let row_major: Vec<usize> = crate::layout::contiguous_strides(&sizes);
            let with_output = [row_major.as_slice(), s[1]];
            assert_eq!(
                walked(&sizes, s, offsets, true),
                reference(&sizes, with_output, offsets),
                "{sizes:?}, contiguous output"
            );
        }
    }

    #[test]
    fn contiguous_output_plans_match_explicit_strides() {
        let explicit = Plan::<2>::new(&[4, 1, 6], [&[6, 6, 1], &[0, 9, 1]], [0, 5]);
        let implied = Plan::<2>::with_contiguous_output(&[4, 1, 6], [&[], &[0, 9, 1]], [0, 5]);
        assert_eq!(explicit, implied);
    }

    #[test]
    fn contiguous_tensors_coalesce_to_one_row() {
        let p = Plan::<2>::new(&[4, 5, 6], [&[30, 6, 1], &[30, 6, 1]], [0, 0]);
        assert_eq!(p.sizes(), &[120]);
    }

    #[test]
    fn broadcast_inner_dimension_survives_coalescing() {
        let p = Plan::<3>::new(&[4096, 4096], [&[4096, 1], &[4096, 1], &[1, 0]], [0, 0, 0]);
        assert_eq!(p.sizes(), &[4096, 4096]);
        assert!(!p.is_tiled());
    }

    #[test]
    fn transposed_operands_are_tiled() {
        let p = Plan::<3>::new(&[300, 200], [&[200, 1], &[200, 1], &[1, 300]], [0, 0, 5]);
        assert!(p.is_tiled());
        assert_eq!(
            visit(&p),
            reference(&[300, 200], [&[200, 1], &[200, 1], &[1, 300]], [0, 0, 5])
        );
    }

    #[test]
    fn visits_every_element_once() {
        type Case = (Vec<usize>, [Vec<usize>; 2], [usize; 2]);
        let cases: Vec<Case> = vec![
            (vec![5], [vec![1], vec![3]], [0, 1]),
            (vec![3, 1, 4], [vec![4, 4, 1], vec![0, 7, 2]], [0, 3]),
            (
                vec![2, 3, 4, 5],
                [vec![60, 20, 5, 1], vec![1, 2, 6, 24]],
                [0, 1],
            ),
            (vec![], [vec![], vec![]], [0, 9]),
            (vec![3, 0, 2], [vec![0, 2, 1], vec![2, 2, 1]], [0, 0]),
            (vec![70000], [vec![1], vec![0]], [0, 0]),
            (vec![3, 50001], [vec![50001, 1], vec![1, 3]], [0, 2]),
            (vec![400, 300], [vec![300, 1], vec![1, 400]], [0, 0]),
            // Parallel whole rows over two outer dimensions: chunks start
            // and end inside the innermost of them.
            (
                vec![100, 50, 16],
                [vec![800, 16, 1], vec![16, 1600, 1]],
                [0, 3],
            ),
            (
                vec![7, 3, 5000],
                [vec![15000, 5000, 1], vec![5000, 35000, 1]],
                [0, 0],
            ),
        ];
        for (sizes, strides, offsets) in cases {
            let s = [strides[0].as_slice(), strides[1].as_slice()];
            let plan = Plan::<2>::new(&sizes, s, offsets);
            assert_eq!(visit(&plan), reference(&sizes, s, offsets), "{sizes:?}");
        }
    }

    #[test]
    fn rows_cut_in_pieces_hand_out_no_empty_run() {
        // With many threads, short rows are cut in pieces rounded up to
        // whole cache lines, and the last pieces of a row can be empty:
        // (700, 100) on 512 threads is 3 pieces of 64 per row. No run of
        // no elements is handed out (a kernel would form a pointer at its
        // offset, which may lie past the operand).
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(512)
            .build()
            .unwrap();
        let sizes = [700, 100];
        // Rows apart (not merged), and one long row (2048 pieces of 64).
        for input in [[200, 1], [100, 1]] {
            let plan = Plan::new(&sizes, [&[100, 1], &input], [0, 5]);
            let runs = Mutex::new(Vec::new());
            pool.install(|| plan.run(|r: Row<2>| runs.lock().unwrap().push(r)));
            let runs = runs.into_inner().unwrap();
            assert!(runs.iter().all(|r| r.len > 0), "an empty run");
            assert_eq!(runs.iter().map(|r| r.len).sum::<usize>(), 70_000);
            assert_eq!(visit(&plan), reference(&sizes, [&[100, 1], &input], [0, 5]));
        }
    }
}
