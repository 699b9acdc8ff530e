//! Predicates, logic and bits: `isnan isinf isposinf isneginf isfinite
//! isreal`, `logical_not`, `bitwise_not` (and `!`), beside the operators
//! `& | ^ << >>` and their fallible forms `try_bitwise_and` ...
//! `try_bitwise_right_shift` (in `arith`) and their assignment forms (in `assign`),
//! and `isclose`, `allclose`, `equal`. `logical_and`, `logical_or` and
//! `logical_xor` are comparisons (`compare`): any two tensors or a number,
//! giving bool. `isclose`, `allclose` and `equal` compose these as
//! PyTorch does (through [`AnyTensor`]'s forms).
//!
//! Bitwise operations take integer and bool tensors, shifts integer ones:
//! what PyTorch refuses does not compile, in words.
//!
//! ```
//! use shaped::prelude::*;
//! let x = tensor![1.0f32, f32::NAN, f32::INFINITY, -0.0];
//! assert_eq!(x.isnan().to_vec(), vec![false, true, false, false]);
//! assert_eq!(x.isfinite().to_vec(), vec![true, false, false, true]);
//! assert_eq!(x.logical_not().to_vec(), vec![false, false, false, true]);
//! let m = tensor![0b1100u8, 0b1010];
//! assert_eq!((&m & 0b0110).to_vec(), vec![0b0100, 0b0010]);
//! assert_eq!((!&m).to_vec(), vec![0b1111_0011, 0b1111_0101]);
//! assert_eq!((&m << 4).to_vec(), vec![0b1100_0000, 0b1010_0000]);
//! ```

use super::functions::UnaryFn;
use super::math::{unary_fns, unary_methods};
use super::op_codes::{KernelOp, OpCode};
use super::unary;
use crate::backend::{Elementwise, Reductions, StridedRef};
use crate::dtype::Element;
use crate::dtype::logic::{Bitwise, Classify, SignedInfinity};
use crate::dynamic::{AnyElement, AnyTensor, DynTensor};
use crate::error::{Error, OrPanic};
use crate::shape::{Broadcast, BroadcastShape, Shape};
use crate::storage::Repr;
use crate::tensor::{Tensor, from_parts};

unary_fns! {
    /// Whether `x` is NaN (either part of a complex value).
    IsNan: |x| -> bool [Classify] Classify::is_nan(x);
    /// Whether `x` is infinite (either part).
    IsInf: |x| -> bool [Classify] Classify::is_inf(x);
    /// Whether `x` is `+inf`.
    IsPosInf: |x| -> bool [SignedInfinity] SignedInfinity::is_pos_inf(x);
    /// Whether `x` is `-inf`.
    IsNegInf: |x| -> bool [SignedInfinity] SignedInfinity::is_neg_inf(x);
    /// Whether `x` is finite (both parts).
    IsFinite: |x| -> bool [Classify] Classify::is_finite(x);
    /// Whether `x`'s imaginary part is 0.
    IsReal: |x| -> bool [Classify] Classify::is_real(x);
    /// Whether `x` is zero (`-0.0` is; NaN is not).
    LogicalNot: |x| -> bool [Element] x == T::ZERO;
    /// Every bit of `x` flipped (PyTorch's `~`); `not` for bool.
    BitNot: |x| -> T [Bitwise] Bitwise::bit_not(x);
}

unary_methods! {
    /// Whether each element is NaN (PyTorch's `isnan`); a complex element
    /// is NaN when either part is.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// assert_eq!(tensor![1.0f64, f64::NAN].isnan().to_vec(), vec![false, true]);
    /// assert_eq!(tensor![3i32].isnan().to_vec(), vec![false]);
    /// ```
    isnan => IsNan: Classify -> bool;
    /// Whether each element is infinite; a complex element when either part
    /// is.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// assert_eq!(tensor![f32::NEG_INFINITY, 0.0].isinf().to_vec(), vec![true, false]);
    /// ```
    isinf => IsInf: Classify -> bool;
    /// Whether each element is `+inf`. Not for complex tensors (PyTorch
    /// refuses them too).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = tensor![f32::INFINITY, f32::NEG_INFINITY];
    /// assert_eq!(x.isposinf().to_vec(), vec![true, false]);
    /// ```
    isposinf => IsPosInf: SignedInfinity -> bool;
    /// Whether each element is `-inf`. Not for complex tensors.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = tensor![f32::INFINITY, f32::NEG_INFINITY];
    /// assert_eq!(x.isneginf().to_vec(), vec![false, true]);
    /// ```
    isneginf => IsNegInf: SignedInfinity -> bool;
    /// Whether each element is finite (neither NaN nor infinite; both
    /// parts of a complex element).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// assert_eq!(tensor![1.0f32, f32::NAN].isfinite().to_vec(), vec![true, false]);
    /// ```
    isfinite => IsFinite: Classify -> bool;
    /// Whether each element's imaginary part is 0 (always, for real types).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// use num_complex::Complex;
    /// let z = tensor![Complex::new(1.0f32, 0.0), Complex::new(0.0, 1.0)];
    /// assert_eq!(z.isreal().to_vec(), vec![true, false]);
    /// ```
    isreal => IsReal: Classify -> bool;
    /// Whether each element is zero (PyTorch's `logical_not`, any dtype).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// assert_eq!(tensor![0i64, 5].logical_not().to_vec(), vec![true, false]);
    /// ```
    logical_not => LogicalNot: Element -> bool;
    /// Every bit of each element flipped (PyTorch's `bitwise_not` and `~`;
    /// for bool, `not`). Integer and bool tensors only; `!&x` is the same.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// assert_eq!(tensor![0i8, -1, 5].bitwise_not().to_vec(), vec![-1, 0, -6]);
    /// assert_eq!(tensor![true, false].bitwise_not().to_vec(), vec![false, true]);
    /// ```
    bitwise_not => BitNot: Bitwise -> T;
}

/// `!x`: [`bitwise_not`](Tensor::bitwise_not), for owned and borrowed
/// integer and bool tensors.
macro_rules! not_operator {
    ($([$($X:tt)*])*) => {$(
        impl<'a, T: Element, S: Shape, D: Elementwise, R: Repr> core::ops::Not for $($X)*
        where
            BitNot: UnaryFn<T, T>,
        {
            type Output = Tensor<T, S, D>;
            fn not(self) -> Self::Output {
                from_parts!(unary(StridedRef::new(&self.data, &self.layout), BitNot).or_panic())
            }
        }
    )*};
}
not_operator!([&'a Tensor<T, S, D, R>] [Tensor<T, S, D, R>]);

/// `isclose`, `allclose` and `equal` of typed tensors, through the runtime
/// forms of [`AnyTensor`] (each operand is copied once into an owned
/// tensor: these are checks, not kernels).
impl<T: AnyElement, S: Shape, D: Elementwise + Reductions, R: Repr> Tensor<T, S, D, R>
where
    AnyTensor<D>: From<DynTensor<T, D>>,
{
    /// Whether each pair of elements is close (PyTorch's `isclose`; see
    /// [`AnyTensor::isclose`]): both tensors hold `T`, their shapes
    /// broadcast at compile time. Panics where `Dyn` sizes do not
    /// broadcast or a tolerance is negative; [`try_isclose`](Self::try_isclose)
    /// returns the error.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let a = tensor![[1.0f32, 2.0], [3.0, f32::INFINITY]];
    /// let b = tensor![1.0f32, f32::INFINITY];
    /// let c: Tensor<bool, shape![2, 2]> = a.isclose(&b, 1e-5, 1e-8, false);
    /// assert_eq!(c.to_vec(), vec![true, false, false, true]);
    /// ```
    pub fn isclose<S2: Shape, R2: Repr>(
        &self,
        other: &Tensor<T, S2, D, R2>,
        rtol: f64,
        atol: f64,
        equal_nan: bool,
    ) -> Tensor<bool, Broadcast<S, S2>, D>
    where
        S: BroadcastShape<S2>,
    {
        self.try_isclose(other, rtol, atol, equal_nan).or_panic()
    }

    /// [`isclose`](Self::isclose), or `Err` with PyTorch's text.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let a = DynTensor::<f64>::ones(&[2]);
    /// let err = a.try_isclose(&a, -1.5, 0.0, false).unwrap_err();
    /// assert_eq!(err.to_string(), "rtol must be greater than or equal to zero, but got -1.5");
    /// ```
    pub fn try_isclose<S2: Shape, R2: Repr>(
        &self,
        other: &Tensor<T, S2, D, R2>,
        rtol: f64,
        atol: f64,
        equal_nan: bool,
    ) -> Result<Tensor<bool, Broadcast<S, S2>, D>, Error>
    where
        S: BroadcastShape<S2>,
    {
        let (a, b) = (any_copy(self), any_copy(other));
        a.isclose(&b, rtol, atol, equal_nan)?
            .downcast::<bool>()?
            .into_static()
    }

    /// Whether every pair of elements is close (PyTorch's `allclose`).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let a = tensor![1.0f64, 2.0];
    /// assert!(a.allclose(&tensor![1.0f64 + 1e-9, 2.0], 1e-5, 1e-8, false));
    /// assert!(!a.allclose(&tensor![1.1f64, 2.0], 1e-5, 1e-8, false));
    /// ```
    pub fn allclose<S2: Shape, R2: Repr>(
        &self,
        other: &Tensor<T, S2, D, R2>,
        rtol: f64,
        atol: f64,
        equal_nan: bool,
    ) -> bool
    where
        S: BroadcastShape<S2>,
    {
        let (a, b) = (any_copy(self), any_copy(other));
        a.allclose(&b, rtol, atol, equal_nan).or_panic()
    }

    /// Whether `other` has the same sizes and equal elements, compared in
    /// the common type (PyTorch's `equal`; NaN equals nothing).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// assert!(tensor![1i32, 2].equal(&tensor![1.0f64, 2.0]));
    /// assert!(!tensor![1i32, 2].equal(&tensor![[1i32, 2]]));
    /// assert!(!tensor![f32::NAN].equal(&tensor![f32::NAN]));
    /// ```
    pub fn equal<T2: AnyElement, S2: Shape, R2: Repr>(&self, other: &Tensor<T2, S2, D, R2>) -> bool
    where
        AnyTensor<D>: From<DynTensor<T2, D>>,
    {
        let (a, b) = (any_copy(self), any_copy(other));
        a.equal(&b).or_panic()
    }
}

/// An owned copy of `x` as an [`AnyTensor`].
fn any_copy<T: AnyElement, S: Shape, D: Elementwise, R: Repr>(
    x: &Tensor<T, S, D, R>,
) -> AnyTensor<D>
where
    AnyTensor<D>: From<DynTensor<T, D>>,
{
    AnyTensor::from(x.to_owned().into_dyn())
}
