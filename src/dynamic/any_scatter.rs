//! The scatters on [`AnyTensor`]: the index's and the source's dtypes and
//! the numbers are known only at run time, so each operation checks them
//! where PyTorch does and gives its text; a number converts to the
//! tensor's dtype by PyTorch's checked cast ("value cannot be converted to
//! type float without overflow").

use super::DynShape;
use super::any::{AnyElement, AnyTensor, any_tensor};
use super::any_index::{IndexOf, index_of};
use crate::backend::Cpu;
use crate::backend::Scattering;
use crate::dtype::cast::cast;
use crate::dtype::{DType, Element, Scalar};
use crate::error::Error;
use crate::layout::views::wrap_dim;
use crate::ops::indexing::Reduce;
use crate::storage::{Owned, Repr, Writable};
use crate::tensor::Tensor;
use num_complex::Complex;

/// PyTorch's C++ name of a dtype's element type, as its conversion errors
/// print it.
fn cpp_name(dtype: DType) -> &'static str {
    match dtype {
        DType::F16 => "c10::Half",
        DType::BF16 => "c10::BFloat16",
        DType::F32 => "float",
        DType::F64 => "double",
        DType::C64 => "c10::complex<float>",
        DType::C128 => "c10::complex<double>",
        DType::U8 => "uint8_t",
        DType::I8 => "int8_t",
        DType::I16 => "int16_t",
        DType::I32 => "int",
        DType::I64 => "int64_t",
        DType::Bool => "bool",
    }
}

/// The largest finite value of a dtype's real part, as a float.
fn finite_max(dtype: DType) -> f64 {
    match dtype {
        DType::F16 => 65504.0,
        DType::BF16 => 3.3895313892515355e38,
        DType::F32 | DType::C64 => f32::MAX as f64,
        DType::F64 | DType::C128 => f64::MAX,
        DType::U8 => 255.0,
        DType::I8 => 127.0,
        DType::I16 => 32767.0,
        DType::I32 => 2147483647.0,
        DType::I64 => 9223372036854775807.0,
        DType::Bool => 1.0,
    }
}

/// `Ok` when `value` converts to `x`'s dtype by [`checked_scalar`].
fn fill_value_fits<
    T: Element,
    S: crate::shape::Shape,
    D: crate::backend::Backend,
    R: crate::storage::Repr,
>(
    _: &crate::Tensor<T, S, D, R>,
    value: Scalar,
) -> Result<(), Error> {
    checked_scalar::<T>(value).map(|_| ())
}

/// `value` as a `T` by PyTorch's `checked_convert`: integers take floats
/// by truncation within their range (unsigned ones also down to minus
/// their maximum, wrapping), floats any value within their finite range or
/// not finite, bool anything (`!= 0`); a complex value needs a zero
/// imaginary part unless `T` is complex. Anything else is PyTorch's error.
pub(crate) fn checked_scalar<T: Element>(value: Scalar) -> Result<T, Error> {
    let dtype = T::DTYPE;
    let overflow = || Error::ScalarOverflow {
        type_name: cpp_name(dtype),
    };
    let complex = matches!(dtype, DType::C64 | DType::C128);
    let (re, im) = match value {
        Scalar::Bool(b) => return Ok(cast(b)),
        Scalar::Int(i) => (i as f64, 0.0),
        Scalar::Float(f) => (f, 0.0),
        Scalar::Complex(re, im) => (re, im),
    };
    if dtype == DType::Bool {
        return Ok(cast(re != 0.0 || im != 0.0));
    }
    if im != 0.0 && !complex {
        return Err(overflow());
    }
    let max = finite_max(dtype);
    let integral = !matches!(dtype, DType::F16 | DType::BF16 | DType::F32 | DType::F64) && !complex;
    if integral {
        // Integers: within the type's range (unsigned bytes also down to
        // minus their maximum, wrapping). Floats: from the type's minimum
        // up to, not including, its maximum plus one, truncated.
        let top = max + 1.0;
        let low = if dtype == DType::U8 { 0.0 } else { -top };
        if let Scalar::Int(i) = value {
            let fits = match dtype {
                DType::U8 => (-255..=255).contains(&i),
                DType::I8 => i8::try_from(i).is_ok(),
                DType::I16 => i16::try_from(i).is_ok(),
                DType::I32 => i32::try_from(i).is_ok(),
                _ => true,
            };
            return match fits {
                true => Ok(match dtype {
                    DType::U8 => cast(i as u8),
                    _ => cast(i),
                }),
                false => Err(overflow()),
            };
        }
        if re.is_nan() || re < low || re >= top {
            return Err(overflow());
        }
        return Ok(cast(re.trunc() as i64));
    }
    let parts_fit = |x: f64| !x.is_finite() || x.abs() <= max;
    if !(parts_fit(re) && parts_fit(im)) {
        return Err(overflow());
    }
    Ok(match value {
        Scalar::Int(i) => cast(i),
        Scalar::Complex(..) => cast(Complex::new(re, im)),
        _ => cast(re),
    })
}

/// The source, when it holds `T`; else `mismatch`'s error.
fn source_of<T: AnyElement, D: crate::backend::Backend, R: Repr>(
    src: &AnyTensor<D, R>,
    mismatch: impl FnOnce(DType) -> Error,
) -> Result<&Tensor<T, DynShape, D, R>, Error> {
    T::borrow_any(src).ok_or_else(|| mismatch(src.dtype()))
}

/// The scatter family's runtime checks, in PyTorch's order: the dim, then
/// (for a non-empty index) the index's dtype and the source's.
fn scatter_checks<D: Scattering, R: Repr, RI: Repr, RS: Repr>(
    x: &AnyTensor<D, R>,
    dim: isize,
    index: &AnyTensor<D, RI>,
    src: Option<&AnyTensor<D, RS>>,
) -> Result<(), Error> {
    wrap_dim(dim, x.rank())?;
    if index.numel() == 0 {
        return Ok(());
    }
    if let IndexOf::Other(_) = index_of(index) {
        return Err(Error::Unsupported {
            message: "scatter(): Expected dtype int32/int64 for index",
        });
    }
    if src.is_some_and(|s| s.dtype() != x.dtype()) {
        return Err(Error::Unsupported {
            message: "scatter(): Expected self.dtype to be equal to src.dtype",
        });
    }
    Ok(())
}

/// Runs `$body` with `$i` the typed index (int64 or int32); another dtype
/// was refused before.
macro_rules! typed_index {
    ($index:expr, |$i:ident| $body:expr) => {
        match index_of($index) {
            IndexOf::Long($i) => $body,
            IndexOf::Int($i) => $body,
            IndexOf::Other(_) => Ok(()),
        }
    };
}

/// An in-place method and its out-of-place twin (on a copy).
macro_rules! with_copy {
    ($(#[$doc:meta])* $name:ident => $name_:ident <$($g:ident),*> ($($arg:ident: $ty:ty),*)) => {
        $(#[$doc])*
        pub fn $name<$($g: Repr),*>(&self, $($arg: $ty),*) -> Result<AnyTensor<D>, Error> {
            let mut out = any_tensor!(@each self, x => AnyTensor::from(x.try_clone()?));
            out.$name_($($arg),*)?;
            Ok(out)
        }
    };
}

impl<D: Scattering, R: Writable> AnyTensor<D, R> {
    /// `scatter_(dim, index, src)` with PyTorch's runtime checks (an
    /// int64 or int32 index, a source of `self`'s dtype).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let mut x = AnyTensor::from(DynTensor::<f32>::zeros(&[3]));
    /// let idx = AnyTensor::from(DynTensor::<i32>::from_vec(vec![2], &[1]).unwrap());
    /// let src = AnyTensor::from(DynTensor::<f64>::ones(&[1]));
    /// assert_eq!(
    ///     x.scatter_(0, &idx, &src).unwrap_err().to_string(),
    ///     "scatter(): Expected self.dtype to be equal to src.dtype"
    /// );
    /// ```
    pub fn scatter_<RI: Repr, RS: Repr>(
        &mut self,
        dim: isize,
        index: &AnyTensor<D, RI>,
        src: &AnyTensor<D, RS>,
    ) -> Result<(), Error> {
        scatter_checks(self, dim, index, Some(src))?;
        any_tensor!(@each self, x => {
            let s = source_of(src, |_| Error::Unsupported {
                message: "scatter(): Expected self.dtype to be equal to src.dtype",
            })?;
            typed_index!(index, |i| x.scatter_(dim, i, s))
        })
    }

    /// `scatter_(dim, index, value)`: `value` converted by PyTorch's
    /// checked cast.
    pub fn scatter_value_<RI: Repr>(
        &mut self,
        dim: isize,
        index: &AnyTensor<D, RI>,
        value: Scalar,
    ) -> Result<(), Error> {
        scatter_checks::<D, R, RI, Owned>(self, dim, index, None)?;
        any_tensor!(@each self, x => {
            let v = checked_scalar(value)?;
            typed_index!(index, |i| x.scatter_value_(dim, i, v))
        })
    }

    /// `scatter_add_(dim, index, src)` with PyTorch's runtime checks.
    pub fn scatter_add_<RI: Repr, RS: Repr>(
        &mut self,
        dim: isize,
        index: &AnyTensor<D, RI>,
        src: &AnyTensor<D, RS>,
    ) -> Result<(), Error> {
        self.scatter_reduce_(dim, index, src, Reduce::Sum, true)
    }

    /// `scatter_reduce_(dim, index, src, reduce, include_self)` with
    /// PyTorch's runtime checks.
    pub fn scatter_reduce_<RI: Repr, RS: Repr>(
        &mut self,
        dim: isize,
        index: &AnyTensor<D, RI>,
        src: &AnyTensor<D, RS>,
        reduce: Reduce,
        include_self: bool,
    ) -> Result<(), Error> {
        scatter_checks(self, dim, index, Some(src))?;
        any_tensor!(@each self, x => {
            let s = source_of(src, |_| Error::Unsupported {
                message: "scatter(): Expected self.dtype to be equal to src.dtype",
            })?;
            typed_index!(index, |i| x.scatter_reduce_(dim, i, s, reduce, include_self))
        })
    }

    /// `index_add_(dim, index, source, alpha)` with PyTorch's runtime
    /// checks (an int64 or int32 vector index, a source of `self`'s dtype,
    /// `alpha` converted by the checked cast).
    pub fn index_add_<RI: Repr, RS: Repr>(
        &mut self,
        dim: isize,
        index: &AnyTensor<D, RI>,
        source: &AnyTensor<D, RS>,
        alpha: Scalar,
    ) -> Result<(), Error> {
        wrap_dim(dim, self.rank())?;
        if index.rank() > 1 {
            return Err(Error::IndexAddVector {
                rank: index.rank(),
                dtype: index.dtype(),
                sizes: index.shape(),
            });
        }
        if let IndexOf::Other(dtype) = index_of(index) {
            return Err(Error::IndexAddIndexDType { dtype });
        }
        let self_dtype = self.dtype();
        any_tensor!(@each self, x => {
            let s = source_of(source, |other| Error::IndexAddSourceDType { input: self_dtype, source: other })?;
            let a = checked_scalar(alpha)?;
            typed_index!(index, |i| x.index_add_(dim, i, s, a))
        })
    }

    /// `index_copy_(dim, index, source)` with PyTorch's runtime checks (an
    /// int64 vector index, a source of `self`'s dtype).
    pub fn index_copy_<RI: Repr, RS: Repr>(
        &mut self,
        dim: isize,
        index: &AnyTensor<D, RI>,
        source: &AnyTensor<D, RS>,
    ) -> Result<(), Error> {
        wrap_dim(dim, self.rank())?;
        if index.rank() > 1 {
            return Err(Error::IndexCopyVector { rank: index.rank() });
        }
        let IndexOf::Long(i) = index_of(index) else {
            return Err(Error::IndexCopyIndexDType {
                dtype: index.dtype(),
            });
        };
        let self_dtype = self.dtype();
        any_tensor!(@each self, x => {
            let s = source_of(source, |other| Error::IndexCopySourceDType { input: self_dtype, source: other })?;
            x.index_copy_(dim, i, s)
        })
    }

    /// `index_fill_(dim, index, value)` with PyTorch's runtime checks (an
    /// int64 index first; a complex number only into a complex tensor;
    /// `value` converted by the checked cast).
    pub fn index_fill_<RI: Repr>(
        &mut self,
        dim: isize,
        index: &AnyTensor<D, RI>,
        value: Scalar,
    ) -> Result<(), Error> {
        let IndexOf::Long(i) = index_of(index) else {
            return Err(Error::Unsupported {
                message: "index_fill_(): Expected dtype int64 for index.",
            });
        };
        let complex_into_real = matches!(value, Scalar::Complex(..))
            && !matches!(self.dtype(), DType::C64 | DType::C128);
        if complex_into_real {
            return Err(Error::Unsupported {
                message: "index_fill_(): Converting complex Scalar to non-complex type is not supported",
            });
        }
        any_tensor!(@each self, x => {
            let v = checked_scalar(value)?;
            x.index_fill_(dim, i, v)
        })
    }

    /// `put_(index, source, accumulate)` with PyTorch's runtime checks (an
    /// int64 index, a source of `self`'s dtype).
    pub fn put_<RI: Repr, RS: Repr>(
        &mut self,
        index: &AnyTensor<D, RI>,
        source: &AnyTensor<D, RS>,
        accumulate: bool,
    ) -> Result<(), Error> {
        let IndexOf::Long(i) = index_of(index) else {
            return Err(Error::IndexDType {
                op: crate::error::IndexOp::Put,
                dtype: index.dtype(),
            });
        };
        let self_dtype = self.dtype();
        any_tensor!(@each self, x => {
            let s = source_of(source, |other| Error::PutSourceDType { input: self_dtype, source: other })?;
            x.put_(i, s, accumulate)
        })
    }
}

impl<D: Scattering, R: Repr> AnyTensor<D, R> {
    with_copy!(
        /// [`scatter_`](Self::scatter_) on a copy.
        scatter => scatter_<RI, RS>(dim: isize, index: &AnyTensor<D, RI>, src: &AnyTensor<D, RS>)
    );
    with_copy!(
        /// [`scatter_value_`](Self::scatter_value_) on a copy.
        scatter_value => scatter_value_<RI>(dim: isize, index: &AnyTensor<D, RI>, value: Scalar)
    );
    with_copy!(
        /// [`scatter_add_`](Self::scatter_add_) on a copy.
        scatter_add => scatter_add_<RI, RS>(dim: isize, index: &AnyTensor<D, RI>, src: &AnyTensor<D, RS>)
    );
    with_copy!(
        /// [`scatter_reduce_`](Self::scatter_reduce_) on a copy.
        scatter_reduce => scatter_reduce_<RI, RS>(dim: isize, index: &AnyTensor<D, RI>, src: &AnyTensor<D, RS>, reduce: Reduce, include_self: bool)
    );
    with_copy!(
        /// [`index_add_`](Self::index_add_) on a copy.
        index_add => index_add_<RI, RS>(dim: isize, index: &AnyTensor<D, RI>, source: &AnyTensor<D, RS>, alpha: Scalar)
    );
    with_copy!(
        /// [`index_copy_`](Self::index_copy_) on a copy.
        index_copy => index_copy_<RI, RS>(dim: isize, index: &AnyTensor<D, RI>, source: &AnyTensor<D, RS>)
    );
    with_copy!(
        /// [`index_fill_`](Self::index_fill_) on a copy.
        index_fill => index_fill_<RI>(dim: isize, index: &AnyTensor<D, RI>, value: Scalar)
    );
    with_copy!(
        /// [`put_`](Self::put_) on a copy.
        put => put_<RI, RS>(index: &AnyTensor<D, RI>, source: &AnyTensor<D, RS>, accumulate: bool)
    );
}

/// The broadcast of two shapes, for its error only (PyTorch's text names
/// `a` the first).
fn broadcast_check(a: &[usize], b: &[usize]) -> Result<(), Error> {
    let mut out = vec![0; a.len().max(b.len())];
    crate::shape::broadcast_sizes_into(a, b, &mut out)
}

/// The mask as a bool tensor, or `op`'s error for another dtype.
fn bool_mask<'a, D: crate::backend::Masking, R: Repr>(
    mask: &'a AnyTensor<D, R>,
    op: &'static str,
) -> Result<&'a Tensor<bool, DynShape, D, R>, Error> {
    bool::borrow_any(mask).ok_or(Error::MaskDType {
        op,
        dtype: mask.dtype(),
    })
}

impl<D: crate::backend::Masking, R: Writable> AnyTensor<D, R> {
    /// `fill_(value)`: every element set to `value`, converted by PyTorch's
    /// checked cast (its text when it does not fit; a view of a tensor is
    /// filled through, as `narrow_mut(..)?.fill_(v)`).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// use shaped::dtype::Scalar;
    /// let mut x = AnyTensor::from(DynTensor::<u8>::zeros(&[2]));
    /// x.fill_(Scalar::Int(7)).unwrap();
    /// assert_eq!(x.downcast_ref::<u8>().unwrap().to_vec(), [7, 7]);
    /// assert_eq!(
    ///     x.fill_(Scalar::Int(300)).unwrap_err().to_string(),
    ///     "value cannot be converted to type uint8_t without overflow"
    /// );
    /// ```
    pub fn fill_(&mut self, value: Scalar) -> Result<(), Error> {
        any_tensor!(@each self, x => x.try_fill(checked_scalar(value)?))
    }

    /// `zero_()`: every element set to zero.
    pub fn zero_(&mut self) -> Result<(), Error> {
        self.fill_(Scalar::Int(0))
    }

    /// `masked_fill_(mask, value)`: a bool mask (PyTorch's text for
    /// another dtype), `value` by the checked cast.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// use shaped::dtype::Scalar;
    /// let mut x = AnyTensor::from(DynTensor::<u8>::zeros(&[2]));
    /// let mask = AnyTensor::from(DynTensor::<bool>::ones(&[2]));
    /// assert_eq!(
    ///     x.masked_fill_(&mask, Scalar::Int(300)).unwrap_err().to_string(),
    ///     "value cannot be converted to type uint8_t without overflow"
    /// );
    /// ```
    pub fn masked_fill_<RM: Repr>(
        &mut self,
        mask: &AnyTensor<D, RM>,
        value: Scalar,
    ) -> Result<(), Error> {
        // PyTorch's order in place: the mask's dtype, the shapes, the value.
        let m = bool_mask(mask, "masked_fill_")?;
        crate::shape::check_in_place(&self.shape(), &m.shape())?;
        any_tensor!(@each self, x => {
            let v = checked_scalar(value)?;
            x.try_masked_fill_(m, v)
        })
    }

    /// `masked_scatter_(mask, source)`: a bool mask and a source of
    /// `self`'s dtype (PyTorch's texts otherwise).
    pub fn masked_scatter_<RM: Repr, RS: Repr>(
        &mut self,
        mask: &AnyTensor<D, RM>,
        source: &AnyTensor<D, RS>,
    ) -> Result<(), Error> {
        // PyTorch's order in place: the source's dtype, the mask's.
        let self_dtype = self.dtype();
        if source.dtype() != self_dtype {
            return Err(Error::MaskedScatterSourceDType {
                input: self_dtype,
                source: source.dtype(),
            });
        }
        let m = bool_mask(mask, "masked_scatter_")?;
        any_tensor!(@each self, x => {
            let s = source_of(source, |other| Error::MaskedScatterSourceDType { input: self_dtype, source: other })?;
            x.masked_scatter_(m, s)
        })
    }

    /// `copy_(src)`: `src` broadcast to `self`'s shape and converted to
    /// its dtype, whatever the two dtypes (complex into real keeps the real
    /// part, floats into integers truncate, as PyTorch).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let mut x = AnyTensor::from(DynTensor::<i16>::zeros(&[2, 2]));
    /// x.copy_(&AnyTensor::from(DynTensor::<f64>::from_vec(vec![1.9, -2.7], &[2]).unwrap())).unwrap();
    /// assert_eq!(x.downcast::<i16>().unwrap().to_vec(), [1, -2, 1, -2]);
    /// ```
    pub fn copy_<RS: Repr>(&mut self, src: &AnyTensor<D, RS>) -> Result<(), Error> {
        any_tensor!(@each self, x => any_tensor!(@each src, s => x.copy_(s)))
    }
}

impl<D: crate::backend::Masking, R: Repr> AnyTensor<D, R> {
    /// `masked_fill(mask, value)`: `self` and the mask broadcast together.
    pub fn masked_fill<RM: Repr>(
        &self,
        mask: &AnyTensor<D, RM>,
        value: Scalar,
    ) -> Result<AnyTensor<D>, Error> {
        // PyTorch's order out of place: the shapes, the mask's dtype, the
        // value.
        broadcast_check(&mask.shape(), &self.shape())?;
        let m = bool_mask(mask, "masked_fill_")?;
        Ok(any_tensor!(@each self, x => {
            let v = checked_scalar(value)?;
            AnyTensor::from(x.masked_fill(m, v)?)
        }))
    }

    /// `nonzero()`: the int64 coordinates `(count, rank)` of the nonzero
    /// elements, row by row (as `DynTensor`'s).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = AnyTensor::from(DynTensor::<f32>::from_vec(vec![0.0, 1.5, -2.0, 0.0], &[2, 2]).unwrap());
    /// let n = x.nonzero();
    /// assert_eq!((n.dtype(), n.shape()), (DType::I64, vec![2, 2]));
    /// assert_eq!(n.downcast::<i64>().unwrap().to_vec(), [0, 1, 1, 0]);
    /// assert_eq!(x.t().unwrap().nonzero_as_tuple().len(), 2);
    /// ```
    pub fn nonzero(&self) -> AnyTensor<D> {
        any_tensor!(@each self, x => AnyTensor::from(x.nonzero()))
    }

    /// `argwhere()`: [`nonzero`](Self::nonzero).
    pub fn argwhere(&self) -> AnyTensor<D> {
        self.nonzero()
    }

    /// `nonzero(as_tuple=True)`: one int64 vector of coordinates per
    /// dimension (one for a rank-0 tensor).
    pub fn nonzero_as_tuple(&self) -> Vec<AnyTensor<D>> {
        let each = any_tensor!(@each self, x => x.nonzero_as_tuple());
        each.into_iter().map(AnyTensor::from).collect()
    }

    /// `masked_select(mask)`: a bool mask (PyTorch's text for another).
    pub fn masked_select<RM: Repr>(&self, mask: &AnyTensor<D, RM>) -> Result<AnyTensor<D>, Error> {
        let m = bool_mask(mask, "masked_select")?;
        Ok(any_tensor!(@each self, x => AnyTensor::from(x.masked_select(m)?)))
    }

    /// `masked_scatter(mask, source)`: `self` and the mask broadcast
    /// together into a new tensor first.
    pub fn masked_scatter<RM: Repr, RS: Repr>(
        &self,
        mask: &AnyTensor<D, RM>,
        source: &AnyTensor<D, RS>,
    ) -> Result<AnyTensor<D>, Error> {
        // PyTorch's order out of place: the shapes, the source's dtype, the
        // mask's.
        broadcast_check(&mask.shape(), &self.shape())?;
        let self_dtype = self.dtype();
        if source.dtype() != self_dtype {
            return Err(Error::MaskedScatterSourceDType {
                input: self_dtype,
                source: source.dtype(),
            });
        }
        let m = bool_mask(mask, "masked_scatter_")?;
        Ok(any_tensor!(@each self, x => {
            let s = source_of(source, |other| Error::MaskedScatterSourceDType { input: self_dtype, source: other })?;
            AnyTensor::from(x.masked_scatter(m, s)?)
        }))
    }
}

impl<R: Writable> AnyTensor<Cpu, R> {
    /// `masked_fill_(mask, value)` with a value tensor (PyTorch's other
    /// overload): it must have rank 0; its element is converted by the
    /// checked cast.
    pub fn masked_fill_tensor_<RM: Repr, RS: Repr>(
        &mut self,
        mask: &AnyTensor<Cpu, RM>,
        value: &AnyTensor<Cpu, RS>,
    ) -> Result<(), Error> {
        if value.rank() != 0 {
            return Err(Error::MaskedFillValueRank { rank: value.rank() });
        }
        let v = value.to_scalars()[0];
        self.masked_fill_(mask, v)
    }
}

impl<R: Repr> AnyTensor<Cpu, R> {
    /// `masked_fill(mask, value)` with a value tensor of rank 0.
    pub fn masked_fill_tensor<RM: Repr, RS: Repr>(
        &self,
        mask: &AnyTensor<Cpu, RM>,
        value: &AnyTensor<Cpu, RS>,
    ) -> Result<AnyTensor, Error> {
        broadcast_check(&mask.shape(), &self.shape())?;
        if value.rank() != 0 {
            return Err(Error::MaskedFillValueRank { rank: value.rank() });
        }
        let v = value.to_scalars()[0];
        self.masked_fill(mask, v)
    }
}

/// Advanced indexing on runtime dtypes (see
/// [`Index`](crate::ops::indexing::Index)).
impl<D: crate::backend::Masking + Scattering, R: Writable> AnyTensor<D, R> {
    /// `index_put_(indices, values, accumulate)`: `values` must have
    /// `self`'s dtype (PyTorch's text), except where PyTorch fills (one
    /// mask, one value, no accumulation): there the value converts.
    pub fn index_put_<RV: Repr>(
        &mut self,
        indices: &[&dyn crate::ops::indexing::AsIndex<D>],
        values: &AnyTensor<D, RV>,
        accumulate: bool,
    ) -> Result<(), Error> {
        let one_mask = matches!(
            indices,
            [m] if matches!(m.as_index(), Ok(crate::ops::indexing::IndexOperand::Mask(_)))
        );
        let converted;
        let values = if values.dtype() != self.dtype() {
            if !(one_mask && !accumulate && values.numel() == 1) {
                // (PyTorch reports the index's own errors first.)
                any_tensor!(@each self, x => {
                    crate::ops::indexing::indexed_shape(x.strided(), indices)?;
                });
                return Err(Error::IndexPutDType {
                    destination: self.dtype(),
                    source: values.dtype(),
                });
            }
            // PyTorch fills with the value's `item()`, converted with its
            // overflow check.
            let value = any_tensor!(@each values, v => D::item(v.strided())?.to_scalar());
            any_tensor!(@each self, x => fill_value_fits(x, value)?);
            converted = values.try_to_dtype(self.dtype())?;
            converted.reborrow()
        } else {
            values.reborrow()
        };
        any_tensor!(@each self, x => {
            let v = source_of(&values, |_| unreachable!("converted above"))?;
            x.index_put_(indices, v, accumulate)
        })
    }
}

impl<D: crate::backend::Masking + Scattering, R: Repr> AnyTensor<D, R> {
    /// `x[items]`: a new tensor of `self`'s dtype.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = AnyTensor::from(DynTensor::<f32>::from_vec(vec![1.0, 2.0, 3.0], &[3]).unwrap());
    /// let idx = AnyTensor::from(DynTensor::<i32>::from_vec(vec![2, -3], &[2]).unwrap());
    /// let y = x.index(&[Index::Tensor(&idx)]).unwrap();
    /// assert_eq!(y.downcast::<f32>().unwrap().to_vec(), [3.0, 1.0]);
    /// let bad = AnyTensor::from(DynTensor::<f32>::zeros(&[1]));
    /// assert_eq!(
    ///     x.index(&[Index::Tensor(&bad)]).unwrap_err().to_string(),
    ///     "tensors used as indices must be long, int, byte or bool tensors"
    /// );
    /// ```
    pub fn index(
        &self,
        items: &[crate::ops::indexing::Index<'_, D>],
    ) -> Result<AnyTensor<D>, Error> {
        Ok(any_tensor!(@each self, x => AnyTensor::from(x.index(items)?)))
    }

    /// [`index_put_`](Self::index_put_) on a copy.
    pub fn index_put<RV: Repr>(
        &self,
        indices: &[&dyn crate::ops::indexing::AsIndex<D>],
        values: &AnyTensor<D, RV>,
        accumulate: bool,
    ) -> Result<AnyTensor<D>, Error> {
        let mut out = self.try_to_dtype(self.dtype())?;
        out.index_put_(indices, values, accumulate)?;
        Ok(out)
    }
}
