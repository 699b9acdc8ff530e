//! Boolean masks: `masked_fill` (in place and out of place),
//! `masked_select`, `nonzero` and `argwhere`, with PyTorch's semantics.
//!
//! The mask broadcasts: to the tensor for the in-place `masked_fill_` (the
//! in-place rule, checked by the compiler on static shapes), and with it
//! for the out-of-place forms. `masked_select` and `nonzero` give results
//! whose length depends on the data: a `Dyn` size in their types.
//!
//! ```
//! use shaped::prelude::*;
//! let x = Tensor::<f32, shape![2, 3]>::from_vec(vec![1.0, -2.0, 3.0, -4.0, 5.0, -6.0]).unwrap();
//! let negative = x.lt(0.0);
//! let clipped: Tensor<f32, shape![2, 3]> = x.masked_fill(&negative, 0.0);
//! assert_eq!(clipped.to_vec(), [1.0, 0.0, 3.0, 0.0, 5.0, 0.0]);
//! let picked: Tensor<f32, shape![Dyn]> = x.masked_select(&negative);
//! assert_eq!(picked.to_vec(), [-2.0, -4.0, -6.0]);
//! let at: Tensor<i64, shape![Dyn, 2]> = x.nonzero();
//! assert_eq!(at.shape(), [6, 2]);
//! ```

use crate::backend::{Elementwise, Masking, StridedMut, StridedRef};
use crate::dtype::DType;
use crate::dtype::Element;
use crate::error::{Error, OrPanic};
use crate::layout::is_contiguous;
use crate::layout::{StridedLayout, checked_numel};
use crate::ops::broadcast_strides;
use crate::ops::functions::Constant;
use crate::ops::functions::Identity;
use crate::shape::check_expand;
use crate::shape::digits::Len;
use crate::shape::dynamic::DynShape;
use crate::shape::list::TupleShape;
use crate::shape::{
    Broadcast, BroadcastInto, BroadcastShape, Dyn, Shape, SizeArray, broadcast_sizes_into,
};
use crate::storage::{Repr, Writable};
use crate::tensor::{OwnedParts, Tensor, from_parts, owned_parts};

/// The element type of a mask: bool only.
///
/// ```
/// use shaped::ops::indexing::MaskElement;
/// fn mask<M: MaskElement>() {}
/// mask::<bool>();
/// ```
#[diagnostic::on_unimplemented(
    message = "a mask holds bools, not `{Self}`",
    label = "this mask has `{Self}` elements",
    note = "PyTorch raises `masked_fill_ only supports boolean masks`; compare to make one: `x.gt(0.5)`, `x.ne(0)`"
)]
pub trait MaskElement: Element {
    /// The mask's elements, as bools.
    fn truth<D: crate::backend::Backend>(x: StridedRef<'_, Self, D>) -> StridedRef<'_, bool, D>;
}

impl MaskElement for bool {
    fn truth<D: crate::backend::Backend>(x: StridedRef<'_, bool, D>) -> StridedRef<'_, bool, D> {
        x
    }
}

/// A mask tensor as a shape-erased operand of bools.
macro_rules! mask_of {
    ($m:expr) => {
        M::truth(StridedRef::new(&$m.data, &$m.layout))
    };
}

/// `where(mask, value, x)` over the broadcast of `x` and `mask`, into a
/// new tensor's parts (shape-erased).
fn filled<T: Element, Z: SizeArray, D: Elementwise>(
    x: StridedRef<'_, T, D>,
    mask: StridedRef<'_, bool, D>,
    value: T,
) -> Result<OwnedParts<T, D, Z>, Error> {
    let rank = x.sizes.len().max(mask.sizes.len());
    let mut sizes = Z::filled(rank, 0);
    // (PyTorch names the mask tensor a in its error.)
    broadcast_sizes_into(mask.sizes, x.sizes, sizes.as_mut())?;
    let n = checked_numel(sizes.as_ref())?;
    let over = |s: &[usize], st: &[usize]| {
        let mut out = vec![0; rank];
        broadcast_strides(s, st, sizes.as_ref(), &mut out);
        out
    };
    let (xs, ms) = (over(x.sizes, x.strides), over(mask.sizes, mask.strides));
    // The value as a one-element buffer on the device, read with stride 0
    // (made from an element of `x`, which it does not read; with nothing
    // to fill, `x` itself stands in and is never read either).
    let one = match n {
        0 => None,
        _ => Some(D::map1(
            StridedRef {
                sizes: &[],
                strides: &[],
                ..x
            },
            Constant(value),
        )?),
    };
    let zeros = vec![0; rank];
    let value_ref = match &one {
        Some(buffer) => StridedRef {
            ptr: D::ptr(buffer),
            sizes: sizes.as_ref(),
            strides: &zeros,
            offset: 0,
        },
        None => StridedRef {
            sizes: sizes.as_ref(),
            strides: &zeros,
            ..x
        },
    };
    let x = StridedRef {
        sizes: sizes.as_ref(),
        strides: &xs,
        ..x
    };
    let mask = StridedRef {
        sizes: sizes.as_ref(),
        strides: &ms,
        ..mask
    };
    let buffer = D::select(sizes.as_ref(), mask, value_ref, x)?;
    Ok(owned_parts(buffer, StridedLayout::contiguous(sizes)))
}

/// `masked_select` (shape-erased): the elements where the broadcast mask
/// is true, as a vector.
fn selected<T: Element, D: Masking>(
    x: StridedRef<'_, T, D>,
    mask: StridedRef<'_, bool, D>,
) -> Result<(D::Buffer<T>, usize), Error> {
    let rank = x.sizes.len().max(mask.sizes.len());
    let mut sizes = vec![0; rank];
    broadcast_sizes_into(mask.sizes, x.sizes, &mut sizes)?;
    checked_numel(&sizes)?;
    let over = |s: &[usize], st: &[usize]| {
        let mut out = vec![0; rank];
        broadcast_strides(s, st, &sizes, &mut out);
        out
    };
    let (xs, ms) = (over(x.sizes, x.strides), over(mask.sizes, mask.strides));
    let buffer = D::masked_select(
        &sizes,
        StridedRef {
            sizes: &sizes,
            strides: &xs,
            ..x
        },
        StridedRef {
            sizes: &sizes,
            strides: &ms,
            ..mask
        },
    )?;
    let n = D::len(&buffer);
    Ok((buffer, n))
}

/// A tensor as a shape-erased operand.
macro_rules! erased {
    ($x:expr) => {
        StridedRef::new(&$x.data, &$x.layout)
    };
}

/// The rank of a static shape as a size (`nonzero`'s second dimension).
pub trait RankAsSize {
    /// The rank, as a `Dec`.
    type Size;
}
impl<S: TupleShape> RankAsSize for S
where
    S::Fwd: Len,
{
    type Size = <S::Fwd as Len>::Out;
}

impl<T: Element, S: Shape + TupleShape, D: Elementwise, R: Repr> Tensor<T, S, D, R> {
    /// `value` where `mask` is true, else the element: `mask` and `self`
    /// broadcast together (the result has their broadcast shape, computed
    /// by the compiler). Panics only for `Dyn` sizes that do not broadcast.
    pub fn masked_fill<M: MaskElement, SM: Shape, RM: Repr>(
        &self,
        mask: &Tensor<M, SM, D, RM>,
        value: T,
    ) -> Tensor<T, Broadcast<S, SM>, D>
    where
        S: BroadcastShape<SM>,
    {
        self.try_masked_fill(mask, value).or_panic()
    }

    /// [`masked_fill`](Self::masked_fill), with `Err` for `Dyn` sizes that
    /// do not broadcast.
    pub fn try_masked_fill<M: MaskElement, SM: Shape, RM: Repr>(
        &self,
        mask: &Tensor<M, SM, D, RM>,
        value: T,
    ) -> Result<Tensor<T, Broadcast<S, SM>, D>, Error>
    where
        S: BroadcastShape<SM>,
    {
        Ok(from_parts!(filled(erased!(self), mask_of!(mask), value)?))
    }
}

impl<T: Element, S: Shape, D: Elementwise, R: Writable> Tensor<T, S, D, R> {
    /// `value` written where `mask` (broadcast to `self`'s shape: the
    /// in-place rule) is true. Panics only for `Dyn` sizes that break the
    /// rule.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let mut x = Tensor::<i32, shape![2, 2]>::ones();
    /// let first_column = Tensor::<bool, shape![2, 1]>::from_vec(vec![true, false]).unwrap();
    /// x.masked_fill_(&first_column, 7);
    /// assert_eq!(x.to_vec(), [7, 7, 1, 1]);
    /// ```
    pub fn masked_fill_<M: MaskElement, SM: BroadcastInto<S>, RM: Repr>(
        &mut self,
        mask: &Tensor<M, SM, D, RM>,
        value: T,
    ) {
        self.try_masked_fill_(mask, value).or_panic()
    }

    /// [`masked_fill_`](Self::masked_fill_) on any shapes, with `Err` (and
    /// `self` untouched) when the mask does not broadcast to `self`.
    pub fn try_masked_fill_<M: MaskElement, SM: Shape, RM: Repr>(
        &mut self,
        mask: &Tensor<M, SM, D, RM>,
        value: T,
    ) -> Result<(), Error> {
        crate::shape::check_in_place(self.layout.sizes(), mask.layout.sizes())?;
        let filled: Tensor<T, DynShape, D> =
            from_parts!(filled(erased!(self), mask_of!(mask), value)?);
        self.copy_(&filled)
    }
}

impl<T: Element, S: Shape + TupleShape, D: Masking, R: Repr> Tensor<T, S, D, R> {
    /// The elements where `mask` (broadcast with `self`) is true, in
    /// row-major order: a vector whose length is known only at run time.
    pub fn masked_select<M: MaskElement, SM: Shape, RM: Repr>(
        &self,
        mask: &Tensor<M, SM, D, RM>,
    ) -> Tensor<T, (Dyn,), D>
    where
        S: BroadcastShape<SM>,
    {
        let (buffer, n) = selected(erased!(self), mask_of!(mask)).or_panic();
        Tensor::from_buffer(buffer, StridedLayout::contiguous([n]))
    }

    /// The coordinates of the non-zero elements (NaN counts), one row each
    /// in row-major order: `(count, rank)` int64.
    pub fn nonzero(&self) -> Tensor<i64, (Dyn, <S as RankAsSize>::Size), D>
    where
        S: RankAsSize,
        (Dyn, <S as RankAsSize>::Size): Shape<Sizes = [usize; 2]>,
    {
        let (buffer, n) = D::nonzero(erased!(self)).or_panic();
        let layout = StridedLayout::from_parts([n, self.layout.rank()], [1, n], 0);
        Tensor::from_buffer(buffer, layout)
    }

    /// [`nonzero`](Self::nonzero) (NumPy's name).
    pub fn argwhere(&self) -> Tensor<i64, (Dyn, <S as RankAsSize>::Size), D>
    where
        S: RankAsSize,
        (Dyn, <S as RankAsSize>::Size): Shape<Sizes = [usize; 2]>,
    {
        self.nonzero()
    }
}

impl<T: Element, D: Elementwise, R: Repr> Tensor<T, DynShape, D, R> {
    /// `masked_fill` with runtime shapes: `mask` and `self` broadcast
    /// together; PyTorch's error when they do not.
    pub fn masked_fill<M: MaskElement, SM: Shape, RM: Repr>(
        &self,
        mask: &Tensor<M, SM, D, RM>,
        value: T,
    ) -> Result<Tensor<T, DynShape, D>, Error> {
        Ok(from_parts!(filled(erased!(self), mask_of!(mask), value)?))
    }
}

impl<T: Element, D: Masking, R: Repr> Tensor<T, DynShape, D, R> {
    /// `masked_select` with runtime shapes.
    pub fn masked_select<M: MaskElement, SM: Shape, RM: Repr>(
        &self,
        mask: &Tensor<M, SM, D, RM>,
    ) -> Result<Tensor<T, DynShape, D>, Error> {
        let (buffer, n) = selected(erased!(self), mask_of!(mask))?;
        Ok(Tensor::from_buffer(
            buffer,
            StridedLayout::contiguous(crate::shape::dynamic::DynSizes::from_slice(&[n])),
        ))
    }

    /// `nonzero()`: `(count, rank)` int64 coordinates.
    pub fn nonzero(&self) -> Tensor<i64, DynShape, D> {
        let (buffer, n) = D::nonzero(erased!(self)).or_panic();
        let sizes = crate::shape::dynamic::DynSizes::from_slice(&[n, self.layout.rank()]);
        let strides = crate::shape::dynamic::DynSizes::from_slice(&[1, n]);
        Tensor::from_buffer(buffer, StridedLayout::from_parts(sizes, strides, 0))
    }

    /// `argwhere()`: [`nonzero`](Self::nonzero).
    pub fn argwhere(&self) -> Tensor<i64, DynShape, D> {
        self.nonzero()
    }
}

/// `masked_scatter_` (shape-erased): `mask` expanded to `x`'s sizes (PyTorch
/// expands it, with `expand`'s texts), then `source`'s elements in order
/// where it is true.
fn scatter_masked<T: Element, D: Masking>(
    x: StridedMut<'_, T, D>,
    mask: StridedRef<'_, bool, D>,
    source: StridedRef<'_, T, D>,
) -> Result<(), Error> {
    check_expand(mask.sizes, x.sizes, DType::Bool)?;
    let mut strides = vec![0; x.sizes.len()];
    broadcast_strides(mask.sizes, mask.strides, x.sizes, &mut strides);
    let mask = StridedRef {
        sizes: x.sizes,
        strides: &strides,
        ..mask
    };
    // The source in row-major order: as it is, or a contiguous copy.
    let copy;
    let source = if is_contiguous(source.sizes, source.strides) {
        source
    } else {
        copy = D::map1(StridedRef { ..source }, Identity)?;
        StridedRef {
            ptr: D::ptr(&copy),
            sizes: source.sizes,
            strides: source.strides,
            offset: 0,
        }
    };
    D::masked_scatter(x, mask, source)
}

impl<T: Element, S: Shape, D: Masking, R: Writable> Tensor<T, S, D, R> {
    /// `masked_scatter_(mask, source)`: where `mask` (expanded to `self`'s
    /// shape) is true, `source`'s elements in row-major order. `Err`, with
    /// `self` untouched, when the mask does not expand to `self` or
    /// `source` has fewer elements than the mask has trues.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let mut x = DynTensor::<i32>::zeros(&[2, 3]);
    /// let mask = DynTensor::<bool>::from_vec(vec![true, false, true], &[3]).unwrap();
    /// x.masked_scatter_(&mask, &DynTensor::<i32>::from_vec(vec![1, 2, 3, 4], &[4]).unwrap()).unwrap();
    /// assert_eq!(x.to_vec(), [1, 0, 2, 3, 0, 4]);
    /// ```
    pub fn masked_scatter_<M: MaskElement, SM: Shape, RM: Repr, SS: Shape, RS: Repr>(
        &mut self,
        mask: &Tensor<M, SM, D, RM>,
        source: &Tensor<T, SS, D, RS>,
    ) -> Result<(), Error> {
        let ptr = R::ptr_mut(&mut self.data);
        let x = StridedMut {
            ptr,
            sizes: self.layout.sizes(),
            strides: self.layout.strides(),
            offset: self.layout.offset(),
        };
        scatter_masked(x, mask_of!(mask), erased!(source))
    }
}

impl<T: Element, D: Masking, R: Repr> Tensor<T, DynShape, D, R> {
    /// `masked_scatter(mask, source)`: `self` and `mask` broadcast together
    /// into a new tensor, then [`masked_scatter_`](Tensor::masked_scatter_).
    pub fn masked_scatter<M: MaskElement, SM: Shape, RM: Repr, SS: Shape, RS: Repr>(
        &self,
        mask: &Tensor<M, SM, D, RM>,
        source: &Tensor<T, SS, D, RS>,
    ) -> Result<Tensor<T, DynShape, D>, Error> {
        let rank = self.layout.rank().max(mask.layout.rank());
        let mut sizes = vec![0; rank];
        broadcast_sizes_into(mask.layout.sizes(), self.layout.sizes(), &mut sizes)?;
        let mut out = self.try_expand_as_dyn(&sizes)?;
        out.masked_scatter_(mask, source)?;
        Ok(out)
    }

    /// `nonzero(as_tuple=True)`: one int64 vector of coordinates per
    /// dimension (a rank-0 tensor counts as one dimension).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = DynTensor::<f32>::from_vec(vec![0.0, 1.0, 2.0, 0.0], &[2, 2]).unwrap();
    /// let [rows, cols] = x.nonzero_as_tuple().try_into().unwrap();
    /// assert_eq!((rows.to_vec(), cols.to_vec()), (vec![0, 1], vec![1, 0]));
    /// ```
    pub fn nonzero_as_tuple(&self) -> Vec<Tensor<i64, DynShape, D>> {
        let all = self.nonzero();
        if self.layout.rank() == 0 {
            // One vector: `[0]` for a non-zero element, empty for zero.
            let n = all.layout.sizes()[0];
            let zeros = D::map1(
                StridedRef {
                    sizes: &[n],
                    strides: &[0],
                    ..erased!(all)
                },
                Constant(0i64),
            )
            .or_panic();
            let sizes = crate::shape::dynamic::DynSizes::from_slice(&[n]);
            return vec![Tensor::from_buffer(zeros, StridedLayout::contiguous(sizes))];
        }
        (0..self.layout.rank())
            .map(|k| all.select(1, k as isize).or_panic().clone())
            .collect()
    }
}

impl<T: Element, D: Masking, R: Repr> Tensor<T, DynShape, D, R> {
    /// `self` expanded to `sizes` as a new contiguous tensor.
    fn try_expand_as_dyn(&self, sizes: &[usize]) -> Result<Tensor<T, DynShape, D>, Error> {
        let mut strides = vec![0; sizes.len()];
        broadcast_strides(
            self.layout.sizes(),
            self.layout.strides(),
            sizes,
            &mut strides,
        );
        let buffer = D::map1(
            StridedRef {
                sizes,
                strides: &strides,
                ..erased!(self)
            },
            Identity,
        )?;
        let layout = StridedLayout::contiguous(crate::shape::dynamic::DynSizes::from_slice(sizes));
        Ok(Tensor::from_buffer(buffer, layout))
    }
}
