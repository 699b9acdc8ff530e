// Copies that move elements without computing them, on the device:
// `flip`, `roll`, `rot90`, `pad`, `tril`, `triu` and the diagonal
// constructors, one kernel per element width (`shaped_rearrange_b1` ..
// `_b16`: the copy moves bytes, whatever the dtype). Each output dimension
// reads its source dimension through a map (src/backend/rearrange.rs's
// `AxisMap`): the same position, reversed, rolled, or padded (constant,
// reflect, replicate, circular); a band of diagonals of the last two
// dimensions may be kept and the rest filled. The output is contiguous;
// the host merged the dimensions that need no map. A grid-stride loop, one
// element per thread and step, whose coordinates take 32-bit arithmetic
// (and divisions by multiplication) where they fit.
#pragma once

#include "elementwise.cuh"

namespace shaped {

// Mirrors `RearrangeArgs` in src/backend/cuda/rearrange.rs (repr(C)).
struct RearrangeArgs {
    uint64_t numel;
    uint64_t sizes[SHAPED_MAX_RANK];        // the output's (contiguous)
    uint64_t src_sizes[SHAPED_MAX_RANK];    // the source's
    uint64_t src_strides[SHAPED_MAX_RANK];  // in elements
    int64_t amount[SHAPED_MAX_RANK];        // a roll's shift, a pad's `before`
    uint64_t out;                           // device address of the output
    uint64_t src;                           // device address of the source's buffer
    uint64_t src_offset;                    // in elements
    uint64_t fill[2];                       // the fill value's bytes
    int64_t band_lower, band_upper;         // the diagonals kept, when banded
    int32_t rank;                           // after merging, at least 1
    int32_t banded;                         // 1: a band over the last two dimensions
    int32_t narrow;                         // 1: the walk fits 32 bits (as Args::narrow)
    int32_t map[SHAPED_MAX_RANK];           // 0 same, 1 reverse, 2 roll, 3-6 pad (AxisMap::code)
    uint32_t magic[SHAPED_MAX_RANK];        // division by sizes[d] (as Args::magic)
    uint32_t shift[SHAPED_MAX_RANK];
};

// The source position output position `k` reads along a dimension of `n`
// through map `map` (with its `amount`), or -1 for the fill value.
__host__ __device__ inline int64_t source_position(int32_t map, int64_t amount, int64_t k,
                                                   int64_t n) {
    switch (map) {
        case 0:
            return k;
        case 1:
            return n - 1 - k;
        case 2:
            return k >= amount ? k - amount : k + n - amount;
        default: {
            int64_t j = k - amount;
            if (map == 4) {  // reflect
                if (j < 0) {
                    j = -j;
                } else if (j >= n) {
                    j = 2 * (n - 1) - j;
                }
            } else if (map == 5) {  // replicate
                j = j < 0 ? 0 : (j >= n ? n - 1 : j);
            } else if (map == 6) {  // circular
                j %= n;
                if (j < 0) j += n;
            }
            return (j >= 0 && j < n) ? j : -1;
        }
    }
}

// Sixteen bytes, as a complex double is moved.
struct Bytes16 {
    uint64_t lo, hi;
};

// Output element `i`, with `Index` arithmetic.
template <class W, class Index>
__device__ inline void rearrange_at(const RearrangeArgs& p, uint64_t i) {
    Index rest = Index(i);
    int64_t offset = int64_t(p.src_offset);
    bool filled = false;
    int64_t row = 0, col = 0;
    for (int d = p.rank - 1; d >= 0; --d) {
        Index k = rest;
        if (d > 0) {
            Index q = quotient(p, rest, d);
            k = rest - q * Index(p.sizes[d]);
            rest = q;
        }
        if (d == p.rank - 1) col = int64_t(k);
        if (d == p.rank - 2) row = int64_t(k);
        int64_t at = source_position(p.map[d], p.amount[d], int64_t(k), int64_t(p.src_sizes[d]));
        if (at < 0) {
            filled = true;
        } else {
            offset += at * int64_t(p.src_strides[d]);
        }
    }
    if (p.banded) {
        int64_t diagonal = col - row;
        filled = filled || diagonal < p.band_lower || diagonal > p.band_upper;
    }
    W value = filled ? *reinterpret_cast<const W*>(p.fill)
                     : reinterpret_cast<const W*>(p.src)[offset];
    reinterpret_cast<W*>(p.out)[i] = value;
}

template <class W> __device__ void rearrange(const RearrangeArgs& p) {
    uint64_t step = uint64_t(blockDim.x) * gridDim.x;
    for (uint64_t i = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < p.numel; i += step) {
        if (p.narrow) {
            rearrange_at<W, uint32_t>(p, i);
        } else {
            rearrange_at<W, uint64_t>(p, i);
        }
    }
}

}  // namespace shaped

// The element widths: one kernel each.
#define SHAPED_FOR_EACH_WIDTH(X) \
    X(b1, uint8_t)               \
    X(b2, uint16_t)              \
    X(b4, uint32_t)              \
    X(b8, uint64_t)              \
    X(b16, shaped::Bytes16)

#define SHAPED_REARRANGE_KERNELS(name, W)                                                         \
    extern "C" __global__ void SHAPED_BOUNDS shaped_rearrange_##name(shaped::RearrangeArgs p) { \
        shaped::rearrange<W>(p);                                                              \
    }
