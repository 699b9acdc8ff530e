//! `%` (PyTorch's `remainder`: the sign of the divisor, as Python's `%`),
//! `%=`, [`fmod`](Tensor::fmod) (the sign of the dividend, as C's `fmod`)
//! and [`floor_divide`](Tensor::floor_divide) (Python's `//`), with
//! broadcasting and type promotion as `+`, on integer and real floating
//! tensors ([`Modular`]); bool and complex tensors do not compile, as
//! PyTorch refuses them.
//!
//! An integer divisor of 0 is PyTorch's `ZeroDivisionError`: the operators
//! panic with it, the `try_` forms and the in-place methods return it.
//! The divisor is checked before anything is written, so a failed
//! in-place operation leaves its tensor as it was (PyTorch's kernel stops
//! part way). A floating divisor of 0 gives NaN (`%`, `fmod`) or `x / 0`
//! (`floor_divide`), as PyTorch's.
//!
//! ```
//! use shaped::prelude::*;
//! let x = tensor![-5i32, 5, 7];
//! assert_eq!((&x % 3).to_vec(), vec![1, 2, 1]);
//! assert_eq!(x.fmod(3).to_vec(), vec![-2, 2, 1]);
//! assert_eq!(x.floor_divide(&tensor![2i32]).to_vec(), vec![-3, 2, 3]);
//! assert_eq!((&tensor![5.5f32, -5.5] % -2.0).to_vec(), vec![-0.5, -1.5]);
//! assert_eq!(x.try_remainder(0).unwrap_err().to_string(), "ZeroDivisionError");
//! ```

use super::arith::{operand, promoted_binary};
use super::assign::{assign, output, store_back};
use super::functions::{self, BinaryFn, ElementOp, Eq, InCommon, WithLeft, WithRight};
use super::{dense_ref, unary, with_number_types};
use crate::backend::{Reductions, StridedRef};
use crate::dtype::Element;
use crate::dtype::cast::cast;
use crate::dtype::math::Modular;
use crate::dtype::promote::{
    Common, CommonScalar, CommonType, CommonWithScalar, StorableIn, check_runtime_rank,
};
use crate::error::{Error, OrPanic};
use crate::ops::reductions::reducers::Logical;
use crate::shape::{
    Broadcast, BroadcastInto, BroadcastShape, Shape, SizeArray, broadcast_sizes_into,
    check_in_place,
};
use crate::storage::{Repr, Writable};
use crate::tensor::{OwnedParts, PartsOf, Tensor, from_parts};
use core::ops::{Rem, RemAssign};

/// Whether `C` is an integer type, whose division by 0 is an error.
#[inline]
fn integer<C: Element>() -> bool {
    let d = C::DTYPE;
    !d.is_floating_point() && !d.is_complex() && d != crate::DType::Bool
}

/// `Err(ZeroDivisionError)` when the integer common type is `C` and the
/// divisor `b`, converted to `C`, has a zero (an int64 256 beside an int8
/// tensor is 0 in int8, as in PyTorch).
pub(crate) fn check_divisor<B: Element, C: Element, D: Reductions>(
    b: StridedRef<'_, B, D>,
) -> Result<(), Error> {
    if !integer::<C>() || b.sizes.contains(&0) {
        return Ok(());
    }
    let n = crate::layout::checked_numel(b.sizes)?;
    let zeros = D::map1(b, WithRight(InCommon::<Eq, C>::new(Eq), C::ZERO))?;
    let (sizes, strides) = ([n], [1]);
    let any = D::reduce(
        dense_ref::<bool, D>(&zeros, &sizes, &strides),
        &[true],
        Logical::<true>,
    )?;
    if D::item(dense_ref::<bool, D>(&any, &[], &[]))? {
        return Err(Error::ZeroDivision);
    }
    Ok(())
}

/// `Err(ZeroDivisionError)` for an integer divisor of 0.
#[inline]
pub(crate) fn check_number_divisor<C: Element>(n: C) -> Result<(), Error> {
    if integer::<C>() && n == C::ZERO {
        return Err(Error::ZeroDivision);
    }
    Ok(())
}

/// `f(a, b)` in the common type `C`, with broadcasting: the shapes are
/// checked first, then the divisor, as PyTorch's order.
fn promoted_division<A, B, C, Z, D, F>(
    (a, a_rank): (StridedRef<'_, A, D>, Option<usize>),
    (b, b_rank): (StridedRef<'_, B, D>, Option<usize>),
    f: F,
) -> Result<OwnedParts<C, D, Z>, Error>
where
    A: Element,
    B: Element,
    C: Element,
    Z: SizeArray,
    D: Reductions,
    F: BinaryFn<C, C, C>,
{
    let mut sizes = Z::filled(a.sizes.len().max(b.sizes.len()), 0);
    broadcast_sizes_into(a.sizes, b.sizes, sizes.as_mut())?;
    check_runtime_rank::<C>(
        (A::DTYPE, a_rank, a.sizes.len()),
        (B::DTYPE, b_rank, b.sizes.len()),
    )?;
    // An empty result runs no kernel: PyTorch raises nothing.
    if !sizes.as_ref().contains(&0) {
        check_divisor::<B, C, D>(b)?;
    }
    promoted_binary::<A, B, C, C, Z, D, F>((a, a_rank), (b, b_rank), f)
}

/// An element function of `remainder`, `fmod` or `floor_divide` in `C`.
#[doc(hidden)]
pub trait DivisionFn<C>: BinaryFn<C, C, C> + ElementOp<C, Output = C> {}
impl<C, F: BinaryFn<C, C, C> + ElementOp<C, Output = C>> DivisionFn<C> for F {}

/// The divisor of [`remainder`](Tensor::remainder), [`fmod`](Tensor::fmod)
/// and [`floor_divide`](Tensor::floor_divide): a tensor (borrowed), whose
/// shape broadcasts with `S` and whose type promotes with `T` as for `+`,
/// or a plain number (`bool`, `i64`, `f64`), which promotes as PyTorch's
/// scalars.
pub trait Divisor<T: Element, S: Shape, D: Reductions> {
    /// The common element type, which is also the result's.
    type Common: Modular;
    /// The result's shape.
    type Shape: Shape;
    /// `f(x, self)` elementwise in the common type.
    #[doc(hidden)]
    fn divide<R: Repr, F: BinaryFn<Self::Common, Self::Common, Self::Common>>(
        self,
        x: &Tensor<T, S, D, R>,
        f: F,
    ) -> Result<PartsOf<Self::Common, D, Self::Shape>, Error>;
    /// `x = f(x, self)` in place: the divisor broadcasts to `x`'s shape
    /// and the common type is stored back into `T`.
    #[doc(hidden)]
    fn divide_into<R: Writable, F: DivisionFn<Self::Common>>(
        self,
        x: &mut Tensor<T, S, D, R>,
        f: F,
    ) -> Result<(), Error>
    where
        Self::Common: StorableIn<T>;
}

impl<T, S, T2, S2, D, R2> Divisor<T, S, D> for &Tensor<T2, S2, D, R2>
where
    T: CommonType<T2, S, S2>,
    Common<T, S, T2, S2>: Modular,
    T2: Element,
    S: BroadcastShape<S2>,
    S2: Shape,
    D: Reductions,
    R2: Repr,
{
    type Common = Common<T, S, T2, S2>;
    type Shape = Broadcast<S, S2>;
    fn divide<R: Repr, F: BinaryFn<Self::Common, Self::Common, Self::Common>>(
        self,
        x: &Tensor<T, S, D, R>,
        f: F,
    ) -> Result<PartsOf<Self::Common, D, Self::Shape>, Error> {
        promoted_division::<_, _, Self::Common, _, _, _>(operand!(x, S), operand!(self, S2), f)
    }
    fn divide_into<R: Writable, F: DivisionFn<Self::Common>>(
        self,
        x: &mut Tensor<T, S, D, R>,
        f: F,
    ) -> Result<(), Error>
    where
        Self::Common: StorableIn<T>,
    {
        check_in_place(x.layout.sizes(), self.layout.sizes())?;
        if x.numel() > 0 {
            check_divisor::<T2, Self::Common, D>(StridedRef::new(&self.data, &self.layout))?;
        }
        assign::<_, _, Self::Common, _, _, _, _, _, _>(x, self, f)
    }
}

macro_rules! number_divisor {
    ($($t:ty),*) => {$(
        impl<T, S, D> Divisor<T, S, D> for $t
        where
            T: CommonWithScalar<$t, S>,
            CommonScalar<T, S, $t>: Modular,
            S: Shape,
            D: Reductions,
        {
            type Common = CommonScalar<T, S, $t>;
            type Shape = S;
            fn divide<R: Repr, F: BinaryFn<Self::Common, Self::Common, Self::Common>>(
                self,
                x: &Tensor<T, S, D, R>,
                f: F,
            ) -> Result<PartsOf<Self::Common, D, S>, Error> {
                let n: Self::Common = cast(self);
                if x.numel() > 0 {
                    check_number_divisor(n)?;
                }
                unary(StridedRef::new(&x.data, &x.layout), WithRight(InCommon::<F, Self::Common>::new(f), n))
            }
            fn divide_into<R: Writable, F: DivisionFn<Self::Common>>(
                self,
                x: &mut Tensor<T, S, D, R>,
                f: F,
            ) -> Result<(), Error>
            where
                Self::Common: StorableIn<T>,
            {
                let n: Self::Common = cast(self);
                if x.numel() > 0 {
                    check_number_divisor(n)?;
                }
                let ptr = R::ptr_mut(&mut x.data);
                D::update1(output(x, ptr), WithRight(store_back::<F, Self::Common>(f), n))
            }
        }
    )*};
}
number_divisor!(bool, i64, f64, num_complex::Complex<f64>);

/// `remainder`, `fmod` and `floor_divide`: out of place, `try_`, in place.
macro_rules! division_methods {
    ($($(#[$doc:meta])* $name:ident, $try_name:ident, $in_place:ident => $Fn:ident;)*) => {
        impl<T: Element, S: Shape, D: Reductions, R: Repr> Tensor<T, S, D, R> {$(
            $(#[$doc])*
            pub fn $name<O: Divisor<T, S, D>>(&self, other: O) -> Tensor<O::Common, O::Shape, D> {
                from_parts!(other.divide(self, functions::$Fn).or_panic())
            }

            #[doc = concat!("[`", stringify!($name), "`](Self::", stringify!($name), "), or `Err` with PyTorch's message: `ZeroDivisionError` for an integer divisor of 0, or `Dyn` sizes that do not broadcast.")]
            ///
            /// ```
            /// use shaped::prelude::*;
            /// let a = DynTensor::<i64>::ones(&[2, 3]);
            #[doc = concat!("assert_eq!(a.", stringify!($try_name), "(&DynTensor::<i64>::zeros(&[3])).unwrap_err().to_string(), \"ZeroDivisionError\");")]
            #[doc = concat!("assert!(a.", stringify!($try_name), "(&DynTensor::<i64>::ones(&[4])).is_err());")]
            /// ```
            pub fn $try_name<O: Divisor<T, S, D>>(
                &self,
                other: O,
            ) -> Result<Tensor<O::Common, O::Shape, D>, Error> {
                Ok(from_parts!(other.divide(self, functions::$Fn)?))
            }
        )*}

        impl<T: Element, S: Shape, D: Reductions, R: Writable> Tensor<T, S, D, R> {$(
            #[doc = concat!("[`", stringify!($name), "`](Self::", stringify!($name), ") in place (PyTorch's `", stringify!($in_place), "`): the divisor broadcasts to `self`'s shape and the common type must be storable in `T`. `Err` (and `self` untouched) for an integer divisor of 0 or `Dyn` sizes that break the in-place rule.")]
            ///
            /// ```
            /// use shaped::prelude::*;
            /// let mut x = DynTensor::<i32>::full(&[3], 7);
            #[doc = concat!("x.", stringify!($in_place), "(2i64).unwrap();")]
            #[doc = concat!("assert!(x.", stringify!($in_place), "(0i64).is_err());")]
            /// ```
            pub fn $in_place<O: Divisor<T, S, D>>(&mut self, other: O) -> Result<(), Error>
            where
                O::Common: StorableIn<T>,
            {
                other.divide_into(self, functions::$Fn)
            }
        )*}
    };
}

division_methods! {
    /// The remainder of `self / other` with the sign of `other` (PyTorch's
    /// `remainder`, Python's `%`), with broadcasting and type promotion.
    /// Panics with `ZeroDivisionError` for an integer divisor of 0.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// assert_eq!(tensor![-7i64, 7].remainder(&tensor![3i64, -3]).to_vec(), vec![2, -2]);
    /// assert_eq!(tensor![-7i64].remainder(2.5).to_vec(), vec![0.5f32]);
    /// ```
    remainder, try_remainder, remainder_ => Remainder;
    /// The remainder of `self / other` with the sign of `self` (PyTorch's
    /// `fmod`, C's `fmod`). Panics with `ZeroDivisionError` for an integer
    /// divisor of 0.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// assert_eq!(tensor![-7i64, 7].fmod(&tensor![3i64, -3]).to_vec(), vec![-1, 1]);
    /// assert!(tensor![1.0f64].fmod(0.0).to_vec()[0].is_nan());
    /// ```
    fmod, try_fmod, fmod_ => Fmod;
    /// `self / other` rounded down (PyTorch's `floor_divide`, Python's
    /// `//`); a floating divisor of 0 gives `self / 0`. Panics with
    /// `ZeroDivisionError` for an integer divisor of 0.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// assert_eq!(tensor![-7i64, 7].floor_divide(&tensor![2i64]).to_vec(), vec![-4, 3]);
    /// assert_eq!(tensor![-5.5f32].floor_divide(2.0).to_vec(), vec![-3.0]);
    /// ```
    floor_divide, try_floor_divide, floor_divide_ => FloorDivide;
}

/// `x % y` (PyTorch's `remainder`) for every owned/borrowed combination of
/// tensors, with broadcasting; panics with PyTorch's message.
macro_rules! remainder_operator {
    ($([$($Lhs:tt)*] [$($Rhs:tt)*];)*) => {$(
        impl<'a, 'b, A, B, S1, S2, D, R1, R2> Rem<$($Rhs)*> for $($Lhs)*
        where
            A: CommonType<B, S1, S2>,
            Common<A, S1, B, S2>: Modular,
            B: Element,
            S1: BroadcastShape<S2>,
            S2: Shape,
            D: Reductions,
            R1: Repr,
            R2: Repr,
        {
            type Output = Tensor<Common<A, S1, B, S2>, Broadcast<S1, S2>, D>;
            fn rem(self, rhs: $($Rhs)*) -> Self::Output {
                let (lhs, rhs) = (operand!(self, S1), operand!(rhs, S2));
                from_parts!(promoted_division::<_, _, Common<A, S1, B, S2>, _, _, _>(lhs, rhs, functions::Remainder).or_panic())
            }
        }
    )*};
}
remainder_operator! {
    [&'a Tensor<A, S1, D, R1>] [&'b Tensor<B, S2, D, R2>];
    [Tensor<A, S1, D, R1>] [&'b Tensor<B, S2, D, R2>];
    [&'a Tensor<A, S1, D, R1>] [Tensor<B, S2, D, R2>];
    [Tensor<A, S1, D, R1>] [Tensor<B, S2, D, R2>];
}

/// `x % n` and `n % x` with a plain number, owned or borrowed tensors.
macro_rules! remainder_numbers {
    ($(;)? $($t:ty),*) => {$(
        remainder_numbers!(@forms $t; [&'a Tensor<A, S, D, R>] [Tensor<A, S, D, R>]);
    )*};
    (@forms $t:ty; $([$($X:tt)*])*) => {$(
        impl<'a, A, S, D, R> Rem<$t> for $($X)*
        where
            A: CommonWithScalar<$t, S>,
            CommonScalar<A, S, $t>: Modular,
            S: Shape,
            D: Reductions,
            R: Repr,
        {
            type Output = Tensor<CommonScalar<A, S, $t>, S, D>;
            fn rem(self, rhs: $t) -> Self::Output {
                self.remainder(rhs)
            }
        }
        impl<'a, A, S, D, R> Rem<$($X)*> for $t
        where
            A: CommonWithScalar<$t, S>,
            CommonScalar<A, S, $t>: Modular,
            S: Shape,
            D: Reductions,
            R: Repr,
        {
            type Output = Tensor<CommonScalar<A, S, $t>, S, D>;
            fn rem(self, rhs: $($X)*) -> Self::Output {
                let n: CommonScalar<A, S, $t> = cast(self);
                let x = StridedRef::new(&rhs.data, &rhs.layout);
                let f = WithLeft(InCommon::<_, CommonScalar<A, S, $t>>::new(functions::Remainder), n);
                from_parts!(check_divisor::<A, CommonScalar<A, S, $t>, D>(x)
                    .and_then(|()| unary(x, f))
                    .or_panic())
            }
        }
    )*};
}
with_number_types!(remainder_numbers!());

/// `x %= y` for a tensor `y` (owned or borrowed) that broadcasts to `x`'s
/// shape, or a plain number; panics with PyTorch's message (and leaves `x`
/// as it was).
macro_rules! remainder_assign {
    ($([$($Rhs:tt)*])*) => {$(
        impl<'b, T, T2, SX, SY, D, RX, RY> RemAssign<$($Rhs)*> for Tensor<T, SX, D, RX>
        where
            T: CommonType<T2, SX, SY>,
            Common<T, SX, T2, SY>: Modular + StorableIn<T>,
            T2: Element,
            SX: BroadcastShape<SY>,
            SY: BroadcastInto<SX>,
            D: Reductions,
            RX: Writable,
            RY: Repr,
        {
            fn rem_assign(&mut self, rhs: $($Rhs)*) {
                let rhs: &Tensor<T2, SY, D, RY> = core::borrow::Borrow::borrow(&rhs);
                self.remainder_(rhs).or_panic()
            }
        }
    )*};
    (@numbers $($t:ty),*) => {$(
        impl<T, S, D, R> RemAssign<$t> for Tensor<T, S, D, R>
        where
            T: CommonWithScalar<$t, S>,
            CommonScalar<T, S, $t>: Modular + StorableIn<T>,
            S: Shape,
            D: Reductions,
            R: Writable,
        {
            fn rem_assign(&mut self, rhs: $t) {
                self.remainder_(rhs).or_panic()
            }
        }
    )*};
}
remainder_assign!([&'b Tensor<T2, SY, D, RY>][Tensor<T2, SY, D, RY>]);
remainder_assign!(@numbers bool, i64, f64, num_complex::Complex<f64>);
