//! Type-level lists, the working form of static shapes.
//!
//! Users write shapes as tuples (`shape![5, 3]` is `(Dec<5>, Dec<3>)`), which
//! the compiler prints compactly. The rules recurse on lists instead: a shape
//! is turned into its dimensions *last first* ([`TupleShape::Rev`]), because
//! broadcasting aligns shapes at their trailing dimension.

use super::dim::Dim;

/// The empty list.
#[derive(Copy, Clone, Default, Debug)]
pub struct Nil;

/// A list with head `H` and tail `T`.
#[derive(Copy, Clone, Default, Debug)]
pub struct Cons<H, T>(H, T);

/// A static-rank shape: a tuple of dimensions, with its reversed list form.
pub trait TupleShape {
    /// The dimensions, last first: `(A, B, C)` gives `Cons<C, Cons<B, Cons<A, Nil>>>`.
    type Rev;
    /// The dimensions in order: `(A, B, C)` gives `Cons<A, Cons<B, Cons<C, Nil>>>`.
    type Fwd;
}

/// The tuple shape of a reversed list (the inverse of [`TupleShape::Rev`]).
pub trait FromRev {
    /// The tuple.
    type Tuple;
}

/// The tuple shape of a list in order (first dimension at the head), whose
/// dimensions are all [`Shape`](super::Shape)-able.
#[diagnostic::on_unimplemented(
    message = "a static shape has at most 8 dimensions",
    label = "this result would have more; use `DynShape` (`into_dyn()`) for higher ranks"
)]
pub trait FromForward {
    /// The tuple.
    type Tuple: super::Shape;
}

/// `fwd_list!(A B C)` is `Cons<A, Cons<B, Cons<C, Nil>>>`.
macro_rules! fwd_list {
    () => { Nil };
    ($h:ident $($t:ident)*) => { Cons<$h, fwd_list!($($t)*)> };
}

/// `rev_list!(A B C)` is `Cons<C, Cons<B, Cons<A, Nil>>>`.
macro_rules! rev_list {
    (@acc $acc:ty;) => { $acc };
    (@acc $acc:ty; $h:ident $($t:ident)*) => { rev_list!(@acc Cons<$h, $acc>; $($t)*) };
    ($($t:ident)*) => { rev_list!(@acc Nil; $($t)*) };
}

macro_rules! tuple_lists {
    ($($t:ident)*) => {
        impl<$($t: Dim),*> TupleShape for ($($t,)*) {
            type Rev = rev_list!($($t)*);
            type Fwd = fwd_list!($($t)*);
        }
        impl<$($t: Dim),*> FromRev for rev_list!($($t)*) {
            type Tuple = ($($t,)*);
        }
        impl<$($t: Dim),*> FromForward for fwd_list!($($t)*) {
            type Tuple = ($($t,)*);
        }
    };
}
tuple_lists!();
tuple_lists!(A);
tuple_lists!(A B);
tuple_lists!(A B C);
tuple_lists!(A B C D);
tuple_lists!(A B C D E);
tuple_lists!(A B C D E F);
tuple_lists!(A B C D E F G);
tuple_lists!(A B C D E F G H);
