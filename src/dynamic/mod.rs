//! The dynamic escape hatch: sizes and ranks known only at run time.
//!
//! - A [`Dyn`](crate::Dyn) entry in `shape![..]` is one size known at run time
//!   (`shape![Dyn, 3]`); the rank and the other sizes stay static.
//! - [`DynShape`] is a shape whose rank is known only at run time;
//!   [`DynTensor<T>`] is `Tensor<T, DynShape>`.
//!
//! Broadcasting mixes the two freely: a static size `n != 1` against `Dyn`
//! stays `n` (and the `Dyn` side is checked at run time), `1` against `Dyn`
//! gives `Dyn`, and any `DynShape` operand makes the result a `DynShape`.
//! Checks that cannot happen at compile time happen at run time, with
//! PyTorch's error texts: the `try_` methods (`try_add`, `try_eq`,
//! `try_add_assign`, ...) return them as [`Error`](crate::Error)s, the
//! operators panic with them. On static shapes those checks cannot fail.
//!
//! ```
//! use shaped::prelude::*;
//! let a = DynTensor::<f32>::zeros(&[5, 2, 4, 1]);
//! let b = DynTensor::<f32>::zeros(&[3, 1, 1]);
//! let err = a.try_add(&b).unwrap_err();
//! assert_eq!(
//!     err.to_string(),
//!     "The size of tensor a (2) must match the size of tensor b (3) at non-singleton dimension 1"
//! );
//! ```

mod any;
mod any_convert;
mod any_creation;
mod any_in_place;
mod any_index;
mod any_math;
mod any_matmul;
mod any_moments;
mod any_normalize;
mod any_pairs;
mod any_random;
mod any_rearrange;
mod any_reduce;
mod any_scans;
mod any_scatter;
pub mod any_sets;
mod any_sort;
mod any_ternary;
mod any_views;
mod construct;
mod convert;

pub use crate::shape::dynamic::{DynShape, DynSizes, INLINE_RANK};
#[cfg(feature = "cuda")]
pub(crate) use any::any_tensor;
pub use any::{AnyElement, AnyTensor, Operand};
pub(crate) use any::{Converted, scalar_as, typed_parts, viewed};
pub use any_convert::FromAny;
pub(crate) use any_scatter::checked_scalar;
pub use construct::DynConstructors;

use crate::backend::Cpu;
use crate::tensor::Tensor;

/// A tensor whose rank and sizes are known only at run time.
///
/// ```
/// use shaped::prelude::*;
/// let t = DynTensor::<f32>::ones(&[2, 3]);
/// assert_eq!(t.shape(), [2, 3]);
/// ```
pub type DynTensor<T, D = Cpu> = Tensor<T, DynShape, D>;
