//! The result shapes of reductions on static shapes: one axis
//! ([`ReduceAxis`], `sum_dim::<1>()`) or several ([`ReduceAxes`],
//! `sum_dims::<axes![0, 2]>()`), removed from the shape or kept as size 1
//! (`keepdim`). An axis out of range, a repeated axis and an empty list are
//! compile errors that say so.
//!
//! ```
//! use shaped::prelude::*;
//! use shaped::shape::reduce::{ReduceAxes, ReduceAxis};
//! type S = shape![2, 3, 4];
//! let _: <S as ReduceAxis<1>>::Removed = (Dec::<2>, Dec::<4>);
//! let _: <S as ReduceAxis<1>>::Kept = (Dec::<2>, Dec::<1>, Dec::<4>);
//! let _: <S as ReduceAxes<axes![2, 0]>>::Removed = (Dec::<3>,);
//! let _: <S as ReduceAxes<axes![0, 2]>>::Kept = (Dec::<1>, Dec::<3>, Dec::<1>);
//! ```

use super::Shape;
use super::axes::AtDec;
use super::digits::{Many, One, SizeEq, SizeKind};
use super::dim::{Dec, Dim, Dyn};
use super::list::{Cons, FromForward, Nil, TupleShape};
use core::ops::BitOr;
use typenum::{False, True};

/// The shape reduced along dimension `I`.
#[diagnostic::on_unimplemented(
    message = "cannot reduce along dimension {I}: the shape has no dimension {I}",
    label = "the shape `{Self}` has no dimension {I}",
    note = "dimensions are counted from 0; a shape of rank n has dimensions 0 to n - 1"
)]
pub trait ReduceAxis<const I: usize> {
    /// Without dimension `I` (`keepdim = false`).
    type Removed: Shape;
    /// With dimension `I` of size 1 (`keepdim = true`).
    type Kept: Shape;
}

/// `impl ReduceAxis<i>` and `impl ExtremeAxis<i>` (the same, for a
/// dimension that [`HoldsElements`]) for every position `i` of one tuple
/// rank.
macro_rules! reduce_axis {
    (@at [$($pre:ident)*] [$x:ident $($post:ident)*] [$i:literal $($is:literal)*]) => {
        impl<$($pre: Dim,)* $x: Dim, $($post: Dim,)*> ReduceAxis<$i> for ($($pre,)* $x, $($post,)*) {
            type Removed = ($($pre,)* $($post,)*);
            type Kept = ($($pre,)* Dec<1>, $($post,)*);
        }
        impl<$($pre: Dim,)* $x: Dim + HoldsElements, $($post: Dim,)*> ExtremeAxis<$i> for ($($pre,)* $x, $($post,)*) {
            type Removed = ($($pre,)* $($post,)*);
            type Kept = ($($pre,)* Dec<1>, $($post,)*);
        }
        reduce_axis!(@at [$($pre)* $x] [$($post)*] [$($is)*]);
    };
    (@at [$($pre:ident)*] [] []) => {};
    ($($t:ident)*; $($i:literal)*) => {
        reduce_axis!(@at [] [$($t)*] [$($i)*]);
    };
}
reduce_axis!(A; 0);
reduce_axis!(A B; 0 1);
reduce_axis!(A B C; 0 1 2);
reduce_axis!(A B C D; 0 1 2 3);
reduce_axis!(A B C D E; 0 1 2 3 4);
reduce_axis!(A B C D E F; 0 1 2 3 4 5);
reduce_axis!(A B C D E F G; 0 1 2 3 4 5 6);
reduce_axis!(A B C D E F G H; 0 1 2 3 4 5 6 7);

/// The shape reduced along the axes `L` (written `axes![0, 2]`, in any
/// order, each once).
pub trait ReduceAxes<L> {
    /// Without the axes (`keepdim = false`).
    type Removed: Shape;
    /// With the axes of size 1 (`keepdim = true`).
    type Kept: Shape;
}

/// A list of axes that is not empty.
#[diagnostic::on_unimplemented(
    message = "the list of axes to reduce is empty",
    label = "`axes![]` names no dimension",
    note = "PyTorch reads an empty list as every dimension; here the whole-tensor forms say so: `sum()`, `mean()`, `all()`, ..."
)]
pub trait NonEmptyAxes {}
impl<H, T> NonEmptyAxes for Cons<H, T> {}

/// Every axis of a list is a dimension of `S`.
pub trait AxesIn<S> {}
impl<S> AxesIn<S> for Nil {}
impl<S: AtDec<H>, H, T: AxesIn<S>> AxesIn<S> for Cons<H, T> {}

/// No axis of a list appears twice.
pub trait DistinctAxes {}
impl DistinctAxes for Nil {}
impl<H, T: LacksAxis<H> + DistinctAxes> DistinctAxes for Cons<H, T> {}

/// A list does not contain the axis `K`.
pub trait LacksAxis<K> {}
impl<K> LacksAxis<K> for Nil {}
impl<K, H: SizeEq<K>, T> LacksAxis<K> for Cons<H, T> where (H::Out, K, T): LacksAxisStep {}

/// `(found here, axis, rest)`: the error when found, else the rest.
pub trait LacksAxisStep {}
impl<K, T: LacksAxis<K>> LacksAxisStep for (False, K, T) {}
impl<K: AxisRepeated, T> LacksAxisStep for (True, K, T) {}

/// Holds for nothing: a list of axes (reduced, flipped) names `Self` twice.
#[diagnostic::on_unimplemented(
    message = "an axis appears more than once in a list of axes",
    label = "axis `{Self}` is named twice",
    note = "PyTorch raises `dim 0 appears multiple times in the list of dims`; name each axis once"
)]
pub trait AxisRepeated {}

/// Whether a list contains the axis `K`: `True` or `False`.
pub trait ContainsAxis<K> {
    /// The answer.
    type Out;
}
impl<K> ContainsAxis<K> for Nil {
    type Out = False;
}
impl<K, H: SizeEq<K>, T: ContainsAxis<K>> ContainsAxis<K> for Cons<H, T>
where
    H::Out: BitOr<T::Out>,
{
    type Out = <H::Out as BitOr<T::Out>>::Output;
}

/// `(reduced, size)`: size 1 where reduced, else the size.
pub trait KeptSize {
    /// The size.
    type Out: Dim;
}
impl<X: Dim> KeptSize for (True, X) {
    type Out = Dec<1>;
}
impl<X: Dim> KeptSize for (False, X) {
    type Out = X;
}

/// A list of `(reduced, size)` pairs without the reduced entries.
pub trait DropReduced {
    /// The sizes left, in order.
    type Out;
}
impl DropReduced for Nil {
    type Out = Nil;
}
impl<X, T: DropReduced> DropReduced for Cons<(True, X), T> {
    type Out = T::Out;
}
impl<X, T: DropReduced> DropReduced for Cons<(False, X), T> {
    type Out = Cons<X, T::Out>;
}

/// `list!(A, B)` is `Cons<A, Cons<B, Nil>>`.
macro_rules! list {
    () => { Nil };
    ($h:ty $(, $t:ty)*) => { Cons<$h, list!($($t),*)> };
}

/// `impl ReduceAxes<L>` for one tuple rank.
macro_rules! reduce_axes {
    ($($t:ident $k:literal)*) => {
        impl<L: TupleShape, $($t: Dim),*> ReduceAxes<L> for ($($t,)*)
        where
            L::Fwd: NonEmptyAxes + AxesIn<Self> + DistinctAxes $(+ ContainsAxis<Dec<$k>>)*,
            $((<L::Fwd as ContainsAxis<Dec<$k>>>::Out, $t): KeptSize,)*
            ($(<(<L::Fwd as ContainsAxis<Dec<$k>>>::Out, $t) as KeptSize>::Out,)*): Shape,
            list!($((<L::Fwd as ContainsAxis<Dec<$k>>>::Out, $t)),*): DropReduced,
            <list!($((<L::Fwd as ContainsAxis<Dec<$k>>>::Out, $t)),*) as DropReduced>::Out: FromForward,
        {
            type Removed = <<list!($((<L::Fwd as ContainsAxis<Dec<$k>>>::Out, $t)),*) as DropReduced>::Out as FromForward>::Tuple;
            type Kept = ($(<(<L::Fwd as ContainsAxis<Dec<$k>>>::Out, $t) as KeptSize>::Out,)*);
        }
    };
}
reduce_axes!(A 0);
reduce_axes!(A 0 B 1);
reduce_axes!(A 0 B 1 C 2);
reduce_axes!(A 0 B 1 C 2 D 3);
reduce_axes!(A 0 B 1 C 2 D 3 E 4);
reduce_axes!(A 0 B 1 C 2 D 3 E 4 F 5);
reduce_axes!(A 0 B 1 C 2 D 3 E 4 F 5 G 6);
reduce_axes!(A 0 B 1 C 2 D 3 E 4 F 5 G 6 H 7);

/// A dimension that `amax`, `max` and `argmax` can reduce along: a static
/// size of 1 or more, or `Dyn` (whose size the plain forms check at run
/// time, panicking with PyTorch's message, and the `try_` forms return).
///
/// ```
/// use shaped::prelude::*;
/// use shaped::shape::reduce::HoldsElements;
/// fn holds<X: HoldsElements>() {}
/// holds::<Dec<3>>();
/// holds::<Dyn>();
/// ```
#[diagnostic::on_unimplemented(
    message = "cannot take a maximum or minimum along a dimension of size 0",
    label = "this dimension has no elements to compare",
    note = "PyTorch raises \"Expected reduction dim to have non-zero size\" here; sums, means and products of nothing are fine"
)]
pub trait HoldsElements {}
impl HoldsElements for Dyn {}
impl<X: SizeKind> HoldsElements for X where X::Kind: NonZeroKind {}

/// The size kinds [`One`] and [`Many`]: not [`Zero`](super::digits::Zero).
#[diagnostic::on_unimplemented(
    message = "cannot take a maximum or minimum along a dimension of size 0",
    label = "this dimension has no elements to compare",
    note = "PyTorch raises \"Expected reduction dim to have non-zero size\" here; sums, means and products of nothing are fine"
)]
pub trait NonZeroKind {}
impl NonZeroKind for One {}
impl NonZeroKind for Many {}

/// Dimension `I` of the shape exists and holds elements ([`HoldsElements`]):
/// what `amax_dim::<I>()`, `max_dim::<I>()` and `argmax_dim::<I>()` need
/// to return their tensors rather than a `Result`.
#[diagnostic::on_unimplemented(
    message = "cannot reduce along dimension {I}: the shape has no dimension {I}",
    label = "the shape `{Self}` has no dimension {I}",
    note = "dimensions are counted from 0; a shape of rank n has dimensions 0 to n - 1"
)]
pub trait ExtremeAxis<const I: usize> {
    /// Without dimension `I`: [`ReduceAxis::Removed`].
    type Removed: Shape;
    /// With dimension `I` of size 1: [`ReduceAxis::Kept`].
    type Kept: Shape;
}

// `impl ExtremeAxis<i>` come with `impl ReduceAxis<i>` (`reduce_axis!`).

/// The axes `L` are a valid reduction of the shape ([`ReduceAxes`]) and
/// each holds elements ([`HoldsElements`]).
pub trait ExtremeAxes<L>: ReduceAxes<L> {}
impl<L: TupleShape, S: ReduceAxes<L>> ExtremeAxes<L> for S where L::Fwd: AxesHoldElements<S> {}

/// Every axis of a list names a dimension of `S` that holds elements.
pub trait AxesHoldElements<S> {}
impl<S> AxesHoldElements<S> for Nil {}
impl<S: AtDec<H>, H, T: AxesHoldElements<S>> AxesHoldElements<S> for Cons<H, T> where
    <S as AtDec<H>>::Output: HoldsElements
{
}

/// Every dimension of the shape holds elements ([`HoldsElements`]), so the
/// whole-tensor `amax()`, `max()` and `argmax()` have an element to return
/// (a rank-0 shape holds one).
pub trait AllHoldElements {}
macro_rules! all_hold_elements {
    ($($t:ident)*) => {
        impl<$($t: HoldsElements),*> AllHoldElements for ($($t,)*) {}
    };
}
all_hold_elements!();
all_hold_elements!(A);
all_hold_elements!(A B);
all_hold_elements!(A B C);
all_hold_elements!(A B C D);
all_hold_elements!(A B C D E);
all_hold_elements!(A B C D E F);
all_hold_elements!(A B C D E F G);
all_hold_elements!(A B C D E F G H);

/// The axes `L` as a runtime mask over a shape of rank `rank`.
pub(crate) fn axes_mask<L: Shape + super::FixedShape>(
    rank: usize,
) -> smallvec::SmallVec<[bool; 8]> {
    let mut mask = smallvec::SmallVec::from_elem(false, rank);
    for &axis in L::SIZES.as_ref() {
        mask[axis] = true;
    }
    mask
}
