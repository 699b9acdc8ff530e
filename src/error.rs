//! The one error type of `shaped`, and the one home of its texts.
//!
//! Where PyTorch has a message for the same mistake, [`Error`]'s `Display`
//! prints PyTorch's exact text, so a search for it finds PyTorch's answers.

use crate::dtype::DType;
use core::fmt;

/// Everything that can go wrong at run time.
///
/// ```
/// use shaped::prelude::*;
/// let err = Tensor::<i64, shape![3, 3]>::from_vec(vec![0; 8]).unwrap_err();
/// assert_eq!(err.to_string(), "shape '[3, 3]' is invalid for input of size 8");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// Two shapes do not broadcast; `dim` counts from the left of the result.
    BroadcastMismatch {
        /// The size of the left operand.
        size_a: usize,
        /// The size of the right operand.
        size_b: usize,
        /// The dimension of the broadcast result.
        dim: usize,
    },
    /// An in-place operation would change its output's shape.
    InPlaceShape {
        /// The output's shape.
        output: Vec<usize>,
        /// The shape both operands broadcast to.
        broadcast: Vec<usize>,
    },
    /// `expand` to a size that differs from an existing size other than 1.
    ExpandMismatch {
        /// The requested sizes (`-1` keeps a size).
        target: Vec<isize>,
        /// The tensor's sizes.
        existing: Vec<usize>,
        /// The dimension of the target that clashes.
        dim: usize,
    },
    /// `expand` to fewer dimensions than the tensor has.
    ExpandRank {
        /// The tensor's element type.
        dtype: DType,
        /// The tensor's sizes.
        existing: Vec<usize>,
        /// The requested sizes.
        target: Vec<isize>,
    },
    /// `expand` with `-1` for a new leading dimension.
    ExpandLeadingMinusOne {
        /// The dimension.
        dim: usize,
    },
    /// Sizes whose element count does not fit in `usize`.
    StorageOverflow {
        /// The sizes.
        sizes: Vec<usize>,
    },
    /// An `expand` whose element count does not fit in `usize`.
    NumelOverflow,
    /// Row-major strides that do not fit in `usize`.
    StrideOverflow,
    /// The allocator could not provide a buffer.
    OutOfMemory {
        /// The bytes asked for.
        bytes: usize,
    },
    /// A number of elements does not fill a shape.
    ElementCount {
        /// The requested shape.
        shape: Vec<usize>,
        /// The number of elements given.
        numel: usize,
    },
    /// Runtime sizes of the wrong rank for a static-rank shape.
    RankMismatch {
        /// The shape's rank.
        expected: usize,
        /// The number of sizes given.
        actual: usize,
    },
    /// A runtime size contradicts a static one.
    StaticSizeMismatch {
        /// The dimension.
        dim: usize,
        /// The static size.
        expected: usize,
        /// The size given.
        actual: usize,
    },
    /// An index past the end of a dimension.
    IndexOutOfRange {
        /// The index.
        index: usize,
        /// The dimension.
        dim: usize,
        /// The dimension's size.
        size: usize,
    },
    /// A device string that does not parse.
    InvalidDevice(String),
    /// More (or fewer) indices than dimensions.
    IndexRank {
        /// The tensor's rank.
        rank: usize,
        /// The number of indices.
        indices: usize,
    },
}

/// `[3, 1, 7]`, as PyTorch prints sizes in messages.
struct Sizes<'a, N>(&'a [N]);

impl<N: fmt::Display> fmt::Display for Sizes<'_, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[")?;
        for (i, s) in self.0.iter().enumerate() {
            if i > 0 {
                write!(f, ", ")?;
            }
            write!(f, "{s}")?;
        }
        write!(f, "]")
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::BroadcastMismatch { size_a, size_b, dim } => write!(
                f,
                "The size of tensor a ({size_a}) must match the size of tensor b ({size_b}) at non-singleton dimension {dim}"
            ),
            Error::InPlaceShape { output, broadcast } => write!(
                f,
                "output with shape {} doesn't match the broadcast shape {}",
                Sizes(output),
                Sizes(broadcast)
            ),
            Error::ExpandMismatch { target, existing, dim } => write!(
                f,
                "The expanded size of the tensor ({}) must match the existing size ({}) at non-singleton dimension {dim}.  Target sizes: {}.  Tensor sizes: {}",
                target[*dim],
                existing[*dim - (target.len() - existing.len())],
                Sizes(target),
                Sizes(existing)
            ),
            Error::ExpandLeadingMinusOne { dim } => write!(
                f,
                "The expanded size of the tensor (-1) isn't allowed in a leading, non-existing dimension {dim}"
            ),
            Error::ExpandRank { dtype, existing, target } => write!(
                f,
                "expand({}{{{}}}, size={}): the number of sizes provided ({}) must be greater or equal to the number of dimensions in the tensor ({})",
                legacy_tensor_type(*dtype),
                Sizes(existing),
                Sizes(target),
                target.len(),
                existing.len()
            ),
            Error::StorageOverflow { sizes } => write!(
                f,
                "Storage size calculation overflowed with sizes={}",
                Sizes(sizes)
            ),
            Error::NumelOverflow => write!(f, "numel: integer multiplication overflow"),
            Error::StrideOverflow => write!(f, "Stride calculation overflowed"),
            Error::OutOfMemory { bytes } => write!(
                f,
                "[enforce fail at alloc_cpu.cpp:127] err == 0. DefaultCPUAllocator: can't allocate memory: you tried to allocate {bytes} bytes. Error code 12 (Cannot allocate memory)"
            ),
            Error::ElementCount { shape, numel } => {
                write!(f, "shape '{}' is invalid for input of size {numel}", Sizes(shape))
            }
            Error::RankMismatch { expected, actual } => write!(
                f,
                "a shape of rank {expected} cannot take {actual} sizes"
            ),
            Error::StaticSizeMismatch { dim, expected, actual } => write!(
                f,
                "size {actual} at dimension {dim} contradicts the static size {expected}"
            ),
            Error::IndexOutOfRange { index, dim, size } => write!(
                f,
                "index {index} is out of bounds for dimension {dim} with size {size}"
            ),
            Error::InvalidDevice(s) => write!(f, "Invalid device string: '{s}'"),
            Error::IndexRank { rank, indices } => {
                if indices > rank {
                    write!(f, "too many indices for tensor of dimension {rank}")
                } else {
                    write!(
                        f,
                        "expected {rank} indices for tensor of dimension {rank}, got {indices}"
                    )
                }
            }
        }
    }
}

impl std::error::Error for Error {}

/// The tensor type name PyTorch's `expand` message uses (legacy names for
/// the older dtypes).
fn legacy_tensor_type(dtype: DType) -> &'static str {
    match dtype {
        DType::F16 => "torch.HalfTensor",
        DType::BF16 => "CPUBFloat16Type",
        DType::F32 => "torch.FloatTensor",
        DType::F64 => "torch.DoubleTensor",
        DType::C64 => "CPUComplexFloatType",
        DType::C128 => "CPUComplexDoubleType",
        DType::U8 => "torch.ByteTensor",
        DType::I8 => "torch.CharTensor",
        DType::I16 => "torch.ShortTensor",
        DType::I32 => "torch.IntTensor",
        DType::I64 => "torch.LongTensor",
        DType::Bool => "CPUBoolType",
    }
}
