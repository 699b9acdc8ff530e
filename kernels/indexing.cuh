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

template <class T> __device__ void gather(const GatherArgs& p) {
    T* out = reinterpret_cast<T*>(p.out.ptr);
    const T* src = reinterpret_cast<const T*>(p.src.ptr);
    uint64_t step = uint64_t(blockDim.x) * gridDim.x;
    for (uint64_t i = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < p.numel; i += step) {
        uint64_t o = p.out.offset, s = p.src.offset, x = p.index.offset;
        uint64_t rest = i;
        for (int d = p.rank - 1; d >= 0; --d) {
            uint64_t q = rest / p.sizes[d];
            uint64_t k = rest - q * p.sizes[d];
            rest = q;
            o += k * p.out.strides[d];
            s += k * p.src.strides[d];
            x += k * p.index.strides[d];
        }
        int64_t raw = p.index_dtype == DT_i32
                          ? int64_t(reinterpret_cast<const int32_t*>(p.index.ptr)[x])
                          : reinterpret_cast<const int64_t*>(p.index.ptr)[x];
        int64_t at = resolve(raw, p.dim_len, p.wrap);
        if (at < 0) {
            atomicMin(reinterpret_cast<unsigned long long*>(p.fault), (unsigned long long)i);
        } else if (out != nullptr) {
            out[o] = src[s + uint64_t(at) * p.dim_stride];
        }
    }
}

}  // namespace shaped

#define SHAPED_GATHER_KERNELS(name, T, numeric)                                             \
    extern "C" __global__ void SHAPED_BOUNDS shaped_gather_##name(shaped::GatherArgs p) {  \
        shaped::gather<T>(p);                                                               \
    }
