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

use super::kernels::{self, BinaryFn, WithRight};
use super::{broadcast_strides, Elementwise, StridedMut};
use crate::dtype::{Element, Float, Numeric};
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

/// `x = f(x, y)` with `y` broadcast to `x`'s shape.
fn assign<T, B, SX, SY, D, RX, RY, F>(x: &mut Tensor<T, SX, D, RX>, y: &Tensor<B, SY, D, RY>, f: F)
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
    check_in_place(x.layout.sizes(), y.layout.sizes()).unwrap_or_else(|e| panic!("{e}"));
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
    D::update2(out, b, f);
}

macro_rules! assign_operator {
    ($Trait:ident, $method:ident, $Fn:ident, $bound:ident) => {
        assign_operator!(@forms $Trait, $method, $Fn, $bound;
            [&'b Tensor<T, SY, D, RY>] [Tensor<T, SY, D, RY>]);

        impl<T: $bound, S: Shape, D: Elementwise, R: Writable> $Trait<T> for Tensor<T, S, D, R> {
            fn $method(&mut self, rhs: T) {
                let ptr = R::ptr_mut(&mut self.data);
                D::update1(output(self, ptr), WithRight(kernels::$Fn, rhs));
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
    (@forms $Trait:ident, $method:ident, $Fn:ident, $bound:ident; $([$($Rhs:tt)*])*) => {$(
        impl<'b, T, SX, SY, D, RX, RY> $Trait<$($Rhs)*> for Tensor<T, SX, D, RX>
        where
            T: $bound,
            SX: Shape,
            SY: BroadcastInto<SX>,
            D: Elementwise,
            RX: Writable,
            RY: Repr,
        {
            fn $method(&mut self, rhs: $($Rhs)*) {
                let rhs: &Tensor<T, SY, D, RY> = rhs.borrow();
                assign(self, rhs, kernels::$Fn);
            }
        }
    )*};
}

assign_operator!(AddAssign, add_assign, Add, Numeric);
assign_operator!(SubAssign, sub_assign, Sub, Numeric);
assign_operator!(MulAssign, mul_assign, Mul, Numeric);
assign_operator!(DivAssign, div_assign, Div, Float);
