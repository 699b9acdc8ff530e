//! The bytes of elements in the host's representation, and elements from
//! bytes: the one place where element memory is seen as bytes, for
//! `Tensor::bytes`/`from_bytes` and the file formats of [`crate::io`].

use super::{DType, Element};
use crate::backend::cpu::try_vec_with_capacity;
use crate::error::Error;

/// The bytes of `elements`, in the host's representation.
///
/// Every [`Element`] (a sealed set) is plain data with no padding: the
/// integers, `bool` (one byte, 0 or 1), `f16`/`bf16` (two bytes), `f32`,
/// `f64`, and `Complex<f32>`/`Complex<f64>` (`repr(C)`, two floats).
pub fn element_bytes<T: Element>(elements: &[T]) -> &[u8] {
    // SAFETY: every byte of an `Element` is initialized (no padding, as
    // above), `u8` has alignment 1, and the length is the slice's size in
    // bytes; the borrow of `elements` covers the result's life.
    unsafe { core::slice::from_raw_parts(elements.as_ptr().cast(), size_of_val(elements)) }
}

/// What is wrong with bytes that should hold elements of a dtype.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BadBytes {
    /// The byte count is not a whole number of elements.
    Length {
        /// The number of bytes.
        bytes: usize,
        /// The size of one element.
        itemsize: usize,
    },
    /// A byte of a bool that is neither 0 nor 1, at this element.
    Bool {
        /// The element's position.
        at: usize,
        /// The byte.
        value: u8,
    },
}

impl BadBytes {
    /// The problem in words, for [`Error::File`].
    pub fn describe(self, dtype: DType) -> String {
        match self {
            BadBytes::Length { bytes, itemsize } => format!(
                "{bytes} bytes are not a whole number of {} elements of {itemsize} bytes",
                dtype.name()
            ),
            BadBytes::Bool { at, value } => {
                format!("bool element {at} is the byte {value}, not 0 or 1")
            }
        }
    }
}

/// Checks that `bytes` hold whole elements of `T`, and valid ones (a bool
/// byte is 0 or 1: any other would not be a Rust `bool`).
pub fn check_element_bytes<T: Element>(bytes: &[u8]) -> Result<usize, BadBytes> {
    let itemsize = size_of::<T>();
    if !bytes.len().is_multiple_of(itemsize) {
        return Err(BadBytes::Length {
            bytes: bytes.len(),
            itemsize,
        });
    }
    if T::DTYPE == DType::Bool
        && let Some(at) = bytes.iter().position(|&b| b > 1)
    {
        return Err(BadBytes::Bool {
            at,
            value: bytes[at],
        });
    }
    Ok(bytes.len() / itemsize)
}

/// The elements held by `bytes` (host representation), copied into a new
/// `Vec`; `Err` when the bytes are not whole valid elements
/// ([`check_element_bytes`]) or the memory cannot be had.
pub fn elements_from_bytes<T: Element>(bytes: &[u8]) -> Result<Result<Vec<T>, BadBytes>, Error> {
    let n = match check_element_bytes::<T>(bytes) {
        Ok(n) => n,
        Err(bad) => return Ok(Err(bad)),
    };
    let mut v: Vec<T> = try_vec_with_capacity(n)?;
    // SAFETY: the capacity is `n` elements, `n * size_of::<T>()` =
    // `bytes.len()` bytes, which the copy fills; the regions are distinct
    // allocations; the bytes are valid values of `T` (checked above: every
    // bit pattern of the other dtypes is a value).
    unsafe {
        core::ptr::copy_nonoverlapping(bytes.as_ptr(), v.as_mut_ptr().cast::<u8>(), bytes.len());
        v.set_len(n);
    }
    Ok(Ok(v))
}

/// The size in bytes of one real number of `dtype` (half of a complex
/// element): the unit whose byte order files may differ in.
pub const fn component_size(dtype: DType) -> usize {
    if dtype.is_complex() {
        dtype.itemsize() / 2
    } else {
        dtype.itemsize()
    }
}

/// Reverses the bytes of each `unit`-byte number in `bytes` (between big-
/// and little-endian).
pub fn swap_byte_order(bytes: &mut [u8], unit: usize) {
    if unit > 1 {
        for number in bytes.chunks_exact_mut(unit) {
            number.reverse();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use half::bf16;
    use num_complex::Complex;

    #[test]
    fn bytes_round_trip_and_bad_bytes_are_refused() {
        let x = [1.5f32, -2.0];
        let b = element_bytes(&x);
        assert_eq!(b.len(), 8);
        assert_eq!(elements_from_bytes::<f32>(b).unwrap().unwrap(), x);
        let c = [Complex::new(1.0f64, -1.0)];
        assert_eq!(
            elements_from_bytes::<Complex<f64>>(element_bytes(&c))
                .unwrap()
                .unwrap(),
            c
        );
        assert_eq!(
            elements_from_bytes::<bf16>(&[1, 2, 3])
                .unwrap()
                .unwrap_err(),
            BadBytes::Length {
                bytes: 3,
                itemsize: 2
            }
        );
        assert_eq!(
            elements_from_bytes::<bool>(&[0, 1, 2])
                .unwrap()
                .unwrap_err(),
            BadBytes::Bool { at: 2, value: 2 }
        );
        assert_eq!(
            elements_from_bytes::<bool>(&[0, 1]).unwrap().unwrap(),
            [false, true]
        );
        assert_eq!(
            BadBytes::Bool { at: 2, value: 7 }.describe(DType::Bool),
            "bool element 2 is the byte 7, not 0 or 1"
        );
        let mut w = [1u8, 2, 3, 4, 5, 6, 7, 8];
        swap_byte_order(&mut w, component_size(DType::C64));
        assert_eq!(w, [4, 3, 2, 1, 8, 7, 6, 5]);
    }
}
