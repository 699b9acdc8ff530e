//! The errors of the matrix products, with PyTorch's texts.

use super::{Error, type_id_name};
use crate::dtype::DType;
use core::fmt;

/// A shape mistake of `matmul`, `mm`, `bmm`, `mv` or `dot`, printed with
/// PyTorch's text.
///
/// ```
/// use shaped::prelude::*;
/// let a = DynTensor::<f32>::zeros(&[2, 3]);
/// let b = DynTensor::<f32>::zeros(&[4, 5]);
/// assert_eq!(
///     a.mm(&b).unwrap_err().to_string(),
///     "mm: mat1 and mat2 shapes cannot be multiplied (2x3 and 4x5)"
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum MatmulError {
    /// `matmul` with a rank-0 operand.
    RankZero {
        /// The left operand's rank.
        a: usize,
        /// The right operand's rank.
        b: usize,
    },
    /// `dot` of tensors that are not both 1-d.
    DotRank {
        /// The left operand's rank.
        a: usize,
        /// The right operand's rank.
        b: usize,
    },
    /// `dot` of vectors of different lengths.
    DotSize {
        /// The left length.
        a: usize,
        /// The right length.
        b: usize,
    },
    /// `mv` of operands that are not a matrix and a vector.
    MvRank {
        /// The matrix's rank.
        mat: usize,
        /// The vector's rank.
        vec: usize,
    },
    /// `mv` with a vector whose length is not the matrix's column count.
    MvSize {
        /// The matrix's rows.
        rows: usize,
        /// The matrix's columns.
        cols: usize,
        /// The vector's length.
        vec: usize,
    },
    /// `mm` of an operand that is not a matrix.
    MmRank {
        /// `"self"` or `"mat2"`.
        which: &'static str,
        /// The operand's rank.
        rank: usize,
    },
    /// `mm` of matrices whose inner sizes differ.
    MmShapes {
        /// The left matrix's sizes.
        a: [usize; 2],
        /// The right matrix's sizes.
        b: [usize; 2],
    },
    /// `bmm` of an operand that is not 3-d.
    BmmRank {
        /// `"batch1"` or `"batch2"`.
        which: &'static str,
    },
    /// `bmm` whose second operand's batch or rows differ from the first's
    /// batch and columns.
    BmmShapes {
        /// The batch and the inner size the first operand needs.
        expected: [usize; 2],
        /// What the second operand has.
        got: [usize; 2],
    },
    /// `mm` (or a product PyTorch runs as one) of operands of two dtypes:
    /// products do not promote.
    MmDTypes {
        /// The left operand's dtype.
        a: DType,
        /// The right operand's dtype.
        b: DType,
    },
    /// `mv` (or a product PyTorch runs as one) of a matrix and a vector of
    /// two dtypes.
    MvDTypes {
        /// The matrix's dtype.
        mat: DType,
        /// The vector's dtype.
        vec: DType,
    },
    /// `dot` of vectors of two dtypes.
    DotDTypes {
        /// The left vector's dtype.
        a: DType,
        /// The right vector's dtype.
        b: DType,
    },
    /// `bmm` (or `matmul` of batches) of two dtypes: the dtype its kernel
    /// runs in, and the other operand's.
    BmmDTypes {
        /// The kernel's dtype.
        expected: DType,
        /// The other operand's dtype.
        found: DType,
    },
}

impl fmt::Display for MatmulError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            MatmulError::RankZero { a, b } => write!(
                f,
                "both arguments to matmul need to be at least 1D, but they are {a}D and {b}D"
            ),
            MatmulError::DotRank { a, b } => {
                write!(f, "1D tensors expected, but got {a}D and {b}D tensors")
            }
            MatmulError::DotSize { a, b } => write!(
                f,
                "inconsistent tensor size, expected tensor [{a}] and src [{b}] to have the same number of elements, but got {a} and {b} elements respectively"
            ),
            MatmulError::MvRank { mat, vec } => {
                write!(f, "vector + matrix @ vector expected, got 1, {mat}, {vec}")
            }
            MatmulError::MvSize { rows, cols, vec } => write!(
                f,
                "size mismatch, got input ({rows}), mat ({rows}x{cols}), vec ({vec})"
            ),
            MatmulError::MmRank { which, rank } => {
                write!(f, "mm: {which} must be a matrix, got {rank}-D tensor")
            }
            MatmulError::MmShapes { a, b } => write!(
                f,
                "mm: mat1 and mat2 shapes cannot be multiplied ({}x{} and {}x{})",
                a[0], a[1], b[0], b[1]
            ),
            MatmulError::BmmRank { which } => write!(f, "{which} must be a 3D tensor"),
            MatmulError::BmmShapes { expected, got } => write!(
                f,
                "Expected size for first two dimensions of batch2 tensor to be: [{}, {}] but got: [{}, {}].",
                expected[0], expected[1], got[0], got[1]
            ),
            MatmulError::MmDTypes { a, b } => write!(
                f,
                "expected m1 and m2 to have the same dtype, but got: {} != {}",
                type_id_name(a),
                type_id_name(b)
            ),
            MatmulError::MvDTypes { mat, vec } => {
                let (mat, vec) = (mat.torch_name(), vec.torch_name());
                write!(
                    f,
                    "addmv input tensors must have the same dtype, but got {vec}, {mat}, and {vec}"
                )
            }
            MatmulError::DotDTypes { a, b } => write!(
                f,
                "dot : expected both vectors to have same dtype, but found {} and {}",
                a.torch_name(),
                b.torch_name()
            ),
            MatmulError::BmmDTypes { expected, found } => write!(
                f,
                "expected scalar type {} but found {}",
                expected.torch_name(),
                found.torch_name()
            ),
        }
    }
}

impl From<MatmulError> for Error {
    fn from(e: MatmulError) -> Error {
        Error::Matmul(e)
    }
}
