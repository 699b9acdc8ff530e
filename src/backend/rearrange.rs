//! Copies that move elements without computing them: `flip`, `roll`,
//! `rot90`, `pad` (constant, reflect, replicate, circular), `tril`, `triu`
//! and the diagonal constructors (`diag`, `diag_embed`). Each dimension of the output reads its dimension of the source
//! through an [`AxisMap`] (a position of the output names one position of
//! the source, or none: the fill value); a [`Band`] of diagonals of the
//! last two dimensions may be kept and the rest filled. One kernel per device serves them all
//! ([`Rearranging`]); this module holds what both devices share: the maps,
//! the output sizes and the merging of dimensions that need no map.
//!
//! `repeat`, `tile` and `repeat_interleave` need no kernel of their own:
//! they are copies of the source laid out with strides of 0
//! (`ops/rearrange.rs`).

use super::{Elementwise, StridedRef};
use crate::dtype::Element;
use crate::error::Error;

/// How `pad` fills the positions outside the input (PyTorch's `mode`).
///
/// ```
/// use shaped::prelude::*;
/// let x = tensor![1.0f32, 2.0, 3.0].into_dyn();
/// let y = x.reshape(&[1, 3]).unwrap().pad(&[2, 1], PadMode::Reflect, None).unwrap();
/// assert_eq!(y.to_vec(), [3.0, 2.0, 1.0, 2.0, 3.0, 2.0]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PadMode {
    /// The value given (`0` by default).
    Constant,
    /// The input mirrored about its edge elements, which are not repeated.
    Reflect,
    /// The edge element repeated.
    Replicate,
    /// The input wrapped around.
    Circular,
}

impl PadMode {
    /// PyTorch's name of the mode.
    pub fn name(self) -> &'static str {
        match self {
            PadMode::Constant => "constant",
            PadMode::Reflect => "reflect",
            PadMode::Replicate => "replicate",
            PadMode::Circular => "circular",
        }
    }
}

/// Which source position each position of one output dimension reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AxisMap {
    /// Position `k` reads `k`.
    Same,
    /// Position `k` reads `n - 1 - k`.
    Reverse,
    /// Position `k` reads `(k - shift) mod n`; `shift < n`.
    Roll(usize),
    /// `before + n + after` positions; position `k` reads `k - before`
    /// when that lies in `0..n`, and outside it as `mode` says. Negative
    /// amounts crop.
    Pad {
        /// Positions added before the first (negative: removed).
        before: isize,
        /// Positions added after the last (negative: removed).
        after: isize,
        /// What the added positions read.
        mode: PadMode,
    },
}

impl AxisMap {
    /// The output's length along a dimension of the source of length `n`
    /// (a `Pad` that crops more than `n` is refused before any kernel).
    pub fn out_len(self, n: usize) -> usize {
        match self {
            AxisMap::Pad { before, after, .. } => (n as isize)
                .saturating_add(before)
                .saturating_add(after)
                .max(0) as usize,
            _ => n,
        }
    }

    /// The source position that output position `k` reads along a
    /// dimension of length `n`, or `None` for the fill value.
    #[inline]
    pub fn source(self, k: usize, n: usize) -> Option<usize> {
        match self {
            AxisMap::Same => Some(k),
            AxisMap::Reverse => Some(n - 1 - k),
            AxisMap::Roll(shift) => Some(if k >= shift { k - shift } else { k + n - shift }),
            AxisMap::Pad { before, mode, .. } => {
                let j = k as isize - before;
                let n = n as isize;
                let at = match mode {
                    PadMode::Constant => j,
                    PadMode::Reflect if j < 0 => -j,
                    PadMode::Reflect if j >= n => 2 * (n - 1) - j,
                    PadMode::Reflect => j,
                    PadMode::Replicate => j.clamp(0, n - 1),
                    PadMode::Circular => j.rem_euclid(n),
                };
                (0..n).contains(&at).then_some(at as usize)
            }
        }
    }

    /// The kernels' code of the map, and its number (`shift` or `before`).
    #[cfg_attr(not(feature = "cuda"), allow(dead_code))]
    pub(crate) fn code(self) -> (i32, i64) {
        match self {
            AxisMap::Same => (0, 0),
            AxisMap::Reverse => (1, 0),
            AxisMap::Roll(shift) => (2, shift as i64),
            AxisMap::Pad { before, mode, .. } => {
                let kind = match mode {
                    PadMode::Constant => 3,
                    PadMode::Reflect => 4,
                    PadMode::Replicate => 5,
                    PadMode::Circular => 6,
                };
                (kind, before as i64)
            }
        }
    }
}

/// A band of the last two dimensions kept, the rest set to the fill value:
/// element `(i, j)` is kept when `lower <= j - i <= upper`. `tril(k)` keeps
/// `j - i <= k`, `triu(k)` keeps `j - i >= k`, a diagonal `j - i == k`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Band {
    /// The lowest diagonal kept (`i64::MIN`: no bound).
    pub lower: i64,
    /// The highest diagonal kept (`i64::MAX`: no bound).
    pub upper: i64,
}

impl Band {
    /// `tril(diagonal)`: the diagonals up to `diagonal`.
    pub fn tril(diagonal: i64) -> Band {
        Band {
            lower: i64::MIN,
            upper: diagonal,
        }
    }

    /// `triu(diagonal)`: the diagonals from `diagonal` on.
    pub fn triu(diagonal: i64) -> Band {
        Band {
            lower: diagonal,
            upper: i64::MAX,
        }
    }

    /// One diagonal.
    pub fn diagonal(diagonal: i64) -> Band {
        Band {
            lower: diagonal,
            upper: diagonal,
        }
    }

    /// The columns `lo..hi` of row `i` (of `cols`) that are kept.
    #[inline]
    pub fn kept(self, i: usize, cols: usize) -> (usize, usize) {
        let i = i as i64;
        let clamp = |x: i64| x.clamp(0, cols as i64) as usize;
        let lo = clamp(i.saturating_add(self.lower));
        let hi = clamp(i.saturating_add(self.upper).saturating_add(1));
        (lo, hi.max(lo))
    }
}

/// A rearrangement with the dimensions that need no map merged: the
/// source's sizes and strides, one map per dimension, and the output's
/// sizes (row-major, contiguous).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rearrangement {
    /// The source's sizes after merging.
    pub sizes: Vec<usize>,
    /// The source's strides after merging.
    pub strides: Vec<usize>,
    /// One map per merged dimension.
    pub maps: Vec<AxisMap>,
    /// The output's sizes after merging.
    pub out_sizes: Vec<usize>,
    /// The source's offset.
    pub offset: usize,
    /// The band over the last two (merged) dimensions, if any.
    pub band: Option<Band>,
}

impl Rearrangement {
    /// The plan of `maps` (one per dimension of `sizes`) over a source of
    /// `sizes`, `strides` and `offset`: neighbouring dimensions read as
    /// they are (`Same`) whose strides chain are merged into one, size-1
    /// dimensions read as they are are dropped, and a band keeps its
    /// two dimensions apart. A rank-0 source becomes one dimension of 1.
    pub fn new(
        sizes: &[usize],
        strides: &[usize],
        offset: usize,
        maps: &[AxisMap],
        band: Option<Band>,
    ) -> Rearrangement {
        debug_assert_eq!(sizes.len(), maps.len());
        let rank = sizes.len();
        let fixed = if band.is_some() {
            rank.saturating_sub(2)
        } else {
            rank
        };
        let mut plan = Rearrangement {
            sizes: Vec::with_capacity(rank),
            strides: Vec::with_capacity(rank),
            maps: Vec::with_capacity(rank),
            out_sizes: Vec::with_capacity(rank),
            offset,
            band,
        };
        for d in 0..rank {
            let (n, s, map) = (sizes[d], strides[d], maps[d]);
            let free = d < fixed && map == AxisMap::Same;
            if free && n == 1 {
                continue;
            }
            if free
                && let (Some(&AxisMap::Same), Some(last)) =
                    (plan.maps.last(), plan.sizes.len().checked_sub(1))
                && plan.strides[last] == n * s
            {
                plan.sizes[last] *= n;
                plan.out_sizes[last] *= n;
                plan.strides[last] = s;
                continue;
            }
            plan.sizes.push(n);
            plan.strides.push(s);
            plan.maps.push(map);
            plan.out_sizes.push(map.out_len(n));
        }
        if plan.sizes.is_empty() {
            plan.sizes.push(1);
            plan.strides.push(0);
            plan.maps.push(AxisMap::Same);
            plan.out_sizes.push(1);
        }
        plan
    }

    /// The number of output elements.
    pub fn numel(&self) -> usize {
        self.out_sizes.iter().product()
    }

    /// The source's storage offset read by output position `at` (one
    /// coordinate per merged dimension), or `None` for the fill value.
    pub fn source_of(&self, at: &[usize]) -> Option<usize> {
        let rank = at.len();
        if let Some(t) = self.band {
            let (lo, hi) = t.kept(at[rank - 2], self.out_sizes[rank - 1]);
            if !(lo..hi).contains(&at[rank - 1]) {
                return None;
            }
        }
        let mut offset = self.offset;
        for (d, &k) in at.iter().enumerate() {
            offset += self.maps[d].source(k, self.sizes[d])? * self.strides[d];
        }
        Some(offset)
    }
}

/// Copies of a strided source whose output positions each read one source
/// position or a fill value: the kernel of `flip`, `roll`, `rot90`, `pad`,
/// `tril` and `triu`.
pub trait Rearranging: Elementwise {
    /// A new contiguous buffer over the output sizes of `maps` (one per
    /// dimension of `src`): each element is the source element its maps
    /// name, or `fill` where a map names none or `band` blanks it. The
    /// caller has checked the maps against the sizes (a `Roll` shift below
    /// the length, a `Pad` within PyTorch's bounds for its mode).
    fn rearrange<T: Element>(
        src: StridedRef<'_, T, Self>,
        maps: &[AxisMap],
        fill: T,
        band: Option<Band>,
    ) -> Result<Self::Buffer<T>, Error>;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn maps_read_their_positions() {
        let read = |map: AxisMap, n: usize| -> Vec<Option<usize>> {
            (0..map.out_len(n)).map(|k| map.source(k, n)).collect()
        };
        assert_eq!(read(AxisMap::Reverse, 3), [Some(2), Some(1), Some(0)]);
        assert_eq!(read(AxisMap::Roll(1), 3), [Some(2), Some(0), Some(1)]);
        let pad = |before, after, mode| AxisMap::Pad {
            before,
            after,
            mode,
        };
        assert_eq!(
            read(pad(2, 1, PadMode::Constant), 2),
            [None, None, Some(0), Some(1), None]
        );
        assert_eq!(
            read(pad(2, 2, PadMode::Reflect), 3),
            [
                Some(2),
                Some(1),
                Some(0),
                Some(1),
                Some(2),
                Some(1),
                Some(0)
            ]
        );
        assert_eq!(
            read(pad(2, 1, PadMode::Replicate), 2),
            [Some(0), Some(0), Some(0), Some(1), Some(1)]
        );
        assert_eq!(
            read(pad(2, 3, PadMode::Circular), 3),
            [
                Some(1),
                Some(2),
                Some(0),
                Some(1),
                Some(2),
                Some(0),
                Some(1),
                Some(2)
            ]
        );
        assert_eq!(read(pad(-1, -1, PadMode::Constant), 4), [Some(1), Some(2)]);
    }

    #[test]
    fn bands_keep_their_side() {
        let lower = Band::tril(0);
        assert_eq!(lower.kept(0, 4), (0, 1));
        assert_eq!(lower.kept(5, 4), (0, 4));
        let upper = Band::triu(-1);
        assert_eq!(upper.kept(0, 4), (0, 4));
        assert_eq!(upper.kept(3, 4), (2, 4));
        assert_eq!(Band::tril(i64::MIN).kept(2, 4), (0, 0));
        assert_eq!(Band::triu(i64::MAX).kept(2, 4), (4, 4));
        assert_eq!(Band::diagonal(1).kept(1, 4), (2, 3));
        assert_eq!(Band::diagonal(-3).kept(1, 4), (0, 0));
    }

    #[test]
    fn plans_merge_what_reads_as_it_is() {
        use AxisMap::*;
        // (2, 3, 4) contiguous, the last dimension reversed: the first two merge.
        let p = Rearrangement::new(&[2, 3, 4], &[12, 4, 1], 0, &[Same, Same, Reverse], None);
        assert_eq!(
            (p.sizes, p.strides, p.maps),
            (vec![6, 4], vec![4, 1], vec![Same, Reverse])
        );
        // Size-1 dimensions go; a transposed pair does not merge.
        let p = Rearrangement::new(&[1, 3, 4], &[12, 1, 3], 0, &[Same, Same, Same], None);
        assert_eq!((p.sizes, p.strides), (vec![3, 4], vec![1, 3]));
        // A band keeps its two dimensions.
        let tri = Some(Band::tril(0));
        let p = Rearrangement::new(&[2, 3, 4], &[12, 4, 1], 0, &[Same, Same, Same], tri);
        assert_eq!(p.sizes, [2, 3, 4]);
        // Rank 0.
        let p = Rearrangement::new(&[], &[], 5, &[], None);
        assert_eq!(p.source_of(&[0]), Some(5));
        assert_eq!((p.sizes, p.out_sizes, p.offset), (vec![1], vec![1], 5));
    }
}
