#!/usr/bin/env python3
# Requires: torch==2.15.0, numpy==2.4.6
"""Views and contiguous() in numpy and PyTorch (CPU), on the cases of
`benches/views.rs`, with the same byte accounting.

Cases (float32):
  views of a (64, 64) array, time per view and views per second:
    transpose   torch x.t() / x.transpose(0, 1); numpy a.T / a.transpose()
    narrow      torch x.narrow(1, 8, 16);        numpy a[:, 8:24]
    select      torch x.select(0, 3);            numpy a[3]
    slice       torch x[1:, ::2];                numpy a[1:, ::2]
  contiguous() of a transposed (4096, 4096) array (64 MiB):
    torch x.t().contiguous() with torch's default thread count and with 1
    numpy np.ascontiguousarray(a.T) (one thread)
    copy: 16M f32 into a preallocated buffer (np.copyto, Tensor.copy_), the
          memory-bandwidth reference

Every contiguous() allocates its output. numpy asks for transparent huge
pages (madvise) on large arrays by itself; PyTorch's CPU allocator does so
only with THP_MEM_ALLOC_ENABLE=1 in the environment (read when torch starts),
so with /sys/kernel/mm/transparent_hugepage/enabled at "madvise" run the
script both ways:
    python3 scripts/bench/views.py
    THP_MEM_ALLOC_ENABLE=1 python3 scripts/bench/views.py
The input comes from numpy (huge-page advised) in both libraries.

Bytes: a transposed copy reads and writes every element once:
2 x 4 x n bytes. GB/s is 1e9 bytes per second.

Timing: timeit, best of --repeat runs of --number calls each (the minimum is
the least disturbed by other load).

Usage: python3 scripts/bench/views.py [--quick] [--repeat R] [--number K]
"""

import argparse
import os
import platform
import timeit

import numpy as np
import torch

SMALL = 64
SIDE = 4096
N = SIDE * SIDE
F32 = 4
DEFAULT_THREADS = torch.get_num_threads()


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


def view_cases():
    """(case, numpy fn, torch fn) for views of a (64, 64) array."""
    a = values((SMALL, SMALL), 1)
    x = torch.from_numpy(a)
    return [
        ("transpose (t / .T)", lambda: a.T, lambda: x.t()),
        ("transpose(0, 1)", lambda: a.transpose(), lambda: x.transpose(0, 1)),
        ("narrow(1, 8, 16)", lambda: a[:, 8:24], lambda: x.narrow(1, 8, 16)),
        ("select(0, 3)", lambda: a[3], lambda: x.select(0, 3)),
        ("slice [1:, ::2]", lambda: a[1:, ::2], lambda: x[1:, ::2]),
    ]


def check_views():
    a = values((SMALL, SMALL), 1)
    x = torch.from_numpy(a)
    pairs = [
        (a.T, x.t()),
        (a[:, 8:24], x.narrow(1, 8, 16)),
        (a[3], x.select(0, 3)),
        (a[1:, ::2], x[1:, ::2]),
    ]
    for n, t in pairs:
        assert n.shape == tuple(t.shape)
        assert tuple(s // F32 for s in n.strides) == t.stride()
        assert np.array_equal(n, t.numpy())


def contiguous_rows(repeat, number):
    """(case, seconds) for the transposed 64 MiB copy and the copy reference."""
    a = values((SIDE, SIDE), 1)
    x = torch.from_numpy(a)
    assert a.T.strides == (F32, F32 * SIDE)
    assert x.t().stride() == (1, SIDE)
    expected = np.ascontiguousarray(a.T)
    assert expected.flags.c_contiguous
    assert np.array_equal(x.t().contiguous().numpy(), expected)

    src = values((N,), 1)
    dst = np.empty_like(src)
    tsrc, tdst = torch.from_numpy(src), torch.from_numpy(dst)

    rows = []
    for threads in sorted({DEFAULT_THREADS, 1}, reverse=True):
        torch.set_num_threads(threads)
        rows.append((f"torch x.t().contiguous(), {threads} thr",
                     best_seconds(lambda: x.t().contiguous(), repeat, number)))
        rows.append((f"torch copy_ 16M, {threads} thr",
                     best_seconds(lambda: tdst.copy_(tsrc), repeat, number)))
    torch.set_num_threads(DEFAULT_THREADS)
    rows.append(("numpy ascontiguousarray(a.T)",
                 best_seconds(lambda: np.ascontiguousarray(a.T), repeat, number)))
    rows.append(("numpy copyto 16M",
                 best_seconds(lambda: np.copyto(dst, src), repeat, number)))
    return rows


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--quick", action="store_true", help="fewer repetitions (a rough look)")
    p.add_argument("--repeat", type=int, default=None, help="timeit runs; the best is kept")
    p.add_argument("--number", type=int, default=None, help="calls per timeit run")
    args = p.parse_args()
    repeat = args.repeat or (5 if args.quick else 15)
    number = args.number or (2 if args.quick else 5)
    small_repeat, small_number = (5, 50_000) if args.quick else (15, 200_000)

    print(f"numpy {np.__version__}, torch {torch.__version__} "
          f"(default torch threads: {DEFAULT_THREADS}, cpus: {os.cpu_count()}), "
          f"python {platform.python_version()}, {platform.machine()}")
    thp = os.environ.get("THP_MEM_ALLOC_ENABLE", "unset")
    try:
        with open("/sys/kernel/mm/transparent_hugepage/enabled") as f:
            thp_sys = f.read().strip()
    except OSError:
        thp_sys = "n/a"
    print(f"THP_MEM_ALLOC_ENABLE={thp}; transparent_hugepage/enabled: {thp_sys}")
    print(f"views: best of {small_repeat} x {small_number} calls; "
          f"contiguous: best of {repeat} x {number}")
    check_views()

    print()
    hdr = (f"{'view of (64, 64) float32':26} | {'numpy ns':>9} {'Mviews/s':>9} | "
           f"{'torch ns':>9} {'Mviews/s':>9}")
    print(hdr)
    print("-" * len(hdr))
    for name, np_fn, torch_fn in view_cases():
        t_np = best_seconds(np_fn, small_repeat, small_number)
        t_torch = best_seconds(torch_fn, small_repeat, small_number)
        print(f"{name:26} | {t_np * 1e9:9.1f} {1e-6 / t_np:9.2f} | "
              f"{t_torch * 1e9:9.1f} {1e-6 / t_torch:9.2f}")

    print()
    nbytes = 2 * F32 * N
    hdr = f"{'(4096, 4096) float32, 2 x 64 MiB':36} | {'ms':>8} {'GB/s':>7}"
    print(hdr)
    print("-" * len(hdr))
    for name, t in contiguous_rows(repeat, number):
        print(f"{name:36} | {t * 1e3:8.3f} {nbytes / t / 1e9:7.2f}")
    print("GB/s: (bytes read + bytes written) / time = 2 x 4 x 16M / time.")


if __name__ == "__main__":
    main()
