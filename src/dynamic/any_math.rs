//! Elementwise math on [`AnyTensor`]: the functions of
//! [`crate::ops::math`] with the element type known at run time, failing
//! with PyTorch's texts where PyTorch refuses a dtype.
//!
//! ```
//! use shaped::prelude::*;
//! let x = AnyTensor::from(DynTensor::<i64>::from_vec(vec![1, 4], &[2]).unwrap());
//! assert_eq!(x.sqrt().unwrap().dtype(), DType::F32);
//! let z = AnyTensor::from(DynTensor::<num_complex::Complex<f32>>::ones(&[1]));
//! assert_eq!(z.floor().unwrap_err().to_string(), "floor is not supported for complex inputs");
//! ```

use super::any::{
    AnyTensor, Operand, any_tensor, number_variant, same_variant, scalar_as, scalar_dtype,
};
use super::{DynShape, DynTensor};
use crate::backend::{Elementwise, Masking, Reductions};
use crate::device::Device;
use crate::dtype::math::{Clampable, Power};
use crate::dtype::promote::OperandKind;
use crate::dtype::{DType, Scalar};
use crate::error::{Error, kernel_on};
use crate::ops::math::{Clamp, JoinDevice, PowScalar, clamp_bounds};
use crate::storage::{Repr, ViewMut};
use crate::tensor::{Tensor, from_parts};

/// PyTorch's `"kernel" not implemented for 'Type'`.
#[inline]
fn not_implemented(op: &'static str, dtype: DType) -> Error {
    Error::NotImplementedFor { op, dtype }
}

/// PyTorch's fixed text.
#[inline]
fn unsupported(message: &'static str) -> Error {
    Error::Unsupported { message }
}

/// The promotion kind of a tensor of this rank.
#[inline]
fn kind(rank: usize) -> OperandKind {
    if rank == 0 {
        OperandKind::ZeroDim
    } else {
        OperandKind::Dimensioned
    }
}

/// Runs `$body` on the typed tensor for the variants listed; any other
/// dtype gives `$err`.
macro_rules! for_variants {
    ($any:expr, |$x:ident| $body:expr; [$($v:ident),*] else |$d:ident| $err:expr) => {
        match $any {
            $(AnyTensor::$v($x) => Ok(AnyTensor::from($body)),)*
            #[allow(unreachable_patterns)]
            other => {
                let $d = other.dtype();
                Err($err)
            }
        }
    };
}

/// The unary methods, each with the variants it takes and the error for
/// the others.
macro_rules! any_unary {
    ($($(#[$doc:meta])* $name:ident: [$($v:ident),*] else |$d:ident, $device:ident| $err:expr;)*) => {
        impl<D: Elementwise, R: Repr> AnyTensor<D, R> {$(
            $(#[$doc])*
            #[inline]
            pub fn $name(&self) -> Result<AnyTensor<D>, Error> {
                let $device = self.device();
                for_variants!(self, |x| x.$name(); [$($v),*] else |$d| $err)
            }
        )*}
    };
}

/// Every variant (the transcendental functions take all twelve dtypes).
macro_rules! any_float_unary {
    ($($(#[$doc:meta])* $name:ident;)*) => {
        impl<D: Elementwise, R: Repr> AnyTensor<D, R> {$(
            $(#[$doc])*
            #[inline]
            pub fn $name(&self) -> Result<AnyTensor<D>, Error> {
                Ok(any_tensor!(@each self, x => AnyTensor::from(x.$name())))
            }
        )*}
    };
}

any_float_unary! {
    /// `e^x`; integers and bool give float32. Never fails (the `Result`
    /// keeps the unary methods alike).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = AnyTensor::from(DynTensor::<bool>::ones(&[1]));
    /// assert_eq!(x.exp().unwrap().dtype(), DType::F32);
    /// ```
    exp;
    /// The natural logarithm (PyTorch's `log`).
    ln;
    /// The base-2 logarithm.
    log2;
    /// The square root.
    sqrt;
    /// The sine.
    sin;
    /// The cosine.
    cos;
    /// The hyperbolic tangent.
    tanh;
    /// `1 / (1 + e^-x)`.
    sigmoid;
    /// `1 / x` (PyTorch's `reciprocal`).
    recip;
    /// The tangent.
    tan;
    /// The inverse sine.
    asin;
    /// The inverse cosine.
    acos;
    /// The inverse tangent.
    atan;
    /// The hyperbolic sine.
    sinh;
    /// The hyperbolic cosine.
    cosh;
    /// The inverse hyperbolic sine.
    asinh;
    /// The inverse hyperbolic cosine.
    acosh;
    /// The inverse hyperbolic tangent.
    atanh;
    /// `2^x`.
    exp2;
    /// `e^x - 1`, accurate near 0.
    expm1;
    /// The base-10 logarithm.
    log10;
    /// `ln(1 + x)`, accurate near 0.
    log1p;
    /// `1 / sqrt(x)`.
    rsqrt;
}

impl<D: Elementwise, R: Repr> AnyTensor<D, R> {
    /// `|x|`; complex tensors give their real type. `Err` for bool on the
    /// CPU, where PyTorch has no such kernel; on a GPU, PyTorch's takes bool
    /// and gives a copy.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let m = AnyTensor::from(DynTensor::<bool>::ones(&[1]));
    /// assert_eq!(m.abs().unwrap_err().to_string(), "\"abs_cpu\" not implemented for 'Bool'");
    /// ```
    #[inline]
    pub fn abs(&self) -> Result<AnyTensor<D>, Error> {
        if let (AnyTensor::Bool(x), Device::Cuda(_)) = (self, self.device()) {
            return Ok(AnyTensor::from(x.try_clone()?));
        }
        for_variants!(self, |x| x.abs(); [F16, BF16, F32, F64, C64, C128, U8, I8, I16, I32, I64]
            else |d| not_implemented("abs_cpu", d))
    }
}

any_unary! {
    /// Rounds down; `Err` for complex and bool.
    floor: [F16, BF16, F32, F64, U8, I8, I16, I32, I64] else |d, device| match d.is_complex() {
        true => unsupported("floor is not supported for complex inputs"),
        false => not_implemented(kernel_on(device, "floor_vml_cpu", "floor_cuda"), d),
    };
    /// Rounds up; `Err` for complex and bool.
    ceil: [F16, BF16, F32, F64, U8, I8, I16, I32, I64] else |d, device| match d.is_complex() {
        true => unsupported("ceil is not supported for complex inputs"),
        false => not_implemented(kernel_on(device, "ceil_vml_cpu", "ceil_cuda"), d),
    };
    /// Rounds half to even; `Err` for complex and bool.
    round: [F16, BF16, F32, F64, U8, I8, I16, I32, I64]
        else |d, device| not_implemented(kernel_on(device, "round_vml_cpu", "round_cuda"), d);
    /// `max(x, 0)`; `Err` for complex and bool.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let m = AnyTensor::from(DynTensor::<bool>::ones(&[1]));
    /// assert_eq!(m.relu().unwrap_err().to_string(), "Boolean inputs not supported for relu");
    /// ```
    relu: [F16, BF16, F32, F64, U8, I8, I16, I32, I64] else |d, _device| match d.is_complex() {
        true => unsupported("clamp is not supported for complex types"),
        false => unsupported("Boolean inputs not supported for relu"),
    };
}

any_float_unary! {
    /// Whether each element is NaN (every dtype, giving bool). Never fails.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = AnyTensor::from(DynTensor::<f64>::full(&[1], f64::NAN));
    /// assert_eq!(x.isnan().unwrap().downcast::<bool>().unwrap().to_vec(), vec![true]);
    /// ```
    isnan;
    /// Whether each element is infinite (every dtype).
    isinf;
    /// Whether each element is finite (every dtype).
    isfinite;
    /// Whether each element's imaginary part is 0 (every dtype).
    isreal;
    /// Whether each element is zero (every dtype).
    logical_not;
}

any_unary! {
    /// Whether each element is `+inf`; `Err` for complex tensors.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let z = AnyTensor::from(DynTensor::<num_complex::Complex<f64>>::ones(&[1]));
    /// assert_eq!(z.isposinf().unwrap_err().to_string(), "isposinf does not support complex inputs.");
    /// ```
    isposinf: [F16, BF16, F32, F64, U8, I8, I16, I32, I64, Bool]
        else |_d, _device| unsupported("isposinf does not support complex inputs.");
    /// Whether each element is `-inf`; `Err` for complex tensors.
    isneginf: [F16, BF16, F32, F64, U8, I8, I16, I32, I64, Bool]
        else |_d, _device| unsupported("isneginf does not support complex inputs.");
    /// Every bit flipped (`not` for bool); `Err` for floating and complex
    /// tensors.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = AnyTensor::from(DynTensor::<f32>::ones(&[1]));
    /// assert_eq!(x.bitwise_not().unwrap_err().to_string(), "\"bitwise_not_cpu\" not implemented for 'Float'");
    /// ```
    bitwise_not: [U8, I8, I16, I32, I64, Bool]
        else |d, device| not_implemented(kernel_on(device, "bitwise_not_cpu", "bitwise_not_cuda"), d);
}

impl<D: Elementwise, R: Repr> AnyTensor<D, R> {
    /// Whether each pair of elements is close: `|a - b| <= atol + rtol *
    /// |b|`, or equal (equal infinities included), or both NaN with
    /// `equal_nan` (PyTorch's `isclose`, computed as PyTorch composes it:
    /// integers and bool in float32 unless both tolerances are 0, where
    /// they compare exactly; an error that overflows to infinity is not
    /// close). Both tensors must have one dtype; their shapes broadcast.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let a = AnyTensor::from(DynTensor::<f32>::from_vec(vec![1.0, f32::NAN], &[2]).unwrap());
    /// let b = AnyTensor::from(DynTensor::<f32>::from_vec(vec![1.000001, f32::NAN], &[2]).unwrap());
    /// let close = a.isclose(&b, 1e-5, 1e-8, true).unwrap();
    /// assert_eq!(close.downcast::<bool>().unwrap().to_vec(), vec![true, true]);
    /// let d = AnyTensor::from(DynTensor::<f64>::ones(&[2]));
    /// assert_eq!(a.isclose(&d, 1e-5, 1e-8, false).unwrap_err().to_string(), "Float did not match Double");
    /// ```
    pub fn isclose<R2: Repr>(
        &self,
        other: &AnyTensor<D, R2>,
        rtol: f64,
        atol: f64,
        equal_nan: bool,
    ) -> Result<AnyTensor<D>, Error> {
        let dtype = self.dtype();
        if dtype != other.dtype() {
            return Err(Error::CloseDTypes {
                a: dtype,
                b: other.dtype(),
            });
        }
        for (which, value) in [("rtol", rtol), ("atol", atol)] {
            if value.is_nan() || value < 0.0 {
                return Err(Error::NegativeTolerance {
                    which,
                    bits: value.to_bits(),
                });
            }
        }
        let inexact = dtype.is_floating_point() || dtype.is_complex();
        let mut close = self.try_eq(other)?;
        if equal_nan && inexact {
            close = close.try_logical_or(&self.isnan()?.try_logical_and(&other.isnan()?)?)?;
        }
        if rtol == 0.0 && atol == 0.0 {
            return Ok(close);
        }
        let computed_in = if inexact { dtype } else { DType::F32 };
        let (a, b) = (self.as_dtype(computed_in)?, other.as_dtype(computed_in)?);
        let (a, b) = (a.view(), b.view());
        let allowed = b
            .try_mul(Scalar::Float(rtol))?
            .abs()?
            .try_add(Scalar::Float(atol))?;
        let actual = a.try_sub(&b)?.abs()?;
        close.try_logical_or(
            &actual
                .isfinite()?
                .try_logical_and(&actual.try_le(&allowed)?)?,
        )
    }
}

impl<D: Elementwise + Reductions, R: Repr> AnyTensor<D, R> {
    /// Whether every pair of elements is close ([`isclose`](Self::isclose)
    /// of all of them; `true` for no elements).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let a = AnyTensor::from(DynTensor::<i64>::from_vec(vec![10, 20], &[2]).unwrap());
    /// let b = AnyTensor::from(DynTensor::<i64>::from_vec(vec![11, 20], &[2]).unwrap());
    /// assert!(a.allclose(&b, 0.1, 0.0, false).unwrap());
    /// assert!(!a.allclose(&b, 0.0, 0.5, false).unwrap());
    /// ```
    pub fn allclose<R2: Repr>(
        &self,
        other: &AnyTensor<D, R2>,
        rtol: f64,
        atol: f64,
        equal_nan: bool,
    ) -> Result<bool, Error> {
        let close = self.isclose(other, rtol, atol, equal_nan)?;
        every(close)
    }

    /// Whether both tensors have the same sizes and equal elements (in
    /// their common type; NaN equals nothing), PyTorch's `equal`.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let a = AnyTensor::from(DynTensor::<i32>::from_vec(vec![1, 2], &[2]).unwrap());
    /// let b = AnyTensor::from(DynTensor::<f64>::from_vec(vec![1.0, 2.0], &[2]).unwrap());
    /// assert!(a.equal(&b).unwrap());
    /// assert!(!a.equal(&AnyTensor::from(DynTensor::<i32>::ones(&[1, 2]))).unwrap());
    /// ```
    pub fn equal<R2: Repr>(&self, other: &AnyTensor<D, R2>) -> Result<bool, Error> {
        if self.shape() != other.shape() {
            return Ok(false);
        }
        every(self.try_eq(other)?)
    }
}

/// Whether every element of a bool tensor is true.
fn every<D: Elementwise + Reductions>(flags: AnyTensor<D>) -> Result<bool, Error> {
    let flags = flags.downcast::<bool>()?;
    let all = flags.all_all();
    D::item(all.strided())
}

/// `t.clamp(min, max)` with the bounds converted to `t`'s element type.
fn clamp_in_own_type<T: Clampable, D: Elementwise, R: Repr>(
    t: &Tensor<T, DynShape, D, R>,
    min: Scalar,
    max: Scalar,
) -> Result<DynTensor<T, D>, Error> {
    let (lo, hi) = clamp_bounds(min, max)?;
    let parts = crate::ops::unary(t.strided(), Clamp(lo, hi))?;
    Ok(from_parts!(parts))
}

/// `t^e` for a number `e` converted to `t`'s element type.
fn pow_number<T: Power, D: Elementwise, R: Repr>(
    t: &Tensor<T, DynShape, D, R>,
    e: Scalar,
) -> Result<DynTensor<T, D>, Error> {
    let parts = crate::ops::unary(t.strided(), PowScalar(scalar_as(e)))?;
    Ok(from_parts!(parts))
}

/// The binary operations with a promoted common type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum MathOp {
    Maximum,
    Minimum,
    Pow,
}

impl<D: Elementwise, R: Repr> AnyTensor<D, R> {
    /// The common type of `self` and `rhs` (PyTorch's `result_type`), `rhs`
    /// a tensor or a number.
    #[inline]
    pub(crate) fn common_type(&self, rhs: &Operand<'_, D>) -> DType {
        let lhs = (self.dtype(), kind(self.rank()));
        match rhs {
            Operand::Tensor(t) => DType::result_type(lhs, (t.dtype(), kind(t.rank()))),
            Operand::Number(s) => DType::result_type(lhs, (scalar_dtype(*s), OperandKind::Scalar)),
        }
    }

    #[inline]
    fn math_binary(&self, rhs: Operand<'_, D>, op: MathOp) -> Result<AnyTensor<D>, Error> {
        let common = self.common_type(&rhs);
        match op {
            MathOp::Maximum | MathOp::Minimum if common.is_complex() => {
                return Err(unsupported(match op {
                    MathOp::Maximum => "maximum not implemented for complex tensors.",
                    _ => "minimum not implemented for complex tensors.",
                }));
            }
            MathOp::Pow if common == DType::Bool => {
                let name = kernel_on(self.device(), "pow", "pow_cuda");
                return Err(not_implemented(name, common));
            }
            MathOp::Pow => {
                let negative = matches!(rhs, Operand::Number(Scalar::Int(e)) if e < 0);
                if negative && common.category() == 1 {
                    return Err(unsupported(
                        "Integers to negative integer powers are not allowed.",
                    ));
                }
            }
            _ => {}
        }
        let a = self.as_dtype(common)?;
        let b = match &rhs {
            Operand::Tensor(t) => t.as_dtype(common)?,
            Operand::Number(e) => {
                return for_variants!(&a.view(), |t| pow_number(t, *e)?;
                    [F16, BF16, F32, F64, C64, C128, U8, I8, I16, I32, I64]
                    else |d| not_implemented("pow", d));
            }
        };
        let (a, b) = (&a.view(), &b.view());
        Ok(match op {
            MathOp::Maximum => same_variant!(a, b, |x, y| x.try_maximum(y);
                F16, BF16, F32, F64, U8, I8, I16, I32, I64, Bool),
            MathOp::Minimum => same_variant!(a, b, |x, y| x.try_minimum(y);
                F16, BF16, F32, F64, U8, I8, I16, I32, I64, Bool),
            MathOp::Pow => same_variant!(a, b, |x, y| x.try_pow(y);
                F16, BF16, F32, F64, C64, C128, U8, I8, I16, I32, I64),
        })
    }

    /// The larger element of `self` and `rhs`, broadcast and promoted;
    /// `Err` for complex values, or shapes that do not broadcast.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let a = AnyTensor::from(DynTensor::<i32>::from_vec(vec![1, 5], &[2]).unwrap());
    /// let b = AnyTensor::from(DynTensor::<f32>::full(&[1], 2.5));
    /// let m = a.try_maximum(&b).unwrap();
    /// assert_eq!(m.downcast::<f32>().unwrap().to_vec(), vec![2.5, 5.0]);
    /// ```
    #[inline]
    pub fn try_maximum<R2: Repr>(&self, rhs: &AnyTensor<D, R2>) -> Result<AnyTensor<D>, Error> {
        self.math_binary(Operand::from(rhs), MathOp::Maximum)
    }

    /// The smaller element of `self` and `rhs`, broadcast and promoted;
    /// `Err` for complex values, or shapes that do not broadcast.
    #[inline]
    pub fn try_minimum<R2: Repr>(&self, rhs: &AnyTensor<D, R2>) -> Result<AnyTensor<D>, Error> {
        self.math_binary(Operand::from(rhs), MathOp::Minimum)
    }

    /// `self` to the power `rhs` (a tensor or a number), broadcast and
    /// promoted; `Err` for bool, and for an integer tensor to a negative
    /// integer number, as PyTorch.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// use shaped::dtype::Scalar;
    /// let a = AnyTensor::from(DynTensor::<i32>::full(&[2], 3));
    /// assert_eq!(a.try_pow(Scalar::Int(2)).unwrap().downcast::<i32>().unwrap().to_vec(), vec![9, 9]);
    /// assert_eq!(
    ///     a.try_pow(Scalar::Int(-1)).unwrap_err().to_string(),
    ///     "Integers to negative integer powers are not allowed."
    /// );
    /// ```
    pub fn try_pow<'a>(&self, rhs: impl Into<Operand<'a, D>>) -> Result<AnyTensor<D>, Error> {
        self.math_binary(rhs.into(), MathOp::Pow)
    }

    /// Each element limited to `[min, max]` (numbers, promoted as
    /// PyTorch's scalars); `Err` for complex and bool results.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// use shaped::dtype::Scalar;
    /// let a = AnyTensor::from(DynTensor::<i64>::from_vec(vec![-4, 9], &[2]).unwrap());
    /// let c = a.clamp(Scalar::Int(0), Scalar::Float(2.5)).unwrap();
    /// assert_eq!(c.downcast::<f32>().unwrap().to_vec(), vec![0.0, 2.5]);
    /// ```
    #[inline]
    pub fn clamp(&self, min: Scalar, max: Scalar) -> Result<AnyTensor<D>, Error> {
        let bounds = DType::promote(scalar_dtype(min), scalar_dtype(max));
        let common = DType::result_type(
            (self.dtype(), kind(self.rank())),
            (bounds, OperandKind::Scalar),
        );
        if common.is_complex() {
            return Err(unsupported("clamp is not supported for complex types"));
        }
        let x = self.as_dtype(common)?;
        for_variants!(&x.view(), |t| clamp_in_own_type(t, min, max)?;
            [F16, BF16, F32, F64, U8, I8, I16, I32, I64]
            else |d| not_implemented(kernel_on(self.device(), "clamp_scalar_cpu", "clamp_scalar_cuda"), d))
    }

    /// `self` to the power `e`, a float: integer and bool tensors give
    /// float32. Never fails (the `Result` keeps the methods alike).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let a = AnyTensor::from(DynTensor::<u8>::full(&[1], 4));
    /// assert_eq!(a.powf(0.5).unwrap().downcast::<f32>().unwrap().to_vec(), vec![2.0]);
    /// ```
    #[inline]
    pub fn powf(&self, e: f64) -> Result<AnyTensor<D>, Error> {
        self.math_binary(Operand::Number(Scalar::Float(e)), MathOp::Pow)
    }

    /// `where(cond, a, b)` with runtime dtypes: `cond` must be bool; `a`
    /// and `b` are promoted to their common type and the three broadcast.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let c = AnyTensor::from(DynTensor::<i32>::ones(&[2]));
    /// let x = AnyTensor::from(DynTensor::<f32>::ones(&[2]));
    /// assert_eq!(
    ///     AnyTensor::where_(&c, &x, &x).unwrap_err().to_string(),
    ///     "where expected condition to be a boolean tensor, but got a tensor with dtype Int"
    /// );
    /// ```
    #[inline]
    pub fn where_<R2: Repr, R3: Repr>(
        cond: &AnyTensor<D, R>,
        a: &AnyTensor<D, R2>,
        b: &AnyTensor<D, R3>,
    ) -> Result<AnyTensor<D>, Error>
    where
        D: JoinDevice<D, Out = D>,
    {
        let AnyTensor::Bool(cond) = cond else {
            return Err(Error::WhereCondition {
                dtype: cond.dtype(),
            });
        };
        let common = a.common_type(&Operand::from(b));
        let (a, b) = (a.as_dtype(common)?, b.as_dtype(common)?);
        let (a, b) = (&a.view(), &b.view());
        Ok(
            same_variant!(a, b, |x, y| crate::ops::math::try_where(cond, x, y);
            F16, BF16, F32, F64, C64, C128, U8, I8, I16, I32, I64, Bool),
        )
    }
}

/// `f(x, s)` for a number `s` converted to `T`; `ZeroDivisionError` for an
/// integer 0 (an int64 256 is 0 in int8, as in PyTorch).
fn divide_by_number<T, D, R, F>(
    x: &Tensor<T, DynShape, D, R>,
    f: F,
    s: Scalar,
) -> Result<DynTensor<T, D>, Error>
where
    T: crate::dtype::math::Modular,
    D: Elementwise,
    R: Repr,
    F: crate::ops::functions::BinaryFn<T, T, T>,
{
    let n: T = scalar_as(s);
    if x.numel() > 0 {
        crate::ops::division::check_number_divisor(n)?;
    }
    let f = crate::ops::functions::WithRight(f, n);
    Ok(from_parts!(crate::ops::unary(x.strided(), f)?))
}

/// `remainder`, `fmod` and `floor_divide` of [`AnyTensor`]s.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Division {
    Remainder,
    Fmod,
    FloorDivide,
}

impl Division {
    /// PyTorch's CPU and CUDA kernel names, for its "not implemented"
    /// texts.
    fn kernels(self) -> (&'static str, &'static str) {
        match self {
            Division::Remainder => ("remainder_cpu", "remainder_cuda"),
            Division::Fmod => ("fmod_cpu", "fmod_cuda"),
            Division::FloorDivide => ("div_floor_cpu", "div_floor_cuda"),
        }
    }
}

impl<D: Reductions, R: Repr> AnyTensor<D, R> {
    /// `self op rhs` in the common type: PyTorch's order of checks (the
    /// shapes, the dtype's kernel, then an integer divisor of 0).
    fn division(&self, rhs: Operand<'_, D>, op: Division) -> Result<AnyTensor<D>, Error> {
        if let Operand::Tensor(t) = &rhs {
            crate::shape::broadcast_sizes(&self.shape(), &t.shape())?;
        }
        let common = self.common_type(&rhs);
        if common == DType::Bool || common.is_complex() {
            let (cpu, cuda) = op.kernels();
            return Err(not_implemented(kernel_on(self.device(), cpu, cuda), common));
        }
        let a = self.as_dtype(common)?;
        let a = &a.view();
        use crate::ops::functions::{FloorDivide, Fmod, Remainder};
        /// The typed method on two tensors of one variant, or the function
        /// with a number.
        macro_rules! divide {
            ($method:ident, $f:expr) => {
                match &rhs {
                    Operand::Tensor(t) => {
                        let b = t.as_dtype(common)?;
                        same_variant!(a, &b.view(), |x, y| x.$method(y);
                            F16, BF16, F32, F64, U8, I8, I16, I32, I64)
                    }
                    Operand::Number(s) => number_variant!(@with divide_by_number, a, *s, $f;
                        F16, BF16, F32, F64, U8, I8, I16, I32, I64),
                }
            };
        }
        Ok(match op {
            Division::Remainder => divide!(try_remainder, Remainder),
            Division::Fmod => divide!(try_fmod, Fmod),
            Division::FloorDivide => divide!(try_floor_divide, FloorDivide),
        })
    }

    /// `self op rhs` for storing into `self`, in `self`'s dtype: the common
    /// type must be storable in it.
    fn division_for_self(&self, rhs: Operand<'_, D>, op: Division) -> Result<AnyTensor<D>, Error> {
        if let Operand::Tensor(t) = &rhs {
            crate::shape::check_in_place(&self.shape(), &t.shape())?;
        }
        let common = self.common_type(&rhs);
        if !common.can_cast_to(self.dtype()) {
            return Err(Error::CastForbidden {
                from: common,
                to: self.dtype(),
            });
        }
        let result = self.division(rhs, op)?;
        let dtype = self.dtype();
        if result.dtype() == dtype {
            Ok(result)
        } else {
            result.try_to_dtype(dtype)
        }
    }
}

impl<D: Reductions> AnyTensor<D> {
    /// `self op= rhs` (the result replaces the buffer); `self` is unchanged
    /// on error.
    fn division_in_place(&mut self, rhs: Operand<'_, D>, op: Division) -> Result<(), Error> {
        *self = self.division_for_self(rhs, op)?;
        Ok(())
    }
}

impl<D: Reductions + Masking> AnyTensor<D, ViewMut<'_>> {
    /// `self op= rhs` through a writable view; the elements are unchanged
    /// on error.
    fn division_in_place(&mut self, rhs: Operand<'_, D>, op: Division) -> Result<(), Error> {
        let result = self.division_for_self(rhs, op)?;
        self.copy_(&result)
    }
}

/// The public division methods, each with its doc line.
macro_rules! division_methods {
    ($($(#[$doc:meta])* $name:ident, $assign:ident => $op:ident;)*) => {
        impl<D: Reductions, R: Repr> AnyTensor<D, R> {$(
            $(#[$doc])*
            #[inline]
            pub fn $name<'a>(&self, rhs: impl Into<Operand<'a, D>>) -> Result<AnyTensor<D>, Error>
            where
                D: 'a,
            {
                self.division(rhs.into(), Division::$op)
            }
        )*}

        impl<D: Reductions> AnyTensor<D> {$(

            #[doc = concat!("[`", stringify!($name), "`](Self::", stringify!($name), ") in place: `rhs` broadcasts to `self`'s shape and the common type must be storable in `self`'s dtype; `self` is unchanged on error.")]
            ///
            /// ```
            /// use shaped::prelude::*;
            /// use shaped::dtype::Scalar;
            /// let mut x = AnyTensor::from(DynTensor::<i32>::full(&[2], 7));
            #[doc = concat!("x.", stringify!($assign), "(Scalar::Int(4)).unwrap();")]
            #[doc = concat!("assert_eq!(x.", stringify!($assign), "(Scalar::Float(2.5)).unwrap_err().to_string(), \"result type Float can't be cast to the desired output type Int\");")]
            /// ```
            #[inline]
            pub fn $assign<'a>(&mut self, rhs: impl Into<Operand<'a, D>>) -> Result<(), Error>
            where
                D: 'a,
            {
                self.division_in_place(rhs.into(), Division::$op)
            }
        )*}

        /// The in-place divisions through a writable view.
        impl<D: Reductions + Masking> AnyTensor<D, ViewMut<'_>> {$(
            #[doc = concat!("[`", stringify!($name), "`](AnyTensor::", stringify!($name), ") in place through the view; `Err` leaves the elements unchanged.")]
            #[inline]
            pub fn $assign<'a>(&mut self, rhs: impl Into<Operand<'a, D>>) -> Result<(), Error>
            where
                D: 'a,
            {
                self.division_in_place(rhs.into(), Division::$op)
            }
        )*}
    };
}

division_methods! {
    /// PyTorch's `remainder` (Python's `%`: the sign of the divisor), with
    /// broadcasting and promotion; PyTorch's texts for bool and complex
    /// dtypes and `ZeroDivisionError` for an integer divisor of 0.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// use shaped::dtype::Scalar;
    /// let x = AnyTensor::from(DynTensor::<i64>::from_vec(vec![-7, 7], &[2]).unwrap());
    /// assert_eq!(x.try_remainder(Scalar::Int(3)).unwrap().to_scalars(), vec![Scalar::Int(2), Scalar::Int(1)]);
    /// assert_eq!(x.try_remainder(Scalar::Int(0)).unwrap_err().to_string(), "ZeroDivisionError");
    /// let b = AnyTensor::from(DynTensor::<bool>::full(&[1], true));
    /// assert_eq!(b.try_remainder(&b).unwrap_err().to_string(), "\"remainder_cpu\" not implemented for 'Bool'");
    /// ```
    try_remainder, try_remainder_assign => Remainder;
    /// PyTorch's `fmod` (C's `fmod`: the sign of the dividend).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// use shaped::dtype::Scalar;
    /// let x = AnyTensor::from(DynTensor::<i64>::from_vec(vec![-7, 7], &[2]).unwrap());
    /// assert_eq!(x.try_fmod(Scalar::Int(3)).unwrap().to_scalars(), vec![Scalar::Int(-1), Scalar::Int(1)]);
    /// ```
    try_fmod, try_fmod_assign => Fmod;
    /// PyTorch's `floor_divide` (Python's `//`).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// use shaped::dtype::Scalar;
    /// let x = AnyTensor::from(DynTensor::<f32>::from_vec(vec![-5.5, 5.5], &[2]).unwrap());
    /// assert_eq!(x.try_floor_divide(Scalar::Float(2.0)).unwrap().to_scalars(), vec![Scalar::Float(-3.0), Scalar::Float(2.0)]);
    /// ```
    try_floor_divide, try_floor_divide_assign => FloorDivide;
}

/// The activations of real floating tensors, each with PyTorch's CPU and
/// CUDA kernel names for its "not implemented" text.
macro_rules! any_activation {
    ($($(#[$doc:meta])* $name:ident ($($p:ident: $t:ty),*) => $cpu:literal, $cuda:literal;)*) => {
        impl<D: Elementwise, R: Repr> AnyTensor<D, R> {$(
            $(#[$doc])*
            #[inline]
            pub fn $name(&self, $($p: $t),*) -> Result<AnyTensor<D>, Error> {
                let device = self.device();
                for_variants!(self, |x| x.$name($($p),*); [F16, BF16, F32, F64]
                    else |d| not_implemented(kernel_on(device, $cpu, $cuda), d))
            }
        )*}
    };
}

any_activation! {
    /// PyTorch's `gelu` with `approximate='tanh'` ([`gelu`](Self::gelu)
    /// takes the name).
    gelu_tanh() => "GeluKernelImpl", "GeluCUDAKernelImpl";
    /// PyTorch's `mish`: `x tanh(softplus(x))`.
    mish() => "mish_cpu", "mish_cuda";
    /// PyTorch's `hardsigmoid`.
    hardsigmoid() => "hardsigmoid_cpu", "hardsigmoid_cuda";
    /// PyTorch's `hardswish`.
    hardswish() => "hardswish_cpu", "hardswish_cuda";
    /// PyTorch's `logsigmoid`.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = AnyTensor::from(DynTensor::<i64>::ones(&[1]));
    /// assert_eq!(x.logsigmoid().unwrap_err().to_string(), "\"log_sigmoid_cpu\" not implemented for 'Long'");
    /// ```
    logsigmoid() => "log_sigmoid_cpu", "log_sigmoid_forward_cuda";
    /// PyTorch's `softplus(beta, threshold)`.
    softplus(beta: f64, threshold: f64) => "softplus_cpu", "softplus_cuda";
    /// PyTorch's `elu(alpha)`.
    elu(alpha: f64) => "elu_cpu", "elu_cuda";
    /// PyTorch's `leaky_relu(negative_slope)`.
    leaky_relu(negative_slope: f64) => "leaky_relu_cpu", "leaky_relu_cuda";
}

impl<D: Elementwise, R: Repr> AnyTensor<D, R> {
    /// PyTorch's `gelu(approximate)`: `"none"` (the error function) or
    /// `"tanh"`; another name is PyTorch's error, checked first.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = AnyTensor::from(DynTensor::<f32>::zeros(&[2]));
    /// assert_eq!(x.gelu("none").unwrap().dtype(), DType::F32);
    /// assert_eq!(x.gelu("erf").unwrap_err().to_string(), "approximate argument must be either none or tanh.");
    /// ```
    #[inline]
    pub fn gelu(&self, approximate: &str) -> Result<AnyTensor<D>, Error> {
        let device = self.device();
        let refused =
            |d| not_implemented(kernel_on(device, "GeluKernelImpl", "GeluCUDAKernelImpl"), d);
        match approximate {
            "none" => for_variants!(self, |x| x.gelu(); [F16, BF16, F32, F64] else |d| refused(d)),
            "tanh" => self.gelu_tanh(),
            _ => Err(unsupported(
                "approximate argument must be either none or tanh.",
            )),
        }
    }

    /// PyTorch's `silu`: real floating and complex tensors.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = AnyTensor::from(DynTensor::<bool>::ones(&[1]));
    /// assert_eq!(x.silu().unwrap_err().to_string(), "\"silu_cpu\" not implemented for 'Bool'");
    /// ```
    #[inline]
    pub fn silu(&self) -> Result<AnyTensor<D>, Error> {
        let device = self.device();
        for_variants!(self, |x| x.silu(); [F16, BF16, F32, F64, C64, C128]
            else |d| not_implemented(kernel_on(device, "silu_cpu", "silu_cuda"), d))
    }

    /// PyTorch's `hardtanh(min_val, max_val)`: integer and real floating
    /// tensors keep their dtype; PyTorch's texts for `min_val > max_val`,
    /// bool and complex tensors.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = AnyTensor::from(DynTensor::<f32>::zeros(&[1]));
    /// assert_eq!(x.hardtanh(2.0, 1.0).unwrap_err().to_string(), "min_val cannot be greater than max_val");
    /// ```
    #[inline]
    pub fn hardtanh(&self, min_val: f64, max_val: f64) -> Result<AnyTensor<D>, Error> {
        if min_val > max_val {
            return Err(unsupported("min_val cannot be greater than max_val"));
        }
        for_variants!(self, |x| x.hardtanh(min_val, max_val);
        [F16, BF16, F32, F64, U8, I8, I16, I32, I64]
        else |d| unsupported(if d == DType::Bool {
            "Bool inputs not supported for hardtanh"
        } else {
            "clamp is not supported for complex types"
        }))
    }
}

/// The special functions of real tensors (integers and bool give
/// float32), each with PyTorch's CPU and CUDA kernel names for its text on
/// complex tensors.
macro_rules! any_special {
    ($($(#[$doc:meta])* $name:ident => $cpu:literal, $cuda:literal;)*) => {
        any_unary! {$(
            $(#[$doc])*
            $name: [F16, BF16, F32, F64, U8, I8, I16, I32, I64, Bool]
                else |d, device| not_implemented(kernel_on(device, $cpu, $cuda), d);
        )*}
    };
}

any_special! {
    /// The error function; `Err` for complex tensors.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let z = AnyTensor::from(DynTensor::<num_complex::Complex<f32>>::ones(&[1]));
    /// assert_eq!(z.erf().unwrap_err().to_string(), "\"erf_vml_cpu\" not implemented for 'ComplexFloat'");
    /// ```
    erf => "erf_vml_cpu", "erf_cuda";
    /// `1 - erf(x)`; `Err` for complex tensors.
    erfc => "erfc_vml_cpu", "erfc_cuda";
    /// The inverse error function; `Err` for complex tensors.
    erfinv => "erfinv_vml_cpu", "erfinv_cuda";
    /// `ln |Γ(x)|`; `Err` for complex tensors.
    lgamma => "lgamma_vml_cpu", "lgamma_cuda";
    /// `Γ'(x) / Γ(x)`; `Err` for complex tensors.
    digamma => "digamma", "digamma_cuda";
}

any_unary! {
    /// Degrees to radians (integers and bool give float32); `Err` for
    /// complex tensors.
    deg2rad: [F16, BF16, F32, F64, U8, I8, I16, I32, I64, Bool]
        else |_d, _device| unsupported("deg2rad is not supported for complex tensors.");
    /// Radians to degrees (integers and bool give float32); `Err` for
    /// complex tensors.
    rad2deg: [F16, BF16, F32, F64, U8, I8, I16, I32, I64, Bool]
        else |_d, _device| unsupported("rad2deg is not supported for complex tensors.");
    /// Rounds toward zero; `Err` for complex and bool tensors.
    trunc: [F16, BF16, F32, F64, U8, I8, I16, I32, I64] else |d, device| match d.is_complex() {
        true => unsupported("trunc is not supported for complex inputs"),
        false => not_implemented(kernel_on(device, "trunc_vml_cpu", "trunc_cuda"), d),
    };
    /// `x - trunc(x)`; `Err` for all but the real floating dtypes.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = AnyTensor::from(DynTensor::<i64>::ones(&[1]));
    /// assert_eq!(x.frac().unwrap_err().to_string(), "\"frac_cpu\" not implemented for 'Long'");
    /// ```
    frac: [F16, BF16, F32, F64] else |d, device| not_implemented(kernel_on(device, "frac_cpu", "frac_cuda"), d);
    /// 1, -1 or 0 in the same dtype; `Err` for complex tensors (PyTorch's
    /// text points to `sgn`).
    sign: [F16, BF16, F32, F64, U8, I8, I16, I32, I64, Bool] else |_d, _device| unsupported(
        "Unlike NumPy, torch.sign is not intended to support complex numbers. Please use torch.sgn instead."
    );
    /// Whether the sign bit is set (bool); `Err` for complex tensors.
    signbit: [F16, BF16, F32, F64, U8, I8, I16, I32, I64, Bool]
        else |_d, _device| unsupported("signbit is not implemented for complex tensors.");
}

any_float_unary! {
    /// `sin(pi x) / (pi x)`, 1 at 0; integers and bool give float32. Never
    /// fails.
    sinc;
    /// The sign, or `z / |z|` for complex tensors. Never fails.
    sgn;
    /// `x * x`; bool gives int64. Never fails.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let m = AnyTensor::from(DynTensor::<bool>::ones(&[1]));
    /// assert_eq!(m.square().unwrap().dtype(), DType::I64);
    /// ```
    square;
}

impl<D: Elementwise, R: Repr> AnyTensor<D, R> {
    /// PyTorch's `nan_to_num(nan, posinf, neginf)` on any dtype (integers
    /// and bool copied unchanged). Never fails.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = AnyTensor::from(DynTensor::<f32>::full(&[1], f32::NEG_INFINITY));
    /// let y = x.nan_to_num(0.0, None, None).unwrap();
    /// assert_eq!(y.downcast::<f32>().unwrap().to_vec(), vec![f32::MIN]);
    /// ```
    #[inline]
    pub fn nan_to_num(
        &self,
        nan: f64,
        posinf: Option<f64>,
        neginf: Option<f64>,
    ) -> Result<AnyTensor<D>, Error> {
        Ok(any_tensor!(@each self, x => AnyTensor::from(x.nan_to_num(nan, posinf, neginf))))
    }
}

impl<D: Elementwise, R: Repr> AnyTensor<D, R> {
    /// PyTorch's `float_power`: `self` to the power `rhs` (a tensor or a
    /// number) in float64, or complex128 when either is complex, both
    /// converted first; with broadcasting, and PyTorch's message when the
    /// shapes do not broadcast.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// use shaped::dtype::Scalar;
    /// let x = AnyTensor::from(DynTensor::<i64>::from_vec(vec![2, 3], &[2]).unwrap());
    /// let p = x.try_float_power(Scalar::Float(2.0)).unwrap();
    /// assert_eq!(p.dtype(), DType::F64);
    /// assert_eq!(p.to_scalars(), vec![Scalar::Float(4.0), Scalar::Float(9.0)]);
    /// ```
    pub fn try_float_power<'a>(
        &self,
        rhs: impl Into<Operand<'a, D>>,
    ) -> Result<AnyTensor<D>, Error> {
        let rhs = rhs.into();
        let complex = self.dtype().is_complex()
            || match &rhs {
                Operand::Tensor(t) => t.dtype().is_complex(),
                Operand::Number(s) => matches!(s, Scalar::Complex(..)),
            };
        let dtype = if complex { DType::C128 } else { DType::F64 };
        let base = self.try_to_dtype(dtype)?;
        match rhs {
            Operand::Tensor(t) => base.try_pow(&t.try_to_dtype(dtype)?),
            Operand::Number(e) => base.try_pow(e),
        }
    }
}
