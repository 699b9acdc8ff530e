//! Raw memory: a tensor's elements as a `Vec` or as bytes, and tensors from
//! bytes.

use super::Tensor;
use crate::backend::Cpu;
use crate::backend::cpu::elementwise::try_for_each_piece;
use crate::dtype::Element;
use crate::dtype::bytes::{element_bytes, elements_from_bytes};
use crate::error::{Error, OrPanic};
use crate::layout::is_column_major;
use crate::shape::{FixedShape, Shape};
use crate::storage::{Repr, Storage};
use std::borrow::Cow;

impl<T: Element, S: Shape> Tensor<T, S, Cpu> {
    /// The elements in row-major order, moving the buffer out without a
    /// copy when the tensor owns all of it contiguously and it was made
    /// from a `Vec` (by `from_vec`, or any result under 1 MiB); otherwise
    /// a copy (pooled blocks and file mappings cannot become a `Vec`).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let v = vec![1.0f32, 2.0, 3.0, 4.0];
    /// let at = v.as_ptr();
    /// let x = Tensor::<f32, shape![2, 2]>::from_vec(v).unwrap();
    /// let back = x.into_vec();
    /// assert_eq!(back.as_ptr(), at); // the same allocation
    /// ```
    pub fn into_vec(self) -> Vec<T> {
        let whole = self.layout.offset() == 0
            && self.layout.is_contiguous()
            && self.layout.numel() == self.data.buffer.len();
        if whole {
            return self.data.buffer.try_into_vec().or_panic();
        }
        self.to_vec()
    }
}

impl<T: Element, S: Shape, R: Repr> Tensor<T, S, Cpu, R> {
    /// The elements' bytes in row-major order, in the host's representation
    /// (little-endian on x86-64 and ARM; bools are bytes 0 and 1; a complex
    /// number is its real part, then its imaginary part): borrowed when the
    /// layout is contiguous, else copied.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// use std::borrow::Cow;
    /// let x = Tensor::<i16, shape![2]>::from_vec(vec![1, 0x0203]).unwrap();
    /// assert_eq!(&*x.bytes(), &[1i16.to_ne_bytes(), 0x0203i16.to_ne_bytes()].concat()[..]);
    /// assert!(matches!(x.bytes(), Cow::Borrowed(_)));
    /// ```
    pub fn bytes(&self) -> Cow<'_, [u8]> {
        match self.as_slice() {
            Some(s) => Cow::Borrowed(element_bytes(s)),
            None => Cow::Owned(element_bytes(&self.to_vec()).to_vec()),
        }
    }
}

impl<T: Element, S: Shape, R: Repr> Tensor<T, S, Cpu, R> {
    /// The elements' bytes in column-major order, when that is how they
    /// lie in memory and row-major is not (a transposed matrix): what a
    /// `.npy` file stores as Fortran order without a copy.
    pub(crate) fn column_major_bytes(&self) -> Option<&[u8]> {
        let (sizes, strides) = (self.layout.sizes(), self.layout.strides());
        if self.layout.is_contiguous() || !is_column_major(sizes, strides) {
            return None;
        }
        let base = self.data.ptr().as_ptr();
        // SAFETY: a column-major layout without gaps has the indices
        // `offset..offset + numel` (those of a contiguous one, in another
        // order), inside the live buffer (the tensor invariant), which
        // `&self` keeps alive and unwritten for the slice's life; not
        // empty (empty layouts count as contiguous).
        let elements = unsafe {
            core::slice::from_raw_parts(base.add(self.layout.offset()), self.layout.numel())
        };
        Some(element_bytes(elements))
    }

    /// Hands the elements' bytes in row-major order to `sink`: in one piece
    /// when the layout is contiguous, else in pieces of about
    /// [`PIECE_BYTES`] gathered into one buffer.
    pub(crate) fn bytes_in_pieces(
        &self,
        sink: &mut dyn FnMut(&[u8]) -> Result<(), Error>,
    ) -> Result<(), Error> {
        match self.as_slice() {
            Some(s) => sink(element_bytes(s)),
            None => try_for_each_piece(self.strided(), PIECE_BYTES / size_of::<T>(), &mut |p| {
                sink(element_bytes(p))
            }),
        }
    }
}

/// The size of the pieces in which a strided tensor is gathered for a
/// writer.
pub(crate) const PIECE_BYTES: usize = 4 << 20;

/// The elements of `bytes`, or `Err` naming what is wrong with them.
fn elements_of_bytes<T: Element>(bytes: &[u8]) -> Result<Vec<T>, Error> {
    elements_from_bytes::<T>(bytes)?.map_err(|bad| Error::File {
        path: "<bytes>".into(),
        problem: bad.describe(T::DTYPE),
    })
}

impl<T: Element, S: FixedShape> Tensor<T, S, Cpu> {
    /// A tensor of a static shape from its elements' bytes in row-major
    /// order (the host's representation, as [`bytes`](Tensor::bytes) gives
    /// them); `Err` when they are not whole elements (or a bool byte is
    /// not 0 or 1), or do not fill the shape.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = Tensor::<f32, shape![2]>::from_vec(vec![0.5, -1.0]).unwrap();
    /// let y = Tensor::<f32, shape![2]>::from_bytes(&x.bytes()).unwrap();
    /// assert_eq!(y.to_vec(), [0.5, -1.0]);
    /// let err = Tensor::<f32, shape![2]>::from_bytes(&[0; 7]).unwrap_err();
    /// assert_eq!(err.to_string(), "<bytes>: 7 bytes are not a whole number of float32 elements of 4 bytes");
    /// ```
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, Error> {
        Self::from_vec(elements_of_bytes(bytes)?)
    }
}

impl<T: Element, S: Shape> Tensor<T, S, Cpu> {
    /// [`from_bytes`](Tensor::from_bytes) with runtime sizes (shapes with
    /// `Dyn` entries, `DynTensor`).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = DynTensor::<bool>::from_bytes_with(&[1, 0, 1, 1], &[2, 2]).unwrap();
    /// assert_eq!(x.to_vec(), [true, false, true, true]);
    /// let err = DynTensor::<bool>::from_bytes_with(&[1, 2], &[2]).unwrap_err();
    /// assert_eq!(err.to_string(), "<bytes>: bool element 1 is the byte 2, not 0 or 1");
    /// ```
    pub fn from_bytes_with(bytes: &[u8], sizes: &[usize]) -> Result<Self, Error> {
        Self::from_vec_with(elements_of_bytes(bytes)?, sizes)
    }
}

#[cfg(test)]
mod tests {
    use crate::prelude::*;

    #[test]
    fn into_vec_copies_views_offsets_and_pooled_blocks() {
        let big = DynTensor::<f32>::ones(&[1 << 19]); // 2 MiB: a pooled block
        let back = big.into_vec();
        assert_eq!(back.len(), 1 << 19);
        assert!(back.iter().all(|&v| v == 1.0));
        let strided = DynTensor::<u8>::from_vec((0..8).collect(), &[2, 4]).unwrap();
        assert_eq!(&*strided.bytes(), &[0, 1, 2, 3, 4, 5, 6, 7]);
        let t = strided.t().unwrap();
        assert_eq!(&*t.bytes(), &[0, 4, 1, 5, 2, 6, 3, 7]);
    }
}
