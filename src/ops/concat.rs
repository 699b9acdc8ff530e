//! `cat` and `stack`: tensors joined along a dimension.
//!
//! Static shapes get the result's size from the compiler:
//! - [`(&a, &b).cat::<AXIS>()`](Concat::cat), a tuple of two or three
//!   parts whose sizes may differ along `AXIS` (the result's size there is
//!   the sum, computed at compile time); `[&a, &b, &c].cat::<AXIS>()`, an
//!   array of parts of one shape (the size times the count).
//! - [`[&a, &b].stack::<AXIS>()`](Concat::stack), parts of one shape,
//!   stacked along a new dimension at `AXIS`; also a tuple of two.
//!
//! Shapes that cannot join (different ranks, a size that differs outside
//! `AXIS`, an axis past the rank) do not compile (`ui-tests/fail/cat_*.rs`).
//! `Dyn` sizes are checked at run time; the `try_` forms return PyTorch's
//! error. Runtime lists: [`Tensor::cat`] and [`Tensor::stack`] on
//! `DynTensor`, and [`AnyTensor::cat`], which promotes mixed dtypes as
//! `torch.cat` does.
//!
//! Each part is copied into its block of the output by the backend
//! ([`Elementwise::concatenate`]): on the CPU by the elementwise engine
//! (contiguous runs as plain row copies, transposed parts through the tiled
//! path, large parts across threads), on CUDA by the copy kernel, one launch
//! per part. The parts of one `cat` live on one device.
//!
//! ```
//! use shaped::prelude::*;
//! let a = Tensor::<f32, shape![2, 3]>::ones();
//! let b = Tensor::<f32, shape![2, 5]>::zeros();
//! let c: Tensor<f32, shape![2, 8]> = (&a, &b).cat::<1>();
//! let s: Tensor<f32, shape![2, 2, 3]> = [&a, &a].stack::<1>();
//! assert_eq!((c.shape(), s.shape()), ([2, 8], [2, 2, 3]));
//! ```

use crate::backend::Elementwise;
use crate::backend::StridedRef;
use crate::backend::cpu::{try_collect, try_collect_small, try_vec_with_capacity};
use crate::dtype::{DType, Element, with_dtype};
use crate::dynamic::{AnyElement, AnyTensor, Converted, DynShape, DynTensor};
use crate::dynamic::{typed_parts, viewed};
use crate::error::Error;
use crate::error::OrPanic;
use crate::layout::views::wrap_dim;
use crate::layout::{StridedLayout, array_from, checked_numel};
use crate::shape::concat::{CatWith, Repeated, SameRank, SameSizes, Stacked};
use crate::shape::{Shape, SizeArray};
use crate::storage::Repr;
use crate::tensor::{OwnedParts, Tensor, from_parts, owned_parts};
use smallvec::SmallVec;

/// The operands of one `cat` or `stack`, shape-erased.
type Parts<'a, T, D> = SmallVec<[StridedRef<'a, T, D>; 4]>;

/// Whether PyTorch skips this part of a `cat`: a 1-d tensor of size 0 (a
/// legacy rule: such a tensor joins any list).
fn skipped(sizes: &[usize]) -> bool {
    sizes == [0]
}

/// The result sizes of `cat` along `dim`, or PyTorch's error.
pub(crate) fn cat_sizes(parts: &[&[usize]], dim: isize) -> Result<(usize, Vec<usize>), Error> {
    if parts.is_empty() {
        return Err(Error::EmptyTensorList { op: "cat" });
    }
    if let Some(position) = parts.iter().position(|s| s.is_empty()) {
        return Err(Error::CatZeroDim { position });
    }
    let Some(first) = parts.iter().position(|s| !skipped(s)) else {
        return Ok((0, vec![0]));
    };
    let reference = parts[first];
    let axis = wrap_dim(dim, reference.len())?;
    let mut out = reference.to_vec();
    out[axis] = 0;
    for (k, sizes) in parts.iter().enumerate() {
        if skipped(sizes) {
            continue;
        }
        if sizes.len() != reference.len() {
            return Err(Error::CatRank {
                first: reference.len(),
                other: sizes.len(),
            });
        }
        for (d, (&want, &got)) in reference.iter().zip(sizes.iter()).enumerate() {
            if d != axis && want != got {
                return Err(Error::CatSizes {
                    dim: axis,
                    expected: want,
                    actual: got,
                    tensor: k,
                });
            }
        }
        out[axis] = out[axis]
            .checked_add(sizes[axis])
            .ok_or_else(|| Error::StorageOverflow { sizes: out.clone() })?;
    }
    checked_numel(&out)?;
    Ok((axis, out))
}

/// The dimension `stack` inserts, after checking that every part has the
/// first one's sizes, or PyTorch's error.
pub(crate) fn stack_axis(parts: &[&[usize]], dim: isize) -> Result<usize, Error> {
    let Some(first) = parts.first() else {
        return Err(Error::EmptyTensorList { op: "stack" });
    };
    let axis = wrap_dim(dim, first.len() + 1)?;
    if let Some(index) = parts.iter().position(|s| s != first) {
        return Err(Error::StackSizes {
            first: first.to_vec(),
            index,
            other: parts[index].to_vec(),
        });
    }
    Ok(axis)
}

/// `cat` of shape-erased parts, as the output's parts: generic over the
/// output's size array rather than its shape, so one copy serves every
/// shape of a rank.
fn cat_buffer<T: Element, A: SizeArray, D: Elementwise>(
    parts: &[StridedRef<'_, T, D>],
    dim: isize,
) -> Result<OwnedParts<T, D, A>, Error> {
    let sizes: SmallVec<[&[usize]; 4]> = try_collect_small(parts.iter().map(|p| p.sizes))?;
    let (axis, out) = cat_sizes(&sizes, dim)?;
    // SAFETY: `cat_sizes` checked that the list is not empty and that the
    // parts of the output's rank fill it along `axis`.
    let buffer = unsafe { D::concatenate(parts, axis, &out)? };
    Ok(owned_parts(
        buffer,
        StridedLayout::contiguous(array_from(&out)),
    ))
}

/// `stack` of shape-erased parts (each gains a dimension of size 1 at the
/// axis, then they are concatenated), as the output's parts, generic over
/// its size array.
fn stack_buffer<T: Element, A: SizeArray, D: Elementwise>(
    parts: &[StridedRef<'_, T, D>],
    dim: isize,
) -> Result<OwnedParts<T, D, A>, Error> {
    let sizes: SmallVec<[&[usize]; 4]> = try_collect_small(parts.iter().map(|p| p.sizes))?;
    let axis = stack_axis(&sizes, dim)?;
    let with_axis = |v: &[usize], x: usize| {
        let mut v = v.to_vec();
        v.insert(axis, x);
        v
    };
    let out = with_axis(parts[0].sizes, parts.len());
    checked_numel(&out)?;
    // Every part has the first one's sizes: one unsqueezed size list serves
    // all; each part keeps its strides (a stride 0 inserted).
    let unsqueezed_sizes = with_axis(parts[0].sizes, 1);
    let strides: Vec<Vec<usize>> = try_collect(parts.iter().map(|p| with_axis(p.strides, 0)))?;
    let unsqueezed: Parts<'_, T, D> =
        try_collect_small(parts.iter().zip(&strides).map(|(p, strides)| StridedRef {
            ptr: p.ptr,
            sizes: &unsqueezed_sizes,
            strides,
            offset: p.offset,
        }))?;
    // SAFETY: `stack_axis` checked that the list is not empty and that every
    // part has the first one's sizes: with a 1 inserted at `axis`, they fill
    // the output (whose size there is their count) along it.
    let buffer = unsafe { D::concatenate(&unsqueezed, axis, &out)? };
    Ok(owned_parts(
        buffer,
        StridedLayout::contiguous(array_from(&out)),
    ))
}

/// The parts of a static `cat` along `AXIS`: a tuple of two or three
/// tensors whose sizes may differ along `AXIS`, or an array of tensors of
/// one shape.
#[diagnostic::on_unimplemented(
    message = "`cat` cannot join these parts: they must have one element type and live on one device",
    label = "not a tuple of 2 or 3 tensors of one element type and device, nor an array of tensors of one shape",
    note = "a static `cat` joins one element type: `cast::<U>()` a part first, or use `AnyTensor::cat`, which promotes",
    note = "parts on different devices: `.to_device(&gpu)?` or `.to_cpu()?` one of them first"
)]
pub trait CatParts<const AXIS: usize> {
    /// The element type.
    type Elem: Element;
    /// The result's shape.
    type Output: Shape;
    /// The device the parts and the result live on.
    type Device: Elementwise;
    /// The parts, shape-erased.
    fn strided(&self) -> Parts<'_, Self::Elem, Self::Device>;
}

/// The parts of a static `stack` along `AXIS`: tensors of one shape.
#[diagnostic::on_unimplemented(
    message = "`stack` cannot join these parts: they must have one element type and shape, and live on one device",
    label = "not a pair or an array of tensors of one element type, shape and device",
    note = "a static `stack` joins one element type: `cast::<U>()` a part first, or use `AnyTensor::stack`, which promotes",
    note = "parts on different devices: `.to_device(&gpu)?` or `.to_cpu()?` one of them first"
)]
pub trait StackParts<const AXIS: usize> {
    /// The element type.
    type Elem: Element;
    /// The result's shape.
    type Output: Shape;
    /// The device the parts and the result live on.
    type Device: Elementwise;
    /// The parts, shape-erased.
    fn strided(&self) -> Parts<'_, Self::Elem, Self::Device>;
}

impl<T: Element, S, D: Elementwise, R: Repr, const AXIS: usize, const N: usize> CatParts<AXIS>
    for [&Tensor<T, S, D, R>; N]
where
    S: Shape + Repeated<AXIS, N>,
{
    type Elem = T;
    type Output = <S as Repeated<AXIS, N>>::Output;
    type Device = D;
    fn strided(&self) -> Parts<'_, T, D> {
        self.iter().map(|t| t.strided()).collect()
    }
}

impl<T: Element, S, D: Elementwise, R: Repr, const AXIS: usize, const N: usize> StackParts<AXIS>
    for [&Tensor<T, S, D, R>; N]
where
    S: Shape + Stacked<AXIS, N>,
{
    type Elem = T;
    type Output = <S as Stacked<AXIS, N>>::Output;
    type Device = D;
    fn strided(&self) -> Parts<'_, T, D> {
        self.iter().map(|t| t.strided()).collect()
    }
}

/// `CatParts` for a tuple: `$out` is the result shape, `$bounds` what it
/// needs.
macro_rules! cat_tuple {
    ($(($($t:ident $s:ident $r:ident $i:tt),*) => $out:ty where [$($bounds:tt)*];)*) => {$(
        impl<'t, T: Element, D: Elementwise, $($s: Shape, $r: Repr,)* const AXIS: usize> CatParts<AXIS>
            for ($(&'t Tensor<T, $s, D, $r>,)*)
        where
            $($bounds)*
        {
            type Elem = T;
            type Output = $out;
            type Device = D;
            fn strided(&self) -> Parts<'_, T, D> {
                [$(StridedRef::new(&self.$i.data, &self.$i.layout)),*].into_iter().collect()
            }
        }
    )*};
}

cat_tuple! {
    (A S1 R1 0, B S2 R2 1) => <S1 as CatWith<AXIS, S2>>::Output
        where [S1: CatWith<AXIS, S2>];
    (A S1 R1 0, B S2 R2 1, C S3 R3 2) => <<S1 as CatWith<AXIS, S2>>::Output as CatWith<AXIS, S3>>::Output
        where [S1: CatWith<AXIS, S2>, <S1 as CatWith<AXIS, S2>>::Output: CatWith<AXIS, S3>];
}

impl<'t, T: Element, D: Elementwise, S1, S2, R1: Repr, R2: Repr, const AXIS: usize> StackParts<AXIS>
    for (&'t Tensor<T, S1, D, R1>, &'t Tensor<T, S2, D, R2>)
where
    S1: Shape + SameRank<S2> + SameSizes<S2> + Stacked<AXIS, 2>,
    S2: Shape,
{
    type Elem = T;
    type Output = <S1 as Stacked<AXIS, 2>>::Output;
    type Device = D;
    fn strided(&self) -> Parts<'_, T, D> {
        let (a, b) = self;
        [
            StridedRef::new(&a.data, &a.layout),
            StridedRef::new(&b.data, &b.layout),
        ]
        .into_iter()
        .collect()
    }
}

/// The tensor that `cat` along `AXIS` makes of the parts `P`.
///
/// ```
/// use shaped::ops::concat::CatOf;
/// use shaped::prelude::*;
/// let (a, b) = (Tensor::<f32, shape![2, 3]>::ones(), Tensor::<f32, shape![2, 1]>::zeros());
/// let c: CatOf<(&Tensor<f32, shape![2, 3]>, &Tensor<f32, shape![2, 1]>), 1> = (&a, &b).cat::<1>();
/// assert_eq!(c.shape(), [2, 4]);
/// ```
pub type CatOf<P, const AXIS: usize> = Tensor<
    <P as CatParts<AXIS>>::Elem,
    <P as CatParts<AXIS>>::Output,
    <P as CatParts<AXIS>>::Device,
>;

/// The tensor that `stack` along `AXIS` makes of the parts `P`.
///
/// ```
/// use shaped::ops::concat::StackOf;
/// use shaped::prelude::*;
/// let a = Tensor::<i32, shape![3]>::ones();
/// let s: StackOf<[&Tensor<i32, shape![3]>; 2], 0> = [&a, &a].stack::<0>();
/// assert_eq!(s.shape(), [2, 3]);
/// ```
pub type StackOf<P, const AXIS: usize> = Tensor<
    <P as StackParts<AXIS>>::Elem,
    <P as StackParts<AXIS>>::Output,
    <P as StackParts<AXIS>>::Device,
>;

/// `cat` and `stack` of static tensors, the result's shape computed at
/// compile time: methods of the parts, a tuple `(&a, &b)` or `(&a, &b, &c)`
/// (sizes may differ along the axis; the result has their sum) or an array
/// `[&a, &b, ..]` of tensors of one shape. `Dyn` sizes are checked at run
/// time: the plain forms panic with PyTorch's message, the `try_` forms
/// return it.
///
/// ```
/// use shaped::prelude::*;
/// let a = Tensor::<i32, shape![2, 2]>::from_vec(vec![1, 2, 3, 4]).unwrap();
/// let b = Tensor::<i32, shape![1, 2]>::from_vec(vec![5, 6]).unwrap();
/// let c: Tensor<i32, shape![3, 2]> = (&a, &b).cat::<0>();
/// assert_eq!(c.to_vec(), vec![1, 2, 3, 4, 5, 6]);
/// let d: Tensor<i32, shape![2, 6]> = [&a, &a, &a].cat::<1>();
/// assert_eq!(d.to_vec()[..6], [1, 2, 1, 2, 1, 2]);
/// let s: Tensor<i32, shape![2, 2, 2]> = [&a, &a].stack::<2>();
/// assert_eq!(s[[1, 0, 1]], 3);
/// ```
pub trait Concat: Sized {
    /// The parts joined along dimension `AXIS`.
    fn cat<const AXIS: usize>(self) -> CatOf<Self, AXIS>
    where
        Self: CatParts<AXIS>,
    {
        from_parts!(cat_buffer(&CatParts::<AXIS>::strided(&self), AXIS as isize).or_panic())
    }

    /// [`cat`](Concat::cat), or `Err` with PyTorch's message when `Dyn`
    /// sizes disagree.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let a = Tensor::<f32, shape![Dyn, 2]>::zeros_with(&[3, 2]);
    /// let b = Tensor::<f32, shape![Dyn, 3]>::zeros_with(&[4, 3]);
    /// assert_eq!(
    ///     (&a, &b).try_cat::<1>().unwrap_err().to_string(),
    ///     "Sizes of tensors must match except in dimension 1. Expected size 3 but got size 4 for tensor number 1 in the list."
    /// );
    /// ```
    fn try_cat<const AXIS: usize>(self) -> Result<CatOf<Self, AXIS>, Error>
    where
        Self: CatParts<AXIS>,
    {
        Ok(from_parts!(cat_buffer(
            &CatParts::<AXIS>::strided(&self),
            AXIS as isize
        )?))
    }

    /// The parts (of one shape) stacked along a new dimension at `AXIS`,
    /// whose size is the number of parts.
    fn stack<const AXIS: usize>(self) -> StackOf<Self, AXIS>
    where
        Self: StackParts<AXIS>,
    {
        from_parts!(stack_buffer(&StackParts::<AXIS>::strided(&self), AXIS as isize).or_panic())
    }

    /// [`stack`](Concat::stack), or `Err` with PyTorch's message when `Dyn`
    /// sizes disagree.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let a = Tensor::<f32, shape![Dyn]>::zeros_with(&[3]);
    /// let b = Tensor::<f32, shape![Dyn]>::zeros_with(&[4]);
    /// assert_eq!(
    ///     [&a, &b].try_stack::<0>().unwrap_err().to_string(),
    ///     "stack expects each tensor to be equal size, but got [3] at entry 0 and [4] at entry 1"
    /// );
    /// ```
    fn try_stack<const AXIS: usize>(self) -> Result<StackOf<Self, AXIS>, Error>
    where
        Self: StackParts<AXIS>,
    {
        Ok(from_parts!(stack_buffer(
            &StackParts::<AXIS>::strided(&self),
            AXIS as isize
        )?))
    }
}

impl<T: Element, S: Shape, D: Elementwise, R: Repr, const N: usize> Concat
    for [&Tensor<T, S, D, R>; N]
{
}
impl<
    't,
    T1: Element,
    T2: Element,
    S1: Shape,
    S2: Shape,
    D1: Elementwise,
    D2: Elementwise,
    R1: Repr,
    R2: Repr,
> Concat for (&'t Tensor<T1, S1, D1, R1>, &'t Tensor<T2, S2, D2, R2>)
{
}
impl<'t, T1, T2, T3, S1, S2, S3, D1, D2, D3, R1, R2, R3> Concat
    for (
        &'t Tensor<T1, S1, D1, R1>,
        &'t Tensor<T2, S2, D2, R2>,
        &'t Tensor<T3, S3, D3, R3>,
    )
where
    D1: Elementwise,
    D2: Elementwise,
    D3: Elementwise,
    T1: Element,
    T2: Element,
    T3: Element,
    S1: Shape,
    S2: Shape,
    S3: Shape,
    R1: Repr,
    R2: Repr,
    R3: Repr,
{
}

impl<T: Element, D: Elementwise> Tensor<T, DynShape, D> {
    /// `torch.cat(parts, dim)`: tensors of one element type joined along
    /// `dim` (negative counts from the end); `Err` with PyTorch's message for
    /// an empty list, a rank-0 part, different ranks, or sizes that differ
    /// outside `dim`. A 1-d part of size 0 is skipped, as in PyTorch.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let a = DynTensor::<f32>::ones(&[2, 2]);
    /// let b = DynTensor::<f32>::ones(&[3, 3]);
    /// assert_eq!(DynTensor::cat(&[&a, &a], -1).unwrap().shape(), [2, 4]);
    /// assert_eq!(
    ///     DynTensor::cat(&[&a, &b], 1).unwrap_err().to_string(),
    ///     "Sizes of tensors must match except in dimension 1. Expected size 2 but got size 3 for tensor number 1 in the list."
    /// );
    /// ```
    pub fn cat<S: Shape, R: Repr>(
        parts: &[&Tensor<T, S, D, R>],
        dim: isize,
    ) -> Result<Tensor<T, DynShape, D>, Error> {
        let strided: Parts<'_, T, D> = try_collect_small(parts.iter().map(|t| t.strided()))?;
        Ok(from_parts!(cat_buffer(&strided, dim)?))
    }

    /// `torch.stack(parts, dim)`: tensors of one shape stacked along a new
    /// dimension `dim`; `Err` with PyTorch's message for an empty list,
    /// different shapes, or `dim` out of range.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let a = DynTensor::<f32>::ones(&[2, 3]);
    /// let b = DynTensor::<f32>::ones(&[2, 4]);
    /// assert_eq!(DynTensor::stack(&[&a, &a], -1).unwrap().shape(), [2, 3, 2]);
    /// assert_eq!(
    ///     DynTensor::stack(&[&a, &b], 0).unwrap_err().to_string(),
    ///     "stack expects each tensor to be equal size, but got [2, 3] at entry 0 and [2, 4] at entry 1"
    /// );
    /// ```
    pub fn stack<S: Shape, R: Repr>(
        parts: &[&Tensor<T, S, D, R>],
        dim: isize,
    ) -> Result<Tensor<T, DynShape, D>, Error> {
        let strided: Parts<'_, T, D> = try_collect_small(parts.iter().map(|t| t.strided()))?;
        Ok(from_parts!(stack_buffer(&strided, dim)?))
    }
}

/// `DynTensor::stack` (or `cat`) of the parts, all converted to `T`.
fn joined_as<T: AnyElement, D: Elementwise, R: Repr>(
    parts: &[Converted<'_, D, R>],
    stack: bool,
    dim: isize,
) -> Result<AnyTensor<D>, Error>
where
    AnyTensor<D>: From<DynTensor<T, D>>,
{
    let views = viewed(parts)?;
    let typed = typed_parts::<T, D>(&views)?;
    Ok(AnyTensor::from(if stack {
        DynTensor::stack(&typed, dim)?
    } else {
        DynTensor::cat(&typed, dim)?
    }))
}

impl<D: Elementwise, R: Repr> AnyTensor<D, R> {
    /// Converts every part to the dtype all of them promote to (as
    /// `torch.cat` does), then applies `cat` or `stack`.
    #[inline]
    fn join(parts: &[&AnyTensor<D, R>], dim: isize, stack: bool) -> Result<AnyTensor<D>, Error> {
        let Some(first) = parts.first() else {
            let op = if stack { "stack" } else { "cat" };
            return Err(Error::EmptyTensorList { op });
        };
        let common = parts
            .iter()
            .fold(first.dtype(), |acc, p| DType::promote(acc, p.dtype()));
        let mut converted = try_vec_with_capacity(parts.len())?;
        for p in parts {
            // Within the capacity reserved: no further allocation.
            converted.push(p.as_dtype(common)?);
        }
        with_dtype!(common, T => joined_as::<T, D, R>(&converted, stack, dim))
    }

    /// `torch.cat` with runtime dtypes: the parts are promoted to one dtype
    /// (`promote_types` over all of them), then joined along `dim`.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let a = AnyTensor::from(DynTensor::<i32>::ones(&[2]));
    /// let b = AnyTensor::from(DynTensor::<half::f16>::ones(&[2]));
    /// let c = AnyTensor::cat(&[&a, &b], 0).unwrap();
    /// assert_eq!((c.dtype(), c.shape()), (DType::F16, vec![4]));
    /// ```
    #[inline]
    pub fn cat(parts: &[&AnyTensor<D, R>], dim: isize) -> Result<AnyTensor<D>, Error> {
        AnyTensor::join(parts, dim, false)
    }

    /// `torch.stack` with runtime dtypes, promoted as [`AnyTensor::cat`].
    ///
    /// ```
    /// use shaped::prelude::*;
    /// assert_eq!(
    ///     AnyTensor::<Cpu>::stack(&[], 0).unwrap_err().to_string(),
    ///     "stack expects a non-empty TensorList"
    /// );
    /// ```
    #[inline]
    pub fn stack(parts: &[&AnyTensor<D, R>], dim: isize) -> Result<AnyTensor<D>, Error> {
        AnyTensor::join(parts, dim, true)
    }
}
