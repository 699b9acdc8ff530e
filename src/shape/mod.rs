//! Shapes and broadcasting.
//!
//! A static shape is a tuple of dimensions written with [`shape!`](crate::shape!):
//! `shape![5, 3]` is `(Dec<5>, Dec<3>)`. A dimension is a decimal size
//! (`Dec`) or [`Dyn`] (known at run time).
//!
//! `Dec<D0, .., D9>` is a size fixed at compile time, as up to ten decimal
//! digits (`10` fills the places after the last digit): `Dec<5, 0, 2, 5, 7>`
//! is 50257. `shape!` writes it, never a user; it appears in the types and
//! the compile errors of static shapes, and its value is
//! [`StaticDim::N`]:
//!
//! ```
//! use shaped::prelude::*;
//! use shaped::shape::StaticDim;
//! type Vocab = Dec<5, 0, 2, 5, 7>;
//! assert_eq!(<Vocab as StaticDim>::N, 50257);
//! ```
//!
//! - [`Shape`]: what every shape offers at run time (its rank, the type of its
//!   size arrays, how to check runtime sizes against it).
//! - [`FixedShape`]: shapes whose sizes are all known at compile time.
//! - [`BroadcastShape`] / [`Broadcast`]: the broadcasting rule, by trait resolution.
//! - [`BroadcastInto`]: the in-place rule; [`ExpandTo`]: `expand`'s rule.
//! - [`MatmulShape`] / [`MatmulOf`]: `matmul`'s shape rule.
//! - [`broadcast_sizes`], [`check_in_place`], [`check_expand`]: the same
//!   rules at run time.

pub mod advanced;
pub mod arith;
pub mod axes;
mod broadcast;
mod broadcast_to;
pub mod concat;
pub mod diagnostics;
pub mod digits;
mod dim;
pub mod dynamic;
pub mod index;
pub mod list;
mod matmul;
pub mod rearrange;
pub mod reduce;
pub mod select;
pub mod slice;
pub mod split;

pub(crate) use broadcast::broadcast_sizes_into;
pub use broadcast::{
    Broadcast, BroadcastDim, BroadcastFails, BroadcastKinds, BroadcastRest, BroadcastRev,
    BroadcastShape, BroadcastTuples, Clash, ClashReport, EqualOrMismatch, Fine, IndexTensors,
    Mismatch, NoClash, Operands, WithDyn, broadcast_sizes,
};
pub use broadcast_to::{
    BroadcastInto, Expand, ExpandTo, FitsDim, FitsIfEqual, FitsKinds, FitsRest, FitsRev, InPlace,
    RankFails, SizeFails, check_expand, check_in_place, expands_to, resolve_expand,
};
pub use dim::{Dec, Dim, Dyn, MAX_DIGITS, NO_DIGIT, StaticDim};
pub use matmul::{
    Batch, EqualDim, Inner, InnerDim, IsNil, MatmulOf, MatmulOfRankZero, MatmulRev, MatmulShape,
    PassIfEqual, ReportMismatch, SameBatch,
};

use crate::error::Error;
use core::fmt::Debug;
use core::hash::Hash;

/// The most dimensions a static shape may have; [`DynShape`](crate::DynShape) has no limit.
pub const MAX_STATIC_RANK: usize = 8;

/// An array of sizes or strides: `[usize; N]` for a static rank.
///
/// ```
/// use shaped::shape::SizeArray;
/// let a = <[usize; 3] as SizeArray>::filled(3, 7);
/// assert_eq!(a, [7, 7, 7]);
/// ```
pub trait SizeArray:
    AsRef<[usize]> + AsMut<[usize]> + Clone + Debug + PartialEq + Eq + Hash + Send + Sync + 'static
{
    /// An array of `rank` entries, each `value`. Panics if a static rank differs.
    fn filled(rank: usize, value: usize) -> Self;

    /// A copy of `values`. Panics if a static rank differs.
    #[inline]
    fn copied(values: &[usize]) -> Self {
        let mut out = Self::filled(values.len(), 0);
        out.as_mut().copy_from_slice(values);
        out
    }
}

impl<const N: usize> SizeArray for [usize; N] {
    #[inline]
    fn filled(rank: usize, value: usize) -> Self {
        assert_eq!(rank, N, "rank mismatch");
        [value; N]
    }

    #[inline]
    fn copied(values: &[usize]) -> Self {
        values.try_into().expect("rank mismatch")
    }
}

impl<A: smallvec::Array<Item = usize> + Send + Sync + 'static> SizeArray for smallvec::SmallVec<A> {
    fn filled(rank: usize, value: usize) -> Self {
        smallvec::SmallVec::from_elem(value, rank)
    }
}

impl SizeArray for Vec<usize> {
    fn filled(rank: usize, value: usize) -> Self {
        vec![value; rank]
    }
}

/// A shape: static (a tuple of dimensions) or dynamic.
///
/// ```
/// use shaped::prelude::*;
/// use shaped::shape::Shape;
/// assert_eq!(<shape![3, 224, 224] as Shape>::RANK, Some(3));
/// ```
pub trait Shape: Copy + Default + Debug + Send + Sync + 'static {
    /// The array holding sizes (and strides) at run time.
    type Sizes: SizeArray;
    /// The rank, when known at compile time.
    const RANK: Option<usize>;
    /// What kind of operand a tensor of this shape is in type promotion:
    /// rank 0, dimensioned, or a rank known only at run time.
    type Priority: crate::dtype::promote::Priority;

    /// Checks runtime sizes against this shape: the rank and every static
    /// size must agree. Returns them as this shape's array type.
    fn check_sizes(sizes: &[usize]) -> Result<Self::Sizes, Error>;

    /// The shape in words, for messages: `[768, 3072]`, `[Dyn, 3]`, or
    /// `any shape` for a dynamic rank.
    fn describe() -> String {
        "any shape".into()
    }
}

/// `[2, Dyn, 3]` of static sizes (`None` for `Dyn`).
fn describe_dims(dims: &[Option<usize>]) -> String {
    let dims: Vec<String> = dims
        .iter()
        .map(|d| d.map_or_else(|| "Dyn".to_string(), |n| n.to_string()))
        .collect();
    format!("[{}]", dims.join(", "))
}

/// A shape whose every size is known at compile time.
///
/// ```
/// use shaped::prelude::*;
/// use shaped::shape::FixedShape;
/// assert_eq!(<shape![2, 3] as FixedShape>::SIZES, [2, 3]);
/// assert_eq!(<shape![2, 3] as FixedShape>::NUMEL, 6);
/// ```
pub trait FixedShape: Shape {
    /// The sizes.
    const SIZES: Self::Sizes;
    /// The number of elements.
    const NUMEL: usize;
}

/// Checks runtime `sizes` against a static shape's sizes (`None` for a
/// `Dyn` dimension): the rank, then every static size, in order.
#[inline]
fn check_static_sizes(sizes: &[usize], expected: &[Option<usize>]) -> Result<(), Error> {
    if sizes.len() != expected.len() {
        return Err(Error::RankMismatch {
            expected: expected.len(),
            actual: sizes.len(),
        });
    }
    for (dim, (&actual, &size)) in sizes.iter().zip(expected).enumerate() {
        match size {
            Some(expected) if expected != actual => {
                return Err(Error::StaticSizeMismatch {
                    dim,
                    expected,
                    actual,
                });
            }
            _ => {}
        }
    }
    Ok(())
}

macro_rules! tuple_shapes {
    ($n:literal, $priority:ident; $($t:ident)*) => {
        impl<$($t: Dim),*> Shape for ($($t,)*) {
            type Sizes = [usize; $n];
            type Priority = crate::dtype::promote::$priority;
            const RANK: Option<usize> = Some($n);

            fn check_sizes(sizes: &[usize]) -> Result<Self::Sizes, Error> {
                check_static_sizes(sizes, &[$($t::SIZE),*])?;
                let mut out = [0usize; $n];
                out.copy_from_slice(sizes);
                Ok(out)
            }

            fn describe() -> String {
                describe_dims(&[$($t::SIZE),*])
            }
        }

        impl<$($t: StaticDim),*> FixedShape for ($($t,)*) {
            const SIZES: Self::Sizes = [$($t::N),*];
            const NUMEL: usize = 1 $(* $t::N)*;
        }
    };
}
tuple_shapes!(0, ZeroDim;);
tuple_shapes!(1, Dimensioned; A);
tuple_shapes!(2, Dimensioned; A B);
tuple_shapes!(3, Dimensioned; A B C);
tuple_shapes!(4, Dimensioned; A B C D);
tuple_shapes!(5, Dimensioned; A B C D E);
tuple_shapes!(6, Dimensioned; A B C D E F);
tuple_shapes!(7, Dimensioned; A B C D E F G);
tuple_shapes!(8, Dimensioned; A B C D E F G H);
