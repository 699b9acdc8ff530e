//! Philox4x32-10 (Salmon, Moraes, Dror and Shaw, "Parallel random numbers:
//! as easy as 1, 2, 3", SC 2011): a counter-based generator, the one CUDA's
//! cuRAND and PyTorch's GPU path use. Its output for a 128-bit counter and
//! a 64-bit key is a pure function of the two, so any element's numbers can
//! be computed on its own, on any thread and on any device:
//! `kernels/random.cuh` holds the same rounds for CUDA.
//!
//! ```
//! use shaped::random::philox::philox4x32_10;
//! // Random123's known-answer test.
//! assert_eq!(philox4x32_10([0; 4], [0; 2]), [0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8]);
//! ```

/// The round multipliers.
const M0: u32 = 0xD251_1F53;
const M1: u32 = 0xCD9E_8D57;
/// The key increments (the golden ratio and sqrt(3) - 1 in 32 bits).
const W0: u32 = 0x9E37_79B9;
const W1: u32 = 0xBB67_AE85;

/// The high and low 32 bits of `a * b`.
#[inline(always)]
fn mul_hi_lo(a: u32, b: u32) -> (u32, u32) {
    let p = u64::from(a) * u64::from(b);
    ((p >> 32) as u32, p as u32)
}

/// One round: two multiplications, the words permuted and keyed.
#[inline(always)]
fn round(c: [u32; 4], k: [u32; 2]) -> [u32; 4] {
    let (hi0, lo0) = mul_hi_lo(M0, c[0]);
    let (hi1, lo1) = mul_hi_lo(M1, c[2]);
    [hi1 ^ c[1] ^ k[0], lo1, hi0 ^ c[3] ^ k[1], lo0]
}

/// Four random 32-bit words for `counter` under `key`: ten rounds, the key
/// bumped between them.
#[inline(always)]
pub fn philox4x32_10(counter: [u32; 4], key: [u32; 2]) -> [u32; 4] {
    let (mut c, mut k) = (counter, key);
    for _ in 0..9 {
        c = round(c, k);
        k = [k[0].wrapping_add(W0), k[1].wrapping_add(W1)];
    }
    round(c, k)
}

/// Blocks `first..first + L` of the stream of `seed`, word by word (word
/// `k` of block `first + j` at `[k][j]`): the same numbers as [`block`],
/// laid out so that the rounds run on vector lanes.
#[inline(always)]
#[allow(clippy::needless_range_loop)] // (lane `j` of four arrays at once)
pub fn blocks<const L: usize>(seed: u64, first: u64) -> [[u32; L]; 4] {
    let mut c = [[0u32; L]; 4];
    for j in 0..L {
        let b = first.wrapping_add(j as u64);
        c[0][j] = b as u32;
        c[1][j] = (b >> 32) as u32;
    }
    let mut k = [seed as u32, (seed >> 32) as u32];
    for r in 0..10 {
        for j in 0..L {
            let (hi0, lo0) = mul_hi_lo(M0, c[0][j]);
            let (hi1, lo1) = mul_hi_lo(M1, c[2][j]);
            let (c1, c3) = (c[1][j], c[3][j]);
            c[0][j] = hi1 ^ c1 ^ k[0];
            c[1][j] = lo1;
            c[2][j] = hi0 ^ c3 ^ k[1];
            c[3][j] = lo0;
        }
        if r < 9 {
            k = [k[0].wrapping_add(W0), k[1].wrapping_add(W1)];
        }
    }
    c
}

/// Block `draw` of element `block`'s own stream (the counter's third word):
/// the samplers that use a varying number of draws per element (Poisson).
#[inline(always)]
pub fn draw_block(seed: u64, block: u64, draw: u32) -> [u32; 4] {
    philox4x32_10(
        [block as u32, (block >> 32) as u32, draw, 0],
        [seed as u32, (seed >> 32) as u32],
    )
}

/// The words of block `block` of the stream of `seed`: the counter is the
/// block's 64-bit index (its upper half 0), the key the seed.
#[inline(always)]
pub fn block(seed: u64, block: u64) -> [u32; 4] {
    philox4x32_10(
        [block as u32, (block >> 32) as u32, 0, 0],
        [seed as u32, (seed >> 32) as u32],
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The lanes' blocks are the blocks, across the counter's upper word.
    #[test]
    fn lanes_are_blocks() {
        let first = (1u64 << 32) - 5;
        let lanes = blocks::<8>(0x0123_4567_89ab_cdef, first);
        for (j, b) in (first..first + 8).enumerate() {
            let want = block(0x0123_4567_89ab_cdef, b);
            assert_eq!([0, 1, 2, 3].map(|k| lanes[k][j]), want, "lane {j}");
        }
    }

    /// Random123's known-answer tests for philox4x32_10 (kat_vectors).
    #[test]
    fn known_answers() {
        assert_eq!(
            philox4x32_10([0; 4], [0; 2]),
            [0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8]
        );
        assert_eq!(
            philox4x32_10([u32::MAX; 4], [u32::MAX; 2]),
            [0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd]
        );
        assert_eq!(
            philox4x32_10(
                [0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344],
                [0xa4093822, 0x299f31d0]
            ),
            [0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1]
        );
    }
}
