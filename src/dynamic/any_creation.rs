//! Constructors of [`AnyTensor`] whose dtype is an argument (`arange_step`,
//! `linspace`, `logspace`, `eye`, `zeros`, `ones`, `full`, `empty`) and the
//! `*_like` family, with PyTorch's checks and texts in its order: the
//! dtype's kernel first, then the arguments.

use super::any::any_tensor;
use super::{AnyTensor, DynTensor, checked_scalar};
use crate::backend::{Elementwise, Random};
use crate::dtype::{DType, Element, Scalar};
use crate::error::Error;
use crate::random::Generator;
use crate::storage::Repr;
use half::{bf16, f16};
use num_complex::Complex;

/// `$body` with the type `$t` standing for the runtime `$dtype`, among the
/// variants listed (`Err($refusal)` for any other dtype), wrapped in an
/// `AnyTensor`.
macro_rules! for_dtype {
    ($dtype:expr, $t:ident => $body:expr; [$($variant:ident: $ty:ty),*]; $refusal:expr) => {
        match $dtype {
            $(DType::$variant => {
                type $t = $ty;
                Ok(AnyTensor::from($body?))
            })*
            #[allow(unreachable_patterns)]
            _ => Err($refusal),
        }
    };
}

/// Every dtype: `for_dtype!` over the twelve.
macro_rules! for_every_dtype {
    ($dtype:expr, $t:ident => $body:expr) => {
        for_dtype!($dtype, $t => $body; [
            F16: f16, BF16: bf16, F32: f32, F64: f64, C64: Complex<f32>, C128: Complex<f64>,
            U8: u8, I8: i8, I16: i16, I32: i32, I64: i64, Bool: bool
        ]; Error::NotImplementedFor { op: "every dtype", dtype: $dtype })
    };
}

/// The real dtypes: `for_dtype!` over the nine, PyTorch's refusal of
/// `op` for the others.
macro_rules! for_real_dtype {
    ($dtype:expr, $op:literal, $t:ident => $body:expr) => {
        for_dtype!($dtype, $t => $body; [
            F16: f16, BF16: bf16, F32: f32, F64: f64, U8: u8, I8: i8, I16: i16, I32: i32, I64: i64
        ]; Error::NotImplementedFor { op: $op, dtype: $dtype })
    };
}

impl AnyTensor {
    /// PyTorch's `arange(start, end, step, dtype=dtype)`: its texts for a
    /// bool or complex dtype, a zero or non-finite step, a non-finite bound,
    /// a step that points away from `end`, a length past `i64`, and a bound
    /// or step that the dtype's accumulate type cannot hold.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = AnyTensor::arange_step(0, 1, 0.25, DType::F64).unwrap();
    /// assert_eq!(x.shape(), [4]);
    /// let err = AnyTensor::arange_step(0, 10, 0, DType::I64).unwrap_err();
    /// assert_eq!(err.to_string(), "step must be nonzero");
    /// ```
    pub fn arange_step(
        start: impl Into<Scalar>,
        end: impl Into<Scalar>,
        step: impl Into<Scalar>,
        dtype: DType,
    ) -> Result<AnyTensor, Error> {
        let (start, end, step) = (start.into(), end.into(), step.into());
        for_real_dtype!(dtype, "arange_cpu", T => DynTensor::<T>::arange_step(start, end, step))
    }

    /// PyTorch's `linspace(start, end, steps, dtype=dtype)`: `Err` for bool,
    /// and for an end that the dtype cannot hold (checked only where PyTorch
    /// converts it: `start` for one step, both for more).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = AnyTensor::linspace(0, 1, 5, DType::F32).unwrap();
    /// assert_eq!(x.to_scalars().len(), 5);
    /// ```
    pub fn linspace(
        start: impl Into<Scalar>,
        end: impl Into<Scalar>,
        steps: usize,
        dtype: DType,
    ) -> Result<AnyTensor, Error> {
        let (start, end) = (start.into(), end.into());
        for_dtype!(dtype, T => DynTensor::<T>::linspace_with(start, end, steps); [
            F16: f16, BF16: bf16, F32: f32, F64: f64, C64: Complex<f32>, C128: Complex<f64>,
            U8: u8, I8: i8, I16: i16, I32: i32, I64: i64
        ]; Error::NotImplementedFor { op: "linspace_cpu", dtype })
    }

    /// PyTorch's `logspace(start, end, steps, base, dtype=dtype)` for the
    /// real dtypes (`Err` for bool, as PyTorch; complex `logspace` is not
    /// implemented here yet and refused the same way).
    pub fn logspace(
        start: impl Into<Scalar>,
        end: impl Into<Scalar>,
        steps: usize,
        base: f64,
        dtype: DType,
    ) -> Result<AnyTensor, Error> {
        let (start, end) = (start.into(), end.into());
        for_real_dtype!(dtype, "logspace_cpu", T => DynTensor::<T>::logspace_with(start, end, steps, base))
    }

    /// PyTorch's `eye(n, m, dtype=dtype)`, with its text for a negative
    /// size.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let err = AnyTensor::eye(-1, 3, DType::F32).unwrap_err();
    /// assert_eq!(err.to_string(), "n must be greater or equal to 0, got -1");
    /// ```
    pub fn eye(n: i64, m: i64, dtype: DType) -> Result<AnyTensor, Error> {
        let size = |which, size: i64| {
            usize::try_from(size).map_err(|_| Error::EyeNegative { which, size })
        };
        let (n, m) = (size("n", n)?, size("m", m)?);
        for_every_dtype!(dtype, T => DynTensor::<T>::eye_with(n, m))
    }

    /// A tensor of `sizes` and `dtype` with every element `value`
    /// (PyTorch's `full`), `Err` when `value` does not fit the dtype.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let err = AnyTensor::full(&[2], 300, DType::U8).unwrap_err();
    /// assert_eq!(err.to_string(), "value cannot be converted to type uint8_t without overflow");
    /// ```
    pub fn full(
        sizes: &[usize],
        value: impl Into<Scalar>,
        dtype: DType,
    ) -> Result<AnyTensor, Error> {
        let value = value.into();
        for_every_dtype!(dtype, T => DynTensor::<T>::try_full_with(sizes, checked_scalar::<T>(value)?))
    }

    /// Zeros of `sizes` and `dtype`.
    pub fn zeros(sizes: &[usize], dtype: DType) -> Result<AnyTensor, Error> {
        Self::full(sizes, false, dtype)
    }

    /// Ones of `sizes` and `dtype`.
    pub fn ones(sizes: &[usize], dtype: DType) -> Result<AnyTensor, Error> {
        Self::full(sizes, true, dtype)
    }

    /// Uniform integers in `low..high` of `sizes` and `dtype` (PyTorch's
    /// `randint(low, high, sizes, dtype=dtype)`), with its texts for `low >=
    /// high`, bounds outside the dtype and complex dtypes.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// use shaped::random::Generator;
    /// let mut g = Generator::new(1);
    /// let x = AnyTensor::randint(0, 2, &[4], DType::Bool, &mut g).unwrap();
    /// assert_eq!(x.dtype(), DType::Bool);
    /// let err = AnyTensor::randint(5, 5, &[4], DType::I64, &mut g).unwrap_err();
    /// assert_eq!(err.to_string(), "random_ expects 'from' to be less than 'to', but got from=5 >= to=5");
    /// ```
    pub fn randint(
        low: i64,
        high: i64,
        sizes: &[usize],
        dtype: DType,
        generator: &mut Generator,
    ) -> Result<AnyTensor, Error> {
        if dtype == DType::Bool {
            // As int64 within bool's bounds, then 0 or 1.
            if low < high {
                for (which, bound) in [("from", low), ("to - 1", high - 1)] {
                    if !(0..=1).contains(&bound) {
                        return Err(Error::RandomBound {
                            which,
                            type_name: "bool",
                        });
                    }
                }
            }
            let x = DynTensor::<i64>::randint_with(low, high, sizes, generator)?;
            return Ok(AnyTensor::from(x.try_cast::<bool>()?));
        }
        if low >= high {
            return Err(Error::RandomFromTo {
                from: low,
                to: high,
            });
        }
        if matches!(dtype, DType::C64 | DType::C128) {
            return Err(Error::RandomBoundsDType);
        }
        for_real_dtype!(dtype, "randint", T => DynTensor::<T>::randint_with(low, high, sizes, generator))
    }

    /// A random permutation of `0..n` as `dtype` (PyTorch's `randperm(n,
    /// dtype=dtype)`), with its texts for a negative `n`, bool and complex
    /// dtypes, and an `n` the dtype cannot count to.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// use shaped::random::Generator;
    /// let err = AnyTensor::randperm(3000, DType::F16, &mut Generator::new(0)).unwrap_err();
    /// assert_eq!(err.to_string(), "n cannot be greater than 2049 for Half type.");
    /// ```
    pub fn randperm(n: i64, dtype: DType, generator: &mut Generator) -> Result<AnyTensor, Error> {
        let n = usize::try_from(n).map_err(|_| Error::NegativeDimension { size: n })?;
        for_real_dtype!(dtype, "randperm", T => DynTensor::<T>::randperm_with(n, generator))
    }

    /// PyTorch's `empty`: zeros (nothing unwritten is exposed).
    pub fn empty(sizes: &[usize], dtype: DType) -> Result<AnyTensor, Error> {
        Self::zeros(sizes, dtype)
    }
}

impl<D: Elementwise, R: Repr> AnyTensor<D, R> {
    /// A tensor of `self`'s shape, dtype, device and layout with every
    /// element `value` (PyTorch's `full_like`), `Err` when `value` does not
    /// fit the dtype.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = AnyTensor::from(DynTensor::<i32>::zeros(&[2]));
    /// let f = x.full_like(3.7).unwrap();
    /// assert_eq!(f.downcast::<i32>().unwrap().to_vec(), vec![3, 3]);
    /// ```
    pub fn full_like(&self, value: impl Into<Scalar>) -> Result<AnyTensor<D>, Error> {
        let value = value.into();
        Ok(any_tensor!(@each self, x => AnyTensor::from(x.try_full_like(checked_scalar(value)?)?)))
    }

    /// Zeros like `self` (PyTorch's `zeros_like`).
    pub fn zeros_like(&self) -> Result<AnyTensor<D>, Error> {
        self.full_like(false)
    }

    /// Ones like `self` (PyTorch's `ones_like`).
    pub fn ones_like(&self) -> Result<AnyTensor<D>, Error> {
        self.full_like(true)
    }

    /// PyTorch's `empty_like`: zeros like `self`.
    pub fn empty_like(&self) -> Result<AnyTensor<D>, Error> {
        self.zeros_like()
    }
}

impl<D: Random, R: Repr> AnyTensor<D, R> {
    /// Uniform numbers in `[0, 1)` like `self`, from `generator` (PyTorch's
    /// `rand_like`); PyTorch's text for an integer or bool tensor. A complex
    /// tensor has both parts uniform, as in PyTorch.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// use shaped::random::Generator;
    /// let x = AnyTensor::from(DynTensor::<i64>::zeros(&[2]));
    /// let err = x.rand_like(&mut Generator::new(0)).unwrap_err();
    /// assert_eq!(err.to_string(), "\"check_uniform_bounds\" not implemented for 'Long'");
    /// ```
    pub fn rand_like(&self, generator: &mut Generator) -> Result<AnyTensor<D>, Error> {
        self.random_like(generator, false)
    }

    /// Standard normal numbers like `self` (PyTorch's `randn_like`; a
    /// complex tensor's parts of variance 1/2 each); its text for an integer
    /// or bool tensor.
    pub fn randn_like(&self, generator: &mut Generator) -> Result<AnyTensor<D>, Error> {
        self.random_like(generator, true)
    }

    /// A tensor like `self` of uniform or (`normal`) normal numbers, for
    /// the floating dtypes.
    fn random_like(&self, generator: &mut Generator, normal: bool) -> Result<AnyTensor<D>, Error> {
        macro_rules! floats {
            ($($variant:ident),*) => {
                match self {
                    $(AnyTensor::$variant(x) => {
                        let mut out = x.try_full_like(Element::ZERO)?;
                        match normal {
                            true => out.normal_(0.0, 1.0, generator)?,
                            false => out.uniform_(0.0, 1.0, generator)?,
                        }
                        Ok(AnyTensor::from(out))
                    })*
                    other => Err(Error::NotImplementedFor {
                        op: if normal { "normal_kernel_cpu" } else { "check_uniform_bounds" },
                        dtype: other.dtype(),
                    }),
                }
            };
        }
        floats!(F16, BF16, F32, F64, C64, C128)
    }
}
