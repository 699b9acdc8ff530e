// The host side of host_shim.h: the kernels compiled as C++, and a launcher
// that runs a kernel by name over every block and thread of a grid.
#define SHAPED_HOST
#include "elementwise.cu"
#include "math.cu"

thread_local shaped_dim3 threadIdx, blockIdx, blockDim, gridDim;

namespace {
typedef void (*Kernel)(shaped::Args);
struct Entry { const char* name; Kernel kernel; };
#define SHAPED_ENTRIES(name, T, numeric)         \
    {"shaped_arith_" #name, shaped_arith_##name},     \
    {"shaped_compare_" #name, shaped_compare_##name}, \
    {"shaped_unary_" #name, shaped_unary_##name},     \
    {"shaped_cast_" #name, shaped_cast_##name},       \
    {"shaped_promoted_" #name, shaped_promoted_##name}, \
    {"shaped_math_" #name, shaped_math_##name},
const Entry KERNELS[] = {SHAPED_FOR_EACH_DTYPE(SHAPED_ENTRIES)};
#undef SHAPED_ENTRIES
}  // namespace

// Runs kernel `name` with `args` on a grid of `grid` blocks of `block`
// threads, one thread after the other. Returns 0, or 1 for an unknown name.
extern "C" int shaped_host_launch(const char* name, unsigned grid, unsigned block,
                                  const shaped::Args* args) {
    for (const Entry& e : KERNELS) {
        if (strcmp(e.name, name) != 0) continue;
        gridDim = shaped_dim3{grid, 1, 1};
        blockDim = shaped_dim3{block, 1, 1};
        for (unsigned b = 0; b < grid; ++b) {
            for (unsigned t = 0; t < block; ++t) {
                blockIdx = shaped_dim3{b, 0, 0};
                threadIdx = shaped_dim3{t, 0, 0};
                e.kernel(*args);
            }
        }
        return 0;
    }
    return 1;
}

// The layout of `shaped::Args` as this compiler sees it, for the test that
// checks the Rust mirror: size, then the offsets of numel, sizes, out, a, b,
// scalar, rank, op, vec, out_dtype, a_dtype and b_dtype.
extern "C" void shaped_host_args_layout(uint64_t* out) {
    out[0] = sizeof(shaped::Args);
    out[1] = offsetof(shaped::Args, numel);
    out[2] = offsetof(shaped::Args, sizes);
    out[3] = offsetof(shaped::Args, out);
    out[4] = offsetof(shaped::Args, a);
    out[5] = offsetof(shaped::Args, b);
    out[6] = offsetof(shaped::Args, scalar);
    out[7] = offsetof(shaped::Args, rank);
    out[8] = offsetof(shaped::Args, op);
    out[9] = offsetof(shaped::Args, vec);
    out[10] = offsetof(shaped::Args, out_dtype);
    out[11] = offsetof(shaped::Args, a_dtype);
    out[12] = offsetof(shaped::Args, b_dtype);
}
