//! Moments: `var`, `std`, `var_mean`, `std_mean` with PyTorch's
//! `correction` (default 1: Bessel's), over one axis, several or all.
//!
//! | form | static shapes (axes in the type) | `DynTensor` and `AnyTensor` |
//! |---|---|---|
//! | whole tensor | `x.var(1)` | `x.var(&[], 1, false)?` |
//! | one axis, removed / kept | `x.var_dim::<1>(1)` / `x.var_keepdim::<1>(1)` | `x.var(&[1], 1, keepdim)?` |
//! | several axes | `x.var_dims::<axes![0, 2]>(1)` / `x.var_dims_keepdim::<..>(1)` | `x.var(&[0, 2], 1, keepdim)?` |
//! | with the mean | `x.var_mean_dim::<1>(1)` | `x.var_mean(&[1], 1, keepdim)?` |
//!
//! `std` and `std_mean` follow the same scheme. As in PyTorch: the
//! variance is the sum of squared deviations from the mean over
//! `max(0, N - correction)` (so a correction of N or more gives `inf`, or
//! NaN for constant lines, and a negative correction divides by more); no
//! elements give NaN; an empty list of dims reduces every dim. Floating
//! and complex tensors only (a compile error on static shapes, PyTorch's
//! error otherwise); a complex tensor's variance is real (the squared
//! magnitudes of its deviations) and its mean complex. The half types
//! compute in float32 and round once. Deviations are taken from the mean
//! in a second pass, so a large offset costs no accuracy.
//!
//! ```
//! use shaped::prelude::*;
//! let x = Tensor::<f32, shape![2, 3]>::from_vec(vec![1.0, 2.0, 3.0, 10.0, 10.0, 10.0]).unwrap();
//! assert_eq!(x.var_dim::<1>(1).to_vec(), [1.0, 0.0]);
//! assert_eq!(x.std_dim::<1>(0).to_vec()[0], (2.0f32 / 3.0).sqrt());
//! let (var, mean) = x.into_dyn().var_mean(&[0], 1, true).unwrap();
//! assert_eq!(var.shape(), [1, 3]);
//! assert_eq!(mean.to_vec(), [5.5, 6.0, 6.5]);
//! ```

use crate::backend::{Normalizing, SoftmaxFloat, StridedRef};
use crate::dtype::{DType, Element};
use crate::dynamic::{DynShape, DynTensor};
use crate::error::{Error, or_panic};
use crate::layout::{StridedLayout, array_from, checked_storage, contiguous_strides};
use crate::ops::dense_ref;
use crate::ops::functions::{Cast, Constant, Div, Mul, Sub, WithRight};
use crate::ops::math::Sqrt;
use crate::ops::reductions::reducers::{Mean, Sum};
use crate::ops::reductions::{dims_mask, out_sizes};
use crate::shape::dynamic::DynSizes;
use crate::shape::list::TupleShape;
use crate::shape::reduce::{ReduceAxes, ReduceAxis, axes_mask};
use crate::shape::{FixedShape, Shape, SizeArray};
use crate::storage::Repr;
use crate::tensor::{OwnedParts, Tensor, from_parts, owned_parts};

/// What a moment gives: the variance or standard deviation (of the real
/// type) and the mean, each contiguous over the kept dims.
pub type MomentBuffers<T, D> = (
    <D as crate::backend::Backend>::Buffer<<T as MomentsInput>::Real>,
    <D as crate::backend::Backend>::Buffer<T>,
);

/// The element types with `var` and `std`: floating and complex types.
#[diagnostic::on_unimplemented(
    message = "std and var only support floating point and complex dtypes: `{Self}` is neither",
    label = "a tensor of `{Self}`",
    note = "convert first: `x.cast::<f32>().var_dim::<DIM>(1)`"
)]
pub trait MomentsElement: MomentsInput + crate::dtype::Numeric {
    /// The variance (`std`: its square root) and the mean along `mask`,
    /// dividing by `max(0, N - correction)`.
    #[doc(hidden)]
    fn moments_on<D: Normalizing>(
        x: StridedRef<'_, Self, D>,
        mask: &[bool],
        correction: f64,
        std: bool,
    ) -> Result<MomentBuffers<Self, D>, Error>;
}

macro_rules! real_moments {
    ($($t:ty => $c:ty),*) => {$(
        impl MomentsElement for $t {
            fn moments_on<D: Normalizing>(
                x: StridedRef<'_, Self, D>,
                mask: &[bool],
                correction: f64,
                std: bool,
            ) -> Result<MomentBuffers<Self, D>, Error> {
                real_moments::<$t, $c, D>(x, mask, correction, std)
            }
        }
    )*};
}
real_moments!(half::f16 => f32, half::bf16 => f32, f32 => f32, f64 => f64);

macro_rules! complex_moments {
    ($($c:ty => $r:ty),*) => {$(
        impl MomentsElement for $c {
            fn moments_on<D: Normalizing>(
                x: StridedRef<'_, Self, D>,
                mask: &[bool],
                correction: f64,
                std: bool,
            ) -> Result<MomentBuffers<Self, D>, Error> {
                let mean = D::reduce(x, mask, Mean)?;
                let deviations = deviations::<$c, D>(x, mask, &mean)?;
                let sizes = x.sizes;
                // |d|^2 as re^2 + im^2, exact where |d| would round.
                let parts: Vec<usize> = contiguous_strides::<Vec<usize>>(sizes)
                    .iter()
                    .map(|&s| 2 * s)
                    .collect();
                let part = |offset| StridedRef {
                    ptr: D::cast_ptr::<$c, $r>(D::ptr(&deviations)),
                    sizes,
                    strides: &parts,
                    offset,
                };
                let (re, im) = (part(0), part(1));
                let dense = contiguous_strides::<Vec<usize>>(sizes);
                let re2: D::Buffer<$r> = D::map2(sizes, re, re, Mul)?;
                let im2: D::Buffer<$r> = D::map2(sizes, im, im, Mul)?;
                let squares: D::Buffer<$r> = D::map2(
                    sizes,
                    dense_ref::<$r, D>(&re2, sizes, &dense),
                    dense_ref::<$r, D>(&im2, sizes, &dense),
                    crate::ops::functions::Add,
                )?;
                let spread = finish::<$r, D>(&squares, sizes, mask, correction, std)?;
                Ok((spread, mean))
            }
        }
    )*};
}
complex_moments!(num_complex::Complex<f32> => f32, num_complex::Complex<f64> => f64);

/// `var`/`std` and the mean of a real `T`, computed in `C`.
fn real_moments<T, C: SoftmaxFloat, D: Normalizing>(
    x: StridedRef<'_, T, D>,
    mask: &[bool],
    correction: f64,
    std: bool,
) -> Result<MomentBuffers<T, D>, Error>
where
    T: MomentsInput<Real = T>,
    Mean: crate::ops::reductions::Reducer<C, Out = C>,
{
    let sizes = x.sizes;
    let dense = contiguous_strides::<Vec<usize>>(sizes);
    let converted;
    let xc: StridedRef<'_, C, D> = if T::DTYPE == C::DTYPE {
        StridedRef {
            ptr: D::cast_ptr(x.ptr),
            sizes: x.sizes,
            strides: x.strides,
            offset: x.offset,
        }
    } else {
        converted = D::map1(x, Cast::<C>::new())?;
        dense_ref::<C, D>(&converted, sizes, &dense)
    };
    let (spread, mean) = D::moments(xc, mask, correction, std)?;
    let kept = out_sizes(sizes, mask, false);
    let kept_strides = contiguous_strides::<Vec<usize>>(&kept);
    Ok((
        D::map1(
            dense_ref::<C, D>(&spread, &kept, &kept_strides),
            Cast::<T>::new(),
        )?,
        D::map1(
            dense_ref::<C, D>(&mean, &kept, &kept_strides),
            Cast::<T>::new(),
        )?,
    ))
}

/// [`Normalizing::moments`] composed of the reductions and elementwise
/// kernels: the mean, the deviations from it, their squares, and their sum.
pub(crate) fn composed_moments<C: SoftmaxFloat, D: Normalizing>(
    x: StridedRef<'_, C, D>,
    mask: &[bool],
    correction: f64,
    std: bool,
) -> Result<crate::backend::BufferPair<C, D>, Error> {
    let sizes = x.sizes;
    let dense = contiguous_strides::<Vec<usize>>(sizes);
    let mean = D::reduce(x, mask, Mean)?;
    let deviations = deviations::<C, D>(x, mask, &mean)?;
    let d = dense_ref::<C, D>(&deviations, sizes, &dense);
    let squares = D::map2(sizes, d, d, Mul)?;
    let spread = finish::<C, D>(&squares, sizes, mask, correction, std)?;
    Ok((spread, mean))
}

/// `x - mean`, the mean (contiguous over the kept dims) broadcast back.
fn deviations<C: Element, D: Normalizing>(
    x: StridedRef<'_, C, D>,
    mask: &[bool],
    mean: &D::Buffer<C>,
) -> Result<D::Buffer<C>, Error>
where
    Sub: crate::ops::functions::BinaryFn<C, C, C>,
{
    let sizes = x.sizes;
    let kept = out_sizes(sizes, mask, false);
    let kept_strides = contiguous_strides::<Vec<usize>>(&kept);
    let along = crate::ops::along_reduced(mask, &kept_strides);
    let by = StridedRef {
        ptr: D::ptr(mean),
        sizes,
        strides: &along,
        offset: 0,
    };
    D::map2(sizes, x, by, Sub)
}

/// The sum of the squared deviations `squares` (contiguous over `sizes`)
/// along `mask` over `max(0, N - correction)`, its square root for `std`;
/// NaN where nothing was reduced.
fn finish<R: SoftmaxFloat, D: Normalizing>(
    squares: &D::Buffer<R>,
    sizes: &[usize],
    mask: &[bool],
    correction: f64,
    std: bool,
) -> Result<D::Buffer<R>, Error> {
    let dense = contiguous_strides::<Vec<usize>>(sizes);
    let kept = out_sizes(sizes, mask, false);
    let kept_strides = contiguous_strides::<Vec<usize>>(&kept);
    let sums = D::reduce(dense_ref::<R, D>(squares, sizes, &dense), mask, Sum)?;
    let count: usize = sizes
        .iter()
        .zip(mask)
        .filter(|&(_, &m)| m)
        .map(|(&n, _)| n)
        .product();
    let sums = dense_ref::<R, D>(&sums, &kept, &kept_strides);
    let var: D::Buffer<R> = if count == 0 {
        D::map1(sums, Constant(R::nan()))?
    } else {
        let divisor = (count as f64 - correction).max(0.0);
        D::map1(
            sums,
            WithRight(
                Div,
                <R as num_traits::NumCast>::from(divisor).unwrap_or(R::nan()),
            ),
        )?
    };
    match std {
        false => Ok(var),
        true => D::map1(dense_ref::<R, D>(&var, &kept, &kept_strides), Sqrt),
    }
}
/// The mean as PyTorch's Welford updates leave it: NaN where an infinite
/// element made it infinite (`x + (x - x)`).
fn welford_mean<T: MomentsElement, D: Normalizing>(
    mean: D::Buffer<T>,
    sizes: &[usize],
    mask: &[bool],
) -> Result<D::Buffer<T>, Error> {
    let kept = out_sizes(sizes, mask, false);
    let strides = contiguous_strides::<Vec<usize>>(&kept);
    let m = dense_ref::<T, D>(&mean, &kept, &strides);
    let zero_or_nan = D::map2(&kept, m, m, Sub)?;
    D::map2(
        &kept,
        m,
        dense_ref::<T, D>(&zero_or_nan, &kept, &strides),
        crate::ops::functions::Add,
    )
}

/// The parts of a moment's two results (`keepdim`: reduced dims kept as 1).
#[allow(clippy::type_complexity)]
fn moment_parts<T: MomentsElement, A: SizeArray, D: Normalizing>(
    x: StridedRef<'_, T, D>,
    mask: &[bool],
    correction: f64,
    std: bool,
    keepdim: bool,
) -> Result<
    (
        OwnedParts<<T as MomentsInput>::Real, D, A>,
        OwnedParts<T, D, A>,
    ),
    Error,
> {
    let sizes = out_sizes(x.sizes, mask, keepdim);
    checked_storage(&sizes, size_of::<T>())?;
    let (spread, mean) = T::moments_on(x, mask, correction, std)?;
    let mean = welford_mean::<T, D>(mean, x.sizes, mask)?;
    let layout = || StridedLayout::contiguous(array_from::<A>(&sizes));
    Ok((owned_parts(spread, layout()), owned_parts(mean, layout())))
}

/// The static forms of one moment (`var` or `std`): whole, one axis
/// (removed or kept), several axes (removed or kept), and with the mean.
macro_rules! static_moments {
    ($std:literal, $what:literal, $whole:ident, $dim:ident, $keepdim:ident, $dims:ident, $dims_keepdim:ident, $with_mean:ident) => {
        impl<T: MomentsInput, S: Shape + TupleShape, D: Normalizing, R: Repr> Tensor<T, S, D, R> {
            #[doc = concat!("The ", $what, " of every element (rank 0), with `correction` (PyTorch's default: 1).")]
            pub fn $whole(&self, correction: impl Into<f64>) -> Tensor<<T as MomentsInput>::Real, (), D>
            where
                T: MomentsElement,
            {
                let mask = vec![true; self.layout.rank()];
                from_parts!(or_panic(moment_parts(self.strided(), &mask, correction.into(), $std, false)).0)
            }

            #[doc = concat!("The ", $what, " along axis `I`, which leaves the type.")]
            pub fn $dim<const I: usize>(&self, correction: impl Into<f64>) -> Tensor<<T as MomentsInput>::Real, <S as ReduceAxis<I>>::Removed, D>
            where
                T: MomentsElement,
                S: ReduceAxis<I>,
            {
                let mask = crate::ops::reductions::axis_mask(self.layout.rank(), I);
                from_parts!(or_panic(moment_parts(self.strided(), &mask, correction.into(), $std, false)).0)
            }

            #[doc = concat!("The ", $what, " along axis `I`, kept with size 1.")]
            pub fn $keepdim<const I: usize>(&self, correction: impl Into<f64>) -> Tensor<<T as MomentsInput>::Real, <S as ReduceAxis<I>>::Kept, D>
            where
                T: MomentsElement,
                S: ReduceAxis<I>,
            {
                let mask = crate::ops::reductions::axis_mask(self.layout.rank(), I);
                from_parts!(or_panic(moment_parts(self.strided(), &mask, correction.into(), $std, true)).0)
            }

            #[doc = concat!("The ", $what, " along the axes `L` (`axes![0, 1]`), which leave the type.")]
            pub fn $dims<L: FixedShape>(&self, correction: impl Into<f64>) -> Tensor<<T as MomentsInput>::Real, <S as ReduceAxes<L>>::Removed, D>
            where
                T: MomentsElement,
                S: ReduceAxes<L>,
            {
                let mask = axes_mask::<L>(self.layout.rank());
                from_parts!(or_panic(moment_parts(self.strided(), &mask, correction.into(), $std, false)).0)
            }

            #[doc = concat!("The ", $what, " along the axes `L`, kept with size 1.")]
            pub fn $dims_keepdim<L: FixedShape>(&self, correction: impl Into<f64>) -> Tensor<<T as MomentsInput>::Real, <S as ReduceAxes<L>>::Kept, D>
            where
                T: MomentsElement,
                S: ReduceAxes<L>,
            {
                let mask = axes_mask::<L>(self.layout.rank());
                from_parts!(or_panic(moment_parts(self.strided(), &mask, correction.into(), $std, true)).0)
            }

            #[doc = concat!("The ", $what, " and the mean along axis `I`, which leaves the type.")]
            #[allow(clippy::type_complexity)]
            pub fn $with_mean<const I: usize>(
                &self,
                correction: impl Into<f64>,
            ) -> (
                Tensor<<T as MomentsInput>::Real, <S as ReduceAxis<I>>::Removed, D>,
                Tensor<T, <S as ReduceAxis<I>>::Removed, D>,
            )
            where
                T: MomentsElement,
                S: ReduceAxis<I>,
            {
                let mask = crate::ops::reductions::axis_mask(self.layout.rank(), I);
                let (a, b) = or_panic(moment_parts(self.strided(), &mask, correction.into(), $std, false));
                (from_parts!(a), from_parts!(b))
            }
        }
    };
}
static_moments!(
    false,
    "variance",
    var,
    var_dim,
    var_keepdim,
    var_dims,
    var_dims_keepdim,
    var_mean_dim
);
static_moments!(
    true,
    "standard deviation",
    std,
    std_dim,
    std_keepdim,
    std_dims,
    std_dims_keepdim,
    std_mean_dim
);

/// The parts of a moment's two results on runtime shapes.
pub type MomentParts<T, D> = (
    OwnedParts<<T as MomentsInput>::Real, D, DynSizes>,
    OwnedParts<T, D, DynSizes>,
);

/// Element types of `DynTensor` moments: all twelve; the floating and
/// complex ones compute, the others give PyTorch's error.
pub trait MomentsInput: Element {
    /// The variance's element type (the element itself for the types
    /// PyTorch refuses).
    type Real: Element;
    /// [`MomentsElement::moments_on`], or PyTorch's error for `op`.
    #[doc(hidden)]
    fn moments_or<D: Normalizing>(
        op: &'static str,
        x: StridedRef<'_, Self, D>,
        mask: &[bool],
        correction: f64,
        std: bool,
        keepdim: bool,
    ) -> Result<MomentParts<Self, D>, Error>;
}
macro_rules! moments_inputs {
    (computes: $($f:ty => $real:ty),*; refuses: $($t:ty),*) => {
        $(impl MomentsInput for $f {
            type Real = $real;
            fn moments_or<D: Normalizing>(
                _: &'static str,
                x: StridedRef<'_, Self, D>,
                mask: &[bool],
                correction: f64,
                std: bool,
                keepdim: bool,
            ) -> Result<MomentParts<Self, D>, Error> {
                moment_parts(x, mask, correction, std, keepdim)
            }
        })*
        $(impl MomentsInput for $t {
            type Real = $t;
            fn moments_or<D: Normalizing>(
                op: &'static str,
                _: StridedRef<'_, Self, D>,
                _: &[bool],
                _: f64,
                _: bool,
                _: bool,
            ) -> Result<MomentParts<Self, D>, Error> {
                Err(Error::MomentsDType { op })
            }
        })*
    };
}
moments_inputs!(
    computes: half::f16 => half::f16, half::bf16 => half::bf16, f32 => f32, f64 => f64,
        num_complex::Complex<f32> => f32, num_complex::Complex<f64> => f64;
    refuses: u8, i8, i16, i32, i64, bool
);

/// The runtime forms: PyTorch's dims (an empty list: every dim), its
/// `correction`, `keepdim` and texts.
impl<T: MomentsInput, D: Normalizing, R: Repr> Tensor<T, DynShape, D, R> {
    /// The two results of `op` along `dims`.
    #[allow(clippy::type_complexity)]
    fn moments_dyn(
        &self,
        op: &'static str,
        dims: &[isize],
        correction: f64,
        std: bool,
        keepdim: bool,
    ) -> Result<(DynTensor<T::Real, D>, DynTensor<T, D>), Error> {
        // PyTorch checks the dtype before the dims.
        if !matches!(
            T::DTYPE,
            DType::F16 | DType::BF16 | DType::F32 | DType::F64 | DType::C64 | DType::C128
        ) {
            return Err(Error::MomentsDType { op });
        }
        let (mask, _) = dims_mask(dims, self.layout.rank())?;
        let (a, b) = T::moments_or(op, self.strided(), &mask, correction, std, keepdim)?;
        Ok((from_parts!(a), from_parts!(b)))
    }

    /// PyTorch's `var(x, dims, correction=, keepdim=)`.
    pub fn var(
        &self,
        dims: &[isize],
        correction: impl Into<f64>,
        keepdim: bool,
    ) -> Result<DynTensor<T::Real, D>, Error> {
        Ok(self
            .moments_dyn("std and var", dims, correction.into(), false, keepdim)?
            .0)
    }

    /// PyTorch's `std(x, dims, correction=, keepdim=)`.
    pub fn std(
        &self,
        dims: &[isize],
        correction: impl Into<f64>,
        keepdim: bool,
    ) -> Result<DynTensor<T::Real, D>, Error> {
        Ok(self
            .moments_dyn("std and var", dims, correction.into(), true, keepdim)?
            .0)
    }

    /// PyTorch's `var_mean`: the variance and the mean.
    #[allow(clippy::type_complexity)]
    pub fn var_mean(
        &self,
        dims: &[isize],
        correction: impl Into<f64>,
        keepdim: bool,
    ) -> Result<(DynTensor<T::Real, D>, DynTensor<T, D>), Error> {
        self.moments_dyn("var_mean", dims, correction.into(), false, keepdim)
    }

    /// PyTorch's `std_mean`: the standard deviation and the mean.
    #[allow(clippy::type_complexity)]
    pub fn std_mean(
        &self,
        dims: &[isize],
        correction: impl Into<f64>,
        keepdim: bool,
    ) -> Result<(DynTensor<T::Real, D>, DynTensor<T, D>), Error> {
        self.moments_dyn("std_mean", dims, correction.into(), true, keepdim)
    }
}
