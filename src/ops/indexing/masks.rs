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

use crate::backend::{Elementwise, Masking, StridedRef};
use crate::dtype::Element;
use crate::error::{Error, OrPanic};
use crate::layout::{StridedLayout, checked_numel};
use crate::ops::broadcast_strides;
use crate::ops::functions::Constant;
use crate::shape::digits::Len;
use crate::shape::dynamic::DynShape;
use crate::shape::list::TupleShape;
use crate::shape::{
    Broadcast, BroadcastInto, BroadcastShape, Dyn, Shape, SizeArray, broadcast_sizes_into,
};
use crate::storage::{Repr, Writable};
use crate::tensor::{OwnedParts, Tensor, from_parts, owned_parts};

/// `where(mask, value, x)` over the broadcast of `x` and `mask`, into a
/// new tensor's parts (shape-erased).
fn filled<T: Element, Z: SizeArray, D: Elementwise>(
    x: StridedRef<'_, T, D>,
    mask: StridedRef<'_, bool, D>,
    value: T,
) -> Result<OwnedParts<T, D, Z>, Error> {
    let rank = x.sizes.len().max(mask.sizes.len());
    let mut sizes = Z::filled(rank, 0);
    broadcast_sizes_into(x.sizes, mask.sizes, sizes.as_mut())?;
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
    broadcast_sizes_into(x.sizes, mask.sizes, &mut sizes)?;
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
    pub fn masked_fill<SM: Shape, RM: Repr>(
        &self,
        mask: &Tensor<bool, SM, D, RM>,
        value: T,
    ) -> Tensor<T, Broadcast<S, SM>, D>
    where
        S: BroadcastShape<SM>,
    {
        self.try_masked_fill(mask, value).or_panic()
    }

    /// [`masked_fill`](Self::masked_fill), with `Err` for `Dyn` sizes that
    /// do not broadcast.
    pub fn try_masked_fill<SM: Shape, RM: Repr>(
        &self,
        mask: &Tensor<bool, SM, D, RM>,
        value: T,
    ) -> Result<Tensor<T, Broadcast<S, SM>, D>, Error>
    where
        S: BroadcastShape<SM>,
    {
        Ok(from_parts!(filled(erased!(self), erased!(mask), value)?))
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
    pub fn masked_fill_<SM: BroadcastInto<S>, RM: Repr>(
        &mut self,
        mask: &Tensor<bool, SM, D, RM>,
        value: T,
    ) {
        self.try_masked_fill_(mask, value).or_panic()
    }

    /// [`masked_fill_`](Self::masked_fill_) on any shapes, with `Err` (and
    /// `self` untouched) when the mask does not broadcast to `self`.
    pub fn try_masked_fill_<SM: Shape, RM: Repr>(
        &mut self,
        mask: &Tensor<bool, SM, D, RM>,
        value: T,
    ) -> Result<(), Error> {
        crate::shape::check_in_place(self.layout.sizes(), mask.layout.sizes())?;
        let filled: Tensor<T, DynShape, D> =
            from_parts!(filled(erased!(self), erased!(mask), value)?);
        self.copy_(&filled)
    }
}

impl<T: Element, S: Shape + TupleShape, D: Masking, R: Repr> Tensor<T, S, D, R> {
    /// The elements where `mask` (broadcast with `self`) is true, in
    /// row-major order: a vector whose length is known only at run time.
    pub fn masked_select<SM: Shape, RM: Repr>(
        &self,
        mask: &Tensor<bool, SM, D, RM>,
    ) -> Tensor<T, (Dyn,), D>
    where
        S: BroadcastShape<SM>,
    {
        let (buffer, n) = selected(erased!(self), erased!(mask)).or_panic();
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
        Tensor::from_buffer(buffer, StridedLayout::contiguous([n, self.layout.rank()]))
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

impl<T: Element, D: Masking, R: Repr> Tensor<T, DynShape, D, R> {
    /// `masked_fill` with runtime shapes: `mask` and `self` broadcast
    /// together; PyTorch's error when they do not.
    pub fn masked_fill<SM: Shape, RM: Repr>(
        &self,
        mask: &Tensor<bool, SM, D, RM>,
        value: T,
    ) -> Result<Tensor<T, DynShape, D>, Error> {
        Ok(from_parts!(filled(erased!(self), erased!(mask), value)?))
    }

    /// `masked_select` with runtime shapes.
    pub fn masked_select<SM: Shape, RM: Repr>(
        &self,
        mask: &Tensor<bool, SM, D, RM>,
    ) -> Result<Tensor<T, DynShape, D>, Error> {
        let (buffer, n) = selected(erased!(self), erased!(mask))?;
        Ok(Tensor::from_buffer(
            buffer,
            StridedLayout::contiguous(crate::shape::dynamic::DynSizes::from_slice(&[n])),
        ))
    }

    /// `nonzero()`: `(count, rank)` int64 coordinates.
    pub fn nonzero(&self) -> Tensor<i64, DynShape, D> {
        let (buffer, n) = D::nonzero(erased!(self)).or_panic();
        let sizes = crate::shape::dynamic::DynSizes::from_slice(&[n, self.layout.rank()]);
        Tensor::from_buffer(buffer, StridedLayout::contiguous(sizes))
    }

    /// `argwhere()`: [`nonzero`](Self::nonzero).
    pub fn argwhere(&self) -> Tensor<i64, DynShape, D> {
        self.nonzero()
    }
}
