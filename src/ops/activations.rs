//! The activations PyTorch keeps in `torch.nn.functional`: `gelu` (exact
//! and `tanh`-approximated), `silu`, `softplus`, `mish`, `elu`,
//! `leaky_relu`, `hardtanh`, `hardsigmoid`, `hardswish`, `logsigmoid`.
//!
//! They take real floating tensors ([`Activation`]; `silu` complex ones
//! too, and `hardtanh` integers, as PyTorch's), and keep the dtype; float16
//! and bfloat16 compute in float32 and round once. What PyTorch refuses
//! does not compile; `AnyTensor`'s forms return PyTorch's text.
//!
//! ```
//! use shaped::prelude::*;
//! let x = tensor![-2.0f32, 0.0, 3.0];
//! assert_eq!(x.leaky_relu(0.5).to_vec(), vec![-1.0, 0.0, 3.0]);
//! assert_eq!(x.hardsigmoid().to_vec(), vec![1.0 / 6.0, 0.5, 1.0]);
//! assert!((x.gelu().to_vec()[2] - 2.9959502).abs() < 1e-6);
//! ```

use super::functions::{UnaryFn, is_half};
use super::op_codes::{KernelOp, OpCode, Side};
use super::unary;
use crate::backend::cpu::vector_math::{self, VectorFn};
use crate::backend::{Elementwise, StridedRef};
use crate::dtype::cast::cast;
use crate::dtype::math::{Activation, ActivationMath, Clampable, FloatMath};
use crate::dtype::{DType, Element, Scalar};
use crate::error::OrPanic;
use crate::shape::Shape;
use crate::storage::Repr;
use crate::tensor::{Tensor, from_parts};

/// The kernel of an activation with up to two parameters (the fixed
/// operand and the second number), in float32 for the half types.
fn activation_op<T: 'static>(code: OpCode, params: &[f64]) -> KernelOp {
    let mut op = KernelOp::new(code);
    if let Some(&p) = params.first() {
        op = op.with_scalar(Side::Right, Scalar::Float(p));
    }
    if let Some(&q) = params.get(1) {
        op.upper = Some(Scalar::Float(q));
    }
    if is_half::<T>() {
        op.computed_in(DType::F32)
    } else {
        op
    }
}

/// Declares the element functions: `Name(params) => method, Code`.
macro_rules! activation_fns {
    ($($(#[$doc:meta])* $name:ident ($($p:ident),*) => $method:ident $(, vectorized $vector:ident)?;)*) => {$(
        $(#[$doc])*
        #[derive(Copy, Clone, Debug, Default)]
        pub struct $name {
            $(#[doc = concat!("`", stringify!($p), "`.")] pub $p: f64,)*
        }
        impl<T: Activation> UnaryFn<T, T> for $name {
            #[inline(always)]
            fn call(&self, x: T) -> T {
                let c = cast::<T, T::Compute>(x);
                cast::<T::Compute, T>(ActivationMath::$method(c $(, self.$p)*))
            }
            $(
            /// float32 runs on the vectorized kernel (the same bits).
            #[inline(always)]
            fn call_slice(&self, a: &[T], out: &mut [core::mem::MaybeUninit<T>]) {
                vector_math::map_or_each(VectorFn::$vector, a, out, |x| self.call(x))
            }
            )?
            fn kernel_op(&self) -> Option<KernelOp> {
                Some(activation_op::<T>(OpCode::$name, &[$(self.$p),*]))
            }
        }
    )*};
}

activation_fns! {
    /// `x Φ(x)` with the error function.
    Gelu() => gelu, vectorized Gelu;
    /// `gelu` approximated with `tanh`.
    GeluTanh() => gelu_tanh;
    /// `ln(1 + e^(beta x)) / beta`, `x` past the threshold.
    Softplus(beta, threshold) => softplus;
    /// `x tanh(softplus(x))`.
    Mish() => mish;
    /// `x`, or `alpha (e^x - 1)` where `x <= 0`.
    Elu(alpha) => elu;
    /// `x`, or `slope x` where `x <= 0`.
    LeakyRelu(slope) => leaky_relu;
    /// `relu6(x + 3) / 6`.
    Hardsigmoid() => hardsigmoid;
    /// `x relu6(x + 3) / 6`.
    Hardswish() => hardswish;
    /// `ln(sigmoid(x))`, computed without overflow.
    LogSigmoid() => logsigmoid;
}

/// `x / (1 + e^-x)` of real floating and complex values.
#[derive(Copy, Clone, Debug, Default)]
pub struct Silu;
impl<T: SiluElement> UnaryFn<T, T> for Silu {
    #[inline(always)]
    fn call(&self, x: T) -> T {
        x.silu()
    }
    /// float32 runs on the vectorized kernel (the same bits).
    #[inline(always)]
    fn call_slice(&self, a: &[T], out: &mut [core::mem::MaybeUninit<T>]) {
        vector_math::map_or_each(VectorFn::Silu, a, out, |x| self.call(x))
    }
    fn kernel_op(&self) -> Option<KernelOp> {
        Some(activation_op::<T>(OpCode::Silu, &[]))
    }
}

/// Element types with `silu`: real floating and complex ones.
#[diagnostic::on_unimplemented(
    message = "`silu` needs floating or complex tensors, not {Self}",
    label = "the elements are {Self}",
    note = "PyTorch raises `\"silu_cpu\" not implemented for 'Long'`; `cast::<f32>()` the tensor first"
)]
pub trait SiluElement: FloatMath {
    /// `x / (1 + e^-x)`.
    fn silu(self) -> Self;
}
macro_rules! real_silu {
    ($($t:ty),*) => {$(
        impl SiluElement for $t {
            #[inline(always)]
            fn silu(self) -> Self {
                let c = cast::<$t, <$t as Activation>::Compute>(self);
                cast(ActivationMath::silu(c))
            }
        }
    )*};
}
real_silu!(half::f16, half::bf16, f32, f64);
macro_rules! complex_silu {
    ($($r:ty),*) => {$(
        impl SiluElement for num_complex::Complex<$r> {
            /// `z / (1 + exp(-z))`, dividing as `/` does.
            #[inline(always)]
            fn silu(self) -> Self {
                let one = num_complex::Complex::new(1.0, 0.0);
                crate::dtype::complex_div(self, one + FloatMath::exp(-self))
            }
        }
    )*};
}
complex_silu!(f32, f64);

/// The activations without parameters, each with its doc lines.
macro_rules! activation_methods {
    ($($(#[$doc:meta])* $name:ident => $f:expr, $bound:ident;)*) => {
        impl<T: Element, S: Shape, D: Elementwise, R: Repr> Tensor<T, S, D, R> {$(
            $(#[$doc])*
            pub fn $name(&self) -> Tensor<T, S, D>
            where
                T: $bound,
            {
                from_parts!(unary(StridedRef::new(&self.data, &self.layout), $f).or_panic())
            }
        )*}
    };
}

activation_methods! {
    /// PyTorch's `gelu` (`approximate='none'`): `x Φ(x)`, with the error
    /// function.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// assert_eq!(tensor![0.0f64].gelu().to_vec(), vec![0.0]);
    /// ```
    gelu => Gelu {}, Activation;
    /// PyTorch's `gelu(approximate='tanh')`.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// assert!((tensor![1.0f32].gelu_tanh().to_vec()[0] - 0.841192).abs() < 1e-6);
    /// ```
    gelu_tanh => GeluTanh {}, Activation;
    /// PyTorch's `silu` (swish): `x / (1 + e^-x)`; complex tensors too.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// assert_eq!(tensor![0.0f32].silu().to_vec(), vec![0.0]);
    /// ```
    silu => Silu, SiluElement;
    /// PyTorch's `mish`: `x tanh(softplus(x))`.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// assert_eq!(tensor![0.0f32].mish().to_vec(), vec![0.0]);
    /// ```
    mish => Mish {}, Activation;
    /// PyTorch's `hardsigmoid`: `relu6(x + 3) / 6`.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// assert_eq!(tensor![-4.0f32, 3.0].hardsigmoid().to_vec(), vec![0.0, 1.0]);
    /// ```
    hardsigmoid => Hardsigmoid {}, Activation;
    /// PyTorch's `hardswish`: `x relu6(x + 3) / 6`.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// assert_eq!(tensor![-4.0f32, 3.0].hardswish().to_vec(), vec![-0.0, 3.0]);
    /// ```
    hardswish => Hardswish {}, Activation;
    /// PyTorch's `logsigmoid`: `ln(1 / (1 + e^-x))`, without overflow.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// assert_eq!(tensor![-200.0f64].logsigmoid().to_vec(), vec![-200.0]);
    /// ```
    logsigmoid => LogSigmoid {}, Activation;
}

impl<T: Element, S: Shape, D: Elementwise, R: Repr> Tensor<T, S, D, R> {
    /// PyTorch's `softplus(beta, threshold)`: `ln(1 + e^(beta x)) / beta`,
    /// and `x` itself where `beta x > threshold` (PyTorch's defaults are 1
    /// and 20).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let y = tensor![0.0f64, 30.0].softplus(1.0, 20.0).to_vec();
    /// assert_eq!(y, vec![2f64.ln(), 30.0]);
    /// ```
    pub fn softplus(&self, beta: f64, threshold: f64) -> Tensor<T, S, D>
    where
        T: Activation,
    {
        let f = Softplus { beta, threshold };
        from_parts!(unary(StridedRef::new(&self.data, &self.layout), f).or_panic())
    }

    /// PyTorch's `elu(alpha)`: `x` where `x > 0`, else `alpha (e^x - 1)`
    /// (PyTorch's default `alpha` is 1).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// assert_eq!(tensor![2.0f32, 0.0].elu(1.0).to_vec(), vec![2.0, 0.0]);
    /// ```
    pub fn elu(&self, alpha: f64) -> Tensor<T, S, D>
    where
        T: Activation,
    {
        from_parts!(unary(StridedRef::new(&self.data, &self.layout), Elu { alpha }).or_panic())
    }

    /// PyTorch's `leaky_relu(negative_slope)`: `x` where `x > 0`, else
    /// `negative_slope x` (PyTorch's default slope is 0.01).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// assert_eq!(tensor![-1.0f64, 2.0].leaky_relu(0.01).to_vec(), vec![-0.01, 2.0]);
    /// ```
    pub fn leaky_relu(&self, negative_slope: f64) -> Tensor<T, S, D>
    where
        T: Activation,
    {
        let f = LeakyRelu {
            slope: negative_slope,
        };
        from_parts!(unary(StridedRef::new(&self.data, &self.layout), f).or_panic())
    }

    /// PyTorch's `hardtanh(min_val, max_val)`: each element limited to the
    /// bounds, converted to `T` as `clamp` converts them (integer tensors
    /// keep their type, as PyTorch's; bounds outside an integer type's range
    /// are limited to it); NaN stays NaN. Not for bool or complex tensors. Panics
    /// with PyTorch's text when `min_val > max_val`.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// assert_eq!(tensor![-3.0f32, 0.5, 2.0].hardtanh(-1.0, 1.0).to_vec(), vec![-1.0, 0.5, 1.0]);
    /// assert_eq!(tensor![-3i64, 7].hardtanh(-1.5, 1.5).to_vec(), vec![-1, 1]);
    /// ```
    pub fn hardtanh(&self, min_val: f64, max_val: f64) -> Tensor<T, S, D>
    where
        T: Clampable,
    {
        assert!(
            min_val <= max_val || min_val.is_nan() || max_val.is_nan(),
            "min_val cannot be greater than max_val"
        );
        let (lo, hi) =
            super::math::clamp_bounds::<T>(Scalar::Float(min_val), Scalar::Float(max_val))
                .or_panic();
        let f = super::math::Clamp(lo, hi);
        from_parts!(unary(StridedRef::new(&self.data, &self.layout), f).or_panic())
    }
}
