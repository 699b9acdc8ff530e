//! Constructors of [`DynTensor`]: the sizes are arguments.
//!
//! They are trait methods ([`DynConstructors`], in the prelude) rather than
//! inherent ones, so that `Tensor::ones()` with a static shape taken from the
//! context stays unambiguous.

use super::DynShape;
use crate::backend::Cpu;
use crate::backend::cpu::try_collect;
use crate::dtype::{Element, Numeric};
use crate::error::{Error, OrPanic};
use crate::random::{Generator, RandomFloat};
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
        Self::Elem: RandomFloat;

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
        Self::Elem: RandomFloat;
}

impl<T: Element> DynConstructors for Tensor<T, DynShape, Cpu> {
    type Elem = T;

    fn rand(sizes: &[usize], generator: &mut Generator) -> Self
    where
        T: RandomFloat,
    {
        Self::rand_with(sizes, generator)
    }

    fn randn(sizes: &[usize], generator: &mut Generator) -> Self
    where
        T: RandomFloat,
    {
        Self::randn_with(sizes, generator)
    }

    fn zeros(sizes: &[usize]) -> Self {
        Self::zeros_with(sizes)
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
