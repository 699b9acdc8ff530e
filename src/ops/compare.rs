//! Comparisons: `eq ne lt le gt ge`, and `logical_and or xor`,
//! elementwise with broadcasting, giving
//! `Tensor<bool, _>`. The other side is a tensor or a plain number.
//!
//! ```
//! use shaped::prelude::*;
//! let x = tensor![1, 2, 3, 4];
//! assert_eq!(x.eq(1).to_vec(), vec![true, false, false, false]);
//! let y = tensor![[2], [3]];
//! assert_eq!(x.lt(&y).shape(), [2, 4]);
//! ```

use super::arith::{operand, promoted_binary};
use super::functions::{self, BinaryFn, InCommon, WithRight};
use super::{unary, with_number_types};
use crate::backend::Elementwise;
use crate::backend::StridedRef;
use crate::dtype::Element;
use crate::dtype::cast::cast;
use crate::dtype::promote::{Common, CommonScalar, CommonType, CommonWithScalar};
use crate::error::Error;
use crate::error::OrPanic;
use crate::shape::{Broadcast, BroadcastShape, Shape};
use crate::storage::Repr;
use crate::tensor::{PartsOf, Tensor, from_parts};

/// What a tensor of `T`s and shape `S` can be compared with: another
/// tensor (broadcasting) or a plain number, of any element type: both sides
/// are compared in their common type (PyTorch's type promotion).
pub trait Comparand<T: Element, S: Shape, D: Elementwise> {
    /// The shape of the comparison's result.
    type Shape: Shape;
    /// The common type the elements are compared in.
    type Common: Element;
    /// Applies `f` to `lhs` and `self`; `Err` when `Dyn` sizes turn out
    /// not to broadcast.
    fn compare<R: Repr, F: BinaryFn<Self::Common, Self::Common, bool>>(
        self,
        lhs: &Tensor<T, S, D, R>,
        f: F,
    ) -> Result<PartsOf<bool, D, Self::Shape>, Error>;
}

/// A plain number of any element type: one impl per number type, so that a
/// tensor argument meets only the tensor impls.
macro_rules! number_comparand {
    (; $($t:ty),*) => {$(
        impl<T, S, D> Comparand<T, S, D> for $t
        where
            T: CommonWithScalar<$t, S>,
            S: Shape,
            D: Elementwise,
        {
            type Shape = S;
            type Common = CommonScalar<T, S, $t>;
            fn compare<R: Repr, F: BinaryFn<Self::Common, Self::Common, bool>>(
                self,
                lhs: &Tensor<T, S, D, R>,
                f: F,
            ) -> Result<PartsOf<bool, D, S>, Error> {
                let rhs: Self::Common = cast(self);
                let f = WithRight(InCommon::<F, Self::Common>::new(f), rhs);
                unary(StridedRef::new(&lhs.data, &lhs.layout), f)
            }
        }
    )*};
}
with_number_types!(number_comparand!());

/// Another tensor, owned or borrowed: the shapes broadcast.
macro_rules! tensor_comparand {
    ($([$($Other:tt)*])*) => {$(
        impl<'a, T, T2, S, S2, D, R2> Comparand<T, S, D> for $($Other)*
        where
            T: CommonType<T2, S, S2>,
            T2: Element,
            S: BroadcastShape<S2>,
            S2: Shape,
            D: Elementwise,
            R2: Repr,
        {
            type Shape = Broadcast<S, S2>;
            type Common = Common<T, S, T2, S2>;
            fn compare<R: Repr, F: BinaryFn<Self::Common, Self::Common, bool>>(
                self,
                lhs: &Tensor<T, S, D, R>,
                f: F,
            ) -> Result<PartsOf<bool, D, Self::Shape>, Error> {
                promoted_binary::<_, _, Self::Common, _, _, _, _>(operand!(lhs, S), operand!(self, S2), f)
            }
        }
    )*};
}
tensor_comparand!([&'a Tensor<T2, S2, D, R2>] [Tensor<T2, S2, D, R2>]);

macro_rules! comparisons {
    ($($(#[$doc:meta])* $name:ident, $try_name:ident => $Fn:ident;)*) => {
        impl<T: Element, S: Shape, D: Elementwise, R: Repr> Tensor<T, S, D, R> {$(
            $(#[$doc])*
            ///
            /// Panics with PyTorch's message when `Dyn` sizes do not
            /// broadcast; the `try_` form returns the error instead.
            pub fn $name<C: Comparand<T, S, D>>(&self, other: C) -> Tensor<bool, C::Shape, D>
            where
                functions::$Fn: BinaryFn<C::Common, C::Common, bool>,
            {
                from_parts!(other.compare(self, functions::$Fn).or_panic())
            }

            #[doc = concat!("[`", stringify!($name), "`](Self::", stringify!($name), "), or `Err` with PyTorch's message when `Dyn` sizes do not broadcast.")]
            ///
            /// ```
            /// use shaped::prelude::*;
            /// let a = DynTensor::<i64>::zeros(&[2, 3]);
            #[doc = concat!("assert!(a.", stringify!($try_name), "(&DynTensor::<i64>::zeros(&[4])).is_err());")]
            #[doc = concat!("assert_eq!(a.", stringify!($try_name), "(0).unwrap().shape(), [2, 3]);")]
            /// ```
            pub fn $try_name<C: Comparand<T, S, D>>(
                &self,
                other: C,
            ) -> Result<Tensor<bool, C::Shape, D>, Error>
            where
                functions::$Fn: BinaryFn<C::Common, C::Common, bool>,
            {
                Ok(from_parts!(other.compare(self, functions::$Fn)?))
            }
        )*}
    };
}

comparisons! {
    /// `self == other` elementwise (PyTorch's `eq`).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let a = Tensor::<i64, shape![3, 3]>::from_vec((0..9).collect()).unwrap();
    /// assert_eq!(a.eq(1).to_vec().iter().filter(|&&b| b).count(), 1);
    /// ```
    eq, try_eq => Eq;
    /// `self != other` elementwise.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// assert_eq!(tensor![1, 2].ne(&tensor![1, 3]).to_vec(), vec![false, true]);
    /// ```
    ne, try_ne => Ne;
}

comparisons! {
    /// `self < other` elementwise.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// assert_eq!(tensor![1.0, 2.0].lt(1.5).to_vec(), vec![true, false]);
    /// ```
    lt, try_lt => Lt;
    /// `self <= other` elementwise.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// assert_eq!(tensor![1, 2].le(1).to_vec(), vec![true, false]);
    /// ```
    le, try_le => Le;
    /// `self > other` elementwise.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// assert_eq!(tensor![1, 2].gt(&tensor![[0], [2]]).to_vec(), vec![true, true, false, false]);
    /// ```
    gt, try_gt => Gt;
    /// `self >= other` elementwise.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// assert_eq!(tensor![1, 2].ge(2).to_vec(), vec![false, true]);
    /// ```
    ge, try_ge => Ge;
}

comparisons! {
    /// Whether both elements are nonzero (PyTorch's `logical_and`, any
    /// dtypes, giving bool; NaN counts as nonzero).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = tensor![0.0f32, 1.5, f32::NAN];
    /// assert_eq!(x.logical_and(&tensor![1i64, 1, 1]).to_vec(), vec![false, true, true]);
    /// ```
    logical_and, try_logical_and => LogicalAnd;
    /// Whether either element is nonzero (PyTorch's `logical_or`).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// assert_eq!(tensor![0u8, 0].logical_or(&tensor![[0u8], [3]]).to_vec(), vec![false, false, true, true]);
    /// ```
    logical_or, try_logical_or => LogicalOr;
    /// Whether exactly one element is nonzero (PyTorch's `logical_xor`).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// assert_eq!(tensor![true, false].logical_xor(true).to_vec(), vec![false, true]);
    /// ```
    logical_xor, try_logical_xor => LogicalXor;
}
