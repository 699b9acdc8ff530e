// The elementwise kernels of shaped's CUDA backend, as templates over the
// element types and the operation.
//
// Every kernel takes one `Args` by value: shape-erased operands (sizes,
// strides and offsets as runtime numbers, up to SHAPED_MAX_RANK dimensions,
// already coalesced by the host), so one compiled kernel serves every shape.
// The loops are grid-stride loops; an element's offsets are computed with
// 32-bit arithmetic (and divisions by multiplication) when indices fit.
// When the innermost dimension is contiguous (or broadcast) for every
// operand, the host sets `Args::vec` and each thread moves a vector per load
// and store: 16 bytes of the widest type (in the promoted kernels, of the
// compute type, at most 4 elements).
//
// The same source compiles as plain C++ for the host (with SHAPED_HOST and
// host_shim.h), where the tests run it against the CPU backend.
#pragma once

#ifdef SHAPED_HOST
#include "host_shim.h"
#include <complex>
#else
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <stdint.h>
#include <thrust/complex.h>
#endif

#define SHAPED_MAX_RANK 16

// The twelve element types, in the order of the Rust `DType` enum (whose
// variant index is the DT_* code below): X(kernel-name suffix, C++ type,
// numeric).
// The real element types (no complex): the sorts, the sets and the
// whole-number random draws have one kernel each.
#define SHAPED_FOR_EACH_REAL(X) \
    X(f16, shaped::f16)         \
    X(bf16, shaped::bf16)       \
    X(f32, float)               \
    X(f64, double)              \
    X(u8, uint8_t)              \
    X(i8, int8_t)               \
    X(i16, int16_t)             \
    X(i32, int32_t)             \
    X(i64, int64_t)             \
    X(bool, bool)

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
    uint64_t scalar[3];  // the fixed operand's bytes, as its element type, and
                         // more fixed numbers (`clamp`, `nan_to_num`)
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
    int32_t narrow;      // 1: fewer than 2^31 elements, every offset below 2^32
    // Division by sizes[d] as a multiply and a shift, for indices below 2^31
    // (`quotient`): magic[d] and shift[d], from the host's `Divisor`.
    uint32_t magic[SHAPED_MAX_RANK];
    uint32_t shift[SHAPED_MAX_RANK];
};

// Operation codes; the Rust side mirrors them (`OpCode`).
enum {
    OP_ADD = 0, OP_SUB = 1, OP_MUL = 2, OP_DIV = 3,
    OP_EQ = 4, OP_NE = 5, OP_LT = 6, OP_LE = 7, OP_GT = 8, OP_GE = 9,
    OP_LOGICAL_AND = 10, OP_LOGICAL_OR = 11, OP_LOGICAL_XOR = 12,
    OP_BITAND = 13, OP_BITOR = 14, OP_BITXOR = 15,
    OP_NEG = 16, OP_IDENTITY = 17, OP_CONSTANT = 18, OP_CONJ = 19, OP_CAST = 20,
    OP_BITNOT = 21, OP_LOGICAL_NOT = 22, OP_SHL = 24, OP_SHR = 25,
    OP_ISNAN = 26, OP_ISINF = 27, OP_ISPOSINF = 28, OP_ISNEGINF = 29, OP_ISFINITE = 30,
    OP_ISREAL = 31,
    // The math family (math.cuh).
    OP_EXP = 32, OP_LN = 33, OP_LOG2 = 34, OP_SQRT = 35, OP_SIN = 36, OP_COS = 37,
    OP_TANH = 38, OP_SIGMOID = 39, OP_RECIP = 40, OP_ABS = 41, OP_FLOOR = 42, OP_CEIL = 43,
    OP_ROUND = 44, OP_RELU = 45, OP_CLAMP = 46, OP_POW_SCALAR = 47,
    OP_MAXIMUM = 48, OP_MINIMUM = 49, OP_POW = 50, OP_MEAN_OF = 51,
    OP_REMAINDER = 52, OP_FMOD = 53, OP_FLOOR_DIVIDE = 54,
    OP_TAN = 100, OP_ASIN = 101, OP_ACOS = 102, OP_ATAN = 103, OP_SINH = 104, OP_COSH = 105, OP_ASINH = 106, OP_ACOSH = 107, OP_ATANH = 108, OP_EXP2 = 109, OP_EXPM1 = 110, OP_LOG10 = 111, OP_LOG1P = 112, OP_RSQRT = 113,
    OP_GELU = 114, OP_GELU_TANH = 115, OP_SILU = 116, OP_SOFTPLUS = 117, OP_MISH = 118, OP_ELU = 119, OP_LEAKY_RELU = 120, OP_HARDSIGMOID = 121, OP_HARDSWISH = 122, OP_LOG_SIGMOID = 123,
    OP_ERF = 124, OP_ERFC = 125, OP_ERFINV = 126, OP_LGAMMA = 127, OP_DIGAMMA = 128, OP_SINC = 129,
    OP_DEG2RAD = 130, OP_RAD2DEG = 131, OP_TRUNC = 132, OP_FRAC = 133, OP_SIGN = 134, OP_SIGNBIT = 135,
    OP_SGN = 136, OP_SQUARE = 137, OP_NAN_TO_NUM = 138,
    OP_ATAN2 = 139, OP_HYPOT = 140, OP_COPYSIGN = 141, OP_NEXTAFTER = 142, OP_LOGADDEXP = 143,
    OP_LOGADDEXP2 = 144, OP_XLOGY = 145,
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
// Round to nearest even. On the device, the hardware's conversion (as for
// float16): one instruction where the rounding below takes about ten, which
// ran a broadcast bfloat16 addition at 89% of copy bandwidth rather than 98%
// on an H100. The two agree except in NaN's bits (the hardware gives its
// canonical NaN; the host keeps the sign, the `half` crate's rule).
__host__ __device__ inline bf16 bf16_from(float f) {
#ifdef SHAPED_HOST
    uint32_t x = bits_of(f);
    if ((x & 0x7fffffffu) > 0x7f800000u) return bf16{uint16_t((x >> 16) | 0x0040u)};
    uint32_t round_bit = 0x8000u;
    uint32_t up = ((x & round_bit) != 0 && (x & (3 * round_bit - 1)) != 0) ? 1u : 0u;
    return bf16{uint16_t((x >> 16) + up)};
#else
    return bf16{__bfloat16_as_ushort(__float2bfloat16_rn(f))};
#endif
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

__host__ __device__ inline uint32_t mul_hi(uint32_t a, uint32_t b) {
#ifdef SHAPED_HOST
    return uint32_t((uint64_t(a) * b) >> 32);
#else
    return __umulhi(a, b);
#endif
}

// n / sizes[d] for n < 2^31, as a multiply-high, an add and a shift by the
// host's magic numbers (Granlund and Montgomery's division by invariant
// integers, as PyTorch's IntDivider): a 32-bit division by a number known
// only at run time costs about twenty instructions on a GPU.
// `P` is any argument block with `sizes`, `magic` and `shift` (`Args`, and
// those of the indexing and `where` kernels).
template <class P> __host__ __device__ inline uint32_t quotient(const P& p, uint32_t n, int d) {
    return (mul_hi(n, p.magic[d]) + n) >> p.shift[d];
}
template <class P> __host__ __device__ inline uint64_t quotient(const P& p, uint64_t n, int d) {
    return n / p.sizes[d];
}

// The storage offsets of element `i` (row-major over `sizes`) in each
// operand, with `Index` arithmetic, over `Rank` dimensions (0: `Args::rank`).
// The outermost coordinate is what is left after the others (i < numel), so
// it costs no division.
template <class Index, int Rank>
__host__ __device__ inline void offsets_in(const Args& p, Index rest, uint64_t& o, uint64_t& a,
                                           uint64_t& b) {
    const int rank = Rank > 0 ? Rank : p.rank;
    Index oo = Index(p.out.offset), ao = Index(p.a.offset), bo = Index(p.b.offset);
    for (int d = rank - 1; d > 0; --d) {
        Index q = quotient(p, rest, d);
        Index c = rest - q * Index(p.sizes[d]);
        rest = q;
        oo += c * Index(p.out.strides[d]);
        ao += c * Index(p.a.strides[d]);
        bo += c * Index(p.b.strides[d]);
    }
    o = oo + rest * Index(p.out.strides[0]);
    a = ao + rest * Index(p.a.strides[0]);
    b = bo + rest * Index(p.b.strides[0]);
}

// `offsets_in` with 32-bit arithmetic where the host found that every index
// and offset fits (`Args::narrow`), else 64-bit; for two dimensions (what
// most broadcasts merge to) with the sizes and strides read in place, not
// through a loop. Every thread of a launch takes the same branch.
__host__ __device__ inline void offsets_of(const Args& p, uint64_t i, uint64_t& o, uint64_t& a,
                                           uint64_t& b) {
    if (!p.narrow) offsets_in<uint64_t, 0>(p, i, o, a, b);
    else if (p.rank == 2) offsets_in<uint32_t, 2>(p, uint32_t(i), o, a, b);
    else offsets_in<uint32_t, 0>(p, uint32_t(i), o, a, b);
}

// Up to 16 bytes of consecutive elements, loaded or stored at once.
template <class T, int N> struct alignas(sizeof(T) * N) Pack { T v[N]; };

// Stores a pack with one instruction, as machine words. Assigned as a
// struct (or through a union with a word), a pack computed in registers is
// stored element by element: eight 2-byte stores for a vector of bfloat16,
// which ran a copy at 28% of an H100's copy bandwidth, and four 4-byte
// stores for a vector of float32. So the elements are shifted into 32-bit
// words (an 8-byte one split into two), and the words stored as one vector, by an instruction of our own (a vector type
// assigned through a pointer was still split into 4-byte stores). Other
// packs (under 4 bytes, or one complex128) are assigned as structs.
__host__ __device__ inline uint64_t raw_bits(bool x) { return x ? 1 : 0; }
__host__ __device__ inline uint64_t raw_bits(uint8_t x) { return x; }
__host__ __device__ inline uint64_t raw_bits(int8_t x) { return uint8_t(x); }
__host__ __device__ inline uint64_t raw_bits(int16_t x) { return uint16_t(x); }
__host__ __device__ inline uint64_t raw_bits(int32_t x) { return uint32_t(x); }
__host__ __device__ inline uint64_t raw_bits(int64_t x) { return uint64_t(x); }
__host__ __device__ inline uint64_t raw_bits(f16 x) { return x.bits; }
__host__ __device__ inline uint64_t raw_bits(bf16 x) { return x.bits; }
__host__ __device__ inline uint64_t raw_bits(float x) { return bits_of(x); }
__host__ __device__ inline uint64_t raw_bits(double x) {
#ifdef SHAPED_HOST
    return host_f64_bits(x);
#else
    return uint64_t(__double_as_longlong(x));
#endif
}
__host__ __device__ inline uint64_t raw_bits(complex<float> x) {
    return raw_bits(x.re) | raw_bits(x.im) << 32;
}

// `Words` 32-bit words (1, 2 or 4) of a pack of elements of at most 4 bytes.
template <int Words> struct Store32;
template <> struct Store32<1> {
    __host__ __device__ static void store(void* to, const uint32_t* w) {
        *reinterpret_cast<uint32_t*>(to) = w[0];
    }
};
template <> struct Store32<2> {
    __host__ __device__ static void store(void* to, const uint32_t* w) {
#ifdef SHAPED_HOST
        memcpy(to, w, 8);
#else
        asm volatile("st.global.v2.u32 [%0], {%1, %2};" ::"l"(to), "r"(w[0]), "r"(w[1])
                     : "memory");
#endif
    }
};
template <> struct Store32<4> {
    __host__ __device__ static void store(void* to, const uint32_t* w) {
#ifdef SHAPED_HOST
        memcpy(to, w, 16);
#else
        asm volatile("st.global.v4.u32 [%0], {%1, %2, %3, %4};" ::"l"(to), "r"(w[0]), "r"(w[1]),
                     "r"(w[2]), "r"(w[3])
                     : "memory");
#endif
    }
};
// A pack of 4 to 16 bytes of elements of at most 8 bytes, as 32-bit words
// (little-endian: element j's bits from bit 8 * sizeof(T) * j on).
template <class T, int N> struct PackStoreWords {
    __host__ __device__ static void store(Pack<T, N>* to, const Pack<T, N>& v) {
        const int words = int(sizeof(Pack<T, N>)) / 4, bits = 8 * int(sizeof(T));
        uint32_t w[words] = {};
        for (int j = 0; j < N; ++j) {
            uint64_t x = raw_bits(v.v[j]);
            w[j * bits / 32] |= uint32_t(x << (j * bits % 32));
            if (bits == 64 && j * 2 + 1 < words) w[j * 2 + 1] = uint32_t(x >> 32);
        }
        Store32<words>::store(to, w);
    }
};
// Which packs `PackStoreWords` stores; the others are assigned as structs.
template <class T, int N> struct InWords {
    static const bool value = sizeof(Pack<T, N>) >= 4 && sizeof(Pack<T, N>) <= 16 && sizeof(T) <= 8;
};
template <class T, int N, bool Words = InWords<T, N>::value> struct PackStore {
    __host__ __device__ static void store(Pack<T, N>* to, const Pack<T, N>& v) { *to = v; }
};
template <class T, int N> struct PackStore<T, N, true> : PackStoreWords<T, N> {};

// How a loop reads and writes memory. `Typed`: the operands hold the types
// the loop computes on, and the output the type of the result (the direct
// kernels). `Converted`: each operand and the output has its own type
// (`Args::a_dtype`, `b_dtype`, `out_dtype`), converted to the compute type
// in registers as it is loaded, and from the result's type as it is stored
// (the promoted kernels). Each access names its address, an element offset,
// and the element type code that `Converted` dispatches on (a switch that
// every thread of a launch takes alike).
struct Typed {
    template <class T> __host__ __device__ static T load(uint64_t base, uint64_t off, int) {
        return reinterpret_cast<const T*>(base)[off];
    }
    template <class T, int N>
    __host__ __device__ static Pack<T, N> load_pack(uint64_t base, uint64_t off, int) {
        return *reinterpret_cast<const Pack<T, N>*>(reinterpret_cast<const T*>(base) + off);
    }
    template <class T, int N>
    __host__ __device__ static void store_pack(uint64_t base, uint64_t off, int, const Pack<T, N>& v) {
        PackStore<T, N>::store(reinterpret_cast<Pack<T, N>*>(reinterpret_cast<T*>(base) + off), v);
    }
};

struct Converted {
    template <class C> __host__ __device__ static C load(uint64_t base, uint64_t off, int dtype) {
        switch (dtype) {
#define SHAPED_LOAD_CASE(name, T, numeric) \
            case DT_##name: return convert<C>(Typed::load<T>(base, off, 0));
            SHAPED_FOR_EACH_DTYPE(SHAPED_LOAD_CASE)
#undef SHAPED_LOAD_CASE
            default: return C();
        }
    }
    template <class C, int N>
    __host__ __device__ static Pack<C, N> load_pack(uint64_t base, uint64_t off, int dtype) {
        Pack<C, N> r = {};  // (an unknown code, which the host never sends: zeros)
        switch (dtype) {
#define SHAPED_LOAD_PACK_CASE(name, T, numeric)                                 \
            case DT_##name: {                                                   \
                Pack<T, N> x = Typed::load_pack<T, N>(base, off, 0);            \
                for (int j = 0; j < N; ++j) r.v[j] = convert<C>(x.v[j]);        \
                break;                                                          \
            }
            SHAPED_FOR_EACH_DTYPE(SHAPED_LOAD_PACK_CASE)
#undef SHAPED_LOAD_PACK_CASE
            default: break;
        }
        return r;
    }
    template <class V, int N>
    __host__ __device__ static void store_pack(uint64_t base, uint64_t off, int dtype,
                                               const Pack<V, N>& v) {
        switch (dtype) {
#define SHAPED_STORE_PACK_CASE(name, T, numeric)                                \
            case DT_##name: {                                                   \
                Pack<T, N> r;                                                   \
                for (int j = 0; j < N; ++j) r.v[j] = convert<T>(v.v[j]);        \
                Typed::store_pack<T, N>(base, off, 0, r);                       \
                break;                                                          \
            }
            SHAPED_FOR_EACH_DTYPE(SHAPED_STORE_PACK_CASE)
#undef SHAPED_STORE_PACK_CASE
            default: break;
        }
    }
};

// One input of a loop: in memory (with its type code), or the scalar.
template <class T> struct Input {
    uint64_t base;
    uint64_t offset;
    int dtype;
    bool scalar;
    T value;  // the scalar
};
template <class T> __host__ __device__ inline Input<T> input_a(const Args& p) {
    return Input<T>{p.a.ptr, p.a.offset, p.a_dtype, p.a_scalar != 0,
                    p.a_scalar ? scalar_of<T>(p) : T()};
}
template <class T> __host__ __device__ inline Input<T> input_b(const Args& p) {
    return Input<T>{p.b.ptr, p.b.offset, p.b_dtype, p.b_scalar != 0,
                    p.b_scalar ? scalar_of<T>(p) : T()};
}

// N consecutive elements of input x from offset `off` on: contiguous (inner
// stride 1), the same element repeated (inner stride 0), or the scalar.
template <class Io, class T, int N>
__host__ __device__ inline Pack<T, N> load_vector(const Input<T>& x, uint64_t off, int inner) {
    if (!x.scalar && inner == 1) return Io::template load_pack<T, N>(x.base, off, x.dtype);
    T one = x.scalar ? x.value : Io::template load<T>(x.base, off, x.dtype);
    Pack<T, N> r;
    for (int k = 0; k < N; ++k) r.v[k] = one;
    return r;
}

// Steps k, k + step, ... of `vector_loop`, one vector of N elements each,
// through the offsets of any rank: the general path of `vector_loop`, and
// the whole vector path of `run_compute`.
template <int N, class A, class B, class U, class F>
__device__ void vector_steps(const Args& p, F f, const Input<A>& a, const Input<B>& b, uint64_t k,
                             uint64_t step, uint64_t packs) {
    for (; k < packs; k += step) {
        uint64_t oo, ao, bo;
        offsets_of(p, k * N, oo, ao, bo);
        Pack<A, N> x = load_vector<Typed, A, N>(a, ao, p.a_inner);
        Pack<B, N> y = load_vector<Typed, B, N>(b, bo, p.b_inner);
        Pack<U, N> r;
        for (int j = 0; j < N; ++j) r.v[j] = f(x.v[j], y.v[j]);
        Typed::store_pack(p.out.ptr, oo, 0, r);
    }
}

// out = f(a, b) over every element, vectorized by N elements.
template <int N, class A, class B, class U, class F>
__device__ void vector_loop(const Args& p, F f) {
    Input<A> a = input_a<A>(p);
    Input<B> b = input_b<B>(p);
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
                x[u] = load_vector<Typed, A, N>(a, a.offset + q * a_step, p.a_inner);
                y[u] = load_vector<Typed, B, N>(b, b.offset + q * b_step, p.b_inner);
            }
            for (int u = 0; u < UNROLL; ++u) {
                Pack<U, N> r;
                for (int j = 0; j < N; ++j) r.v[j] = f(x[u].v[j], y[u].v[j]);
                Typed::store_pack(p.out.ptr, p.out.offset + (k + u * step) * N, 0, r);
            }
        }
        for (; k < packs; k += step) {
            Pack<A, N> x = load_vector<Typed, A, N>(a, a.offset + k * a_step, p.a_inner);
            Pack<B, N> y = load_vector<Typed, B, N>(b, b.offset + k * b_step, p.b_inner);
            Pack<U, N> r;
            for (int j = 0; j < N; ++j) r.v[j] = f(x.v[j], y.v[j]);
            Typed::store_pack(p.out.ptr, p.out.offset + k * N, 0, r);
        }
        return;
    }
    vector_steps<N, A, B, U>(p, f, a, b, k, step, packs);
}


// out = f(a, b) over every element, one at a time, any strides.
template <class A, class B, class U, class F>
__device__ void strided_loop(const Args& p, F f) {
    Input<A> a = input_a<A>(p);
    Input<B> b = input_b<B>(p);
    uint64_t step = uint64_t(blockDim.x) * gridDim.x;
    for (uint64_t i = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < p.numel; i += step) {
        uint64_t oo, ao, bo;
        offsets_of(p, i, oo, ao, bo);
        A x = a.scalar ? a.value : Typed::load<A>(a.base, ao, 0);
        B y = b.scalar ? b.value : Typed::load<B>(b.base, bo, 0);
        reinterpret_cast<U*>(p.out.ptr)[oo] = f(x, y);
    }
}

// `vector_loop`, compiled only for vectors of more than one element.
template <int N> struct Vectorized {
    template <class A, class B, class U, class F> __device__ static void go(const Args& p, F f) {
        vector_loop<N, A, B, U>(p, f);
    }
};
template <> struct Vectorized<1> {
    template <class A, class B, class U, class F> __device__ static void go(const Args&, F) {}
};

__host__ __device__ constexpr int widest(int a, int b, int c) {
    return a > b ? (a > c ? a : c) : (b > c ? b : c);
}

// out = f(a, b) computed on As and Bs, giving Us: the vectorized loop (16
// bytes of the widest type at a time) when the host chose it (`Args::vec`),
// else the strided one.
template <class A, class B, class U, class F>
__device__ void run(const Args& p, F f) {
    constexpr int N = 16 / widest(int(sizeof(A)), int(sizeof(B)), int(sizeof(U)));
    if (N > 1 && p.vec == N) Vectorized<N>::template go<A, B, U>(p, f);
    else strided_loop<A, B, U>(p, f);
}

// `run` for the math and special families, whose functions cost more than
// their loads and stores: one vector per step at any rank, of at most 4
// elements (16 bytes of the widest type, as `run`'s, but 8 bytes of a half
// type and 4 of a byte type), no unrolling. Each function's code is
// compiled N + 1 times, not 3N + 1 with N up to 16 (`vector_loop` unrolls
// its one-dimensional path for the memory-bound arithmetic). With the
// operation chosen per element inside one loop pair per result type
// (math.cuh), the two families' PTX went from 44 to 8 MB.
template <int N> struct ComputeVectorized {
    template <class A, class B, class U, class F> __device__ static void go(const Args& p, F f) {
        uint64_t step = uint64_t(blockDim.x) * gridDim.x;
        uint64_t k = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
        vector_steps<N, A, B, U>(p, f, input_a<A>(p), input_b<B>(p), k, step, p.numel / N);
    }
};
template <> struct ComputeVectorized<1> {
    template <class A, class B, class U, class F> __device__ static void go(const Args&, F) {}
};
template <class A, class B, class U, class F>
__device__ void run_compute(const Args& p, F f) {
    constexpr int W = 16 / widest(int(sizeof(A)), int(sizeof(B)), int(sizeof(U)));
    constexpr int N = W < 4 ? W : 4;
    if (N > 1 && p.vec == N) ComputeVectorized<N>::template go<A, B, U>(p, f);
    else strided_loop<A, B, U>(p, f);
}

// How the kernels of the direct families run an operation on Ts giving Us
// (the operation dispatchers below take a `Run`; the promoted kernels have
// their own, `Lanes`).
struct Direct {
    template <class T, class U, class F> __device__ static void go(const Args& p, F f) {
        run<T, T, U>(p, f);
    }
};
// `Direct` for the math and special families (`run_compute`).
struct Computed {
    template <class T, class U, class F> __device__ static void go(const Args& p, F f) {
        run_compute<T, T, U>(p, f);
    }
};

#include "math.cuh"

// ------------------------------------------------- predicates, logic, bits
//
// The predicates of every type through its parts as f64 (exact for every
// real type; integers and bool are finite and real), the truth of a value
// as `nonzero`, and the bitwise operations of integers and bool with
// PyTorch's shifts (src/dtype/logic.rs).

struct IsNan {
    template <class T> __host__ __device__ bool operator()(T a, T) const {
        return is_nan(real_f64(a)) || is_nan(imag_f64(a));
    }
};
struct IsInf {
    template <class T> __host__ __device__ bool operator()(T a, T) const {
        return is_inf(real_f64(a)) || is_inf(imag_f64(a));
    }
};
struct IsPosInf {
    template <class T> __host__ __device__ bool operator()(T a, T) const {
        return is_inf(real_f64(a)) && real_f64(a) > 0.0;
    }
};
struct IsNegInf {
    template <class T> __host__ __device__ bool operator()(T a, T) const {
        return is_inf(real_f64(a)) && real_f64(a) < 0.0;
    }
};
struct IsFinite {
    template <class T> __host__ __device__ bool operator()(T a, T) const {
        return is_finite(real_f64(a)) && is_finite(imag_f64(a));
    }
};
struct IsReal {
    template <class T> __host__ __device__ bool operator()(T a, T) const { return imag_f64(a) == 0.0; }
};
struct LogicalNot {
    template <class T> __host__ __device__ bool operator()(T a, T) const { return !nonzero(a); }
};
struct LogicalAnd {
    template <class T> __host__ __device__ bool operator()(T a, T b) const { return nonzero(a) && nonzero(b); }
};
struct LogicalOr {
    template <class T> __host__ __device__ bool operator()(T a, T b) const { return nonzero(a) || nonzero(b); }
};
struct LogicalXor {
    template <class T> __host__ __device__ bool operator()(T a, T b) const { return nonzero(a) != nonzero(b); }
};

// Which types have `& | ^ ~` (integers and bool) and shifts (integers),
// and each integer's signed and unsigned forms of its width.
template <class T> struct Bits { static const bool bitwise = false, shifts = false; };
#define SHAPED_BITS(T, S, U)                                   \
    template <> struct Bits<T> {                               \
        static const bool bitwise = true, shifts = true;       \
        typedef S signed_type;                                 \
        typedef U unsigned_type;                               \
    };
SHAPED_BITS(uint8_t, int8_t, uint8_t)
SHAPED_BITS(int8_t, int8_t, uint8_t)
SHAPED_BITS(int16_t, int16_t, uint16_t)
SHAPED_BITS(int32_t, int32_t, uint32_t)
SHAPED_BITS(int64_t, int64_t, uint64_t)
#undef SHAPED_BITS
template <> struct Bits<bool> { static const bool bitwise = true, shifts = false; };

struct BitAnd { template <class T> __host__ __device__ T operator()(T a, T b) const { return T(a & b); } };
struct BitOr { template <class T> __host__ __device__ T operator()(T a, T b) const { return T(a | b); } };
struct BitXor { template <class T> __host__ __device__ T operator()(T a, T b) const { return T(a ^ b); } };
template <class T> __host__ __device__ inline T bit_not(T a) { return T(~a); }
__host__ __device__ inline bool bit_not(bool a) { return !a; }
struct BitNot { template <class T> __host__ __device__ T operator()(T a, T) const { return bit_not(a); } };
// 0 for a negative amount or one of the width or more.
struct Shl {
    template <class T> __host__ __device__ T operator()(T a, T b) const {
        typedef typename Bits<T>::signed_type S;
        typedef typename Bits<T>::unsigned_type U;
        if (S(b) < 0 || U(b) >= U(sizeof(T) * 8)) return T(0);
        return T(U(a) << U(b));
    }
};
// The sign (-1 or 0) for a negative amount or one of the width (less the
// sign bit) or more.
struct Shr {
    template <class T> __host__ __device__ T operator()(T a, T b) const {
        typedef typename Bits<T>::signed_type S;
        typedef typename Bits<T>::unsigned_type U;
        const bool is_signed = T(-1) < T(0);
        const unsigned keep = unsigned(sizeof(T) * 8) - (is_signed ? 1u : 0u);
        if (S(b) < 0 || U(b) >= U(keep)) return (is_signed && a < T(0)) ? T(-1) : T(0);
        return T(a >> U(b));
    }
};

// --------------------------------------------------------- kernel families

// + - * / with tensors or a scalar on either side (also the in-place forms,
// where `out` and `a` are the same operand).
template <class T, class Run> __device__ void arith(const Args& p, Run& run) {
    switch (p.op) {
        case OP_ADD: run.template go<T, T>(p, Add()); break;
        case OP_SUB: run.template go<T, T>(p, Sub()); break;
        case OP_MUL: run.template go<T, T>(p, Mul()); break;
        case OP_DIV: run.template go<T, typename Quotient<T>::type>(p, Div()); break;
        case OP_BITAND: When<Bits<T>::bitwise>::template go<T, T>(p, run, BitAnd()); break;
        case OP_BITOR: When<Bits<T>::bitwise>::template go<T, T>(p, run, BitOr()); break;
        case OP_BITXOR: When<Bits<T>::bitwise>::template go<T, T>(p, run, BitXor()); break;
        case OP_SHL: When<Bits<T>::shifts>::template go<T, T>(p, run, Shl()); break;
        case OP_SHR: When<Bits<T>::shifts>::template go<T, T>(p, run, Shr()); break;
        default: break;
    }
}

// logical_and, logical_or, logical_xor of any type, giving bool.
template <class T, class Run> __device__ void logical(const Args& p, Run& run) {
    switch (p.op) {
        case OP_LOGICAL_AND: run.template go<T, bool>(p, LogicalAnd()); break;
        case OP_LOGICAL_OR: run.template go<T, bool>(p, LogicalOr()); break;
        case OP_LOGICAL_XOR: run.template go<T, bool>(p, LogicalXor()); break;
        default: break;
    }
}

// == != < <= > >= (and the logic), giving bool.
template <class T, class Run> __device__ void compare_all(const Args& p, Run& run) {
    switch (p.op) {
        case OP_EQ: run.template go<T, bool>(p, Eq()); break;
        case OP_NE: run.template go<T, bool>(p, Ne()); break;
        case OP_LT: run.template go<T, bool>(p, Lt()); break;
        case OP_LE: run.template go<T, bool>(p, Le()); break;
        case OP_GT: run.template go<T, bool>(p, Gt()); break;
        case OP_GE: run.template go<T, bool>(p, Ge()); break;
        default: logical<T>(p, run); break;
    }
}
// Complex numbers have no order: only == and != (and the logic).
template <class T, class Run> __device__ void compare_eq(const Args& p, Run& run) {
    switch (p.op) {
        case OP_EQ: run.template go<T, bool>(p, Eq()); break;
        case OP_NE: run.template go<T, bool>(p, Ne()); break;
        default: logical<T>(p, run); break;
    }
}

// The predicates (giving bool), logical_not and bitwise_not.
template <class T> __device__ void unary_logic(const Args& p) {
    Direct direct;
    switch (p.op) {
        case OP_ISNAN: run<T, T, bool>(p, IsNan()); break;
        case OP_ISINF: run<T, T, bool>(p, IsInf()); break;
        case OP_ISPOSINF: run<T, T, bool>(p, IsPosInf()); break;
        case OP_ISNEGINF: run<T, T, bool>(p, IsNegInf()); break;
        case OP_ISFINITE: run<T, T, bool>(p, IsFinite()); break;
        case OP_ISREAL: run<T, T, bool>(p, IsReal()); break;
        case OP_LOGICAL_NOT: run<T, T, bool>(p, LogicalNot()); break;
        case OP_BITNOT: When<Bits<T>::bitwise>::template go<T, T>(p, direct, BitNot()); break;
        default: break;
    }
}

// Copies (contiguous(), clone(), transfers of views), fill, negation and
// the conjugate; the predicates and `not`s.
template <class T, bool numeric> __device__ void unary(const Args& p) {
    switch (p.op) {
        case OP_IDENTITY: run<T, T, T>(p, Identity()); break;
        case OP_CONSTANT: run<T, T, T>(p, Constant()); break;
        case OP_NEG: run<T, T, T>(p, Neg()); break;
        case OP_CONJ: run<T, T, T>(p, Conj()); break;
        default: unary_logic<T>(p); break;
    }
}
// bool has no negation: the Rust types never ask for it.
template <> __device__ void unary<bool, false>(const Args& p) {
    switch (p.op) {
        case OP_IDENTITY: run<bool, bool, bool>(p, Identity()); break;
        case OP_CONSTANT: run<bool, bool, bool>(p, Constant()); break;
        case OP_CONJ: run<bool, bool, bool>(p, Identity()); break;
        default: unary_logic<bool>(p); break;
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
// operation is compiled for a type that lacks it. `Run` is `Direct` or, in
// the promoted kernels, `Lanes`.
template <class T, bool numeric> struct Families {
    template <class Run> __device__ static void arith_(const Args& p, Run& run) {
        arith<T>(p, run);
    }
    template <class Run> __device__ static void compare_(const Args& p, Run& run) {
        compare_all<T>(p, run);
    }
};
template <class R> struct Families<complex<R>, true> {
    template <class Run> __device__ static void arith_(const Args& p, Run& run) {
        arith<complex<R> >(p, run);
    }
    template <class Run> __device__ static void compare_(const Args& p, Run& run) {
        compare_eq<complex<R> >(p, run);
    }
};
template <> struct Families<bool, false> {
    // bool has + (or), * (and) and true division (as float32), no `-`.
    template <class Run> __device__ static void arith_(const Args& p, Run& run) {
        switch (p.op) {
            case OP_ADD: run.template go<bool, bool>(p, Add()); break;
            case OP_MUL: run.template go<bool, bool>(p, Mul()); break;
            case OP_DIV: run.template go<bool, float>(p, Div()); break;
            case OP_BITAND: run.template go<bool, bool>(p, BitAnd()); break;
            case OP_BITOR: run.template go<bool, bool>(p, BitOr()); break;
            case OP_BITXOR: run.template go<bool, bool>(p, BitXor()); break;
            default: break;
        }
    }
    template <class Run> __device__ static void compare_(const Args& p, Run& run) {
        compare_all<bool>(p, run);
    }
};

// ------------------------------------------------- operands of mixed types

template <class X, class Y> struct SameType { static constexpr bool value = false; };
template <class X> struct SameType<X, X> { static constexpr bool value = true; };

// One vector of both operands, converted to C, and the operation's result:
// the `Run` of the promoted kernels, which the operation dispatchers call
// with the operation's element function. A result is of type C (arithmetic,
// the math functions), bool (comparisons) or Q (true division of integers
// and bool: float32); `kind` says which (-1: none, an operation the type
// lacks).
template <class C, int N> struct Lanes {
    typedef typename Quotient<C>::type Q;
    Pack<C, N> x, y;
    Pack<C, N> same;
    Pack<bool, N> flag;
    Pack<Q, N> quotient;
    int kind;

    template <class T, class U, class F> __device__ void go(const Args&, F f) {
        Pack<U, N> r;
        for (int j = 0; j < N; ++j) r.v[j] = f(x.v[j], y.v[j]);
        keep(r);
    }
    // Overloads pick the slot: C first (bool is C in bool kernels, float32
    // in float32 ones), then bool, then Q.
    __device__ void keep(const Pack<C, N>& r) {
        same = r;
        kind = 0;
    }
    template <class U> __device__ void keep(const Pack<U, N>& r) { keep_other(r); }
    __device__ void keep_other(const Pack<bool, N>& r) {
        flag = r;
        kind = 1;
    }
    template <class U> __device__ void keep_other(const Pack<U, N>& r) {
        quotient = r;
        kind = 2;
    }
};

// Arithmetic, comparisons, and the math functions with a second operand
// (clamp, pow, maximum, minimum) computed in C on operands of any types, N
// elements at a time: each step loads both operands' vectors converted to
// C, applies the operation (a switch that every thread takes alike), and
// stores the result converted to the output's type. The conversions are
// compiled once per result type, not once per operation. This is PyTorch's
// mixed-dtype rule (and the CPU backend's `InCommon` / `StoreBack`) in one
// pass, with no converted copies in memory.
template <class C, bool numeric, int N> __device__ void promoted_loop(const Args& p) {
    Input<C> a = input_a<C>(p);
    Input<C> b = input_b<C>(p);
    uint64_t steps = p.numel / N;
    uint64_t step = uint64_t(blockDim.x) * gridDim.x;
    for (uint64_t k = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; k < steps; k += step) {
        uint64_t oo, ao, bo;
        offsets_of(p, k * N, oo, ao, bo);
        Lanes<C, N> v;
        v.x = load_vector<Converted, C, N>(a, ao, p.a_inner);
        v.y = load_vector<Converted, C, N>(b, bo, p.b_inner);
        v.kind = -1;
        if (p.op >= OP_EQ && p.op <= OP_LOGICAL_XOR) Families<C, numeric>::compare_(p, v);
        else if (p.op >= OP_ATAN2) {
            SpecialPair<C> f = {p.op};
            When<HasPairs<C>::value>::template go<C, C>(p, v, f);
        } else if (p.op >= OP_CLAMP) math_binary<C>(p, v);
        else Families<C, numeric>::arith_(p, v);
        if (v.kind == 0) Converted::store_pack(p.out.ptr, oo, p.out_dtype, v.same);
        else if (v.kind == 1) Converted::store_pack(p.out.ptr, oo, p.out_dtype, v.flag);
        else if (!SameType<typename Lanes<C, N>::Q, C>::value && v.kind == 2)
            Converted::store_pack(p.out.ptr, oo, p.out_dtype, v.quotient);
    }
}

// The promoted kernels move 16 bytes of the compute type at a time, at
// most 4 elements (every element is converted, in code of its own), where
// the host allows it (`plan`); else one element at a time.
template <class C, bool numeric> __device__ void promoted(const Args& p) {
    constexpr int N = sizeof(C) >= 16 ? 1 : (sizeof(C) >= 4 ? 16 / int(sizeof(C)) : 4);
    if (N > 1 && p.vec == N) promoted_loop<C, numeric, N>(p);
    else promoted_loop<C, numeric, 1>(p);
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
        shaped::Direct run;                                                               \
        shaped::Families<T, numeric>::arith_(p, run);                                     \
    }                                                                                     \
    extern "C" __global__ void SHAPED_BOUNDS shaped_compare_##name(shaped::Args p) {     \
        shaped::Direct run;                                                               \
        shaped::Families<T, numeric>::compare_(p, run);                                   \
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
#define SHAPED_SPECIAL_KERNELS(name, T, numeric)                                          \
    extern "C" __global__ void SHAPED_BOUNDS shaped_special_##name(shaped::Args p) {     \
        shaped::special<T>(p);                                                            \
    }


