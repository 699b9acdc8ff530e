// Matrix products on the device: one tiled kernel per element type
// (`shaped_matmul_<dtype>`) for a batch of `m x k` times `k x n` products
// (src/ops/matmul/plan.rs: operands read in place through their row, column
// and batch strides, broadcast batches with stride 0) into a contiguous
// output.
//
// A block of TILE x TILE threads computes one TILE x TILE tile of one
// product's output, one element per thread: for each TILE-wide slice of k,
// the block loads the slice of a's rows and of b's columns into shared
// memory (each thread one element of each, converted to the accumulator),
// synchronizes, and each thread adds its row times its column. The grid
// strides over every tile of every product. Half types accumulate in f32
// and round once, as the CPU backend's product; integers wrap.
//
// This is the textbook shared-memory kernel, chosen because the same source
// runs on the host in the tests (threads as fibers at each __syncthreads);
// it reaches a small part of a GPU's peak, where cuBLAS (tensor cores, not
// runnable without a GPU, no integer types) would reach most of it.
#pragma once

#include "elementwise.cuh"

#define SHAPED_MATMUL_TILE 16

namespace shaped {

// Mirrors `MatmulArgs` in src/storage/cuda/matmul.rs (repr(C)).
struct MatmulArgs {
    uint64_t a;    // address of a's first element of the first product
    uint64_t b;    // the same for b
    uint64_t out;  // the contiguous output: count products of m x n
    uint64_t m, k, n;
    uint64_t a_rows, a_cols, b_rows, b_cols;  // strides, in elements
    uint64_t batch[SHAPED_MAX_RANK];          // the batch's sizes
    uint64_t a_batch[SHAPED_MAX_RANK];        // a's strides along them (0: broadcast)
    uint64_t b_batch[SHAPED_MAX_RANK];
    uint64_t count;      // products (the batch's element count)
    int32_t batch_rank;  // 0 for one product
};

// What a product accumulates in: f32 for the half types (rounded once at
// the end), the element type otherwise.
template <class T> struct ProductOf {
    typedef T Acc;
    __host__ __device__ static Acc to(T x) { return x; }
    __host__ __device__ static T out(Acc a) { return a; }
};
template <> struct ProductOf<f16> {
    typedef float Acc;
    __host__ __device__ static Acc to(f16 x) { return to_f32(x); }
    __host__ __device__ static f16 out(Acc a) { return f16_from(a); }
};
template <> struct ProductOf<bf16> {
    typedef float Acc;
    __host__ __device__ static Acc to(bf16 x) { return to_f32(x); }
    __host__ __device__ static bf16 out(Acc a) { return bf16_from(a); }
};

template <class T> __device__ void matmul(const MatmulArgs& p) {
    typedef ProductOf<T> P;
    typedef typename P::Acc Acc;
    const unsigned TILE = SHAPED_MATMUL_TILE;
    // One column more than the tile: the threads of a warp read a column of
    // `a_tile` from different banks.
    __shared__ Acc a_tile[SHAPED_MATMUL_TILE][SHAPED_MATMUL_TILE + 1];
    __shared__ Acc b_tile[SHAPED_MATMUL_TILE][SHAPED_MATMUL_TILE + 1];
    const T* a = reinterpret_cast<const T*>(p.a);
    const T* b = reinterpret_cast<const T*>(p.b);
    T* out = reinterpret_cast<T*>(p.out);
    const unsigned tx = threadIdx.x % TILE, ty = threadIdx.x / TILE;
    const uint64_t tiles_m = (p.m + TILE - 1) / TILE, tiles_n = (p.n + TILE - 1) / TILE;
    const uint64_t tiles = tiles_m * tiles_n;
    const Acc zero = convert<Acc>(int64_t(0));
    // Every thread of a block runs the same rounds (the __syncthreads below
    // are reached by all of them).
    for (uint64_t w = blockIdx.x; w < p.count * tiles; w += gridDim.x) {
        const uint64_t product = w / tiles, tile = w % tiles;
        uint64_t ao = 0, bo = 0, rest = product;
        for (int d = p.batch_rank - 1; d >= 0; --d) {
            uint64_t q = rest / p.batch[d];
            uint64_t at = rest - q * p.batch[d];
            rest = q;
            ao += at * p.a_batch[d];
            bo += at * p.b_batch[d];
        }
        const uint64_t row = (tile / tiles_n) * TILE + ty, col = (tile % tiles_n) * TILE + tx;
        Acc acc = zero;
        for (uint64_t k0 = 0; k0 < p.k; k0 += TILE) {
            const uint64_t ka = k0 + tx, kb = k0 + ty;
            a_tile[ty][tx] = row < p.m && ka < p.k ? P::to(a[ao + row * p.a_rows + ka * p.a_cols]) : zero;
            b_tile[ty][tx] = kb < p.k && col < p.n ? P::to(b[bo + kb * p.b_rows + col * p.b_cols]) : zero;
            __syncthreads();
            const uint64_t depth = p.k - k0 < TILE ? p.k - k0 : TILE;
            for (unsigned kk = 0; kk < depth; ++kk) acc = add(acc, mul(a_tile[ty][kk], b_tile[kk][tx]));
            __syncthreads();
        }
        if (row < p.m && col < p.n) out[product * p.m * p.n + row * p.n + col] = P::out(acc);
    }
}

}  // namespace shaped

#ifdef SHAPED_HOST
#define SHAPED_MATMUL_BOUNDS
#else
#define SHAPED_MATMUL_BOUNDS __launch_bounds__(SHAPED_MATMUL_TILE * SHAPED_MATMUL_TILE)
#endif
#define SHAPED_MATMUL_KERNELS(name, T, numeric)                                                \
    extern "C" __global__ void SHAPED_MATMUL_BOUNDS shaped_matmul_##name(shaped::MatmulArgs p) { \
        shaped::matmul<T>(p);                                                                  \
    }
