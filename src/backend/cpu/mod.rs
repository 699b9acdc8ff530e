//! The CPU backend: everything the host runs.
//!
//! - [`CpuBuffer`] and its cache of large blocks (`buffer.rs`);
//! - [`engine`]: the one elementwise engine (coalescing, tiling, threads),
//!   and [`elementwise`], the row kernels it calls (`Elementwise for Cpu`);
//! - [`reduce`]: the reduction engine (`Reductions for Cpu`);
//! - [`softmax`]: `softmax` and `log_softmax`, fused (`Normalizing for Cpu`);
//! - `scan.rs`: the scans, `cumsum` to `cummax` (`Scanning for Cpu`);
//! - [`matmul`]: the products, on the `gemm` crates (`MatmulBackend for Cpu`);
//! - `parallel.rs`: rayon behind non-generic calls;
//! - [`precompiled`]: the float kernels compiled once, in this library.

mod buffer;
pub mod elementwise;
pub mod engine;
pub(crate) mod generate;
mod indexing;
pub mod matmul;
pub mod order_stats;
pub(crate) mod parallel;
pub mod precompiled;
pub(crate) mod random;
mod rearrange;
pub mod reduce;
mod scan;
pub mod sets;
pub mod softmax;
pub mod sort;
pub(crate) mod vector_math;

#[cfg(feature = "safetensors")]
pub(crate) use buffer::Owner;
pub use buffer::{CpuBuffer, POOL_MIN_BYTES, cached_bytes, empty_cache};
pub(crate) use buffer::{try_collect, try_collect_small, try_vec_with_capacity};

use super::{Backend, StridedRef};
use crate::device::Device;
use crate::dtype::Element;
use crate::error::Error;
use crate::storage::{StorageId, sealed};
use core::fmt;
use core::ptr::NonNull;

/// The host CPU (the default device of a [`Tensor`](crate::Tensor)).
///
/// ```
/// use shaped::prelude::*;
/// let t: Tensor<f32, shape![2], Cpu> = Tensor::zeros();
/// assert_eq!(t.device(), Device::Cpu);
/// ```
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Cpu;

impl sealed::Sealed for Cpu {}

/// The address of a CPU buffer's first element.
pub struct CpuPtr<T>(NonNull<T>);

impl<T> CpuPtr<T> {
    /// The start of a slice, with write permission.
    pub(crate) fn from_mut(slice: &mut [T]) -> Self {
        CpuPtr(NonNull::new(slice.as_mut_ptr()).expect("slice pointers are never null"))
    }

    /// A pointer this crate made from a live allocation.
    pub(crate) fn from_non_null(ptr: NonNull<T>) -> Self {
        CpuPtr(ptr)
    }

    /// The raw pointer.
    pub fn as_ptr(self) -> *mut T {
        self.0.as_ptr()
    }

    /// The same address, for writing elements without reading them.
    pub(crate) fn cast_uninit(self) -> CpuPtr<core::mem::MaybeUninit<T>> {
        CpuPtr(self.0.cast())
    }
}

impl<T> Clone for CpuPtr<T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for CpuPtr<T> {}
impl<T> fmt::Debug for CpuPtr<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "CpuPtr({:p})", self.0)
    }
}

// SAFETY: a `CpuPtr` is an address. Reading or writing through it happens only
// in this crate, through a tensor whose `Repr` proves the access is allowed
// (a shared borrow of `Sync` elements, or an exclusive one), so sending the
// address to another thread adds no access that a `&[T]`/`&mut [T]` would not.
unsafe impl<T: Send + Sync> Send for CpuPtr<T> {}
// SAFETY: as above; sharing the address itself gives no access.
unsafe impl<T: Send + Sync> Sync for CpuPtr<T> {}

impl Backend for Cpu {
    type Buffer<T: Element> = CpuBuffer<T>;
    type Ptr<T: Element> = CpuPtr<T>;

    fn ptr<T: Element>(buffer: &CpuBuffer<T>) -> CpuPtr<T> {
        CpuPtr(buffer.as_ptr())
    }
    fn ptr_mut<T: Element>(buffer: &mut CpuBuffer<T>) -> CpuPtr<T> {
        CpuPtr::from_mut(buffer.as_mut_slice())
    }
    fn cast_ptr<T: Element, U: Element>(ptr: CpuPtr<T>) -> CpuPtr<U> {
        CpuPtr(ptr.0.cast())
    }
    fn len<T: Element>(buffer: &CpuBuffer<T>) -> usize {
        buffer.len()
    }
    fn storage_id<T: Element>(buffer: &CpuBuffer<T>) -> StorageId {
        buffer.storage_id()
    }
    fn device<T: Element>(_: &CpuBuffer<T>) -> Device {
        Device::Cpu
    }
    fn item<T: Element>(x: StridedRef<'_, T, Cpu>) -> Result<T, Error> {
        if crate::layout::numel(x.sizes) == 0 {
            return Err(Error::ItemOfEmpty);
        }
        // SAFETY: a `StridedRef` addresses only elements inside its live
        // buffer, which no one writes while it exists; with at least one
        // element, position (0, .., 0), at `offset`, is one of them.
        Ok(unsafe { x.ptr.0.as_ptr().add(x.offset).read() })
    }
}

impl super::Normalizing for Cpu {
    fn softmax<T: super::SoftmaxFloat>(
        x: StridedRef<'_, T, Cpu>,
        dim: usize,
        log: bool,
    ) -> Result<CpuBuffer<T>, Error> {
        let sizes = x.sizes;
        with_dense(x, |xs| softmax::softmax(xs, sizes, dim, log))
    }
}

/// `f` of `x`'s elements in row-major order as one slice: `x`'s own memory
/// when it is contiguous, else a contiguous copy.
pub(crate) fn with_dense<T: Element, R>(
    x: StridedRef<'_, T, Cpu>,
    f: impl FnOnce(&[T]) -> Result<R, Error>,
) -> Result<R, Error> {
    let n = crate::layout::numel(x.sizes);
    if n == 0 {
        return f(&[]);
    }
    if crate::layout::is_contiguous(x.sizes, x.strides) {
        // SAFETY: a contiguous `StridedRef` of `n > 0` elements addresses
        // exactly the `n` elements from its offset on, inside its live
        // buffer, which no one writes while it exists.
        let xs = unsafe { core::slice::from_raw_parts(x.ptr.0.as_ptr().add(x.offset), n) };
        return f(xs);
    }
    let dense = <Cpu as super::Elementwise>::map1(x, crate::ops::functions::Identity)?;
    f(dense.as_slice())
}
