//! Norms and the NaN-aware and counting reductions: `vector_norm`, `norm`,
//! `dist`, `nansum`, `nanmean`, `count_nonzero`, `aminmax`, with
//! PyTorch's semantics.
//!
//! `vector_norm(ord, dims, keepdim)`: `ord` 0 counts the nonzero elements,
//! 1 sums magnitudes, 2 is the Euclidean norm, `inf`/`-inf` the largest
//! and smallest magnitude, any other `p` is `(sum |x|^p)^(1/p)`. Floating
//! and complex tensors (a complex one gives its real type); the half types
//! compute in float32. `norm(p)` is the whole tensor's, `dist(other, p)`
//! the norm of the difference (the operands broadcast).
//!
//! ```
//! use shaped::prelude::*;
//! let x = DynTensor::<f32>::from_vec(vec![3.0, -4.0, 0.0, 1.0], &[2, 2]).unwrap();
//! assert_eq!(x.vector_norm(2.0, &[], false).unwrap().to_vec(), [26f32.sqrt()]);
//! assert_eq!(x.vector_norm(f64::INFINITY, &[1], false).unwrap().to_vec(), [4.0, 1.0]);
//! assert_eq!(x.vector_norm(0.0, &[0], true).unwrap().to_vec(), [1.0, 2.0]);
//! ```

use crate::backend::{Normalizing, SoftmaxFloat, StridedRef};
use crate::dtype::{DType, Element};
use crate::dynamic::{DynShape, DynTensor};
use crate::error::Error;
use crate::layout::{StridedLayout, checked_storage, contiguous_strides};
use crate::ops::dense_ref;
use crate::ops::functions::{Cast, Mul, Ne, WithRight};
use crate::ops::math::{AbsFn, Sqrt};
use crate::ops::reductions::reducers::{Extreme, Largest, Smallest, Sum};
use crate::ops::reductions::{dims_mask, out_sizes};
use crate::shape::dynamic::DynSizes;
use crate::storage::Repr;
use crate::tensor::{OwnedParts, from_parts, owned_parts};

/// The element types with norms: floating and complex types.
#[diagnostic::on_unimplemented(
    message = "norms need a floating point or complex tensor: `{Self}` is neither",
    label = "a tensor of `{Self}`",
    note = "convert first: `x.cast::<f32>()`"
)]
pub trait NormElement: NormInput {
    /// The type the norm computes in (float32 for the half types).
    type Compute: SoftmaxFloat;
    /// `|x|` in the compute type, contiguous over `x`'s sizes.
    #[doc(hidden)]
    fn magnitudes<D: Normalizing>(
        x: StridedRef<'_, Self, D>,
    ) -> Result<D::Buffer<Self::Compute>, Error>;
}
macro_rules! real_norms {
    ($($t:ty => $c:ty),*) => {$(
        impl NormElement for $t {
            type Compute = $c;
            fn magnitudes<D: Normalizing>(x: StridedRef<'_, Self, D>) -> Result<D::Buffer<$c>, Error> {
                let c: D::Buffer<$c> = D::map1(x, Cast::<$c>::new())?;
                let strides = contiguous_strides::<Vec<usize>>(x.sizes);
                D::map1(dense_ref::<$c, D>(&c, x.sizes, &strides), AbsFn)
            }
        }
    )*};
}
real_norms!(half::f16 => f32, half::bf16 => f32, f32 => f32, f64 => f64);
macro_rules! complex_norms {
    ($($t:ty => $r:ty),*) => {$(
        impl NormElement for $t {
            type Compute = $r;
            fn magnitudes<D: Normalizing>(x: StridedRef<'_, Self, D>) -> Result<D::Buffer<$r>, Error> {
                D::map1(x, AbsFn)
            }
        }
    )*};
}
complex_norms!(num_complex::Complex<f32> => f32, num_complex::Complex<f64> => f64);
/// `ord` as PyTorch prints it.
fn ord_text(ord: f64) -> String {
    match ord {
        f64::INFINITY => "inf".into(),
        f64::NEG_INFINITY => "-inf".into(),
        o if o.fract() == 0.0 => format!("{}", o as i64),
        o => format!("{o}"),
    }
}

/// The `ord`-norm of `x` along `mask`, contiguous over the kept dims.
fn vector_norm_buffer<T: NormElement, D: Normalizing>(
    x: StridedRef<'_, T, D>,
    ord: f64,
    mask: &[bool],
) -> Result<D::Buffer<T::Real>, Error> {
    let sizes = x.sizes;
    let count: usize = sizes
        .iter()
        .zip(mask)
        .filter(|&(_, &m)| m)
        .map(|(&n, _)| n)
        .product();
    if count == 0 && (ord < 0.0 || ord.is_infinite()) {
        // The first reduced dim that is empty, unless every dim is reduced.
        let dim = match mask.iter().all(|&m| m) {
            true => None,
            false => (0..sizes.len()).find(|&d| mask[d] && sizes[d] == 0),
        };
        return Err(Error::NormOfEmpty {
            ord: ord_text(ord),
            dim,
        });
    }
    let kept = out_sizes(sizes, mask, false);
    let kept_strides = contiguous_strides::<Vec<usize>>(&kept);
    // Real elements of the compute type go in as they are (the norm takes
    // their magnitudes itself); the others as magnitudes in that type.
    let magnitudes;
    let dense = contiguous_strides::<Vec<usize>>(sizes);
    let a: StridedRef<'_, T::Compute, D> = if T::DTYPE == T::Compute::DTYPE {
        StridedRef {
            ptr: D::cast_ptr(x.ptr),
            sizes,
            strides: x.strides,
            offset: x.offset,
        }
    } else {
        magnitudes = T::magnitudes(x)?;
        dense_ref::<T::Compute, D>(&magnitudes, sizes, &dense)
    };
    let norm = D::vector_norm(a, ord, mask)?;
    D::map1(
        dense_ref::<T::Compute, D>(&norm, &kept, &kept_strides),
        Cast::<T::Real>::new(),
    )
}

/// [`Normalizing::vector_norm`] composed of the reductions and elementwise
/// kernels: the magnitudes, then a count, an extreme, a sum, or a sum of
/// powers and its root.
pub(crate) fn composed_vector_norm<C: SoftmaxFloat, D: Normalizing>(
    x: StridedRef<'_, C, D>,
    ord: f64,
    mask: &[bool],
) -> Result<D::Buffer<C>, Error> {
    let sizes = x.sizes;
    let dense = contiguous_strides::<Vec<usize>>(sizes);
    let kept = out_sizes(sizes, mask, false);
    let kept_strides = contiguous_strides::<Vec<usize>>(&kept);
    let a: D::Buffer<C> = D::map1(x, AbsFn)?;
    let a = dense_ref::<C, D>(&a, sizes, &dense);
    let c = |v: f64| <C as num_traits::NumCast>::from(v).unwrap_or(num_traits::Float::nan());
    Ok(if ord == 0.0 {
        let nonzero: D::Buffer<bool> = D::map1(a, WithRight(Ne, c(0.0)))?;
        let ones: D::Buffer<C> =
            D::map1(dense_ref::<bool, D>(&nonzero, sizes, &dense), Cast::new())?;
        D::reduce(dense_ref::<C, D>(&ones, sizes, &dense), mask, Sum)?
    } else if ord == f64::INFINITY {
        D::reduce(a, mask, Extreme::<Largest>::default())?
    } else if ord == f64::NEG_INFINITY {
        D::reduce(a, mask, Extreme::<Smallest>::default())?
    } else if ord == 1.0 {
        D::reduce(a, mask, Sum)?
    } else if ord == 2.0 {
        let squares = D::map2(sizes, a, a, Mul)?;
        let sums = D::reduce(dense_ref::<C, D>(&squares, sizes, &dense), mask, Sum)?;
        D::map1(dense_ref::<C, D>(&sums, &kept, &kept_strides), Sqrt)?
    } else {
        // `pow` itself, as PyTorch's norm kernels call it (the elementwise
        // `pow(x, -2)` is `1 / (x * x)`, which overflows where `x^-2` does
        // not).
        let powers = D::map1(a, WithRight(crate::ops::math::Pow, c(ord)))?;
        let sums = D::reduce(dense_ref::<C, D>(&powers, sizes, &dense), mask, Sum)?;
        D::map1(
            dense_ref::<C, D>(&sums, &kept, &kept_strides),
            WithRight(crate::ops::math::Pow, c(1.0 / ord)),
        )?
    })
}

/// Element types of `DynTensor` norms: all twelve; the floating and
/// complex ones compute, the others give PyTorch's error.
pub trait NormInput: Element {
    /// The norm's element type (the element itself where PyTorch refuses).
    type Real: Element;
    /// The `ord`-norm along `mask`, or PyTorch's error.
    #[doc(hidden)]
    fn vector_norm_or<D: Normalizing>(
        x: StridedRef<'_, Self, D>,
        ord: f64,
        mask: &[bool],
    ) -> Result<D::Buffer<Self::Real>, Error>;
    /// The `p`-norm of `a - b` (broadcast), or PyTorch's error.
    #[doc(hidden)]
    fn dist_on<D: Normalizing>(
        a: StridedRef<'_, Self, D>,
        b: StridedRef<'_, Self, D>,
        p: f64,
    ) -> Result<D::Buffer<Self::Real>, Error>;
}
macro_rules! norm_inputs {
    (computes: $($f:ty => $real:ty),*; refuses: $($t:ty),*) => {
        $(impl NormInput for $f {
            type Real = $real;
            fn vector_norm_or<D: Normalizing>(
                x: StridedRef<'_, Self, D>,
                ord: f64,
                mask: &[bool],
            ) -> Result<D::Buffer<$real>, Error> {
                vector_norm_buffer(x, ord, mask)
            }
            fn dist_on<D: Normalizing>(
                a: StridedRef<'_, Self, D>,
                b: StridedRef<'_, Self, D>,
                p: f64,
            ) -> Result<D::Buffer<$real>, Error> {
                let sizes = crate::shape::broadcast_sizes(a.sizes, b.sizes)?;
                let mut sa = vec![0; sizes.len()];
                let mut sb = vec![0; sizes.len()];
                crate::ops::broadcast_strides(a.sizes, a.strides, &sizes, &mut sa);
                crate::ops::broadcast_strides(b.sizes, b.strides, &sizes, &mut sb);
                let a = StridedRef { ptr: a.ptr, sizes: &sizes, strides: &sa, offset: a.offset };
                let b = StridedRef { ptr: b.ptr, sizes: &sizes, strides: &sb, offset: b.offset };
                let d = D::map2(&sizes, a, b, crate::ops::functions::Sub)?;
                let strides = contiguous_strides::<Vec<usize>>(&sizes);
                vector_norm_buffer(dense_ref::<Self, D>(&d, &sizes, &strides), p, &vec![true; sizes.len()])
            }
        })*
        $(impl NormInput for $t {
            type Real = $t;
            fn vector_norm_or<D: Normalizing>(
                _: StridedRef<'_, Self, D>,
                _: f64,
                _: &[bool],
            ) -> Result<D::Buffer<$t>, Error> {
                Err(Error::NormDType { dtype: Self::DTYPE })
            }
            fn dist_on<D: Normalizing>(
                _: StridedRef<'_, Self, D>,
                _: StridedRef<'_, Self, D>,
                _: f64,
            ) -> Result<D::Buffer<$t>, Error> {
                Err(match Self::DTYPE {
                    DType::Bool => Error::BoolSubtraction { both: true },
                    dtype => Error::DistDType { dtype },
                })
            }
        })*
    };
}
norm_inputs!(
    computes: half::f16 => half::f16, half::bf16 => half::bf16, f32 => f32, f64 => f64,
        num_complex::Complex<f32> => f32, num_complex::Complex<f64> => f64;
    refuses: u8, i8, i16, i32, i64, bool
);

/// The parts of the `ord`-norm along `mask`.
fn norm_parts<T: NormInput, D: Normalizing>(
    x: StridedRef<'_, T, D>,
    ord: f64,
    mask: &[bool],
    keepdim: bool,
) -> Result<OwnedParts<T::Real, D, DynSizes>, Error> {
    let sizes = out_sizes(x.sizes, mask, keepdim);
    checked_storage(&sizes, size_of::<T::Real>())?;
    let buffer = T::vector_norm_or(x, ord, mask)?;
    Ok(owned_parts(
        buffer,
        StridedLayout::contiguous(DynSizes::from_slice(&sizes)),
    ))
}

impl<T: NormInput, D: Normalizing, R: Repr> crate::Tensor<T, DynShape, D, R> {
    /// PyTorch's `linalg.vector_norm(x, ord, dims, keepdim)`: an empty list
    /// of dims takes every dim.
    pub fn vector_norm(
        &self,
        ord: f64,
        dims: &[isize],
        keepdim: bool,
    ) -> Result<DynTensor<T::Real, D>, Error> {
        if !matches!(
            T::DTYPE,
            DType::F16 | DType::BF16 | DType::F32 | DType::F64 | DType::C64 | DType::C128
        ) {
            return Err(Error::NormDType { dtype: T::DTYPE });
        }
        let (mask, _) = dims_mask(dims, self.layout.rank())?;
        Ok(from_parts!(norm_parts(
            self.strided(),
            ord,
            &mask,
            keepdim
        )?))
    }
}

/// The typed parts of the `ord`-norm along `mask`.
fn typed_norm_parts<T: NormElement, A: crate::shape::SizeArray, D: Normalizing>(
    x: StridedRef<'_, T, D>,
    ord: f64,
    mask: &[bool],
    keepdim: bool,
) -> Result<OwnedParts<T::Real, D, A>, Error> {
    let sizes = out_sizes(x.sizes, mask, keepdim);
    checked_storage(&sizes, size_of::<T::Real>())?;
    let buffer = vector_norm_buffer(x, ord, mask)?;
    Ok(owned_parts(
        buffer,
        StridedLayout::contiguous(crate::layout::array_from::<A>(&sizes)),
    ))
}

/// The static forms of `vector_norm`: the axes in the type.
impl<T: NormInput, S: crate::shape::Shape + crate::shape::list::TupleShape, D: Normalizing, R: Repr>
    crate::Tensor<T, S, D, R>
{
    /// The `ord`-norm of every element (rank 0); panics with PyTorch's
    /// text for `inf`, `-inf` or a negative order of no elements.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = Tensor::<f32, shape![2]>::from_vec(vec![3.0, 4.0]).unwrap();
    /// assert_eq!(x.vector_norm(2.0).to_vec(), [5.0]);
    /// ```
    pub fn vector_norm(&self, ord: f64) -> crate::Tensor<<T as NormInput>::Real, (), D>
    where
        T: NormElement,
    {
        let mask = vec![true; self.layout.rank()];
        from_parts!(crate::error::or_panic(typed_norm_parts(
            self.strided(),
            ord,
            &mask,
            false
        )))
    }

    /// The `ord`-norm along axis `I`, which leaves the type.
    pub fn vector_norm_dim<const I: usize>(
        &self,
        ord: f64,
    ) -> crate::Tensor<<T as NormInput>::Real, <S as crate::shape::reduce::ReduceAxis<I>>::Removed, D>
    where
        T: NormElement,
        S: crate::shape::reduce::ReduceAxis<I>,
    {
        let mask = crate::ops::reductions::axis_mask(self.layout.rank(), I);
        from_parts!(crate::error::or_panic(typed_norm_parts(
            self.strided(),
            ord,
            &mask,
            false
        )))
    }

    /// The `ord`-norm along axis `I`, kept with size 1.
    pub fn vector_norm_keepdim<const I: usize>(
        &self,
        ord: f64,
    ) -> crate::Tensor<<T as NormInput>::Real, <S as crate::shape::reduce::ReduceAxis<I>>::Kept, D>
    where
        T: NormElement,
        S: crate::shape::reduce::ReduceAxis<I>,
    {
        let mask = crate::ops::reductions::axis_mask(self.layout.rank(), I);
        from_parts!(crate::error::or_panic(typed_norm_parts(
            self.strided(),
            ord,
            &mask,
            true
        )))
    }

    /// The `ord`-norm along the axes `L` (`axes![0, 1]`), which leave the type.
    pub fn vector_norm_dims<L: crate::shape::FixedShape>(
        &self,
        ord: f64,
    ) -> crate::Tensor<<T as NormInput>::Real, <S as crate::shape::reduce::ReduceAxes<L>>::Removed, D>
    where
        T: NormElement,
        S: crate::shape::reduce::ReduceAxes<L>,
    {
        let mask = crate::shape::reduce::axes_mask::<L>(self.layout.rank());
        from_parts!(crate::error::or_panic(typed_norm_parts(
            self.strided(),
            ord,
            &mask,
            false
        )))
    }
}

impl<T: NormInput, D: Normalizing, R: Repr> crate::Tensor<T, DynShape, D, R> {
    /// PyTorch's `norm(x, p)` of the whole tensor (`p` 2 is `"fro"`).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = DynTensor::<f64>::from_vec(vec![3.0, 4.0], &[2]).unwrap();
    /// assert_eq!(x.norm(2.0).unwrap().to_vec(), [5.0]);
    /// ```
    pub fn norm(&self, p: f64) -> Result<DynTensor<T::Real, D>, Error> {
        self.vector_norm(p, &[], false)
    }
}

impl<T: NormInput, D: Normalizing, R: Repr> crate::Tensor<T, DynShape, D, R> {
    /// PyTorch's `dist(x, other, p)`: the `p`-norm of `x - other` (the
    /// operands broadcast).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = DynTensor::<f32>::from_vec(vec![1.0, 1.0], &[2]).unwrap();
    /// let y = DynTensor::<f32>::from_vec(vec![4.0, 5.0], &[2]).unwrap();
    /// assert_eq!(x.dist(&y, 2.0).unwrap().to_vec(), [5.0]);
    /// ```
    pub fn dist<R2: Repr>(
        &self,
        other: &crate::Tensor<T, DynShape, D, R2>,
        p: f64,
    ) -> Result<DynTensor<T::Real, D>, Error> {
        let norm = T::dist_on(self.strided(), other.strided(), p)?;
        Ok(from_parts!(owned_parts(
            norm,
            StridedLayout::contiguous(DynSizes::from_slice(&[]))
        )))
    }
}

/// Element types of the NaN-aware sums: all twelve (PyTorch refuses
/// complex ones); integers and bool sum to int64 and have no NaN.
pub trait NanSum: crate::ops::reductions::Reduce {
    /// `x` with NaN replaced by 0 (a copy for the types that have NaN).
    #[doc(hidden)]
    fn without_nan<D: Normalizing>(
        x: StridedRef<'_, Self, D>,
    ) -> Result<Option<D::Buffer<Self>>, Error>;
}
macro_rules! nan_free {
    (floats: $($f:ty),*; others: $($t:ty),*) => {
        $(impl NanSum for $f {
            fn without_nan<D: Normalizing>(x: StridedRef<'_, Self, D>) -> Result<Option<D::Buffer<Self>>, Error> {
                if matches!(Self::DTYPE, DType::C64 | DType::C128) {
                    return Err(Error::NanSumComplex { device: device_name::<D>() });
                }
                let sizes = x.sizes;
                let strides = contiguous_strides::<Vec<usize>>(sizes);
                let is_nan: D::Buffer<bool> = D::map2(sizes, x, x, Ne)?;
                let none: [usize; 0] = [];
                let zero: D::Buffer<Self> = D::map1(
                    StridedRef { ptr: x.ptr, sizes: &none, strides: &none, offset: x.offset },
                    crate::ops::functions::Constant(<Self as Element>::ZERO),
                )?;
                let zeros = StridedRef { ptr: D::ptr(&zero), sizes, strides: &vec![0; sizes.len()], offset: 0 };
                Ok(Some(D::select(sizes, dense_ref::<bool, D>(&is_nan, sizes, &strides), zeros, x)?))
            }
        })*
        $(impl NanSum for $t {
            fn without_nan<D: Normalizing>(_: StridedRef<'_, Self, D>) -> Result<Option<D::Buffer<Self>>, Error> {
                Ok(None)
            }
        })*
    };
}
nan_free!(
    floats: half::f16, half::bf16, f32, f64, num_complex::Complex<f32>, num_complex::Complex<f64>;
    others: u8, i8, i16, i32, i64, bool
);

/// The device's name in PyTorch's texts.
fn device_name<D: crate::backend::Backend>() -> &'static str {
    match core::any::type_name::<D>().ends_with("Cuda") {
        true => "CUDA",
        false => "CPU",
    }
}

impl<T: NanSum, D: Normalizing, R: Repr> crate::Tensor<T, DynShape, D, R> {
    /// PyTorch's `nansum(x, dims, keepdim)`: NaN counts as 0; integers and
    /// bool sum to int64; an empty list reduces every dim.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = DynTensor::<f32>::from_vec(vec![1.0, f32::NAN, 2.0], &[3]).unwrap();
    /// assert_eq!(x.nansum(&[], false).unwrap().to_vec(), [3.0]);
    /// ```
    pub fn nansum(&self, dims: &[isize], keepdim: bool) -> Result<DynTensor<T::Sum, D>, Error> {
        let (mask, _) = dims_mask(dims, self.layout.rank())?;
        Ok(from_parts!(nansum_parts(self.strided(), &mask, keepdim)?))
    }

    /// PyTorch's `nanmean(x, dims, keepdim)`: the mean of the elements that
    /// are not NaN (NaN where there are none); floating types only.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = DynTensor::<f64>::from_vec(vec![1.0, f64::NAN, 2.0], &[3]).unwrap();
    /// assert_eq!(x.nanmean(&[0], false).unwrap().to_vec(), [1.5]);
    /// ```
    pub fn nanmean(&self, dims: &[isize], keepdim: bool) -> Result<DynTensor<T, D>, Error> {
        match T::DTYPE {
            DType::F16 | DType::BF16 | DType::F32 | DType::F64 => {}
            DType::C64 | DType::C128 => {
                return Err(Error::NanSumComplex {
                    device: device_name::<D>(),
                });
            }
            dtype => return Err(Error::NanMeanDType { dtype }),
        }
        let (mask, _) = dims_mask(dims, self.layout.rank())?;
        Ok(from_parts!(nanmean_parts::<T, DynSizes, D>(
            self.strided(),
            &mask,
            keepdim
        )?))
    }

    /// PyTorch's `count_nonzero(x, dims)`: int64 counts (NaN counts,
    /// `-0.0` does not); an empty list counts every element.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = DynTensor::<i32>::from_vec(vec![0, 3, 0, 1], &[2, 2]).unwrap();
    /// assert_eq!(x.count_nonzero(&[1]).unwrap().to_vec(), [1, 1]);
    /// ```
    pub fn count_nonzero(&self, dims: &[isize]) -> Result<DynTensor<i64, D>, Error> {
        let (mask, _) = dims_mask(dims, self.layout.rank())?;
        Ok(from_parts!(count_nonzero_parts(
            self.strided(),
            &mask,
            false
        )?))
    }

    /// PyTorch's `aminmax(x, dim=, keepdim=)`: the smallest and largest
    /// elements (NaN wins both), over every element with `dim` `None`.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = DynTensor::<i32>::from_vec(vec![4, -1, 7], &[3]).unwrap();
    /// let (lo, hi) = x.aminmax(None, false).unwrap();
    /// assert_eq!((lo.to_vec(), hi.to_vec()), (vec![-1], vec![7]));
    /// ```
    #[allow(clippy::type_complexity)]
    pub fn aminmax(
        &self,
        dim: Option<isize>,
        keepdim: bool,
    ) -> Result<(DynTensor<T, D>, DynTensor<T, D>), Error> {
        if !T::ORDERED {
            return Err(Error::AminmaxComplex { dtype: T::DTYPE });
        }
        let rank = self.layout.rank();
        let sizes = self.layout.sizes();
        let dims: Vec<isize> = match dim {
            Some(d) => {
                let w = crate::layout::views::wrap_dim(d, rank)?;
                if rank > 0 && sizes[w] == 0 {
                    return Err(Error::AminmaxEmptyDim { dim: w });
                }
                vec![d]
            }
            None => {
                if crate::layout::numel(sizes) == 0 {
                    return Err(Error::AminmaxEmpty);
                }
                Vec::new()
            }
        };
        // PyTorch keeps a rank-0 result at rank 0, and `dim=None` with
        // `keepdim` keeps every dim as 1.
        let keep = keepdim && rank > 0;
        Ok((self.amin(&dims, keep)?, self.amax(&dims, keep)?))
    }
}

/// A reduction into the parts of a tensor of shape `S2` (`x`, the mask,
/// `keepdim`).
type PartsMaker<T, U, S2, D> =
    fn(StridedRef<'_, T, D>, &[bool], bool) -> Result<crate::tensor::PartsOf<U, D, S2>, Error>;

/// The tensor of shape `S2` that `reduce` makes of `x` along `mask` (the
/// typed forms: a device's error is a panic with its message).
fn typed_reduction<T: Element, U: Element, S2: crate::shape::Shape, D: Normalizing>(
    x: StridedRef<'_, T, D>,
    mask: &[bool],
    keepdim: bool,
    reduce: PartsMaker<T, U, S2, D>,
) -> crate::Tensor<U, S2, D> {
    from_parts!(crate::error::or_panic(reduce(x, mask, keepdim)))
}

/// `nanmean` of `x` (a floating type) along `mask` as a tensor's parts:
/// the sums without NaN over the counts of numbers, each rounded to `T`.
fn nanmean_parts<T: NanSum, A: crate::shape::SizeArray, D: Normalizing>(
    x: StridedRef<'_, T, D>,
    mask: &[bool],
    keepdim: bool,
) -> Result<OwnedParts<T, D, A>, Error> {
    let sizes = x.sizes;
    let strides = contiguous_strides::<Vec<usize>>(sizes);
    let cleaned = T::without_nan(x)?.expect("a floating type");
    let sums = D::reduce(dense_ref::<T, D>(&cleaned, sizes, &strides), mask, Sum)?;
    // The sums rounded to `T` first, as PyTorch's (a float16 sum can
    // overflow before the division).
    let kept = out_sizes(sizes, mask, false);
    let kept_strides = contiguous_strides::<Vec<usize>>(&kept);
    let sums: D::Buffer<T> = D::map1(
        dense_ref::<T::Sum, D>(&sums, &kept, &kept_strides),
        Cast::<T>::new(),
    )?;
    let is_number: D::Buffer<bool> = D::map2(sizes, x, x, crate::ops::functions::Eq)?;
    let ones: D::Buffer<T> = D::map1(
        dense_ref::<bool, D>(&is_number, sizes, &strides),
        Cast::<T>::new(),
    )?;
    let counts = D::reduce(dense_ref::<T, D>(&ones, sizes, &strides), mask, Sum)?;
    let counts: D::Buffer<T> = D::map1(
        dense_ref::<T::Sum, D>(&counts, &kept, &kept_strides),
        Cast::<T>::new(),
    )?;
    let means = D::map2(
        &kept,
        dense_ref::<T, D>(&sums, &kept, &kept_strides),
        dense_ref::<T, D>(&counts, &kept, &kept_strides),
        TrueDivSame,
    )?;
    let out = out_sizes(sizes, mask, keepdim);
    Ok(owned_parts(
        means,
        StridedLayout::contiguous(crate::layout::array_from::<A>(&out)),
    ))
}

/// `nansum` of `x` along `mask` as a tensor's parts.
fn nansum_parts<T: NanSum, A: crate::shape::SizeArray, D: Normalizing>(
    x: StridedRef<'_, T, D>,
    mask: &[bool],
    keepdim: bool,
) -> Result<OwnedParts<T::Sum, D, A>, Error> {
    let cleaned = T::without_nan(x)?;
    let strides = contiguous_strides::<Vec<usize>>(x.sizes);
    let x = match &cleaned {
        Some(b) => dense_ref::<T, D>(b, x.sizes, &strides),
        None => x,
    };
    let sizes = out_sizes(x.sizes, mask, keepdim);
    checked_storage(&sizes, size_of::<T::Sum>())?;
    let sums = D::reduce(x, mask, Sum)?;
    Ok(owned_parts(
        sums,
        StridedLayout::contiguous(crate::layout::array_from::<A>(&sizes)),
    ))
}

/// `count_nonzero` of `x` along `mask` as a tensor's parts.
fn count_nonzero_parts<T: Element, A: crate::shape::SizeArray, D: Normalizing>(
    x: StridedRef<'_, T, D>,
    mask: &[bool],
    keepdim: bool,
) -> Result<OwnedParts<i64, D, A>, Error> {
    let sizes = x.sizes;
    let strides = contiguous_strides::<Vec<usize>>(sizes);
    let nonzero: D::Buffer<bool> = D::map1(x, WithRight(Ne, <T as Element>::ZERO))?;
    let counts = D::reduce(dense_ref::<bool, D>(&nonzero, sizes, &strides), mask, Sum)?;
    let out = out_sizes(sizes, mask, keepdim);
    Ok(owned_parts(
        counts,
        StridedLayout::contiguous(crate::layout::array_from::<A>(&out)),
    ))
}

/// The static forms of `nansum` and `count_nonzero`: the axes in the type.
impl<T: NanSum, S: crate::shape::Shape + crate::shape::list::TupleShape, D: Normalizing, R: Repr>
    crate::Tensor<T, S, D, R>
{
    /// `nansum` along axis `I` (NaN counts as 0), which leaves the type.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = Tensor::<f32, shape![2, 2]>::from_vec(vec![1.0, f32::NAN, 2.0, 3.0]).unwrap();
    /// assert_eq!(x.nansum_dim::<1>().to_vec(), [1.0, 5.0]);
    /// ```
    pub fn nansum_dim<const I: usize>(
        &self,
    ) -> crate::Tensor<T::Sum, <S as crate::shape::reduce::ReduceAxis<I>>::Removed, D>
    where
        S: crate::shape::reduce::ReduceAxis<I>,
    {
        let mask = crate::ops::reductions::axis_mask(self.layout.rank(), I);
        typed_reduction(self.strided(), &mask, false, nansum_parts)
    }

    /// `nansum` along the axes `L` (`axes![0, 1]`), which leave the type.
    pub fn nansum_dims<L: crate::shape::FixedShape>(
        &self,
    ) -> crate::Tensor<T::Sum, <S as crate::shape::reduce::ReduceAxes<L>>::Removed, D>
    where
        S: crate::shape::reduce::ReduceAxes<L>,
    {
        let mask = crate::shape::reduce::axes_mask::<L>(self.layout.rank());
        typed_reduction(self.strided(), &mask, false, nansum_parts)
    }

    /// The nonzero elements along axis `I`, counted (int64).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = Tensor::<i32, shape![2, 3]>::from_vec(vec![0, 1, 2, 0, 0, 5]).unwrap();
    /// assert_eq!(x.count_nonzero_dim::<1>().to_vec(), [2, 1]);
    /// ```
    pub fn count_nonzero_dim<const I: usize>(
        &self,
    ) -> crate::Tensor<i64, <S as crate::shape::reduce::ReduceAxis<I>>::Removed, D>
    where
        S: crate::shape::reduce::ReduceAxis<I>,
    {
        let mask = crate::ops::reductions::axis_mask(self.layout.rank(), I);
        typed_reduction(self.strided(), &mask, false, count_nonzero_parts)
    }

    /// The nonzero elements along the axes `L`, counted (int64).
    pub fn count_nonzero_dims<L: crate::shape::FixedShape>(
        &self,
    ) -> crate::Tensor<i64, <S as crate::shape::reduce::ReduceAxes<L>>::Removed, D>
    where
        S: crate::shape::reduce::ReduceAxes<L>,
    {
        let mask = crate::shape::reduce::axes_mask::<L>(self.layout.rank());
        typed_reduction(self.strided(), &mask, false, count_nonzero_parts)
    }
}

/// The element types of the typed `nanmean`: floating types (PyTorch
/// refuses integers and bool, and complex numbers on the CPU).
#[diagnostic::on_unimplemented(
    message = "nanmean(): expected input to have floating point dtype but got `{Self}`",
    label = "a tensor of `{Self}`",
    note = "convert first: `x.cast::<f32>().nanmean_dim::<DIM>()`; integers have no NaN, so `mean` serves them"
)]
pub trait NanMeanElement: NanSum {}
impl NanMeanElement for half::f16 {}
impl NanMeanElement for half::bf16 {}
impl NanMeanElement for f32 {}
impl NanMeanElement for f64 {}

/// The static forms of `nanmean`: the axes in the type.
impl<T: NanSum, S: crate::shape::Shape + crate::shape::list::TupleShape, D: Normalizing, R: Repr>
    crate::Tensor<T, S, D, R>
{
    /// `nanmean` along axis `I`: the mean of the elements that are not NaN
    /// (NaN where there are none), which leaves the type. An integer tensor
    /// does not compile.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = Tensor::<f32, shape![2, 2]>::from_vec(vec![1.0, f32::NAN, 2.0, 4.0]).unwrap();
    /// assert_eq!(x.nanmean_dim::<1>().to_vec(), [1.0, 3.0]);
    /// ```
    pub fn nanmean_dim<const I: usize>(
        &self,
    ) -> crate::Tensor<T, <S as crate::shape::reduce::ReduceAxis<I>>::Removed, D>
    where
        T: NanMeanElement,
        S: crate::shape::reduce::ReduceAxis<I>,
    {
        let mask = crate::ops::reductions::axis_mask(self.layout.rank(), I);
        typed_reduction(self.strided(), &mask, false, nanmean_parts)
    }

    /// `nanmean` along axis `I`, kept with size 1.
    pub fn nanmean_keepdim<const I: usize>(
        &self,
    ) -> crate::Tensor<T, <S as crate::shape::reduce::ReduceAxis<I>>::Kept, D>
    where
        T: NanMeanElement,
        S: crate::shape::reduce::ReduceAxis<I>,
    {
        let mask = crate::ops::reductions::axis_mask(self.layout.rank(), I);
        typed_reduction(self.strided(), &mask, true, nanmean_parts)
    }

    /// `nanmean` along the axes `L` (`axes![0, 1]`), which leave the type.
    pub fn nanmean_dims<L: crate::shape::FixedShape>(
        &self,
    ) -> crate::Tensor<T, <S as crate::shape::reduce::ReduceAxes<L>>::Removed, D>
    where
        T: NanMeanElement,
        S: crate::shape::reduce::ReduceAxes<L>,
    {
        let mask = crate::shape::reduce::axes_mask::<L>(self.layout.rank());
        typed_reduction(self.strided(), &mask, false, nanmean_parts)
    }
}

/// The static forms of `aminmax`: the smallest and largest values together,
/// along an axis that the types prove non-empty (a `Dyn` size of 0 panics
/// with PyTorch's message, as `amin_dim` does).
impl<T: Element, S: crate::shape::Shape + crate::shape::list::TupleShape, D: Normalizing, R: Repr>
    crate::Tensor<T, S, D, R>
{
    /// PyTorch's `aminmax(dim=I)`: `(min, max)` along axis `I`, which
    /// leaves the type. A complex tensor does not compile.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = tensor![[1, 7], [3, 4]];
    /// let (lo, hi) = x.aminmax_dim::<1>();
    /// assert_eq!((lo.to_vec(), hi.to_vec()), (vec![1, 3], vec![7, 4]));
    /// ```
    #[allow(clippy::type_complexity)]
    pub fn aminmax_dim<const I: usize>(
        &self,
    ) -> (
        crate::Tensor<T, <S as crate::shape::reduce::ExtremeAxis<I>>::Removed, D>,
        crate::Tensor<T, <S as crate::shape::reduce::ExtremeAxis<I>>::Removed, D>,
    )
    where
        T: crate::ops::reductions::reducers::Extremum,
        S: crate::shape::reduce::ExtremeAxis<I>,
    {
        (self.amin_dim::<I>(), self.amax_dim::<I>())
    }

    /// [`aminmax_dim`](Self::aminmax_dim) with the axis kept as size 1
    /// (`keepdim=True`).
    #[allow(clippy::type_complexity)]
    pub fn aminmax_keepdim<const I: usize>(
        &self,
    ) -> (
        crate::Tensor<T, <S as crate::shape::reduce::ExtremeAxis<I>>::Kept, D>,
        crate::Tensor<T, <S as crate::shape::reduce::ExtremeAxis<I>>::Kept, D>,
    )
    where
        T: crate::ops::reductions::reducers::Extremum,
        S: crate::shape::reduce::ExtremeAxis<I>,
    {
        (self.amin_keepdim::<I>(), self.amax_keepdim::<I>())
    }
}

/// `a / b` in `a`'s type, for floating types (the mean of `nanmean`).
#[derive(Clone, Copy)]
struct TrueDivSame;
impl<T: Element> crate::ops::functions::BinaryFn<T, T, T> for TrueDivSame {
    #[inline(always)]
    fn call(&self, a: T, b: T) -> T {
        crate::dtype::cast::cast::<f64, T>(
            crate::dtype::cast::cast::<T, f64>(a) / crate::dtype::cast::cast::<T, f64>(b),
        )
    }
    fn kernel_op(&self) -> Option<crate::ops::op_codes::KernelOp> {
        Some(crate::ops::op_codes::KernelOp::new(
            crate::ops::op_codes::OpCode::Div,
        ))
    }
}
