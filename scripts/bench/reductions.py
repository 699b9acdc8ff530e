#!/usr/bin/env python3
# Requires: torch==2.15.0, numpy==2.4.6
"""f32 sums in numpy and PyTorch (CPU), on the cases of
`benches/reductions.rs`, with the same byte accounting.

Cases (float32, the same values as the Rust benchmark):
  whole:   the sum of 16M elements (64 MiB)
  rows:    (4096, 4096) summed along axis 1 (the contiguous one)
  columns: (4096, 4096) summed along axis 0
  copy:    the same 64 MiB into a preallocated buffer (np.copyto,
           Tensor.copy_): the memory-bandwidth reference

numpy runs on one thread; PyTorch on 2 (torch.set_num_threads(2)).
Bytes: a reduction reads 4 x 16M bytes; a copy reads and writes, 2 x 4 x 16M.
GB/s is 1e9 bytes per second. Timing: timeit, best of --repeat runs of
--number calls each (the minimum is the least disturbed by other load).

Usage: python3 scripts/bench/reductions.py [--repeat R] [--number K]
"""

import argparse
import timeit

import numpy as np
import torch

torch.set_num_threads(2)

SIDE = 4096
N = SIDE * SIDE
BYTES = 4 * N


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--number", type=int, default=5)
    args = parser.parse_args()

    i = np.arange(N, dtype=np.uint64)
    data = ((i * np.uint64(2654435761)) % np.uint64(1000)).astype(np.float32) * np.float32(0.001)
    square = data.reshape(SIDE, SIDE)
    t_flat = torch.from_numpy(data.copy())
    t_square = t_flat.view(SIDE, SIDE)
    dst = np.empty_like(data)
    t_dst = torch.empty_like(t_flat)

    def best(f):
        f()
        return min(timeit.repeat(f, repeat=args.repeat, number=args.number)) / args.number

    cases = [
        ("copy", "numpy (1 thread)", lambda: np.copyto(dst, data), 2 * BYTES),
        ("copy", "torch (2 threads)", lambda: t_dst.copy_(t_flat), 2 * BYTES),
        ("whole", "numpy", lambda: data.sum(), BYTES),
        ("whole", "torch", lambda: t_flat.sum(), BYTES),
        ("rows", "numpy", lambda: square.sum(axis=1), BYTES),
        ("rows", "torch", lambda: t_square.sum(1), BYTES),
        ("columns", "numpy", lambda: square.sum(axis=0), BYTES),
        ("columns", "torch", lambda: t_square.sum(0), BYTES),
    ]
    print(f"torch {torch.__version__}, numpy {np.__version__}, torch threads {torch.get_num_threads()}")
    for group, name, f, nbytes in cases:
        t = best(f)
        print(f"{group:8s} {name:18s} {t * 1e3:8.2f} ms  {nbytes / t / 1e9:6.1f} GB/s")


if __name__ == "__main__":
    main()
