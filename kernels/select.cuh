// `where(cond, a, b)` on the device: one kernel per output element type T
// (`shaped_where_<dtype>`), whose operands may have any dtypes. Each element
// of `a` or `b` is converted to T as it is loaded (the switch over twelve
// conversions of the promoted kernels, the same for every thread), and the
// bool condition picks which. Shape-erased: the four operands (the output,
// the condition, a, b) are broadcast and merged by the host, their sizes and
// strides passed at run time; a grid-stride loop with 64-bit indices.
#pragma once

#include "elementwise.cuh"

namespace shaped {

// Mirrors `WhereArgs` in src/storage/cuda/select.rs (repr(C)).
struct WhereArgs {
    uint64_t numel;
    uint64_t sizes[SHAPED_MAX_RANK];
    Operand out, cond, a, b;
    int32_t rank;     // after merging, at least 1
    int32_t a_dtype;  // operand a's DT_* code
    int32_t b_dtype;  // operand b's DT_* code
};

template <class T> __device__ void select(const WhereArgs& p) {
    const bool* cond = reinterpret_cast<const bool*>(p.cond.ptr);
    T* out = reinterpret_cast<T*>(p.out.ptr);
    uint64_t step = uint64_t(blockDim.x) * gridDim.x;
    for (uint64_t i = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < p.numel; i += step) {
        uint64_t o = p.out.offset, c = p.cond.offset, a = p.a.offset, b = p.b.offset;
        uint64_t rest = i;
        for (int d = p.rank - 1; d >= 0; --d) {
            uint64_t q = rest / p.sizes[d];
            uint64_t k = rest - q * p.sizes[d];
            rest = q;
            o += k * p.out.strides[d];
            c += k * p.cond.strides[d];
            a += k * p.a.strides[d];
            b += k * p.b.strides[d];
        }
        out[o] = cond[c] ? Converted::load<T>(p.a.ptr, a, p.a_dtype)
                         : Converted::load<T>(p.b.ptr, b, p.b_dtype);
    }
}

}  // namespace shaped

#define SHAPED_WHERE_KERNELS(name, T, numeric)                                              \
    extern "C" __global__ void SHAPED_BOUNDS shaped_where_##name(shaped::WhereArgs p) {    \
        shaped::select<T>(p);                                                               \
    }
