//! The order statistics: `kthvalue`, `median`, `nanmedian`, `mode`,
//! `quantile` and `nanquantile`, and the typed `topk::<K, DIM>()`.
//!
//! | form | static shapes (the dim and `K` in the type) | `DynTensor` and `AnyTensor` |
//! |---|---|---|
//! | k-th smallest | `x.kthvalue::<2, 1>()` | `x.kthvalue(2, 1, keepdim)?` |
//! | k largest | `x.topk::<3, 1>()`, `x.topk_smallest::<3, 1>()` | `x.topk(3, 1, largest, sorted)?` |
//! | median | `x.median()`, `x.median_dim::<1>()` | `x.median()?`, `x.median_dim(1, keepdim)?` |
//! | NaNs left out | `x.nanmedian()`, `x.nanmedian_dim::<1>()` | `x.nanmedian()?`, `x.nanmedian_dim(1, keepdim)?` |
//! | most frequent | `x.mode::<1>()` | `x.mode(1, keepdim)?` |
//! | quantile | `x.quantile(q, how)`, `x.quantile_dim::<1>(q, how)` | `x.quantile(q, Some(1), keepdim, how)?`, `x.quantiles(&q, ..)?` |
//!
//! PyTorch's semantics: NaN is the largest value, so `kthvalue` with a
//! large `k` gives NaN; `median` and `quantile` of a line holding NaN are
//! NaN, while `nanmedian` and `nanquantile` leave NaNs out (NaN only when
//! every element is NaN). The median of an even count is the lower middle
//! value. `mode` gives the smallest of the most frequent values at its last
//! position. Where a value occurs more than once PyTorch leaves the index
//! unspecified; here it is the index of the element at that place of a
//! stable sort (for `mode`, the last occurrence). `-0.0` equals `0.0`.
//! The quantiles take float32 and float64 tensors: the rank `q * (n - 1)`
//! is computed in float64 from `q` rounded to the tensor's dtype, then
//! PyTorch's `lerp` between the neighbours ([`Interpolation`]).
//! Complex tensors have no order; bool ones only a `mode`. On CUDA the
//! same values and indices come out bit for bit (the sort kernels, with a
//! pick or the quantiles of each sorted line as their last launch).
//!
//! ```
//! use shaped::prelude::*;
//! let x = Tensor::<f32, shape![2, 3]>::from_vec(vec![3.0, 1.0, 2.0, 5.0, f32::NAN, 4.0]).unwrap();
//! let (values, indices) = x.kthvalue::<2, 1>();
//! assert_eq!(indices.to_vec(), [2, 0]);
//! assert_eq!(values.to_vec()[0], 2.0);
//! assert!(x.median_dim::<1>().0.to_vec()[1].is_nan());
//! assert_eq!(x.nanmedian_dim::<1>().0.to_vec(), [2.0, 4.0]);
//! let d = DynTensor::<f64>::from_vec(vec![1.0, 2.0, 3.0, 4.0], &[4]).unwrap();
//! let q = d.quantile(0.5, None, false, Interpolation::Linear).unwrap();
//! assert_eq!(q.to_vec(), [2.5]);
//! ```

pub use crate::backend::cpu::order_stats::{Interpolation, QuantileFloat, Statistic};

use super::SortInput;
use crate::backend::cpu::sort::SortKey;
use crate::backend::{Backend, OrderStatistics, Sorting, StridedRef};
use crate::dtype::Element;
use crate::dynamic::{DynShape, DynTensor};
use crate::error::{Error, SixDigits, or_panic};
use crate::layout::views::wrap_dim;
use crate::layout::{StridedLayout, array_from, contiguous_strides, is_contiguous, numel};
use crate::ops::reductions::reducers::{Logical, Truth};
use crate::ops::scans::IndexedParts;
use crate::shape::Shape;
use crate::shape::SizeArray;
use crate::shape::list::TupleShape;
use crate::shape::reduce::{AllHoldElements, ExtremeAxis};
use crate::shape::select::{KthShape, TopkShape};
use crate::storage::Repr;
use crate::tensor::{OwnedParts, Tensor, from_parts, owned_parts};

impl core::str::FromStr for Interpolation {
    type Err = Error;

    /// PyTorch's names (`"linear"`, `"lower"`, `"higher"`, `"midpoint"`,
    /// `"nearest"`), or its text.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// assert_eq!("nearest".parse::<Interpolation>().unwrap(), Interpolation::Nearest);
    /// assert_eq!(
    ///     "cubic".parse::<Interpolation>().unwrap_err().to_string(),
    ///     "quantile() interpolation must be one of linear, lower, higher, midpoint or nearest, but got cubic"
    /// );
    /// ```
    fn from_str(name: &str) -> Result<Self, Error> {
        Ok(match name {
            "linear" => Interpolation::Linear,
            "lower" => Interpolation::Lower,
            "higher" => Interpolation::Higher,
            "midpoint" => Interpolation::Midpoint,
            "nearest" => Interpolation::Nearest,
            other => {
                return Err(Error::QuantileInterpolation {
                    got: other.to_string(),
                });
            }
        })
    }
}

/// Runs `f` on `x` as lines along `dim`: a rank-0 `x` as one line of one
/// element (dim 0).
fn as_lines<T: Element, D: Backend, R>(
    x: StridedRef<'_, T, D>,
    f: impl FnOnce(StridedRef<'_, T, D>) -> Result<R, Error>,
) -> Result<R, Error> {
    let one = [1];
    match x.sizes.is_empty() {
        true => f(StridedRef {
            sizes: &one,
            strides: &one,
            ..x
        }),
        false => f(x),
    }
}

/// Runs `f` on the elements of `x` as one flat line (a row-major copy
/// where `x` is not contiguous).
fn flat<T: Element, D: OrderStatistics, R>(
    x: StridedRef<'_, T, D>,
    f: impl FnOnce(StridedRef<'_, T, D>) -> Result<R, Error>,
) -> Result<R, Error> {
    let n = [numel(x.sizes)];
    let one = [1];
    if is_contiguous(x.sizes, x.strides) {
        return f(StridedRef {
            sizes: &n,
            strides: &one,
            ..x
        });
    }
    let dense = D::map1(x, crate::ops::functions::Identity)?;
    f(crate::ops::dense_ref(&dense, &n, &one))
}

/// The sizes of a reduction along `dims` (all when `None`) of `sizes`:
/// without them, or (`keepdim`) with each as 1.
fn reduced_sizes(sizes: &[usize], dim: Option<usize>, keepdim: bool) -> Vec<usize> {
    sizes
        .iter()
        .enumerate()
        .filter_map(|(d, &s)| match (dim.is_none_or(|i| i == d), keepdim) {
            (false, _) => Some(s),
            (true, true) => Some(1),
            (true, false) => None,
        })
        .collect()
}

/// The statistic of `x` along the (wrapped) `dim`, of size 1 or more (or
/// of a rank-0 `x`), as the parts of the values and of the indices: `dim`
/// removed (or, `keepdim`, of size 1), row-major.
pub(crate) fn select_parts<T: SortKey, A: SizeArray, D: OrderStatistics>(
    x: StridedRef<'_, T, D>,
    dim: usize,
    keepdim: bool,
    stat: Statistic,
) -> Result<IndexedParts<T, D, A>, Error> {
    let sizes = reduced_sizes(x.sizes, (!x.sizes.is_empty()).then_some(dim), keepdim);
    let (values, indices) = as_lines(x, |lines| D::order_statistic(lines, dim, stat))?;
    let layout = StridedLayout::contiguous(array_from::<A>(&sizes));
    Ok((
        owned_parts(values, layout.clone()),
        owned_parts(indices, layout),
    ))
}

/// The median (or, `ignore_nan`, the nanmedian) of all of `x`, as a
/// rank-0 tensor's parts (NaN for an empty `x`).
pub(crate) fn median_parts<T: SortKey, A: SizeArray, D: OrderStatistics>(
    x: StridedRef<'_, T, D>,
    ignore_nan: bool,
) -> Result<OwnedParts<T, D, A>, Error> {
    let stat = match ignore_nan {
        true => Statistic::NanMedian,
        false => Statistic::Median,
    };
    let (values, _) = flat(x, |line| D::order_statistic(line, 0, stat))?;
    Ok(owned_parts(
        values,
        StridedLayout::contiguous(array_from::<A>(&[])),
    ))
}

/// Checks the numbers `q` as PyTorch does (before anything else).
fn check_q(q: f64) -> Result<(), Error> {
    match (0.0..=1.0).contains(&q) {
        true => Ok(()),
        false => Err(Error::QuantileOutOfRange {
            got: SixDigits(q).to_string(),
        }),
    }
}

/// The quantiles `q` of `x` along the (wrapped) `dim` (all of `x` when
/// `None`), as a tensor's parts: the reduced shape, after a first dim of
/// `q`'s when `q_dim` (PyTorch's layout: that dim of stride 1, the others
/// row-major after it).
#[allow(clippy::too_many_arguments)]
pub(crate) fn quantile_parts<T: QuantileFloat, A: SizeArray, D: OrderStatistics>(
    x: StridedRef<'_, T, D>,
    q: &[f64],
    q_dim: bool,
    dim: Option<usize>,
    keepdim: bool,
    interpolation: Interpolation,
    ignore_nan: bool,
) -> Result<OwnedParts<T, D, A>, Error> {
    let rounded: Vec<f64> = q.iter().map(|&q| T::round_q(q)).collect();
    let out = reduced_sizes(x.sizes, dim, keepdim);
    let buffer = match dim {
        None => flat(x, |line| {
            D::quantiles(line, 0, &rounded, interpolation, ignore_nan)
        })?,
        Some(d) => as_lines(x, |lines| {
            D::quantiles(lines, d, &rounded, interpolation, ignore_nan)
        })?,
    };
    let (sizes, strides) = match q_dim {
        false => (out.clone(), contiguous_strides::<Vec<usize>>(&out)),
        true => {
            // Row-major `[out.., q]`, then `q`'s dim moved first.
            let mut sizes = out.clone();
            sizes.push(q.len());
            let mut strides = contiguous_strides::<Vec<usize>>(&sizes);
            sizes.rotate_right(1);
            strides.rotate_right(1);
            (sizes, strides)
        }
    };
    Ok(owned_parts(
        buffer,
        StridedLayout::from_parts(array_from(&sizes), array_from(&strides), 0),
    ))
}

/// Element types with an order for `kthvalue` and `median`: all but bool
/// and complex (PyTorch refuses both; `mode` takes bool).
#[diagnostic::on_unimplemented(
    message = "`kthvalue`, `median` and `nanmedian` need numbers; a tensor of `{Self}` has none to rank",
    label = "a tensor of `{Self}`",
    note = "PyTorch raises \"\\\"kthvalue_cpu\\\" not implemented for 'Bool'\" (and for complex dtypes); `cast::<u8>()` a bool tensor first"
)]
pub trait Rankable: SortKey {}
macro_rules! rankable {
    ($($t:ty),*) => {$(impl Rankable for $t {})*};
}
rankable!(half::f16, half::bf16, f32, f64, u8, i8, i16, i32, i64);

/// Static forms: the dim (and `K`) in the type, checked by the compiler.
impl<T: Element, S: Shape + TupleShape, D: Backend, R: Repr> Tensor<T, S, D, R> {
    /// The `K` largest elements along dim `DIM`, largest first (NaN
    /// counts as the largest; equal ones by position), and their
    /// positions. `K` larger than a static size is a compile error.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = Tensor::<i32, shape![2, 4]>::from_vec(vec![1, 9, 3, 7, 4, 4, 8, 0]).unwrap();
    /// let (values, indices): (Tensor<i32, shape![2, 2]>, _) = x.topk::<2, 1>();
    /// assert_eq!(values.to_vec(), [9, 7, 8, 4]);
    /// assert_eq!(indices.to_vec(), [1, 3, 2, 0]);
    /// ```
    #[allow(clippy::type_complexity)]
    pub fn topk<const K: usize, const DIM: usize>(
        &self,
    ) -> (
        Tensor<T, <S as TopkShape<K, DIM>>::Output, D>,
        Tensor<i64, <S as TopkShape<K, DIM>>::Output, D>,
    )
    where
        T: SortKey + TopkInput,
        S: TopkShape<K, DIM>,
        <S as TopkShape<K, DIM>>::Output: Shape,
        D: Sorting,
    {
        self.topk_typed::<K, DIM, _>(true)
    }

    /// The `K` smallest elements along dim `DIM`, smallest first, and
    /// their positions (`topk` with `largest=False`).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = Tensor::<f32, shape![5]>::from_vec(vec![3.0, f32::NAN, -1.0, 2.0, 0.5]).unwrap();
    /// let (values, indices) = x.topk_smallest::<2, 0>();
    /// assert_eq!((values.to_vec(), indices.to_vec()), (vec![-1.0, 0.5], vec![2, 4]));
    /// ```
    #[allow(clippy::type_complexity)]
    pub fn topk_smallest<const K: usize, const DIM: usize>(
        &self,
    ) -> (
        Tensor<T, <S as TopkShape<K, DIM>>::Output, D>,
        Tensor<i64, <S as TopkShape<K, DIM>>::Output, D>,
    )
    where
        T: SortKey + TopkInput,
        S: TopkShape<K, DIM>,
        <S as TopkShape<K, DIM>>::Output: Shape,
        D: Sorting,
    {
        self.topk_typed::<K, DIM, _>(false)
    }

    /// `topk` with `K` and `DIM` checked: a `Dyn` size at run time.
    #[allow(clippy::type_complexity)]
    fn topk_typed<const K: usize, const DIM: usize, O: Shape>(
        &self,
        largest: bool,
    ) -> (Tensor<T, O, D>, Tensor<i64, O, D>)
    where
        T: SortKey,
        D: Sorting,
    {
        let size = self.layout.sizes().get(DIM).copied().unwrap_or(1);
        if K > size {
            or_panic::<()>(Err(Error::Unsupported {
                message: "selected index k out of range",
            }));
        }
        let (values, indices) = or_panic(super::topk_parts::<T, O::Sizes, D>(
            self.strided(),
            K,
            DIM,
            largest,
        ));
        (from_parts!(values), from_parts!(indices))
    }

    /// The `K`-th smallest element (from 1) along dim `DIM`, and its
    /// position; `DIM` leaves the type. `K` of 0 or larger than a static
    /// size is a compile error.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = Tensor::<i64, shape![2, 3]>::from_vec(vec![5, 1, 3, 2, 2, 9]).unwrap();
    /// let (values, indices) = x.kthvalue::<3, 1>();
    /// assert_eq!((values.to_vec(), indices.to_vec()), (vec![5, 9], vec![0, 2]));
    /// ```
    #[allow(clippy::type_complexity)]
    pub fn kthvalue<const K: usize, const DIM: usize>(
        &self,
    ) -> (
        Tensor<T, <S as ExtremeAxis<DIM>>::Removed, D>,
        Tensor<i64, <S as ExtremeAxis<DIM>>::Removed, D>,
    )
    where
        T: Rankable,
        S: KthShape<K, DIM> + ExtremeAxis<DIM>,
        D: OrderStatistics,
    {
        self.kth_typed::<K, DIM, _>(false)
    }

    /// [`kthvalue`](Self::kthvalue) keeping dim `DIM` with size 1.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = Tensor::<f64, shape![2, 2]>::from_vec(vec![4.0, 1.0, 0.0, 2.0]).unwrap();
    /// let (values, _) = x.kthvalue_keepdim::<2, 0>();
    /// let _: Tensor<f64, shape![1, 2]> = values;
    /// ```
    #[allow(clippy::type_complexity)]
    pub fn kthvalue_keepdim<const K: usize, const DIM: usize>(
        &self,
    ) -> (
        Tensor<T, <S as ExtremeAxis<DIM>>::Kept, D>,
        Tensor<i64, <S as ExtremeAxis<DIM>>::Kept, D>,
    )
    where
        T: Rankable,
        S: KthShape<K, DIM> + ExtremeAxis<DIM>,
        D: OrderStatistics,
    {
        self.kth_typed::<K, DIM, _>(true)
    }

    /// `kthvalue` with `K` checked against a `Dyn` size at run time.
    fn kth_typed<const K: usize, const DIM: usize, O: Shape>(
        &self,
        keepdim: bool,
    ) -> (Tensor<T, O, D>, Tensor<i64, O, D>)
    where
        T: SortKey,
        D: OrderStatistics,
    {
        let size = self.layout.sizes().get(DIM).copied().unwrap_or(1);
        if K == 0 || K > size {
            or_panic::<()>(Err(Error::KthOutOfRange { dim: DIM }));
        }
        self.select_typed(DIM, keepdim, Statistic::Kth(K - 1))
    }

    /// `stat` along `dim` (its size checked to be 1 or more).
    fn select_typed<O: Shape>(
        &self,
        dim: usize,
        keepdim: bool,
        stat: Statistic,
    ) -> (Tensor<T, O, D>, Tensor<i64, O, D>)
    where
        T: SortKey,
        D: OrderStatistics,
    {
        let (values, indices) = or_panic(select_parts::<T, O::Sizes, D>(
            self.strided(),
            dim,
            keepdim,
            stat,
        ));
        (from_parts!(values), from_parts!(indices))
    }

    /// The lower median of all the elements (NaN if any is NaN).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = Tensor::<i32, shape![2, 2]>::from_vec(vec![4, 1, 3, 2]).unwrap();
    /// assert_eq!(x.median().to_vec()[0], 2);
    /// ```
    pub fn median(&self) -> Tensor<T, (), D>
    where
        T: Rankable,
        S: AllHoldElements,
        D: OrderStatistics,
    {
        from_parts!(or_panic(median_parts::<T, [usize; 0], D>(
            self.strided(),
            false
        )))
    }

    /// The lower median of the elements that are not NaN (NaN if all are).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = Tensor::<f32, shape![3]>::from_vec(vec![f32::NAN, 1.0, 3.0]).unwrap();
    /// assert_eq!(x.nanmedian().to_vec()[0], 1.0);
    /// ```
    pub fn nanmedian(&self) -> Tensor<T, (), D>
    where
        T: Rankable,
        S: AllHoldElements,
        D: OrderStatistics,
    {
        from_parts!(or_panic(median_parts::<T, [usize; 0], D>(
            self.strided(),
            true
        )))
    }
}

/// `median_dim`, `nanmedian_dim` and `mode`: values and indices along
/// dim `I`, which leaves the type (`_keepdim`: stays as 1).
macro_rules! along_dim {
    ($($(#[$doc:meta])* $name:ident, $keep:ident, $bound:ident, $stat:expr;)*) => {
        impl<T: Element, S: Shape + TupleShape, D: Backend, R: Repr> Tensor<T, S, D, R> {$(
            $(#[$doc])*
            #[allow(clippy::type_complexity)]
            pub fn $name<const I: usize>(
                &self,
            ) -> (
                Tensor<T, <S as ExtremeAxis<I>>::Removed, D>,
                Tensor<i64, <S as ExtremeAxis<I>>::Removed, D>,
            )
            where
                T: $bound,
                S: ExtremeAxis<I>,
                D: OrderStatistics,
            {
                self.select_typed(I, false, $stat)
            }

            /// The same, keeping dim `I` with size 1.
            #[allow(clippy::type_complexity)]
            pub fn $keep<const I: usize>(
                &self,
            ) -> (
                Tensor<T, <S as ExtremeAxis<I>>::Kept, D>,
                Tensor<i64, <S as ExtremeAxis<I>>::Kept, D>,
            )
            where
                T: $bound,
                S: ExtremeAxis<I>,
                D: OrderStatistics,
            {
                self.select_typed(I, true, $stat)
            }
        )*}
    };
}
along_dim! {
    /// The lower median along dim `I` (NaN where a line holds NaN) and
    /// its position.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = Tensor::<f32, shape![2, 2]>::from_vec(vec![1.0, 5.0, 3.0, 2.0]).unwrap();
    /// let (values, indices) = x.median_dim::<0>();
    /// assert_eq!((values.to_vec(), indices.to_vec()), (vec![1.0, 2.0], vec![0, 1]));
    /// ```
    median_dim, median_keepdim, Rankable, Statistic::Median;
    /// The lower median along dim `I` of the elements that are not NaN,
    /// and its position.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = Tensor::<f64, shape![1, 3]>::from_vec(vec![f64::NAN, 2.0, 1.0]).unwrap();
    /// assert_eq!(x.nanmedian_dim::<1>().0.to_vec(), [1.0]);
    /// ```
    nanmedian_dim, nanmedian_keepdim, Rankable, Statistic::NanMedian;
    /// The most frequent value along dim `I` (the smallest of the most
    /// frequent ones) and its last position.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = Tensor::<i64, shape![6]>::from_vec(vec![3, 1, 3, 1, 2, 2]).unwrap();
    /// let (value, index) = x.mode::<0>();
    /// assert_eq!((value.to_vec()[0], index.to_vec()[0]), (1, 3));
    /// ```
    mode, mode_keepdim, SortKey, Statistic::Mode;
}

/// Static forms of the quantiles: `q` a number, checked at run time.
impl<T: Element, S: Shape + TupleShape, D: Backend, R: Repr> Tensor<T, S, D, R> {
    /// The `q`-quantile of all the elements (NaN if any is NaN). Panics
    /// unless `0 <= q <= 1`.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = Tensor::<f32, shape![5]>::from_vec(vec![4.0, 0.0, 1.0, 3.0, 2.0]).unwrap();
    /// assert_eq!(x.quantile(0.25, Interpolation::Linear).to_vec()[0], 1.0);
    /// assert_eq!(x.quantile(0.3, Interpolation::Higher).to_vec()[0], 2.0);
    /// ```
    pub fn quantile(&self, q: f64, interpolation: Interpolation) -> Tensor<T, (), D>
    where
        T: QuantileFloat,
        S: AllHoldElements,
        D: OrderStatistics,
    {
        self.quantile_typed(q, None, false, interpolation, false)
    }

    /// The `q`-quantile of the elements that are not NaN.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = Tensor::<f64, shape![3]>::from_vec(vec![1.0, f64::NAN, 2.0]).unwrap();
    /// assert_eq!(x.nanquantile(0.5, Interpolation::Midpoint).to_vec()[0], 1.5);
    /// ```
    pub fn nanquantile(&self, q: f64, interpolation: Interpolation) -> Tensor<T, (), D>
    where
        T: QuantileFloat,
        S: AllHoldElements,
        D: OrderStatistics,
    {
        self.quantile_typed(q, None, false, interpolation, true)
    }

    /// The `q`-quantile along dim `I`, which leaves the type.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = Tensor::<f32, shape![2, 3]>::from_vec(vec![1.0, 2.0, 3.0, 6.0, 5.0, 4.0]).unwrap();
    /// assert_eq!(x.quantile_dim::<1>(0.5, Interpolation::Lower).to_vec(), [2.0, 5.0]);
    /// ```
    pub fn quantile_dim<const I: usize>(
        &self,
        q: f64,
        interpolation: Interpolation,
    ) -> Tensor<T, <S as ExtremeAxis<I>>::Removed, D>
    where
        T: QuantileFloat,
        S: ExtremeAxis<I> + AllHoldElements,
        D: OrderStatistics,
    {
        self.quantile_typed(q, Some(I), false, interpolation, false)
    }

    /// The `q`-quantile along dim `I`, kept with size 1.
    pub fn quantile_keepdim<const I: usize>(
        &self,
        q: f64,
        interpolation: Interpolation,
    ) -> Tensor<T, <S as ExtremeAxis<I>>::Kept, D>
    where
        T: QuantileFloat,
        S: ExtremeAxis<I> + AllHoldElements,
        D: OrderStatistics,
    {
        self.quantile_typed(q, Some(I), true, interpolation, false)
    }

    /// The `q`-quantile along dim `I` of the elements that are not NaN.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = Tensor::<f32, shape![2, 2]>::from_vec(vec![f32::NAN, 2.0, 1.0, 4.0]).unwrap();
    /// assert_eq!(x.nanquantile_dim::<0>(1.0, Interpolation::Linear).to_vec(), [1.0, 4.0]);
    /// ```
    pub fn nanquantile_dim<const I: usize>(
        &self,
        q: f64,
        interpolation: Interpolation,
    ) -> Tensor<T, <S as ExtremeAxis<I>>::Removed, D>
    where
        T: QuantileFloat,
        S: ExtremeAxis<I> + AllHoldElements,
        D: OrderStatistics,
    {
        self.quantile_typed(q, Some(I), false, interpolation, true)
    }

    /// The quantile core of the static forms.
    fn quantile_typed<O: Shape>(
        &self,
        q: f64,
        dim: Option<usize>,
        keepdim: bool,
        interpolation: Interpolation,
        ignore_nan: bool,
    ) -> Tensor<T, O, D>
    where
        T: QuantileFloat,
        D: OrderStatistics,
    {
        or_panic(check_q(q));
        from_parts!(or_panic(quantile_parts::<T, O::Sizes, D>(
            self.strided(),
            &[q],
            false,
            dim,
            keepdim,
            interpolation,
            ignore_nan
        )))
    }
}

/// Element types `topk` takes: all but bool and complex (PyTorch's rule).
#[diagnostic::on_unimplemented(
    message = "`topk` needs numbers: a tensor of `{Self}` cannot be ranked",
    label = "a tensor of `{Self}`",
    note = "PyTorch raises \"topk does not support bool dtypes on CPU\" (and refuses complex dtypes); `cast::<u8>()` a bool tensor first"
)]
pub trait TopkInput: Element {}
macro_rules! topk_inputs {
    ($($t:ty),*) => {$(impl TopkInput for $t {})*};
}
topk_inputs!(half::f16, half::bf16, f32, f64, u8, i8, i16, i32, i64);

/// Element types of the runtime order statistics: all twelve, with
/// PyTorch's texts for those it refuses.
pub trait OrderInput: SortInput {
    /// Whether the quantiles take this dtype (float32 and float64).
    #[doc(hidden)]
    const QUANTILES: bool = false;

    /// The statistic along the wrapped `dim` (of size 1 or more), or
    /// PyTorch's refusal naming `kernel` (`"kthvalue_cpu"`).
    #[doc(hidden)]
    fn select_on<D: OrderStatistics>(
        x: StridedRef<'_, Self, D>,
        dim: usize,
        keepdim: bool,
        stat: Statistic,
        kernel: &'static str,
    ) -> Result<IndexedParts<Self, D, crate::shape::dynamic::DynSizes>, Error>;

    /// The whole-tensor median or nanmedian, or PyTorch's refusal.
    #[doc(hidden)]
    fn median_on<D: OrderStatistics>(
        x: StridedRef<'_, Self, D>,
        ignore_nan: bool,
    ) -> Result<OwnedParts<Self, D, crate::shape::dynamic::DynSizes>, Error>;

    /// The quantiles (arguments as [`quantile_parts`]'s), or PyTorch's
    /// refusal of the dtype (all but float32 and float64).
    #[doc(hidden)]
    #[allow(clippy::too_many_arguments)]
    fn quantile_on<D: OrderStatistics>(
        _x: StridedRef<'_, Self, D>,
        _q: &[f64],
        _q_dim: bool,
        _dim: Option<usize>,
        _keepdim: bool,
        _interpolation: Interpolation,
        _ignore_nan: bool,
    ) -> Result<OwnedParts<Self, D, crate::shape::dynamic::DynSizes>, Error> {
        Err(Error::Unsupported {
            message: QUANTILE_DTYPE,
        })
    }
}

/// PyTorch's refusal of a float16/bfloat16/integer/bool/complex quantile.
const QUANTILE_DTYPE: &str = "quantile() input tensor must be either float or double dtype";

macro_rules! order_inputs {
    (
        floats: $($f:ty),*;
        others: $($t:ty),*;
        bool: $b:ty;
        complex: $($c:ty),*
    ) => {
        $(impl OrderInput for $f {
            const QUANTILES: bool = true;
            fn select_on<D: OrderStatistics>(
                x: StridedRef<'_, Self, D>,
                dim: usize,
                keepdim: bool,
                stat: Statistic,
                _: &'static str,
            ) -> Result<IndexedParts<Self, D, crate::shape::dynamic::DynSizes>, Error> {
                select_parts(x, dim, keepdim, stat)
            }
            fn median_on<D: OrderStatistics>(
                x: StridedRef<'_, Self, D>,
                ignore_nan: bool,
            ) -> Result<OwnedParts<Self, D, crate::shape::dynamic::DynSizes>, Error> {
                median_parts(x, ignore_nan)
            }
            fn quantile_on<D: OrderStatistics>(
                x: StridedRef<'_, Self, D>,
                q: &[f64],
                q_dim: bool,
                dim: Option<usize>,
                keepdim: bool,
                interpolation: Interpolation,
                ignore_nan: bool,
            ) -> Result<OwnedParts<Self, D, crate::shape::dynamic::DynSizes>, Error> {
                quantile_parts(x, q, q_dim, dim, keepdim, interpolation, ignore_nan)
            }
        })*
        $(impl OrderInput for $t {
            fn select_on<D: OrderStatistics>(
                x: StridedRef<'_, Self, D>,
                dim: usize,
                keepdim: bool,
                stat: Statistic,
                _: &'static str,
            ) -> Result<IndexedParts<Self, D, crate::shape::dynamic::DynSizes>, Error> {
                select_parts(x, dim, keepdim, stat)
            }
            fn median_on<D: OrderStatistics>(
                x: StridedRef<'_, Self, D>,
                ignore_nan: bool,
            ) -> Result<OwnedParts<Self, D, crate::shape::dynamic::DynSizes>, Error> {
                median_parts(x, ignore_nan)
            }
        })*
        impl OrderInput for $b {
            fn select_on<D: OrderStatistics>(
                x: StridedRef<'_, Self, D>,
                dim: usize,
                keepdim: bool,
                stat: Statistic,
                kernel: &'static str,
            ) -> Result<IndexedParts<Self, D, crate::shape::dynamic::DynSizes>, Error> {
                // (PyTorch gives a rank-0 tensor's element whatever its dtype.)
                match (stat, x.sizes.is_empty()) {
                    (Statistic::Mode, _) => select_parts(x, dim, keepdim, stat),
                    (Statistic::Kth(_), true) => itself(x),
                    _ => Err(Error::NotImplementedFor { op: kernel, dtype: Self::DTYPE }),
                }
            }
            fn median_on<D: OrderStatistics>(
                x: StridedRef<'_, Self, D>,
                ignore_nan: bool,
            ) -> Result<OwnedParts<Self, D, crate::shape::dynamic::DynSizes>, Error> {
                // (PyTorch gives the "no value" of an empty tensor.)
                match numel(x.sizes) {
                    0 => median_parts(x, ignore_nan),
                    _ => Err(Error::NotImplementedFor { op: "median_cpu", dtype: Self::DTYPE }),
                }
            }
        }
        $(impl OrderInput for $c {
            fn select_on<D: OrderStatistics>(
                x: StridedRef<'_, Self, D>,
                dim: usize,
                keepdim: bool,
                stat: Statistic,
                kernel: &'static str,
            ) -> Result<IndexedParts<Self, D, crate::shape::dynamic::DynSizes>, Error> {
                // PyTorch's mode of an empty complex tensor is empty; a
                // rank-0 tensor gives its element.
                match (stat, numel(x.sizes), x.sizes.is_empty()) {
                    (Statistic::Kth(_) | Statistic::Mode, _, true) => itself(x),
                    (Statistic::Mode, 0, _) => empty_pair(x, dim, keepdim),
                    _ => Err(Error::NotImplementedFor { op: kernel, dtype: Self::DTYPE }),
                }
            }
            fn median_on<D: OrderStatistics>(
                x: StridedRef<'_, Self, D>,
                _: bool,
            ) -> Result<OwnedParts<Self, D, crate::shape::dynamic::DynSizes>, Error> {
                match numel(x.sizes) {
                    0 => nan_scalar(x),
                    _ => Err(Error::NotImplementedFor { op: "median_cpu", dtype: Self::DTYPE }),
                }
            }
        })*
    };
}
order_inputs!(
    floats: f32, f64;
    others: half::f16, half::bf16, u8, i8, i16, i32, i64;
    bool: bool;
    complex: num_complex::Complex<f32>, num_complex::Complex<f64>
);

/// The empty values and indices of a reduction of the empty `x` along
/// `dim` (of size 1 or more: another dim is 0).
fn empty_pair<T: Element, D: OrderStatistics>(
    x: StridedRef<'_, T, D>,
    dim: usize,
    keepdim: bool,
) -> Result<IndexedParts<T, D, crate::shape::dynamic::DynSizes>, Error> {
    let sizes = reduced_sizes(x.sizes, (!x.sizes.is_empty()).then_some(dim), keepdim);
    let layout = StridedLayout::contiguous(array_from(&sizes));
    let values = D::map1(x, crate::ops::functions::Identity)?;
    let indices = D::map1(x, crate::ops::functions::Constant(0i64))?;
    Ok((
        owned_parts(values, layout.clone()),
        owned_parts(indices, layout),
    ))
}

/// A rank-0 `x`'s element and the index 0 (PyTorch's statistic of one
/// element, for every dtype).
fn itself<T: Element, D: OrderStatistics>(
    x: StridedRef<'_, T, D>,
) -> Result<IndexedParts<T, D, crate::shape::dynamic::DynSizes>, Error> {
    let layout = StridedLayout::contiguous(array_from(&[]));
    let value = D::map1(x, crate::ops::functions::Identity)?;
    let index = D::map1(x, crate::ops::functions::Constant(0i64))?;
    Ok((
        owned_parts(value, layout.clone()),
        owned_parts(index, layout),
    ))
}

/// A rank-0 NaN (PyTorch's median of the empty `x`, a complex one too).
fn nan_scalar<T: Truth, D: OrderStatistics>(
    x: StridedRef<'_, T, D>,
) -> Result<OwnedParts<T, D, crate::shape::dynamic::DynSizes>, Error> {
    // A reduction of nothing makes the one element, then set to NaN.
    let everything = vec![true; x.sizes.len()];
    let one = D::reduce(x, &everything, Logical::<true>)?;
    let nan = T::convert_from(f64::NAN);
    let value = D::map1(
        crate::ops::dense_ref(&one, &[], &[]),
        crate::ops::functions::Constant(nan),
    )?;
    Ok(owned_parts(
        value,
        StridedLayout::contiguous(array_from(&[])),
    ))
}

/// The runtime forms: PyTorch's dims (negative from the end), arguments
/// and texts.
impl<T: OrderInput, D: OrderStatistics, R: Repr> Tensor<T, DynShape, D, R> {
    /// The wrapped `dim` and its size (1 for a rank-0 tensor), refused
    /// with `op`'s text when it is 0.
    fn reduced_dim(&self, dim: isize, op: &'static str) -> Result<(usize, usize), Error> {
        let sizes = self.layout.sizes();
        let d = wrap_dim(dim, sizes.len())?;
        let size = sizes.get(d).copied().unwrap_or(1);
        match size {
            0 => Err(Error::ReduceEmptyDim { op, dim: d }),
            n => Ok((d, n)),
        }
    }

    /// The statistic's values and indices as tensors.
    #[allow(clippy::type_complexity)]
    fn selected(
        &self,
        dim: usize,
        keepdim: bool,
        stat: Statistic,
        kernel: &'static str,
    ) -> Result<(DynTensor<T, D>, DynTensor<i64, D>), Error> {
        let (values, indices) = T::select_on(self.strided(), dim, keepdim, stat, kernel)?;
        Ok((from_parts!(values), from_parts!(indices)))
    }

    /// The `k`-th smallest element (from 1) along `dim` and its position
    /// (PyTorch's `kthvalue`; NaN is the largest).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = DynTensor::<f32>::from_vec(vec![2.0, f32::NAN, 1.0], &[3]).unwrap();
    /// let (value, index) = x.kthvalue(3, 0, false).unwrap();
    /// assert!(value.to_vec()[0].is_nan());
    /// assert_eq!(index.to_vec(), [1]);
    /// assert_eq!(
    ///     x.kthvalue(4, -1, false).unwrap_err().to_string(),
    ///     "kthvalue(): selected number k out of range for dimension 0"
    /// );
    /// ```
    #[allow(clippy::type_complexity)]
    pub fn kthvalue(
        &self,
        k: isize,
        dim: isize,
        keepdim: bool,
    ) -> Result<(DynTensor<T, D>, DynTensor<i64, D>), Error> {
        let (d, size) = self.reduced_dim(dim, "kthvalue")?;
        let k = usize::try_from(k)
            .ok()
            .filter(|&k| (1..=size).contains(&k))
            .ok_or(Error::KthOutOfRange { dim: d })?;
        self.selected(d, keepdim, Statistic::Kth(k - 1), "kthvalue_cpu")
    }

    /// The lower median of all the elements, as a rank-0 tensor (NaN if
    /// any is NaN, or if there is no element).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = DynTensor::<i64>::from_vec(vec![7, 1, 4, 2], &[2, 2]).unwrap();
    /// assert_eq!(x.median().unwrap().to_vec(), [2]);
    /// ```
    pub fn median(&self) -> Result<DynTensor<T, D>, Error> {
        Ok(from_parts!(T::median_on(self.strided(), false)?))
    }

    /// The lower median of the elements that are not NaN (NaN if none).
    pub fn nanmedian(&self) -> Result<DynTensor<T, D>, Error> {
        Ok(from_parts!(T::median_on(self.strided(), true)?))
    }

    /// The lower median along `dim` (NaN where a line holds NaN) and its
    /// position.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = DynTensor::<f64>::from_vec(vec![3.0, 1.0, 2.0, 0.0], &[2, 2]).unwrap();
    /// let (values, indices) = x.median_dim(1, true).unwrap();
    /// assert_eq!(values.shape(), [2, 1]);
    /// assert_eq!(values.to_vec(), [1.0, 0.0]);
    /// assert_eq!(indices.to_vec(), [1, 1]);
    /// ```
    #[allow(clippy::type_complexity)]
    pub fn median_dim(
        &self,
        dim: isize,
        keepdim: bool,
    ) -> Result<(DynTensor<T, D>, DynTensor<i64, D>), Error> {
        let (d, _) = self.reduced_dim(dim, "median")?;
        self.selected(d, keepdim, Statistic::Median, "median_out")
    }

    /// The lower median along `dim` of the elements that are not NaN, and
    /// its position.
    #[allow(clippy::type_complexity)]
    pub fn nanmedian_dim(
        &self,
        dim: isize,
        keepdim: bool,
    ) -> Result<(DynTensor<T, D>, DynTensor<i64, D>), Error> {
        let (d, _) = self.reduced_dim(dim, "median")?;
        self.selected(d, keepdim, Statistic::NanMedian, "median_out")
    }

    /// The most frequent value along `dim` (the smallest of the most
    /// frequent ones) and its last position.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = DynTensor::<bool>::from_vec(vec![true, false, true], &[3]).unwrap();
    /// let (value, index) = x.mode(0, false).unwrap();
    /// assert_eq!((value.to_vec(), index.to_vec()), (vec![true], vec![2]));
    /// ```
    #[allow(clippy::type_complexity)]
    pub fn mode(
        &self,
        dim: isize,
        keepdim: bool,
    ) -> Result<(DynTensor<T, D>, DynTensor<i64, D>), Error> {
        let (d, _) = self.reduced_dim(dim, "mode")?;
        self.selected(d, keepdim, Statistic::Mode, "mode_cpu")
    }

    /// The quantiles of `q` (one number, or the numbers of a 0-d or 1-d
    /// tensor, whose dim then comes first) along `dim` (all the elements
    /// when `None`), in PyTorch's order of checks.
    #[allow(clippy::too_many_arguments)]
    fn quantiles_of(
        &self,
        q: &[f64],
        q_rank: Option<usize>,
        dim: Option<isize>,
        keepdim: bool,
        interpolation: Interpolation,
        ignore_nan: bool,
    ) -> Result<DynTensor<T, D>, Error> {
        if q_rank.is_none() {
            check_q(q[0])?;
        }
        let sizes = self.layout.sizes();
        if numel(sizes) == 0 {
            return Err(Error::Unsupported {
                message: "quantile() input tensor must be non-empty",
            });
        }
        if q_rank.is_some_and(|r| r > 1) {
            return Err(Error::Unsupported {
                message: "quantile() q must be a scalar or 1D tensor",
            });
        }
        if !T::QUANTILES {
            return Err(Error::Unsupported {
                message: QUANTILE_DTYPE,
            });
        }
        let dim = dim.map(|d| wrap_dim(d, sizes.len())).transpose()?;
        if q_rank.is_some() && !q.iter().all(|q| (0.0..=1.0).contains(q)) {
            return Err(Error::Unsupported {
                message: "quantile() q values must be in the range [0, 1]",
            });
        }
        let dim = dim.filter(|_| !sizes.is_empty());
        let parts = T::quantile_on(
            self.strided(),
            q,
            q_rank == Some(1),
            dim,
            keepdim,
            interpolation,
            ignore_nan,
        )?;
        Ok(from_parts!(parts))
    }

    /// The `q`-quantile along `dim` (of all the elements when `None`);
    /// float32 and float64 tensors only (PyTorch's rule).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = DynTensor::<f32>::from_vec(vec![0.0, 10.0, 20.0, 30.0], &[2, 2]).unwrap();
    /// let q = x.quantile(0.25, Some(0), false, Interpolation::Linear).unwrap();
    /// assert_eq!(q.to_vec(), [5.0, 15.0]);
    /// assert_eq!(
    ///     x.quantile(1.5, None, false, Interpolation::Linear).unwrap_err().to_string(),
    ///     "quantile() q must be in the range [0, 1] but got 1.5"
    /// );
    /// ```
    pub fn quantile(
        &self,
        q: f64,
        dim: Option<isize>,
        keepdim: bool,
        interpolation: Interpolation,
    ) -> Result<DynTensor<T, D>, Error> {
        self.quantiles_of(&[q], None, dim, keepdim, interpolation, false)
    }

    /// [`quantile`](Self::quantile) with the NaNs left out.
    pub fn nanquantile(
        &self,
        q: f64,
        dim: Option<isize>,
        keepdim: bool,
        interpolation: Interpolation,
    ) -> Result<DynTensor<T, D>, Error> {
        self.quantiles_of(&[q], None, dim, keepdim, interpolation, true)
    }

    /// The quantiles of each number of the 0-d or 1-d tensor `q` (a 1-d
    /// `q`'s dim first in the result).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = DynTensor::<f64>::from_vec(vec![1.0, 2.0, 3.0, 4.0, 5.0], &[5]).unwrap();
    /// let q = DynTensor::<f64>::from_vec(vec![0.0, 0.5, 1.0], &[3]).unwrap();
    /// let r = x.quantiles(&q, Some(0), false, Interpolation::Nearest).unwrap();
    /// assert_eq!(r.to_vec(), [1.0, 3.0, 5.0]);
    /// ```
    pub fn quantiles<R2: Repr>(
        &self,
        q: &Tensor<T, DynShape, D, R2>,
        dim: Option<isize>,
        keepdim: bool,
        interpolation: Interpolation,
    ) -> Result<DynTensor<T, D>, Error> {
        let (values, rank) = q_values(q.strided())?;
        self.quantiles_of(&values, Some(rank), dim, keepdim, interpolation, false)
    }

    /// [`quantiles`](Self::quantiles) with the NaNs left out.
    pub fn nanquantiles<R2: Repr>(
        &self,
        q: &Tensor<T, DynShape, D, R2>,
        dim: Option<isize>,
        keepdim: bool,
        interpolation: Interpolation,
    ) -> Result<DynTensor<T, D>, Error> {
        let (values, rank) = q_values(q.strided())?;
        self.quantiles_of(&values, Some(rank), dim, keepdim, interpolation, true)
    }
}

/// The numbers of a `q` tensor (read one by one from its device) and its
/// rank.
pub(crate) fn q_values<T: Element, D: Backend>(
    q: StridedRef<'_, T, D>,
) -> Result<(Vec<f64>, usize), Error> {
    let rank = q.sizes.len();
    let n = numel(q.sizes);
    let mut values = Vec::new();
    values
        .try_reserve_exact(n)
        .map_err(|_| Error::NumelOverflow)?;
    // Any element, in row-major order (a `q` of two dims or more is an
    // error later, but read all the same).
    let mut index = vec![0usize; rank];
    for _ in 0..n {
        let offset = q.offset
            + index
                .iter()
                .zip(q.strides)
                .map(|(i, s)| i * s)
                .sum::<usize>();
        let element = D::item(StridedRef {
            sizes: &[],
            strides: &[],
            offset,
            ..q
        })?;
        values.push(element.to_f64());
        for d in (0..rank).rev() {
            index[d] += 1;
            if index[d] < q.sizes[d] {
                break;
            }
            index[d] = 0;
        }
    }
    Ok((values, rank))
}
