//! Copying rearrangements (`flip`, `fliplr`, `flipud`, `roll`, `rot90`,
//! `pad`, `repeat`, `tile`, `repeat_interleave`) and the triangles
//! (`tril`, `triu`), with PyTorch's semantics and texts.
//!
//! `flip`, `roll`, `rot90`, `pad`, `tril` and `triu` are one kernel per
//! device ([`Rearranging`]): each output dimension reads its source
//! dimension through an [`AxisMap`], a [`Band`] keeps diagonals.
//! `repeat`, `tile` and `repeat_interleave` copy the source laid out with
//! strides of 0 (the elementwise copy of every device). Static shapes take
//! axes and amounts in the type and get their result shapes from the
//! compiler (`shape/rearrange.rs`); `DynTensor` takes them at run time.
//!
//! ```
//! use shaped::prelude::*;
//! let x = Tensor::<i32, shape![2, 3]>::from_vec((0..6).collect()).unwrap();
//! assert_eq!(x.flip::<axes![1]>().to_vec(), [2, 1, 0, 5, 4, 3]);
//! let r = x.rot90::<1, 0, 1>();
//! assert_eq!((r.shape(), r.to_vec()), ([3, 2], vec![2, 5, 1, 4, 0, 3]));
//! let t: Tensor<i32, shape![2, 6]> = x.repeat::<shape![1, 2]>();
//! assert_eq!(t.to_vec(), [0, 1, 2, 0, 1, 2, 3, 4, 5, 3, 4, 5]);
//! assert_eq!(x.tril(0).to_vec(), [0, 0, 0, 3, 4, 0]);
//! ```

use crate::backend::rearrange::{AxisMap, Band, PadMode, Rearranging};
use crate::backend::{Elementwise, StridedRef};
use crate::dtype::Element;
use crate::dynamic::{DynShape, DynSizes};
use crate::error::{Error, OrPanic};
use crate::layout::views::wrap_dim;
use crate::layout::{StridedLayout, array_from, checked_storage};
use crate::shape::axes::At;
use crate::shape::concat::Repeated;
use crate::shape::list::TupleShape;
use crate::shape::rearrange::{Matrices, PadBy, RepeatBy, Rot90, TileBy};
use crate::shape::reduce::{AxesIn, DistinctAxes};
use crate::shape::{FixedShape, Shape, SizeArray};
use crate::storage::Repr;
use crate::tensor::{OwnedParts, Tensor, from_parts, owned_parts};
use smallvec::SmallVec;

type Dims = SmallVec<[usize; 8]>;

/// The output of `maps` (and `band`) over `x`, contiguous.
fn rearranged<T: Element, D: Rearranging, A: SizeArray>(
    x: StridedRef<'_, T, D>,
    maps: &[AxisMap],
    fill: T,
    band: Option<Band>,
) -> Result<OwnedParts<T, D, A>, Error> {
    let sizes: Dims = x
        .sizes
        .iter()
        .zip(maps)
        .map(|(&n, m)| m.out_len(n))
        .collect();
    checked_storage(&sizes, size_of::<T>())?;
    let buffer = D::rearrange(x, maps, fill, band)?;
    Ok(owned_parts(
        buffer,
        StridedLayout::contiguous(array_from::<A>(&sizes)),
    ))
}

/// A contiguous copy of `x`'s elements laid out as `sizes` and `strides`
/// (strides of 0 repeat them), with the result's sizes `out`.
fn copied_as<T: Element, D: Elementwise, A: SizeArray>(
    x: StridedRef<'_, T, D>,
    sizes: &[usize],
    strides: &[usize],
    out: &[usize],
) -> Result<OwnedParts<T, D, A>, Error> {
    checked_storage(out, size_of::<T>())?;
    let view = StridedRef {
        ptr: x.ptr,
        sizes,
        strides,
        offset: x.offset,
    };
    let buffer = D::map1(view, crate::ops::functions::Identity)?;
    Ok(owned_parts(
        buffer,
        StridedLayout::contiguous(array_from::<A>(out)),
    ))
}

/// The maps of `flip(dims)`: `Reverse` on each dimension of `mask`.
fn flip_maps(mask: &[bool]) -> SmallVec<[AxisMap; 8]> {
    mask.iter()
        .map(|&m| if m { AxisMap::Reverse } else { AxisMap::Same })
        .collect()
}

/// `dims` wrapped and checked to be distinct (PyTorch's `dim_list_to_bitset`).
fn dims_mask(dims: &[isize], rank: usize) -> Result<SmallVec<[bool; 8]>, Error> {
    let mut mask = SmallVec::from_elem(false, rank);
    for &d in dims {
        let d = wrap_dim(d, rank)?;
        if rank == 0 {
            continue;
        }
        if mask[d] {
            return Err(Error::DimRepeated { dim: d });
        }
        mask[d] = true;
    }
    Ok(mask)
}

/// The maps of `roll(shifts, dims)` over `sizes`.
fn roll_maps(
    sizes: &[usize],
    shifts: &[isize],
    dims: &[isize],
) -> Result<SmallVec<[AxisMap; 8]>, Error> {
    if shifts.is_empty() {
        return Err(Error::RollShiftsRequired);
    }
    if shifts.len() != dims.len() {
        return Err(Error::RollAlign {
            shifts: shifts.len(),
            dims: dims.len(),
        });
    }
    let mut maps: SmallVec<[AxisMap; 8]> = SmallVec::from_elem(AxisMap::Same, sizes.len());
    for (&shift, &dim) in shifts.iter().zip(dims) {
        let d = wrap_dim(dim, sizes.len())?;
        let n = sizes[d];
        if n == 0 {
            continue;
        }
        // A dimension named twice rolls by the sum (PyTorch rolls once per
        // entry).
        let before = match maps[d] {
            AxisMap::Roll(s) => s,
            _ => 0,
        };
        let total = (before as i128 + shift as i128).rem_euclid(n as i128) as usize;
        maps[d] = if total == 0 {
            AxisMap::Same
        } else {
            AxisMap::Roll(total)
        };
    }
    Ok(maps)
}

/// `rot90(k, dims)` as a permutation of the source and maps: `(dim0,
/// dim1, swapped, maps)`.
fn rot90_plan(
    rank: usize,
    k: i64,
    dims: &[isize],
) -> Result<(usize, usize, bool, SmallVec<[AxisMap; 8]>), Error> {
    if dims.len() != 2 {
        return Err(Error::Rot90Dims { got: dims.len() });
    }
    if rank < 2 {
        return Err(Error::Rot90Rank { rank });
    }
    let (d0, d1) = (wrap_dim(dims[0], rank)?, wrap_dim(dims[1], rank)?);
    if d0 == d1 {
        return Err(Error::Rot90SameDims { dim0: d0, dim1: d1 });
    }
    let mut maps: SmallVec<[AxisMap; 8]> = SmallVec::from_elem(AxisMap::Same, rank);
    // On the source with `d0` and `d1` swapped (for odd turns):
    // k = 1: out[i, j] = x[j, n - 1 - i], the swapped source reversed along d0;
    // k = 2: both reversed; k = 3: the swapped source reversed along d1.
    let swapped = match k.rem_euclid(4) {
        0 => false,
        1 => {
            maps[d0] = AxisMap::Reverse;
            true
        }
        2 => {
            maps[d0] = AxisMap::Reverse;
            maps[d1] = AxisMap::Reverse;
            false
        }
        _ => {
            maps[d1] = AxisMap::Reverse;
            true
        }
    };
    Ok((d0, d1, swapped, maps))
}

/// The maps of `pad(pad, mode)` over `sizes`, with PyTorch's checks
/// (`at::pad`, `constant_pad_nd`, and the reflection, replication and
/// circular kernels' own).
fn pad_maps<T: Element>(
    sizes: &[usize],
    pad: &[isize],
    mode: PadMode,
    value: Option<T>,
) -> Result<SmallVec<[AxisMap; 8]>, Error> {
    let rank = sizes.len();
    if pad.len() % 2 != 0 {
        return Err(Error::PadOdd);
    }
    if pad.len() > 2 * rank {
        return Err(Error::PadLength {
            len: pad.len(),
            rank,
        });
    }
    let mut maps: SmallVec<[AxisMap; 8]> = SmallVec::from_elem(AxisMap::Same, rank);
    let padded = pad.len() / 2;
    if mode != PadMode::Constant {
        if value.is_some_and(|v| v != T::ZERO) {
            return Err(Error::PadValue { mode: mode.name() });
        }
        if !matches!((padded, rank), (1, 2 | 3) | (2, 3 | 4) | (3, 4 | 5)) {
            return Err(Error::PadModeRank);
        }
        check_mode_pad(sizes, pad, mode)?;
    }
    for (k, pair) in pad.chunks(2).enumerate() {
        let d = rank - 1 - k;
        let (before, after) = (pair[0], pair[1]);
        let n = sizes[d] as isize;
        if n.saturating_add(before).saturating_add(after) < 0 {
            return Err(Error::PadNegative {
                size: sizes[d],
                before,
                after,
                dim: d,
            });
        }
        maps[d] = AxisMap::Pad {
            before,
            after,
            mode,
        };
    }
    Ok(maps)
}

/// The checks of PyTorch's reflection, replication and circular padding
/// kernels (`padded` dimensions at the end of `sizes`).
fn check_mode_pad(sizes: &[usize], pad: &[isize], mode: PadMode) -> Result<(), Error> {
    let rank = sizes.len();
    let padded = pad.len() / 2;
    // The batch dimension may be empty, the others not.
    let batch = rank - padded - 1;
    if sizes[batch + 1..].contains(&0) || (batch == 1 && sizes[1] == 0) {
        return Err(Error::PadEmpty {
            dims: padded,
            sizes: sizes.to_vec(),
        });
    }
    for (k, pair) in pad.chunks(2).enumerate() {
        let d = rank - 1 - k;
        let n = sizes[d] as isize;
        let (before, after) = (pair[0], pair[1]);
        let fits = match mode {
            PadMode::Reflect => before < n && after < n,
            PadMode::Circular => before <= n && after <= n,
            _ => true,
        };
        if !fits {
            return Err(match mode {
                PadMode::Reflect => Error::PadReflect {
                    argument: 4 + 2 * k,
                    before,
                    after,
                    dim: d,
                    sizes: sizes.to_vec(),
                },
                _ => Error::PadCircular,
            });
        }
        if n + before + after < 1 && mode != PadMode::Constant {
            return Err(Error::PadTooSmall {
                size: sizes[d],
                out: n + before + after,
                axis: ["W", "H", "D"][k],
            });
        }
    }
    Ok(())
}

/// The repeated layout of `repeat(reps)` over `sizes`/`strides`: (sizes,
/// strides, result sizes), each dimension `d` read as `(reps, n)` with
/// strides `(0, s)`.
fn repeat_layout(
    sizes: &[usize],
    strides: &[usize],
    reps: &[isize],
) -> Result<(Dims, Dims, Dims), Error> {
    if reps.len() < sizes.len() {
        return Err(Error::RepeatRank);
    }
    let lead = reps.len() - sizes.len();
    let (mut view_sizes, mut view_strides, mut out) = (Dims::new(), Dims::new(), Dims::new());
    for (k, &r) in reps.iter().enumerate() {
        let (n, s) = if k < lead {
            (1, 0)
        } else {
            (sizes[k - lead], strides[k - lead])
        };
        let Ok(r) = usize::try_from(r) else {
            return Err(Error::RepeatNegative {
                reps: reps.to_vec(),
                sizes: sizes.to_vec(),
            });
        };
        view_sizes.extend([r, n]);
        view_strides.extend([0, s]);
        out.push(
            r.checked_mul(n)
                .ok_or(Error::OutOfMemory { bytes: usize::MAX })?,
        );
    }
    Ok((view_sizes, view_strides, out))
}

/// `reps` as `tile` reads them: ones in front up to the rank.
fn tile_reps(rank: usize, reps: &[isize]) -> SmallVec<[isize; 8]> {
    let mut all: SmallVec<[isize; 8]> = SmallVec::from_elem(1, rank.saturating_sub(reps.len()));
    all.extend_from_slice(reps);
    all
}

impl<T: Element, D: Rearranging, R: Repr> Tensor<T, DynShape, D, R> {
    /// The elements in reverse order along each of `dims` (PyTorch's
    /// `flip`; a copy, as PyTorch's). `Err` for a dimension out of range or
    /// named twice.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = DynTensor::<i32>::arange(6).reshape(&[2, 3]).unwrap();
    /// assert_eq!(x.flip(&[0, -1]).unwrap().to_vec(), [5, 4, 3, 2, 1, 0]);
    /// assert_eq!(
    ///     x.flip(&[1, 1]).unwrap_err().to_string(),
    ///     "dim 1 appears multiple times in the list of dims"
    /// );
    /// ```
    pub fn flip(&self, dims: &[isize]) -> Result<Tensor<T, DynShape, D>, Error> {
        let mask = dims_mask(dims, self.layout.rank())?;
        Ok(from_parts!(rearranged(
            self.strided(),
            &flip_maps(&mask),
            T::ZERO,
            None
        )?))
    }

    /// `flip(&[1])` of a tensor of 2 or more dimensions (PyTorch's
    /// `fliplr`).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = DynTensor::<i32>::arange(4).reshape(&[2, 2]).unwrap();
    /// assert_eq!(x.fliplr().unwrap().to_vec(), [1, 0, 3, 2]);
    /// assert_eq!(DynTensor::<i32>::arange(2).fliplr().unwrap_err().to_string(), "Input must be >= 2-d.");
    /// ```
    pub fn fliplr(&self) -> Result<Tensor<T, DynShape, D>, Error> {
        if self.layout.rank() < 2 {
            return Err(Error::FlipRank { rank: 2 });
        }
        self.flip(&[1])
    }

    /// `flip(&[0])` of a tensor of 1 or more dimensions (PyTorch's
    /// `flipud`).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = DynTensor::<i32>::arange(4).reshape(&[2, 2]).unwrap();
    /// assert_eq!(x.flipud().unwrap().to_vec(), [2, 3, 0, 1]);
    /// ```
    pub fn flipud(&self) -> Result<Tensor<T, DynShape, D>, Error> {
        if self.layout.rank() < 1 {
            return Err(Error::FlipRank { rank: 1 });
        }
        self.flip(&[0])
    }

    /// The elements shifted by `shifts[i]` along `dims[i]`, wrapping around
    /// (PyTorch's `roll`); with no `dims`, the flattened tensor is shifted by
    /// `shifts[0]` and takes back its shape.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = DynTensor::<i32>::arange(6).reshape(&[2, 3]).unwrap();
    /// assert_eq!(x.roll(&[1], &[1]).unwrap().to_vec(), [2, 0, 1, 5, 3, 4]);
    /// assert_eq!(x.roll(&[-1], &[]).unwrap().to_vec(), [1, 2, 3, 4, 5, 0]);
    /// ```
    pub fn roll(&self, shifts: &[isize], dims: &[isize]) -> Result<Tensor<T, DynShape, D>, Error> {
        if dims.is_empty() && shifts.len() == 1 {
            // The flattened tensor (a copy when it is not contiguous).
            let n = self.layout.numel();
            let flat = self.contiguous_copy()?;
            let x = StridedRef {
                sizes: &[n],
                strides: &[1],
                offset: 0,
                ..flat.strided()
            };
            let maps = roll_maps(&[n], shifts, &[0])?;
            let (data, _) = rearranged::<T, D, DynSizes>(x, &maps, T::ZERO, None)?;
            let layout = StridedLayout::contiguous(self.layout.size_array().clone());
            return Ok(Tensor { data, layout });
        }
        let maps = roll_maps(self.layout.sizes(), shifts, dims)?;
        Ok(from_parts!(rearranged(
            self.strided(),
            &maps,
            T::ZERO,
            None
        )?))
    }

    /// The tensor turned by `k` quarter turns in the plane of `dims`, from
    /// the first dimension towards the second (PyTorch's `rot90`).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = DynTensor::<i32>::arange(4).reshape(&[2, 2]).unwrap();
    /// assert_eq!(x.rot90(1, &[0, 1]).unwrap().to_vec(), [1, 3, 0, 2]);
    /// assert_eq!(x.rot90(-1, &[0, 1]).unwrap().to_vec(), [2, 0, 3, 1]);
    /// ```
    pub fn rot90(&self, k: i64, dims: &[isize]) -> Result<Tensor<T, DynShape, D>, Error> {
        let (d0, d1, swapped, maps) = rot90_plan(self.layout.rank(), k, dims)?;
        let (mut sizes, mut strides) =
            (self.layout.sizes().to_vec(), self.layout.strides().to_vec());
        if swapped {
            sizes.swap(d0, d1);
            strides.swap(d0, d1);
        }
        let x = StridedRef {
            sizes: &sizes,
            strides: &strides,
            ..self.strided()
        };
        Ok(from_parts!(rearranged(x, &maps, T::ZERO, None)?))
    }

    /// The tensor padded (PyTorch's `torch.nn.functional.pad`): `pad` holds
    /// `(before, after)` pairs from the last dimension backwards; `mode`
    /// says what the new positions hold, `value` the constant (default 0;
    /// the other modes take none). Negative amounts crop.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = DynTensor::<f32>::arange(3);
    /// assert_eq!(x.pad(&[1, 2], PadMode::Constant, Some(9.0)).unwrap().to_vec(), [9.0, 0.0, 1.0, 2.0, 9.0, 9.0]);
    /// let rows = x.reshape(&[1, 3]).unwrap();
    /// assert_eq!(rows.pad(&[2, 0], PadMode::Replicate, None).unwrap().to_vec(), [0.0, 0.0, 0.0, 1.0, 2.0]);
    /// ```
    pub fn pad(
        &self,
        pad: &[isize],
        mode: PadMode,
        value: Option<T>,
    ) -> Result<Tensor<T, DynShape, D>, Error> {
        let maps = pad_maps(self.layout.sizes(), pad, mode, value)?;
        let fill = value.unwrap_or(T::ZERO);
        Ok(from_parts!(rearranged(self.strided(), &maps, fill, None)?))
    }

    /// The lower triangle of the last two dimensions: element `(i, j)` kept
    /// where `j - i <= diagonal`, the rest 0 (PyTorch's `tril`).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = DynTensor::<i32>::ones(&[2, 3]);
    /// assert_eq!(x.tril(0).unwrap().to_vec(), [1, 0, 0, 1, 1, 0]);
    /// assert_eq!(x.tril(-1).unwrap().to_vec(), [0, 0, 0, 1, 0, 0]);
    /// ```
    pub fn tril(&self, diagonal: i64) -> Result<Tensor<T, DynShape, D>, Error> {
        self.banded(Band::tril(diagonal), "tril")
    }

    /// The upper triangle of the last two dimensions: element `(i, j)` kept
    /// where `j - i >= diagonal`, the rest 0 (PyTorch's `triu`).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = DynTensor::<i32>::ones(&[2, 3]);
    /// assert_eq!(x.triu(1).unwrap().to_vec(), [0, 1, 1, 0, 0, 1]);
    /// ```
    pub fn triu(&self, diagonal: i64) -> Result<Tensor<T, DynShape, D>, Error> {
        self.banded(Band::triu(diagonal), "triu")
    }

    fn banded(&self, band: Band, op: &'static str) -> Result<Tensor<T, DynShape, D>, Error> {
        if self.layout.rank() < 2 {
            return Err(Error::TriangleRank { op });
        }
        let maps: SmallVec<[AxisMap; 8]> = SmallVec::from_elem(AxisMap::Same, self.layout.rank());
        Ok(from_parts!(rearranged(
            self.strided(),
            &maps,
            T::ZERO,
            Some(band)
        )?))
    }

    /// The tensor repeated `reps[i]` times along dimension `i` (PyTorch's
    /// `repeat`); extra leading `reps` add dimensions.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = DynTensor::<i32>::arange(2);
    /// let r = x.repeat(&[2, 2]).unwrap();
    /// assert_eq!((r.shape().to_vec(), r.to_vec()), (vec![2, 4], vec![0, 1, 0, 1, 0, 1, 0, 1]));
    /// ```
    pub fn repeat(&self, reps: &[isize]) -> Result<Tensor<T, DynShape, D>, Error> {
        let (sizes, strides, out) =
            repeat_layout(self.layout.sizes(), self.layout.strides(), reps)?;
        Ok(from_parts!(copied_as(
            self.strided(),
            &sizes,
            &strides,
            &out
        )?))
    }

    /// [`repeat`](Self::repeat) with `reps` completed by ones in front up
    /// to the rank (PyTorch's `tile`).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = DynTensor::<i32>::arange(4).reshape(&[2, 2]).unwrap();
    /// assert_eq!(x.tile(&[2]).unwrap().to_vec(), [0, 1, 0, 1, 2, 3, 2, 3]);
    /// ```
    pub fn tile(&self, reps: &[isize]) -> Result<Tensor<T, DynShape, D>, Error> {
        self.repeat(&tile_reps(self.layout.rank(), reps))
    }

    /// Each element repeated `repeats` times in place along `dim` (PyTorch's
    /// `repeat_interleave` with a number); with no `dim`, of the flattened
    /// tensor.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = DynTensor::<i32>::arange(4).reshape(&[2, 2]).unwrap();
    /// assert_eq!(x.repeat_interleave(2, Some(0)).unwrap().to_vec(), [0, 1, 0, 1, 2, 3, 2, 3]);
    /// assert_eq!(x.repeat_interleave(2, None).unwrap().to_vec(), [0, 0, 1, 1, 2, 2, 3, 3]);
    /// ```
    pub fn repeat_interleave(
        &self,
        repeats: i64,
        dim: Option<isize>,
    ) -> Result<Tensor<T, DynShape, D>, Error> {
        let Ok(r) = usize::try_from(repeats) else {
            return Err(Error::RepeatsNegative);
        };
        let Some(dim) = dim else {
            let n = self.layout.numel();
            let flat = self.contiguous_copy()?;
            let x = StridedRef {
                sizes: &[n],
                strides: &[1],
                offset: 0,
                ..flat.strided()
            };
            let out = [n
                .checked_mul(r)
                .ok_or(Error::OutOfMemory { bytes: usize::MAX })?];
            return Ok(from_parts!(copied_as(x, &[n, r], &[1, 0], &out)?));
        };
        let rank = self.layout.rank();
        let d = wrap_dim(dim, rank)?;
        let (mut sizes, mut strides): (Dims, Dims) =
            (self.layout.sizes().into(), self.layout.strides().into());
        if rank == 0 {
            sizes.push(1);
            strides.push(0);
        }
        let mut out = sizes.clone();
        out[d] = sizes[d]
            .checked_mul(r)
            .ok_or(Error::OutOfMemory { bytes: usize::MAX })?;
        sizes.insert(d + 1, r);
        strides.insert(d + 1, 0);
        Ok(from_parts!(copied_as(
            self.strided(),
            &sizes,
            &strides,
            &out
        )?))
    }
}

impl<T: Element, S: Shape + TupleShape, D: Rearranging, R: Repr> Tensor<T, S, D, R> {
    /// The elements in reverse order along each of the axes `L`
    /// (`axes![..]`, checked at compile time: in range, each once).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = Tensor::<i32, shape![2, 2]>::from_vec(vec![0, 1, 2, 3]).unwrap();
    /// assert_eq!(x.flip::<axes![0, 1]>().to_vec(), [3, 2, 1, 0]);
    /// ```
    pub fn flip<L: FixedShape + TupleShape>(&self) -> Tensor<T, S, D>
    where
        L::Fwd: AxesIn<S> + DistinctAxes,
    {
        let mask = crate::shape::reduce::axes_mask::<L>(self.layout.rank());
        from_parts!(rearranged(self.strided(), &flip_maps(&mask), T::ZERO, None).or_panic())
    }

    /// `flip::<axes![1]>()` (PyTorch's `fliplr`): 2 dimensions or more.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = Tensor::<i32, shape![1, 3]>::from_vec(vec![0, 1, 2]).unwrap();
    /// assert_eq!(x.fliplr().to_vec(), [2, 1, 0]);
    /// ```
    pub fn fliplr(&self) -> Tensor<T, S, D>
    where
        S: At<1>,
    {
        let mut mask: SmallVec<[bool; 8]> = SmallVec::from_elem(false, self.layout.rank());
        mask[1] = true;
        from_parts!(rearranged(self.strided(), &flip_maps(&mask), T::ZERO, None).or_panic())
    }

    /// `flip::<axes![0]>()` (PyTorch's `flipud`): 1 dimension or more.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = Tensor::<i32, shape![3]>::from_vec(vec![0, 1, 2]).unwrap();
    /// assert_eq!(x.flipud().to_vec(), [2, 1, 0]);
    /// ```
    pub fn flipud(&self) -> Tensor<T, S, D>
    where
        S: At<0>,
    {
        let mut mask: SmallVec<[bool; 8]> = SmallVec::from_elem(false, self.layout.rank());
        mask[0] = true;
        from_parts!(rearranged(self.strided(), &flip_maps(&mask), T::ZERO, None).or_panic())
    }

    /// The elements shifted by `shift` along dimension `DIM`, wrapping
    /// around (PyTorch's `roll(shift, DIM)`).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = Tensor::<i32, shape![4]>::from_vec(vec![0, 1, 2, 3]).unwrap();
    /// assert_eq!(x.roll::<0>(1).to_vec(), [3, 0, 1, 2]);
    /// assert_eq!(x.roll::<0>(-5).to_vec(), [1, 2, 3, 0]);
    /// ```
    pub fn roll<const DIM: usize>(&self, shift: isize) -> Tensor<T, S, D>
    where
        S: At<DIM>,
    {
        let maps = roll_maps(self.layout.sizes(), &[shift], &[DIM as isize]).or_panic();
        from_parts!(rearranged(self.strided(), &maps, T::ZERO, None).or_panic())
    }

    /// The tensor turned by `K` quarter turns in the plane of `D0` and
    /// `D1` (PyTorch's `rot90(K, [D0, D1])`): for odd `K` the two sizes
    /// trade places, in the type. `K` from -8 to 8 (the `DynTensor` form
    /// takes any).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = Tensor::<i32, shape![1, 3]>::from_vec(vec![0, 1, 2]).unwrap();
    /// let r: Tensor<i32, shape![3, 1]> = x.rot90::<1, 0, 1>();
    /// assert_eq!(r.to_vec(), [2, 1, 0]);
    /// ```
    pub fn rot90<const K: i32, const D0: usize, const D1: usize>(
        &self,
    ) -> Tensor<T, <S as Rot90<K, D0, D1>>::Output, D>
    where
        S: Rot90<K, D0, D1>,
    {
        let (d0, d1, swapped, maps) = rot90_plan(
            self.layout.rank(),
            i64::from(K),
            &[D0 as isize, D1 as isize],
        )
        .or_panic();
        let (mut sizes, mut strides): (Dims, Dims) =
            (self.layout.sizes().into(), self.layout.strides().into());
        if swapped {
            sizes.swap(d0, d1);
            strides.swap(d0, d1);
        }
        let x = StridedRef {
            sizes: &sizes,
            strides: &strides,
            ..self.strided()
        };
        from_parts!(rearranged(x, &maps, T::ZERO, None).or_panic())
    }

    /// The tensor padded with `value` by the amounts `P` (`shape![before,
    /// after, ..]`, pairs from the last dimension backwards; the result's
    /// shape in the type), PyTorch's constant `pad`.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = Tensor::<i32, shape![2, 2]>::ones();
    /// let p: Tensor<i32, shape![4, 3]> = x.pad::<shape![1, 0, 1, 1]>(0);
    /// assert_eq!(p.to_vec(), [0, 0, 0, 0, 1, 1, 0, 1, 1, 0, 0, 0]);
    /// ```
    pub fn pad<P: FixedShape>(&self, value: T) -> Tensor<T, <S as PadBy<P>>::Output, D>
    where
        S: PadBy<P>,
    {
        self.try_pad_mode::<P>(PadMode::Constant, Some(value))
            .or_panic()
    }

    /// The tensor padded by the amounts `P` in `mode` (reflect, replicate
    /// and circular take no value): `Err` with PyTorch's text where the
    /// sizes do not allow the mode (a reflection as long as the dimension,
    /// a rank the mode does not take).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = Tensor::<f32, shape![1, 3]>::from_vec(vec![0.0, 1.0, 2.0]).unwrap();
    /// let p: Tensor<f32, shape![1, 5]> = x.try_pad_mode::<shape![1, 1]>(PadMode::Circular, None).unwrap();
    /// assert_eq!(p.to_vec(), [2.0, 0.0, 1.0, 2.0, 0.0]);
    /// ```
    pub fn try_pad_mode<P: FixedShape>(
        &self,
        mode: PadMode,
        value: Option<T>,
    ) -> Result<Tensor<T, <S as PadBy<P>>::Output, D>, Error>
    where
        S: PadBy<P>,
    {
        let pad: SmallVec<[isize; 16]> = P::SIZES.as_ref().iter().map(|&p| p as isize).collect();
        let maps = pad_maps(self.layout.sizes(), &pad, mode, value)?;
        Ok(from_parts!(rearranged(
            self.strided(),
            &maps,
            value.unwrap_or(T::ZERO),
            None
        )?))
    }

    /// The lower triangle of the last two dimensions (PyTorch's `tril`):
    /// `(i, j)` kept where `j - i <= diagonal`, the rest 0.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = Tensor::<i32, shape![2, 2]>::ones();
    /// assert_eq!(x.tril(0).to_vec(), [1, 0, 1, 1]);
    /// ```
    pub fn tril(&self, diagonal: i64) -> Tensor<T, S, D>
    where
        S: Matrices,
    {
        let maps: SmallVec<[AxisMap; 8]> = SmallVec::from_elem(AxisMap::Same, self.layout.rank());
        from_parts!(
            rearranged(self.strided(), &maps, T::ZERO, Some(Band::tril(diagonal))).or_panic()
        )
    }

    /// The upper triangle of the last two dimensions (PyTorch's `triu`):
    /// `(i, j)` kept where `j - i >= diagonal`, the rest 0.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = Tensor::<i32, shape![2, 2]>::ones();
    /// assert_eq!(x.triu(0).to_vec(), [1, 1, 0, 1]);
    /// ```
    pub fn triu(&self, diagonal: i64) -> Tensor<T, S, D>
    where
        S: Matrices,
    {
        let maps: SmallVec<[AxisMap; 8]> = SmallVec::from_elem(AxisMap::Same, self.layout.rank());
        from_parts!(
            rearranged(self.strided(), &maps, T::ZERO, Some(Band::triu(diagonal))).or_panic()
        )
    }

    /// The tensor repeated `R[i]` times along dimension `i` (`shape![..]`
    /// with at least the tensor's rank; extra leading entries add
    /// dimensions), PyTorch's `repeat`; the result's shape in the type.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = Tensor::<i32, shape![2]>::from_vec(vec![0, 1]).unwrap();
    /// let r: Tensor<i32, shape![3, 2]> = x.repeat::<shape![3, 1]>();
    /// assert_eq!(r.to_vec(), [0, 1, 0, 1, 0, 1]);
    /// ```
    pub fn repeat<Reps: FixedShape>(&self) -> Tensor<T, <S as RepeatBy<Reps>>::Output, D>
    where
        S: RepeatBy<Reps>,
    {
        let reps: SmallVec<[isize; 8]> = Reps::SIZES.as_ref().iter().map(|&r| r as isize).collect();
        let (sizes, strides, out) =
            repeat_layout(self.layout.sizes(), self.layout.strides(), &reps).or_panic();
        from_parts!(copied_as(self.strided(), &sizes, &strides, &out).or_panic())
    }

    /// [`repeat`](Self::repeat) with `Reps` completed by ones in front up
    /// to the rank (PyTorch's `tile`).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = Tensor::<i32, shape![2, 1]>::from_vec(vec![0, 1]).unwrap();
    /// let r: Tensor<i32, shape![2, 3]> = x.tile::<shape![3]>();
    /// assert_eq!(r.to_vec(), [0, 0, 0, 1, 1, 1]);
    /// ```
    pub fn tile<Reps: FixedShape>(&self) -> Tensor<T, <S as TileBy<Reps>>::Output, D>
    where
        S: TileBy<Reps>,
    {
        let reps: SmallVec<[isize; 8]> = Reps::SIZES.as_ref().iter().map(|&r| r as isize).collect();
        let reps = tile_reps(self.layout.rank(), &reps);
        let (sizes, strides, out) =
            repeat_layout(self.layout.sizes(), self.layout.strides(), &reps).or_panic();
        from_parts!(copied_as(self.strided(), &sizes, &strides, &out).or_panic())
    }

    /// Each element repeated `N` times in place along `DIM` (PyTorch's
    /// `repeat_interleave(N, DIM)`); the result's shape in the type.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = Tensor::<i32, shape![2]>::from_vec(vec![0, 1]).unwrap();
    /// let r: Tensor<i32, shape![6]> = x.repeat_interleave::<3, 0>();
    /// assert_eq!(r.to_vec(), [0, 0, 0, 1, 1, 1]);
    /// ```
    pub fn repeat_interleave<const N: usize, const DIM: usize>(
        &self,
    ) -> Tensor<T, <S as Repeated<DIM, N>>::Output, D>
    where
        S: Repeated<DIM, N>,
    {
        let (mut sizes, mut strides): (Dims, Dims) =
            (self.layout.sizes().into(), self.layout.strides().into());
        let mut out = sizes.clone();
        out[DIM] *= N;
        sizes.insert(DIM + 1, N);
        strides.insert(DIM + 1, 0);
        from_parts!(copied_as(self.strided(), &sizes, &strides, &out).or_panic())
    }
}
