// The scans on the device (src/ops/scans/): `cumsum`, `cumprod`,
// `logcumsumexp`, `cummax` and `cummin`, one kernel per input type
// (`shaped_scan_<dtype>`), the scan and the phase chosen by the arguments.
//
// The input is contiguous (the host copies a strided view first), and so is
// the output: a scan along a dim of size n splits the elements into `outer`
// blocks of n rows of `inner`; line (o, i) is the elements o*n*inner +
// k*inner + i, k = 0..n. Each line is cut into `chunks` chunks of `chunk`
// elements, and each (line, chunk) is one work item:
//
// - rows (inner == 1): a block per item, which walks its chunk in tiles of
//   blockDim.x * SHAPED_SCAN_ITEMS elements: each thread scans its
//   SHAPED_SCAN_ITEMS consecutive elements, the threads' totals are scanned
//   across the block in shared memory (Kogge-Stone, double-buffered), and
//   the tile's total carries into the next tile;
// - columns (inner > 1): a thread per item, neighbouring threads on
//   neighbouring columns (coalesced), stepping down its chunk.
//
// With one chunk per line (enough lines to fill the device) one launch
// (SCAN_WRITE) does everything. Otherwise three: SCAN_TOTALS folds each
// item into `totals[line * chunks + chunk]`, SCAN_CARRIES (a block per line)
// turns each line's totals into exclusive carries in place, and SCAN_WRITE
// scans each item from its carry. The states (Acc) are at most 16 bytes.
//
// Accumulators as PyTorch's CPU kernels and this library's CPU backend:
// float16/bfloat16 in float32, float32 in float64, complex64 in complex128,
// integers and bool in int64 (wrapping; the result int64).
#pragma once

#include "elementwise.cuh"
#include "reduce.cuh"

#define SHAPED_SCAN_BLOCK 256
#define SHAPED_SCAN_ITEMS 4

namespace shaped {

// The Rust `ScanOp` codes (src/ops/op_codes.rs).
enum { SCAN_SUM = 80, SCAN_PROD = 81, SCAN_LOGSUMEXP = 82, SCAN_MAX = 83, SCAN_MIN = 84 };
enum { SCAN_TOTALS = 0, SCAN_CARRIES = 1, SCAN_WRITE = 2 };

// Mirrors `ScanArgs` in src/backend/cuda/scan.rs (repr(C)).
struct ScanArgs {
    uint64_t x;        // the input's first element (T, contiguous)
    uint64_t out;      // the values (the scan's output type)
    uint64_t indices;  // cummax/cummin: the int64 indices
    uint64_t totals;   // 16 bytes per (line, chunk), or 0 with one chunk
    uint64_t outer, n, inner;
    uint64_t chunk;    // elements of a line per item (rows: a multiple of a tile)
    uint64_t chunks;   // items per line
    int32_t op;        // SCAN_*
    int32_t phase;     // SCAN_TOTALS, SCAN_CARRIES or SCAN_WRITE
};

// What `cumsum`, `cumprod` and `logcumsumexp` accumulate in, and give (the
// Rust `CumElement`).
template <class T> struct CumOf {
    typedef int64_t Acc;
    typedef int64_t Out;
    __host__ __device__ static Acc to(T x) { return int64_t(x); }
    __host__ __device__ static Out out(Acc a) { return a; }
};
#define SHAPED_CUM_OF(T, A, to_, out_)                                \
    template <> struct CumOf<T> {                                     \
        typedef A Acc;                                                \
        typedef T Out;                                                \
        __host__ __device__ static Acc to(T x) { return to_; }        \
        __host__ __device__ static Out out(Acc a) { return out_; }    \
    };
SHAPED_CUM_OF(f16, float, to_f32(x), f16_from(a))
SHAPED_CUM_OF(bf16, float, to_f32(x), bf16_from(a))
SHAPED_CUM_OF(float, double, double(x), float(a))
SHAPED_CUM_OF(double, double, x, a)
SHAPED_CUM_OF(complex<float>, complex<double>, (complex<double>{double(x.re), double(x.im)}),
              (complex<float>{float(a.re), float(a.im)}))
SHAPED_CUM_OF(complex<double>, complex<double>, x, a)
#undef SHAPED_CUM_OF

// `cumsum` (Product = false) and `cumprod`.
template <class T, bool Product> struct CumFoldS {
    typedef typename CumOf<T>::Acc Acc;
    __host__ __device__ static Acc init() { return convert<Acc>(int64_t(Product ? 1 : 0)); }
    __host__ __device__ static Acc combine(Acc carry, Acc local) {
        return Product ? mul(carry, local) : add(carry, local);
    }
    __host__ __device__ static Acc step(Acc a, T x, uint64_t) { return combine(a, CumOf<T>::to(x)); }
    __host__ __device__ static void write(const ScanArgs& p, uint64_t at, Acc a) {
        output<typename CumOf<T>::Out>(p.out)[at] = CumOf<T>::out(a);
    }
};

__host__ __device__ inline float m_log1p_of(float x) { return log1pf(x); }
__host__ __device__ inline double m_log1p_of(double x) { return log1p(x); }

// PyTorch's `_log_add_exp_helper` of reals: NaN spreads, two equal
// infinities give themselves.
template <class R> __host__ __device__ inline R log_add_exp(R x, R y) {
    R lo = y, hi = y;
    if (!is_nan(y)) {
        lo = y < x ? y : x;
        hi = x < y ? y : x;
    }
    if (lo != hi || is_finite(lo)) return m_log1p_of(m_exp(lo - hi)) + hi;
    return x;
}


template <class A> __host__ __device__ inline A negative_infinity();
template <> __host__ __device__ inline float negative_infinity<float>() {
    return -f32_of_bits(0x7f800000u);
}
template <> __host__ __device__ inline double negative_infinity<double>() {
    return -double(f32_of_bits(0x7f800000u));
}
template <> __host__ __device__ inline complex<double> negative_infinity<complex<double> >() {
    return complex<double>{negative_infinity<double>(), 0.0};
}

// `logcumsumexp` (floating and complex types).
template <class T> struct LogCumS {
    typedef typename CumOf<T>::Acc Acc;
    __host__ __device__ static Acc init() { return negative_infinity<Acc>(); }
    __host__ __device__ static Acc step(Acc a, T x, uint64_t) { return log_add_exp(CumOf<T>::to(x), a); }
    __host__ __device__ static Acc combine(Acc carry, Acc local) { return log_add_exp(local, carry); }
    __host__ __device__ static void write(const ScanArgs& p, uint64_t at, Acc a) {
        output<T>(p.out)[at] = CumOf<T>::out(a);
    }
};

// `cummax`/`cummin`: the running extreme and its index (-1: none yet). An
// equal value takes over, and every NaN does, then stays.
template <class T, bool Largest> struct CumExtremeS {
    typedef Indexed<T> Acc;
    __host__ __device__ static Acc init() {
        Acc a = {Largest ? Limits<T>::lowest() : Limits<T>::highest(), -1};
        return a;
    }
    __host__ __device__ static Acc step(Acc a, T x, uint64_t k) {
        bool over = nan_value(x) || (!nan_value(a.value) && !beats<Largest>(a.value, x));
        if (a.index < 0 || over) {
            Acc c = {x, int64_t(k)};
            return c;
        }
        return a;
    }
    __host__ __device__ static Acc combine(Acc carry, Acc local) {
        return local.index < 0 ? carry : step(carry, local.value, uint64_t(local.index));
    }
    __host__ __device__ static void write(const ScanArgs& p, uint64_t at, Acc a) {
        output<T>(p.out)[at] = a.value;
        output<int64_t>(p.indices)[at] = a.index;
    }
};

// The exclusive scan of the threads' `v` across the block (thread 0 gets
// init), and the block's total; `buf` holds 2 * blockDim.x states.
template <class S>
__device__ typename S::Acc block_exclusive(typename S::Acc v, typename S::Acc* buf,
                                           typename S::Acc& total) {
    typedef typename S::Acc Acc;
    unsigned t = threadIdx.x, width = blockDim.x;
    Acc* from = buf;
    Acc* to = buf + width;
    from[t] = v;
    __syncthreads();
    for (unsigned s = 1; s < width; s *= 2) {
        Acc x = from[t];
        if (t >= s) x = S::combine(from[t - s], x);
        to[t] = x;
        __syncthreads();
        Acc* swap = from;
        from = to;
        to = swap;
    }
    Acc before = t == 0 ? S::init() : from[t - 1];
    total = from[width - 1];
    // (The next call writes `buf` again.)
    __syncthreads();
    return before;
}

// The rows: a block per (line, chunk) item.
template <class T, class S> __device__ void scan_rows(const ScanArgs& p, typename S::Acc* buf) {
    typedef typename S::Acc Acc;
    const T* x = reinterpret_cast<const T*>(p.x);
    Acc* totals = reinterpret_cast<Acc*>(p.totals);
    uint64_t items = p.outer * p.chunks;
    uint64_t tile = uint64_t(blockDim.x) * SHAPED_SCAN_ITEMS;
    for (uint64_t item = blockIdx.x; item < items; item += gridDim.x) {
        uint64_t line = item / p.chunks, c = item - line * p.chunks;
        uint64_t begin = c * p.chunk, end = begin + p.chunk < p.n ? begin + p.chunk : p.n;
        uint64_t base = line * p.n;
        Acc carry = p.phase == SCAN_WRITE && p.totals != 0 ? totals[item] : S::init();
        for (uint64_t at = begin; at < end; at += tile) {
            uint64_t first = at + uint64_t(threadIdx.x) * SHAPED_SCAN_ITEMS;
            Acc states[SHAPED_SCAN_ITEMS];
            Acc local = S::init();
            for (int j = 0; j < SHAPED_SCAN_ITEMS; ++j) {
                uint64_t k = first + j;
                if (k < end) local = S::step(local, x[base + k], k);
                states[j] = local;
            }
            Acc total;
            Acc before = block_exclusive<S>(local, buf, total);
            if (p.phase == SCAN_WRITE) {
                Acc prefix = S::combine(carry, before);
                for (int j = 0; j < SHAPED_SCAN_ITEMS; ++j) {
                    uint64_t k = first + j;
                    if (k < end) S::write(p, base + k, S::combine(prefix, states[j]));
                }
            }
            carry = S::combine(carry, total);
        }
        if (p.phase == SCAN_TOTALS && threadIdx.x == 0) totals[item] = carry;
    }
}

// The columns: a thread per (line, chunk) item, neighbouring threads on
// neighbouring columns.
template <class T, class S> __device__ void scan_columns(const ScanArgs& p) {
    typedef typename S::Acc Acc;
    const T* x = reinterpret_cast<const T*>(p.x);
    Acc* totals = reinterpret_cast<Acc*>(p.totals);
    uint64_t items = p.outer * p.chunks * p.inner;
    uint64_t step = uint64_t(blockDim.x) * gridDim.x;
    for (uint64_t id = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; id < items; id += step) {
        uint64_t rest = id / p.inner, i = id - rest * p.inner;
        uint64_t o = rest / p.chunks, c = rest - o * p.chunks;
        uint64_t item = (o * p.inner + i) * p.chunks + c;
        uint64_t begin = c * p.chunk, end = begin + p.chunk < p.n ? begin + p.chunk : p.n;
        uint64_t base = o * p.n * p.inner + i;
        Acc acc = p.phase == SCAN_WRITE && p.totals != 0 ? totals[item] : S::init();
        for (uint64_t k = begin; k < end; ++k) {
            acc = S::step(acc, x[base + k * p.inner], k);
            if (p.phase == SCAN_WRITE) S::write(p, base + k * p.inner, acc);
        }
        if (p.phase == SCAN_TOTALS) totals[item] = acc;
    }
}

// Each line's chunk totals into exclusive carries, in place: a block per
// line.
template <class S> __device__ void scan_carries(const ScanArgs& p, typename S::Acc* buf) {
    typedef typename S::Acc Acc;
    Acc* totals = reinterpret_cast<Acc*>(p.totals);
    uint64_t lines = p.outer * p.inner;
    for (uint64_t line = blockIdx.x; line < lines; line += gridDim.x) {
        Acc* mine = totals + line * p.chunks;
        Acc carry = S::init();
        for (uint64_t at = 0; at < p.chunks; at += blockDim.x) {
            uint64_t c = at + threadIdx.x;
            Acc v = c < p.chunks ? mine[c] : S::init();
            Acc total;
            Acc before = block_exclusive<S>(v, buf, total);
            if (c < p.chunks) mine[c] = S::combine(carry, before);
            carry = S::combine(carry, total);
        }
    }
}

template <class T, class S> __device__ void scan_with(const ScanArgs& p, uint64_t* raw) {
    typedef typename S::Acc Acc;
    static_assert(sizeof(Acc) <= 16, "a scan's state fits its 16 bytes of totals");
    Acc* buf = reinterpret_cast<Acc*>(raw);
    if (p.phase == SCAN_CARRIES) scan_carries<S>(p, buf);
    else if (p.inner == 1) scan_rows<T, S>(p, buf);
    else scan_columns<T, S>(p);
}

// Which scans a type has (the Rust traits `LogCumSumExpElement`,
// `CumExtremum`); the Rust types never ask a kernel for the others.
template <class T> struct ScanTraits {
    static const bool floating = false, ordered = true;
};
#define SHAPED_FLOAT_SCAN(T, ordered_)                                     \
    template <> struct ScanTraits<T> {                                     \
        static const bool floating = true, ordered = ordered_;             \
    };
SHAPED_FLOAT_SCAN(f16, true)
SHAPED_FLOAT_SCAN(bf16, true)
SHAPED_FLOAT_SCAN(float, true)
SHAPED_FLOAT_SCAN(double, true)
SHAPED_FLOAT_SCAN(complex<float>, false)
SHAPED_FLOAT_SCAN(complex<double>, false)
#undef SHAPED_FLOAT_SCAN

template <bool On> struct ScanWhen {
    template <class T, class S> __device__ static void go(const ScanArgs& p, uint64_t* raw) {
        scan_with<T, S>(p, raw);
    }
};
template <> struct ScanWhen<false> {
    template <class T, class S> __device__ static void go(const ScanArgs&, uint64_t*) {}
};

template <class T> __device__ void scan(const ScanArgs& p) {
    // Two buffers of a state (at most 16 bytes) per thread.
    __shared__ uint64_t raw[2 * SHAPED_SCAN_BLOCK * 2];
    typedef ScanTraits<T> M;
    switch (p.op) {
        case SCAN_SUM: scan_with<T, CumFoldS<T, false> >(p, raw); break;
        case SCAN_PROD: scan_with<T, CumFoldS<T, true> >(p, raw); break;
        case SCAN_LOGSUMEXP: ScanWhen<M::floating>::template go<T, LogCumS<T> >(p, raw); break;
        case SCAN_MAX: ScanWhen<M::ordered>::template go<T, CumExtremeS<T, true> >(p, raw); break;
        case SCAN_MIN: ScanWhen<M::ordered>::template go<T, CumExtremeS<T, false> >(p, raw); break;
        default: break;
    }
}

}  // namespace shaped

#ifdef SHAPED_HOST
#define SHAPED_SCAN_BOUNDS
#else
#define SHAPED_SCAN_BOUNDS __launch_bounds__(SHAPED_SCAN_BLOCK)
#endif
#define SHAPED_SCAN_KERNELS(name, T, numeric)                                                \
    extern "C" __global__ void SHAPED_SCAN_BOUNDS shaped_scan_##name(shaped::ScanArgs p) {   \
        shaped::scan<T>(p);                                                                  \
    }
