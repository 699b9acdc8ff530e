//! What a device must provide: the backend trait family.
//!
//! A tensor's elements live in a backend's buffers ([`Backend`]: one type
//! per device kind, [`Cpu`] and, with the `cuda` feature, `Cuda`), and
//! every operation reaches them through shape-erased operands
//! ([`StridedRef`] to read, [`StridedMut`] to write), so one compiled
//! kernel serves every shape. Each op family is one trait, which a backend
//! implements with its own kernels:
//!
//! | trait | what it provides | CPU | CUDA |
//! |---|---|---|---|
//! | [`Backend`] | buffers: handles, lengths, identities, devices | [`cpu`] | `cuda` |
//! | [`Elementwise`] | maps of element functions, in place or into new buffers; `where`; concatenation | [`cpu::elementwise`] | `cuda::elementwise` |
//! | [`Reductions`] | reductions along a mask of dimensions, with indices for `max`/`min` | [`cpu::reduce`] | `cuda::reduce` |
//! | [`MatmulBackend`] | matrix products after [`MatmulPlan`] | [`cpu::matmul`] | `cuda::matmul` |
//!
//! A new op family adds its trait here, with its contract, and one
//! implementation in each backend's folder. The typed front-end
//! ([`crate::ops`]) checks shapes and dtypes, then calls these.

pub mod cpu;
#[cfg(feature = "cuda")]
pub mod cuda;
pub mod rearrange;

pub use cpu::Cpu;
#[cfg(feature = "cuda")]
pub use cuda::Cuda;
pub use rearrange::{AxisMap, Band, PadMode, Rearranging};

use crate::device::Device;
use crate::dtype::{Element, IndexElement};
use crate::error::Error;
use crate::layout::StridedLayout;
use crate::ops::functions::{BinaryFn, TernaryFn, UnaryFn};
use crate::ops::matmul::MatmulElement;
use crate::ops::matmul::plan::MatmulPlan;
use crate::ops::reductions::Reducer;
use crate::ops::reductions::reducers::{Direction, ExtremeAt, Extremum};
use crate::shape::SizeArray;
use crate::storage::{Storage, StorageId, sealed};
use core::fmt::Debug;

/// A kind of device whose memory can hold tensor elements: [`Cpu`], and
/// `Cuda` with the `cuda` feature.
///
/// Kernels receive shape-erased strided operands ([`StridedRef`]) so that one
/// compiled kernel serves every shape.
pub trait Backend: Clone + Debug + Send + Sync + 'static + sealed::Sealed {
    /// An owned buffer of elements.
    type Buffer<T: Element>: Send + Sync;
    /// A raw handle to the start of a buffer.
    type Ptr<T: Element>: Copy + Debug + Send + Sync;

    /// The handle of a buffer, for reading.
    fn ptr<T: Element>(buffer: &Self::Buffer<T>) -> Self::Ptr<T>;
    /// The handle of a buffer, for reading and writing.
    fn ptr_mut<T: Element>(buffer: &mut Self::Buffer<T>) -> Self::Ptr<T>;
    /// The number of elements in a buffer.
    fn len<T: Element>(buffer: &Self::Buffer<T>) -> usize;
    /// The identity of a buffer (for `shares_storage_with`).
    fn storage_id<T: Element>(buffer: &Self::Buffer<T>) -> StorageId;
    /// The device a buffer lives on.
    fn device<T: Element>(buffer: &Self::Buffer<T>) -> Device;
    /// The same address as a handle to elements of another type (for the
    /// parts of complex elements: `real()`, `view_as_real()`).
    fn cast_ptr<T: Element, U: Element>(ptr: Self::Ptr<T>) -> Self::Ptr<U>;
    /// The first element of `x` (at its offset), copied to the host:
    /// PyTorch's `item()` of a one-element tensor. `Err` when `x` has no
    /// elements (or the device fails).
    fn item<T: Element>(x: StridedRef<'_, T, Self>) -> Result<T, Error>;
}

/// A shape-erased strided operand of a kernel: a buffer handle and the
/// layout of the elements to read, as plain runtime sizes and strides.
///
/// Only this crate makes them, from a live tensor (or a broadcast of one):
/// every index of the layout lies inside the buffer, which no one writes while
/// the operand exists. Kernels rely on that, so the fields are not public.
#[derive(Debug)]
pub struct StridedRef<'a, T: Element, D: Backend> {
    pub(crate) ptr: D::Ptr<T>,
    pub(crate) sizes: &'a [usize],
    pub(crate) strides: &'a [usize],
    pub(crate) offset: usize,
}

// (By hand: a derive would ask `D: Copy` of the device type.)
impl<T: Element, D: Backend> Clone for StridedRef<'_, T, D> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T: Element, D: Backend> Copy for StridedRef<'_, T, D> {}

impl<'a, T: Element, D: Backend> StridedRef<'a, T, D> {
    /// A tensor's elements under its layout, from the tensor's two fields:
    /// generic over the size array, so the per-shape methods that hand their
    /// tensors to shape-erased cores compile no function of their own for it.
    pub(crate) fn new<A: SizeArray>(
        data: &impl Storage<T, D>,
        layout: &'a StridedLayout<A>,
    ) -> Self {
        StridedRef {
            ptr: data.ptr(),
            sizes: layout.sizes(),
            strides: layout.strides(),
            offset: layout.offset(),
        }
    }
}

impl<T: Element, D: Backend> StridedRef<'_, T, D> {
    /// The start of the buffer.
    pub fn ptr(&self) -> D::Ptr<T> {
        self.ptr
    }
    /// Sizes.
    pub fn sizes(&self) -> &[usize] {
        self.sizes
    }
    /// Strides in elements (0 where broadcast).
    pub fn strides(&self) -> &[usize] {
        self.strides
    }
    /// Storage offset of the first element.
    pub fn offset(&self) -> usize {
        self.offset
    }
}

/// A writable shape-erased operand: the output of an in-place kernel.
///
/// Only this crate makes them, from a tensor borrowed exclusively: every index
/// of the layout lies inside the buffer, no two indices share an element, and
/// nothing else reads or writes those elements while the operand exists.
#[derive(Debug)]
pub struct StridedMut<'a, T: Element, D: Backend> {
    pub(crate) ptr: D::Ptr<T>,
    pub(crate) sizes: &'a [usize],
    pub(crate) strides: &'a [usize],
    pub(crate) offset: usize,
}

impl<T: Element, D: Backend> StridedMut<'_, T, D> {
    /// Sizes.
    pub fn sizes(&self) -> &[usize] {
        self.sizes
    }
    /// Strides in elements.
    pub fn strides(&self) -> &[usize] {
        self.strides
    }
    /// Storage offset of the first element.
    pub fn offset(&self) -> usize {
        self.offset
    }
}

/// The elementwise kernels a backend provides. Each takes shape-erased
/// operands, so it is compiled once per element function and dtype, never
/// per shape.
pub trait Elementwise: Backend {
    /// `f(a)` for every element of `a`, into a new contiguous buffer; `Err`
    /// when the buffer cannot be allocated.
    fn map1<A: Element, U: Element, F: UnaryFn<A, U>>(
        a: StridedRef<'_, A, Self>,
        f: F,
    ) -> Result<Self::Buffer<U>, Error>;

    /// `f(a, b)` over `sizes`, into a new contiguous buffer. `a` and `b` are
    /// already broadcast: their sizes are `sizes` and their strides are 0
    /// along stretched dimensions. `Err` when the buffer cannot be allocated.
    fn map2<A: Element, B: Element, U: Element, F: BinaryFn<A, B, U>>(
        sizes: &[usize],
        a: StridedRef<'_, A, Self>,
        b: StridedRef<'_, B, Self>,
        f: F,
    ) -> Result<Self::Buffer<U>, Error>;

    /// `out = f(out)` for every element of `out`; `Err` when a device
    /// reports a failure.
    fn update1<T: Element, F: UnaryFn<T, T>>(
        out: StridedMut<'_, T, Self>,
        f: F,
    ) -> Result<(), Error>;

    /// `out = f(out, b)` for every element of `out`; `b` is broadcast to
    /// `out`'s sizes. `Err` when a device reports a failure.
    fn update2<T: Element, B: Element, F: BinaryFn<T, B, T>>(
        out: StridedMut<'_, T, Self>,
        b: StridedRef<'_, B, Self>,
        f: F,
    ) -> Result<(), Error>;

    /// `f(a, b, c)` over `sizes`, into a new contiguous buffer; the three
    /// are already broadcast to `sizes`. A device converts each operand's
    /// elements to `U` as it loads them and runs `f`'s kernel in `U` (the
    /// callers' functions compute in the common type, which is `U`). `Err`
    /// when the buffer cannot be allocated, the operands live on different
    /// devices, or `f` has no device kernel.
    fn map3<A: Element, B: Element, C: Element, U: Element, F: TernaryFn<A, B, C, U>>(
        sizes: &[usize],
        a: StridedRef<'_, A, Self>,
        b: StridedRef<'_, B, Self>,
        c: StridedRef<'_, C, Self>,
        f: F,
    ) -> Result<Self::Buffer<U>, Error>;

    /// `out = f(out, b, c)` for every element of `out`; `b` and `c` are
    /// broadcast to `out`'s sizes (a device converts them to `T`). `Err`
    /// when a device reports a failure.
    fn update3<T: Element, B: Element, C: Element, F: TernaryFn<T, B, C, T>>(
        out: StridedMut<'_, T, Self>,
        b: StridedRef<'_, B, Self>,
        c: StridedRef<'_, C, Self>,
        f: F,
    ) -> Result<(), Error>;

    /// `where(cond, a, b)` over `sizes`: `a` where `cond` is true, else `b`,
    /// each converted to `U`, into a new contiguous buffer. The three are
    /// already broadcast to `sizes`. `Err` when the buffer cannot be
    /// allocated or the operands live on different devices.
    fn select<A: Element, B: Element, U: Element>(
        sizes: &[usize],
        cond: StridedRef<'_, bool, Self>,
        a: StridedRef<'_, A, Self>,
        b: StridedRef<'_, B, Self>,
    ) -> Result<Self::Buffer<U>, Error>;

    /// A new contiguous buffer of `sizes` holding `parts` one after another
    /// along `axis` (`cat` and `stack`); parts of another rank than
    /// `sizes` (PyTorch's skipped 1-d empty tensors) are left out. `Err`
    /// when the parts live on different devices.
    ///
    /// # Safety
    /// `parts` is not empty, and the parts of `sizes`' rank have `sizes`
    /// except along `axis`, where their sizes add up to `sizes[axis]`, so
    /// that they fill the output exactly (what `cat_sizes` checks).
    unsafe fn concatenate<T: Element>(
        parts: &[StridedRef<'_, T, Self>],
        axis: usize,
        sizes: &[usize],
    ) -> Result<Self::Buffer<T>, Error>;

    /// `out = src` converted to `T` element by element (PyTorch's
    /// `copy_`); `src` is already broadcast to `out`'s sizes. `Err` when
    /// they live on different devices or a device reports a failure.
    fn copy_into<T: Element, B: Element>(
        out: StridedMut<'_, T, Self>,
        src: StridedRef<'_, B, Self>,
    ) -> Result<(), Error>;
}

/// The elements a gather reads: a source laid over the output's sizes
/// (stride 0 along the gathered dimension and along stretched ones), and
/// the dimension the index chooses along: its stride and its length.
#[derive(Debug)]
pub struct GatherSource<'a, T: Element, D: Backend> {
    /// The source over the output's sizes; its offset is that of the
    /// first element of the gathered dimension.
    pub(crate) elements: StridedRef<'a, T, D>,
    /// The stride of the gathered dimension.
    pub(crate) dim_stride: usize,
    /// The length of the gathered dimension: indices go from 0 up to it.
    pub(crate) dim_len: usize,
}

/// Why a gather gave no result.
#[derive(Clone, Debug, PartialEq)]
pub enum GatherFault {
    /// An index outside the gathered dimension: the first one in row-major
    /// order of the output (each operation words its own error).
    Index(i64),
    /// Anything else: no memory, a device failure.
    Failed(Error),
}

impl From<Error> for GatherFault {
    fn from(e: Error) -> Self {
        GatherFault::Failed(e)
    }
}

/// How an index outside `0..len` is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IndexWrap {
    /// It is a fault (`gather`, `index_select`).
    Never,
    /// `-len..0` counts from the end; anything else outside is a fault
    /// (`take`).
    FromEnd,
    /// Every index is taken modulo `len`, the remainder's sign that of
    /// `len` as Python's `%` (`take_along_dim` along a dim); a length of 0
    /// is a fault.
    Modulo,
}

impl IndexWrap {
    /// The position `raw` reads along a dimension of `len`, or `None` for a
    /// fault.
    #[inline(always)]
    pub fn resolve(self, raw: i64, len: usize) -> Option<usize> {
        let len = len as u64;
        let at = match (u64::try_from(raw), self) {
            (Ok(at), IndexWrap::Never | IndexWrap::FromEnd) => at,
            (Err(_), IndexWrap::FromEnd) => len.checked_sub(raw.unsigned_abs())?,
            (Err(_), IndexWrap::Never) => return None,
            // A dimension's length is at most `isize::MAX`, so it fits `i64`.
            (_, IndexWrap::Modulo) => raw.checked_rem_euclid(len as i64)? as u64,
        };
        (at < len).then_some(at as usize)
    }
}

/// Where a scatter writes: the target laid over the index's sizes (stride
/// 0 along the scattered dimension), and that dimension: its position in
/// the sizes (`None` for `put`, whose flat positions may meet anywhere),
/// stride and length.
#[derive(Debug)]
pub struct ScatterTarget<'a, T: Element, D: Backend> {
    /// The target over the index's sizes; its offset is that of the first
    /// element of the scattered dimension.
    pub(crate) elements: StridedMut<'a, T, D>,
    /// The scattered dimension among the sizes.
    pub(crate) dim: Option<usize>,
    /// Its stride in the target.
    pub(crate) dim_stride: usize,
    /// Its length: indices go from 0 up to it.
    pub(crate) dim_len: usize,
}

/// What a scatter writes: a tensor laid over the index's sizes, or one
/// value everywhere.
#[derive(Debug)]
pub enum ScatterValues<'a, T: Element, D: Backend> {
    /// Element `p` of the tensor for index position `p`.
    Tensor(StridedRef<'a, T, D>),
    /// The same value for every position.
    Value(T),
}

/// Reading elements at positions held by an index tensor: the kernel of
/// `gather`, `index_select`, `take` and `take_along_dim`, shape-erased as
/// the elementwise ones (compiled once per element and index dtype).
pub trait Indexing: Elementwise {
    /// For each position `p` of `sizes`, the source element `p` with the
    /// gathered coordinate set to `index[p]`, into a new contiguous buffer.
    /// `index` is laid over `sizes` (stride 0 where stretched). `wrap` says
    /// how an index outside `0..len` reads ([`IndexWrap`]); a fault
    /// outside `0..len` is a [`GatherFault::Index`], and the buffer is not
    /// returned.
    fn gather<T: Element, I: IndexElement>(
        sizes: &[usize],
        source: GatherSource<'_, T, Self>,
        index: StridedRef<'_, I, Self>,
        wrap: IndexWrap,
    ) -> Result<Self::Buffer<T>, GatherFault>;

    /// Checks every index of `index` against a dimension of `len` without
    /// reading anything (PyTorch checks an `index_select` of an empty
    /// tensor): the first fault in row-major order.
    fn check_indices<I: IndexElement>(
        index: StridedRef<'_, I, Self>,
        len: usize,
        wrap: IndexWrap,
    ) -> Result<(), GatherFault>;
}

/// Selecting by masks: what `masked_select`, `nonzero` and `argwhere`
/// need beyond the elementwise kernels (their results' lengths depend on
/// the data).
pub trait Masking: Elementwise {
    /// The elements of `src` where `mask` is true, in row-major order of
    /// `sizes` (both are laid over it).
    fn masked_select<T: Element>(
        sizes: &[usize],
        src: StridedRef<'_, T, Self>,
        mask: StridedRef<'_, bool, Self>,
    ) -> Result<Self::Buffer<T>, Error>;

    /// The coordinates of `x`'s non-zero elements (NaN is non-zero) in
    /// row-major order of the elements, stored column by column (all first
    /// coordinates, then all second ones: PyTorch's strides `[1, count]`):
    /// a buffer of `count * rank` int64, and `count`.
    fn nonzero<T: Element>(x: StridedRef<'_, T, Self>)
    -> Result<(Self::Buffer<i64>, usize), Error>;

    /// `out`'s elements where `mask` (laid over `out`'s sizes) is true, in
    /// row-major order, replaced by `source`'s first ones in order (`source`
    /// holds its elements contiguously from its offset). `Err`, before any
    /// write, when `source` has fewer elements than the mask has trues
    /// (PyTorch's text).
    fn masked_scatter<T: Element>(
        out: StridedMut<'_, T, Self>,
        mask: StridedRef<'_, bool, Self>,
        source: StridedRef<'_, T, Self>,
    ) -> Result<(), Error>;
}

/// Writing elements at positions held by an index tensor: the kernel of
/// `scatter`, `scatter_add`, `scatter_reduce`, `index_add`, `index_copy`,
/// `index_fill` and `put`.
pub trait Scattering: Indexing {
    /// For each position `p` of `sizes` (in row-major order along the
    /// scattered dimension, so that repeated indices combine in index
    /// order), `target[p with the scattered coordinate := index[p]] =
    /// combine(that element, values[p])`. The caller has checked every
    /// index ([`Indexing::check_indices`] with the same `wrap`): an index
    /// outside here is a bug, reported as an error rather than written.
    fn scatter<T: Element, I: IndexElement, F: BinaryFn<T, T, T>>(
        sizes: &[usize],
        target: ScatterTarget<'_, T, Self>,
        values: ScatterValues<'_, T, Self>,
        index: StridedRef<'_, I, Self>,
        wrap: IndexWrap,
        combine: F,
    ) -> Result<(), Error>;
}

/// The reductions a backend provides: one kernel per [`Reducer`] and dtype,
/// shape-erased as the elementwise ones. The outputs are contiguous, in
/// row-major order of the kept dimensions. (A backend that reduces also
/// copies: `argmax()` of a strided tensor reduces a contiguous copy.)
///
/// [`Reducer`]: crate::ops::reductions::Reducer
pub trait Reductions: Elementwise {
    /// Reduces `x` along the dimensions where `mask` is true; `Err` when the
    /// output cannot be allocated, a device fails, or (on a device) `r` has
    /// no kernel.
    fn reduce<T: Element, R: Reducer<T>>(
        x: StridedRef<'_, T, Self>,
        mask: &[bool],
        r: R,
    ) -> Result<Self::Buffer<R::Out>, Error>
    where
        R::Out: Element;

    /// The extreme values along the one dimension where `mask` is true, and
    /// their indices along it (`max`/`min` with indices, `argmax`).
    #[allow(clippy::type_complexity)]
    fn reduce_indexed<T: Extremum, W: Direction>(
        x: StridedRef<'_, T, Self>,
        mask: &[bool],
        r: ExtremeAt<W>,
    ) -> Result<(Self::Buffer<T>, Self::Buffer<i64>), Error>;
}

/// The element types `softmax` and `log_softmax` compute in: float32 and
/// float64 (the half types compute in float32, as PyTorch's do).
pub trait SoftmaxFloat:
    Element
    + num_traits::Float
    + crate::dtype::Numeric
    + crate::dtype::TrueDiv<Quotient = Self>
    + crate::dtype::math::ToFloat<Float = Self>
    + crate::ops::reductions::reducers::Summable<Sum = Self>
    + crate::ops::reductions::reducers::MeanElement
    + crate::ops::reductions::reducers::Extremum
    + crate::dtype::math::Abs<Output = Self>
    + crate::dtype::math::Power
    + cpu::softmax::KernelExp
    + cpu::softmax::Kernels
{
}
impl SoftmaxFloat for f32 {}
impl SoftmaxFloat for f64 {}

/// Two buffers of `T` on device `D` (the variance and the mean).
pub type BufferPair<T, D> = (<D as Backend>::Buffer<T>, <D as Backend>::Buffer<T>);

/// Devices with `softmax` and `log_softmax`, `logsumexp` and the moments.
pub trait Normalizing: Reductions {
    /// `softmax` (`log`: `log_softmax`) of `x` along `dim`, into a new
    /// contiguous buffer of `x`'s sizes; `Err` when it cannot be allocated
    /// or a device fails.
    fn softmax<T: SoftmaxFloat>(
        x: StridedRef<'_, T, Self>,
        dim: usize,
        log: bool,
    ) -> Result<Self::Buffer<T>, Error>;

    /// `logsumexp` of `x` along the dims of `mask`, contiguous over the
    /// kept dims, with PyTorch's rule for infinite maxima (taken out as
    /// 0). By default composed of the reductions and elementwise kernels.
    fn logsumexp<T: SoftmaxFloat>(
        x: StridedRef<'_, T, Self>,
        mask: &[bool],
    ) -> Result<Self::Buffer<T>, Error> {
        crate::ops::normalize::composed_logsumexp(x, mask)
    }

    /// The variance along the dims of `mask` divided by
    /// `max(0, N - correction)` (`std`: its square root), and the mean,
    /// each contiguous over the kept dims; NaN where nothing was reduced.
    /// By default two passes from the mean, composed of the reductions and
    /// elementwise kernels.
    fn moments<T: SoftmaxFloat>(
        x: StridedRef<'_, T, Self>,
        mask: &[bool],
        correction: f64,
        std: bool,
    ) -> Result<BufferPair<T, Self>, Error> {
        crate::ops::moments::composed_moments(x, mask, correction, std)
    }

    /// The `ord`-norm of `x`'s magnitudes along the dims of `mask`,
    /// contiguous over the kept dims (`ord` 0 counts the nonzero elements,
    /// ±inf takes the largest or smallest; an empty reduction with those
    /// was refused before). By default composed of the reductions and
    /// elementwise kernels.
    fn vector_norm<T: SoftmaxFloat>(
        x: StridedRef<'_, T, Self>,
        ord: f64,
        mask: &[bool],
    ) -> Result<Self::Buffer<T>, Error> {
        crate::ops::norms::composed_vector_norm(x, ord, mask)
    }
}

/// Devices with the scans: `cumsum`, `cumprod`, `logcumsumexp`, `cummax`
/// and `cummin`.
pub trait Scanning: Elementwise {
    /// The inclusive scan `s` of `x` (rank 1 or more) along `dim`, into a
    /// new contiguous buffer of `x`'s sizes; `Err` when it cannot be
    /// allocated or a device fails.
    fn scan<T: Element, S: crate::ops::scans::Scanner<T>>(
        x: StridedRef<'_, T, Self>,
        dim: usize,
        s: S,
    ) -> Result<Self::Buffer<S::Out>, Error>;

    /// `cummax`/`cummin` of `x` (rank 1 or more) along `dim`: the running
    /// extremes and their indices, each a new contiguous buffer of `x`'s
    /// sizes.
    #[allow(clippy::type_complexity)]
    fn scan_indexed<T: Extremum, W: Direction>(
        x: StridedRef<'_, T, Self>,
        dim: usize,
        s: crate::ops::scans::CumExtreme<W>,
    ) -> Result<(Self::Buffer<T>, Self::Buffer<i64>), Error>;
}

/// Devices with `sort` and `argsort`.
#[diagnostic::on_unimplemented(
    message = "sort has no kernel on `{Self}` yet",
    label = "this device cannot sort",
    note = "copy the tensor to the CPU with `to_cpu()` first"
)]
pub trait Sorting: Elementwise {
    /// The indices that sort `x` (rank 1 or more) along `dim`, ascending or
    /// `descending`, equal elements in their order (NaN above everything,
    /// `-0.0` equal to `0.0`), and (`values`) the sorted elements; each a
    /// new buffer of `x`'s elements laid out row-major with `dim` moved
    /// last (each line contiguous).
    #[allow(clippy::type_complexity)]
    fn sort<T: cpu::sort::SortKey>(
        x: StridedRef<'_, T, Self>,
        dim: usize,
        descending: bool,
        values: bool,
    ) -> Result<(Option<Self::Buffer<T>>, Self::Buffer<i64>), Error>;

    /// The `k` (at most the size of `dim`) largest (or smallest) elements
    /// of each line of `x` (rank 1 or more) along `dim`, in order (the
    /// most extreme first; equal ones by position), and their positions;
    /// each laid out row-major with `dim` moved last and `k` long.
    #[allow(clippy::type_complexity)]
    fn topk<T: cpu::sort::SortKey>(
        x: StridedRef<'_, T, Self>,
        k: usize,
        dim: usize,
        largest: bool,
    ) -> Result<(Self::Buffer<T>, Self::Buffer<i64>), Error>;
}

/// What [`SetOps::unique`] and [`SetOps::unique_dim`] give: the unique
/// values (or slices) and how many there are, and, when asked for, each
/// input element's (or slice's) position among them and each one's count.
pub struct Uniques<T: Element, D: Backend> {
    /// The values (for a dim form: the input's slices, row-major, the dim
    /// `count` long).
    pub values: D::Buffer<T>,
    /// How many values (or slices).
    pub count: usize,
    /// Each element's (or slice's) position among `values`.
    pub inverse: Option<D::Buffer<i64>>,
    /// How many elements (or slices) each value stands for.
    pub counts: Option<D::Buffer<i64>>,
}

/// Devices with kernels for the sets and bins: `unique`,
/// `unique_consecutive`, `searchsorted`/`bucketize`, `bincount`, `histc`.
#[diagnostic::on_unimplemented(
    message = "sets and bins (unique, searchsorted, bincount, histc) have no kernel on `{Self}` yet",
    label = "this device has no set or bin kernels",
    note = "copy the tensor to the CPU with `to_cpu()` first"
)]
pub trait SetOps: Elementwise {
    /// The distinct elements of `x` (any rank, read row-major), ascending
    /// (NaN never equal to itself: each one its own value, last; `-0.0`
    /// equal to `0.0`), or (`consecutive`) the first of each run of equal
    /// neighbours in order; `inverse` in `x`'s row-major order.
    fn unique<T: cpu::sets::SetElement>(
        x: StridedRef<'_, T, Self>,
        consecutive: bool,
        inverse: bool,
        counts: bool,
    ) -> Result<Uniques<T, Self>, Error>;

    /// The distinct slices of `x` (rank 1 or more) along `dim`, sorted
    /// lexicographically, or (`consecutive`) the first of each run of
    /// equal neighbours; the values are the chosen slices one after the
    /// other, each row-major over `x`'s other dims (PyTorch's layout:
    /// `x.movedim(dim, 0)`'s rows).
    fn unique_dim<T: cpu::sets::SetElement>(
        x: StridedRef<'_, T, Self>,
        dim: usize,
        consecutive: bool,
        inverse: bool,
        counts: bool,
    ) -> Result<Uniques<T, Self>, Error>;

    /// For each element of `values` (row-major), the position in its line
    /// of `boundaries` (1-D: one line for all; else one line per row of
    /// `values`, the leading dims equal) where it would go: the first
    /// `i` with `boundaries[i] >= v` (`right`: `> v`) by PyTorch's binary
    /// search, through `sorter` (positions along each line) when given;
    /// `Err` (PyTorch's text) when a sorter position is outside its line.
    /// Row-major, `values`' element count.
    fn searchsorted<T: cpu::sets::SetElement>(
        boundaries: StridedRef<'_, T, Self>,
        values: StridedRef<'_, T, Self>,
        sorter: Option<StridedRef<'_, i64, Self>>,
        right: bool,
    ) -> Result<Self::Buffer<i64>, Error>;

    /// The count of each value `0..n` in the 1-D `x` (non-negative, else
    /// `Err`), `n` the larger of `minlength` and its maximum plus one; and
    /// `n`.
    fn bincount<T: cpu::sets::BinIndex>(
        x: StridedRef<'_, T, Self>,
        minlength: usize,
    ) -> Result<(Self::Buffer<i64>, usize), Error>;

    /// [`bincount`](Self::bincount) summing `weights` (as long as `x`) in
    /// `x`'s order.
    fn bincount_weighted<T: cpu::sets::BinIndex, W: cpu::sets::BinWeight>(
        x: StridedRef<'_, T, Self>,
        weights: StridedRef<'_, W, Self>,
        minlength: usize,
    ) -> Result<(Self::Buffer<W>, usize), Error>;

    /// The smallest and largest elements of `x` (NaN when it holds one),
    /// `None` when it is empty: `histc`'s range when none is given.
    fn extremes<T: cpu::sets::SetElement>(
        x: StridedRef<'_, T, Self>,
    ) -> Result<Option<(T, T)>, Error>;

    /// The histogram of `x` in `bins` (1 or more) equal bins over
    /// `[min, max]` (`min < max`, finite): elements outside and NaN left
    /// out, the last bin closed.
    fn histc<T: cpu::sets::HistcElement>(
        x: StridedRef<'_, T, Self>,
        bins: usize,
        min: T,
        max: T,
    ) -> Result<Self::Buffer<T>, Error>;
}

/// Devices with the order statistics: `kthvalue`, `median`, `nanmedian`,
/// `mode` and the quantiles.
#[diagnostic::on_unimplemented(
    message = "kthvalue, median, mode and quantile have no kernel on `{Self}` yet",
    label = "this device has no order statistics",
    note = "copy the tensor to the CPU with `to_cpu()` first"
)]
pub trait OrderStatistics: Reductions {
    /// The statistic of each line of `x` (rank 1 or more) along `dim`: its
    /// value (an element of the line) and its position, one per line, the
    /// lines in row-major order of `x`'s other dims. A `dim` of size 0
    /// (the median of an empty tensor) gives NaN, converted to `T`.
    #[allow(clippy::type_complexity)]
    fn order_statistic<T: cpu::sort::SortKey>(
        x: StridedRef<'_, T, Self>,
        dim: usize,
        stat: cpu::order_stats::Statistic,
    ) -> Result<(Self::Buffer<T>, Self::Buffer<i64>), Error>;

    /// The quantiles `q` (in [0, 1], rounded to `T`) of each line of `x`
    /// (rank 1 or more, not empty) along `dim`, NaNs left out when
    /// `ignore_nan` (else a NaN makes the line's quantiles NaN), laid out
    /// `[lines, q]` row-major.
    fn quantiles<T: cpu::order_stats::QuantileFloat>(
        x: StridedRef<'_, T, Self>,
        dim: usize,
        q: &[f64],
        interpolation: cpu::order_stats::Interpolation,
        ignore_nan: bool,
    ) -> Result<Self::Buffer<T>, Error>;
}

/// Devices with a matrix product kernel.
#[diagnostic::on_unimplemented(
    message = "matmul has no kernel on `{Self}` yet",
    label = "this device has no matrix product",
    note = "copy the operands to the CPU with `to_cpu()` first"
)]
pub trait MatmulBackend: Backend {
    /// The product that `plan` describes, into a new contiguous buffer of
    /// `plan.out_sizes()`; `Err` when it cannot be allocated.
    fn matmul_buffer<T: MatmulElement>(
        plan: &MatmulPlan,
        a: StridedRef<'_, T, Self>,
        b: StridedRef<'_, T, Self>,
    ) -> Result<Self::Buffer<T>, Error>;
}

/// Where a random fill's numbers come from: block `offset + i / per_block`
/// of `seed`'s Philox stream for the element of row-major index `i`, and the
/// distribution they are turned into.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct RandomFill {
    /// The generator's seed.
    pub seed: u64,
    /// The first block.
    pub offset: u64,
    /// The distribution.
    pub dist: crate::random::Distribution,
}

/// Random fills ([`crate::random`]): the same numbers on every backend.
pub trait Random: Elementwise {
    /// Fills `out` from `fill`, element `i` (in row-major order of `out`'s
    /// sizes, whatever its strides) from block `fill.offset + i /
    /// T::PER_BLOCK`. `Err` when a device reports a failure or a buffer
    /// cannot be allocated.
    fn fill_random<T: crate::random::RandomFloat>(
        out: StridedMut<'_, T, Self>,
        fill: RandomFill,
    ) -> Result<(), Error>;

    /// Fills `out` with whole numbers from `fill`: element `i` (row-major
    /// order of `out`'s sizes) from half of block `fill.offset + i / 2`,
    /// through [`fill.draw`](DrawFill::draw). `Err` as
    /// [`fill_random`](Random::fill_random).
    fn fill_draws<T: crate::random::RandomWhole>(
        out: StridedMut<'_, T, Self>,
        fill: DrawFill,
    ) -> Result<(), Error>;

    /// Writes into `out` a Poisson sample of each rate of `rates` (the same
    /// sizes; non-negative rates): element `i` (row-major) from the stream
    /// of counter `offset + i` ([`crate::random::poisson`]). `Err` as
    /// [`fill_random`](Random::fill_random).
    fn poisson<T: crate::random::RandomFloat>(
        rates: StridedRef<'_, T, Self>,
        out: StridedMut<'_, T, Self>,
        seed: u64,
        offset: u64,
    ) -> Result<(), Error>;
}

/// Where a whole-number fill's numbers come from (see
/// [`Random::fill_draws`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct DrawFill {
    /// The generator's seed.
    pub seed: u64,
    /// The first block.
    pub offset: u64,
    /// What the bits become.
    pub draw: crate::random::distributions::Draw,
}
