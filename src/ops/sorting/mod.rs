//! `sort`, `argsort` and `msort` with PyTorch's semantics.
//!
//! | form | static shapes (the dim in the type) | `DynTensor` and `AnyTensor` |
//! |---|---|---|
//! | values and indices | `x.sort::<1>(descending)` | `x.sort(-1, descending, stable)?` |
//! | indices | `x.argsort::<1>(descending)` | `x.argsort(1, descending, stable)?` |
//! | along dim 0 | `x.msort()` | `x.msort()?` |
//!
//! Every dtype but complex sorts; NaN sorts above every number (last in
//! ascending order, first in descending order, as PyTorch), `-0.0` and
//! `0.0` are equal. The sort is always stable: equal elements keep their
//! order, in both directions (PyTorch's `stable=True`; with
//! `stable=False` PyTorch leaves their order unspecified, and this library
//! gives the stable one). The indices are int64 positions along the dim;
//! results are laid out as PyTorch lays them out (the input's strides where they are dense, else
//! row-major in the order of its strides). On the CPU: a radix sort (`backend/cpu/sort.rs`);
//! on CUDA: tiles sorted in shared memory, then merged (`backend/cuda/sort.rs`),
//! with the same results bit for bit.
//!
//! ```
//! use shaped::prelude::*;
//! let x = Tensor::<f32, shape![2, 3]>::from_vec(vec![3.0, f32::NAN, 1.0, 2.0, 2.0, -1.0]).unwrap();
//! let (values, indices) = x.sort::<1>(false);
//! assert_eq!(indices.to_vec(), [2, 0, 1, 2, 0, 1]);
//! assert_eq!(values.to_vec()[..2], [1.0, 3.0]);
//! assert!(values.to_vec()[2].is_nan());
//! let d = DynTensor::<i64>::from_vec(vec![2, 1, 2, 1], &[4]).unwrap();
//! assert_eq!(d.argsort(0, true, true).unwrap().to_vec(), [0, 2, 1, 3]);
//! ```

pub use crate::backend::cpu::sort::SortKey;
pub use order::{Interpolation, OrderInput, QuantileFloat, Rankable, Statistic, TopkInput};

mod order;

use crate::backend::{Backend, Sorting, StridedRef};
use crate::dtype::Element;
use crate::dynamic::{DynShape, DynTensor};
use crate::error::{Error, or_panic};
use crate::layout::views::wrap_dim;
use crate::layout::{StridedLayout, array_from, checked_storage};
use crate::ops::scans::IndexedParts;
use crate::shape::axes::At;
use crate::shape::dynamic::DynSizes;
use crate::shape::list::TupleShape;
use crate::shape::{Shape, SizeArray};
use crate::storage::Repr;
use crate::tensor::{OwnedParts, Tensor, from_parts, owned_parts};

/// PyTorch's text for sorting a complex tensor.
const COMPLEX: &str = " Sort does not support complex dtypes on CPU";

/// The sorted values' parts (when `values`) and the indices' parts.
pub type SortedParts<T, D, A> = (Option<OwnedParts<T, D, A>>, OwnedParts<i64, D, A>);

/// Sorts `x` along the (wrapped) `dim`: the parts of the values (when
/// `values`) and of the indices.
pub(crate) fn sort_parts<T: SortKey, A: SizeArray, D: Sorting>(
    x: StridedRef<'_, T, D>,
    dim: usize,
    descending: bool,
    values: bool,
) -> Result<SortedParts<T, D, A>, Error> {
    let sizes = x.sizes;
    checked_storage(sizes, size_of::<i64>())?;
    // A rank-0 tensor is one line of one element.
    let one = [1];
    let lines = match sizes.is_empty() {
        true => StridedRef {
            sizes: &one,
            strides: &one,
            ..x
        },
        false => x,
    };
    let (sorted, indices) = D::sort(lines, dim, descending, values)?;
    // The device's layout (`dim` last, row-major) in `x`'s order of dims,
    // then PyTorch's: `x`'s strides where they are dense.
    let rank = sizes.len();
    let mut moved: Vec<usize> = sizes.to_vec();
    if rank > 0 {
        let n = moved.remove(dim);
        moved.push(n);
    }
    let mut strides = crate::layout::contiguous_strides::<Vec<usize>>(&moved);
    if rank > 0 {
        let along = strides.pop().expect("rank 1 or more");
        strides.insert(dim, along);
    }
    let like = |b| crate::view::copy::in_layout_like::<_, D, A>(b, sizes, &strides, x.strides);
    let values = match sorted {
        Some(v) => Some(like(v)?),
        None => None,
    };
    Ok((
        values,
        crate::view::copy::in_layout_like::<i64, D, A>(indices, sizes, &strides, x.strides)?,
    ))
}

/// The `k` largest (or smallest) elements of `x` along the (wrapped)
/// `dim` (`k` within its size), most extreme first, and their positions,
/// as contiguous tensors' parts (`dim` now `k` long).
pub(crate) fn topk_parts<T: SortKey, A: SizeArray, D: Sorting>(
    x: StridedRef<'_, T, D>,
    k: usize,
    dim: usize,
    largest: bool,
) -> Result<IndexedParts<T, D, A>, Error> {
    let rank = x.sizes.len();
    if rank == 0 {
        // PyTorch gives the element itself (for k 0 or 1).
        let layout = StridedLayout::contiguous(array_from::<A>(&[]));
        let values = D::map1(x, crate::ops::functions::Identity)?;
        let zero = D::map1(x, crate::ops::functions::Constant(0i64))?;
        return Ok((
            owned_parts(values, layout.clone()),
            owned_parts(zero, layout),
        ));
    }
    let mut sizes = x.sizes.to_vec();
    sizes[dim] = k;
    checked_storage(&sizes, size_of::<i64>())?;
    let (values, indices) = D::topk(x, k, dim, largest)?;
    // From the device's layout (`dim` last) to the row-major one.
    let mut moved = sizes.clone();
    let along = moved.remove(dim);
    moved.push(along);
    let mut strides = crate::layout::contiguous_strides::<Vec<usize>>(&moved);
    let step = strides.pop().expect("rank 1 or more");
    strides.insert(dim, step);
    let row_major = crate::layout::contiguous_strides::<Vec<usize>>(&sizes);
    Ok((
        crate::view::copy::in_layout_like::<T, D, A>(values, &sizes, &strides, &row_major)?,
        crate::view::copy::in_layout_like::<i64, D, A>(indices, &sizes, &strides, &row_major)?,
    ))
}

/// The static forms: the dim in the type, checked against the rank.
impl<T: Element, S: Shape + TupleShape, D: Backend, R: Repr> Tensor<T, S, D, R> {
    /// The elements sorted along dim `I` (ascending, or `descending`), and
    /// their positions along it; stable.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = Tensor::<i32, shape![4]>::from_vec(vec![3, 1, 3, 2]).unwrap();
    /// let (values, indices) = x.sort::<0>(true);
    /// assert_eq!(values.to_vec(), [3, 3, 2, 1]);
    /// assert_eq!(indices.to_vec(), [0, 2, 3, 1]);
    /// ```
    pub fn sort<const I: usize>(&self, descending: bool) -> (Tensor<T, S, D>, Tensor<i64, S, D>)
    where
        T: SortKey,
        S: At<I>,
        D: Sorting,
    {
        let (values, indices) = or_panic(sort_parts::<T, S::Sizes, D>(
            self.strided(),
            I,
            descending,
            true,
        ));
        let values = values.expect("the values were asked for");
        (from_parts!(values), from_parts!(indices))
    }

    /// The positions that sort dim `I` (ascending, or `descending`); stable.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = Tensor::<f64, shape![2, 2]>::from_vec(vec![2.0, 1.0, 0.0, 5.0]).unwrap();
    /// assert_eq!(x.argsort::<0>(false).to_vec(), [1, 0, 0, 1]);
    /// ```
    pub fn argsort<const I: usize>(&self, descending: bool) -> Tensor<i64, S, D>
    where
        T: SortKey,
        S: At<I>,
        D: Sorting,
    {
        let (_, indices) = or_panic(sort_parts::<T, S::Sizes, D>(
            self.strided(),
            I,
            descending,
            false,
        ));
        from_parts!(indices)
    }

    /// The elements sorted along dim 0, ascending (PyTorch's `msort`).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = Tensor::<u8, shape![3, 1]>::from_vec(vec![9, 7, 8]).unwrap();
    /// assert_eq!(x.msort().to_vec(), [7, 8, 9]);
    /// ```
    pub fn msort(&self) -> Tensor<T, S, D>
    where
        T: SortKey,
        S: At<0>,
        D: Sorting,
    {
        self.sort::<0>(false).0
    }
}

/// Element types of `DynTensor::sort`: all twelve; complex ones give
/// PyTorch's error.
pub trait SortInput: Element {
    /// Sorts along the wrapped `dim`, or PyTorch's error.
    #[doc(hidden)]
    fn sort_on<D: Sorting>(
        x: StridedRef<'_, Self, D>,
        dim: usize,
        descending: bool,
        values: bool,
    ) -> Result<SortedParts<Self, D, DynSizes>, Error>;

    /// `topk` along the wrapped `dim` (`k` checked), or PyTorch's error.
    #[doc(hidden)]
    #[allow(clippy::type_complexity)]
    fn topk_on<D: Sorting>(
        x: StridedRef<'_, Self, D>,
        k: usize,
        dim: usize,
        largest: bool,
    ) -> Result<IndexedParts<Self, D, DynSizes>, Error>;
}
macro_rules! sort_inputs {
    (sorts: $($t:ty: $top:expr),*; refuses: $($c:ty),*) => {
        $(impl SortInput for $t {
            fn sort_on<D: Sorting>(
                x: StridedRef<'_, Self, D>,
                dim: usize,
                descending: bool,
                values: bool,
            ) -> Result<SortedParts<Self, D, DynSizes>, Error> {
                sort_parts::<Self, DynSizes, D>(x, dim, descending, values)
            }
            fn topk_on<D: Sorting>(
                x: StridedRef<'_, Self, D>,
                k: usize,
                dim: usize,
                largest: bool,
            ) -> Result<IndexedParts<Self, D, DynSizes>, Error> {
                match $top {
                    Some(message) => Err(Error::Unsupported { message }),
                    None => topk_parts::<Self, DynSizes, D>(x, k, dim, largest),
                }
            }
        })*
        $(impl SortInput for $c {
            fn sort_on<D: Sorting>(
                _: StridedRef<'_, Self, D>,
                _: usize,
                _: bool,
                _: bool,
            ) -> Result<SortedParts<Self, D, DynSizes>, Error> {
                Err(Error::Unsupported { message: COMPLEX })
            }
            fn topk_on<D: Sorting>(
                _: StridedRef<'_, Self, D>,
                _: usize,
                _: usize,
                _: bool,
            ) -> Result<IndexedParts<Self, D, DynSizes>, Error> {
                Err(Error::Unsupported { message: " topk does not support complex dtypes on CPU" })
            }
        })*
    };
}
sort_inputs!(
    sorts: half::f16: None, half::bf16: None, f32: None, f64: None, u8: None, i8: None,
        i16: None, i32: None, i64: None,
        bool: Some("topk does not support bool dtypes on CPU");
    refuses: num_complex::Complex<f32>, num_complex::Complex<f64>
);

/// The runtime forms: PyTorch's dim (negative from the end) and texts.
impl<T: SortInput, D: Sorting, R: Repr> Tensor<T, DynShape, D, R> {
    /// The elements sorted along `dim` and their positions. The sort is
    /// stable whatever `stable` says (PyTorch leaves the order of equal
    /// elements unspecified without it).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = DynTensor::<f32>::from_vec(vec![0.0, -0.0, f32::NAN, -1.0], &[4]).unwrap();
    /// let (values, indices) = x.sort(0, true, false).unwrap();
    /// assert_eq!(indices.to_vec(), [2, 0, 1, 3]);
    /// assert!(values.to_vec()[0].is_nan());
    /// ```
    #[allow(clippy::type_complexity)]
    pub fn sort(
        &self,
        dim: isize,
        descending: bool,
        stable: bool,
    ) -> Result<(DynTensor<T, D>, DynTensor<i64, D>), Error> {
        let _ = stable; // (every sort here is stable)
        let d = wrap_dim(dim, self.layout.rank())?;
        let (values, indices) = T::sort_on(self.strided(), d, descending, true)?;
        let values = values.expect("the values were asked for");
        Ok((from_parts!(values), from_parts!(indices)))
    }

    /// The positions that sort `dim`; stable whatever `stable` says.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let z = DynTensor::<num_complex::Complex<f32>>::zeros(&[2]);
    /// assert_eq!(
    ///     z.argsort(0, false, true).unwrap_err().to_string(),
    ///     " Sort does not support complex dtypes on CPU"
    /// );
    /// ```
    pub fn argsort(
        &self,
        dim: isize,
        descending: bool,
        stable: bool,
    ) -> Result<DynTensor<i64, D>, Error> {
        let _ = stable; // (every sort here is stable)
        let d = wrap_dim(dim, self.layout.rank())?;
        let (_, indices) = T::sort_on(self.strided(), d, descending, false)?;
        Ok(from_parts!(indices))
    }

    /// The elements sorted along dim 0, ascending.
    pub fn msort(&self) -> Result<DynTensor<T, D>, Error> {
        Ok(self.sort(0, false, false)?.0)
    }

    /// The `k` largest (or, not `largest`, smallest) elements along `dim`,
    /// most extreme first, and their positions (PyTorch's `topk`; NaN
    /// counts as the largest; equal elements come by position, where
    /// PyTorch leaves their order unspecified). The results are sorted
    /// whatever `sorted` says (PyTorch's unsorted order is unspecified).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = DynTensor::<f32>::from_vec(vec![1.0, 5.0, 3.0, f32::NAN], &[4]).unwrap();
    /// let (values, indices) = x.topk(2, 0, false, true).unwrap();
    /// assert_eq!((values.to_vec(), indices.to_vec()), (vec![1.0, 3.0], vec![0, 2]));
    /// assert_eq!(
    ///     x.topk(5, 0, true, true).unwrap_err().to_string(),
    ///     "selected index k out of range"
    /// );
    /// ```
    #[allow(clippy::type_complexity)]
    pub fn topk(
        &self,
        k: isize,
        dim: isize,
        largest: bool,
        sorted: bool,
    ) -> Result<(DynTensor<T, D>, DynTensor<i64, D>), Error> {
        let _ = sorted; // (always sorted)
        let sizes = self.layout.sizes();
        let d = wrap_dim(dim, sizes.len())?;
        let size = sizes.get(d).copied().unwrap_or(1);
        let k = usize::try_from(k)
            .ok()
            .filter(|&k| k <= size)
            .ok_or(Error::Unsupported {
                message: "selected index k out of range",
            })?;
        let (values, indices) = T::topk_on(self.strided(), k, d, largest)?;
        Ok((from_parts!(values), from_parts!(indices)))
    }
}
