//! Random tensors and in-place random fills: `rand`, `randn` (static
//! shapes, `_with` sizes, `DynTensor`) and `uniform_`, `normal_`,
//! `exponential_`, `cauchy_`, `geometric_` on any
//! writable tensor of a floating dtype, on any device, from a
//! [`Generator`]. PyTorch's checks and texts for the bounds.
//!
//! ```
//! use shaped::prelude::*;
//! use shaped::random::Generator;
//! let mut g = Generator::new(42);
//! let w = Tensor::<f32, shape![64, 32]>::randn(&mut g);
//! let mut b = Tensor::<f32, shape![32]>::zeros();
//! b.uniform_(-0.1, 0.1, &mut g).unwrap();
//! assert!(b.iter().all(|&v| (-0.1..0.1).contains(&v)));
//! assert_eq!(w.shape(), [64, 32]);
//! ```

use crate::backend::cpu::CpuBuffer;
use crate::backend::{Cpu, DrawFill, Random, RandomFill, StridedMut};
use crate::dtype::{DType, Element};
use crate::error::{Error, OrPanic};
use crate::layout::{
    StridedLayout, check_contiguous_strides, checked_numel, checked_storage, numel,
};
use crate::ops::creation::{Arange, rank_one};
use crate::random::{
    Distribution, Draw, Generator, RandomFloat, RandomGeometric, RandomValue, RandomWhole,
};
use crate::shape::{FixedShape, Shape};
use crate::storage::Writable;
use crate::tensor::Tensor;

/// PyTorch's C++ name of a floating dtype, as its bound checks print it.
fn type_name(dtype: DType) -> &'static str {
    match dtype {
        DType::F16 => "c10::Half",
        DType::BF16 => "c10::BFloat16",
        DType::F64 => "double",
        _ => "float",
    }
}

/// The largest finite value of a floating dtype.
fn largest(dtype: DType) -> f64 {
    match dtype {
        DType::F16 => 65504.0,
        DType::BF16 => 3.389_531_389_251_535_5e38,
        DType::F32 => f64::from(f32::MAX),
        _ => f64::MAX,
    }
}

/// PyTorch's checks of `uniform_(from, to)` on a tensor of `dtype`.
fn check_uniform(from: f64, to: f64, dtype: DType) -> Result<(), Error> {
    let max = largest(dtype);
    let name = type_name(dtype);
    let inside = |x: f64| x >= -max && x <= max;
    if !inside(from) {
        return Err(Error::RandomBound {
            which: "from",
            type_name: name,
        });
    }
    if !inside(to) {
        return Err(Error::RandomBound {
            which: "to",
            type_name: name,
        });
    }
    if from > to {
        return Err(Error::UniformOrder {
            from: from.to_bits(),
            to: to.to_bits(),
        });
    }
    if to - from > max {
        return Err(Error::UniformRange {
            dtype,
            from: from.to_bits(),
            to: to.to_bits(),
        });
    }
    Ok(())
}

/// PyTorch's check of `normal_(mean, std)`.
pub(crate) fn check_normal(std: f64) -> Result<(), Error> {
    if std < 0.0 {
        return Err(Error::NormalStd { std: std.to_bits() });
    }
    Ok(())
}

/// PyTorch's check of `geometric_(p)`: `0 < p < 1` (NaN is outside).
pub(crate) fn check_geometric(p: f64) -> Result<(), Error> {
    if !(0.0..1.0).contains(&p) || p == 0.0 {
        return Err(Error::GeometricP { p: p.to_bits() });
    }
    Ok(())
}

/// PyTorch's check of `bernoulli_(p)`: `0 <= p <= 1` (NaN is outside).
pub(crate) fn check_bernoulli(p: f64) -> Result<(), Error> {
    if !(0.0..=1.0).contains(&p) {
        return Err(Error::BernoulliP { p: p.to_bits() });
    }
    Ok(())
}

/// Fills `out` from `dist`, the generator's next blocks.
pub(crate) fn fill<T: RandomFloat, D: Random>(
    out: StridedMut<'_, T, D>,
    dist: Distribution,
    generator: &mut Generator,
) -> Result<(), Error> {
    let blocks = numel(out.sizes).div_ceil(T::PER_BLOCK) as u64;
    let offset = generator.take_blocks(blocks);
    D::fill_random(
        out,
        RandomFill {
            seed: generator.initial_seed(),
            offset,
            dist,
        },
    )
}

/// Fills `out` (of a floating or complex dtype) from `dist`: a complex
/// tensor through its parts, as PyTorch's `view_as_real` (the normal's
/// standard deviation divided by `sqrt(2)`).
fn fill_values<T: RandomValue, D: Random>(
    out: StridedMut<'_, T, D>,
    dist: Distribution,
    generator: &mut Generator,
) -> Result<(), Error> {
    if T::PARTS == 1 {
        let parts: StridedMut<'_, T::Part, D> = StridedMut {
            ptr: D::cast_ptr::<T, T::Part>(out.ptr),
            sizes: out.sizes,
            strides: out.strides,
            offset: out.offset,
        };
        return fill(parts, dist, generator);
    }
    let mut sizes = out.sizes.to_vec();
    sizes.push(2);
    let mut strides: Vec<usize> = out.strides.iter().map(|&s| 2 * s).collect();
    strides.push(1);
    let parts: StridedMut<'_, T::Part, D> = StridedMut {
        ptr: D::cast_ptr::<T, T::Part>(out.ptr),
        sizes: &sizes,
        strides: &strides,
        offset: 2 * out.offset,
    };
    let dist = match dist {
        Distribution::Normal { mean, std } => Distribution::Normal {
            mean,
            std: std / core::f64::consts::SQRT_2,
        },
        other => other,
    };
    fill(parts, dist, generator)
}

/// A new contiguous CPU tensor of `sizes`, every element written by
/// `write` (a fill of the whole layout).
fn written<T: Element, S: Shape>(
    sizes: &[usize],
    write: impl FnOnce(StridedMut<'_, T, Cpu>) -> Result<(), Error>,
) -> Result<Tensor<T, S, Cpu>, Error> {
    let sizes = S::check_sizes(sizes)?;
    checked_storage(sizes.as_ref(), size_of::<T>())?;
    check_contiguous_strides(sizes.as_ref())?;
    let n = checked_numel(sizes.as_ref())?;
    let strides: Vec<usize> = crate::layout::contiguous_strides(sizes.as_ref());
    let mut result = Ok(());
    // SAFETY: `write` fills the whole layout, the contiguous one of `sizes`:
    // every one of the buffer's `n` elements.
    let buffer = unsafe {
        CpuBuffer::try_new_with(n, |dst| {
            let out = StridedMut {
                ptr: crate::backend::cpu::CpuPtr::from_non_null(
                    core::ptr::NonNull::new(dst.as_mut_ptr().cast::<T>())
                        .expect("slice pointers are never null"),
                ),
                sizes: sizes.as_ref(),
                strides: &strides,
                offset: 0,
            };
            result = write(out);
        })?
    };
    result?;
    Ok(Tensor::from_buffer(
        buffer,
        StridedLayout::contiguous(sizes),
    ))
}

/// A new contiguous CPU tensor of `sizes` filled from `dist`.
fn filled<T: RandomValue, S: Shape>(
    sizes: &[usize],
    dist: Distribution,
    generator: &mut Generator,
) -> Result<Tensor<T, S, Cpu>, Error> {
    written(sizes, |out| fill_values::<T, Cpu>(out, dist, generator))
}

impl<T: Element, S: FixedShape> Tensor<T, S, Cpu> {
    /// Uniform numbers in `[0, 1)` (PyTorch's `rand`).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// use shaped::random::Generator;
    /// let x = Tensor::<f64, shape![3]>::rand(&mut Generator::new(1));
    /// assert!(x.iter().all(|&v| (0.0..1.0).contains(&v)));
    /// ```
    pub fn rand(generator: &mut Generator) -> Self
    where
        T: RandomValue,
    {
        Self::rand_with(S::SIZES.as_ref(), generator)
    }

    /// Standard normal numbers (PyTorch's `randn`).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// use shaped::random::Generator;
    /// let x = Tensor::<f32, shape![2, 2]>::randn(&mut Generator::new(1));
    /// assert!(x.iter().all(|v| v.is_finite()));
    /// ```
    pub fn randn(generator: &mut Generator) -> Self
    where
        T: RandomValue,
    {
        Self::randn_with(S::SIZES.as_ref(), generator)
    }
}

impl<T: Element, S: Shape> Tensor<T, S, Cpu> {
    /// [`rand`](Tensor::rand) with runtime sizes (for `Dyn` entries);
    /// panics with the error's text when they contradict the shape or do
    /// not fit in memory.
    pub fn rand_with(sizes: &[usize], generator: &mut Generator) -> Self
    where
        T: RandomValue,
    {
        Self::try_rand_with(sizes, generator).or_panic()
    }

    /// [`rand_with`](Self::rand_with), or `Err`.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// use shaped::random::Generator;
    /// let err = Tensor::<f32, shape![Dyn, 3]>::try_rand_with(&[2, 4], &mut Generator::new(0));
    /// assert!(err.is_err());
    /// ```
    pub fn try_rand_with(sizes: &[usize], generator: &mut Generator) -> Result<Self, Error>
    where
        T: RandomValue,
    {
        filled(sizes, Distribution::Uniform { lo: 0.0, hi: 1.0 }, generator)
    }

    /// [`randn`](Tensor::randn) with runtime sizes; panics as
    /// [`rand_with`](Self::rand_with).
    pub fn randn_with(sizes: &[usize], generator: &mut Generator) -> Self
    where
        T: RandomValue,
    {
        Self::try_randn_with(sizes, generator).or_panic()
    }

    /// [`randn_with`](Self::randn_with), or `Err`.
    pub fn try_randn_with(sizes: &[usize], generator: &mut Generator) -> Result<Self, Error>
    where
        T: RandomValue,
    {
        filled(
            sizes,
            Distribution::Normal {
                mean: 0.0,
                std: 1.0,
            },
            generator,
        )
    }
}

impl<T: Element, S: Shape, D: Random, R: Writable> Tensor<T, S, D, R> {
    /// Fills `self` with uniform numbers in `[from, to)` (PyTorch's
    /// `uniform_`); `Err` with PyTorch's text (and `self` untouched) for
    /// bounds out of order, out of the dtype's range, or too far apart.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// use shaped::random::Generator;
    /// let mut x = DynTensor::<f32>::zeros(&[3]);
    /// let err = x.uniform_(2.0, 1.0, &mut Generator::new(0)).unwrap_err();
    /// assert_eq!(err.to_string(), "uniform_ expects to return a [from, to) range, but found from=2 > to=1");
    /// ```
    pub fn uniform_(&mut self, from: f64, to: f64, generator: &mut Generator) -> Result<(), Error>
    where
        T: RandomValue,
    {
        check_uniform(from, to, <T::Part as Element>::DTYPE)?;
        let ptr = R::ptr_mut(&mut self.data);
        let out = super::assign::output(self, ptr);
        fill_values(out, Distribution::Uniform { lo: from, hi: to }, generator)
    }

    /// Fills `self` with normal numbers of mean `mean` and standard
    /// deviation `std` (PyTorch's `normal_`); `Err` with PyTorch's text for
    /// a negative `std`.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// use shaped::random::Generator;
    /// let mut x = DynTensor::<f64>::zeros(&[4]);
    /// x.normal_(1.0, 0.0, &mut Generator::new(0)).unwrap();
    /// assert_eq!(x.to_vec(), vec![1.0; 4]);
    /// ```
    pub fn normal_(&mut self, mean: f64, std: f64, generator: &mut Generator) -> Result<(), Error>
    where
        T: RandomValue,
    {
        check_normal(std)?;
        let ptr = R::ptr_mut(&mut self.data);
        let out = super::assign::output(self, ptr);
        fill_values(out, Distribution::Normal { mean, std }, generator)
    }

    /// Fills `self` with exponential numbers of rate `lambda` (PyTorch's
    /// `exponential_`): `-ln(u) / lambda`. `Err` with PyTorch's text unless
    /// `lambda > 0`.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// use shaped::random::Generator;
    /// let mut x = DynTensor::<f32>::zeros(&[1000]);
    /// x.exponential_(2.0, &mut Generator::new(0)).unwrap();
    /// assert!(x.to_vec().iter().all(|&v| v >= 0.0));
    /// assert_eq!(
    ///     x.exponential_(-1.0, &mut Generator::new(0)).unwrap_err().to_string(),
    ///     "exponential_ expects lambda > 0.0, but found lambda=-1"
    /// );
    /// ```
    pub fn exponential_(&mut self, lambda: f64, generator: &mut Generator) -> Result<(), Error>
    where
        T: RandomFloat,
    {
        // (NaN fails the comparison, as in PyTorch.)
        if lambda.partial_cmp(&0.0) != Some(core::cmp::Ordering::Greater) {
            return Err(Error::ExponentialLambda {
                lambda: lambda.to_bits(),
            });
        }
        let ptr = R::ptr_mut(&mut self.data);
        let out = super::assign::output(self, ptr);
        fill(out, Distribution::Exponential { lambda }, generator)
    }

    /// Fills `self` with geometric numbers of success probability `p`
    /// (PyTorch's `geometric_`): the number of the first success, from 1.
    /// Floating tensors from the float fills, integer ones from the
    /// whole-number draws (computed in float64, wrapping to the dtype as
    /// PyTorch's conversion does). `Err` with PyTorch's text unless `0 < p
    /// < 1`.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// use shaped::random::Generator;
    /// let mut x = DynTensor::<f32>::zeros(&[1000]);
    /// x.geometric_(0.25, &mut Generator::new(0)).unwrap();
    /// assert!(x.to_vec().iter().all(|&v| v >= 1.0 && v.fract() == 0.0));
    /// assert_eq!(
    ///     x.geometric_(1.0, &mut Generator::new(0)).unwrap_err().to_string(),
    ///     "geometric_ expects p to be in (0, 1), but got p=1"
    /// );
    /// ```
    pub fn geometric_(&mut self, p: f64, generator: &mut Generator) -> Result<(), Error>
    where
        T: RandomGeometric,
    {
        check_geometric(p)?;
        let ptr = R::ptr_mut(&mut self.data);
        let out = super::assign::output(self, ptr);
        T::fill_geometric(out, p, generator)
    }

    /// Fills `self` with Cauchy numbers of location `median` and scale
    /// `sigma` (PyTorch's `cauchy_`). `Err` with PyTorch's text unless
    /// `sigma > 0`.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// use shaped::random::Generator;
    /// let mut x = DynTensor::<f64>::zeros(&[4]);
    /// x.cauchy_(0.0, 1.0, &mut Generator::new(0)).unwrap();
    /// assert_eq!(
    ///     x.cauchy_(0.0, 0.0, &mut Generator::new(0)).unwrap_err().to_string(),
    ///     "cauchy_ expects sigma > 0.0, but found sigma=0"
    /// );
    /// ```
    pub fn cauchy_(
        &mut self,
        median: f64,
        sigma: f64,
        generator: &mut Generator,
    ) -> Result<(), Error>
    where
        T: RandomFloat,
    {
        if sigma.partial_cmp(&0.0) != Some(core::cmp::Ordering::Greater) {
            return Err(Error::CauchySigma {
                sigma: sigma.to_bits(),
            });
        }
        let ptr = R::ptr_mut(&mut self.data);
        let out = super::assign::output(self, ptr);
        fill(out, Distribution::Cauchy { median, sigma }, generator)
    }
}

/// `from` rounded up to the floating dtype `T` as PyTorch's
/// `update_from` does: when `from + 1` rounds below `from`, to the next
/// value `T` holds.
fn update_from<T: RandomWhole>(from: i64, digits: u32) -> i64 {
    let from_plus_1 = T::from_whole(from.wrapping_add(1)).to_whole();
    if from_plus_1 < from {
        let n = 63 - from.wrapping_add(1).unsigned_abs().leading_zeros() as i64;
        return from_plus_1 + (1i64 << (n - i64::from(digits) + 1));
    }
    from
}

/// `to` rounded down to the floating dtype `T` as PyTorch's `update_to`.
fn update_to<T: RandomWhole>(to: i64, digits: u32) -> i64 {
    let to_minus_1 = T::from_whole(to.wrapping_sub(1)).to_whole();
    if to_minus_1 >= to {
        let n = 63 - to.wrapping_sub(1).unsigned_abs().leading_zeros() as i64;
        return to_minus_1 - (1i64 << (n - i64::from(digits) + 1));
    }
    to
}

/// PyTorch's `check_from_to_in_range`: `from` and `to_inc` within `T`.
fn check_in_range<T: RandomWhole>(from: i64, to_inc: i64) -> Result<(), Error> {
    let (lowest, largest) = T::BOUNDS;
    for (which, bound) in [("from", from), ("to - 1", to_inc)] {
        let bound = bound as f64;
        if bound < lowest || bound > largest {
            return Err(Error::RandomBound {
                which,
                type_name: T::CPP_NAME,
            });
        }
    }
    Ok(())
}

/// The draw of `random_(from, to)` on a tensor of `T` (`to: None`: up to
/// the dtype's largest value; `from = i64::MIN` and `to: None`: every
/// 64-bit integer), with PyTorch's checks and texts in its order.
pub(crate) fn random_draw<T: RandomWhole>(from: i64, to: Option<i64>) -> Result<Draw, Error> {
    match to {
        Some(to) => {
            if from >= to {
                return Err(Error::RandomFromTo { from, to });
            }
            let (mut from, mut to) = (from, to);
            if let Some(digits) = T::DIGITS {
                from = update_from::<T>(from, digits);
                to = update_to::<T>(to, digits);
                if from >= to {
                    return Err(Error::RandomFromToCast { from, to });
                }
            }
            check_in_range::<T>(from, to - 1)?;
            Ok(Draw::Integers {
                low: from,
                range: (to as u64).wrapping_sub(from as u64),
            })
        }
        None if from != i64::MIN => {
            let to_inc = T::RANDOM_MAX;
            let mut from = from;
            if let Some(digits) = T::DIGITS {
                from = update_from::<T>(from, digits);
                if from >= to_inc {
                    return Err(Error::RandomFromToInc { from, to_inc });
                }
            }
            check_in_range::<T>(from, to_inc)?;
            Ok(Draw::Integers {
                low: from,
                range: (to_inc as u64).wrapping_sub(from as u64).wrapping_add(1),
            })
        }
        // PyTorch's dispatch covers the integers and the wide floats, and
        // its kernel only some of them.
        None => match T::DTYPE {
            DType::I64 | DType::F64 | DType::F32 | DType::BF16 => Ok(Draw::Bits),
            DType::F16 | DType::Bool => Err(Error::NotImplementedFor {
                op: "random_full_64_bits_range_kernel_cpu",
                dtype: T::DTYPE,
            }),
            _ => Err(Error::Unsupported {
                message: "random_full_64_bits_range_kernel_cpu handles only int64, double, float and bfloat16",
            }),
        },
    }
}

/// The draw of `random_()`: `0..=RANDOM_MAX`.
fn full_draw<T: RandomWhole>() -> Draw {
    Draw::Integers {
        low: 0,
        range: T::RANDOM_MAX as u64 + 1,
    }
}

/// Fills `out` with `draw`, from the generator's next blocks (one per two
/// elements).
pub(crate) fn fill_draws<T: RandomWhole, D: Random>(
    out: StridedMut<'_, T, D>,
    draw: Draw,
    generator: &mut Generator,
) -> Result<(), Error> {
    let offset = generator.take_blocks(numel(out.sizes).div_ceil(2) as u64);
    D::fill_draws(
        out,
        DrawFill {
            seed: generator.initial_seed(),
            offset,
            draw,
        },
    )
}

impl<T: Element, S: Shape, D: Random, R: Writable> Tensor<T, S, D, R> {
    /// Fills `self` with uniform integers in `0..=max` (PyTorch's
    /// `random_()`): `max` is the dtype's largest integer (1 for bool), or
    /// `2^digits` for a floating dtype (`2^24` for float32), so that every
    /// value is exact.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// use shaped::random::Generator;
    /// let mut x = DynTensor::<u8>::zeros(&[1000]);
    /// x.random_(&mut Generator::new(0)).unwrap();
    /// assert!(x.iter().any(|&v| v > 200));
    /// ```
    pub fn random_(&mut self, generator: &mut Generator) -> Result<(), Error>
    where
        T: RandomWhole,
    {
        let ptr = R::ptr_mut(&mut self.data);
        let out = super::assign::output(self, ptr);
        fill_draws(out, full_draw::<T>(), generator)
    }

    /// Fills `self` with uniform integers in `0..to` (PyTorch's
    /// `random_(to)`); its texts for `to <= 0` and bounds outside the dtype.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// use shaped::random::Generator;
    /// let mut x = DynTensor::<i8>::zeros(&[3]);
    /// assert_eq!(
    ///     x.random_to_(300, &mut Generator::new(0)).unwrap_err().to_string(),
    ///     "to - 1 is out of bounds for signed char"
    /// );
    /// ```
    pub fn random_to_(&mut self, to: i64, generator: &mut Generator) -> Result<(), Error>
    where
        T: RandomWhole,
    {
        self.random_from_(0, Some(to), generator)
    }

    /// Fills `self` with uniform integers in `from..to`, or with `to: None`
    /// in `from..=max` of [`random_`](Self::random_) (PyTorch's
    /// `random_(from, to)`); `from = i64::MIN` with `to: None` draws every
    /// 64-bit integer (int64 and the float32, float64 and bfloat16 dtypes,
    /// as in PyTorch). On a floating dtype the bounds are first rounded
    /// inwards to values it holds, as PyTorch does; its texts for bounds
    /// out of order or outside the dtype, and `self` untouched.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// use shaped::random::Generator;
    /// let mut g = Generator::new(0);
    /// let mut x = DynTensor::<f32>::zeros(&[100]);
    /// x.random_from_(-3, Some(3), &mut g).unwrap();
    /// assert!(x.iter().all(|&v| v.fract() == 0.0 && (-3.0..3.0).contains(&v)));
    /// assert_eq!(
    ///     x.random_from_(5, Some(3), &mut g).unwrap_err().to_string(),
    ///     "random_ expects 'from' to be less than 'to', but got from=5 >= to=3"
    /// );
    /// ```
    pub fn random_from_(
        &mut self,
        from: i64,
        to: Option<i64>,
        generator: &mut Generator,
    ) -> Result<(), Error>
    where
        T: RandomWhole,
    {
        let draw = random_draw::<T>(from, to)?;
        let ptr = R::ptr_mut(&mut self.data);
        let out = super::assign::output(self, ptr);
        fill_draws(out, draw, generator)
    }

    /// Fills `self` with Bernoulli trials of probability `p`: 1 with
    /// probability `p`, else 0 (PyTorch's `bernoulli_(p)`), any real dtype.
    /// `Err` with PyTorch's text unless `0 <= p <= 1`. The trial compares
    /// 53 random bits with `p`: exact for multiples of `2^-53`.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// use shaped::random::Generator;
    /// let mut x = DynTensor::<bool>::zeros(&[10_000]);
    /// x.bernoulli_(0.25, &mut Generator::new(0)).unwrap();
    /// let ones = x.iter().filter(|&&b| b).count();
    /// assert!((2300..2700).contains(&ones));
    /// assert_eq!(
    ///     x.bernoulli_(1.5, &mut Generator::new(0)).unwrap_err().to_string(),
    ///     "bernoulli_ expects p to be in [0, 1], but got p=1.5"
    /// );
    /// ```
    pub fn bernoulli_(&mut self, p: f64, generator: &mut Generator) -> Result<(), Error>
    where
        T: RandomWhole,
    {
        check_bernoulli(p)?;
        let ptr = R::ptr_mut(&mut self.data);
        let out = super::assign::output(self, ptr);
        fill_draws(out, Draw::bernoulli(p), generator)
    }

    /// Fills `self` with log-normal numbers: `exp(N(mean, std))` (PyTorch's
    /// `log_normal_`); `Err` with PyTorch's text unless `std > 0`.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// use shaped::random::Generator;
    /// let mut x = DynTensor::<f64>::zeros(&[1000]);
    /// x.log_normal_(0.0, 0.5, &mut Generator::new(0)).unwrap();
    /// assert!(x.iter().all(|&v| v > 0.0));
    /// assert_eq!(
    ///     x.log_normal_(0.0, 0.0, &mut Generator::new(0)).unwrap_err().to_string(),
    ///     "log_normal_ expects std > 0.0, but found std=0"
    /// );
    /// ```
    pub fn log_normal_(
        &mut self,
        mean: f64,
        std: f64,
        generator: &mut Generator,
    ) -> Result<(), Error>
    where
        T: RandomFloat,
    {
        if std.partial_cmp(&0.0) != Some(core::cmp::Ordering::Greater) {
            return Err(Error::LogNormalStd { std: std.to_bits() });
        }
        let ptr = R::ptr_mut(&mut self.data);
        let out = super::assign::output(self, ptr);
        fill(out, Distribution::LogNormal { mean, std }, generator)
    }
}

impl<T: Element, S: Shape, D: Random, R: crate::storage::Repr> Tensor<T, S, D, R> {
    /// Uniform integers in `low..high` of `self`'s shape, dtype, device and
    /// layout (PyTorch's `randint_like(x, low, high)`), with the checks of
    /// [`random_from_`](Tensor::random_from_).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// use shaped::random::Generator;
    /// let x = Tensor::<i32, shape![2, 3]>::zeros();
    /// let r = x.randint_like(-2, 2, &mut Generator::new(0)).unwrap();
    /// assert!(r.iter().all(|v| (-2..2).contains(v)));
    /// ```
    pub fn randint_like(
        &self,
        low: i64,
        high: i64,
        generator: &mut Generator,
    ) -> Result<Tensor<T, S, D>, Error>
    where
        T: RandomWhole,
    {
        random_draw::<T>(low, Some(high))?;
        let mut out = self.try_full_like(T::ZERO)?;
        out.random_from_(low, Some(high), generator)?;
        Ok(out)
    }
}

/// `n` uniform integers in `low..high` from `generator`'s next blocks.
fn randint_values<T: RandomWhole, S: Shape>(
    low: i64,
    high: i64,
    sizes: &[usize],
    generator: &mut Generator,
) -> Result<Tensor<T, S, Cpu>, Error> {
    let draw = random_draw::<T>(low, Some(high))?;
    written(sizes, |out| fill_draws::<T, Cpu>(out, draw, generator))
}

/// A uniform integer in `0..range` from 64 random bits (Lemire's
/// multiply, as [`Draw::Integers`]).
#[inline(always)]
fn below(bits: u64, range: u64) -> u64 {
    Draw::Integers { low: 0, range }.value(bits) as u64
}

/// A random permutation of `0..n` (Fisher-Yates, step `k` drawing from
/// element `k` of `generator`'s next blocks), with PyTorch's checks: `n - 1`
/// must fit an integer dtype, `n` be at most one past the integers a float
/// dtype counts exactly (not checked for bfloat16, as in PyTorch).
fn randperm_values<T: Arange, S: Shape>(
    n: usize,
    generator: &mut Generator,
) -> Result<Tensor<T, S, Cpu>, Error> {
    match T::RANDPERM_LIMIT {
        Some((limit, text, name)) if n as u64 > limit => {
            return Err(Error::RandpermPrecision { limit: text, name });
        }
        Some(_) => {}
        None if n > 0 => {
            crate::dynamic::checked_scalar::<T>(crate::dtype::Scalar::Int(n as i64 - 1))?;
        }
        None => {}
    }
    let steps = n.saturating_sub(1);
    let first = generator.take_blocks(steps.div_ceil(2) as u64);
    let seed = generator.initial_seed();
    // Positions as i32 while they fit: half the memory to jump around in.
    let draw = |k: usize, bits: u64| below(bits, (n - k) as u64) as usize;
    if i32::try_from(n).is_ok() {
        let values = permutation(n, seed, first, draw, |i| i as i32, |p| p as usize)?;
        rank_one(n, |i| T::wrapped(i64::from(values[i])))
    } else {
        let values = permutation(n, seed, first, draw, |i| i as i64, |p| p as usize)?;
        rank_one(n, |i| T::wrapped(values[i]))
    }
}

/// Asks the cache for the line holding `at` (a hint: nothing is read).
#[inline(always)]
fn prefetch<I>(at: *const I) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch reads nothing and faults on no address; SSE is
    // part of x86_64.
    unsafe {
        core::arch::x86_64::_mm_prefetch::<{ core::arch::x86_64::_MM_HINT_T0 }>(at.cast::<i8>())
    };
    #[cfg(not(target_arch = "x86_64"))]
    let _ = at;
}

/// `0..n` as positions of type `I`, shuffled by Fisher-Yates: the draws
/// first (draw `k` from element `k`'s bits of the blocks from `first`), on
/// the threads, then step `k` swaps position `n - 1 - k` with draw `k` (at
/// most `n - 1 - k`), in order.
fn permutation<I: Element>(
    n: usize,
    seed: u64,
    first: u64,
    draw: impl Fn(usize, u64) -> usize + Sync,
    position: impl Fn(usize) -> I + Sync,
    index: impl Fn(I) -> usize,
) -> Result<Vec<I>, Error> {
    let draws =
        crate::backend::cpu::random::from_bits(n.saturating_sub(1), seed, first, |k, bits| {
            position(draw(k, bits))
        })?;
    let draws = draws.as_slice();
    let mut values = crate::backend::cpu::try_vec_with_capacity::<I>(n)?;
    values.extend((0..n).map(&position));
    // The swaps jump around the whole permutation: each would wait for
    // memory, but the draws are known, so the line of a later swap is
    // asked for `AHEAD` steps early.
    const AHEAD: usize = 24;
    for (k, &j) in draws.iter().enumerate() {
        if let Some(&later) = draws.get(k + AHEAD) {
            prefetch(values.as_ptr().wrapping_add(index(later)));
        }
        values.swap(n - 1 - k, index(j));
    }
    Ok(values)
}

impl<T: Element, S: FixedShape> Tensor<T, S, Cpu> {
    /// Uniform integers in `low..high` (PyTorch's `randint`), as the dtype
    /// holds them; `Err` with PyTorch's text when `low >= high` or a bound
    /// lies outside the dtype.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// use shaped::random::Generator;
    /// let x = Tensor::<i64, shape![2, 3]>::randint(-5, 5, &mut Generator::new(0)).unwrap();
    /// assert!(x.iter().all(|v| (-5..5).contains(v)));
    /// let err = Tensor::<u8, shape![2]>::randint(0, 300, &mut Generator::new(0)).unwrap_err();
    /// assert_eq!(err.to_string(), "to - 1 is out of bounds for unsigned char");
    /// ```
    pub fn randint(low: i64, high: i64, generator: &mut Generator) -> Result<Self, Error>
    where
        T: RandomWhole,
    {
        randint_values(low, high, S::SIZES.as_ref(), generator)
    }
}

impl<T: Element, N: crate::shape::StaticDim> Tensor<T, (N,), Cpu> {
    /// A random permutation of `0..N` (PyTorch's `randperm(N)`); `Err` when
    /// `N - 1` does not fit the dtype.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// use shaped::random::Generator;
    /// let p = Tensor::<i64, shape![5]>::randperm(&mut Generator::new(7)).unwrap();
    /// let mut seen = p.to_vec();
    /// seen.sort();
    /// assert_eq!(seen, vec![0, 1, 2, 3, 4]);
    /// ```
    pub fn randperm(generator: &mut Generator) -> Result<Self, Error>
    where
        T: Arange,
    {
        randperm_values(N::N, generator)
    }
}

impl<T: Element, S: Shape> Tensor<T, S, Cpu> {
    /// [`randint`](Tensor::randint) with runtime sizes.
    pub fn randint_with(
        low: i64,
        high: i64,
        sizes: &[usize],
        generator: &mut Generator,
    ) -> Result<Self, Error>
    where
        T: RandomWhole,
    {
        randint_values(low, high, sizes, generator)
    }

    /// [`randperm`](Tensor::randperm) of a runtime length (rank 1).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// use shaped::random::Generator;
    /// let err = DynTensor::<u8>::randperm_with(257, &mut Generator::new(0)).unwrap_err();
    /// assert_eq!(err.to_string(), "value cannot be converted to type uint8_t without overflow");
    /// ```
    pub fn randperm_with(n: usize, generator: &mut Generator) -> Result<Self, Error>
    where
        T: Arange,
    {
        randperm_values(n, generator)
    }
}
