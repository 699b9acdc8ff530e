//! Dimensions: one entry of a shape, either a size fixed at compile time
//! (`Dec`) or a size known only at run time ([`Dyn`]).
//!
//! A static size is written in decimal: `Dec<2, 2, 4>` is 224. Decimal digits
//! keep every type the compiler prints legible (`(Dec<3>, Dec<2, 2, 4>)` rather
//! than nested binary), and let compile errors quote sizes as plain numbers.
//! Users never write `Dec` themselves: `shape![3, 224]` does.

use core::fmt::Debug;

/// The most decimal digits a static size may have: sizes up to
/// 9,999,999,999 (every `u32`, and far beyond any one dimension a static
/// shape describes). Larger sizes are [`Dyn`]. Each digit place is a const
/// parameter of every `Dec` the compiler handles, so this bound is also
/// what the type-level rules cost: twice as many places made a program of
/// 200 operations type-check 20% slower.
pub const MAX_DIGITS: usize = 10;

/// Marks an absent digit in `Dec` (its default parameters).
pub const NO_DIGIT: u8 = 10;

/// One entry of a shape: a static size or [`Dyn`].
///
/// ```
/// use shaped::prelude::*;
/// use shaped::shape::Dim;
/// assert_eq!(<Dec<2, 2, 4> as Dim>::SIZE, Some(224));
/// assert_eq!(<Dyn as Dim>::SIZE, None);
/// ```
pub trait Dim: Copy + Default + Debug + Send + Sync + 'static {
    /// The size when it is known at compile time.
    const SIZE: Option<usize>;
}

/// A dimension whose size is fixed at compile time.
///
/// ```
/// use shaped::prelude::*;
/// use shaped::shape::StaticDim;
/// assert_eq!(<Dec<7, 6, 8> as StaticDim>::N, 768);
/// ```
pub trait StaticDim: Dim {
    /// The size.
    const N: usize;
}

/// A dimension whose size is known only at run time (`shape![Dyn, 3]`).
///
/// ```
/// use shaped::prelude::*;
/// let rows = Tensor::<f32, shape![Dyn, 3]>::zeros_with(&[5, 3]);
/// assert_eq!(rows.shape(), [5, 3]);
/// ```
#[derive(Copy, Clone, Default, Debug, PartialEq, Eq, Hash)]
pub struct Dyn;

impl Dim for Dyn {
    const SIZE: Option<usize> = None;
}

macro_rules! define_dec {
    ($($d:ident),*) => {
        /// A size fixed at compile time, as decimal digits: `Dec<5, 0, 2, 5, 7>`
        /// is 50257. Written by [`shape!`](crate::shape!), never by hand.
        ///
        /// ```
        /// use shaped::prelude::*;
        /// use shaped::shape::StaticDim;
        /// type Vocab = Dec<5, 0, 2, 5, 7>;
        /// assert_eq!(<Vocab as StaticDim>::N, 50257);
        /// ```
        ///
        /// (Hidden from the rendered documentation, which describes it in
        /// [`crate::shape`]: rustdoc tries every blanket impl of the crate on
        /// a type with ten free const digits, and the digit arithmetic's
        /// impls made that search run for over half an hour at 20 GB. Only
        /// under rustdoc: a `doc(hidden)` type is printed with its whole
        /// path in compile errors, `shaped::Dec<3>` for `Dec<3>`.)
        #[cfg_attr(doc, doc(hidden))]
        #[derive(Copy, Clone, Default, Debug, PartialEq, Eq, Hash)]
        pub struct Dec<const D0: u8, $(const $d: u8 = 10),*>;

        impl<const D0: u8, $(const $d: u8),*> Dec<D0, $($d),*> {
            const DIGITS: [u8; MAX_DIGITS] = [D0, $($d),*];
            /// The value, or a compile-time error for a malformed digit list.
            const VALUE: usize = decimal_value(&Self::DIGITS);
        }

        impl<const D0: u8, $(const $d: u8),*> Dim for Dec<D0, $($d),*> {
            const SIZE: Option<usize> = Some(Self::VALUE);
        }

        impl<const D0: u8, $(const $d: u8),*> StaticDim for Dec<D0, $($d),*> {
            const N: usize = Self::VALUE;
        }
    };
}
define_dec!(D1, D2, D3, D4, D5, D6, D7, D8, D9);

/// The value of a digit list as `Dec` holds it. Evaluated at compile time;
/// a list `shape!` would never write (a leading zero, a gap, a digit above 9,
/// an overflow) stops the build.
const fn decimal_value(digits: &[u8; MAX_DIGITS]) -> usize {
    let mut value: usize = 0;
    let mut i = 0;
    let mut ended = false;
    while i < MAX_DIGITS {
        let d = digits[i];
        if d == NO_DIGIT {
            ended = true;
        } else {
            assert!(d < NO_DIGIT, "Dec: a digit must be 0..=9");
            assert!(!ended, "Dec: digits must be contiguous");
            assert!(i == 0 || digits[0] != 0, "Dec: no leading zeros");
            value = match value.checked_mul(10) {
                Some(v) => match v.checked_add(d as usize) {
                    Some(v) => v,
                    None => panic!("Dec: size overflows usize"),
                },
                None => panic!("Dec: size overflows usize"),
            };
        }
        i += 1;
    }
    assert!(digits[0] != NO_DIGIT, "Dec: at least one digit");
    value
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decimal_values() {
        assert_eq!(<Dec<0> as StaticDim>::N, 0);
        assert_eq!(<Dec<1> as StaticDim>::N, 1);
        assert_eq!(<Dec<5, 0, 2, 5, 7> as StaticDim>::N, 50257);
        assert_eq!(
            <Dec<9, 9, 9, 9, 9, 9, 9, 9, 9, 9> as StaticDim>::N,
            9_999_999_999
        );
        assert_eq!(<Dyn as Dim>::SIZE, None);
    }
}
