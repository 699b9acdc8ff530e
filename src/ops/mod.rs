//! Operations on tensors.
//!
//! - [`arith`]: `+ - * /` and unary `-`, broadcasting, for every owned and
//!   borrowed combination and with plain numbers on either side.
//! - [`compare`]: `eq ne lt le gt ge`, giving `Tensor<bool, _>`.
//! - [`assign`]: `+= -= *= /=` under the in-place rule.
//! - [`expand`]: `expand`, `expand_as`, `broadcast_to`: stride-0 views.
//! - [`matmul`]: `matmul`, `mm`, `bmm`, `mv`, `dot`.
//! - [`math`]: `exp`, `ln`, `sqrt`, `abs`, `clamp`, ..., `maximum`,
//!   `minimum`, `pow`, `where_`.
//! - [`concat`]: `cat` and `stack`, sized at compile time.
//! - [`engine`] and [`kernels`]: the one CPU elementwise engine, and the
//!   element functions it runs.
//! - [`reductions`]: `sum`, `mean`, `prod`, `max`, `argmax`, `all`, ...,
//!   run by a backend's [`Reductions`]: on the CPU the reduction engine
//!   [`reduce`] with the [`reducers`].

pub mod arith;
pub mod assign;
pub mod compare;
pub mod concat;
pub mod convert;
pub mod device_op;
pub mod engine;
pub mod expand;
pub mod kernels;
pub mod math;
pub mod matmul;
mod parallel;
pub mod precompiled;
pub mod reduce;
pub mod reducers;
pub mod reductions;

use crate::dtype::Element;
use crate::error::Error;
use crate::layout::{StridedLayout, array_from, checked_numel};
use crate::shape::{SizeArray, broadcast_sizes_into};
use crate::storage::{Backend, StridedRef};
use crate::tensor::{OwnedParts, owned_parts};
use kernels::{BinaryFn, UnaryFn};

/// The Rust types of plain numbers an operator takes beside a tensor:
/// Python's scalar kinds, `bool`, `i64`, `f64` and `Complex<f64>`. As in
/// PyTorch a number counts only by its category (`2.5` is "a float", which
/// promotes to float32), so one type per category suffices, and it lets
/// Rust infer unsuffixed literals (`&x * 2`, `&x + 0.5`) on its own. A
/// number of another type converts first: `&x * f64::from(lr)`.
///
/// Calls `$m!($($prefix)*; bool, i64, f64, Complex<f64>)`.
macro_rules! with_number_types {
    ($m:ident!($($prefix:tt)*)) => {
        $m!($($prefix)*; bool, i64, f64, num_complex::Complex<f64>);
    };
}
pub(crate) use with_number_types;

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
}

/// The reductions a backend provides: one kernel per [`Reducer`] and dtype,
/// shape-erased as the elementwise ones. The outputs are contiguous, in
/// row-major order of the kept dimensions. (A backend that reduces also
/// copies: `argmax()` of a strided tensor reduces a contiguous copy.)
///
/// [`Reducer`]: reduce::Reducer
pub trait Reductions: Elementwise {
    /// Reduces `x` along the dimensions where `mask` is true; `Err` when the
    /// output cannot be allocated, a device fails, or (on a device) `r` has
    /// no kernel.
    fn reduce<T: Element, R: reduce::Reducer<T>>(
        x: StridedRef<'_, T, Self>,
        mask: &[bool],
        r: R,
    ) -> Result<Self::Buffer<R::Out>, Error>
    where
        R::Out: Element;

    /// The extreme values along the one dimension where `mask` is true, and
    /// their indices along it (`max`/`min` with indices, `argmax`).
    #[allow(clippy::type_complexity)]
    fn reduce_indexed<T: reducers::Extremum, W: reducers::Direction>(
        x: StridedRef<'_, T, Self>,
        mask: &[bool],
        r: reducers::ExtremeAt<W>,
    ) -> Result<(Self::Buffer<T>, Self::Buffer<i64>), Error>;
}

/// Strides of an operand of sizes `sizes` and strides `strides`, broadcast
/// to `out_sizes`: aligned at the end, 0 where the operand is stretched or
/// missing.
#[inline]
pub(crate) fn broadcast_strides(
    sizes: &[usize],
    strides: &[usize],
    out_sizes: &[usize],
    out: &mut [usize],
) {
    let extra = out_sizes.len() - sizes.len();
    for (i, o) in out.iter_mut().enumerate() {
        *o = if i < extra || sizes[i - extra] != out_sizes[i] {
            0
        } else {
            strides[i - extra]
        };
    }
}

/// `f(a, b)` with broadcasting, the engine behind every binary operator:
/// the output's buffer and its contiguous layout. `Err` when `Dyn` sizes
/// turn out not to broadcast. Shape-erased: the layout's arrays have the
/// output's rank, so every pair of shapes broadcasting to one rank shares
/// this function.
pub(crate) fn broadcast_map2<A, B, U, Z, D, F>(
    a: StridedRef<'_, A, D>,
    b: StridedRef<'_, B, D>,
    f: F,
) -> Result<(D::Buffer<U>, StridedLayout<Z>), Error>
where
    A: Element,
    B: Element,
    U: Element,
    Z: SizeArray,
    D: Elementwise,
    F: BinaryFn<A, B, U>,
{
    let rank = a.sizes.len().max(b.sizes.len());
    let mut sizes = Z::filled(rank, 0);
    if a.sizes == b.sizes {
        // Nothing to broadcast (the common case): the operands' own strides
        // serve. The output is new memory, so its size is checked even so (a
        // view may have sizes whose product overflows, with a 0 after).
        sizes.as_mut().copy_from_slice(a.sizes);
        checked_numel(sizes.as_ref())?;
        let buffer = D::map2(sizes.as_ref(), a, b, f)?;
        return Ok((buffer, StridedLayout::contiguous(sizes)));
    }
    broadcast_sizes_into(a.sizes, b.sizes, sizes.as_mut())?;
    checked_numel(sizes.as_ref())?;
    let mut a_strides = Z::filled(rank, 0);
    let mut b_strides = Z::filled(rank, 0);
    broadcast_strides(a.sizes, a.strides, sizes.as_ref(), a_strides.as_mut());
    broadcast_strides(b.sizes, b.strides, sizes.as_ref(), b_strides.as_mut());
    let buffer = D::map2(
        sizes.as_ref(),
        StridedRef {
            ptr: a.ptr,
            sizes: sizes.as_ref(),
            strides: a_strides.as_ref(),
            offset: a.offset,
        },
        StridedRef {
            ptr: b.ptr,
            sizes: sizes.as_ref(),
            strides: b_strides.as_ref(),
            offset: b.offset,
        },
        f,
    )?;
    Ok((buffer, StridedLayout::contiguous(sizes)))
}

/// `f` of each element of `a`, into a contiguous tensor of `a`'s sizes:
/// the shape-erased core of every unary operation (one copy per element
/// types, kernel and rank). `Err` only when the output cannot be allocated.
pub(crate) fn unary<A, U, Z, D, F>(
    a: StridedRef<'_, A, D>,
    f: F,
) -> Result<OwnedParts<U, D, Z>, Error>
where
    A: Element,
    U: Element,
    Z: SizeArray,
    D: Elementwise,
    F: UnaryFn<A, U>,
{
    let sizes = array_from(a.sizes);
    let buffer = D::map1(a, f)?;
    Ok(owned_parts(buffer, StridedLayout::contiguous(sizes)))
}
