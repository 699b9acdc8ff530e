// `sort`, `argsort`, `msort` and `topk` on the device (src/ops/sorting/),
// one kernel per sortable type (`shaped_sort_<dtype>`, every dtype but the
// complex ones), the phase chosen by the arguments.
//
// The input is dense with the sorted dim last (the host copies any other
// layout first): `lines` lines of `n` elements, line l at l * n. Each
// element becomes an item: its key, whose unsigned order is PyTorch's (the
// CPU backend's `SortKey`: integers with the sign bit flipped, floats by
// their bits with -0.0 as 0.0 and every NaN as the largest key, bool 0/1;
// inverted for a descending sort), joined with its position in the line.
// Items are all distinct and ordered by (key, position), so any correct
// sort of the items is the stable sort of the elements: equal keys keep
// their order in both directions.
//
// - SORT_TILES: each block sorts tiles of SHAPED_SORT_TILE items in shared
//   memory by a bitonic network. A tile is cut into segments of `width`
//   items (a power of two, the tile itself when lines are longer), each a
//   piece of one line padded with items above every real one, so that a
//   block sorts many short lines at once; the network of each stage runs
//   every segment in its own direction until the last stage, ascending.
// - SORT_MERGE: the runs of `width` sorted items of each line merge in
//   pairs into runs of 2 * width (the last ones clipped to the line's end).
//   Each item finds its place alone: its rank in its run plus the number
//   of items of the other run below it (a binary search). No atomics and
//   no scan: the result does not depend on the order threads run in. For
//   `topk` only the first k items of each run are merged.
// - SORT_WRITE: the first `k` items of each line (k = n for a sort) give
//   the int64 indices and, where wanted, the values: the input's elements
//   at those positions (so -0.0 and NaN payloads stay as they were).
// - SORT_PICK (kthvalue, median, nanmedian, mode; src/backend/cuda/order.rs)
//   and SORT_QUANTILE (quantile, nanquantile) take the place of SORT_WRITE:
//   a thread per line (per quantile) reads the line's sorted items. NaNs
//   sort last, so their count is a binary search; `mode` scans the runs of
//   equal keys (so -0.0 equals 0.0). The values are the input's elements at
//   the chosen positions; a quantile between two of them is PyTorch's lerp
//   with fused multiply-adds, in the element type, as the CPU's.
//
// The threads of a block meet only at __syncthreads (no warp shuffles), so
// that the host build (host_shim.h) runs the same code.
#pragma once

#include "elementwise.cuh"

#define SHAPED_SORT_BLOCK 256
#define SHAPED_SORT_TILE 2048

// The types `sort` takes (the Rust `SortKey`): every dtype but complex.
#define SHAPED_FOR_EACH_SORTABLE(X) SHAPED_FOR_EACH_REAL(X)

namespace shaped {

enum { SORT_TILES = 0, SORT_MERGE = 1, SORT_WRITE = 2, SORT_PICK = 3, SORT_QUANTILE = 4 };
// SORT_PICK's statistic (the CPU's `Statistic`).
enum { STAT_KTH = 0, STAT_MEDIAN = 1, STAT_NANMEDIAN = 2, STAT_MODE = 3 };
// SORT_QUANTILE's interpolation (the CPU's `Interpolation`).
enum { INTERP_LINEAR = 0, INTERP_LOWER = 1, INTERP_HIGHER = 2, INTERP_MIDPOINT = 3, INTERP_NEAREST = 4 };

// Mirrors `SortArgs` in src/backend/cuda/sort.rs (repr(C)).
struct SortArgs {
    uint64_t x;        // the input (T, dense, the sorted dim last)
    uint64_t from;     // the items read (SORT_MERGE, SORT_WRITE)
    uint64_t to;       // the items written (SORT_TILES, SORT_MERGE)
    uint64_t values;   // SORT_WRITE: k values per line (T), or 0: none wanted
    uint64_t indices;  // SORT_WRITE: k int64 indices per line
    uint64_t lines, n;
    uint64_t width;    // SORT_TILES: items per segment; SORT_MERGE: run length
    uint64_t k;        // the items wanted of each line (n for a sort), at most n
    int32_t descending;
    int32_t phase;     // SORT_TILES, SORT_MERGE, SORT_WRITE, SORT_PICK or SORT_QUANTILE
    uint64_t q;        // SORT_QUANTILE: the quantiles (double), rounded to T
    uint64_t quantiles;  // SORT_QUANTILE: how many (values: lines * quantiles)
    uint64_t place;    // SORT_PICK with STAT_KTH: the place wanted (< k)
    int32_t statistic;     // SORT_PICK: STAT_*
    int32_t interpolation; // SORT_QUANTILE: INTERP_*
    int32_t ignore_nan;    // SORT_QUANTILE: nanquantile
    int32_t pad;
};

// An item of a key of 64 bits: the key, then the position.
struct WideItem {
    uint64_t key;
    uint32_t pos;
    uint32_t pad;
};

// An item of a key of up to 32 bits: the key above the position, so that
// one comparison of 64-bit words orders by (key, position).
__host__ __device__ inline uint64_t make_item(uint32_t key, uint32_t pos) {
    return uint64_t(key) << 32 | pos;
}
__host__ __device__ inline WideItem make_item(uint64_t key, uint32_t pos) {
    WideItem w = {key, pos, 0};
    return w;
}
__host__ __device__ inline bool item_less(uint64_t a, uint64_t b) { return a < b; }
__host__ __device__ inline bool item_less(const WideItem& a, const WideItem& b) {
    return a.key < b.key || (a.key == b.key && a.pos < b.pos);
}
__host__ __device__ inline uint32_t item_pos(uint64_t a) { return uint32_t(a); }
__host__ __device__ inline uint32_t item_pos(const WideItem& a) { return a.pos; }
__host__ __device__ inline uint64_t item_key(uint64_t a) { return a >> 32; }
__host__ __device__ inline uint64_t item_key(const WideItem& a) { return a.key; }
// Above every real item (a position is at most 2^32 - 2).
__host__ __device__ inline void item_pad(uint64_t& a) { a = ~uint64_t(0); }
__host__ __device__ inline void item_pad(WideItem& a) {
    a.key = ~uint64_t(0);
    a.pos = ~uint32_t(0);
    a.pad = 0;
}

// The key of an integer: its bits with the sign bit flipped (unsigned
// types as they are).
template <class T> struct SortKeyOf {
    typedef uint32_t Key;
    __host__ __device__ static Key key(T x) { return uint32_t(raw_bits(x)); }
    // Whether `k` is a NaN's key (never, but for floats).
    __host__ __device__ static bool nan(uint64_t) { return false; }
};
#define SHAPED_INT_SORT_KEY(T, K, flip_)                                            \
    template <> struct SortKeyOf<T> {                                              \
        typedef K Key;                                                             \
        __host__ __device__ static Key key(T x) { return K(raw_bits(x)) ^ K(flip_); } \
        __host__ __device__ static bool nan(uint64_t) { return false; }                \
    };
SHAPED_INT_SORT_KEY(int8_t, uint32_t, 0x80u)
SHAPED_INT_SORT_KEY(int16_t, uint32_t, 0x8000u)
SHAPED_INT_SORT_KEY(int32_t, uint32_t, 0x80000000u)
SHAPED_INT_SORT_KEY(int64_t, uint64_t, uint64_t(1) << 63)
#undef SHAPED_INT_SORT_KEY

// The key of a float from its bits (`sign` its sign bit, `infinity` the
// bits of +inf): every NaN the largest key of the width, both zeros 0.0's,
// negative numbers inverted, the others with the sign bit set.
template <class K> __host__ __device__ inline K float_key(K bits, K sign, K infinity) {
    const K all = sign | (sign - 1);
    K magnitude = bits & (sign - 1);
    if (magnitude > infinity) return all;
    if (magnitude == 0) return sign;
    return (bits & sign) != 0 ? K(~bits & all) : K(bits | sign);
}
#define SHAPED_FLOAT_SORT_KEY(T, K, sign, infinity)                                 \
    template <> struct SortKeyOf<T> {                                              \
        typedef K Key;                                                             \
        __host__ __device__ static Key key(T x) {                                  \
            return float_key<K>(K(raw_bits(x)), K(sign), K(infinity));             \
        }                                                                          \
        __host__ __device__ static bool nan(uint64_t k) {                          \
            return k == uint64_t(K(sign) | K(K(sign) - 1));                        \
        }                                                                          \
    };
SHAPED_FLOAT_SORT_KEY(f16, uint32_t, 0x8000u, 0x7c00u)
SHAPED_FLOAT_SORT_KEY(bf16, uint32_t, 0x8000u, 0x7f80u)
SHAPED_FLOAT_SORT_KEY(float, uint32_t, 0x80000000u, 0x7f800000u)
SHAPED_FLOAT_SORT_KEY(double, uint64_t, uint64_t(1) << 63, uint64_t(0x7ff0000000000000ull))
#undef SHAPED_FLOAT_SORT_KEY

// The items of T: uint64_t or WideItem.
template <class T> struct ItemOf {
    typedef decltype(make_item(typename SortKeyOf<T>::Key(0), uint32_t(0))) Type;
};

// The item of element `x` at `pos` (its key inverted for a descending sort).
template <class T>
__host__ __device__ inline typename ItemOf<T>::Type item_of(T x, uint32_t pos, bool descending) {
    typename SortKeyOf<T>::Key key = SortKeyOf<T>::key(x);
    return make_item(descending ? typename SortKeyOf<T>::Key(~key) : key, pos);
}

// SORT_TILES: a block per tile of SHAPED_SORT_TILE items at a time, in
// segments of `width` (a power of two): segment s is piece s % pieces of
// line s / pieces, where pieces = ceil(n / width).
template <class T> __device__ void sort_tiles(const SortArgs& p, typename ItemOf<T>::Type* tile) {
    typedef typename ItemOf<T>::Type Item;
    const T* x = reinterpret_cast<const T*>(p.x);
    Item* to = reinterpret_cast<Item*>(p.to);
    const uint64_t width = p.width, per_tile = SHAPED_SORT_TILE / width;
    const uint64_t pieces = (p.n + width - 1) / width, segments = p.lines * pieces;
    const uint64_t tiles = (segments + per_tile - 1) / per_tile;
    const unsigned threads = blockDim.x;
    for (uint64_t t = blockIdx.x; t < tiles; t += gridDim.x) {
        // Load: the slot q of the tile holds element `at` of `line`, or a pad.
        for (unsigned q = threadIdx.x; q < SHAPED_SORT_TILE; q += threads) {
            uint64_t segment = t * per_tile + q / width;
            uint64_t line = segment / pieces;
            uint64_t at = (segment - line * pieces) * width + q % width;
            Item item;
            item_pad(item);
            if (segment < segments && at < p.n) item = item_of(x[line * p.n + at], uint32_t(at), p.descending != 0);
            tile[q] = item;
        }
        __syncthreads();
        // The bitonic network; the last stage of each segment ascending.
        for (unsigned size = 2; size <= width; size *= 2) {
            for (unsigned stride = size / 2; stride > 0; stride /= 2) {
                for (unsigned pair = threadIdx.x; pair < SHAPED_SORT_TILE / 2; pair += threads) {
                    unsigned low = pair / stride * 2 * stride + pair % stride;
                    unsigned high = low + stride;
                    bool ascending = size == width || (low & size) == 0;
                    Item a = tile[low], b = tile[high];
                    if (item_less(b, a) == ascending) {
                        tile[low] = b;
                        tile[high] = a;
                    }
                }
                __syncthreads();
            }
        }
        for (unsigned q = threadIdx.x; q < SHAPED_SORT_TILE; q += threads) {
            uint64_t segment = t * per_tile + q / width;
            uint64_t line = segment / pieces;
            uint64_t at = (segment - line * pieces) * width + q % width;
            if (segment < segments && at < p.n) to[line * p.n + at] = tile[q];
        }
        // (The next tile loads into the same memory.)
        __syncthreads();
    }
}

// The items of `run[0..len)` below `item` (the runs are sorted).
template <class Item>
__device__ inline uint64_t count_below(const Item* run, uint64_t len, const Item& item) {
    uint64_t lo = 0, hi = len;
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (item_less(run[mid], item)) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

// SORT_MERGE: a thread per item. Only the first k items of each merged
// run are wanted (k = n for a sort): an item at rank k or later in its run
// cannot be among them, and needs only the first k of the other run to
// find its place (a count below k is exact there). So `topk` merges k
// items per run, and the rest of each run is never written nor read.
template <class T> __device__ void sort_merge(const SortArgs& p) {
    typedef typename ItemOf<T>::Type Item;
    const Item* from = reinterpret_cast<const Item*>(p.from);
    Item* to = reinterpret_cast<Item*>(p.to);
    const uint64_t total = p.lines * p.n, width = p.width;
    const uint64_t step = uint64_t(blockDim.x) * gridDim.x;
    for (uint64_t g = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; g < total; g += step) {
        uint64_t line = g / p.n, i = g - line * p.n;
        const Item* base = from + line * p.n;
        uint64_t run = i / width;
        uint64_t begin = (run & ~uint64_t(1)) * width;  // the pair's left run
        uint64_t middle = begin + width < p.n ? begin + width : p.n;
        uint64_t end = middle + width < p.n ? middle + width : p.n;
        bool left = (run & 1) == 0;
        uint64_t rank = left ? i - begin : i - middle;
        if (rank >= p.k) continue;
        uint64_t other = left ? end - middle : middle - begin;
        if (other > p.k) other = p.k;
        Item item = base[i];
        uint64_t place = rank + count_below(base + (left ? middle : begin), other, item);
        if (place < p.k) to[line * p.n + begin + place] = item;
    }
}

// SORT_WRITE: a thread per output.
template <class T> __device__ void sort_write(const SortArgs& p) {
    typedef typename ItemOf<T>::Type Item;
    const T* x = reinterpret_cast<const T*>(p.x);
    const Item* from = reinterpret_cast<const Item*>(p.from);
    T* values = reinterpret_cast<T*>(p.values);
    int64_t* indices = reinterpret_cast<int64_t*>(p.indices);
    const uint64_t total = p.lines * p.k;
    const uint64_t step = uint64_t(blockDim.x) * gridDim.x;
    for (uint64_t g = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; g < total; g += step) {
        uint64_t line = g / p.k, j = g - line * p.k;
        uint32_t pos = item_pos(from[line * p.n + j]);
        indices[g] = int64_t(pos);
        if (values != nullptr) values[g] = x[line * p.n + pos];
    }
}

// The numbers of a sorted line of `n` items: the items before its first
// NaN (NaN's key is the largest, so NaNs come last).
template <class T>
__device__ inline uint64_t count_numbers(const typename ItemOf<T>::Type* items, uint64_t n) {
    uint64_t lo = 0, hi = n;
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (!SortKeyOf<T>::nan(item_key(items[mid]))) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

// SORT_PICK: a thread per line writes the position of its statistic and
// the input's element there. The places are those of the CPU's `pick`.
template <class T> __device__ void sort_pick(const SortArgs& p) {
    typedef typename ItemOf<T>::Type Item;
    const T* x = reinterpret_cast<const T*>(p.x);
    const Item* from = reinterpret_cast<const Item*>(p.from);
    T* values = reinterpret_cast<T*>(p.values);
    int64_t* indices = reinterpret_cast<int64_t*>(p.indices);
    const uint64_t step = uint64_t(blockDim.x) * gridDim.x;
    for (uint64_t line = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; line < p.lines; line += step) {
        const Item* items = from + line * p.n;
        uint32_t pos;
        if (p.statistic == STAT_MODE) {
            // The longest run of equal keys, the first (smallest) of the
            // longest ones; its last item has its last position.
            uint64_t best = 0, start = 0;
            pos = 0;
            while (start < p.n) {
                uint64_t key = item_key(items[start]), end = start + 1;
                while (end < p.n && item_key(items[end]) == key) ++end;
                if (end - start > best) {
                    best = end - start;
                    pos = item_pos(items[end - 1]);
                }
                start = end;
            }
        } else {
            uint64_t place = p.place;
            if (p.statistic == STAT_MEDIAN) {
                // The first NaN (NaNs are in the order of their positions).
                uint64_t numbers = count_numbers<T>(items, p.n);
                place = numbers < p.n ? numbers : (p.n - 1) / 2;
            } else if (p.statistic == STAT_NANMEDIAN) {
                uint64_t numbers = count_numbers<T>(items, p.n);
                place = numbers == 0 ? 0 : (numbers - 1) / 2;
            }
            pos = item_pos(items[place]);
        }
        indices[line] = int64_t(pos);
        values[line] = x[line * p.n + pos];
    }
}

// PyTorch's lerp (the CPU's `QuantileFloat::lerp`): in the element type,
// one rounding per fused multiply-add. Only float and double take
// quantiles; the others are never asked.
template <class T> struct QuantileLerp {
    __host__ __device__ static T lerp(T below, T, double) { return below; }
};
template <> struct QuantileLerp<float> {
    __host__ __device__ static float lerp(float below, float above, double weight) {
        float w = float(weight);
        return ::fabsf(w) < 0.5f ? ::fmaf(w, above - below, below)
                                 : ::fmaf(below - above, 1.0f - w, above);
    }
};
template <> struct QuantileLerp<double> {
    __host__ __device__ static double lerp(double below, double above, double weight) {
        double w = weight;
        return ::fabs(w) < 0.5 ? ::fma(w, above - below, below) : ::fma(below - above, 1.0 - w, above);
    }
};

// SORT_QUANTILE: a thread per (line, quantile), laid out [lines, quantiles];
// the ranks are the CPU's `quantiles`, in double.
template <class T> __device__ void sort_quantile(const SortArgs& p) {
    typedef typename ItemOf<T>::Type Item;
    const T* x = reinterpret_cast<const T*>(p.x);
    const Item* from = reinterpret_cast<const Item*>(p.from);
    const double* qs = reinterpret_cast<const double*>(p.q);
    T* values = reinterpret_cast<T*>(p.values);
    const uint64_t total = p.lines * p.quantiles;
    const uint64_t step = uint64_t(blockDim.x) * gridDim.x;
    for (uint64_t g = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; g < total; g += step) {
        uint64_t line = g / p.quantiles;
        const Item* items = from + line * p.n;
        const T* xs = x + line * p.n;
        double q = qs[g - line * p.quantiles];
        uint64_t numbers = count_numbers<T>(items, p.n);
        double rank;
        if (p.ignore_nan != 0) {
            rank = q * (double(numbers) - 1.0);
            if (rank < 0.0) rank = 0.0;
        } else if (numbers < p.n) {
            rank = double(p.n - 1);  // a NaN: the last place holds one
        } else {
            rank = q * double(p.n - 1);
        }
        switch (p.interpolation) {
            case INTERP_LOWER: rank = ::floor(rank); break;
            case INTERP_HIGHER: rank = ::ceil(rank); break;
            case INTERP_NEAREST: rank = ::rint(rank); break;  // halves to even
            default: break;
        }
        uint64_t below_at = uint64_t(rank);
        T value = xs[item_pos(items[below_at])];
        if (p.interpolation == INTERP_LINEAR || p.interpolation == INTERP_MIDPOINT) {
            T above = xs[item_pos(items[uint64_t(::ceil(rank))])];
            double weight = p.interpolation == INTERP_MIDPOINT ? 0.5 : rank - double(below_at);
            value = QuantileLerp<T>::lerp(value, above, weight);
        }
        values[g] = value;
    }
}

template <class T> __device__ void sort(const SortArgs& p) {
    // A tile of items of at most 16 bytes.
    __shared__ uint64_t raw[2 * SHAPED_SORT_TILE];
    typedef typename ItemOf<T>::Type Item;
    static_assert(sizeof(Item) <= 16, "a tile's items fit its shared memory");
    switch (p.phase) {
        case SORT_TILES: sort_tiles<T>(p, reinterpret_cast<Item*>(raw)); break;
        case SORT_MERGE: sort_merge<T>(p); break;
        case SORT_WRITE: sort_write<T>(p); break;
        case SORT_PICK: sort_pick<T>(p); break;
        case SORT_QUANTILE: sort_quantile<T>(p); break;
        default: break;
    }
}

}  // namespace shaped

#ifdef SHAPED_HOST
#define SHAPED_SORT_BOUNDS
#else
#define SHAPED_SORT_BOUNDS __launch_bounds__(SHAPED_SORT_BLOCK)
#endif
#define SHAPED_SORT_KERNELS(name, T)                                                         \
    extern "C" __global__ void SHAPED_SORT_BOUNDS shaped_sort_##name(shaped::SortArgs p) {   \
        shaped::sort<T>(p);                                                                  \
    }
