// The host side of host_shim.h: the kernels compiled as C++, and launchers
// that run a kernel by name over every block and thread of a grid.
#define SHAPED_HOST
#include "elementwise.cu"
#include "math.cu"
#include "special.cu"
#include "reduce.cu"
#include "select.cu"
#include "matmul.cu"
#include "indexing.cu"
#include "scan.cu"
#include "sort.cu"
#include "sets.cu"
#include "random.cu"

#include <ucontext.h>
#include <vector>

thread_local shaped_dim3 threadIdx, blockIdx, blockDim, gridDim;

namespace {
// A kernel by name, taking its argument block `A`.
template <class A> struct Entry {
    const char* name;
    void (*kernel)(A);
};
#define SHAPED_ENTRIES(name, T, numeric)         \
    {"shaped_arith_" #name, shaped_arith_##name},     \
    {"shaped_compare_" #name, shaped_compare_##name}, \
    {"shaped_unary_" #name, shaped_unary_##name},     \
    {"shaped_cast_" #name, shaped_cast_##name},       \
    {"shaped_promoted_" #name, shaped_promoted_##name}, \
    {"shaped_math_" #name, shaped_math_##name},       \
    {"shaped_special_" #name, shaped_special_##name},
const Entry<shaped::Args> KERNELS[] = {SHAPED_FOR_EACH_DTYPE(SHAPED_ENTRIES)};
#undef SHAPED_ENTRIES
}  // namespace

namespace {
#define SHAPED_WHERE_ENTRIES(name, T, numeric) {"shaped_where_" #name, shaped_where_##name},
const Entry<shaped::WhereArgs> WHERE_KERNELS[] = {SHAPED_FOR_EACH_DTYPE(SHAPED_WHERE_ENTRIES)};
#undef SHAPED_WHERE_ENTRIES
#define SHAPED_RANDOM_ENTRIES(name, T, numeric) {"shaped_random_" #name, shaped_random_##name},
#define SHAPED_DRAW_ENTRIES(name, T) {"shaped_draw_" #name, shaped_draw_##name},
#define SHAPED_POISSON_ENTRIES(name, T, numeric) {"shaped_poisson_" #name, shaped_poisson_##name},
const Entry<shaped::RandomArgs> RANDOM_KERNELS[] = {
    SHAPED_FOR_EACH_FLOATING(SHAPED_RANDOM_ENTRIES) SHAPED_FOR_EACH_REAL(SHAPED_DRAW_ENTRIES)
        SHAPED_FOR_EACH_FLOATING(SHAPED_POISSON_ENTRIES)};
#undef SHAPED_RANDOM_ENTRIES
#undef SHAPED_DRAW_ENTRIES
#undef SHAPED_POISSON_ENTRIES
#define SHAPED_REARRANGE_ENTRIES(name, W) {"shaped_rearrange_" #name, shaped_rearrange_##name},
const Entry<shaped::RearrangeArgs> REARRANGE_KERNELS[] = {
    SHAPED_FOR_EACH_WIDTH(SHAPED_REARRANGE_ENTRIES)};
#undef SHAPED_REARRANGE_ENTRIES
#define SHAPED_TERNARY_ENTRIES(name, T, numeric) {"shaped_ternary_" #name, shaped_ternary_##name},
const Entry<shaped::TernaryArgs> TERNARY_KERNELS[] = {
    SHAPED_FOR_EACH_DTYPE(SHAPED_TERNARY_ENTRIES)};
#undef SHAPED_TERNARY_ENTRIES

// The entry of `table` named `name`, or null.
template <class A, size_t N>
const Entry<A>* find(const Entry<A> (&table)[N], const char* name) {
    for (const Entry<A>& e : table) {
        if (strcmp(e.name, name) == 0) return &e;
    }
    return nullptr;
}

// Runs the kernel of `table` named `name` with `args` on a grid of `grid`
// blocks of `block` threads, one thread after the other (for kernels that
// never synchronize). Returns 0, or 1 for an unknown name.
template <class A, size_t N>
int run_sequential(const Entry<A> (&table)[N], const char* name, unsigned grid, unsigned block,
                   const A* args) {
    const Entry<A>* e = find(table, name);
    if (e == nullptr) return 1;
    gridDim = shaped_dim3{grid, 1, 1};
    blockDim = shaped_dim3{block, 1, 1};
    for (unsigned b = 0; b < grid; ++b) {
        for (unsigned t = 0; t < block; ++t) {
            blockIdx = shaped_dim3{b, 0, 0};
            threadIdx = shaped_dim3{t, 0, 0};
            e->kernel(*args);
        }
    }
    return 0;
}
}  // namespace

// Runs elementwise kernel `name` (see run_sequential).
extern "C" int shaped_host_launch(const char* name, unsigned grid, unsigned block,
                                  const shaped::Args* args) {
    return run_sequential(KERNELS, name, grid, block, args);
}

namespace {
#define SHAPED_GATHER_ENTRIES(name, T, numeric) {"shaped_gather_" #name, shaped_gather_##name},
const Entry<shaped::GatherArgs> GATHER_KERNELS[] = {SHAPED_FOR_EACH_DTYPE(SHAPED_GATHER_ENTRIES)};
#undef SHAPED_GATHER_ENTRIES
}  // namespace

#define SHAPED_SCATTER_ENTRIES(name, T, numeric) {"shaped_scatter_" #name, shaped_scatter_##name}, \
    {"shaped_combine_" #name, shaped_combine_##name},
namespace {
const Entry<shaped::ScatterArgs> SCATTER_KERNELS[] = {SHAPED_FOR_EACH_DTYPE(SHAPED_SCATTER_ENTRIES)};
}  // namespace
#undef SHAPED_SCATTER_ENTRIES

#define SHAPED_COMPACT_ENTRIES(name, T, numeric) {"shaped_compact_" #name, shaped_compact_##name},
namespace {
const Entry<shaped::CompactArgs> COMPACT_KERNELS[] = {SHAPED_FOR_EACH_DTYPE(SHAPED_COMPACT_ENTRIES)};
}  // namespace
#undef SHAPED_COMPACT_ENTRIES

// Runs scatter kernel `name` (see run_sequential).
extern "C" int shaped_host_scatter_launch(const char* name, unsigned grid, unsigned block,
                                          const shaped::ScatterArgs* args) {
    return run_sequential(SCATTER_KERNELS, name, grid, block, args);
}

// The layout of `shaped::ScatterArgs`: size, then the offsets of sizes, out,
// src, index, dim_stride, value, rank, op, src_scalar, narrow and shift.
extern "C" void shaped_host_scatter_args_layout(uint64_t* out) {
    out[0] = sizeof(shaped::ScatterArgs);
    out[1] = offsetof(shaped::ScatterArgs, sizes);
    out[2] = offsetof(shaped::ScatterArgs, out);
    out[3] = offsetof(shaped::ScatterArgs, src);
    out[4] = offsetof(shaped::ScatterArgs, index);
    out[5] = offsetof(shaped::ScatterArgs, dim_stride);
    out[6] = offsetof(shaped::ScatterArgs, value);
    out[7] = offsetof(shaped::ScatterArgs, rank);
    out[8] = offsetof(shaped::ScatterArgs, op);
    out[9] = offsetof(shaped::ScatterArgs, src_scalar);
    out[10] = offsetof(shaped::ScatterArgs, narrow);
    out[11] = offsetof(shaped::ScatterArgs, shift);
}

// Runs gather kernel `name` (see run_sequential).
extern "C" int shaped_host_gather_launch(const char* name, unsigned grid, unsigned block,
                                         const shaped::GatherArgs* args) {
    return run_sequential(GATHER_KERNELS, name, grid, block, args);
}

// The layout of `shaped::GatherArgs` as this compiler sees it: size, then
// the offsets of sizes, out, src, index, dim_stride, fault, rank,
// index_dtype, vec and shift.
extern "C" void shaped_host_gather_args_layout(uint64_t* out) {
    out[0] = sizeof(shaped::GatherArgs);
    out[1] = offsetof(shaped::GatherArgs, sizes);
    out[2] = offsetof(shaped::GatherArgs, out);
    out[3] = offsetof(shaped::GatherArgs, src);
    out[4] = offsetof(shaped::GatherArgs, index);
    out[5] = offsetof(shaped::GatherArgs, dim_stride);
    out[6] = offsetof(shaped::GatherArgs, fault);
    out[7] = offsetof(shaped::GatherArgs, rank);
    out[8] = offsetof(shaped::GatherArgs, index_dtype);
    out[9] = offsetof(shaped::GatherArgs, vec);
    out[10] = offsetof(shaped::GatherArgs, shift);
}

// Runs `where` kernel `name` (see run_sequential).
extern "C" int shaped_host_where_launch(const char* name, unsigned grid, unsigned block,
                                        const shaped::WhereArgs* args) {
    return run_sequential(WHERE_KERNELS, name, grid, block, args);
}

// Runs the random or draw kernel `name` (see run_sequential).
extern "C" int shaped_host_random_launch(const char* name, unsigned grid, unsigned block,
                                         const shaped::RandomArgs* args) {
    return run_sequential(RANDOM_KERNELS, name, grid, block, args);
}

// The layout of `shaped::RandomArgs`: size, then the offsets of sizes,
// out, rates, seed, offset, a, b, low, range, rank, dist, narrow and shift.
extern "C" void shaped_host_random_args_layout(uint64_t* out) {
    out[0] = sizeof(shaped::RandomArgs);
    out[1] = offsetof(shaped::RandomArgs, sizes);
    out[2] = offsetof(shaped::RandomArgs, out);
    out[3] = offsetof(shaped::RandomArgs, rates);
    out[4] = offsetof(shaped::RandomArgs, seed);
    out[5] = offsetof(shaped::RandomArgs, offset);
    out[6] = offsetof(shaped::RandomArgs, a);
    out[7] = offsetof(shaped::RandomArgs, b);
    out[8] = offsetof(shaped::RandomArgs, low);
    out[9] = offsetof(shaped::RandomArgs, range);
    out[10] = offsetof(shaped::RandomArgs, rank);
    out[11] = offsetof(shaped::RandomArgs, dist);
    out[12] = offsetof(shaped::RandomArgs, narrow);
    out[13] = offsetof(shaped::RandomArgs, shift);
}

// Runs the rearrangement kernel `name` (see run_sequential).
extern "C" int shaped_host_rearrange_launch(const char* name, unsigned grid, unsigned block,
                                            const shaped::RearrangeArgs* args) {
    return run_sequential(REARRANGE_KERNELS, name, grid, block, args);
}

// The layout of `shaped::RearrangeArgs`: size, then the offsets of sizes,
// src_sizes, src_strides, amount, out, src, src_offset, fill, band_lower,
// band_upper, rank, banded, narrow, map, magic and shift.
extern "C" void shaped_host_rearrange_args_layout(uint64_t* out) {
    out[0] = sizeof(shaped::RearrangeArgs);
    out[1] = offsetof(shaped::RearrangeArgs, sizes);
    out[2] = offsetof(shaped::RearrangeArgs, src_sizes);
    out[3] = offsetof(shaped::RearrangeArgs, src_strides);
    out[4] = offsetof(shaped::RearrangeArgs, amount);
    out[5] = offsetof(shaped::RearrangeArgs, out);
    out[6] = offsetof(shaped::RearrangeArgs, src);
    out[7] = offsetof(shaped::RearrangeArgs, src_offset);
    out[8] = offsetof(shaped::RearrangeArgs, fill);
    out[9] = offsetof(shaped::RearrangeArgs, band_lower);
    out[10] = offsetof(shaped::RearrangeArgs, band_upper);
    out[11] = offsetof(shaped::RearrangeArgs, rank);
    out[12] = offsetof(shaped::RearrangeArgs, banded);
    out[13] = offsetof(shaped::RearrangeArgs, narrow);
    out[14] = offsetof(shaped::RearrangeArgs, map);
    out[15] = offsetof(shaped::RearrangeArgs, magic);
    out[16] = offsetof(shaped::RearrangeArgs, shift);
}

// Runs the kernel of three operands `name` (see run_sequential).
extern "C" int shaped_host_ternary_launch(const char* name, unsigned grid, unsigned block,
                                          const shaped::TernaryArgs* args) {
    return run_sequential(TERNARY_KERNELS, name, grid, block, args);
}

namespace {
#define SHAPED_REDUCE_ENTRIES(name, T, numeric) {"shaped_reduce_" #name, shaped_reduce_##name},
#define SHAPED_STATS_ENTRIES(name, T, numeric) {"shaped_stats_" #name, shaped_stats_##name},
#define SHAPED_SOFTMAX_ENTRIES(name, T, numeric) {"shaped_softmax_" #name, shaped_softmax_##name},
#define SHAPED_NORM_ENTRIES(name, T, numeric) {"shaped_norm_" #name, shaped_norm_##name},
const Entry<shaped::ReduceArgs> REDUCE_KERNELS[] = {SHAPED_FOR_EACH_DTYPE(SHAPED_REDUCE_ENTRIES)
                                                        SHAPED_FOR_EACH_DTYPE(SHAPED_STATS_ENTRIES)
                                                            SHAPED_FOR_EACH_DTYPE(SHAPED_SOFTMAX_ENTRIES)
                                                                SHAPED_FOR_EACH_DTYPE(SHAPED_NORM_ENTRIES)};
#undef SHAPED_NORM_ENTRIES
#undef SHAPED_SOFTMAX_ENTRIES
#undef SHAPED_STATS_ENTRIES
#undef SHAPED_REDUCE_ENTRIES

#define SHAPED_MATMUL_ENTRIES(name, T, numeric) {"shaped_matmul_" #name, shaped_matmul_##name},
const Entry<shaped::MatmulArgs> MATMUL_KERNELS[] = {SHAPED_FOR_EACH_DTYPE(SHAPED_MATMUL_ENTRIES)};
#undef SHAPED_MATMUL_ENTRIES

// The threads of one block as fibers: each runs until its next
// __syncthreads (or its end) and hands back to the scheduler, which resumes
// them all in turn, so that a barrier is passed only when every thread of
// the block has reached it. On x86-64 a fiber switch is six saved registers
// and a stack pointer (ucontext's switches make a system call each, which
// made the tests ten times slower); elsewhere, ucontext.
const size_t FIBER_STACK = 64 * 1024;

struct Fiber {
    bool done;
#if defined(__x86_64__)
    void* sp;
#else
    ucontext_t context;
#endif
};

thread_local Fiber* running = nullptr;
// What the fibers of a launch run: the kernel with its arguments.
thread_local void (*fiber_body)();
template <class A> struct Body {
    static thread_local void (*kernel)(A);
    static thread_local const A* args;
    static void run() { kernel(*args); }
};
template <class A> thread_local void (*Body<A>::kernel)(A) = nullptr;
template <class A> thread_local const A* Body<A>::args = nullptr;

#if defined(__x86_64__)
}  // namespace

// Saves the callee-saved registers on the current stack, stores the stack
// pointer in *from, switches to the stack `to` and restores its registers.
extern "C" void shaped_fiber_switch(void** from, void* to);
asm(R"(
    .text
    .globl shaped_fiber_switch
    .type shaped_fiber_switch, @function
shaped_fiber_switch:
    pushq %rbp
    pushq %rbx
    pushq %r12
    pushq %r13
    pushq %r14
    pushq %r15
    movq %rsp, (%rdi)
    movq %rsi, %rsp
    popq %r15
    popq %r14
    popq %r13
    popq %r12
    popq %rbx
    popq %rbp
    ret
    .size shaped_fiber_switch, .-shaped_fiber_switch
)");

namespace {
thread_local void* scheduler_sp;

[[noreturn]] void fiber_main() {
    fiber_body();
    running->done = true;
    void* ignored;
    shaped_fiber_switch(&ignored, scheduler_sp);
    __builtin_unreachable();
}

// A fresh stack whose first switch "returns" into fiber_main, with the
// stack aligned as after a call.
void start_fiber(Fiber& f, char* stack) {
    uintptr_t top = (reinterpret_cast<uintptr_t>(stack) + FIBER_STACK) & ~uintptr_t(15);
    void** sp = reinterpret_cast<void**>(top);
    *--sp = nullptr;  // fiber_main's return address: it never returns
    *--sp = reinterpret_cast<void*>(&fiber_main);
    for (int r = 0; r < 6; ++r) *--sp = nullptr;  // rbp, rbx, r12-r15
    f.sp = sp;
    f.done = false;
}

void resume(Fiber& f) { shaped_fiber_switch(&scheduler_sp, f.sp); }
void yield_to_scheduler() { shaped_fiber_switch(&running->sp, scheduler_sp); }
#else
thread_local ucontext_t scheduler;

void fiber_main() {
    fiber_body();
    running->done = true;
    // Returning resumes `uc_link`: the scheduler.
}

void start_fiber(Fiber& f, char* stack) {
    f.done = false;
    getcontext(&f.context);
    f.context.uc_stack.ss_sp = stack;
    f.context.uc_stack.ss_size = FIBER_STACK;
    f.context.uc_link = &scheduler;
    makecontext(&f.context, fiber_main, 0);
}

void resume(Fiber& f) { swapcontext(&scheduler, &f.context); }
void yield_to_scheduler() { swapcontext(&running->context, &scheduler); }
#endif
}  // namespace

extern "C" void shaped_host_syncthreads(void) { yield_to_scheduler(); }

// Runs the kernel of `table` named `name` with `args` on a grid of `grid`
// blocks of `block` threads: the blocks one after the other, the threads of
// a block as fibers. Returns 0; 1 for an unknown name; 2 when the threads of
// a block disagree on the barriers (some ended while others wait at one: a
// kernel bug that would hang or misbehave on a GPU).
template <class A, size_t N>
int run_fibers(const Entry<A> (&table)[N], const char* name, unsigned grid, unsigned block,
               const A* args) {
    const Entry<A>* e = find(table, name);
    if (e == nullptr) return 1;
    Body<A>::kernel = e->kernel;
    Body<A>::args = args;
    fiber_body = &Body<A>::run;
    gridDim = shaped_dim3{grid, 1, 1};
    blockDim = shaped_dim3{block, 1, 1};
    std::vector<Fiber> fibers(block);
    std::vector<char> stacks(size_t(block) * FIBER_STACK);
    for (unsigned b = 0; b < grid; ++b) {
        blockIdx = shaped_dim3{b, 0, 0};
        for (unsigned t = 0; t < block; ++t) start_fiber(fibers[t], &stacks[size_t(t) * FIBER_STACK]);
        for (;;) {
            unsigned finished = 0;
            for (unsigned t = 0; t < block; ++t) {
                Fiber& f = fibers[t];
                if (f.done) {
                    ++finished;
                    continue;
                }
                threadIdx = shaped_dim3{t, 0, 0};
                running = &f;
                resume(f);
                if (f.done) ++finished;
            }
            if (finished == block) break;
            if (finished != 0) return 2;
        }
    }
    running = nullptr;
    return 0;
}

// Runs reduction kernel `name` (see run_fibers).
extern "C" int shaped_host_reduce_launch(const char* name, unsigned grid, unsigned block,
                                         const shaped::ReduceArgs* args) {
    return run_fibers(REDUCE_KERNELS, name, grid, block, args);
}

// Runs compaction kernel `name` (see run_fibers: it scans in shared memory).
extern "C" int shaped_host_compact_launch(const char* name, unsigned grid, unsigned block,
                                          const shaped::CompactArgs* args) {
    return run_fibers(COMPACT_KERNELS, name, grid, block, args);
}

// The layout of `shaped::CompactArgs`: size, then the offsets of sizes,
// flag, data, source, chunk, counts, out, total, rank, pass and shift.
extern "C" void shaped_host_compact_args_layout(uint64_t* out) {
    out[0] = sizeof(shaped::CompactArgs);
    out[1] = offsetof(shaped::CompactArgs, sizes);
    out[2] = offsetof(shaped::CompactArgs, flag);
    out[3] = offsetof(shaped::CompactArgs, data);
    out[4] = offsetof(shaped::CompactArgs, source);
    out[5] = offsetof(shaped::CompactArgs, chunk);
    out[6] = offsetof(shaped::CompactArgs, counts);
    out[7] = offsetof(shaped::CompactArgs, out);
    out[8] = offsetof(shaped::CompactArgs, total);
    out[9] = offsetof(shaped::CompactArgs, rank);
    out[10] = offsetof(shaped::CompactArgs, pass);
    out[11] = offsetof(shaped::CompactArgs, shift);
}

namespace {
#define SHAPED_SCAN_ENTRIES(name, T, numeric) {"shaped_scan_" #name, shaped_scan_##name},
const Entry<shaped::ScanArgs> SCAN_KERNELS[] = {SHAPED_FOR_EACH_DTYPE(SHAPED_SCAN_ENTRIES)};
#undef SHAPED_SCAN_ENTRIES
}  // namespace

// Runs scan kernel `name` (see run_fibers: its blocks scan in shared memory).
extern "C" int shaped_host_scan_launch(const char* name, unsigned grid, unsigned block,
                                       const shaped::ScanArgs* args) {
    return run_fibers(SCAN_KERNELS, name, grid, block, args);
}

// The layout of `shaped::ScanArgs`: size, then the offsets of x, totals,
// outer, chunk, chunks, op and phase.
extern "C" void shaped_host_scan_args_layout(uint64_t* out) {
    out[0] = sizeof(shaped::ScanArgs);
    out[1] = offsetof(shaped::ScanArgs, x);
    out[2] = offsetof(shaped::ScanArgs, totals);
    out[3] = offsetof(shaped::ScanArgs, outer);
    out[4] = offsetof(shaped::ScanArgs, chunk);
    out[5] = offsetof(shaped::ScanArgs, chunks);
    out[6] = offsetof(shaped::ScanArgs, op);
    out[7] = offsetof(shaped::ScanArgs, phase);
}

namespace {
#define SHAPED_SORT_ENTRIES(name, T) {"shaped_sort_" #name, shaped_sort_##name},
const Entry<shaped::SortArgs> SORT_KERNELS[] = {SHAPED_FOR_EACH_SORTABLE(SHAPED_SORT_ENTRIES)};
#undef SHAPED_SORT_ENTRIES
}  // namespace

// Runs sort kernel `name` (see run_fibers: its blocks sort tiles in shared
// memory).
extern "C" int shaped_host_sort_launch(const char* name, unsigned grid, unsigned block,
                                       const shaped::SortArgs* args) {
    return run_fibers(SORT_KERNELS, name, grid, block, args);
}

// The layout of `shaped::SortArgs`: size, then the offsets of x, from,
// values, lines, width, k, descending, phase, q, place, statistic and
// ignore_nan.
extern "C" void shaped_host_sort_args_layout(uint64_t* out) {
    out[0] = sizeof(shaped::SortArgs);
    out[1] = offsetof(shaped::SortArgs, x);
    out[2] = offsetof(shaped::SortArgs, from);
    out[3] = offsetof(shaped::SortArgs, values);
    out[4] = offsetof(shaped::SortArgs, lines);
    out[5] = offsetof(shaped::SortArgs, width);
    out[6] = offsetof(shaped::SortArgs, k);
    out[7] = offsetof(shaped::SortArgs, descending);
    out[8] = offsetof(shaped::SortArgs, phase);
    out[9] = offsetof(shaped::SortArgs, q);
    out[10] = offsetof(shaped::SortArgs, place);
    out[11] = offsetof(shaped::SortArgs, statistic);
    out[12] = offsetof(shaped::SortArgs, ignore_nan);
}

namespace {
#define SHAPED_SETS_ENTRIES(name, T) {"shaped_sets_" #name, shaped_sets_##name},
const Entry<shaped::SetsArgs> SETS_KERNELS[] = {SHAPED_FOR_EACH_SORTABLE(SHAPED_SETS_ENTRIES)};
#undef SHAPED_SETS_ENTRIES
}  // namespace

// Runs sets kernel `name` (see run_fibers: `histc` counts each block's
// elements in shared memory first).
extern "C" int shaped_host_sets_launch(const char* name, unsigned grid, unsigned block,
                                       const shaped::SetsArgs* args) {
    return run_fibers(SETS_KERNELS, name, grid, block, args);
}

// The layout of `shaped::SetsArgs`: size, then the offsets of x, out, n,
// lo, min, max, phase, right and weight_kind.
extern "C" void shaped_host_sets_args_layout(uint64_t* out) {
    out[0] = sizeof(shaped::SetsArgs);
    out[1] = offsetof(shaped::SetsArgs, x);
    out[2] = offsetof(shaped::SetsArgs, out);
    out[3] = offsetof(shaped::SetsArgs, n);
    out[4] = offsetof(shaped::SetsArgs, lo);
    out[5] = offsetof(shaped::SetsArgs, min);
    out[6] = offsetof(shaped::SetsArgs, max);
    out[7] = offsetof(shaped::SetsArgs, phase);
    out[8] = offsetof(shaped::SetsArgs, right);
    out[9] = offsetof(shaped::SetsArgs, weight_kind);
}

// Runs matrix product kernel `name` (see run_fibers).
extern "C" int shaped_host_matmul_launch(const char* name, unsigned grid, unsigned block,
                                         const shaped::MatmulArgs* args) {
    return run_fibers(MATMUL_KERNELS, name, grid, block, args);
}

// The layout of `shaped::MatmulArgs` as this compiler sees it: size, then
// the offsets of m, b_cols, batch, b_batch, count and batch_rank.
extern "C" void shaped_host_matmul_args_layout(uint64_t* out) {
    out[0] = sizeof(shaped::MatmulArgs);
    out[1] = offsetof(shaped::MatmulArgs, m);
    out[2] = offsetof(shaped::MatmulArgs, b_cols);
    out[3] = offsetof(shaped::MatmulArgs, batch);
    out[4] = offsetof(shaped::MatmulArgs, b_batch);
    out[5] = offsetof(shaped::MatmulArgs, count);
    out[6] = offsetof(shaped::MatmulArgs, batch_rank);
}

// The layout of `shaped::ReduceArgs` as this compiler sees it: size, then
// the offsets of input, kept_sizes, red_strides, numel_out, chunk,
// kept_rank, splits, out_strides, out_red_stride, param and flags.
extern "C" void shaped_host_reduce_args_layout(uint64_t* out) {
    out[0] = sizeof(shaped::ReduceArgs);
    out[1] = offsetof(shaped::ReduceArgs, input);
    out[2] = offsetof(shaped::ReduceArgs, kept_sizes);
    out[3] = offsetof(shaped::ReduceArgs, red_strides);
    out[4] = offsetof(shaped::ReduceArgs, numel_out);
    out[5] = offsetof(shaped::ReduceArgs, chunk);
    out[6] = offsetof(shaped::ReduceArgs, kept_rank);
    out[7] = offsetof(shaped::ReduceArgs, splits);
    out[8] = offsetof(shaped::ReduceArgs, out_strides);
    out[9] = offsetof(shaped::ReduceArgs, out_red_stride);
    out[10] = offsetof(shaped::ReduceArgs, param);
    out[11] = offsetof(shaped::ReduceArgs, flags);
}

// The layout of `shaped::TernaryArgs` as this compiler sees it: size, then
// the offsets of sizes, out, c, value_re, value_int, value_kind, rank,
// c_dtype, op, narrow and shift.
extern "C" void shaped_host_ternary_args_layout(uint64_t* out) {
    out[0] = sizeof(shaped::TernaryArgs);
    out[1] = offsetof(shaped::TernaryArgs, sizes);
    out[2] = offsetof(shaped::TernaryArgs, out);
    out[3] = offsetof(shaped::TernaryArgs, c);
    out[4] = offsetof(shaped::TernaryArgs, value_re);
    out[5] = offsetof(shaped::TernaryArgs, value_int);
    out[6] = offsetof(shaped::TernaryArgs, value_kind);
    out[7] = offsetof(shaped::TernaryArgs, rank);
    out[8] = offsetof(shaped::TernaryArgs, c_dtype);
    out[9] = offsetof(shaped::TernaryArgs, op);
    out[10] = offsetof(shaped::TernaryArgs, narrow);
    out[11] = offsetof(shaped::TernaryArgs, shift);
}

// The layout of `shaped::WhereArgs` as this compiler sees it: size, then
// the offsets of sizes, out, cond, a, b, rank and b_dtype.
extern "C" void shaped_host_where_args_layout(uint64_t* out) {
    out[0] = sizeof(shaped::WhereArgs);
    out[1] = offsetof(shaped::WhereArgs, sizes);
    out[2] = offsetof(shaped::WhereArgs, out);
    out[3] = offsetof(shaped::WhereArgs, cond);
    out[4] = offsetof(shaped::WhereArgs, a);
    out[5] = offsetof(shaped::WhereArgs, b);
    out[6] = offsetof(shaped::WhereArgs, rank);
    out[7] = offsetof(shaped::WhereArgs, b_dtype);
    out[8] = offsetof(shaped::WhereArgs, narrow);
    out[9] = offsetof(shaped::WhereArgs, shift);
}

// The layout of `shaped::Args` as this compiler sees it, for the test that
// checks the Rust mirror: size, then the offsets of numel, sizes, out, a, b,
// scalar, rank, op, vec, out_dtype, a_dtype, b_dtype, magic and shift.
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
    out[13] = offsetof(shaped::Args, magic);
    out[14] = offsetof(shaped::Args, shift);
}
