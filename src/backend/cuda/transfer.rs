//! Copies between the host and a CUDA device (`to_device`, `to_cpu`), and
//! tensors made on the device.

use super::{Cuda, CudaBuffer, check};
use crate::backend::Cpu;
use crate::backend::cpu::CpuBuffer;
use crate::backend::{Elementwise, StridedMut};
use crate::dtype::Element;
use crate::dynamic::{AnyTensor, any_tensor};
use crate::error::Error;
use crate::layout::MemoryFormat;
use crate::layout::{StridedLayout, check_contiguous_strides, checked_numel, checked_storage};
use crate::ops::functions::{Constant, Identity};
use crate::shape::Shape;
use crate::storage::{Repr, Storage};
use crate::tensor::Tensor;
use core::ffi::c_void;
use cust::sys;

impl<T: Element, S: Shape, R: Repr> Tensor<T, S, Cpu, R> {
    /// A copy on `gpu`, contiguous (PyTorch's `x.to("cuda:0")`).
    ///
    /// ```no_run
    /// use shaped::prelude::*;
    /// let gpu = Cuda::new(0)?;
    /// let x = Tensor::<i32, shape![2, 2]>::from_vec(vec![1, 2, 3, 4])?.to_device(&gpu)?;
    /// assert_eq!(x.to_cpu()?.to_vec(), vec![1, 2, 3, 4]);
    /// # Ok::<(), shaped::Error>(())
    /// ```
    pub fn to_device(&self, gpu: &Cuda) -> Result<Tensor<T, S, Cuda>, Error> {
        // Allocated fallibly: PyTorch's out-of-memory error, not an abort.
        let host = crate::backend::cpu::elementwise::try_gather(self.strided())?;
        let buffer = CudaBuffer::<T>::uninit(gpu.index, host.len())?;
        if !host.is_empty() {
            let state = buffer.state()?;
            state.make_current()?;
            // SAFETY: the device buffer and `host` both hold `host.len()`
            // elements of `T`; the copy is queued on the buffer's stream
            // (where it was allocated) and waited for below, while `host`
            // is still alive.
            let result = unsafe {
                sys::cuMemcpyHtoDAsync_v2(
                    buffer.ptr().addr,
                    host.as_ptr().cast::<c_void>(),
                    host.len() * size_of::<T>(),
                    state.stream.as_inner(),
                )
            };
            check(result, "copying to the device")?;
            state.synchronize()?;
        }
        Ok(Tensor::from_buffer(
            buffer,
            StridedLayout::contiguous(self.layout.size_array().clone()),
        ))
    }
}

impl<T: Element, S: Shape, R: Repr> Tensor<T, S, Cuda, R> {
    /// A copy in host memory, contiguous (PyTorch's `x.cpu()`); waits for
    /// the device, so a failure of earlier work on it shows up here.
    ///
    /// ```no_run
    /// use shaped::prelude::*;
    /// let gpu = Cuda::new(0)?;
    /// let x = Tensor::<f32, shape![3]>::ones().to_device(&gpu)?;
    /// assert_eq!((-&x).to_cpu()?.to_vec(), vec![-1.0; 3]);
    /// # Ok::<(), shaped::Error>(())
    /// ```
    pub fn to_cpu(&self) -> Result<Tensor<T, S, Cpu>, Error> {
        let dense = self.try_contiguous_in(MemoryFormat::Contiguous)?;
        let n = self.numel();
        let mut host = CpuBuffer::try_full(n, T::ZERO)?;
        if n > 0 {
            let ptr = dense.data.ptr();
            let state = super::state(ptr.device)?;
            state.make_current()?;
            let start = ptr.addr + (dense.layout.offset() * size_of::<T>()) as u64;
            let dst = host.as_mut_slice();
            // SAFETY: `dense` is contiguous, so its `n` elements from its
            // offset lie inside its device buffer, which it keeps alive (and
            // unwritten) until the copy, queued in order after the work that
            // wrote it, has been waited for below; `dst` holds `n` elements.
            let result = unsafe {
                sys::cuMemcpyDtoHAsync_v2(
                    dst.as_mut_ptr().cast::<c_void>(),
                    start,
                    n * size_of::<T>(),
                    state.stream.as_inner(),
                )
            };
            check(result, "copying to the host")?;
            state.synchronize()?;
        }
        Ok(Tensor::from_buffer(
            host,
            StridedLayout::contiguous(self.layout.size_array().clone()),
        ))
    }
}

impl<T: Element, S: Shape, R: Repr> Tensor<T, S, Cuda, R> {
    /// A contiguous copy on `gpu`, which may be another CUDA device
    /// (PyTorch's `x.to("cuda:1")`; on the same device, a copy there).
    /// Strided views are made contiguous on their own device first.
    ///
    /// ```no_run
    /// use shaped::prelude::*;
    /// let (gpu0, gpu1) = (Cuda::new(0)?, Cuda::new(1)?);
    /// let x = Tensor::<f32, shape![2, 3]>::ones().to_device(&gpu0)?;
    /// let y = x.t().to_device(&gpu1)?;
    /// assert_eq!(y.device(), Device::Cuda(1));
    /// assert_eq!(y.to_cpu()?.to_vec(), vec![1.0; 6]);
    /// # Ok::<(), shaped::Error>(())
    /// ```
    pub fn to_device(&self, gpu: &Cuda) -> Result<Tensor<T, S, Cuda>, Error> {
        let layout = StridedLayout::contiguous(self.layout.size_array().clone());
        if self.device() == gpu.device() {
            let copy = Cuda::map1(self.strided(), Identity)?;
            return Ok(Tensor::from_buffer(copy, layout));
        }
        let dense = self.try_contiguous_in(MemoryFormat::Contiguous)?;
        let source = dense.data.ptr();
        let n = self.numel();
        let buffer = CudaBuffer::<T>::uninit(gpu.index, n)?;
        if n > 0 {
            let (from, to) = (super::state(source.device)?, buffer.state()?);
            // The copy is queued on the destination's stream: the source's
            // stream must have written `dense` first.
            from.synchronize()?;
            to.make_current()?;
            let start = source.addr + (dense.layout.offset() * size_of::<T>()) as u64;
            // SAFETY: `dense` is contiguous, so its `n` elements from its
            // offset lie inside its buffer on the source device, written
            // (the source stream was waited for) and kept alive until the
            // copy has been waited for below; the new buffer holds `n`
            // elements on the destination device. Both contexts are the
            // devices' primary contexts, opened for the life of the process.
            let result = unsafe {
                sys::cuMemcpyPeerAsync(
                    buffer.ptr().addr,
                    to.context.as_raw(),
                    start,
                    from.context.as_raw(),
                    n * size_of::<T>(),
                    to.stream.as_inner(),
                )
            };
            check(result, "copying between devices")?;
            to.synchronize()?;
        }
        Ok(Tensor::from_buffer(buffer, layout))
    }
}

impl<R: Repr> AnyTensor<Cpu, R> {
    /// A contiguous copy on `gpu`, of the same dtype (PyTorch's
    /// `x.to("cuda:0")`).
    ///
    /// ```no_run
    /// use shaped::prelude::*;
    /// use shaped::dtype::Scalar;
    /// let gpu = Cuda::new(0)?;
    /// let x = AnyTensor::from(DynTensor::<i32>::from_vec(vec![1, 2], &[2])?).to_device(&gpu)?;
    /// let y = x.try_mul(Scalar::Float(0.5))?; // on the GPU, float32
    /// assert_eq!(y.to_cpu()?.to_scalars(), vec![Scalar::Float(0.5), Scalar::Float(1.0)]);
    /// # Ok::<(), shaped::Error>(())
    /// ```
    pub fn to_device(&self, gpu: &Cuda) -> Result<AnyTensor<Cuda>, Error> {
        Ok(any_tensor!(@each self, x => AnyTensor::from(x.to_device(gpu)?)))
    }
}

impl<R: Repr> AnyTensor<Cuda, R> {
    /// A contiguous copy in host memory (PyTorch's `x.cpu()`); waits for
    /// the device, so a failure of earlier work on it shows up here.
    ///
    /// ```no_run
    /// use shaped::prelude::*;
    /// let gpu = Cuda::new(0)?;
    /// let x = AnyTensor::from(DynTensor::<u8>::ones(&[3])).to_device(&gpu)?;
    /// assert_eq!(x.to_cpu()?.downcast::<u8>()?.to_vec(), vec![1, 1, 1]);
    /// # Ok::<(), shaped::Error>(())
    /// ```
    pub fn to_cpu(&self) -> Result<AnyTensor, Error> {
        Ok(any_tensor!(@each self, x => AnyTensor::from(x.to_cpu()?)))
    }

    /// A contiguous copy on `gpu`, which may be another CUDA device.
    ///
    /// ```no_run
    /// use shaped::prelude::*;
    /// let gpu = Cuda::new(0)?;
    /// let x = AnyTensor::from(DynTensor::<f32>::ones(&[3])).to_device(&gpu)?;
    /// assert_eq!(x.to_device(&gpu)?.device(), Device::Cuda(0));
    /// # Ok::<(), shaped::Error>(())
    /// ```
    pub fn to_device(&self, gpu: &Cuda) -> Result<AnyTensor<Cuda>, Error> {
        Ok(any_tensor!(@each self, x => AnyTensor::from(x.to_device(gpu)?)))
    }
}

impl<T: Element, S: Shape> Tensor<T, S, Cuda> {
    /// A tensor of `sizes` on `gpu` with every element `value`; `Err` when
    /// the sizes contradict the shape or the memory cannot be had.
    ///
    /// ```no_run
    /// use shaped::prelude::*;
    /// let gpu = Cuda::new(0)?;
    /// let x = DynTensor::<f32, Cuda>::full_on(&gpu, &[1 << 20], 1.5)?;
    /// assert_eq!(x.numel(), 1 << 20);
    /// # Ok::<(), shaped::Error>(())
    /// ```
    pub fn full_on(gpu: &Cuda, sizes: &[usize], value: T) -> Result<Self, Error> {
        let sizes = S::check_sizes(sizes)?;
        checked_storage(sizes.as_ref(), size_of::<T>())?;
        check_contiguous_strides(sizes.as_ref())?;
        let numel = checked_numel(sizes.as_ref())?;
        let buffer = CudaBuffer::uninit(gpu.index, numel)?;
        let tensor = Tensor::<T, S, Cuda>::from_buffer(buffer, StridedLayout::contiguous(sizes));
        let out = StridedMut {
            ptr: tensor.data.buffer.ptr(),
            sizes: tensor.layout.sizes(),
            strides: tensor.layout.strides(),
            offset: 0,
        };
        Cuda::update1(out, Constant(value))?;
        Ok(tensor)
    }
}
