//! Views made straight from a tensor's checked layout, without the view
//! engine's runtime layout or its check: for a static shape the result's
//! rank and sizes are known, and its strides are a few moves of the
//! input's. Each transform here keeps the tensor invariant by construction
//! (a sub-box, a reordering, size-1 dimensions added or removed), so the
//! layout check that every engine view passes would find nothing; debug
//! builds run it all the same.

use super::ViewOf;
use crate::backend::Backend;
use crate::dtype::Element;
use crate::layout::StridedLayout;
use crate::layout::views::add_mul;
use crate::shape::{Shape, SizeArray};
use crate::storage::{Repr, Storage};
use crate::tensor::Tensor;

impl<T: Element, S: Shape, D: Backend, R: Repr> Tensor<T, S, D, R> {
    /// A view with the given layout, which names some of this tensor's
    /// elements (or none), each at most once per index: the callers below
    /// build it so.
    #[inline(always)]
    pub(crate) fn sub_view<S2: Shape>(
        &self,
        sizes: S2::Sizes,
        strides: S2::Sizes,
        offset: usize,
    ) -> ViewOf<'_, T, S2, D, R> {
        debug_assert!(
            crate::layout::check_layout(
                sizes.as_ref(),
                strides.as_ref(),
                offset,
                Storage::len(&self.data),
                size_of::<T>(),
                false
            )
            .is_ok(),
            "a direct view stays inside its storage"
        );
        Tensor {
            data: R::viewed(&self.data),
            layout: StridedLayout::from_parts(sizes, strides, offset),
        }
    }

    /// Entries `start..start + len` of dimension `dim` (`narrow`), or with
    /// `drop` the one entry `start` with the dimension removed (`select`):
    /// a sub-box of the layout, so its elements are this tensor's. The
    /// bounds are checked here, whatever the caller proved.
    #[inline(always)]
    pub(crate) fn cut<S2: Shape>(
        &self,
        dim: usize,
        start: usize,
        len: usize,
        drop: bool,
    ) -> ViewOf<'_, T, S2, D, R> {
        let (sizes, strides) = (self.layout.sizes(), self.layout.strides());
        let size = sizes[dim];
        if start > size || len > size - start || (drop && len != 1) {
            outside_the_dimension(dim, start, len, size);
        }
        let rank = sizes.len() - usize::from(drop);
        let mut out_sizes = <S2::Sizes as SizeArray>::filled(rank, 0);
        let mut out_strides = <S2::Sizes as SizeArray>::filled(rank, 0);
        let mut p = 0;
        for d in 0..sizes.len() {
            if d == dim && drop {
                continue;
            }
            out_sizes.as_mut()[p] = if d == dim { len } else { sizes[d] };
            out_strides.as_mut()[p] = strides[d];
            p += 1;
        }
        let offset = add_mul(self.layout.offset(), start, strides[dim]);
        self.sub_view(out_sizes, out_strides, offset)
    }

    /// The view whose dimension `d` is dimension `from(d)` of this tensor,
    /// for a `from` that the caller's shape rule proved a permutation: the
    /// sizes and strides of a checked layout in another order keep the
    /// tensor invariant (the same element count, indices and span), so the
    /// view is made without the layout engine or its check, a few moves for
    /// a static rank. The permutation is checked all the same (a bit per
    /// dimension), since a repeated dimension could reach past the storage.
    #[inline]
    pub(crate) fn permuted<S2: Shape>(
        &self,
        from: impl Fn(usize) -> usize,
    ) -> ViewOf<'_, T, S2, D, R> {
        let (sizes, strides) = (self.layout.sizes(), self.layout.strides());
        let rank = sizes.len();
        let mut out_sizes = <S2::Sizes as SizeArray>::filled(rank, 0);
        let mut out_strides = <S2::Sizes as SizeArray>::filled(rank, 0);
        let mut seen = 0u64;
        for d in 0..rank {
            let src = from(d);
            out_sizes.as_mut()[d] = sizes[src];
            out_strides.as_mut()[d] = strides[src];
            seen |= 1 << src;
        }
        assert_eq!(
            seen.count_ones() as usize,
            rank,
            "a permutation of the dimensions"
        );
        self.sub_view(out_sizes, out_strides, self.layout.offset())
    }

    /// A size-1 dimension inserted at `dim` (at most the rank), with
    /// PyTorch's stride for it: the same elements.
    #[inline]
    pub(crate) fn unsqueezed<S2: Shape>(&self, dim: usize) -> ViewOf<'_, T, S2, D, R> {
        let (sizes, strides) = (self.layout.sizes(), self.layout.strides());
        let rank = sizes.len();
        assert!(dim <= rank, "a new dimension {dim} of rank {rank}");
        let mut out_sizes = <S2::Sizes as SizeArray>::filled(rank + 1, 1);
        let mut out_strides = <S2::Sizes as SizeArray>::filled(rank + 1, 1);
        for d in 0..rank {
            let p = d + usize::from(d >= dim);
            out_sizes.as_mut()[p] = sizes[d];
            out_strides.as_mut()[p] = strides[d];
        }
        if dim < rank {
            out_strides.as_mut()[dim] = sizes[dim].saturating_mul(strides[dim]);
        }
        self.sub_view(out_sizes, out_strides, self.layout.offset())
    }

    /// Every dimension of size 1 removed: the same elements.
    #[inline]
    pub(crate) fn squeezed<S2: Shape>(&self) -> ViewOf<'_, T, S2, D, R> {
        let (sizes, strides) = (self.layout.sizes(), self.layout.strides());
        let rank = sizes.iter().filter(|&&n| n != 1).count();
        let mut out_sizes = <S2::Sizes as SizeArray>::filled(rank, 0);
        let mut out_strides = <S2::Sizes as SizeArray>::filled(rank, 0);
        let mut p = 0;
        for d in 0..sizes.len() {
            if sizes[d] != 1 {
                out_sizes.as_mut()[p] = sizes[d];
                out_strides.as_mut()[p] = strides[d];
                p += 1;
            }
        }
        self.sub_view(out_sizes, out_strides, self.layout.offset())
    }

    /// The main diagonal of dimensions 0 and 1 as a new last dimension:
    /// entry `i` is element `(i, i, ..)`, so the elements are this
    /// tensor's.
    #[inline]
    pub(crate) fn diagonal_01<S2: Shape>(&self) -> ViewOf<'_, T, S2, D, R> {
        let (sizes, strides) = (self.layout.sizes(), self.layout.strides());
        let rank = sizes.len();
        assert!(rank >= 2, "a diagonal of rank {rank}");
        let mut out_sizes = <S2::Sizes as SizeArray>::filled(rank - 1, 0);
        let mut out_strides = <S2::Sizes as SizeArray>::filled(rank - 1, 0);
        out_sizes.as_mut()[..rank - 2].copy_from_slice(&sizes[2..]);
        out_strides.as_mut()[..rank - 2].copy_from_slice(&strides[2..]);
        out_sizes.as_mut()[rank - 2] = sizes[0].min(sizes[1]);
        out_strides.as_mut()[rank - 2] = strides[0].saturating_add(strides[1]);
        self.sub_view(out_sizes, out_strides, self.layout.offset())
    }
}

/// The panic of a [`Tensor::cut`] outside its dimension, out of line.
#[cold]
#[inline(never)]
fn outside_the_dimension(dim: usize, start: usize, len: usize, size: usize) -> ! {
    panic!("a piece of dimension {dim}: {start} + {len} of {size}")
}
