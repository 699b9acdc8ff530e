// Random fills on the device: one kernel per output element type
// (`shaped_random_<dtype>`; the floating ones fill, the others are never
// launched). Each thread computes Philox4x32-10 blocks of the stream
// (src/random/philox.rs) and turns each into that dtype's samples (four for
// float32, float16 and bfloat16, two for float64), written at the strided
// positions of their row-major indices. Every step is an IEEE operation
// written out as src/random/{distributions,math}.rs write it (fused
// multiply-adds explicit, -fmad=false for the rest), so the CPU and the
// device give the same bits.
#pragma once

#include "elementwise.cuh"

namespace shaped {

// Mirrors `RandomArgs` in src/backend/cuda/random.rs (repr(C)).
struct RandomArgs {
    uint64_t numel;
    uint64_t sizes[SHAPED_MAX_RANK];
    Operand out;
    Operand rates;     // Poisson: the rates, of the output's sizes
    uint64_t seed;
    uint64_t offset;   // the first block
    double a, b;       // uniform: lo, hi; normal: mean, std; see Sample
    int64_t low;       // draws: the smallest integer
    uint64_t range;    // draws: how many integers, or the Bernoulli threshold
    int32_t rank;
    int32_t dist;      // fills: 0 uniform, 1 normal, 2 exponential, 3 Cauchy,
                       // 4 geometric, 5 log-normal; draws: 0 integers, 1 Bernoulli,
                       // 2 all 64 bits, 3 geometric (a: ln(1 - p))
    int32_t narrow;    // 1: the walk fits 32 bits
    uint32_t magic[SHAPED_MAX_RANK];
    uint32_t shift[SHAPED_MAX_RANK];
};

__host__ __device__ inline void mul_hi_lo(uint32_t a, uint32_t b, uint32_t& hi, uint32_t& lo) {
    uint64_t p = uint64_t(a) * uint64_t(b);
    hi = uint32_t(p >> 32);
    lo = uint32_t(p);
}

// Philox4x32-10 of block `block` under `seed`, the counter's third word
// `draw` (src/random/philox.rs).
__host__ __device__ inline void philox_block3(uint64_t seed, uint64_t block, uint32_t draw,
                                              uint32_t (&w)[4]) {
    uint32_t c0 = uint32_t(block), c1 = uint32_t(block >> 32), c2 = draw, c3 = 0;
    uint32_t k0 = uint32_t(seed), k1 = uint32_t(seed >> 32);
    for (int r = 0; r < 10; ++r) {
        uint32_t hi0, lo0, hi1, lo1;
        mul_hi_lo(0xD2511F53u, c0, hi0, lo0);
        mul_hi_lo(0xCD9E8D57u, c2, hi1, lo1);
        uint32_t n0 = hi1 ^ c1 ^ k0, n2 = hi0 ^ c3 ^ k1;
        c0 = n0, c1 = lo1, c2 = n2, c3 = lo0;
        k0 += 0x9E3779B9u;
        k1 += 0xBB67AE85u;
    }
    w[0] = c0, w[1] = c1, w[2] = c2, w[3] = c3;
}
__host__ __device__ inline void philox_block(uint64_t seed, uint64_t block, uint32_t (&w)[4]) {
    philox_block3(seed, block, 0, w);
}

__host__ __device__ inline uint64_t bits_of_f64(double x) {
#ifdef SHAPED_HOST
    uint64_t b;
    memcpy(&b, &x, 8);
    return b;
#else
    return uint64_t(__double_as_longlong(x));
#endif
}
__host__ __device__ inline double f64_of_bits(uint64_t b) {
#ifdef SHAPED_HOST
    double x;
    memcpy(&x, &b, 8);
    return x;
#else
    return __longlong_as_double((long long)b);
#endif
}

// src/random/math.rs, step for step.
__host__ __device__ inline float r_ln(float u) {
    uint32_t bits = bits_of(u);
    int e = int(bits >> 23) - 127;
    float m = f32_of_bits((bits & 0x7fffffu) | 0x3f800000u);
    if (m > 1.41421354f) {
        m *= 0.5f;
        e += 1;
    }
    float s = (m - 1.0f) / (m + 1.0f);
    float s2 = s * s;
    const float c[6] = {1.0f / 11.0f, 1.0f / 9.0f, 1.0f / 7.0f, 1.0f / 5.0f, 1.0f / 3.0f, 1.0f};
    float p = 0.0f;
    for (int i = 0; i < 6; ++i) p = fmaf(p, s2, c[i]);
    float ln_m = 2.0f * s * p;
    float fe = float(e);
    return fmaf(fe, 0.693145751953125f, fmaf(fe, 1.428606765330187e-6f, ln_m));
}
__host__ __device__ inline double r_ln(double u) {
    uint64_t bits = bits_of_f64(u);
    int e = int(bits >> 52) - 1023;
    double m = f64_of_bits((bits & 0xfffffffffffffull) | 0x3ff0000000000000ull);
    if (m > 1.4142135623730951) {
        m *= 0.5;
        e += 1;
    }
    double s = (m - 1.0) / (m + 1.0);
    double s2 = s * s;
    const double c[12] = {1.0 / 23.0, 1.0 / 21.0, 1.0 / 19.0, 1.0 / 17.0, 1.0 / 15.0, 1.0 / 13.0,
                          1.0 / 11.0, 1.0 / 9.0,  1.0 / 7.0,  1.0 / 5.0,  1.0 / 3.0,  1.0};
    double p = 0.0;
    for (int i = 0; i < 12; ++i) p = fma(p, s2, c[i]);
    double ln_m = 2.0 * s * p;
    double fe = double(e);
    return fma(fe, 6.9314718036912381649e-1, fma(fe, 1.9082149292705877e-10, ln_m));
}
__host__ __device__ inline void r_sincos(float u, float& sn, float& cs) {
    float q = floorf(u * 4.0f + 0.5f);
    float x = (u - q * 0.25f) * 6.28318548202514648f;
    float x2 = x * x;
    const float sc[4] = {1.0f / 362880.0f, -1.0f / 5040.0f, 1.0f / 120.0f, -1.0f / 6.0f};
    const float cc[5] = {-1.0f / 3628800.0f, 1.0f / 40320.0f, -1.0f / 720.0f, 1.0f / 24.0f, -0.5f};
    float sp = 0.0f, cp = 0.0f;
    for (int i = 0; i < 4; ++i) sp = fmaf(sp, x2, sc[i]);
    for (int i = 0; i < 5; ++i) cp = fmaf(cp, x2, cc[i]);
    float s = fmaf(x * x2, sp, x), c = fmaf(x2, cp, 1.0f);
    switch (uint32_t(q) & 3u) {
        case 0: sn = s, cs = c; break;
        case 1: sn = c, cs = -s; break;
        case 2: sn = -s, cs = -c; break;
        default: sn = -c, cs = s;
    }
}
__host__ __device__ inline void r_sincos(double u, double& sn, double& cs) {
    double q = floor(u * 4.0 + 0.5);
    double x = (u - q * 0.25) * 6.283185307179586;
    double x2 = x * x;
    const double sc[8] = {1.0 / 355687428096000.0, -1.0 / 1307674368000.0, 1.0 / 6227020800.0,
                          -1.0 / 39916800.0,       1.0 / 362880.0,         -1.0 / 5040.0,
                          1.0 / 120.0,             -1.0 / 6.0};
    const double cc[9] = {-1.0 / 6402373705728000.0, 1.0 / 20922789888000.0, -1.0 / 87178291200.0,
                          1.0 / 479001600.0,         -1.0 / 3628800.0,       1.0 / 40320.0,
                          -1.0 / 720.0,              1.0 / 24.0,             -0.5};
    double sp = 0.0, cp = 0.0;
    for (int i = 0; i < 8; ++i) sp = fma(sp, x2, sc[i]);
    for (int i = 0; i < 9; ++i) cp = fma(cp, x2, cc[i]);
    double s = fma(x * x2, sp, x), c = fma(x2, cp, 1.0);
    switch (uint32_t(q) & 3u) {
        case 0: sn = s, cs = c; break;
        case 1: sn = c, cs = -s; break;
        case 2: sn = -s, cs = -c; break;
        default: sn = -c, cs = s;
    }
}

// exp (src/random/math.rs, `random_exp!`), step for step.
__host__ __device__ inline float r_exp(float x) {
    if (x != x) return x;  // (NaN: int(k) below would be undefined)
    if (x > 88.72284f) return f32_of_bits(0x7f800000u);
    if (x < -103.97208f) return 0.0f;
    float k = floorf(x * 1.44269502f + 0.5f);
    float r = fmaf(k, 2.12194442e-4f, fmaf(k, -0.693359375f, x));
    const float c[8] = {1.0f / 5040.0f, 1.0f / 720.0f, 1.0f / 120.0f, 1.0f / 24.0f,
                        1.0f / 6.0f,    0.5f,           1.0f,           1.0f};
    float p = 0.0f;
    for (int i = 0; i < 8; ++i) p = fmaf(p, r, c[i]);
    int ki = int(k), half = ki / 2;
    return p * f32_of_bits(uint32_t(half + 127) << 23) * f32_of_bits(uint32_t(ki - half + 127) << 23);
}
__host__ __device__ inline double r_exp(double x) {
    if (x != x) return x;
    if (x > 709.782712893384) return f64_of_bits(0x7ff0000000000000ull);
    if (x < -745.1332191019412) return 0.0;
    double k = floor(x * 1.4426950408889634 + 0.5);
    double r = fma(k, -1.9082149292705877e-10, fma(k, -6.9314718036912381649e-1, x));
    const double c[14] = {1.0 / 6227020800.0, 1.0 / 479001600.0, 1.0 / 39916800.0, 1.0 / 3628800.0,
                          1.0 / 362880.0,      1.0 / 40320.0,     1.0 / 5040.0,     1.0 / 720.0,
                          1.0 / 120.0,         1.0 / 24.0,        1.0 / 6.0,        0.5,
                          1.0,                 1.0};
    double p = 0.0;
    for (int i = 0; i < 14; ++i) p = fma(p, r, c[i]);
    int ki = int(k), half = ki / 2;
    return p * f64_of_bits(uint64_t(half + 1023) << 52) * f64_of_bits(uint64_t(ki - half + 1023) << 52);
}

// A uniform in [0, 1) from the top `bits` bits of a word.
__host__ __device__ inline float unit_f32(uint32_t w, uint32_t bits) {
    return float(w >> (32 - bits)) * f32_of_bits((127u - bits) << 23);
}
__host__ __device__ inline void normal_pair(uint32_t w0, uint32_t w1, float& z0, float& z1) {
    float u1 = float((w0 >> 8) + 1) * (1.0f / 16777216.0f);
    float u2 = unit_f32(w1, 24);
    float r = sqrtf(-2.0f * r_ln(u1));
    float s, c;
    r_sincos(u2, s, c);
    z0 = r * c, z1 = r * s;
}

// The samples of one block in T: float32-computed types, float64, and the
// rest (never launched).
// The samplers of the floating types (the only ones random fills make).
template <class T> struct Sample;
template <class T, int Bits> struct SampleF32 {
    static const int per_block = 4;
    __host__ __device__ static bool same(T x, T y) { return real_f32(x) == real_f32(y); }
    __host__ __device__ static void block(const uint32_t (&w)[4], const RandomArgs& p, T (&v)[4]) {
        if (p.dist == 0) {
            float lo = float(p.a), hi = float(p.b), range = float(p.b - p.a);
            T nlo = Make<T>::from(lo), nhi = Make<T>::from(hi);
            for (int j = 0; j < 4; ++j) {
                T x = Make<T>::from(fmaf(unit_f32(w[j], Bits), range, lo));
                v[j] = same(x, nhi) ? nlo : x;
            }
        } else if (p.dist == 1 || p.dist == 5) {
            // Normal, or log-normal: its exponential.
            float mean = float(p.a), std = float(p.b);
            float z[4];
            normal_pair(w[0], w[1], z[0], z[1]);
            normal_pair(w[2], w[3], z[2], z[3]);
            for (int j = 0; j < 4; ++j) {
                float x = fmaf(z[j], std, mean);
                v[j] = Make<T>::from(p.dist == 5 ? r_exp(x) : x);
            }
        } else if (p.dist == 2) {
            // Exponential: (0 - ln u) * scale, u in (0, 1].
            float scale = float(p.a);
            for (int j = 0; j < 4; ++j) {
                float u = float((w[j] >> 8) + 1) * (1.0f / 16777216.0f);
                v[j] = Make<T>::from((0.0f - r_ln(u)) * scale);
            }
        } else if (p.dist == 4) {
            // Geometric: max(1, ceil(ln u / ln(1 - p))), u in (0, 1].
            float ln_q = float(p.a);
            for (int j = 0; j < 4; ++j) {
                float u = float((w[j] >> 8) + 1) * (1.0f / 16777216.0f);
                v[j] = Make<T>::from(fmaxf(ceilf(r_ln(u) / ln_q), 1.0f));
            }
        } else {
            // Cauchy: median + sigma * tan(pi (u - 1/2)) = -cos(pi u) / sin(pi u).
            float median = float(p.a), sigma = float(p.b);
            for (int j = 0; j < 4; ++j) {
                float s, c;
                r_sincos(unit_f32(w[j], 24) * 0.5f, s, c);
                v[j] = Make<T>::from(fmaf(-c / s, sigma, median));
            }
        }
    }
};
template <> struct Sample<float> : SampleF32<float, 24> {};
template <> struct Sample<f16> : SampleF32<f16, 11> {};
template <> struct Sample<bf16> : SampleF32<bf16, 8> {};
__host__ __device__ inline double unit_f64(uint32_t hi, uint32_t lo) {
    return double(((uint64_t(hi) << 32) | lo) >> 11) * (1.0 / 9007199254740992.0);
}
template <> struct Sample<double> {
    static const int per_block = 2;
    __host__ __device__ static void block(const uint32_t (&w)[4], const RandomArgs& p, double (&v)[4]) {
        if (p.dist == 0) {
            double lo = p.a, hi = p.b, range = p.b - p.a;
            double x0 = fma(unit_f64(w[0], w[1]), range, lo);
            double x1 = fma(unit_f64(w[2], w[3]), range, lo);
            v[0] = x0 == hi ? lo : x0;
            v[1] = x1 == hi ? lo : x1;
        } else if (p.dist == 1 || p.dist == 5) {
            double u1 = unit_f64(w[0], w[1]) + 1.0 / 9007199254740992.0;
            double u2 = unit_f64(w[2], w[3]);
            double r = sqrt(-2.0 * r_ln(u1));
            double s, c;
            r_sincos(u2, s, c);
            v[0] = fma(r * c, p.b, p.a);
            v[1] = fma(r * s, p.b, p.a);
            if (p.dist == 5) v[0] = r_exp(v[0]), v[1] = r_exp(v[1]);
        } else if (p.dist == 2) {
            for (int j = 0; j < 2; ++j) {
                double u = unit_f64(w[2 * j], w[2 * j + 1]) + 1.0 / 9007199254740992.0;
                v[j] = (0.0 - r_ln(u)) * p.a;
            }
        } else if (p.dist == 4) {
            for (int j = 0; j < 2; ++j) {
                double u = unit_f64(w[2 * j], w[2 * j + 1]) + 1.0 / 9007199254740992.0;
                v[j] = fmax(ceil(r_ln(u) / p.a), 1.0);
            }
        } else {
            for (int j = 0; j < 2; ++j) {
                double s, c;
                r_sincos(unit_f64(w[2 * j], w[2 * j + 1]) * 0.5, s, c);
                v[j] = fma(-c / s, p.b, p.a);
            }
        }
        v[2] = v[3] = 0.0;
    }
};

// The storage index in `at` of row-major element `i`.
template <class Index>
__host__ __device__ inline Index index_in(const RandomArgs& p, const Operand& at, uint64_t i) {
    Index rest = Index(i), o = Index(at.offset);
    for (int d = p.rank - 1; d > 0; --d) {
        Index q = quotient(p, rest, d);
        o += (rest - q * Index(p.sizes[d])) * Index(at.strides[d]);
        rest = q;
    }
    return o + rest * Index(at.strides[0]);
}
template <class Index> __host__ __device__ inline Index out_index(const RandomArgs& p, uint64_t i) {
    return index_in<Index>(p, p.out, i);
}

template <class T, class Index> __device__ void random_in(const RandomArgs& p) {
    T* out = reinterpret_cast<T*>(p.out.ptr);
    const int per = Sample<T>::per_block;
    uint64_t blocks = (p.numel + per - 1) / per;
    uint64_t step = uint64_t(blockDim.x) * gridDim.x;
    for (uint64_t b = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; b < blocks; b += step) {
        uint32_t w[4];
        philox_block(p.seed, p.offset + b, w);
        T v[4];
        Sample<T>::block(w, p, v);
        for (int j = 0; j < per; ++j) {
            uint64_t i = b * per + j;
            if (i >= p.numel) break;
            out[out_index<Index>(p, i)] = v[j];
        }
    }
}

template <class T> __device__ void random_fill(const RandomArgs& p) {
    if (p.narrow) random_in<T, uint32_t>(p);
    else random_in<T, uint64_t>(p);
}

// The high 64 bits of a 64 x 64-bit product.
__host__ __device__ inline uint64_t mul_hi64(uint64_t a, uint64_t b) {
#ifdef SHAPED_HOST
    return uint64_t((unsigned __int128)a * b >> 64);
#else
    return __umul64hi(a, b);
#endif
}

// Whole-number draws (src/random/distributions.rs, `Draw`): element i from
// the 64 bits of half of block offset + i / 2, as an integer converted to T.
template <class T, class Index> __device__ void draw_in(const RandomArgs& p) {
    T* out = reinterpret_cast<T*>(p.out.ptr);
    uint64_t blocks = (p.numel + 1) / 2;
    uint64_t step = uint64_t(blockDim.x) * gridDim.x;
    for (uint64_t b = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; b < blocks; b += step) {
        uint32_t w[4];
        philox_block(p.seed, p.offset + b, w);
        for (int j = 0; j < 2; ++j) {
            uint64_t i = b * 2 + j;
            if (i >= p.numel) break;
            uint64_t bits = (uint64_t(w[2 * j]) << 32) | w[2 * j + 1];
            int64_t v;
            if (p.dist == 0) {
                v = int64_t(uint64_t(p.low) + mul_hi64(bits, p.range));
            } else if (p.dist == 1) {
                v = int64_t((bits >> 11) < p.range);
            } else if (p.dist == 2) {
                v = int64_t(bits);
            } else {
                // Geometric: max(1, ceil(ln u / ln(1 - p))), saturated.
                double u = double((bits >> 11) + 1) * (1.0 / 9007199254740992.0);
                double k = fmax(ceil(r_ln(u) / p.a), 1.0);
                v = k >= 9223372036854775807.0 ? int64_t(0x7fffffffffffffffLL) : int64_t(k);
            }
            out[out_index<Index>(p, i)] = Make<T>::from(v);
        }
    }
}

template <class T> __device__ void draw_fill(const RandomArgs& p) {
    if (p.narrow) draw_in<T, uint32_t>(p);
    else draw_in<T, uint64_t>(p);
}

// Poisson samples (src/random/poisson.rs), step for step: element i from
// its own stream (counter offset + i, the third word counting its blocks).
struct PoissonDraws {
    uint64_t seed, counter;
    uint32_t block;
    uint32_t w[4];
    int next;
    __host__ __device__ double uniform() {
        if (next == 2) {
            philox_block3(seed, counter, block, w);
            block += 1;
            next = 0;
        }
        uint64_t bits = ((uint64_t(w[2 * next]) << 32) | w[2 * next + 1]) >> 11;
        next += 1;
        return double(bits + 1) * (1.0 / 9007199254740992.0);
    }
};

__host__ __device__ inline double ln_factorial(double k) {
    const double table[10] = {0.0,
                              0.0,
                              0.6931471805599453,
                              1.791759469228055,
                              3.1780538303479458,
                              4.787491742782046,
                              6.579251212010101,
                              8.525161361065415,
                              10.60460290274525,
                              12.801827480081469};
    if (k < 10.0) return table[int(k)];
    double x = k + 1.0, r = 1.0 / x, r2 = r * r;
    double series =
        r * (1.0 / 12.0 - r2 * (1.0 / 360.0 - r2 * (1.0 / 1260.0 - r2 * (1.0 / 1680.0))));
    return (x - 0.5) * r_ln(x) - x + 0.9189385332046728 + series;
}

__host__ __device__ inline double poisson_sample(double rate, uint64_t seed, uint64_t counter) {
    if (!(rate > 0.0) || rate == f64_of_bits(0x7ff0000000000000ull)) return rate > 0.0 ? rate : 0.0;
    PoissonDraws d{seed, counter, 0, {0, 0, 0, 0}, 2};
    if (rate >= 10.0) {
        double slam = sqrt(rate), loglam = r_ln(rate);
        double b = fma(2.53, slam, 0.931);
        double a = fma(0.02483, b, -0.059);
        double invalpha = 1.1239 + 1.1328 / (b - 3.4);
        double vr = 0.9277 - 3.6224 / (b - 2.0);
        while (true) {
            double u = d.uniform() - 0.5;
            double v = d.uniform();
            double us = 0.5 - fabs(u);
            double k = floor((2.0 * a / us + b) * u + rate + 0.43);
            if (us >= 0.07 && v <= vr) return k;
            if (k < 0.0 || (us < 0.013 && v > us)) continue;
            double lhs = r_ln(v) + r_ln(invalpha) - r_ln(a / (us * us) + b);
            if (lhs <= fma(k, loglam, -rate) - ln_factorial(k)) return k;
        }
    }
    double enlam = r_exp(-rate);
    double k = 0.0, product = 1.0;
    while (true) {
        product *= d.uniform();
        if (product > enlam) k += 1.0;
        else return k;
    }
}

template <class T, class Index> __device__ void poisson_in(const RandomArgs& p) {
    T* out = reinterpret_cast<T*>(p.out.ptr);
    const T* rates = reinterpret_cast<const T*>(p.rates.ptr);
    uint64_t step = uint64_t(blockDim.x) * gridDim.x;
    for (uint64_t i = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < p.numel; i += step) {
        double rate = real_f64(rates[index_in<Index>(p, p.rates, i)]);
        out[out_index<Index>(p, i)] = Make<T>::from(poisson_sample(rate, p.seed, p.offset + i));
    }
}

template <class T> __device__ void poisson_fill(const RandomArgs& p) {
    if (p.narrow) poisson_in<T, uint32_t>(p);
    else poisson_in<T, uint64_t>(p);
}

}  // namespace shaped

// The element types random fills make: the floating ones.
#define SHAPED_FOR_EACH_FLOATING(X) \
    X(f16, shaped::f16, true)       \
    X(bf16, shaped::bf16, true)     \
    X(f32, float, true)             \
    X(f64, double, true)

#define SHAPED_DRAW_KERNELS(name, T)                                                      \
    extern "C" __global__ void SHAPED_BOUNDS shaped_draw_##name(shaped::RandomArgs p) { \
        shaped::draw_fill<T>(p);                                                         \
    }

#define SHAPED_RANDOM_KERNELS(name, T, numeric)                                             \
    extern "C" __global__ void SHAPED_BOUNDS shaped_random_##name(shaped::RandomArgs p) { \
        shaped::random_fill<T>(p);                                                         \
    }

#define SHAPED_POISSON_KERNELS(name, T, numeric)                                             \
    extern "C" __global__ void SHAPED_BOUNDS shaped_poisson_##name(shaped::RandomArgs p) { \
        shaped::poisson_fill<T>(p);                                                         \
    }
