// Reading by index tensors on the device: `gather`, `index_select`, `take`
// and `take_along_dim`, one kernel per element type T
// (`shaped_gather_<dtype>`), whose index is int64 or int32 (a runtime
// switch, the same for every thread). Shape-erased as the elementwise
// kernels: the output, the source (stride 0 along the gathered dimension)
// and the index are merged by the host, their sizes and strides passed at
// run time; a grid-stride loop whose offsets take 32-bit arithmetic (and
// divisions by multiplication) where they fit, as the elementwise kernels.
// When each index names a contiguous run (`index_select` of rows), a thread
// moves 16 bytes at once (`GatherArgs::vec`).
//
// An index outside the dimension is not read through: the thread writes
// nothing and lowers `*fault` to its output position (atomicMin), so the
// host finds the first bad index in row-major order after the launch and
// drops the output. With `out.ptr == 0` the kernel only checks the indices
// (`index_select` of an empty tensor).
#pragma once

#include "elementwise.cuh"

namespace shaped {

// Mirrors `GatherArgs` in src/backend/cuda/indexing.rs (repr(C)).
struct GatherArgs {
    uint64_t numel;
    uint64_t sizes[SHAPED_MAX_RANK];
    Operand out, src, index;
    uint64_t dim_stride;  // the gathered dimension's stride in the source
    uint64_t dim_len;     // and its length
    uint64_t fault;       // device address of the first bad position (u64)
    int32_t rank;         // after merging, at least 1
    int32_t wrap;         // 0: never, 1: from the end, 2: modulo (IndexWrap)
    int32_t index_dtype;  // DT_i64 or DT_i32
    int32_t narrow;       // 1: the walk fits 32 bits (as Args::narrow)
    int32_t vec;          // elements per vector along the innermost dimension, or 1
    uint32_t magic[SHAPED_MAX_RANK];  // division by sizes[d] (as Args::magic)
    uint32_t shift[SHAPED_MAX_RANK];
};

// The position `raw` reads along a dimension of `len`, or -1.
__device__ inline int64_t resolve(int64_t raw, uint64_t len, int32_t wrap) {
    int64_t n = int64_t(len);
    if (wrap == 2) {
        if (n == 0) return -1;
        int64_t r = raw % n;
        return r < 0 ? r + n : r;
    }
    if (raw < 0) {
        if (wrap != 1 || raw < -n) return -1;
        raw += n;
    }
    return raw < n ? raw : -1;
}

// Where position `i` of an operation lies in the output (or target), the
// source and the index, and the index there (int64 or int32): the walk
// both kernels below take over the merged sizes of `p` (a `GatherArgs` or a
// `ScatterArgs`), with `Index` arithmetic.
struct Position {
    uint64_t out, src;
    int64_t index;
};
template <class Index, class P> __device__ inline Position walk_to(const P& p, Index rest) {
    Index o = Index(p.out.offset), s = Index(p.src.offset), x = Index(p.index.offset);
    for (int d = p.rank - 1; d > 0; --d) {
        Index q = quotient(p, rest, d);
        Index k = rest - q * Index(p.sizes[d]);
        rest = q;
        o += k * Index(p.out.strides[d]);
        s += k * Index(p.src.strides[d]);
        x += k * Index(p.index.strides[d]);
    }
    o += rest * Index(p.out.strides[0]);
    s += rest * Index(p.src.strides[0]);
    x += rest * Index(p.index.strides[0]);
    int64_t raw = p.index_dtype == DT_i32
                      ? int64_t(reinterpret_cast<const int32_t*>(p.index.ptr)[x])
                      : reinterpret_cast<const int64_t*>(p.index.ptr)[x];
    return Position{uint64_t(o), uint64_t(s), raw};
}
// 32-bit where the host found that everything fits (every thread of a
// launch takes the same branch).
template <class P> __device__ inline Position position_of(const P& p, uint64_t i) {
    return p.narrow ? walk_to<uint32_t>(p, uint32_t(i)) : walk_to<uint64_t>(p, i);
}

// `V` elements per thread and step: one index for a run of `V` (the host
// set `vec` only where the index's innermost stride is 0, the output's and
// the source's 1, and every run starts 16-byte aligned).
template <class T, int V> __device__ void gather_runs(const GatherArgs& p) {
    T* out = reinterpret_cast<T*>(p.out.ptr);
    uint64_t step = uint64_t(blockDim.x) * gridDim.x;
    uint64_t runs = p.numel / V;
    for (uint64_t r = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; r < runs; r += step) {
        uint64_t i = r * V;
        Position at_i = position_of(p, i);
        int64_t at = resolve(at_i.index, p.dim_len, p.wrap);
        if (at < 0) {
            // The run's first position is its first bad one (one index).
            atomicMin(reinterpret_cast<unsigned long long*>(p.fault), (unsigned long long)i);
        } else if (out != nullptr) {
            Pack<T, V> v = Typed::load_pack<T, V>(p.src.ptr, at_i.src + uint64_t(at) * p.dim_stride, 0);
            Typed::store_pack<T, V>(p.out.ptr, at_i.out, 0, v);
        }
    }
}

// Positions per thread and step of the gather and scatter loops: a thread
// walks `SHAPED_INDEX_ILP` positions a block apart and issues their index
// and source loads before it uses any, so that several dependent load
// chains are in flight per thread rather than one.
#define SHAPED_INDEX_ILP 4
#ifdef SHAPED_HOST
#define SHAPED_UNROLL
#else
#define SHAPED_UNROLL _Pragma("unroll")
#endif

// The positions of one step: `first`, `first + blockDim.x`, ... and what
// each resolves to along the dimension (-1: a bad index, -2: past the end).
template <class P> struct Step {
    Position at[SHAPED_INDEX_ILP];
    int64_t along[SHAPED_INDEX_ILP];
    __device__ void walk(const P& p, uint64_t first) {
        SHAPED_UNROLL
        for (int k = 0; k < SHAPED_INDEX_ILP; ++k) {
            const uint64_t i = first + uint64_t(k) * blockDim.x;
            along[k] = -2;
            if (i < p.numel) {
                at[k] = position_of(p, i);
                along[k] = resolve(at[k].index, p.dim_len, p.wrap);
            }
        }
    }
};

// The grid-stride loop of the gathers and scatters: `body(first, s)` for
// each of this thread's steps, `s` walked from position `first`.
template <class P, class Body> __device__ void each_step(const P& p, Body body) {
    const uint64_t stride = uint64_t(blockDim.x) * gridDim.x * SHAPED_INDEX_ILP;
    for (uint64_t first = uint64_t(blockIdx.x) * blockDim.x * SHAPED_INDEX_ILP + threadIdx.x;
         first < p.numel; first += stride) {
        Step<P> s;
        s.walk(p, first);
        body(first, s);
    }
}

template <class T> __device__ void gather_each(const GatherArgs& p) {
    T* out = reinterpret_cast<T*>(p.out.ptr);
    const T* src = reinterpret_cast<const T*>(p.src.ptr);
    each_step(p, [&](uint64_t first, const Step<GatherArgs>& s) {
        T v[SHAPED_INDEX_ILP];
        SHAPED_UNROLL
        for (int k = 0; k < SHAPED_INDEX_ILP; ++k) {
            if (s.along[k] >= 0 && out != nullptr) {
                v[k] = src[s.at[k].src + uint64_t(s.along[k]) * p.dim_stride];
            }
        }
        SHAPED_UNROLL
        for (int k = 0; k < SHAPED_INDEX_ILP; ++k) {
            if (s.along[k] == -1) {
                const uint64_t i = first + uint64_t(k) * blockDim.x;
                atomicMin(reinterpret_cast<unsigned long long*>(p.fault), (unsigned long long)i);
            } else if (s.along[k] >= 0 && out != nullptr) {
                out[s.at[k].out] = v[k];
            }
        }
    });
}

// The vector width of T: 16 bytes of elements of at most 8 bytes.
template <class T, bool Packs = (sizeof(T) <= 8)> struct GatherRuns {
    __device__ static void go(const GatherArgs& p) {
        if (p.vec == int32_t(16 / sizeof(T))) gather_runs<T, 16 / sizeof(T)>(p);
        else gather_each<T>(p);
    }
};
template <class T> struct GatherRuns<T, false> {
    __device__ static void go(const GatherArgs& p) { gather_each<T>(p); }
};

template <class T> __device__ void gather(const GatherArgs& p) { GatherRuns<T>::go(p); }

// Mirrors `ScatterArgs` in src/backend/cuda/indexing.rs (repr(C)).
struct ScatterArgs {
    uint64_t numel;
    uint64_t sizes[SHAPED_MAX_RANK];
    Operand out, src, index;  // out: the target over the index's sizes, stride 0 along dim
    uint64_t dim_stride;      // the scattered dimension's stride in the target
    uint64_t dim_len;         // and its length
    uint64_t value[2];        // the one value written, when src_scalar
    int32_t rank;             // after merging, at least 1
    int32_t wrap;             // as GatherArgs
    int32_t index_dtype;      // DT_i64 or DT_i32
    int32_t op;               // OP_IDENTITY (write), OP_ADD, OP_MUL, OP_MAXIMUM, OP_MINIMUM
    int32_t src_scalar;       // 1: write `value` at every position
    int32_t narrow;           // as GatherArgs
    uint32_t magic[SHAPED_MAX_RANK];
    uint32_t shift[SHAPED_MAX_RANK];
};

// `*at = f(*at, v)` atomically: a compare-and-swap loop on the aligned
// 32-bit or 64-bit word that holds the element (elements of 1 and 2 bytes
// share their word with neighbours, left as they are).
template <class T, class F> __device__ void atomic_update(T* at, T v, F f) {
    if (sizeof(T) == 8) {
        unsigned long long* word = reinterpret_cast<unsigned long long*>(at);
        unsigned long long old = *word, seen;
        do {
            seen = old;
            T cur;
            memcpy(&cur, &seen, 8);
            T next = f(cur, v);
            unsigned long long bits;
            memcpy(&bits, &next, 8);
            old = atomicCAS(word, seen, bits);
        } while (old != seen);
        return;
    }
    uintptr_t addr = reinterpret_cast<uintptr_t>(at);
    unsigned int* word = reinterpret_cast<unsigned int*>(addr & ~uintptr_t(3));
    unsigned int shift = unsigned(addr & 3);
    unsigned int old = *word, seen;
    do {
        seen = old;
        T cur;
        memcpy(&cur, reinterpret_cast<const char*>(&seen) + shift, sizeof(T));
        T next = f(cur, v);
        unsigned int bits = seen;
        memcpy(reinterpret_cast<char*>(&bits) + shift, &next, sizeof(T));
        old = atomicCAS(word, seen, bits);
    } while (old != seen);
}

// The read-modify-writes the hardware has, in place of the
// compare-and-swap loop: sums of 4- and 8-byte numbers, extremes of
// integers. (float16 and bfloat16 keep the loop: the hardware's own sum
// rounds once in half precision, not once from float32 as every other
// kernel here.)
__device__ inline void atomic_update(float* at, float v, Add) { atomicAdd(at, v); }
__device__ inline void atomic_update(double* at, double v, Add) { atomicAdd(at, v); }
__device__ inline void atomic_update(int32_t* at, int32_t v, Add) {
    atomicAdd(reinterpret_cast<int*>(at), int(v));
}
__device__ inline void atomic_update(int64_t* at, int64_t v, Add) {
    // (Two's complement: the unsigned sum wraps as the signed one.)
    atomicAdd(reinterpret_cast<unsigned long long*>(at), (unsigned long long)v);
}
__device__ inline void atomic_update(int32_t* at, int32_t v, Maximum) {
    atomicMax(reinterpret_cast<int*>(at), int(v));
}
__device__ inline void atomic_update(int32_t* at, int32_t v, Minimum) {
    atomicMin(reinterpret_cast<int*>(at), int(v));
}
__device__ inline void atomic_update(int64_t* at, int64_t v, Maximum) {
    atomicMax(reinterpret_cast<long long*>(at), (long long)v);
}
__device__ inline void atomic_update(int64_t* at, int64_t v, Minimum) {
    atomicMin(reinterpret_cast<long long*>(at), (long long)v);
}

// Complex numbers of 16 bytes add part by part (no 128-bit exchange); the
// Rust side asks them for nothing but writes and sums.
template <class F> __device__ void atomic_update(complex<double>* at, complex<double> v, F) {
    double* parts = reinterpret_cast<double*>(at);
    atomic_update(parts, v.re, Add());
    atomic_update(parts + 1, v.im, Add());
}

template <class T, class F> __device__ void scatter_with(const ScatterArgs& p, F f) {
    T* out = reinterpret_cast<T*>(p.out.ptr);
    const T* src = reinterpret_cast<const T*>(p.src.ptr);
    T value;
    memcpy(&value, p.value, sizeof(T));
    each_step(p, [&](uint64_t, const Step<ScatterArgs>& s) {
        // The host checked every index first: one outside is skipped.
        T v[SHAPED_INDEX_ILP];
        SHAPED_UNROLL
        for (int k = 0; k < SHAPED_INDEX_ILP; ++k) {
            v[k] = value;
            if (s.along[k] >= 0 && !p.src_scalar) v[k] = src[s.at[k].src];
        }
        SHAPED_UNROLL
        for (int k = 0; k < SHAPED_INDEX_ILP; ++k) {
            if (s.along[k] < 0) continue;
            T* dst = out + s.at[k].out + uint64_t(s.along[k]) * p.dim_stride;
            if (p.op == OP_IDENTITY) {
                *dst = v[k];
            } else {
                atomic_update(dst, v[k], f);
            }
        }
    });
}

// The maximum and minimum of ordered types only (the Rust types never ask
// for those of complex numbers).
template <class T, bool Ordered = MathTraits<T>::maxmin> struct Extremes {
    __device__ static void max(const ScatterArgs& p) { scatter_with<T>(p, Maximum()); }
    __device__ static void min(const ScatterArgs& p) { scatter_with<T>(p, Minimum()); }
};
template <class T> struct Extremes<T, false> {
    __device__ static void max(const ScatterArgs&) {}
    __device__ static void min(const ScatterArgs&) {}
};

// Plain writes (OP_IDENTITY) and sums (OP_ADD): a kernel of their own
// (`shaped_scatter_<dtype>`), so that the compare-and-swap loops of the
// other combinations do not set its registers. With them in one kernel it
// held 3 blocks of 256 per multiprocessor, alone 4; `scatter_add_` of
// (16384, 16384) float32 took 5.6 ms against 3.96 ms alone, on an H100.
template <class T> __device__ void scatter(const ScatterArgs& p) { scatter_with<T>(p, Add()); }

// Products and extremes (`shaped_combine_<dtype>`).
template <class T> __device__ void scatter_combine(const ScatterArgs& p) {
    switch (p.op) {
        case OP_MUL: scatter_with<T>(p, Mul()); break;
        case OP_MAXIMUM: Extremes<T>::max(p); break;
        default: Extremes<T>::min(p); break;  // OP_MINIMUM
    }
}

// ------------------------------------------------------------ compaction
//
// `nonzero`, `masked_select` and `masked_scatter_`: the positions whose flag
// is set, in row-major order, numbered 0, 1, ... A launch of
// `shaped_compact_T` walks the positions in chunks of `chunk`, one chunk per
// block at a time. The write pass takes `blockDim.x` strips of
// `SHAPED_COMPACT_STRIP` neighbouring positions per round; a scan in shared
// memory of the strips' counts numbers the flagged positions of a round. The count pass writes
// each chunk's count (each thread counts, one tree sums); the host turns
// them into each chunk's first number
// (a prefix sum of at most a few thousand words) and the write pass writes
// each flagged position at its number.

#define SHAPED_COMPACT_BLOCK 256
// Neighbouring positions per thread and round of the write pass: one scan
// of 256 strip counts numbers 2048 positions.
#define SHAPED_COMPACT_STRIP 8

enum { COMPACT_NONZERO = 0, COMPACT_SELECT = 1, COMPACT_SCATTER = 2 };
enum { COMPACT_COUNT = 0, COMPACT_WRITE = 1 };

// Mirrors `CompactArgs` in src/backend/cuda/masking.rs (repr(C)).
struct CompactArgs {
    uint64_t numel;
    uint64_t sizes[SHAPED_MAX_RANK];
    Operand flag;     // NONZERO: the tensor (T); else the bool mask
    Operand data;     // SELECT: the source (T); SCATTER: the target (T)
    Operand source;   // SCATTER: the source's elements, contiguous from offset
    uint64_t chunk;   // positions per chunk (a multiple of blockDim.x)
    uint64_t counts;  // device address of a u64 per chunk: counts, then starts
    uint64_t out;     // NONZERO: int64 coordinates, column after column; SELECT: T
    uint64_t total;   // the write pass: how many are flagged (NONZERO's column stride)
    int32_t rank;     // sizes (NONZERO: the tensor's own, unmerged), at least 1
    int32_t columns;  // NONZERO: coordinates per position (the tensor's rank)
    int32_t mode;     // COMPACT_*
    int32_t pass;     // COMPACT_COUNT or COMPACT_WRITE
    int32_t narrow;   // as GatherArgs
    uint32_t magic[SHAPED_MAX_RANK];
    uint32_t shift[SHAPED_MAX_RANK];
};

// The flag's and the data's offsets of position `rest` (with `Index`
// arithmetic), and its coordinates into `coords` (NONZERO).
template <class Index>
__device__ inline void compact_offsets(const CompactArgs& p, Index rest, uint64_t& f, uint64_t& d,
                                       uint64_t* coords) {
    Index fo = Index(p.flag.offset), dofs = Index(p.data.offset);
    for (int k = p.rank - 1; k > 0; --k) {
        Index q = quotient(p, rest, k);
        Index c = rest - q * Index(p.sizes[k]);
        rest = q;
        fo += c * Index(p.flag.strides[k]);
        dofs += c * Index(p.data.strides[k]);
        if (coords != nullptr) coords[k] = uint64_t(c);
    }
    fo += rest * Index(p.flag.strides[0]);
    dofs += rest * Index(p.data.strides[0]);
    if (coords != nullptr) coords[0] = uint64_t(rest);
    f = uint64_t(fo);
    d = uint64_t(dofs);
}

// Whether position `i` is flagged (and, with `coords`, its coordinates),
// its data offset in `d`.
template <class T>
__device__ inline bool flagged_at(const CompactArgs& p, uint64_t i, uint64_t& d, uint64_t* coords) {
    uint64_t f = 0;
    if (p.narrow) compact_offsets<uint32_t>(p, uint32_t(i), f, d, coords);
    else compact_offsets<uint64_t>(p, i, f, d, coords);
    return p.mode == COMPACT_NONZERO ? nonzero(reinterpret_cast<const T*>(p.flag.ptr)[f])
                                     : reinterpret_cast<const bool*>(p.flag.ptr)[f];
}

// The count pass: each thread counts its positions of the chunk, and one
// tree in shared memory sums the block's counts (no scan per round).
template <class T> __device__ void compact_count(const CompactArgs& p) {
    __shared__ uint64_t sums[SHAPED_COMPACT_BLOCK];
    const unsigned t = threadIdx.x;
    uint64_t* counts = reinterpret_cast<uint64_t*>(p.counts);
    const uint64_t chunks = (p.numel + p.chunk - 1) / p.chunk;
    for (uint64_t b = blockIdx.x; b < chunks; b += gridDim.x) {
        const uint64_t begin = b * p.chunk;
        const uint64_t end = begin + p.chunk < p.numel ? begin + p.chunk : p.numel;
        uint64_t mine = 0, d = 0;
        for (uint64_t i = begin + t; i < end; i += blockDim.x) {
            mine += flagged_at<T>(p, i, d, nullptr) ? 1u : 0u;
        }
        sums[t] = mine;
        __syncthreads();
        for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
            if (t < s) sums[t] += sums[t + s];
            __syncthreads();
        }
        if (t == 0) counts[b] = sums[0];
        // The next chunk writes `sums` again.
        __syncthreads();
    }
}

template <class T> __device__ void compact(const CompactArgs& p) {
    if (p.pass == COMPACT_COUNT) {
        compact_count<T>(p);
        return;
    }
    __shared__ uint32_t scan[SHAPED_COMPACT_BLOCK];
    const unsigned t = threadIdx.x;
    uint64_t* counts = reinterpret_cast<uint64_t*>(p.counts);
    const uint64_t chunks = (p.numel + p.chunk - 1) / p.chunk;
    const uint64_t round_len = uint64_t(blockDim.x) * SHAPED_COMPACT_STRIP;
    // Every thread of a block runs the same rounds (the barriers below are
    // reached by all of them).
    for (uint64_t b = blockIdx.x; b < chunks; b += gridDim.x) {
        const uint64_t begin = b * p.chunk;
        const uint64_t end = begin + p.chunk < p.numel ? begin + p.chunk : p.numel;
        uint64_t number = counts[b];  // the first number of this round
        for (uint64_t round = begin; round < end; round += round_len) {
            // Thread t's strip: SHAPED_COMPACT_STRIP neighbouring positions,
            // its flags kept as bits.
            const uint64_t strip = round + uint64_t(t) * SHAPED_COMPACT_STRIP;
            uint32_t bits = 0, mine = 0;
            for (int j = 0; j < SHAPED_COMPACT_STRIP; ++j) {
                uint64_t d = 0;
                if (strip + j < end && flagged_at<T>(p, strip + j, d, nullptr)) {
                    bits |= 1u << j;
                    ++mine;
                }
            }
            // An inclusive scan of the strips' counts in shared memory.
            scan[t] = mine;
            __syncthreads();
            for (unsigned s = 1; s < blockDim.x; s <<= 1) {
                uint32_t before = t >= s ? scan[t - s] : 0u;
                __syncthreads();
                scan[t] += before;
                __syncthreads();
            }
            uint64_t at = number + scan[t] - mine;
            const uint32_t in_round = scan[blockDim.x - 1];
            for (int j = 0; j < SHAPED_COMPACT_STRIP; ++j) {
                if (((bits >> j) & 1u) == 0) continue;
                uint64_t coords[SHAPED_MAX_RANK];
                uint64_t d = 0;
                flagged_at<T>(p, strip + j, d, p.mode == COMPACT_NONZERO ? coords : nullptr);
                if (p.mode == COMPACT_NONZERO) {
                    int64_t* out = reinterpret_cast<int64_t*>(p.out);
                    for (int k = 0; k < p.columns; ++k) {
                        // (A rank-0 tensor has no column; rank >= 1 here
                        // walks its own sizes.)
                        out[uint64_t(k) * p.total + at] = int64_t(coords[k]);
                    }
                } else if (p.mode == COMPACT_SELECT) {
                    reinterpret_cast<T*>(p.out)[at] = reinterpret_cast<const T*>(p.data.ptr)[d];
                } else {
                    reinterpret_cast<T*>(p.data.ptr)[d] =
                        reinterpret_cast<const T*>(p.source.ptr)[p.source.offset + at];
                }
                ++at;
            }
            number += in_round;
            // The next round writes `scan` again.
            __syncthreads();
        }
    }
}

}  // namespace shaped

// The gathers and scatters hold `SHAPED_INDEX_ILP` positions per thread:
// at least 3 blocks of 256 resident (85 registers), without spills.
#ifdef SHAPED_HOST
#define SHAPED_INDEX_BOUNDS
#else
#define SHAPED_INDEX_BOUNDS __launch_bounds__(256, 3)
#endif

#define SHAPED_COMPACT_KERNELS(name, T, numeric)                                            \
    extern "C" __global__ void SHAPED_BOUNDS shaped_compact_##name(shaped::CompactArgs p) { \
        shaped::compact<T>(p);                                                              \
    }

#define SHAPED_SCATTER_KERNELS(name, T, numeric)                                            \
    extern "C" __global__ void SHAPED_INDEX_BOUNDS shaped_scatter_##name(shaped::ScatterArgs p) { \
        shaped::scatter<T>(p);                                                              \
    }                                                                                       \
    extern "C" __global__ void SHAPED_INDEX_BOUNDS shaped_combine_##name(            \
        shaped::ScatterArgs p) {                                                            \
        shaped::scatter_combine<T>(p);                                                      \
    }

#define SHAPED_GATHER_KERNELS(name, T, numeric)                                             \
    extern "C" __global__ void SHAPED_INDEX_BOUNDS shaped_gather_##name(shaped::GatherArgs p) {  \
        shaped::gather<T>(p);                                                               \
    }
