//! Operands on two devices. Tensors never move between
//! devices implicitly, so an operation between a CUDA tensor and a CPU
//! tensor does not compile, with one exception that PyTorch makes too: a
//! rank-0 CPU tensor takes part in an operation with a CUDA tensor, as the
//! plain number it holds, with PyTorch's type promotion for a rank-0
//! operand.
//!
//! ```no_run
//! use shaped::prelude::*;
//! let gpu = Cuda::new(0)?;
//! let x = Tensor::<f32, shape![2, 3]>::ones().to_device(&gpu)?;
//! let two = Tensor::<f32, shape![]>::full(2.0); // on the CPU
//! let y = &x * &two;                               // on the GPU
//! assert_eq!(y.to_cpu()?.to_vec(), vec![2.0; 6]);
//! let half = Tensor::<f64, shape![]>::full(0.5);
//! let z = &x.cast::<i32>() * &half;                 // int32 with a float64: float64
//! assert_eq!(z.to_cpu()?.to_vec(), vec![0.5f64; 6]);
//! # Ok::<(), shaped::Error>(())
//! ```

use super::Cuda;
use crate::backend::{Cpu, StridedRef};
use crate::dtype::cast::cast;
use crate::dtype::promote::{Common, CommonType, check_runtime_rank};
use crate::dtype::{DType, Element};
use crate::error::Error;
use crate::error::OrPanic;
use crate::ops::compare::Comparand;
use crate::ops::functions::{
    self, BinaryFn, ByNumber, ElementOp, InCommon, OperandOf, OutputOf, WithLeft, WithRight,
};
use crate::ops::op_codes::Side;
use crate::ops::unary;
use crate::shape::Shape;
use crate::storage::Repr;
use crate::tensor::{PartsOf, Tensor, from_parts};
use core::borrow::Borrow;
use core::ops::{Add, AddAssign, Div, DivAssign, Mul, MulAssign, Sub, SubAssign};

/// The shapes of CPU tensors that may take part in an operation with a
/// CUDA tensor: rank 0 only.
#[diagnostic::on_unimplemented(
    message = "expected all tensors to be on the same device, but found a CPU tensor with dimensions beside a CUDA tensor",
    label = "this CPU tensor, of shape `{Self}`, cannot join an operation on a CUDA tensor",
    note = "only a rank-0 CPU tensor (`shape![]`) may take part in an operation with a CUDA tensor",
    note = "copy it to the GPU first with `.to_device(&gpu)?`, or the CUDA tensor to the host with `.to_cpu()?`"
)]
pub trait CpuOperandOfCudaOp: Shape {}
impl CpuOperandOfCudaOp for () {}

/// The one element of a rank-0 CPU tensor, converted to the operation's
/// common type `C`.
fn value_of<T: Element, C: Element, S: CpuOperandOfCudaOp, R: Repr>(t: &Tensor<T, S, Cpu, R>) -> C {
    cast(t.to_vec()[0])
}

/// `Err` when a `DynShape` CUDA operand turns out to have rank 0, where
/// PyTorch's rule would pick another common type than the compiler did.
fn check_rank<C: Element, A: Element, S: Shape, R: Repr>(
    gpu: &Tensor<A, S, Cuda, R>,
    host_dtype: DType,
) -> Result<(), Error> {
    check_runtime_rank::<C>((A::DTYPE, S::RANK, gpu.rank()), (host_dtype, Some(0), 0))
}

/// `f(gpu, host)` (or `f(host, gpu)` with `host` on the left) computed in
/// `C`: the CPU value, converted to `C`, is the kernel's fixed operand.
/// Panics as the operators do (a `DynShape` of rank 0 on the GPU whose
/// PyTorch type differs from `C`, or a device failure).
#[allow(clippy::type_complexity)]
fn with_rank_zero<A, B, C, U, S1, S2, R1, R2, F>(
    gpu: &Tensor<A, S1, Cuda, R1>,
    host: &Tensor<B, S2, Cpu, R2>,
    f: F,
    host_side: Side,
) -> Tensor<U, S1, Cuda>
where
    A: Element,
    B: Element,
    C: Element,
    U: Element,
    S1: Shape,
    S2: CpuOperandOfCudaOp,
    R1: Repr,
    R2: Repr,
    F: BinaryFn<C, C, U>,
{
    let value: C = value_of(host);
    let f = InCommon::<F, C>::new(f);
    let operand = StridedRef::new(&gpu.data, &gpu.layout);
    let parts = check_rank::<C, _, _, _>(gpu, B::DTYPE).and_then(|()| match host_side {
        Side::Left => unary(operand, WithLeft(f, value)),
        Side::Right => unary(operand, WithRight(f, value)),
    });
    from_parts!(parts.or_panic())
}

/// [`with_rank_zero`] of `*` and `/`: the CPU value is kept in float32
/// when `C` is a half type ([`ByNumber`]), as PyTorch's CUDA kernels read
/// a CPU scalar in their `opmath` type, on either side.
#[allow(clippy::type_complexity)]
fn with_rank_zero_wide<A, B, C, U, S1, S2, R1, R2, F>(
    gpu: &Tensor<A, S1, Cuda, R1>,
    host: &Tensor<B, S2, Cpu, R2>,
    f: F,
    host_side: Side,
) -> Tensor<U, S1, Cuda>
where
    A: Element,
    B: Element,
    C: Element,
    U: Element,
    S1: Shape,
    S2: CpuOperandOfCudaOp,
    R1: Repr,
    R2: Repr,
    F: ElementOp<C, Output = U> + BinaryFn<C, C, U> + BinaryFn<f32, f32, f32>,
{
    let value: B = host.to_vec()[0];
    let operand = StridedRef::new(&gpu.data, &gpu.layout);
    let parts = check_rank::<C, _, _, _>(gpu, B::DTYPE)
        .and_then(|()| unary(operand, ByNumber::<F, C>::new(f, value, host_side)));
    from_parts!(parts.or_panic())
}

/// A CUDA tensor of `A`s with a rank-0 CPU tensor of `B`s: the CPU value,
/// converted to the common type, is the kernel's fixed operand, and the CUDA
/// operand is converted in the kernel (type promotion with the rank-0 rule:
/// `int32 CUDA + float64 rank-0` is float64, `int8 CUDA + int64 rank-0` is
/// int8).
macro_rules! rank_zero_operator {
    ($Trait:ident, $method:ident, $Fn:ident, $apply:ident [$wide:path]) => {
        rank_zero_operator!(@forms $Trait, $method, $Fn, $apply [$wide];
            [&'a Tensor<A, S1, Cuda, R1>] [&'b Tensor<B, S2, Cpu, R2>];
            [Tensor<A, S1, Cuda, R1>] [&'b Tensor<B, S2, Cpu, R2>];
            [&'a Tensor<A, S1, Cuda, R1>] [Tensor<B, S2, Cpu, R2>];
            [Tensor<A, S1, Cuda, R1>] [Tensor<B, S2, Cpu, R2>];
        );
    };
    (@forms $Trait:ident, $method:ident, $Fn:ident, $apply:ident [$wide:path];
        $([$($Gpu:tt)*] [$($Host:tt)*];)*) => {$(
        /// A CUDA tensor with a rank-0 CPU tensor on the right.
        impl<'a, 'b, A, B, S1, S2, R1, R2> $Trait<$($Host)*> for $($Gpu)*
        where
            A: CommonType<B, S1, S2> + OperandOf<functions::$Fn>,
            B: OperandOf<functions::$Fn> + Element,
            S1: Shape,
            S2: CpuOperandOfCudaOp,
            R1: Repr,
            R2: Repr,
            functions::$Fn: BinaryFn<Common<A, S1, B, S2>, Common<A, S1, B, S2>, OutputOf<functions::$Fn, Common<A, S1, B, S2>>>,
            functions::$Fn: ElementOp<Common<A, S1, B, S2>> + $wide,
        {
            type Output = Tensor<OutputOf<functions::$Fn, Common<A, S1, B, S2>>, S1, Cuda>;
            fn $method(self, rhs: $($Host)*) -> Self::Output {
                rank_zero_operator!(@apply $apply, Common<A, S1, B, S2>,
                    self.borrow(), rhs.borrow(), functions::$Fn, Side::Right)
            }
        }
        /// A rank-0 CPU tensor on the left of a CUDA tensor.
        impl<'a, 'b, A, B, S1, S2, R1, R2> $Trait<$($Gpu)*> for $($Host)*
        where
            B: CommonType<A, S2, S1> + OperandOf<functions::$Fn>,
            A: OperandOf<functions::$Fn> + Element,
            S1: Shape,
            S2: CpuOperandOfCudaOp,
            R1: Repr,
            R2: Repr,
            functions::$Fn: BinaryFn<Common<B, S2, A, S1>, Common<B, S2, A, S1>, OutputOf<functions::$Fn, Common<B, S2, A, S1>>>,
            functions::$Fn: ElementOp<Common<B, S2, A, S1>> + $wide,
        {
            type Output = Tensor<OutputOf<functions::$Fn, Common<B, S2, A, S1>>, S1, Cuda>;
            fn $method(self, rhs: $($Gpu)*) -> Self::Output {
                rank_zero_operator!(@apply $apply, Common<B, S2, A, S1>,
                    rhs.borrow(), self.borrow(), functions::$Fn, Side::Left)
            }
        }
    )*};
    (@apply $apply:ident, $C:ty, $gpu:expr, $host:expr, $f:expr, $side:expr) => {
        $apply::<_, _, $C, _, _, _, _, _, _>($gpu, $host, $f, $side)
    };
}

rank_zero_operator!(Add, add, Add, with_rank_zero[Copy]);
rank_zero_operator!(Sub, sub, Sub, with_rank_zero[Copy]);
rank_zero_operator!(Mul, mul, Mul, with_rank_zero_wide [BinaryFn<f32, f32, f32>]);
rank_zero_operator!(Div, div, Div, with_rank_zero_wide [BinaryFn<f32, f32, f32>]);

macro_rules! rank_zero_assign {
    ($($Trait:ident, $method:ident);*) => {$(
        /// `x op= y` for a CUDA tensor `x` and a rank-0 CPU tensor `y`: `y`
        /// goes to `x`'s device (one element), then the same-device rule and
        /// kernel apply, with type promotion and the cast back into `x`'s
        /// type.
        impl<'b, T: Element, T2: Element, S1: Shape, S2: CpuOperandOfCudaOp, R1: Repr, R2: Repr>
            $Trait<&'b Tensor<T2, S2, Cpu, R2>> for Tensor<T, S1, Cuda, R1>
        where
            for<'c> Tensor<T, S1, Cuda, R1>: $Trait<&'c Tensor<T2, S2, Cuda>>,
        {
            fn $method(&mut self, rhs: &'b Tensor<T2, S2, Cpu, R2>) {
                let rhs = Cuda::open(&self.device())
                    .and_then(|gpu| rhs.to_device(&gpu))
                    .or_panic();
                self.$method(&rhs);
            }
        }
    )*};
}
rank_zero_assign!(AddAssign, add_assign; SubAssign, sub_assign; MulAssign, mul_assign; DivAssign, div_assign);

/// Comparisons of a CUDA tensor with a rank-0 CPU tensor of any element
/// type, in their common type.
impl<T, T2, S, S2, R2> Comparand<T, S, Cuda> for &Tensor<T2, S2, Cpu, R2>
where
    T: CommonType<T2, S, S2>,
    T2: Element,
    S: Shape,
    S2: CpuOperandOfCudaOp,
    R2: Repr,
{
    type Shape = S;
    type Common = Common<T, S, T2, S2>;
    fn compare<R: Repr, F: BinaryFn<Self::Common, Self::Common, bool>>(
        self,
        lhs: &Tensor<T, S, Cuda, R>,
        f: F,
    ) -> Result<PartsOf<bool, Cuda, S>, Error> {
        check_rank::<Self::Common, _, _, _>(lhs, T2::DTYPE)?;
        let value = value_of::<_, Self::Common, _, _>(self);
        let f = WithRight(InCommon::<F, Self::Common>::new(f), value);
        unary(StridedRef::new(&lhs.data, &lhs.layout), f)
    }
}
