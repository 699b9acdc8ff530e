//! `softmax` and `log_softmax` on the device, composed of the reduction and
//! elementwise kernels: the maxima along the dim (`amax`), `x - max`, its
//! `exp`, the sums, then a division (or `x - max - ln(sum)`): five
//! launches, each over the whole tensor or its reduced shape. Correct for
//! every layout; a fused kernel (one block per row, as PyTorch's) is the
//! next step for speed.

use super::{Cuda, CudaBuffer};
use crate::backend::{Elementwise, Normalizing, Reductions, SoftmaxFloat, StridedRef};
use crate::error::Error;
use crate::layout::contiguous_strides;
use crate::ops::functions::{Div, Sub};
use crate::ops::math::{Exp, Ln};
use crate::ops::reductions::reducers::{Extreme, Largest, Sum};

impl Normalizing for Cuda {
    fn softmax<T: SoftmaxFloat>(
        x: StridedRef<'_, T, Cuda>,
        dim: usize,
        log: bool,
    ) -> Result<CudaBuffer<T>, Error> {
        let sizes = x.sizes;
        let mut mask = vec![false; sizes.len()];
        mask[dim] = true;
        let dense = contiguous_strides::<Vec<usize>>(sizes);
        // A reduced buffer (contiguous over the kept sizes) broadcast back
        // along `dim`.
        let mut kept = sizes.to_vec();
        kept[dim] = 1;
        let mut along = contiguous_strides::<Vec<usize>>(&kept);
        along[dim] = 0;
        let view = |b: &CudaBuffer<T>, strides| StridedRef {
            ptr: b.ptr(),
            sizes,
            strides,
            offset: 0,
        };
        let maxima = Cuda::reduce(x, &mask, Extreme::<Largest>::default())?;
        let shifted = Cuda::map2(sizes, x, view(&maxima, &along), Sub)?;
        let exps: CudaBuffer<T> = Cuda::map1(view(&shifted, &dense), Exp)?;
        let sums: CudaBuffer<T> = Cuda::reduce(view(&exps, &dense), &mask, Sum)?;
        if log {
            let logs: CudaBuffer<T> = Cuda::map1(
                StridedRef {
                    ptr: sums.ptr(),
                    sizes: &kept,
                    strides: &contiguous_strides::<Vec<usize>>(&kept),
                    offset: 0,
                },
                Ln,
            )?;
            Cuda::map2(sizes, view(&shifted, &dense), view(&logs, &along), Sub)
        } else {
            Cuda::map2(sizes, view(&exps, &dense), view(&sums, &along), Div)
        }
    }
}
