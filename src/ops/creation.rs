//! Constructors from arguments, PyTorch's: `arange_step(start, end, step)`,
//! `linspace`, `logspace`, `eye`, `empty`, and the `*_like` family
//! (`zeros_like`, `ones_like`, `full_like`, `empty_like`, `rand_like`,
//! `randn_like`), static, mixed (`_with`) and dynamic.
//!
//! The values are PyTorch's CPU values bit for bit where its arithmetic is
//! fixed: `linspace` steps from both ends in the dtype (`start + step * i`
//! for the first half, `end - step * (steps - 1 - i)` for the second, fused
//! multiply-adds as PyTorch's compiled loop has them, half types rounded at
//! every operation, integers through `f64`); `logspace` is `base` to the
//! power of that exponent in `f64`; `arange_step` is `start + step * i` in
//! PyTorch's accumulate type (`f64` for float32, `f32` for the half types,
//! wrapping `i64` for integers). PyTorch's vectorized float `arange`
//! computes lanes as `base + j * step` from a vector's first element, so
//! its last bit depends on the machine's vector width; `shaped` gives the
//! one-rounding value everywhere.
//!
//! ```
//! use shaped::prelude::*;
//! let x = Tensor::<f32, shape![5]>::linspace(0.0, 1.0);
//! assert_eq!(x.to_vec(), vec![0.0, 0.25, 0.5, 0.75, 1.0]);
//! let i = DynTensor::<i64>::arange_step(0, 10, 3).unwrap();
//! assert_eq!(i.to_vec(), vec![0, 3, 6, 9]);
//! let e = Tensor::<f64, shape![2, 3]>::eye();
//! assert_eq!(e.to_vec(), vec![1.0, 0.0, 0.0, 0.0, 1.0, 0.0]);
//! let z = e.t().zeros_like();
//! assert_eq!((z.shape(), z.strides()), ([3, 2], [1, 3]));
//! ```

use half::{bf16, f16};
use num_complex::Complex;

use crate::backend::cpu::CpuBuffer;
pub(crate) use crate::backend::cpu::generate::generated;
use crate::backend::cpu::generate::generated_in_two;
use crate::backend::{Cpu, Elementwise, Random, StridedRef};
use crate::dtype::{DType, Element, Scalar};
use crate::dynamic::checked_scalar;
use crate::error::{Error, OrPanic};
use crate::layout::{
    StridedLayout, array_from, check_contiguous_strides, checked_numel, checked_storage,
};
use crate::ops::functions::Constant;
use crate::random::{Generator, RandomValue};
use crate::shape::{FixedShape, Shape, StaticDim};
use crate::storage::Repr;
use crate::tensor::Tensor;

/// Element types `linspace` fills: every dtype but bool.
#[diagnostic::on_unimplemented(
    message = "`linspace` makes numeric tensors, not `{Self}` (PyTorch: \"linspace_cpu\" not implemented for 'Bool')",
    label = "this tensor holds `{Self}`",
    note = "make an integer tensor and compare it: `.ne(0)`"
)]
pub trait Linspace: Element {
    /// What every element needs: the ends and the step, in the type
    /// PyTorch steps in.
    #[doc(hidden)]
    type Plan: Copy + Send + Sync;
    /// The plan of `steps` values from `start` to `end` (`steps >= 2`).
    #[doc(hidden)]
    fn plan(start: Self, end: Self, steps: usize) -> Self::Plan;
    /// Element `i` of the plan's `steps`, counted from `start` (the first
    /// half).
    #[doc(hidden)]
    fn from_start(plan: &Self::Plan, i: usize) -> Self;
    /// Element `i` of the plan's `steps`, counted back from `end` (the
    /// second half).
    #[doc(hidden)]
    fn from_end(plan: &Self::Plan, i: usize) -> Self;
}

/// Element types `arange_step` and `logspace` fill: the real ones (PyTorch
/// refuses bool and complex `arange`).
#[diagnostic::on_unimplemented(
    message = "`arange_step` and `logspace` make real tensors, not `{Self}` (PyTorch's \"arange_cpu\" is not implemented for complex and bool dtypes)",
    label = "this tensor holds `{Self}`",
    note = "make a float tensor and `.cast()` it"
)]
pub trait Arange: Linspace {
    /// PyTorch's accumulate type on the CPU (`f64` for float32 and
    /// float64, `f32` for the half types, `i64` for integers).
    #[doc(hidden)]
    type Acc: Copy + Send + Sync;
    /// `value` in the accumulate type (PyTorch's checked conversion).
    #[doc(hidden)]
    fn acc(value: Scalar) -> Result<Self::Acc, Error>;
    /// `start + step * i`, rounded to the dtype.
    #[doc(hidden)]
    fn arange_at(start: Self::Acc, step: Self::Acc, i: usize) -> Self;
    /// The element as `f64` (exact for every dtype but int64 beyond 2^53).
    #[doc(hidden)]
    fn widened(self) -> f64;
    /// `x` converted as C++'s `static_cast` does (truncation for integers).
    #[doc(hidden)]
    fn narrowed(x: f64) -> Self;
    /// `end - start` in the dtype's arithmetic, as `f64` (logspace's step).
    #[doc(hidden)]
    fn span(start: Self, end: Self) -> f64;
    /// `i` converted as C++ does (integers wrap).
    #[doc(hidden)]
    fn wrapped(i: i64) -> Self;
    /// The largest `randperm` length PyTorch allows for a float dtype (the
    /// integers it counts exactly, plus one), as a number and as its text,
    /// with PyTorch's name of the type; `None` where the check is the
    /// conversion of `n - 1` (integers, and bfloat16, which PyTorch does
    /// not check).
    #[doc(hidden)]
    const RANDPERM_LIMIT: Option<(u64, &'static str, &'static str)>;
}

/// An index as `f64`, exact below 2^53, then narrowed by the caller (one
/// rounding, as a direct conversion): `u64` to `f64` vectorizes on AVX2,
/// `u64` to `f32` does not.
#[inline(always)]
fn index(i: usize) -> f64 {
    i as f64
}

/// `(start, end, step, steps)`: `linspace` in the type it steps in.
type Plan<S, T> = (T, T, S, usize);

macro_rules! native_floats {
    ($($t:ty, $acc:ty, $randperm_limit:expr;)*) => {$(
        impl Linspace for $t {
            type Plan = Plan<$t, $t>;
            fn plan(start: $t, end: $t, steps: usize) -> Self::Plan {
                (start, end, (end - start) / (steps - 1) as $t, steps)
            }
            #[inline(always)]
            fn from_start(&(start, _, step, _): &Self::Plan, i: usize) -> $t {
                step.mul_add(index(i) as $t, start)
            }
            #[inline(always)]
            fn from_end(&(_, end, step, steps): &Self::Plan, i: usize) -> $t {
                (-step).mul_add(index(steps - i - 1) as $t, end)
            }
        }
        impl Arange for $t {
            type Acc = $acc;
            fn acc(value: Scalar) -> Result<$acc, Error> {
                checked_scalar::<$acc>(value)
            }
            #[inline(always)]
            fn arange_at(start: $acc, step: $acc, i: usize) -> $t {
                step.mul_add(i as $acc, start) as $t
            }
            fn widened(self) -> f64 {
                self.into()
            }
            fn narrowed(x: f64) -> $t {
                x as $t
            }
            fn span(start: $t, end: $t) -> f64 {
                (end - start).into()
            }
            fn wrapped(i: i64) -> $t {
                i as $t
            }
            const RANDPERM_LIMIT: Option<(u64, &'static str, &'static str)> = $randperm_limit;
        }
    )*};
}
native_floats! {
    f32, f64, Some(((1 << 24) + 1, "2^24+1", "Float"));
    f64, f64, Some(((1 << 53) + 1, "2^53+1", "Double"));
}

macro_rules! half_floats {
    ($($t:ty, $randperm_limit:expr;)*) => {$(
        impl Linspace for $t {
            type Plan = Plan<f32, f32>;
            fn plan(start: $t, end: $t, steps: usize) -> Self::Plan {
                // In float32, rounded to the type once per element.
                let (start, end) = (start.to_f32(), end.to_f32());
                (start, end, (end - start) / (steps - 1) as f32, steps)
            }
            #[inline(always)]
            fn from_start(&(start, _, step, _): &Self::Plan, i: usize) -> $t {
                <$t>::from_f32(step.mul_add(index(i) as f32, start))
            }
            #[inline(always)]
            fn from_end(&(_, end, step, steps): &Self::Plan, i: usize) -> $t {
                <$t>::from_f32((-step).mul_add(index(steps - i - 1) as f32, end))
            }
        }
        impl Arange for $t {
            type Acc = f32;
            fn acc(value: Scalar) -> Result<f32, Error> {
                checked_scalar::<f32>(value)
            }
            #[inline(always)]
            fn arange_at(start: f32, step: f32, i: usize) -> $t {
                <$t>::from_f32(step.mul_add(i as f32, start))
            }
            fn widened(self) -> f64 {
                self.to_f64()
            }
            fn narrowed(x: f64) -> $t {
                <$t>::from_f32(x as f32)
            }
            fn span(start: $t, end: $t) -> f64 {
                f64::from(<$t>::from_f32(end.to_f32() - start.to_f32()).to_f32())
            }
            fn wrapped(i: i64) -> $t {
                <$t>::from_f32(i as f32)
            }
            const RANDPERM_LIMIT: Option<(u64, &'static str, &'static str)> = $randperm_limit;
        }
    )*};
}
half_floats! {
    f16, Some((2049, "2049", "Half"));
    bf16, None;
}

macro_rules! integers {
    ($($t:ty;)*) => {$(
        impl Linspace for $t {
            type Plan = Plan<f64, $t>;
            fn plan(start: $t, end: $t, steps: usize) -> Self::Plan {
                (start, end, (end as f64 - start as f64) / (steps - 1) as f64, steps)
            }
            #[inline(always)]
            fn from_start(&(start, _, step, _): &Self::Plan, i: usize) -> $t {
                step.mul_add(i as f64, start as f64) as $t
            }
            #[inline(always)]
            fn from_end(&(_, end, step, steps): &Self::Plan, i: usize) -> $t {
                (-step).mul_add((steps - i - 1) as f64, end as f64) as $t
            }
        }
        impl Arange for $t {
            type Acc = i64;
            fn acc(value: Scalar) -> Result<i64, Error> {
                checked_scalar::<i64>(value)
            }
            #[inline(always)]
            fn arange_at(start: i64, step: i64, i: usize) -> $t {
                start.wrapping_add(step.wrapping_mul(i as i64)) as $t
            }
            fn widened(self) -> f64 {
                self as f64
            }
            fn narrowed(x: f64) -> $t {
                // Through int64, wrapping (what PyTorch's conversion gives).
                x as i64 as $t
            }
            fn span(start: $t, end: $t) -> f64 {
                // C++ promotes the small integers to int; int64 wraps.
                (end as i64).wrapping_sub(start as i64) as f64
            }
            fn wrapped(i: i64) -> $t {
                i as $t
            }
            const RANDPERM_LIMIT: Option<(u64, &'static str, &'static str)> = None;
        }
    )*};
}
integers! {
    u8;
    i8;
    i16;
    i32;
    i64;
}

macro_rules! complex_floats {
    ($($r:ty;)*) => {$(
        impl Linspace for Complex<$r> {
            type Plan = (<$r as Linspace>::Plan, <$r as Linspace>::Plan);
            fn plan(start: Self, end: Self, steps: usize) -> Self::Plan {
                (<$r>::plan(start.re, end.re, steps), <$r>::plan(start.im, end.im, steps))
            }
            #[inline(always)]
            fn from_start((re, im): &Self::Plan, i: usize) -> Self {
                Complex::new(<$r>::from_start(re, i), <$r>::from_start(im, i))
            }
            #[inline(always)]
            fn from_end((re, im): &Self::Plan, i: usize) -> Self {
                Complex::new(<$r>::from_end(re, i), <$r>::from_end(im, i))
            }
        }
    )*};
}
complex_floats! {
    f32;
    f64;
}

/// A rank-1 CPU tensor of `S` holding `value(i)` for `i < n`; `Err` when
/// `n` contradicts `S` or does not fit in memory.
pub(crate) fn rank_one<T: Element, S: Shape>(
    n: usize,
    value: impl Fn(usize) -> T + Sync,
) -> Result<Tensor<T, S, Cpu>, Error> {
    let sizes = S::check_sizes(&[n])?;
    checked_storage(sizes.as_ref(), size_of::<T>())?;
    Ok(Tensor::from_buffer(
        generated(n, value)?,
        StridedLayout::contiguous(sizes),
    ))
}

/// `steps` values from `start` to `end`, PyTorch's `linspace`.
fn linspace_values<T: Linspace, S: Shape>(
    start: Scalar,
    end: Scalar,
    steps: usize,
) -> Result<Tensor<T, S, Cpu>, Error> {
    // PyTorch converts the ends only when it uses them: `start` for one
    // step, both for more.
    match steps {
        0 => rank_one(0, |_| T::ZERO),
        1 => {
            let start = checked_scalar::<T>(start)?;
            rank_one(1, |_| start)
        }
        _ => {
            let plan = T::plan(
                checked_scalar::<T>(start)?,
                checked_scalar::<T>(end)?,
                steps,
            );
            let sizes = S::check_sizes(&[steps])?;
            checked_storage(sizes.as_ref(), size_of::<T>())?;
            // The first half from `start`, the rest back from `end`.
            let buffer = generated_in_two(steps, steps / 2, &|i| T::from_start(&plan, i), &|i| {
                T::from_end(&plan, i)
            })?;
            Ok(Tensor::from_buffer(
                buffer,
                StridedLayout::contiguous(sizes),
            ))
        }
    }
}

/// `steps` powers of `base`, PyTorch's `logspace`.
fn logspace_values<T: Arange, S: Shape>(
    start: Scalar,
    end: Scalar,
    steps: usize,
    base: f64,
) -> Result<Tensor<T, S, Cpu>, Error> {
    match steps {
        0 => rank_one(0, |_| T::ZERO),
        1 => {
            // PyTorch fills `pow(base, start)` through a checked conversion.
            let start = checked_scalar::<f64>(start)?;
            let value = checked_scalar::<T>(Scalar::Float(base.powf(start)))?;
            rank_one(1, |_| value)
        }
        _ => {
            let (start, end) = (checked_scalar::<T>(start)?, checked_scalar::<T>(end)?);
            let step = T::span(start, end) / (steps - 1) as f64;
            let (first, last) = (start.widened(), end.widened());
            let halfway = steps / 2;
            rank_one(steps, |i| {
                // The index in the dtype, as PyTorch counts it.
                let index = |n: usize| T::narrowed(n as f64).widened();
                let exponent = if i < halfway {
                    step.mul_add(index(i), first)
                } else {
                    (-step).mul_add(steps as f64 - index(i) - 1.0, last)
                };
                T::narrowed(base.powf(exponent))
            })
        }
    }
}

/// PyTorch's `compute_arange_size`: the checks of `start`, `end` and
/// `step` (in `f64`), then the length, exact for int64 with integer
/// arguments.
fn arange_length(start: Scalar, end: Scalar, step: Scalar, dtype: DType) -> Result<usize, Error> {
    let as_f64 = |s: Scalar| match s {
        Scalar::Bool(b) => f64::from(u8::from(b)),
        Scalar::Int(i) => i as f64,
        Scalar::Float(x) => x,
        Scalar::Complex(re, _) => re,
    };
    let (first, last, by) = (as_f64(start), as_f64(end), as_f64(step));
    if !by.is_finite() {
        return Err(Error::ArangeStepNotFinite { step: by.to_bits() });
    }
    if by == 0.0 {
        return Err(Error::ArangeStepZero);
    }
    if !(first.is_finite() && last.is_finite()) {
        return Err(Error::ArangeRange {
            start: first.to_bits(),
            end: last.to_bits(),
        });
    }
    if !((by > 0.0 && last >= first) || (by < 0.0 && last <= first)) {
        return Err(Error::ArangeSign);
    }
    let size = match (dtype, start, end, step) {
        (DType::I64, Scalar::Int(a), Scalar::Int(b), Scalar::Int(s)) => {
            // int64 arithmetic, wrapping as PyTorch's does.
            let sign = s.signum();
            (b.wrapping_sub(a).wrapping_add(s).wrapping_sub(sign)).wrapping_div(s) as f64
        }
        _ => ((last - first) / by).ceil(),
    };
    if !(size >= 0.0 && size <= i64::MAX as f64) {
        return Err(Error::ArangeSize);
    }
    Ok(size as usize)
}

/// `start, start + step, ..` below `end`, PyTorch's `arange(start, end,
/// step)`.
fn arange_values<T: Arange, S: Shape>(
    start: Scalar,
    end: Scalar,
    step: Scalar,
) -> Result<Tensor<T, S, Cpu>, Error> {
    let n = arange_length(start, end, step, T::DTYPE)?;
    let (first, _, by) = (T::acc(start)?, T::acc(end)?, T::acc(step)?);
    rank_one(n, |i| T::arange_at(first, by, i))
}

/// The `n` x `m` identity, contiguous, on the CPU.
fn eye_parts<T: Element, S: Shape>(n: usize, m: usize) -> Result<Tensor<T, S, Cpu>, Error> {
    let sizes = S::check_sizes(&[n, m])?;
    checked_storage(sizes.as_ref(), size_of::<T>())?;
    check_contiguous_strides(sizes.as_ref())?;
    let numel = checked_numel(sizes.as_ref())?;
    let mut buffer = CpuBuffer::try_full(numel, T::ZERO)?;
    let diagonal = buffer
        .as_mut_slice()
        .iter_mut()
        .step_by(m + 1)
        .take(n.min(m));
    diagonal.for_each(|x| *x = T::ONE);
    Ok(Tensor::from_buffer(
        buffer,
        StridedLayout::contiguous(sizes),
    ))
}

impl<T: Element, N: StaticDim> Tensor<T, (N,), Cpu> {
    /// `N` values from `start` to `end`, both included (PyTorch's
    /// `linspace(start, end, N)`).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = Tensor::<f64, shape![3]>::linspace(-1.0, 1.0);
    /// assert_eq!(x.to_vec(), vec![-1.0, 0.0, 1.0]);
    /// ```
    pub fn linspace(start: T, end: T) -> Self
    where
        T: Linspace,
    {
        let (first, last) = (start.to_scalar(), end.to_scalar());
        linspace_values(first, last, N::N).or_panic()
    }

    /// `N` powers of `base`, the exponents from `start` to `end` (PyTorch's
    /// `logspace(start, end, N, base)`).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = Tensor::<f32, shape![4]>::logspace(0.0, 3.0, 10.0);
    /// assert_eq!(x.to_vec(), vec![1.0, 10.0, 100.0, 1000.0]);
    /// ```
    pub fn logspace(start: T, end: T, base: f64) -> Self
    where
        T: Arange,
    {
        logspace_values(start.to_scalar(), end.to_scalar(), N::N, base).or_panic()
    }
}

impl<T: Element, N: StaticDim, M: StaticDim> Tensor<T, (N, M), Cpu> {
    /// Ones on the main diagonal, zeros elsewhere (PyTorch's `eye(N, M)`).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let i = Tensor::<i32, shape![2, 2]>::eye();
    /// assert_eq!(i.to_vec(), vec![1, 0, 0, 1]);
    /// ```
    pub fn eye() -> Self {
        eye_parts(N::N, M::N).or_panic()
    }
}

impl<T: Element, S: FixedShape> Tensor<T, S, Cpu> {
    /// A tensor whose elements are zeros (PyTorch's `empty`: `shaped` never
    /// hands out memory it has not written).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// assert_eq!(Tensor::<u8, shape![2]>::empty().to_vec(), vec![0, 0]);
    /// ```
    pub fn empty() -> Self {
        Self::zeros()
    }
}

impl<T: Element, S: Shape> Tensor<T, S, Cpu> {
    /// `start, start + step, ..` up to `end` excluded (PyTorch's `arange(start,
    /// end, step)`), with PyTorch's length rule and texts: `Err` for a zero
    /// or non-finite step, a non-finite bound, a step whose sign points away
    /// from `end`, a length that contradicts `S` or does not fit.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = Tensor::<f32, shape![Dyn]>::arange_step(0.0, 1.0, 0.25).unwrap();
    /// assert_eq!(x.to_vec(), vec![0.0, 0.25, 0.5, 0.75]);
    /// let err = Tensor::<f32, shape![Dyn]>::arange_step(0, 5, -1).unwrap_err();
    /// assert_eq!(err.to_string(), "upper bound and lower bound inconsistent with step sign");
    /// ```
    pub fn arange_step(
        start: impl Into<Scalar>,
        end: impl Into<Scalar>,
        step: impl Into<Scalar>,
    ) -> Result<Self, Error>
    where
        T: Arange,
    {
        arange_values(start.into(), end.into(), step.into())
    }

    /// [`linspace`](Tensor::linspace) with a runtime number of steps (a
    /// `Dyn` length); `Err` when it contradicts the shape or an end does not
    /// fit the dtype (PyTorch's checked conversion).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = Tensor::<i64, shape![Dyn]>::linspace_with(0, 100, 5).unwrap();
    /// assert_eq!(x.to_vec(), vec![0, 25, 50, 75, 100]);
    /// ```
    pub fn linspace_with(
        start: impl Into<Scalar>,
        end: impl Into<Scalar>,
        steps: usize,
    ) -> Result<Self, Error>
    where
        T: Linspace,
    {
        linspace_values(start.into(), end.into(), steps)
    }

    /// [`logspace`](Tensor::logspace) with a runtime number of steps.
    pub fn logspace_with(
        start: impl Into<Scalar>,
        end: impl Into<Scalar>,
        steps: usize,
        base: f64,
    ) -> Result<Self, Error>
    where
        T: Arange,
    {
        logspace_values(start.into(), end.into(), steps, base)
    }

    /// [`eye`](Tensor::eye) with runtime sizes; `Err` when they contradict
    /// the shape or do not fit.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let i = Tensor::<f32, shape![Dyn, 3]>::eye_with(2, 3).unwrap();
    /// assert_eq!(i.to_vec(), vec![1.0, 0.0, 0.0, 0.0, 1.0, 0.0]);
    /// ```
    pub fn eye_with(n: usize, m: usize) -> Result<Self, Error> {
        eye_parts(n, m)
    }

    /// [`empty`](Tensor::empty) with runtime sizes: zeros.
    pub fn empty_with(sizes: &[usize]) -> Self {
        Self::zeros_with(sizes)
    }
}

impl<T: Element, S: Shape, D: Elementwise, R: Repr> Tensor<T, S, D, R> {
    /// A tensor of `self`'s shape, dtype and device with every element
    /// `value`, laid out as PyTorch's `*_like` constructors lay out theirs
    /// (`preserve_format`: a dense layout's strides kept, any other row-major
    /// in the order of its strides). `Err` when the memory cannot be had.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = Tensor::<f32, shape![2, 3]>::zeros();
    /// let f = x.t().try_full_like(7.0).unwrap();
    /// assert_eq!((f.strides(), f.to_vec()), ([1, 3], vec![7.0; 6]));
    /// ```
    pub fn try_full_like(&self, value: T) -> Result<Tensor<T, S, D>, Error> {
        let (sizes, strides) = (self.layout.sizes(), self.layout.strides());
        // The constant read from one element (every stride 0): the output
        // is written, the input barely read.
        let still = vec![0; sizes.len()];
        let x = StridedRef::new(&self.data, &self.layout);
        let buffer = D::map1(
            StridedRef {
                strides: &still,
                ..x
            },
            Constant(value),
        )?;
        let like = crate::view::copy::like_strides(sizes, strides);
        let layout =
            StridedLayout::from_parts(self.layout.size_array().clone(), array_from(&like), 0);
        Ok(Tensor::from_buffer(buffer, layout))
    }

    /// [`try_full_like`](Self::try_full_like), panicking with the error's
    /// text (PyTorch's `full_like`).
    pub fn full_like(&self, value: T) -> Tensor<T, S, D> {
        self.try_full_like(value).or_panic()
    }

    /// Zeros of `self`'s shape, dtype, device and layout (PyTorch's
    /// `zeros_like`).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = tensor![[1, 2], [3, 4]];
    /// assert_eq!(x.zeros_like().to_vec(), vec![0; 4]);
    /// ```
    pub fn zeros_like(&self) -> Tensor<T, S, D> {
        self.full_like(T::ZERO)
    }

    /// Ones of `self`'s shape, dtype, device and layout (PyTorch's
    /// `ones_like`).
    pub fn ones_like(&self) -> Tensor<T, S, D> {
        self.full_like(T::ONE)
    }

    /// PyTorch's `empty_like`: zeros here (nothing unwritten is ever
    /// exposed).
    pub fn empty_like(&self) -> Tensor<T, S, D> {
        self.zeros_like()
    }

    /// Uniform numbers in `[0, 1)` of `self`'s shape, dtype, device and
    /// layout, from `generator` (PyTorch's `rand_like`).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// use shaped::random::Generator;
    /// let x = Tensor::<f32, shape![3]>::zeros();
    /// let r = x.rand_like(&mut Generator::new(3));
    /// assert!(r.iter().all(|&v| (0.0..1.0).contains(&v)));
    /// ```
    pub fn rand_like(&self, generator: &mut Generator) -> Tensor<T, S, D>
    where
        T: RandomValue,
        D: Random,
    {
        let mut out = self.empty_like();
        out.uniform_(0.0, 1.0, generator).or_panic();
        out
    }

    /// Standard normal numbers of `self`'s shape, dtype, device and layout,
    /// from `generator` (PyTorch's `randn_like`).
    pub fn randn_like(&self, generator: &mut Generator) -> Tensor<T, S, D>
    where
        T: RandomValue,
        D: Random,
    {
        let mut out = self.empty_like();
        out.normal_(0.0, 1.0, generator).or_panic();
        out
    }
}

#[cfg(test)]
mod tests {
    use crate::prelude::*;

    #[test]
    fn eye_has_ones_on_the_diagonal_only() {
        for (n, m) in [(0, 0), (1, 1), (2, 4), (4, 2), (3, 3), (5, 1)] {
            let e = DynTensor::<i32>::eye_with(n, m).unwrap();
            for r in 0..n {
                for c in 0..m {
                    assert_eq!(e[[r, c]], i32::from(r == c), "{n}x{m} at {r},{c}");
                }
            }
        }
    }

    #[test]
    fn linspace_of_one_step_is_its_start() {
        let x = DynTensor::<f32>::linspace_with(3.0, 7.0, 1).unwrap();
        assert_eq!(x.to_vec(), vec![3.0]);
    }

    #[test]
    fn fills_cross_piece_boundaries_in_order() {
        let n = 3 * crate::backend::cpu::generate::PIECE + 5;
        let x = DynTensor::<i64>::arange_step(0, n as i64, 1).unwrap();
        assert!(x.to_vec().iter().enumerate().all(|(i, &v)| v == i as i64));
    }
}
