//! Structured constructors from tensors: `diag`, `diag_embed`, `diagflat`,
//! `block_diag`, `cartesian_prod`, `meshgrid`, and the index lists
//! `tril_indices`, `triu_indices`, with PyTorch's semantics and texts.
//!
//! The diagonals are one launch of the rearrangement kernel
//! ([`Rearranging`]): the vector read with a stride of 0 across the other
//! dimension, one diagonal kept (a [`Band`]). `block_diag` pads each block
//! to the full width and joins them; `cartesian_prod` copies each input
//! stretched over the grid; `meshgrid` returns views with strides of 0, as
//! PyTorch's.
//!
//! ```
//! use shaped::prelude::*;
//! let v = DynTensor::<i32>::from_vec(vec![1, 2], &[2]).unwrap();
//! assert_eq!(v.diag(0).unwrap().to_vec(), [1, 0, 0, 2]);
//! let grid = DynTensor::meshgrid(&[&v, &v], MeshIndexing::Ij).unwrap();
//! assert_eq!(grid[0].to_vec(), [1, 1, 2, 2]);
//! ```

use super::rearrange::{copied_as, rearranged};
use crate::backend::rearrange::{AxisMap, Band, PadMode, Rearranging};
use crate::backend::{Cpu, StridedRef};
use crate::dtype::Element;
use crate::dynamic::{DynShape, DynTensor};
use crate::error::{Error, OrPanic};
use crate::layout::views::{Strided, wrap_dim};
use crate::shape::rearrange::DiagEmbedded;
use crate::storage::Repr;
use crate::tensor::{Tensor, TensorView, from_parts};
use smallvec::SmallVec;

type Dims = SmallVec<[usize; 8]>;

/// How `meshgrid` orders its output dimensions (PyTorch's `indexing`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MeshIndexing {
    /// Matrix indexing: output dimension `i` follows input `i`.
    Ij,
    /// Cartesian indexing: the first two dimensions swapped (NumPy's
    /// default).
    Xy,
}

/// A map that pads `extra` positions after a dimension with the fill value.
fn padded_after(extra: usize) -> AxisMap {
    AxisMap::Pad {
        before: 0,
        after: extra as isize,
        mode: PadMode::Constant,
    }
}

impl<T: Element, D: Rearranging, R: Repr> Tensor<T, DynShape, D, R> {
    /// PyTorch's `diag`: a 1-d tensor becomes a square matrix with it on
    /// diagonal `diagonal` (above the main one when positive), zeros
    /// elsewhere; a 2-d tensor gives a copy of that diagonal.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let v = DynTensor::<i32>::from_vec(vec![1, 2], &[2]).unwrap();
    /// assert_eq!(v.diag(1).unwrap().to_vec(), [0, 1, 0, 0, 0, 2, 0, 0, 0]);
    /// let m = DynTensor::<i32>::from_vec((0..9).collect(), &[3, 3]).unwrap();
    /// assert_eq!(m.diag(-1).unwrap().to_vec(), [3, 7]);
    /// ```
    pub fn diag(&self, diagonal: i64) -> Result<DynTensor<T, D>, Error> {
        match self.layout.rank() {
            1 => Ok(from_parts!(self.embedded(diagonal)?)),
            2 => self.diagonal(diagonal as isize, 0, 1)?.contiguous_copy(),
            rank => Err(Error::DiagRank { rank }),
        }
    }

    /// The last dimension of `self` placed on diagonal `offset` of the
    /// matrices of dimensions `dim1` and `dim2` of a new tensor of one more
    /// dimension, zeros elsewhere (PyTorch's `diag_embed`).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let v = DynTensor::<i32>::from_vec(vec![1, 2, 3, 4], &[2, 2]).unwrap();
    /// let m = v.diag_embed(0, -2, -1).unwrap();
    /// assert_eq!((m.shape().to_vec(), m.to_vec()), (vec![2, 2, 2], vec![1, 0, 0, 2, 3, 0, 0, 4]));
    /// ```
    pub fn diag_embed(
        &self,
        offset: i64,
        dim1: isize,
        dim2: isize,
    ) -> Result<DynTensor<T, D>, Error> {
        let rank = self.layout.rank() + 1;
        let (a, b) = (wrap_dim(dim1, rank)?, wrap_dim(dim2, rank)?);
        if a == b {
            return Err(Error::DiagonalSameDims { dim1, dim2 });
        }
        let embedded: DynTensor<T, D> = from_parts!(self.embedded(offset)?);
        if (a, b) == (rank - 2, rank - 1) {
            return Ok(embedded);
        }
        // The matrices' rows go to `a`, their columns to `b`, the other
        // dimensions keep their order.
        let mut order: SmallVec<[isize; 8]> = SmallVec::new();
        let mut batch = 0;
        for d in 0..rank {
            order.push(if d == a {
                rank as isize - 2
            } else if d == b {
                rank as isize - 1
            } else {
                batch += 1;
                batch - 1
            });
        }
        embedded.permute(&order)?.contiguous_copy()
    }

    /// The flattened tensor on diagonal `offset` of a square matrix
    /// (PyTorch's `diagflat`).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let v = DynTensor::<i32>::from_vec(vec![1, 2], &[1, 2]).unwrap();
    /// assert_eq!(v.diagflat(0).unwrap().to_vec(), [1, 0, 0, 2]);
    /// ```
    pub fn diagflat(&self, offset: i64) -> Result<DynTensor<T, D>, Error> {
        let flat = self.contiguous_copy()?;
        let n = flat.layout.numel();
        let x = StridedRef {
            sizes: &[n],
            strides: &[1],
            offset: 0,
            ..flat.strided()
        };
        Ok(from_parts!(embedded_parts(x, offset)?))
    }

    /// The last dimension as diagonal `offset` of new last two dimensions.
    fn embedded(
        &self,
        offset: i64,
    ) -> Result<crate::tensor::OwnedParts<T, D, crate::dynamic::DynSizes>, Error> {
        embedded_parts(self.strided(), offset)
    }
}

/// `x`'s last dimension (of `n`) as diagonal `offset` of new last two
/// dimensions of `n + |offset|`: row `i` reads element `i` (a column of
/// stride 0), the band keeps one diagonal.
fn embedded_parts<T: Element, D: Rearranging, A: crate::shape::SizeArray>(
    x: StridedRef<'_, T, D>,
    offset: i64,
) -> Result<crate::tensor::OwnedParts<T, D, A>, Error> {
    let rank = x.sizes.len();
    let (n, s) = (x.sizes[rank - 1], x.strides[rank - 1]);
    let shift = usize::try_from(offset.unsigned_abs())
        .map_err(|_| Error::OutOfMemory { bytes: usize::MAX })?;
    let m = n
        .checked_add(shift)
        .ok_or(Error::OutOfMemory { bytes: usize::MAX })?;
    let (mut sizes, mut strides): (Dims, Dims) =
        (x.sizes[..rank - 1].into(), x.strides[..rank - 1].into());
    let mut maps: SmallVec<[AxisMap; 8]> = SmallVec::from_elem(AxisMap::Same, rank - 1);
    if offset >= 0 {
        // Row i < n reads x[i]; the last `offset` rows are zeros.
        sizes.extend([n, m]);
        strides.extend([s, 0]);
        maps.extend([padded_after(shift), AxisMap::Same]);
    } else {
        // Column j < n reads x[j]; the last `-offset` columns are zeros.
        sizes.extend([m, n]);
        strides.extend([0, s]);
        maps.extend([AxisMap::Same, padded_after(shift)]);
    }
    let view = StridedRef {
        sizes: &sizes,
        strides: &strides,
        ..x
    };
    rearranged(view, &maps, T::ZERO, Some(Band::diagonal(offset)))
}

impl<T: Element, S: crate::shape::Shape + crate::shape::list::TupleShape, D: Rearranging, R: Repr>
    Tensor<T, S, D, R>
{
    /// The last dimension on the main diagonal of two new last dimensions,
    /// zeros elsewhere (PyTorch's `diag_embed()`); the result's shape in
    /// the type. (`DynTensor::diag_embed` takes an offset and the dims.)
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let v = Tensor::<i32, shape![2]>::from_vec(vec![1, 2]).unwrap();
    /// let m: Tensor<i32, shape![2, 2]> = v.diag_embed();
    /// assert_eq!(m.to_vec(), [1, 0, 0, 2]);
    /// ```
    // (The result's shape is a parameter of the method, inferred: so a
    // shape without a last dimension is reported by the rule's own words
    // rather than as a method that does not apply.)
    pub fn diag_embed<O: crate::shape::Shape>(&self) -> Tensor<T, O, D>
    where
        S: DiagEmbedded<Output = O>,
    {
        from_parts!(embedded_parts(self.strided(), 0).or_panic())
    }
}

/// The functions of several tensors: owned ones (`DynTensor::block_diag`),
/// or views of one kind (`Tensor::block_diag(&[&a.t()?, &b.t()?])`).
impl<T: Element, D: Rearranging, R: Repr> Tensor<T, DynShape, D, R> {
    /// The blocks (tensors of at most 2 dimensions; a 0-d one is 1 x 1, a
    /// 1-d one a row) on the diagonal of a matrix, zeros elsewhere
    /// (PyTorch's `block_diag`).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let a = DynTensor::<i32>::ones(&[1, 2]);
    /// let b = DynTensor::<i32>::full(&[2, 1], 7);
    /// let m = DynTensor::block_diag(&[&a, &b]).unwrap();
    /// assert_eq!((m.shape().to_vec(), m.to_vec()), (vec![3, 3], vec![1, 1, 0, 0, 0, 7, 0, 0, 7]));
    /// ```
    pub fn block_diag(blocks: &[&Tensor<T, DynShape, D, R>]) -> Result<DynTensor<T, D>, Error> {
        let mut shapes: SmallVec<[([usize; 2], [usize; 2]); 8]> = SmallVec::new();
        for (k, x) in blocks.iter().enumerate() {
            let (sizes, strides) = (x.layout.sizes(), x.layout.strides());
            shapes.push(match sizes.len() {
                0 => ([1, 1], [0, 0]),
                1 => ([1, sizes[0]], [0, strides[0]]),
                2 => ([sizes[0], sizes[1]], [strides[0], strides[1]]),
                rank => return Err(Error::BlockDiagRank { input: k, rank }),
            });
        }
        let cols: usize = shapes.iter().map(|(s, _)| s[1]).sum();
        let mut rows = Vec::with_capacity(blocks.len());
        let mut at = 0;
        for (x, (sizes, strides)) in blocks.iter().zip(&shapes) {
            let view = StridedRef {
                sizes,
                strides,
                ..x.strided()
            };
            let maps = [
                AxisMap::Same,
                AxisMap::Pad {
                    before: at as isize,
                    after: (cols - at - sizes[1]) as isize,
                    mode: PadMode::Constant,
                },
            ];
            at += sizes[1];
            rows.push(from_parts!(rearranged(view, &maps, T::ZERO, None)?));
        }
        if rows.is_empty() {
            return Err(Error::BlockDiagEmpty);
        }
        let parts: Vec<&DynTensor<T, D>> = rows.iter().collect();
        DynTensor::cat(&parts, 0)
    }

    /// Every combination of one element of each 1-d input, as the rows of
    /// a matrix (PyTorch's `cartesian_prod`); one input gives a copy of it.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let a = DynTensor::<i32>::from_vec(vec![1, 2], &[2]).unwrap();
    /// let b = DynTensor::<i32>::from_vec(vec![3, 4], &[2]).unwrap();
    /// let p = DynTensor::cartesian_prod(&[&a, &b]).unwrap();
    /// assert_eq!(p.to_vec(), [1, 3, 1, 4, 2, 3, 2, 4]);
    /// ```
    pub fn cartesian_prod(inputs: &[&Tensor<T, DynShape, D, R>]) -> Result<DynTensor<T, D>, Error> {
        if inputs.is_empty() {
            return Err(Error::MeshgridEmpty);
        }
        for x in inputs {
            if x.layout.rank() != 1 {
                return Err(Error::CartesianRank {
                    sizes: x.layout.sizes().to_vec(),
                });
            }
        }
        if inputs.len() == 1 {
            return inputs[0].contiguous_copy();
        }
        let grid: Dims = inputs.iter().map(|x| x.layout.sizes()[0]).collect();
        let n = crate::layout::checked_numel(&grid)?;
        let mut columns = Vec::with_capacity(inputs.len());
        for (c, x) in inputs.iter().enumerate() {
            let mut strides: Dims = SmallVec::from_elem(0, grid.len());
            strides[c] = x.layout.strides()[0];
            let column: DynTensor<T, D> =
                from_parts!(copied_as(x.strided(), &grid, &strides, &[n, 1])?);
            columns.push(column);
        }
        let parts: Vec<&DynTensor<T, D>> = columns.iter().collect();
        DynTensor::cat(&parts, 1)
    }
}

impl<T: Element, D: Rearranging, R: Repr> Tensor<T, DynShape, D, R> {
    /// Coordinate grids of 0-d and 1-d inputs (PyTorch's `meshgrid`): one
    /// view per input, each of the grid's shape, reading its input along its
    /// own dimension (stride 0 elsewhere). With [`MeshIndexing::Xy`] the
    /// first two dimensions are swapped.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let a = DynTensor::<i32>::from_vec(vec![1, 2, 3], &[3]).unwrap();
    /// let b = DynTensor::<i32>::from_vec(vec![4, 5], &[2]).unwrap();
    /// let g = DynTensor::meshgrid(&[&a, &b], MeshIndexing::Xy).unwrap();
    /// assert_eq!(g[0].shape(), [2, 3]);
    /// assert_eq!(g[0].to_vec(), [1, 2, 3, 1, 2, 3]);
    /// assert_eq!(g[1].to_vec(), [4, 4, 4, 5, 5, 5]);
    /// ```
    pub fn meshgrid<'a>(
        inputs: &[&'a Tensor<T, DynShape, D, R>],
        indexing: MeshIndexing,
    ) -> Result<Vec<TensorView<'a, T, DynShape, D>>, Error> {
        if inputs.is_empty() {
            return Err(Error::MeshgridEmpty);
        }
        for x in inputs {
            if x.layout.rank() > 1 {
                return Err(Error::MeshgridRank {
                    sizes: x.layout.sizes().to_vec(),
                });
            }
        }
        let mut position: Dims = (0..inputs.len()).collect();
        if indexing == MeshIndexing::Xy && inputs.len() >= 2 {
            position.swap(0, 1);
        }
        let mut grid: Dims = SmallVec::from_elem(0, inputs.len());
        for (x, &p) in inputs.iter().zip(&position) {
            grid[p] = x.layout.numel();
        }
        inputs
            .iter()
            .zip(&position)
            .map(|(x, &p)| {
                let mut strides: Dims = SmallVec::from_elem(0, grid.len());
                strides[p] = x.layout.strides().first().copied().unwrap_or(0);
                x.reborrow()
                    .reinterpret(Strided::new(&grid, &strides, x.layout.offset()))
            })
            .collect()
    }
}

impl Tensor<i64, DynShape, Cpu> {
    /// The coordinates of the lower triangle (`j - i <= offset`) of a
    /// `row` x `col` matrix, row by row: a `(2, N)` int64 tensor (PyTorch's
    /// `tril_indices`).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let i = DynTensor::<i64>::tril_indices(3, 3, 0).unwrap();
    /// assert_eq!(i.to_vec(), [0, 1, 1, 2, 2, 2, 0, 0, 1, 0, 1, 2]);
    /// ```
    pub fn tril_indices(row: i64, col: i64, offset: i64) -> Result<DynTensor<i64>, Error> {
        triangle_indices(row, col, Band::tril(offset))
    }

    /// The coordinates of the upper triangle (`j - i >= offset`) of a
    /// `row` x `col` matrix, row by row (PyTorch's `triu_indices`).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let i = DynTensor::<i64>::triu_indices(2, 3, 1).unwrap();
    /// assert_eq!(i.to_vec(), [0, 0, 1, 1, 2, 2]);
    /// ```
    pub fn triu_indices(row: i64, col: i64, offset: i64) -> Result<DynTensor<i64>, Error> {
        triangle_indices(row, col, Band::triu(offset))
    }
}

/// The coordinates of `band` in a `row` x `col` matrix, row by row.
fn triangle_indices(row: i64, col: i64, band: Band) -> Result<DynTensor<i64>, Error> {
    if row < 0 {
        return Err(Error::IndicesNegative {
            which: "row",
            size: row,
        });
    }
    if col < 0 {
        return Err(Error::IndicesNegative {
            which: "col",
            size: col,
        });
    }
    let (rows, cols) = (row as usize, col as usize);
    let kept = |i: usize| band.kept(i, cols);
    let count: usize = (0..rows).map(|i| kept(i).1 - kept(i).0).sum();
    let mut values = crate::backend::cpu::try_vec_with_capacity::<i64>(2 * count)?;
    for i in 0..rows {
        let (lo, hi) = kept(i);
        values.extend(core::iter::repeat_n(i as i64, hi - lo));
    }
    for i in 0..rows {
        let (lo, hi) = kept(i);
        values.extend(lo as i64..hi as i64);
    }
    DynTensor::<i64>::from_vec_with(values, &[2, count])
}
