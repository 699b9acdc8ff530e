//! Writing by index tensors: `scatter` (of a tensor or a number),
//! `scatter_add`, `scatter_reduce`, `index_add`, `index_copy`, `index_fill`
//! and `put`, each in place (`_`) and out of place (a copy, then in place),
//! with PyTorch's semantics and texts.
//!
//! Every index is checked before the first write: a call that fails leaves
//! its tensor as it was. Repeated indices combine in index order (one
//! thread per line along the scattered dimension), so `scatter_add` of
//! floats is deterministic here. Where PyTorch leaves the winner of
//! repeated plain writes unspecified (`scatter`, `index_copy`, `put`
//! without `accumulate`), the last in index order wins.
//!
//! ```
//! use shaped::prelude::*;
//! let mut x = DynTensor::<f32>::zeros(&[2, 4]);
//! let idx = DynTensor::<i64>::from_vec(vec![1, 1, 3, 0], &[2, 2]).unwrap();
//! let src = DynTensor::<f32>::from_vec(vec![1.0, 2.0, 3.0, 4.0], &[2, 2]).unwrap();
//! x.scatter_add_(1, &idx, &src).unwrap();
//! assert_eq!(x.to_vec(), [0.0, 3.0, 0.0, 0.0, 4.0, 0.0, 0.0, 3.0]);
//! ```

use crate::backend::{
    Backend, GatherFault, IndexWrap, Indexing, ScatterTarget, ScatterValues, Scattering,
    StridedMut, StridedRef,
};
use crate::dtype::{DType, Element, IndexElement, LongIndex};
use crate::error::{Error, IndexOp, OrPanic};
use crate::layout::StridedLayout;
use crate::layout::numel;
use crate::layout::views::wrap_dim;
use crate::ops::functions::BinaryFn;
use crate::ops::functions::{Constant, Identity};
use crate::ops::math::{Maximum, Minimum};
use crate::shape::Shape;
use crate::shape::dynamic::DynShape;
use crate::shape::index::{IndexSourceShape, ScatterShape};
use crate::shape::list::TupleShape;
use crate::storage::{Repr, Writable};
use crate::tensor::Tensor;
use crate::tensor::{from_parts, owned_parts};
use half::{bf16, f16};
use num_complex::Complex;

/// How `scatter_reduce` combines: PyTorch's `reduce` argument.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reduce {
    /// `"sum"`.
    Sum,
    /// `"prod"`.
    Prod,
    /// `"mean"`: the sum over the count (integers round toward -inf).
    Mean,
    /// `"amax"`.
    Amax,
    /// `"amin"`.
    Amin,
}

impl Reduce {
    /// PyTorch's name.
    pub fn name(self) -> &'static str {
        match self {
            Reduce::Sum => "sum",
            Reduce::Prod => "prod",
            Reduce::Mean => "mean",
            Reduce::Amax => "amax",
            Reduce::Amin => "amin",
        }
    }
}

/// Element types a scatter combines: each reduction it has, and the value
/// that leaves an element unchanged (what `include_self = false` starts a
/// written element from).
pub trait ScatterElement: Element {
    /// The identity of `reduce` (`-inf` for `amax` of floats).
    fn identity(reduce: Reduce) -> Self;
    /// `sum / count` as `mean` divides (floor division for integers), or
    /// `None` where PyTorch has no `mean` kernel (bool).
    fn divider() -> Option<fn(Self, i64) -> Self>;
    /// Runs `v` with `reduce`'s combining function as a type of its own
    /// (so that the kernel compiles it in line), or `None` where PyTorch
    /// has no kernel.
    fn dispatch<V: WithReducer<Self>>(reduce: Reduce, v: V) -> Option<V::Output>;
}

/// Work that takes a reduction's combining function (see
/// [`ScatterElement::dispatch`]).
pub trait WithReducer<T> {
    /// What the work gives.
    type Output;
    /// Runs with `f`.
    fn run<F: BinaryFn<T, T, T>>(self, f: F) -> Self::Output;
}

macro_rules! ordered_scatter {
    ($($t:ty => |$x:ident, $n:ident| $div:expr;)*) => {$(
        impl ScatterElement for $t {
            fn identity(reduce: Reduce) -> Self {
                use crate::ops::reductions::reducers::Extremum;
                match reduce {
                    Reduce::Sum | Reduce::Mean => Self::ZERO,
                    Reduce::Prod => Self::ONE,
                    Reduce::Amax => <$t as Extremum>::LOWEST,
                    Reduce::Amin => <$t as Extremum>::HIGHEST,
                }
            }
            fn divider() -> Option<fn(Self, i64) -> Self> {
                Some(|sum, count| { let ($x, $n) = (sum, count); $div })
            }
            fn dispatch<V: WithReducer<Self>>(reduce: Reduce, v: V) -> Option<V::Output> {
                use crate::ops::functions::{Add, Mul};
                Some(match reduce {
                    Reduce::Sum | Reduce::Mean => v.run(Add),
                    Reduce::Prod => v.run(Mul),
                    Reduce::Amax => v.run(Maximum),
                    Reduce::Amin => v.run(Minimum),
                })
            }
        }
    )*};
}
ordered_scatter! {
    f16 => |a, n| f16::from_f32(a.to_f32() / n as f32);
    bf16 => |a, n| bf16::from_f32(a.to_f32() / n as f32);
    f32 => |a, n| a / n as f32;
    f64 => |a, n| a / n as f64;
    u8 => |a, n| i64::from(a).div_euclid(n) as u8;
    i8 => |a, n| i64::from(a).div_euclid(n) as i8;
    i16 => |a, n| i64::from(a).div_euclid(n) as i16;
    i32 => |a, n| i64::from(a).div_euclid(n) as i32;
    i64 => |a, n| a.div_euclid(n);
}

macro_rules! complex_scatter {
    ($($t:ty: $r:ty),*) => {$(
        impl ScatterElement for $t {
            fn identity(reduce: Reduce) -> Self {
                match reduce {
                    Reduce::Prod => Self::ONE,
                    _ => Self::ZERO,
                }
            }
            fn divider() -> Option<fn(Self, i64) -> Self> {
                Some(|sum, count| sum / count as $r)
            }
            fn dispatch<V: WithReducer<Self>>(reduce: Reduce, v: V) -> Option<V::Output> {
                use crate::ops::functions::{Add, Mul};
                match reduce {
                    Reduce::Sum | Reduce::Mean => Some(v.run(Add)),
                    Reduce::Prod => Some(v.run(Mul)),
                    Reduce::Amax | Reduce::Amin => None,
                }
            }
        }
    )*};
}
complex_scatter!(Complex<f32>: f32, Complex<f64>: f64);

impl ScatterElement for bool {
    fn identity(reduce: Reduce) -> Self {
        matches!(reduce, Reduce::Prod | Reduce::Amin)
    }
    fn divider() -> Option<fn(Self, i64) -> Self> {
        None
    }
    fn dispatch<V: WithReducer<Self>>(reduce: Reduce, v: V) -> Option<V::Output> {
        use crate::ops::functions::{Add, Mul};
        match reduce {
            Reduce::Sum => Some(v.run(Add)),
            Reduce::Prod => Some(v.run(Mul)),
            Reduce::Amax => Some(v.run(Maximum)),
            Reduce::Amin => Some(v.run(Minimum)),
            Reduce::Mean => None,
        }
    }
}

/// A scatter waiting for its combining function.
struct ScatterWith<'a, T: Element, I: Element, D: Backend> {
    x: StridedMut<'a, T, D>,
    dim: isize,
    index: StridedRef<'a, I, D>,
    values: ScatterValues<'a, T, D>,
    reset: Option<T>,
}

impl<T: Element, I: IndexElement, D: Scattering> WithReducer<T> for ScatterWith<'_, T, I, D> {
    type Output = Result<(), Error>;
    fn run<F: BinaryFn<T, T, T>>(self, f: F) -> Result<(), Error> {
        scatter_into(self.x, self.dim, self.index, self.values, f, self.reset)
    }
}

/// `src * alpha` into a new buffer, with the dtype's multiplication.
struct Scale<'a, T: Element, D: Backend> {
    src: StridedRef<'a, T, D>,
    alpha: T,
}

impl<T: Element, D: Scattering> WithReducer<T> for Scale<'_, T, D> {
    type Output = Result<D::Buffer<T>, Error>;
    fn run<F: BinaryFn<T, T, T>>(self, f: F) -> Self::Output {
        D::map1(self.src, crate::ops::functions::WithRight(f, self.alpha))
    }
}

/// [`index_into`] waiting for its combining function.
struct IndexIntoWith<'a, T: Element, I: Element, D: Backend, E> {
    x: StridedMut<'a, T, D>,
    d: usize,
    index: StridedRef<'a, I, D>,
    sizes: &'a [usize],
    values: ScatterValues<'a, T, D>,
    bounds: Option<(IndexWrap, E)>,
}

impl<T: Element, I: IndexElement, D: Scattering, E: FnOnce(i64) -> Error> WithReducer<T>
    for IndexIntoWith<'_, T, I, D, E>
{
    type Output = Result<(), Error>;
    fn run<F: BinaryFn<T, T, T>>(mut self, f: F) -> Self::Output {
        let bounds = self.bounds.take().expect("run once");
        index_into(
            self.x,
            self.d,
            self.index,
            self.sizes,
            self.values,
            f,
            bounds,
        )
    }
}

/// One `Scattering::scatter` call waiting for its combining function.
struct RawScatter<'a, T: Element, I: Element, D: Backend> {
    sizes: &'a [usize],
    target: ScatterTarget<'a, T, D>,
    values: ScatterValues<'a, T, D>,
    index: StridedRef<'a, I, D>,
    wrap: IndexWrap,
}

impl<T: Element, I: IndexElement, D: Scattering> WithReducer<T> for RawScatter<'_, T, I, D> {
    type Output = Result<(), Error>;
    fn run<F: BinaryFn<T, T, T>>(self, f: F) -> Self::Output {
        D::scatter(
            self.sizes,
            self.target,
            self.values,
            self.index,
            self.wrap,
            f,
        )
    }
}

/// `sum / count` where something was counted: `mean`'s last step (see
/// [`ScatterElement::divider`]). On a device, the kernel of
/// [`OpCode::MeanOf`](crate::ops::op_codes::OpCode::MeanOf) computed in the
/// type the divider computes in.
#[derive(Clone, Copy)]
pub(crate) struct MeanOf<T>(fn(T, i64) -> T);
impl<T: ScatterElement> MeanOf<T> {
    /// `mean`'s last step for `T`, or `None` where PyTorch has none (bool).
    pub(crate) fn new() -> Option<Self> {
        T::divider().map(MeanOf)
    }
}
impl<T: Element> BinaryFn<T, i64, T> for MeanOf<T> {
    #[inline(always)]
    fn call(&self, sum: T, count: i64) -> T {
        if count == 0 {
            sum
        } else {
            (self.0)(sum, count)
        }
    }
    fn kernel_op(&self) -> Option<crate::ops::op_codes::KernelOp> {
        use crate::dtype::DType;
        let compute = match T::DTYPE {
            DType::F16 | DType::BF16 | DType::F32 => DType::F32,
            DType::F64 | DType::C64 | DType::C128 => T::DTYPE,
            DType::Bool => return None,
            _ => DType::I64,
        };
        Some(
            crate::ops::op_codes::KernelOp::new(crate::ops::op_codes::OpCode::MeanOf)
                .computed_in(compute),
        )
    }
}

/// Replaces the element: a plain scatter's write.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Assign;

/// The plain write's function, for the device tests.
#[cfg(all(test, feature = "cuda"))]
pub(crate) fn scatter_assign() -> Assign {
    Assign
}
impl<T: Element> BinaryFn<T, T, T> for Assign {
    #[inline(always)]
    fn call(&self, _old: T, new: T) -> T {
        new
    }
    fn kernel_op(&self) -> Option<crate::ops::op_codes::KernelOp> {
        Some(crate::ops::op_codes::KernelOp::new(
            crate::ops::op_codes::OpCode::Identity,
        ))
    }
}

/// An operand with rank 0 as rank 1 of one element (PyTorch counts ranks 0
/// and 1 as one in these operations).
fn as_vector<'a>(sizes: &'a [usize], strides: &'a [usize]) -> (&'a [usize], &'a [usize]) {
    if sizes.is_empty() {
        (&[1], &[0])
    } else {
        (sizes, strides)
    }
}

/// Checks every index of `index` against `len`, in `fault`'s words.
fn check<I: IndexElement, D: Indexing>(
    index: &StridedRef<'_, I, D>,
    len: usize,
    wrap: IndexWrap,
    fault: impl FnOnce(i64) -> Error,
) -> Result<(), Error> {
    let all = StridedRef {
        ptr: index.ptr,
        ..*index
    };
    match D::check_indices(all, len, wrap) {
        Ok(()) => Ok(()),
        Err(GatherFault::Index(i)) => Err(fault(i)),
        Err(GatherFault::Failed(e)) => Err(e),
    }
}

/// The index's positions written into `x` along `dim`: `x`'s strides with
/// `dim`'s set to 0, over the index's sizes.
fn target_strides(strides: &[usize], dim: Option<usize>) -> Vec<usize> {
    let mut s = strides.to_vec();
    if let Some(x) = dim.and_then(|d| s.get_mut(d)) {
        *x = 0;
    }
    s
}

/// `scatter` into `x` along `dim` (shape-erased), in PyTorch's order of
/// checks: the dim, the ranks, the sizes, every index; then `values` are
/// written through `combine` (after `reset`, when given: the identity
/// written first at every position the index names, `include_self =
/// false`).
fn scatter_into<T, I, D, F>(
    x: StridedMut<'_, T, D>,
    dim: isize,
    index: StridedRef<'_, I, D>,
    values: ScatterValues<'_, T, D>,
    combine: F,
    reset: Option<T>,
) -> Result<(), Error>
where
    T: Element,
    I: IndexElement,
    D: Scattering,
    F: BinaryFn<T, T, T>,
{
    let d = wrap_dim(dim, x.sizes.len())?;
    // An empty index writes nothing and is not compared (PyTorch returns
    // before its shape checks).
    if numel(index.sizes) == 0 {
        return Ok(());
    }
    let (sizes, strides) = as_vector(x.sizes, x.strides);
    let (index_sizes, index_strides) = as_vector(index.sizes, index.strides);
    let src = match &values {
        ScatterValues::Tensor(v) => Some(as_vector(v.sizes, v.strides)),
        ScatterValues::Value(_) => None,
    };
    if index_sizes.len() != sizes.len() {
        return Err(Error::ScatterRank { what: "self" });
    }
    // PyTorch compares dimension by dimension and stops at the first that
    // does not fit; asking a source of lower rank for a size it lacks is
    // its dim error.
    let mut fits = true;
    for k in 0..sizes.len() {
        if k != d && index_sizes[k] > sizes[k] {
            fits = false;
            break;
        }
        if let Some((s, _)) = src {
            let size = s.get(k).copied().ok_or(Error::DimOutOfRange {
                dim: k as isize,
                rank: s.len(),
            })?;
            if index_sizes[k] > size {
                fits = false;
                break;
            }
        }
    }
    if !fits {
        return Err(Error::ScatterSize {
            index: index.sizes.to_vec(),
            input: x.sizes.to_vec(),
            src: src.map(|(s, _)| s.to_vec()),
            dim: d,
        });
    }
    let len = sizes[d];
    let index = StridedRef {
        ptr: index.ptr,
        sizes: index_sizes,
        strides: index_strides,
        offset: index.offset,
    };
    check(&index, len, IndexWrap::Never, |i| Error::IndexOutOfBounds {
        op: IndexOp::Gather,
        index: i,
        dim: d,
        size: len,
    })?;
    let over = target_strides(strides, Some(d));
    let target = |x: &StridedMut<'_, T, D>| ScatterTarget {
        elements: StridedMut {
            ptr: x.ptr,
            sizes: index_sizes,
            strides: &over,
            offset: x.offset,
        },
        dim: Some(d),
        dim_stride: strides[d],
        dim_len: len,
    };
    let values = match values {
        ScatterValues::Tensor(v) => ScatterValues::Tensor(StridedRef {
            ptr: v.ptr,
            sizes: index_sizes,
            strides: src.map_or(&[][..], |(_, st)| st),
            offset: v.offset,
        }),
        value => value,
    };
    let again = StridedRef {
        ptr: index.ptr,
        ..index
    };
    if let Some(identity) = reset {
        D::scatter(
            index_sizes,
            target(&x),
            ScatterValues::Value(identity),
            again,
            IndexWrap::Never,
            Assign,
        )?;
    }
    D::scatter(
        index_sizes,
        target(&x),
        values,
        index,
        IndexWrap::Never,
        combine,
    )
}

/// A row-major copy of `x`.
fn row_major_copy<T: Element, D: Scattering, R: Repr>(
    x: &Tensor<T, DynShape, D, R>,
) -> Result<Tensor<T, DynShape, D>, Error> {
    let buffer = D::map1(erased!(x), Identity)?;
    let layout = StridedLayout::contiguous(x.layout.size_array().clone());
    Ok(from_parts!(owned_parts(buffer, layout)))
}

/// `x`'s elements as a writable shape-erased operand.
macro_rules! erased_mut {
    ($x:expr) => {
        erased_mut!($x, R)
    };
    ($x:expr, $R:ty) => {{
        let ptr = <$R as Writable>::ptr_mut(&mut $x.data);
        StridedMut {
            ptr,
            sizes: $x.layout.sizes(),
            strides: $x.layout.strides(),
            offset: $x.layout.offset(),
        }
    }};
}

/// Work that does nothing: asks only whether a dtype has a reduction.
struct Probe;
impl<T> WithReducer<T> for Probe {
    type Output = ();
    fn run<F: BinaryFn<T, T, T>>(self, _: F) {}
}

/// `Ok` when `T` has `reduce`, else PyTorch's error (`amax` of complex,
/// `mean` of bool).
fn reducer<T: ScatterElement>(reduce: Reduce) -> Result<(), Error> {
    T::dispatch(reduce, Probe).ok_or(Error::NotImplementedFor {
        op: match reduce {
            Reduce::Amax => "scatter_gather_tensor_cpu_reduce_amax",
            Reduce::Amin => "scatter_gather_tensor_cpu_reduce_amin",
            Reduce::Sum => "scatter_gather_tensor_cpu_reduce_sum",
            Reduce::Prod => "scatter_gather_tensor_cpu_reduce_prod",
            Reduce::Mean => "scatter_gather_tensor_cpu_reduce_mean",
        },
        dtype: T::DTYPE,
    })
}

impl<T: ScatterElement, D: Scattering, R: Writable> Tensor<T, DynShape, D, R> {
    /// `scatter_(dim, index, src)`: `self[.., index[p], ..] = src[p]` along
    /// `dim` for every position `p` of the index (int64 or int32, of
    /// `self`'s rank, no larger than `self` off `dim` nor than `src`).
    /// Every index is checked first: on `Err`, `self` is untouched.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let mut x = DynTensor::<i32>::zeros(&[2, 3]);
    /// let idx = DynTensor::<i64>::from_vec(vec![2, 0], &[2, 1]).unwrap();
    /// x.scatter_(1, &idx, &DynTensor::<i32>::from_vec(vec![7, 8], &[2, 1]).unwrap()).unwrap();
    /// assert_eq!(x.to_vec(), [0, 0, 7, 8, 0, 0]);
    /// ```
    pub fn scatter_<I: IndexElement, SI: Shape, RI: Repr, SS: Shape, RS: Repr>(
        &mut self,
        dim: isize,
        index: &Tensor<I, SI, D, RI>,
        src: &Tensor<T, SS, D, RS>,
    ) -> Result<(), Error> {
        let values = ScatterValues::Tensor(erased!(src));
        scatter_into(erased_mut!(self), dim, erased!(index), values, Assign, None)
    }

    /// `scatter_(dim, index, value)`: `value` at every position the index
    /// names along `dim`.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let mut x = DynTensor::<f32>::zeros(&[2, 2]);
    /// let idx = DynTensor::<i64>::from_vec(vec![1, 0], &[1, 2]).unwrap();
    /// x.scatter_value_(0, &idx, 5.0).unwrap();
    /// assert_eq!(x.to_vec(), [0.0, 5.0, 5.0, 0.0]);
    /// ```
    pub fn scatter_value_<I: IndexElement, SI: Shape, RI: Repr>(
        &mut self,
        dim: isize,
        index: &Tensor<I, SI, D, RI>,
        value: T,
    ) -> Result<(), Error> {
        scatter_into(
            erased_mut!(self),
            dim,
            erased!(index),
            ScatterValues::Value(value),
            Assign,
            None,
        )
    }

    /// `scatter_add_(dim, index, src)`: `src[p]` added at every position
    /// the index names along `dim`; repeated indices add up in index order.
    pub fn scatter_add_<I: IndexElement, SI: Shape, RI: Repr, SS: Shape, RS: Repr>(
        &mut self,
        dim: isize,
        index: &Tensor<I, SI, D, RI>,
        src: &Tensor<T, SS, D, RS>,
    ) -> Result<(), Error> {
        self.scatter_reduce_(dim, index, src, Reduce::Sum, true)
    }

    /// `scatter_reduce_(dim, index, src, reduce, include_self)`: each
    /// position the index names along `dim` combines the `src` elements
    /// sent there by `reduce`, starting from `self`'s element with
    /// `include_self`, else from the elements sent alone.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let mut x = DynTensor::<f32>::full(&[3], 5.0);
    /// let idx = DynTensor::<i64>::from_vec(vec![0, 0, 2], &[3]).unwrap();
    /// let src = DynTensor::<f32>::from_vec(vec![1.0, 9.0, 2.0], &[3]).unwrap();
    /// x.scatter_reduce_(0, &idx, &src, Reduce::Amax, false).unwrap();
    /// assert_eq!(x.to_vec(), [9.0, 5.0, 2.0]);
    /// ```
    pub fn scatter_reduce_<I: IndexElement, SI: Shape, RI: Repr, SS: Shape, RS: Repr>(
        &mut self,
        dim: isize,
        index: &Tensor<I, SI, D, RI>,
        src: &Tensor<T, SS, D, RS>,
        reduce: Reduce,
        include_self: bool,
    ) -> Result<(), Error> {
        // (PyTorch's error for a reduction a dtype lacks comes first.)
        reducer::<T>(reduce)?;
        let reset = (!include_self).then(|| T::identity(reduce));
        let values = ScatterValues::Tensor(erased!(src));
        if reduce != Reduce::Mean {
            let work = ScatterWith {
                x: erased_mut!(self),
                dim,
                index: erased!(index),
                values,
                reset,
            };
            return T::dispatch(reduce, work).expect("checked by `reducer`");
        }
        mean_into(erased_mut!(self), dim, erased!(index), values, reset)
    }
}

impl<T: ScatterElement, D: Scattering, R: Repr> Tensor<T, DynShape, D, R> {
    /// A row-major copy of `self` for an out-of-place form to write (what
    /// PyTorch's `scatter`, `index_add` and `index_copy` return).
    fn copy_to_write(&self) -> Result<Tensor<T, DynShape, D>, Error> {
        row_major_copy(self)
    }

    /// [`scatter_`](Tensor::scatter_) on a copy.
    pub fn scatter<I: IndexElement, SI: Shape, RI: Repr, SS: Shape, RS: Repr>(
        &self,
        dim: isize,
        index: &Tensor<I, SI, D, RI>,
        src: &Tensor<T, SS, D, RS>,
    ) -> Result<Tensor<T, DynShape, D>, Error> {
        let mut out = self.copy_to_write()?;
        out.scatter_(dim, index, src)?;
        Ok(out)
    }

    /// [`scatter_value_`](Tensor::scatter_value_) on a copy.
    pub fn scatter_value<I: IndexElement, SI: Shape, RI: Repr>(
        &self,
        dim: isize,
        index: &Tensor<I, SI, D, RI>,
        value: T,
    ) -> Result<Tensor<T, DynShape, D>, Error> {
        let mut out = self.copy_to_write()?;
        out.scatter_value_(dim, index, value)?;
        Ok(out)
    }

    /// [`scatter_add_`](Tensor::scatter_add_) on a copy.
    pub fn scatter_add<I: IndexElement, SI: Shape, RI: Repr, SS: Shape, RS: Repr>(
        &self,
        dim: isize,
        index: &Tensor<I, SI, D, RI>,
        src: &Tensor<T, SS, D, RS>,
    ) -> Result<Tensor<T, DynShape, D>, Error> {
        let mut out = self.copy_to_write()?;
        out.scatter_add_(dim, index, src)?;
        Ok(out)
    }

    /// [`scatter_reduce_`](Tensor::scatter_reduce_) on a copy.
    pub fn scatter_reduce<I: IndexElement, SI: Shape, RI: Repr, SS: Shape, RS: Repr>(
        &self,
        dim: isize,
        index: &Tensor<I, SI, D, RI>,
        src: &Tensor<T, SS, D, RS>,
        reduce: Reduce,
        include_self: bool,
    ) -> Result<Tensor<T, DynShape, D>, Error> {
        let mut out = self.copy_to_write()?;
        out.scatter_reduce_(dim, index, src, reduce, include_self)?;
        Ok(out)
    }
}

/// The sizes of `sizes` without dimension `dim`.
fn without(sizes: &[usize], dim: usize) -> Vec<usize> {
    sizes
        .iter()
        .enumerate()
        .filter(|&(k, _)| k != dim)
        .map(|(_, &n)| n)
        .collect()
}

/// The operations that write along a dimension by a vector of indices
/// (`index_add`, `index_copy`, `index_fill`): `values` (laid over `sizes`,
/// `self`'s with `dim` as long as the index) combined into `x` at the
/// index's entries along `dim`, after every check.
fn index_into<T, I, D, F>(
    x: StridedMut<'_, T, D>,
    d: usize,
    index: StridedRef<'_, I, D>,
    sizes: &[usize],
    values: ScatterValues<'_, T, D>,
    combine: F,
    (wrap, fault): (IndexWrap, impl FnOnce(i64) -> Error),
) -> Result<(), Error>
where
    T: Element,
    I: IndexElement,
    D: Scattering,
    F: BinaryFn<T, T, T>,
{
    let (self_sizes, strides) = as_vector(x.sizes, x.strides);
    let len = self_sizes[d];
    check(&index, len, wrap, fault)?;
    let sizes = if sizes.is_empty() { &[1][..] } else { sizes };
    let mut index_strides = vec![0; sizes.len()];
    index_strides[d] = index.strides.first().copied().unwrap_or(0);
    let over = target_strides(strides, Some(d));
    let target = ScatterTarget {
        elements: StridedMut {
            ptr: x.ptr,
            sizes,
            strides: &over,
            offset: x.offset,
        },
        dim: Some(d),
        dim_stride: strides[d],
        dim_len: len,
    };
    let index = StridedRef {
        ptr: index.ptr,
        sizes,
        strides: &index_strides,
        offset: index.offset,
    };
    D::scatter(sizes, target, values, index, wrap, combine)
}

impl<T: ScatterElement, D: Scattering, R: Writable> Tensor<T, DynShape, D, R> {
    /// `index_add_(dim, index, source, alpha)`: `alpha * source[.., j, ..]`
    /// added to `self[.., index[j], ..]` along `dim`, for a vector `index`
    /// (int64 or int32) as long as `source` is along `dim`; `source` has
    /// `self`'s sizes elsewhere. Repeated indices add up in order.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let mut x = DynTensor::<f32>::zeros(&[3, 2]);
    /// let idx = DynTensor::<i64>::from_vec(vec![2, 0, 2], &[3]).unwrap();
    /// let src = DynTensor::<f32>::ones(&[3, 2]);
    /// x.index_add_(0, &idx, &src, 2.0).unwrap();
    /// assert_eq!(x.to_vec(), [2.0, 2.0, 0.0, 0.0, 4.0, 4.0]);
    /// ```
    pub fn index_add_<I: IndexElement, SI: Shape, RI: Repr, SS: Shape, RS: Repr>(
        &mut self,
        dim: isize,
        index: &Tensor<I, SI, D, RI>,
        source: &Tensor<T, SS, D, RS>,
        alpha: T,
    ) -> Result<(), Error> {
        let rank = self.layout.rank();
        let d = wrap_dim(dim, rank)?;
        let index = erased!(index);
        if index.sizes.len() > 1 {
            return Err(Error::IndexAddVector {
                rank: index.sizes.len(),
                dtype: I::DTYPE,
                sizes: index.sizes.to_vec(),
            });
        }
        let src = erased!(source);
        let count = numel(index.sizes);
        let (src_sizes, src_strides) = as_vector(src.sizes, src.strides);
        if d >= src_sizes.len() {
            return Err(Error::IndexAddSourceDim {
                dim: d,
                rank: src.sizes.len(),
            });
        }
        // One index may go with a rank-0 source; PyTorch asks any other
        // count for the source's size along `dim`, which it lacks.
        if src.sizes.is_empty() && count != 1 {
            return Err(Error::NoDimensions { dim: d });
        }
        if !src.sizes.is_empty() && count != src_sizes[d] {
            return Err(Error::IndexAddCount {
                count,
                size: src_sizes[d],
                dim: d,
            });
        }
        let (self_sizes, _) = as_vector(self.layout.sizes(), self.layout.strides());
        let same_rank = self.layout.sizes().len() == src.sizes.len();
        if !same_rank || without(self_sizes, d) != without(src_sizes, d) {
            return Err(Error::IndexAddShape {
                input: self.layout.sizes().to_vec(),
                source: src.sizes.to_vec(),
            });
        }
        // Nothing to add to: PyTorch returns before looking at the indices.
        if numel(self.layout.sizes()) == 0 {
            return Ok(());
        }
        // PyTorch's texts for an index outside: its fast path's for int64
        // indices with alpha 1 along the first or last dimension of a
        // matrix or more, the generic one otherwise.
        let fast =
            I::DTYPE == DType::I64 && alpha == T::ONE && rank > 1 && (d == 0 || d + 1 == rank);
        let len = self_sizes[d];
        let fault = |i| match fast {
            true => Error::IndexOutOfBounds {
                op: IndexOp::Gather,
                index: i,
                dim: d,
                size: len,
            },
            false => Error::IndexOutOfBounds {
                op: IndexOp::IndexSelect,
                index: i,
                dim: d,
                size: len,
            },
        };
        // `alpha * source` first (PyTorch rounds the product to the dtype
        // before adding), then the sums: each through the dtype's own
        // function, which every device has a kernel for.
        let scaled;
        let contiguous: Vec<usize> = crate::layout::contiguous_strides(src_sizes);
        let values = if alpha == T::ONE {
            StridedRef {
                ptr: src.ptr,
                sizes: src_sizes,
                strides: src_strides,
                offset: src.offset,
            }
        } else {
            let read: StridedRef<'_, T, D> = StridedRef {
                ptr: src.ptr,
                sizes: src_sizes,
                strides: src_strides,
                offset: src.offset,
            };
            scaled = T::dispatch(Reduce::Prod, Scale { src: read, alpha })
                .expect("every dtype multiplies")?;
            StridedRef {
                ptr: D::ptr(&scaled),
                sizes: src_sizes,
                strides: &contiguous,
                offset: 0,
            }
        };
        let work = IndexIntoWith {
            x: erased_mut!(self),
            d,
            index,
            sizes: src_sizes,
            values: ScatterValues::Tensor(values),
            bounds: Some((IndexWrap::Never, fault)),
        };
        T::dispatch(Reduce::Sum, work).expect("every dtype adds")
    }

    /// `index_copy_(dim, index, source)`: `source[.., j, ..]` copied to
    /// `self[.., index[j], ..]` along `dim`, for a vector `index` (int64)
    /// as long as `source` is along `dim`.
    pub fn index_copy_<I: LongIndex, SI: Shape, RI: Repr, SS: Shape, RS: Repr>(
        &mut self,
        dim: isize,
        index: &Tensor<I, SI, D, RI>,
        source: &Tensor<T, SS, D, RS>,
    ) -> Result<(), Error> {
        let rank = self.layout.rank();
        let d = wrap_dim(dim, rank)?;
        let index = erased!(index);
        if index.sizes.len() > 1 {
            return Err(Error::IndexCopyVector {
                rank: index.sizes.len(),
            });
        }
        let src = erased!(source);
        if !src.sizes.is_empty() && !self.layout.sizes().is_empty() && src.sizes.len() != rank {
            return Err(Error::IndexCopyRank {
                source: src.sizes.len(),
                input: rank,
            });
        }
        let count = numel(index.sizes);
        let (src_sizes, src_strides) = as_vector(src.sizes, src.strides);
        let (self_sizes, _) = as_vector(self.layout.sizes(), self.layout.strides());
        if count != src_sizes.get(d).copied().unwrap_or(1) {
            return Err(Error::IndexCopyCount {
                count,
                size: src_sizes.get(d).copied().unwrap_or(1),
            });
        }
        let (dst_slice, src_slice) = (without(self_sizes, d), without(src_sizes, d));
        if dst_slice != src_slice {
            return Err(Error::IndexCopySlices {
                input: dst_slice,
                source: src_slice,
                dim: d,
            });
        }
        let len = self_sizes[d];
        let fault = |i| Error::IndexCopyOutOfBounds {
            index: i,
            dim: d,
            size: len,
        };
        let values = ScatterValues::Tensor(StridedRef {
            ptr: src.ptr,
            sizes: src_sizes,
            strides: src_strides,
            offset: src.offset,
        });
        index_into(
            erased_mut!(self),
            d,
            index,
            src_sizes,
            values,
            Assign,
            (IndexWrap::Never, fault),
        )
    }

    /// `index_fill_(dim, index, value)`: `value` in `self[.., index[j], ..]`
    /// along `dim` for every entry of a vector `index` (int64).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let mut x = DynTensor::<i32>::zeros(&[2, 3]);
    /// x.index_fill_(1, &DynTensor::<i64>::from_vec(vec![2, 0], &[2]).unwrap(), 9).unwrap();
    /// assert_eq!(x.to_vec(), [9, 0, 9, 9, 0, 9]);
    /// ```
    pub fn index_fill_<I: LongIndex, SI: Shape, RI: Repr>(
        &mut self,
        dim: isize,
        index: &Tensor<I, SI, D, RI>,
        value: T,
    ) -> Result<(), Error> {
        let rank = self.layout.rank();
        let d = wrap_dim(dim, rank)?;
        let index = erased!(index);
        if index.sizes.len() > 1 {
            return Err(Error::IndexFillVector);
        }
        let (self_sizes, _) = as_vector(self.layout.sizes(), self.layout.strides());
        let mut sizes = self_sizes.to_vec();
        sizes[d] = numel(index.sizes);
        let len = self_sizes[d];
        let fault = |i| Error::IndexOutOfBounds {
            op: IndexOp::Gather,
            index: i,
            dim: d,
            size: len,
        };
        index_into(
            erased_mut!(self),
            d,
            index,
            &sizes,
            ScatterValues::Value(value),
            Assign,
            (IndexWrap::FromEnd, fault),
        )
    }

    /// `put_(index, source, accumulate)`: `source`'s elements (row-major)
    /// written at the positions `index` (int64) names in `self` read as one
    /// row-major vector (negative counts from the end); with `accumulate`,
    /// added, repeated positions adding up in order.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let mut x = DynTensor::<f32>::zeros(&[2, 2]);
    /// let idx = DynTensor::<i64>::from_vec(vec![-1, 0, -1], &[3]).unwrap();
    /// x.put_(&idx, &DynTensor::<f32>::from_vec(vec![1.0, 2.0, 3.0], &[3]).unwrap(), true).unwrap();
    /// assert_eq!(x.to_vec(), [2.0, 0.0, 0.0, 4.0]);
    /// ```
    pub fn put_<I: LongIndex, SI: Shape, RI: Repr, SS: Shape, RS: Repr>(
        &mut self,
        index: &Tensor<I, SI, D, RI>,
        source: &Tensor<T, SS, D, RS>,
        accumulate: bool,
    ) -> Result<(), Error> {
        let count = numel(index.layout.sizes());
        let src_count = numel(source.layout.sizes());
        if src_count != count {
            return Err(Error::PutCount {
                source: src_count,
                index: count,
            });
        }
        let total = numel(self.layout.sizes());
        if total == 0 && count > 0 {
            return Err(Error::PutIntoEmpty);
        }
        if !self.is_contiguous() {
            // Into a row-major copy, written back whole.
            let mut dense = row_major_copy(self)?;
            dense.put_(index, source, accumulate)?;
            return D::update2(erased_mut!(self), erased!(dense), Assign);
        }
        let index = erased!(index);
        let fault = |i| Error::IndexOutOfBounds {
            op: IndexOp::Take,
            index: i,
            dim: 0,
            size: total,
        };
        check(&index, total, IndexWrap::FromEnd, fault)?;
        let dense_source;
        let src = if source.is_contiguous() {
            erased!(source)
        } else {
            dense_source = source.to_owned();
            erased!(dense_source)
        };
        let (sizes, index_strides) = as_vector(index.sizes, index.strides);
        let src_strides = crate::layout::contiguous_strides::<Vec<usize>>(sizes);
        let zeros = vec![0; sizes.len()];
        let x: StridedMut<'_, T, D> = erased_mut!(self);
        let target: ScatterTarget<'_, T, D> = ScatterTarget {
            elements: StridedMut {
                ptr: x.ptr,
                sizes,
                strides: &zeros,
                offset: x.offset,
            },
            dim: None,
            dim_stride: 1,
            dim_len: total,
        };
        let values = ScatterValues::Tensor(StridedRef {
            ptr: src.ptr,
            sizes,
            strides: &src_strides,
            offset: src.offset,
        });
        let index = StridedRef {
            ptr: index.ptr,
            sizes,
            strides: index_strides,
            offset: index.offset,
        };
        let raw = RawScatter {
            sizes,
            target,
            values,
            index,
            wrap: IndexWrap::FromEnd,
        };
        match accumulate {
            true => T::dispatch(Reduce::Sum, raw).expect("every dtype adds"),
            false => raw.run(Assign),
        }
    }
}

impl<T: ScatterElement, D: Scattering, R: Repr> Tensor<T, DynShape, D, R> {
    /// [`index_add_`](Tensor::index_add_) on a row-major copy.
    pub fn index_add<I: IndexElement, SI: Shape, RI: Repr, SS: Shape, RS: Repr>(
        &self,
        dim: isize,
        index: &Tensor<I, SI, D, RI>,
        source: &Tensor<T, SS, D, RS>,
        alpha: T,
    ) -> Result<Tensor<T, DynShape, D>, Error> {
        let mut out = row_major_copy(self)?;
        out.index_add_(dim, index, source, alpha)?;
        Ok(out)
    }

    /// [`index_copy_`](Tensor::index_copy_) on a row-major copy.
    pub fn index_copy<I: LongIndex, SI: Shape, RI: Repr, SS: Shape, RS: Repr>(
        &self,
        dim: isize,
        index: &Tensor<I, SI, D, RI>,
        source: &Tensor<T, SS, D, RS>,
    ) -> Result<Tensor<T, DynShape, D>, Error> {
        let mut out = row_major_copy(self)?;
        out.index_copy_(dim, index, source)?;
        Ok(out)
    }

    /// [`index_fill_`](Tensor::index_fill_) on a copy (its strides kept,
    /// as PyTorch's `clone`).
    pub fn index_fill<I: LongIndex, SI: Shape, RI: Repr>(
        &self,
        dim: isize,
        index: &Tensor<I, SI, D, RI>,
        value: T,
    ) -> Result<Tensor<T, DynShape, D>, Error> {
        let mut out = self.try_clone()?;
        out.index_fill_(dim, index, value)?;
        Ok(out)
    }

    /// [`put_`](Tensor::put_) on a copy (its strides kept, as PyTorch's
    /// `clone`).
    pub fn put<I: LongIndex, SI: Shape, RI: Repr, SS: Shape, RS: Repr>(
        &self,
        index: &Tensor<I, SI, D, RI>,
        source: &Tensor<T, SS, D, RS>,
        accumulate: bool,
    ) -> Result<Tensor<T, DynShape, D>, Error> {
        let mut out = self.try_clone()?;
        out.put_(index, source, accumulate)?;
        Ok(out)
    }
}

/// The typed forms of the scatters on static shapes, with the dim in the
/// type (in the prelude): `x.scatter::<1>(&idx, &src)`,
/// `x.scatter_add::<1>(&idx, &src)`, `x.scatter_reduce::<1>(&idx, &src,
/// Reduce::Amax, include_self)`, each returning a new tensor; the in-place
/// forms are [`ScatterInto`]'s. The compiler checks that the index has the
/// tensor's rank, fits the tensor off the dim and the source everywhere,
/// and holds int64 or int32; index values are checked at run time (the
/// plain forms panic with PyTorch's text, the `try_` forms return it).
///
/// ```
/// use shaped::prelude::*;
/// let x = Tensor::<f32, shape![2, 3]>::zeros();
/// let idx = Tensor::<i64, shape![2, 2]>::from_vec(vec![0, 0, 2, 1]).unwrap();
/// let src = Tensor::<f32, shape![2, 2]>::from_vec(vec![1.0, 2.0, 3.0, 4.0]).unwrap();
/// let y: Tensor<f32, shape![2, 3]> = x.scatter_add::<1>(&idx, &src);
/// assert_eq!(y.to_vec(), [3.0, 0.0, 0.0, 0.0, 4.0, 3.0]);
/// ```
pub trait ScatterBy<Idx, Src> {
    /// The result.
    type Output;
    /// The tensor's shape.
    type InputShape: Shape;
    /// The index's shape.
    type IndexShape: Shape;
    /// The source's shape.
    type SourceShape: Shape;
    /// The index's element type.
    type IndexElement: Element;

    /// `scatter(DIM, index, src)`: a copy with `src[p]` written at
    /// `[.., index[p], ..]` along `DIM` for every index position `p`.
    fn scatter<const DIM: usize>(&self, index: &Idx, src: &Src) -> Self::Output
    where
        Self::InputShape: ScatterShape<DIM, Self::IndexShape, Self::SourceShape>,
        Self::IndexElement: IndexElement;

    /// [`scatter`](Self::scatter), with `Err` for an index outside.
    fn try_scatter<const DIM: usize>(&self, index: &Idx, src: &Src) -> Result<Self::Output, Error>
    where
        Self::InputShape: ScatterShape<DIM, Self::IndexShape, Self::SourceShape>,
        Self::IndexElement: IndexElement;

    /// `scatter_add(DIM, index, src)`: a copy with `src[p]` added at
    /// `[.., index[p], ..]` along `DIM`, repeated indices in index order.
    fn scatter_add<const DIM: usize>(&self, index: &Idx, src: &Src) -> Self::Output
    where
        Self::InputShape: ScatterShape<DIM, Self::IndexShape, Self::SourceShape>,
        Self::IndexElement: IndexElement;

    /// [`scatter_add`](Self::scatter_add), with `Err` for an index outside.
    fn try_scatter_add<const DIM: usize>(
        &self,
        index: &Idx,
        src: &Src,
    ) -> Result<Self::Output, Error>
    where
        Self::InputShape: ScatterShape<DIM, Self::IndexShape, Self::SourceShape>,
        Self::IndexElement: IndexElement;

    /// `scatter_reduce(DIM, index, src, reduce, include_self)` on a copy.
    fn scatter_reduce<const DIM: usize>(
        &self,
        index: &Idx,
        src: &Src,
        reduce: Reduce,
        include_self: bool,
    ) -> Self::Output
    where
        Self::InputShape: ScatterShape<DIM, Self::IndexShape, Self::SourceShape>,
        Self::IndexElement: IndexElement;

    /// [`scatter_reduce`](Self::scatter_reduce), with `Err` for an index
    /// outside or a reduction the dtype lacks.
    fn try_scatter_reduce<const DIM: usize>(
        &self,
        index: &Idx,
        src: &Src,
        reduce: Reduce,
        include_self: bool,
    ) -> Result<Self::Output, Error>
    where
        Self::InputShape: ScatterShape<DIM, Self::IndexShape, Self::SourceShape>,
        Self::IndexElement: IndexElement;
}

/// The in-place forms of [`ScatterBy`], on tensors that own their elements
/// or mutable views (in the prelude): `x.scatter_::<1>(&idx, &src)`,
/// `x.scatter_add_::<1>(&idx, &src)`, `x.scatter_reduce_::<1>(..)`. Every
/// index is checked before the first write: the `try_` forms leave the
/// tensor as it was on `Err`.
///
/// ```
/// use shaped::prelude::*;
/// let mut x = Tensor::<i32, shape![3]>::zeros();
/// let idx = Tensor::<i64, shape![2]>::from_vec(vec![2, 2]).unwrap();
/// x.scatter_add_::<0>(&idx, &Tensor::<i32, shape![2]>::from_vec(vec![5, 6]).unwrap());
/// assert_eq!(x.to_vec(), [0, 0, 11]);
/// ```
pub trait ScatterInto<Idx, Src>: ScatterBy<Idx, Src> {
    /// `scatter_(DIM, index, src)`.
    fn scatter_<const DIM: usize>(&mut self, index: &Idx, src: &Src)
    where
        Self::InputShape: ScatterShape<DIM, Self::IndexShape, Self::SourceShape>,
        Self::IndexElement: IndexElement;

    /// [`scatter_`](Self::scatter_), with `Err` (and the tensor untouched)
    /// for an index outside.
    fn try_scatter_<const DIM: usize>(&mut self, index: &Idx, src: &Src) -> Result<(), Error>
    where
        Self::InputShape: ScatterShape<DIM, Self::IndexShape, Self::SourceShape>,
        Self::IndexElement: IndexElement;

    /// `scatter_add_(DIM, index, src)`.
    fn scatter_add_<const DIM: usize>(&mut self, index: &Idx, src: &Src)
    where
        Self::InputShape: ScatterShape<DIM, Self::IndexShape, Self::SourceShape>,
        Self::IndexElement: IndexElement;

    /// [`scatter_add_`](Self::scatter_add_), with `Err` (and the tensor
    /// untouched) for an index outside.
    fn try_scatter_add_<const DIM: usize>(&mut self, index: &Idx, src: &Src) -> Result<(), Error>
    where
        Self::InputShape: ScatterShape<DIM, Self::IndexShape, Self::SourceShape>,
        Self::IndexElement: IndexElement;

    /// `scatter_reduce_(DIM, index, src, reduce, include_self)`.
    fn scatter_reduce_<const DIM: usize>(
        &mut self,
        index: &Idx,
        src: &Src,
        reduce: Reduce,
        include_self: bool,
    ) where
        Self::InputShape: ScatterShape<DIM, Self::IndexShape, Self::SourceShape>,
        Self::IndexElement: IndexElement;

    /// [`scatter_reduce_`](Self::scatter_reduce_), with `Err` (and the
    /// tensor untouched) for an index outside or a reduction the dtype
    /// lacks.
    fn try_scatter_reduce_<const DIM: usize>(
        &mut self,
        index: &Idx,
        src: &Src,
        reduce: Reduce,
        include_self: bool,
    ) -> Result<(), Error>
    where
        Self::InputShape: ScatterShape<DIM, Self::IndexShape, Self::SourceShape>,
        Self::IndexElement: IndexElement;
}

/// `scatter_reduce` with `"mean"` into `x`: the sums (from `reset`, the
/// identity, where `include_self` is false), the count of each element
/// (itself included with `include_self`), then one division where anything
/// was sent.
fn mean_into<T: ScatterElement, I: IndexElement, D: Scattering>(
    x: StridedMut<'_, T, D>,
    dim: isize,
    index: StridedRef<'_, I, D>,
    values: ScatterValues<'_, T, D>,
    reset: Option<T>,
) -> Result<(), Error> {
    let mean = MeanOf::<T>::new().ok_or(Error::NotImplementedFor {
        op: "scatter_gather_tensor_cpu_reduce_mean",
        dtype: T::DTYPE,
    })?;
    let index_again = StridedRef {
        ptr: index.ptr,
        ..index
    };
    let sums = StridedMut {
        ptr: x.ptr,
        sizes: x.sizes,
        strides: x.strides,
        offset: x.offset,
    };
    let work = ScatterWith {
        x: sums,
        dim,
        index,
        values,
        reset,
    };
    T::dispatch(Reduce::Sum, work).expect("every dtype adds")?;
    let read = StridedRef {
        ptr: x.ptr,
        sizes: x.sizes,
        strides: x.strides,
        offset: x.offset,
    };
    let first = i64::from(reset.is_none());
    let mut counts = D::map1(read, Constant(first))?;
    let count_strides: Vec<usize> = crate::layout::contiguous_strides(x.sizes);
    let counts_mut = StridedMut {
        ptr: D::ptr_mut(&mut counts),
        sizes: x.sizes,
        strides: &count_strides,
        offset: 0,
    };
    let ones = ScatterValues::Value(1i64);
    scatter_into(
        counts_mut,
        dim,
        index_again,
        ones,
        crate::ops::functions::Add,
        None,
    )?;
    let counts_ref = StridedRef {
        ptr: D::ptr(&counts),
        sizes: x.sizes,
        strides: &count_strides,
        offset: 0,
    };
    D::update2(x, counts_ref, mean)
}

/// `scatter_reduce_` of typed tensors through the shape-erased core.
fn reduce_into<T: ScatterElement, I: IndexElement, D: Scattering>(
    x: StridedMut<'_, T, D>,
    dim: usize,
    index: StridedRef<'_, I, D>,
    src: StridedRef<'_, T, D>,
    reduce: Option<(Reduce, bool)>,
) -> Result<(), Error> {
    let values = ScatterValues::Tensor(src);
    let dim = dim as isize;
    let Some((reduce, include_self)) = reduce else {
        return scatter_into(x, dim, index, values, Assign, None);
    };
    reducer::<T>(reduce)?;
    let reset = (!include_self).then(|| T::identity(reduce));
    if reduce == Reduce::Mean {
        return mean_into(x, dim, index, values, reset);
    }
    T::dispatch(
        reduce,
        ScatterWith {
            x,
            dim,
            index,
            values,
            reset,
        },
    )
    .expect("checked by `reducer`")
}

impl<T, S, D, R, I, SI, RI, SS, RS> ScatterBy<Tensor<I, SI, D, RI>, Tensor<T, SS, D, RS>>
    for Tensor<T, S, D, R>
where
    T: ScatterElement,
    S: Shape + TupleShape,
    D: Scattering,
    R: Repr,
    I: Element,
    SI: Shape,
    RI: Repr,
    SS: Shape,
    RS: Repr,
{
    type Output = Tensor<T, S, D>;
    type InputShape = S;
    type IndexShape = SI;
    type SourceShape = SS;
    type IndexElement = I;

    fn scatter<const DIM: usize>(
        &self,
        index: &Tensor<I, SI, D, RI>,
        src: &Tensor<T, SS, D, RS>,
    ) -> Tensor<T, S, D>
    where
        S: ScatterShape<DIM, SI, SS>,
        I: IndexElement,
    {
        self.try_scatter::<DIM>(index, src).or_panic()
    }

    fn try_scatter<const DIM: usize>(
        &self,
        index: &Tensor<I, SI, D, RI>,
        src: &Tensor<T, SS, D, RS>,
    ) -> Result<Tensor<T, S, D>, Error>
    where
        S: ScatterShape<DIM, SI, SS>,
        I: IndexElement,
    {
        let mut out = self.try_clone()?;
        reduce_into(
            erased_mut!(out, crate::storage::Owned),
            DIM,
            erased!(index),
            erased!(src),
            None,
        )?;
        Ok(out)
    }

    fn scatter_add<const DIM: usize>(
        &self,
        index: &Tensor<I, SI, D, RI>,
        src: &Tensor<T, SS, D, RS>,
    ) -> Tensor<T, S, D>
    where
        S: ScatterShape<DIM, SI, SS>,
        I: IndexElement,
    {
        self.try_scatter_add::<DIM>(index, src).or_panic()
    }

    fn try_scatter_add<const DIM: usize>(
        &self,
        index: &Tensor<I, SI, D, RI>,
        src: &Tensor<T, SS, D, RS>,
    ) -> Result<Tensor<T, S, D>, Error>
    where
        S: ScatterShape<DIM, SI, SS>,
        I: IndexElement,
    {
        self.try_scatter_reduce::<DIM>(index, src, Reduce::Sum, true)
    }

    fn scatter_reduce<const DIM: usize>(
        &self,
        index: &Tensor<I, SI, D, RI>,
        src: &Tensor<T, SS, D, RS>,
        reduce: Reduce,
        include_self: bool,
    ) -> Tensor<T, S, D>
    where
        S: ScatterShape<DIM, SI, SS>,
        I: IndexElement,
    {
        self.try_scatter_reduce::<DIM>(index, src, reduce, include_self)
            .or_panic()
    }

    fn try_scatter_reduce<const DIM: usize>(
        &self,
        index: &Tensor<I, SI, D, RI>,
        src: &Tensor<T, SS, D, RS>,
        reduce: Reduce,
        include_self: bool,
    ) -> Result<Tensor<T, S, D>, Error>
    where
        S: ScatterShape<DIM, SI, SS>,
        I: IndexElement,
    {
        let mut out = self.try_clone()?;
        let target = erased_mut!(out, crate::storage::Owned);
        reduce_into(
            target,
            DIM,
            erased!(index),
            erased!(src),
            Some((reduce, include_self)),
        )?;
        Ok(out)
    }
}

impl<T, S, D, R, I, SI, RI, SS, RS> ScatterInto<Tensor<I, SI, D, RI>, Tensor<T, SS, D, RS>>
    for Tensor<T, S, D, R>
where
    T: ScatterElement,
    S: Shape + TupleShape,
    D: Scattering,
    R: Writable,
    I: Element,
    SI: Shape,
    RI: Repr,
    SS: Shape,
    RS: Repr,
{
    fn scatter_<const DIM: usize>(
        &mut self,
        index: &Tensor<I, SI, D, RI>,
        src: &Tensor<T, SS, D, RS>,
    ) where
        S: ScatterShape<DIM, SI, SS>,
        I: IndexElement,
    {
        self.try_scatter_::<DIM>(index, src).or_panic()
    }

    fn try_scatter_<const DIM: usize>(
        &mut self,
        index: &Tensor<I, SI, D, RI>,
        src: &Tensor<T, SS, D, RS>,
    ) -> Result<(), Error>
    where
        S: ScatterShape<DIM, SI, SS>,
        I: IndexElement,
    {
        reduce_into(erased_mut!(self), DIM, erased!(index), erased!(src), None)
    }

    fn scatter_add_<const DIM: usize>(
        &mut self,
        index: &Tensor<I, SI, D, RI>,
        src: &Tensor<T, SS, D, RS>,
    ) where
        S: ScatterShape<DIM, SI, SS>,
        I: IndexElement,
    {
        self.try_scatter_add_::<DIM>(index, src).or_panic()
    }

    fn try_scatter_add_<const DIM: usize>(
        &mut self,
        index: &Tensor<I, SI, D, RI>,
        src: &Tensor<T, SS, D, RS>,
    ) -> Result<(), Error>
    where
        S: ScatterShape<DIM, SI, SS>,
        I: IndexElement,
    {
        reduce_into(
            erased_mut!(self),
            DIM,
            erased!(index),
            erased!(src),
            Some((Reduce::Sum, true)),
        )
    }

    fn scatter_reduce_<const DIM: usize>(
        &mut self,
        index: &Tensor<I, SI, D, RI>,
        src: &Tensor<T, SS, D, RS>,
        reduce: Reduce,
        include_self: bool,
    ) where
        S: ScatterShape<DIM, SI, SS>,
        I: IndexElement,
    {
        self.try_scatter_reduce_::<DIM>(index, src, reduce, include_self)
            .or_panic()
    }

    fn try_scatter_reduce_<const DIM: usize>(
        &mut self,
        index: &Tensor<I, SI, D, RI>,
        src: &Tensor<T, SS, D, RS>,
        reduce: Reduce,
        include_self: bool,
    ) -> Result<(), Error>
    where
        S: ScatterShape<DIM, SI, SS>,
        I: IndexElement,
    {
        reduce_into(
            erased_mut!(self),
            DIM,
            erased!(index),
            erased!(src),
            Some((reduce, include_self)),
        )
    }
}

/// The typed `index_add` and `index_copy` on static shapes, with the dim in
/// the type (in the prelude): `x.index_add::<0>(&idx, &src, alpha)` and
/// `x.index_copy::<0>(&idx, &src)` return new tensors; the in-place forms
/// are [`IndexInto`]'s. The compiler checks that the index is a vector and
/// the source has the tensor's shape with the index's length along the
/// dim; index values are checked at run time (the plain forms panic with
/// PyTorch's text, the `try_` forms return it).
///
/// ```
/// use shaped::prelude::*;
/// let x = Tensor::<f32, shape![3, 2]>::zeros();
/// let idx = Tensor::<i64, shape![2]>::from_vec(vec![2, 2]).unwrap();
/// let src = Tensor::<f32, shape![2, 2]>::ones();
/// let y: Tensor<f32, shape![3, 2]> = x.index_add::<0>(&idx, &src, 1.5);
/// assert_eq!(y.to_vec(), [0.0, 0.0, 0.0, 0.0, 3.0, 3.0]);
/// // x.index_add::<0>(&idx, &Tensor::<f32, shape![2, 3]>::ones(), 1.0);
/// // error: the source's size 3 should be 2 at dimension 1
/// ```
pub trait IndexAddBy<Idx, Src>: ScatterBy<Idx, Src> {
    /// The element type.
    type Element;

    /// `index_add(DIM, index, source, alpha)` on a copy.
    fn index_add<const DIM: usize>(
        &self,
        index: &Idx,
        source: &Src,
        alpha: <Self as IndexAddBy<Idx, Src>>::Element,
    ) -> Self::Output
    where
        Self::InputShape: IndexSourceShape<DIM, Self::IndexShape, Self::SourceShape>,
        Self::IndexElement: IndexElement;

    /// [`index_add`](Self::index_add), with `Err` for an index outside.
    fn try_index_add<const DIM: usize>(
        &self,
        index: &Idx,
        source: &Src,
        alpha: <Self as IndexAddBy<Idx, Src>>::Element,
    ) -> Result<Self::Output, Error>
    where
        Self::InputShape: IndexSourceShape<DIM, Self::IndexShape, Self::SourceShape>,
        Self::IndexElement: IndexElement;

    /// `index_copy(DIM, index, source)` on a copy (int64 index).
    fn index_copy<const DIM: usize>(&self, index: &Idx, source: &Src) -> Self::Output
    where
        Self::InputShape: IndexSourceShape<DIM, Self::IndexShape, Self::SourceShape>,
        Self::IndexElement: LongIndex;

    /// [`index_copy`](Self::index_copy), with `Err` for an index outside.
    fn try_index_copy<const DIM: usize>(
        &self,
        index: &Idx,
        source: &Src,
    ) -> Result<Self::Output, Error>
    where
        Self::InputShape: IndexSourceShape<DIM, Self::IndexShape, Self::SourceShape>,
        Self::IndexElement: LongIndex;
}

/// The in-place forms of [`IndexAddBy`] (in the prelude):
/// `x.index_add_::<0>(&idx, &src, alpha)`, `x.index_copy_::<0>(&idx, &src)`.
/// Every index is checked before the first write.
pub trait IndexInto<Idx, Src>: IndexAddBy<Idx, Src> {
    /// `index_add_(DIM, index, source, alpha)`.
    fn index_add_<const DIM: usize>(
        &mut self,
        index: &Idx,
        source: &Src,
        alpha: <Self as IndexAddBy<Idx, Src>>::Element,
    ) where
        Self::InputShape: IndexSourceShape<DIM, Self::IndexShape, Self::SourceShape>,
        Self::IndexElement: IndexElement;

    /// [`index_add_`](Self::index_add_), with `Err` (and the tensor
    /// untouched) for an index outside.
    fn try_index_add_<const DIM: usize>(
        &mut self,
        index: &Idx,
        source: &Src,
        alpha: <Self as IndexAddBy<Idx, Src>>::Element,
    ) -> Result<(), Error>
    where
        Self::InputShape: IndexSourceShape<DIM, Self::IndexShape, Self::SourceShape>,
        Self::IndexElement: IndexElement;

    /// `index_copy_(DIM, index, source)`.
    fn index_copy_<const DIM: usize>(&mut self, index: &Idx, source: &Src)
    where
        Self::InputShape: IndexSourceShape<DIM, Self::IndexShape, Self::SourceShape>,
        Self::IndexElement: LongIndex;

    /// [`index_copy_`](Self::index_copy_), with `Err` (and the tensor
    /// untouched) for an index outside.
    fn try_index_copy_<const DIM: usize>(&mut self, index: &Idx, source: &Src) -> Result<(), Error>
    where
        Self::InputShape: IndexSourceShape<DIM, Self::IndexShape, Self::SourceShape>,
        Self::IndexElement: LongIndex;
}

impl<T, S, D, R, I, SI, RI, SS, RS> IndexAddBy<Tensor<I, SI, D, RI>, Tensor<T, SS, D, RS>>
    for Tensor<T, S, D, R>
where
    T: ScatterElement,
    S: Shape + TupleShape,
    D: Scattering,
    R: Repr,
    I: Element,
    SI: Shape,
    RI: Repr,
    SS: Shape,
    RS: Repr,
{
    type Element = T;

    fn index_add<const DIM: usize>(
        &self,
        index: &Tensor<I, SI, D, RI>,
        source: &Tensor<T, SS, D, RS>,
        alpha: T,
    ) -> Tensor<T, S, D>
    where
        S: IndexSourceShape<DIM, SI, SS>,
        I: IndexElement,
    {
        self.try_index_add::<DIM>(index, source, alpha).or_panic()
    }

    fn try_index_add<const DIM: usize>(
        &self,
        index: &Tensor<I, SI, D, RI>,
        source: &Tensor<T, SS, D, RS>,
        alpha: T,
    ) -> Result<Tensor<T, S, D>, Error>
    where
        S: IndexSourceShape<DIM, SI, SS>,
        I: IndexElement,
    {
        let mut out = self.try_clone()?;
        out.view_mut()
            .into_dyn()
            .index_add_(DIM as isize, index, source, alpha)?;
        Ok(out)
    }

    fn index_copy<const DIM: usize>(
        &self,
        index: &Tensor<I, SI, D, RI>,
        source: &Tensor<T, SS, D, RS>,
    ) -> Tensor<T, S, D>
    where
        S: IndexSourceShape<DIM, SI, SS>,
        I: LongIndex,
    {
        self.try_index_copy::<DIM>(index, source).or_panic()
    }

    fn try_index_copy<const DIM: usize>(
        &self,
        index: &Tensor<I, SI, D, RI>,
        source: &Tensor<T, SS, D, RS>,
    ) -> Result<Tensor<T, S, D>, Error>
    where
        S: IndexSourceShape<DIM, SI, SS>,
        I: LongIndex,
    {
        let mut out = self.try_clone()?;
        out.view_mut()
            .into_dyn()
            .index_copy_(DIM as isize, index, source)?;
        Ok(out)
    }
}

impl<T, S, D, R, I, SI, RI, SS, RS> IndexInto<Tensor<I, SI, D, RI>, Tensor<T, SS, D, RS>>
    for Tensor<T, S, D, R>
where
    T: ScatterElement,
    S: Shape + TupleShape,
    D: Scattering,
    R: Writable,
    I: Element,
    SI: Shape,
    RI: Repr,
    SS: Shape,
    RS: Repr,
{
    fn index_add_<const DIM: usize>(
        &mut self,
        index: &Tensor<I, SI, D, RI>,
        source: &Tensor<T, SS, D, RS>,
        alpha: T,
    ) where
        S: IndexSourceShape<DIM, SI, SS>,
        I: IndexElement,
    {
        self.try_index_add_::<DIM>(index, source, alpha).or_panic()
    }

    fn try_index_add_<const DIM: usize>(
        &mut self,
        index: &Tensor<I, SI, D, RI>,
        source: &Tensor<T, SS, D, RS>,
        alpha: T,
    ) -> Result<(), Error>
    where
        S: IndexSourceShape<DIM, SI, SS>,
        I: IndexElement,
    {
        self.view_mut()
            .into_dyn()
            .index_add_(DIM as isize, index, source, alpha)
    }

    fn index_copy_<const DIM: usize>(
        &mut self,
        index: &Tensor<I, SI, D, RI>,
        source: &Tensor<T, SS, D, RS>,
    ) where
        S: IndexSourceShape<DIM, SI, SS>,
        I: LongIndex,
    {
        self.try_index_copy_::<DIM>(index, source).or_panic()
    }

    fn try_index_copy_<const DIM: usize>(
        &mut self,
        index: &Tensor<I, SI, D, RI>,
        source: &Tensor<T, SS, D, RS>,
    ) -> Result<(), Error>
    where
        S: IndexSourceShape<DIM, SI, SS>,
        I: LongIndex,
    {
        self.view_mut()
            .into_dyn()
            .index_copy_(DIM as isize, index, source)
    }
}
