//! `+= -= *= /=`: in place, under the in-place rule (the right-hand side must
//! broadcast *to* the left's shape; see [`BroadcastInto`]). A right-hand side
//! that would grow the output does not compile
//! (`ui-tests/fail/in_place_*.rs`); with `Dyn` sizes the operator panics with
//! PyTorch's message instead.
//!
//! ```
//! use shaped::prelude::*;
//! let mut acc = Tensor::<f32, shape![2, 3]>::zeros();
//! acc += &Tensor::<f32, shape![3]>::arange();
//! acc *= 2.0;
//! assert_eq!(acc.to_vec(), vec![0.0, 2.0, 4.0, 0.0, 2.0, 4.0]);
//! ```

use super::device_op::{KernelOp, OpCode};
use super::kernels::{self, BinaryFn, WithRight};
use super::{broadcast_strides, Elementwise, StridedMut};
use crate::dtype::{Element, Numeric, TrueDiv};
use crate::error::Error;
use crate::shape::{check_in_place, BroadcastInto, Shape, SizeArray};
use crate::storage::{Backend, Repr, Storage, StridedRef, View, Writable, WriteThroughView};
use crate::tensor::Tensor;
use core::borrow::Borrow;
use core::ops::{AddAssign, DivAssign, MulAssign, SubAssign};

/// The writable operand of `x`, whose buffer starts at `ptr`.
fn output<'a, T: Element, S: Shape, D: Backend, R: Repr>(
    x: &'a Tensor<T, S, D, R>,
    ptr: D::Ptr<T>,
) -> StridedMut<'a, T, D> {
    StridedMut {
        ptr,
        sizes: x.layout.sizes(),
        strides: x.layout.strides(),
        offset: x.layout.offset(),
    }
}

/// `x = f(x, y)` with `y` broadcast to `x`'s shape; `Err` (and `x`
/// untouched) when it does not broadcast there.
fn assign<T, B, SX, SY, D, RX, RY, F>(
    x: &mut Tensor<T, SX, D, RX>,
    y: &Tensor<B, SY, D, RY>,
    f: F,
) -> Result<(), Error>
where
    T: Element,
    B: Element,
    SX: Shape,
    SY: Shape,
    D: Elementwise,
    RX: Writable,
    RY: Repr,
    F: BinaryFn<T, B, T>,
{
    check_in_place(x.layout.sizes(), y.layout.sizes())?;
    let mut y_strides = SX::Sizes::filled(x.rank(), 0);
    broadcast_strides(
        y.layout.sizes(),
        y.layout.strides(),
        x.layout.sizes(),
        y_strides.as_mut(),
    );
    let ptr = RX::ptr_mut(&mut x.data);
    let out = output(x, ptr);
    let b = StridedRef {
        ptr: y.data.ptr(),
        sizes: out.sizes,
        strides: y_strides.as_ref(),
        offset: y.layout.offset(),
    };
    D::update2(out, b, f)
}

/// `x op= y` for an output of element type `T` and an operand of element
/// type `T2`: the operation's result must be storable back into `T`
/// (SPEC.md section 3, casting into an existing tensor).
pub trait UpdateFn<T, T2>: Copy + Send + Sync {
    /// The new value of `x`.
    fn update(&self, x: T, y: T2) -> T;
    /// The device kernel that computes the same (`None`: host only).
    fn kernel_op(&self) -> Option<KernelOp> {
        None
    }
}

/// `+ - *` keep the element type.
macro_rules! same_type_update {
    ($($Fn:ident),*) => {$(
        impl<T: Numeric> UpdateFn<T, T> for kernels::$Fn {
            #[inline(always)]
            fn update(&self, x: T, y: T) -> T {
                self.call(x, y)
            }
            fn kernel_op(&self) -> Option<KernelOp> {
                BinaryFn::<T, T, T>::kernel_op(self)
            }
        }
    )*};
}
same_type_update!(Add, Sub, Mul);

/// `/` is true division: the quotient of integers is `float32`, which an
/// integer output cannot hold (see [`DivInto`]).
impl<T, T2: DivInto<T>> UpdateFn<T, T2> for kernels::Div {
    #[inline(always)]
    fn update(&self, x: T, y: T2) -> T {
        T2::div_into(x, y)
    }
    fn kernel_op(&self) -> Option<KernelOp> {
        Some(KernelOp::new(OpCode::Div))
    }
}

/// `x /= y` with `y: Self` and `x: T`: the quotient must fit `T`.
///
/// The check sits on the operand's type so that a failure is reported with
/// [`StoreInto`]'s words rather than a bare "cannot use `/=`".
pub trait DivInto<T> {
    /// `x / y`, stored as a `T`.
    fn div_into(x: T, y: Self) -> T;
}
impl<T: TrueDiv, T2: SameAs<T>> DivInto<T> for T2
where
    T::Quotient: StoreInto<T>,
{
    #[inline(always)]
    fn div_into(x: T, y: T2) -> T {
        T::true_div(x, y.same()).store()
    }
}

/// The right operand's element type is the output's (mixed element types
/// come with type promotion).
pub trait SameAs<T> {
    /// The value, as a `T`.
    fn same(self) -> T;
}
impl<T> SameAs<T> for T {
    #[inline(always)]
    fn same(self) -> T {
        self
    }
}

/// A result of type `Self` can be stored into an output of element type
/// `Out` (PyTorch's rule for in-place and `out=` results).
pub trait StoreInto<Out> {
    /// The result, as an `Out`.
    fn store(self) -> Out;
}
impl<T> StoreInto<T> for T {
    #[inline(always)]
    fn store(self) -> T {
        self
    }
}
/// A `float32` result (integer true division) cannot go into an integer or
/// bool output: this impl only requires [`FloatIntoIntegral`], whose message
/// explains why.
impl<O: Integral> StoreInto<O> for f32
where
    O: FloatIntoIntegral,
{
    fn store(self) -> O {
        unreachable!("nothing implements FloatIntoIntegral")
    }
}

/// Integer and bool element types.
pub trait Integral: Element {}
impl Integral for u8 {}
impl Integral for i8 {}
impl Integral for i16 {}
impl Integral for i32 {}
impl Integral for i64 {}
impl Integral for bool {}

/// Holds for nothing: storing a floating result into an integer output.
#[diagnostic::on_unimplemented(
    message = "result type Float can't be cast to the desired output type {Self}",
    label = "`/` of {Self} tensors gives float32, which cannot be stored in a {Self} tensor",
    note = "`/` is true division: divide out of place (`&x / &y` gives a float32 tensor) or convert to a floating type first"
)]
pub trait FloatIntoIntegral {}

/// `BinaryFn` view of an [`UpdateFn`], for the kernels.
#[derive(Copy, Clone, Debug)]
struct Update<F>(F);
impl<T, T2, F: UpdateFn<T, T2>> BinaryFn<T, T2, T> for Update<F> {
    #[inline(always)]
    fn call(&self, x: T, y: T2) -> T {
        self.0.update(x, y)
    }
    fn kernel_op(&self) -> Option<KernelOp> {
        self.0.kernel_op()
    }
}

macro_rules! assign_operator {
    ($Trait:ident, $method:ident, $Fn:ident) => {
        assign_operator!(@forms $Trait, $method, $Fn;
            [&'b Tensor<T2, SY, D, RY>] [Tensor<T2, SY, D, RY>]);

        /// A plain number on the right.
        impl<T: Element, S: Shape, D: Elementwise, R: Writable> $Trait<T> for Tensor<T, S, D, R>
        where
            kernels::$Fn: UpdateFn<T, T>,
        {
            fn $method(&mut self, rhs: T) {
                let ptr = R::ptr_mut(&mut self.data);
                D::update1(output(self, ptr), WithRight(Update(kernels::$Fn), rhs))
                    .unwrap_or_else(|e| panic!("{e}"));
            }
        }

        /// Read-only views cannot be assigned to: this impl only requires
        /// [`WriteThroughView`], whose message explains why.
        impl<'v, T: Element, S: Shape, D: Backend, Rhs> $Trait<Rhs> for Tensor<T, S, D, View<'v>>
        where
            Rhs: WriteThroughView,
        {
            fn $method(&mut self, _: Rhs) {
                unreachable!("nothing implements WriteThroughView")
            }
        }
    };
    // The right-hand side is a tensor, owned or borrowed.
    (@forms $Trait:ident, $method:ident, $Fn:ident; $([$($Rhs:tt)*])*) => {$(
        impl<'b, T, T2, SX, SY, D, RX, RY> $Trait<$($Rhs)*> for Tensor<T, SX, D, RX>
        where
            T: Element,
            T2: Element,
            SX: Shape,
            SY: BroadcastInto<SX>,
            D: Elementwise,
            RX: Writable,
            RY: Repr,
            kernels::$Fn: UpdateFn<T, T2>,
        {
            fn $method(&mut self, rhs: $($Rhs)*) {
                let rhs: &Tensor<T2, SY, D, RY> = rhs.borrow();
                assign(self, rhs, Update(kernels::$Fn)).unwrap_or_else(|e| panic!("{e}"));
            }
        }
    )*};
}

assign_operator!(AddAssign, add_assign, Add);
assign_operator!(SubAssign, sub_assign, Sub);
assign_operator!(MulAssign, mul_assign, Mul);
assign_operator!(DivAssign, div_assign, Div);

/// `try_add_assign` ..: the in-place operators, returning PyTorch's error
/// instead of panicking when `Dyn` sizes break the in-place rule.
macro_rules! fallible_assign {
    ($($(#[$doc:meta])* $name:ident => $Fn:ident;)*) => {
        impl<T: Element, S: Shape, D: Elementwise, R: Writable> Tensor<T, S, D, R> {$(
            $(#[$doc])*
            pub fn $name<T2: Element, S2, R2: Repr>(
                &mut self,
                rhs: &Tensor<T2, S2, D, R2>,
            ) -> Result<(), Error>
            where
                S2: BroadcastInto<S>,
                kernels::$Fn: UpdateFn<T, T2>,
            {
                assign(self, rhs, Update(kernels::$Fn))
            }
        )*}
    };
}

fallible_assign! {
    /// `self += rhs`, or `Err` (and `self` untouched) when `Dyn` sizes break
    /// the in-place rule.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let mut x = DynTensor::<f32>::zeros(&[1, 3, 1]);
    /// let err = x.try_add_assign(&DynTensor::ones(&[3, 1, 7])).unwrap_err();
    /// assert_eq!(
    ///     err.to_string(),
    ///     "output with shape [1, 3, 1] doesn't match the broadcast shape [3, 3, 7]"
    /// );
    /// assert_eq!(x.to_vec(), vec![0.0; 3]);
    /// ```
    try_add_assign => Add;
    /// `self -= rhs`, or `Err` when `Dyn` sizes break the in-place rule.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let mut x = DynTensor::<i32>::ones(&[2, 2]);
    /// x.try_sub_assign(&DynTensor::ones(&[2])).unwrap();
    /// assert_eq!(x.to_vec(), vec![0; 4]);
    /// ```
    try_sub_assign => Sub;
    /// `self *= rhs`, or `Err` when `Dyn` sizes break the in-place rule.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let mut x = DynTensor::<i32>::ones(&[3]);
    /// assert!(x.try_mul_assign(&DynTensor::ones(&[2, 3])).is_err());
    /// ```
    try_mul_assign => Mul;
    /// `self /= rhs`, or `Err` when `Dyn` sizes break the in-place rule.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let mut x = DynTensor::<f64>::full(&[2], 3.0);
    /// x.try_div_assign(&DynTensor::full(&[], 2.0)).unwrap();
    /// assert_eq!(x.to_vec(), vec![1.5, 1.5]);
    /// ```
    try_div_assign => Div;
}

impl<T: Element, S: Shape, D: Elementwise, R: Writable> Tensor<T, S, D, R> {
    /// Every element set to `value` (PyTorch's `fill_`).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let mut x = Tensor::<i32, shape![2, 2]>::zeros();
    /// x.fill(7);
    /// assert_eq!(x.to_vec(), vec![7; 4]);
    /// ```
    pub fn fill(&mut self, value: T) {
        let ptr = R::ptr_mut(&mut self.data);
        D::update1(output(self, ptr), kernels::Constant(value)).unwrap_or_else(|e| panic!("{e}"));
    }
}
