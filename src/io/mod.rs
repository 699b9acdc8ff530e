//! Data in and out: safetensors files (`io::safetensors`, Hugging Face's
//! format, memory-mapped) and NumPy's `.npy` and `.npz` (`io::npy`), each a
//! feature on by default, and, with the `serde` feature,
//! `Serialize`/`Deserialize` for tensors.
//!
//! A file's dtype and shape are known only once it is read, so readers
//! give [`AnyTensor`]s; [`AnyTensor::into_typed`] (or each format's typed
//! `load`) checks them against a typed tensor and says precisely what
//! differs. Writers take any [`HostTensor`]: typed tensors and views of any
//! shape and layout, `AnyTensor`s, and (with the `cuda` feature) device
//! tensors, copied through the host.
//!
//! Every problem with a file is an [`Error::File`] naming the file and what
//! is wrong: never a panic, an abort or a read out of bounds.

#[cfg(feature = "safetensors")]
mod json;
#[cfg(feature = "npy")]
pub mod npy;
#[cfg(feature = "safetensors")]
pub mod safetensors;
#[cfg(feature = "serde")]
mod serde;

use crate::backend::Cpu;
use crate::dtype::{DType, Element};
use crate::dynamic::AnyTensor;
use crate::error::Error;
use crate::shape::Shape;
use crate::storage::Repr;
use crate::tensor::Tensor;
use std::borrow::Cow;
#[cfg(any(feature = "npy", feature = "safetensors"))]
use std::path::Path;

/// A tensor a writer can save: its dtype, its sizes and its elements'
/// bytes in row-major order in the host's representation.
///
/// ```
/// use shaped::prelude::*;
/// use shaped::io::HostTensor;
/// let x = Tensor::<i16, shape![2, 2]>::from_vec(vec![1, 2, 3, 4]).unwrap();
/// assert_eq!(x.t().host_sizes(), [2, 2]);
/// assert_eq!(x.t().host_bytes().unwrap().len(), 8);
/// assert_eq!(HostTensor::host_dtype(&x), DType::I16);
/// ```
pub trait HostTensor {
    /// The element type.
    fn host_dtype(&self) -> DType;
    /// The sizes.
    fn host_sizes(&self) -> Vec<usize>;
    /// The elements' bytes, row-major: borrowed when the tensor is
    /// contiguous on the host, else copied (from the device too).
    fn host_bytes(&self) -> Result<Cow<'_, [u8]>, Error>;
    /// Hands the elements' bytes in row-major order to `sink`, in one
    /// piece or several: what writers call, so that a strided view is
    /// saved through a buffer of a few MiB rather than a copy of it all.
    /// By default, [`host_bytes`](HostTensor::host_bytes) in one piece.
    fn host_bytes_in_pieces(
        &self,
        sink: &mut dyn FnMut(&[u8]) -> Result<(), Error>,
    ) -> Result<(), Error> {
        sink(&self.host_bytes()?)
    }
    /// The elements' bytes in column-major order when they lie so in host
    /// memory and not in row-major order (a transposed matrix), which
    /// `.npy` stores as Fortran order without a copy. `None` by default.
    fn host_column_major_bytes(&self) -> Option<&[u8]> {
        None
    }
}

impl<T: Element, S: Shape, R: Repr> HostTensor for Tensor<T, S, Cpu, R> {
    fn host_dtype(&self) -> DType {
        T::DTYPE
    }
    fn host_sizes(&self) -> Vec<usize> {
        self.shape().as_ref().to_vec()
    }
    fn host_bytes(&self) -> Result<Cow<'_, [u8]>, Error> {
        Ok(self.bytes())
    }
    fn host_bytes_in_pieces(
        &self,
        sink: &mut dyn FnMut(&[u8]) -> Result<(), Error>,
    ) -> Result<(), Error> {
        self.bytes_in_pieces(sink)
    }
    fn host_column_major_bytes(&self) -> Option<&[u8]> {
        self.column_major_bytes()
    }
}

impl<R: Repr> HostTensor for AnyTensor<Cpu, R> {
    fn host_dtype(&self) -> DType {
        self.dtype()
    }
    fn host_sizes(&self) -> Vec<usize> {
        self.shape()
    }
    fn host_bytes(&self) -> Result<Cow<'_, [u8]>, Error> {
        Ok(self.bytes())
    }
    fn host_bytes_in_pieces(
        &self,
        sink: &mut dyn FnMut(&[u8]) -> Result<(), Error>,
    ) -> Result<(), Error> {
        self.bytes_in_pieces(sink)
    }
    fn host_column_major_bytes(&self) -> Option<&[u8]> {
        self.column_major_bytes()
    }
}

#[cfg(feature = "cuda")]
impl<T: Element, S: Shape, R: Repr> HostTensor for Tensor<T, S, crate::backend::Cuda, R> {
    fn host_dtype(&self) -> DType {
        T::DTYPE
    }
    fn host_sizes(&self) -> Vec<usize> {
        self.shape().as_ref().to_vec()
    }
    fn host_bytes(&self) -> Result<Cow<'_, [u8]>, Error> {
        Ok(Cow::Owned(self.to_cpu()?.bytes().into_owned()))
    }
}

#[cfg(feature = "cuda")]
impl HostTensor for AnyTensor<crate::backend::Cuda> {
    fn host_dtype(&self) -> DType {
        self.dtype()
    }
    fn host_sizes(&self) -> Vec<usize> {
        self.shape()
    }
    fn host_bytes(&self) -> Result<Cow<'_, [u8]>, Error> {
        Ok(Cow::Owned(self.to_cpu()?.bytes().into_owned()))
    }
}

/// An [`Error::File`] for `path`.
#[cfg(any(feature = "npy", feature = "safetensors"))]
pub(crate) fn file_error(path: &Path, problem: impl Into<String>) -> Error {
    Error::File {
        path: path.display().to_string(),
        problem: problem.into(),
    }
}
