// Reading by index tensors on the device: `gather`, `index_select`, `take`
// and `take_along_dim`, one kernel per element type T
// (`shaped_gather_<dtype>`), whose index is int64 or int32 (a runtime
// switch, the same for every thread). Shape-erased as the elementwise
// kernels: the output, the source (stride 0 along the gathered dimension)
// and the index are merged by the host, their sizes and strides passed at
// run time; a grid-stride loop with 64-bit indices.
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
// both kernels below take over the merged sizes.
struct Position {
    uint64_t out, src;
    int64_t index;
};
__device__ inline Position position_of(uint64_t i, const uint64_t* sizes, int rank,
                                       const Operand& out, const Operand& src,
                                       const Operand& index, int32_t index_dtype) {
    uint64_t o = out.offset, s = src.offset, x = index.offset;
    for (int d = rank - 1; d >= 0; --d) {
        uint64_t q = i / sizes[d];
        uint64_t k = i - q * sizes[d];
        i = q;
        o += k * out.strides[d];
        s += k * src.strides[d];
        x += k * index.strides[d];
    }
    int64_t raw = index_dtype == DT_i32 ? int64_t(reinterpret_cast<const int32_t*>(index.ptr)[x])
                                        : reinterpret_cast<const int64_t*>(index.ptr)[x];
    return Position{o, s, raw};
}

template <class T> __device__ void gather(const GatherArgs& p) {
    T* out = reinterpret_cast<T*>(p.out.ptr);
    const T* src = reinterpret_cast<const T*>(p.src.ptr);
    uint64_t step = uint64_t(blockDim.x) * gridDim.x;
    for (uint64_t i = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < p.numel; i += step) {
        Position at_i = position_of(i, p.sizes, p.rank, p.out, p.src, p.index, p.index_dtype);
        uint64_t o = at_i.out, s = at_i.src;
        int64_t raw = at_i.index;
        int64_t at = resolve(raw, p.dim_len, p.wrap);
        if (at < 0) {
            atomicMin(reinterpret_cast<unsigned long long*>(p.fault), (unsigned long long)i);
        } else if (out != nullptr) {
            out[o] = src[s + uint64_t(at) * p.dim_stride];
        }
    }
}

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
    uint64_t step = uint64_t(blockDim.x) * gridDim.x;
    for (uint64_t i = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < p.numel; i += step) {
        Position at_i = position_of(i, p.sizes, p.rank, p.out, p.src, p.index, p.index_dtype);
        uint64_t o = at_i.out, s = at_i.src;
        int64_t raw = at_i.index;
        // The host checked every index first: one outside is skipped.
        int64_t at = resolve(raw, p.dim_len, p.wrap);
        if (at < 0) continue;
        T v = p.src_scalar ? value : src[s];
        T* dst = out + o + uint64_t(at) * p.dim_stride;
        if (p.op == OP_IDENTITY) {
            *dst = v;
        } else {
            atomic_update(dst, v, f);
        }
    }
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

template <class T> __device__ void scatter(const ScatterArgs& p) {
    switch (p.op) {
        case OP_MUL: scatter_with<T>(p, Mul()); break;
        case OP_MAXIMUM: Extremes<T>::max(p); break;
        case OP_MINIMUM: Extremes<T>::min(p); break;
        default: scatter_with<T>(p, Add()); break;  // OP_ADD, and OP_IDENTITY's plain stores
    }
}

}  // namespace shaped

#define SHAPED_SCATTER_KERNELS(name, T, numeric)                                            \
    extern "C" __global__ void SHAPED_BOUNDS shaped_scatter_##name(shaped::ScatterArgs p) { \
        shaped::scatter<T>(p);                                                              \
    }

#define SHAPED_GATHER_KERNELS(name, T, numeric)                                             \
    extern "C" __global__ void SHAPED_BOUNDS shaped_gather_##name(shaped::GatherArgs p) {  \
        shaped::gather<T>(p);                                                               \
    }
