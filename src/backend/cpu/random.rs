//! Random fills on the CPU: pieces of the output on rayon's threads, each
//! piece's Philox blocks computed in a loop compiled for this machine's
//! widest lanes (AVX-512 or AVX2 with FMA, chosen at run time), so the
//! samplers' fused multiply-adds are single instructions. A piece starts on
//! a block boundary, so the numbers do not depend on the pieces.

use super::parallel::for_each_piece;
use super::vector_math::{Simd, simd};
use super::{Cpu, CpuBuffer, CpuPtr};
use crate::backend::{Elementwise, Random, RandomFill, StridedMut, StridedRef};
use crate::error::Error;
use crate::layout::{contiguous_strides, is_contiguous, numel};
use crate::random::RandomFloat;
use crate::random::philox::block;
use core::mem::MaybeUninit;

/// Elements per piece: a multiple of every dtype's block (4 and 2).
const PIECE: usize = 1 << 14;

/// Fills `out`, whose first element has row-major index `first` (a
/// multiple of `T::PER_BLOCK`).
#[inline(always)]
fn fill_run<T: RandomFloat>(
    out: &mut [MaybeUninit<T>],
    first: usize,
    fill: RandomFill,
    p: &T::Params,
) {
    let per = T::PER_BLOCK;
    let start = fill.offset.wrapping_add((first / per) as u64);
    let mut chunks = out.chunks_exact_mut(per);
    let mut b = start;
    for chunk in &mut chunks {
        let values = T::from_block(block(fill.seed, b), p);
        for (o, &v) in chunk.iter_mut().zip(&values) {
            o.write(v);
        }
        b = b.wrapping_add(1);
    }
    let rest = chunks.into_remainder();
    if !rest.is_empty() {
        let values = T::from_block(block(fill.seed, b), p);
        for (o, &v) in rest.iter_mut().zip(&values) {
            o.write(v);
        }
    }
}

/// [`fill_run`] compiled with each feature set.
macro_rules! fill_run_with {
    ($($name:ident: $features:literal),*) => {$(
        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = $features)]
        fn $name<T: RandomFloat>(out: &mut [MaybeUninit<T>], first: usize, fill: RandomFill, p: &T::Params) {
            fill_run(out, first, fill, p)
        }
    )*};
}
fill_run_with!(fill_run_avx512: "avx512f,fma", fill_run_avx2: "avx2,fma");

/// Fills a contiguous run of row-major elements `0..out.len()`.
fn fill_contiguous<T: RandomFloat>(out: &mut [MaybeUninit<T>], fill: RandomFill) {
    let p = T::sampler(fill.dist);
    let pieces: Vec<&mut [MaybeUninit<T>]> = out.chunks_mut(PIECE).collect();
    let lanes = simd();
    for_each_piece(pieces, |k, piece| {
        let first = k * PIECE;
        match lanes {
            // SAFETY: the machine has the features these were compiled for.
            #[cfg(target_arch = "x86_64")]
            Simd::Avx512 => unsafe { fill_run_avx512(piece, first, fill, &p) },
            // SAFETY: as above.
            #[cfg(target_arch = "x86_64")]
            Simd::Avx2 => unsafe { fill_run_avx2(piece, first, fill, &p) },
            _ => fill_run(piece, first, fill, &p),
        }
    });
}

impl Random for Cpu {
    fn fill_random<T: RandomFloat>(
        out: StridedMut<'_, T, Cpu>,
        fill: RandomFill,
    ) -> Result<(), Error> {
        let n = numel(out.sizes);
        if n == 0 {
            return Ok(());
        }
        if is_contiguous(out.sizes, out.strides) {
            // SAFETY: `out` is an exclusively borrowed writable layout inside
            // its storage; contiguous, its `n` elements are the `n`
            // consecutive ones from its offset, which nothing else reads or
            // writes meanwhile; `MaybeUninit<T>` has `T`'s layout and only
            // values are written.
            let run = unsafe {
                core::slice::from_raw_parts_mut(
                    out.ptr.as_ptr().add(out.offset).cast::<MaybeUninit<T>>(),
                    n,
                )
            };
            fill_contiguous(run, fill);
            return Ok(());
        }
        // Any other layout: the row-major values, then copied into place.
        // SAFETY: `fill_contiguous` writes every element of the buffer.
        let mut values =
            unsafe { CpuBuffer::<T>::try_new_with(n, |dst| fill_contiguous(dst, fill))? };
        let strides: Vec<usize> = contiguous_strides(out.sizes);
        let src = StridedRef {
            ptr: CpuPtr::from_mut(values.as_mut_slice()),
            sizes: out.sizes,
            strides: &strides,
            offset: 0,
        };
        let sizes = out.sizes;
        debug_assert_eq!(src.sizes, sizes);
        Cpu::copy_into(out, src)
    }
}
