//! `softmax` and `log_softmax` with PyTorch's semantics.
//!
//! | form | static shapes (the dim in the type) | `DynTensor` | `AnyTensor` |
//! |---|---|---|---|
//! | softmax | `x.softmax::<1>()` | `x.softmax(-1)?` | `x.softmax(-1, None)?` |
//! | in another dtype | `x.softmax_in::<f32, 1>()` | `x.softmax_in::<f32>(-1)?` | `x.softmax(-1, Some(DType::F32))?` |
//! | log-softmax | `x.log_softmax::<1>()` (and `_in`) | `x.log_softmax(1)?` | `x.log_softmax(1, None)?` |
//!
//! Softmax takes floating tensors: float16 and bfloat16 compute in float32
//! and give their own type, float32 and float64 their own. Another dtype
//! (an integer, bool, complex tensor) is a compile error on static shapes
//! and PyTorch's error on runtime dtypes, unless a dtype to compute in is
//! given (PyTorch's `dtype=`): the input is converted to it first. A row
//! holding NaN gives NaN, as does one holding `inf`; the maximum is taken
//! out before `exp`, so large values do not overflow.
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

/// The elements of a new contiguous buffer of `sizes`.
fn dense_ref<'a, X: Element, D: crate::backend::Backend>(
    buffer: &'a D::Buffer<X>,
    sizes: &'a [usize],
    strides: &'a [usize],
) -> StridedRef<'a, X, D> {
    StridedRef {
        ptr: D::ptr(buffer),
        sizes,
        strides,
        offset: 0,
    }
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
        from_parts!(or_panic(softmax_parts::<T, T, S::Sizes, D>(
            self.strided(),
            I,
            false
        )))
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
        from_parts!(or_panic(softmax_parts::<T, T, S::Sizes, D>(
            self.strided(),
            I,
            true
        )))
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
