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
mod any_math;
mod construct;
mod convert;
mod sizes;

#[cfg(feature = "cuda")]
pub(crate) use any::any_tensor;
pub use any::{AnyElement, AnyTensor, Operand};
pub(crate) use any::{Converted, scalar_as};
pub use construct::DynConstructors;
pub use sizes::{DynSizes, INLINE_RANK};

use crate::error::Error;
use crate::shape::list::TupleShape;
use crate::shape::{BroadcastInto, BroadcastShape, ExpandTo, Shape};
use crate::storage::Cpu;
use crate::tensor::Tensor;

/// A shape whose rank is known only at run time.
///
/// ```
/// use shaped::prelude::*;
/// let t: Tensor<i64, DynShape> = DynTensor::from_vec((0..6).collect(), &[2, 3]).unwrap();
/// assert_eq!(t.rank(), 2);
/// assert_eq!(t[[1, 2]], 5);
/// ```
#[derive(Copy, Clone, Default, Debug, PartialEq, Eq, Hash)]
pub struct DynShape;

impl Shape for DynShape {
    type Sizes = DynSizes;
    const RANK: Option<usize> = None;
    type Priority = crate::dtype::promote::RuntimeRank;

    fn check_sizes(sizes: &[usize]) -> Result<DynSizes, Error> {
        Ok(DynSizes::from_slice(sizes))
    }
}

/// A tensor whose rank and sizes are known only at run time.
///
/// ```
/// use shaped::prelude::*;
/// let t = DynTensor::<f32>::ones(&[2, 3]);
/// assert_eq!(t.shape(), [2, 3]);
/// ```
pub type DynTensor<T, D = Cpu> = Tensor<T, DynShape, D>;

/// A dynamic-rank operand broadcasts with anything, checked at run time.
#[diagnostic::do_not_recommend]
impl<B: Shape> BroadcastShape<B> for DynShape {
    type Output = DynShape;
}
/// A static-rank shape with a dynamic-rank one gives a dynamic-rank shape.
#[diagnostic::do_not_recommend]
impl<A: Shape + TupleShape> BroadcastShape<DynShape> for A {
    type Output = DynShape;
}

/// The in-place rule with a dynamic rank is checked at run time.
#[diagnostic::do_not_recommend]
impl<X: Shape> BroadcastInto<X> for DynShape {}
#[diagnostic::do_not_recommend]
impl<Y: Shape + TupleShape> BroadcastInto<DynShape> for Y {}

/// `expand` with a dynamic rank is checked at run time.
#[diagnostic::do_not_recommend]
impl<X: Shape> ExpandTo<X> for DynShape {}
#[diagnostic::do_not_recommend]
impl<Y: Shape + TupleShape> ExpandTo<DynShape> for Y {}
