//! `+= -= *= /=` and `&= |= ^= <<= >>=`: in place, under the in-place rule (the right-hand side must
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

use super::functions::{
    self, BinaryFn, ByNumber, ElementOp, NumberOperandOf, OperandOf, OutputOf, WideRight,
    WithRight, reads_wide, same_type,
};
use super::op_codes::{KernelOp, Side};
use super::{broadcast_strides, with_number_types};
use crate::backend::{Backend, StridedRef};
use crate::backend::{Elementwise, StridedMut};
use crate::dtype::Element;
use crate::dtype::cast::cast;
use crate::dtype::promote::{
    Common, CommonScalar, CommonType, CommonWithScalar, StorableIn, check_runtime_rank,
};
use crate::error::Error;
use crate::error::OrPanic;
use crate::shape::{BroadcastInto, Shape, SizeArray, check_in_place};
use crate::storage::{Repr, Storage, View, Writable, WriteThroughView};
use crate::tensor::Tensor;
use core::borrow::Borrow;
use core::marker::PhantomData;
use core::ops::{
    AddAssign, BitAndAssign, BitOrAssign, BitXorAssign, DivAssign, MulAssign, ShlAssign, ShrAssign,
    SubAssign,
};

/// The writable operand of `x`, whose buffer starts at `ptr`.
pub(crate) fn output<'a, T: Element, S: Shape, D: Backend, R: Repr>(
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
pub(crate) fn assign<T, B, C, SX, SY, D, RX, RY, F>(
    x: &mut Tensor<T, SX, D, RX>,
    y: &Tensor<B, SY, D, RY>,
    f: F,
) -> Result<(), Error>
where
    T: Element,
    B: Element,
    C: Element,
    SX: Shape,
    SY: Shape,
    D: Elementwise,
    RX: Writable,
    RY: Repr,
    F: ElementOp<C> + BinaryFn<C, C, OutputOf<F, C>>,
{
    update_with::<T, B, C, SX, SY, D, RX, RY, _>(x, y, store_back::<F, C>(f))
}

/// [`assign`] of `*=` and `/=`: when the common type `C` is a half type
/// and `y` is one element of another type, `x * y` computes in float32
/// from `y`'s own value ([`WideRight`]), as PyTorch's CPU kernels read it.
fn assign_wide_right<T, B, C, SX, SY, D, RX, RY, F>(
    x: &mut Tensor<T, SX, D, RX>,
    y: &Tensor<B, SY, D, RY>,
    f: F,
) -> Result<(), Error>
where
    T: Element,
    B: Element,
    C: Element,
    SX: Shape,
    SY: Shape,
    D: Elementwise,
    RX: Writable,
    RY: Repr,
    F: ElementOp<C> + BinaryFn<C, C, OutputOf<F, C>> + BinaryFn<f32, f32, f32>,
{
    if reads_wide::<B, C>(y.layout.sizes()) {
        return update_with::<T, B, C, SX, SY, D, RX, RY, _>(x, y, WideRight::<F, T>::new(f));
    }
    assign::<T, B, C, SX, SY, D, RX, RY, F>(x, y, f)
}

/// `x = g(x, y)` with `y` broadcast to `x`'s shape, after the in-place
/// rule and the rank-0 promotion check of the common type `C`.
fn update_with<T, B, C, SX, SY, D, RX, RY, G>(
    x: &mut Tensor<T, SX, D, RX>,
    y: &Tensor<B, SY, D, RY>,
    g: G,
) -> Result<(), Error>
where
    T: Element,
    B: Element,
    C: Element,
    SX: Shape,
    SY: Shape,
    D: Elementwise,
    RX: Writable,
    RY: Repr,
    G: BinaryFn<T, B, T>,
{
    check_in_place(x.layout.sizes(), y.layout.sizes())?;
    check_runtime_rank::<C>(
        (T::DTYPE, SX::RANK, x.rank()),
        (B::DTYPE, SY::RANK, y.rank()),
    )?;
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
    D::update2(out, b, g)
}

/// `f(x, y)` computed in the common type `C` of the operands, then stored
/// back as the output's type `T` (PyTorch computes a mixed in-place
/// operation this way: `uint8 *= int32` multiplies as int32 and wraps).
pub(crate) struct StoreBack<F, C>(F, PhantomData<fn() -> C>);

impl<F: Copy, C> Clone for StoreBack<F, C> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<F: Copy, C> Copy for StoreBack<F, C> {}

impl<T, T2, C, F> BinaryFn<T, T2, T> for StoreBack<F, C>
where
    T: Element,
    T2: Element,
    C: Element,
    F: ElementOp<C> + BinaryFn<C, C, OutputOf<F, C>>,
{
    #[inline(always)]
    fn call(&self, x: T, y: T2) -> T {
        cast(self.0.call(cast::<T, C>(x), cast::<T2, C>(y)))
    }
    /// `f`'s own kernel when no conversion happens on the way in or out,
    /// else the same operation computed in `C` by a converting kernel,
    /// which stores its result as a `T`.
    fn kernel_op(&self) -> Option<KernelOp> {
        let op = self.0.kernel_op()?;
        let unconverted =
            same_type::<T, C>() && same_type::<T2, C>() && same_type::<OutputOf<F, C>, T>();
        if unconverted {
            Some(op)
        } else {
            Some(op.computed_in(C::DTYPE))
        }
    }
}

/// `f` in the common type `C`, stored back into the output's type.
pub(crate) fn store_back<F, C>(f: F) -> StoreBack<F, C> {
    StoreBack(f, PhantomData)
}

macro_rules! assign_operator {
    ($Trait:ident, $method:ident, $Fn:ident, $number:ident [$wide:path]) => {
        assign_operator!(@forms $Trait, $method, $Fn, $number [$wide];
            [&'b Tensor<T2, SY, D, RY>] [Tensor<T2, SY, D, RY>]);

        with_number_types!(assign_operator!(@numbers $Trait, $method, $Fn, $number [$wide]));

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
    // A plain number on the right: one impl per number type, so that a
    // tensor on the right meets only the tensor impls.
    (@numbers $Trait:ident, $method:ident, $Fn:ident, $number:ident [$wide:path]; $($t:ty),*) => {$(
        impl<T, S, D, R> $Trait<$t> for Tensor<T, S, D, R>
        where
            T: CommonWithScalar<$t, S> + OperandOf<functions::$Fn>,
            for<'x> &'x $t: NumberOperandOf<functions::$Fn>,
            S: Shape,
            D: Elementwise,
            R: Writable,
            functions::$Fn: ElementOp<CommonScalar<T, S, $t>>
                + BinaryFn<CommonScalar<T, S, $t>, CommonScalar<T, S, $t>, OutputOf<functions::$Fn, CommonScalar<T, S, $t>>>
                + $wide,
            OutputOf<functions::$Fn, CommonScalar<T, S, $t>>: StorableIn<T>,
        {
            fn $method(&mut self, rhs: $t) {
                let ptr = R::ptr_mut(&mut self.data);
                let f = assign_operator!(@with_number $number, functions::$Fn, CommonScalar<T, S, $t>, rhs);
                D::update1(output(self, ptr), f).or_panic();
            }
        }
    )*};
    // The number in the common type `$C`, or for `*=` and `/=` in float32
    // when `$C` is a half type ([`ByNumber`]); the result stored back.
    (@with_number plain, $f:expr, $C:ty, $n:expr) => {
        WithRight(store_back::<_, $C>($f), cast::<_, $C>($n))
    };
    (@with_number wide, $f:expr, $C:ty, $n:expr) => {
        ByNumber::<_, $C>::new($f, $n, Side::Right)
    };
    (@assign plain, $C:ty, $x:expr, $y:expr, $f:expr) => {
        assign::<_, _, $C, _, _, _, _, _, _>($x, $y, $f)
    };
    (@assign wide, $C:ty, $x:expr, $y:expr, $f:expr) => {
        assign_wide_right::<_, _, $C, _, _, _, _, _, _>($x, $y, $f)
    };
    // The right-hand side is a tensor, owned or borrowed.
    (@forms $Trait:ident, $method:ident, $Fn:ident, $number:ident [$wide:path]; $([$($Rhs:tt)*])*) => {$(
        impl<'b, T, T2, SX, SY, D, RX, RY> $Trait<$($Rhs)*> for Tensor<T, SX, D, RX>
        where
            T: CommonType<T2, SX, SY> + OperandOf<functions::$Fn>,
            T2: OperandOf<functions::$Fn> + Element,
            SX: Shape,
            SY: BroadcastInto<SX>,
            D: Elementwise,
            RX: Writable,
            RY: Repr,
            functions::$Fn: ElementOp<Common<T, SX, T2, SY>>
                + BinaryFn<Common<T, SX, T2, SY>, Common<T, SX, T2, SY>, OutputOf<functions::$Fn, Common<T, SX, T2, SY>>>
                + $wide,
            OutputOf<functions::$Fn, Common<T, SX, T2, SY>>: StorableIn<T>,
        {
            fn $method(&mut self, rhs: $($Rhs)*) {
                let rhs: &Tensor<T2, SY, D, RY> = rhs.borrow();
                assign_operator!(@assign $number, Common<T, SX, T2, SY>, self, rhs, functions::$Fn)
                    .or_panic();
            }
        }
    )*};
}

assign_operator!(AddAssign, add_assign, Add, plain[Copy]);
assign_operator!(SubAssign, sub_assign, Sub, plain[Copy]);
assign_operator!(MulAssign, mul_assign, Mul, wide [BinaryFn<f32, f32, f32>]);
assign_operator!(DivAssign, div_assign, Div, wide [BinaryFn<f32, f32, f32>]);
assign_operator!(BitAndAssign, bitand_assign, BitAnd, plain[Copy]);
assign_operator!(BitOrAssign, bitor_assign, BitOr, plain[Copy]);
assign_operator!(BitXorAssign, bitxor_assign, BitXor, plain[Copy]);
assign_operator!(ShlAssign, shl_assign, Shl, plain[Copy]);
assign_operator!(ShrAssign, shr_assign, Shr, plain[Copy]);

/// `try_add_assign` ..: the in-place operators, returning PyTorch's error
/// instead of panicking when `Dyn` sizes break the in-place rule.
macro_rules! fallible_assign {
    ($($(#[$doc:meta])* $name:ident => $Fn:ident, $number:ident [$wide:path];)*) => {
        impl<T: Element, S: Shape, D: Elementwise, R: Writable> Tensor<T, S, D, R> {$(
            $(#[$doc])*
            pub fn $name<T2, S2, R2: Repr>(
                &mut self,
                rhs: &Tensor<T2, S2, D, R2>,
            ) -> Result<(), Error>
            where
                T: CommonType<T2, S, S2> + OperandOf<functions::$Fn>,
                T2: Element + OperandOf<functions::$Fn>,
                S2: BroadcastInto<S>,
                functions::$Fn: ElementOp<Common<T, S, T2, S2>>
                    + BinaryFn<Common<T, S, T2, S2>, Common<T, S, T2, S2>, OutputOf<functions::$Fn, Common<T, S, T2, S2>>>,
                functions::$Fn: $wide,
                OutputOf<functions::$Fn, Common<T, S, T2, S2>>: StorableIn<T>,
            {
                assign_operator!(@assign $number, Common<T, S, T2, S2>, self, rhs, functions::$Fn)
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
    /// let err = x.try_add_assign(&DynTensor::<f32>::ones(&[3, 1, 7])).unwrap_err();
    /// assert_eq!(
    ///     err.to_string(),
    ///     "output with shape [1, 3, 1] doesn't match the broadcast shape [3, 3, 7]"
    /// );
    /// assert_eq!(x.to_vec(), vec![0.0; 3]);
    /// ```
    try_add_assign => Add, plain [Copy];
    /// `self -= rhs`, or `Err` when `Dyn` sizes break the in-place rule.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let mut x = DynTensor::<i32>::ones(&[2, 2]);
    /// x.try_sub_assign(&DynTensor::<i32>::ones(&[2])).unwrap();
    /// assert_eq!(x.to_vec(), vec![0; 4]);
    /// ```
    try_sub_assign => Sub, plain [Copy];
    /// `self *= rhs`, or `Err` when `Dyn` sizes break the in-place rule.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let mut x = DynTensor::<i32>::ones(&[3]);
    /// assert!(x.try_mul_assign(&DynTensor::<i32>::ones(&[2, 3])).is_err());
    /// ```
    try_mul_assign => Mul, wide [BinaryFn<f32, f32, f32>];
    /// `self /= rhs`, or `Err` when `Dyn` sizes break the in-place rule.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let mut x = DynTensor::<f64>::full(&[2], 3.0);
    /// x.try_div_assign(&DynTensor::full(&[], 2.0)).unwrap();
    /// assert_eq!(x.to_vec(), vec![1.5, 1.5]);
    /// ```
    try_div_assign => Div, wide [BinaryFn<f32, f32, f32>];
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
        self.try_fill(value).or_panic();
    }

    /// [`fill`](Self::fill), or `Err` when the device fails.
    pub(crate) fn try_fill(&mut self, value: T) -> Result<(), Error> {
        let ptr = R::ptr_mut(&mut self.data);
        D::update1(output(self, ptr), functions::Constant(value))
    }
}

impl<T: Element, S: Shape, D: Elementwise, R: Writable> Tensor<T, S, D, R> {
    /// PyTorch's `copy_`: `src` broadcast to `self`'s shape and converted
    /// to `self`'s element type, written into `self`'s elements (through a
    /// mutable view, into the tensor it views). `Err`, and `self`
    /// untouched, when `src` does not broadcast to `self`'s shape or lives
    /// on another device.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let mut x = Tensor::<f32, shape![3, 4]>::zeros();
    /// let row = Tensor::<i64, shape![2]>::from_vec(vec![7, 8]).unwrap();
    /// x.slice_mut(s![1.., ..;2]).copy_(&row).unwrap();   // x[1:, ::2] = row
    /// assert_eq!(x.to_vec(), [0., 0., 0., 0., 7., 0., 8., 0., 7., 0., 8., 0.]);
    /// ```
    pub fn copy_<B: Element, S2: Shape, R2: Repr>(
        &mut self,
        src: &Tensor<B, S2, D, R2>,
    ) -> Result<(), Error> {
        check_in_place(self.layout.sizes(), src.layout.sizes())?;
        let mut strides = S::Sizes::filled(self.rank(), 0);
        broadcast_strides(
            src.layout.sizes(),
            src.layout.strides(),
            self.layout.sizes(),
            strides.as_mut(),
        );
        let ptr = R::ptr_mut(&mut self.data);
        let out = output(self, ptr);
        let b = StridedRef {
            ptr: src.data.ptr(),
            sizes: out.sizes,
            strides: strides.as_ref(),
            offset: src.layout.offset(),
        };
        D::copy_into(out, b)
    }

    /// [`copy_`](Self::copy_) where the compiler has checked that `src`'s
    /// shape broadcasts to `self`'s (the in-place rule): panics only for
    /// `Dyn` sizes that do not, or a device mismatch.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let mut x = Tensor::<f64, shape![2, 3]>::zeros();
    /// x.copy_from(&Tensor::<bool, shape![3]>::from_vec(vec![true, false, true]).unwrap());
    /// assert_eq!(x.to_vec(), [1., 0., 1., 1., 0., 1.]);
    /// ```
    pub fn copy_from<B: Element, S2: BroadcastInto<S>, R2: Repr>(
        &mut self,
        src: &Tensor<B, S2, D, R2>,
    ) {
        self.copy_(src).or_panic()
    }
}
