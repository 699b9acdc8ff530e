//! `softmax`, `log_softmax` and `logsumexp` with PyTorch's semantics.
//!
//! | form | static shapes (the dim in the type) | `DynTensor` | `AnyTensor` |
//! |---|---|---|---|
//! | softmax | `x.softmax::<1>()` | `x.softmax(-1)?` | `x.softmax(-1, None)?` |
//! | in another dtype | `x.softmax_in::<f32, 1>()` | `x.softmax_in::<f32>(-1)?` | `x.softmax(-1, Some(DType::F32))?` |
//! | log-softmax | `x.log_softmax::<1>()` (and `_in`) | `x.log_softmax(1)?` | `x.log_softmax(1, None)?` |
//! | logsumexp | `x.logsumexp_dim::<1>()`, `_keepdim`, `_dims::<axes![0, 1]>()` | `x.logsumexp(&[1], keepdim)?` | the same |
//!
//! Softmax takes floating tensors: float16 and bfloat16 compute in float32
//! and give their own type, float32 and float64 their own. Another dtype
//! (an integer, bool, complex tensor) is a compile error on static shapes
//! and PyTorch's error on runtime dtypes, unless a dtype to compute in is
//! given (PyTorch's `dtype=`): the input is converted to it first. A row
//! holding NaN gives NaN, as does one holding `inf`; the maximum is taken
//! out before `exp`, so large values do not overflow. `logsumexp` takes
//! every dtype: integers and bool give float32, a complex tensor's maxima
//! are those of its real parts (PyTorch's rule).
//!
//! ```
//! use shaped::prelude::*;
//! let x = Tensor::<f32, shape![2, 3]>::from_vec(vec![1.0, 2.0, 3.0, 0.0, 0.0, 1000.0]).unwrap();
//! let p = x.softmax::<1>();
//! assert!((p.to_vec()[..3].iter().sum::<f32>() - 1.0).abs() < 1e-6);
//! assert_eq!(p.to_vec()[3..], [0.0, 0.0, 1.0]);
//! let counts = Tensor::<i64, shape![3]>::from_vec(vec![1, 1, 2]).unwrap();
//! let q: Tensor<f64, shape![3]> = counts.softmax_in::<f64, 0>();
//! assert!((q.to_vec()[2] - 0.576117).abs() < 1e-6);
//! ```

use crate::backend::{Normalizing, SoftmaxFloat, StridedRef};
use crate::dtype::Element;
use crate::dynamic::{DynShape, DynTensor};
use crate::error::{Error, or_panic};
use crate::layout::views::wrap_dim;
use crate::layout::{StridedLayout, array_from, checked_storage, contiguous_strides};
use crate::ops::dense_ref;
use crate::ops::functions::Cast;
use crate::shape::Shape;
use crate::shape::axes::At;
use crate::shape::dynamic::DynSizes;
use crate::shape::list::TupleShape;
use crate::storage::Repr;
use crate::tensor::{OwnedParts, Tensor, from_parts, owned_parts};

/// The element types softmax gives: float16, bfloat16, float32, float64.
#[diagnostic::on_unimplemented(
    message = "softmax needs a floating-point tensor: `{Self}` is not one",
    label = "a tensor of `{Self}`",
    note = "compute in a floating dtype: `x.softmax_in::<f32, DIM>()` converts first (PyTorch's `dtype=`)"
)]
pub trait SoftmaxElement: Element {
    /// The type softmax computes in (float32 for the half types).
    type Compute: SoftmaxFloat;
    /// The result, computed in [`Compute`](Self::Compute), as this type.
    #[doc(hidden)]
    fn from_compute<D: Normalizing>(
        out: D::Buffer<Self::Compute>,
        sizes: &[usize],
    ) -> Result<D::Buffer<Self>, Error>;
}
macro_rules! computes_in_itself {
    ($($t:ty),*) => {$(
        impl SoftmaxElement for $t {
            type Compute = $t;
            fn from_compute<D: Normalizing>(out: D::Buffer<$t>, _: &[usize]) -> Result<D::Buffer<$t>, Error> {
                Ok(out)
            }
        }
    )*};
}
computes_in_itself!(f32, f64);
macro_rules! computes_in_f32 {
    ($($t:ty),*) => {$(
        impl SoftmaxElement for $t {
            type Compute = f32;
            fn from_compute<D: Normalizing>(out: D::Buffer<f32>, sizes: &[usize]) -> Result<D::Buffer<$t>, Error> {
                let strides = contiguous_strides::<Vec<usize>>(sizes);
                D::map1(dense_ref::<f32, D>(&out, sizes, &strides), Cast::<$t>::new())
            }
        }
    )*};
}
computes_in_f32!(half::f16, half::bf16);

/// Softmax (`log`) of `x` along `dim` into `U`, computed in `U::Compute`:
/// `x` converted to `U` first (PyTorch's `dtype=`), then to the compute
/// type where they differ.
pub(crate) fn softmax_parts<
    T: Element,
    U: SoftmaxElement,
    A: crate::shape::SizeArray,
    D: Normalizing,
>(
    x: StridedRef<'_, T, D>,
    dim: usize,
    log: bool,
) -> Result<OwnedParts<U, D, A>, Error> {
    let sizes = x.sizes;
    checked_storage(sizes, size_of::<U>())?;
    let layout = StridedLayout::contiguous(array_from::<A>(sizes));
    if crate::layout::numel(sizes) == 0 {
        return Ok(owned_parts(D::map1(x, Cast::<U>::new())?, layout));
    }
    let dense = contiguous_strides::<Vec<usize>>(sizes);
    // PyTorch converts to `dtype` first: rounding to a half type happens
    // before the computation in float32.
    let converted;
    let input: StridedRef<'_, U::Compute, D> = if T::DTYPE == U::Compute::DTYPE {
        StridedRef {
            ptr: D::cast_ptr(x.ptr),
            sizes: x.sizes,
            strides: x.strides,
            offset: x.offset,
        }
    } else {
        converted = if T::DTYPE == U::DTYPE {
            D::map1(x, Cast::<U::Compute>::new())?
        } else {
            let rounded = D::map1(x, Cast::<U>::new())?;
            D::map1(
                dense_ref::<U, D>(&rounded, sizes, &dense),
                Cast::<U::Compute>::new(),
            )?
        };
        dense_ref::<U::Compute, D>(&converted, sizes, &dense)
    };
    // A rank-0 tensor is one line of one element.
    let one = [1];
    let input = match input.sizes.is_empty() {
        true => StridedRef {
            sizes: &one,
            strides: &one,
            ..input
        },
        false => input,
    };
    let out = D::softmax(input, dim, log)?;
    Ok(owned_parts(U::from_compute::<D>(out, sizes)?, layout))
}
/// The kernel PyTorch names in its error for a dtype softmax does not take.
pub(crate) fn kernel_name(dim: usize, rank: usize, log: bool) -> &'static str {
    match (log, dim + 1 >= rank) {
        (false, true) => "softmax_lastdim_kernel_impl",
        (false, false) => "softmax_kernel_impl",
        (true, true) => "log_softmax_lastdim_kernel_impl",
        (true, false) => "log_softmax_kernel_impl",
    }
}

/// Element types of `DynTensor` softmax: all twelve; the floating ones
/// compute, the others give PyTorch's error (except on no elements, where
/// PyTorch checks nothing and gives the empty tensor).
pub trait SoftmaxInput: Element {
    /// Softmax (`log`) along the wrapped `dim`, or PyTorch's error.
    #[doc(hidden)]
    fn softmax_on<D: Normalizing>(
        x: StridedRef<'_, Self, D>,
        dim: usize,
        log: bool,
    ) -> Result<OwnedParts<Self, D, DynSizes>, Error>;
}
macro_rules! softmax_inputs {
    (computes: $($f:ty),*; refuses: $($t:ty),*) => {
        $(impl SoftmaxInput for $f {
            fn softmax_on<D: Normalizing>(
                x: StridedRef<'_, Self, D>,
                dim: usize,
                log: bool,
            ) -> Result<OwnedParts<Self, D, DynSizes>, Error> {
                softmax_parts::<Self, Self, DynSizes, D>(x, dim, log)
            }
        })*
        $(impl SoftmaxInput for $t {
            fn softmax_on<D: Normalizing>(
                x: StridedRef<'_, Self, D>,
                dim: usize,
                log: bool,
            ) -> Result<OwnedParts<Self, D, DynSizes>, Error> {
                if crate::layout::numel(x.sizes) == 0 {
                    let layout = StridedLayout::contiguous(DynSizes::from_slice(x.sizes));
                    return Ok(owned_parts(D::map1(x, crate::ops::functions::Identity)?, layout));
                }
                Err(Error::NotImplementedFor {
                    op: kernel_name(dim, x.sizes.len(), log),
                    dtype: Self::DTYPE,
                })
            }
        })*
    };
}
softmax_inputs!(
    computes: half::f16, half::bf16, f32, f64;
    refuses: num_complex::Complex<f32>, num_complex::Complex<f64>, u8, i8, i16, i32, i64, bool
);

/// The static forms: the dim in the type, checked against the rank.
impl<T: Element, S: Shape + TupleShape, D: Normalizing, R: Repr> Tensor<T, S, D, R> {
    /// Softmax along dim `I`: `exp(x - max) / sum(exp(x - max))` over each
    /// line along `I` (see the [module](self) for the rules).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = Tensor::<f32, shape![2, 2]>::from_vec(vec![0.0, 0.0, 1.0, 1.0]).unwrap();
    /// assert_eq!(x.softmax::<1>().to_vec(), [0.5, 0.5, 0.5, 0.5]);
    /// ```
    pub fn softmax<const I: usize>(&self) -> Tensor<T, S, D>
    where
        T: SoftmaxElement,
        S: At<I>,
    {
        self.softmax_in::<T, I>()
    }

    /// Log-softmax along dim `I`: `x - max - ln(sum(exp(x - max)))`.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = Tensor::<f64, shape![2]>::from_vec(vec![0.0, 0.0]).unwrap();
    /// assert_eq!(x.log_softmax::<0>().to_vec(), [-2f64.ln(); 2]);
    /// ```
    pub fn log_softmax<const I: usize>(&self) -> Tensor<T, S, D>
    where
        T: SoftmaxElement,
        S: At<I>,
    {
        self.log_softmax_in::<T, I>()
    }

    /// Softmax along dim `I` of the input converted to `U` (PyTorch's
    /// `softmax(x, dim, dtype=U)`): any input, a floating `U`.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = Tensor::<bool, shape![2]>::from_vec(vec![true, false]).unwrap();
    /// let y: Tensor<f64, shape![2]> = x.softmax_in::<f64, 0>();
    /// assert!((y.to_vec()[0] - 0.7310585786300049).abs() < 1e-15);
    /// ```
    pub fn softmax_in<U: SoftmaxElement, const I: usize>(&self) -> Tensor<U, S, D>
    where
        S: At<I>,
    {
        from_parts!(or_panic(softmax_parts::<T, U, S::Sizes, D>(
            self.strided(),
            I,
            false
        )))
    }

    /// Log-softmax along dim `I` of the input converted to `U`.
    pub fn log_softmax_in<U: SoftmaxElement, const I: usize>(&self) -> Tensor<U, S, D>
    where
        S: At<I>,
    {
        from_parts!(or_panic(softmax_parts::<T, U, S::Sizes, D>(
            self.strided(),
            I,
            true
        )))
    }
}

/// The runtime forms: PyTorch's dim (negative from the end) and texts.
impl<T: SoftmaxInput, D: Normalizing, R: Repr> Tensor<T, DynShape, D, R> {
    /// Softmax along `dim`; PyTorch's error for a dim out of range or a
    /// dtype that is not floating.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = DynTensor::<f32>::from_vec(vec![0.0, 0.0], &[1, 2]).unwrap();
    /// assert_eq!(x.softmax(-1).unwrap().to_vec(), [0.5, 0.5]);
    /// let n = DynTensor::<i64>::from_vec(vec![1, 2], &[2]).unwrap();
    /// assert_eq!(
    ///     n.softmax(0).unwrap_err().to_string(),
    ///     "\"softmax_lastdim_kernel_impl\" not implemented for 'Long'"
    /// );
    /// ```
    pub fn softmax(&self, dim: isize) -> Result<DynTensor<T, D>, Error> {
        let d = wrap_dim(dim, self.layout.rank())?;
        Ok(from_parts!(T::softmax_on(self.strided(), d, false)?))
    }

    /// Log-softmax along `dim`.
    pub fn log_softmax(&self, dim: isize) -> Result<DynTensor<T, D>, Error> {
        let d = wrap_dim(dim, self.layout.rank())?;
        Ok(from_parts!(T::softmax_on(self.strided(), d, true)?))
    }

    /// Softmax along `dim` of the input converted to `U` first.
    pub fn softmax_in<U: SoftmaxElement>(&self, dim: isize) -> Result<DynTensor<U, D>, Error> {
        let d = wrap_dim(dim, self.layout.rank())?;
        Ok(from_parts!(softmax_parts::<T, U, DynSizes, D>(
            self.strided(),
            d,
            false
        )?))
    }

    /// Log-softmax along `dim` of the input converted to `U` first.
    pub fn log_softmax_in<U: SoftmaxElement>(&self, dim: isize) -> Result<DynTensor<U, D>, Error> {
        let d = wrap_dim(dim, self.layout.rank())?;
        Ok(from_parts!(softmax_parts::<T, U, DynSizes, D>(
            self.strided(),
            d,
            true
        )?))
    }
}

/// Element types of `logsumexp` (all twelve), and the dtype it gives:
/// floating and complex types their own, integers and bool float32
/// (PyTorch's default float).
pub trait LogSumExp: Element {
    /// The result's element type.
    type Out: Element;
    /// `logsumexp` along the dims of `mask`, contiguous over the kept
    /// dims.
    #[doc(hidden)]
    fn logsumexp_on<D: Normalizing>(
        x: StridedRef<'_, Self, D>,
        mask: &[bool],
    ) -> Result<D::Buffer<Self::Out>, Error>;
}
macro_rules! logsumexp_in {
    ($c:ty => $($t:ty: $out:ty),*) => {$(
        impl LogSumExp for $t {
            type Out = $out;
            fn logsumexp_on<D: Normalizing>(
                x: StridedRef<'_, Self, D>,
                mask: &[bool],
            ) -> Result<D::Buffer<$out>, Error> {
                logsumexp_buffer::<Self, $c, $out, D>(x, mask)
            }
        }
    )*};
}
logsumexp_in!(f32 => half::f16: half::f16, half::bf16: half::bf16, f32: f32, u8: f32, i8: f32, i16: f32, i32: f32, i64: f32, bool: f32);
logsumexp_in!(f64 => f64: f64);
macro_rules! logsumexp_complex {
    ($($r:ty: $c:ty),*) => {$(
        impl LogSumExp for $c {
            type Out = $c;
            fn logsumexp_on<D: Normalizing>(
                x: StridedRef<'_, Self, D>,
                mask: &[bool],
            ) -> Result<D::Buffer<$c>, Error> {
                logsumexp_complex::<$r, $c, D>(x, mask)
            }
        }
    )*};
}
logsumexp_complex!(f32: num_complex::Complex<f32>, f64: num_complex::Complex<f64>);

/// `log(sum(exp(x)))` along `mask`, computed in `C` as PyTorch does (see
/// [`Normalizing::logsumexp`]); the result converted to `U`, contiguous
/// over the kept dims.
fn logsumexp_buffer<T: Element, C: SoftmaxFloat, U: Element, D: Normalizing>(
    x: StridedRef<'_, T, D>,
    mask: &[bool],
) -> Result<D::Buffer<U>, Error> {
    let dense = contiguous_strides::<Vec<usize>>(x.sizes);
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
        dense_ref::<C, D>(&converted, x.sizes, &dense)
    };
    let kept = crate::ops::reductions::out_sizes(x.sizes, mask, false);
    let result = D::logsumexp(xc, mask)?;
    // (A copy when `U` is `C`: the reduced result is small.)
    D::map1(
        dense_ref::<C, D>(&result, &kept, &contiguous_strides::<Vec<usize>>(&kept)),
        Cast::<U>::new(),
    )
}

/// [`Normalizing::logsumexp`] composed of the reductions and elementwise
/// kernels: the maxima taken out first (an infinite maximum counts as 0),
/// then `ln(sum(exp(x - max))) + max`.
pub(crate) fn composed_logsumexp<C: SoftmaxFloat, D: Normalizing>(
    x: StridedRef<'_, C, D>,
    mask: &[bool],
) -> Result<D::Buffer<C>, Error> {
    let shift = match crate::layout::numel(x.sizes) {
        0 => None,
        _ => Some(finite_maxima(x, mask)?),
    };
    shifted_logsumexp::<C, C, D>(x, mask, shift)
}

/// `logsumexp` of complex elements: the maxima are those of the real parts
/// (PyTorch's rule), taken out as complex numbers.
fn logsumexp_complex<R: SoftmaxFloat, C: Element, D: Normalizing>(
    x: StridedRef<'_, C, D>,
    mask: &[bool],
) -> Result<D::Buffer<C>, Error>
where
    crate::ops::math::Exp: crate::ops::functions::UnaryFn<C, C>,
    crate::ops::math::Ln: crate::ops::functions::UnaryFn<C, C>,
    crate::ops::functions::Sub: crate::ops::functions::BinaryFn<C, C, C>,
    crate::ops::functions::Add: crate::ops::functions::BinaryFn<C, C, C>,
    crate::ops::reductions::reducers::Sum: crate::ops::reductions::Reducer<C, Out = C>,
{
    let shift = match crate::layout::numel(x.sizes) {
        0 => None,
        _ => {
            // The real parts: every other element of the same storage.
            let strides: Vec<usize> = x.strides.iter().map(|&s| 2 * s).collect();
            let real: StridedRef<'_, R, D> = StridedRef {
                ptr: D::cast_ptr::<C, R>(x.ptr),
                sizes: x.sizes,
                strides: &strides,
                offset: 2 * x.offset,
            };
            let maxima = finite_maxima(real, mask)?;
            let kept = crate::ops::reductions::out_sizes(x.sizes, mask, false);
            let kept_strides = contiguous_strides::<Vec<usize>>(&kept);
            Some(D::map1(
                dense_ref::<R, D>(&maxima, &kept, &kept_strides),
                Cast::<C>::new(),
            )?)
        }
    };
    shifted_logsumexp::<C, C, D>(x, mask, shift)
}

/// The maxima of `x` along `mask` (contiguous over the kept dims), 0 where
/// a maximum is infinite.
fn finite_maxima<C: SoftmaxFloat, D: Normalizing>(
    x: StridedRef<'_, C, D>,
    mask: &[bool],
) -> Result<D::Buffer<C>, Error> {
    use crate::ops::functions::{Constant, Eq, WithRight};
    use crate::ops::math::AbsFn;
    use crate::ops::reductions::reducers::{Extreme, Largest};
    let kept = crate::ops::reductions::out_sizes(x.sizes, mask, false);
    let kept_strides = contiguous_strides::<Vec<usize>>(&kept);
    let maxima = D::reduce(x, mask, Extreme::<Largest>::default())?;
    let magnitude: D::Buffer<C> = D::map1(dense_ref::<C, D>(&maxima, &kept, &kept_strides), AbsFn)?;
    let infinite: D::Buffer<bool> = D::map1(
        dense_ref::<C, D>(&magnitude, &kept, &kept_strides),
        WithRight(Eq, C::infinity()),
    )?;
    let none: [usize; 0] = [];
    let zero: D::Buffer<C> = D::map1(
        StridedRef {
            ptr: D::ptr(&maxima),
            sizes: &none,
            strides: &none,
            offset: 0,
        },
        Constant(C::zero()),
    )?;
    let zeros = StridedRef {
        ptr: D::ptr(&zero),
        sizes: &kept,
        strides: &vec![0; kept.len()],
        offset: 0,
    };
    D::select(
        &kept,
        dense_ref::<bool, D>(&infinite, &kept, &kept_strides),
        zeros,
        dense_ref::<C, D>(&maxima, &kept, &kept_strides),
    )
}

/// `ln(sum(exp(x - shift))) + shift` along `mask` (without a shift, on no
/// elements: `ln(sum(exp(x)))`), converted to `U`.
fn shifted_logsumexp<C: Element, U: Element, D: Normalizing>(
    x: StridedRef<'_, C, D>,
    mask: &[bool],
    shift: Option<D::Buffer<C>>,
) -> Result<D::Buffer<U>, Error>
where
    crate::ops::math::Exp: crate::ops::functions::UnaryFn<C, C>,
    crate::ops::math::Ln: crate::ops::functions::UnaryFn<C, C>,
    crate::ops::functions::Sub: crate::ops::functions::BinaryFn<C, C, C>,
    crate::ops::functions::Add: crate::ops::functions::BinaryFn<C, C, C>,
    crate::ops::reductions::reducers::Sum: crate::ops::reductions::Reducer<C, Out = C>,
{
    use crate::ops::functions::{Add, Sub};
    use crate::ops::math::{Exp, Ln};
    use crate::ops::reductions::reducers::Sum;
    let sizes = x.sizes;
    let dense = contiguous_strides::<Vec<usize>>(sizes);
    let kept = crate::ops::reductions::out_sizes(sizes, mask, false);
    let kept_strides = contiguous_strides::<Vec<usize>>(&kept);
    let shifted;
    let x = match &shift {
        None => x,
        Some(shift) => {
            // The shift broadcast back over the reduced dims.
            let along = crate::ops::along_reduced(mask, &kept_strides);
            let by = StridedRef {
                ptr: D::ptr(shift),
                sizes,
                strides: &along,
                offset: 0,
            };
            shifted = D::map2(sizes, x, by, Sub)?;
            dense_ref::<C, D>(&shifted, sizes, &dense)
        }
    };
    let exps: D::Buffer<C> = D::map1(x, Exp)?;
    let sums: D::Buffer<C> = D::reduce(dense_ref::<C, D>(&exps, sizes, &dense), mask, Sum)?;
    let logs: D::Buffer<C> = D::map1(dense_ref::<C, D>(&sums, &kept, &kept_strides), Ln)?;
    let result = match &shift {
        None => logs,
        Some(shift) => D::map2(
            &kept,
            dense_ref::<C, D>(&logs, &kept, &kept_strides),
            dense_ref::<C, D>(shift, &kept, &kept_strides),
            Add,
        )?,
    };
    // (A copy when `U` is `C`: the reduced result is small.)
    D::map1(
        dense_ref::<C, D>(&result, &kept, &kept_strides),
        Cast::<U>::new(),
    )
}

/// `logsumexp` of `x` along `mask` as a tensor's parts (`keepdim`: the
/// reduced dims kept with size 1).
fn logsumexp_parts<T: LogSumExp, A: crate::shape::SizeArray, D: Normalizing>(
    x: StridedRef<'_, T, D>,
    mask: &[bool],
    keepdim: bool,
) -> Result<OwnedParts<T::Out, D, A>, Error> {
    let sizes = crate::ops::reductions::out_sizes(x.sizes, mask, keepdim);
    checked_storage(&sizes, size_of::<T::Out>())?;
    let buffer = T::logsumexp_on(x, mask)?;
    Ok(owned_parts(
        buffer,
        StridedLayout::contiguous(array_from::<A>(&sizes)),
    ))
}

/// The static forms of `logsumexp`: the axes in the type, as the
/// reductions take them.
impl<T: LogSumExp, S: Shape + TupleShape, D: Normalizing, R: Repr> Tensor<T, S, D, R> {
    /// `log(sum(exp(x)))` along axis `I`, which leaves the type; integers
    /// and bool give float32.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = Tensor::<f32, shape![2, 2]>::from_vec(vec![0.0, 0.0, 1000.0, 1000.0]).unwrap();
    /// let y: Tensor<f32, shape![2]> = x.logsumexp_dim::<1>();
    /// assert_eq!(y.to_vec(), [2f32.ln(), 1000.0 + 2f32.ln()]);
    /// ```
    pub fn logsumexp_dim<const I: usize>(
        &self,
    ) -> Tensor<T::Out, <S as crate::shape::reduce::ReduceAxis<I>>::Removed, D>
    where
        S: crate::shape::reduce::ReduceAxis<I>,
    {
        let mask = crate::ops::reductions::axis_mask(self.layout.rank(), I);
        from_parts!(or_panic(logsumexp_parts(self.strided(), &mask, false)))
    }

    /// `logsumexp` along axis `I`, kept with size 1.
    pub fn logsumexp_keepdim<const I: usize>(
        &self,
    ) -> Tensor<T::Out, <S as crate::shape::reduce::ReduceAxis<I>>::Kept, D>
    where
        S: crate::shape::reduce::ReduceAxis<I>,
    {
        let mask = crate::ops::reductions::axis_mask(self.layout.rank(), I);
        from_parts!(or_panic(logsumexp_parts(self.strided(), &mask, true)))
    }

    /// `logsumexp` along the axes `L` (`axes![0, 1]`), which leave the type.
    pub fn logsumexp_dims<L: crate::shape::FixedShape>(
        &self,
    ) -> Tensor<T::Out, <S as crate::shape::reduce::ReduceAxes<L>>::Removed, D>
    where
        S: crate::shape::reduce::ReduceAxes<L>,
    {
        let mask = crate::shape::reduce::axes_mask::<L>(self.layout.rank());
        from_parts!(or_panic(logsumexp_parts(self.strided(), &mask, false)))
    }

    /// `logsumexp` along the axes `L`, kept with size 1.
    pub fn logsumexp_dims_keepdim<L: crate::shape::FixedShape>(
        &self,
    ) -> Tensor<T::Out, <S as crate::shape::reduce::ReduceAxes<L>>::Kept, D>
    where
        S: crate::shape::reduce::ReduceAxes<L>,
    {
        let mask = crate::shape::reduce::axes_mask::<L>(self.layout.rank());
        from_parts!(or_panic(logsumexp_parts(self.strided(), &mask, true)))
    }
}

impl<T: LogSumExp, D: Normalizing, R: Repr> Tensor<T, DynShape, D, R> {
    /// PyTorch's `logsumexp(x, dims, keepdim)`: an empty list reduces every
    /// dim (then only with `keepdim`, as PyTorch); integers and bool give
    /// float32; PyTorch's texts for a dim out of range or repeated.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = DynTensor::<i64>::from_vec(vec![0, 0], &[2]).unwrap();
    /// let y: DynTensor<f32> = x.logsumexp(&[0], false).unwrap();
    /// assert_eq!(y.to_vec(), [2f32.ln()]);
    /// assert_eq!(
    ///     x.logsumexp(&[0, -1], false).unwrap_err().to_string(),
    ///     "dim 0 appears multiple times in the list of dims"
    /// );
    /// ```
    pub fn logsumexp(&self, dims: &[isize], keepdim: bool) -> Result<DynTensor<T::Out, D>, Error> {
        let sizes = self.layout.sizes();
        let (mask, _) = crate::ops::reductions::dims_mask(dims, sizes.len())?;
        if dims.is_empty() && !keepdim && !sizes.is_empty() && crate::layout::numel(sizes) != 0 {
            // PyTorch adds the maxima, kept as size 1, into the result.
            return Err(Error::InPlaceShape {
                output: Vec::new(),
                broadcast: vec![1; sizes.len()],
            });
        }
        Ok(from_parts!(logsumexp_parts(
            self.strided(),
            &mask,
            keepdim
        )?))
    }
}
