//! Buffers written from a function of the element index (`linspace`,
//! `arange_step`, `randint`): pieces on rayon's threads, each piece's loop
//! compiled for this machine's widest lanes with FMA (AVX-512 or AVX2,
//! chosen at run time), so `mul_add` is one instruction rather than a call
//! into the C library and the loop vectorizes.

use super::CpuBuffer;
use super::parallel::for_each_piece;
use super::vector_math::{Simd, simd};
use crate::dtype::Element;
use crate::error::Error;
use core::mem::MaybeUninit;

/// Elements per piece of a parallel fill.
pub(crate) const PIECE: usize = 1 << 15;

/// Writes `value(start + j)` into `piece[j]`.
#[inline(always)]
fn fill_piece<T, F: Fn(usize) -> T>(piece: &mut [MaybeUninit<T>], start: usize, value: &F) {
    for (j, slot) in piece.iter_mut().enumerate() {
        slot.write(value(start + j));
    }
}

/// [`fill_piece`] compiled with each feature set.
macro_rules! fill_piece_with {
    ($($name:ident: $features:literal),*) => {$(
        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = $features)]
        fn $name<T, F: Fn(usize) -> T>(piece: &mut [MaybeUninit<T>], start: usize, value: &F) {
            fill_piece(piece, start, value)
        }
    )*};
}
fill_piece_with!(fill_piece_avx512: "avx512f,fma", fill_piece_avx2: "avx2,fma");

/// A contiguous buffer of `n` elements, element `i` being `value(i)`;
/// `Err` (PyTorch's out-of-memory text) when the memory cannot be had.
pub(crate) fn generated<T: Element>(
    n: usize,
    value: impl Fn(usize) -> T + Sync,
) -> Result<CpuBuffer<T>, Error> {
    generated_in_two(n, n, &value, &value)
}

/// [`generated`] from two functions: `first(i)` below `split`, `second(i)`
/// from there (each loop then has one expression to vectorize, where a
/// choice per element would not).
pub(crate) fn generated_in_two<T: Element>(
    n: usize,
    split: usize,
    first: &(impl Fn(usize) -> T + Sync),
    second: &(impl Fn(usize) -> T + Sync),
) -> Result<CpuBuffer<T>, Error> {
    let lanes = simd();
    let fill_with = |piece: &mut [MaybeUninit<T>], start: usize| {
        // The piece's part below `split`, then the rest.
        let cut = split.clamp(start, start + piece.len()) - start;
        let (low, high) = piece.split_at_mut(cut);
        fill_dispatched(lanes, low, start, first);
        fill_dispatched(lanes, high, start + cut, second);
    };
    let fill = |out: &mut [MaybeUninit<T>]| {
        let pieces: Vec<&mut [MaybeUninit<T>]> = out.chunks_mut(PIECE).collect();
        for_each_piece(pieces, |k, piece| fill_with(piece, k * PIECE));
    };
    // SAFETY: every piece is written element by element, both of its parts,
    // and the pieces cover the buffer (`chunks_mut`).
    unsafe { CpuBuffer::try_new_with(n, fill) }
}

/// [`fill_piece`] in the widest loop this machine runs.
#[inline(always)]
fn fill_dispatched<T, F: Fn(usize) -> T>(
    lanes: Simd,
    piece: &mut [MaybeUninit<T>],
    start: usize,
    value: &F,
) {
    match lanes {
        // SAFETY: the machine has the features these were compiled for.
        #[cfg(target_arch = "x86_64")]
        Simd::Avx512 => unsafe { fill_piece_avx512(piece, start, value) },
        // SAFETY: as above.
        #[cfg(target_arch = "x86_64")]
        Simd::Avx2 => unsafe { fill_piece_avx2(piece, start, value) },
        _ => fill_piece(piece, start, value),
    }
}
