//! `softmax`, `log_softmax`, `logsumexp` and the moments on the device, each
//! one launch of the reduction kernel (`kernels/reduce.cuh`): the softmax's
//! blocks take each output's running maximum and sum of exponentials, then
//! write its elements (a row is read twice, the second time from the L2
//! cache); `logsumexp` keeps the same pair; the variance Welford's count,
//! mean and sum of squares, combined across lanes and chunks by Chan's
//! formula; `vector_norm` of order 0, 1, 2 and ±inf a sum or an extreme of
//! the magnitudes (other orders composed: `pow`, a sum, `pow`).

use super::reduce::{Extra, FLAG_STD, outputs, run_reduce, run_softmax};
use super::{Cuda, CudaBuffer};
use crate::backend::{BufferPair, Normalizing, SoftmaxFloat, StridedRef};
use crate::error::Error;
use crate::layout::checked_numel;
use crate::ops::op_codes::ReduceOp;

impl Normalizing for Cuda {
    fn softmax<T: SoftmaxFloat>(
        x: StridedRef<'_, T, Cuda>,
        dim: usize,
        log: bool,
    ) -> Result<CudaBuffer<T>, Error> {
        let out = CudaBuffer::<T>::uninit(x.ptr.device, checked_numel(x.sizes)?)?;
        run_softmax(x, dim, log, out.ptr().addr)?;
        Ok(out)
    }

    fn logsumexp<T: SoftmaxFloat>(
        x: StridedRef<'_, T, Cuda>,
        mask: &[bool],
    ) -> Result<CudaBuffer<T>, Error> {
        let out = CudaBuffer::<T>::uninit(x.ptr.device, outputs(x.sizes, mask)?)?;
        let extra = Extra::default();
        run_reduce(ReduceOp::LogSumExp, x, mask, extra, out.ptr().addr, 0)?;
        Ok(out)
    }

    fn moments<T: SoftmaxFloat>(
        x: StridedRef<'_, T, Cuda>,
        mask: &[bool],
        correction: f64,
        std: bool,
    ) -> Result<BufferPair<T, Cuda>, Error> {
        let n = outputs(x.sizes, mask)?;
        let spread = CudaBuffer::<T>::uninit(x.ptr.device, n)?;
        let mean = CudaBuffer::<T>::uninit(x.ptr.device, n)?;
        let extra = Extra {
            param: correction,
            flags: if std { FLAG_STD } else { 0 },
        };
        let (out, beside) = (spread.ptr().addr, mean.ptr().addr);
        run_reduce(ReduceOp::Var, x, mask, extra, out, beside)?;
        Ok((spread, mean))
    }

    fn vector_norm<T: SoftmaxFloat>(
        x: StridedRef<'_, T, Cuda>,
        ord: f64,
        mask: &[bool],
    ) -> Result<CudaBuffer<T>, Error> {
        // The kernel's NORM_* orders.
        let order = match ord {
            0.0 => 0,
            1.0 => 1,
            2.0 => 2,
            f64::INFINITY => 3,
            f64::NEG_INFINITY => 4,
            _ => return crate::ops::norms::composed_vector_norm(x, ord, mask),
        };
        let out = CudaBuffer::<T>::uninit(x.ptr.device, outputs(x.sizes, mask)?)?;
        let extra = Extra {
            param: 0.0,
            flags: order,
        };
        run_reduce(ReduceOp::Norm, x, mask, extra, out.ptr().addr, 0)?;
        Ok(out)
    }
}
