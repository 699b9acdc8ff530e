//! Constructors of [`DynTensor`]: the sizes are arguments.
//!
//! They are trait methods ([`DynConstructors`], in the prelude) rather than
//! inherent ones, so that `Tensor::ones()` with a static shape taken from the
//! context stays unambiguous.

use super::DynShape;
use crate::backend::Cpu;
use crate::backend::cpu::try_collect;
use crate::dtype::{Element, Numeric, Scalar};
use crate::error::{Error, OrPanic};
use crate::ops::creation::{Arange, Linspace};
use crate::random::{Generator, RandomValue, RandomWhole};
use crate::tensor::Tensor;

/// Constructors of a [`DynTensor`](super::DynTensor) (a tensor of runtime
/// rank): `DynTensor::<f32>::zeros(&[5, 2])`.
///
/// ```
/// use shaped::prelude::*;
/// let a = DynTensor::<f32>::zeros(&[5, 2, 4, 1]);
/// assert_eq!(a.numel(), 40);
/// let v = DynTensor::<i64>::from_vec((0..6).collect(), &[2, 3]).unwrap();
/// assert_eq!(v[[1, 0]], 3);
/// ```
pub trait DynConstructors: Sized {
    /// The element type.
    type Elem: Element;

    /// A tensor of zeros of the given sizes.
    fn zeros(sizes: &[usize]) -> Self;

    /// A tensor of ones of the given sizes.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// assert_eq!(DynTensor::<i32>::ones(&[2]).to_vec(), vec![1, 1]);
    /// ```
    fn ones(sizes: &[usize]) -> Self;

    /// A tensor of the given sizes with every element `value`.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let s = DynTensor::<f64>::full(&[], 2.5); // rank 0
    /// assert_eq!((s.rank(), s.to_vec()), (0, vec![2.5]));
    /// ```
    fn full(sizes: &[usize], value: Self::Elem) -> Self;

    /// A tensor from row-major elements and sizes; `Err` (with PyTorch's
    /// text) when the elements do not fill the sizes.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let err = DynTensor::<i64>::from_vec(vec![1, 2, 3], &[2, 2]).unwrap_err();
    /// assert_eq!(err.to_string(), "shape '[2, 2]' is invalid for input of size 3");
    /// ```
    fn from_vec(data: Vec<Self::Elem>, sizes: &[usize]) -> Result<Self, Error>;

    /// `0, 1, .., n - 1`, rank 1 (PyTorch's `arange(n)`).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// assert_eq!(DynTensor::<i64>::arange(3).to_vec(), vec![0, 1, 2]);
    /// ```
    fn arange(n: usize) -> Self
    where
        Self::Elem: Numeric;

    /// Uniform numbers in `[0, 1)` of the given sizes (PyTorch's `rand`),
    /// from `generator`'s stream; panics with PyTorch's text when the sizes do
    /// not fit in memory.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// use shaped::random::Generator;
    /// let x = DynTensor::<f32>::rand(&[3, 4], &mut Generator::new(0));
    /// assert_eq!(x.shape(), [3, 4]);
    /// ```
    fn rand(sizes: &[usize], generator: &mut Generator) -> Self
    where
        Self::Elem: RandomValue;

    /// Standard normal numbers of the given sizes (PyTorch's `randn`).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// use shaped::random::Generator;
    /// let x = DynTensor::<f64>::randn(&[2], &mut Generator::new(0));
    /// assert!(x.iter().all(|v| v.is_finite()));
    /// ```
    fn randn(sizes: &[usize], generator: &mut Generator) -> Self
    where
        Self::Elem: RandomValue;

    /// `steps` values from `start` to `end`, rank 1 (PyTorch's `linspace`);
    /// `Err` when an end does not fit the dtype.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = DynTensor::<f32>::linspace(0, 1, 3).unwrap();
    /// assert_eq!(x.to_vec(), vec![0.0, 0.5, 1.0]);
    /// ```
    fn linspace(
        start: impl Into<Scalar>,
        end: impl Into<Scalar>,
        steps: usize,
    ) -> Result<Self, Error>
    where
        Self::Elem: Linspace;

    /// `steps` powers of `base` with exponents from `start` to `end`
    /// (PyTorch's `logspace`).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = DynTensor::<i64>::logspace(0, 3, 4, 10.0).unwrap();
    /// assert_eq!(x.to_vec(), vec![1, 10, 100, 1000]);
    /// ```
    fn logspace(
        start: impl Into<Scalar>,
        end: impl Into<Scalar>,
        steps: usize,
        base: f64,
    ) -> Result<Self, Error>
    where
        Self::Elem: Arange;

    /// The `n` x `m` identity (PyTorch's `eye`); panics with PyTorch's text
    /// when it does not fit in memory.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// assert_eq!(DynTensor::<bool>::eye(2, 2).to_vec(), vec![true, false, false, true]);
    /// ```
    fn eye(n: usize, m: usize) -> Self;

    /// PyTorch's `empty`: zeros of the given sizes (`shaped` never hands out
    /// memory it has not written).
    fn empty(sizes: &[usize]) -> Self;

    /// Uniform integers in `low..high` of the given sizes (PyTorch's
    /// `randint`); `Err` with its text for `low >= high` or a bound outside
    /// the dtype.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// use shaped::random::Generator;
    /// let x = DynTensor::<i32>::randint(0, 10, &[100], &mut Generator::new(0)).unwrap();
    /// assert!(x.iter().all(|v| (0..10).contains(v)));
    /// ```
    fn randint(
        low: i64,
        high: i64,
        sizes: &[usize],
        generator: &mut Generator,
    ) -> Result<Self, Error>
    where
        Self::Elem: RandomWhole;

    /// A random permutation of `0..n` (PyTorch's `randperm`).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// use shaped::random::Generator;
    /// let p = DynTensor::<i64>::randperm(4, &mut Generator::new(0)).unwrap();
    /// assert_eq!(p.iter().sum::<i64>(), 6);
    /// ```
    fn randperm(n: usize, generator: &mut Generator) -> Result<Self, Error>
    where
        Self::Elem: Arange;
}

impl<T: Element> DynConstructors for Tensor<T, DynShape, Cpu> {
    type Elem = T;

    fn rand(sizes: &[usize], generator: &mut Generator) -> Self
    where
        T: RandomValue,
    {
        Self::rand_with(sizes, generator)
    }

    fn randn(sizes: &[usize], generator: &mut Generator) -> Self
    where
        T: RandomValue,
    {
        Self::randn_with(sizes, generator)
    }

    fn zeros(sizes: &[usize]) -> Self {
        Self::zeros_with(sizes)
    }

    fn linspace(
        start: impl Into<Scalar>,
        end: impl Into<Scalar>,
        steps: usize,
    ) -> Result<Self, Error>
    where
        T: Linspace,
    {
        Self::linspace_with(start, end, steps)
    }

    fn logspace(
        start: impl Into<Scalar>,
        end: impl Into<Scalar>,
        steps: usize,
        base: f64,
    ) -> Result<Self, Error>
    where
        T: Arange,
    {
        Self::logspace_with(start, end, steps, base)
    }

    fn eye(n: usize, m: usize) -> Self {
        Self::eye_with(n, m).or_panic()
    }

    fn empty(sizes: &[usize]) -> Self {
        Self::zeros_with(sizes)
    }

    fn randint(
        low: i64,
        high: i64,
        sizes: &[usize],
        generator: &mut Generator,
    ) -> Result<Self, Error>
    where
        T: RandomWhole,
    {
        Self::randint_with(low, high, sizes, generator)
    }

    fn randperm(n: usize, generator: &mut Generator) -> Result<Self, Error>
    where
        T: Arange,
    {
        Self::randperm_with(n, generator)
    }

    fn ones(sizes: &[usize]) -> Self {
        Self::ones_with(sizes)
    }

    fn full(sizes: &[usize], value: T) -> Self {
        Self::full_with(sizes, value)
    }

    fn from_vec(data: Vec<T>, sizes: &[usize]) -> Result<Self, Error> {
        Self::from_vec_with(data, sizes)
    }

    fn arange(n: usize) -> Self
    where
        T: Numeric,
    {
        // Allocated fallibly: a panic with PyTorch's out-of-memory text,
        // not an abort, when `n` elements do not fit.
        let data = try_collect((0..n).map(T::from_index)).or_panic();
        Self::from_vec_with(data, &[n]).expect("n elements fill [n]")
    }
}
