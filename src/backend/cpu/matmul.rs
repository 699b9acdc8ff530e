//! The CPU matrix products.
//!
//! Floating and complex products run on the `gemm` family of crates (one
//! per type: `gemm-f32`, `gemm-f64`, `gemm-c32`, `gemm-c64`): they take any
//! row and column strides (so transposed and sliced operands are read in
//! place, without a copy), have AVX-512/AVX2 kernels chosen at run time,
//! cover f32, f64, complex64 and complex128 with one interface, and split
//! a large product across rayon's pool, the library's own.
//! (`matrixmultiply`, the other candidate, also takes strides, but its
//! kernels stop at AVX2 and its threading uses a pool of its own.) float16 and bfloat16
//! compute in f32 and round once, as PyTorch's CPU kernels do. Integers use
//! a blocked loop of ours with wrapping arithmetic: the product modulo 2^n
//! is the same whatever the accumulation width, so it equals PyTorch's.

use crate::backend::MatmulBackend;
use crate::backend::cpu::parallel::for_each_index;
use crate::backend::cpu::{CpuBuffer, try_vec_with_capacity};
use crate::backend::{Cpu, StridedRef};
use crate::dtype::{Element, Numeric};
use crate::error::Error;
use crate::layout::checked_numel;
use crate::ops::matmul::plan::{MatmulPlan, MatrixStrides};
use core::mem::MaybeUninit;
use half::{bf16, f16};
use num_complex::Complex;
use std::sync::{Mutex, PoisonError};

/// Products with at least this many multiply-adds (`m * k * n`) are split
/// across threads; smaller ones run on one.
pub const PARALLEL_MIN_MKN: usize = 64 * 64 * 64;

/// A batch of products each smaller than this (`m * k * n`) is shared out
/// product by product across threads, rather than splitting each product.
pub const BATCH_PARALLEL_MAX_MKN: usize = 256 * 256 * 256;

/// One `m x k` times `k x n` product into `m` rows of `n` contiguous
/// elements. Only this crate makes them, from a checked plan, with `m`, `k`
/// and `n` all at least 1: every index `i * rows + j * cols` of an operand
/// lies in its buffer (so `a` and `b` point at elements), and `out` has
/// room for `m * n` elements that nothing else touches.
#[doc(hidden)]
#[derive(Copy, Clone, Debug)]
pub struct Product<T> {
    pub(crate) m: usize,
    pub(crate) k: usize,
    pub(crate) n: usize,
    pub(crate) a: *const T,
    pub(crate) a_strides: MatrixStrides,
    pub(crate) b: *const T,
    pub(crate) b_strides: MatrixStrides,
    pub(crate) out: *mut T,
    pub(crate) threads: usize,
}

/// Element types with a matrix product: every numeric type PyTorch
/// multiplies on the CPU (bool has none: PyTorch's `"addmm_impl_cpu_" not
/// implemented for 'Bool'`).
///
/// ```
/// use shaped::prelude::*;
/// let a = tensor![[1u8, 2], [3, 4]];
/// assert_eq!(a.matmul(&a).to_vec(), vec![7, 10, 15, 22]);
/// ```
#[diagnostic::on_unimplemented(
    message = "matmul: there is no matrix product of `{Self}` elements",
    label = "PyTorch has no CPU matrix product for this element type",
    note = "PyTorch: \"addmm_impl_cpu_\" not implemented for 'Bool'; cast to an integer type first"
)]
pub trait MatmulElement: Element {
    /// Computes one product, writing every element of its output; `Err`
    /// (PyTorch's out-of-memory text) when scratch memory it needs (float16
    /// and bfloat16 widen their operands to f32) cannot be allocated, and
    /// then the output may be left unwritten.
    ///
    /// # Safety
    /// `p` must come from this crate's plan (see [`Product`]).
    #[doc(hidden)]
    unsafe fn product(p: Product<Self>) -> Result<(), Error>;
}

/// The gemm crates' parallelism for `threads`.
fn parallelism(threads: usize) -> gemm_common::Parallelism {
    if threads > 1 {
        gemm_common::Parallelism::Rayon(threads)
    } else {
        gemm_common::Parallelism::None
    }
}

/// A product's arguments in the order gemm's kernels prefer: they want a
/// column-major destination, so a row-major `out` (row stride `n`, column
/// stride 1) is computed as its transpose, `b^T a^T` (what `gemm::gemm`
/// does before it dispatches). Returns `(m, n, dst_cs, dst_rs, lhs, lhs_cs,
/// lhs_rs, rhs, rhs_cs, rhs_rs)`.
#[allow(clippy::type_complexity)]
fn column_major<T>(
    p: &Product<T>,
) -> (
    usize,
    usize,
    isize,
    isize,
    *const T,
    isize,
    isize,
    *const T,
    isize,
    isize,
) {
    let (a, b) = (p.a_strides, p.b_strides);
    if p.n > 1 {
        (
            p.n,
            p.m,
            p.n as isize,
            1,
            p.b,
            b.rows as isize,
            b.cols as isize,
            p.a,
            a.rows as isize,
            a.cols as isize,
        )
    } else {
        (
            p.m,
            p.n,
            1,
            p.n as isize,
            p.a,
            a.cols as isize,
            a.rows as isize,
            p.b,
            b.cols as isize,
            b.rows as isize,
        )
    }
}

/// `MatmulElement` for the types of the gemm family, each through its own
/// crate's kernel (`$kernels::get_gemm_fn()`), so a product instantiates
/// only its own type's kernels. (A debug program still links the objects of
/// all four crates: rustc's shared generic instances, such as
/// `Complex::<f64>::new`, are taken from whichever crate exported them
/// first, and those objects reference the rest of their crate.)
macro_rules! gemm_product {
    ($($t:ty => $kernels:path),*) => {$(
        impl MatmulElement for $t {
            unsafe fn product(p: Product<Self>) -> Result<(), Error> {
                use $kernels as kernels;
                let (m, n, dst_cs, dst_rs, lhs, lhs_cs, lhs_rs, rhs, rhs_cs, rhs_rs) =
                    column_major(&p);
                // SAFETY: the caller guarantees every operand index of the
                // product lies in its buffer and `out` holds `m * n`
                // elements of its own; the kernel reads `a` and `b` at
                // exactly those indices (here as `b^T a^T`, the same
                // elements) and, with `read_dst` false, only writes `out`.
                // Strides fit in `isize`: each is 0 or the step between two
                // elements of one allocation (`matmul_buffer` sets those of
                // dimensions of size 1 to 0; the widened products pass
                // contiguous ones), and an allocation never exceeds
                // `isize::MAX` bytes; none is negative.
                unsafe {
                    kernels::get_gemm_fn()(
                        m,
                        n,
                        p.k,
                        p.out,
                        dst_cs,
                        dst_rs,
                        false,
                        lhs,
                        lhs_cs,
                        lhs_rs,
                        rhs,
                        rhs_cs,
                        rhs_rs,
                        <$t as Element>::ZERO,
                        <$t as Element>::ONE,
                        false,
                        false,
                        false,
                        parallelism(p.threads),
                    )
                }
                Ok(())
            }
        }
    )*};
}
gemm_product!(
    f32 => gemm_f32::gemm::f32,
    f64 => gemm_f64::gemm::f64
);
#[cfg(feature = "complex-gemm")]
gemm_product!(
    Complex<f32> => gemm_c32::gemm::f32,
    Complex<f64> => gemm_c64::gemm::f64
);

/// Complex products without the `complex-gemm` feature: four real products
/// by the real type's kernel, over the real and imaginary parts in place
/// (`re = ar br - ai bi`, `im = ar bi + ai br`; a `Complex<T>` is `[T; 2]`
/// in memory, so each part is the real matrix with doubled strides). About
/// 1.2-1.45x the time of gemm's complex kernels, which `complex-gemm` adds at
/// 16 s of CPU time in a dependent's first build (docs/design.md). (Real
/// products over contiguous copies of the parts were slower still, 2.2x.)
#[cfg(not(feature = "complex-gemm"))]
macro_rules! complex_by_real_products {
    ($($t:ty => $kernels:path),*) => {$(
        impl MatmulElement for Complex<$t> {
            unsafe fn product(p: Product<Self>) -> Result<(), Error> {
                use $kernels as kernels;
                let (m, n, dst_cs, dst_rs, lhs, lhs_cs, lhs_rs, rhs, rhs_cs, rhs_rs) =
                    column_major(&p);
                let gemm = kernels::get_gemm_fn();
                // A part of a complex matrix as a real one: its first real
                // (`imag` false) or imaginary element, every stride doubled.
                let part = |ptr: *const Complex<$t>, imag: bool| {
                    ptr.cast::<$t>().wrapping_add(usize::from(imag))
                };
                let out = p.out.cast::<$t>();
                // (a's imaginary part?, b's?, accumulate?, into the
                // imaginary part?, sign): `re = ar br`, `re -= ai bi`,
                // `im = ar bi`, `im += ai br`.
                let steps = [
                    (false, false, false, false, 1.0),
                    (true, true, true, false, -1.0),
                    (false, true, false, true, 1.0),
                    (true, false, true, true, 1.0),
                ];
                for (a_imag, b_imag, read_dst, dst_imag, sign) in steps {
                    // `column_major` passes `b^T a^T` when `n > 1`.
                    let (lhs_imag, rhs_imag) = if p.n > 1 { (b_imag, a_imag) } else { (a_imag, b_imag) };
                    // SAFETY: as `gemm_product`'s call: every index the
                    // kernel reads is an operand index of the product, here
                    // `2 * index` (+ 1 for an imaginary part) of the
                    // operand's buffer seen as `2 * len` reals, which
                    // `Complex<T>` (`#[repr(C)]`, two `T`s) is; it writes
                    // `out`'s parts the same way, and with `read_dst` reads
                    // only parts it wrote in an earlier step. Doubled
                    // strides fit in `isize`: a `Complex<T>` has at least 8
                    // bytes, so twice a stride in elements is at most the
                    // stride in bytes within one allocation.
                    unsafe {
                        gemm(
                            m,
                            n,
                            p.k,
                            out.wrapping_add(usize::from(dst_imag)),
                            2 * dst_cs,
                            2 * dst_rs,
                            read_dst,
                            part(lhs, lhs_imag),
                            2 * lhs_cs,
                            2 * lhs_rs,
                            part(rhs, rhs_imag),
                            2 * rhs_cs,
                            2 * rhs_rs,
                            if read_dst { 1.0 } else { 0.0 },
                            sign,
                            false,
                            false,
                            false,
                            parallelism(p.threads),
                        )
                    }
                }
                Ok(())
            }
        }
    )*};
}
#[cfg(not(feature = "complex-gemm"))]
complex_by_real_products!(f32 => gemm_f32::gemm::f32, f64 => gemm_f64::gemm::f64);

/// `rows x cols` elements of a strided matrix, each through `f` (widened
/// to f32, or one part of a complex number), row-major; `Err` when the
/// memory cannot be had.
///
/// # Safety
/// Every index `i * strides.rows + j * strides.cols` lies in the buffer at `ptr`.
unsafe fn gather<T: Copy, U>(
    ptr: *const T,
    rows: usize,
    cols: usize,
    strides: MatrixStrides,
    f: impl Fn(T) -> U,
) -> Result<Vec<U>, Error> {
    // `rows * cols` elements of the operand exist, so the count fits.
    let mut out = try_vec_with_capacity(rows * cols)?;
    for i in 0..rows {
        for j in 0..cols {
            // SAFETY: an index of the matrix, in the buffer by the contract.
            out.push(f(unsafe { *ptr.add(i * strides.rows + j * strides.cols) }));
        }
    }
    Ok(out)
}

macro_rules! widened_product {
    ($($t:ty),*) => {$(
        impl MatmulElement for $t {
            unsafe fn product(p: Product<Self>) -> Result<(), Error> {
                let Product { m, k, n, .. } = p;
                // SAFETY: the plan's indices of both operands are in bounds.
                let (a, b) = unsafe {
                    (
                        gather(p.a, m, k, p.a_strides, <$t>::to_f32)?,
                        gather(p.b, k, n, p.b_strides, <$t>::to_f32)?,
                    )
                };
                let mut out = try_vec_with_capacity::<f32>(m * n)?;
                out.resize(m * n, 0.0);
                // SAFETY: contiguous row-major f32 matrices of the product's
                // sizes (none 0), and an output of `m * n` elements of its
                // own.
                unsafe {
                    f32::product(Product {
                        m,
                        k,
                        n,
                        a: a.as_ptr(),
                        a_strides: MatrixStrides { rows: k, cols: 1 },
                        b: b.as_ptr(),
                        b_strides: MatrixStrides { rows: n, cols: 1 },
                        out: out.as_mut_ptr(),
                        threads: p.threads,
                    })?
                };
                for (i, &x) in out.iter().enumerate() {
                    // SAFETY: `out` of the product holds `m * n` elements.
                    unsafe { p.out.add(i).write(<$t>::from_f32(x)) };
                }
                Ok(())
            }
        }
    )*};
}
widened_product!(f16, bf16);

/// Rows of `b` taken together by the integer product, so that they stay in
/// cache while every row of `a` passes over them.
const INTEGER_BLOCK_K: usize = 128;

/// The integer product: for each block of `k`, each row of `a` adds its
/// multiples of `b`'s rows into the output row (wrapping, as PyTorch).
///
/// # Safety
/// As [`MatmulElement::product`].
unsafe fn integer_product<T: Numeric>(p: Product<T>) {
    let Product { m, k, n, .. } = p;
    for i in 0..m * n {
        // SAFETY: `out` holds `m * n` elements.
        unsafe { p.out.add(i).write(T::ZERO) };
    }
    for k0 in (0..k).step_by(INTEGER_BLOCK_K) {
        for i in 0..m {
            // SAFETY: row `i` of the output, initialized above, is `n`
            // elements that only this product writes.
            let row = unsafe { core::slice::from_raw_parts_mut(p.out.add(i * n), n) };
            for kk in k0..(k0 + INTEGER_BLOCK_K).min(k) {
                // SAFETY: index (i, kk) of `a` and row `kk` of `b` are
                // indices of the plan, in bounds by the contract.
                let aik = unsafe { *p.a.add(i * p.a_strides.rows + kk * p.a_strides.cols) };
                // SAFETY: the start of row `kk` of `b`, index (kk, 0) of the
                // plan (`n` is at least 1), in bounds by the contract.
                let b_row = unsafe { p.b.add(kk * p.b_strides.rows) };
                if p.b_strides.cols == 1 {
                    // SAFETY: a contiguous row of `n` elements of `b`.
                    let b_row = unsafe { core::slice::from_raw_parts(b_row, n) };
                    for (o, &x) in row.iter_mut().zip(b_row) {
                        *o = T::add(*o, T::mul(aik, x));
                    }
                } else {
                    for (j, o) in row.iter_mut().enumerate() {
                        // SAFETY: index (kk, j) of `b`.
                        let x = unsafe { *b_row.add(j * p.b_strides.cols) };
                        *o = T::add(*o, T::mul(aik, x));
                    }
                }
            }
        }
    }
}

macro_rules! integer_element {
    ($($t:ty),*) => {$(
        impl MatmulElement for $t {
            unsafe fn product(p: Product<Self>) -> Result<(), Error> {
                // SAFETY: the caller's contract is the same.
                unsafe { integer_product(p) };
                Ok(())
            }
        }
    )*};
}
integer_element!(u8, i8, i16, i32, i64);

/// A raw address shared by the threads of one product, each writing a part
/// of its own.
#[derive(Copy, Clone)]
struct Shared<T>(*mut T);
// SAFETY: the threads of one batch read the operands (elements are
// `Send + Sync`) and write disjoint output products.
unsafe impl<T: Send + Sync> Send for Shared<T> {}
// SAFETY: as above.
unsafe impl<T: Send + Sync> Sync for Shared<T> {}
impl<T> Shared<T> {
    fn get(self) -> *mut T {
        self.0
    }
}

impl MatmulBackend for Cpu {
    fn matmul_buffer<T: MatmulElement>(
        plan: &MatmulPlan,
        a: StridedRef<'_, T, Cpu>,
        b: StridedRef<'_, T, Cpu>,
    ) -> Result<CpuBuffer<T>, Error> {
        let len = checked_numel(plan.out_sizes())?;
        let (m, k, n) = plan.mkn();
        if len == 0 || k == 0 {
            // Nothing to read: no products run, so no pointer into an
            // operand is formed (an empty operand's offset may lie past its
            // storage). A sum of no terms is 0.
            return CpuBuffer::try_full(len, T::ZERO);
        }
        let count = plan.batch_count();
        let mkn = m.saturating_mul(k).saturating_mul(n);
        // A dimension of size 1 takes no steps, so its stride may be
        // anything a layout allows (even more than the `isize` the gemm
        // kernels take): it is set to 0. Every other stride steps between
        // elements of a non-empty operand, so it is below the operand's
        // storage length, at most `isize::MAX`.
        let step = |size: usize, stride: usize| if size > 1 { stride } else { 0 };
        let a_strides = MatrixStrides {
            rows: step(m, plan.a.rows),
            cols: step(k, plan.a.cols),
        };
        let b_strides = MatrixStrides {
            rows: step(k, plan.b.rows),
            cols: step(n, plan.b.cols),
        };
        let threads = rayon::current_num_threads();
        // Neither operand is empty (`m`, `k`, `n` and the batch are all at
        // least 1, since the output has elements and `k` is not 0), so each
        // offset is an index of its operand's layout, inside its buffer (the
        // tensor invariant, checked when the layout was attached to the
        // tensor).
        // SAFETY: the offsets are the operands' own, inside their buffers.
        let a_start = Shared(unsafe { a.ptr.as_ptr().add(a.offset) });
        // SAFETY: as above.
        let b_start = Shared(unsafe { b.ptr.as_ptr().add(b.offset) });
        let failed: Mutex<Option<Error>> = Mutex::new(None);
        let fill = |out: &mut [MaybeUninit<T>]| {
            let out = Shared(out.as_mut_ptr().cast::<T>());
            let run = |index: usize, threads: usize| {
                let (a_offset, b_offset) = plan.batch_offsets(index);
                // SAFETY: the plan comes from checked operands, so each
                // product's indices lie in the operands' buffers (the batch
                // offsets are those of element (0, 0) of product `index`,
                // an element: no size is 0); product `index` owns output
                // elements `index * m * n ..` of the `count * m * n`
                // allocated, which it writes before anything reads them.
                let done = unsafe {
                    T::product(Product {
                        m,
                        k,
                        n,
                        a: a_start.get().add(a_offset),
                        a_strides,
                        b: b_start.get().add(b_offset),
                        b_strides,
                        out: out.get().add(index * m * n),
                        threads,
                    })
                };
                if let Err(e) = done {
                    failed
                        .lock()
                        .unwrap_or_else(PoisonError::into_inner)
                        .get_or_insert(e);
                }
            };
            if count > 1 && threads > 1 && mkn < BATCH_PARALLEL_MAX_MKN {
                for_each_index(count, &|i| run(i, 1));
            } else {
                let threads = if mkn >= PARALLEL_MIN_MKN { threads } else { 1 };
                (0..count).for_each(|i| run(i, threads));
            }
            match failed.lock().unwrap_or_else(PoisonError::into_inner).take() {
                Some(e) => Err(e),
                None => Ok(()),
            }
        };
        // SAFETY: when no product failed, every product wrote its `m * n`
        // elements, and the `count` products cover the output.
        unsafe { CpuBuffer::try_new_fallible(len, fill) }
    }
}

#[cfg(test)]
mod tests {
    use super::MatmulElement;
    use crate::prelude::*;

    /// Empty operands whose storage offset is far into (or past the end of)
    /// their storage: no pointer is formed from their offsets, and the
    /// results are PyTorch's (empty, or zeros for an empty sum).
    fn empty_operands<T: MatmulElement>() {
        let a = DynTensor::<T>::zeros(&[4, 8]);
        // (0, 8) at offset 32, one past the last element.
        let rows = a.narrow(0, 4, 0).unwrap();
        assert_eq!(rows.shape(), [0, 8]);
        assert_eq!(rows.storage_offset(), 32);
        let b = DynTensor::<T>::ones(&[8, 3]);
        let c = rows.matmul(&b).unwrap();
        assert_eq!(c.shape(), [0, 3]);
        assert!(c.to_vec().is_empty());
        // k = 0: (4, 0) at offset 8 times (0, 3) at offset 9.
        let a0 = a.narrow(1, 8, 0).unwrap();
        let ones = DynTensor::<T>::ones(&[3, 3]);
        let b0 = ones.narrow(0, 3, 0).unwrap();
        assert_eq!(b0.storage_offset(), 9);
        let c = a0.matmul(&b0).unwrap();
        assert_eq!(c.shape(), [4, 3]);
        assert_eq!(c.to_vec(), vec![T::ZERO; 12]);
        // A batch of none, and a vector of none.
        let batches = DynTensor::<T>::zeros(&[2, 4, 8]);
        let batch = batches.narrow(0, 2, 0).unwrap();
        assert_eq!(batch.matmul(&b).unwrap().shape(), [0, 4, 3]);
        let eight = DynTensor::<T>::zeros(&[8]);
        let v = eight.narrow(0, 8, 0).unwrap();
        assert_eq!(v.matmul(&b0).unwrap().to_vec(), vec![T::ZERO; 3]);
        assert_eq!(v.matmul(&v).unwrap().to_vec(), vec![T::ZERO]);
    }

    #[test]
    fn empty_operands_with_large_offsets() {
        empty_operands::<f32>();
        empty_operands::<f64>();
        empty_operands::<half::f16>();
        empty_operands::<i32>();
        empty_operands::<num_complex::Complex<f32>>();
    }
}
