//! The scans: `cumsum`, `cumprod`, `logcumsumexp`, `cummax` and `cummin`,
//! with PyTorch's semantics.
//!
//! | form | static shapes (the dim in the type) | `DynTensor` and `AnyTensor` |
//! |---|---|---|
//! | running sums | `x.cumsum::<1>()` | `x.cumsum(-1)?` |
//! | running products | `x.cumprod::<1>()` | `x.cumprod(1)?` |
//! | `log(sum(exp))` of every prefix | `x.logcumsumexp::<1>()` | `x.logcumsumexp(1)?` |
//! | running maxima and their indices | `x.cummax::<1>()` | `x.cummax(1)?` |
//! | running minima and their indices | `x.cummin::<1>()` | `x.cummin(1)?` |
//!
//! The result has the input's shape and is contiguous. `cumsum` and
//! `cumprod` take every dtype: integers and bool give int64 (and wrap on
//! overflow, as PyTorch's), the others their own; they accumulate as
//! PyTorch's CPU kernels do (float32 in float64, the half types in
//! float32, each result rounded once). `logcumsumexp` takes floating and
//! complex tensors and does not overflow. `cummax` and `cummin` take every
//! dtype but complex: an equal value takes over the index (the last index
//! of the running extreme is kept), a NaN takes over and stays.
//!
//! On static shapes, a dim out of range or a dtype the scan does not take
//! is a compile error; on runtime shapes and dtypes they are PyTorch's
//! errors. A rank-0 tensor scans as one element along dim 0 or -1.
//!
//! ```
//! use shaped::prelude::*;
//! let x = Tensor::<i32, shape![2, 3]>::from_vec(vec![1, 2, 3, 4, 5, 6]).unwrap();
//! let sums: Tensor<i64, shape![2, 3]> = x.cumsum::<1>();
//! assert_eq!(sums.to_vec(), [1, 3, 6, 4, 9, 15]);
//! let (values, indices) = x.cummax::<0>();
//! assert_eq!(values.to_vec(), [1, 2, 3, 4, 5, 6]);
//! assert_eq!(indices.to_vec(), [0, 0, 0, 1, 1, 1]);
//! let y = DynTensor::<f32>::from_vec(vec![0.0, 0.0], &[2]).unwrap();
//! assert_eq!(y.logcumsumexp(0).unwrap().to_vec(), [0.0, 2f32.ln()]);
//! ```

pub mod scanners;

pub use scanners::{
    CumElement, CumExtreme, CumExtremum, CumProd, CumSum, LogCumSumExp, LogCumSumExpElement,
    Scanner,
};

use crate::backend::{Scanning, StridedRef};
use crate::dtype::Element;
use crate::dynamic::{DynShape, DynTensor};
use crate::error::{Error, or_panic};
use crate::layout::views::wrap_dim;
use crate::layout::{StridedLayout, array_from, checked_storage};
use crate::ops::functions::Cast;
use crate::ops::reductions::reducers::{Direction, Extremum, Largest, Smallest};
use crate::shape::axes::At;
use crate::shape::dynamic::DynSizes;
use crate::shape::list::TupleShape;
use crate::shape::{Shape, SizeArray};
use crate::storage::Repr;
use crate::tensor::{OwnedParts, Tensor, from_parts, owned_parts};

/// `x` as the device scans it: a rank-0 tensor is one line of one element.
fn as_lines<'a, T: Element, D: Scanning>(
    x: StridedRef<'a, T, D>,
    one: &'a [usize; 1],
) -> StridedRef<'a, T, D> {
    match x.sizes.is_empty() {
        true => StridedRef {
            sizes: one,
            strides: one,
            ..x
        },
        false => x,
    }
}

/// The scan `s` of `x` along the (wrapped) `dim`, as a tensor's parts.
pub(crate) fn scan_parts<T: Element, S: Scanner<T>, A: SizeArray, D: Scanning>(
    x: StridedRef<'_, T, D>,
    dim: usize,
    s: S,
) -> Result<OwnedParts<S::Out, D, A>, Error> {
    let sizes = x.sizes;
    checked_storage(sizes, size_of::<S::Out>())?;
    let layout = StridedLayout::contiguous(array_from::<A>(sizes));
    if sizes.is_empty() {
        // PyTorch copies a rank-0 tensor (into the result's dtype) without
        // scanning it: `-0.0` stays, as does a complex NaN's other part.
        return Ok(owned_parts(D::map1(x, Cast::<S::Out>::new())?, layout));
    }
    Ok(owned_parts(D::scan(x, dim, s)?, layout))
}

/// A tensor's parts and those of its indices.
pub type IndexedParts<T, D, A> = (OwnedParts<T, D, A>, OwnedParts<i64, D, A>);

/// `cummax`/`cummin` of `x` along the (wrapped) `dim`, as the parts of the
/// values and of the indices.
pub(crate) fn cum_extreme_parts<T: Extremum, W: Direction, A: SizeArray, D: Scanning>(
    x: StridedRef<'_, T, D>,
    dim: usize,
) -> Result<IndexedParts<T, D, A>, Error> {
    let sizes = x.sizes;
    checked_storage(sizes, size_of::<i64>())?;
    let layout = StridedLayout::contiguous(array_from::<A>(sizes));
    let one = [1];
    let (values, indices) = D::scan_indexed(
        as_lines(x, &one),
        dim,
        CumExtreme::<W>(core::marker::PhantomData),
    )?;
    Ok((
        owned_parts(values, layout.clone()),
        owned_parts(indices, layout),
    ))
}

/// The static forms: the dim in the type, checked against the rank.
impl<T: Element, S: Shape + TupleShape, D: Scanning, R: Repr> Tensor<T, S, D, R> {
    /// Running sums along dim `I`; integers and bool give int64.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = Tensor::<f32, shape![2, 2]>::from_vec(vec![1.0, 2.0, 3.0, 4.0]).unwrap();
    /// assert_eq!(x.cumsum::<0>().to_vec(), [1.0, 2.0, 4.0, 6.0]);
    /// let b = Tensor::<bool, shape![3]>::from_vec(vec![true, false, true]).unwrap();
    /// let counts: Tensor<i64, shape![3]> = b.cumsum::<0>();
    /// assert_eq!(counts.to_vec(), [1, 1, 2]);
    /// ```
    pub fn cumsum<const I: usize>(&self) -> Tensor<T::Sum, S, D>
    where
        T: CumElement,
        S: At<I>,
    {
        from_parts!(or_panic(scan_parts::<T, CumSum, S::Sizes, D>(
            self.strided(),
            I,
            CumSum
        )))
    }

    /// Running products along dim `I`; integers and bool give int64.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = Tensor::<u8, shape![4]>::from_vec(vec![2, 3, 4, 5]).unwrap();
    /// assert_eq!(x.cumprod::<0>().to_vec(), [2i64, 6, 24, 120]);
    /// ```
    pub fn cumprod<const I: usize>(&self) -> Tensor<T::Sum, S, D>
    where
        T: CumElement,
        S: At<I>,
    {
        from_parts!(or_panic(scan_parts::<T, CumProd, S::Sizes, D>(
            self.strided(),
            I,
            CumProd
        )))
    }

    /// `log(sum(exp(x)))` of every prefix along dim `I`, without overflow.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = Tensor::<f64, shape![3]>::from_vec(vec![1000.0, 1000.0, f64::NEG_INFINITY]).unwrap();
    /// let y = x.logcumsumexp::<0>().to_vec();
    /// assert_eq!(y, [1000.0, 1000.0 + 2f64.ln(), 1000.0 + 2f64.ln()]);
    /// ```
    pub fn logcumsumexp<const I: usize>(&self) -> Tensor<T, S, D>
    where
        T: LogCumSumExpElement,
        S: At<I>,
    {
        from_parts!(or_panic(scan_parts::<T, LogCumSumExp, S::Sizes, D>(
            self.strided(),
            I,
            LogCumSumExp
        )))
    }

    /// Running maxima along dim `I` and their indices (the last index of an
    /// equal maximum; a NaN takes over and stays).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = Tensor::<f32, shape![4]>::from_vec(vec![1.0, 3.0, 3.0, 2.0]).unwrap();
    /// let (values, indices) = x.cummax::<0>();
    /// assert_eq!(values.to_vec(), [1.0, 3.0, 3.0, 3.0]);
    /// assert_eq!(indices.to_vec(), [0, 1, 2, 2]);
    /// ```
    pub fn cummax<const I: usize>(&self) -> (Tensor<T, S, D>, Tensor<i64, S, D>)
    where
        T: CumExtremum,
        S: At<I>,
    {
        let (values, indices) = or_panic(cum_extreme_parts::<T, Largest, S::Sizes, D>(
            self.strided(),
            I,
        ));
        (from_parts!(values), from_parts!(indices))
    }

    /// Running minima along dim `I` and their indices.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = Tensor::<i64, shape![2, 2]>::from_vec(vec![5, 1, 4, 1]).unwrap();
    /// let (values, indices) = x.cummin::<1>();
    /// assert_eq!(values.to_vec(), [5, 1, 4, 1]);
    /// assert_eq!(indices.to_vec(), [0, 1, 0, 1]);
    /// ```
    pub fn cummin<const I: usize>(&self) -> (Tensor<T, S, D>, Tensor<i64, S, D>)
    where
        T: CumExtremum,
        S: At<I>,
    {
        let (values, indices) = or_panic(cum_extreme_parts::<T, Smallest, S::Sizes, D>(
            self.strided(),
            I,
        ));
        (from_parts!(values), from_parts!(indices))
    }
}

/// Element types of `DynTensor::logcumsumexp`: all twelve; floating and
/// complex ones compute, the others give PyTorch's error.
pub trait LogCumSumExpInput: Element {
    /// `logcumsumexp` along the wrapped `dim`, or PyTorch's error.
    #[doc(hidden)]
    fn logcumsumexp_on<D: Scanning>(
        x: StridedRef<'_, Self, D>,
        dim: usize,
    ) -> Result<OwnedParts<Self, D, DynSizes>, Error>;
}
macro_rules! logcumsumexp_inputs {
    (computes: $($f:ty),*; refuses: $($t:ty),*) => {
        $(impl LogCumSumExpInput for $f {
            fn logcumsumexp_on<D: Scanning>(
                x: StridedRef<'_, Self, D>,
                dim: usize,
            ) -> Result<OwnedParts<Self, D, DynSizes>, Error> {
                scan_parts::<Self, LogCumSumExp, DynSizes, D>(x, dim, LogCumSumExp)
            }
        })*
        $(impl LogCumSumExpInput for $t {
            fn logcumsumexp_on<D: Scanning>(
                _: StridedRef<'_, Self, D>,
                _: usize,
            ) -> Result<OwnedParts<Self, D, DynSizes>, Error> {
                Err(Error::NotImplementedFor {
                    op: "logcumsumexp_out_cpu",
                    dtype: Self::DTYPE,
                })
            }
        })*
    };
}
logcumsumexp_inputs!(
    computes: half::f16, half::bf16, f32, f64, num_complex::Complex<f32>, num_complex::Complex<f64>;
    refuses: u8, i8, i16, i32, i64, bool
);

/// Element types of `DynTensor::cummax` and `cummin`: all twelve; complex
/// tensors give PyTorch's error, unless there is nothing to compare (no
/// elements, or rank 0), where PyTorch checks nothing.
pub trait CumExtremeInput: Element {
    /// `cummax` (`W` = [`Largest`]) or `cummin` along the wrapped `dim`.
    #[doc(hidden)]
    #[allow(clippy::type_complexity)]
    fn cum_extreme_on<W: Direction, D: Scanning>(
        x: StridedRef<'_, Self, D>,
        dim: usize,
    ) -> Result<IndexedParts<Self, D, DynSizes>, Error>;
}
macro_rules! cum_extreme_inputs {
    (computes: $($f:ty),*; refuses: $($t:ty),*) => {
        $(impl CumExtremeInput for $f {
            fn cum_extreme_on<W: Direction, D: Scanning>(
                x: StridedRef<'_, Self, D>,
                dim: usize,
            ) -> Result<IndexedParts<Self, D, DynSizes>, Error> {
                cum_extreme_parts::<Self, W, DynSizes, D>(x, dim)
            }
        })*
        $(impl CumExtremeInput for $t {
            fn cum_extreme_on<W: Direction, D: Scanning>(
                x: StridedRef<'_, Self, D>,
                _: usize,
            ) -> Result<IndexedParts<Self, D, DynSizes>, Error> {
                if crate::layout::numel(x.sizes) == 0 || x.sizes.is_empty() {
                    return complex_without_comparison(x);
                }
                Err(Error::NotImplementedFor {
                    op: if W::LARGEST { "cummax_cpu" } else { "cummin_cpu" },
                    dtype: Self::DTYPE,
                })
            }
        })*
    };
}
cum_extreme_inputs!(
    computes: half::f16, half::bf16, f32, f64, u8, i8, i16, i32, i64, bool;
    refuses: num_complex::Complex<f32>, num_complex::Complex<f64>
);

/// `cummax`/`cummin` where nothing is compared: a copy of `x` (empty or
/// one element) and zeros as indices.
fn complex_without_comparison<T: Element, D: Scanning>(
    x: StridedRef<'_, T, D>,
) -> Result<IndexedParts<T, D, DynSizes>, Error> {
    use crate::ops::functions::{Constant, Identity};
    let layout = StridedLayout::contiguous(DynSizes::from_slice(x.sizes));
    let values = D::map1(x, Identity)?;
    let zeros = D::map1(x, Constant(0i64))?;
    Ok((
        owned_parts(values, layout.clone()),
        owned_parts(zeros, layout),
    ))
}

/// `dim` wrapped for `cummax`/`cummin` (`op`): on a rank-0 tensor only 0
/// and -1 are taken, with PyTorch's text for the others.
fn cum_extreme_dim(op: &'static str, dim: isize, rank: usize) -> Result<usize, Error> {
    if rank == 0 && dim != 0 && dim != -1 {
        return Err(Error::ScanScalarDim { op, dim });
    }
    wrap_dim(dim, rank)
}

/// The runtime forms: PyTorch's dim (negative from the end) and texts.
impl<T: Element, D: Scanning, R: Repr> Tensor<T, DynShape, D, R> {
    /// Running sums along `dim`; integers and bool give int64.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = DynTensor::<u8>::from_vec(vec![200, 100], &[2]).unwrap();
    /// assert_eq!(x.cumsum(-1).unwrap().to_vec(), [200i64, 300]);
    /// assert_eq!(
    ///     x.cumsum(1).unwrap_err().to_string(),
    ///     "Dimension out of range (expected to be in range of [-1, 0], but got 1)"
    /// );
    /// ```
    pub fn cumsum(&self, dim: isize) -> Result<DynTensor<T::Sum, D>, Error>
    where
        T: CumElement,
    {
        let d = wrap_dim(dim, self.layout.rank())?;
        Ok(from_parts!(scan_parts::<T, CumSum, DynSizes, D>(
            self.strided(),
            d,
            CumSum
        )?))
    }

    /// Running products along `dim`; integers and bool give int64.
    pub fn cumprod(&self, dim: isize) -> Result<DynTensor<T::Sum, D>, Error>
    where
        T: CumElement,
    {
        let d = wrap_dim(dim, self.layout.rank())?;
        Ok(from_parts!(scan_parts::<T, CumProd, DynSizes, D>(
            self.strided(),
            d,
            CumProd
        )?))
    }

    /// `log(sum(exp(x)))` of every prefix along `dim`; PyTorch's error for
    /// an integer or bool tensor (even an empty one).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = DynTensor::<i64>::from_vec(vec![1, 2], &[2]).unwrap();
    /// assert_eq!(
    ///     x.logcumsumexp(0).unwrap_err().to_string(),
    ///     "\"logcumsumexp_out_cpu\" not implemented for 'Long'"
    /// );
    /// ```
    pub fn logcumsumexp(&self, dim: isize) -> Result<DynTensor<T, D>, Error>
    where
        T: LogCumSumExpInput,
    {
        let d = wrap_dim(dim, self.layout.rank())?;
        Ok(from_parts!(T::logcumsumexp_on(self.strided(), d)?))
    }

    /// Running maxima along `dim` and their indices; PyTorch's error for a
    /// complex tensor.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = DynTensor::<f32>::from_vec(vec![2.0, 1.0, 2.0], &[3]).unwrap();
    /// let (values, indices) = x.cummax(0).unwrap();
    /// assert_eq!((values.to_vec(), indices.to_vec()), (vec![2.0; 3], vec![0, 0, 2]));
    /// ```
    #[allow(clippy::type_complexity)]
    pub fn cummax(&self, dim: isize) -> Result<(DynTensor<T, D>, DynTensor<i64, D>), Error>
    where
        T: CumExtremeInput,
    {
        let d = cum_extreme_dim("cummax", dim, self.layout.rank())?;
        let (values, indices) = T::cum_extreme_on::<Largest, D>(self.strided(), d)?;
        Ok((from_parts!(values), from_parts!(indices)))
    }

    /// Running minima along `dim` and their indices.
    #[allow(clippy::type_complexity)]
    pub fn cummin(&self, dim: isize) -> Result<(DynTensor<T, D>, DynTensor<i64, D>), Error>
    where
        T: CumExtremeInput,
    {
        let d = cum_extreme_dim("cummin", dim, self.layout.rank())?;
        let (values, indices) = T::cum_extreme_on::<Smallest, D>(self.strided(), d)?;
        Ok((from_parts!(values), from_parts!(indices)))
    }
}
