//! The split family, `unfold`, `unflatten` and `flatten` on static shapes:
//! the dimension and the sizes are in the type, the compiler computes the
//! shape of every piece ([`crate::shape::split`]) and rejects what cannot
//! work. The layouts come from the same view engine as the dynamic API
//! ([`crate::layout::views`]); what depends on a `Dyn` size is checked at run
//! time (the plain forms panic with PyTorch's message, the `try_` forms
//! return it).

use super::{CowOf, ViewOf, signed, signed as axis};
use crate::backend::Backend;
use crate::backend::Elementwise;
use crate::dtype::Element;
use crate::error::Error;
use crate::error::OrPanic;
use crate::layout::views::{Strided, chunk_plan, pieces_of, sections_of, split_count};
use crate::shape::Shape;
use crate::shape::list::TupleShape;
use crate::shape::split::{
    ChunkPlan, Flattened, FlattenedAll, Group, HSplit, PieceCount, SizeList, SplitPlan,
    TensorSplitPlan, Unbound, Unflattened, Unfolded, VSplit,
};
use crate::storage::Repr;
use crate::tensor::Tensor;

/// The views that a split plan ([`Group`]s of pieces) gives for a tensor of
/// element type `T` on device `D` with storage kind `R`, borrowed for `'s`:
/// a [`GenericArray`](crate::shape::split::GenericArray) of views per group
/// whose count is static, a `Vec` for a [`Dyn`](crate::Dyn) count, a pair
/// for a pair of groups.
pub trait Pieces<'s, T: Element, D: Backend, R: Repr + 's> {
    /// The views.
    type Output;

    /// The views of the pieces `(start, length)` of dimension `dim`, in
    /// order; a piece whose shape lacks that dimension is one entry
    /// (`unbind`).
    #[doc(hidden)]
    fn assemble<S: Shape>(
        source: &'s Tensor<T, S, D, R>,
        dim: usize,
        pieces: &mut impl ExactSizeIterator<Item = (usize, usize)>,
    ) -> Self::Output;
}

impl<'s, T: Element, D: Backend, R: Repr + 's, N: PieceCount, S2: Shape> Pieces<'s, T, D, R>
    for Group<N, S2>
{
    type Output = N::Array<ViewOf<'s, T, S2, D, R>>;

    #[inline]
    fn assemble<S: Shape>(
        source: &'s Tensor<T, S, D, R>,
        dim: usize,
        pieces: &mut impl ExactSizeIterator<Item = (usize, usize)>,
    ) -> Self::Output {
        let drop = S2::RANK != S::RANK;
        N::collect(pieces.map(|(start, len)| source.cut::<S2>(dim, start, len, drop)))
    }
}

impl<'s, T: Element, D: Backend, R: Repr + 's, A, B> Pieces<'s, T, D, R> for (A, B)
where
    A: Pieces<'s, T, D, R>,
    B: Pieces<'s, T, D, R>,
{
    type Output = (A::Output, B::Output);

    #[inline]
    fn assemble<S: Shape>(
        source: &'s Tensor<T, S, D, R>,
        dim: usize,
        pieces: &mut impl ExactSizeIterator<Item = (usize, usize)>,
    ) -> Self::Output {
        let first = A::assemble(source, dim, pieces);
        (first, B::assemble(source, dim, pieces))
    }
}

/// The views of the plan `P` for a tensor borrowed for `'s`.
pub type PiecesOf<'s, P, T, D, R> = <P as Pieces<'s, T, D, R>>::Output;

impl<T: Element, S: Shape + TupleShape, D: Backend, R: Repr> Tensor<T, S, D, R> {
    /// The views of plan `P` for the pieces `(start, length)` of dimension
    /// `dim`, each made directly from this tensor's layout
    /// ([`Tensor::cut`]).
    #[inline]
    fn pieces<'s, P: Pieces<'s, T, D, R>>(
        &'s self,
        dim: usize,
        pieces: impl ExactSizeIterator<Item = (usize, usize)>,
    ) -> P::Output {
        let mut pieces = pieces;
        let out = P::assemble(self, dim, &mut pieces);
        debug_assert!(pieces.next().is_none(), "the plan counts every piece");
        out
    }

    /// The error of a split that `check` finds, from the view engine.
    #[cold]
    #[inline(never)]
    fn split_error(&self, check: impl FnOnce(&Strided) -> Result<Vec<Strided>, Error>) -> Error {
        check(&self.strided_layout())
            .expect_err("the view engine rejects what the static split does")
    }

    /// Every entry of dimension `DIM`, as views without that dimension
    /// (PyTorch's `unbind`): a `GenericArray` of as many views as the static
    /// size, or a `Vec` for a `Dyn` size.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// use shaped::shape::split::GenericArray;
    /// use typenum::consts::U2;
    /// let t = Tensor::<i64, shape![2, 3]>::from_vec((0..6).collect()).unwrap();
    /// let rows: GenericArray<TensorView<'_, i64, shape![3]>, U2> = t.unbind::<0>();
    /// assert_eq!(rows[1].to_vec(), vec![3, 4, 5]);
    /// let cols = t.unbind::<1>(); // three views of shape![2]
    /// assert_eq!((cols.len(), cols[2].to_vec()), (3, vec![2, 5]));
    /// ```
    pub fn unbind<'s, const DIM: usize>(
        &'s self,
    ) -> PiecesOf<'s, <S as Unbound<DIM>>::Plan, T, D, R>
    where
        S: Unbound<DIM>,
        <S as Unbound<DIM>>::Plan: Pieces<'s, T, D, R>,
    {
        let n = self.layout.sizes()[DIM];
        self.pieces::<<S as Unbound<DIM>>::Plan>(DIM, (0..n).map(|i| (i, 1)))
    }

    /// Pieces of `SIZE` along dimension `DIM`, the last one shorter when
    /// `SIZE` does not divide the size (PyTorch's `split(SIZE, DIM)`): a pair
    /// `(full, last)` of `GenericArray`s, `full` holding `n / SIZE` views of
    /// size `SIZE` and `last` one view of size `n % SIZE` or none (one empty
    /// view when `n` is 0). For a `Dyn` size, a `Vec` of views whose size
    /// there is `Dyn`. `SIZE` = 0 does not compile.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// use shaped::shape::split::GenericArray;
    /// use typenum::consts::*;
    /// let t = Tensor::<i64, shape![5]>::arange();
    /// let (full, last): (
    ///     GenericArray<TensorView<'_, i64, shape![2]>, U2>,
    ///     GenericArray<TensorView<'_, i64, shape![1]>, U1>,
    /// ) = t.split::<0, 2>();
    /// assert_eq!((full[1].to_vec(), last[0].to_vec()), (vec![2, 3], vec![4]));
    /// let (_, none) = t.split::<0, 5>();
    /// assert!(none.is_empty());
    /// ```
    pub fn split<'s, const DIM: usize, const SIZE: usize>(
        &'s self,
    ) -> PiecesOf<'s, <S as SplitPlan<DIM, SIZE>>::Plan, T, D, R>
    where
        S: SplitPlan<DIM, SIZE>,
        <S as SplitPlan<DIM, SIZE>>::Plan: Pieces<'s, T, D, R>,
    {
        // `SplitPlan` proved `DIM` a dimension and `SIZE` > 0.
        let n = self.layout.sizes()[DIM];
        let count = split_count(n, SIZE);
        self.pieces::<<S as SplitPlan<DIM, SIZE>>::Plan>(DIM, pieces_of(n, SIZE, count))
    }

    /// `CHUNKS` pieces of equal size along dimension `DIM`, the last one
    /// shorter, or fewer pieces (PyTorch's `chunk(CHUNKS, DIM)`: `split` by
    /// `ceil(n / CHUNKS)`), as the pair of [`split`](Self::split); a `Vec`
    /// for a `Dyn` size. `CHUNKS` = 0 does not compile.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let t = Tensor::<i64, shape![5, 2]>::from_vec((0..10).collect()).unwrap();
    /// let (full, last) = t.chunk::<0, 3>(); // two views of shape![2, 2], one of shape![1, 2]
    /// assert_eq!((full.len(), full[0].shape(), last[0].to_vec()), (2, [2, 2], vec![8, 9]));
    /// let six = Tensor::<f32, shape![6]>::zeros();
    /// let (full, last) = six.chunk::<0, 4>();
    /// assert_eq!((full.len(), full[0].shape(), last.len()), (3, [2], 0)); // only 3 chunks
    /// ```
    pub fn chunk<'s, const DIM: usize, const CHUNKS: usize>(
        &'s self,
    ) -> PiecesOf<'s, <S as ChunkPlan<DIM, CHUNKS>>::Plan, T, D, R>
    where
        S: ChunkPlan<DIM, CHUNKS>,
        <S as ChunkPlan<DIM, CHUNKS>>::Plan: Pieces<'s, T, D, R>,
    {
        // `ChunkPlan` proved `DIM` a dimension and `CHUNKS` > 0.
        let n = self.layout.sizes()[DIM];
        let (step, count) = chunk_plan(n, CHUNKS);
        self.pieces::<<S as ChunkPlan<DIM, CHUNKS>>::Plan>(DIM, pieces_of(n, step, count))
    }

    /// `SECTIONS` pieces along dimension `DIM` whose sizes differ by at most
    /// one (PyTorch's `tensor_split(SECTIONS, DIM)`): a pair of
    /// `GenericArray`s, the first `n % SECTIONS` views of size
    /// `n / SECTIONS + 1`, then the others of size `n / SECTIONS`. For a
    /// `Dyn` size, one `GenericArray` of `SECTIONS` views with `Dyn` there.
    /// `SECTIONS` = 0 does not compile.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let t = Tensor::<i64, shape![7]>::arange();
    /// let (longer, shorter) = t.tensor_split::<0, 3>(); // sizes 3, 2, 2
    /// assert_eq!((longer.len(), shorter.len()), (1, 2));
    /// assert_eq!((longer[0].to_vec(), shorter[1].to_vec()), (vec![0, 1, 2], vec![5, 6]));
    /// ```
    pub fn tensor_split<'s, const DIM: usize, const SECTIONS: usize>(
        &'s self,
    ) -> PiecesOf<'s, <S as TensorSplitPlan<DIM, SECTIONS>>::Plan, T, D, R>
    where
        S: TensorSplitPlan<DIM, SECTIONS>,
        <S as TensorSplitPlan<DIM, SECTIONS>>::Plan: Pieces<'s, T, D, R>,
    {
        // `TensorSplitPlan` proved `DIM` a dimension and `SECTIONS` > 0.
        let n = self.layout.sizes()[DIM];
        self.pieces::<<S as TensorSplitPlan<DIM, SECTIONS>>::Plan>(DIM, sections_of(n, SECTIONS))
    }

    /// `SECTIONS` equal pieces along dimension 1, or 0 for a vector
    /// (PyTorch's `hsplit(SECTIONS)`), as a `GenericArray` of `SECTIONS`
    /// views. Sections that do not divide a static size do not compile; for
    /// a `Dyn` size, this panics with PyTorch's message
    /// ([`try_hsplit`](Self::try_hsplit) returns it).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let t = Tensor::<i64, shape![2, 4]>::from_vec((0..8).collect()).unwrap();
    /// let halves = t.hsplit::<2>(); // two views of shape![2, 2]
    /// assert_eq!(halves[1].to_vec(), vec![2, 3, 6, 7]);
    /// ```
    pub fn hsplit<'s, const SECTIONS: usize>(
        &'s self,
    ) -> PiecesOf<'s, <S as HSplit<SECTIONS>>::Plan, T, D, R>
    where
        S: HSplit<SECTIONS>,
        <S as HSplit<SECTIONS>>::Plan: Pieces<'s, T, D, R>,
    {
        self.try_hsplit::<SECTIONS>().or_panic()
    }

    /// [`hsplit`](Self::hsplit), or `Err` with PyTorch's message when
    /// `SECTIONS` does not divide a `Dyn` size.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let t = Tensor::<f32, shape![2, Dyn]>::zeros_with(&[2, 5]);
    /// assert_eq!(
    ///     t.try_hsplit::<2>().unwrap_err().to_string(),
    ///     "torch.hsplit attempted to split along dimension 1, but the size of the dimension 5 is not divisible by the split_size 2!"
    /// );
    /// ```
    pub fn try_hsplit<'s, const SECTIONS: usize>(
        &'s self,
    ) -> Result<PiecesOf<'s, <S as HSplit<SECTIONS>>::Plan, T, D, R>, Error>
    where
        S: HSplit<SECTIONS>,
        <S as HSplit<SECTIONS>>::Plan: Pieces<'s, T, D, R>,
    {
        // `HSplit` proved the rank at least 1 and `SECTIONS` > 0; a `Dyn`
        // size may not divide.
        let dim = usize::from(self.layout.sizes().len() > 1);
        let n = self.layout.sizes()[dim];
        if !n.is_multiple_of(SECTIONS) {
            return Err(self.split_error(|l| l.hsplit(signed(SECTIONS))));
        }
        Ok(self.pieces::<<S as HSplit<SECTIONS>>::Plan>(dim, sections_of(n, SECTIONS)))
    }

    /// `SECTIONS` equal pieces along dimension 0 of a tensor of rank 2 or
    /// more (PyTorch's `vsplit(SECTIONS)`), as a `GenericArray` of
    /// `SECTIONS` views. Sections that do not divide a static size do not
    /// compile; for a `Dyn` size, this panics with PyTorch's message
    /// ([`try_vsplit`](Self::try_vsplit) returns it).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let t = Tensor::<i64, shape![4, 2]>::from_vec((0..8).collect()).unwrap();
    /// let halves = t.vsplit::<2>(); // two views of shape![2, 2]
    /// assert_eq!(halves[1].to_vec(), vec![4, 5, 6, 7]);
    /// ```
    pub fn vsplit<'s, const SECTIONS: usize>(
        &'s self,
    ) -> PiecesOf<'s, <S as VSplit<SECTIONS>>::Plan, T, D, R>
    where
        S: VSplit<SECTIONS>,
        <S as VSplit<SECTIONS>>::Plan: Pieces<'s, T, D, R>,
    {
        self.try_vsplit::<SECTIONS>().or_panic()
    }

    /// [`vsplit`](Self::vsplit), or `Err` with PyTorch's message when
    /// `SECTIONS` does not divide a `Dyn` size.
    pub fn try_vsplit<'s, const SECTIONS: usize>(
        &'s self,
    ) -> Result<PiecesOf<'s, <S as VSplit<SECTIONS>>::Plan, T, D, R>, Error>
    where
        S: VSplit<SECTIONS>,
        <S as VSplit<SECTIONS>>::Plan: Pieces<'s, T, D, R>,
    {
        // `VSplit` proved the rank at least 2 and `SECTIONS` > 0; a `Dyn`
        // size may not divide.
        let n = self.layout.sizes()[0];
        if !n.is_multiple_of(SECTIONS) {
            return Err(self.split_error(|l| l.vsplit(signed(SECTIONS))));
        }
        Ok(self.pieces::<<S as VSplit<SECTIONS>>::Plan>(0, sections_of(n, SECTIONS)))
    }

    /// Windows of `SIZE` entries every `STEP` along dimension `DIM`
    /// (PyTorch's `unfold(DIM, SIZE, STEP)`), sharing storage: dimension
    /// `DIM` becomes the number of windows, `(n - SIZE) / STEP + 1`, and a
    /// last dimension of `SIZE` is added. A window longer than a static size
    /// or a step of 0 does not compile; for a `Dyn` size, a window longer
    /// than it panics with PyTorch's message
    /// ([`try_unfold`](Self::try_unfold) returns it).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let t = Tensor::<i64, shape![5]>::arange();
    /// let w: TensorView<'_, i64, shape![2, 3]> = t.unfold::<0, 3, 2>();
    /// assert_eq!(w.to_vec(), vec![0, 1, 2, 2, 3, 4]);
    /// ```
    pub fn unfold<const DIM: usize, const SIZE: usize, const STEP: usize>(
        &self,
    ) -> ViewOf<'_, T, <S as Unfolded<DIM, SIZE, STEP>>::Output, D, R>
    where
        S: Unfolded<DIM, SIZE, STEP>,
        <S as Unfolded<DIM, SIZE, STEP>>::Output: Shape,
    {
        self.try_unfold::<DIM, SIZE, STEP>().or_panic()
    }

    /// [`unfold`](Self::unfold), or `Err` with PyTorch's message when the
    /// window is longer than a `Dyn` size.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let t = Tensor::<f32, shape![Dyn]>::zeros_with(&[2]);
    /// assert_eq!(
    ///     t.try_unfold::<0, 3, 1>().unwrap_err().to_string(),
    ///     "maximum size for tensor at dimension 0 is 2 but size is 3"
    /// );
    /// ```
    pub fn try_unfold<const DIM: usize, const SIZE: usize, const STEP: usize>(
        &self,
    ) -> Result<ViewOf<'_, T, <S as Unfolded<DIM, SIZE, STEP>>::Output, D, R>, Error>
    where
        S: Unfolded<DIM, SIZE, STEP>,
        <S as Unfolded<DIM, SIZE, STEP>>::Output: Shape,
    {
        let l = self.strided_layout().unfold(axis(DIM), SIZE, STEP)?;
        self.reinterpret(l)
    }

    /// Dimension `DIM` split into the dimensions of `L`, written
    /// `shape![..]` (PyTorch's `unflatten(DIM, L)`), sharing storage. Sizes
    /// whose product differs from a static size do not compile. A `Dyn` in
    /// `L` is inferred (PyTorch's `-1`); with a `Dyn` there or in the
    /// dimension, a mismatch panics with PyTorch's message
    /// ([`try_unflatten`](Self::try_unflatten) returns it).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let t = Tensor::<i64, shape![2, 6]>::from_vec((0..12).collect()).unwrap();
    /// let u: TensorView<'_, i64, shape![2, 2, 3]> = t.unflatten::<1, shape![2, 3]>();
    /// assert_eq!((u.strides(), u[[1, 1, 0]]), ([6, 3, 1], 9));
    /// let inferred: TensorView<'_, i64, shape![2, Dyn, 2]> = t.unflatten::<1, shape![Dyn, 2]>();
    /// assert_eq!(inferred.shape(), [2, 3, 2]);
    /// ```
    pub fn unflatten<const DIM: usize, L: Shape + SizeList>(
        &self,
    ) -> ViewOf<'_, T, <S as Unflattened<DIM, L>>::Output, D, R>
    where
        S: Unflattened<DIM, L>,
        <S as Unflattened<DIM, L>>::Output: Shape,
    {
        self.try_unflatten::<DIM, L>().or_panic()
    }

    /// [`unflatten`](Self::unflatten), or `Err` with PyTorch's message when
    /// the sizes do not hold the elements of a `Dyn` dimension (or cannot be
    /// inferred).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let t = Tensor::<f32, shape![Dyn]>::zeros_with(&[8]);
    /// assert_eq!(
    ///     t.try_unflatten::<0, shape![2, 3]>().unwrap_err().to_string(),
    ///     "unflatten: Provided sizes [2, 3] don't multiply up to the size of dim 0 (8) in the input tensor"
    /// );
    /// ```
    pub fn try_unflatten<const DIM: usize, L: Shape + SizeList>(
        &self,
    ) -> Result<ViewOf<'_, T, <S as Unflattened<DIM, L>>::Output, D, R>, Error>
    where
        S: Unflattened<DIM, L>,
        <S as Unflattened<DIM, L>>::Output: Shape,
    {
        let sizes: Vec<isize> = L::SIZES.iter().map(|s| s.map_or(-1, signed)).collect();
        let l = self.strided_layout().unflatten(axis(DIM), &sizes)?;
        self.reinterpret(l)
    }
}

impl<T: Element, S: Shape + TupleShape, D: Elementwise, R: Repr> Tensor<T, S, D, R> {
    /// Dimensions `START..=END` merged into one whose size is their product
    /// (`Dyn` when one of them is), like PyTorch's `flatten(START, END)`: a
    /// view when the strides allow, else a copy (callers must not rely on
    /// which). `START > END` or a dimension out of range does not compile.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let t = Tensor::<i64, shape![2, 3, 4]>::from_vec((0..24).collect()).unwrap();
    /// let f: TensorCow<'_, i64, shape![6, 4]> = t.flatten::<0, 1>();
    /// assert!(f.is_borrowed());
    /// let g: TensorCow<'_, i64, shape![4, 6]> = t.transpose::<0, 2>().flatten::<1, 2>();
    /// assert!(!g.is_borrowed()); // the transposed dimensions need a copy
    /// assert_eq!(g.to_vec()[..3], [0, 12, 4]);
    /// ```
    pub fn flatten<const START: usize, const END: usize>(
        &self,
    ) -> CowOf<'_, T, <S as Flattened<START, END>>::Output, D, R>
    where
        S: Flattened<START, END>,
        <S as Flattened<START, END>>::Output: Shape,
    {
        let layout = self.strided_layout();
        let sizes = layout.sizes();
        if sizes.is_empty() {
            return self.reshaped(&[1]);
        }
        if START == END {
            // PyTorch returns the tensor itself (strides of size-1 dims kept).
            return self.cow_view(layout).or_panic();
        }
        let mut new = sizes[..START].to_vec();
        new.push(crate::layout::wrapping_numel(&sizes[START..=END]));
        new.extend_from_slice(&sizes[END + 1..]);
        self.reshaped(&new)
    }

    /// Every dimension merged into one (PyTorch's `flatten()`): a view when
    /// the strides allow, else a copy. A scalar gives one dimension of size
    /// 1.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let t = Tensor::<i64, shape![2, 3]>::from_vec((0..6).collect()).unwrap();
    /// let f: TensorCow<'_, i64, shape![6]> = t.flatten_all();
    /// assert!(f.is_borrowed());
    /// let g: TensorCow<'_, i64, shape![6]> = t.t().flatten_all(); // a copy
    /// assert_eq!(g.to_vec(), vec![0, 3, 1, 4, 2, 5]);
    /// ```
    pub fn flatten_all(&self) -> CowOf<'_, T, <S as FlattenedAll>::Output, D, R>
    where
        S: FlattenedAll,
        <S as FlattenedAll>::Output: Shape,
    {
        let layout = self.strided_layout();
        if layout.rank() == 1 {
            return self.cow_view(layout).or_panic();
        }
        self.reshaped(&[layout.numel()])
    }

    /// The same elements with the runtime `sizes` (which hold them all): a
    /// view when the strides allow, else a contiguous copy.
    fn reshaped<S2: Shape>(&self, sizes: &[usize]) -> CowOf<'_, T, S2, D, R> {
        let layout = self.strided_layout();
        if let Some(strides) = layout.view_strides(sizes) {
            return self
                .cow_view(Strided::new(sizes, &strides, layout.offset()))
                .or_panic();
        }
        let copy = self.contiguous_copy().or_panic();
        let signed_sizes: Vec<isize> = sizes.iter().map(|&s| signed(s)).collect();
        let viewed = copy
            .strided_layout()
            .view(&signed_sizes)
            .expect("a contiguous copy views as any sizes of its element count");
        Tensor {
            data: R::cow_owned(copy.data),
            layout: super::layout_of(&viewed),
        }
    }
}

#[cfg(test)]
mod tests {
    //! Each static form against the `DynTensor` form on the same data: the
    //! same pieces (sizes, strides, storage offset, values), in the same
    //! order, for contiguous, transposed, offset, size-0 and `Dyn` inputs.

    use crate::prelude::*;
    use crate::shape::split::GenericArray;
    use crate::storage::Repr;
    use generic_array::ArrayLength;

    /// What the comparisons look at, piece by piece.
    trait Described {
        fn describe(&self) -> Vec<String>;
    }
    impl<S: crate::shape::Shape, R: Repr> Described for Tensor<i64, S, Cpu, R> {
        fn describe(&self) -> Vec<String> {
            vec![format!(
                "sizes {:?} strides {:?} offset {} values {:?}",
                self.shape().as_ref(),
                self.strides().as_ref(),
                self.storage_offset(),
                self.to_vec()
            )]
        }
    }
    impl<V: Described, N: ArrayLength> Described for GenericArray<V, N> {
        fn describe(&self) -> Vec<String> {
            self.iter().flat_map(V::describe).collect()
        }
    }
    impl<V: Described> Described for Vec<V> {
        fn describe(&self) -> Vec<String> {
            self.iter().flat_map(V::describe).collect()
        }
    }
    impl<A: Described, B: Described> Described for (A, B) {
        fn describe(&self) -> Vec<String> {
            let mut out = self.0.describe();
            out.extend(self.1.describe());
            out
        }
    }

    /// `0..numel` with static shape `S` and runtime `sizes`.
    fn arange<S: crate::shape::Shape>(sizes: &[usize]) -> Tensor<i64, S> {
        let n = sizes.iter().product::<usize>() as i64;
        Tensor::from_vec_with((0..n).collect(), sizes).unwrap()
    }

    /// `unbind`, `split`, `chunk` and `tensor_split` along `$dim`, with
    /// each of the counts `$k`.
    macro_rules! agree_splits {
        ($x:expr, $dim:literal; $($k:literal)*) => {{
            let x = &$x;
            let d = x.as_view().into_dyn();
            let dim: isize = $dim;
            assert_eq!(x.unbind::<$dim>().describe(), d.unbind(dim).unwrap().describe(), "unbind");
            assert!(x.unbind::<$dim>().iter().all(|p| p.shares_storage_with(x)));
            $(
                assert_eq!(
                    x.split::<$dim, $k>().describe(),
                    d.split($k, dim).unwrap().describe(),
                    "split::<{}, {}> of {:?}", $dim, $k, x.shape()
                );
                assert_eq!(
                    x.chunk::<$dim, $k>().describe(),
                    d.chunk($k, dim).unwrap().describe(),
                    "chunk::<{}, {}> of {:?}", $dim, $k, x.shape()
                );
                assert_eq!(
                    x.tensor_split::<$dim, $k>().describe(),
                    d.tensor_split($k, dim).unwrap().describe(),
                    "tensor_split::<{}, {}> of {:?}", $dim, $k, x.shape()
                );
            )*
        }};
    }

    #[test]
    fn splits_of_static_shapes() {
        let x = arange::<shape![5, 3]>(&[5, 3]);
        agree_splits!(x, 0; 1 2 3 4 5 6 7);
        agree_splits!(x, 1; 1 2 3 4);
        let t = arange::<shape![3, 5]>(&[3, 5]);
        let transposed = t.transpose::<0, 1>();
        agree_splits!(transposed, 0; 1 2 3 4 5 6);
        agree_splits!(transposed, 1; 1 2 3 4);
        let base = arange::<shape![6, 4]>(&[6, 4]);
        let offset = base.narrow::<0, 5>(1);
        agree_splits!(offset, 0; 1 2 3 5 8);
        agree_splits!(offset, 1; 1 3 4);
        let cube = arange::<shape![2, 3, 4]>(&[2, 3, 4]);
        agree_splits!(cube, 0; 1 2 3);
        agree_splits!(cube, 1; 1 2 3 4);
        agree_splits!(cube, 2; 1 2 3 4 5);
        let v = arange::<shape![7]>(&[7]);
        agree_splits!(v, 0; 1 2 3 4 6 7 8 16 1024);
    }

    #[test]
    fn splits_of_size_zero() {
        let x = arange::<shape![0, 3]>(&[0, 3]);
        agree_splits!(x, 0; 1 2 3);
        agree_splits!(x, 1; 1 2 3 4);
        let y = arange::<shape![4, 0]>(&[4, 0]);
        agree_splits!(y, 0; 1 3 4 5);
        agree_splits!(y, 1; 1 2);
    }

    #[test]
    fn splits_of_dyn_sizes() {
        for n in [0, 1, 5, 6] {
            let x = arange::<shape![Dyn, 3]>(&[n, 3]);
            agree_splits!(x, 0; 1 2 3 4 7);
            agree_splits!(x, 1; 1 2 3);
            let y = arange::<shape![2, Dyn, 3]>(&[2, n, 3]);
            agree_splits!(y, 1; 1 2 4);
            agree_splits!(y.transpose::<0, 1>(), 0; 1 3);
        }
    }

    /// `N` views of shape `S`.
    type Views<'a, S, N> = GenericArray<TensorView<'a, i64, S>, N>;

    // The point is to spell out the result types.
    #[allow(clippy::type_complexity)]
    #[test]
    fn split_results_have_static_shapes() {
        use typenum::consts::{U0, U1, U2, U3, U5};
        let x = arange::<shape![5, 3]>(&[5, 3]);
        let rows: Views<'_, shape![3], U5> = x.unbind::<0>();
        assert_eq!(rows[4].to_vec(), vec![12, 13, 14]);
        let (full, last): (Views<'_, shape![2, 3], U2>, Views<'_, shape![1, 3], U1>) =
            x.split::<0, 2>();
        assert_eq!((full[1].to_vec()[0], last[0].to_vec()[0]), (6, 12));
        let (_, none): (Views<'_, shape![5, 1], U3>, Views<'_, shape![5, 0], U0>) =
            x.split::<1, 1>();
        assert!(none.is_empty());
        let empty = arange::<shape![0]>(&[0]);
        let (full, one_empty): (Views<'_, shape![3], U0>, Views<'_, shape![0], U1>) =
            empty.split::<0, 3>();
        assert_eq!((full.len(), one_empty[0].shape()), (0, [0]));
        let (chunks, rest): (Views<'_, shape![0], U3>, Views<'_, shape![0], U0>) =
            empty.chunk::<0, 3>();
        assert_eq!((chunks.len(), rest.len()), (3, 0));
        let (longer, shorter): (Views<'_, shape![2, 3], U2>, Views<'_, shape![1, 3], U1>) =
            x.tensor_split::<0, 3>();
        assert_eq!((longer[1].to_vec()[0], shorter[0].to_vec()[0]), (6, 12));
        let d = arange::<shape![Dyn, 3]>(&[5, 3]);
        let pieces: Vec<TensorView<'_, i64, shape![Dyn, 3]>> = d.split::<0, 2>();
        assert_eq!(pieces.len(), 3);
        let sections: Views<'_, shape![Dyn, 3], U2> = d.tensor_split::<0, 2>();
        assert_eq!(sections[1].shape(), [2, 3]);
    }

    /// `hsplit` and `vsplit` with each of the section counts `$k`.
    macro_rules! agree_hv {
        ($x:expr; hsplit $($k:literal)*) => {{
            let x = &$x;
            let d = x.as_view().into_dyn();
            $(assert_eq!(x.hsplit::<$k>().describe(), d.hsplit($k).unwrap().describe(), "hsplit::<{}>", $k);)*
        }};
        ($x:expr; vsplit $($k:literal)*) => {{
            let x = &$x;
            let d = x.as_view().into_dyn();
            $(assert_eq!(x.vsplit::<$k>().describe(), d.vsplit($k).unwrap().describe(), "vsplit::<{}>", $k);)*
        }};
    }

    #[test]
    fn hsplit_and_vsplit() {
        let m = arange::<shape![4, 6]>(&[4, 6]);
        agree_hv!(m; hsplit 1 2 3 6);
        agree_hv!(m; vsplit 1 2 4);
        agree_hv!(m.transpose::<0, 1>(); hsplit 1 2 4);
        agree_hv!(m.narrow::<1, 4>(2); vsplit 2 4);
        agree_hv!(arange::<shape![6]>(&[6]); hsplit 1 2 3 6);
        agree_hv!(arange::<shape![2, 0]>(&[2, 0]); hsplit 1 2 5);
        agree_hv!(arange::<shape![0, 2]>(&[0, 2]); vsplit 1 3);
        agree_hv!(arange::<shape![2, 3, 4]>(&[2, 3, 4]); hsplit 1 3);
        agree_hv!(arange::<shape![2, 3, 4]>(&[2, 3, 4]); vsplit 1 2);
        let d = arange::<shape![Dyn, Dyn]>(&[4, 6]);
        agree_hv!(d; hsplit 1 2 3 6);
        agree_hv!(d; vsplit 1 2 4);
        let dd = d.as_view().into_dyn();
        assert_eq!(
            d.try_hsplit::<4>().unwrap_err().to_string(),
            dd.hsplit(4).unwrap_err().to_string()
        );
        assert_eq!(
            d.try_vsplit::<3>().unwrap_err().to_string(),
            dd.vsplit(3).unwrap_err().to_string()
        );
    }

    #[test]
    #[should_panic(expected = "is not divisible by the split_size 4")]
    fn hsplit_of_a_dyn_size_panics_with_the_message() {
        let _ = arange::<shape![Dyn, Dyn]>(&[4, 6]).hsplit::<4>();
    }

    /// `unfold` along `$dim` with each `($size, $step)`.
    macro_rules! agree_unfold {
        ($x:expr, $dim:literal; $(($size:literal, $step:literal))*) => {{
            let x = &$x;
            let d = x.as_view().into_dyn();
            $(
                let u = x.unfold::<$dim, $size, $step>();
                assert_eq!(
                    u.describe(),
                    d.unfold($dim, $size, $step).unwrap().describe(),
                    "unfold::<{}, {}, {}>", $dim, $size, $step
                );
                assert!(u.shares_storage_with(x));
            )*
        }};
    }

    #[test]
    fn unfold() {
        let x = arange::<shape![5, 3]>(&[5, 3]);
        agree_unfold!(x, 0; (0, 1) (1, 1) (2, 1) (2, 2) (3, 2) (5, 1) (5, 3) (1, 7));
        agree_unfold!(x, 1; (0, 2) (1, 1) (2, 1) (3, 1) (3, 4));
        agree_unfold!(x.transpose::<0, 1>(), 1; (2, 1) (4, 3));
        agree_unfold!(x.narrow::<0, 3>(2), 0; (2, 1) (1, 2));
        agree_unfold!(arange::<shape![0, 3]>(&[0, 3]), 0; (0, 1) (0, 5));
        agree_unfold!(arange::<shape![2, 3, 4]>(&[2, 3, 4]), 2; (2, 1) (3, 2));
        agree_unfold!(arange::<shape![Dyn, 3]>(&[6, 3]), 0; (2, 1) (3, 3) (6, 1));
        let w: TensorView<'_, i64, shape![2, 3, 2]> = x.unfold::<0, 2, 2>();
        assert_eq!(w.shape(), [2, 3, 2]);
        let rows = arange::<shape![Dyn, 3]>(&[4, 3]);
        let d: TensorView<'_, i64, shape![Dyn, 3, 2]> = rows.unfold::<0, 2, 1>();
        assert_eq!(d.shape(), [3, 3, 2]);
        let short = arange::<shape![Dyn, 3]>(&[1, 3]);
        assert_eq!(
            short.try_unfold::<0, 2, 1>().unwrap_err().to_string(),
            short
                .as_view()
                .into_dyn()
                .unfold(0, 2, 1)
                .unwrap_err()
                .to_string()
        );
    }

    #[test]
    fn unflatten() {
        let x = arange::<shape![2, 6]>(&[2, 6]);
        let d = x.as_view().into_dyn();
        macro_rules! agree {
            ($x:expr, $d:expr; $(($dim:literal, $l:ty, $sizes:expr))*) => {$(
                let u = $x.unflatten::<$dim, $l>();
                assert_eq!(u.describe(), $d.unflatten($dim, &$sizes).unwrap().describe());
                assert!(u.shares_storage_with(&$x));
            )*};
        }
        agree!(x, d;
            (1, shape![2, 3], [2, 3])
            (1, shape![6], [6])
            (1, shape![1, 6, 1], [1, 6, 1])
            (0, shape![2, 1], [2, 1])
            (1, shape![Dyn, 3], [-1, 3])
            (1, shape![3, Dyn], [3, -1])
            (1, shape![2, 1, 3, 1, 1, 1, 1], [2, 1, 3, 1, 1, 1, 1])
        );
        let t = x.transpose::<0, 1>();
        let td = t.as_view().into_dyn();
        agree!(t, td; (0, shape![2, 3], [2, 3]) (0, shape![Dyn, 2], [-1, 2]));
        let z = arange::<shape![0, 4]>(&[0, 4]);
        let zd = z.as_view().into_dyn();
        agree!(z, zd; (0, shape![0, 5], [0, 5]) (1, shape![2, 2], [2, 2]));
        let n = arange::<shape![Dyn, 4]>(&[6, 4]);
        let nd = n.as_view().into_dyn();
        agree!(n, nd; (0, shape![2, 3], [2, 3]) (1, shape![2, 2], [2, 2]));
        let typed: TensorView<'_, i64, shape![2, 3, 4]> = n.unflatten::<0, shape![2, 3]>();
        assert_eq!(typed.shape(), [2, 3, 4]);
        for (err, expected) in [
            (
                n.try_unflatten::<0, shape![4, 2]>().map(|_| ()),
                nd.unflatten(0, &[4, 2]),
            ),
            (
                x.try_unflatten::<1, shape![Dyn, Dyn]>().map(|_| ()),
                d.unflatten(1, &[-1, -1]),
            ),
            (
                x.try_unflatten::<1, shape![Dyn, 4]>().map(|_| ()),
                d.unflatten(1, &[-1, 4]),
            ),
        ] {
            assert_eq!(
                err.unwrap_err().to_string(),
                expected.unwrap_err().to_string()
            );
        }
    }

    /// `flatten::<START, END>` against `flatten(START, END)`, including
    /// whether each shares storage.
    macro_rules! agree_flatten {
        ($x:expr; $(($start:literal, $end:literal))*) => {{
            let x = &$x;
            let d = x.as_view().into_dyn();
            $(
                let f = x.flatten::<$start, $end>();
                let g = d.flatten($start, $end).unwrap();
                assert_eq!(f.describe(), g.describe(), "flatten::<{}, {}>", $start, $end);
                assert_eq!(f.is_borrowed(), g.is_borrowed(), "flatten::<{}, {}>", $start, $end);
            )*
            let all = x.flatten_all();
            let g = d.flatten(0, -1).unwrap();
            assert_eq!(all.describe(), g.describe(), "flatten_all");
            assert_eq!(all.is_borrowed(), g.is_borrowed(), "flatten_all");
        }};
    }

    #[test]
    fn flatten() {
        let cube = arange::<shape![2, 3, 4]>(&[2, 3, 4]);
        agree_flatten!(cube; (0, 0) (0, 1) (0, 2) (1, 1) (1, 2) (2, 2));
        agree_flatten!(cube.transpose::<0, 2>(); (0, 0) (0, 1) (0, 2) (1, 2));
        agree_flatten!(cube.narrow::<1, 2>(1); (0, 1) (0, 2) (1, 2));
        agree_flatten!(cube.permute::<axes![1, 0, 2]>(); (0, 1) (1, 2) (0, 2));
        agree_flatten!(arange::<shape![2, 0, 3]>(&[2, 0, 3]); (0, 1) (1, 2) (0, 2));
        let ones = arange::<shape![2, 1, 3]>(&[2, 1, 3]);
        agree_flatten!(ones.transpose::<0, 2>(); (0, 1) (1, 2) (1, 1));
        agree_flatten!(arange::<shape![5]>(&[5]); (0, 0));
        agree_flatten!(arange::<shape![2, Dyn, 4]>(&[2, 3, 4]); (0, 1) (1, 2) (0, 0));
        agree_flatten!(arange::<shape![]>(&[]); (0, 0));
        let f: TensorCow<'_, i64, shape![2, 12]> = cube.flatten::<1, 2>();
        assert_eq!(f.shape(), [2, 12]);
        let g: TensorCow<'_, i64, shape![24]> = cube.transpose::<0, 1>().flatten_all();
        assert!(!g.is_borrowed());
        let mixed = arange::<shape![2, Dyn, 4]>(&[2, 3, 4]);
        let h: TensorCow<'_, i64, shape![Dyn, 4]> = mixed.flatten::<0, 1>();
        assert_eq!(h.shape(), [6, 4]);
        let scalar = arange::<shape![]>(&[]);
        let s: TensorCow<'_, i64, shape![1]> = scalar.flatten_all();
        assert_eq!(s.to_vec(), vec![0]);
    }
}
