//! `Elementwise` for [`Cuda`]: every elementwise operation, copy and fill as
//! one launch of a kernel of `kernels/*.cu`; `cat` and `stack` as one copy
//! launch per part.

use super::launch::{BLOCK, Input, Operand, Types, launch_on, plan, queue};
use super::select::{TernaryOperands, WhereOperands, plan_ternary, plan_where};
use super::{Cuda, CudaBuffer, CudaPtr};
use crate::backend::StridedRef;
use crate::backend::{Elementwise, StridedMut};
use crate::device::Device;
use crate::dtype::Element;
use crate::error::Error;
use crate::layout::numel;
use crate::ops::functions::{BinaryFn, TernaryFn, UnaryFn};
use crate::ops::op_codes::TernaryOp;
use crate::ops::op_codes::{KernelOp, OpCode};

/// The kernel for an element function, or `Err` when it has none.
fn kernel_op<F>(op: Option<KernelOp>) -> Result<KernelOp, Error> {
    op.ok_or(Error::NoDeviceKernel {
        function: core::any::type_name::<F>(),
    })
}

/// The kernel of a function of three operands, or `Err` when it has none.
fn ternary_op<F>(op: Option<TernaryOp>) -> Result<TernaryOp, Error> {
    op.ok_or(Error::NoDeviceKernel {
        function: core::any::type_name::<F>(),
    })
}

fn operand_of<T>(ptr: CudaPtr<T>, offset: usize, strides: &[usize]) -> Operand<'_> {
    Operand {
        addr: ptr.addr,
        offset,
        strides,
    }
}

/// Plans and queues `shaped_ternary_<dtype>` on `device`.
///
/// # Safety
/// Every operand's layout over `sizes` lies inside its buffer on `device`,
/// the output's indices are distinct, and nothing else writes the output
/// (or reads it, unless it is `a`) until the launch completes.
unsafe fn launch_ternary(
    device: usize,
    sizes: &[usize],
    op: TernaryOp,
    operands: TernaryOperands<'_>,
) -> Result<(), Error> {
    let Some(launch) = plan_ternary(sizes, op, operands)? else {
        return Ok(());
    };
    let state = super::state(device)?;
    state.make_current()?;
    let function = state.function(&launch.kernel)?;
    let grid = launch.grid(
        BLOCK,
        state.resident_blocks(&launch.kernel, &function, BLOCK)?,
    );
    // SAFETY: the kernels of three operands take one `shaped::TernaryArgs`
    // by value, which `TernaryArgs` mirrors field for field (`repr(C)`,
    // checked by the host tests); its addresses are the caller's (this
    // function's contract).
    unsafe { queue(state, &function, grid, BLOCK, launch.args) }
}

fn memory<T>(ptr: CudaPtr<T>, offset: usize, strides: &[usize]) -> Input<'_> {
    Input::Memory(Operand {
        addr: ptr.addr,
        offset,
        strides,
    })
}

/// Plans and queues `out = op(a, b)` on `out`'s device.
fn run(
    op: KernelOp,
    types: Types,
    sizes: &[usize],
    out: Operand<'_>,
    device: usize,
    a: Input<'_>,
    b: Input<'_>,
) -> Result<(), Error> {
    match plan(op, types, sizes, out, a, b)? {
        Some(launch) => launch_on(super::state(device)?, &launch),
        None => Ok(()),
    }
}

/// A new contiguous buffer of `sizes` on `device`, and its strides.
pub(super) fn output<U: Element>(
    device: usize,
    sizes: &[usize],
) -> Result<(CudaBuffer<U>, Vec<usize>), Error> {
    let buffer = CudaBuffer::uninit(device, numel(sizes))?;
    // Saturating: with a size 0 the others may multiply past `usize`, and
    // then no element is addressed.
    let strides: Vec<usize> = crate::layout::contiguous_strides(sizes);
    Ok((buffer, strides))
}

impl Elementwise for Cuda {
    fn map1<A: Element, U: Element, F: UnaryFn<A, U>>(
        a: StridedRef<'_, A, Cuda>,
        f: F,
    ) -> Result<CudaBuffer<U>, Error> {
        let op = kernel_op::<F>(f.kernel_op())?;
        let device = a.ptr.device;
        let (buffer, strides) = output::<U>(device, a.sizes)?;
        let out = Operand {
            addr: buffer.ptr().addr,
            offset: 0,
            strides: &strides,
        };
        let types = Types::new(A::DTYPE, U::DTYPE);
        let sizes = a.sizes;
        let a = memory(a.ptr, a.offset, a.strides);
        run(op, types, sizes, out, device, a, a)?;
        Ok(buffer)
    }

    fn map2<A: Element, B: Element, U: Element, F: BinaryFn<A, B, U>>(
        sizes: &[usize],
        a: StridedRef<'_, A, Cuda>,
        b: StridedRef<'_, B, Cuda>,
        f: F,
    ) -> Result<CudaBuffer<U>, Error> {
        let op = kernel_op::<F>(f.kernel_op())?;
        let device = a.ptr.device;
        same_device(device, b.ptr.device)?;
        let (buffer, strides) = output::<U>(device, sizes)?;
        let out = Operand {
            addr: buffer.ptr().addr,
            offset: 0,
            strides: &strides,
        };
        let types = Types {
            a: A::DTYPE,
            b: B::DTYPE,
            output: U::DTYPE,
        };
        let (a, b) = (
            memory(a.ptr, a.offset, a.strides),
            memory(b.ptr, b.offset, b.strides),
        );
        run(op, types, sizes, out, device, a, b)?;
        Ok(buffer)
    }

    fn select<A: Element, B: Element, U: Element>(
        sizes: &[usize],
        cond: StridedRef<'_, bool, Cuda>,
        a: StridedRef<'_, A, Cuda>,
        b: StridedRef<'_, B, Cuda>,
    ) -> Result<CudaBuffer<U>, Error> {
        let device = cond.ptr.device;
        same_device(device, a.ptr.device)?;
        same_device(device, b.ptr.device)?;
        let (buffer, strides) = output::<U>(device, sizes)?;
        let operand = |addr, offset, strides| Operand {
            addr,
            offset,
            strides,
        };
        let operands = WhereOperands {
            output: U::DTYPE,
            out: operand(buffer.ptr().addr, 0, &strides),
            cond: operand(cond.ptr.addr, cond.offset, cond.strides),
            a: (A::DTYPE, operand(a.ptr.addr, a.offset, a.strides)),
            b: (B::DTYPE, operand(b.ptr.addr, b.offset, b.strides)),
        };
        let Some(launch) = plan_where(sizes, operands)? else {
            return Ok(buffer);
        };
        let state = super::state(device)?;
        state.make_current()?;
        let function = state.function(&launch.kernel)?;
        let grid = launch.grid(
            BLOCK,
            state.resident_blocks(&launch.kernel, &function, BLOCK)?,
        );
        // SAFETY: the `where` kernels take one `shaped::WhereArgs` by value,
        // which `WhereArgs` mirrors field for field (`repr(C)`, checked by
        // the host tests). Its addresses are the new output of `sizes`'
        // elements of `U` and the three inputs, borrowed by the caller,
        // whose broadcast layouts lie inside their buffers.
        unsafe { queue(state, &function, grid, BLOCK, launch.args) }?;
        Ok(buffer)
    }

    fn update1<T: Element, F: UnaryFn<T, T>>(
        out: StridedMut<'_, T, Cuda>,
        f: F,
    ) -> Result<(), Error> {
        let op = kernel_op::<F>(f.kernel_op())?;
        let (types, target) = in_place(&out);
        let a = Input::Memory(target);
        run(op, types, out.sizes, target, out.ptr.device, a, a)
    }

    fn map3<A: Element, B: Element, C: Element, U: Element, F: TernaryFn<A, B, C, U>>(
        sizes: &[usize],
        a: StridedRef<'_, A, Cuda>,
        b: StridedRef<'_, B, Cuda>,
        c: StridedRef<'_, C, Cuda>,
        f: F,
    ) -> Result<CudaBuffer<U>, Error> {
        let op = ternary_op::<F>(f.kernel_op())?;
        let device = a.ptr.device;
        same_device(device, b.ptr.device)?;
        same_device(device, c.ptr.device)?;
        let (buffer, strides) = output::<U>(device, sizes)?;
        let operands = TernaryOperands {
            output: U::DTYPE,
            out: Operand {
                addr: buffer.ptr().addr,
                offset: 0,
                strides: &strides,
            },
            a: (A::DTYPE, operand_of(a.ptr, a.offset, a.strides)),
            b: (B::DTYPE, operand_of(b.ptr, b.offset, b.strides)),
            c: (C::DTYPE, operand_of(c.ptr, c.offset, c.strides)),
        };
        // SAFETY: the output is the new buffer of `sizes`' elements of `U`;
        // the inputs are borrowed by the caller, their broadcast layouts
        // inside their buffers.
        unsafe { launch_ternary(device, sizes, op, operands) }?;
        Ok(buffer)
    }

    fn update3<T: Element, B: Element, C: Element, F: TernaryFn<T, B, C, T>>(
        out: StridedMut<'_, T, Cuda>,
        b: StridedRef<'_, B, Cuda>,
        c: StridedRef<'_, C, Cuda>,
        f: F,
    ) -> Result<(), Error> {
        let op = ternary_op::<F>(f.kernel_op())?;
        let device = out.ptr.device;
        same_device(device, b.ptr.device)?;
        same_device(device, c.ptr.device)?;
        let target = operand_of(out.ptr, out.offset, out.strides);
        let operands = TernaryOperands {
            output: T::DTYPE,
            out: target,
            a: (T::DTYPE, target),
            b: (B::DTYPE, operand_of(b.ptr, b.offset, b.strides)),
            c: (C::DTYPE, operand_of(c.ptr, c.offset, c.strides)),
        };
        // SAFETY: `out` is an exclusively borrowed writable layout inside its
        // buffer (each thread reads its element of it before writing it, and
        // no two indices share one); `b` and `c` are borrowed by the caller,
        // their layouts broadcast to `out`'s sizes inside their buffers.
        unsafe { launch_ternary(device, out.sizes, op, operands) }
    }

    fn update2<T: Element, B: Element, F: BinaryFn<T, B, T>>(
        out: StridedMut<'_, T, Cuda>,
        b: StridedRef<'_, B, Cuda>,
        f: F,
    ) -> Result<(), Error> {
        let op = kernel_op::<F>(f.kernel_op())?;
        same_device(out.ptr.device, b.ptr.device)?;
        let (mut types, target) = in_place(&out);
        types.b = B::DTYPE;
        let b = memory(b.ptr, b.offset, b.strides);
        run(
            op,
            types,
            out.sizes,
            target,
            out.ptr.device,
            Input::Memory(target),
            b,
        )
    }

    /// One copy launch per part, into its block of the output.
    unsafe fn concatenate<T: Element>(
        parts: &[StridedRef<'_, T, Cuda>],
        axis: usize,
        sizes: &[usize],
    ) -> Result<CudaBuffer<T>, Error> {
        let device = parts[0].ptr.device;
        let (buffer, strides) = output::<T>(device, sizes)?;
        if buffer.is_empty() {
            // No elements: nothing to copy (and, with a size 0, the offsets
            // below could pass the saturated strides).
            return Ok(buffer);
        }
        let copy = KernelOp::new(OpCode::Identity);
        let types = Types::new(T::DTYPE, T::DTYPE);
        let mut start = 0;
        for part in parts.iter().filter(|p| p.sizes.len() == sizes.len()) {
            same_device(device, part.ptr.device)?;
            let out = Operand {
                addr: buffer.ptr().addr,
                offset: start * strides[axis],
                strides: &strides,
            };
            let a = memory(part.ptr, part.offset, part.strides);
            run(copy, types, part.sizes, out, device, a, a)?;
            start += part.sizes[axis];
        }
        Ok(buffer)
    }

    /// One launch of the cast kernel of `B`, into `out`'s strided layout.
    fn copy_into<T: Element, B: Element>(
        out: StridedMut<'_, T, Cuda>,
        src: StridedRef<'_, B, Cuda>,
    ) -> Result<(), Error> {
        same_device(out.ptr.device, src.ptr.device)?;
        let (_, target) = in_place(&out);
        let op = match B::DTYPE == T::DTYPE {
            true => KernelOp::new(OpCode::Identity),
            false => KernelOp::new(OpCode::Cast),
        };
        let a = memory(src.ptr, src.offset, src.strides);
        run(
            op,
            Types::new(B::DTYPE, T::DTYPE),
            out.sizes,
            target,
            out.ptr.device,
            a,
            a,
        )
    }
}

/// The types and the operand of an in-place operation, whose output is
/// also its left input.
fn in_place<'a, T: Element>(out: &StridedMut<'a, T, Cuda>) -> (Types, Operand<'a>) {
    let types = Types::new(T::DTYPE, T::DTYPE);
    let target = Operand {
        addr: out.ptr.addr,
        offset: out.offset,
        strides: out.strides,
    };
    (types, target)
}

/// `Err` (PyTorch's text) when two operands live on different devices.
pub(super) fn same_device(a: usize, b: usize) -> Result<(), Error> {
    if a == b {
        Ok(())
    } else {
        Err(Error::DeviceMismatch {
            a: Device::Cuda(a),
            b: Device::Cuda(b),
        })
    }
}
