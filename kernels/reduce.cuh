// The reduction kernels of shaped's CUDA backend: `sum`, `prod`, `mean`,
// `amax`/`amin`, `max`/`min` with their indices (also `argmax`/`argmin`),
// `all` and `any`, and for float32 and float64 the statistics: `var`/`std`
// with the mean (Welford's updates, Chan's combination), `vector_norm` of
// orders 0, 1, 2 and ±inf, `logsumexp` and
// `softmax`/`log_softmax` (a running maximum and the sum of exponentials
// scaled to it, in one read); one kernel per element type
// (`shaped_reduce_<dtype>`).
//
// Shape-erased, as the elementwise kernels: the host splits the input's
// dimensions into the kept ones (one output element per combination,
// row-major) and the reduced ones, each merged where the memory allows, and
// passes their sizes and strides at run time.
//
// A block of B threads reduces W outputs at once with L = B / W lanes each
// (both powers of two). W = 1 when the reduced elements are the nearest in
// memory (`sum(-1)`, whole-tensor sums): the lanes read consecutive
// elements. W = 32 when a kept dimension is (`sum(0)` of a matrix): 32
// threads read 32 neighbouring outputs' elements. Each lane folds its share
// of the elements into a private accumulator; the block then combines the
// lanes in shared memory as a binary tree (log2 L steps).
//
// When there are too few outputs to fill the GPU (a whole-tensor sum has
// one), each output's elements are cut into `splits` chunks: a first launch
// (PASS_PARTIAL) reduces every chunk to an accumulator in a workspace, a
// second (PASS_COMBINE) combines each output's accumulators, again as a
// tree. Sums and products accumulate as the CPU backend does (integers and
// bool in int64, the half types in f32); only the order of the additions
// differs.
//
// On the host (SHAPED_HOST) the threads of a block run as fibers that
// switch at every __syncthreads (host_launch.cpp).
#pragma once

#include "elementwise.cuh"

// Threads per block at most (the shared-memory tree's size).
#define SHAPED_REDUCE_BLOCK 256

namespace shaped {

// Reduction codes; the Rust side mirrors them (`ReduceOp`).
enum {
    OP_SUM = 64, OP_PROD = 65, OP_MEAN = 66, OP_AMAX = 67, OP_AMIN = 68,
    OP_MAX_AT = 69, OP_MIN_AT = 70, OP_ALL = 71, OP_ANY = 72,
    OP_VAR = 73, OP_LOGSUMEXP = 74, OP_SOFTMAX = 75, OP_NORM = 76,
};

// `ReduceArgs::flags` of OP_NORM: the order.
enum { NORM_0 = 0, NORM_1 = 1, NORM_2 = 2, NORM_INF = 3, NORM_NEG_INF = 4 };

// `ReduceArgs::flags`.
enum {
    FLAG_STD = 1,  // OP_VAR: the square root of the variance
    FLAG_LOG = 2,  // OP_SOFTMAX: log_softmax
};  // (OP_NORM's flags are a NORM_* order.)

// What a launch does (`ReduceArgs::pass`).
enum {
    PASS_WHOLE = 0,    // every element of an output, into the output
    PASS_PARTIAL = 1,  // one chunk of an output's elements, into the workspace
    PASS_COMBINE = 2,  // an output's chunks from the workspace, into the output
};

// Mirrors `ReduceArgs` in src/storage/cuda/reduce.rs (repr(C)).
struct ReduceArgs {
    uint64_t input;     // device address of the input buffer's first element
    uint64_t offset;    // the input's offset, in elements
    uint64_t out;       // the outputs (contiguous, row-major over the kept dims)
    uint64_t indices;   // OP_MAX_AT/OP_MIN_AT: the int64 indices, beside `out`
    uint64_t partials;  // the workspace: numel_out * splits accumulators
    uint64_t kept_sizes[SHAPED_MAX_RANK];
    uint64_t kept_strides[SHAPED_MAX_RANK];  // the input's, in elements
    uint64_t red_sizes[SHAPED_MAX_RANK];
    uint64_t red_strides[SHAPED_MAX_RANK];
    uint64_t numel_out;  // outputs, at least 1
    uint64_t numel_red;  // elements per output (0 for an empty reduction)
    uint64_t chunk;      // elements per chunk (numel_red with one split)
    int32_t kept_rank;   // 0 when every dimension is reduced
    int32_t red_rank;
    int32_t op;                 // an OP_* reduction code
    int32_t pass;               // a PASS_* code
    int32_t outputs_per_block;  // W: 1 or 32
    int32_t splits;             // chunks per output
    // OP_SOFTMAX, which writes every element: the output's strides over the
    // kept dims and along the reduced one (a single dim).
    uint64_t out_strides[SHAPED_MAX_RANK];
    uint64_t out_red_stride;
    double param;   // OP_VAR: the correction
    int32_t flags;  // FLAG_* bits
    // 1: each thread folds two neighbouring outputs of 2-byte elements
    // from 4-byte loads (columns; `reduce_pairs`), but for PASS_COMBINE.
    int32_t pairs;
};

// The storage offset of element `i` (row-major) of dimensions `sizes` with
// `strides`.
__host__ __device__ inline uint64_t offset_of(const uint64_t* sizes, const uint64_t* strides,
                                              int rank, uint64_t i) {
    if (rank == 1) return i * strides[0];
    uint64_t off = 0;
    for (int d = rank - 1; d >= 0; --d) {
        uint64_t q = i / sizes[d];
        off += (i - q * sizes[d]) * strides[d];
        i = q;
    }
    return off;
}

// ------------------------------------------------------------ accumulators

// What sums and products accumulate in, and their result (the Rust
// `Summable`): integers and bool in int64 (wrapping), the half types in f32
// rounded once at the end, the others in their own type.
template <class T> struct SumOf {
    typedef int64_t Acc;
    typedef int64_t Out;
    __host__ __device__ static Acc to(T x) { return int64_t(x); }
    __host__ __device__ static Out out(Acc a) { return a; }
};
#define SHAPED_SUM_OF(T, A, to_, out_)                                \
    template <> struct SumOf<T> {                                     \
        typedef A Acc;                                                \
        typedef T Out;                                                \
        __host__ __device__ static Acc to(T x) { return to_(x); }     \
        __host__ __device__ static Out out(Acc a) { return out_(a); } \
    };
#define SHAPED_SAME(x) (x)
SHAPED_SUM_OF(f16, float, to_f32, f16_from)
SHAPED_SUM_OF(bf16, float, to_f32, bf16_from)
SHAPED_SUM_OF(float, float, SHAPED_SAME, SHAPED_SAME)
SHAPED_SUM_OF(double, double, SHAPED_SAME, SHAPED_SAME)
SHAPED_SUM_OF(complex<float>, complex<float>, SHAPED_SAME, SHAPED_SAME)
SHAPED_SUM_OF(complex<double>, complex<double>, SHAPED_SAME, SHAPED_SAME)
#undef SHAPED_SAME
#undef SHAPED_SUM_OF

// The mean of `n` elements whose sum is `a`, rounded once (the Rust
// `MeanElement`).
__host__ __device__ inline f16 mean_of(float a, uint64_t n, f16) { return f16_from(a / float(n)); }
__host__ __device__ inline bf16 mean_of(float a, uint64_t n, bf16) { return bf16_from(a / float(n)); }
__host__ __device__ inline float mean_of(float a, uint64_t n, float) { return a / float(n); }
__host__ __device__ inline double mean_of(double a, uint64_t n, double) { return a / double(n); }
template <class R>
__host__ __device__ inline complex<R> mean_of(complex<R> a, uint64_t n, complex<R>) {
    return complex<R>{a.re / R(n), a.im / R(n)};
}

// The ends of an ordered type: what `amax` and `amin` start from.
template <class T> struct Limits;
#define SHAPED_INT_LIMITS(T, lo, hi)                         \
    template <> struct Limits<T> {                           \
        __host__ __device__ static T lowest() { return lo; } \
        __host__ __device__ static T highest() { return hi; } \
    };
SHAPED_INT_LIMITS(uint8_t, 0, UINT8_MAX)
SHAPED_INT_LIMITS(int8_t, INT8_MIN, INT8_MAX)
SHAPED_INT_LIMITS(int16_t, INT16_MIN, INT16_MAX)
SHAPED_INT_LIMITS(int32_t, INT32_MIN, INT32_MAX)
SHAPED_INT_LIMITS(int64_t, INT64_MIN, INT64_MAX)
SHAPED_INT_LIMITS(bool, false, true)
SHAPED_INT_LIMITS(f16, f16{0xfc00u}, f16{0x7c00u})
SHAPED_INT_LIMITS(bf16, bf16{0xff80u}, bf16{0x7f80u})
SHAPED_INT_LIMITS(float, -f32_of_bits(0x7f800000u), f32_of_bits(0x7f800000u))
SHAPED_INT_LIMITS(double, -double(f32_of_bits(0x7f800000u)), double(f32_of_bits(0x7f800000u)))
#undef SHAPED_INT_LIMITS

// NaN (of any element type; the half types compare as f32).
template <class T> __host__ __device__ inline bool nan_value(T x) {
    return cmp_value(x) != cmp_value(x);
}

// `x` is strictly more extreme than `y` (neither NaN).
template <bool Largest, class T> __host__ __device__ inline bool beats(T x, T y) {
    return Largest ? cmp_value(y) < cmp_value(x) : cmp_value(x) < cmp_value(y);
}

// `all` and `any` give bool, or uint8 for uint8 input (the Rust `Truth`).
template <class T> struct LogicalOf { typedef bool type; };
template <> struct LogicalOf<uint8_t> { typedef uint8_t type; };

template <class U> __host__ __device__ inline U* output(uint64_t address) {
    return reinterpret_cast<U*>(address);
}

// ---------------------------------------------------------------- reducers

// Each reducer (the Rust `Reducer`s of src/ops/reducers.rs): the
// accumulator type, its start, one more element (at linear index `i` of the
// reduced dimensions), two disjoint accumulators together, and the output.

// `sum` (Product = false) and `prod`: the elements folded in SumOf<T>::Acc.
template <class T, bool Product> struct FoldR {
    typedef typename SumOf<T>::Acc Acc;
    __host__ __device__ static Acc init() { return convert<Acc>(int64_t(Product ? 1 : 0)); }
    __host__ __device__ static Acc combine(Acc a, Acc b) { return Product ? mul(a, b) : add(a, b); }
    __host__ __device__ static Acc step(Acc a, T x, uint64_t) { return combine(a, SumOf<T>::to(x)); }
    __host__ __device__ static void finish(const ReduceArgs& p, uint64_t o, Acc a) {
        output<typename SumOf<T>::Out>(p.out)[o] = SumOf<T>::out(a);
    }
};

// The sum divided by the count (NaN for none).
template <class T> struct MeanR : FoldR<T, false> {
    typedef typename SumOf<T>::Acc Acc;
    __host__ __device__ static void finish(const ReduceArgs& p, uint64_t o, Acc a) {
        output<T>(p.out)[o] = mean_of(a, p.numel_red, T());
    }
};

// `amax`/`amin`: the extreme value; NaN wins.
template <class T, bool Largest> struct ExtremeR {
    typedef T Acc;
    __host__ __device__ static Acc init() {
        return Largest ? Limits<T>::lowest() : Limits<T>::highest();
    }
    __host__ __device__ static Acc step(Acc a, T x, uint64_t) {
        return beats<Largest>(x, a) || nan_value(x) ? x : a;
    }
    __host__ __device__ static Acc combine(Acc a, Acc b) { return step(a, b, 0); }
    __host__ __device__ static void finish(const ReduceArgs& p, uint64_t o, Acc a) {
        output<T>(p.out)[o] = a;
    }
};

// A value and its index; index -1: no element yet.
template <class T> struct Indexed {
    T value;
    int64_t index;
};

// `max`/`min` with indices: the first NaN wins, or else the first extreme
// value. Ties are settled by the index, so any order of `combine` agrees.
template <class T, bool Largest> struct ExtremeAtR {
    typedef Indexed<T> Acc;
    __host__ __device__ static bool wins(Acc a, Acc b) {
        bool a_nan = nan_value(a.value), b_nan = nan_value(b.value);
        if (a_nan && b_nan) return a.index < b.index;
        if (a_nan) return true;
        if (b_nan) return false;
        return beats<Largest>(a.value, b.value) ||
               (!beats<Largest>(b.value, a.value) && a.index < b.index);
    }
    __host__ __device__ static Acc init() {
        Acc a = {Largest ? Limits<T>::lowest() : Limits<T>::highest(), -1};
        return a;
    }
    __host__ __device__ static Acc step(Acc a, T x, uint64_t i) {
        Acc c = {x, int64_t(i)};
        return a.index < 0 || wins(c, a) ? c : a;
    }
    __host__ __device__ static Acc combine(Acc a, Acc b) {
        return b.index < 0 || (a.index >= 0 && wins(a, b)) ? a : b;
    }
    __host__ __device__ static void finish(const ReduceArgs& p, uint64_t o, Acc a) {
        output<T>(p.out)[o] = a.value;
        output<int64_t>(p.indices)[o] = a.index;
    }
};

// `all` (Any = false) and `any` (Any = true): whether every (some) element
// is nonzero; NaN is nonzero.
template <class T, bool Any> struct LogicalR {
    typedef bool Acc;
    __host__ __device__ static Acc init() { return !Any; }
    __host__ __device__ static Acc step(Acc a, T x, uint64_t) {
        return Any ? (a || nonzero(x)) : (a && nonzero(x));
    }
    __host__ __device__ static Acc combine(Acc a, Acc b) { return Any ? (a || b) : (a && b); }
    __host__ __device__ static void finish(const ReduceArgs& p, uint64_t o, Acc a) {
        output<typename LogicalOf<T>::type>(p.out)[o] = typename LogicalOf<T>::type(a);
    }
};


// ------------------------------------------------------------- statistics

__host__ __device__ inline float stat_exp(float x) { return expf(x); }
__host__ __device__ inline double stat_exp(double x) { return exp(x); }
__host__ __device__ inline float stat_log(float x) { return logf(x); }
__host__ __device__ inline double stat_log(double x) { return log(x); }
__host__ __device__ inline float stat_sqrt(float x) { return sqrtf(x); }
__host__ __device__ inline double stat_sqrt(double x) { return sqrt(x); }
template <class T> __host__ __device__ inline T stat_nan() { return T(f32_of_bits(0x7fc00000u)); }

// Welford's running count, mean and sum of squared deviations.
template <class T> struct Welford {
    uint64_t n;
    T mean;
    T m2;
};

// `var`/`std` (FLAG_STD) of the elements, divided by max(0, n - correction)
// (`param`); the mean, NaN for none, beside them in `indices` when that is
// set. Infinite elements give NaN, as the two passes of the CPU do.
template <class T> struct VarR {
    typedef Welford<T> Acc;
    __host__ __device__ static Acc init() {
        Acc a = {0, T(0), T(0)};
        return a;
    }
    __host__ __device__ static Acc step(Acc a, T x, uint64_t) {
        a.n += 1;
        const T delta = x - a.mean;
        a.mean += delta / T(a.n);
        a.m2 += delta * (x - a.mean);
        return a;
    }
    __host__ __device__ static Acc combine(Acc a, Acc b) {
        if (a.n == 0) return b;
        if (b.n == 0) return a;
        const uint64_t n = a.n + b.n;
        const T delta = b.mean - a.mean;
        const T share = T(b.n) / T(n);
        Acc c = {n, a.mean + delta * share, a.m2 + b.m2 + delta * delta * T(a.n) * share};
        return c;
    }
    __host__ __device__ static void finish(const ReduceArgs& p, uint64_t o, Acc a) {
        const double left = double(a.n) - p.param;
        T spread = a.m2 / T(left > 0 ? left : 0.0);
        if (p.flags & FLAG_STD) spread = stat_sqrt(spread);
        output<T>(p.out)[o] = spread;
        if (p.indices != 0) output<T>(p.indices)[o] = a.n == 0 ? stat_nan<T>() : a.mean;
    }
};

// The largest element `m` and the sum `s` of exp(x - m), as PyTorch's
// `exp(x - max)` would give it: an infinite element makes `s` NaN
// (exp(inf - inf)), a NaN makes both NaN; -inf elements add nothing
// (`m` stays -inf, and `s` 0, while every element is -inf).
template <class T> struct Online {
    T m;
    T s;
};
template <class T> struct OnlineR {
    typedef Online<T> Acc;
    __host__ __device__ static Acc init() {
        Acc a = {Limits<T>::lowest(), T(0)};
        return a;
    }
    __host__ __device__ static Acc step(Acc a, T x, uint64_t) {
        if (x != x) {
            a.m = x;
            a.s = x;
        } else if (x > a.m) {
            a.s = a.s * stat_exp(a.m - x) + stat_exp(x - x);
            a.m = x;
        } else if (x != Limits<T>::lowest()) {
            a.s += stat_exp(x - a.m);
        }
        return a;
    }
    __host__ __device__ static T scaled(Acc a, T m) {
        return a.m == Limits<T>::lowest() ? T(0) : a.s * stat_exp(a.m - m);
    }
    __host__ __device__ static Acc combine(Acc a, Acc b) {
        if (a.m != a.m) return a;
        if (b.m != b.m) return b;
        Acc c;
        c.m = a.m > b.m ? a.m : b.m;
        c.s = c.m == Limits<T>::lowest() ? T(0) : scaled(a, c.m) + scaled(b, c.m);
        return c;
    }
};

// `logsumexp`: ln(s) + m, with PyTorch's rule for an infinite maximum
// (taken out as 0): +inf for +inf, -inf where every element is -inf (or
// there are none).
template <class T> struct LogSumExpR : OnlineR<T> {
    typedef Online<T> Acc;
    __host__ __device__ static void finish(const ReduceArgs& p, uint64_t o, Acc a) {
        const T inf = Limits<T>::highest();
        output<T>(p.out)[o] =
            a.m != a.m || a.m == inf || a.m == -inf ? a.m : stat_log(a.s) + a.m;
    }
};

// `vector_norm` of the orders a sum or an extreme gives: NORM_0 counts the
// nonzero elements (NaN among them), NORM_1 sums |x|, NORM_2 sums x^2 and
// takes the root, NORM_INF and NORM_NEG_INF take the largest and smallest
// |x| (NaN wins), as the composition of the CPU does.
template <class T, int Order> struct NormR {
    typedef T Acc;
    typedef ExtremeR<T, Order == NORM_INF> Extreme;
    __host__ __device__ static Acc init() {
        return Order == NORM_INF || Order == NORM_NEG_INF ? Extreme::init() : T(0);
    }
    __host__ __device__ static Acc step(Acc a, T x, uint64_t i) {
        const T m = x < T(0) ? -x : x;
        switch (Order) {
            case NORM_0: return a + (x != T(0) ? T(1) : T(0));
            case NORM_1: return a + m;
            case NORM_2: return a + x * x;
            default: return Extreme::step(a, m, i);
        }
    }
    __host__ __device__ static Acc combine(Acc a, Acc b) {
        return Order == NORM_INF || Order == NORM_NEG_INF ? Extreme::combine(a, b) : a + b;
    }
    __host__ __device__ static void finish(const ReduceArgs& p, uint64_t o, Acc a) {
        output<T>(p.out)[o] = Order == NORM_2 ? stat_sqrt(a) : a;
    }
};

// `softmax` (exp(x - m) / s) and `log_softmax` (x - m - ln(s), FLAG_LOG) of
// every element along the dim: `softmax_spread` runs on every lane once the
// block has the output's total.
template <class T> struct SoftmaxR : OnlineR<T> {
    typedef Online<T> Acc;
    __host__ __device__ static void finish(const ReduceArgs&, uint64_t, Acc) {}
};

// -------------------------------------------------------------------- loop

// Folds the N elements x[0..N) (at indices i, i + step, ...) into `a`:
// one at a time, but for the statistics, which take a pack at once.
template <class T, class R, int N> struct PackStep {
    __host__ __device__ static typename R::Acc go(typename R::Acc a, const T* x, uint64_t i,
                                                  uint64_t step) {
        for (int j = 0; j < N; ++j) a = R::step(a, x[j], i + j * step);
        return a;
    }
};
// The variance: the pack's own mean and squared deviations (N is a power
// of two, so the mean's division is exact), combined with the running
// ones by Chan's formula: one division per pack.
template <class T, int N> struct PackStep<T, VarR<T>, N> {
    __host__ __device__ static Welford<T> go(Welford<T> a, const T* x, uint64_t, uint64_t) {
        T sum = T(0);
        for (int j = 0; j < N; ++j) sum += x[j];
        Welford<T> b = {uint64_t(N), sum * (T(1) / T(N)), T(0)};
        for (int j = 0; j < N; ++j) b.m2 += (x[j] - b.mean) * (x[j] - b.mean);
        return VarR<T>::combine(a, b);
    }
};
// The running maximum and sum: the pack's maximum first, the sum rescaled
// once if it grew, then the pack's exponentials (independent of each
// other). The same results as one element at a time (see `OnlineR`).
template <class T, int N> struct OnlinePack {
    __host__ __device__ static Online<T> go(Online<T> a, const T* x) {
        bool nan = a.m != a.m;
        T top = x[0];
        for (int j = 0; j < N; ++j) {
            nan = nan || x[j] != x[j];
            top = x[j] > top ? x[j] : top;
        }
        if (nan) {
            a.m = a.s = stat_nan<T>();
            return a;
        }
        if (top == Limits<T>::lowest()) return a;
        if (top > a.m) {
            a.s = a.s * stat_exp(a.m - top);
            a.m = top;
        }
        T add = T(0);
        for (int j = 0; j < N; ++j) add += stat_exp(x[j] - a.m);
        a.s += add;
        return a;
    }
};
template <class T, int N> struct PackStep<T, LogSumExpR<T>, N> {
    __host__ __device__ static Online<T> go(Online<T> a, const T* x, uint64_t, uint64_t) {
        return OnlinePack<T, N>::go(a, x);
    }
};
template <class T, int N> struct PackStep<T, SoftmaxR<T>, N> {
    __host__ __device__ static Online<T> go(Online<T> a, const T* x, uint64_t, uint64_t) {
        return OnlinePack<T, N>::go(a, x);
    }
};

// How many loads a lane keeps in flight: two 16-byte vectors, or four
// scattered elements; for the statistics, whose steps are longer, four
// vectors or eight to sixteen elements (more for all would take registers,
// and blocks, from the other reductions). Scattered elements are folded
// `group` at a time (the variance's Welford step is one division a group).
template <class R> struct InFlight { enum { packs = 2, elements = 4, group = 4 }; };
template <class T> struct InFlight<VarR<T> > { enum { packs = 4, elements = 8, group = 8 }; };
template <class T> struct InFlight<LogSumExpR<T> > { enum { packs = 4, elements = 8, group = 4 }; };
template <class T> struct InFlight<SoftmaxR<T> > { enum { packs = 4, elements = 16, group = 4 }; };

// Folds elements [begin, end) of one output, lane by lane: lane `lane` of
// `depth` takes elements begin + lane, + depth, ... `InFlight` elements are
// loaded before they are folded, so that each thread keeps several loads
// in flight (the fold itself is one dependent chain).
template <class T, class R>
__device__ typename R::Acc fold_strided(const ReduceArgs& p, const T* base, uint64_t begin,
                                        uint64_t end, unsigned lane, unsigned depth,
                                        typename R::Acc acc) {
    const int E = InFlight<R>::elements;
    uint64_t r = begin + lane;
    for (; r + (E - 1) * uint64_t(depth) < end; r += E * uint64_t(depth)) {
        T x[E];
        for (int u = 0; u < E; ++u)
            x[u] = base[offset_of(p.red_sizes, p.red_strides, p.red_rank, r + u * depth)];
        const int G = InFlight<R>::group;
        for (int u = 0; u < E; u += G)
            acc = PackStep<T, R, G>::go(acc, x + u, r + u * depth, depth);
    }
    for (; r < end; r += depth) {
        acc = R::step(acc, base[offset_of(p.red_sizes, p.red_strides, p.red_rank, r)], r);
    }
    return acc;
}

// `fold_strided` of contiguous elements (base[r] is element r): the lanes
// read 16-byte vectors (`InFlight` of them at once) from the first element
// that starts one on.
template <class T, class R, int N>
__device__ typename R::Acc fold_contiguous(const T* base, uint64_t begin, uint64_t end,
                                           unsigned lane, unsigned depth,
                                           typename R::Acc acc) {
    const uint64_t misaligned = (reinterpret_cast<uint64_t>(base + begin) % 16) / sizeof(T);
    uint64_t head = misaligned == 0 ? 0 : N - misaligned;
    if (head > end - begin) head = end - begin;
    for (uint64_t r = begin + lane; r < begin + head; r += depth) acc = R::step(acc, base[r], r);
    const uint64_t first = begin + head;
    const uint64_t packs = (end - first) / N;
    const Pack<T, N>* vectors = reinterpret_cast<const Pack<T, N>*>(base + first);
    const int F = InFlight<R>::packs;
    uint64_t k = lane;
    for (; k + (F - 1) * uint64_t(depth) < packs; k += F * uint64_t(depth)) {
        Pack<T, N> x[F];
        for (int u = 0; u < F; ++u) x[u] = vectors[k + u * depth];
        for (int u = 0; u < F; ++u)
            acc = PackStep<T, R, N>::go(acc, x[u].v, first + (k + u * depth) * N, 1);
    }
    for (; k < packs; k += depth) {
        Pack<T, N> x = vectors[k];
        acc = PackStep<T, R, N>::go(acc, x.v, first + k * N, 1);
    }
    for (uint64_t r = first + packs * N + lane; r < end; r += depth) acc = R::step(acc, base[r], r);
    return acc;
}

// The softmax of one output's elements, written by lanes `lane` of
// `depth` as `fold_strided` reads them; 16-byte vectors, four in flight,
// where both the input and the output are contiguous along the dim and
// equally aligned. exp(x - m) / s as a product with 1 / s, and x - m -
// ln(s) as x less their sum.
template <class T, int N>
__device__ void softmax_spread(const ReduceArgs& p, const T* in, T* out, Online<T> total,
                               unsigned lane, unsigned depth) {
    const bool log = (p.flags & FLAG_LOG) != 0;
    const T scale = T(1) / total.s, shift = total.m + stat_log(total.s);
    const uint64_t n = p.numel_red;
    const uint64_t in_stride = p.red_rank == 0 ? 0 : p.red_strides[0];
    const uint64_t out_stride = p.out_red_stride;
#define SHAPED_SOFTMAX_OF(x) (log ? (x) - shift : stat_exp((x) - total.m) * scale)
    const uint64_t in_misaligned = (reinterpret_cast<uint64_t>(in) % 16) / sizeof(T);
    const uint64_t out_misaligned = (reinterpret_cast<uint64_t>(out) % 16) / sizeof(T);
    if (N > 1 && in_stride == 1 && out_stride == 1 && in_misaligned == out_misaligned) {
        uint64_t head = in_misaligned == 0 ? 0 : N - in_misaligned;
        if (head > n) head = n;
        for (uint64_t r = lane; r < head; r += depth) out[r] = SHAPED_SOFTMAX_OF(in[r]);
        const uint64_t packs = (n - head) / N;
        const Pack<T, N>* from = reinterpret_cast<const Pack<T, N>*>(in + head);
        Pack<T, N>* to = reinterpret_cast<Pack<T, N>*>(out + head);
        uint64_t k = lane;
        for (; k + 3 * uint64_t(depth) < packs; k += 4 * uint64_t(depth)) {
            Pack<T, N> x[4];
            for (int u = 0; u < 4; ++u) x[u] = from[k + u * depth];
            for (int u = 0; u < 4; ++u) {
                for (int j = 0; j < N; ++j) x[u].v[j] = SHAPED_SOFTMAX_OF(x[u].v[j]);
                PackStore<T, N>::store(to + k + u * depth, x[u]);
            }
        }
        for (; k < packs; k += depth) {
            Pack<T, N> x = from[k];
            for (int j = 0; j < N; ++j) x.v[j] = SHAPED_SOFTMAX_OF(x.v[j]);
            PackStore<T, N>::store(to + k, x);
        }
        for (uint64_t r = head + packs * N + lane; r < n; r += depth) {
            out[r] = SHAPED_SOFTMAX_OF(in[r]);
        }
        return;
    }
    for (uint64_t r = lane; r < n; r += depth) {
        out[r * out_stride] = SHAPED_SOFTMAX_OF(in[r * in_stride]);
    }
#undef SHAPED_SOFTMAX_OF
}

// What a block does with an output's total on every lane: nothing, but
// for the softmax.
template <class T, class R> struct Spread {
    __device__ static void go(const ReduceArgs&, uint64_t, typename R::Acc, unsigned, unsigned) {}
};
template <class T> struct Spread<T, SoftmaxR<T> > {
    __device__ static void go(const ReduceArgs& p, uint64_t o, Online<T> total, unsigned lane,
                              unsigned depth) {
        const T* in = reinterpret_cast<const T*>(p.input) + p.offset +
                      offset_of(p.kept_sizes, p.kept_strides, p.kept_rank, o);
        T* out = output<T>(p.out) + offset_of(p.kept_sizes, p.out_strides, p.kept_rank, o);
        softmax_spread<T, 16 / sizeof(T)>(p, in, out, total, lane, depth);
    }
};

// The shared memory of a block's trees of accumulators: one buffer for
// every reducer of a kernel (only one runs per launch), sized for the
// largest tree: two accumulators of 16 bytes per thread (`reduce_pairs` of
// `max`/`min` with indices) or one of 24 (the variance's of `double`).
// (Not a template: a template's __shared__ array would be one per
// instantiation, all of them in the kernel.)
#define SHAPED_TREE_BYTES (2 * 16 * SHAPED_REDUCE_BLOCK)
struct alignas(16) TreeBytes { unsigned char bytes[SHAPED_TREE_BYTES]; };
__device__ inline unsigned char* tree_bytes() {
    __shared__ TreeBytes tree;
    return tree.bytes;
}

// Two neighbouring elements, loaded together.
template <class T> struct alignas(2 * sizeof(T)) Two { T v[2]; };

// `reduce_pass` of columns of 2-byte elements with each thread on two
// neighbouring outputs, o and o + 1: a warp's 32 threads read 128
// bytes of a row with one 4-byte load each, where one output per thread
// read 64 with 2-byte loads (bfloat16 column sums ran at half of copy
// bandwidth). The host plans it only where every pair is one aligned
// 4-byte word on every row: the innermost kept dimension contiguous and
// of even size, the other strides and the offset even. Each thread keeps
// two accumulators and the block two trees of them.
template <class T, class R> __device__ void reduce_pairs(const ReduceArgs& p) {
    typedef typename R::Acc Acc;
    static_assert(2 * sizeof(Acc) * SHAPED_REDUCE_BLOCK <= SHAPED_TREE_BYTES, "tree fits");
    static_assert(alignof(Acc) <= 16, "tree aligned");
    Acc* lanes = reinterpret_cast<Acc*>(tree_bytes());
    const T* in = reinterpret_cast<const T*>(p.input);
    Acc* partials = reinterpret_cast<Acc*>(p.partials);
    const unsigned t = threadIdx.x, block = blockDim.x;
    const unsigned width = unsigned(p.outputs_per_block);
    const unsigned depth = block / width;
    const unsigned lane = t / width;
    const uint64_t splits = p.pass == PASS_PARTIAL ? uint64_t(p.splits) : 1;
    const uint64_t span = 2 * uint64_t(width);
    const uint64_t groups = (p.numel_out + span - 1) / span;
    for (uint64_t work = blockIdx.x; work < groups * splits; work += gridDim.x) {
        // numel_out is even: o + 1 is an output whenever o is.
        const uint64_t o = (work / splits) * span + 2 * (t % width);
        const uint64_t split = work % splits;
        Acc a0 = R::init(), a1 = R::init();
        if (o < p.numel_out) {
            const T* base = in + p.offset + offset_of(p.kept_sizes, p.kept_strides, p.kept_rank, o);
            uint64_t end = (split + 1) * p.chunk;
            if (end > p.numel_red) end = p.numel_red;
            const uint64_t begin = split * p.chunk < end ? split * p.chunk : end;
            const int E = InFlight<R>::elements, G = InFlight<R>::group;
            uint64_t r = begin + lane;
            for (; r + (E - 1) * uint64_t(depth) < end; r += E * uint64_t(depth)) {
                T x0[E], x1[E];
                for (int u = 0; u < E; ++u) {
                    const Two<T> x = *reinterpret_cast<const Two<T>*>(
                        base + offset_of(p.red_sizes, p.red_strides, p.red_rank, r + u * depth));
                    x0[u] = x.v[0];
                    x1[u] = x.v[1];
                }
                for (int u = 0; u < E; u += G) {
                    a0 = PackStep<T, R, G>::go(a0, x0 + u, r + u * depth, depth);
                    a1 = PackStep<T, R, G>::go(a1, x1 + u, r + u * depth, depth);
                }
            }
            for (; r < end; r += depth) {
                const Two<T> x = *reinterpret_cast<const Two<T>*>(
                    base + offset_of(p.red_sizes, p.red_strides, p.red_rank, r));
                a0 = R::step(a0, x.v[0], r);
                a1 = R::step(a1, x.v[1], r);
            }
        }
        lanes[t] = a0;
        lanes[block + t] = a1;
        __syncthreads();
        for (unsigned s = depth / 2; s > 0; s /= 2) {
            if (lane < s) {
                lanes[t] = R::combine(lanes[t], lanes[t + s * width]);
                lanes[block + t] = R::combine(lanes[block + t], lanes[block + t + s * width]);
            }
            __syncthreads();
        }
        if (lane == 0 && o < p.numel_out) {
            if (p.pass == PASS_PARTIAL) {
                partials[o * splits + split] = lanes[t];
                partials[(o + 1) * splits + split] = lanes[block + t];
            } else {
                R::finish(p, o, lanes[t]);
                R::finish(p, o + 1, lanes[block + t]);
            }
        }
        // The next round writes `lanes` again.
        __syncthreads();
    }
}

// `reduce_pairs` where the elements are 2 bytes (the host plans it for no
// others).
template <bool TwoBytes> struct PairsWhen {
    template <class T, class R> __device__ static bool go(const ReduceArgs& p) {
        if (!p.pairs || p.pass == PASS_COMBINE) return false;
        reduce_pairs<T, R>(p);
        return true;
    }
};
template <> struct PairsWhen<false> {
    template <class T, class R> __device__ static bool go(const ReduceArgs&) { return false; }
};

// One launch of reducer R over Ts (see the top of this file).
template <class T, class R> __device__ void reduce_pass(const ReduceArgs& p) {
    if (PairsWhen<sizeof(T) == 2>::template go<T, R>(p)) return;
    typedef typename R::Acc Acc;
    static_assert(sizeof(Acc) * SHAPED_REDUCE_BLOCK <= SHAPED_TREE_BYTES, "tree fits");
    static_assert(alignof(Acc) <= 16, "tree aligned");
    Acc* lanes = reinterpret_cast<Acc*>(tree_bytes());
    const T* in = reinterpret_cast<const T*>(p.input);
    Acc* partials = reinterpret_cast<Acc*>(p.partials);
    const unsigned t = threadIdx.x;
    const unsigned width = unsigned(p.outputs_per_block);
    const unsigned depth = blockDim.x / width;
    const unsigned lane = t / width;
    const uint64_t splits = p.pass == PASS_PARTIAL ? uint64_t(p.splits) : 1;
    const uint64_t groups = (p.numel_out + width - 1) / width;
    // Every thread of a block runs the same number of rounds (the
    // __syncthreads below are reached by all of them).
    for (uint64_t work = blockIdx.x; work < groups * splits; work += gridDim.x) {
        const uint64_t o = (work / splits) * width + t % width;
        const uint64_t split = work % splits;
        Acc acc = R::init();
        if (o < p.numel_out) {
            if (p.pass == PASS_COMBINE) {
                const Acc* mine = partials + o * uint64_t(p.splits);
                for (uint64_t c = lane; c < uint64_t(p.splits); c += depth) {
                    acc = R::combine(acc, mine[c]);
                }
            } else {
                const T* base =
                    in + p.offset + offset_of(p.kept_sizes, p.kept_strides, p.kept_rank, o);
                uint64_t end = (split + 1) * p.chunk;
                if (end > p.numel_red) end = p.numel_red;
                const uint64_t begin = split * p.chunk < end ? split * p.chunk : end;
                // Lanes of one output read neighbouring elements (W = 1)
                // of a contiguous run: 16 bytes at a time.
                const int N = sizeof(T) < 16 ? 16 / int(sizeof(T)) : 1;
                if (N > 1 && width == 1 && p.red_rank == 1 && p.red_strides[0] == 1) {
                    acc = fold_contiguous<T, R, N>(base, begin, end, lane, depth, acc);
                } else {
                    acc = fold_strided<T, R>(p, base, begin, end, lane, depth, acc);
                }
            }
        }
        lanes[t] = acc;
        __syncthreads();
        for (unsigned s = depth / 2; s > 0; s /= 2) {
            if (lane < s) lanes[t] = R::combine(lanes[t], lanes[t + s * width]);
            __syncthreads();
        }
        if (lane == 0 && o < p.numel_out) {
            if (p.pass == PASS_PARTIAL) partials[o * splits + split] = lanes[t];
            else R::finish(p, o, lanes[t]);
        }
        // (The softmax is planned in one pass.)
        if (o < p.numel_out) Spread<T, R>::go(p, o, lanes[t % width], lane, depth);
        // The next round writes `lanes` again.
        __syncthreads();
    }
}

// Which reductions a type has (the Rust traits `MeanElement`, `Extremum`);
// the Rust types never ask a kernel for the others.
// (`stats`: the Rust `SoftmaxFloat`, with `var`, `logsumexp` and `softmax`.)
template <class T> struct ReduceTraits {
    static const bool mean = false, ordered = true, stats = false;
};
#define SHAPED_FLOAT_REDUCE(T, stats_)                                           \
    template <> struct ReduceTraits<T> {                                         \
        static const bool mean = true, ordered = true, stats = stats_;           \
    };
SHAPED_FLOAT_REDUCE(f16, false)
SHAPED_FLOAT_REDUCE(bf16, false)
SHAPED_FLOAT_REDUCE(float, true)
SHAPED_FLOAT_REDUCE(double, true)
#undef SHAPED_FLOAT_REDUCE
template <class R> struct ReduceTraits<complex<R> > {
    static const bool mean = true, ordered = false, stats = false;
};

template <bool On> struct ReduceWhen {
    template <class T, class R> __device__ static void go(const ReduceArgs& p) {
        reduce_pass<T, R>(p);
    }
};
template <> struct ReduceWhen<false> {
    template <class T, class R> __device__ static void go(const ReduceArgs&) {}
};

template <class T> __device__ void reduce(const ReduceArgs& p) {
    typedef ReduceTraits<T> M;
    switch (p.op) {
        case OP_SUM: reduce_pass<T, FoldR<T, false> >(p); break;
        case OP_PROD: reduce_pass<T, FoldR<T, true> >(p); break;
        case OP_MEAN: ReduceWhen<M::mean>::template go<T, MeanR<T> >(p); break;
        case OP_AMAX: ReduceWhen<M::ordered>::template go<T, ExtremeR<T, true> >(p); break;
        case OP_AMIN: ReduceWhen<M::ordered>::template go<T, ExtremeR<T, false> >(p); break;
        case OP_MAX_AT: ReduceWhen<M::ordered>::template go<T, ExtremeAtR<T, true> >(p); break;
        case OP_MIN_AT: ReduceWhen<M::ordered>::template go<T, ExtremeAtR<T, false> >(p); break;
        case OP_ALL: reduce_pass<T, LogicalR<T, false> >(p); break;
        case OP_ANY: reduce_pass<T, LogicalR<T, true> >(p); break;
        default: break;
    }
}

// The statistics, a kernel apart (`shaped_stats_<dtype>`, empty but for
// float32 and float64), so that their registers do not lower the other
// reductions' occupancy.
template <class T> __device__ void stats(const ReduceArgs& p) {
    typedef ReduceTraits<T> M;
    switch (p.op) {
        case OP_VAR: ReduceWhen<M::stats>::template go<T, VarR<T> >(p); break;
        case OP_LOGSUMEXP: ReduceWhen<M::stats>::template go<T, LogSumExpR<T> >(p); break;
        default: break;
    }
}

// `vector_norm` of orders 0, 1, 2 and ±inf (`shaped_norm_<dtype>`, empty but
// for float32 and float64): a kernel of its own, for its registers too.
template <class T> __device__ void norm(const ReduceArgs& p) {
    typedef ReduceWhen<ReduceTraits<T>::stats> When;
    switch (p.flags) {
        case NORM_0: When::template go<T, NormR<T, NORM_0> >(p); break;
        case NORM_1: When::template go<T, NormR<T, NORM_1> >(p); break;
        case NORM_2: When::template go<T, NormR<T, NORM_2> >(p); break;
        case NORM_INF: When::template go<T, NormR<T, NORM_INF> >(p); break;
        default: When::template go<T, NormR<T, NORM_NEG_INF> >(p); break;
    }
}

// 16-byte vectors each lane of `softmax_rows` keeps in registers: rows of
// up to SHAPED_REDUCE_BLOCK * 256 bytes (16384 float32) are read once, or
// half that of float64 (whose arithmetic takes twice the registers).
template <class T> struct SoftmaxCache { enum { packs = sizeof(T) == 8 ? 8 : 16 }; };

// The running maximum and sum of all W = 1 lanes of a block, on every lane.
template <class T> __device__ Online<T> block_total(Online<T> acc, Online<T>* lanes) {
    const unsigned t = threadIdx.x;
    lanes[t] = acc;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s /= 2) {
        if (t < s) lanes[t] = OnlineR<T>::combine(lanes[t], lanes[t + s]);
        __syncthreads();
    }
    const Online<T> total = lanes[0];
    // The next row writes `lanes` again.
    __syncthreads();
    return total;
}

// The softmax of rows contiguous along the dim in the input and the output
// (one row per block): each lane loads its share of the row's 16-byte
// vectors into registers at once, folds them, and writes them transformed
// once the block has the row's total, so that the row is read from memory
// once. Rows longer than the registers hold, or whose input and output are
// not equally aligned, are read twice (the second time from the L2 cache
// where the plan's grid lets it).
template <class T> __device__ void softmax_rows(const ReduceArgs& p) {
    const int N = 16 / int(sizeof(T));
    __shared__ Online<T> lanes[SHAPED_REDUCE_BLOCK];
    const unsigned lane = threadIdx.x, depth = blockDim.x;
    const uint64_t n = p.numel_red;
    const bool log = (p.flags & FLAG_LOG) != 0;
    for (uint64_t o = blockIdx.x; o < p.numel_out; o += gridDim.x) {
        const T* in = reinterpret_cast<const T*>(p.input) + p.offset +
                      offset_of(p.kept_sizes, p.kept_strides, p.kept_rank, o);
        T* out = output<T>(p.out) + offset_of(p.kept_sizes, p.out_strides, p.kept_rank, o);
        const uint64_t misaligned = (reinterpret_cast<uint64_t>(in) % 16) / sizeof(T);
        uint64_t head = misaligned == 0 ? 0 : N - misaligned;
        if (head > n) head = n;
        const uint64_t packs = (n - head) / N;
        const bool cached = misaligned == (reinterpret_cast<uint64_t>(out) % 16) / sizeof(T) &&
                            packs <= uint64_t(depth) * SoftmaxCache<T>::packs;
        if (!cached) {
            // (Every lane of the block takes the same branch.)
            Online<T> acc = fold_contiguous<T, SoftmaxR<T>, N>(in, 0, n, lane, depth,
                                                                OnlineR<T>::init());
            softmax_spread<T, N>(p, in, out, block_total(acc, lanes), lane, depth);
            continue;
        }
        const Pack<T, N>* from = reinterpret_cast<const Pack<T, N>*>(in + head);
        Pack<T, N>* to = reinterpret_cast<Pack<T, N>*>(out + head);
        const uint64_t rest = head + packs * N;
        Pack<T, N> cache[SoftmaxCache<T>::packs];
        for (int c = 0; c < SoftmaxCache<T>::packs; ++c) {
            const uint64_t k = lane + uint64_t(c) * depth;
            if (k < packs) cache[c] = from[k];
        }
        Online<T> acc = OnlineR<T>::init();
        for (uint64_t r = lane; r < head; r += depth) acc = OnlineR<T>::step(acc, in[r], r);
        for (uint64_t r = rest + lane; r < n; r += depth) acc = OnlineR<T>::step(acc, in[r], r);
        for (int c = 0; c < SoftmaxCache<T>::packs; ++c) {
            if (lane + uint64_t(c) * depth < packs) acc = OnlinePack<T, N>::go(acc, cache[c].v);
        }
        const Online<T> total = block_total(acc, lanes);
        const T scale = T(1) / total.s, shift = total.m + stat_log(total.s);
#define SHAPED_SOFTMAX_OF(x) (log ? (x) - shift : stat_exp((x) - total.m) * scale)
        for (uint64_t r = lane; r < head; r += depth) out[r] = SHAPED_SOFTMAX_OF(in[r]);
        for (uint64_t r = rest + lane; r < n; r += depth) out[r] = SHAPED_SOFTMAX_OF(in[r]);
        for (int c = 0; c < SoftmaxCache<T>::packs; ++c) {
            const uint64_t k = lane + uint64_t(c) * depth;
            if (k < packs) {
                for (int j = 0; j < N; ++j) cache[c].v[j] = SHAPED_SOFTMAX_OF(cache[c].v[j]);
                PackStore<T, N>::store(to + k, cache[c]);
            }
        }
#undef SHAPED_SOFTMAX_OF
    }
}

template <bool On> struct SoftmaxWhen {
    template <class T> __device__ static void go(const ReduceArgs& p) {
        if (p.outputs_per_block == 1 && p.red_strides[0] == 1 && p.out_red_stride == 1) {
            softmax_rows<T>(p);
        } else {
            reduce_pass<T, SoftmaxR<T> >(p);
        }
    }
};
template <> struct SoftmaxWhen<false> {
    template <class T> __device__ static void go(const ReduceArgs&) {}
};

// `softmax` and `log_softmax` (`shaped_softmax_<dtype>`, empty but for
// float32 and float64): rows contiguous along the dim by `softmax_rows`,
// the others (columns, strided rows) as a reduction whose lanes then write
// their elements.
template <class T> __device__ void softmax(const ReduceArgs& p) {
    SoftmaxWhen<ReduceTraits<T>::stats>::template go<T>(p);
}

}  // namespace shaped

#ifdef SHAPED_HOST
#define SHAPED_REDUCE_BOUNDS
#else
#define SHAPED_REDUCE_BOUNDS __launch_bounds__(SHAPED_REDUCE_BLOCK)
#endif
#define SHAPED_REDUCE_KERNELS(name, T, numeric)                                              \
    extern "C" __global__ void SHAPED_REDUCE_BOUNDS shaped_reduce_##name(shaped::ReduceArgs p) { \
        shaped::reduce<T>(p);                                                                \
    }
#define SHAPED_SOFTMAX_KERNELS(name, T, numeric)                                              \
    extern "C" __global__ void SHAPED_REDUCE_BOUNDS shaped_softmax_##name(shaped::ReduceArgs p) { \
        shaped::softmax<T>(p);                                                                \
    }
#define SHAPED_NORM_KERNELS(name, T, numeric)                                              \
    extern "C" __global__ void SHAPED_REDUCE_BOUNDS shaped_norm_##name(shaped::ReduceArgs p) { \
        shaped::norm<T>(p);                                                                \
    }
#define SHAPED_STATS_KERNELS(name, T, numeric)                                              \
    extern "C" __global__ void SHAPED_REDUCE_BOUNDS shaped_stats_##name(shaped::ReduceArgs p) { \
        shaped::stats<T>(p);                                                                \
    }
