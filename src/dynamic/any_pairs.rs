//! The functions of two tensors ([`crate::ops::pairs`]) on [`AnyTensor`]:
//! `atan2`, `hypot`, `copysign`, `nextafter`, `logaddexp`, `logaddexp2`
//! and `xlogy`, with PyTorch's promotion and its texts where it refuses a
//! dtype.
//!
//! ```
//! use shaped::prelude::*;
//! let i = AnyTensor::from(DynTensor::<i64>::from_vec(vec![3, 4], &[2]).unwrap());
//! assert_eq!(i.try_atan2(&i).unwrap().dtype(), DType::F32);
//! assert_eq!(
//!     i.try_hypot(&i).unwrap_err().to_string(),
//!     "\"hypot_cpu\" not implemented for 'Long'"
//! );
//! ```

use super::any::{AnyTensor, Operand, same_variant, scalar_as};
use super::{DynShape, DynTensor};
use crate::backend::Elementwise;
use crate::dtype::{DType, Element, Scalar};
use crate::error::{Error, kernel_on};
use crate::ops::functions::{BinaryFn, WithLeft, WithRight};
use crate::ops::math::Pow;
use crate::ops::pairs::{Copysign, Xlogy};
use crate::storage::Repr;
use crate::tensor::{Tensor, from_parts};

/// `f(t, number)`, or `f(number, t)` when `left`: the number converted to
/// `T` first, as PyTorch converts a number to the common dtype.
fn with_number<T: Element, D: Elementwise, R: Repr, F: BinaryFn<T, T, T>>(
    t: &Tensor<T, DynShape, D, R>,
    f: F,
    number: Scalar,
    left: bool,
) -> Result<DynTensor<T, D>, Error> {
    let n: T = scalar_as(number);
    let parts = if left {
        crate::ops::unary(t.strided(), WithLeft(f, n))?
    } else {
        crate::ops::unary(t.strided(), WithRight(f, n))?
    };
    Ok(from_parts!(parts))
}

/// Which function, and so which dtypes it takes.
#[derive(Copy, Clone, PartialEq, Eq)]
enum Pair {
    Atan2,
    Hypot,
    Copysign,
    Nextafter,
    LogAddExp,
    LogAddExp2,
    Xlogy,
}

impl Pair {
    /// PyTorch's kernel names on the CPU and on CUDA.
    fn kernels(self) -> (&'static str, &'static str) {
        match self {
            Pair::Atan2 => ("atan2_cpu", "atan2_cuda"),
            Pair::Hypot => ("hypot_cpu", "hypot_cuda"),
            Pair::Copysign => ("copysign_cpu", "copysign_cuda"),
            Pair::Nextafter => ("nextafter_cpu", "nextafter_cuda"),
            Pair::LogAddExp => ("logaddexp_cpu", "logaddexp_cuda"),
            Pair::LogAddExp2 => ("logaddexp2_cpu", "logaddexp2_cuda"),
            Pair::Xlogy => ("xlogy_cpu", "xlogy_cuda"),
        }
    }

    /// The type the function computes in and gives for operands of the
    /// common type `common`, or `None` where PyTorch refuses it.
    fn compute_type(self, common: DType) -> Option<DType> {
        match self {
            Pair::Atan2 | Pair::Copysign | Pair::Xlogy if common.is_complex() => None,
            Pair::Atan2 | Pair::Copysign | Pair::Xlogy if !common.is_floating_point() => {
                Some(DType::F32)
            }
            Pair::LogAddExp if common.is_complex() => Some(common),
            _ if common.is_floating_point() => Some(common),
            _ => None,
        }
    }
}

impl<D: Elementwise, R: Repr> AnyTensor<D, R> {
    fn pair(&self, rhs: Operand<'_, D>, f: Pair) -> Result<AnyTensor<D>, Error> {
        let rhs = match rhs {
            Operand::Tensor(t) => t,
            Operand::Number(n) => return self.pair_number(n, false, f),
        };
        let common = self.common_type(&Operand::Tensor(rhs.reborrow()));
        let Some(compute) = f.compute_type(common) else {
            let (cpu, cuda) = f.kernels();
            return Err(Error::NotImplementedFor {
                op: kernel_on(self.device(), cpu, cuda),
                dtype: common,
            });
        };
        let (a, b) = (self.as_dtype(compute)?, rhs.as_dtype(compute)?);
        let (a, b) = (&a.view(), &b.view());
        Ok(match f {
            Pair::Atan2 => same_variant!(a, b, |x, y| x.try_atan2(y); F16, BF16, F32, F64),
            Pair::Hypot => same_variant!(a, b, |x, y| x.try_hypot(y); F16, BF16, F32, F64),
            Pair::Copysign => same_variant!(a, b, |x, y| x.try_copysign(y); F16, BF16, F32, F64),
            Pair::Nextafter => same_variant!(a, b, |x, y| x.try_nextafter(y); F16, BF16, F32, F64),
            Pair::LogAddExp => {
                same_variant!(a, b, |x, y| x.try_logaddexp(y); F16, BF16, F32, F64, C64, C128)
            }
            Pair::LogAddExp2 => {
                same_variant!(a, b, |x, y| x.try_logaddexp2(y); F16, BF16, F32, F64)
            }
            Pair::Xlogy => same_variant!(a, b, |x, y| x.try_xlogy(y); F16, BF16, F32, F64),
        })
    }

    /// `f(self, number)` (`f(number, self)` when `left`), for `copysign`
    /// and `xlogy`: promoted as a number beside a tensor promotes.
    fn pair_number(&self, number: Scalar, left: bool, f: Pair) -> Result<AnyTensor<D>, Error> {
        let common = self.common_type(&Operand::Number(number));
        let Some(compute) = f.compute_type(common) else {
            let (cpu, cuda) = f.kernels();
            return Err(Error::NotImplementedFor {
                op: kernel_on(self.device(), cpu, cuda),
                dtype: common,
            });
        };
        let a = self.as_dtype(compute)?;
        macro_rules! each {
            ($f:expr) => {
                match &a.view() {
                    AnyTensor::F16(t) => AnyTensor::from(with_number(t, $f, number, left)?),
                    AnyTensor::BF16(t) => AnyTensor::from(with_number(t, $f, number, left)?),
                    AnyTensor::F32(t) => AnyTensor::from(with_number(t, $f, number, left)?),
                    AnyTensor::F64(t) => AnyTensor::from(with_number(t, $f, number, left)?),
                    _ => unreachable!("copysign and xlogy compute in real floating types"),
                }
            };
        }
        Ok(match f {
            Pair::Copysign => each!(Copysign),
            Pair::Xlogy => each!(Xlogy),
            _ => unreachable!("only copysign and xlogy take numbers"),
        })
    }

    /// `atan2(self, rhs)` elementwise, broadcast and promoted (integers and
    /// bool to float32); `Err` with PyTorch's text for complex values, or
    /// shapes that do not broadcast.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let y = AnyTensor::from(DynTensor::<f64>::from_vec(vec![1.0], &[1]).unwrap());
    /// let a = y.try_atan2(&y).unwrap();
    /// assert_eq!(a.downcast::<f64>().unwrap().to_vec(), vec![core::f64::consts::FRAC_PI_4]);
    /// ```
    pub fn try_atan2<R2: Repr>(&self, rhs: &AnyTensor<D, R2>) -> Result<AnyTensor<D>, Error> {
        self.pair(Operand::from(rhs), Pair::Atan2)
    }
    /// `sqrt(self² + rhs²)` elementwise, broadcast and promoted; `Err` with
    /// PyTorch's text unless the common type is real floating.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = AnyTensor::from(DynTensor::<f32>::from_vec(vec![3.0], &[1]).unwrap());
    /// let y = AnyTensor::from(DynTensor::<f32>::from_vec(vec![4.0], &[1]).unwrap());
    /// assert_eq!(x.try_hypot(&y).unwrap().downcast::<f32>().unwrap().to_vec(), vec![5.0]);
    /// ```
    pub fn try_hypot<R2: Repr>(&self, rhs: &AnyTensor<D, R2>) -> Result<AnyTensor<D>, Error> {
        self.pair(Operand::from(rhs), Pair::Hypot)
    }
    /// `|self|` with the sign of `rhs` elementwise, broadcast and promoted
    /// (integers and bool to float32); `Err` with PyTorch's text for
    /// complex values.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = AnyTensor::from(DynTensor::<i32>::from_vec(vec![3], &[1]).unwrap());
    /// let s = AnyTensor::from(DynTensor::<f64>::from_vec(vec![-0.0], &[1]).unwrap());
    /// assert_eq!(x.try_copysign(&s).unwrap().downcast::<f64>().unwrap().to_vec(), vec![-3.0]);
    /// ```
    ///
    /// `rhs` may be a number (PyTorch's `copysign(input, number)`):
    ///
    /// ```
    /// use shaped::prelude::*;
    /// use shaped::dtype::Scalar;
    /// let x = AnyTensor::from(DynTensor::<i64>::from_vec(vec![2, -3], &[2]).unwrap());
    /// let y = x.try_copysign(Scalar::Float(-0.0)).unwrap(); // float32
    /// assert_eq!(y.downcast::<f32>().unwrap().to_vec(), vec![-2.0, -3.0]);
    /// ```
    pub fn try_copysign<'a>(&self, rhs: impl Into<Operand<'a, D>>) -> Result<AnyTensor<D>, Error>
    where
        D: 'a,
    {
        self.pair(rhs.into(), Pair::Copysign)
    }
    /// The next number after each element of `self` toward `rhs`,
    /// broadcast and promoted; `Err` with PyTorch's text unless the common
    /// type is real floating.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = AnyTensor::from(DynTensor::<f64>::from_vec(vec![1.0], &[1]).unwrap());
    /// let two = AnyTensor::from(DynTensor::<f64>::from_vec(vec![2.0], &[1]).unwrap());
    /// let n = x.try_nextafter(&two).unwrap();
    /// assert_eq!(n.downcast::<f64>().unwrap().to_vec(), vec![1.0 + f64::EPSILON]);
    /// ```
    pub fn try_nextafter<R2: Repr>(&self, rhs: &AnyTensor<D, R2>) -> Result<AnyTensor<D>, Error> {
        self.pair(Operand::from(rhs), Pair::Nextafter)
    }
    /// `ln(e^self + e^rhs)` elementwise, broadcast and promoted; `Err` with
    /// PyTorch's text unless the common type is floating or complex.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = AnyTensor::from(DynTensor::<f64>::from_vec(vec![0.0], &[1]).unwrap());
    /// let l = x.try_logaddexp(&x).unwrap();
    /// assert_eq!(l.downcast::<f64>().unwrap().to_vec(), vec![2f64.ln()]);
    /// ```
    pub fn try_logaddexp<R2: Repr>(&self, rhs: &AnyTensor<D, R2>) -> Result<AnyTensor<D>, Error> {
        self.pair(Operand::from(rhs), Pair::LogAddExp)
    }
    /// `log2(2^self + 2^rhs)` elementwise, broadcast and promoted; `Err`
    /// with PyTorch's text unless the common type is real floating.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = AnyTensor::from(DynTensor::<f32>::from_vec(vec![3.0], &[1]).unwrap());
    /// assert_eq!(x.try_logaddexp2(&x).unwrap().downcast::<f32>().unwrap().to_vec(), vec![4.0]);
    /// ```
    pub fn try_logaddexp2<R2: Repr>(&self, rhs: &AnyTensor<D, R2>) -> Result<AnyTensor<D>, Error> {
        self.pair(Operand::from(rhs), Pair::LogAddExp2)
    }
    /// `self * ln(rhs)` elementwise (0 where `self` is 0, NaN where `rhs`
    /// is NaN), broadcast and promoted (integers and bool to float32);
    /// `Err` with PyTorch's text for complex values.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = AnyTensor::from(DynTensor::<i64>::from_vec(vec![0, 2], &[2]).unwrap());
    /// let v = x.try_xlogy(&x).unwrap();
    /// assert_eq!(v.downcast::<f32>().unwrap().to_vec(), vec![0.0, 2.0 * 2f32.ln()]);
    /// ```
    ///
    /// `rhs` may be a number (PyTorch's `xlogy(input, number)`):
    ///
    /// ```
    /// use shaped::prelude::*;
    /// use shaped::dtype::Scalar;
    /// let x = AnyTensor::from(DynTensor::<f64>::from_vec(vec![0.0, 3.0], &[2]).unwrap());
    /// let v = x.try_xlogy(Scalar::Int(1)).unwrap();
    /// assert_eq!(v.downcast::<f64>().unwrap().to_vec(), vec![0.0, 0.0]);
    /// ```
    pub fn try_xlogy<'a>(&self, rhs: impl Into<Operand<'a, D>>) -> Result<AnyTensor<D>, Error>
    where
        D: 'a,
    {
        self.pair(rhs.into(), Pair::Xlogy)
    }

    /// PyTorch's `xlogy(number, other)`: `x * ln(other)` elementwise (0
    /// where `x` is 0, NaN where `other` is NaN), promoted as a number
    /// beside a tensor (integers and bool to float32).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// use shaped::dtype::Scalar;
    /// let y = AnyTensor::from(DynTensor::<f32>::from_vec(vec![1.0, f32::NAN], &[2]).unwrap());
    /// let v = AnyTensor::try_xlogy_scalar_self(Scalar::Int(0), &y).unwrap();
    /// let v = v.downcast::<f32>().unwrap().to_vec();
    /// assert_eq!(v[0], 0.0);
    /// assert!(v[1].is_nan());
    /// ```
    pub fn try_xlogy_scalar_self(
        x: Scalar,
        other: &AnyTensor<D, R>,
    ) -> Result<AnyTensor<D>, Error> {
        other.pair_number(x, true, Pair::Xlogy)
    }

    /// PyTorch's `float_power(number, exponent)`: `base` to the power of
    /// each element, in float64 (complex128 when either is complex).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// use shaped::dtype::Scalar;
    /// let e = AnyTensor::from(DynTensor::<i32>::from_vec(vec![0, 1, -1], &[3]).unwrap());
    /// let p = AnyTensor::try_float_power_scalar(Scalar::Int(2), &e).unwrap();
    /// assert_eq!(p.downcast::<f64>().unwrap().to_vec(), vec![1.0, 2.0, 0.5]);
    /// ```
    pub fn try_float_power_scalar(
        base: Scalar,
        exponent: &AnyTensor<D, R>,
    ) -> Result<AnyTensor<D>, Error> {
        let complex = exponent.dtype().is_complex() || matches!(base, Scalar::Complex(..));
        let dtype = if complex { DType::C128 } else { DType::F64 };
        let e = exponent.as_dtype(dtype)?;
        Ok(match &e.view() {
            AnyTensor::F64(t) => AnyTensor::from(with_number(t, Pow, base, true)?),
            AnyTensor::C128(t) => AnyTensor::from(with_number(t, Pow, base, true)?),
            _ => unreachable!("converted to float64 or complex128"),
        })
    }
}
