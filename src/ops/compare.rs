//! Comparisons: `eq ne lt le gt ge`, elementwise with broadcasting, giving
//! `Tensor<bool, _>`. The other side is a tensor or a plain number.
//!
//! ```
//! use shaped::prelude::*;
//! let x = tensor![1, 2, 3, 4];
//! assert_eq!(x.eq(1).to_vec(), vec![true, false, false, false]);
//! let y = tensor![[2], [3]];
//! assert_eq!(x.lt(&y).shape(), [2, 4]);
//! ```

use super::kernels::{self, BinaryFn, WithRight};
use super::{broadcast_binary, unary, Elementwise};
use crate::dtype::{Element, Ordered};
use crate::shape::{Broadcast, BroadcastShape, Shape};
use crate::storage::Repr;
use crate::tensor::Tensor;
use core::borrow::Borrow;

/// What a tensor of `T`s and shape `S` can be compared with: another
/// tensor (broadcasting) or a plain `T`.
pub trait Comparand<T: Element, S: Shape, D: Elementwise> {
    /// The shape of the comparison's result.
    type Shape: Shape;
    /// Applies `f` to `lhs` and `self`.
    fn compare<R: Repr, F: BinaryFn<T, T, bool>>(
        self,
        lhs: &Tensor<T, S, D, R>,
        f: F,
    ) -> Tensor<bool, Self::Shape, D>;
}

impl<T: Element, S: Shape, D: Elementwise> Comparand<T, S, D> for T {
    type Shape = S;
    fn compare<R: Repr, F: BinaryFn<T, T, bool>>(
        self,
        lhs: &Tensor<T, S, D, R>,
        f: F,
    ) -> Tensor<bool, S, D> {
        unary(lhs, WithRight(f, self))
    }
}

/// Another tensor, owned or borrowed: the shapes broadcast.
macro_rules! tensor_comparand {
    ($([$($Other:tt)*])*) => {$(
        impl<'a, T, S, S2, D, R2> Comparand<T, S, D> for $($Other)*
        where
            T: Element,
            S: BroadcastShape<S2>,
            S2: Shape,
            D: Elementwise,
            R2: Repr,
        {
            type Shape = Broadcast<S, S2>;
            fn compare<R: Repr, F: BinaryFn<T, T, bool>>(
                self,
                lhs: &Tensor<T, S, D, R>,
                f: F,
            ) -> Tensor<bool, Self::Shape, D> {
                let rhs: &Tensor<T, S2, D, R2> = self.borrow();
                broadcast_binary(lhs, rhs, f).unwrap_or_else(|e| panic!("{e}"))
            }
        }
    )*};
}
tensor_comparand!([&'a Tensor<T, S2, D, R2>] [Tensor<T, S2, D, R2>]);

macro_rules! comparisons {
    ($bound:ident: $($(#[$doc:meta])* $name:ident => $Fn:ident;)*) => {
        impl<T: $bound, S: Shape, D: Elementwise, R: Repr> Tensor<T, S, D, R> {$(
            $(#[$doc])*
            pub fn $name<C: Comparand<T, S, D>>(&self, other: C) -> Tensor<bool, C::Shape, D> {
                other.compare(self, kernels::$Fn)
            }
        )*}
    };
}

comparisons! { Element:
    /// `self == other` elementwise (PyTorch's `eq`).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let a = Tensor::<i64, shape![3, 3]>::from_vec((0..9).collect()).unwrap();
    /// assert_eq!(a.eq(1).to_vec().iter().filter(|&&b| b).count(), 1);
    /// ```
    eq => Eq;
    /// `self != other` elementwise.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// assert_eq!(tensor![1, 2].ne(&tensor![1, 3]).to_vec(), vec![false, true]);
    /// ```
    ne => Ne;
}

comparisons! { Ordered:
    /// `self < other` elementwise.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// assert_eq!(tensor![1.0, 2.0].lt(1.5).to_vec(), vec![true, false]);
    /// ```
    lt => Lt;
    /// `self <= other` elementwise.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// assert_eq!(tensor![1, 2].le(1).to_vec(), vec![true, false]);
    /// ```
    le => Le;
    /// `self > other` elementwise.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// assert_eq!(tensor![1, 2].gt(&tensor![[0], [2]]).to_vec(), vec![true, true, false, false]);
    /// ```
    gt => Gt;
    /// `self >= other` elementwise.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// assert_eq!(tensor![1, 2].ge(2).to_vec(), vec![false, true]);
    /// ```
    ge => Ge;
}
