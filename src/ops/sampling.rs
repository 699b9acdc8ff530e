//! Sampling with tensor parameters: `bernoulli` of a tensor of
//! probabilities (and `bernoulli_tensor_` in place), `poisson` of a tensor
//! of rates, `normal` with tensor means and standard deviations, and
//! `multinomial`. Each is built from the
//! fills of [`crate::ops::random`] and the elementwise, reduction and
//! sorting kernels, so it runs on every device with the same numbers for
//! the same seed; PyTorch's checks and texts.
//!
//! ```
//! use shaped::prelude::*;
//! use shaped::random::Generator;
//! let mut g = Generator::new(0);
//! let p = tensor![0.0f32, 1.0, 1.0, 0.0];
//! assert_eq!(p.bernoulli(&mut g).unwrap().to_vec(), vec![0.0, 1.0, 1.0, 0.0]);
//! let mean = tensor![[0.0f64], [100.0]];
//! let x = Tensor::normal_tensor_float(&mean, 0.0, &mut g).unwrap();
//! assert_eq!(x.to_vec(), vec![0.0, 100.0]);
//! let picks = tensor![0.0f32, 0.0, 5.0].multinomial(1, false, &mut g).unwrap();
//! assert_eq!(picks.to_vec(), vec![2]);
//! ```

use crate::DynShape;
use crate::backend::{Elementwise, Random, Reductions, Sorting, StridedRef};
use crate::dtype::Element;
use crate::dtype::cast::cast;
use crate::dtype::ternary::Addcmul;
use crate::dynamic::DynTensor;
use crate::error::Error;
use crate::layout::{StridedLayout, numel};
use crate::ops::functions::Constant;
use crate::random::{Generator, RandomFloat, RandomValue, RandomWhole};
use crate::shape::{Broadcast, BroadcastShape, Shape, broadcast_sizes};
use crate::storage::{Owned, Repr, Writable};
use crate::tensor::Tensor;

/// PyTorch's text for probabilities outside `[0, 1]` (or NaN).
const BERNOULLI_RANGE: &str = "Expected p_in >= 0 && p_in <= 1 to be true, but got false.  (Could this error message be improved?  If so, please report an enhancement request to PyTorch.)";

/// PyTorch's texts of `multinomial`.
mod texts {
    pub const RANK: &str = "prob_dist must be 1 or 2 dim";
    pub const SAMPLES: &str = "cannot sample n_sample <= 0 samples";
    pub const TOO_MANY: &str =
        "cannot sample n_sample > prob_dist.size(-1) samples without replacement";
    pub const CATEGORIES: &str = "number of categories cannot exceed 2^24";
    pub const INVALID: &str = "probability tensor contains either `inf`, `nan` or element < 0";
    pub const SUM: &str = "invalid multinomial distribution (sum of probabilities <= 0)";
    pub const NEGATIVE: &str =
        "invalid multinomial distribution (encountering probability entry < 0)";
    pub const INFINITE: &str =
        "invalid multinomial distribution (encountering probability entry = infinity or NaN)";
}

fn refuse(message: &'static str) -> Error {
    Error::Unsupported { message }
}

/// A rank-0 tensor holding `value` on `like`'s device; `like` must have
/// an element (its first is read, and ignored).
fn scalar_like<T: Element, U: Element, S: Shape, D: Elementwise, R: Repr>(
    like: &Tensor<U, S, D, R>,
    value: T,
) -> Result<DynTensor<T, D>, Error> {
    debug_assert!(numel(like.layout.sizes()) > 0);
    let x = StridedRef::new(&like.data, &like.layout);
    let one = StridedRef {
        sizes: &[],
        strides: &[],
        ..x
    };
    let buffer = D::map1(one, Constant(value))?;
    Ok(Tensor::from_buffer(
        buffer,
        StridedLayout::contiguous(DynShape::check_sizes(&[])?),
    ))
}

/// The element of a (contiguous or not) tensor at row-major `index` of its
/// first dimension, copied to the host.
fn item_at<T: Element, D: Elementwise>(x: &DynTensor<T, D>, index: usize) -> Result<T, Error> {
    let at = StridedRef::new(&x.data, &x.layout);
    D::item(StridedRef {
        sizes: &[],
        strides: &[],
        offset: at.offset + index * at.strides.first().copied().unwrap_or(0),
        ..at
    })
}

/// Whether every element of `mask` is true.
fn all_true<D: Reductions>(mask: &DynTensor<bool, D>) -> Result<bool, Error> {
    let all = mask.all_all();
    D::item(StridedRef::new(&all.data, &all.layout))
}

/// Bernoulli trials of the probabilities `p`: `u < p` for `u` uniform of
/// 53 bits (exact for probabilities that are multiples of `2^-53`), after
/// PyTorch's check that every `p` lies in `[0, 1]`.
fn trials<D: Random + Reductions>(
    p: &DynTensor<f64, D>,
    generator: &mut Generator,
) -> Result<DynTensor<bool, D>, Error> {
    let inside = p.try_ge(0.0)?.try_logical_and(&p.try_le(1.0)?)?;
    if !all_true(&inside)? {
        return Err(refuse(BERNOULLI_RANGE));
    }
    let mut u = p.try_full_like(0.0)?;
    u.uniform_(0.0, 1.0, generator)?;
    u.try_lt(p)
}

impl<T: Element, S: Shape, D: Random + Reductions, R: Repr> Tensor<T, S, D, R> {
    /// Bernoulli trials of the probabilities in `self`: 1 with probability
    /// `self[i]`, else 0, in `self`'s shape, dtype and device (PyTorch's
    /// `bernoulli(input)`). `Err` with PyTorch's text when a probability
    /// lies outside `[0, 1]` or is NaN.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// use shaped::random::Generator;
    /// let p = DynTensor::<f64>::full(&[10_000], 0.5);
    /// let x = p.bernoulli(&mut Generator::new(1)).unwrap();
    /// let ones: f64 = x.iter().sum();
    /// assert!((4800.0..5200.0).contains(&ones));
    /// let bad = DynTensor::<f32>::full(&[2], 1.5);
    /// assert!(bad.bernoulli(&mut Generator::new(1)).unwrap_err().to_string().starts_with(
    ///     "Expected p_in >= 0 && p_in <= 1 to be true, but got false."
    /// ));
    /// ```
    pub fn bernoulli(&self, generator: &mut Generator) -> Result<Tensor<T, S, D>, Error>
    where
        T: RandomFloat,
    {
        let p = self.try_cast::<f64>()?.into_dyn();
        let hits = trials(&p, generator)?;
        let mut out = self.try_full_like(T::ZERO)?;
        out.copy_(&hits)?;
        Ok(out)
    }

    /// Poisson samples of the rates in `self`, in its shape, dtype and
    /// device (PyTorch's `poisson`): whole numbers as floats. `Err` with
    /// PyTorch's text when a rate is negative or NaN. An infinite rate
    /// gives infinity (PyTorch's int64 conversion gives `-2^63`). Each
    /// element draws from its own stream ([`crate::random::poisson`]).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// use shaped::random::Generator;
    /// let rates = DynTensor::<f64>::full(&[100_000], 4.0);
    /// let x = rates.poisson(&mut Generator::new(0)).unwrap();
    /// let mean = x.iter().sum::<f64>() / 100_000.0;
    /// assert!((mean - 4.0).abs() < 0.05);
    /// assert_eq!(
    ///     tensor![-1.0f32].poisson(&mut Generator::new(0)).unwrap_err().to_string(),
    ///     "invalid Poisson rate, expected rate to be non-negative"
    /// );
    /// ```
    pub fn poisson(&self, generator: &mut Generator) -> Result<Tensor<T, S, D>, Error>
    where
        T: RandomFloat,
    {
        let rates = self.try_cast::<f64>()?.into_dyn();
        if !all_true(&rates.try_ge(0.0)?)? {
            return Err(refuse(
                "invalid Poisson rate, expected rate to be non-negative",
            ));
        }
        let mut out = self.try_full_like(T::ZERO)?;
        let offset = generator.take_blocks(numel(self.layout.sizes()) as u64);
        let ptr = Owned::ptr_mut(&mut out.data);
        let target = super::assign::output(&out, ptr);
        D::poisson(
            StridedRef::new(&self.data, &self.layout),
            target,
            generator.initial_seed(),
            offset,
        )?;
        Ok(out)
    }

    /// Bernoulli trials of probability `p` in `self`'s shape, dtype and
    /// device (PyTorch's `bernoulli(input, p)`); see
    /// [`bernoulli_`](Tensor::bernoulli_).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// use shaped::random::Generator;
    /// let x = DynTensor::<i64>::zeros(&[4]).bernoulli_p(1.0, &mut Generator::new(0)).unwrap();
    /// assert_eq!(x.to_vec(), vec![1; 4]);
    /// ```
    pub fn bernoulli_p(&self, p: f64, generator: &mut Generator) -> Result<Tensor<T, S, D>, Error>
    where
        T: RandomWhole,
    {
        let mut out = self.try_full_like(T::ZERO)?;
        out.bernoulli_(p, generator)?;
        Ok(out)
    }
}

impl<T: Element, S: Shape, D: Random + Reductions, R: Writable> Tensor<T, S, D, R> {
    /// Fills `self` with Bernoulli trials of the probabilities `p`, which
    /// broadcast to `self`'s shape (PyTorch's `bernoulli_(p)` with a
    /// tensor): 1 with probability `p[i]`, else 0, any real dtype. `Err`
    /// with PyTorch's texts (and `self` untouched) when `p` does not
    /// broadcast or holds a value outside `[0, 1]`.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// use shaped::random::Generator;
    /// let mut x = DynTensor::<u8>::zeros(&[2, 3]);
    /// x.bernoulli_tensor_(&tensor![1.0f32, 0.0, 1.0], &mut Generator::new(0)).unwrap();
    /// assert_eq!(x.to_vec(), vec![1, 0, 1, 1, 0, 1]);
    /// ```
    pub fn bernoulli_tensor_<P: RandomFloat, S2: Shape, R2: Repr>(
        &mut self,
        p: &Tensor<P, S2, D, R2>,
        generator: &mut Generator,
    ) -> Result<(), Error>
    where
        T: RandomWhole,
    {
        let sizes: Vec<isize> = self.layout.sizes().iter().map(|&n| n as isize).collect();
        let p = p.as_view().into_dyn().expand(&sizes)?.try_cast::<f64>()?;
        let hits = trials(&p, generator)?;
        self.copy_(&hits)
    }
}

/// PyTorch's checks of a tensor of standard deviations: not complex, none
/// below 0 (NaN fails too).
fn check_stds<T: Element, S: Shape, D: Random + Reductions, R: Repr>(
    std: &Tensor<T, S, D, R>,
) -> Result<(), Error> {
    if T::DTYPE.is_complex() {
        return Err(refuse(
            "normal expects standard deviation to be non-complex",
        ));
    }
    let std = std.try_cast::<f64>()?.into_dyn();
    if !all_true(&std.try_ge(0.0)?)? {
        return Err(refuse("normal expects all elements of std >= 0.0"));
    }
    Ok(())
}

impl<T: RandomValue + Addcmul, S: Shape, D: Random + Reductions, R: Repr> Tensor<T, S, D, R> {
    /// Normal numbers of means `mean` and standard deviations `std`, which
    /// broadcast together (PyTorch's `normal(mean, std)` with two tensors);
    /// the result has `mean`'s dtype, and the broadcast shape, computed by
    /// the compiler where the shapes are static. `Err` with PyTorch's texts
    /// when the shapes do not broadcast or a standard deviation is negative,
    /// NaN or complex. (`std` of another real dtype is converted to
    /// `mean`'s first; a complex mean gets complex noise, each part of
    /// standard deviation `std / sqrt(2)`, as in PyTorch.)
    ///
    /// ```
    /// use shaped::prelude::*;
    /// use shaped::random::Generator;
    /// let mean = Tensor::<f32, shape![3, 1]>::zeros();
    /// let std = Tensor::<f32, shape![4]>::ones();
    /// let x: Tensor<f32, shape![3, 4]> = Tensor::normal_tensor_tensor(&mean, &std, &mut Generator::new(0)).unwrap();
    /// assert!(x.iter().all(|v| v.is_finite()));
    /// ```
    pub fn normal_tensor_tensor<T2: Element, S2: Shape, R2: Repr>(
        mean: &Self,
        std: &Tensor<T2, S2, D, R2>,
        generator: &mut Generator,
    ) -> Result<Tensor<T, Broadcast<S, S2>, D>, Error>
    where
        S: BroadcastShape<S2>,
    {
        let sizes = broadcast_sizes(mean.layout.sizes(), std.layout.sizes())?;
        check_stds(std)?;
        let sizes: Vec<isize> = sizes.iter().map(|&n| n as isize).collect();
        let mut out = mean.as_view().into_dyn().expand(&sizes)?.try_cast::<T>()?;
        let mut z = out.try_full_like(T::ZERO)?;
        z.normal_(0.0, 1.0, generator)?;
        let std = std.try_cast::<T>()?.into_dyn();
        out.addcmul_(&z, &std, 1.0)?;
        out.into_static()
    }

    /// Normal numbers of means `mean` and one standard deviation `std`
    /// (PyTorch's `normal(mean, std)` with a tensor and a number), in
    /// `mean`'s shape and dtype; `Err` with PyTorch's text for a negative or
    /// NaN `std`.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// use shaped::random::Generator;
    /// let err = Tensor::normal_tensor_float(&tensor![0.0f32], -2.0, &mut Generator::new(0));
    /// assert_eq!(err.unwrap_err().to_string(), "normal expects std >= 0.0, but found std -2");
    /// ```
    pub fn normal_tensor_float(
        mean: &Self,
        std: f64,
        generator: &mut Generator,
    ) -> Result<Tensor<T, S, D>, Error> {
        if std
            .partial_cmp(&0.0)
            .is_none_or(|o| o == core::cmp::Ordering::Less)
        {
            return Err(Error::NormalStd { std: std.to_bits() });
        }
        let mut out = mean.try_cast::<T>()?.into_dyn();
        if numel(out.layout.sizes()) > 0 {
            let mut z = out.try_full_like(T::ZERO)?;
            z.normal_(0.0, std, generator)?;
            let one = scalar_like(&out, T::ONE)?;
            out.addcmul_(&z, &one, 1.0)?;
        }
        out.into_static()
    }

    /// Normal numbers of one mean `mean` and standard deviations `std`
    /// (PyTorch's `normal(mean, std)` with a number and a tensor), in
    /// `std`'s shape and dtype; `Err` with PyTorch's text when a standard
    /// deviation is negative or NaN.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// use shaped::random::Generator;
    /// let x = Tensor::normal_float_tensor(5.0, &tensor![0.0f64, 0.0], &mut Generator::new(0)).unwrap();
    /// assert_eq!(x.to_vec(), vec![5.0, 5.0]);
    /// ```
    pub fn normal_float_tensor(
        mean: f64,
        std: &Self,
        generator: &mut Generator,
    ) -> Result<Tensor<T, S, D>, Error> {
        check_stds(std)?;
        let std = std.try_cast::<T>()?.into_dyn();
        let mut out = std.try_full_like(cast::<f64, T>(mean))?;
        let mut z = out.try_full_like(T::ZERO)?;
        z.normal_(0.0, 1.0, generator)?;
        out.addcmul_(&z, &std, 1.0)?;
        out.into_static()
    }
}

impl<T: RandomFloat, S: Shape, D: Random + Reductions + Sorting, R: Repr> Tensor<T, S, D, R> {
    /// `num_samples` category indices per row of the probabilities `self`
    /// (1-d, or 2-d with a distribution per row; weights need not sum to
    /// 1), with or without `replacement` (PyTorch's `multinomial`): a
    /// tensor of int64 of shape `[num_samples]` or `[rows, num_samples]`.
    /// PyTorch's checks and texts.
    ///
    /// Both ways race exponential clocks, as PyTorch does without
    /// replacement: category `j` of a row wins with probability `p[j] /
    /// sum(p)`, the winners of `p / q` for `q` exponential (the `topk` of it
    /// without replacement, an `argmax` per sample with it). Every device
    /// draws the same samples for a seed; with replacement the work grows
    /// as `rows * num_samples * categories` (PyTorch's CPU kernel searches a
    /// cumulative sum instead). A row whose first invalid entry is an
    /// infinity followed by a negative one is reported as negative, where
    /// PyTorch names the infinity.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// use shaped::random::Generator;
    /// let mut g = Generator::new(0);
    /// let p = tensor![[0.0f32, 1.0, 0.0], [0.5, 0.0, 0.5]];
    /// let x = p.multinomial(4, true, &mut g).unwrap();
    /// assert_eq!(x.shape(), [2, 4]);
    /// assert!(x.to_vec()[..4].iter().all(|&i| i == 1));
    /// assert_eq!(
    ///     p.multinomial(4, false, &mut g).unwrap_err().to_string(),
    ///     "cannot sample n_sample > prob_dist.size(-1) samples without replacement"
    /// );
    /// ```
    pub fn multinomial(
        &self,
        num_samples: i64,
        replacement: bool,
        generator: &mut Generator,
    ) -> Result<DynTensor<i64, D>, Error> {
        let sizes = self.layout.sizes();
        if sizes.is_empty() || sizes.len() > 2 {
            return Err(refuse(texts::RANK));
        }
        if num_samples <= 0 {
            return Err(refuse(texts::SAMPLES));
        }
        let categories = sizes[sizes.len() - 1];
        let n = num_samples as usize;
        if !replacement && n > categories {
            return Err(refuse(texts::TOO_MANY));
        }
        if categories > 1 << 24 {
            return Err(refuse(texts::CATEGORIES));
        }
        let rows = if sizes.len() == 2 { sizes[0] } else { 1 };
        let out_sizes: Vec<isize> = match sizes.len() {
            1 => vec![n as isize],
            _ => vec![rows as isize, n as isize],
        };
        let p = self.try_cast::<f64>()?.into_dyn();
        let fast = !replacement || n == 1;
        if numel(sizes) == 0 {
            if fast {
                // (PyTorch's check of the values reduces the empty tensor.)
                return Err(refuse(
                    "aminmax(): cannot compute aminmax over an empty dimension as the operation has no identity.",
                ));
            }
            return p.try_cast::<i64>()?.reshape(&out_sizes)?.try_cast::<i64>();
        }
        let p = p.reshape(&[rows as isize, categories as isize])?;
        let picks = if fast {
            let valid = p.try_ge(0.0)?.try_logical_and(&p.try_lt(f64::INFINITY)?)?;
            if !all_true(&valid)? {
                return Err(refuse(texts::INVALID));
            }
            if !all_true(&p.sum(&[1], false)?.try_ne(0.0)?)? {
                return Err(refuse(texts::SUM));
            }
            let mut q = p.try_full_like(0.0)?;
            q.exponential_(1.0, generator)?;
            let keys = p.try_div(&q)?;
            if n == 1 {
                keys.argmax(1, true)?
            } else {
                keys.topk(n as isize, 1, true, true)?.1
            }
        } else {
            check_rows(&p)?;
            let p = p.reshape(&[rows as isize, 1, categories as isize])?;
            let mut q = p
                .expand(&[rows as isize, n as isize, categories as isize])?
                .try_full_like(0.0)?;
            q.exponential_(1.0, generator)?;
            p.try_div(&q)?.argmax(2, false)?
        };
        picks.reshape(&out_sizes)?.try_cast::<i64>()
    }
}

/// PyTorch's checks of `multinomial` with replacement, row by row: the
/// first row with an entry below 0 or NaN, an infinity, or a sum not above
/// 0 gives that text.
fn check_rows<D: Random + Reductions, R: Repr>(
    p: &Tensor<f64, DynShape, D, R>,
) -> Result<(), Error> {
    let negative = p
        .try_lt(0.0)?
        .try_logical_or(&p.try_ne(p)?)?
        .any(&[1], false)?;
    let infinite = p.try_eq(f64::INFINITY)?.any(&[1], false)?;
    let empty = p.sum(&[1], false)?.try_le(0.0)?;
    // A code per row: 4 for a negative entry, 2 an infinite one, 1 a sum
    // not above 0; the first row with one is PyTorch's.
    let code = &(&(&negative.try_cast::<i64>()? * 4i64) + &(&infinite.try_cast::<i64>()? * 2i64))
        + &empty.try_cast::<i64>()?;
    let first = code.try_gt(0)?.try_cast::<i64>()?.argmax(0, false)?;
    let row = D::item(StridedRef::new(&first.data, &first.layout))? as usize;
    match item_at(&code, row)? {
        0 => Ok(()),
        c if c >= 4 => Err(refuse(texts::NEGATIVE)),
        c if c >= 2 => Err(refuse(texts::INFINITE)),
        _ => Err(refuse(texts::SUM)),
    }
}
