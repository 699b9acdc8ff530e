//! Arithmetic on static sizes: products, sums, differences and quotients of
//! `Dec` sizes, computed by the compiler.
//!
//! A `Dec` is converted to a typenum binary number ([`ToBin`]), typenum does
//! the arithmetic, and the result is converted back to decimal digits
//! ([`FromBin`]), so results print as legibly as the inputs.
//!
//! ```
//! use shaped::prelude::*;
//! use shaped::shape::arith::{Product, Sum};
//! use shaped::shape::StaticDim;
//! assert_eq!(<Product<Dec<2, 2, 4>, Dec<3>> as StaticDim>::N, 672);
//! assert_eq!(<Sum<Dec<9, 9>, Dec<1>> as StaticDim>::N, 100);
//! ```

use super::digits::{Dig, LowDigitsFirst};
use super::dim::Dec;
use super::list::{Cons, Nil};
use core::ops::{Add, Div, Mul, Rem, Sub};
use typenum::{B0, B1, Bit, U10, UInt, UTerm, Unsigned};

/// A static size as a typenum binary number.
pub trait ToBin {
    /// The typenum number.
    type Bin: Unsigned;
}

impl<A: LowDigitsFirst> ToBin for A
where
    A::Out: FoldDigits,
{
    type Bin = <A::Out as FoldDigits>::Bin;
}

/// The value of a digit list, least significant first: `d + 10 * rest`.
pub trait FoldDigits {
    /// The value.
    type Bin: Unsigned;
}
impl FoldDigits for Nil {
    type Bin = UTerm;
}
macro_rules! fold_digit {
    ($($d:literal => $u:ident),*) => {$(
        impl<T: FoldDigits> FoldDigits for Cons<Dig<$d>, T>
        where
            T::Bin: Mul<U10>,
            <T::Bin as Mul<U10>>::Output: Add<typenum::$u>,
            <<T::Bin as Mul<U10>>::Output as Add<typenum::$u>>::Output: Unsigned,
        {
            type Bin = <<T::Bin as Mul<U10>>::Output as Add<typenum::$u>>::Output;
        }
    )*};
}
fold_digit!(0 => U0, 1 => U1, 2 => U2, 3 => U3, 4 => U4, 5 => U5, 6 => U6, 7 => U7, 8 => U8, 9 => U9);

/// A typenum number as a `Dec`.
pub trait FromBin {
    /// The decimal size.
    type Dec;
}

/// The decimal digits of a typenum number, least significant first.
pub trait DecimalDigits {
    /// A list of `Dig`s, least significant first (empty for zero).
    type Digits;
}
impl DecimalDigits for UTerm {
    type Digits = Nil;
}
impl<U: DecimalDigits, B: Bit> DecimalDigits for UInt<U, B>
where
    U::Digits: DoubleAdd<B>,
{
    type Digits = <U::Digits as DoubleAdd<B>>::Out;
}

/// Doubles a least-significant-first digit list and adds the carry `C`.
pub trait DoubleAdd<C> {
    /// The result.
    type Out;
}
impl DoubleAdd<B0> for Nil {
    type Out = Nil;
}
impl DoubleAdd<B1> for Nil {
    type Out = Cons<Dig<1>, Nil>;
}
macro_rules! double_add {
    ($($d:literal, $c:ident => $out:literal, $carry:ident;)*) => {$(
        impl<T: DoubleAdd<$carry>> DoubleAdd<$c> for Cons<Dig<$d>, T> {
            type Out = Cons<Dig<$out>, T::Out>;
        }
    )*};
}
double_add! {
    0, B0 => 0, B0; 0, B1 => 1, B0; 1, B0 => 2, B0; 1, B1 => 3, B0;
    2, B0 => 4, B0; 2, B1 => 5, B0; 3, B0 => 6, B0; 3, B1 => 7, B0;
    4, B0 => 8, B0; 4, B1 => 9, B0; 5, B0 => 0, B1; 5, B1 => 1, B1;
    6, B0 => 2, B1; 6, B1 => 3, B1; 7, B0 => 4, B1; 7, B1 => 5, B1;
    8, B0 => 6, B1; 8, B1 => 7, B1; 9, B0 => 8, B1; 9, B1 => 9, B1;
}

/// A least-significant-first digit list as a `Dec` (empty is `Dec<0>`).
/// Lists longer than [`MAX_DIGITS`](super::MAX_DIGITS) have no impl: a
/// computed size that large is a compile error.
#[diagnostic::on_unimplemented(
    message = "a static size computed here has more than 10 digits (above 9999999999)",
    label = "the resulting size does not fit a static shape",
    note = "sizes that large are `Dyn`: convert the operands with `into_dyn()` first"
)]
pub trait PackDigits {
    /// The `Dec`.
    type Dec;
}
impl PackDigits for Nil {
    type Dec = Dec<0>;
}
macro_rules! pack_digits {
    ($($n:ident)*; $($rev:ident)*) => {
        impl<$(const $n: u8),*> PackDigits for pack_digits!(@list $($n)*) {
            type Dec = Dec<$($rev),*>;
        }
    };
    (@list) => { Nil };
    (@list $h:ident $($t:ident)*) => { Cons<Dig<$h>, pack_digits!(@list $($t)*)> };
}
macro_rules! pack_all {
    ($(($($n:ident)*) ($($rev:ident)*);)*) => {$( pack_digits!($($n)*; $($rev)*); )*};
}
pack_all! {
    (A) (A);
    (A B) (B A);
    (A B C) (C B A);
    (A B C D) (D C B A);
    (A B C D E) (E D C B A);
    (A B C D E F) (F E D C B A);
    (A B C D E F G) (G F E D C B A);
    (A B C D E F G H) (H G F E D C B A);
    (A B C D E F G H I) (I H G F E D C B A);
    (A B C D E F G H I J) (J I H G F E D C B A);
}

/// Schoolbook addition of two digit lists, least significant first, with
/// the carry `C` (`Dig<0>` or `Dig<1>`): one step per digit, where a detour
/// through binary numbers costs the compiler a multiplication per digit.
pub trait AddDigits<Rhs, C> {
    /// The sum's digits, least significant first.
    type Out;
}
impl AddDigits<Nil, Dig<0>> for Nil {
    type Out = Nil;
}
impl AddDigits<Nil, Dig<1>> for Nil {
    type Out = Cons<Dig<1>, Nil>;
}
/// The shorter number goes on with zeros.
impl<H, T, C> AddDigits<Cons<H, T>, C> for Nil
where
    Cons<Dig<0>, Nil>: AddDigits<Cons<H, T>, C>,
{
    type Out = <Cons<Dig<0>, Nil> as AddDigits<Cons<H, T>, C>>::Out;
}
impl<H, T, C> AddDigits<Nil, C> for Cons<H, T>
where
    Cons<H, T>: AddDigits<Cons<Dig<0>, Nil>, C>,
{
    type Out = <Cons<H, T> as AddDigits<Cons<Dig<0>, Nil>, C>>::Out;
}
/// `a + b + c`: the digit `(a + b + c) % 10`, carrying `(a + b + c) / 10`.
macro_rules! add_digits {
    (@rows [$($b:literal)*]) => {};
    (@rows [$($b:literal)*] $a:literal $($rest:literal)*) => {
        $(
            add_digits!(@one $a $b 0);
            add_digits!(@one $a $b 1);
        )*
        add_digits!(@rows [$($b)*] $($rest)*);
    };
    (@one $a:literal $b:literal $c:literal) => {
        impl<T1, T2> AddDigits<Cons<Dig<$b>, T2>, Dig<$c>> for Cons<Dig<$a>, T1>
        where
            T1: AddDigits<T2, Dig<{ ($a + $b + $c) / 10 }>>,
        {
            type Out = Cons<Dig<{ ($a + $b + $c) % 10 }>, T1::Out>;
        }
    };
}
add_digits!(@rows [0 1 2 3 4 5 6 7 8 9] 0 1 2 3 4 5 6 7 8 9);

impl<U: DecimalDigits> FromBin for U
where
    U::Digits: PackDigits,
{
    type Dec = <U::Digits as PackDigits>::Dec;
}

/// `A * B` of two static sizes.
pub type Product<A, B> = <<<A as ToBin>::Bin as Mul<<B as ToBin>::Bin>>::Output as FromBin>::Dec;
/// `A + B` of two static sizes, added in decimal (see [`AddDigits`]).
pub type Sum<A, B> = <<<A as LowDigitsFirst>::Out as AddDigits<
    <B as LowDigitsFirst>::Out,
    Dig<0>,
>>::Out as PackDigits>::Dec;
/// `A - B` of two static sizes (`A >= B`).
pub type Difference<A, B> = <<<A as ToBin>::Bin as Sub<<B as ToBin>::Bin>>::Output as FromBin>::Dec;
/// `A / B` of two static sizes, rounded down.
pub type Quotient<A, B> = <<<A as ToBin>::Bin as Div<<B as ToBin>::Bin>>::Output as FromBin>::Dec;
/// `A % B` of two static sizes.
pub type Remainder<A, B> = <<<A as ToBin>::Bin as Rem<<B as ToBin>::Bin>>::Output as FromBin>::Dec;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::StaticDim;

    fn n<D: StaticDim>() -> usize {
        D::N
    }

    #[test]
    fn round_trips_through_binary() {
        assert_eq!(<<Dec<0> as ToBin>::Bin as Unsigned>::USIZE, 0);
        assert_eq!(
            <<Dec<5, 0, 2, 5, 7> as ToBin>::Bin as Unsigned>::USIZE,
            50257
        );
        assert_eq!(n::<<typenum::U0 as FromBin>::Dec>(), 0);
        assert_eq!(n::<<typenum::U4096 as FromBin>::Dec>(), 4096);
        assert_eq!(n::<<<Dec<9, 9, 9> as ToBin>::Bin as FromBin>::Dec>(), 999);
    }

    #[test]
    fn arithmetic() {
        assert_eq!(n::<Product<Dec<2, 2, 4>, Dec<2, 2, 4>>>(), 224 * 224);
        assert_eq!(
            n::<Product<Dec<5, 0, 2, 5, 7>, Dec<7, 6, 8>>>(),
            50257 * 768
        );
        assert_eq!(n::<Sum<Dec<9, 9, 9>, Dec<1>>>(), 1000);
        assert_eq!(n::<Sum<Dec<1>, Dec<9, 9, 9>>>(), 1000);
        assert_eq!(n::<Sum<Dec<5>, Dec<7>>>(), 12);
        assert_eq!(n::<Sum<Dec<0>, Dec<0>>>(), 0);
        assert_eq!(n::<Sum<Dec<0>, Dec<4, 2>>>(), 42);
        assert_eq!(n::<Sum<Dec<5, 0, 2, 5, 7>, Dec<7, 6, 8>>>(), 51025);
        assert_eq!(n::<Sum<Dec<4, 5, 5>, Dec<5, 4, 5>>>(), 1000);
        assert_eq!(n::<Difference<Dec<1, 0, 0>, Dec<1>>>(), 99);
        assert_eq!(n::<Quotient<Dec<1, 0>, Dec<3>>>(), 3);
        assert_eq!(n::<Remainder<Dec<1, 0>, Dec<3>>>(), 1);
        assert_eq!(n::<Product<Dec<0>, Dec<7>>>(), 0);
    }
}
