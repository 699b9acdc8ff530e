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
//! Each part is copied by the elementwise engine into its block of the
//! output: contiguous runs as plain row copies, transposed parts through the
//! tiled path, large parts across threads.
//!
//! ```
//! use shaped::prelude::*;
//! let a = Tensor::<f32, shape![2, 3]>::ones();
//! let b = Tensor::<f32, shape![2, 5]>::zeros();
//! let c: Tensor<f32, shape![2, 8]> = (&a, &b).cat::<1>();
//! let s: Tensor<f32, shape![2, 2, 3]> = [&a, &a].stack::<1>();
//! assert_eq!((c.shape(), s.shape()), ([2, 8], [2, 2, 3]));
//! ```

use super::kernels::{Identity, write_map1_strided};
use crate::dtype::{DType, Element, with_dtype};
use crate::dynamic::{AnyElement, AnyTensor, DynShape, DynTensor};
use crate::error::Error;
use crate::layout::views::wrap_dim;
use crate::layout::{Layout, array_from, checked_numel, contiguous_strides};
use crate::shape::Shape;
use crate::shape::concat::{CatWith, Repeated, SameRank, SameSizes, Stacked};
use crate::storage::cpu::{CpuBuffer, CpuPtr};
use crate::storage::{Cpu, Owned, Repr, StridedRef};
use crate::tensor::Tensor;
use smallvec::SmallVec;

/// The operands of one `cat` or `stack`, shape-erased.
type Parts<'a, T> = SmallVec<[StridedRef<'a, T, Cpu>; 4]>;

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

/// Copies `parts` into a new buffer of `out_sizes`, one after another along
/// `axis` (parts PyTorch skips are skipped).
fn cat_into<T: Element>(
    parts: &[StridedRef<'_, T, Cpu>],
    axis: usize,
    out_sizes: &[usize],
) -> Result<CpuBuffer<T>, Error> {
    let strides: Vec<usize> = contiguous_strides(out_sizes);
    let numel = checked_numel(out_sizes)?;
    CpuBuffer::try_new_with(numel, |dst| {
        let dst = CpuPtr::from_mut(dst);
        let mut start = 0;
        for part in parts.iter().filter(|p| p.sizes.len() == out_sizes.len()) {
            // SAFETY: the part's sizes equal the output's except along
            // `axis`, where the blocks `start..start + size` of successive
            // parts are disjoint and end at the output's size (checked by
            // `cat_sizes`), so every index written lies inside the fresh
            // output, once.
            unsafe {
                write_map1_strided(dst, &strides, start * strides[axis], *part, Identity);
            }
            start += part.sizes[axis];
        }
    })
}

/// `cat` of shape-erased parts into a tensor of shape `S`.
fn cat_parts<T: Element, S: Shape>(
    parts: &[StridedRef<'_, T, Cpu>],
    dim: isize,
) -> Result<Tensor<T, S, Cpu>, Error> {
    let sizes: SmallVec<[&[usize]; 4]> = parts.iter().map(|p| p.sizes).collect();
    let (axis, out) = cat_sizes(&sizes, dim)?;
    let buffer = cat_into(parts, axis, &out)?;
    Ok(Tensor::from_buffer(
        buffer,
        Layout::contiguous(array_from::<S>(&out)),
    ))
}

/// `stack` of shape-erased parts into a tensor of shape `S`: each part
/// gains a dimension of size 1 at the axis, then they are concatenated.
fn stack_parts<T: Element, S: Shape>(
    parts: &[StridedRef<'_, T, Cpu>],
    dim: isize,
) -> Result<Tensor<T, S, Cpu>, Error> {
    let sizes: SmallVec<[&[usize]; 4]> = parts.iter().map(|p| p.sizes).collect();
    let axis = stack_axis(&sizes, dim)?;
    let with_axis = |v: &[usize], x: usize| {
        let mut v = v.to_vec();
        v.insert(axis, x);
        v
    };
    let layouts: Vec<(Vec<usize>, Vec<usize>)> = parts
        .iter()
        .map(|p| (with_axis(p.sizes, 1), with_axis(p.strides, 0)))
        .collect();
    let unsqueezed: Parts<'_, T> = parts
        .iter()
        .zip(&layouts)
        .map(|(p, (sizes, strides))| StridedRef {
            ptr: p.ptr,
            sizes,
            strides,
            offset: p.offset,
        })
        .collect();
    let out = with_axis(parts[0].sizes, parts.len());
    checked_numel(&out)?;
    let buffer = cat_into(&unsqueezed, axis, &out)?;
    Ok(Tensor::from_buffer(
        buffer,
        Layout::contiguous(array_from::<S>(&out)),
    ))
}

/// The parts of a static `cat` along `AXIS`: a tuple of two or three
/// tensors whose sizes may differ along `AXIS`, or an array of tensors of
/// one shape.
#[diagnostic::on_unimplemented(
    message = "`cat` cannot join `{Self}`",
    label = "not a tuple of 2 or 3 tensors of one element type, nor an array of tensors of one shape",
    note = "a static `cat` joins one element type: `cast::<U>()` a part first, or use `AnyTensor::cat`, which promotes"
)]
pub trait CatParts<const AXIS: usize> {
    /// The element type.
    type Elem: Element;
    /// The result's shape.
    type Output: Shape;
    /// The parts, shape-erased.
    fn strided(&self) -> Parts<'_, Self::Elem>;
}

/// The parts of a static `stack` along `AXIS`: tensors of one shape.
#[diagnostic::on_unimplemented(
    message = "`stack` cannot join `{Self}`",
    label = "not a pair or an array of tensors of one element type and shape",
    note = "a static `stack` joins one element type: `cast::<U>()` a part first, or use `AnyTensor::stack`, which promotes"
)]
pub trait StackParts<const AXIS: usize> {
    /// The element type.
    type Elem: Element;
    /// The result's shape.
    type Output: Shape;
    /// The parts, shape-erased.
    fn strided(&self) -> Parts<'_, Self::Elem>;
}

impl<T: Element, S, R: Repr, const AXIS: usize, const N: usize> CatParts<AXIS>
    for [&Tensor<T, S, Cpu, R>; N]
where
    S: Shape + Repeated<AXIS, N>,
{
    type Elem = T;
    type Output = <S as Repeated<AXIS, N>>::Output;
    fn strided(&self) -> Parts<'_, T> {
        self.iter().map(|t| t.strided()).collect()
    }
}

impl<T: Element, S, R: Repr, const AXIS: usize, const N: usize> StackParts<AXIS>
    for [&Tensor<T, S, Cpu, R>; N]
where
    S: Shape + Stacked<AXIS, N>,
{
    type Elem = T;
    type Output = <S as Stacked<AXIS, N>>::Output;
    fn strided(&self) -> Parts<'_, T> {
        self.iter().map(|t| t.strided()).collect()
    }
}

/// `CatParts` for a tuple: `$out` is the result shape, `$bounds` what it
/// needs.
macro_rules! cat_tuple {
    ($(($($t:ident $s:ident $r:ident $i:tt),*) => $out:ty where [$($bounds:tt)*];)*) => {$(
        impl<'t, T: Element, $($s: Shape, $r: Repr,)* const AXIS: usize> CatParts<AXIS>
            for ($(&'t Tensor<T, $s, Cpu, $r>,)*)
        where
            $($bounds)*
        {
            type Elem = T;
            type Output = $out;
            fn strided(&self) -> Parts<'_, T> {
                [$(self.$i.strided()),*].into_iter().collect()
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

impl<'t, T: Element, S1, S2, R1: Repr, R2: Repr, const AXIS: usize> StackParts<AXIS>
    for (&'t Tensor<T, S1, Cpu, R1>, &'t Tensor<T, S2, Cpu, R2>)
where
    S1: Shape + SameRank<S2> + SameSizes<S2> + Stacked<AXIS, 2>,
    S2: Shape,
{
    type Elem = T;
    type Output = <S1 as Stacked<AXIS, 2>>::Output;
    fn strided(&self) -> Parts<'_, T> {
        [self.0.strided(), self.1.strided()].into_iter().collect()
    }
}

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
    fn cat<const AXIS: usize>(
        self,
    ) -> Tensor<<Self as CatParts<AXIS>>::Elem, <Self as CatParts<AXIS>>::Output, Cpu>
    where
        Self: CatParts<AXIS>,
    {
        self.try_cat::<AXIS>().unwrap_or_else(|e| panic!("{e}"))
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
    #[allow(clippy::type_complexity)]
    fn try_cat<const AXIS: usize>(
        self,
    ) -> Result<Tensor<<Self as CatParts<AXIS>>::Elem, <Self as CatParts<AXIS>>::Output, Cpu>, Error>
    where
        Self: CatParts<AXIS>,
    {
        cat_parts(&CatParts::<AXIS>::strided(&self), AXIS as isize)
    }

    /// The parts (of one shape) stacked along a new dimension at `AXIS`,
    /// whose size is the number of parts.
    fn stack<const AXIS: usize>(
        self,
    ) -> Tensor<<Self as StackParts<AXIS>>::Elem, <Self as StackParts<AXIS>>::Output, Cpu>
    where
        Self: StackParts<AXIS>,
    {
        self.try_stack::<AXIS>().unwrap_or_else(|e| panic!("{e}"))
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
    #[allow(clippy::type_complexity)]
    fn try_stack<const AXIS: usize>(
        self,
    ) -> Result<
        Tensor<<Self as StackParts<AXIS>>::Elem, <Self as StackParts<AXIS>>::Output, Cpu>,
        Error,
    >
    where
        Self: StackParts<AXIS>,
    {
        stack_parts(&StackParts::<AXIS>::strided(&self), AXIS as isize)
    }
}

impl<T: Element, S: Shape, R: Repr, const N: usize> Concat for [&Tensor<T, S, Cpu, R>; N] {}
impl<'t, T1: Element, T2: Element, S1: Shape, S2: Shape, R1: Repr, R2: Repr> Concat
    for (&'t Tensor<T1, S1, Cpu, R1>, &'t Tensor<T2, S2, Cpu, R2>)
{
}
impl<'t, T1, T2, T3, S1, S2, S3, R1, R2, R3> Concat
    for (
        &'t Tensor<T1, S1, Cpu, R1>,
        &'t Tensor<T2, S2, Cpu, R2>,
        &'t Tensor<T3, S3, Cpu, R3>,
    )
where
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

impl<T: Element> Tensor<T, DynShape> {
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
        parts: &[&Tensor<T, S, Cpu, R>],
        dim: isize,
    ) -> Result<DynTensor<T>, Error> {
        let strided: Parts<'_, T> = parts.iter().map(|t| t.strided()).collect();
        cat_parts(&strided, dim)
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
        parts: &[&Tensor<T, S, Cpu, R>],
        dim: isize,
    ) -> Result<DynTensor<T>, Error> {
        let strided: Parts<'_, T> = parts.iter().map(|t| t.strided()).collect();
        stack_parts(&strided, dim)
    }
}

/// `DynTensor::cat` or `DynTensor::stack` for one element type.
type JoinFn<T> = fn(&[&DynTensor<T>], isize) -> Result<DynTensor<T>, Error>;

/// `f` of the parts, all converted to `T`.
fn joined_as<T: AnyElement>(
    parts: &[AnyTensor],
    f: JoinFn<T>,
    dim: isize,
) -> Result<AnyTensor, Error>
where
    AnyTensor: From<DynTensor<T>>,
{
    let typed: Vec<&DynTensor<T>> = parts
        .iter()
        .map(|p| {
            p.downcast_ref::<T>()
                .expect("converted to the common dtype")
        })
        .collect();
    Ok(AnyTensor::from(f(&typed, dim)?))
}

impl AnyTensor {
    /// Converts every part to the dtype all of them promote to (as
    /// `torch.cat` does), then applies `cat` or `stack`.
    fn join(parts: &[&AnyTensor], dim: isize, stack: bool) -> Result<AnyTensor, Error> {
        let Some(first) = parts.first() else {
            let op = if stack { "stack" } else { "cat" };
            return Err(Error::EmptyTensorList { op });
        };
        let common = parts
            .iter()
            .fold(first.dtype(), |acc, p| DType::promote(acc, p.dtype()));
        let converted: Vec<AnyTensor> = parts.iter().map(|p| p.to_dtype(common)).collect();
        with_dtype!(common, T => if stack {
            joined_as::<T>(&converted, DynTensor::<T>::stack::<DynShape, Owned>, dim)
        } else {
            joined_as::<T>(&converted, DynTensor::<T>::cat::<DynShape, Owned>, dim)
        })
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
    pub fn cat(parts: &[&AnyTensor], dim: isize) -> Result<AnyTensor, Error> {
        AnyTensor::join(parts, dim, false)
    }

    /// `torch.stack` with runtime dtypes, promoted as [`AnyTensor::cat`].
    ///
    /// ```
    /// use shaped::prelude::*;
    /// assert_eq!(
    ///     AnyTensor::stack(&[], 0).unwrap_err().to_string(),
    ///     "stack expects a non-empty TensorList"
    /// );
    /// ```
    pub fn stack(parts: &[&AnyTensor], dim: isize) -> Result<AnyTensor, Error> {
        AnyTensor::join(parts, dim, true)
    }
}
