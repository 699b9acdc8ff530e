//! Reductions with PyTorch's semantics, on the CPU.
//!
//! Names, the same scheme for every reduction (`sum` shown; also `mean`,
//! `prod`, `amax`, `amin`, `max`, `min`, `argmax`, `argmin`, `all`, `any`):
//!
//! | form | static shapes (axes in the type) | `DynTensor` (PyTorch's arguments) |
//! |---|---|---|
//! | whole tensor | `x.sum()` | `x.sum_all()` |
//! | one axis, removed | `x.sum_dim::<1>()` | `x.sum(&[1], false)?` |
//! | one axis, kept as size 1 | `x.sum_keepdim::<1>()` | `x.sum(&[1], true)?` |
//! | several axes, removed | `x.sum_dims::<axes![0, 2]>()` | `x.sum(&[0, 2], false)?` |
//! | several axes, kept | `x.sum_dims_keepdim::<axes![0, 2]>()` | `x.sum(&[0, 2], true)?` |
//!
//! Whole-tensor results are rank-0 tensors (`Tensor<_, shape![]>`), as
//! PyTorch's 0-dim tensors. The several-axes forms exist where PyTorch takes
//! a list of dims (`sum`, `mean`, `amax`, `amin`, `all`, `any`); `prod`,
//! `max`, `min`, `argmax`, `argmin` take one dim (`x.prod(0, false)?`,
//! `x.max(1, false)?` on `DynTensor`). `max_dim`/`min_dim` give the values
//! and their `i64` indices. On `DynTensor`, the whole-tensor forms are
//! `sum_all`, `mean_all`, `prod_all`, `max_all`, `min_all`, `argmax_all`,
//! `argmin_all`, `all_all`, `any_all`.
//!
//! Result types are PyTorch's: integer and bool sums and products are `i64`;
//! `mean` needs a floating or complex type (a compile error on static
//! shapes, PyTorch's error on `DynTensor`); `all`/`any` give `bool` (`u8`
//! for `u8` input); the order-based reductions do not take complex input
//! (again a compile error, or PyTorch's error). The ones that need an
//! element (`amax`, `amin`, `max`, `min`, `argmax`, `argmin`) return their
//! tensors on static shapes whose reduced sizes are static and not 0 (a
//! static 0 does not compile; a `Dyn` size of 0 panics with PyTorch's
//! message), and `Result` in their `try_` forms and on `DynTensor`.
//!
//! ```
//! use shaped::prelude::*;
//! let x = Tensor::<f32, shape![2, 3]>::from_vec(vec![1., 5., 3., 4., 2., 6.]).unwrap();
//! let rows: Tensor<f32, shape![2]> = x.sum_dim::<1>();
//! assert_eq!(rows.to_vec(), vec![9., 12.]);
//! let (values, indices) = x.max_dim::<1>();
//! assert_eq!((values.to_vec(), indices.to_vec()), (vec![5., 6.], vec![1, 2]));
//!
//! let d = x.into_dyn();
//! assert_eq!(d.sum(&[0, -1], false).unwrap().to_vec(), vec![21.]);
//! assert_eq!(d.argmax(0, true).unwrap().shape(), [1, 3]);
//! ```

pub mod reducers;

pub use reducers::Reducer;

use crate::backend::Reductions;
use crate::backend::StridedRef;
use crate::dtype::Element;
use crate::dynamic::{DynShape, DynTensor};
use crate::error::{Error, kernel_on};
use crate::error::{OrPanic, or_panic};
use crate::layout::views::wrap_dim;
use crate::layout::{StridedLayout, array_from, checked_storage};
use crate::shape::list::TupleShape;
use crate::shape::reduce::{
    AllHoldElements, ExtremeAxes, ExtremeAxis, ReduceAxes, ReduceAxis, axes_mask,
};
use crate::shape::{FixedShape, Shape, SizeArray};
use crate::storage::Repr;
use crate::tensor::{OwnedParts, Tensor, from_parts, owned_parts};
use reducers::{
    ArgExtremum, Direction, Extreme, ExtremeAt, Extremum, Largest, Logical, Mean, MeanElement,
    Prod, Smallest, Sum, Summable, Truth,
};
use smallvec::SmallVec;

/// What `max(dim, keepdim)` and `min(dim, keepdim)` of a `DynTensor` give:
/// the extreme values and their `i64` indices along `dim`.
///
/// ```
/// use shaped::ops::reductions::ValuesAndIndices;
/// use shaped::prelude::*;
/// let x = DynTensor::<i32>::from_vec(vec![3, 9, 4], &[3]).unwrap();
/// let (values, indices): ValuesAndIndices<i32> = x.max(0, false).unwrap();
/// assert_eq!((values.to_vec(), indices.to_vec()), (vec![9], vec![1]));
/// ```
pub type ValuesAndIndices<T, D = crate::backend::Cpu> = (DynTensor<T, D>, DynTensor<i64, D>);

/// A mask of reduced dimensions.
type Mask = SmallVec<[bool; 8]>;

/// Element types of `DynTensor` reductions: all twelve. Which reductions
/// apply depends on the type; the others give PyTorch's error at run time.
/// The `*_on` functions run the reductions that only some types have, on
/// any backend, for callers that checked [`HAS_MEAN`](Self::HAS_MEAN) or
/// [`ORDERED`](Self::ORDERED) first.
///
/// ```
/// use shaped::ops::reductions::Reduce;
/// assert!(<f32 as Reduce>::HAS_MEAN && !<i64 as Reduce>::HAS_MEAN);
/// assert!(!<num_complex::Complex<f32> as Reduce>::ORDERED);
/// ```
pub trait Reduce: Summable + Truth {
    /// `mean` applies: floating and complex types.
    const HAS_MEAN: bool;
    /// The order-based reductions apply: all but complex types.
    const ORDERED: bool;
    /// `mean` along `mask`; PyTorch's error where it does not apply.
    fn mean_on<D: Reductions>(
        x: StridedRef<'_, Self, D>,
        mask: &[bool],
    ) -> Result<D::Buffer<Self>, Error>;
    /// `amax` (`largest`) or `amin` along `mask`; an error for complex
    /// types.
    fn extreme_on<D: Reductions>(
        x: StridedRef<'_, Self, D>,
        mask: &[bool],
        largest: bool,
    ) -> Result<D::Buffer<Self>, Error>;
    /// `max` (`largest`) or `min` with indices along the one dim of
    /// `mask`; an error for complex types.
    #[allow(clippy::type_complexity)]
    fn extreme_at_on<D: Reductions>(
        x: StridedRef<'_, Self, D>,
        mask: &[bool],
        largest: bool,
    ) -> Result<(D::Buffer<Self>, D::Buffer<i64>), Error>;
}

/// The `*_on` functions of an ordered type.
macro_rules! ordered_reductions {
    () => {
        const ORDERED: bool = true;
        fn extreme_on<D: Reductions>(
            x: StridedRef<'_, Self, D>,
            mask: &[bool],
            largest: bool,
        ) -> Result<D::Buffer<Self>, Error> {
            if largest {
                D::reduce(x, mask, Extreme::<Largest>::default())
            } else {
                D::reduce(x, mask, Extreme::<Smallest>::default())
            }
        }
        fn extreme_at_on<D: Reductions>(
            x: StridedRef<'_, Self, D>,
            mask: &[bool],
            largest: bool,
        ) -> Result<(D::Buffer<Self>, D::Buffer<i64>), Error> {
            if largest {
                D::reduce_indexed(x, mask, ExtremeAt::<Largest>::default())
            } else {
                D::reduce_indexed(x, mask, ExtremeAt::<Smallest>::default())
            }
        }
    };
}

/// The `*_on` functions of a type with a mean.
macro_rules! mean_reduction {
    () => {
        const HAS_MEAN: bool = true;
        fn mean_on<D: Reductions>(
            x: StridedRef<'_, Self, D>,
            mask: &[bool],
        ) -> Result<D::Buffer<Self>, Error> {
            D::reduce(x, mask, Mean)
        }
    };
}

macro_rules! reduce_real {
    ($($t:ty),*) => {$(
        impl Reduce for $t {
            mean_reduction!();
            ordered_reductions!();
        }
    )*};
}
reduce_real!(half::f16, half::bf16, f32, f64);

macro_rules! reduce_complex {
    ($($t:ty),*) => {$(
        impl Reduce for $t {
            mean_reduction!();
            const ORDERED: bool = false;
            fn extreme_on<D: Reductions>(
                _: StridedRef<'_, Self, D>,
                _: &[bool],
                _: bool,
            ) -> Result<D::Buffer<Self>, Error> {
                Err(Error::UnsupportedInput { op: "max", kind: "complex" })
            }
            fn extreme_at_on<D: Reductions>(
                _: StridedRef<'_, Self, D>,
                _: &[bool],
                _: bool,
            ) -> Result<(D::Buffer<Self>, D::Buffer<i64>), Error> {
                Err(Error::UnsupportedInput { op: "max", kind: "complex" })
            }
        }
    )*};
}
reduce_complex!(num_complex::Complex<f32>, num_complex::Complex<f64>);

macro_rules! reduce_integer {
    ($($t:ty),*) => {$(
        impl Reduce for $t {
            const HAS_MEAN: bool = false;
            fn mean_on<D: Reductions>(
                _: StridedRef<'_, Self, D>,
                _: &[bool],
            ) -> Result<D::Buffer<Self>, Error> {
                Err(Error::MeanDType { dtype: Self::DTYPE })
            }
            ordered_reductions!();
        }
    )*};
}
reduce_integer!(u8, i8, i16, i32, i64, bool);

/// Wraps PyTorch's list of dims into a mask: an empty list reduces every
/// dimension (`sum`, `mean`, `amax`, `amin`); each dim may be negative,
/// once.
pub(crate) fn dims_mask(
    dims: &[isize],
    rank: usize,
) -> Result<(Mask, SmallVec<[usize; 8]>), Error> {
    dims_mask_or(dims, rank, true)
}

/// [`dims_mask`], where an empty list reduces every dimension when `empty_is_all`,
/// and none otherwise (PyTorch's `all`/`any` with `dim=()`).
fn dims_mask_or(
    dims: &[isize],
    rank: usize,
    empty_is_all: bool,
) -> Result<(Mask, SmallVec<[usize; 8]>), Error> {
    let mut mask = Mask::from_elem(dims.is_empty() && empty_is_all, rank);
    let mut order = SmallVec::new();
    // A rank-0 tensor takes dim 0 (or -1) once, as one of size 1.
    let mut scalar_named = false;
    for &d in dims {
        let d = wrap_dim(d, rank)?;
        if rank == 0 {
            if scalar_named {
                return Err(Error::DimRepeated { dim: d });
            }
            scalar_named = true;
            continue;
        }
        if mask[d] {
            return Err(Error::DimRepeated { dim: d });
        }
        mask[d] = true;
        order.push(d);
    }
    if dims.is_empty() && empty_is_all {
        order.extend(0..rank);
    }
    Ok((mask, order))
}

/// The mask of one axis `axis < rank`.
pub(crate) fn axis_mask(rank: usize, axis: usize) -> Mask {
    let mut mask = Mask::from_elem(false, rank);
    mask[axis] = true;
    mask
}

/// The mask of one dim (a rank-0 tensor takes 0 and -1 and reduces nothing).
fn dim_mask(dim: isize, rank: usize) -> Result<Mask, Error> {
    let d = wrap_dim(dim, rank)?;
    let mut mask = Mask::from_elem(false, rank);
    if rank > 0 {
        mask[d] = true;
    }
    Ok(mask)
}

/// The sizes of a result: reduced dimensions dropped, or kept as 1.
pub(crate) fn out_sizes(sizes: &[usize], mask: &[bool], keepdim: bool) -> SmallVec<[usize; 8]> {
    sizes
        .iter()
        .zip(mask)
        .filter_map(|(&n, &r)| match (r, keepdim) {
            (false, _) => Some(n),
            (true, true) => Some(1),
            (true, false) => None,
        })
        .collect()
}

/// `op` needs an element along each reduced dimension (or, with none named,
/// in the tensor).
fn check_nonempty(
    op: &'static str,
    sizes: &[usize],
    order: &[usize],
    named: bool,
) -> Result<(), Error> {
    if !named && sizes.contains(&0) {
        return Err(Error::ReduceEmptyTensor { op });
    }
    match order.iter().find(|&&d| sizes[d] == 0) {
        Some(&dim) => Err(Error::ReduceEmptyDim { op, dim }),
        None => Ok(()),
    }
}

/// PyTorch's `argmax`/`argmin` do not take bool input.
fn check_index_dtype<T: Element>(op: &'static str) -> Result<(), Error> {
    if op.starts_with("arg") && T::DTYPE == crate::dtype::DType::Bool {
        return Err(Error::UnsupportedInput { op, kind: "bool" });
    }
    Ok(())
}

/// PyTorch's check of a reduction's output (of `U`s) before it is
/// allocated: its bytes must fit, or `Storage size calculation overflowed
/// with sizes=..` (the kept sizes of an empty input may be large).
fn check_output<U: Element>(sizes: &[usize], mask: &[bool], keepdim: bool) -> Result<(), Error> {
    checked_storage(&out_sizes(sizes, mask, keepdim), size_of::<U>()).map(drop)
}

/// [`check_output`] of `max(dim)`: the values, then their indices.
fn check_indexed_output<U: Element>(
    sizes: &[usize],
    mask: &[bool],
    keepdim: bool,
) -> Result<(), Error> {
    check_output::<U>(sizes, mask, keepdim)?;
    check_output::<i64>(sizes, mask, keepdim)
}

/// The mask of every dimension.
fn all_mask(rank: usize) -> Mask {
    Mask::from_elem(true, rank)
}

/// Reducer `r` run along `mask`, as a contiguous tensor's parts: generic
/// over the output's size array rather than the shapes, so one copy serves
/// every reduction of one rank to another.
fn reduce_buffer<T, Rd, A, D>(
    x: StridedRef<'_, T, D>,
    mask: &[bool],
    keepdim: bool,
    r: Rd,
) -> Result<OwnedParts<Rd::Out, D, A>, Error>
where
    T: Element,
    Rd: Reducer<T>,
    Rd::Out: Element,
    A: SizeArray,
    D: Reductions,
{
    let sizes = out_sizes(x.sizes, mask, keepdim);
    checked_storage(&sizes, size_of::<Rd::Out>())?;
    let buffer = D::reduce(x, mask, r)?;
    Ok(owned_parts(
        buffer,
        StridedLayout::contiguous(array_from(&sizes)),
    ))
}

/// [`reduce_buffer`] of the tensor `$x` (a macro, so that each reduction
/// method is the only function a new shape compiles).
macro_rules! reduced {
    ($x:expr, $($args:expr),*) => {
        reduce_buffer(StridedRef::new(&$x.data, &$x.layout), $($args),*)
    };
}

impl<T: Element, S: Shape, D: Reductions, R: Repr> Tensor<T, S, D, R> {
    /// A reduction's contiguous output as a tensor of shape `S2`.
    fn reduced<U: Element, S2: Shape>(
        &self,
        buffer: D::Buffer<U>,
        mask: &[bool],
        keepdim: bool,
    ) -> Tensor<U, S2, D> {
        let sizes = out_sizes(self.layout.sizes(), mask, keepdim);
        Tensor::from_buffer(
            buffer,
            StridedLayout::contiguous(array_from::<S2::Sizes>(&sizes)),
        )
    }

    /// Wraps values and indices along `mask` into two tensors of shape `S2`.
    #[allow(clippy::type_complexity)]
    fn reduced_pair<S2: Shape>(
        &self,
        (values, indices): (D::Buffer<T>, D::Buffer<i64>),
        mask: &[bool],
        keepdim: bool,
    ) -> (Tensor<T, S2, D>, Tensor<i64, S2, D>) {
        (
            self.reduced(values, mask, keepdim),
            self.reduced(indices, mask, keepdim),
        )
    }

    /// The extreme element and its flat (row-major) index, as rank-0
    /// tensors: `argmax()`-like reductions, where `extreme_at` reduces a
    /// rank-1 operand. A contiguous tensor is reduced as one dimension;
    /// another is copied first.
    #[allow(clippy::type_complexity)]
    fn flat_extreme_at(
        &self,
        op: &'static str,
        extreme_at: impl FnOnce(StridedRef<'_, T, D>) -> Result<(D::Buffer<T>, D::Buffer<i64>), Error>,
    ) -> Result<(Tensor<T, (), D>, Tensor<i64, (), D>), Error> {
        check_index_dtype::<T>(op)?;
        let n = self.numel();
        if n == 0 {
            return Err(Error::ReduceEmptyTensor { op });
        }
        let flat = [n];
        let one = [1];
        let copy;
        let x = if self.is_contiguous() {
            StridedRef {
                ptr: self.strided().ptr,
                sizes: &flat,
                strides: &one,
                offset: self.layout.offset(),
            }
        } else {
            copy = D::map1(self.strided(), crate::ops::functions::Identity)?;
            StridedRef {
                ptr: D::ptr(&copy),
                sizes: &flat,
                strides: &one,
                offset: 0,
            }
        };
        let (values, indices) = extreme_at(x)?;
        let rank0 = || StridedLayout::contiguous(array_from::<[usize; 0]>(&[]));
        Ok((
            Tensor::from_buffer(values, rank0()),
            Tensor::from_buffer(indices, rank0()),
        ))
    }
}

impl<T: Reduce, D: Reductions, R: Repr> Tensor<T, DynShape, D, R> {
    /// PyTorch's error for complex input where `T` is complex.
    fn ordered(err: impl FnOnce() -> Error) -> Result<(), Error> {
        if T::ORDERED { Ok(()) } else { Err(err()) }
    }

    /// PyTorch's `sum(dims, keepdim)`: an empty `dims` reduces every
    /// dimension. Integer and bool tensors sum to `i64`.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = DynTensor::<i32>::from_vec((0..6).collect(), &[2, 3]).unwrap();
    /// let s: DynTensor<i64> = x.sum(&[0], false).unwrap();
    /// assert_eq!(s.to_vec(), vec![3, 5, 7]);
    /// assert_eq!(
    ///     x.sum(&[0, -2], false).unwrap_err().to_string(),
    ///     "dim 0 appears multiple times in the list of dims"
    /// );
    /// ```
    pub fn sum(&self, dims: &[isize], keepdim: bool) -> Result<DynTensor<T::Sum, D>, Error> {
        let (mask, _) = dims_mask(dims, self.rank())?;
        Ok(from_parts!(reduced!(self, &mask, keepdim, Sum)?))
    }

    /// The sum of every element, as a rank-0 tensor.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = DynTensor::<u8>::from_vec(vec![200, 100], &[2]).unwrap();
    /// assert_eq!(x.sum_all().to_vec(), vec![300i64]);
    /// ```
    pub fn sum_all(&self) -> Tensor<T::Sum, (), D> {
        from_parts!(or_panic(reduced!(
            self,
            &all_mask(self.layout.rank()),
            false,
            Sum
        )))
    }

    /// PyTorch's `mean(dims, keepdim)`, for floating and complex tensors.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = DynTensor::<f32>::from_vec(vec![1., 2., 3., 4.], &[2, 2]).unwrap();
    /// assert_eq!(x.mean(&[1], true).unwrap().to_vec(), vec![1.5, 3.5]);
    /// let i = DynTensor::<i64>::zeros(&[2]);
    /// assert_eq!(
    ///     i.mean(&[0], false).unwrap_err().to_string(),
    ///     "mean(): could not infer output dtype. Input dtype must be either a floating point or complex dtype. Got: Long"
    /// );
    /// ```
    pub fn mean(&self, dims: &[isize], keepdim: bool) -> Result<DynTensor<T, D>, Error> {
        if !T::HAS_MEAN {
            return Err(Error::MeanDType { dtype: T::DTYPE });
        }
        let (mask, _) = dims_mask(dims, self.rank())?;
        check_output::<T>(self.layout.sizes(), &mask, keepdim)?;
        Ok(self.reduced(T::mean_on(self.strided(), &mask)?, &mask, keepdim))
    }

    /// The mean of every element (NaN for none), for floating and complex
    /// tensors.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = DynTensor::<f64>::from_vec(vec![1., 2.], &[2]).unwrap();
    /// assert_eq!(x.mean_all().unwrap().to_vec(), vec![1.5]);
    /// ```
    pub fn mean_all(&self) -> Result<Tensor<T, (), D>, Error> {
        let mask = all_mask(self.layout.rank());
        Ok(self.reduced(T::mean_on(self.strided(), &mask)?, &mask, false))
    }

    /// PyTorch's `prod(dim, keepdim)`. Integer and bool tensors multiply
    /// as `i64`.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = DynTensor::<i64>::from_vec(vec![1, 2, 3, 4], &[2, 2]).unwrap();
    /// assert_eq!(x.prod(0, false).unwrap().to_vec(), vec![3, 8]);
    /// ```
    pub fn prod(&self, dim: isize, keepdim: bool) -> Result<DynTensor<T::Sum, D>, Error> {
        let mask = dim_mask(dim, self.rank())?;
        Ok(from_parts!(reduced!(self, &mask, keepdim, Prod)?))
    }

    /// The product of every element, as a rank-0 tensor.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = DynTensor::<f32>::from_vec(vec![2., 3.], &[2]).unwrap();
    /// assert_eq!(x.prod_all().to_vec(), vec![6.]);
    /// ```
    pub fn prod_all(&self) -> Tensor<T::Sum, (), D> {
        from_parts!(or_panic(reduced!(
            self,
            &all_mask(self.layout.rank()),
            false,
            Prod
        )))
    }

    /// PyTorch's `all(dims, keepdim)`: whether every element is nonzero.
    /// `bool` results (`u8` for `u8` input). As in PyTorch, an empty `dims`
    /// reduces nothing (each element's truth); [`all_all`](Self::all_all)
    /// reduces everything.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = DynTensor::<f32>::from_vec(vec![1., 0., 2., 3.], &[2, 2]).unwrap();
    /// assert_eq!(x.all(&[1], false).unwrap().to_vec(), vec![false, true]);
    /// ```
    pub fn all(&self, dims: &[isize], keepdim: bool) -> Result<DynTensor<T::Logical, D>, Error> {
        let (mask, _) = dims_mask_or(dims, self.rank(), false)?;
        Ok(from_parts!(reduced!(
            self,
            &mask,
            keepdim,
            Logical::<false>
        )?))
    }

    /// Whether every element is nonzero, as a rank-0 tensor.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// assert_eq!(DynTensor::<i32>::ones(&[3]).all_all().to_vec(), vec![true]);
    /// ```
    pub fn all_all(&self) -> Tensor<T::Logical, (), D> {
        from_parts!(or_panic(reduced!(
            self,
            &all_mask(self.layout.rank()),
            false,
            Logical::<false>
        )))
    }

    /// PyTorch's `any(dims, keepdim)`: whether some element is nonzero (an
    /// empty `dims` reduces nothing, as in PyTorch).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = DynTensor::<f32>::from_vec(vec![1., 0., 0., 0.], &[2, 2]).unwrap();
    /// assert_eq!(x.any(&[1], false).unwrap().to_vec(), vec![true, false]);
    /// ```
    pub fn any(&self, dims: &[isize], keepdim: bool) -> Result<DynTensor<T::Logical, D>, Error> {
        let (mask, _) = dims_mask_or(dims, self.rank(), false)?;
        Ok(from_parts!(reduced!(
            self,
            &mask,
            keepdim,
            Logical::<true>
        )?))
    }

    /// Whether some element is nonzero, as a rank-0 tensor.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// assert_eq!(DynTensor::<i32>::zeros(&[3]).any_all().to_vec(), vec![false]);
    /// ```
    pub fn any_all(&self) -> Tensor<T::Logical, (), D> {
        from_parts!(or_panic(reduced!(
            self,
            &all_mask(self.layout.rank()),
            false,
            Logical::<true>
        )))
    }

    /// `amax`/`amin`.
    fn extreme(
        &self,
        op: &'static str,
        kernel: &'static str,
        dims: &[isize],
        keepdim: bool,
        largest: bool,
    ) -> Result<DynTensor<T, D>, Error> {
        let (mask, order) = dims_mask(dims, self.rank())?;
        check_nonempty(op, self.layout.sizes(), &order, !dims.is_empty())?;
        check_output::<T>(self.layout.sizes(), &mask, keepdim)?;
        // PyTorch refuses complex values in the kernel, which an empty
        // result never launches: it is returned (empty) as for any dtype.
        let empty = self
            .layout
            .sizes()
            .iter()
            .zip(&mask)
            .any(|(&n, &reduced)| n == 0 && !reduced);
        let values = if empty {
            // No element to compare: PyTorch launches no kernel, so even
            // an unordered (complex) dtype gives its empty result.
            D::map1(
                StridedRef {
                    sizes: &[0],
                    strides: &[1],
                    offset: 0,
                    ..self.strided()
                },
                crate::ops::functions::Identity,
            )?
        } else if T::ORDERED {
            T::extreme_on(self.strided(), &mask, largest)?
        } else {
            return Err(Error::NotImplementedFor {
                op: kernel,
                dtype: T::DTYPE,
            });
        };
        Ok(self.reduced(values, &mask, keepdim))
    }

    /// PyTorch's `amax(dims, keepdim)`: the largest values (NaN if any).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = DynTensor::<i32>::from_vec(vec![1, 5, 3, 4], &[2, 2]).unwrap();
    /// assert_eq!(x.amax(&[0], false).unwrap().to_vec(), vec![3, 5]);
    /// ```
    pub fn amax(&self, dims: &[isize], keepdim: bool) -> Result<DynTensor<T, D>, Error> {
        let kernel = kernel_on(self.device(), "max_values_cpu", "max_values_cuda");
        self.extreme("amax", kernel, dims, keepdim, true)
    }

    /// PyTorch's `amin(dims, keepdim)`: the smallest values (NaN if any).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = DynTensor::<i32>::from_vec(vec![1, 5, 3, 4], &[2, 2]).unwrap();
    /// assert_eq!(x.amin(&[0], false).unwrap().to_vec(), vec![1, 4]);
    /// ```
    pub fn amin(&self, dims: &[isize], keepdim: bool) -> Result<DynTensor<T, D>, Error> {
        let kernel = kernel_on(self.device(), "min_values_cpu", "min_values_cuda");
        self.extreme("amin", kernel, dims, keepdim, false)
    }

    /// `max`/`min` along one dim.
    fn extreme_at(
        &self,
        op: &'static str,
        dim: isize,
        keepdim: bool,
        largest: bool,
    ) -> Result<ValuesAndIndices<T, D>, Error> {
        // PyTorch's order: the dtype first in `argmax` and `argmin`, last
        // (after the dim and an empty reduced dim) in `max` and `min`.
        let complex = || Error::UnsupportedInput {
            op,
            kind: "complex",
        };
        if op.starts_with("arg") {
            Self::ordered(complex)?;
        }
        check_index_dtype::<T>(op)?;
        let mask = dim_mask(dim, self.rank())?;
        if self.rank() > 0 {
            let d = wrap_dim(dim, self.rank())?;
            check_nonempty(op, self.layout.sizes(), &[d], true)?;
        }
        Self::ordered(complex)?;
        check_indexed_output::<T>(self.layout.sizes(), &mask, keepdim)?;
        let pair = T::extreme_at_on(self.strided(), &mask, largest)?;
        Ok(self.reduced_pair(pair, &mask, keepdim))
    }

    /// PyTorch's `max(dim, keepdim)`: the largest values along `dim` and
    /// their indices (the first NaN, or else the first largest value).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = DynTensor::<f32>::from_vec(vec![1., 5., 5., 4.], &[2, 2]).unwrap();
    /// let (values, indices) = x.max(1, false).unwrap();
    /// assert_eq!((values.to_vec(), indices.to_vec()), (vec![5., 5.], vec![1, 0]));
    /// ```
    pub fn max(&self, dim: isize, keepdim: bool) -> Result<ValuesAndIndices<T, D>, Error> {
        self.extreme_at("max", dim, keepdim, true)
    }

    /// PyTorch's `min(dim, keepdim)`: the smallest values along `dim` and
    /// their indices.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = DynTensor::<f32>::from_vec(vec![1., 5., 5., 4.], &[2, 2]).unwrap();
    /// let (values, indices) = x.min(0, true).unwrap();
    /// assert_eq!((values.to_vec(), indices.to_vec()), (vec![1., 4.], vec![0, 1]));
    /// ```
    pub fn min(&self, dim: isize, keepdim: bool) -> Result<ValuesAndIndices<T, D>, Error> {
        self.extreme_at("min", dim, keepdim, false)
    }

    /// PyTorch's `argmax(dim, keepdim)`: the indices of [`max`](Self::max).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = DynTensor::<i64>::from_vec(vec![1, 5, 7, 4], &[2, 2]).unwrap();
    /// assert_eq!(x.argmax(1, false).unwrap().to_vec(), vec![1, 0]);
    /// ```
    pub fn argmax(&self, dim: isize, keepdim: bool) -> Result<DynTensor<i64, D>, Error> {
        Ok(self.extreme_at("argmax", dim, keepdim, true)?.1)
    }

    /// PyTorch's `argmin(dim, keepdim)`: the indices of [`min`](Self::min).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = DynTensor::<i64>::from_vec(vec![1, 5, 7, 4], &[2, 2]).unwrap();
    /// assert_eq!(x.argmin(0, true).unwrap().to_vec(), vec![0, 1]);
    /// ```
    pub fn argmin(&self, dim: isize, keepdim: bool) -> Result<DynTensor<i64, D>, Error> {
        Ok(self.extreme_at("argmin", dim, keepdim, false)?.1)
    }

    /// The extreme element and its flat index, or `complex` for complex
    /// input.
    #[allow(clippy::type_complexity)]
    fn flat_extreme(
        &self,
        op: &'static str,
        complex: Error,
        largest: bool,
    ) -> Result<(Tensor<T, (), D>, Tensor<i64, (), D>), Error> {
        // PyTorch asks for a dim of an empty tensor before it looks at the
        // dtype in `max()` and `min()`, after it in `argmax()` and `argmin()`.
        if !op.starts_with("arg") && self.numel() == 0 {
            return Err(Error::ReduceEmptyTensor { op });
        }
        Self::ordered(|| complex)?;
        self.flat_extreme_at(op, |x| T::extreme_at_on(x, &[true], largest))
    }

    /// PyTorch's `max()`: the largest element (NaN if any), as a rank-0
    /// tensor; an error for an empty tensor.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = DynTensor::<f32>::from_vec(vec![1., 5., 3.], &[3]).unwrap();
    /// assert_eq!(x.max_all().unwrap().to_vec(), vec![5.]);
    /// assert!(DynTensor::<f32>::zeros(&[0]).max_all().is_err());
    /// ```
    pub fn max_all(&self) -> Result<Tensor<T, (), D>, Error> {
        let complex = Error::NotImplementedFor {
            op: kernel_on(self.device(), "max_all", "max_all_cuda"),
            dtype: T::DTYPE,
        };
        Ok(self.flat_extreme("max", complex, true)?.0)
    }

    /// PyTorch's `min()`: the smallest element (NaN if any).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = DynTensor::<f32>::from_vec(vec![1., 5., 3.], &[3]).unwrap();
    /// assert_eq!(x.min_all().unwrap().to_vec(), vec![1.]);
    /// ```
    pub fn min_all(&self) -> Result<Tensor<T, (), D>, Error> {
        let complex = Error::NotImplementedFor {
            op: kernel_on(self.device(), "min_all", "min_all_cuda"),
            dtype: T::DTYPE,
        };
        Ok(self.flat_extreme("min", complex, false)?.0)
    }

    /// PyTorch's `argmax()`: the flat (row-major) index of the largest
    /// element.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = DynTensor::<i32>::from_vec(vec![1, 5, 3, 9], &[2, 2]).unwrap();
    /// assert_eq!(x.t().unwrap().argmax_all().unwrap().to_vec(), vec![3]);
    /// ```
    pub fn argmax_all(&self) -> Result<Tensor<i64, (), D>, Error> {
        let complex = Error::UnsupportedInput {
            op: "argmax",
            kind: "complex",
        };
        Ok(self.flat_extreme("argmax", complex, true)?.1)
    }

    /// PyTorch's `argmin()`: the flat (row-major) index of the smallest
    /// element.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = DynTensor::<i32>::from_vec(vec![1, 5, 3, 0], &[2, 2]).unwrap();
    /// assert_eq!(x.argmin_all().unwrap().to_vec(), vec![3]);
    /// ```
    pub fn argmin_all(&self) -> Result<Tensor<i64, (), D>, Error> {
        let complex = Error::UnsupportedInput {
            op: "argmin",
            kind: "complex",
        };
        Ok(self.flat_extreme("argmin", complex, false)?.1)
    }
}

/// The static forms of a reduction that takes a list of axes: whole,
/// one axis (removed or kept), several axes (removed or kept).
macro_rules! static_reductions {
    ($bound:ident, $out:ty, $reducer:ty, $whole:ident, $dim:ident, $keepdim:ident, $dims:ident, $dims_keepdim:ident, $what:literal, $example:literal) => {
        impl<T: Element, S: Shape + TupleShape, D: Reductions, R: Repr> Tensor<T, S, D, R> {
            #[doc = concat!("The ", $what, " of every element, as a rank-0 tensor.\n\n```\nuse shaped::prelude::*;\nlet x = ", $example, ";\nlet y: Tensor<_, shape![]> = x.", stringify!($whole), "();\nassert_eq!(y.rank(), 0);\n```")]
            pub fn $whole(&self) -> Tensor<$out, (), D>
            where
                T: $bound,
            {
                from_parts!(or_panic(reduced!(self, &all_mask(self.layout.rank()), false, <$reducer>::default())))
            }

            #[doc = concat!("The ", $what, " along axis `I`, which leaves the type.\n\n```\nuse shaped::prelude::*;\nlet x = ", $example, ";\nassert_eq!(x.", stringify!($dim), "::<1>().shape(), [2]);\n```")]
            pub fn $dim<const I: usize>(&self) -> Tensor<$out, <S as ReduceAxis<I>>::Removed, D>
            where
                T: $bound,
                S: ReduceAxis<I>,
            {
                let mask = axis_mask(self.layout.rank(), I);
                from_parts!(or_panic(reduced!(self, &mask, false, <$reducer>::default())))
            }

            #[doc = concat!("The ", $what, " along axis `I`, kept with size 1.\n\n```\nuse shaped::prelude::*;\nlet x = ", $example, ";\nassert_eq!(x.", stringify!($keepdim), "::<1>().shape(), [2, 1]);\n```")]
            pub fn $keepdim<const I: usize>(&self) -> Tensor<$out, <S as ReduceAxis<I>>::Kept, D>
            where
                T: $bound,
                S: ReduceAxis<I>,
            {
                let mask = axis_mask(self.layout.rank(), I);
                from_parts!(or_panic(reduced!(self, &mask, true, <$reducer>::default())))
            }

            #[doc = concat!("The ", $what, " along the axes `L` (`axes![0, 1]`), which leave the type.\n\n```\nuse shaped::prelude::*;\nlet x = ", $example, ";\nassert_eq!(x.", stringify!($dims), "::<axes![1, 0]>().rank(), 0);\n```")]
            pub fn $dims<L: FixedShape>(&self) -> Tensor<$out, <S as ReduceAxes<L>>::Removed, D>
            where
                T: $bound,
                S: ReduceAxes<L>,
            {
                from_parts!(or_panic(reduced!(self, &axes_mask::<L>(self.layout.rank()), false, <$reducer>::default())))
            }

            #[doc = concat!("The ", $what, " along the axes `L`, kept with size 1.\n\n```\nuse shaped::prelude::*;\nlet x = ", $example, ";\nassert_eq!(x.", stringify!($dims_keepdim), "::<axes![0]>().shape(), [1, 3]);\n```")]
            pub fn $dims_keepdim<L: FixedShape>(&self) -> Tensor<$out, <S as ReduceAxes<L>>::Kept, D>
            where
                T: $bound,
                S: ReduceAxes<L>,
            {
                from_parts!(or_panic(reduced!(self, &axes_mask::<L>(self.layout.rank()), true, <$reducer>::default())))
            }
        }
    };
}
static_reductions!(
    Summable,
    T::Sum,
    Sum,
    sum,
    sum_dim,
    sum_keepdim,
    sum_dims,
    sum_dims_keepdim,
    "sum",
    "Tensor::<i32, shape![2, 3]>::ones()"
);
static_reductions!(
    MeanElement,
    T,
    Mean,
    mean,
    mean_dim,
    mean_keepdim,
    mean_dims,
    mean_dims_keepdim,
    "mean",
    "Tensor::<f32, shape![2, 3]>::ones()"
);
static_reductions!(
    Truth,
    T::Logical,
    Logical<false>,
    all,
    all_dim,
    all_keepdim,
    all_dims,
    all_dims_keepdim,
    "logical and",
    "Tensor::<f32, shape![2, 3]>::ones()"
);
static_reductions!(
    Truth,
    T::Logical,
    Logical<true>,
    any,
    any_dim,
    any_keepdim,
    any_dims,
    any_dims_keepdim,
    "logical or",
    "Tensor::<f32, shape![2, 3]>::ones()"
);

impl<T: Summable, S: Shape + TupleShape, D: Reductions, R: Repr> Tensor<T, S, D, R> {
    /// The product of every element, as a rank-0 tensor (`i64` for integer
    /// and bool tensors).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = tensor![[1, 2], [3, 4]];
    /// assert_eq!(x.prod().to_vec(), vec![24i64]);
    /// ```
    pub fn prod(&self) -> Tensor<T::Sum, (), D> {
        from_parts!(or_panic(reduced!(
            self,
            &all_mask(self.layout.rank()),
            false,
            Prod
        )))
    }

    /// The product along axis `I`, which leaves the type.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = tensor![[1, 2], [3, 4]];
    /// let p: Tensor<i64, shape![2]> = x.prod_dim::<0>();
    /// assert_eq!(p.to_vec(), vec![3, 8]);
    /// ```
    pub fn prod_dim<const I: usize>(&self) -> Tensor<T::Sum, <S as ReduceAxis<I>>::Removed, D>
    where
        S: ReduceAxis<I>,
    {
        let mask = axis_mask(self.layout.rank(), I);
        from_parts!(or_panic(reduced!(self, &mask, false, Prod)))
    }

    /// The product along axis `I`, kept with size 1.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = tensor![[1, 2], [3, 4]];
    /// assert_eq!(x.prod_keepdim::<1>().to_vec(), vec![2i64, 12]);
    /// ```
    pub fn prod_keepdim<const I: usize>(&self) -> Tensor<T::Sum, <S as ReduceAxis<I>>::Kept, D>
    where
        S: ReduceAxis<I>,
    {
        let mask = axis_mask(self.layout.rank(), I);
        from_parts!(or_panic(reduced!(self, &mask, true, Prod)))
    }
}

impl<T: Extremum, S: Shape, D: Reductions, R: Repr> Tensor<T, S, D, R> {
    /// `amax`/`amin` along the given axes, each checked to be non-empty.
    fn extreme_along<W: Direction + Default, S2: Shape>(
        &self,
        op: &'static str,
        axes: &[usize],
        keepdim: bool,
    ) -> Result<Tensor<T, S2, D>, Error> {
        check_nonempty(op, self.layout.sizes(), axes, true)?;
        let mut mask = Mask::from_elem(false, self.rank());
        for &a in axes {
            mask[a] = true;
        }
        Ok(from_parts!(reduced!(
            self,
            &mask,
            keepdim,
            Extreme::<W>::default()
        )?))
    }

    /// `max`/`min` (values and indices) along a non-empty axis.
    #[allow(clippy::type_complexity)]
    fn extreme_at_axis<W: Direction + Default, S2: Shape>(
        &self,
        op: &'static str,
        axis: usize,
        keepdim: bool,
    ) -> Result<(Tensor<T, S2, D>, Tensor<i64, S2, D>), Error> {
        check_index_dtype::<T>(op)?;
        check_nonempty(op, self.layout.sizes(), &[axis], true)?;
        let mask = axis_mask(self.rank(), axis);
        check_indexed_output::<T>(self.layout.sizes(), &mask, keepdim)?;
        let pair = D::reduce_indexed(self.strided(), &mask, ExtremeAt::<W>::default())?;
        Ok(self.reduced_pair(pair, &mask, keepdim))
    }
}

/// The static forms of `amax`/`amin` (whole, one axis, several axes), and
/// of `max`/`min` (values and indices) and `argmax`/`argmin` along one axis.
/// Where the types prove an element along every reduced axis (static sizes
/// of 1 or more, [`ExtremeAxis`]), the plain forms return the tensors; a
/// `Dyn` size is checked at run time (a panic with PyTorch's message), and
/// the `try_` forms, which take any shape, return that error instead.
macro_rules! static_extremes {
    ($w:ty, $what:literal, $ex:literal, $op:literal, $aop:literal, $argop:literal,
     $amax:ident $try_amax:ident,
     $amax_dim:ident $try_amax_dim:ident,
     $amax_keepdim:ident $try_amax_keepdim:ident,
     $amax_dims:ident $try_amax_dims:ident,
     $amax_dims_keepdim:ident $try_amax_dims_keepdim:ident,
     $max:ident $try_max:ident,
     $max_dim:ident $try_max_dim:ident,
     $max_keepdim:ident $try_max_keepdim:ident,
     $argmax:ident $try_argmax:ident,
     $argmax_dim:ident $try_argmax_dim:ident,
     $argmax_keepdim:ident $try_argmax_keepdim:ident) => {
        impl<T: Element, S: Shape + TupleShape, D: Reductions, R: Repr> Tensor<T, S, D, R> {
            #[doc = concat!("The ", $what, " element (NaN if any), as a rank-0 tensor (PyTorch's `", $aop, "()`). A static size 0 does not compile; a `Dyn` one of 0 panics with PyTorch's message ([`", stringify!($try_amax), "`](Self::", stringify!($try_amax), ") returns it).\n\n```\nuse shaped::prelude::*;\nlet x = tensor![[1, 7], [3, 4]];\nassert_eq!(x.", stringify!($amax), "().to_vec(), vec![", $ex, "]);\n```")]
            pub fn $amax(&self) -> Tensor<T, (), D>
            where
                T: Extremum,
                S: AllHoldElements,
            {
                self.$try_amax().or_panic()
            }

            #[doc = concat!("[`", stringify!($amax), "`](Self::", stringify!($amax), "), or `Err` with PyTorch's message for an empty tensor.\n\n```\nuse shaped::prelude::*;\nlet x = Tensor::<f32, shape![0, 2]>::zeros();\nassert!(x.", stringify!($try_amax), "().is_err());\n```")]
            pub fn $try_amax(&self) -> Result<Tensor<T, (), D>, Error>
            where
                T: Extremum,
            {
                check_nonempty($aop, self.layout.sizes(), &[], false)?;
                Ok(from_parts!(reduced!(self, &all_mask(self.layout.rank()), false, Extreme::<$w>::default())?))
            }

            #[doc = concat!("The ", $what, " values along axis `I`, which leaves the type. The axis must hold elements: a static size 0 does not compile; a `Dyn` one of 0 panics with PyTorch's message ([`", stringify!($try_amax_dim), "`](Self::", stringify!($try_amax_dim), ") returns it).\n\n```\nuse shaped::prelude::*;\nlet x = tensor![[1, 7], [3, 4]];\nlet m: Tensor<i64, shape![2]> = x.", stringify!($amax_dim), "::<0>();\n```")]
            pub fn $amax_dim<const I: usize>(&self) -> Tensor<T, <S as ExtremeAxis<I>>::Removed, D>
            where
                T: Extremum,
                S: ExtremeAxis<I>,
            {
                self.extreme_along::<$w, _>($aop, &[I], false).or_panic()
            }

            #[doc = concat!("[`", stringify!($amax_dim), "`](Self::", stringify!($amax_dim), ") for any axis, or `Err` with PyTorch's message when it has size 0.")]
            pub fn $try_amax_dim<const I: usize>(&self) -> Result<Tensor<T, <S as ReduceAxis<I>>::Removed, D>, Error>
            where
                T: Extremum,
                S: ReduceAxis<I>,
            {
                self.extreme_along::<$w, _>($aop, &[I], false)
            }

            #[doc = concat!("The ", $what, " values along axis `I`, kept with size 1 (see [`", stringify!($amax_dim), "`](Self::", stringify!($amax_dim), ")).\n\n```\nuse shaped::prelude::*;\nlet x = tensor![[1, 7], [3, 4]];\nassert_eq!(x.", stringify!($amax_keepdim), "::<0>().shape(), [1, 2]);\n```")]
            pub fn $amax_keepdim<const I: usize>(&self) -> Tensor<T, <S as ExtremeAxis<I>>::Kept, D>
            where
                T: Extremum,
                S: ExtremeAxis<I>,
            {
                self.extreme_along::<$w, _>($aop, &[I], true).or_panic()
            }

            #[doc = concat!("[`", stringify!($amax_keepdim), "`](Self::", stringify!($amax_keepdim), ") for any axis, or `Err` with PyTorch's message when it has size 0.")]
            pub fn $try_amax_keepdim<const I: usize>(&self) -> Result<Tensor<T, <S as ReduceAxis<I>>::Kept, D>, Error>
            where
                T: Extremum,
                S: ReduceAxis<I>,
            {
                self.extreme_along::<$w, _>($aop, &[I], true)
            }

            #[doc = concat!("The ", $what, " values along the axes `L` (`axes![0, 1]`), which leave the type; each must hold elements (see [`", stringify!($amax_dim), "`](Self::", stringify!($amax_dim), ")).\n\n```\nuse shaped::prelude::*;\nlet x = tensor![[1, 7], [3, 4]];\nassert_eq!(x.", stringify!($amax_dims), "::<axes![0, 1]>().to_vec().len(), 1);\n```")]
            pub fn $amax_dims<L: FixedShape>(&self) -> Tensor<T, <S as ReduceAxes<L>>::Removed, D>
            where
                T: Extremum,
                S: ExtremeAxes<L>,
            {
                self.$try_amax_dims::<L>().or_panic()
            }

            #[doc = concat!("[`", stringify!($amax_dims), "`](Self::", stringify!($amax_dims), ") for any axes, or `Err` with PyTorch's message when one has size 0.")]
            pub fn $try_amax_dims<L: FixedShape>(&self) -> Result<Tensor<T, <S as ReduceAxes<L>>::Removed, D>, Error>
            where
                T: Extremum,
                S: ReduceAxes<L>,
            {
                self.extreme_along::<$w, _>($aop, L::SIZES.as_ref(), false)
            }

            #[doc = concat!("The ", $what, " values along the axes `L`, kept with size 1.\n\n```\nuse shaped::prelude::*;\nlet x = tensor![[1, 7], [3, 4]];\nassert_eq!(x.", stringify!($amax_dims_keepdim), "::<axes![1]>().shape(), [2, 1]);\n```")]
            pub fn $amax_dims_keepdim<L: FixedShape>(&self) -> Tensor<T, <S as ReduceAxes<L>>::Kept, D>
            where
                T: Extremum,
                S: ExtremeAxes<L>,
            {
                self.$try_amax_dims_keepdim::<L>().or_panic()
            }

            #[doc = concat!("[`", stringify!($amax_dims_keepdim), "`](Self::", stringify!($amax_dims_keepdim), ") for any axes, or `Err` with PyTorch's message when one has size 0.")]
            pub fn $try_amax_dims_keepdim<L: FixedShape>(&self) -> Result<Tensor<T, <S as ReduceAxes<L>>::Kept, D>, Error>
            where
                T: Extremum,
                S: ReduceAxes<L>,
            {
                self.extreme_along::<$w, _>($aop, L::SIZES.as_ref(), true)
            }

            #[doc = concat!("The ", $what, " element (NaN if any), as a rank-0 tensor: PyTorch's `", $op, "()` (see [`", stringify!($amax), "`](Self::", stringify!($amax), ")).\n\n```\nuse shaped::prelude::*;\nlet x = tensor![[1, 7], [3, 4]];\nassert_eq!(x.", stringify!($max), "().rank(), 0);\n```")]
            pub fn $max(&self) -> Tensor<T, (), D>
            where
                T: Extremum,
                S: AllHoldElements,
            {
                self.$try_max().or_panic()
            }

            #[doc = concat!("[`", stringify!($max), "`](Self::", stringify!($max), "), or `Err` with PyTorch's message for an empty tensor.")]
            pub fn $try_max(&self) -> Result<Tensor<T, (), D>, Error>
            where
                T: Extremum,
            {
                check_nonempty($op, self.layout.sizes(), &[], false)?;
                Ok(from_parts!(reduced!(self, &all_mask(self.layout.rank()), false, Extreme::<$w>::default())?))
            }

            #[doc = concat!("The ", $what, " values along axis `I` and their indices (the first NaN, or else the first extreme value), the axis leaving the type (see [`", stringify!($amax_dim), "`](Self::", stringify!($amax_dim), ") for empty axes).\n\n```\nuse shaped::prelude::*;\nlet x = tensor![[1, 7], [3, 4]];\nlet (values, indices) = x.", stringify!($max_dim), "::<1>();\nassert_eq!((values.shape(), indices.shape()), ([2], [2]));\n```")]
            #[allow(clippy::type_complexity)]
            pub fn $max_dim<const I: usize>(
                &self,
            ) -> (Tensor<T, <S as ExtremeAxis<I>>::Removed, D>, Tensor<i64, <S as ExtremeAxis<I>>::Removed, D>)
            where
                T: Extremum,
                S: ExtremeAxis<I>,
            {
                self.extreme_at_axis::<$w, _>($op, I, false).or_panic()
            }

            #[doc = concat!("[`", stringify!($max_dim), "`](Self::", stringify!($max_dim), ") for any axis, or `Err` with PyTorch's message when it has size 0.")]
            #[allow(clippy::type_complexity)]
            pub fn $try_max_dim<const I: usize>(
                &self,
            ) -> Result<(Tensor<T, <S as ReduceAxis<I>>::Removed, D>, Tensor<i64, <S as ReduceAxis<I>>::Removed, D>), Error>
            where
                T: Extremum,
                S: ReduceAxis<I>,
            {
                self.extreme_at_axis::<$w, _>($op, I, false)
            }

            #[doc = concat!("The ", $what, " values along axis `I` and their indices, the axis kept with size 1.\n\n```\nuse shaped::prelude::*;\nlet x = tensor![[1, 7], [3, 4]];\nlet (values, indices) = x.", stringify!($max_keepdim), "::<1>();\nassert_eq!((values.shape(), indices.shape()), ([2, 1], [2, 1]));\n```")]
            #[allow(clippy::type_complexity)]
            pub fn $max_keepdim<const I: usize>(
                &self,
            ) -> (Tensor<T, <S as ExtremeAxis<I>>::Kept, D>, Tensor<i64, <S as ExtremeAxis<I>>::Kept, D>)
            where
                T: Extremum,
                S: ExtremeAxis<I>,
            {
                self.extreme_at_axis::<$w, _>($op, I, true).or_panic()
            }

            #[doc = concat!("[`", stringify!($max_keepdim), "`](Self::", stringify!($max_keepdim), ") for any axis, or `Err` with PyTorch's message when it has size 0.")]
            #[allow(clippy::type_complexity)]
            pub fn $try_max_keepdim<const I: usize>(
                &self,
            ) -> Result<(Tensor<T, <S as ReduceAxis<I>>::Kept, D>, Tensor<i64, <S as ReduceAxis<I>>::Kept, D>), Error>
            where
                T: Extremum,
                S: ReduceAxis<I>,
            {
                self.extreme_at_axis::<$w, _>($op, I, true)
            }

            #[doc = concat!("The flat (row-major) index of the ", $what, " element: PyTorch's `", $argop, "()`. A `bool` tensor does not compile (PyTorch rejects it); empty tensors as [`", stringify!($amax), "`](Self::", stringify!($amax), ").\n\n```\nuse shaped::prelude::*;\nlet x = tensor![[1, 7], [3, 4]];\nassert_eq!(x.", stringify!($argmax), "().rank(), 0);\n```")]
            pub fn $argmax(&self) -> Tensor<i64, (), D>
            where
                T: ArgExtremum,
                S: AllHoldElements,
            {
                self.$try_argmax().or_panic()
            }

            #[doc = concat!("[`", stringify!($argmax), "`](Self::", stringify!($argmax), "), or `Err` with PyTorch's message for an empty or `bool` tensor.")]
            pub fn $try_argmax(&self) -> Result<Tensor<i64, (), D>, Error>
            where
                T: Extremum,
            {
                let extreme_at = |x: StridedRef<'_, T, D>| {
                    D::reduce_indexed(x, &[true], ExtremeAt::<$w>::default())
                };
                Ok(self.flat_extreme_at($argop, extreme_at)?.1)
            }

            #[doc = concat!("The indices of the ", $what, " values along axis `I`, which leaves the type (see [`", stringify!($argmax), "`](Self::", stringify!($argmax), ")).\n\n```\nuse shaped::prelude::*;\nlet x = tensor![[1, 7], [3, 4]];\nlet i: Tensor<i64, shape![2]> = x.", stringify!($argmax_dim), "::<1>();\n```")]
            pub fn $argmax_dim<const I: usize>(&self) -> Tensor<i64, <S as ExtremeAxis<I>>::Removed, D>
            where
                T: ArgExtremum,
                S: ExtremeAxis<I>,
            {
                self.extreme_at_axis::<$w, _>($argop, I, false).or_panic().1
            }

            #[doc = concat!("[`", stringify!($argmax_dim), "`](Self::", stringify!($argmax_dim), ") for any axis and element type, or `Err` with PyTorch's message.")]
            pub fn $try_argmax_dim<const I: usize>(&self) -> Result<Tensor<i64, <S as ReduceAxis<I>>::Removed, D>, Error>
            where
                T: Extremum,
                S: ReduceAxis<I>,
            {
                Ok(self.extreme_at_axis::<$w, _>($argop, I, false)?.1)
            }

            #[doc = concat!("The indices of the ", $what, " values along axis `I`, kept with size 1.\n\n```\nuse shaped::prelude::*;\nlet x = tensor![[1, 7], [3, 4]];\nassert_eq!(x.", stringify!($argmax_keepdim), "::<0>().shape(), [1, 2]);\n```")]
            pub fn $argmax_keepdim<const I: usize>(&self) -> Tensor<i64, <S as ExtremeAxis<I>>::Kept, D>
            where
                T: ArgExtremum,
                S: ExtremeAxis<I>,
            {
                self.extreme_at_axis::<$w, _>($argop, I, true).or_panic().1
            }

            #[doc = concat!("[`", stringify!($argmax_keepdim), "`](Self::", stringify!($argmax_keepdim), ") for any axis and element type, or `Err` with PyTorch's message.")]
            pub fn $try_argmax_keepdim<const I: usize>(&self) -> Result<Tensor<i64, <S as ReduceAxis<I>>::Kept, D>, Error>
            where
                T: Extremum,
                S: ReduceAxis<I>,
            {
                Ok(self.extreme_at_axis::<$w, _>($argop, I, true)?.1)
            }
        }
    };
}
static_extremes!(Largest, "largest", 7, "max", "amax", "argmax",
    amax try_amax, amax_dim try_amax_dim, amax_keepdim try_amax_keepdim,
    amax_dims try_amax_dims, amax_dims_keepdim try_amax_dims_keepdim,
    max try_max, max_dim try_max_dim, max_keepdim try_max_keepdim,
    argmax try_argmax, argmax_dim try_argmax_dim, argmax_keepdim try_argmax_keepdim);
static_extremes!(Smallest, "smallest", 1, "min", "amin", "argmin",
    amin try_amin, amin_dim try_amin_dim, amin_keepdim try_amin_keepdim,
    amin_dims try_amin_dims, amin_dims_keepdim try_amin_dims_keepdim,
    min try_min, min_dim try_min_dim, min_keepdim try_min_keepdim,
    argmin try_argmin, argmin_dim try_argmin_dim, argmin_keepdim try_argmin_keepdim);

#[cfg(test)]
mod tests {
    use crate::prelude::*;

    /// PyTorch's out-of-memory text for an output of `bytes` bytes.
    fn oom(bytes: u64) -> String {
        format!(
            "[enforce fail at alloc_cpu.cpp:127] err == 0. DefaultCPUAllocator: can't allocate memory: you tried to allocate {bytes} bytes. Error code 12 (Cannot allocate memory)"
        )
    }

    #[test]
    fn huge_outputs_of_empty_inputs_are_errors() {
        // 2^58 outputs of no elements each: the output cannot be allocated
        // (past any address space, whatever the kernel overcommits), an
        // `Err` (PyTorch's text, the output's bytes), never an abort.
        let x = DynTensor::<f32>::zeros(&[0, 1 << 58]);
        let f32_bytes = 4u64 << 58;
        assert_eq!(x.sum(&[0], false).unwrap_err().to_string(), oom(f32_bytes));
        assert_eq!(x.mean(&[0], true).unwrap_err().to_string(), oom(f32_bytes));
        assert_eq!(x.prod(0, false).unwrap_err().to_string(), oom(f32_bytes));
        assert_eq!(x.all(&[0], false).unwrap_err().to_string(), oom(1 << 58));
        // Integer sums are int64.
        let i = DynTensor::<i32>::zeros(&[0, 1 << 58]);
        assert_eq!(i.sum(&[0], false).unwrap_err().to_string(), oom(8 << 58));
        // The ones that need an element say so first.
        assert_eq!(
            x.amax(&[0], false).unwrap_err().to_string(),
            "amax(): Expected reduction dim 0 to have non-zero size."
        );
        assert_eq!(
            x.max(0, false).unwrap_err().to_string(),
            "max(): Expected reduction dim 0 to have non-zero size."
        );
        assert!(x.argmin(0, false).is_err());
        // Outputs whose bytes overflow: PyTorch's overflow error.
        let x = DynTensor::<f32>::zeros(&[0, 1 << 62]);
        assert_eq!(
            x.sum(&[0], true).unwrap_err().to_string(),
            "Storage size calculation overflowed with sizes=[1, 4611686018427387904]"
        );
    }

    #[test]
    fn max_with_indices_fills_both_outputs() {
        // Rows and columns plans, values and indices written in step.
        let x = DynTensor::<i32>::from_vec((0..6).map(|i| (i * 7) % 5).collect(), &[2, 3]).unwrap();
        let (values, indices) = x.max(0, false).unwrap();
        assert_eq!(
            (values.to_vec(), indices.to_vec()),
            (vec![1, 3, 4], vec![1, 1, 0])
        );
        let (values, indices) = x.min(1, true).unwrap();
        assert_eq!(
            (values.to_vec(), indices.to_vec()),
            (vec![0, 0], vec![0, 2])
        );
    }
}
