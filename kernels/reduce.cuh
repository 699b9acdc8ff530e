// The reduction kernels of shaped's CUDA backend: `sum`, `prod`, `mean`,
// `amax`/`amin`, `max`/`min` with their indices (also `argmax`/`argmin`),
// `all` and `any`, one kernel per element type (`shaped_reduce_<dtype>`).
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
};

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

// -------------------------------------------------------------------- loop

// Folds elements [begin, end) of one output, lane by lane: lane `lane` of
// `depth` takes elements begin + lane, + depth, ... Four elements are loaded
// before they are folded, so that each thread keeps several loads in
// flight (the fold itself is one dependent chain).
template <class T, class R>
__device__ typename R::Acc fold_strided(const ReduceArgs& p, const T* base, uint64_t begin,
                                        uint64_t end, unsigned lane, unsigned depth,
                                        typename R::Acc acc) {
    uint64_t r = begin + lane;
    for (; r + 3 * uint64_t(depth) < end; r += 4 * uint64_t(depth)) {
        T x[4];
        for (int u = 0; u < 4; ++u)
            x[u] = base[offset_of(p.red_sizes, p.red_strides, p.red_rank, r + u * depth)];
        for (int u = 0; u < 4; ++u) acc = R::step(acc, x[u], r + u * depth);
    }
    for (; r < end; r += depth) {
        acc = R::step(acc, base[offset_of(p.red_sizes, p.red_strides, p.red_rank, r)], r);
    }
    return acc;
}

// `fold_strided` of contiguous elements (base[r] is element r): the lanes
// read 16-byte vectors, two in flight each, from the first element that
// starts one on.
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
    uint64_t k = lane;
    for (; k + depth < packs; k += 2 * uint64_t(depth)) {
        Pack<T, N> x = vectors[k], y = vectors[k + depth];
        for (int j = 0; j < N; ++j) acc = R::step(acc, x.v[j], first + k * N + j);
        for (int j = 0; j < N; ++j) acc = R::step(acc, y.v[j], first + (k + depth) * N + j);
    }
    for (; k < packs; k += depth) {
        Pack<T, N> x = vectors[k];
        for (int j = 0; j < N; ++j) acc = R::step(acc, x.v[j], first + k * N + j);
    }
    for (uint64_t r = first + packs * N + lane; r < end; r += depth) acc = R::step(acc, base[r], r);
    return acc;
}

// One launch of reducer R over Ts (see the top of this file).
template <class T, class R> __device__ void reduce_pass(const ReduceArgs& p) {
    typedef typename R::Acc Acc;
    __shared__ Acc lanes[SHAPED_REDUCE_BLOCK];
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
        // The next round writes `lanes` again.
        __syncthreads();
    }
}

// Which reductions a type has (the Rust traits `MeanElement`, `Extremum`);
// the Rust types never ask a kernel for the others.
template <class T> struct ReduceTraits { static const bool mean = false, ordered = true; };
#define SHAPED_FLOAT_REDUCE(T) \
    template <> struct ReduceTraits<T> { static const bool mean = true, ordered = true; };
SHAPED_FLOAT_REDUCE(f16)
SHAPED_FLOAT_REDUCE(bf16)
SHAPED_FLOAT_REDUCE(float)
SHAPED_FLOAT_REDUCE(double)
#undef SHAPED_FLOAT_REDUCE
template <class R> struct ReduceTraits<complex<R> > {
    static const bool mean = true, ordered = false;
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
