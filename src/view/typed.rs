//! View operations on static-rank shapes, with the axes and sizes in the
//! type: the compiler computes each result shape and rejects a wrong axis,
//! a bad permutation or a view to a different number of elements (see
//! `ui-tests/fail/view_*.rs`). Runtime arguments (a start, an index) are
//! checked at run time: the plain forms panic with PyTorch's message, the
//! `try_` forms return it. The views whose static arguments fix the
//! result's layout as a few moves of the input's (`transpose`, `permute`,
//! `movedim`, `narrow`, `select`, `slice`, `unsqueeze`, `squeeze`,
//! `diagonal`) build it directly ([`super::direct`]); errors, and the views
//! whose layout needs real work (`view`, `as_strided`), come from the same
//! view engine as the dynamic API ([`crate::layout::views`]).

use super::{CowOf, ViewOf, signed as axis, signed_dims as signed};
use crate::backend::Backend;
use crate::backend::Elementwise;
use crate::dtype::Element;
use crate::dynamic::DynShape;
use crate::error::Error;
use crate::error::OrPanic;
use crate::layout::views::Strided;
use crate::layout::views::{ItemCounts, SliceCursor, SliceItem, wrap_index};
use crate::shape::axes::{
    Diagonal, LastTwoSwapped, MovedDim, Narrowed, PermuteBy, Remove, SameNumel, Squeeze, Transposed,
};
use crate::shape::list::TupleShape;
use crate::shape::slice::{LiteralItems, SliceSpec, Sliced};
use crate::shape::{Dec, FixedShape, Shape, SizeArray};
use crate::storage::Repr;
use crate::tensor::Tensor;

impl<T: Element, S: Shape + TupleShape, D: Backend, R: Repr> Tensor<T, S, D, R> {
    /// Dimensions `I` and `J` swapped (PyTorch's `transpose`).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let t = Tensor::<f32, shape![2, 3, 4]>::zeros();
    /// let v = t.transpose::<0, 2>(); // a view of shape![4, 3, 2]
    /// assert_eq!((v.shape(), v.strides()), ([4, 3, 2], [1, 4, 12]));
    /// ```
    #[inline]
    pub fn transpose<const I: usize, const J: usize>(
        &self,
    ) -> ViewOf<'_, T, <S as Transposed<I, J>>::Output, D, R>
    where
        S: Transposed<I, J>,
    {
        // `Transposed` proved `I` and `J` dimensions of `S` at compile time.
        self.permuted(|d| match d {
            d if d == I => J,
            d if d == J => I,
            d => d,
        })
    }

    /// The same as [`transpose`](Self::transpose).
    pub fn swapaxes<const I: usize, const J: usize>(
        &self,
    ) -> ViewOf<'_, T, <S as Transposed<I, J>>::Output, D, R>
    where
        S: Transposed<I, J>,
    {
        self.transpose::<I, J>()
    }

    /// The same as [`transpose`](Self::transpose).
    pub fn swapdims<const I: usize, const J: usize>(
        &self,
    ) -> ViewOf<'_, T, <S as Transposed<I, J>>::Output, D, R>
    where
        S: Transposed<I, J>,
    {
        self.transpose::<I, J>()
    }

    /// The last two dimensions swapped (PyTorch's `mT`).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let batch = Tensor::<f32, shape![5, 2, 3]>::zeros();
    /// assert_eq!(batch.mt().shape(), [5, 3, 2]);
    /// ```
    // `O` names the result shape so that a rank-1 receiver is reported by
    // `LastTwoSwapped`'s own message rather than "method exists but its
    // trait bounds were not satisfied".
    #[inline]
    pub fn mt<O: Shape>(&self) -> ViewOf<'_, T, O, D, R>
    where
        S: LastTwoSwapped<Output = O>,
    {
        // `LastTwoSwapped` proved the rank at least 2 at compile time.
        let rank = self.layout.sizes().len();
        self.permuted(|d| match d {
            d if d + 2 == rank => rank - 1,
            d if d + 1 == rank => rank - 2,
            d => d,
        })
    }

    /// The dimensions in the order `P`, written `axes![..]`: dimension `i`
    /// of the result is dimension `P[i]` of this tensor.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let t = Tensor::<f32, shape![2, 3, 4]>::zeros();
    /// let p = t.permute::<axes![2, 0, 1]>();
    /// assert_eq!((p.shape(), p.strides()), ([4, 2, 3], [1, 12, 4]));
    /// ```
    #[inline]
    pub fn permute<P: FixedShape>(&self) -> ViewOf<'_, T, <S as PermuteBy<P>>::Output, D, R>
    where
        S: PermuteBy<P>,
    {
        // `PermuteBy` proved `P` a permutation of `S`'s dimensions.
        let order = P::SIZES;
        self.permuted(|d| order.as_ref()[d])
    }

    /// Dimension `SRC` moved to position `DST`, the others kept in order.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let t = Tensor::<f32, shape![2, 3, 4]>::zeros();
    /// assert_eq!(t.movedim::<0, 2>().shape(), [3, 4, 2]);
    /// ```
    #[inline]
    pub fn movedim<const SRC: usize, const DST: usize>(
        &self,
    ) -> ViewOf<'_, T, <S as MovedDim<SRC, DST>>::Output, D, R>
    where
        S: MovedDim<SRC, DST>,
    {
        // `MovedDim` proved `SRC` and `DST` dimensions of `S`: result
        // dimension `DST` is `SRC`, the others keep their order.
        self.permuted(|d| {
            if d == DST {
                return SRC;
            }
            let rest = if d < DST { d } else { d - 1 }; // among the others
            if rest < SRC { rest } else { rest + 1 }
        })
    }

    /// `LEN` entries of dimension `DIM` from `start` (PyTorch's `narrow`):
    /// the length is in the type and checked against a static size at
    /// compile time; `start` is checked at run time and panics with
    /// PyTorch's message ([`try_narrow`](Self::try_narrow) returns it).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let t = Tensor::<i64, shape![4]>::arange();
    /// assert_eq!(t.narrow::<0, 2>(1).to_vec(), vec![1, 2]);
    /// ```
    #[inline]
    pub fn narrow<const DIM: usize, const LEN: usize>(
        &self,
        start: usize,
    ) -> ViewOf<'_, T, <S as Narrowed<DIM, LEN>>::Output, D, R>
    where
        S: Narrowed<DIM, LEN>,
    {
        // The view is made in place here, not moved out of a `Result`.
        match narrow_start(self.layout.sizes()[DIM], start, LEN) {
            Some(start) => self.cut(DIM, start, LEN, false),
            None => self.try_narrow::<DIM, LEN>(start).or_panic(),
        }
    }

    /// [`narrow`](Self::narrow), or `Err` with PyTorch's message when
    /// `start + LEN` passes the end of the dimension.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let t = Tensor::<f32, shape![3, 4]>::zeros();
    /// assert_eq!(
    ///     t.try_narrow::<1, 2>(3).unwrap_err().to_string(),
    ///     "start (3) + length (2) exceeds dimension size (4)."
    /// );
    /// ```
    #[inline]
    pub fn try_narrow<const DIM: usize, const LEN: usize>(
        &self,
        start: usize,
    ) -> Result<ViewOf<'_, T, <S as Narrowed<DIM, LEN>>::Output, D, R>, Error>
    where
        S: Narrowed<DIM, LEN>,
    {
        let size = self.layout.sizes()[DIM];
        if let Some(start) = narrow_start(size, start, LEN) {
            return Ok(self.cut(DIM, start, LEN, false));
        }
        self.by_engine(|l| {
            let start = isize::try_from(start).map_err(|_| Error::NarrowStart {
                start: isize::MAX,
                size,
            })?;
            l.narrow(axis(DIM), start, LEN as isize)
        })
    }

    /// Entry `index` of dimension `DIM`, which disappears from the shape
    /// (PyTorch's `select`; a negative index counts from the end). Panics
    /// with PyTorch's message when out of range
    /// ([`try_select`](Self::try_select) returns it).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let t = Tensor::<i64, shape![2, 3]>::from_vec((0..6).collect()).unwrap();
    /// let row = t.select::<0>(1); // a view of shape![3]
    /// assert_eq!(row.to_vec(), vec![3, 4, 5]);
    /// ```
    #[inline]
    pub fn select<const DIM: usize>(
        &self,
        index: isize,
    ) -> ViewOf<'_, T, <S as Remove<DIM>>::Output, D, R>
    where
        S: Remove<DIM>,
        <S as Remove<DIM>>::Output: Shape,
    {
        // The view is made in place here, not moved out of a `Result`.
        match wrap_index(index, self.layout.sizes()[DIM]) {
            Some(index) => self.cut(DIM, index, 1, true),
            None => self.try_select::<DIM>(index).or_panic(),
        }
    }

    /// [`select`](Self::select), or `Err` with PyTorch's message.
    #[inline]
    pub fn try_select<const DIM: usize>(
        &self,
        index: isize,
    ) -> Result<ViewOf<'_, T, <S as Remove<DIM>>::Output, D, R>, Error>
    where
        S: Remove<DIM>,
        <S as Remove<DIM>>::Output: Shape,
    {
        if let Some(index) = wrap_index(index, self.layout.sizes()[DIM]) {
            return Ok(self.cut(DIM, index, 1, true));
        }
        self.by_engine(|l| l.select(axis(DIM), index))
    }

    /// A new dimension of size 1 before dimension `DIM` (`DIM` may be the
    /// rank).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let t = Tensor::<f32, shape![4, 4]>::zeros();
    /// assert_eq!(t.unsqueeze::<0>().shape(), [1, 4, 4]);
    /// ```
    #[inline]
    pub fn unsqueeze<const DIM: usize>(
        &self,
    ) -> ViewOf<'_, T, <S as crate::shape::axes::Insert<DIM, Dec<1>>>::Output, D, R>
    where
        S: crate::shape::axes::Insert<DIM, Dec<1>>,
        <S as crate::shape::axes::Insert<DIM, Dec<1>>>::Output: Shape,
    {
        // `Insert` proved `DIM` at most the rank.
        self.unsqueezed(DIM)
    }

    /// Every dimension of static size 1 removed (PyTorch's `squeeze()`); a
    /// shape with a `Dyn` size gives a `DynShape`, since whether that size is
    /// 1 is known only at run time.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let t = Tensor::<f32, shape![1, 3, 1, 2]>::zeros();
    /// assert_eq!(t.squeeze().shape(), [3, 2]);
    /// ```
    #[inline]
    pub fn squeeze(&self) -> ViewOf<'_, T, <S as Squeeze>::Output, D, R>
    where
        S: Squeeze,
    {
        self.squeezed()
    }

    /// The main diagonal of dimensions 0 and 1, as a new last dimension
    /// (PyTorch's `diagonal()`), sharing storage.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let t = Tensor::<i64, shape![3, 4]>::from_vec((0..12).collect()).unwrap();
    /// let d = t.diagonal(); // a view of shape![3]
    /// assert_eq!((d.to_vec(), d.strides()), (vec![0, 5, 10], [5]));
    /// ```
    // `O` as in `mt`: a rank-1 receiver gets `Diagonal`'s own message.
    #[inline]
    pub fn diagonal<O: Shape>(&self) -> ViewOf<'_, T, O, D, R>
    where
        S: Diagonal<Output = O>,
    {
        // `Diagonal` proved the rank at least 2.
        self.diagonal_01()
    }

    /// PyTorch's basic indexing `t[..]` with an `s![..]` list (indices,
    /// ranges with `;step`, `NewAxis`, `Ellipsis`), sharing storage. The
    /// compiler computes the result shape from the literal items (a range
    /// written with variables gives a `Dyn` size); a literal index out of
    /// bounds or too many indices do not compile. A runtime index out of
    /// range panics with PyTorch's message ([`try_slice`](Self::try_slice)
    /// returns it).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let t = Tensor::<i64, shape![4, 4]>::from_vec((0..16).collect()).unwrap();
    /// let w: TensorView<'_, i64, shape![3, 2]> = t.slice(s![1.., ..;2]);
    /// assert_eq!(w.to_vec(), vec![4, 6, 8, 10, 12, 14]);
    /// let row = 2;
    /// let r: TensorView<'_, i64, shape![1, 4]> = t.slice(s![row, NewAxis]);
    /// assert_eq!(r.to_vec(), vec![8, 9, 10, 11]);
    /// ```
    #[inline]
    pub fn slice<L, const N: usize>(
        &self,
        items: SliceSpec<L, N>,
    ) -> ViewOf<'_, T, <S as Sliced<L>>::Output, D, R>
    where
        S: Sliced<L>,
        L: LiteralItems,
    {
        // The view is made in place here, not moved out of a `Result`.
        match self.slice_parts(&items) {
            Some((sizes, strides, offset)) => self.sub_view(sizes, strides, offset),
            None => self.try_slice(items).or_panic(),
        }
    }

    /// [`slice`](Self::slice), or `Err` with PyTorch's message when a
    /// runtime index is out of range.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let t = Tensor::<f32, shape![2, 3]>::zeros();
    /// let i = 5;
    /// assert_eq!(
    ///     t.try_slice(s![.., i]).unwrap_err().to_string(),
    ///     "index 5 is out of bounds for dimension 1 with size 3"
    /// );
    /// ```
    #[inline]
    pub fn try_slice<L, const N: usize>(
        &self,
        items: SliceSpec<L, N>,
    ) -> Result<ViewOf<'_, T, <S as Sliced<L>>::Output, D, R>, Error>
    where
        S: Sliced<L>,
        L: LiteralItems,
    {
        if let Some((sizes, strides, offset)) = self.slice_parts(&items) {
            return Ok(self.sub_view(sizes, strides, offset));
        }
        // Errors and two ellipses: the engine.
        self.by_engine(|l| {
            let l = l.slice(items.as_ref())?;
            assert!(
                <S as Sliced<L>>::Output::check_sizes(l.sizes()).is_ok(),
                "the static slice rules and the view engine disagree: {:?} for {:?}",
                l.sizes(),
                items
            );
            Ok(l)
        })
    }

    /// The sizes, strides and offset of the view `items` of this tensor
    /// ([`slice_into`]), or `None` where the engine must decide.
    #[inline(always)]
    #[allow(clippy::type_complexity)]
    fn slice_parts<L, const N: usize>(
        &self,
        items: &SliceSpec<L, N>,
    ) -> Option<(SizesOf<S, L>, SizesOf<S, L>, usize)>
    where
        S: Sliced<L>,
        L: LiteralItems,
    {
        let rank = <S as Sliced<L>>::Output::RANK?;
        let mut sizes = <SizesOf<S, L> as SizeArray>::filled(rank, 0);
        let mut strides = sizes.clone();
        // Item by item in line, the literal ones from their kinds:
        // constants, which fold.
        let l = &self.layout;
        let counts = L::counts(items.as_ref(), 0, ItemCounts::default());
        let mut cursor = SliceCursor::start(
            counts,
            l.sizes(),
            l.strides(),
            l.offset(),
            sizes.as_mut(),
            strides.as_mut(),
        )?;
        L::steps(items.as_ref(), 0, &mut cursor)?;
        let offset = cursor.finish();
        if <S as Sliced<L>>::Output::check_sizes(sizes.as_ref()).is_err() {
            slice_rules_disagree(sizes.as_ref(), items.as_ref());
        }
        Some((sizes, strides, offset))
    }

    /// The view engine's transform `f` of this tensor's layout, checked:
    /// the errors of the views made directly, and what they leave to the
    /// engine, out of line so that their fast paths inline.
    #[cold]
    #[inline(never)]
    fn by_engine<S2: Shape>(
        &self,
        f: impl FnOnce(&Strided) -> Result<Strided, Error>,
    ) -> Result<ViewOf<'_, T, S2, D, R>, Error> {
        self.reinterpret(f(&self.strided_layout())?)
    }

    /// A view of the static shape `S2` with any strides and offset over the
    /// same storage (PyTorch's `as_strided`), checked to stay inside it;
    /// read-only, since elements may overlap. As in PyTorch,
    /// `storage_offset` counts from the start of the whole storage.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = Tensor::<i64, shape![4]>::arange();
    /// let w = x.as_strided::<shape![3, 2]>([1, 1], 0).unwrap(); // sliding windows
    /// assert_eq!(w.to_vec(), vec![0, 1, 1, 2, 2, 3]);
    /// assert!(x.as_strided::<shape![2, 2]>([2, 1], 2).is_err()); // past the end
    /// ```
    pub fn as_strided<S2: FixedShape>(
        &self,
        stride: S2::Sizes,
        storage_offset: usize,
    ) -> Result<ViewOf<'_, T, S2, D, R>, Error> {
        let l = Strided::as_strided(
            S2::SIZES.as_ref(),
            stride.as_ref(),
            storage_offset,
            crate::storage::Storage::len(&self.data),
            size_of::<T>(),
        )?;
        self.reinterpret(l)
    }

    /// Basic indexing with items known only at run time (a `&[SliceItem]`
    /// built by a program): the result has a runtime rank.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// use shaped::layout::views::SliceItem;
    /// let t = Tensor::<i64, shape![2, 3]>::from_vec((0..6).collect()).unwrap();
    /// let items: Vec<SliceItem> = vec![SliceItem::Index(1)];
    /// assert_eq!(t.slice_dyn(&items).unwrap().to_vec(), vec![3, 4, 5]);
    /// ```
    pub fn slice_dyn(&self, items: &[SliceItem]) -> Result<ViewOf<'_, T, DynShape, D, R>, Error> {
        let l = self.strided_layout().slice(items)?;
        self.reinterpret(l)
    }

    /// The same elements as the static shape `S2` (PyTorch's `view`),
    /// sharing storage. A different number of elements does not compile;
    /// `Err` (PyTorch's message) when the strides do not allow the view — use
    /// [`reshape`](Self::reshape) then.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let mut t = Tensor::<f32, shape![4, 4]>::zeros();
    /// let v = t.view::<shape![2, 8]>().unwrap();
    /// assert!(v.shares_storage_with(&t));
    /// assert!(t.t().view::<shape![16]>().is_err());
    /// ```
    pub fn view<S2: FixedShape>(&self) -> Result<ViewOf<'_, T, S2, D, R>, Error>
    where
        S: SameNumel<S2>,
    {
        let l = self.strided_layout().view(&signed(S2::SIZES.as_ref()))?;
        self.reinterpret(l)
    }

    /// The same elements viewed with `other`'s shape (PyTorch's `view_as`).
    pub fn view_as<T2: Element, S2: FixedShape, R2: Repr>(
        &self,
        _other: &Tensor<T2, S2, D, R2>,
    ) -> Result<ViewOf<'_, T, S2, D, R>, Error>
    where
        S: SameNumel<S2>,
    {
        self.view::<S2>()
    }
}

impl<T: Element, S: Shape + TupleShape, D: Elementwise, R: Repr> Tensor<T, S, D, R> {
    /// The same elements as the static shape `S2`: a view when the strides
    /// allow, else a copy (PyTorch's `reshape`; callers must not rely on
    /// which). A different number of elements does not compile.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let t = Tensor::<i64, shape![2, 3]>::from_vec((0..6).collect()).unwrap();
    /// assert!(t.reshape::<shape![3, 2]>().is_borrowed());
    /// let r = t.t().reshape::<shape![6]>(); // the transpose needs a copy
    /// assert_eq!(r.to_vec(), vec![0, 3, 1, 4, 2, 5]);
    /// ```
    pub fn reshape<S2: FixedShape>(&self) -> CowOf<'_, T, S2, D, R>
    where
        S: SameNumel<S2>,
    {
        let layout = self.strided_layout();
        if let Some(strides) = layout.view_strides(S2::SIZES.as_ref()) {
            return self
                .cow_view(Strided::new(S2::SIZES.as_ref(), &strides, layout.offset()))
                .or_panic();
        }
        let copy = self.contiguous_copy().or_panic();
        Tensor {
            data: R::cow_owned(copy.data),
            layout: crate::layout::StridedLayout::contiguous(S2::SIZES),
        }
    }

    /// The same elements with `other`'s shape (PyTorch's `reshape_as`).
    pub fn reshape_as<T2: Element, S2: FixedShape, R2: Repr>(
        &self,
        _other: &Tensor<T2, S2, D, R2>,
    ) -> CowOf<'_, T, S2, D, R>
    where
        S: SameNumel<S2>,
    {
        self.reshape::<S2>()
    }
}

/// `start` when entries `start..start + len` lie in a dimension of `size`.
#[inline]
fn narrow_start(size: usize, start: usize, len: usize) -> Option<usize> {
    (start <= size && len <= size - start).then_some(start)
}

/// The size array of the result of slicing `S` by the items `L`.
type SizesOf<S, L> = <<S as Sliced<L>>::Output as Shape>::Sizes;

/// The panic of a slice whose result disagrees with its static shape.
#[cold]
#[inline(never)]
fn slice_rules_disagree(sizes: &[usize], items: &[SliceItem]) -> ! {
    panic!("the static slice rules and the view engine disagree: {sizes:?} for {items:?}")
}
