#!/usr/bin/env python3
# Requires: torch==2.15.0, numpy==2.4.6
"""cumsum, cumprod, cummax and logcumsumexp in PyTorch and NumPy (CPU), on
the cases of `benches/scans.rs`, with the same data.

Cases (float32):
  copy_flat:          16M elements (64 MiB) into a preallocated buffer
  cumsum_flat:        torch.cumsum(x, 0) of 16M elements
  copy:               a (4096, 4096) matrix into a preallocated buffer
  cumsum_dim1:        torch.cumsum(x, 1): along each row
  cumsum_dim0:        torch.cumsum(x, 0): down each column
  cumprod_dim1:       torch.cumprod(x, 1)
  cummax_dim1:        torch.cummax(x, 1) (values and indices)
  logcumsumexp_dim1:  torch.logcumsumexp(x, 1)
  numpy_cumsum_flat / numpy_cumsum_dim1 / numpy_cumsum_dim0: np.cumsum

Values: (i * 2654435761 mod 1000) / 1000 + 0.5, in [0.5, 1.5), so that the
products stay finite for a while. PyTorch runs on 2 threads
(torch.set_num_threads(2)). Timing: timeit, best of --repeat runs of
--number calls each.

Usage: python3 scripts/bench/scans.py [--repeat R] [--number K]
"""

import argparse
import timeit

import numpy as np
import torch

torch.set_num_threads(2)


def values(n):
    i = np.arange(n, dtype=np.uint64)
    v = ((i * np.uint64(2654435761)) % np.uint64(1000)).astype(np.float32)
    return v * np.float32(0.001) + np.float32(0.5)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--number", type=int, default=3)
    args = parser.parse_args()

    def best(f):
        f()
        return min(timeit.repeat(f, repeat=args.repeat, number=args.number)) / args.number

    side = 4096
    flat = values(side * side)
    square = flat.reshape(side, side)
    xf = torch.from_numpy(flat.copy())
    x = torch.from_numpy(square.copy())
    dst_f = torch.empty_like(xf)
    dst = torch.empty_like(x)
    rows = [
        ("copy_flat", lambda: dst_f.copy_(xf)),
        ("cumsum_flat", lambda: torch.cumsum(xf, 0)),
        ("copy", lambda: dst.copy_(x)),
        ("cumsum_dim1", lambda: torch.cumsum(x, 1)),
        ("cumsum_dim0", lambda: torch.cumsum(x, 0)),
        ("cumprod_dim1", lambda: torch.cumprod(x, 1)),
        ("cummax_dim1", lambda: torch.cummax(x, 1)),
        ("logcumsumexp_dim1", lambda: torch.logcumsumexp(x, 1)),
        ("numpy_cumsum_flat", lambda: np.cumsum(flat)),
        ("numpy_cumsum_dim1", lambda: np.cumsum(square, axis=1)),
        ("numpy_cumsum_dim0", lambda: np.cumsum(square, axis=0)),
    ]
    print(f"torch {torch.__version__}, numpy {np.__version__}, threads {torch.get_num_threads()}")
    for name, f in rows:
        print(f"{name:20s} {best(f) * 1e3:9.3f} ms")


if __name__ == "__main__":
    main()
