// The elementwise kernels of shaped's CUDA backend, as templates over the
// element types and the operation.
//
// Every kernel takes one `Args` by value: shape-erased operands (sizes,
// strides and offsets as runtime numbers, up to SHAPED_MAX_RANK dimensions,
// already coalesced by the host), so one compiled kernel serves every shape.
// The loops are grid-stride loops with 64-bit element indices. When the
// innermost dimension is contiguous (or broadcast) for every operand, the
// host sets `Args::vec` and each thread moves 16 bytes per load and store.
//
// The same source compiles as plain C++ for the host (with SHAPED_HOST and
// host_shim.h), where the tests run it against the CPU backend.
#pragma once

#ifdef SHAPED_HOST
#include "host_shim.h"
#else
#include <cuda_fp16.h>
#include <stdint.h>
#endif

#define SHAPED_MAX_RANK 16

// The twelve element types, in the order of the Rust `DType` enum (whose
// variant index is the DT_* code below): X(kernel-name suffix, C++ type,
// numeric).
#define SHAPED_FOR_EACH_DTYPE(X)          \
    X(f16, shaped::f16, true)             \
    X(bf16, shaped::bf16, true)           \
    X(f32, float, true)                   \
    X(f64, double, true)                  \
    X(c64, shaped::complex<float>, true)  \
    X(c128, shaped::complex<double>, true) \
    X(u8, uint8_t, true)                  \
    X(i8, int8_t, true)                   \
    X(i16, int16_t, true)                 \
    X(i32, int32_t, true)                 \
    X(i64, int64_t, true)                 \
    X(bool, bool, false)

namespace shaped {

// ---------------------------------------------------------------- arguments

// One operand: where its elements start and how to step through them.
// `scalar` operands read `Args::scalar` instead of memory (a plain number on
// one side of an operator, or `fill`'s value).
struct Operand {
    uint64_t ptr;      // device address of the buffer's first element
    uint64_t offset;   // in elements
    uint64_t strides[SHAPED_MAX_RANK];  // in elements, 0 where broadcast
};

// Mirrors `ElementwiseArgs` in src/storage/cuda/launch.rs (repr(C)).
struct Args {
    uint64_t numel;
    uint64_t sizes[SHAPED_MAX_RANK];
    Operand out, a, b;
    uint64_t scalar[2];  // the fixed operand's bytes, as its element type
    int32_t rank;        // after coalescing, at least 1
    int32_t op;          // an OP_* code of the kernel's family
    int32_t a_scalar;    // 1: operand a is `scalar`
    int32_t b_scalar;    // 1: operand b is `scalar`
    int32_t vec;         // elements per vector (1: scalar loops only)
    int32_t a_inner;     // innermost stride of a in the vector path: 0 or 1
    int32_t b_inner;     // the same for b
    int32_t out_dtype;   // cast and promoted kernels: the output's DT_* code
    int32_t a_dtype;     // promoted kernels: operand a's DT_* code
    int32_t b_dtype;     // promoted kernels: operand b's DT_* code
};

// Operation codes; the Rust side mirrors them (`OpCode`).
enum {
    OP_ADD = 0, OP_SUB = 1, OP_MUL = 2, OP_DIV = 3,
    OP_EQ = 4, OP_NE = 5, OP_LT = 6, OP_LE = 7, OP_GT = 8, OP_GE = 9,
    OP_NEG = 16, OP_IDENTITY = 17, OP_CONSTANT = 18, OP_CONJ = 19, OP_CAST = 20,
    // The math family (math.cuh).
    OP_EXP = 32, OP_LN = 33, OP_LOG2 = 34, OP_SQRT = 35, OP_SIN = 36, OP_COS = 37,
    OP_TANH = 38, OP_SIGMOID = 39, OP_RECIP = 40, OP_ABS = 41, OP_FLOOR = 42, OP_CEIL = 43,
    OP_ROUND = 44, OP_RELU = 45, OP_CLAMP = 46, OP_POW_SCALAR = 47,
    OP_MAXIMUM = 48, OP_MINIMUM = 49, OP_POW = 50,
};

// Element type codes (`Args::out_dtype`, `a_dtype`, `b_dtype`), mirroring
// the Rust `DType` variants' order.
#define SHAPED_DTYPE_CODE(name, T, numeric) DT_##name,
enum { SHAPED_FOR_EACH_DTYPE(SHAPED_DTYPE_CODE) DT_COUNT };
#undef SHAPED_DTYPE_CODE

// ------------------------------------------------------------ element types

// float16 and bfloat16 are stored as their bits; arithmetic happens in f32
// and rounds once, as PyTorch (and the CPU backend) compute them.
struct f16 { uint16_t bits; };
struct bf16 { uint16_t bits; };
template <class R> struct complex { R re, im; };

__host__ __device__ inline float to_f32(f16 x) {
#ifdef SHAPED_HOST
    return host_f16_to_f32(x.bits);
#else
    return __half2float(__ushort_as_half(x.bits));
#endif
}
__host__ __device__ inline f16 f16_from(float x) {
#ifdef SHAPED_HOST
    return f16{host_f32_to_f16(x)};
#else
    return f16{__half_as_ushort(__float2half_rn(x))};
#endif
}
__host__ __device__ inline uint32_t bits_of(float x) {
#ifdef SHAPED_HOST
    return host_f32_bits(x);
#else
    return __float_as_uint(x);
#endif
}
__host__ __device__ inline float f32_of_bits(uint32_t x) {
#ifdef SHAPED_HOST
    return host_f32_from_bits(x);
#else
    return __uint_as_float(x);
#endif
}
__host__ __device__ inline float to_f32(bf16 x) { return f32_of_bits(uint32_t(x.bits) << 16); }
// Round to nearest even; NaN stays NaN with its sign (the `half` crate's rule).
__host__ __device__ inline bf16 bf16_from(float f) {
    uint32_t x = bits_of(f);
    if ((x & 0x7fffffffu) > 0x7f800000u) return bf16{uint16_t((x >> 16) | 0x0040u)};
    uint32_t round_bit = 0x8000u;
    uint32_t up = ((x & round_bit) != 0 && (x & (3 * round_bit - 1)) != 0) ? 1u : 0u;
    return bf16{uint16_t((x >> 16) + up)};
}

// ------------------------------------------------------- element functions

// Integers wrap (computed in an unsigned type at least as wide as int).
template <class T> struct Wide { typedef uint32_t type; };
template <> struct Wide<int64_t> { typedef uint64_t type; };

#define SHAPED_INT_OPS(T)                                                              \
    __host__ __device__ inline T add(T a, T b) { typedef Wide<T>::type W; return T(W(a) + W(b)); } \
    __host__ __device__ inline T sub(T a, T b) { typedef Wide<T>::type W; return T(W(a) - W(b)); } \
    __host__ __device__ inline T mul(T a, T b) { typedef Wide<T>::type W; return T(W(a) * W(b)); } \
    __host__ __device__ inline T neg(T a) { typedef Wide<T>::type W; return T(W(0) - W(a)); }      \
    __host__ __device__ inline float div(T a, T b) { return float(a) / float(b); }
SHAPED_INT_OPS(uint8_t)
SHAPED_INT_OPS(int8_t)
SHAPED_INT_OPS(int16_t)
SHAPED_INT_OPS(int32_t)
SHAPED_INT_OPS(int64_t)
#undef SHAPED_INT_OPS
__host__ __device__ inline float div(bool a, bool b) { return float(a) / float(b); }
// bool + bool is `or` (PyTorch's addition saturates at true), bool * bool is `and`.
__host__ __device__ inline bool add(bool a, bool b) { return a || b; }
__host__ __device__ inline bool mul(bool a, bool b) { return a && b; }

#define SHAPED_FLOAT_OPS(T)                                          \
    __host__ __device__ inline T add(T a, T b) { return a + b; }     \
    __host__ __device__ inline T sub(T a, T b) { return a - b; }     \
    __host__ __device__ inline T mul(T a, T b) { return a * b; }     \
    __host__ __device__ inline T div(T a, T b) { return a / b; }     \
    __host__ __device__ inline T neg(T a) { return -a; }
SHAPED_FLOAT_OPS(float)
SHAPED_FLOAT_OPS(double)
#undef SHAPED_FLOAT_OPS

#define SHAPED_HALF_OPS(T, from)                                                        \
    __host__ __device__ inline T add(T a, T b) { return from(to_f32(a) + to_f32(b)); } \
    __host__ __device__ inline T sub(T a, T b) { return from(to_f32(a) - to_f32(b)); } \
    __host__ __device__ inline T mul(T a, T b) { return from(to_f32(a) * to_f32(b)); } \
    __host__ __device__ inline T div(T a, T b) { return from(to_f32(a) / to_f32(b)); } \
    __host__ __device__ inline T neg(T a) { return T{uint16_t(a.bits ^ 0x8000u)}; }
SHAPED_HALF_OPS(f16, f16_from)
SHAPED_HALF_OPS(bf16, bf16_from)
#undef SHAPED_HALF_OPS

// Complex numbers: the textbook formulas, as num-complex computes them.
template <class R> __host__ __device__ inline complex<R> add(complex<R> a, complex<R> b) {
    return complex<R>{a.re + b.re, a.im + b.im};
}
template <class R> __host__ __device__ inline complex<R> sub(complex<R> a, complex<R> b) {
    return complex<R>{a.re - b.re, a.im - b.im};
}
template <class R> __host__ __device__ inline complex<R> mul(complex<R> a, complex<R> b) {
    return complex<R>{a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
}
// Smith's scaled division, as PyTorch (c10::complex) and the CPU backend:
// no overflow in c^2 + d^2, and x / 0 gives a complex infinity or NaN.
// |x|, with |-0| = +0 (a division by -0 and by +0 differ in sign).
template <class R> __host__ __device__ inline R abs_of(R x) {
    return x < R(0) ? -x : (x == R(0) ? R(0) : x);
}
template <class R> __host__ __device__ inline complex<R> div(complex<R> a, complex<R> b) {
    R abs_c = abs_of(b.re);
    R abs_d = abs_of(b.im);
    if (abs_c >= abs_d) {
        if (abs_c == R(0) && abs_d == R(0)) {
            return complex<R>{a.re / abs_c, a.im / abs_d};
        }
        R rat = b.im / b.re;
        R scl = R(1) / (b.re + b.im * rat);
        return complex<R>{(a.re + a.im * rat) * scl, (a.im - a.re * rat) * scl};
    }
    R rat = b.re / b.im;
    R scl = R(1) / (b.im + b.re * rat);
    return complex<R>{(a.re * rat + a.im) * scl, (a.im * rat - a.re) * scl};
}
template <class R> __host__ __device__ inline complex<R> neg(complex<R> a) {
    return complex<R>{-a.re, -a.im};
}

// The complex conjugate; real values are their own.
template <class T> __host__ __device__ inline T conj_of(T a) { return a; }
template <class R> __host__ __device__ inline complex<R> conj_of(complex<R> a) {
    return complex<R>{a.re, -a.im};
}

// ------------------------------------------------------------- conversions

// PyTorch's conversions, as the CPU backend makes them (src/dtype/cast.rs):
// every type gives its value (its real part) as f32, f64, a truncated i64 and
// a bool (`!= 0`), and its imaginary part; every type is made from those.

// Truncation toward zero, saturating, NaN giving 0 (Rust's `as`; in PyTorch
// these inputs are undefined behaviour, so any answer is PyTorch's).
__host__ __device__ inline int64_t i64_of(double x) {
    if (!(x == x)) return 0;
    if (x >= 9223372036854775808.0) return INT64_MAX;
    if (x <= -9223372036854775808.0) return INT64_MIN;
    return int64_t(x);
}

#define SHAPED_REAL_PARTS(T)                                                   \
    __host__ __device__ inline float real_f32(T x) { return float(x); }        \
    __host__ __device__ inline double real_f64(T x) { return double(x); }      \
    __host__ __device__ inline bool nonzero(T x) { return x != T(0); }
SHAPED_REAL_PARTS(float)
SHAPED_REAL_PARTS(double)
SHAPED_REAL_PARTS(uint8_t)
SHAPED_REAL_PARTS(int8_t)
SHAPED_REAL_PARTS(int16_t)
SHAPED_REAL_PARTS(int32_t)
SHAPED_REAL_PARTS(int64_t)
SHAPED_REAL_PARTS(bool)
#undef SHAPED_REAL_PARTS
__host__ __device__ inline float real_f32(f16 x) { return to_f32(x); }
__host__ __device__ inline float real_f32(bf16 x) { return to_f32(x); }
template <class H> __host__ __device__ inline double real_f64(H x) { return double(to_f32(x)); }
template <class H> __host__ __device__ inline bool nonzero(H x) { return to_f32(x) != 0.0f; }
template <class R> __host__ __device__ inline float real_f32(complex<R> x) { return float(x.re); }
template <class R> __host__ __device__ inline double real_f64(complex<R> x) { return double(x.re); }
template <class R> __host__ __device__ inline bool nonzero(complex<R> x) {
    return x.re != R(0) || x.im != R(0);
}

// Integers convert to i64 exactly; floats truncate (f32 and the half types
// through f32, complex values by the real part in its own precision).
template <class T> __host__ __device__ inline int64_t real_i64(T x) { return int64_t(x); }
__host__ __device__ inline int64_t real_i64(float x) { return i64_of(double(x)); }
__host__ __device__ inline int64_t real_i64(double x) { return i64_of(x); }
__host__ __device__ inline int64_t real_i64(f16 x) { return i64_of(double(to_f32(x))); }
__host__ __device__ inline int64_t real_i64(bf16 x) { return i64_of(double(to_f32(x))); }
template <class R> __host__ __device__ inline int64_t real_i64(complex<R> x) {
    return i64_of(double(x.re));
}

template <class T> __host__ __device__ inline float imag_f32(T) { return 0.0f; }
template <class T> __host__ __device__ inline double imag_f64(T) { return 0.0; }
template <class R> __host__ __device__ inline float imag_f32(complex<R> x) { return float(x.im); }
template <class R> __host__ __device__ inline double imag_f64(complex<R> x) { return double(x.im); }

// `Make<U>::from(x)`: `x` converted to `U`.
template <class U> struct Make {
    // Integers: through i64, wrapping to the width.
    template <class S> __host__ __device__ static U from(S x) { return U(real_i64(x)); }
};
template <> struct Make<float> {
    template <class S> __host__ __device__ static float from(S x) { return real_f32(x); }
};
template <> struct Make<double> {
    template <class S> __host__ __device__ static double from(S x) { return real_f64(x); }
};
template <> struct Make<f16> {
    template <class S> __host__ __device__ static f16 from(S x) { return f16_from(real_f32(x)); }
};
template <> struct Make<bf16> {
    template <class S> __host__ __device__ static bf16 from(S x) { return bf16_from(real_f32(x)); }
};
template <> struct Make<complex<float> > {
    template <class S> __host__ __device__ static complex<float> from(S x) {
        return complex<float>{real_f32(x), imag_f32(x)};
    }
};
template <> struct Make<complex<double> > {
    template <class S> __host__ __device__ static complex<double> from(S x) {
        return complex<double>{real_f64(x), imag_f64(x)};
    }
};
template <> struct Make<bool> {
    template <class S> __host__ __device__ static bool from(S x) { return nonzero(x); }
};

// `x` as a `U`; the identity (bit for bit) when it already is one.
template <class U, class S> struct Converter {
    __host__ __device__ static U of(S x) { return Make<U>::from(x); }
};
template <class T> struct Converter<T, T> {
    __host__ __device__ static T of(T x) { return x; }
};
template <class U, class S> __host__ __device__ inline U convert(S x) {
    return Converter<U, S>::of(x);
}

// Comparisons. Half types compare as f32; complex numbers only for equality.
template <class T> __host__ __device__ inline T cmp_value(T x) { return x; }
__host__ __device__ inline float cmp_value(f16 x) { return to_f32(x); }
__host__ __device__ inline float cmp_value(bf16 x) { return to_f32(x); }
template <class T> __host__ __device__ inline bool eq(T a, T b) { return cmp_value(a) == cmp_value(b); }
template <class R> __host__ __device__ inline bool eq(complex<R> a, complex<R> b) {
    return a.re == b.re && a.im == b.im;
}
template <class T> __host__ __device__ inline bool lt(T a, T b) { return cmp_value(a) < cmp_value(b); }
template <class T> __host__ __device__ inline bool le(T a, T b) { return cmp_value(a) <= cmp_value(b); }

// The operations as types, so that each loop is compiled for one of them.
template <class T> struct Quotient { typedef T type; };
#define SHAPED_INT_QUOTIENT(T) template <> struct Quotient<T> { typedef float type; };
SHAPED_INT_QUOTIENT(bool)
SHAPED_INT_QUOTIENT(uint8_t)
SHAPED_INT_QUOTIENT(int8_t)
SHAPED_INT_QUOTIENT(int16_t)
SHAPED_INT_QUOTIENT(int32_t)
SHAPED_INT_QUOTIENT(int64_t)
#undef SHAPED_INT_QUOTIENT

struct Add { template <class T> __host__ __device__ T operator()(T a, T b) const { return add(a, b); } };
struct Sub { template <class T> __host__ __device__ T operator()(T a, T b) const { return sub(a, b); } };
struct Mul { template <class T> __host__ __device__ T operator()(T a, T b) const { return mul(a, b); } };
struct Div {
    template <class T> __host__ __device__ typename Quotient<T>::type operator()(T a, T b) const {
        return div(a, b);
    }
};
struct Eq { template <class T> __host__ __device__ bool operator()(T a, T b) const { return eq(a, b); } };
struct Ne { template <class T> __host__ __device__ bool operator()(T a, T b) const { return !eq(a, b); } };
struct Lt { template <class T> __host__ __device__ bool operator()(T a, T b) const { return lt(a, b); } };
struct Le { template <class T> __host__ __device__ bool operator()(T a, T b) const { return le(a, b); } };
struct Gt { template <class T> __host__ __device__ bool operator()(T a, T b) const { return lt(b, a); } };
struct Ge { template <class T> __host__ __device__ bool operator()(T a, T b) const { return le(b, a); } };
struct Neg { template <class T> __host__ __device__ T operator()(T a, T) const { return neg(a); } };
struct Identity { template <class T> __host__ __device__ T operator()(T a, T) const { return a; } };
struct Conj { template <class T> __host__ __device__ T operator()(T a, T) const { return conj_of(a); } };
template <class U> struct CastTo {
    template <class T> __host__ __device__ U operator()(T a, T) const { return convert<U>(a); }
};
// `fill`: operand a is the scalar.
struct Constant { template <class T> __host__ __device__ T operator()(T a, T) const { return a; } };

// -------------------------------------------------------------------- loops

template <class T> __host__ __device__ inline T scalar_of(const Args& p) {
    union { uint64_t words[2]; T value; } u;
    u.words[0] = p.scalar[0];
    u.words[1] = p.scalar[1];
    return u.value;
}

// The storage offsets of element `i` (row-major over `sizes`) in each operand.
// `Index` is uint32_t when every size and the element count fit, which keeps
// the divisions cheap.
template <class Index>
__host__ __device__ inline void offsets_of(const Args& p, uint64_t i, uint64_t& o, uint64_t& a,
                                           uint64_t& b) {
    o = p.out.offset;
    a = p.a.offset;
    b = p.b.offset;
    Index rest = Index(i);
    for (int d = p.rank - 1; d >= 0; --d) {
        Index size = Index(p.sizes[d]);
        Index q = rest / size;
        uint64_t c = uint64_t(rest - q * size);
        rest = q;
        o += c * p.out.strides[d];
        a += c * p.a.strides[d];
        b += c * p.b.strides[d];
    }
}

// Up to 16 bytes of consecutive elements, loaded or stored at once.
template <class T, int N> struct alignas(sizeof(T) * N) Pack { T v[N]; };

// One vector of operand x's elements: contiguous (inner stride 1), the same
// element repeated (inner stride 0), or the scalar.
template <class T, int N>
__host__ __device__ inline Pack<T, N> load_pack(const T* base, uint64_t off, int inner, bool scalar,
                                                T value) {
    Pack<T, N> r;
    if (!scalar && inner == 1) return *reinterpret_cast<const Pack<T, N>*>(base + off);
    T x = scalar ? value : base[off];
    for (int k = 0; k < N; ++k) r.v[k] = x;
    return r;
}

// out = f(a, b) over every element, vectorized by N elements.
template <int N, class Index, class A, class B, class U, class F>
__device__ void vector_loop(const Args& p, F f) {
    const A* a = reinterpret_cast<const A*>(p.a.ptr);
    const B* b = reinterpret_cast<const B*>(p.b.ptr);
    U* out = reinterpret_cast<U*>(p.out.ptr);
    A av = p.a_scalar ? scalar_of<A>(p) : A();
    B bv = p.b_scalar ? scalar_of<B>(p) : B();
    uint64_t packs = p.numel / N;
    uint64_t step = uint64_t(blockDim.x) * gridDim.x;
    uint64_t k = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (p.rank == 1) {
        // One dimension: UNROLL vectors in flight per thread, loads first.
        const int UNROLL = 2;
        uint64_t a_step = uint64_t(N) * p.a_inner, b_step = uint64_t(N) * p.b_inner;
        for (; k + (UNROLL - 1) * step < packs; k += UNROLL * step) {
            Pack<A, N> x[UNROLL];
            Pack<B, N> y[UNROLL];
            for (int u = 0; u < UNROLL; ++u) {
                uint64_t q = k + u * step;
                x[u] = load_pack<A, N>(a, p.a.offset + q * a_step, p.a_inner, p.a_scalar, av);
                y[u] = load_pack<B, N>(b, p.b.offset + q * b_step, p.b_inner, p.b_scalar, bv);
            }
            for (int u = 0; u < UNROLL; ++u) {
                Pack<U, N> r;
                for (int j = 0; j < N; ++j) r.v[j] = f(x[u].v[j], y[u].v[j]);
                *reinterpret_cast<Pack<U, N>*>(out + p.out.offset + (k + u * step) * N) = r;
            }
        }
        for (; k < packs; k += step) {
            Pack<A, N> x = load_pack<A, N>(a, p.a.offset + k * a_step, p.a_inner, p.a_scalar, av);
            Pack<B, N> y = load_pack<B, N>(b, p.b.offset + k * b_step, p.b_inner, p.b_scalar, bv);
            Pack<U, N> r;
            for (int j = 0; j < N; ++j) r.v[j] = f(x.v[j], y.v[j]);
            *reinterpret_cast<Pack<U, N>*>(out + p.out.offset + k * N) = r;
        }
        return;
    }
    for (; k < packs; k += step) {
        uint64_t oo, ao, bo;
        offsets_of<Index>(p, k * N, oo, ao, bo);
        Pack<A, N> x = load_pack<A, N>(a, ao, p.a_inner, p.a_scalar, av);
        Pack<B, N> y = load_pack<B, N>(b, bo, p.b_inner, p.b_scalar, bv);
        Pack<U, N> r;
        for (int j = 0; j < N; ++j) r.v[j] = f(x.v[j], y.v[j]);
        *reinterpret_cast<Pack<U, N>*>(out + oo) = r;
    }
}

// out = f(a, b) over every element, one at a time, any strides.
template <class Index, class A, class B, class U, class F>
__device__ void strided_loop(const Args& p, F f) {
    const A* a = reinterpret_cast<const A*>(p.a.ptr);
    const B* b = reinterpret_cast<const B*>(p.b.ptr);
    U* out = reinterpret_cast<U*>(p.out.ptr);
    A av = p.a_scalar ? scalar_of<A>(p) : A();
    B bv = p.b_scalar ? scalar_of<B>(p) : B();
    uint64_t step = uint64_t(blockDim.x) * gridDim.x;
    for (uint64_t i = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < p.numel; i += step) {
        uint64_t oo, ao, bo;
        offsets_of<Index>(p, i, oo, ao, bo);
        A x = p.a_scalar ? av : a[ao];
        B y = p.b_scalar ? bv : b[bo];
        out[oo] = f(x, y);
    }
}

__host__ __device__ constexpr int widest(int a, int b, int c) {
    return a > b ? (a > c ? a : c) : (b > c ? b : c);
}

// Picks the loop: vectorized when the host allowed it, 32-bit index
// arithmetic when every index fits.
template <class A, class B, class U, class F>
__device__ void run(const Args& p, F f) {
    constexpr int N = 16 / widest(int(sizeof(A)), int(sizeof(B)), int(sizeof(U)));
    bool narrow = p.numel <= 0xffffffffull;
    if (p.vec == N && N > 1) {
        if (narrow) vector_loop<N, uint32_t, A, B, U>(p, f);
        else vector_loop<N, uint64_t, A, B, U>(p, f);
    } else {
        if (narrow) strided_loop<uint32_t, A, B, U>(p, f);
        else strided_loop<uint64_t, A, B, U>(p, f);
    }
}

// `run` with 64-bit index arithmetic only: half the code, for the math
// family, whose element functions cost more than the index divisions of a
// strided operand (a contiguous one divides nothing).
template <class A, class B, class U, class F>
__device__ void run_wide(const Args& p, F f) {
    constexpr int N = 16 / widest(int(sizeof(A)), int(sizeof(B)), int(sizeof(U)));
    if (p.vec == N && N > 1) vector_loop<N, uint64_t, A, B, U>(p, f);
    else strided_loop<uint64_t, A, B, U>(p, f);
}

// ------------------------------------------------- operands of mixed types

// Element `off` of the buffer at `base`, whose type has code `dtype`,
// converted to `C`. The switch is the same for every thread of a launch, so
// it never diverges; each case is one `convert<C, T>`.
template <class C> __host__ __device__ inline C load_as(uint64_t base, uint64_t off, int dtype) {
    switch (dtype) {
#define SHAPED_LOAD_CASE(name, T, numeric) \
        case DT_##name: return convert<C>(reinterpret_cast<const T*>(base)[off]);
        SHAPED_FOR_EACH_DTYPE(SHAPED_LOAD_CASE)
#undef SHAPED_LOAD_CASE
        default: return C();
    }
}

// Stores `v` converted to the type of code `dtype` at element `off`.
template <class V>
__host__ __device__ inline void store_as(uint64_t base, uint64_t off, int dtype, V v) {
    switch (dtype) {
#define SHAPED_STORE_CASE(name, T, numeric) \
        case DT_##name: reinterpret_cast<T*>(base)[off] = convert<T>(v); break;
        SHAPED_FOR_EACH_DTYPE(SHAPED_STORE_CASE)
#undef SHAPED_STORE_CASE
        default: break;
    }
}

// out = f(a, b) computed in `C`, any strides: each operand is converted to
// `C` in registers as it is loaded (a scalar operand already is a `C`), and
// the result to the output's type as it is stored. This is PyTorch's
// mixed-dtype rule (and the CPU backend's `InCommon` / `StoreBack`) in one
// pass, with no converted copies in memory.
// Only the index arithmetic comes in a 32-bit and a 64-bit form (a branch
// that every thread takes alike), not the whole loop: the conversions are
// most of the code.
template <class C, class F>
__device__ void converting_loop(const Args& p, F f) {
    C av = p.a_scalar ? scalar_of<C>(p) : C();
    C bv = p.b_scalar ? scalar_of<C>(p) : C();
    bool narrow = p.numel <= 0xffffffffull;
    uint64_t step = uint64_t(blockDim.x) * gridDim.x;
    for (uint64_t i = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < p.numel; i += step) {
        uint64_t oo, ao, bo;
        if (narrow) offsets_of<uint32_t>(p, i, oo, ao, bo);
        else offsets_of<uint64_t>(p, i, oo, ao, bo);
        C x = p.a_scalar ? av : load_as<C>(p.a.ptr, ao, p.a_dtype);
        C y = p.b_scalar ? bv : load_as<C>(p.b.ptr, bo, p.b_dtype);
        store_as(p.out.ptr, oo, p.out_dtype, f(x, y));
    }
}

// How a family's operation on operands of type T is run: `Direct` on
// operands that are Ts (the vectorized and strided loops; `DirectWide` with
// 64-bit indices only), `Converting` on operands of any types, computed in
// T (the promoted kernels).
struct Direct {
    template <class T, class U, class F> __device__ static void go(const Args& p, F f) {
        run<T, T, U>(p, f);
    }
};
struct DirectWide {
    template <class T, class U, class F> __device__ static void go(const Args& p, F f) {
        run_wide<T, T, U>(p, f);
    }
};
struct Converting {
    template <class T, class U, class F> __device__ static void go(const Args& p, F f) {
        converting_loop<T>(p, f);
    }
};

#include "math.cuh"

// --------------------------------------------------------- kernel families

// + - * / with tensors or a scalar on either side (also the in-place forms,
// where `out` and `a` are the same operand).
template <class T, class Run> __device__ void arith(const Args& p) {
    switch (p.op) {
        case OP_ADD: Run::template go<T, T>(p, Add()); break;
        case OP_SUB: Run::template go<T, T>(p, Sub()); break;
        case OP_MUL: Run::template go<T, T>(p, Mul()); break;
        case OP_DIV: Run::template go<T, typename Quotient<T>::type>(p, Div()); break;
        default: break;
    }
}

// == != < <= > >=, giving bool.
template <class T, class Run> __device__ void compare_all(const Args& p) {
    switch (p.op) {
        case OP_EQ: Run::template go<T, bool>(p, Eq()); break;
        case OP_NE: Run::template go<T, bool>(p, Ne()); break;
        case OP_LT: Run::template go<T, bool>(p, Lt()); break;
        case OP_LE: Run::template go<T, bool>(p, Le()); break;
        case OP_GT: Run::template go<T, bool>(p, Gt()); break;
        case OP_GE: Run::template go<T, bool>(p, Ge()); break;
        default: break;
    }
}
// Complex numbers have no order: only == and !=.
template <class T, class Run> __device__ void compare_eq(const Args& p) {
    switch (p.op) {
        case OP_EQ: Run::template go<T, bool>(p, Eq()); break;
        case OP_NE: Run::template go<T, bool>(p, Ne()); break;
        default: break;
    }
}

// Copies (contiguous(), clone(), transfers of views), fill, negation and
// the conjugate.
template <class T, bool numeric> __device__ void unary(const Args& p) {
    switch (p.op) {
        case OP_IDENTITY: run<T, T, T>(p, Identity()); break;
        case OP_CONSTANT: run<T, T, T>(p, Constant()); break;
        case OP_NEG: run<T, T, T>(p, Neg()); break;
        case OP_CONJ: run<T, T, T>(p, Conj()); break;
        default: break;
    }
}
// bool has no negation: the Rust types never ask for it.
template <> __device__ void unary<bool, false>(const Args& p) {
    switch (p.op) {
        case OP_IDENTITY: run<bool, bool, bool>(p, Identity()); break;
        case OP_CONSTANT: run<bool, bool, bool>(p, Constant()); break;
        case OP_CONJ: run<bool, bool, bool>(p, Identity()); break;
        default: break;
    }
}

// `x.cast::<U>()` from a tensor of As: the destination type is
// `Args::out_dtype`, so one kernel per source type holds the conversions to
// all twelve, each with the vectorized and strided loops.
template <class A> __device__ void cast_from(const Args& p) {
    switch (p.out_dtype) {
#define SHAPED_CAST_CASE(name, U, numeric) case DT_##name: run<A, A, U>(p, CastTo<U>()); break;
        SHAPED_FOR_EACH_DTYPE(SHAPED_CAST_CASE)
#undef SHAPED_CAST_CASE
        default: break;
    }
}

// The families of each element type, chosen at compile time so that no
// operation is compiled for a type that lacks it. `Run` is `Direct` or
// `Converting`.
template <class T, bool numeric, class Run> struct Families {
    __device__ static void arith_(const Args& p) { arith<T, Run>(p); }
    __device__ static void compare_(const Args& p) { compare_all<T, Run>(p); }
};
template <class R, class Run> struct Families<complex<R>, true, Run> {
    __device__ static void arith_(const Args& p) { arith<complex<R>, Run>(p); }
    __device__ static void compare_(const Args& p) { compare_eq<complex<R>, Run>(p); }
};
template <class Run> struct Families<bool, false, Run> {
    // bool has + (or), * (and) and true division (as float32), no `-`.
    __device__ static void arith_(const Args& p) {
        switch (p.op) {
            case OP_ADD: Run::template go<bool, bool>(p, Add()); break;
            case OP_MUL: Run::template go<bool, bool>(p, Mul()); break;
            case OP_DIV: Run::template go<bool, float>(p, Div()); break;
            default: break;
        }
    }
    __device__ static void compare_(const Args& p) { compare_all<bool, Run>(p); }
};

// Arithmetic, comparisons, and the math functions with a second operand
// (clamp, pow, maximum, minimum) computed in T on operands of any types.
template <class T, bool numeric> __device__ void promoted(const Args& p) {
    if (p.op >= OP_EQ && p.op <= OP_GE) Families<T, numeric, Converting>::compare_(p);
    else if (p.op >= OP_CLAMP) math_binary<T, Converting>(p);
    else Families<T, numeric, Converting>::arith_(p);
}

}  // namespace shaped

// One kernel per family and element type: `shaped_<family>_<dtype>`, for
// blocks of 256 threads (the host's BLOCK) with at least 4 blocks per SM
// resident: at most 64 registers, so that enough loads are in flight. (On an
// H100, unrolling the broadcast path too, or by 4, cost more in occupancy
// than it gained.)
#ifdef SHAPED_HOST
#define SHAPED_BOUNDS
#else
#define SHAPED_BOUNDS __launch_bounds__(256, 4)
#endif
#define SHAPED_KERNELS(name, T, numeric)                                                  \
    extern "C" __global__ void SHAPED_BOUNDS shaped_arith_##name(shaped::Args p) {       \
        shaped::Families<T, numeric, shaped::Direct>::arith_(p);                          \
    }                                                                                     \
    extern "C" __global__ void SHAPED_BOUNDS shaped_compare_##name(shaped::Args p) {     \
        shaped::Families<T, numeric, shaped::Direct>::compare_(p);                        \
    }                                                                                     \
    extern "C" __global__ void SHAPED_BOUNDS shaped_unary_##name(shaped::Args p) {       \
        shaped::unary<T, numeric>(p);                                                     \
    }                                                                                     \
    extern "C" __global__ void SHAPED_BOUNDS shaped_cast_##name(shaped::Args p) {        \
        shaped::cast_from<T>(p);                                                          \
    }                                                                                     \
    extern "C" __global__ void SHAPED_BOUNDS shaped_promoted_##name(shaped::Args p) {    \
        shaped::promoted<T, numeric>(p);                                                  \
    }
// The math family, in its own source file (math.cu) so that it compiles in
// parallel with the others.
#define SHAPED_MATH_KERNELS(name, T, numeric)                                             \
    extern "C" __global__ void SHAPED_BOUNDS shaped_math_##name(shaped::Args p) {        \
        shaped::math<T>(p);                                                               \
    }


