//! [`AnyTensor`] to and from typed tensors and raw bytes: the bridge every
//! file format goes through (a file's dtype and shape are known only when it
//! is read).

use super::{AnyElement, AnyTensor, DynTensor};
use crate::backend::Cpu;
use crate::dtype::DType;
use crate::dtype::bytes::elements_from_bytes;
use crate::error::Error;
use crate::shape::Shape;
use crate::tensor::Tensor;
use std::borrow::Cow;

/// Typed tensors an [`AnyTensor`] converts into, checking its dtype and its
/// shape against the type's: `Tensor<f32, shape![768, 3072]>`,
/// `Tensor<i64, shape![Dyn, 3]>`, `DynTensor<u8>`.
///
/// ```
/// use shaped::prelude::*;
/// use shaped::dynamic::FromAny;
/// let any = AnyTensor::from(DynTensor::<f32>::zeros(&[2, 3]));
/// let x = <Tensor<f32, shape![2, 3]>>::from_any(any.clone()).unwrap();
/// assert_eq!(x.shape(), [2, 3]);
/// let err = <Tensor<f64, shape![3, 2]>>::from_any(any).unwrap_err();
/// assert_eq!(err.to_string(), "expected a float64 tensor of shape [3, 2], got a float32 tensor of shape [2, 3] (dtype and shape differ)");
/// ```
pub trait FromAny: Sized {
    /// The typed tensor, or `Err` saying precisely what differs.
    fn from_any(any: AnyTensor) -> Result<Self, Error>;
}

impl<T: AnyElement, S: Shape> FromAny for Tensor<T, S, Cpu> {
    fn from_any(any: AnyTensor) -> Result<Self, Error> {
        let shape = any.shape();
        let dtype_ok = any.dtype() == T::DTYPE;
        let shape_ok = S::check_sizes(&shape).is_ok();
        if !(dtype_ok && shape_ok) {
            return Err(Error::TypedMismatch {
                expected_dtype: T::DTYPE,
                expected_shape: S::describe(),
                actual_dtype: any.dtype(),
                actual_shape: shape,
                shape_differs: !shape_ok,
            });
        }
        let typed: DynTensor<T> = any.downcast()?;
        typed.into_static()
    }
}

impl AnyTensor {
    /// The typed tensor `X` (dtype and shape checked against the type's;
    /// see [`FromAny`]): how a tensor read from a file becomes typed.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let any = AnyTensor::from(DynTensor::<i64>::zeros(&[4, 3]));
    /// let x: Tensor<i64, shape![Dyn, 3]> = any.into_typed().unwrap();
    /// assert_eq!(x.shape(), [4, 3]);
    /// ```
    pub fn into_typed<X: FromAny>(self) -> Result<X, Error> {
        X::from_any(self)
    }

    /// A tensor of `dtype` and `sizes` from its elements' bytes in
    /// row-major order, in the host's representation (as
    /// [`bytes`](Self::bytes) gives them); `Err` when they are not whole
    /// valid elements or do not fill `sizes`.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = AnyTensor::from(DynTensor::<i16>::from_vec(vec![1, -2, 3], &[3]).unwrap());
    /// let y = AnyTensor::from_bytes(&x.bytes(), DType::I16, &[3]).unwrap();
    /// assert_eq!(y.downcast::<i16>().unwrap().to_vec(), [1, -2, 3]);
    /// ```
    pub fn from_bytes(bytes: &[u8], dtype: DType, sizes: &[usize]) -> Result<AnyTensor, Error> {
        crate::dtype::with_dtype!(dtype, T => {
            let elements = elements_from_bytes::<T>(bytes)?.map_err(|bad| Error::File {
                path: "<bytes>".into(),
                problem: bad.describe(dtype),
            })?;
            Ok(AnyTensor::from(DynTensor::<T>::from_vec_with(elements, sizes)?))
        })
    }
}

impl<R: crate::storage::Repr> AnyTensor<Cpu, R> {
    /// The elements' bytes in row-major order, in the host's
    /// representation: borrowed when contiguous, else copied (see
    /// [`Tensor::bytes`]).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = AnyTensor::from(DynTensor::<bool>::from_vec(vec![true, false], &[2]).unwrap());
    /// assert_eq!(&*x.bytes(), &[1, 0]);
    /// ```
    pub fn bytes(&self) -> Cow<'_, [u8]> {
        super::any::any_tensor!(@each self, x => x.bytes())
    }

    /// [`Tensor::bytes_in_pieces`] of the tensor held.
    pub(crate) fn bytes_in_pieces(
        &self,
        sink: &mut dyn FnMut(&[u8]) -> Result<(), Error>,
    ) -> Result<(), Error> {
        super::any::any_tensor!(@each self, x => x.bytes_in_pieces(sink))
    }

    /// [`Tensor::column_major_bytes`] of the tensor held.
    pub(crate) fn column_major_bytes(&self) -> Option<&[u8]> {
        super::any::any_tensor!(@each self, x => x.column_major_bytes())
    }
}
