#!/usr/bin/env python3
# Requires: torch==2.15.0, numpy
"""Elementwise f32 addition in numpy and PyTorch (CPU), on the shapes of
`benches/elementwise.rs`, with the same byte accounting.

Cases (float32):
  (a) (4096, 4096) + (4096, 4096)
  (b) (4096, 4096) + (4096, 1)
  (c) (4096, 4096) + (1, 4096)
  (d) (4096, 4096) + transposed (4096, 4096)   (b.T / b.t(): strides (1, 4096))
  copy: 16M f32 into a preallocated buffer (np.copyto, Tensor.copy_), and
        into a fresh one (np.copy, Tensor.clone): the memory-bandwidth reference
  small: (3, 3) + (3, 3) and (4, 1) + (1, 4), time per operation

Every `a + b` allocates its output, as in the Rust benchmark. numpy runs on
one thread; PyTorch on 2 (torch.set_num_threads(2)).

Allocation dominates the 64 MiB cases when the output lands on fresh 4 KiB
pages (one page fault per 4 KiB). numpy asks for transparent huge pages
(madvise) on large arrays by itself; PyTorch's CPU allocator does so only
with THP_MEM_ALLOC_ENABLE=1 in the environment (read when torch starts), so
with /sys/kernel/mm/transparent_hugepage/enabled at "madvise" run the script
both ways:
    python3 scripts/bench/elementwise.py
    THP_MEM_ALLOC_ENABLE=1 python3 scripts/bench/elementwise.py
(shaped's CPU buffers of 1 MiB or more are huge-page advised as well.)

Bytes: each distinct element read or written counts once, 4 bytes each:
3 x 4 x n for equal shapes, 2 x 4 x n + 4 x 4096 with a (4096, 1) or
(1, 4096) operand, 2 x 4 x n for a copy. GB/s is 1e9 bytes per second.

Timing: timeit, best of --repeat runs of --number calls each (the minimum is
the least disturbed by other load).

Usage: python3 scripts/bench/elementwise.py [--quick] [--repeat R] [--number K]
"""

import argparse
import os
import platform
import timeit

import numpy as np
import torch

torch.set_num_threads(2)

SIDE = 4096
N = SIDE * SIDE
F32 = 4


def values(shape, seed):
    """Deterministic, non-constant float32 values (matching neither library's RNG)."""
    n = int(np.prod(shape))
    i = np.arange(n, dtype=np.uint64)
    v = ((i * np.uint64(2654435761) + np.uint64(seed)) % np.uint64(1000)).astype(np.float32)
    return (v * np.float32(0.001)).reshape(shape)


def best_seconds(fn, repeat, number):
    """Best time of one call of `fn`, over `repeat` runs of `number` calls."""
    fn()  # warm-up (first-touch of inputs, lazy initialization)
    times = timeit.Timer(fn).repeat(repeat=repeat, number=number)
    return min(times) / number


def large_cases():
    """(case, bytes, numpy fn, torch fn) for the 16M-element cases."""
    a = values((SIDE, SIDE), 1)
    b_full = values((SIDE, SIDE), 2)
    b_col = values((SIDE, 1), 2)
    b_row = values((1, SIDE), 2)
    ta, tb_full = torch.from_numpy(a), torch.from_numpy(b_full)
    tb_col, tb_row = torch.from_numpy(b_col), torch.from_numpy(b_row)
    assert b_full.T.strides == (F32, F32 * SIDE)
    assert tb_full.t().stride() == (1, SIDE)

    src = values((N,), 1)
    dst = np.empty_like(src)
    tsrc, tdst = torch.from_numpy(src), torch.from_numpy(dst)

    same = F32 * 3 * N
    bcast = F32 * (2 * N + SIDE)
    copy = F32 * 2 * N
    return [
        ("a  (4096,4096)+(4096,4096)", same, lambda: a + b_full, lambda: ta + tb_full),
        ("b  (4096,4096)+(4096,1)", bcast, lambda: a + b_col, lambda: ta + tb_col),
        ("c  (4096,4096)+(1,4096)", bcast, lambda: a + b_row, lambda: ta + tb_row),
        ("d  (4096,4096)+transposed", same, lambda: a + b_full.T, lambda: ta + tb_full.t()),
        ("copy 16M, preallocated", copy, lambda: np.copyto(dst, src), lambda: tdst.copy_(tsrc)),
        ("copy 16M, fresh output", copy, lambda: np.copy(src), lambda: tsrc.clone()),
    ]


def small_cases():
    a33, b33 = values((3, 3), 1), values((3, 3), 2)
    a41, b14 = values((4, 1), 1), values((1, 4), 2)
    t33a, t33b = torch.from_numpy(a33), torch.from_numpy(b33)
    t41, t14 = torch.from_numpy(a41), torch.from_numpy(b14)
    return [
        ("3x3 + 3x3", lambda: a33 + b33, lambda: t33a + t33b),
        ("(4,1) + (1,4)", lambda: a41 + b14, lambda: t41 + t14),
    ]


def check_results():
    a, b = values((SIDE, SIDE), 1), values((SIDE, SIDE), 2)
    ta, tb = torch.from_numpy(a), torch.from_numpy(b)
    assert np.array_equal((ta + tb.t()).numpy(), a + b.T)
    assert np.array_equal((ta + tb[:, :1]).numpy(), a + b[:, :1])


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--quick", action="store_true", help="fewer repetitions (a rough look)")
    p.add_argument("--repeat", type=int, default=None, help="timeit runs; the best is kept")
    p.add_argument("--number", type=int, default=None, help="calls per timeit run")
    args = p.parse_args()
    repeat = args.repeat or (5 if args.quick else 15)
    number = args.number or (2 if args.quick else 5)
    small_repeat, small_number = (5, 20_000) if args.quick else (15, 100_000)

    print(f"numpy {np.__version__}, torch {torch.__version__} "
          f"(torch threads: {torch.get_num_threads()}), python {platform.python_version()}, "
          f"{platform.machine()}")
    thp = os.environ.get("THP_MEM_ALLOC_ENABLE", "unset")
    try:
        with open("/sys/kernel/mm/transparent_hugepage/enabled") as f:
            thp_sys = f.read().strip()
    except OSError:
        thp_sys = "n/a"
    print(f"THP_MEM_ALLOC_ENABLE={thp}; transparent_hugepage/enabled: {thp_sys}")
    print(f"large: best of {repeat} x {number} calls; small: best of {small_repeat} x {small_number}")
    check_results()

    rows = []
    for name, nbytes, np_fn, torch_fn in large_cases():
        t_np = best_seconds(np_fn, repeat, number)
        t_torch = best_seconds(torch_fn, repeat, number)
        rows.append((name, nbytes, t_np, t_torch))

    _, copy_bytes, copy_np, copy_torch = next(r for r in rows if r[0].startswith("copy 16M, pre"))
    bw_np, bw_torch = copy_bytes / copy_np, copy_bytes / copy_torch

    print()
    hdr = (f"{'case (float32)':30} {'MB':>6} | {'numpy ms':>9} {'GB/s':>6} {'%copy':>6} | "
           f"{'torch ms':>9} {'GB/s':>6} {'%copy':>6} | {'np/torch':>8}")
    print(hdr)
    print("-" * len(hdr))
    for name, nbytes, t_np, t_torch in rows:
        g_np, g_t = nbytes / t_np, nbytes / t_torch
        print(f"{name:30} {nbytes / 1e6:6.0f} | {t_np * 1e3:9.3f} {g_np / 1e9:6.2f} "
              f"{100 * g_np / bw_np:5.0f}% | {t_torch * 1e3:9.3f} {g_t / 1e9:6.2f} "
              f"{100 * g_t / bw_torch:5.0f}% | {t_np / t_torch:8.2f}")
    print("%copy: GB/s relative to the same library's preallocated copy "
          "(numpy: 1 thread; torch: 2 threads).")

    print()
    hdr = f"{'small case (float32)':30} | {'numpy ns/op':>12} | {'torch ns/op':>12}"
    print(hdr)
    print("-" * len(hdr))
    for name, np_fn, torch_fn in small_cases():
        t_np = best_seconds(np_fn, small_repeat, small_number)
        t_torch = best_seconds(torch_fn, small_repeat, small_number)
        print(f"{name:30} | {t_np * 1e9:12.0f} | {t_torch * 1e9:12.0f}")


if __name__ == "__main__":
    main()
