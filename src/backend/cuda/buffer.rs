//! `CudaBuffer`: the owned elements of a CUDA tensor, in device memory.

use super::{DeviceState, check, state};
use crate::dtype::Element;
use crate::error::Error;
use crate::storage::StorageId;
use core::fmt;
use core::marker::PhantomData;
use cust::sys;

/// Elements of type `T` in the memory of one CUDA device.
///
/// Allocated and freed in order on the device's stream, from the driver's
/// memory pool: freeing never waits for the GPU, and a kernel queued before
/// the free still sees the memory.
pub struct CudaBuffer<T> {
    /// The device address of element 0 (0 for an empty buffer).
    addr: u64,
    len: usize,
    device: usize,
    id: StorageId,
    _elements: PhantomData<T>,
}

/// The device address of a CUDA buffer's first element, and its device.
pub struct CudaPtr<T> {
    pub(crate) addr: u64,
    pub(crate) device: usize,
    _elements: PhantomData<fn() -> T>,
}

impl<T> CudaPtr<T> {
    /// The same device address, as a handle to elements of type `U`.
    pub(crate) fn cast<U>(self) -> CudaPtr<U> {
        CudaPtr {
            addr: self.addr,
            device: self.device,
            _elements: PhantomData,
        }
    }
}

impl<T> Clone for CudaPtr<T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for CudaPtr<T> {}
impl<T> fmt::Debug for CudaPtr<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "CudaPtr(cuda:{}, {:#x})", self.device, self.addr)
    }
}

impl<T: Element> CudaBuffer<T> {
    /// `len` uninitialized elements on device `device`. Every caller writes
    /// all of them (by a kernel or a copy) before anything reads them.
    pub(crate) fn uninit(device: usize, len: usize) -> Result<Self, Error> {
        let state = state(device)?;
        let bytes = len
            .checked_mul(size_of::<T>())
            .ok_or(Error::OutOfMemory { bytes: usize::MAX })?;
        let mut addr: sys::CUdeviceptr = 0;
        if bytes > 0 {
            state.make_current()?;
            // SAFETY: `addr` is a valid place for the result, and the stream
            // belongs to the current context.
            let result = unsafe { sys::cuMemAllocAsync(&mut addr, bytes, state.stream.as_inner()) };
            check(result, "allocating device memory")?;
        }
        Ok(CudaBuffer {
            addr,
            len,
            device,
            id: StorageId::fresh(),
            _elements: PhantomData,
        })
    }

    /// The number of elements.
    pub fn len(&self) -> usize {
        self.len
    }

    /// True for a buffer of no elements.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The handle of element 0.
    pub(crate) fn ptr(&self) -> CudaPtr<T> {
        CudaPtr {
            addr: self.addr,
            device: self.device,
            _elements: PhantomData,
        }
    }

    pub(crate) fn storage_id(&self) -> StorageId {
        self.id
    }

    pub(crate) fn device_index(&self) -> usize {
        self.device
    }

    pub(crate) fn state(&self) -> Result<&'static DeviceState, Error> {
        state(self.device)
    }
}

impl<T> Drop for CudaBuffer<T> {
    fn drop(&mut self) {
        if self.addr == 0 {
            return;
        }
        // The device was opened when the buffer was made, so this finds it.
        if let Ok(state) = state(self.device)
            && state.make_current().is_ok()
        {
            // SAFETY: `addr` came from `cuMemAllocAsync` on this stream
            // and is freed once; work queued before on the stream still
            // completes with the memory. A failure here (a device lost)
            // cannot be reported from `drop`; the memory is the driver's
            // to reclaim then.
            let _ = unsafe { sys::cuMemFreeAsync(self.addr, state.stream.as_inner()) };
        }
    }
}

// SAFETY: a `CudaBuffer` owns device memory, reachable only through the
// driver by its address; the driver's calls may come from any thread.
unsafe impl<T: Send> Send for CudaBuffer<T> {}
// SAFETY: as above; `&CudaBuffer` gives only the address.
unsafe impl<T: Sync> Sync for CudaBuffer<T> {}
