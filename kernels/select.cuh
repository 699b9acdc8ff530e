// `where(cond, a, b)`, and the functions of three tensors (`lerp`,
// `addcmul`, `addcdiv`), on the device.
//
// `where`: one kernel per output element type T
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

// The element offsets in four operands (`w` .. `z`) of the flat index
// `rest` over `p`'s sizes: a mixed-radix walk from the last dimension, its
// divisions by multiplication (`quotient`).
template <class Index, class P>
__device__ inline void offsets4(const P& p, Index rest, const Operand& w, const Operand& x,
                                const Operand& y, const Operand& z, Index& ow, Index& ox,
                                Index& oy, Index& oz) {
    ow = Index(w.offset), ox = Index(x.offset), oy = Index(y.offset), oz = Index(z.offset);
    for (int d = p.rank - 1; d > 0; --d) {
        Index q = quotient(p, rest, d);
        Index k = rest - q * Index(p.sizes[d]);
        rest = q;
        ow += k * Index(w.strides[d]);
        ox += k * Index(x.strides[d]);
        oy += k * Index(y.strides[d]);
        oz += k * Index(z.strides[d]);
    }
    ow += rest * Index(w.strides[0]);
    ox += rest * Index(x.strides[0]);
    oy += rest * Index(y.strides[0]);
    oz += rest * Index(z.strides[0]);
}

template <class T, class Index> __device__ void select_in(const WhereArgs& p) {
    const bool* cond = reinterpret_cast<const bool*>(p.cond.ptr);
    T* out = reinterpret_cast<T*>(p.out.ptr);
    uint64_t step = uint64_t(blockDim.x) * gridDim.x;
    for (uint64_t i = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < p.numel; i += step) {
        Index o, c, a, b;
        offsets4(p, Index(i), p.out, p.cond, p.a, p.b, o, c, a, b);
        out[o] = cond[c] ? Converted::load<T>(p.a.ptr, a, p.a_dtype)
                         : Converted::load<T>(p.b.ptr, b, p.b_dtype);
    }
}

// 32-bit offsets where the host found that they fit.
template <class T> __device__ void select(const WhereArgs& p) {
    if (p.narrow) select_in<T, uint32_t>(p);
    else select_in<T, uint64_t>(p);
}

// The functions of three operands: one kernel per output element type T
// (`shaped_ternary_<dtype>`), whose operands may have any dtypes (each
// converted to T as it is loaded, as PyTorch converts to the common dtype).
// The arithmetic runs in PyTorch's opmath type (float32 for the half types)
// with PyTorch's fused multiply-adds, as src/dtype/ternary.rs computes on the
// CPU. Mirrors `TernaryArgs` in src/backend/cuda/select.rs (repr(C)).
struct TernaryArgs {
    uint64_t numel;
    uint64_t sizes[SHAPED_MAX_RANK];
    Operand out, a, b, c;
    double value_re, value_im;  // the number (value or weight) ...
    int64_t value_int;          // ... or, for value_kind 1, this integer
    int32_t value_kind;         // 0: real, 1: integer, 2: complex
    int32_t rank;
    int32_t a_dtype, b_dtype, c_dtype;  // DT_* codes
    int32_t op;                 // TernaryCode: 0 lerp, 1 lerp by the number, 2 addcmul, 3 addcdiv
    int32_t narrow;             // 1: the walk fits 32 bits (as Args::narrow)
    uint32_t magic[SHAPED_MAX_RANK];
    uint32_t shift[SHAPED_MAX_RANK];
};

enum { TERNARY_LERP = 0, TERNARY_LERP_NUMBER = 1, TERNARY_ADDCMUL = 2, TERNARY_ADDCDIV = 3 };

__host__ __device__ inline float t_fma(float x, float y, float z) { return fmaf(x, y, z); }
__host__ __device__ inline double t_fma(double x, double y, double z) { return fma(x, y, z); }
__host__ __device__ inline float t_abs(float x) { return fabsf(x); }
__host__ __device__ inline double t_abs(double x) { return fabs(x); }
__host__ __device__ inline float t_hypot(float x, float y) { return hypotf(x, y); }
__host__ __device__ inline double t_hypot(double x, double y) { return hypot(x, y); }

// Integers and bool: addcmul only (wrapping); lerp and addcdiv are refused
// by the host for them and leave `a`.
template <class T> struct Ternary {
    typedef T Opmath;
    __host__ __device__ static Opmath number(const TernaryArgs& p) {
        return p.value_kind == 1 ? Make<T>::from(p.value_int) : Make<T>::from(p.value_re);
    }
    __host__ __device__ static T apply(int op, T a, T b, T c, Opmath v) {
        return op == TERNARY_ADDCMUL ? add(a, mul(mul(v, b), c)) : a;
    }
};

// The real floating types, in float32 (the half types) or themselves.
template <class T, class O> struct RealTernary {
    typedef O Opmath;
    __host__ __device__ static O number(const TernaryArgs& p) {
        return p.value_kind == 1 ? O(p.value_int) : O(p.value_re);
    }
    __host__ __device__ static T apply(int op, T a, T b, T c, O v) {
        O x = O(real_f64(a)), y = O(real_f64(b)), z = O(real_f64(c));
        O r;
        switch (op) {
            case TERNARY_ADDCMUL: r = t_fma(v * y, z, x); break;
            case TERNARY_ADDCDIV: r = x + v * y / z; break;
            default: {
                O w = op == TERNARY_LERP ? z : v;
                O d = y - x;
                r = t_abs(w) < O(0.5) ? t_fma(w, d, x) : t_fma(w - O(1), d, y);
            }
        }
        return Make<T>::from(r);
    }
};
template <> struct Ternary<f16> : RealTernary<f16, float> {};
template <> struct Ternary<bf16> : RealTernary<bf16, float> {};
template <> struct Ternary<float> : RealTernary<float, float> {};
template <> struct Ternary<double> : RealTernary<double, double> {};

// Complex numbers: the textbook product, Smith's division, no fused steps.
template <class R> struct Ternary<complex<R> > {
    typedef complex<R> Opmath;
    __host__ __device__ static Opmath number(const TernaryArgs& p) {
        return p.value_kind == 1 ? complex<R>{R(p.value_int), R(0)}
                                 : complex<R>{R(p.value_re), R(p.value_im)};
    }
    __host__ __device__ static Opmath apply(int op, Opmath a, Opmath b, Opmath c, Opmath v) {
        switch (op) {
            case TERNARY_ADDCMUL: return add(a, mul(mul(v, b), c));
            case TERNARY_ADDCDIV: return add(a, div(mul(v, b), c));
            default: {
                Opmath w = op == TERNARY_LERP ? c : v;
                Opmath d = sub(b, a);
                return t_hypot(w.re, w.im) < R(0.5) ? add(a, mul(w, d))
                                                  : add(b, mul(sub(w, complex<R>{R(1), R(0)}), d));
            }
        }
    }
};

template <class T, class Index> __device__ void ternary_in(const TernaryArgs& p) {
    T* out = reinterpret_cast<T*>(p.out.ptr);
    typename Ternary<T>::Opmath v = Ternary<T>::number(p);
    bool reads_c = p.op != TERNARY_LERP_NUMBER;
    uint64_t step = uint64_t(blockDim.x) * gridDim.x;
    for (uint64_t i = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < p.numel; i += step) {
        Index o, a, b, c;
        offsets4(p, Index(i), p.out, p.a, p.b, p.c, o, a, b, c);
        T x = Converted::load<T>(p.a.ptr, a, p.a_dtype);
        T y = Converted::load<T>(p.b.ptr, b, p.b_dtype);
        T z = reads_c ? Converted::load<T>(p.c.ptr, c, p.c_dtype) : x;
        out[o] = Ternary<T>::apply(p.op, x, y, z, v);
    }
}

template <class T> __device__ void ternary(const TernaryArgs& p) {
    if (p.narrow) ternary_in<T, uint32_t>(p);
    else ternary_in<T, uint64_t>(p);
}

}  // namespace shaped

#define SHAPED_WHERE_KERNELS(name, T, numeric)                                              \
    extern "C" __global__ void SHAPED_BOUNDS shaped_where_##name(shaped::WhereArgs p) {    \
        shaped::select<T>(p);                                                               \
    }

#define SHAPED_TERNARY_KERNELS(name, T, numeric)                                            \
    extern "C" __global__ void SHAPED_BOUNDS shaped_ternary_##name(shaped::TernaryArgs p) { \
        shaped::ternary<T>(p);                                                              \
    }
