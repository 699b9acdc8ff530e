//! `softmax` and `log_softmax` on the CPU: one pass over the input, fused.
//!
//! A contiguous input of sizes `(outer, n, inner)` around the softmax dim
//! (`n` long) is read as `outer` blocks of `n` rows of `inner` elements:
//!
//! - `inner == 1` (the last dim): each line of `n` is one row in memory.
//!   Its maximum (NaN if any element is), then `exp(x - max)` written out
//!   and summed, then the row scaled by `1 / sum` (`log_softmax`: `x - max
//!   - ln(sum)`), all while the row sits in the L1 cache.
//! - `inner > 1`: the lines run across rows; a chunk of columns keeps its
//!   maxima and sums in short vectors and walks the block's rows three
//!   times (maxima, sums of exponentials, the result computed again from
//!   the input), each walk a vectorizable loop along the columns; nothing
//!   is written before the last walk.
//!
//! float32 takes a polynomial `exp` (Cephes' `expf`: a reduction by
//! `ln 2`, a degree-6 polynomial, two scalings by powers of two so that
//! results down to the denormals come out right), compiled for AVX-512 and
//! for AVX2 with FMA besides the baseline and chosen at run time
//! (`is_x86_feature_detected!`; `vector_math.rs` holds the polynomial and
//! the choice), never by the build machine. float64 uses
//! the standard library's `exp`. Work splits across threads by rows, or by
//! chunks of columns when there are few blocks.

use super::CpuBuffer;
use super::parallel::for_each_piece;
use super::vector_math::{Simd, simd};
use crate::backend::SoftmaxFloat;
use crate::error::Error;
use core::mem::MaybeUninit;

/// Columns per chunk of an `inner > 1` block: its maxima and sums stay in
/// the L1 cache, and each row's segment (8 KiB of float32) streams (1024
/// columns ran dim 0 of (4096, 4096) in 23.6 ms, 2048 in 21.6).
const COLUMNS: usize = 2048;
/// Elements per piece of work handed to one thread (at least one row).
const PIECE: usize = 1 << 15;

/// `exp` as the kernels compute it, per element type.
pub trait KernelExp: Copy {
    /// `e^self`; with `FMA`, the multiply-adds fused (for machines that
    /// have them).
    fn kernel_exp<const FMA: bool>(self) -> Self;
}

impl KernelExp for f64 {
    #[inline(always)]
    fn kernel_exp<const FMA: bool>(self) -> f64 {
        self.exp()
    }
}

impl KernelExp for f32 {
    /// Cephes' `expf` (`vector_math::exp_with`); NaN gives NaN, `-inf`
    /// and anything below about -103.97 give 0, and above about 88.72
    /// give `inf`.
    #[inline(always)]
    fn kernel_exp<const FMA: bool>(self) -> f32 {
        super::vector_math::exp_with::<FMA>(self)
    }
}

/// The largest element, NaN if any is (`-inf` for none).
#[inline(always)]
fn max_nan<T: SoftmaxFloat>(xs: &[T]) -> T {
    const LANES: usize = 16;
    let mut acc = [T::neg_infinity(); LANES];
    let mut chunks = xs.chunks_exact(LANES);
    for chunk in &mut chunks {
        for (a, &v) in acc.iter_mut().zip(chunk) {
            *a = if v > *a || num_traits::Float::is_nan(v) {
                v
            } else {
                *a
            };
        }
    }
    let mut m = T::neg_infinity();
    for &v in acc.iter().chain(chunks.remainder()) {
        m = if v > m || num_traits::Float::is_nan(v) {
            v
        } else {
            m
        };
    }
    m
}

/// The sum, in lanes.
#[inline(always)]
fn sum<T: SoftmaxFloat>(xs: &[T]) -> T {
    const LANES: usize = 16;
    let mut acc = [T::zero(); LANES];
    let mut chunks = xs.chunks_exact(LANES);
    for chunk in &mut chunks {
        for (a, &v) in acc.iter_mut().zip(chunk) {
            *a = *a + v;
        }
    }
    let mut s = T::zero();
    for &v in acc.iter().chain(chunks.remainder()) {
        s = s + v;
    }
    s
}

/// The sum of the elements' `exp`, in lanes.
#[inline(always)]
fn exp_sum<T: SoftmaxFloat, const FMA: bool>(xs: &[T]) -> T {
    const LANES: usize = 16;
    let mut acc = [T::zero(); LANES];
    let mut chunks = xs.chunks_exact(LANES);
    for chunk in &mut chunks {
        for (a, &v) in acc.iter_mut().zip(chunk) {
            *a = *a + v.kernel_exp::<FMA>();
        }
    }
    let mut s = T::zero();
    for &v in acc.iter() {
        s = s + v;
    }
    for &v in chunks.remainder() {
        s = s + v.kernel_exp::<FMA>();
    }
    s
}

/// The elements of `s`, which the caller has written.
///
/// # Safety
/// Every element of `s` is initialized.
#[inline(always)]
unsafe fn written<T>(s: &mut [MaybeUninit<T>]) -> &mut [T] {
    // SAFETY: `MaybeUninit<T>` has `T`'s layout, and the caller's contract
    // makes every element a valid `T`.
    unsafe { &mut *(s as *mut [MaybeUninit<T>] as *mut [T]) }
}

/// Softmax of each row of `n` elements of `x` into `out` (same length).
#[inline(always)]
fn rows<T: SoftmaxFloat, const FMA: bool>(
    x: &[T],
    out: &mut [MaybeUninit<T>],
    n: usize,
    log: bool,
) {
    for (xr, or) in x.chunks_exact(n).zip(out.chunks_exact_mut(n)) {
        let m = max_nan(xr);
        if log {
            for (o, &v) in or.iter_mut().zip(xr) {
                o.write(v - m);
            }
            // SAFETY: the loop above wrote every element of the row.
            let or = unsafe { written(or) };
            let ls = exp_sum::<T, FMA>(or).ln();
            for o in or.iter_mut() {
                *o = *o - ls;
            }
        } else {
            for (o, &v) in or.iter_mut().zip(xr) {
                o.write((v - m).kernel_exp::<FMA>());
            }
            // SAFETY: the loop above wrote every element of the row.
            let or = unsafe { written(or) };
            let r = T::one() / sum(or);
            for o in or.iter_mut() {
                *o = *o * r;
            }
        }
    }
}

/// Softmax down the columns `col..col + w` of an `n`-row block of `x`
/// (rows `stride` apart), into the row segments `out` (each `w` long).
#[inline(always)]
fn columns<T: SoftmaxFloat, const FMA: bool>(
    x: &[T],
    stride: usize,
    col: usize,
    out: &mut [&mut [MaybeUninit<T>]],
    log: bool,
) {
    let Some(w) = out.first().map(|o| o.len()) else {
        return;
    };
    let row = |r: usize| &x[r * stride + col..r * stride + col + w];
    let mut maxima = [T::neg_infinity(); COLUMNS];
    let mut sums = [T::zero(); COLUMNS];
    let (maxima, sums) = (&mut maxima[..w], &mut sums[..w]);
    let max_nan2 = |m: T, v: T| {
        if v > m || num_traits::Float::is_nan(v) {
            v
        } else {
            m
        }
    };
    for r in 0..out.len() {
        // Through a local copy, stored whole: a conditional store would
        // compile to a masked store, several times slower.
        let mut chunks = maxima.chunks_exact_mut(16);
        let mut values = row(r).chunks_exact(16);
        for (a, v) in (&mut chunks).zip(&mut values) {
            let mut m = [T::neg_infinity(); 16];
            m.copy_from_slice(a);
            for (m, &v) in m.iter_mut().zip(v) {
                *m = max_nan2(*m, v);
            }
            a.copy_from_slice(&m);
        }
        for (a, &v) in chunks.into_remainder().iter_mut().zip(values.remainder()) {
            *a = max_nan2(*a, v);
        }
    }
    // The sums, from the input (nothing written yet).
    for r in 0..out.len() {
        for ((&v, &m), s) in row(r).iter().zip(&*maxima).zip(sums.iter_mut()) {
            *s = *s + (v - m).kernel_exp::<FMA>();
        }
    }
    // The result, from the input again: reading it twice costs less than
    // writing the exponentials out and reading them back.
    if log {
        for s in sums.iter_mut() {
            *s = s.ln();
        }
        for (r, o) in out.iter_mut().enumerate() {
            for (((o, &v), &m), &s) in o.iter_mut().zip(row(r)).zip(&*maxima).zip(&*sums) {
                o.write(v - m - s);
            }
        }
    } else {
        for s in sums.iter_mut() {
            *s = T::one() / *s;
        }
        for (r, o) in out.iter_mut().enumerate() {
            for (((o, &v), &m), &s) in o.iter_mut().zip(row(r)).zip(&*maxima).zip(&*sums) {
                o.write((v - m).kernel_exp::<FMA>() * s);
            }
        }
    }
}

/// One thread's share of the work.
enum Piece<'a, T> {
    /// Whole rows (`inner == 1`): the input's and the output's.
    Rows(&'a [T], &'a mut [MaybeUninit<T>]),
    /// Columns `col..` of a block whose rows start `stride` apart in `x`.
    Columns {
        x: &'a [T],
        stride: usize,
        col: usize,
        out: Vec<&'a mut [MaybeUninit<T>]>,
    },
}

/// Runs `piece` with the kernels compiled for `T` and this machine.
fn run<T: SoftmaxFloat>(piece: &mut Piece<'_, T>, n: usize, log: bool) {
    match piece {
        Piece::Rows(x, out) => T::dispatch_rows(x, out, n, log),
        Piece::Columns {
            x,
            stride,
            col,
            out,
        } => T::dispatch_columns(x, *stride, *col, out, log),
    }
}

/// The kernels of one element type, each compiled for the machines it may
/// meet, and chosen at run time.
pub trait Kernels: Sized {
    /// The row kernel, compiled for this machine.
    fn dispatch_rows(x: &[Self], out: &mut [MaybeUninit<Self>], n: usize, log: bool);
    /// The column kernel, compiled for this machine.
    fn dispatch_columns(
        x: &[Self],
        stride: usize,
        col: usize,
        out: &mut [&mut [MaybeUninit<Self>]],
        log: bool,
    );
}

impl Kernels for f64 {
    fn dispatch_rows(x: &[f64], out: &mut [MaybeUninit<f64>], n: usize, log: bool) {
        rows::<f64, false>(x, out, n, log)
    }
    fn dispatch_columns(
        x: &[f64],
        stride: usize,
        col: usize,
        out: &mut [&mut [MaybeUninit<f64>]],
        log: bool,
    ) {
        columns::<f64, false>(x, stride, col, out, log)
    }
}

/// [`rows`] and [`columns`] of float32 compiled with `$features` enabled.
#[cfg(target_arch = "x86_64")]
macro_rules! compiled_for {
    ($rows:ident, $columns:ident, $features:literal) => {
        #[target_feature(enable = $features)]
        fn $rows(x: &[f32], out: &mut [MaybeUninit<f32>], n: usize, log: bool) {
            rows::<f32, true>(x, out, n, log)
        }
        #[target_feature(enable = $features)]
        fn $columns(
            x: &[f32],
            stride: usize,
            col: usize,
            out: &mut [&mut [MaybeUninit<f32>]],
            log: bool,
        ) {
            columns::<f32, true>(x, stride, col, out, log)
        }
    };
}
#[cfg(target_arch = "x86_64")]
compiled_for!(rows_avx512, columns_avx512, "avx512f,fma");
#[cfg(target_arch = "x86_64")]
compiled_for!(rows_avx2, columns_avx2, "avx2,fma");

impl Kernels for f32 {
    fn dispatch_rows(x: &[f32], out: &mut [MaybeUninit<f32>], n: usize, log: bool) {
        match simd() {
            // SAFETY: the machine has the features these were compiled for.
            #[cfg(target_arch = "x86_64")]
            Simd::Avx512 => unsafe { rows_avx512(x, out, n, log) },
            // SAFETY: as above.
            #[cfg(target_arch = "x86_64")]
            Simd::Avx2 => unsafe { rows_avx2(x, out, n, log) },
            _ => rows::<f32, false>(x, out, n, log),
        }
    }
    fn dispatch_columns(
        x: &[f32],
        stride: usize,
        col: usize,
        out: &mut [&mut [MaybeUninit<f32>]],
        log: bool,
    ) {
        match simd() {
            // SAFETY: the machine has the features these were compiled for.
            #[cfg(target_arch = "x86_64")]
            Simd::Avx512 => unsafe { columns_avx512(x, stride, col, out, log) },
            // SAFETY: as above.
            #[cfg(target_arch = "x86_64")]
            Simd::Avx2 => unsafe { columns_avx2(x, stride, col, out, log) },
            _ => columns::<f32, false>(x, stride, col, out, log),
        }
    }
}

/// Softmax (`log`: log-softmax) of the contiguous `x` of `sizes` along
/// `dim`, into a new contiguous buffer.
pub(crate) fn softmax<T: SoftmaxFloat>(
    x: &[T],
    sizes: &[usize],
    dim: usize,
    log: bool,
) -> Result<CpuBuffer<T>, Error> {
    let n = sizes[dim];
    let inner: usize = sizes[dim + 1..].iter().product();
    let total = x.len();
    let fill = |dst: &mut [MaybeUninit<T>]| {
        if total == 0 {
            return;
        }
        let mut pieces = Vec::new();
        if inner == 1 {
            let rows_per_piece = (PIECE / n).max(1);
            for (xs, out) in x
                .chunks(rows_per_piece * n)
                .zip(dst.chunks_mut(rows_per_piece * n))
            {
                pieces.push(Piece::Rows(xs, out));
            }
        } else {
            let block = n * inner;
            let width = COLUMNS.min(inner);
            for (xs, out) in x.chunks_exact(block).zip(dst.chunks_exact_mut(block)) {
                // The block's rows, cut into segments of `width` columns.
                let mut segments: Vec<Vec<&mut [MaybeUninit<T>]>> = (0..inner.div_ceil(width))
                    .map(|_| Vec::with_capacity(n))
                    .collect();
                for row in out.chunks_exact_mut(inner) {
                    for (c, segment) in row.chunks_mut(width).enumerate() {
                        segments[c].push(segment);
                    }
                }
                for (c, out) in segments.into_iter().enumerate() {
                    pieces.push(Piece::Columns {
                        x: xs,
                        stride: inner,
                        col: c * width,
                        out,
                    });
                }
            }
        }
        for_each_piece(pieces, |_, piece| run(piece, n, log));
    };
    // SAFETY: the pieces cover `dst` (rows: all of it in chunks; columns:
    // every row of every block in segments), and each kernel writes every
    // element of its piece.
    unsafe { CpuBuffer::try_new_with(total, fill) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_polynomial_exp_is_within_two_ulps() {
        let mut worst = 0u32;
        for k in -100_000..=10_000 {
            let x = k as f32 * 1e-3;
            let want = (x as f64).exp() as f32;
            for got in [x.kernel_exp::<false>(), x.kernel_exp::<true>()] {
                let ulps = (got.to_bits() as i64 - want.to_bits() as i64).unsigned_abs() as u32;
                worst = worst.max(ulps);
            }
        }
        assert!(worst <= 2, "{worst} ulps");
        assert!(f32::NAN.kernel_exp::<false>().is_nan());
        assert_eq!(f32::NEG_INFINITY.kernel_exp::<false>(), 0.0);
        assert_eq!(f32::INFINITY.kernel_exp::<false>(), f32::INFINITY);
        assert_eq!((-103.0f32).kernel_exp::<false>(), (-103.0f64).exp() as f32);
        assert_eq!(0.0f32.kernel_exp::<true>(), 1.0);
    }

    /// Every machine path against the baseline: the same operations,
    /// wider and with fused multiply-adds, within two units in the last
    /// place.
    #[test]
    fn every_machine_path_agrees_with_the_baseline() {
        let x: Vec<f32> = (0..3 * 37)
            .map(|k| ((k * 7919) % 211) as f32 * 0.37 - 40.0)
            .collect();
        for log in [false, true] {
            let mut want = vec![MaybeUninit::uninit(); x.len()];
            rows::<f32, false>(&x, &mut want, 37, log);
            let mut got = vec![MaybeUninit::uninit(); x.len()];
            f32::dispatch_rows(&x, &mut got, 37, log);
            // SAFETY: both kernels wrote every element.
            let (want, got) = unsafe { (written(&mut want).to_vec(), written(&mut got).to_vec()) };
            for (g, w) in got.iter().zip(&want) {
                assert!(
                    (g - w).abs() <= 2.0 * f32::EPSILON * w.abs().max(1e-30),
                    "{g} vs {w}"
                );
            }
            assert!(log || (want[..37].iter().sum::<f32>() - 1.0).abs() < 1e-5);
        }
    }
}
