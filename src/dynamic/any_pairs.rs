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

use super::any::{AnyTensor, Operand, same_variant};
use crate::backend::Elementwise;
use crate::dtype::DType;
use crate::error::{Error, kernel_on};

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

impl<D: Elementwise> AnyTensor<D> {
    fn pair(&self, rhs: &AnyTensor<D>, f: Pair) -> Result<AnyTensor<D>, Error> {
        let common = self.common_type(Operand::Tensor(rhs));
        let Some(compute) = f.compute_type(common) else {
            let (cpu, cuda) = f.kernels();
            return Err(Error::NotImplementedFor {
                op: kernel_on(self.device(), cpu, cuda),
                dtype: common,
            });
        };
        let (a, b) = (self.as_dtype(compute)?, rhs.as_dtype(compute)?);
        let (a, b) = (a.as_ref(), b.as_ref());
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
    pub fn try_atan2(&self, rhs: &AnyTensor<D>) -> Result<AnyTensor<D>, Error> {
        self.pair(rhs, Pair::Atan2)
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
    pub fn try_hypot(&self, rhs: &AnyTensor<D>) -> Result<AnyTensor<D>, Error> {
        self.pair(rhs, Pair::Hypot)
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
    pub fn try_copysign(&self, rhs: &AnyTensor<D>) -> Result<AnyTensor<D>, Error> {
        self.pair(rhs, Pair::Copysign)
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
    pub fn try_nextafter(&self, rhs: &AnyTensor<D>) -> Result<AnyTensor<D>, Error> {
        self.pair(rhs, Pair::Nextafter)
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
    pub fn try_logaddexp(&self, rhs: &AnyTensor<D>) -> Result<AnyTensor<D>, Error> {
        self.pair(rhs, Pair::LogAddExp)
    }
    /// `log2(2^self + 2^rhs)` elementwise, broadcast and promoted; `Err`
    /// with PyTorch's text unless the common type is real floating.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = AnyTensor::from(DynTensor::<f32>::from_vec(vec![3.0], &[1]).unwrap());
    /// assert_eq!(x.try_logaddexp2(&x).unwrap().downcast::<f32>().unwrap().to_vec(), vec![4.0]);
    /// ```
    pub fn try_logaddexp2(&self, rhs: &AnyTensor<D>) -> Result<AnyTensor<D>, Error> {
        self.pair(rhs, Pair::LogAddExp2)
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
    pub fn try_xlogy(&self, rhs: &AnyTensor<D>) -> Result<AnyTensor<D>, Error> {
        self.pair(rhs, Pair::Xlogy)
    }
}
