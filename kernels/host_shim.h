// Runs the CUDA kernels' source as plain C++ on the host, for tests: the
// CUDA keywords become nothing, the thread and block indices are
// thread-locals that `shaped_host_launch` steps through every block and
// thread of a launch in turn, and float16 conversions are done in software
// (round to nearest even). The elementwise kernels never synchronize, and
// their threads run one after the other; the threads of a reduction kernel's
// block run as fibers that switch at every __syncthreads, and its
// __shared__ arrays are one per host thread (host_launch.cpp).
#pragma once
#include <stdint.h>
#include <stddef.h>
#include <string.h>
#include <math.h>

#define __global__
#define __device__
#define __host__
#define __shared__ static thread_local

// Suspends the calling fiber until every thread of its block gets here.
extern "C" void shaped_host_syncthreads(void);
#define __syncthreads() shaped_host_syncthreads()

// The threads of a launch run one after the other: an atomic is a plain
// read-modify-write.
inline unsigned long long atomicMin(unsigned long long* at, unsigned long long v) {
    unsigned long long old = *at;
    if (v < old) *at = v;
    return old;
}

inline float atomicAdd(float* at, float v) { float old = *at; *at = old + v; return old; }
inline double atomicAdd(double* at, double v) { double old = *at; *at = old + v; return old; }
inline int atomicAdd(int* at, int v) {
    int old = *at;
    *at = int(unsigned(old) + unsigned(v));  // (wraps, as on a GPU)
    return old;
}
inline unsigned atomicAdd(unsigned* at, unsigned v) {
    unsigned old = *at;
    *at = old + v;
    return old;
}
inline unsigned long long atomicAdd(unsigned long long* at, unsigned long long v) {
    unsigned long long old = *at;
    *at = old + v;
    return old;
}
inline int atomicMax(int* at, int v) { int old = *at; if (v > old) *at = v; return old; }
inline int atomicMin(int* at, int v) { int old = *at; if (v < old) *at = v; return old; }
inline long long atomicMax(long long* at, long long v) {
    long long old = *at;
    if (v > old) *at = v;
    return old;
}
inline long long atomicMin(long long* at, long long v) {
    long long old = *at;
    if (v < old) *at = v;
    return old;
}

inline unsigned int atomicCAS(unsigned int* at, unsigned int expected, unsigned int desired) {
    unsigned int old = *at;
    if (old == expected) *at = desired;
    return old;
}
inline unsigned long long atomicCAS(unsigned long long* at, unsigned long long expected,
                                    unsigned long long desired) {
    unsigned long long old = *at;
    if (old == expected) *at = desired;
    return old;
}

struct shaped_dim3 { unsigned x, y, z; };
extern thread_local shaped_dim3 threadIdx, blockIdx, blockDim, gridDim;

inline uint32_t host_f32_bits(float x) { uint32_t b; memcpy(&b, &x, 4); return b; }
inline float host_f32_from_bits(uint32_t b) { float x; memcpy(&x, &b, 4); return x; }
inline uint64_t host_f64_bits(double x) { uint64_t b; memcpy(&b, &x, 8); return b; }

inline float host_f16_to_f32(uint16_t h) {
    uint32_t sign = uint32_t(h & 0x8000u) << 16;
    uint32_t exp = (h >> 10) & 0x1fu;
    uint32_t man = h & 0x3ffu;
    if (exp == 0x1f) return host_f32_from_bits(sign | 0x7f800000u | (man << 13));
    if (exp == 0) {
        if (man == 0) return host_f32_from_bits(sign);
        // Subnormal: normalize.
        int e = -1;
        do { man <<= 1; ++e; } while ((man & 0x400u) == 0);
        man &= 0x3ffu;
        return host_f32_from_bits(sign | uint32_t(127 - 15 - e) << 23 | (man << 13));
    }
    return host_f32_from_bits(sign | (exp + 127 - 15) << 23 | (man << 13));
}

// f32 -> f16, round to nearest even; NaN stays a quiet NaN with its sign.
inline uint16_t host_f32_to_f16(float f) {
    uint32_t x = host_f32_bits(f);
    uint32_t sign = (x >> 16) & 0x8000u;
    uint32_t exp = (x >> 23) & 0xffu;
    uint32_t man = x & 0x7fffffu;
    if (exp == 0xff) {
        if (man == 0) return uint16_t(sign | 0x7c00u);
        return uint16_t(sign | 0x7e00u | (man >> 13));
    }
    int e = int(exp) - 127 + 15;
    if (e >= 0x1f) return uint16_t(sign | 0x7c00u);
    if (e <= 0) {
        if (e < -10) return uint16_t(sign);
        man |= 0x800000u;
        uint32_t shift = uint32_t(14 - e);
        uint32_t half_man = man >> shift;
        uint32_t round_bit = 1u << (shift - 1);
        uint32_t rest = man & ((round_bit << 1) - 1);
        if ((man & round_bit) != 0 && (rest != round_bit || (half_man & 1u) != 0)) ++half_man;
        return uint16_t(sign | half_man);
    }
    uint32_t h = sign | (uint32_t(e) << 10) | (man >> 13);
    uint32_t round_bit = 0x1000u;
    if ((man & round_bit) != 0 && ((man & (3 * round_bit - 1)) != 0)) ++h;
    return uint16_t(h);
}
