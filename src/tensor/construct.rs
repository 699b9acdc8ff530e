//! Constructors: `zeros`, `ones`, `full`, `from_vec`, `arange`, and the
//! `_with` forms that take runtime sizes for shapes with `Dyn` entries.

use super::{OwnedParts, Tensor, from_parts, owned_parts};
use crate::backend::Cpu;
use crate::backend::cpu::{CpuBuffer, try_collect};
use crate::dtype::{Element, Numeric};
use crate::error::Error;
use crate::error::OrPanic;
use crate::layout::{
    StridedLayout, check_contiguous_strides, checked_numel, checked_storage, numel,
};
use crate::shape::{FixedShape, Shape, SizeArray, StaticDim};

/// Sizes as PyTorch prints them in messages (`i64`).
fn signed(sizes: &[usize]) -> Vec<isize> {
    sizes
        .iter()
        .map(|&s| isize::try_from(s).unwrap_or(isize::MAX))
        .collect()
}

impl<T: Element, S: FixedShape> Tensor<T, S, Cpu> {
    /// A tensor of zeros.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = Tensor::<f32, shape![2, 3]>::zeros();
    /// assert_eq!(x.to_vec(), vec![0.0; 6]);
    /// ```
    pub fn zeros() -> Self {
        from_parts!(filled(S::SIZES, T::ZERO))
    }

    /// A tensor of ones.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x: Tensor<i32, shape![2]> = Tensor::ones();
    /// assert_eq!(x.to_vec(), vec![1, 1]);
    /// ```
    pub fn ones() -> Self {
        from_parts!(filled(S::SIZES, T::ONE))
    }

    /// A tensor with every element `value`.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = Tensor::<f64, shape![]>::full(2.5);
    /// assert_eq!(x.to_vec(), vec![2.5]);
    /// ```
    pub fn full(value: T) -> Self {
        from_parts!(filled(S::SIZES, value))
    }

    /// A tensor from its elements in row-major order; `Err` when their
    /// number does not fill the shape.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let a = Tensor::<i64, shape![3, 3]>::from_vec((0..9).collect()).unwrap();
    /// assert_eq!(a[[1, 2]], 5);
    /// let err = Tensor::<i64, shape![3, 3]>::from_vec(vec![1, 2]).unwrap_err();
    /// assert_eq!(err.to_string(), "shape '[3, 3]' is invalid for input of size 2");
    /// ```
    pub fn from_vec(data: Vec<T>) -> Result<Self, Error> {
        Self::from_vec_with(data, S::SIZES.as_ref())
    }

    /// The literal behind `tensor![..]`, whose shape the macro inferred.
    #[doc(hidden)]
    pub fn __from_literal<const K: usize>(data: [T; K]) -> Self {
        const {
            assert!(
                K == S::NUMEL,
                "tensor!: element count does not fill the shape"
            )
        };
        Tensor::from_buffer(data.to_vec().into(), StridedLayout::contiguous(S::SIZES))
    }
}

/// A tensor of `value`s filling `sizes`, contiguous (generic over the size
/// array, not the shape: one copy per rank).
fn filled<T: Element, A: SizeArray>(sizes: A, value: T) -> OwnedParts<T, Cpu, A> {
    let buffer = CpuBuffer::try_full(numel(sizes.as_ref()), value).or_panic();
    owned_parts(buffer, StridedLayout::contiguous(sizes))
}

impl<T: Numeric, N: StaticDim> Tensor<T, (N,), Cpu> {
    /// `0, 1, .., N - 1` (PyTorch's `arange(N)`).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let b = Tensor::<i64, shape![3]>::arange();
    /// assert_eq!(b.to_vec(), vec![0, 1, 2]);
    /// ```
    pub fn arange() -> Self {
        let data = try_collect((0..N::N).map(T::from_index)).or_panic();
        Tensor::from_buffer(data.into(), StridedLayout::contiguous([N::N]))
    }
}

impl<T: Element, S: Shape> Tensor<T, S, Cpu> {
    /// A tensor of zeros with runtime sizes, for shapes with `Dyn` entries.
    /// Panics (with the error's text) when `sizes` contradict the static ones;
    /// [`try_full_with`](Self::try_full_with) returns the error instead.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let n = 5;
    /// let rows: Tensor<f32, shape![Dyn, 3]> = Tensor::zeros_with(&[n, 3]);
    /// assert_eq!(rows.shape(), [5, 3]);
    /// ```
    pub fn zeros_with(sizes: &[usize]) -> Self {
        Self::full_with(sizes, T::ZERO)
    }

    /// A tensor of ones with runtime sizes (see [`zeros_with`](Self::zeros_with)).
    pub fn ones_with(sizes: &[usize]) -> Self {
        Self::full_with(sizes, T::ONE)
    }

    /// A tensor filled with `value`, with runtime sizes (see
    /// [`zeros_with`](Self::zeros_with)).
    pub fn full_with(sizes: &[usize], value: T) -> Self {
        Self::try_full_with(sizes, value).or_panic()
    }

    /// A tensor filled with `value`, with runtime sizes; `Err` when the sizes
    /// contradict the shape.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let err = Tensor::<f32, shape![Dyn, 3]>::try_full_with(&[2, 4], 0.0).unwrap_err();
    /// assert_eq!(err.to_string(), "size 4 at dimension 1 contradicts the static size 3");
    /// ```
    pub fn try_full_with(sizes: &[usize], value: T) -> Result<Self, Error> {
        let sizes = S::check_sizes(sizes)?;
        checked_storage(sizes.as_ref(), size_of::<T>())?;
        check_contiguous_strides(sizes.as_ref())?;
        let numel = checked_numel(sizes.as_ref())?;
        Ok(Tensor::from_buffer(
            CpuBuffer::try_full(numel, value)?,
            StridedLayout::contiguous(sizes),
        ))
    }

    /// A tensor from row-major elements and runtime sizes; `Err` when the
    /// sizes contradict the shape or the elements do not fill it.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let t = Tensor::<i32, shape![Dyn, 2]>::from_vec_with(vec![1, 2, 3, 4, 5, 6], &[3, 2]).unwrap();
    /// assert_eq!(t[[2, 1]], 6);
    /// ```
    pub fn from_vec_with(data: Vec<T>, sizes: &[usize]) -> Result<Self, Error> {
        // As PyTorch's `view` of the elements: the (wrapping) product of the
        // sizes must be the element count, and then it must not overflow.
        let wrapped = sizes.iter().fold(1usize, |n, &s| n.wrapping_mul(s));
        if wrapped != data.len() {
            return Err(Error::ElementCount {
                shape: signed(sizes),
                numel: data.len(),
            });
        }
        checked_numel(sizes).map_err(|_| Error::NumelOverflow)?;
        check_contiguous_strides(sizes)?;
        let sizes = S::check_sizes(sizes)?;
        Ok(Tensor::from_buffer(
            data.into(),
            StridedLayout::contiguous(sizes),
        ))
    }
}
