//! The sets and bins: `unique`, `unique_consecutive`, `searchsorted`,
//! `bucketize`, `bincount` and `histc`, with PyTorch's semantics.
//!
//! | op | static shapes | `DynTensor` (`Result`, PyTorch's texts) |
//! |---|---|---|
//! | distinct values | `x.unique(sorted, inv, counts)`: values `(Dyn,)`, inverse `S` | `x.unique(sorted, inv, counts)?`, `x.unique_dim(dim, ..)?` |
//! | runs | `x.unique_consecutive(inv, counts)` | `x.unique_consecutive(inv, counts, dim)?` |
//! | insertion points | `b.searchsorted(&v, right)`: `v`'s shape | `b.searchsorted(&v, right)?`, `b.searchsorted_with::<i32>(&v, &opts)?` |
//! | buckets | `x.bucketize(&b, right)`: `x`'s shape | `x.bucketize(&b, right)?`, `x.bucketize_with::<i32>(&b, right)?` |
//! | counts | `x.bincount(minlength)`: `(Dyn,)` | `x.bincount(minlength)?`, `x.bincount_weighted(&w, minlength)?` |
//! | histogram | `x.histc::<BINS>(min, max)`: `[BINS]` | `x.histc(bins, min, max)?` |
//!
//! `AnyTensor` has each with PyTorch's argument list (`out_int32`,
//! `weights: Option<&AnyTensor>`, promotion of mixed dtypes).
//!
//! What PyTorch specifies, this library does: `unique` is always sorted
//! (PyTorch's unsorted order is unspecified; its CPU gives the sorted one);
//! NaN never equals itself, so each NaN is its own value (last), and
//! `-0.0` equals `0.0` (the first met is kept). `searchsorted` is
//! PyTorch's binary search step for step, so NaN values and unsorted
//! boundaries give PyTorch's answers. `bincount` sums float32 weights in
//! float32 and any others in float64, in input order. `histc` computes
//! each bin in the input's dtype as PyTorch does, so edge cases fall in
//! the same bins; counts are exact (PyTorch counts in the input's dtype,
//! so a float16 bin stops at 2048). CUDA has no kernels for these yet:
//! calling them on a CUDA tensor does not compile.
//!
//! ```
//! use shaped::prelude::*;
//! let x = DynTensor::<i64>::from_vec(vec![3, 1, 3, 2, 1, 3], &[2, 3]).unwrap();
//! let (values, inverse, counts) = x.unique(true, true, true).unwrap();
//! assert_eq!(values.to_vec(), [1, 2, 3]);
//! assert_eq!(inverse.unwrap().shape(), [2, 3]);
//! assert_eq!(counts.unwrap().to_vec(), [2, 1, 3]);
//! let b = DynTensor::<f32>::from_vec(vec![1.0, 2.0, 4.0], &[3]).unwrap();
//! let v = DynTensor::<f32>::from_vec(vec![0.5, 2.0, 9.0], &[3]).unwrap();
//! assert_eq!(b.searchsorted(&v, false).unwrap().to_vec(), [0, 1, 3]);
//! ```

pub use crate::backend::cpu::sets::{BinIndex, BinWeight, HistcElement, SetElement};

use crate::backend::{Backend, SetOps, StridedRef, Uniques};
use crate::dtype::{DType, Element};
use crate::dynamic::{DynShape, DynTensor};
use crate::error::{Error, or_panic};
use crate::layout::StridedLayout;
use crate::layout::views::wrap_dim;
use crate::shape::dynamic::DynSizes;
use crate::shape::{Dyn, Shape};
use crate::storage::Repr;
use crate::tensor::Tensor;
use half::{bf16, f16};
use num_complex::Complex;

mod typed;
pub use typed::{Boundaries, LeadingDims, SearchShape};

/// What `unique` gives: the values, and (when asked for) the inverse and
/// the counts, all on the input's device.
pub type UniqueResult<T, D> = (
    DynTensor<T, D>,
    Option<DynTensor<i64, D>>,
    Option<DynTensor<i64, D>>,
);

/// A contiguous `DynTensor` of `sizes` over `buffer`.
fn dyn_of<T: Element, D: Backend>(buffer: D::Buffer<T>, sizes: &[usize]) -> DynTensor<T, D> {
    Tensor::from_buffer(
        buffer,
        StridedLayout::contiguous(DynSizes::from_slice(sizes)),
    )
}

/// Which `unique`: over every element or along a dim, all values or runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[doc(hidden)]
pub struct UniqueMode {
    /// The (wrapped) dim, or `None` for every element.
    pub dim: Option<usize>,
    /// Runs of equal neighbours (`unique_consecutive`).
    pub consecutive: bool,
    /// Whether the inverse is wanted.
    pub inverse: bool,
    /// Whether the counts are wanted.
    pub counts: bool,
}

/// Element types of the runtime forms: all twelve; those PyTorch refuses
/// give its error.
pub trait SetInput: Element {
    /// `unique` in `mode`, or PyTorch's error for this dtype.
    #[doc(hidden)]
    fn unique_on<D: SetOps>(
        x: StridedRef<'_, Self, D>,
        mode: UniqueMode,
    ) -> Result<Uniques<Self, D>, Error>;

    /// `searchsorted` (shapes checked), or PyTorch's error for this dtype.
    #[doc(hidden)]
    fn search_on<D: SetOps>(
        boundaries: StridedRef<'_, Self, D>,
        values: StridedRef<'_, Self, D>,
        sorter: Option<StridedRef<'_, i64, D>>,
        right: bool,
    ) -> Result<D::Buffer<i64>, Error>;

    /// Unweighted `bincount` of the 1-D `x`, or PyTorch's error.
    #[doc(hidden)]
    fn bincount_on<D: SetOps>(
        x: StridedRef<'_, Self, D>,
        minlength: usize,
    ) -> Result<(D::Buffer<i64>, usize), Error>;

    /// Weighted `bincount` of the 1-D `x`, or PyTorch's error.
    #[doc(hidden)]
    fn bincount_weighted_on<D: SetOps, W: BinWeight>(
        x: StridedRef<'_, Self, D>,
        weights: StridedRef<'_, W, D>,
        minlength: usize,
    ) -> Result<(D::Buffer<W>, usize), Error>;

    /// `histc` with PyTorch's checks in its order, or its error.
    #[doc(hidden)]
    fn histc_on<D: SetOps>(
        x: StridedRef<'_, Self, D>,
        bins: i64,
        min: f64,
        max: f64,
    ) -> Result<D::Buffer<Self>, Error>;
}

/// `unique` of an ordered type.
fn unique_of<T: SetElement, D: SetOps>(
    x: StridedRef<'_, T, D>,
    mode: UniqueMode,
) -> Result<Uniques<T, D>, Error> {
    match mode.dim {
        None => D::unique(x, mode.consecutive, mode.inverse, mode.counts),
        Some(dim) => D::unique_dim(x, dim, mode.consecutive, mode.inverse, mode.counts),
    }
}

/// `histc`'s checks and outer edges in PyTorch's order: one bin or more;
/// the edges (`min == max`: the data's extremes, then widened by 1 when
/// equal); a finite range; `min < max`.
fn histc_range(
    given: (f64, f64),
    data: impl FnOnce() -> Result<Option<(f64, f64)>, Error>,
    bins: i64,
) -> Result<(f64, f64, usize), Error> {
    let bins = usize::try_from(bins)
        .ok()
        .filter(|&b| b > 0)
        .ok_or(Error::HistcBins { bins })?;
    let (mut lo, mut hi) = given;
    if lo == hi
        && let Some((a, b)) = data()?
    {
        (lo, hi) = (a, b);
    }
    if lo == hi {
        lo -= 1.0;
        hi += 1.0;
    }
    if !lo.is_finite() || !hi.is_finite() {
        return Err(Error::HistcRange {
            min: cpp_double(lo),
            max: cpp_double(hi),
        });
    }
    if lo >= hi {
        return Err(Error::Unsupported {
            message: "torch.histc: max must be larger than min",
        });
    }
    Ok((lo, hi, bins))
}

/// A double as C++'s `operator<<` prints it (6 significant digits,
/// `%g`-style; `nan`, `-nan`, `inf`).
fn cpp_double(x: f64) -> String {
    if x.is_nan() {
        return if x.is_sign_negative() { "-nan" } else { "nan" }.into();
    }
    if x.is_infinite() {
        return if x > 0.0 { "inf" } else { "-inf" }.into();
    }
    if x == 0.0 {
        return if x.is_sign_negative() { "-0" } else { "0" }.into();
    }
    let sci = format!("{x:.5e}");
    let (mantissa, exp) = sci.split_once('e').expect("an exponent");
    let exp: i32 = exp.parse().expect("an integer exponent");
    let trim = |s: String| -> String {
        match s.contains('.') {
            true => s.trim_end_matches('0').trim_end_matches('.').to_string(),
            false => s,
        }
    };
    if !(-4..6).contains(&exp) {
        let sign = if exp < 0 { '-' } else { '+' };
        format!("{}e{sign}{:02}", trim(mantissa.to_string()), exp.abs())
    } else {
        trim(format!("{x:.*}", (5 - exp) as usize))
    }
}

/// The C++ type names of PyTorch's overflow text, for the integer dtypes.
fn c_type(dtype: DType) -> &'static str {
    match dtype {
        DType::U8 => "uint8_t",
        DType::I8 => "int8_t",
        DType::I16 => "int16_t",
        DType::I32 => "int32_t",
        _ => "int64_t",
    }
}

/// `histc` of a dtype PyTorch refuses: its checks in its order, then its
/// error (`linspace_cpu` for bool, `histogram_cpu` for the others; an
/// integer range that does not fit the dtype overflows first).
fn histc_refused<T: Element>(
    numel: usize,
    bins: i64,
    given: (f64, f64),
    range: Option<(f64, f64)>,
    limits: Option<(f64, f64)>,
) -> Error {
    let data = || match T::DTYPE.is_complex() && numel > 0 {
        true => Err(Error::AminmaxComplex { dtype: T::DTYPE }),
        false => Ok(range),
    };
    let (lo, hi) = match histc_range(given, data, bins) {
        Ok((lo, hi, _)) => (lo, hi),
        Err(e) => return e,
    };
    if T::DTYPE == DType::Bool {
        return Error::NotImplementedFor {
            op: "linspace_cpu",
            dtype: DType::Bool,
        };
    }
    if let Some((min, max)) = limits
        && (lo < min || hi > max)
    {
        return Error::ScalarOverflow {
            type_name: c_type(T::DTYPE),
        };
    }
    Error::NotImplementedFor {
        op: "histogram_cpu",
        dtype: T::DTYPE,
    }
}

macro_rules! ordered_inputs {
    (floats: $($f:ty: $nan_negative:expr),*; ints: $($i:ty),*) => {
        $(impl SetInput for $f {
            fn unique_on<D: SetOps>(
                x: StridedRef<'_, Self, D>,
                mode: UniqueMode,
            ) -> Result<Uniques<Self, D>, Error> {
                unique_of(x, mode)
            }
            fn search_on<D: SetOps>(
                boundaries: StridedRef<'_, Self, D>,
                values: StridedRef<'_, Self, D>,
                sorter: Option<StridedRef<'_, i64, D>>,
                right: bool,
            ) -> Result<D::Buffer<i64>, Error> {
                D::searchsorted(boundaries, values, sorter, right)
            }
            fn bincount_on<D: SetOps>(
                _: StridedRef<'_, Self, D>,
                _: usize,
            ) -> Result<(D::Buffer<i64>, usize), Error> {
                Err(Error::NotImplementedFor { op: "bincount_cpu", dtype: Self::DTYPE })
            }
            fn bincount_weighted_on<D: SetOps, W: BinWeight>(
                _: StridedRef<'_, Self, D>,
                _: StridedRef<'_, W, D>,
                _: usize,
            ) -> Result<(D::Buffer<W>, usize), Error> {
                Err(Error::NotImplementedFor { op: "bincount_cpu", dtype: Self::DTYPE })
            }
            fn histc_on<D: SetOps>(
                x: StridedRef<'_, Self, D>,
                bins: i64,
                min: f64,
                max: f64,
            ) -> Result<D::Buffer<Self>, Error> {
                let data = || {
                    Ok(D::extremes(x)?.map(|(lo, hi)| {
                        // A NaN among the data: the one PyTorch's min/max
                        // kernels give (x86's default NaN, its sign bit set,
                        // but bfloat16's, converted from the input's).
                        let nan = if $nan_negative { -f64::NAN } else { f64::NAN };
                        let f = |v: Self| if v.to_f64().is_nan() { nan } else { v.to_f64() };
                        (f(lo), f(hi))
                    }))
                };
                let (lo, hi, bins) = histc_range((min, max), data, bins)?;
                D::histc(x, bins, <$f>::from_f64(lo), <$f>::from_f64(hi))
            }
        })*
        $(impl SetInput for $i {
            fn unique_on<D: SetOps>(
                x: StridedRef<'_, Self, D>,
                mode: UniqueMode,
            ) -> Result<Uniques<Self, D>, Error> {
                unique_of(x, mode)
            }
            fn search_on<D: SetOps>(
                boundaries: StridedRef<'_, Self, D>,
                values: StridedRef<'_, Self, D>,
                sorter: Option<StridedRef<'_, i64, D>>,
                right: bool,
            ) -> Result<D::Buffer<i64>, Error> {
                D::searchsorted(boundaries, values, sorter, right)
            }
            fn bincount_on<D: SetOps>(
                x: StridedRef<'_, Self, D>,
                minlength: usize,
            ) -> Result<(D::Buffer<i64>, usize), Error> {
                D::bincount(x, minlength)
            }
            fn bincount_weighted_on<D: SetOps, W: BinWeight>(
                x: StridedRef<'_, Self, D>,
                weights: StridedRef<'_, W, D>,
                minlength: usize,
            ) -> Result<(D::Buffer<W>, usize), Error> {
                D::bincount_weighted(x, weights, minlength)
            }
            fn histc_on<D: SetOps>(
                x: StridedRef<'_, Self, D>,
                bins: i64,
                min: f64,
                max: f64,
            ) -> Result<D::Buffer<Self>, Error> {
                let numel = x.sizes.iter().product();
                let limits = Some((<$i>::MIN as f64, <$i>::MAX as f64));
                let range = match min == max && numel > 0 {
                    true => D::extremes(x)?.map(|(lo, hi)| (lo.to_int() as f64, hi.to_int() as f64)),
                    false => None,
                };
                Err(histc_refused::<Self>(numel, bins, (min, max), range, limits))
            }
        })*
    };
}
ordered_inputs!(
    floats: f16: true, bf16: false, f32: true, f64: true;
    ints: u8, i8, i16, i32, i64
);

impl SetInput for bool {
    fn unique_on<D: SetOps>(
        x: StridedRef<'_, Self, D>,
        mode: UniqueMode,
    ) -> Result<Uniques<Self, D>, Error> {
        unique_of(x, mode)
    }
    fn search_on<D: SetOps>(
        _: StridedRef<'_, Self, D>,
        _: StridedRef<'_, Self, D>,
        _: Option<StridedRef<'_, i64, D>>,
        _: bool,
    ) -> Result<D::Buffer<i64>, Error> {
        Err(Error::NotImplementedFor {
            op: "searchsorted_out_cpu",
            dtype: DType::Bool,
        })
    }
    fn bincount_on<D: SetOps>(
        _: StridedRef<'_, Self, D>,
        _: usize,
    ) -> Result<(D::Buffer<i64>, usize), Error> {
        Err(Error::NotImplementedFor {
            op: "bincount_cpu",
            dtype: DType::Bool,
        })
    }
    fn bincount_weighted_on<D: SetOps, W: BinWeight>(
        _: StridedRef<'_, Self, D>,
        _: StridedRef<'_, W, D>,
        _: usize,
    ) -> Result<(D::Buffer<W>, usize), Error> {
        Err(Error::NotImplementedFor {
            op: "bincount_cpu",
            dtype: DType::Bool,
        })
    }
    fn histc_on<D: SetOps>(
        x: StridedRef<'_, Self, D>,
        bins: i64,
        min: f64,
        max: f64,
    ) -> Result<D::Buffer<Self>, Error> {
        let numel = x.sizes.iter().product();
        Err(histc_refused::<Self>(numel, bins, (min, max), None, None))
    }
}

macro_rules! complex_inputs {
    ($($c:ty),*) => {$(
        impl SetInput for $c {
            fn unique_on<D: SetOps>(
                _: StridedRef<'_, Self, D>,
                mode: UniqueMode,
            ) -> Result<Uniques<Self, D>, Error> {
                let op = if mode.dim.is_some() { "unique_dim" } else { "unique" };
                Err(Error::NotImplementedFor { op, dtype: Self::DTYPE })
            }
            fn search_on<D: SetOps>(
                _: StridedRef<'_, Self, D>,
                _: StridedRef<'_, Self, D>,
                _: Option<StridedRef<'_, i64, D>>,
                _: bool,
            ) -> Result<D::Buffer<i64>, Error> {
                Err(Error::NotImplementedFor { op: "searchsorted_out_cpu", dtype: Self::DTYPE })
            }
            fn bincount_on<D: SetOps>(
                _: StridedRef<'_, Self, D>,
                _: usize,
            ) -> Result<(D::Buffer<i64>, usize), Error> {
                Err(Error::NotImplementedFor { op: "bincount_cpu", dtype: Self::DTYPE })
            }
            fn bincount_weighted_on<D: SetOps, W: BinWeight>(
                _: StridedRef<'_, Self, D>,
                _: StridedRef<'_, W, D>,
                _: usize,
            ) -> Result<(D::Buffer<W>, usize), Error> {
                Err(Error::NotImplementedFor { op: "bincount_cpu", dtype: Self::DTYPE })
            }
            fn histc_on<D: SetOps>(
                x: StridedRef<'_, Self, D>,
                bins: i64,
                min: f64,
                max: f64,
            ) -> Result<D::Buffer<Self>, Error> {
                let numel: usize = x.sizes.iter().product();
                Err(histc_refused::<Self>(numel, bins, (min, max), None, None))
            }
        }
    )*};
}
complex_inputs!(Complex<f32>, Complex<f64>);

/// The weights' types of `bincount`: all twelve; float32 weights are
/// summed in float32, every other dtype in float64 (complex by its real
/// part), as PyTorch.
pub trait WeightInput: Element {
    /// The type the weights are summed in.
    type Sum: BinWeight;
    /// The sums as an [`AnyTensor`](crate::AnyTensor).
    #[doc(hidden)]
    fn sums_into_any<D: Backend>(sums: DynTensor<Self::Sum, D>) -> crate::AnyTensor<D>;
}
macro_rules! weights {
    ($($t:ty => $s:ty),*) => {$(impl WeightInput for $t {
        type Sum = $s;
        fn sums_into_any<D: Backend>(sums: DynTensor<$s, D>) -> crate::AnyTensor<D> {
            sums.into()
        }
    })*};
}
weights!(f32 => f32, f64 => f64, f16 => f64, bf16 => f64, Complex<f32> => f64,
    Complex<f64> => f64, u8 => f64, i8 => f64, i16 => f64, i32 => f64, i64 => f64, bool => f64);

/// The index types `searchsorted` and `bucketize` can give: `i64`, and
/// `i32` (PyTorch's `out_int32=True`).
pub trait SearchIndex: Element {
    /// The int64 positions as this type.
    #[doc(hidden)]
    fn from_found<D: SetOps>(found: DynTensor<i64, D>) -> Result<DynTensor<Self, D>, Error>;
}
impl SearchIndex for i64 {
    fn from_found<D: SetOps>(found: DynTensor<i64, D>) -> Result<DynTensor<i64, D>, Error> {
        Ok(found)
    }
}
impl SearchIndex for i32 {
    fn from_found<D: SetOps>(found: DynTensor<i64, D>) -> Result<DynTensor<i32, D>, Error> {
        found.try_cast::<i32>()
    }
}

/// `searchsorted`'s options beyond the values: `right`, PyTorch's `side`
/// (`"left"` or `"right"`, which wins over `right` and must not contradict
/// it), and a `sorter` (int64 positions that sort each line of unsorted
/// boundaries; an [`AnyTensor`](crate::AnyTensor) of another dtype gives
/// PyTorch's error).
///
/// ```
/// use shaped::prelude::*;
/// use shaped::ops::sets::SearchSorted;
/// let b = DynTensor::<f32>::from_vec(vec![3.0, 1.0, 2.0], &[3]).unwrap();
/// let sorter = DynTensor::<i64>::from_vec(vec![1, 2, 0], &[3]).unwrap();
/// let v = DynTensor::<f32>::from_vec(vec![2.0], &[1]).unwrap();
/// let opts = SearchSorted { side: Some("right"), sorter: Some(&sorter), ..Default::default() };
/// assert_eq!(b.searchsorted_with::<i64, _, _>(&v, &opts).unwrap().to_vec(), [2]);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct SearchSorted<'a, S = DynTensor<i64>> {
    /// The last position among equal boundaries (`>` instead of `>=`).
    pub right: bool,
    /// PyTorch's `side`: `Some("left")`, `Some("right")` or `None`.
    pub side: Option<&'a str>,
    /// Positions that sort each line of the boundaries.
    pub sorter: Option<&'a S>,
}
impl<S> Default for SearchSorted<'_, S> {
    fn default() -> Self {
        SearchSorted {
            right: false,
            side: None,
            sorter: None,
        }
    }
}

/// `searchsorted`'s checks before any dtype's, in PyTorch's order: `side`
/// against `right`, the sorter's sizes (its dtype and range are checked by
/// the caller, which has it), rank-0 values, rank-0 boundaries, the
/// leading dims. The effective `right`.
pub(crate) fn search_checks(
    boundaries: &[usize],
    values: &[usize],
    right: bool,
    side: Option<&str>,
    sorter: Option<&[usize]>,
) -> Result<bool, Error> {
    let right = match side {
        None => right,
        Some("left") if right => return Err(Error::SearchsortedOpposite),
        Some("left") => false,
        Some("right") => true,
        Some(other) => {
            return Err(Error::SearchsortedSide {
                side: other.to_string(),
            });
        }
    };
    if let Some(sorter) = sorter
        && sorter != boundaries
    {
        return Err(Error::SorterSize {
            boundaries: boundaries.to_vec(),
            sorter: sorter.to_vec(),
        });
    }
    if values.is_empty() && boundaries.len() != 1 {
        return Err(Error::SearchsortedScalar {
            boundaries: boundaries.len(),
            values: 0,
            numel: 1,
        });
    }
    if boundaries.is_empty() {
        return Err(Error::Unsupported {
            message: "torch.searchsorted(): boundaries tensor should have positive dimension, but got 0 dimension",
        });
    }
    let n = boundaries.len();
    if n != 1 && (values.len() != n || boundaries[..n - 1] != values[..n - 1]) {
        return Err(Error::SearchsortedShape {
            boundaries: boundaries.to_vec(),
            values: values.to_vec(),
        });
    }
    Ok(right)
}

/// `searchsorted` of checked operands into `I`.
pub(crate) fn searched<T: SetInput, I: SearchIndex, D: SetOps>(
    boundaries: StridedRef<'_, T, D>,
    values: StridedRef<'_, T, D>,
    sorter: Option<StridedRef<'_, i64, D>>,
    right: bool,
) -> Result<DynTensor<I, D>, Error> {
    let sizes = values.sizes;
    if sizes.iter().product::<usize>() == 0 {
        // PyTorch returns before it looks at the dtype.
        let empty = D::map1(values, crate::ops::functions::Constant(I::ZERO))?;
        return Ok(dyn_of(empty, sizes));
    }
    let found = dyn_of::<i64, D>(T::search_on(boundaries, values, sorter, right)?, sizes);
    I::from_found(found)
}

impl<T: SetInput, D: SetOps, R: Repr> Tensor<T, DynShape, D, R> {
    /// The distinct elements, ascending (whatever `sorted` says: PyTorch's
    /// unsorted order is unspecified), and when asked for the inverse
    /// (each element's position among them, `self`'s shape) and the counts.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = DynTensor::<f32>::from_vec(vec![f32::NAN, 1.0, -0.0, 0.0, f32::NAN], &[5]).unwrap();
    /// let (values, inverse, counts) = x.unique(true, true, true).unwrap();
    /// assert_eq!(values.to_vec()[..2], [0.0, 1.0]);
    /// assert!(values.to_vec()[2..].iter().all(|v| v.is_nan()));
    /// assert_eq!(inverse.unwrap().to_vec(), [2, 1, 0, 0, 3]);
    /// assert_eq!(counts.unwrap().to_vec(), [2, 1, 1, 1]);
    /// ```
    pub fn unique(
        &self,
        sorted: bool,
        return_inverse: bool,
        return_counts: bool,
    ) -> Result<UniqueResult<T, D>, Error> {
        let _ = sorted; // (always sorted)
        let mode = UniqueMode {
            dim: None,
            consecutive: false,
            inverse: return_inverse,
            counts: return_counts,
        };
        self.uniques(mode)
    }

    /// The distinct slices along `dim`, sorted lexicographically; the
    /// inverse and counts along `dim` (PyTorch's `unique(x, dim=)`).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = DynTensor::<i32>::from_vec(vec![1, 2, 0, 0, 1, 2], &[3, 2]).unwrap();
    /// let (rows, inverse, _) = x.unique_dim(0, true, true, false).unwrap();
    /// assert_eq!(rows.to_vec(), [0, 0, 1, 2]);
    /// assert_eq!(inverse.unwrap().to_vec(), [1, 0, 1]);
    /// ```
    pub fn unique_dim(
        &self,
        dim: isize,
        sorted: bool,
        return_inverse: bool,
        return_counts: bool,
    ) -> Result<UniqueResult<T, D>, Error> {
        let _ = sorted; // (always sorted, as PyTorch's dim form)
        self.uniques_along(dim, false, return_inverse, return_counts)
    }

    /// The first element of each run of equal neighbours (every element
    /// with `dim` `None`, else the slices along `dim`), the inverse and the
    /// run lengths.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = DynTensor::<i64>::from_vec(vec![1, 1, 2, 2, 3, 1], &[6]).unwrap();
    /// let (values, _, counts) = x.unique_consecutive(false, true, None).unwrap();
    /// assert_eq!(values.to_vec(), [1, 2, 3, 1]);
    /// assert_eq!(counts.unwrap().to_vec(), [2, 2, 1, 1]);
    /// ```
    pub fn unique_consecutive(
        &self,
        return_inverse: bool,
        return_counts: bool,
        dim: Option<isize>,
    ) -> Result<UniqueResult<T, D>, Error> {
        match dim {
            // PyTorch takes the flat path for a literal 0 on a vector.
            Some(0) if self.layout.rank() == 1 => {
                self.unique_consecutive(return_inverse, return_counts, None)
            }
            Some(dim) => self.uniques_along(dim, true, return_inverse, return_counts),
            None => self.uniques(UniqueMode {
                dim: None,
                consecutive: true,
                inverse: return_inverse,
                counts: return_counts,
            }),
        }
    }

    /// The flat forms.
    fn uniques(&self, mode: UniqueMode) -> Result<UniqueResult<T, D>, Error> {
        let u = T::unique_on(self.strided(), mode)?;
        Ok((
            dyn_of(u.values, &[u.count]),
            u.inverse.map(|b| dyn_of(b, self.layout.sizes())),
            u.counts.map(|b| dyn_of(b, &[u.count])),
        ))
    }

    /// The dim forms: PyTorch's checks, then the slices.
    fn uniques_along(
        &self,
        dim: isize,
        consecutive: bool,
        inverse: bool,
        counts: bool,
    ) -> Result<UniqueResult<T, D>, Error> {
        if T::DTYPE.is_complex() {
            return Err(Error::NotImplementedFor {
                op: "unique_dim",
                dtype: T::DTYPE,
            });
        }
        let sizes = self.layout.sizes();
        if sizes.is_empty() {
            return Err(Error::NoDimensionsGiven { dim });
        }
        let d = wrap_dim(dim, sizes.len())?;
        if sizes.contains(&0) {
            let zeros = sizes.iter().filter(|&&s| s == 0).count();
            if zeros > 1 {
                return Err(Error::Unsupported {
                    message: "Number of zero sized dimensions is more than one, so unique cannot be applied ",
                });
            }
            if sizes[d] != 0 {
                return Err(Error::Unsupported {
                    message: "There are 0 sized dimensions, and they aren't selected, so unique cannot be applied",
                });
            }
        }
        let mode = UniqueMode {
            dim: Some(d),
            consecutive,
            inverse,
            counts,
        };
        let u = T::unique_on(self.strided(), mode)?;
        // Rows of `x.movedim(d, 0)`, moved back (contiguous when empty,
        // as PyTorch).
        let mut out = sizes.to_vec();
        out[d] = u.count;
        let mut moved = out.clone();
        let n = moved.remove(d);
        moved.insert(0, n);
        let mut strides = crate::layout::contiguous_strides::<Vec<usize>>(&moved);
        let first = strides.remove(0);
        strides.insert(d, first);
        if out.contains(&0) {
            strides = crate::layout::contiguous_strides::<Vec<usize>>(&out);
        }
        let values = Tensor::from_buffer(
            u.values,
            StridedLayout::from_parts(
                DynSizes::from_slice(&out),
                DynSizes::from_slice(&strides),
                0,
            ),
        );
        Ok((
            values,
            u.inverse.map(|b| dyn_of(b, &[sizes[d]])),
            u.counts.map(|b| dyn_of(b, &[u.count])),
        ))
    }

    /// Where each of `values` would go in `self`'s sorted lines (1-D, or
    /// one line per row of `values`): the first position whose boundary
    /// is not below it (`right`: not at most it), int64 of `values`'
    /// shape.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let b = DynTensor::<i64>::from_vec(vec![1, 3, 5, 7, 9, 2, 4, 6, 8, 10], &[2, 5]).unwrap();
    /// let v = DynTensor::<i64>::from_vec(vec![3, 6, 9, 3, 6, 9], &[2, 3]).unwrap();
    /// assert_eq!(b.searchsorted(&v, false).unwrap().to_vec(), [1, 3, 4, 1, 2, 4]);
    /// assert_eq!(b.searchsorted(&v, true).unwrap().to_vec(), [2, 3, 5, 1, 3, 4]);
    /// ```
    pub fn searchsorted<SV: Shape, RV: Repr>(
        &self,
        values: &Tensor<T, SV, D, RV>,
        right: bool,
    ) -> Result<DynTensor<i64, D>, Error> {
        self.searchsorted_with::<i64, SV, RV>(
            values,
            &SearchSorted {
                right,
                ..Default::default()
            },
        )
    }

    /// [`searchsorted`](Self::searchsorted) with PyTorch's `side` and
    /// `sorter`, into `I` (`i32`: PyTorch's `out_int32=True`).
    pub fn searchsorted_with<I: SearchIndex, SV: Shape, RV: Repr>(
        &self,
        values: &Tensor<T, SV, D, RV>,
        options: &SearchSorted<'_, DynTensor<i64, D>>,
    ) -> Result<DynTensor<I, D>, Error> {
        let sorter_sizes = options.sorter.map(|s| s.layout.sizes());
        let right = search_checks(
            self.layout.sizes(),
            values.layout.sizes(),
            options.right,
            options.side,
            sorter_sizes,
        )?;
        searched(
            self.strided(),
            values.strided(),
            options.sorter.map(|s| s.strided()),
            right,
        )
    }

    /// The bucket of each element among the 1-D `boundaries`: int64 of
    /// `self`'s shape (PyTorch's `bucketize(x, boundaries, right=)`).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = DynTensor::<f64>::from_vec(vec![1.0, 2.5, 4.0, 0.0], &[2, 2]).unwrap();
    /// let b = DynTensor::<f64>::from_vec(vec![1.0, 2.0, 3.0], &[3]).unwrap();
    /// assert_eq!(x.bucketize(&b, false).unwrap().to_vec(), [0, 2, 3, 0]);
    /// assert_eq!(x.bucketize(&b, true).unwrap().to_vec(), [1, 2, 3, 0]);
    /// ```
    pub fn bucketize<SB: Shape, RB: Repr>(
        &self,
        boundaries: &Tensor<T, SB, D, RB>,
        right: bool,
    ) -> Result<DynTensor<i64, D>, Error> {
        self.bucketize_with::<i64, SB, RB>(boundaries, right)
    }

    /// [`bucketize`](Self::bucketize) into `I` (`i32`: `out_int32=True`).
    pub fn bucketize_with<I: SearchIndex, SB: Shape, RB: Repr>(
        &self,
        boundaries: &Tensor<T, SB, D, RB>,
        right: bool,
    ) -> Result<DynTensor<I, D>, Error> {
        let rank = boundaries.layout.rank();
        if rank != 1 {
            return Err(Error::BoundariesRank { rank });
        }
        searched(boundaries.strided(), self.strided(), None, right)
    }

    /// How often each value `0..n` occurs in the 1-D non-negative `self`
    /// (`n` at least `minlength`): int64.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = DynTensor::<u8>::from_vec(vec![1, 3, 1], &[3]).unwrap();
    /// assert_eq!(x.bincount(0).unwrap().to_vec(), [0, 2, 0, 1]);
    /// assert_eq!(x.bincount(6).unwrap().to_vec(), [0, 2, 0, 1, 0, 0]);
    /// ```
    pub fn bincount(&self, minlength: isize) -> Result<DynTensor<i64, D>, Error> {
        let minlength = self.bincount_checks(minlength)?;
        if let Some(zeros) = self.empty_bincount(minlength)? {
            return Ok(zeros);
        }
        let (buffer, n) = T::bincount_on(self.strided(), minlength)?;
        Ok(dyn_of(buffer, &[n]))
    }

    /// [`bincount`](Self::bincount) summing `weights` (as long as `self`):
    /// float32 weights in float32, others in float64. An empty `self`
    /// gives int64 zeros, as PyTorch.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = DynTensor::<i64>::from_vec(vec![0, 2, 2], &[3]).unwrap();
    /// let w = DynTensor::<f32>::from_vec(vec![0.5, 1.0, 2.0], &[3]).unwrap();
    /// let sums = x.bincount_weighted(&w, 0).unwrap().downcast::<f32>().unwrap();
    /// assert_eq!(sums.to_vec(), [0.5, 0.0, 3.0]);
    /// ```
    pub fn bincount_weighted<W: WeightInput, SW: Shape, RW: Repr>(
        &self,
        weights: &Tensor<W, SW, D, RW>,
        minlength: isize,
    ) -> Result<crate::AnyTensor<D>, Error> {
        let minlength = self.bincount_checks(minlength)?;
        if let Some(zeros) = self.empty_bincount(minlength)? {
            return Ok(zeros.into());
        }
        if weights.layout.rank() != 1 || weights.layout.sizes()[0] != self.layout.sizes()[0] {
            return Err(Error::Unsupported {
                message: "weights should be 1-d and have the same length as input",
            });
        }
        let sum = D::map1(
            weights.strided(),
            crate::ops::functions::Cast::<W::Sum>::new(),
        )?;
        let n = self.layout.sizes()[0];
        let sum = dyn_of::<W::Sum, D>(sum, &[n]);
        let (buffer, bins) = T::bincount_weighted_on(self.strided(), sum.strided(), minlength)?;
        Ok(W::sums_into_any(dyn_of::<W::Sum, D>(buffer, &[bins])))
    }

    /// `bincount`'s checks before the counting: the dtype (PyTorch
    /// dispatches first), `minlength`, a 1-D input.
    fn bincount_checks(&self, minlength: isize) -> Result<usize, Error> {
        if !matches!(
            T::DTYPE,
            DType::U8 | DType::I8 | DType::I16 | DType::I32 | DType::I64
        ) {
            return Err(Error::NotImplementedFor {
                op: "bincount_cpu",
                dtype: T::DTYPE,
            });
        }
        let minlength = usize::try_from(minlength).map_err(|_| Error::Unsupported {
            message: "minlength should be >= 0",
        })?;
        Ok(minlength)
    }

    /// PyTorch's answer for an empty 1-D input (int64 zeros of
    /// `minlength`), and its error for other ranks.
    fn empty_bincount(&self, minlength: usize) -> Result<Option<DynTensor<i64, D>>, Error> {
        let rank = self.layout.rank();
        if rank == 1 && self.layout.sizes()[0] == 0 {
            let zeros = D::map1(
                StridedRef {
                    sizes: &[minlength],
                    strides: &[0],
                    ..self.strided()
                },
                crate::ops::functions::Constant(0i64),
            )?;
            return Ok(Some(dyn_of(zeros, &[minlength])));
        }
        if rank != 1 {
            return Err(Error::Unsupported {
                message: "bincount only supports 1-d non-negative integral inputs.",
            });
        }
        Ok(None)
    }

    /// The histogram of the elements in `bins` equal bins over
    /// `[min, max]` (`min == max`: the elements' own range), of `self`'s
    /// float dtype; elements outside and NaN are left out.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = DynTensor::<f32>::from_vec(vec![1.0, 2.0, 1.0], &[3]).unwrap();
    /// assert_eq!(x.histc(4, 0.0, 3.0).unwrap().to_vec(), [0.0, 2.0, 1.0, 0.0]);
    /// assert_eq!(x.histc(4, 0.0, 0.0).unwrap().to_vec(), [2.0, 0.0, 0.0, 1.0]);
    /// ```
    pub fn histc(&self, bins: isize, min: f64, max: f64) -> Result<DynTensor<T, D>, Error> {
        let buffer = T::histc_on(self.strided(), bins as i64, min, max)?;
        Ok(dyn_of(buffer, &[bins as usize]))
    }
}

/// For the typed forms: unique's parts, with PyTorch's behaviour (no error
/// can come but out of memory or a failing device: a panic, as the typed
/// sorts').
pub(crate) fn unique_parts<T: SetElement, D: SetOps>(
    x: StridedRef<'_, T, D>,
    consecutive: bool,
    inverse: bool,
    counts: bool,
) -> Uniques<T, D> {
    or_panic(D::unique(x, consecutive, inverse, counts))
}

/// A `(Dyn,)` tensor over `buffer`.
pub(crate) fn vector_of<T: Element, D: Backend>(
    buffer: D::Buffer<T>,
    n: usize,
) -> Tensor<T, (Dyn,), D> {
    Tensor::from_buffer(buffer, StridedLayout::contiguous([n]))
}
