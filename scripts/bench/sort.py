#!/usr/bin/env python3
# Requires: torch==2.15.0, numpy==2.4.6
"""sort and argsort in PyTorch and NumPy (CPU), on the cases of
`benches/sort.rs`, with the same data.

Cases (float32, values (i * 2654435761 mod 2^32) / 2^32 in [0, 1)):
  sort_flat:        torch.sort(x) of 16M elements (values and indices)
  sort_flat_stable: torch.sort(x, stable=True)
  sort_rows:        torch.sort(m, 1) of a (4096, 4096) matrix
  argsort_rows:     torch.argsort(m, 1)
  sort_cols:        torch.sort(m, 0)
  topk10_rows:      torch.topk(m, 10, 1) (values and indices)
  kthvalue_rows:    torch.kthvalue(m, 100, 1)
  median_rows:      torch.median(m, 1)
  quantile_rows:    torch.quantile(m, 0.9, 1)
  mode_rows:        torch.mode(floor(m * 64) / 64, 1) (many ties)
  median_flat:      torch.median(x) of 16M elements
  numpy_sort_flat / numpy_sort_rows: np.sort (one thread)
  numpy_argsort_stable_rows: np.argsort(m, axis=1, kind='stable')

PyTorch runs on 2 threads (torch.set_num_threads(2)). Timing: timeit, best
of --repeat runs of --number calls each.

Usage: python3 scripts/bench/sort.py [--repeat R] [--number K]
"""

import argparse
import timeit

import numpy as np
import torch

torch.set_num_threads(2)


def values(n):
    i = np.arange(n, dtype=np.uint64)
    return ((i * np.uint64(2654435761)) % np.uint64(1 << 32)).astype(np.float32) / np.float32(4294967296.0)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--number", type=int, default=1)
    args = parser.parse_args()

    def best(f):
        f()
        return min(timeit.repeat(f, repeat=args.repeat, number=args.number)) / args.number

    side = 4096
    flat = values(side * side)
    square = flat.reshape(side, side)
    xf = torch.from_numpy(flat.copy())
    x = torch.from_numpy(square.copy())
    coarse = torch.floor(x * 64) / 64
    rows = [
        ("sort_flat", lambda: torch.sort(xf)),
        ("sort_flat_stable", lambda: torch.sort(xf, stable=True)),
        ("sort_rows", lambda: torch.sort(x, 1)),
        ("argsort_rows", lambda: torch.argsort(x, 1)),
        ("sort_cols", lambda: torch.sort(x, 0)),
        ("topk10_rows", lambda: torch.topk(x, 10, 1)),
        ("kthvalue_rows", lambda: torch.kthvalue(x, 100, 1)),
        ("median_rows", lambda: torch.median(x, 1)),
        ("quantile_rows", lambda: torch.quantile(x, 0.9, 1)),
        ("mode_rows", lambda: torch.mode(coarse, 1)),
        ("median_flat", lambda: torch.median(xf)),
        ("numpy_sort_flat", lambda: np.sort(flat)),
        ("numpy_sort_rows", lambda: np.sort(square, axis=1)),
        ("numpy_argsort_stable_rows", lambda: np.argsort(square, axis=1, kind="stable")),
    ]
    print(f"torch {torch.__version__}, numpy {np.__version__}, threads {torch.get_num_threads()}")
    for name, f in rows:
        print(f"{name:26s} {best(f) * 1e3:9.3f} ms")


if __name__ == "__main__":
    main()
