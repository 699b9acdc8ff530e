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
}

/// The tuple shape of a reversed list (the inverse of [`TupleShape::Rev`]).
pub trait FromRev {
    /// The tuple.
    type Tuple;
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
        }
        impl<$($t: Dim),*> FromRev for rev_list!($($t)*) {
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
