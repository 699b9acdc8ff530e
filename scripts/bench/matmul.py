#!/usr/bin/env python3
# Requires: torch==2.15.0, numpy==2.4.6
"""Matrix products in PyTorch and numpy (CPU, 2 threads), on the cases of
`benches/matmul.rs`.

Cases (float32, deterministic values in [0, 1)):
  1024      (1024, 1024) @ (1024, 1024)
  4096      (4096, 4096) @ (4096, 4096)
  batched   (64, 128, 128) @ (64, 128, 128)
  complex64_512  (512, 512) @ (512, 512) complex64 (real parts as above,
            imaginary parts the values with seed + 7); GFLOP/s counts
            8 m k n (a complex product is four real ones)

PyTorch runs with torch.set_num_threads(2); numpy's BLAS (OpenBLAS) is
limited to 2 threads through OPENBLAS_NUM_THREADS / OMP_NUM_THREADS, set
below before numpy is imported. Each product allocates its output.
GFLOP/s counts 2 m k n floating-point operations per product, 1e9 per second.

Timing: best of --repeat runs of --number calls (the minimum is the least
disturbed by other load on a shared machine).

Usage: python3 scripts/bench/matmul.py [--repeat R]
"""

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "2")
os.environ.setdefault("OMP_NUM_THREADS", "2")

import argparse  # noqa: E402
import timeit  # noqa: E402

import numpy as np  # noqa: E402
import torch  # noqa: E402

torch.set_num_threads(2)


def values(shape, seed):
    n = int(np.prod(shape))
    i = np.arange(n, dtype=np.uint64)
    v = ((i * np.uint64(2654435761) + np.uint64(seed)) % np.uint64(1000)).astype(np.float32)
    return (v * np.float32(0.001)).reshape(shape)


def best_seconds(fn, repeat, number):
    fn()
    return min(timeit.repeat(fn, repeat=repeat, number=number)) / number


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    print(f"torch {torch.__version__}, numpy {np.__version__}, torch threads {torch.get_num_threads()}")
    cases = [
        ("1024", (1024, 1024), (1024, 1024), 10),
        ("4096", (4096, 4096), (4096, 4096), 1),
        ("batched", (64, 128, 128), (64, 128, 128), 20),
    ]
    for name, sa, sb, number in cases:
        a, b = values(sa, 1), values(sb, 2)
        ta, tb = torch.from_numpy(a), torch.from_numpy(b)
        m, k = sa[-2], sa[-1]
        n = sb[-1]
        batch = int(np.prod(sa[:-2])) if len(sa) > 2 else 1
        flops = 2 * batch * m * k * n
        t_torch = best_seconds(lambda: torch.matmul(ta, tb), args.repeat, number)
        t_numpy = best_seconds(lambda: np.matmul(a, b), args.repeat, number)
        print(f"{name:8} torch {t_torch * 1e3:9.2f} ms {flops / t_torch / 1e9:7.1f} GFLOP/s   "
              f"numpy {t_numpy * 1e3:9.2f} ms {flops / t_numpy / 1e9:7.1f} GFLOP/s")
    n = 512
    a = values((n, n), 1) + 1j * values((n, n), 8)
    b = values((n, n), 2) + 1j * values((n, n), 9)
    a, b = a.astype(np.complex64), b.astype(np.complex64)
    ta, tb = torch.from_numpy(a), torch.from_numpy(b)
    flops = 8 * n * n * n
    t_torch = best_seconds(lambda: torch.matmul(ta, tb), args.repeat, 10)
    t_numpy = best_seconds(lambda: np.matmul(a, b), args.repeat, 10)
    print(f"{'complex64_512':8} torch {t_torch * 1e3:9.2f} ms {flops / t_torch / 1e9:7.1f} GFLOP/s   "
          f"numpy {t_numpy * 1e3:9.2f} ms {flops / t_numpy / 1e9:7.1f} GFLOP/s")


if __name__ == "__main__":
    main()
