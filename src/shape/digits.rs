//! Type operators on decimal sizes (`Dec`): equality, the kind of a size
//! (0, 1 or more), digit counts. One rule per impl, in the style of typenum.
//!
//! These are the building blocks of the broadcasting rules; users never name
//! them, but they appear in the "required for" notes of compile errors.

use super::dim::Dec;
use super::list::{Cons, Nil};
use typenum::{Bit, False, True};

/// One decimal digit as a type (`10` is the "no digit" filler of `Dec`).
#[derive(Copy, Clone, Default, Debug)]
pub struct Dig<const D: u8>;

/// Type-level equality of two static sizes.
pub trait SizeEq<Rhs> {
    /// `True` when the sizes are equal.
    type Out: Bit;
}

macro_rules! size_eq {
    ($(($a:ident, $b:ident)),*) => {
        impl<$(const $a: u8,)* $(const $b: u8,)*> SizeEq<Dec<$($b),*>> for Dec<$($a),*>
        where
            size_eq!(@pairs $(($a, $b)),*): PairsEq,
        {
            type Out = <size_eq!(@pairs $(($a, $b)),*) as PairsEq>::Out;
        }
    };
    (@pairs) => { Nil };
    (@pairs ($a:ident, $b:ident) $(, ($ra:ident, $rb:ident))*) => {
        Cons<(Dig<$a>, Dig<$b>), size_eq!(@pairs $(($ra, $rb)),*)>
    };
}
size_eq!(
    (A0, B0),
    (A1, B1),
    (A2, B2),
    (A3, B3),
    (A4, B4),
    (A5, B5),
    (A6, B6),
    (A7, B7),
    (A8, B8),
    (A9, B9)
);

/// Equality of a list of digit pairs, most significant first: it stops at
/// the first difference, or at the first pair of fillers (both sizes ended
/// there with the same digits), so that comparing `7` with `7` takes one
/// step, not one per digit place.
pub trait PairsEq {
    /// `True` when every pair is equal.
    type Out: Bit;
}
impl PairsEq for Nil {
    type Out = True;
}
impl<T> PairsEq for Cons<(Dig<10>, Dig<10>), T> {
    type Out = True;
}
/// A pair of equal digits goes on; any other pair (one filler included) is a
/// difference. One impl per pair, so that the pair of fillers above has its own.
macro_rules! digit_pairs {
    () => {};
    ($h:literal $($t:literal)*) => {
        impl<T: PairsEq> PairsEq for Cons<(Dig<$h>, Dig<$h>), T> { type Out = T::Out; }
        $(
            impl<T> PairsEq for Cons<(Dig<$h>, Dig<$t>), T> { type Out = False; }
            impl<T> PairsEq for Cons<(Dig<$t>, Dig<$h>), T> { type Out = False; }
        )*
        digit_pairs!($($t)*);
    };
}
digit_pairs!(0 1 2 3 4 5 6 7 8 9);
macro_rules! filler_pairs {
    ($($d:literal)*) => {$(
        impl<T> PairsEq for Cons<(Dig<$d>, Dig<10>), T> { type Out = False; }
        impl<T> PairsEq for Cons<(Dig<10>, Dig<$d>), T> { type Out = False; }
    )*};
}
filler_pairs!(0 1 2 3 4 5 6 7 8 9);

/// The size 0.
#[derive(Copy, Clone, Default, Debug)]
pub struct Zero;
/// The size 1: the one that stretches.
#[derive(Copy, Clone, Default, Debug)]
pub struct One;
/// Any size of 2 or more.
#[derive(Copy, Clone, Default, Debug)]
pub struct Many;

/// Which broadcasting class a static size is in: [`Zero`], [`One`] or [`Many`].
pub trait SizeKind {
    /// `Zero`, `One` or `Many`.
    type Kind;
}

/// The kind, read off the first two digits.
pub trait KindOfDigits {
    /// `Zero`, `One` or `Many`.
    type Kind;
}
impl KindOfDigits for (Dig<0>, Dig<10>) {
    type Kind = Zero;
}
impl KindOfDigits for (Dig<1>, Dig<10>) {
    type Kind = One;
}
macro_rules! kind_many {
    (single: $($d:literal)*; second: $($s:literal)*) => {
        $(impl KindOfDigits for (Dig<$d>, Dig<10>) { type Kind = Many; })*
        $(impl<const D0: u8> KindOfDigits for (Dig<D0>, Dig<$s>) { type Kind = Many; })*
    };
}
kind_many!(single: 2 3 4 5 6 7 8 9; second: 0 1 2 3 4 5 6 7 8 9);

macro_rules! size_kind {
    ($($d:ident),*) => {
        impl<const D0: u8, const D1: u8, $(const $d: u8),*> SizeKind for Dec<D0, D1, $($d),*>
        where
            (Dig<D0>, Dig<D1>): KindOfDigits,
        {
            type Kind = <(Dig<D0>, Dig<D1>) as KindOfDigits>::Kind;
        }
    };
}
size_kind!(D2, D3, D4, D5, D6, D7, D8, D9);

/// The next count: `Dec<9>` is followed by `Dec<1, 0>`. Counts here are
/// digit counts and dimension indices, so they stop at 20.
pub trait Succ {
    /// The count plus one.
    type Next;
}
macro_rules! succ {
    ($([$($n:literal),*] => [$($m:literal),*]);* $(;)?) => {
        $(impl Succ for Dec<$($n),*> { type Next = Dec<$($m),*>; })*
    };
}
succ!(
    [0] => [1]; [1] => [2]; [2] => [3]; [3] => [4]; [4] => [5]; [5] => [6]; [6] => [7];
    [7] => [8]; [8] => [9]; [9] => [1, 0]; [1, 0] => [1, 1]; [1, 1] => [1, 2];
    [1, 2] => [1, 3]; [1, 3] => [1, 4]; [1, 4] => [1, 5]; [1, 5] => [1, 6];
    [1, 6] => [1, 7]; [1, 7] => [1, 8]; [1, 8] => [1, 9]; [1, 9] => [2, 0];
);

/// The number of entries of a type-level list, as a `Dec`.
pub trait Len {
    /// The length.
    type Out;
}
impl Len for Nil {
    type Out = Dec<0>;
}
impl<H, T: Len> Len for Cons<H, T>
where
    T::Out: Succ,
{
    type Out = <T::Out as Succ>::Next;
}

/// The larger length of two lists, as a `Dec`.
pub trait MaxLen {
    /// The larger length.
    type Out;
}
impl MaxLen for (Nil, Nil) {
    type Out = Dec<0>;
}
impl<H, T> MaxLen for (Cons<H, T>, Nil)
where
    Cons<H, T>: Len,
{
    type Out = <Cons<H, T> as Len>::Out;
}
impl<H, T> MaxLen for (Nil, Cons<H, T>)
where
    Cons<H, T>: Len,
{
    type Out = <Cons<H, T> as Len>::Out;
}
impl<H1, T1, H2, T2> MaxLen for (Cons<H1, T1>, Cons<H2, T2>)
where
    (T1, T2): MaxLen,
    <(T1, T2) as MaxLen>::Out: Succ,
{
    type Out = <<(T1, T2) as MaxLen>::Out as Succ>::Next;
}

/// How many digits a static size has, as a `Dec`.
pub trait DigitCount {
    /// The digit count.
    type Out;
}

impl<A: LowDigitsFirst> DigitCount for A
where
    A::Out: Len,
{
    type Out = <A::Out as Len>::Out;
}

/// `digit_list!(D0, D1)` is `Cons<Dig<D0>, Cons<Dig<D1>, Nil>>`.
macro_rules! digit_list {
    () => { Nil };
    ($h:ident $(, $t:ident)*) => { Cons<Dig<$h>, digit_list!($($t),*)> };
}

/// The digits of a static size as a list, least significant first:
/// `Dec<2, 2, 4>` is `Cons<Dig<4>, Cons<Dig<2>, Cons<Dig<2>, Nil>>>`.
pub trait LowDigitsFirst {
    /// The reversed digit list.
    type Out;
}

/// Reverses a digit list up to its first filler, onto `Acc`.
pub trait ReverseDigits<Acc> {
    /// `Acc` with the digits prepended, last digit first.
    type Out;
}
impl<Acc> ReverseDigits<Acc> for Nil {
    type Out = Acc;
}
impl<Acc, T> ReverseDigits<Acc> for Cons<Dig<10>, T> {
    type Out = Acc;
}
macro_rules! reverse_digit {
    ($($d:literal)*) => {$(
        impl<Acc, T: ReverseDigits<Cons<Dig<$d>, Acc>>> ReverseDigits<Acc> for Cons<Dig<$d>, T> {
            type Out = T::Out;
        }
    )*};
}
reverse_digit!(0 1 2 3 4 5 6 7 8 9);

macro_rules! low_digits_first {
    ($($d:ident),*) => {
        impl<$(const $d: u8),*> LowDigitsFirst for Dec<$($d),*>
        where
            digit_list!($($d),*): ReverseDigits<Nil>,
        {
            type Out = <digit_list!($($d),*) as ReverseDigits<Nil>>::Out;
        }
    };
}
low_digits_first!(D0, D1, D2, D3, D4, D5, D6, D7, D8, D9);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::StaticDim;
    use typenum::Bit;

    fn eq<A: SizeEq<B>, B>() -> bool {
        <A::Out as Bit>::BOOL
    }
    fn count<A: DigitCount>() -> usize
    where
        A::Out: StaticDim,
    {
        <A::Out as StaticDim>::N
    }

    #[test]
    fn equality_is_digitwise() {
        assert!(eq::<Dec<2, 2, 4>, Dec<2, 2, 4>>());
        assert!(!eq::<Dec<2, 2, 4>, Dec<2, 2>>());
        assert!(!eq::<Dec<2, 2, 4>, Dec<2, 2, 5>>());
        assert!(!eq::<Dec<1>, Dec<1, 0>>());
        assert!(eq::<Dec<0>, Dec<0>>());
    }

    #[test]
    fn digit_counts() {
        assert_eq!(count::<Dec<7>>(), 1);
        assert_eq!(count::<Dec<5, 0, 2, 5, 7>>(), 5);
        assert_eq!(count::<Dec<9, 9, 9, 9, 9, 9, 9, 9, 9, 9>>(), 10);
    }

    #[test]
    fn lengths() {
        type L3 = Cons<(), Cons<(), Cons<(), Nil>>>;
        type L1 = Cons<(), Nil>;
        assert_eq!(<<L3 as Len>::Out as StaticDim>::N, 3);
        assert_eq!(<<(L1, L3) as MaxLen>::Out as StaticDim>::N, 3);
        assert_eq!(<<(L3, Nil) as MaxLen>::Out as StaticDim>::N, 3);
        assert_eq!(<<(Nil, Nil) as MaxLen>::Out as StaticDim>::N, 0);
    }
}
