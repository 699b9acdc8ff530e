// Elementwise math (src/ops/math.rs) for the CUDA kernels: the element
// functions, computed as the CPU backend computes them, and the `math`
// family. Part of elementwise.cuh, which includes it inside `namespace
// shaped`, after the loops.
//
// - Real types call the C math library's functions (CUDA's math API on the
//   device, libm on the host, which is what Rust's `f32::exp` calls, so the
//   host-compiled kernels match the CPU backend bit for bit), but float32's
//   exp, log, tanh and sigmoid, which are the CPU's polynomials (`poly_*`).
//   float16 and bfloat16 compute in f32 and round once.
// - Complex types follow num-complex's formulas (the CPU backend's), corner
//   cases included.
// - Integers and bool compute the transcendental functions in float32, as
//   PyTorch does (`FloatOf`).


// ---------------------------------------------- the C math library, by type

#define SHAPED_LIBM1(name)                                                        \
    __host__ __device__ inline float m_##name(float x) { return name##f(x); }     \
    __host__ __device__ inline double m_##name(double x) { return name(x); }
#define SHAPED_LIBM2(name)                                                        \
    __host__ __device__ inline float m_##name(float x, float y) { return name##f(x, y); } \
    __host__ __device__ inline double m_##name(double x, double y) { return name(x, y); }
SHAPED_LIBM1(exp)
SHAPED_LIBM1(log)
SHAPED_LIBM1(log2)
SHAPED_LIBM1(sqrt)
SHAPED_LIBM1(sin)
SHAPED_LIBM1(cos)
SHAPED_LIBM1(tanh)
SHAPED_LIBM1(sinh)
SHAPED_LIBM1(cosh)
SHAPED_LIBM1(tan)
SHAPED_LIBM1(asin)
SHAPED_LIBM1(acos)
SHAPED_LIBM1(atan)
SHAPED_LIBM1(asinh)
SHAPED_LIBM1(acosh)
SHAPED_LIBM1(atanh)
SHAPED_LIBM1(exp2)
SHAPED_LIBM1(expm1)
SHAPED_LIBM1(log10)
SHAPED_LIBM1(log1p)
SHAPED_LIBM1(erf)
SHAPED_LIBM1(erfc)
SHAPED_LIBM1(trunc)
SHAPED_LIBM1(floor)
SHAPED_LIBM1(ceil)
SHAPED_LIBM1(rint)  // half to even in the default rounding mode
SHAPED_LIBM1(fabs)
SHAPED_LIBM2(pow)
SHAPED_LIBM2(hypot)
SHAPED_LIBM2(atan2)
SHAPED_LIBM2(copysign)
SHAPED_LIBM2(fmod)
__host__ __device__ inline float m_fma(float x, float y, float z) { return fmaf(x, y, z); }
__host__ __device__ inline double m_fma(double x, double y, double z) { return fma(x, y, z); }
#undef SHAPED_LIBM1
#undef SHAPED_LIBM2
// ln |Γ(x)|: on the host through the reentrant lgamma_r, as the CPU backend
// (plain lgamma writes a global); CUDA's is thread-safe.
#ifdef SHAPED_HOST
inline float m_lgamma(float x) { int sign; return lgammaf_r(x, &sign); }
inline double m_lgamma(double x) { int sign; return lgamma_r(x, &sign); }
#else
__host__ __device__ inline float m_lgamma(float x) { return lgammaf(x); }
__host__ __device__ inline double m_lgamma(double x) { return lgamma(x); }
#endif

template <class R> __host__ __device__ inline bool is_nan(R x) { return x != x; }
template <class R> __host__ __device__ inline bool is_finite(R x) { return !is_nan(x - x); }
template <class R> __host__ __device__ inline bool is_inf(R x) { return !is_nan(x) && !is_finite(x); }
template <class R> __host__ __device__ inline bool sign_positive(R x) {
    return m_copysign(R(1), x) > R(0);
}
// Rust's `R::NAN`: the positive quiet NaN.
template <class R> __host__ __device__ inline R quiet_nan() { return m_copysign(R(0) / R(0), R(1)); }

// ------------------------------------------------- the floating functions

// `FloatOf<T>::type`: the type T's transcendental functions compute in and
// give (src/dtype/math.rs, `ToFloat`).
template <class T> struct FloatOf { typedef float type; };
template <> struct FloatOf<f16> { typedef f16 type; };
template <> struct FloatOf<bf16> { typedef bf16 type; };
template <> struct FloatOf<float> { typedef float type; };
template <> struct FloatOf<double> { typedef double type; };
template <class R> struct FloatOf<complex<R> > { typedef complex<R> type; };

// float32's exp, log, tanh and sigmoid: the CPU backend's polynomials
// (src/backend/cpu/vector_math.rs, which documents them), operation for
// operation, every multiply-add fused (`fmaf`; nvcc's -fmad=false and the
// host build's -ffp-contract=off fuse nothing else), so that the device,
// the host build and the CPU give the same bits.
__host__ __device__ inline float poly_exp(float x) {
    const float LOG2E = 1.44269504088896340736f;
    const float LN2_HI = 0.6933594f;
    const float LN2_LO = -2.1219444e-4f;
    const float ROUND = 12582912.0f;  // rounds to an integer, ties to even
    x = x < -104.0f ? -104.0f : (x > 88.8f ? 88.8f : x);  // (NaN stays)
    float shifted = fmaf(x, LOG2E, ROUND);
    float fx = shifted - ROUND;
    float r = fmaf(fx, -LN2_LO, fmaf(fx, -LN2_HI, x));
    float r2 = r * r;
    float p = 1.9875691e-4f;
    p = fmaf(p, r, 1.3981999e-3f);
    p = fmaf(p, r, 8.333452e-3f);
    p = fmaf(p, r, 4.1665796e-2f);
    p = fmaf(p, r, 1.6666665e-1f);
    p = fmaf(p, r, 0.5f);
    p = fmaf(p, r2, r + 1.0f);
    // 2^n as two powers of two (n from the low bits of `shifted`),
    // computed in unsigned words as Rust's wrapping operations.
    uint32_t n = bits_of(shifted) - 0x4B400000u;
    uint32_t half = uint32_t(int32_t(n) >> 1);
    return p * f32_of_bits((half + 127u) << 23) * f32_of_bits((n - half + 127u) << 23);
}
__host__ __device__ inline float poly_tanh(float x) {
    float a = m_fabs(x);
    float z = x * x;
    float p = -5.7049887e-3f;
    p = fmaf(p, z, 2.063909e-2f);
    p = fmaf(p, z, -5.3739716e-2f);
    p = fmaf(p, z, 1.3331442e-1f);
    p = fmaf(p, z, -3.333328e-1f);
    float small = z == 0.0f ? x : fmaf(p * z, x, x);
    float e = poly_exp(-2.0f * a);
    float num = 1.0f - e, den = 1.0f + e;
    float num_lo = (1.0f - num) - e, den_lo = (1.0f - den) + e;
    float q = num / den;
    float residual = fmaf(-q, den, num) + num_lo - q * den_lo;
    float large = m_copysign(q + residual / den, x);
    return a < 0.625f ? small : large;
}
__host__ __device__ inline float poly_sigmoid(float x) {
    float e = poly_exp(-m_fabs(x));
    float num = x < 0.0f ? e : 1.0f;
    float hi = 1.0f + e;
    float lo = (1.0f - hi) + e;
    float q = num / hi;
    float residual = fmaf(-q, hi, num) - q * lo;
    return x <= -88.72284f ? 0.0f : q + residual / hi;  // PyTorch's 1 / (1 + inf)
}
__host__ __device__ inline float poly_log(float x) {
    const float SQRT_HALF = 0.707106781186547524400844362104849039f;
    bool tiny = x < 1.17549435e-38f;  // denormals scaled by 2^23 first
    float scaled = tiny ? x * 8388608.0f : x;
    uint32_t bits = bits_of(scaled);
    int32_t e = int32_t((bits >> 23) & 0xffu) - (tiny ? 126 + 23 : 126);
    float m = f32_of_bits((bits & 0x007fffffu) | 0x3f000000u);  // [0.5, 1)
    bool low = m < SQRT_HALF;
    e = low ? e - 1 : e;
    m = low ? m + m - 1.0f : m - 1.0f;
    float z = m * m;
    float p = 7.0376836e-2f;
    p = fmaf(p, m, -1.151461e-1f);
    p = fmaf(p, m, 1.1676999e-1f);
    p = fmaf(p, m, -1.2420141e-1f);
    p = fmaf(p, m, 1.4249323e-1f);
    p = fmaf(p, m, -1.6668058e-1f);
    p = fmaf(p, m, 2.0000714e-1f);
    p = fmaf(p, m, -2.4999994e-1f);
    p = fmaf(p, m, 3.333333e-1f);
    float fe = float(e);
    float y = p * m * z;
    y = fmaf(fe, -2.1219444e-4f, y);
    y = fmaf(-0.5f, z, y);
    float r = fmaf(fe, 0.6933594f, m + y);
    if (x == m_copysign(1.0f / 0.0f, 1.0f)) return x;
    if (x == 0.0f) return -m_copysign(1.0f / 0.0f, 1.0f);
    return x > 0.0f ? r : quiet_nan<float>();
}
// On a device, CUDA's own float32 exp, log and tanh (libdevice, within 2
// ulp; PyTorch's CUDA kernels call the same): the polynomials above take 3
// to 4 times their instructions there (`tanh`: 216 SASS instructions per
// element against 56, its two correctly rounded divisions the most of
// them), which made the float32 kernels compute-bound at 44-66% of copy
// bandwidth on an H100. The host build (and so the host tests, bit for bit
// against the CPU) keeps the polynomials; the GPU tests compare within a
// few ulp, edge values exactly.
#ifdef __CUDA_ARCH__
__device__ inline float f_exp(float x) { return expf(x); }
__device__ inline float f_ln(float x) { return logf(x); }
__device__ inline float f_tanh(float x) { return tanhf(x); }
__device__ inline float f_sigmoid(float x) { return 1.0f / (1.0f + expf(-x)); }
#else
inline float f_exp(float x) { return poly_exp(x); }
inline float f_ln(float x) { return poly_log(x); }
inline float f_tanh(float x) { return poly_tanh(x); }
inline float f_sigmoid(float x) { return poly_sigmoid(x); }
#endif
__host__ __device__ inline double f_ln(double x) { return m_log(x); }
__host__ __device__ inline double f_exp(double x) { return m_exp(x); }
__host__ __device__ inline double f_tanh(double x) { return m_tanh(x); }
__host__ __device__ inline double f_sigmoid(double x) { return 1.0 / (1.0 + m_exp(-x)); }

// Real types: float and double.
#define SHAPED_REAL_MATH(R)                                                              \
    __host__ __device__ inline R f_log2(R x) { return m_log2(x); }                       \
    __host__ __device__ inline R f_sqrt(R x) { return m_sqrt(x); }                       \
    __host__ __device__ inline R f_sin(R x) { return m_sin(x); }                         \
    __host__ __device__ inline R f_cos(R x) { return m_cos(x); }                         \
    __host__ __device__ inline R f_recip(R x) { return R(1) / x; }                       \
    __host__ __device__ inline R f_tan(R x) { return m_tan(x); }                         \
    __host__ __device__ inline R f_asin(R x) { return m_asin(x); }                       \
    __host__ __device__ inline R f_acos(R x) { return m_acos(x); }                       \
    __host__ __device__ inline R f_atan(R x) { return m_atan(x); }                       \
    __host__ __device__ inline R f_sinh(R x) { return m_sinh(x); }                       \
    __host__ __device__ inline R f_cosh(R x) { return m_cosh(x); }                       \
    __host__ __device__ inline R f_asinh(R x) { return m_asinh(x); }                     \
    __host__ __device__ inline R f_acosh(R x) { return m_acosh(x); }                     \
    __host__ __device__ inline R f_atanh(R x) { return m_atanh(x); }                     \
    __host__ __device__ inline R f_exp2(R x) { return m_exp2(x); }                       \
    __host__ __device__ inline R f_expm1(R x) { return m_expm1(x); }                     \
    __host__ __device__ inline R f_log10(R x) { return m_log10(x); }                     \
    __host__ __device__ inline R f_log1p(R x) { return m_log1p(x); }                     \
    __host__ __device__ inline R f_rsqrt(R x) { return R(1) / m_sqrt(x); }               \
    __host__ __device__ inline R f_pow(R x, R e) { return m_pow(x, e); }                 \
    __host__ __device__ inline R f_pow_scalar(R x, R e, bool sqrt_cases) {               \
        return real_pow_scalar(x, e, sqrt_cases);                                        \
    }
// PyTorch's `pow(tensor, number)`: the exponents 2, 3, ±0.5, -1, -2 by
// multiplication, sqrt and reciprocals (`pow_by_cases` in Rust); float16
// takes ±0.5 through `pow` (`sqrt_cases` false).
template <class R> __host__ __device__ inline R real_pow_scalar(R x, R e, bool sqrt_cases) {
    double d = double(e);
    if (d == 2.0) return x * x;
    if (d == 3.0) return x * x * x;
    if (d == 0.5 && sqrt_cases) return m_sqrt(x);
    if (d == -0.5 && sqrt_cases) return R(1) / m_sqrt(x);
    if (d == -1.0) return R(1) / x;
    if (d == -2.0) return R(1) / (x * x);
    return m_pow(x, e);
}
SHAPED_REAL_MATH(float)
SHAPED_REAL_MATH(double)
#undef SHAPED_REAL_MATH

// The special functions and angle conversions (src/dtype/special.rs,
// `SpecialMath`), step for step: erf, erfc and lgamma the C library's;
// erfinv and digamma PyTorch's algorithms.
template <class R> __host__ __device__ inline R f_erf(R x) { return m_erf(x); }
template <class R> __host__ __device__ inline R f_erfc(R x) { return m_erfc(x); }
template <class R> __host__ __device__ inline R f_lgamma(R x) { return m_lgamma(x); }
template <class R> __host__ __device__ inline R f_deg2rad(R x) {
    return x * R(0.017453292519943295769236907684886127134428718885417);
}
template <class R> __host__ __device__ inline R f_rad2deg(R x) {
    return x * R(57.295779513082320876798154814105170332405472466564);
}
// A rational first guess, then two Newton steps on erf(x) = y (on
// erfc(|x|) = 1 - |y| in the tails).
template <class R> __host__ __device__ inline R f_erfinv(R y) {
    R magnitude = m_fabs(y);
    if (magnitude > R(1)) return quiet_nan<R>();
    if (magnitude == R(1)) return m_copysign(R(1) / R(0), y);
    R x;
    if (magnitude <= R(0.7)) {
        R z = y * y;
        R num = ((R(-0.140543331) * z + R(0.914624893)) * z + R(-1.645349621)) * z + R(0.886226899);
        R den = (((R(0.012229801) * z + R(-0.329097515)) * z + R(1.442710462)) * z + R(-2.118377725)) * z + R(1);
        x = y * num / den;
    } else {
        R z = m_sqrt(-m_log((R(1) - magnitude) / R(2)));
        R num = ((R(1.641345311) * z + R(3.429567803)) * z + R(-1.624906493)) * z + R(-1.970840454);
        R den = (R(1.6370678) * z + R(3.5438892)) * z + R(1);
        x = m_copysign(num, y) / den;
    }
    R slope = R(1.12837916709551257389615890312154517);  // 2 / sqrt(pi)
    if (magnitude <= R(0.7)) {
        for (int step = 0; step < 2; ++step) x = x - (m_erf(x) - y) / (slope * m_exp(-x * x));
        return x;
    }
    // The tails: Newton on erfc(|x|) = 1 - |y|, which is exact.
    R tail = R(1) - magnitude, t = m_fabs(x);
    for (int step = 0; step < 2; ++step) t = t + (m_erfc(t) - tail) / (slope * m_exp(-t * t));
    return m_copysign(t, y);
}
// Cephes' digamma: the reflection for negative x (tan in double), the
// recurrence up to 10, the asymptotic series.
template <class R> __host__ __device__ inline R positive_digamma(R x) {
    R result = R(0);
    while (x < R(10)) {
        result -= R(1) / x;
        x += R(1);
    }
    if (x == R(10)) return result + R(2.25175258906672110764);
    R series = R(0);
    if (x < R(1.0e17)) {
        const double coefficients[7] = {8.33333333333333333333E-2, -2.10927960927960927961E-2,
                                        7.57575757575757575758E-3, -4.16666666666666666667E-3,
                                        3.96825396825396825397E-3, -8.33333333333333333333E-3,
                                        8.33333333333333333333E-2};
        R z = R(1) / (x * x);
        R poly = R(0);
        for (int i = 0; i < 7; ++i) poly = poly * z + R(coefficients[i]);
        series = z * poly;
    }
    return result + m_log(x) - R(0.5) / x - series;
}
template <class R> __host__ __device__ inline R f_digamma(R x) {
    if (x == R(0)) return m_copysign(R(1) / R(0), -x);
    if (x < R(0)) {
        if (x == m_trunc(x)) return quiet_nan<R>();
        double r = double(x - m_trunc(x));
        double pi = 3.14159265358979323846;
        return positive_digamma(R(1) - x) - R(pi / m_tan(pi * r));
    }
    return positive_digamma(x);
}
// sin(pi x) / (pi x), 1 at ±0 (PyTorch's: pi x rounded first).
template <class R> __host__ __device__ inline R f_sinc(R x) {
    if (x == R(0)) return R(1);
    R product = R(3.14159265358979323846) * x;
    return m_sin(product) / product;
}

// Complex types: the C library's functions (C99's `cexp`, `csin`, `casin`,
// ... through <complex>, as PyTorch's CPU kernels and the CPU backend call
// them) on the host, Thrust's on a device (the same annex G values at the
// branch cuts, signed zeros, infinities and NaN); PyTorch's formulas for
// the rest.
#ifdef SHAPED_HOST
#define SHAPED_CX std
#else
#define SHAPED_CX thrust
#endif
#define SHAPED_C99(name, fn)                                                         \
    template <class R> __host__ __device__ inline complex<R> name(complex<R> z) {    \
        SHAPED_CX::complex<R> w = SHAPED_CX::fn(SHAPED_CX::complex<R>(z.re, z.im));  \
        return complex<R>{w.real(), w.imag()};                                       \
    }
SHAPED_C99(f_exp, exp)
SHAPED_C99(f_ln, log)
SHAPED_C99(f_sqrt, sqrt)
SHAPED_C99(f_sin, sin)
SHAPED_C99(f_cos, cos)
SHAPED_C99(c99_tan, tan)
SHAPED_C99(f_sinh, sinh)
SHAPED_C99(f_cosh, cosh)
SHAPED_C99(f_tanh, tanh)
SHAPED_C99(f_asin, asin)
SHAPED_C99(c99_acos, acos)
SHAPED_C99(f_atan, atan)
SHAPED_C99(f_asinh, asinh)
SHAPED_C99(f_acosh, acosh)
SHAPED_C99(f_atanh, atanh)
#undef SHAPED_C99
#undef SHAPED_CX
// tan(x + iy) = -i tanh(-y + ix): where x is NaN or infinite and y is
// zero, C11's ctanh(+-0 + i NaN) = +-0 + i NaN gives NaN + iy (glibc, and
// so PyTorch's CPU kernels); Thrust's tangent keeps C99's NaN + i NaN.
template <class R> __host__ __device__ inline complex<R> f_tan(complex<R> z) {
    if (z.im == R(0) && !(z.re - z.re == R(0))) return complex<R>{z.re - z.re, z.im};
    return c99_tan(z);
}
// PyTorch's complex arccosine: C's for complex64, pi/2 - asin(z) for
// complex128 (its vectorized kernel's formula).
template <class R> __host__ __device__ inline complex<R> f_acos(complex<R> z) { return c99_acos(z); }
__host__ __device__ inline complex<double> f_acos(complex<double> z) {
    complex<double> a = f_asin(z);
    return complex<double>{1.57079632679489661923132169163975144 - a.re, 0.0 - a.im};
}
template <class R> __host__ __device__ inline complex<R> f_log2(complex<R> z) {
    complex<R> l = f_ln(z);
    R ln2 = R(0.693147180559945309417232121458176568);
    return complex<R>{l.re / ln2, l.im / ln2};
}
// 1 / z by the division of `/` (Smith's, in elementwise.cuh).
template <class R> __host__ __device__ inline complex<R> f_recip(complex<R> z) {
    return div(complex<R>{R(1), R(0)}, z);
}
template <class R> __host__ __device__ inline complex<R> f_sigmoid(complex<R> z) {
    return f_recip(add(complex<R>{R(1), R(0)}, f_exp(neg(z))));
}
// PyTorch's exp(ln(2) z).
template <class R> __host__ __device__ inline complex<R> f_exp2(complex<R> z) {
    R ln2 = R(0.693147180559945309417232121458176568);
    return f_exp(complex<R>{ln2 * z.re, ln2 * z.im});
}
// PyTorch's formula for expm1 (c10/util/complex_math.h).
template <class R> __host__ __device__ inline complex<R> f_expm1(complex<R> z) {
    R x = z.re, y = z.im;
    R a = m_sin(y / R(2));
    return complex<R>{m_expm1(x) * m_cos(y) - R(2) * a * a, m_exp(x) * m_sin(y)};
}
template <class R> __host__ __device__ inline complex<R> f_log10(complex<R> z) {
    complex<R> l = f_ln(z);
    R ln10 = R(2.302585092994045684017991454684364208);
    return complex<R>{l.re / ln10, l.im / ln10};
}
// PyTorch's CPU log1p (NumPy's formula): u = 1 + z; z where u is 1, ln(u)
// where u - 1 is z, else ln(u) z / (u - 1).
template <class R> __host__ __device__ inline complex<R> f_log1p(complex<R> z) {
    complex<R> u = complex<R>{z.re + R(1), z.im};
    if (u.re == R(1) && u.im == R(0)) return z;
    complex<R> log_u = f_ln(u);
    complex<R> shifted = complex<R>{u.re - R(1), u.im};
    if (shifted.re == z.re && shifted.im == z.im) return log_u;
    return mul(log_u, div(z, shifted));
}
template <class R> __host__ __device__ inline complex<R> f_rsqrt(complex<R> z) { return f_recip(f_sqrt(z)); }
template <class R> __host__ __device__ inline complex<R> f_pow(complex<R> z, complex<R> e) {
    if (e.re == R(0) && e.im == R(0)) return complex<R>{R(1), R(0)};
    return f_exp(mul(e, f_ln(z)));
}
template <class R>
__host__ __device__ inline complex<R> f_pow_scalar(complex<R> z, complex<R> e, bool) {
    double d = e.im == R(0) ? double(e.re) : double(quiet_nan<R>());
    if (d == -1.0) return f_recip(z);
    if (d == -0.5) return f_recip(f_sqrt(z));
    if (d == -2.0) return f_recip(mul(z, z));
    if (d == 2.0) return mul(z, z);
    if (d == 3.0) return mul(mul(z, z), z);
    if (d == 0.5) return f_sqrt(z);
    return f_pow(z, e);
}

// PyTorch's complex sinc: pi as a complex number times z (an infinite part
// makes the other NaN), the sine over that product by `/`'s division.
template <class R> __host__ __device__ inline complex<R> f_sinc(complex<R> z) {
    if (z.re == R(0) && z.im == R(0)) return complex<R>{R(1), R(0)};
    complex<R> product = mul(complex<R>{R(3.14159265358979323846), R(0)}, z);
    return div(f_sin(product), product);
}

// float16 and bfloat16: through f32, rounded once.
#define SHAPED_HALF_MATH(H, from)                                                              \
    __host__ __device__ inline H f_exp(H x) { return from(f_exp(to_f32(x))); }                 \
    __host__ __device__ inline H f_ln(H x) { return from(f_ln(to_f32(x))); }                   \
    __host__ __device__ inline H f_log2(H x) { return from(f_log2(to_f32(x))); }               \
    __host__ __device__ inline H f_sqrt(H x) { return from(f_sqrt(to_f32(x))); }               \
    __host__ __device__ inline H f_sin(H x) { return from(f_sin(to_f32(x))); }                 \
    __host__ __device__ inline H f_cos(H x) { return from(f_cos(to_f32(x))); }                 \
    __host__ __device__ inline H f_tanh(H x) { return from(f_tanh(to_f32(x))); }               \
    __host__ __device__ inline H f_sigmoid(H x) { return from(f_sigmoid(to_f32(x))); }         \
    __host__ __device__ inline H f_recip(H x) { return from(f_recip(to_f32(x))); }             \
    __host__ __device__ inline H f_tan(H x) { return from(f_tan(to_f32(x))); } \
    __host__ __device__ inline H f_asin(H x) { return from(f_asin(to_f32(x))); } \
    __host__ __device__ inline H f_acos(H x) { return from(f_acos(to_f32(x))); } \
    __host__ __device__ inline H f_atan(H x) { return from(f_atan(to_f32(x))); } \
    __host__ __device__ inline H f_sinh(H x) { return from(f_sinh(to_f32(x))); } \
    __host__ __device__ inline H f_cosh(H x) { return from(f_cosh(to_f32(x))); } \
    __host__ __device__ inline H f_asinh(H x) { return from(f_asinh(to_f32(x))); } \
    __host__ __device__ inline H f_acosh(H x) { return from(f_acosh(to_f32(x))); } \
    __host__ __device__ inline H f_atanh(H x) { return from(f_atanh(to_f32(x))); } \
    __host__ __device__ inline H f_exp2(H x) { return from(f_exp2(to_f32(x))); } \
    __host__ __device__ inline H f_expm1(H x) { return from(f_expm1(to_f32(x))); } \
    __host__ __device__ inline H f_log10(H x) { return from(f_log10(to_f32(x))); } \
    __host__ __device__ inline H f_log1p(H x) { return from(f_log1p(to_f32(x))); } \
    __host__ __device__ inline H f_rsqrt(H x) { return from(f_rsqrt(to_f32(x))); } \
    __host__ __device__ inline H f_erf(H x) { return from(f_erf(to_f32(x))); } \
    __host__ __device__ inline H f_erfc(H x) { return from(f_erfc(to_f32(x))); } \
    __host__ __device__ inline H f_erfinv(H x) { return from(f_erfinv(to_f32(x))); } \
    __host__ __device__ inline H f_lgamma(H x) { return from(f_lgamma(to_f32(x))); } \
    __host__ __device__ inline H f_digamma(H x) { return from(f_digamma(to_f32(x))); } \
    __host__ __device__ inline H f_deg2rad(H x) { return from(f_deg2rad(to_f32(x))); } \
    __host__ __device__ inline H f_rad2deg(H x) { return from(f_rad2deg(to_f32(x))); } \
    __host__ __device__ inline H f_sinc(H x) { return from(f_sinc(to_f32(x))); } \
    __host__ __device__ inline H f_pow(H x, H e) { return from(f_pow(to_f32(x), to_f32(e))); } \
    __host__ __device__ inline H f_pow_scalar(H x, H e, bool sqrt_cases) {                     \
        return from(f_pow_scalar(to_f32(x), to_f32(e), sqrt_cases));                           \
    }
SHAPED_HALF_MATH(f16, f16_from)
SHAPED_HALF_MATH(bf16, bf16_from)
#undef SHAPED_HALF_MATH

// ------------------------------------- abs, rounding, powers of integers

template <class T> __host__ __device__ inline T f_abs(T x) { return x < T(0) ? neg(x) : x; }
__host__ __device__ inline uint8_t f_abs(uint8_t x) { return x; }
__host__ __device__ inline float f_abs(float x) { return m_fabs(x); }
__host__ __device__ inline double f_abs(double x) { return m_fabs(x); }
__host__ __device__ inline f16 f_abs(f16 x) { return f16{uint16_t(x.bits & 0x7fffu)}; }
__host__ __device__ inline bf16 f_abs(bf16 x) { return bf16{uint16_t(x.bits & 0x7fffu)}; }
template <class R> __host__ __device__ inline R f_abs(complex<R> z) { return m_hypot(z.re, z.im); }
// |x|'s type: the real type of a complex one.
template <class T> struct AbsOf { typedef T type; };
template <class R> struct AbsOf<complex<R> > { typedef R type; };

// Integers are their own floor, ceiling and rounding.
template <class T> __host__ __device__ inline T f_floor(T x) { return x; }
template <class T> __host__ __device__ inline T f_ceil(T x) { return x; }
template <class T> __host__ __device__ inline T f_round(T x) { return x; }
template <class T> __host__ __device__ inline T f_trunc(T x) { return x; }
#define SHAPED_ROUNDING(T, to, from)                                                    \
    __host__ __device__ inline T f_floor(T x) { return from(m_floor(to(x))); }          \
    __host__ __device__ inline T f_ceil(T x) { return from(m_ceil(to(x))); }            \
    __host__ __device__ inline T f_round(T x) { return from(m_rint(to(x))); }          \
    __host__ __device__ inline T f_trunc(T x) { return from(m_trunc(to(x))); }         \
    __host__ __device__ inline T f_frac(T x) { return from(to(x) - m_trunc(to(x))); }
#define SHAPED_SAME(x) (x)
SHAPED_ROUNDING(float, SHAPED_SAME, SHAPED_SAME)
SHAPED_ROUNDING(double, SHAPED_SAME, SHAPED_SAME)
SHAPED_ROUNDING(f16, to_f32, f16_from)
SHAPED_ROUNDING(bf16, to_f32, bf16_from)
#undef SHAPED_ROUNDING
#undef SHAPED_SAME

// Integer powers, wrapping: only 1 and -1 have integer reciprocals.
template <class T> __host__ __device__ inline bool is_negative(T x) { return x < T(0); }
__host__ __device__ inline bool is_negative(uint8_t) { return false; }
template <class T> __host__ __device__ inline T f_pow(T x, T e) {
    if (is_negative(e)) {
        int64_t v = int64_t(x);
        if (v == 1) return T(1);
        if (v == -1) return (e % T(2) == T(0)) ? T(1) : x;
        return T(0);
    }
    T acc = T(1);
    while (e > T(0)) {
        if (e & T(1)) acc = mul(acc, x);
        x = mul(x, x);
        e = T(e >> 1);
    }
    return acc;
}
template <class T> __host__ __device__ inline T f_pow_scalar(T x, T e, bool) { return f_pow(x, e); }

// Whether pow_scalar's ±0.5 go through sqrt: every floating type but f16.
template <class T> struct SqrtCases { static const bool value = true; };
template <> struct SqrtCases<f16> { static const bool value = false; };

// ------------------------------------------- remainder, fmod, floor_divide

// Integers: a divisor of 0 gives 0 (the host checks for it first: PyTorch's
// ZeroDivisionError), and MIN / -1 wraps, as the Rust `Modular` impls.
template <class T> __host__ __device__ inline T f_fmod(T a, T b) {
    if (b == T(0) || (is_negative(b) && b == T(-1))) return T(0);
    return T(a % b);
}
template <class T> __host__ __device__ inline T f_remainder(T a, T b) {
    T r = f_fmod(a, b);
    return (r != T(0) && is_negative(r) != is_negative(b)) ? add(r, b) : r;
}
template <class T> __host__ __device__ inline T f_floor_divide(T a, T b) {
    if (b == T(0)) return T(0);
    if (is_negative(b) && b == T(-1)) return neg(a);
    T q = T(a / b), r = T(a % b);
    return (r != T(0) && is_negative(a) != is_negative(b)) ? sub(q, T(1)) : q;
}
// Real floating types: C's fmod, the sign of the divisor for remainder,
// and PyTorch's `div_floor_floating`, each step rounded in T (float16 and
// bfloat16 through f32 per step, as the `half` crate's operators).
__host__ __device__ inline float f_fmod(float a, float b) { return m_fmod(a, b); }
__host__ __device__ inline double f_fmod(double a, double b) { return m_fmod(a, b); }
__host__ __device__ inline f16 f_fmod(f16 a, f16 b) { return f16_from(m_fmod(to_f32(a), to_f32(b))); }
__host__ __device__ inline bf16 f_fmod(bf16 a, bf16 b) { return bf16_from(m_fmod(to_f32(a), to_f32(b))); }
template <class T> __host__ __device__ inline T float_remainder(T a, T b) {
    T zero = convert<T>(int64_t(0));
    T m = f_fmod(a, b);
    return (!eq(m, zero) && lt(b, zero) != lt(m, zero)) ? add(m, b) : m;
}
template <class T> __host__ __device__ inline T float_floor_divide(T a, T b) {
    T zero = convert<T>(int64_t(0)), one = convert<T>(int64_t(1)), half = convert<T>(0.5);
    if (eq(b, zero)) return div(a, b);
    T m = f_fmod(a, b);
    T d = div(sub(a, m), b);
    if (!eq(m, zero) && lt(b, zero) != lt(m, zero)) d = sub(d, one);
    if (!eq(d, zero)) {
        T q = f_floor(d);
        return lt(half, sub(d, q)) ? add(q, one) : q;
    }
    T s = div(a, b);  // 0 with the sign of a / b
    bool negative = lt(s, zero) || (eq(s, zero) && lt(div(one, s), zero));
    return negative ? neg(zero) : zero;
}
#define SHAPED_FLOAT_MODULAR(T)                                                                    \
    __host__ __device__ inline T f_remainder(T a, T b) { return float_remainder(a, b); }           \
    __host__ __device__ inline T f_floor_divide(T a, T b) { return float_floor_divide(a, b); }
SHAPED_FLOAT_MODULAR(float)
SHAPED_FLOAT_MODULAR(double)
SHAPED_FLOAT_MODULAR(f16)
SHAPED_FLOAT_MODULAR(bf16)
#undef SHAPED_FLOAT_MODULAR

// --------------------------------------------------------- the functors

// The transcendental functions: x converted to FloatOf<T> first.
#define SHAPED_FLOAT_FN(Name, fn)                                                      \
    struct Name {                                                                      \
        template <class T>                                                             \
        __host__ __device__ typename FloatOf<T>::type operator()(T a, T) const {       \
            return fn(convert<typename FloatOf<T>::type>(a));                          \
        }                                                                              \
    };
SHAPED_FLOAT_FN(Exp, f_exp)
SHAPED_FLOAT_FN(Ln, f_ln)
SHAPED_FLOAT_FN(Log2, f_log2)
SHAPED_FLOAT_FN(Sqrt, f_sqrt)
SHAPED_FLOAT_FN(Sin, f_sin)
SHAPED_FLOAT_FN(Cos, f_cos)
SHAPED_FLOAT_FN(Tanh, f_tanh)
SHAPED_FLOAT_FN(Sigmoid, f_sigmoid)
SHAPED_FLOAT_FN(Recip, f_recip)
SHAPED_FLOAT_FN(Tan, f_tan)
SHAPED_FLOAT_FN(Asin, f_asin)
SHAPED_FLOAT_FN(Acos, f_acos)
SHAPED_FLOAT_FN(Atan, f_atan)
SHAPED_FLOAT_FN(Sinh, f_sinh)
SHAPED_FLOAT_FN(Cosh, f_cosh)
SHAPED_FLOAT_FN(Asinh, f_asinh)
SHAPED_FLOAT_FN(Acosh, f_acosh)
SHAPED_FLOAT_FN(Atanh, f_atanh)
SHAPED_FLOAT_FN(Exp2, f_exp2)
SHAPED_FLOAT_FN(Expm1, f_expm1)
SHAPED_FLOAT_FN(Log10, f_log10)
SHAPED_FLOAT_FN(Log1p, f_log1p)
SHAPED_FLOAT_FN(Rsqrt, f_rsqrt)
SHAPED_FLOAT_FN(Erf, f_erf)
SHAPED_FLOAT_FN(Erfc, f_erfc)
SHAPED_FLOAT_FN(Erfinv, f_erfinv)
SHAPED_FLOAT_FN(Lgamma, f_lgamma)
SHAPED_FLOAT_FN(Digamma, f_digamma)
SHAPED_FLOAT_FN(Deg2rad, f_deg2rad)
SHAPED_FLOAT_FN(Rad2deg, f_rad2deg)
SHAPED_FLOAT_FN(Sinc, f_sinc)
#undef SHAPED_FLOAT_FN

struct AbsFn {
    template <class T> __host__ __device__ typename AbsOf<T>::type operator()(T a, T) const {
        return f_abs(a);
    }
};
struct Floor { template <class T> __host__ __device__ T operator()(T a, T) const { return f_floor(a); } };
struct Ceil { template <class T> __host__ __device__ T operator()(T a, T) const { return f_ceil(a); } };
struct Round { template <class T> __host__ __device__ T operator()(T a, T) const { return f_round(a); } };
// max(x, 0); NaN stays NaN, -0 stays -0.
struct Relu {
    template <class T> __host__ __device__ T operator()(T a, T) const {
        return lt(a, convert<T>(int64_t(0))) ? convert<T>(int64_t(0)) : a;
    }
};
// min(max(x, lo), hi), lo the fixed operand b, hi the second fixed number.
template <class T> struct Clamp {
    T hi;
    __host__ __device__ T operator()(T a, T lo) const {
        T y = lt(a, lo) ? lo : a;
        return lt(hi, y) ? hi : y;
    }
};
// NaN if either is NaN, else the larger (smaller) one.
struct Maximum {
    template <class T> __host__ __device__ T operator()(T a, T b) const {
        return (!eq(a, a) || (eq(b, b) && le(b, a))) ? a : b;
    }
};
struct Minimum {
    template <class T> __host__ __device__ T operator()(T a, T b) const {
        return (!eq(a, a) || (eq(b, b) && le(a, b))) ? a : b;
    }
};
struct Pow { template <class T> __host__ __device__ T operator()(T a, T b) const { return f_pow(a, b); } };
struct Remainder {
    template <class T> __host__ __device__ T operator()(T a, T b) const { return f_remainder(a, b); }
};
struct Fmod { template <class T> __host__ __device__ T operator()(T a, T b) const { return f_fmod(a, b); } };
struct FloorDivide {
    template <class T> __host__ __device__ T operator()(T a, T b) const { return f_floor_divide(a, b); }
};
struct PowScalar {
    template <class T> __host__ __device__ T operator()(T a, T e) const {
        return f_pow_scalar(a, e, SqrtCases<T>::value);
    }
};

// ------------------------------------------ signs, parts, squares, cleanup
// (src/dtype/special.rs)

struct Trunc { template <class T> __host__ __device__ T operator()(T a, T) const { return f_trunc(a); } };
struct Frac { template <class T> __host__ __device__ T operator()(T a, T) const { return f_frac(a); } };
// (0 < x) - (x < 0): ±0 and NaN give +0; a bool is its own sign.
template <class T> __host__ __device__ inline T f_sign(T x) {
    T zero = convert<T>(int64_t(0)), one = convert<T>(int64_t(1));
    return lt(zero, x) ? one : (lt(x, zero) ? neg(one) : zero);
}
__host__ __device__ inline uint8_t f_sign(uint8_t x) { return x > 0 ? 1 : 0; }
__host__ __device__ inline bool f_sign(bool x) { return x; }
template <class T> __host__ __device__ inline bool f_signbit(T x) { return is_negative(x); }
__host__ __device__ inline bool f_signbit(bool) { return false; }
__host__ __device__ inline bool f_signbit(float x) { return !sign_positive(x); }
__host__ __device__ inline bool f_signbit(double x) { return !sign_positive(x); }
__host__ __device__ inline bool f_signbit(f16 x) { return (x.bits & 0x8000u) != 0; }
__host__ __device__ inline bool f_signbit(bf16 x) { return (x.bits & 0x8000u) != 0; }
// sgn: the sign, or z / |z| (0 at 0) with |z| by hypot.
template <class T> __host__ __device__ inline T f_sgn(T x) { return f_sign(x); }
template <class R> __host__ __device__ inline complex<R> f_sgn(complex<R> z) {
    if (z.re == R(0) && z.im == R(0)) return complex<R>{R(0), R(0)};
    R magnitude = m_hypot(z.re, z.im);
    return complex<R>{z.re / magnitude, z.im / magnitude};
}
struct SignFn { template <class T> __host__ __device__ T operator()(T a, T) const { return f_sign(a); } };
struct Signbit { template <class T> __host__ __device__ bool operator()(T a, T) const { return f_signbit(a); } };
struct Sgn { template <class T> __host__ __device__ T operator()(T a, T) const { return f_sgn(a); } };
// x * x, wrapping for integers; bool squares to int64.
template <class T> struct SquareOf { typedef T type; };
template <> struct SquareOf<bool> { typedef int64_t type; };
template <class T> __host__ __device__ inline T f_square(T x) { return mul(x, x); }
__host__ __device__ inline int64_t f_square(bool x) { return x ? 1 : 0; }
struct Square {
    template <class T> __host__ __device__ typename SquareOf<T>::type operator()(T a, T) const {
        return f_square(a);
    }
};
// nan_to_num: NaN, +inf and -inf become the three fixed numbers
// (Args::scalar[0..3], of the real part's type); integers and bool stay.
template <class T> __host__ __device__ inline T word_as(uint64_t word) {
    union { uint64_t word; T value; } u;
    u.word = word;
    return u.value;
}
template <class T> struct PartOf { typedef T type; };
template <class R> struct PartOf<complex<R> > { typedef R type; };
template <class R> struct NonFinite { R nan, posinf, neginf; };
template <class R, class V>
__host__ __device__ inline R replace_non_finite(R x, V v, const NonFinite<R>& w) {
    if (v != v) return w.nan;
    if (is_inf(v)) return v > V(0) ? w.posinf : w.neginf;
    return x;
}
template <class T> __host__ __device__ inline T f_nan_to_num(T x, const NonFinite<T>&) { return x; }
__host__ __device__ inline float f_nan_to_num(float x, const NonFinite<float>& w) {
    return replace_non_finite(x, x, w);
}
__host__ __device__ inline double f_nan_to_num(double x, const NonFinite<double>& w) {
    return replace_non_finite(x, x, w);
}
__host__ __device__ inline f16 f_nan_to_num(f16 x, const NonFinite<f16>& w) {
    return replace_non_finite(x, to_f32(x), w);
}
__host__ __device__ inline bf16 f_nan_to_num(bf16 x, const NonFinite<bf16>& w) {
    return replace_non_finite(x, to_f32(x), w);
}
template <class R> __host__ __device__ inline complex<R> f_nan_to_num(complex<R> z, const NonFinite<R>& w) {
    return complex<R>{f_nan_to_num(z.re, w), f_nan_to_num(z.im, w)};
}
template <class T> struct NanToNum {
    NonFinite<typename PartOf<T>::type> with;
    __host__ __device__ T operator()(T a, T) const { return f_nan_to_num(a, with); }
};
template <class T> __host__ __device__ inline NanToNum<T> nan_to_num_of(const Args& p) {
    typedef typename PartOf<T>::type R;
    NanToNum<T> f;
    f.with.nan = word_as<R>(p.scalar[0]);
    f.with.posinf = word_as<R>(p.scalar[1]);
    f.with.neginf = word_as<R>(p.scalar[2]);
    return f;
}
// The real floating types (those with frac).
template <class T> struct Floating { static const bool value = false; };
template <> struct Floating<float> { static const bool value = true; };
template <> struct Floating<double> { static const bool value = true; };
template <> struct Floating<f16> { static const bool value = true; };
template <> struct Floating<bf16> { static const bool value = true; };

// `scatter_reduce`'s `mean`, its last step: the sum `a` over the count `b`
// where anything was counted, else `a` itself. The host computes it in
// int64 for the integers (Euclid's division: toward -inf for the positive
// counts), float32 for the half types, and the value's own type otherwise;
// a complex sum divides part by part by the (real) count. Only those
// compute types compile it (`HasMeanOf`).
template <class T> __host__ __device__ inline bool count_is_zero(T b) { return b == T(0); }
template <class R> __host__ __device__ inline bool count_is_zero(complex<R> b) { return b.re == R(0); }
template <class T> __host__ __device__ inline T mean_quotient(T a, T b) { return a / b; }
__host__ __device__ inline int64_t mean_quotient(int64_t a, int64_t b) {
    int64_t q = a / b, r = a % b;
    return r < 0 ? (b > 0 ? q - 1 : q + 1) : q;
}
template <class R> __host__ __device__ inline complex<R> mean_quotient(complex<R> a, complex<R> b) {
    complex<R> q;
    q.re = a.re / b.re;
    q.im = a.im / b.re;
    return q;
}
struct MeanOf {
    template <class T> __host__ __device__ T operator()(T a, T b) const {
        return count_is_zero(b) ? a : mean_quotient(a, b);
    }
};
template <class T> struct HasMeanOf { static const bool value = false; };
template <> struct HasMeanOf<int64_t> { static const bool value = true; };
template <> struct HasMeanOf<float> { static const bool value = true; };
template <> struct HasMeanOf<double> { static const bool value = true; };
template <class R> struct HasMeanOf<complex<R> > { static const bool value = true; };

// ------------------------------------------------ functions of two numbers
// (src/dtype/pairs.rs): atan2, hypot and copysign the C library's;
// logaddexp, logaddexp2 and xlogy PyTorch's formulas; nextafter on the
// bits. float16 and bfloat16 compute in f32 and round once (nextafter and
// copysign on their own bits).

// One step of the bit pattern `a` toward `b` (neither NaN, not equal): the
// smallest subnormal of b's sign from a zero, else down when |a| > |b| or
// the signs differ, else up.
template <class B> __host__ __device__ inline B next_bits(B a, B b) {
    const B sign = B(B(1) << (sizeof(B) * 8 - 1));
    const B magnitude = B(~sign);
    if ((a & magnitude) == 0) return B((b & sign) | B(1));
    bool away = (a & magnitude) > (b & magnitude) || ((a ^ b) & sign) != 0;
    return away ? B(a - 1) : B(a + 1);
}
__host__ __device__ inline float f_nextafter(float x, float y) {
    if (is_nan(x) || is_nan(y)) return x + y;
    if (x == y) return y;
    return f32_of_bits(next_bits<uint32_t>(bits_of(x), bits_of(y)));
}
__host__ __device__ inline double f_nextafter(double x, double y) {
    if (is_nan(x) || is_nan(y)) return x + y;
    if (x == y) return y;
    return word_as<double>(next_bits<uint64_t>(raw_bits(x), raw_bits(y)));
}
template <class R> __host__ __device__ inline R f_atan2(R a, R b) { return m_atan2(a, b); }
template <class R> __host__ __device__ inline R f_hypot2(R a, R b) { return m_hypot(a, b); }
template <class R> __host__ __device__ inline R f_copysign(R a, R b) { return m_copysign(a, b); }
// max + log1p(exp(-|a - b|)) (`std::max`: a unless a < b); an infinity
// with itself gives itself.
template <class R> __host__ __device__ inline R f_logaddexp(R a, R b) {
    if (is_inf(a) && a == b) return a;
    R high = a < b ? b : a;
    return high + m_log1p(m_exp(-m_fabs(a - b)));
}
template <class R> __host__ __device__ inline R f_logaddexp2(R a, R b) {
    if (is_inf(a) && a == b) return a;
    R high = a < b ? b : a;
    // PyTorch's `m + log1p(..) * inv_log_2`, which its build fuses.
    return m_fma(m_log1p(m_exp2(-m_fabs(a - b))), R(1.0 / 0.693147180559945309417232121458176568), high);
}
// NaN where y is NaN, 0 where x is 0, else x ln(y).
template <class R> __host__ __device__ inline R f_xlogy(R x, R y) {
    if (is_nan(y)) return quiet_nan<R>();
    if (x == R(0)) return R(0);
    return x * m_log(y);
}
#define SHAPED_HALF_PAIRS(H, from)                                                              \
    __host__ __device__ inline H f_atan2(H a, H b) { return from(m_atan2(to_f32(a), to_f32(b))); } \
    __host__ __device__ inline H f_hypot2(H a, H b) { return from(m_hypot(to_f32(a), to_f32(b))); } \
    __host__ __device__ inline H f_copysign(H a, H b) {                                         \
        return H{uint16_t((a.bits & 0x7fffu) | (b.bits & 0x8000u))};                            \
    }                                                                                           \
    __host__ __device__ inline H f_nextafter(H x, H y) {                                        \
        float fx = to_f32(x), fy = to_f32(y);                                                   \
        if (is_nan(fx) || is_nan(fy)) return from(fx + fy);                                     \
        if (fx == fy) return y;                                                                 \
        return H{next_bits<uint16_t>(x.bits, y.bits)};                                          \
    }                                                                                           \
    __host__ __device__ inline H f_logaddexp(H a, H b) { return from(f_logaddexp(to_f32(a), to_f32(b))); } \
    __host__ __device__ inline H f_logaddexp2(H a, H b) { return from(f_logaddexp2(to_f32(a), to_f32(b))); } \
    __host__ __device__ inline H f_xlogy(H a, H b) {                                           \
        float x = to_f32(a), y = to_f32(b);                                                     \
        if (is_nan(y)) return from(quiet_nan<float>());                                         \
        if (x == 0.0f) return from(0.0f);                                                       \
        return from(x * to_f32(from(m_log(y))));                                                \
    }
SHAPED_HALF_PAIRS(f16, f16_from)
SHAPED_HALF_PAIRS(bf16, bf16_from)
#undef SHAPED_HALF_PAIRS

// PyTorch's `_log_add_exp_helper` of complex numbers (logaddexp, and
// logcumsumexp in scan.cuh): the smaller and the larger by their real
// parts, NaN (in either part) spreading as NaN.
template <class R> __host__ __device__ inline complex<R> log_add_exp(complex<R> x, complex<R> y) {
    bool x_nan = is_nan(x.re) || is_nan(x.im), y_nan = is_nan(y.re) || is_nan(y.im);
    complex<R> lo, hi;
    if (y_nan) {
        lo = y;
        hi = y;
    } else if (x_nan) {
        lo = x;
        hi = x;
    } else if (x.re < y.re) {
        lo = x;
        hi = y;
    } else {
        lo = y;
        hi = x;
    }
    if (is_nan(lo.re) || is_nan(lo.im)) return complex<R>{quiet_nan<R>(), quiet_nan<R>()};
    if (!is_finite(lo.re) && lo.re == hi.re) {
        if (lo.re < R(0)) return lo;
        return f_ln(add(f_exp(lo), f_exp(hi)));
    }
    complex<R> e = f_exp(complex<R>{lo.re - hi.re, lo.im - hi.im});
    return add(f_ln(add(complex<R>{R(1), R(0)}, e)), hi);
}

// Which types have them: the real floating types all, the complex types
// logaddexp (the Rust traits RealPair, FloatPair, LogAddExp; integers and
// bool compute in float32).
template <class T> struct PairTraits { static const bool real = false, complex = false; };
template <> struct PairTraits<float> { static const bool real = true, complex = false; };
template <> struct PairTraits<double> { static const bool real = true, complex = false; };
template <> struct PairTraits<f16> { static const bool real = true, complex = false; };
template <> struct PairTraits<bf16> { static const bool real = true, complex = false; };
template <class R> struct PairTraits<complex<R> > { static const bool real = false, complex = true; };

template <bool Real, bool Complex> struct PairFns {
    template <class T> __host__ __device__ static T call(int, T, T) { return T(); }
};
template <> struct PairFns<true, false> {
    template <class T> __host__ __device__ static T call(int op, T a, T b) {
        switch (op) {
            case OP_ATAN2: return f_atan2(a, b);
            case OP_HYPOT: return f_hypot2(a, b);
            case OP_COPYSIGN: return f_copysign(a, b);
            case OP_NEXTAFTER: return f_nextafter(a, b);
            case OP_LOGADDEXP: return f_logaddexp(a, b);
            case OP_LOGADDEXP2: return f_logaddexp2(a, b);
            default: return f_xlogy(a, b);
        }
    }
};
template <> struct PairFns<false, true> {
    template <class T> __host__ __device__ static T call(int, T a, T b) { return log_add_exp(a, b); }
};
// The functions of two operands of the special family, on Ts (operands of
// other types come converted, in the promoted kernels).
template <class T> struct SpecialPair {
    int op;
    __host__ __device__ T operator()(T a, T b) const {
        return PairFns<PairTraits<T>::real, PairTraits<T>::complex>::call(op, a, b);
    }
};
template <class T> struct HasPairs {
    static const bool value = PairTraits<T>::real || PairTraits<T>::complex;
};

// --------------------------------------------------------- activations

// The activations of torch.nn.functional, as src/dtype/math.rs computes
// them (`ActivationMath`) in float and double; float16 and bfloat16 come
// here computed in float (the promoted kernels). float's exp and tanh are
// the polynomials, the rest the C library's.
template <class R> __host__ __device__ inline R relu6_of(R y) {
    y = y < R(0) ? R(0) : y;
    return R(6) < y ? R(6) : y;
}
// float's gelu: the CPU's vectorized polynomial (vector_math.rs, `gelu`),
// operation for operation; double's: PyTorch's formula with the C
// library's erf.
__host__ __device__ inline float poly_gelu(float x) {
    float y = x * 0.707106781186547524400844362104849039f;
    float a = m_fabs(y);
    float z = y * y;
    float p = -9.635096e-6f;
    p = fmaf(p, z, 1.12546775e-4f);
    p = fmaf(p, z, -8.482513e-4f);
    p = fmaf(p, z, 5.2209236e-3f);
    p = fmaf(p, z, -2.6865393e-2f);
    p = fmaf(p, z, 1.1283782e-1f);
    p = fmaf(p, z, -3.7612638e-1f);
    p = fmaf(p, z, 1.1283792f);
    float small = fmaf(y, p, 1.0f);
    float t = 1.0f / a;
    float s = t - 0.55f;
    float far = 0.12540378f;
    far = fmaf(far, s, -0.050719786f);
    far = fmaf(far, s, -0.09901046f);
    far = fmaf(far, s, 0.10691014f);
    far = fmaf(far, s, -0.059883542f);
    far = fmaf(far, s, 0.009451484f);
    far = fmaf(far, s, 0.049809285f);
    far = fmaf(far, s, -0.09690143f);
    far = fmaf(far, s, 0.09835926f);
    far = fmaf(far, s, -0.020365912f);
    far = fmaf(far, s, -0.17003512f);
    far = fmaf(far, s, 0.5023534f);
    s = t - 1.5f;
    float near = -4.462091e-4f;
    near = fmaf(near, s, 9.492809e-4f);
    near = fmaf(near, s, -1.4880855e-3f);
    near = fmaf(near, s, 2.0443336e-3f);
    near = fmaf(near, s, -1.1648985e-3f);
    near = fmaf(near, s, -5.931855e-3f);
    near = fmaf(near, s, 3.3156946e-2f);
    near = fmaf(near, s, -1.1839805e-1f);
    near = fmaf(near, s, 3.5952294e-1f);
    float q = a < 1.0f ? near : far;
    float square = x * x;
    float hi = square * 0.5f, lo = fmaf(x, x, -square) * 0.5f;
    float e = poly_exp(-hi);
    e = fmaf(-e, lo, e);
    float erfc = a > 10.5f ? 0.0f : e * (q * t);
    float large = y > 0.0f ? 2.0f - erfc : erfc;
    float one_plus = (a < 1.0f && y > -0.5f) ? small : large;
    return x * 0.5f * one_plus;
}
// On a device (as f_exp above), CUDA's erfc: 1 + erf(y) as erfc(-y), which
// keeps the tiny values of large negative x (where 1 + erf(y) cancels to
// 0, as in PyTorch's CUDA kernel); infinities and NaN take the polynomial,
// whose values there are PyTorch's CPU kernel's.
#ifdef __CUDA_ARCH__
__device__ inline float f_gelu(float x) {
    if (!(x - x == 0.0f)) return poly_gelu(x);
    return x * 0.5f * erfcf(x * -0.707106781186547524400844362104849039f);
}
#else
inline float f_gelu(float x) { return poly_gelu(x); }
#endif
__host__ __device__ inline double f_gelu(double x) {
    return x * 0.5 * (1.0 + m_erf(x * 0.707106781186547524400844362104849039));
}
struct Gelu {
    template <class R> __host__ __device__ R operator()(R x, R) const { return f_gelu(x); }
};
struct GeluTanh {
    template <class R> __host__ __device__ R operator()(R x, R) const {
        R beta = R(1.41421356237309504880 * 1.12837916709551257390 * 0.5);
        R kappa = R(0.044715);
        R cube = x * x * x;
        R inner = beta * (x + kappa * cube);
        return R(0.5) * x * (R(1) + f_tanh(inner));
    }
};
template <class R> __host__ __device__ inline R f_silu(R x) { return x / (R(1) + f_exp(-x)); }
template <class R> __host__ __device__ inline complex<R> f_silu(complex<R> z) {
    return div(z, add(complex<R>{R(1), R(0)}, f_exp(neg(z))));
}
struct Silu { template <class T> __host__ __device__ T operator()(T x, T) const { return f_silu(x); } };
template <class T> struct Softplus {
    T threshold;
    template <class R> __host__ __device__ R operator()(R x, R beta) const {
        R scaled = x * beta;
        return scaled > R(threshold) ? x : m_log1p(f_exp(scaled)) / beta;
    }
};
struct Mish {
    template <class R> __host__ __device__ R operator()(R x, R) const {
        return x * f_tanh(m_log1p(f_exp(x)));
    }
};
struct Elu {
    template <class R> __host__ __device__ R operator()(R x, R alpha) const {
        return x <= R(0) ? m_expm1(x) * alpha : x;
    }
};
struct LeakyRelu {
    template <class R> __host__ __device__ R operator()(R x, R slope) const {
        return x > R(0) ? x : x * slope;
    }
};
struct Hardsigmoid {
    template <class R> __host__ __device__ R operator()(R x, R) const { return relu6_of(x + R(3)) / R(6); }
};
struct Hardswish {
    template <class R> __host__ __device__ R operator()(R x, R) const { return x * relu6_of(x + R(3)) / R(6); }
};
struct LogSigmoid {
    template <class R> __host__ __device__ R operator()(R x, R) const {
        R low = R(0) < x ? R(0) : x;
        return low - m_log1p(f_exp(-m_fabs(x)));
    }
};
// Which types run them directly: float and double (and the complex types
// for silu); the Rust side sends the half types through float.
template <class T> struct ActivationTraits { static const bool act = false, silu = false; };
template <> struct ActivationTraits<float> { static const bool act = true, silu = true; };
template <> struct ActivationTraits<double> { static const bool act = true, silu = true; };
template <class R> struct ActivationTraits<complex<R> > { static const bool act = false, silu = true; };

// The second fixed number (clamp's upper bound), in Args::scalar[1].
template <class T> __host__ __device__ inline T second_scalar_of(const Args& p) {
    return word_as<T>(p.scalar[1]);
}

// --------------------------------------------------------- the family

// Which functions a type has (the Rust traits: Abs, Rounding, Clampable,
// MaxMin, Power); the Rust types never ask a kernel for the others.
template <class T> struct MathTraits {
    static const bool abs = true, rounding = true, clamp = true, maxmin = true, power = true;
    static const bool modular = true, real = true;
};
template <class R> struct MathTraits<complex<R> > {
    static const bool abs = true, rounding = false, clamp = false, maxmin = false, power = true;
    static const bool modular = false, real = false;
};
template <> struct MathTraits<bool> {
    static const bool abs = false, rounding = false, clamp = false, maxmin = true, power = false;
    static const bool modular = false, real = true;
};

template <bool On> struct When {
    template <class T, class U, class Run, class F>
    __device__ static void go(const Args& p, Run& run, F f) {
        run.template go<T, U>(p, f);
    }
};
template <> struct When<false> {
    template <class T, class U, class Run, class F> __device__ static void go(const Args&, Run&, F) {}
};

// The functions with a second operand: clamp and pow with fixed numbers,
// maximum, minimum and pow of two operands (or one and a number), computed
// in T: `Computed` on Ts, `Lanes` in the promoted kernels (operands of any
// types).
template <class T, class Run> __device__ void math_binary(const Args& p, Run& run) {
    typedef MathTraits<T> M;
    typedef ActivationTraits<T> A;
    switch (p.op) {
        case OP_CLAMP: {
            Clamp<T> f = {second_scalar_of<T>(p)};
            When<M::clamp>::template go<T, T>(p, run, f);
            break;
        }
        case OP_POW_SCALAR: When<M::power>::template go<T, T>(p, run, PowScalar()); break;
        case OP_MAXIMUM: When<M::maxmin>::template go<T, T>(p, run, Maximum()); break;
        case OP_MINIMUM: When<M::maxmin>::template go<T, T>(p, run, Minimum()); break;
        case OP_POW: When<M::power>::template go<T, T>(p, run, Pow()); break;
        case OP_MEAN_OF: When<HasMeanOf<T>::value>::template go<T, T>(p, run, MeanOf()); break;
        case OP_REMAINDER: When<M::modular>::template go<T, T>(p, run, Remainder()); break;
        case OP_FMOD: When<M::modular>::template go<T, T>(p, run, Fmod()); break;
        case OP_FLOOR_DIVIDE: When<M::modular>::template go<T, T>(p, run, FloorDivide()); break;
        case OP_GELU: When<A::act>::template go<T, T>(p, run, Gelu()); break;
        case OP_GELU_TANH: When<A::act>::template go<T, T>(p, run, GeluTanh()); break;
        case OP_SILU: When<A::silu>::template go<T, T>(p, run, Silu()); break;
        case OP_SOFTPLUS: {
            Softplus<T> f = {second_scalar_of<T>(p)};
            When<A::act>::template go<T, T>(p, run, f);
            break;
        }
        case OP_MISH: When<A::act>::template go<T, T>(p, run, Mish()); break;
        case OP_ELU: When<A::act>::template go<T, T>(p, run, Elu()); break;
        case OP_LEAKY_RELU: When<A::act>::template go<T, T>(p, run, LeakyRelu()); break;
        case OP_HARDSIGMOID: When<A::act>::template go<T, T>(p, run, Hardsigmoid()); break;
        case OP_HARDSWISH: When<A::act>::template go<T, T>(p, run, Hardswish()); break;
        case OP_LOG_SIGMOID: When<A::act>::template go<T, T>(p, run, LogSigmoid()); break;
        default: break;
    }
}

// `IfHas` of a function of two operands.
template <bool On> struct IfHas2 {
    template <class U, class F, class T> __host__ __device__ static U call(F f, T a, T b) { return f(a, b); }
};
template <> struct IfHas2<false> {
    template <class U, class F, class T> __host__ __device__ static U call(F, T, T) { return U(); }
};

// The math family's functions, the operation chosen per element as the
// special family's (`SpecialToFloat`): those giving FloatOf<T>, ...
template <class T> struct MathToFloat {
    int op;
    __host__ __device__ typename FloatOf<T>::type operator()(T a, T) const {
        switch (op) {
            case OP_EXP: return Exp()(a, a);
            case OP_LN: return Ln()(a, a);
            case OP_LOG2: return Log2()(a, a);
            case OP_SQRT: return Sqrt()(a, a);
            case OP_SIN: return Sin()(a, a);
            case OP_COS: return Cos()(a, a);
            case OP_TANH: return Tanh()(a, a);
            case OP_SIGMOID: return Sigmoid()(a, a);
            default: return Recip()(a, a);
        }
    }
};
// ... and those giving T, of one operand or two (clamp's bound and
// softplus's threshold the second fixed number).
template <class T> struct MathToSame {
    int op;
    T second;
    __host__ __device__ T operator()(T a, T b) const {
        typedef MathTraits<T> M;
        typedef ActivationTraits<T> A;
        switch (op) {
            case OP_FLOOR: return IfHas2<M::rounding>::template call<T>(Floor(), a, b);
            case OP_CEIL: return IfHas2<M::rounding>::template call<T>(Ceil(), a, b);
            case OP_ROUND: return IfHas2<M::rounding>::template call<T>(Round(), a, b);
            case OP_RELU: return IfHas2<M::clamp>::template call<T>(Relu(), a, b);
            case OP_CLAMP: {
                Clamp<T> f = {second};
                return IfHas2<M::clamp>::template call<T>(f, a, b);
            }
            case OP_POW_SCALAR: return IfHas2<M::power>::template call<T>(PowScalar(), a, b);
            case OP_MAXIMUM: return IfHas2<M::maxmin>::template call<T>(Maximum(), a, b);
            case OP_MINIMUM: return IfHas2<M::maxmin>::template call<T>(Minimum(), a, b);
            case OP_POW: return IfHas2<M::power>::template call<T>(Pow(), a, b);
            case OP_MEAN_OF: return IfHas2<HasMeanOf<T>::value>::template call<T>(MeanOf(), a, b);
            case OP_REMAINDER: return IfHas2<M::modular>::template call<T>(Remainder(), a, b);
            case OP_FMOD: return IfHas2<M::modular>::template call<T>(Fmod(), a, b);
            case OP_FLOOR_DIVIDE: return IfHas2<M::modular>::template call<T>(FloorDivide(), a, b);
            case OP_GELU: return IfHas2<A::act>::template call<T>(Gelu(), a, b);
            case OP_GELU_TANH: return IfHas2<A::act>::template call<T>(GeluTanh(), a, b);
            case OP_SILU: return IfHas2<A::silu>::template call<T>(Silu(), a, b);
            case OP_SOFTPLUS: {
                Softplus<T> f = {second};
                return IfHas2<A::act>::template call<T>(f, a, b);
            }
            case OP_MISH: return IfHas2<A::act>::template call<T>(Mish(), a, b);
            case OP_ELU: return IfHas2<A::act>::template call<T>(Elu(), a, b);
            case OP_LEAKY_RELU: return IfHas2<A::act>::template call<T>(LeakyRelu(), a, b);
            case OP_HARDSIGMOID: return IfHas2<A::act>::template call<T>(Hardsigmoid(), a, b);
            case OP_HARDSWISH: return IfHas2<A::act>::template call<T>(Hardswish(), a, b);
            default: return IfHas2<A::act>::template call<T>(LogSigmoid(), a, b);
        }
    }
};

// The functions of one tensor of Ts, and the binary ones on Ts: one loop
// per result type.
template <class T> __device__ void math(const Args& p) {
    if (p.op >= OP_EXP && p.op <= OP_RECIP) {
        MathToFloat<T> f = {p.op};
        run_compute<T, T, typename FloatOf<T>::type>(p, f);
    } else if (p.op == OP_ABS) {
        Computed direct;
        When<MathTraits<T>::abs>::template go<T, typename AbsOf<T>::type>(p, direct, AbsFn());
    } else {
        MathToSame<T> f = {p.op, second_scalar_of<T>(p)};
        run_compute<T, T, T>(p, f);
    }
}

// `f(a, a)` where the type has the function (`On`), else a zero that no
// caller reads (the Rust types never ask a kernel for it).
template <bool On> struct IfHas {
    template <class U, class F, class T> __host__ __device__ static U call(F f, T a) { return f(a, a); }
};
template <> struct IfHas<false> {
    template <class U, class F, class T> __host__ __device__ static U call(F, T) { return U(); }
};

// The special family's functions giving FloatOf<T> (from `tan` to `rsqrt`,
// `sinc`, the special functions and the angle conversions), the operation
// chosen per element: one loop per type for all of them (a loop per
// operation made this family's PTX 3.6 times as large).
template <class T> struct SpecialToFloat {
    int op;
    typedef typename FloatOf<T>::type F;
    __host__ __device__ F operator()(T a, T) const {
        const bool real = MathTraits<T>::real;
        switch (op) {
            case OP_TAN: return Tan()(a, a);
            case OP_ASIN: return Asin()(a, a);
            case OP_ACOS: return Acos()(a, a);
            case OP_ATAN: return Atan()(a, a);
            case OP_SINH: return Sinh()(a, a);
            case OP_COSH: return Cosh()(a, a);
            case OP_ASINH: return Asinh()(a, a);
            case OP_ACOSH: return Acosh()(a, a);
            case OP_ATANH: return Atanh()(a, a);
            case OP_EXP2: return Exp2()(a, a);
            case OP_EXPM1: return Expm1()(a, a);
            case OP_LOG10: return Log10()(a, a);
            case OP_LOG1P: return Log1p()(a, a);
            case OP_RSQRT: return Rsqrt()(a, a);
            case OP_SINC: return Sinc()(a, a);
            case OP_ERF: return IfHas<real>::template call<F>(Erf(), a);
            case OP_ERFC: return IfHas<real>::template call<F>(Erfc(), a);
            case OP_ERFINV: return IfHas<real>::template call<F>(Erfinv(), a);
            case OP_LGAMMA: return IfHas<real>::template call<F>(Lgamma(), a);
            case OP_DIGAMMA: return IfHas<real>::template call<F>(Digamma(), a);
            case OP_DEG2RAD: return IfHas<real>::template call<F>(Deg2rad(), a);
            default: return IfHas<real>::template call<F>(Rad2deg(), a);
        }
    }
};
// The ones giving T: trunc, frac, sign, sgn, nan_to_num.
template <class T> struct SpecialToSame {
    int op;
    NanToNum<T> replace;
    __host__ __device__ T operator()(T a, T) const {
        switch (op) {
            case OP_TRUNC: return IfHas<MathTraits<T>::rounding>::template call<T>(Trunc(), a);
            case OP_FRAC: return IfHas<Floating<T>::value>::template call<T>(Frac(), a);
            case OP_SIGN: return IfHas<MathTraits<T>::real>::template call<T>(SignFn(), a);
            case OP_SGN: return Sgn()(a, a);
            default: return replace(a, a);
        }
    }
};
__host__ __device__ inline bool is_special_to_float(int op) {
    return (op >= OP_TAN && op <= OP_RSQRT) || (op >= OP_ERF && op <= OP_RAD2DEG);
}

// The special family: the catalogue's transcendental functions from `tan`
// to `rsqrt`, the special functions, sinc, the angle conversions, trunc,
// frac, the signs, square and nan_to_num (src/ops/math.rs and
// src/ops/pointwise.rs), one kernel per type of its own
// (kernels/special.cu): with them the math family's kernels took ptxas
// twice as long as both families' now.
template <class T> __device__ void special(const Args& p) {
    typedef MathTraits<T> M;
    typedef typename FloatOf<T>::type F;
    Computed direct;
    if (p.op >= OP_ATAN2) {
        SpecialPair<T> f = {p.op};
        When<HasPairs<T>::value>::template go<T, T>(p, direct, f);
        return;
    }
    if (is_special_to_float(p.op)) {
        SpecialToFloat<T> f = {p.op};
        run_compute<T, T, F>(p, f);
        return;
    }
    switch (p.op) {
        case OP_TRUNC:
        case OP_FRAC:
        case OP_SIGN:
        case OP_SGN:
        case OP_NAN_TO_NUM: {
            SpecialToSame<T> f = {p.op, nan_to_num_of<T>(p)};
            run_compute<T, T, T>(p, f);
            break;
        }
        case OP_SIGNBIT: When<M::real>::template go<T, bool>(p, direct, Signbit()); break;
        case OP_SQUARE: run_compute<T, T, typename SquareOf<T>::type>(p, Square()); break;
        default: break;
    }
}
