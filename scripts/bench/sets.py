#!/usr/bin/env python3
# Requires: torch==2.15.0, numpy==2.4.6
"""The sets and bins in PyTorch and NumPy (CPU), on the cases of
`benches/sets.rs`, with the same data (h(i) = i * 2654435761 mod 2^32).

Cases:
  unique_i64_16m:                torch.unique(x), x = h(i) >> 16 as int64, 16M
  unique_i64_16m_inverse_counts: torch.unique(x, return_inverse=True, return_counts=True)
  bincount_i64_16m:              torch.bincount(x)
  unique_f32_4m_inverse:         torch.unique(f, return_inverse=True), f = (h(i) >> 20) / 4096, 4M float32
  searchsorted_f32_4m_in_64k:    torch.searchsorted(b, v), b = k / 65536 (65,536), v = h(i) / 2^32 (4M float32)
  histc_f32_16m_100:             torch.histc(u, 100, 0, 1), u = h(i) / 2^32 (16M float32)
  numpy_*: np.unique, np.bincount, np.searchsorted, np.histogram (one thread)

PyTorch runs on 2 threads (torch.set_num_threads(2)). Timing: timeit, best
of --repeat runs of --number calls each.

Usage: python3 scripts/bench/sets.py [--repeat R] [--number K]
"""

import argparse
import timeit

import numpy as np
import torch

torch.set_num_threads(2)


def h(n):
    i = np.arange(n, dtype=np.uint64)
    return (i * np.uint64(2654435761)) % np.uint64(1 << 32)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--number", type=int, default=1)
    args = parser.parse_args()

    def best(f):
        f()
        return min(timeit.repeat(f, repeat=args.repeat, number=args.number)) / args.number

    n, m = 1 << 24, 1 << 22
    ints = (h(n) >> np.uint64(16)).astype(np.int64)
    x = torch.from_numpy(ints.copy())
    floats = (h(m) >> np.uint64(20)).astype(np.float32) / np.float32(4096.0)
    f = torch.from_numpy(floats.copy())
    bounds_np = np.arange(65536, dtype=np.float32) / np.float32(65536.0)
    bounds = torch.from_numpy(bounds_np.copy())
    probes_np = h(m).astype(np.float32) / np.float32(4294967296.0)
    probes = torch.from_numpy(probes_np.copy())
    unit_np = h(n).astype(np.float32) / np.float32(4294967296.0)
    unit = torch.from_numpy(unit_np.copy())
    rows = [
        ("unique_i64_16m", lambda: torch.unique(x)),
        ("unique_i64_16m_inverse_counts", lambda: torch.unique(x, return_inverse=True, return_counts=True)),
        ("bincount_i64_16m", lambda: torch.bincount(x)),
        ("unique_f32_4m_inverse", lambda: torch.unique(f, return_inverse=True)),
        ("searchsorted_f32_4m_in_64k", lambda: torch.searchsorted(bounds, probes)),
        ("histc_f32_16m_100", lambda: torch.histc(unit, 100, 0, 1)),
        ("numpy_unique_i64_16m", lambda: np.unique(ints)),
        ("numpy_bincount_i64_16m", lambda: np.bincount(ints)),
        ("numpy_searchsorted_f32_4m", lambda: np.searchsorted(bounds_np, probes_np)),
        ("numpy_histogram_f32_16m_100", lambda: np.histogram(unit_np, 100, (0, 1))),
    ]
    print(f"torch {torch.__version__}, numpy {np.__version__}, threads {torch.get_num_threads()}")
    for name, fn in rows:
        print(f"{name:32s} {best(fn) * 1e3:9.3f} ms")


if __name__ == "__main__":
    main()
