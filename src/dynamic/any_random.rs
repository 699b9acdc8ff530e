//! The random fills and samplers of [`crate::ops::random`] and
//! [`crate::ops::sampling`] on [`AnyTensor`]: the dtype known at run time,
//! PyTorch's texts for the dtypes it refuses.
//!
//! ```
//! use shaped::prelude::*;
//! use shaped::random::Generator;
//! let mut g = Generator::new(0);
//! let mut x = AnyTensor::zeros(&[4], DType::I16).unwrap();
//! x.random_from_(-3, Some(3), &mut g).unwrap();
//! let p = AnyTensor::full(&[2, 3], 1.0, DType::F32).unwrap();
//! assert_eq!(p.multinomial(2, false, &mut g).unwrap().shape(), [2, 2]);
//! let mut c = AnyTensor::zeros(&[2], DType::C64).unwrap();
//! assert_eq!(
//!     c.random_(&mut g).unwrap_err().to_string(),
//!     "\"random_kernel_cpu\" not implemented for 'ComplexFloat'"
//! );
//! ```

use super::{AnyTensor, DynTensor};
use crate::backend::{Random, Reductions, Sorting};
use crate::dtype::DType;
use crate::error::Error;
use crate::ops::random::{check_bernoulli, check_geometric, check_normal};
use crate::random::{Generator, RandomWhole};
use crate::storage::{Repr, Writable};
use crate::tensor::Tensor;

/// `$body` with `$x` the tensor of a real dtype, else `$complex`.
macro_rules! on_real {
    ($any:expr, $x:ident => $body:expr, $complex:expr) => {
        match $any {
            AnyTensor::F16($x) => $body,
            AnyTensor::BF16($x) => $body,
            AnyTensor::F32($x) => $body,
            AnyTensor::F64($x) => $body,
            AnyTensor::U8($x) => $body,
            AnyTensor::I8($x) => $body,
            AnyTensor::I16($x) => $body,
            AnyTensor::I32($x) => $body,
            AnyTensor::I64($x) => $body,
            AnyTensor::Bool($x) => $body,
            _ => $complex,
        }
    };
}

/// `$body` with `$x` the tensor of a floating dtype, else `$other`.
macro_rules! on_float {
    ($any:expr, $x:ident => $body:expr, $other:expr) => {
        match $any {
            AnyTensor::F16($x) => $body,
            AnyTensor::BF16($x) => $body,
            AnyTensor::F32($x) => $body,
            AnyTensor::F64($x) => $body,
            _ => $other,
        }
    };
}

/// `$body` with `$x` the tensor of a floating or complex dtype, else
/// `$other`.
macro_rules! on_value {
    ($any:expr, $x:ident => $body:expr, $other:expr) => {
        match $any {
            AnyTensor::C64($x) => $body,
            AnyTensor::C128($x) => $body,
            other => on_float!(other, $x => $body, $other),
        }
    };
}

/// PyTorch's C++ name of a dtype in its Cauchy check.
fn cpp_name(dtype: DType) -> &'static str {
    match dtype {
        DType::C64 => "c10::complex<float>",
        DType::C128 => "c10::complex<double>",
        DType::U8 => u8::CPP_NAME,
        DType::I8 => i8::CPP_NAME,
        DType::I16 => i16::CPP_NAME,
        DType::I32 => i32::CPP_NAME,
        DType::I64 => i64::CPP_NAME,
        _ => bool::CPP_NAME,
    }
}

impl<D: Random + Reductions + Sorting, R: Writable> AnyTensor<D, R> {
    /// [`Tensor::random_`](crate::Tensor::random_) of the real dtypes;
    /// PyTorch's text for a complex one.
    pub fn random_(&mut self, generator: &mut Generator) -> Result<(), Error> {
        let dtype = self.dtype();
        if self.numel() == 0 {
            // (PyTorch returns before it looks at the dtype.)
            return Ok(());
        }
        on_real!(self, x => x.random_(generator), Err(Error::NotImplementedFor {
            op: "random_kernel_cpu",
            dtype,
        }))
    }

    /// [`Tensor::uniform_`](crate::Tensor::uniform_) of the floating and
    /// complex dtypes (both parts); PyTorch's text for the others.
    pub fn uniform_(&mut self, from: f64, to: f64, generator: &mut Generator) -> Result<(), Error> {
        let dtype = self.dtype();
        on_value!(self, x => x.uniform_(from, to, generator), Err(Error::NotImplementedFor {
            op: "check_uniform_bounds",
            dtype,
        }))
    }

    /// [`Tensor::normal_`](crate::Tensor::normal_) of the floating and
    /// complex dtypes; PyTorch's text for the others.
    pub fn normal_(&mut self, mean: f64, std: f64, generator: &mut Generator) -> Result<(), Error> {
        let dtype = self.dtype();
        // (PyTorch checks the deviation before the dtype.)
        check_normal(std)?;
        on_value!(self, x => x.normal_(mean, std, generator), Err(Error::NotImplementedFor {
            op: "normal_kernel_cpu",
            dtype,
        }))
    }

    /// [`Tensor::exponential_`](crate::Tensor::exponential_) of the
    /// floating dtypes; PyTorch's text for the others.
    pub fn exponential_(&mut self, lambda: f64, generator: &mut Generator) -> Result<(), Error> {
        let dtype = self.dtype();
        on_float!(self, x => x.exponential_(lambda, generator), Err(Error::ContinuousOnly {
            distribution: "Exponential",
            type_name: dtype.torch_name(),
        }))
    }

    /// [`Tensor::cauchy_`](crate::Tensor::cauchy_) of the floating dtypes;
    /// PyTorch's text (naming the C++ type) for the others.
    pub fn cauchy_(
        &mut self,
        median: f64,
        sigma: f64,
        generator: &mut Generator,
    ) -> Result<(), Error> {
        let type_name = cpp_name(self.dtype());
        on_float!(self, x => x.cauchy_(median, sigma, generator), Err(Error::ContinuousOnly {
            distribution: "Cauchy",
            type_name,
        }))
    }

    /// [`Tensor::geometric_`](crate::Tensor::geometric_) of the floating and
    /// integer dtypes; PyTorch's text for bool and complex.
    pub fn geometric_(&mut self, p: f64, generator: &mut Generator) -> Result<(), Error> {
        let dtype = self.dtype();
        check_geometric(p)?;
        let refused = Error::NotImplementedFor {
            op: "geometric_cpu",
            dtype,
        };
        match self {
            AnyTensor::U8(x) => x.geometric_(p, generator),
            AnyTensor::I8(x) => x.geometric_(p, generator),
            AnyTensor::I16(x) => x.geometric_(p, generator),
            AnyTensor::I32(x) => x.geometric_(p, generator),
            AnyTensor::I64(x) => x.geometric_(p, generator),
            other => on_float!(other, x => x.geometric_(p, generator), Err(refused)),
        }
    }

    /// [`Tensor::random_to_`](crate::Tensor::random_to_).
    pub fn random_to_(&mut self, to: i64, generator: &mut Generator) -> Result<(), Error> {
        self.random_from_(0, Some(to), generator)
    }

    /// [`Tensor::random_from_`](crate::Tensor::random_from_) of the real
    /// dtypes; PyTorch's texts for bounds out of order and complex dtypes.
    pub fn random_from_(
        &mut self,
        from: i64,
        to: Option<i64>,
        generator: &mut Generator,
    ) -> Result<(), Error> {
        let complex = match to {
            Some(to) if from >= to => Error::RandomFromTo { from, to },
            Some(_) => Error::RandomBoundsDType,
            None if from == i64::MIN => Error::NotImplementedFor {
                op: "random_full_64_bits_range_kernel_cpu",
                dtype: self.dtype(),
            },
            None => Error::Unsupported {
                message: "random_from_to_impl handles only integral, floating-point and boolean types",
            },
        };
        on_real!(self, x => x.random_from_(from, to, generator), Err(complex))
    }

    /// [`Tensor::bernoulli_`](crate::Tensor::bernoulli_) of the real dtypes.
    pub fn bernoulli_(&mut self, p: f64, generator: &mut Generator) -> Result<(), Error> {
        let dtype = self.dtype();
        check_bernoulli(p)?;
        on_real!(self, x => x.bernoulli_(p, generator), Err(Error::NotImplementedFor {
            op: "bernoulli_scalar_cpu_",
            dtype,
        }))
    }

    /// [`Tensor::bernoulli_tensor_`](crate::Tensor::bernoulli_tensor_):
    /// `self` of a real dtype, `p` of a floating one.
    pub fn bernoulli_tensor_<RP: Repr>(
        &mut self,
        p: &AnyTensor<D, RP>,
        generator: &mut Generator,
    ) -> Result<(), Error> {
        let dtype = self.dtype();
        let self_complex = Error::NotImplementedFor {
            op: "bernoulli_tensor_cpu_self_",
            dtype,
        };
        let p_dtype = p.dtype();
        on_float!(p, p => {
            on_real!(self, x => x.bernoulli_tensor_(p, generator), Err(self_complex))
        }, Err(match dtype.is_complex() {
            true => self_complex,
            false => Error::NotImplementedFor { op: "bernoulli_tensor_cpu_p_", dtype: p_dtype },
        }))
    }

    /// [`Tensor::log_normal_`](crate::Tensor::log_normal_) of the floating
    /// dtypes.
    pub fn log_normal_(
        &mut self,
        mean: f64,
        std: f64,
        generator: &mut Generator,
    ) -> Result<(), Error> {
        let dtype = self.dtype();
        on_float!(self, x => x.log_normal_(mean, std, generator), Err(Error::NotImplementedFor { op: "log_normal_cpu", dtype }))
    }
}

impl<D: Random + Reductions + Sorting, R: Repr> AnyTensor<D, R> {
    /// [`Tensor::randint_like`](crate::Tensor::randint_like): a tensor like
    /// `self` of integers in `low..high`.
    pub fn randint_like(
        &self,
        low: i64,
        high: i64,
        generator: &mut Generator,
    ) -> Result<AnyTensor<D>, Error> {
        let complex = match low >= high {
            true => Error::RandomFromTo {
                from: low,
                to: high,
            },
            false => Error::RandomBoundsDType,
        };
        on_real!(self, x => Ok(AnyTensor::from(x.randint_like(low, high, generator)?)), Err(complex))
    }

    /// [`Tensor::bernoulli`](crate::Tensor::bernoulli) of floating
    /// probabilities.
    pub fn bernoulli(&self, generator: &mut Generator) -> Result<AnyTensor<D>, Error> {
        let dtype = self.dtype();
        on_float!(self, x => Ok(AnyTensor::from(x.bernoulli(generator)?)), Err(Error::NotImplementedFor {
            op: if dtype.is_complex() { "bernoulli_tensor_cpu_self_" } else { "bernoulli_tensor_cpu_p_" },
            dtype,
        }))
    }

    /// [`Tensor::poisson`](crate::Tensor::poisson) of floating rates.
    pub fn poisson(&self, generator: &mut Generator) -> Result<AnyTensor<D>, Error> {
        let dtype = self.dtype();
        on_float!(self, x => Ok(AnyTensor::from(x.poisson(generator)?)), Err(Error::NotImplementedFor {
            op: "poisson_cpu",
            dtype,
        }))
    }

    /// [`Tensor::multinomial`](crate::Tensor::multinomial) of floating
    /// probabilities; PyTorch's texts, the rank checked first.
    pub fn multinomial(
        &self,
        num_samples: i64,
        replacement: bool,
        generator: &mut Generator,
    ) -> Result<DynTensor<i64, D>, Error> {
        let rank = self.shape().len();
        if rank == 0 || rank > 2 {
            return Err(Error::Unsupported {
                message: "prob_dist must be 1 or 2 dim",
            });
        }
        let dtype = self.dtype();
        on_float!(self, x => x.multinomial(num_samples, replacement, generator), Err(Error::MultinomialDType { dtype }))
    }

    /// [`Tensor::normal_tensor_tensor`](crate::Tensor::normal_tensor_tensor):
    /// `mean` of a floating dtype (the result's), `std` of a real one.
    pub fn normal_tensor_tensor<R2: Repr>(
        mean: &AnyTensor<D, R>,
        std: &AnyTensor<D, R2>,
        generator: &mut Generator,
    ) -> Result<AnyTensor<D>, Error> {
        let dtype = mean.dtype();
        if std.dtype().is_complex() {
            return Err(Error::Unsupported {
                message: "normal expects standard deviation to be non-complex",
            });
        }
        on_value!(mean, m => {
            on_real!(std, s => Ok(AnyTensor::from(Tensor::normal_tensor_tensor(m, s, generator)?)),
                unreachable!("complex deviations were refused"))
        }, Err(Error::NotImplementedFor { op: "normal_kernel_cpu", dtype }))
    }

    /// [`Tensor::normal_tensor_float`](crate::Tensor::normal_tensor_float).
    pub fn normal_tensor_float(
        mean: &AnyTensor<D, R>,
        std: f64,
        generator: &mut Generator,
    ) -> Result<AnyTensor<D>, Error> {
        let dtype = mean.dtype();
        on_value!(mean, m => Ok(AnyTensor::from(Tensor::normal_tensor_float(m, std, generator)?)),
            Err(Error::NotImplementedFor { op: "normal_kernel_cpu", dtype }))
    }

    /// [`Tensor::normal_float_tensor`](crate::Tensor::normal_float_tensor).
    pub fn normal_float_tensor(
        mean: f64,
        std: &AnyTensor<D, R>,
        generator: &mut Generator,
    ) -> Result<AnyTensor<D>, Error> {
        let dtype = std.dtype();
        if dtype.is_complex() {
            return Err(Error::Unsupported {
                message: "normal expects standard deviation to be non-complex",
            });
        }
        on_float!(std, s => {
            Ok(AnyTensor::from(Tensor::normal_float_tensor(mean, s, generator)?))
        }, Err(Error::NotImplementedFor { op: "normal_kernel_cpu", dtype }))
    }
}
