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
use crate::backend::{Cpu, Elementwise, StridedRef};
use crate::dtype::Element;
use crate::dtype::IndexElement;
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
use crate::view::copy::like_strides;
use smallvec::SmallVec;

type Dims = SmallVec<[usize; 8]>;

/// The output's sizes of `maps` over `x`, checked to fit in memory.
fn out_sizes<T: Element, D: Rearranging>(
    x: StridedRef<'_, T, D>,
    maps: &[AxisMap],
) -> Result<Dims, Error> {
    let sizes: Dims = x
        .sizes
        .iter()
        .zip(maps)
        .map(|(&n, m)| m.out_len(n))
        .collect();
    checked_storage(&sizes, size_of::<T>())?;
    Ok(sizes)
}

/// The output of `maps` (and `band`) over `x`, contiguous.
pub(crate) fn rearranged<T: Element, D: Rearranging, A: SizeArray>(
    x: StridedRef<'_, T, D>,
    maps: &[AxisMap],
    fill: T,
    band: Option<Band>,
) -> Result<OwnedParts<T, D, A>, Error> {
    let sizes = out_sizes(x, maps)?;
    let buffer = D::rearrange(x, maps, fill, band)?;
    Ok(owned_parts(
        buffer,
        StridedLayout::contiguous(array_from::<A>(&sizes)),
    ))
}

/// The output of `maps` over `x` laid out as PyTorch lays out an output
/// "like" a tensor of strides `like` over the output's sizes
/// (`empty_like`, `preserve_format`: `flip` and `roll` keep a transposed
/// input's order): the kernel walks the dimensions in that order.
pub(crate) fn rearranged_like<T: Element, D: Rearranging, A: SizeArray>(
    x: StridedRef<'_, T, D>,
    maps: &[AxisMap],
    fill: T,
    like: &[usize],
) -> Result<OwnedParts<T, D, A>, Error> {
    let out = out_sizes(x, maps)?;
    let target = like_strides(&out, like);
    // Slowest first in the target's order.
    let mut order: Dims = (0..out.len()).collect();
    order.sort_by_key(|&d| core::cmp::Reverse((out[d] > 1, target[d])));
    let sizes: Dims = order.iter().map(|&d| x.sizes[d]).collect();
    let strides: Dims = order.iter().map(|&d| x.strides[d]).collect();
    let walked: SmallVec<[AxisMap; 8]> = order.iter().map(|&d| maps[d]).collect();
    let view = StridedRef {
        sizes: &sizes,
        strides: &strides,
        ..x
    };
    let buffer = D::rearrange(view, &walked, fill, None)?;
    let layout = StridedLayout::from_parts(array_from::<A>(&out), array_from::<A>(&target), 0);
    Ok(owned_parts(buffer, layout))
}

/// `flip` of `x` along the dimensions of `mask`, laid out like `x` (PyTorch's
/// `empty_like`).
fn flipped<T: Element, D: Rearranging, A: SizeArray>(
    x: StridedRef<'_, T, D>,
    mask: &[bool],
) -> Result<OwnedParts<T, D, A>, Error> {
    rearranged_like(x, &flip_maps(mask), T::ZERO, x.strides)
}

/// `roll` of `x` by `maps`: contiguous, as PyTorch's (whose empty result is
/// a clone, laid out like the input).
fn rolled<T: Element, D: Rearranging, A: SizeArray>(
    x: StridedRef<'_, T, D>,
    maps: &[AxisMap],
) -> Result<OwnedParts<T, D, A>, Error> {
    if x.sizes.contains(&0) {
        rearranged_like(x, maps, T::ZERO, x.strides)
    } else {
        rearranged(x, maps, T::ZERO, None)
    }
}

/// `pad` of `x`: the source cropped by the negative amounts, padded by the
/// positive ones; a constant pad that only crops is a copy laid out like
/// the input (PyTorch's clone of a narrowed view), any other contiguous.
fn padded<T: Element, D: Rearranging, A: SizeArray>(
    x: StridedRef<'_, T, D>,
    pad: &[isize],
    mode: PadMode,
    value: Option<T>,
) -> Result<OwnedParts<T, D, A>, Error> {
    let plan = pad_plan(&x, pad, mode, value)?;
    let view = StridedRef {
        sizes: &plan.sizes,
        strides: &plan.strides,
        offset: plan.offset,
        ..x
    };
    let fill = value.unwrap_or(T::ZERO);
    if plan.crop_only && mode == PadMode::Constant {
        rearranged_like(view, &plan.maps, fill, &plan.strides)
    } else {
        rearranged(view, &plan.maps, fill, None)
    }
}

/// `rot90(k, dims)`: PyTorch's flips (laid out like the input), then the
/// two dimensions' sizes and strides swapped for odd `k`; no turn is a
/// contiguous copy.
fn rotated<T: Element, D: Rearranging, A: SizeArray>(
    x: StridedRef<'_, T, D>,
    k: i64,
    dims: &[isize],
) -> Result<OwnedParts<T, D, A>, Error> {
    let rank = x.sizes.len();
    let (d0, d1) = rot90_dims(rank, dims)?;
    let mut mask: SmallVec<[bool; 8]> = SmallVec::from_elem(false, rank);
    let turns = k.rem_euclid(4);
    match turns {
        0 => {
            let maps: SmallVec<[AxisMap; 8]> = SmallVec::from_elem(AxisMap::Same, rank);
            return rearranged(x, &maps, T::ZERO, None);
        }
        1 => mask[d1] = true,
        2 => (mask[d0], mask[d1]) = (true, true),
        _ => mask[d0] = true,
    }
    let (data, layout) = flipped::<T, D, A>(x, &mask)?;
    if turns == 2 {
        return Ok((data, layout));
    }
    let (sizes, strides, _) = layout.into_parts();
    let (mut sizes, mut strides): (Dims, Dims) = (sizes.as_ref().into(), strides.as_ref().into());
    sizes.swap(d0, d1);
    strides.swap(d0, d1);
    let layout = StridedLayout::from_parts(array_from::<A>(&sizes), array_from::<A>(&strides), 0);
    Ok((data, layout))
}

/// A contiguous copy of `x`'s elements laid out as `sizes` and `strides`
/// (strides of 0 repeat them), with the result's sizes `out`.
pub(crate) fn copied_as<T: Element, D: Elementwise, A: SizeArray>(
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
    // A rank-0 tensor takes dim 0 (or -1), once.
    let mut seen: SmallVec<[bool; 8]> = SmallVec::from_elem(false, rank.max(1));
    for &d in dims {
        let d = wrap_dim(d, rank)?;
        if seen[d] {
            return Err(Error::DimRepeated { dim: d });
        }
        seen[d] = true;
    }
    seen.truncate(rank);
    Ok(seen)
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
        if sizes.is_empty() {
            return Err(Error::NoDimensionsGiven { dim });
        }
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

/// The two dims of `rot90`, wrapped, with PyTorch's checks (in its order).
fn rot90_dims(rank: usize, dims: &[isize]) -> Result<(usize, usize), Error> {
    if dims.len() != 2 {
        return Err(Error::Rot90Dims { got: dims.len() });
    }
    if rank < 2 {
        return Err(Error::Rot90Rank { rank });
    }
    let (d0, d1) = (wrap_dim(dims[0], rank)?, wrap_dim(dims[1], rank)?);
    if d0 == d1 {
        // PyTorch prints the dims as given.
        return Err(Error::Rot90SameDims {
            dim0: dims[0],
            dim1: dims[1],
        });
    }
    Ok((d0, d1))
}

/// The source of `pad(pad, mode)` cropped by the negative amounts (as
/// PyTorch narrows first for the constant and circular modes), and the maps
/// that pad it by the positive ones,
/// after PyTorch's checks (`at::pad`, `constant_pad_nd`, and the
/// reflection, replication and circular kernels' own): `(sizes, strides,
/// offset, maps, crop only)`.
struct PadPlan {
    sizes: Dims,
    strides: Dims,
    offset: usize,
    maps: SmallVec<[AxisMap; 8]>,
    /// No amount is positive (PyTorch then returns a clone of the narrowed
    /// input, laid out like it).
    crop_only: bool,
}

fn pad_plan<T: Element>(
    x: &StridedRef<'_, T, impl Rearranging>,
    pad: &[isize],
    mode: PadMode,
    value: Option<T>,
) -> Result<PadPlan, Error> {
    let (sizes, strides) = (x.sizes, x.strides);
    let rank = sizes.len();
    if !pad.len().is_multiple_of(2) {
        return Err(Error::PadOdd);
    }
    if pad.len() > 2 * rank {
        return Err(Error::PadLength {
            len: pad.len(),
            rank,
        });
    }
    let padded = pad.len() / 2;
    if mode != PadMode::Constant {
        if value.is_some_and(|v| v != T::ZERO) {
            return Err(Error::PadValue { mode: mode.name() });
        }
        if !matches!((padded, rank), (1, 2 | 3) | (2, 3 | 4) | (3, 4 | 5)) {
            return Err(Error::PadModeRank {
                len: pad.len(),
                rank,
            });
        }
        // PyTorch has no bool kernel for reflection and replication.
        if T::DTYPE == crate::dtype::DType::Bool
            && matches!(mode, PadMode::Reflect | PadMode::Replicate)
        {
            return Err(Error::NotImplementedFor {
                op: PAD_KERNELS[usize::from(mode == PadMode::Replicate)][padded - 1],
                dtype: T::DTYPE,
            });
        }
        check_mode_pad(sizes, pad, mode)?;
    }
    let mut plan = PadPlan {
        sizes: sizes.into(),
        strides: strides.into(),
        offset: x.offset,
        maps: SmallVec::from_elem(AxisMap::Same, rank),
        crop_only: pad.iter().all(|&p| p <= 0),
    };
    for (k, pair) in pad.chunks(2).enumerate() {
        let d = rank - 1 - k;
        let (before, after) = (pair[0], pair[1]);
        if matches!(mode, PadMode::Reflect | PadMode::Replicate) {
            // PyTorch's kernels index the whole input, a negative amount
            // shifting where the output starts (checked above: the output
            // holds an element, a reflection stays within the input).
            plan.maps[d] = AxisMap::Pad {
                before,
                after,
                mode,
            };
            continue;
        }
        let (crop_before, crop_after) = (before.min(0).unsigned_abs(), after.min(0).unsigned_abs());
        let Some(kept) = sizes[d]
            .checked_sub(crop_before)
            .and_then(|n| n.checked_sub(crop_after))
        else {
            return Err(Error::PadNegative {
                size: sizes[d],
                before,
                after,
                dim: d,
            });
        };
        let grows = before > 0 || after > 0;
        if mode == PadMode::Circular && kept == 0 && grows {
            // PyTorch reads memory it never wrote here.
            return Err(Error::PadCircular);
        }
        if kept > 0 {
            plan.offset += crop_before * strides[d];
        }
        plan.sizes[d] = kept;
        plan.maps[d] = AxisMap::Pad {
            before: before.max(0),
            after: after.max(0),
            mode,
        };
    }
    Ok(plan)
}

/// PyTorch's kernels of reflection and replication padding, by number of
/// padded dimensions (the names its refusals give).
const PAD_KERNELS: [[&str; 3]; 2] = [
    ["reflection_pad1d", "reflection_pad2d", "reflection_pad3d"],
    [
        "replication_pad1d",
        "replication_pad2d",
        "replication_pad3d",
    ],
];

/// The checks of PyTorch's reflection, replication and circular padding
/// kernels (`padded` dimensions at the end of `sizes`).
fn check_mode_pad(sizes: &[usize], pad: &[isize], mode: PadMode) -> Result<(), Error> {
    let rank = sizes.len();
    let padded = pad.len() / 2;
    // PyTorch's `check_valid_input`: in batch mode (a leading batch
    // dimension) the batch may be empty, the others not; without, none.
    let first = usize::from(rank == padded + 2);
    if mode != PadMode::Circular && sizes[first..].contains(&0) {
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
        if n + before + after < 1 && mode != PadMode::Circular {
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
    /// let x = DynTensor::<i32>::from_vec((0..6).collect(), &[2, 3]).unwrap();
    /// assert_eq!(x.flip(&[0, -1]).unwrap().to_vec(), [5, 4, 3, 2, 1, 0]);
    /// assert_eq!(
    ///     x.flip(&[1, 1]).unwrap_err().to_string(),
    ///     "dim 1 appears multiple times in the list of dims"
    /// );
    /// ```
    pub fn flip(&self, dims: &[isize]) -> Result<Tensor<T, DynShape, D>, Error> {
        let mask = dims_mask(dims, self.layout.rank())?;
        Ok(from_parts!(flipped(self.strided(), &mask)?))
    }

    /// `flip(&[1])` of a tensor of 2 or more dimensions (PyTorch's
    /// `fliplr`).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = DynTensor::<i32>::from_vec((0..4).collect(), &[2, 2]).unwrap();
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
    /// let x = DynTensor::<i32>::from_vec((0..4).collect(), &[2, 2]).unwrap();
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
    /// let x = DynTensor::<i32>::from_vec((0..6).collect(), &[2, 3]).unwrap();
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
        Ok(from_parts!(rolled(self.strided(), &maps)?))
    }

    /// The tensor turned by `k` quarter turns in the plane of `dims`, from
    /// the first dimension towards the second (PyTorch's `rot90`).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = DynTensor::<i32>::from_vec((0..4).collect(), &[2, 2]).unwrap();
    /// assert_eq!(x.rot90(1, &[0, 1]).unwrap().to_vec(), [1, 3, 0, 2]);
    /// assert_eq!(x.rot90(-1, &[0, 1]).unwrap().to_vec(), [2, 0, 3, 1]);
    /// ```
    pub fn rot90(&self, k: i64, dims: &[isize]) -> Result<Tensor<T, DynShape, D>, Error> {
        Ok(from_parts!(rotated(self.strided(), k, dims)?))
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
        Ok(from_parts!(padded(self.strided(), pad, mode, value)?))
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
    /// let x = DynTensor::<i32>::from_vec((0..4).collect(), &[2, 2]).unwrap();
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
    /// let x = DynTensor::<i32>::from_vec((0..4).collect(), &[2, 2]).unwrap();
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
        if rank == 0 {
            // PyTorch flattens the input to one dimension and takes the dim
            // given plus one.
            return Err(Error::DimOutOfRange { dim: 1, rank: 1 });
        }
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
        from_parts!(flipped(self.strided(), &mask).or_panic())
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
        from_parts!(flipped(self.strided(), &mask).or_panic())
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
        from_parts!(flipped(self.strided(), &mask).or_panic())
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
        from_parts!(rolled(self.strided(), &maps).or_panic())
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
        from_parts!(rotated(self.strided(), i64::from(K), &[D0 as isize, D1 as isize]).or_panic())
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
        Ok(from_parts!(padded(self.strided(), &pad, mode, value)?))
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

impl<T: Element, R: Repr> Tensor<T, DynShape, Cpu, R> {
    /// Entry `i` of dimension `dim` repeated `repeats[i]` times (PyTorch's
    /// `repeat_interleave` with a tensor of counts, int64 or int32; one
    /// count serves every entry); with no `dim`, of the flattened tensor.
    /// PyTorch reads the counts on the host to size the result, as this
    /// does (a CUDA tensor's form copies its counts to the host, then
    /// selects on the device).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = DynTensor::<i32>::from_vec(vec![1, 2, 3], &[3]).unwrap();
    /// let counts = DynTensor::<i64>::from_vec(vec![2, 0, 1], &[3]).unwrap();
    /// assert_eq!(x.repeat_interleave_by(&counts, Some(0)).unwrap().to_vec(), [1, 1, 3]);
    /// ```
    pub fn repeat_interleave_by<I: IndexElement, RI: Repr>(
        &self,
        repeats: &Tensor<I, DynShape, Cpu, RI>,
        dim: Option<isize>,
    ) -> Result<Tensor<T, DynShape, Cpu>, Error> {
        let Some(dim) = dim else {
            let n = self.layout.numel();
            let flat = self.contiguous_copy()?;
            let flat = flat.reshape(&[n as isize])?;
            return interleaved_by(&flat, repeats, 0);
        };
        interleaved_by(self, repeats, dim)
    }
}

/// `repeat_interleave` of `x` along `dim` by the counts `repeats`:
/// PyTorch's checks in its order, then an `index_select` of each entry's
/// position repeated.
fn interleaved_by<T: Element, R: Repr, I: IndexElement, RI: Repr>(
    x: &Tensor<T, DynShape, Cpu, R>,
    repeats: &Tensor<I, DynShape, Cpu, RI>,
    dim: isize,
) -> Result<Tensor<T, DynShape, Cpu>, Error> {
    let (d, index) = interleave_index(x.layout.sizes(), repeats, dim)?;
    x.index_select(d as isize, &index)
}

/// The dimension (wrapped) and the positions of `repeat_interleave` along
/// `dim` of a tensor of `sizes` by the counts `repeats` (on the host):
/// PyTorch's checks in its order.
pub(crate) fn interleave_index<I: IndexElement, RI: Repr>(
    sizes: &[usize],
    repeats: &Tensor<I, DynShape, Cpu, RI>,
    dim: isize,
) -> Result<(usize, Tensor<i64, DynShape, Cpu>), Error> {
    let rank = sizes.len();
    if rank == 0 {
        return Err(Error::NoDimensionsGiven { dim });
    }
    let d = wrap_dim(dim, rank)?;
    let n = sizes[d];
    let counts: Vec<i64> = repeats
        .to_vec()
        .into_iter()
        .map(IndexElement::to_index)
        .collect();
    let counts = match (repeats.layout.rank(), counts.len()) {
        (0, _) | (1, 1) => vec![counts[0]; n],
        (1, len) if len == n => counts,
        (1, len) => {
            return Err(Error::RepeatsSize {
                repeats: len,
                dim,
                size: n,
            });
        }
        _ => return Err(Error::RepeatsRank),
    };
    if counts.iter().any(|&c| c < 0) {
        return Err(Error::RepeatsTensorNegative);
    }
    let total = counts
        .iter()
        .try_fold(0usize, |sum, &c| sum.checked_add(c as usize))
        .ok_or(Error::OutOfMemory { bytes: usize::MAX })?;
    let mut index = crate::backend::cpu::try_vec_with_capacity::<i64>(total)?;
    for (i, &c) in counts.iter().enumerate() {
        index.extend(core::iter::repeat_n(i as i64, c as usize));
    }
    Ok((
        d,
        Tensor::<i64, DynShape, Cpu>::from_vec_with(index, &[total])?,
    ))
}
