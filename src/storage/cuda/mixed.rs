//! Operands on two devices (SPEC.md section 4). Tensors never move between
//! devices implicitly, so an operation between a CUDA tensor and a CPU
//! tensor does not compile, with one exception that PyTorch makes too: a
//! rank-0 CPU tensor takes part in an operation with a CUDA tensor, as the
//! plain number it holds.
//!
//! ```no_run
//! use shaped::prelude::*;
//! let gpu = Cuda::new(0)?;
//! let x = Tensor::<f32, shape![2, 3]>::ones().to_device(&gpu)?;
//! let two = Tensor::<f32, shape![]>::full(2.0); // on the CPU
//! let y = &x * &two;                               // on the GPU
//! assert_eq!(y.to_cpu()?.to_vec(), vec![2.0; 6]);
//! # Ok::<(), shaped::Error>(())
//! ```

use super::Cuda;
use crate::dtype::{Element, Numeric, TrueDiv};
use crate::error::Error;
use crate::ops::compare::Comparand;
use crate::ops::kernels::{self, BinaryFn, WithLeft, WithRight};
use crate::ops::unary;
use crate::shape::Shape;
use crate::storage::{Cpu, Repr};
use crate::tensor::Tensor;
use core::borrow::Borrow;
use core::ops::{Add, AddAssign, Div, DivAssign, Mul, MulAssign, Sub, SubAssign};

/// The shapes of CPU tensors that may take part in an operation with a
/// CUDA tensor: rank 0 only.
#[diagnostic::on_unimplemented(
    message = "expected all tensors to be on the same device, but found a CPU tensor of shape `{Self}` with a CUDA tensor",
    label = "this CPU tensor has dimensions: it cannot join an operation on a CUDA tensor",
    note = "only a rank-0 CPU tensor (`shape![]`) may take part in an operation with a CUDA tensor",
    note = "copy it to the GPU first with `.to_device(&gpu)?`, or the CUDA tensor to the host with `.to_cpu()?`"
)]
pub trait CpuOperandOfCudaOp: Shape {}
impl CpuOperandOfCudaOp for () {}

/// The one element of a rank-0 CPU tensor.
fn value_of<T: Element, S: CpuOperandOfCudaOp, R: Repr>(t: &Tensor<T, S, Cpu, R>) -> T {
    t.to_vec()[0]
}

macro_rules! rank_zero_operator {
    ($Trait:ident, $method:ident, $Fn:ident, $bound:ident, $Out:ty) => {
        rank_zero_operator!(@forms $Trait, $method, $Fn, $bound, $Out;
            [&'a Tensor<T, S1, Cuda, R1>] [&'b Tensor<T, S2, Cpu, R2>];
            [Tensor<T, S1, Cuda, R1>] [&'b Tensor<T, S2, Cpu, R2>];
            [&'a Tensor<T, S1, Cuda, R1>] [Tensor<T, S2, Cpu, R2>];
            [Tensor<T, S1, Cuda, R1>] [Tensor<T, S2, Cpu, R2>];
        );
    };
    (@forms $Trait:ident, $method:ident, $Fn:ident, $bound:ident, $Out:ty;
        $([$($Gpu:tt)*] [$($Host:tt)*];)*) => {$(
        /// A CUDA tensor with a rank-0 CPU tensor on the right.
        impl<'a, 'b, T: $bound, S1: Shape, S2: CpuOperandOfCudaOp, R1: Repr, R2: Repr>
            $Trait<$($Host)*> for $($Gpu)*
        {
            type Output = Tensor<$Out, S1, Cuda>;
            fn $method(self, rhs: $($Host)*) -> Self::Output {
                let (lhs, rhs): (&Tensor<T, S1, Cuda, R1>, &Tensor<T, S2, Cpu, R2>) =
                    (self.borrow(), rhs.borrow());
                unary(lhs, WithRight(kernels::$Fn, value_of(rhs))).unwrap_or_else(|e| panic!("{e}"))
            }
        }
        /// A rank-0 CPU tensor on the left of a CUDA tensor.
        impl<'a, 'b, T: $bound, S1: Shape, S2: CpuOperandOfCudaOp, R1: Repr, R2: Repr>
            $Trait<$($Gpu)*> for $($Host)*
        {
            type Output = Tensor<$Out, S1, Cuda>;
            fn $method(self, rhs: $($Gpu)*) -> Self::Output {
                let (lhs, rhs): (&Tensor<T, S2, Cpu, R2>, &Tensor<T, S1, Cuda, R1>) =
                    (self.borrow(), rhs.borrow());
                unary(rhs, WithLeft(kernels::$Fn, value_of(lhs))).unwrap_or_else(|e| panic!("{e}"))
            }
        }
    )*};
}

rank_zero_operator!(Add, add, Add, Numeric, T);
rank_zero_operator!(Sub, sub, Sub, Numeric, T);
rank_zero_operator!(Mul, mul, Mul, Numeric, T);
rank_zero_operator!(Div, div, Div, TrueDiv, <T as TrueDiv>::Quotient);

macro_rules! rank_zero_assign {
    ($($Trait:ident, $method:ident);*) => {$(
        /// `x op= y` for a CUDA tensor `x` and a rank-0 CPU tensor `y`: `y`
        /// goes to `x`'s device (one element), then the same-device rule and
        /// kernel apply.
        impl<'b, T: Element, S1: Shape, S2: CpuOperandOfCudaOp, R1: Repr, R2: Repr>
            $Trait<&'b Tensor<T, S2, Cpu, R2>> for Tensor<T, S1, Cuda, R1>
        where
            for<'c> Tensor<T, S1, Cuda, R1>: $Trait<&'c Tensor<T, S2, Cuda>>,
        {
            fn $method(&mut self, rhs: &'b Tensor<T, S2, Cpu, R2>) {
                let rhs = Cuda::open(&self.device())
                    .and_then(|gpu| rhs.to_device(&gpu))
                    .unwrap_or_else(|e| panic!("{e}"));
                self.$method(&rhs);
            }
        }
    )*};
}
rank_zero_assign!(AddAssign, add_assign; SubAssign, sub_assign; MulAssign, mul_assign; DivAssign, div_assign);

/// Comparisons of a CUDA tensor with a rank-0 CPU tensor.
impl<T: Element, S: Shape, S2: CpuOperandOfCudaOp, R2: Repr> Comparand<T, S, Cuda>
    for &Tensor<T, S2, Cpu, R2>
{
    type Shape = S;
    type Common = T;
    fn compare<R: Repr, F: BinaryFn<T, T, bool>>(
        self,
        lhs: &Tensor<T, S, Cuda, R>,
        f: F,
    ) -> Result<Tensor<bool, S, Cuda>, Error> {
        unary(lhs, WithRight(f, value_of(self)))
    }
}
