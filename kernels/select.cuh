// `where(cond, a, b)` on the device: one kernel per output element type T
// (`shaped_where_<dtype>`), whose operands may have any dtypes. Each element
// of `a` or `b` is converted to T as it is loaded (the switch over twelve
// conversions of the promoted kernels, the same for every thread), and the
// bool condition picks which. Shape-erased: the four operands (the output,
// the condition, a, b) are broadcast and merged by the host, their sizes and
// strides passed at run time; a grid-stride loop whose offsets take 32-bit
// arithmetic (and divisions by multiplication) where they fit.
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
    int32_t narrow;   // 1: the walk fits 32 bits (as Args::narrow)
    uint32_t magic[SHAPED_MAX_RANK];  // division by sizes[d] (as Args::magic)
    uint32_t shift[SHAPED_MAX_RANK];
};

template <class T, class Index> __device__ void select_in(const WhereArgs& p) {
    const bool* cond = reinterpret_cast<const bool*>(p.cond.ptr);
    T* out = reinterpret_cast<T*>(p.out.ptr);
    uint64_t step = uint64_t(blockDim.x) * gridDim.x;
    for (uint64_t i = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < p.numel; i += step) {
        Index o = Index(p.out.offset), c = Index(p.cond.offset), a = Index(p.a.offset),
              b = Index(p.b.offset);
        Index rest = Index(i);
        for (int d = p.rank - 1; d > 0; --d) {
            Index q = quotient(p, rest, d);
            Index k = rest - q * Index(p.sizes[d]);
            rest = q;
            o += k * Index(p.out.strides[d]);
            c += k * Index(p.cond.strides[d]);
            a += k * Index(p.a.strides[d]);
            b += k * Index(p.b.strides[d]);
        }
        o += rest * Index(p.out.strides[0]);
        c += rest * Index(p.cond.strides[0]);
        a += rest * Index(p.a.strides[0]);
        b += rest * Index(p.b.strides[0]);
        out[o] = cond[c] ? Converted::load<T>(p.a.ptr, a, p.a_dtype)
                         : Converted::load<T>(p.b.ptr, b, p.b_dtype);
    }
}

// 32-bit offsets where the host found that they fit.
template <class T> __device__ void select(const WhereArgs& p) {
    if (p.narrow) select_in<T, uint32_t>(p);
    else select_in<T, uint64_t>(p);
}

}  // namespace shaped

#define SHAPED_WHERE_KERNELS(name, T, numeric)                                              \
    extern "C" __global__ void SHAPED_BOUNDS shaped_where_##name(shaped::WhereArgs p) {    \
        shaped::select<T>(p);                                                               \
    }
