//! Random fills on the CPU: pieces of the output on rayon's threads, each
//! piece's Philox blocks computed 16 at a time ([`LANES`]) in a loop
//! compiled for this machine's widest lanes (AVX-512 or AVX2 with FMA,
//! chosen at run time), so that Philox and the samplers vectorize and the
//! fused multiply-adds are single instructions. A piece starts on a block
//! boundary, so the numbers do not depend on the pieces. The whole-number
//! draws (`random_`, `bernoulli_`, `randperm`'s) and the Poisson samples
//! (a stream per element) are pieces likewise.

use super::parallel::for_each_piece;
use super::vector_math::{Simd, simd};
use super::{Cpu, CpuBuffer, CpuPtr};
use crate::backend::{DrawFill, Elementwise, Random, RandomFill, StridedMut, StridedRef};
use crate::dtype::Element;
use crate::dtype::cast::cast;
use crate::error::Error;
use crate::layout::{contiguous_strides, is_contiguous, numel};
use crate::random::RandomFloat;
use crate::random::distributions::LANES;
use crate::random::distributions::{RandomWhole, draw_bits};
use crate::random::philox::{block, blocks};
use crate::random::poisson;
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
    let mut b = start;
    // Whole groups of lanes, then block by block.
    let mut groups = out.chunks_exact_mut(LANES * per);
    for group in &mut groups {
        T::from_lanes(&blocks::<LANES>(fill.seed, b), p, group);
        b = b.wrapping_add(LANES as u64);
    }
    let mut chunks = groups.into_remainder().chunks_exact_mut(per);
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
    let lanes = simd();
    fill_pieces(out, |piece, first| match lanes {
        // SAFETY: the machine has the features these were compiled for.
        #[cfg(target_arch = "x86_64")]
        Simd::Avx512 => unsafe { fill_run_avx512(piece, first, fill, &p) },
        // SAFETY: as above.
        #[cfg(target_arch = "x86_64")]
        Simd::Avx2 => unsafe { fill_run_avx2(piece, first, fill, &p) },
        _ => fill_run(piece, first, fill, &p),
    });
}

/// Fills `run`, a contiguous run of row-major elements `0..run.len()`,
/// by `fill` on rayon's threads, piece `k` (elements `k * PIECE..`) by
/// `fill(piece, k * PIECE)`.
fn fill_pieces<T: Element>(
    run: &mut [MaybeUninit<T>],
    fill: impl Fn(&mut [MaybeUninit<T>], usize) + Sync,
) {
    let pieces: Vec<&mut [MaybeUninit<T>]> = run.chunks_mut(PIECE).collect();
    for_each_piece(pieces, |k, piece| fill(piece, k * PIECE));
}

/// `out[j] = value(first + j, bits)` for the 64 random bits of element
/// `first + j` (half of block `offset + (first + j) / 2`, see
/// [`crate::random::Draw`]; `first` even): [`LANES`] blocks at a time, so
/// that Philox runs on the vector lanes.
#[inline(always)]
fn bits_run<T>(
    out: &mut [MaybeUninit<T>],
    first: usize,
    seed: u64,
    offset: u64,
    value: &impl Fn(usize, u64) -> T,
) {
    let mut b = offset.wrapping_add((first / 2) as u64);
    let mut groups = out.chunks_exact_mut(2 * LANES);
    let mut i = first;
    for group in &mut groups {
        let w = blocks::<LANES>(seed, b);
        for j in 0..LANES {
            for h in 0..2 {
                let bits = u64::from(w[2 * h][j]) << 32 | u64::from(w[2 * h + 1][j]);
                group[2 * j + h].write(value(i + 2 * j + h, bits));
            }
        }
        b = b.wrapping_add(LANES as u64);
        i += 2 * LANES;
    }
    for pair in groups.into_remainder().chunks_mut(2) {
        let words = block(seed, b);
        for (h, o) in pair.iter_mut().enumerate() {
            o.write(value(i + h, draw_bits(words, h)));
        }
        b = b.wrapping_add(1);
        i += 2;
    }
}

/// [`bits_run`] compiled with each feature set.
macro_rules! bits_run_with {
    ($($name:ident: $features:literal),*) => {$(
        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = $features)]
        fn $name<T>(out: &mut [MaybeUninit<T>], first: usize, seed: u64, offset: u64, value: &impl Fn(usize, u64) -> T) {
            bits_run(out, first, seed, offset, value)
        }
    )*};
}
bits_run_with!(bits_run_avx512: "avx512f", bits_run_avx2: "avx2");

/// Writes `value(i, bits)` into `run[i]` for element `i`'s 64 random bits
/// (see [`bits_run`]), in pieces on rayon's threads.
fn bits_pieces<T: Element>(
    run: &mut [MaybeUninit<T>],
    seed: u64,
    offset: u64,
    value: &(impl Fn(usize, u64) -> T + Sync),
) {
    let lanes = simd();
    fill_pieces(run, |piece, first| match lanes {
        // SAFETY: the machine has the features these were compiled for.
        #[cfg(target_arch = "x86_64")]
        Simd::Avx512 => unsafe { bits_run_avx512(piece, first, seed, offset, value) },
        // SAFETY: as above.
        #[cfg(target_arch = "x86_64")]
        Simd::Avx2 => unsafe { bits_run_avx2(piece, first, seed, offset, value) },
        _ => bits_run(piece, first, seed, offset, value),
    });
}

/// A new buffer of `n` elements, element `i` being `value(i, bits)` for
/// the 64 bits of half of block `offset + i / 2` (`randperm`'s draws).
pub(crate) fn from_bits<T: Element>(
    n: usize,
    seed: u64,
    offset: u64,
    value: impl Fn(usize, u64) -> T + Sync,
) -> Result<CpuBuffer<T>, Error> {
    // SAFETY: `bits_pieces` writes every element of its run.
    unsafe { CpuBuffer::try_new_with(n, |run| bits_pieces(run, seed, offset, &value)) }
}

/// Writes `out` (row-major elements `0..n`) with `fill_run`: in place when
/// it is contiguous, else into a contiguous buffer copied into place.
fn fill_strided<T: Element>(
    out: StridedMut<'_, T, Cpu>,
    fill_run: impl Fn(&mut [MaybeUninit<T>]),
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
        fill_run(run);
        return Ok(());
    }
    // SAFETY: every `fill_run` writes every element of its run.
    let mut values = unsafe { CpuBuffer::<T>::try_new_with(n, fill_run)? };
    let strides: Vec<usize> = contiguous_strides(out.sizes);
    let src = StridedRef {
        ptr: CpuPtr::from_mut(values.as_mut_slice()),
        sizes: out.sizes,
        strides: &strides,
        offset: 0,
    };
    Cpu::copy_into(out, src)
}

impl Random for Cpu {
    fn fill_random<T: RandomFloat>(
        out: StridedMut<'_, T, Cpu>,
        fill: RandomFill,
    ) -> Result<(), Error> {
        fill_strided(out, |run| fill_contiguous(run, fill))
    }

    fn poisson<T: RandomFloat>(
        rates: StridedRef<'_, T, Cpu>,
        out: StridedMut<'_, T, Cpu>,
        seed: u64,
        offset: u64,
    ) -> Result<(), Error> {
        let rates = super::elementwise::try_gather(rates)?;
        fill_strided(out, |run| {
            fill_pieces(run, |piece, first| {
                for (j, o) in piece.iter_mut().enumerate() {
                    let i = first + j;
                    let rate = cast::<T, f64>(rates[i]);
                    o.write(cast(poisson::sample(
                        rate,
                        seed,
                        offset.wrapping_add(i as u64),
                    )));
                }
            })
        })
    }

    fn fill_draws<T: RandomWhole>(
        out: StridedMut<'_, T, Cpu>,
        fill: DrawFill,
    ) -> Result<(), Error> {
        let draw = fill.draw;
        fill_strided(out, |run| {
            bits_pieces(run, fill.seed, fill.offset, &|_, bits| {
                T::from_whole(draw.value(bits))
            })
        })
    }
}
