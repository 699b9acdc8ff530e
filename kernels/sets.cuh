// The sets and bins on the device (src/ops/sets/): `unique` (also along a
// dim, and `unique_consecutive`), `searchsorted`/`bucketize`, `bincount`
// and `histc`, one kernel per sortable type (`shaped_sets_<dtype>`), the
// phase chosen by the arguments. The host (src/backend/cuda/sets.rs) runs
// the phases in turn, with the device's sort, scan and reductions between
// them; every phase is a loop of independent threads over its items, so
// that the host build (host_shim.h) runs the same code.
//
// Elements are dense: `x` holds `n` rows of `row` elements (row = 1 for
// elements). Rows are compared with the element type's `==` (so -0.0
// equals 0.0 and a NaN equals nothing: each one its own value), read in
// `order` (the positions of the rows in sorted order) when it is given.
//
// - SETS_HEADS: marks[i] = 1 where a run of equal rows starts, else 0.
// - SETS_GATHER: with `ids` the inclusive sums of the marks, each row's run
//   is ids[i] - 1: its inverse (where wanted), and at the head of each run
//   its start and its values (the row itself, so -0.0 and NaN payloads stay).
// - SETS_COUNTS: each run's length, from the starts.
// - SETS_HISTOGRAM: marks[x - lo] += 1 for each element (an integer type),
//   or, with weights, values[x] += weights[i] (float or double, by
//   `weight_kind`): bincount, and the counting of small integer ranges.
// - SETS_PRESENT: starts[k] = 1 where bin k of the histogram is not empty.
// - SETS_COUNTED: with `ids` the inclusive sums of those, the value and the
//   count of each non-empty bin at its rank.
// - SETS_LOOKUP: each element's inverse: its bin's rank.
// - SETS_SEARCH: out[i] = PyTorch's binary search of x[i] in its line of
//   `boundaries` (through `sorter` when given).
// - SETS_HISTC: marks[bin] += 1 for each element within [min, max] (counted
//   per block in shared memory where the bins fit), the bin
//   computed as the CPU's (PyTorch's) arithmetic in the element type.
// - SETS_TO_FLOAT: values[b] = marks[b] as T, rounded once.
// - SETS_COLUMN: values[i] = element `column` of row i (in `order`), and
//   SETS_PERMUTE: out[i] = order[positions[i]] (positions[i] without
//   `order`): one step of sorting rows by a stable sort of each column.
//
// Counts are added with 64-bit atomics, so they do not depend on the order
// threads run in; weighted sums (SETS_HISTOGRAM with weights) do, as
// PyTorch's on CUDA.
#pragma once

#include "sort.cuh"

#define SHAPED_SETS_BLOCK 256

namespace shaped {

enum {
    SETS_HEADS = 0,
    SETS_GATHER = 1,
    SETS_COUNTS = 2,
    SETS_HISTOGRAM = 3,
    SETS_PRESENT = 4,
    SETS_COUNTED = 5,
    SETS_LOOKUP = 6,
    SETS_SEARCH = 7,
    SETS_HISTC = 8,
    SETS_TO_FLOAT = 9,
    SETS_COLUMN = 10,
    SETS_PERMUTE = 11
};
// SETS_HISTOGRAM's weights.
enum { WEIGHTS_NONE = 0, WEIGHTS_F32 = 1, WEIGHTS_F64 = 2 };

// Mirrors `SetsArgs` in src/backend/cuda/sets.rs (repr(C)).
struct SetsArgs {
    uint64_t x;          // T: n rows of `row` elements, dense
    uint64_t order;      // int64: the rows' positions in sorted order, or 0
    uint64_t marks;      // int64: run heads, or a histogram
    uint64_t ids;        // int64: inclusive sums of the heads (of `starts`)
    uint64_t values;     // T (or the weights' type): the values out
    uint64_t inverse;    // int64 out, or 0: none wanted
    uint64_t counts;     // int64 out, or 0: none wanted
    uint64_t starts;     // int64: each run's start; SETS_PRESENT's flags
    uint64_t boundaries; // T: SETS_SEARCH's lines
    uint64_t sorter;     // int64: SETS_SEARCH's positions along each line, or 0
    uint64_t weights;    // SETS_HISTOGRAM: the weights, or 0
    uint64_t out;        // int64: SETS_SEARCH's positions; SETS_PERMUTE's order
    uint64_t positions;  // int64: SETS_PERMUTE: a sort's positions
    uint64_t n;          // the items of the phase
    uint64_t row;        // elements per row
    uint64_t count;      // SETS_COUNTS: runs
    uint64_t line;       // SETS_SEARCH: elements per line of boundaries
    uint64_t per_line;   // SETS_SEARCH: values per line, or 0: one line for all
    uint64_t bins;       // SETS_HISTC: bins
    uint64_t column;     // SETS_COLUMN: which element of each row
    int64_t lo;          // the value of bin 0 (histograms)
    double min, max;     // SETS_HISTC: the range (of T, exactly)
    int32_t phase;
    int32_t right;       // SETS_SEARCH: the first above, not the first not below
    int32_t weight_kind; // WEIGHTS_*
    int32_t pad;
};

// The position of this thread, and the step to its next item.
__device__ inline uint64_t sets_first() { return uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; }
__device__ inline uint64_t sets_step() { return uint64_t(gridDim.x) * blockDim.x; }

// Row `r` of `p.x` as read in order.
template <class T> __device__ inline const T* sets_row(const SetsArgs& p, uint64_t r) {
    const int64_t* order = reinterpret_cast<const int64_t*>(p.order);
    uint64_t at = order != nullptr ? uint64_t(order[r]) : r;
    return reinterpret_cast<const T*>(p.x) + at * p.row;
}

template <class T> __device__ void sets_heads(const SetsArgs& p) {
    int64_t* marks = reinterpret_cast<int64_t*>(p.marks);
    for (uint64_t i = sets_first(); i < p.n; i += sets_step()) {
        bool head = i == 0;
        if (!head) {
            const T* a = sets_row<T>(p, i);
            const T* b = sets_row<T>(p, i - 1);
            for (uint64_t c = 0; c < p.row && !head; ++c) head = !eq(a[c], b[c]);
        }
        marks[i] = head ? 1 : 0;
    }
}

template <class T> __device__ void sets_gather(const SetsArgs& p) {
    const int64_t* ids = reinterpret_cast<const int64_t*>(p.ids);
    const int64_t* order = reinterpret_cast<const int64_t*>(p.order);
    int64_t* inverse = reinterpret_cast<int64_t*>(p.inverse);
    int64_t* starts = reinterpret_cast<int64_t*>(p.starts);
    T* values = reinterpret_cast<T*>(p.values);
    for (uint64_t i = sets_first(); i < p.n; i += sets_step()) {
        uint64_t run = uint64_t(ids[i] - 1);
        uint64_t at = order != nullptr ? uint64_t(order[i]) : i;
        if (inverse != nullptr) inverse[at] = int64_t(run);
        if (i == 0 || ids[i - 1] != ids[i]) {
            starts[run] = int64_t(i);
            const T* row = sets_row<T>(p, i);
            for (uint64_t c = 0; c < p.row; ++c) values[run * p.row + c] = row[c];
        }
    }
}

__device__ inline void sets_counts(const SetsArgs& p) {
    const int64_t* starts = reinterpret_cast<const int64_t*>(p.starts);
    int64_t* counts = reinterpret_cast<int64_t*>(p.counts);
    for (uint64_t g = sets_first(); g < p.count; g += sets_step()) {
        int64_t end = g + 1 < p.count ? starts[g + 1] : int64_t(p.n);
        counts[g] = end - starts[g];
    }
}

template <class T> __device__ void sets_histogram(const SetsArgs& p) {
    const T* x = reinterpret_cast<const T*>(p.x);
    unsigned long long* marks = reinterpret_cast<unsigned long long*>(p.marks);
    for (uint64_t i = sets_first(); i < p.n; i += sets_step()) {
        uint64_t bin = uint64_t(real_i64(x[i]) - p.lo);
        switch (p.weight_kind) {
            case WEIGHTS_F32:
                atomicAdd(reinterpret_cast<float*>(p.values) + bin,
                          reinterpret_cast<const float*>(p.weights)[i]);
                break;
            case WEIGHTS_F64:
                atomicAdd(reinterpret_cast<double*>(p.values) + bin,
                          reinterpret_cast<const double*>(p.weights)[i]);
                break;
            default: atomicAdd(marks + bin, 1ull); break;
        }
    }
}

__device__ inline void sets_present(const SetsArgs& p) {
    const int64_t* marks = reinterpret_cast<const int64_t*>(p.marks);
    int64_t* flags = reinterpret_cast<int64_t*>(p.starts);
    for (uint64_t k = sets_first(); k < p.n; k += sets_step()) flags[k] = marks[k] != 0 ? 1 : 0;
}

template <class T> __device__ void sets_counted(const SetsArgs& p) {
    const int64_t* marks = reinterpret_cast<const int64_t*>(p.marks);
    const int64_t* ids = reinterpret_cast<const int64_t*>(p.ids);
    int64_t* counts = reinterpret_cast<int64_t*>(p.counts);
    T* values = reinterpret_cast<T*>(p.values);
    for (uint64_t k = sets_first(); k < p.n; k += sets_step()) {
        if (marks[k] == 0) continue;
        uint64_t rank = uint64_t(ids[k] - 1);
        values[rank] = Make<T>::from(int64_t(p.lo + int64_t(k)));
        if (counts != nullptr) counts[rank] = marks[k];
    }
}

template <class T> __device__ void sets_lookup(const SetsArgs& p) {
    const T* x = reinterpret_cast<const T*>(p.x);
    const int64_t* ids = reinterpret_cast<const int64_t*>(p.ids);
    int64_t* inverse = reinterpret_cast<int64_t*>(p.inverse);
    for (uint64_t i = sets_first(); i < p.n; i += sets_step()) {
        inverse[i] = ids[real_i64(x[i]) - p.lo] - 1;
    }
}

// PyTorch's binary search: the first place whose element is not below
// (right: not at most) `v`, NaN compared as PyTorch's `<`/`<=` do.
template <class T> __device__ void sets_search(const SetsArgs& p) {
    const T* x = reinterpret_cast<const T*>(p.x);
    const T* boundaries = reinterpret_cast<const T*>(p.boundaries);
    const int64_t* sorter = reinterpret_cast<const int64_t*>(p.sorter);
    int64_t* out = reinterpret_cast<int64_t*>(p.out);
    for (uint64_t i = sets_first(); i < p.n; i += sets_step()) {
        uint64_t l = p.per_line != 0 ? i / p.per_line : 0;
        const T* line = boundaries + l * p.line;
        const int64_t* order = sorter != nullptr ? sorter + l * p.line : nullptr;
        T v = x[i];
        uint64_t start = 0, end = p.line;
        while (start < end) {
            uint64_t mid = start + ((end - start) >> 1);
            T m = order != nullptr ? line[order[mid]] : line[mid];
            bool past = p.right != 0 ? !lt(v, m) : !le(v, m);
            if (past) {
                start = mid + 1;
            } else {
                end = mid;
            }
        }
        out[i] = int64_t(start);
    }
}

// The bin of `q`, the element's place scaled to the bins (`bins` or more
// for the maximum): 0 when it overflowed to infinity (PyTorch converts it
// to INT64_MIN, whose write wraps around to the first bin), else truncated
// and clipped to the last bin.
template <class F> __device__ inline uint64_t histc_place(F q, uint64_t bins) {
    if (!(q - q == F(0))) return 0;  // infinity (NaN never comes)
    uint64_t b = q >= F(18446744073709551616.0) ? ~uint64_t(0) : uint64_t(q);
    return b < bins - 1 ? b : bins - 1;
}
// `(x - lo) * bins / (hi - lo)` in the element type (the half types
// rounded after each step, as PyTorch's and the CPU's).
template <class T> struct HistcBin {
    // (Integer types have no histc: never called.)
    __device__ static uint64_t of(T, double, double, uint64_t) { return 0; }
};
template <> struct HistcBin<float> {
    __device__ static uint64_t of(float x, double lo, double hi, uint64_t bins) {
        float l = float(lo), h = float(hi);
        return histc_place((x - l) * float(bins) / (h - l), bins);
    }
};
template <> struct HistcBin<double> {
    __device__ static uint64_t of(double x, double lo, double hi, uint64_t bins) {
        return histc_place((x - lo) * double(bins) / (hi - lo), bins);
    }
};
#define SHAPED_HISTC_HALF(H, from)                                                       \
    template <> struct HistcBin<H> {                                                     \
        __device__ static float r(float x) { return to_f32(from(x)); }                   \
        __device__ static uint64_t of(H x, double lo, double hi, uint64_t bins) {        \
            float l = float(lo), h = float(hi);                                          \
            float shifted = r(to_f32(x) - l);                                            \
            float scaled = r(shifted * r(float(bins)));                                  \
            return histc_place(r(scaled / r(h - l)), bins);                              \
        }                                                                                \
    };
SHAPED_HISTC_HALF(f16, f16_from)
SHAPED_HISTC_HALF(bf16, bf16_from)
#undef SHAPED_HISTC_HALF

// Bins that a block counts in shared memory before it adds its counts to
// the global ones (one atomic per bin and block instead of one per element:
// 100 bins shared by 16M elements otherwise serialize on their words). The
// launch gives such a histc `bins` words of dynamic shared memory (and no
// other phase any, so that they keep the whole L1 cache);
// `HISTC_SHARED_BINS` in src/backend/cuda/sets.rs mirrors the limit.
#define SHAPED_HISTC_SHARED 4096

template <class T> __device__ void sets_histc(const SetsArgs& p) {
    const T* x = reinterpret_cast<const T*>(p.x);
    unsigned long long* marks = reinterpret_cast<unsigned long long*>(p.marks);
    const double lo = p.min, hi = p.max;
    // The same for every thread of the block: the bins fit, and no block
    // counts 2^32 elements (it takes at most n / gridDim + blockDim).
    const bool private_bins =
        p.bins <= SHAPED_HISTC_SHARED && p.n / gridDim.x < (uint64_t(1) << 31);
#ifdef SHAPED_HOST
    static thread_local unsigned local[SHAPED_HISTC_SHARED];
#else
    extern __shared__ unsigned local[];
#endif
    if (private_bins) {
        for (uint64_t b = threadIdx.x; b < p.bins; b += blockDim.x) local[b] = 0;
        __syncthreads();
    }
    for (uint64_t i = sets_first(); i < p.n; i += sets_step()) {
        double v = real_f64(x[i]);
        // (NaN is neither: left out.)
        if (v >= lo && v <= hi) {
            const uint64_t bin = HistcBin<T>::of(x[i], lo, hi, p.bins);
            if (private_bins) atomicAdd(local + bin, 1u);
            else atomicAdd(marks + bin, 1ull);
        }
    }
    if (private_bins) {
        __syncthreads();
        for (uint64_t b = threadIdx.x; b < p.bins; b += blockDim.x) {
            if (local[b] != 0) atomicAdd(marks + b, (unsigned long long)local[b]);
        }
    }
}

// `c` rounded to its `bits` leading bits (to nearest, ties to even), so
// that a conversion to a narrower float after it is exact: one rounding.
__device__ inline uint64_t round_to_bits(uint64_t c, int bits) {
    int width = 0;
    for (uint64_t v = c; v != 0; v >>= 1) ++width;
    if (width <= bits) return c;
    int drop = width - bits;
    uint64_t kept = c >> drop, rest = c & ((uint64_t(1) << drop) - 1), half = uint64_t(1) << (drop - 1);
    if (rest > half || (rest == half && (kept & 1) != 0)) ++kept;
    return kept << drop;
}
template <class T> struct CountAs {
    __device__ static T of(uint64_t c) { return Make<T>::from(int64_t(c)); }
};
template <> struct CountAs<float> {
    __device__ static float of(uint64_t c) { return float(c); }
};
template <> struct CountAs<double> {
    __device__ static double of(uint64_t c) { return double(c); }
};
template <> struct CountAs<f16> {
    __device__ static f16 of(uint64_t c) { return f16_from(float(round_to_bits(c, 11))); }
};
template <> struct CountAs<bf16> {
    __device__ static bf16 of(uint64_t c) { return bf16_from(float(round_to_bits(c, 8))); }
};

template <class T> __device__ void sets_to_float(const SetsArgs& p) {
    const uint64_t* marks = reinterpret_cast<const uint64_t*>(p.marks);
    T* values = reinterpret_cast<T*>(p.values);
    for (uint64_t b = sets_first(); b < p.n; b += sets_step()) values[b] = CountAs<T>::of(marks[b]);
}

template <class T> __device__ void sets_column(const SetsArgs& p) {
    T* values = reinterpret_cast<T*>(p.values);
    for (uint64_t i = sets_first(); i < p.n; i += sets_step()) values[i] = sets_row<T>(p, i)[p.column];
}

__device__ inline void sets_permute(const SetsArgs& p) {
    const int64_t* order = reinterpret_cast<const int64_t*>(p.order);
    const int64_t* positions = reinterpret_cast<const int64_t*>(p.positions);
    int64_t* out = reinterpret_cast<int64_t*>(p.out);
    for (uint64_t i = sets_first(); i < p.n; i += sets_step()) {
        out[i] = order != nullptr ? order[positions[i]] : positions[i];
    }
}

template <class T> __device__ void sets(const SetsArgs& p) {
    switch (p.phase) {
        case SETS_HEADS: sets_heads<T>(p); break;
        case SETS_GATHER: sets_gather<T>(p); break;
        case SETS_COUNTS: sets_counts(p); break;
        case SETS_HISTOGRAM: sets_histogram<T>(p); break;
        case SETS_PRESENT: sets_present(p); break;
        case SETS_COUNTED: sets_counted<T>(p); break;
        case SETS_LOOKUP: sets_lookup<T>(p); break;
        case SETS_SEARCH: sets_search<T>(p); break;
        case SETS_HISTC: sets_histc<T>(p); break;
        case SETS_TO_FLOAT: sets_to_float<T>(p); break;
        case SETS_COLUMN: sets_column<T>(p); break;
        case SETS_PERMUTE: sets_permute(p); break;
        default: break;
    }
}

}  // namespace shaped

#ifdef SHAPED_HOST
#define SHAPED_SETS_BOUNDS
#else
#define SHAPED_SETS_BOUNDS __launch_bounds__(SHAPED_SETS_BLOCK)
#endif
#define SHAPED_SETS_KERNELS(name, T)                                                         \
    extern "C" __global__ void SHAPED_SETS_BOUNDS shaped_sets_##name(shaped::SetsArgs p) {   \
        shaped::sets<T>(p);                                                                  \
    }
