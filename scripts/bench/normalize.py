#!/usr/bin/env python3
# Requires: torch==2.15.0, numpy==2.4.6
"""softmax and log_softmax in PyTorch and NumPy (CPU), on the cases of
`benches/normalize.rs`, with the same data.

Cases (float32, a (4096, 4096) matrix of values in [0, 10)):
  copy:             its 64 MiB into a preallocated buffer (Tensor.copy_)
  softmax_last:     torch.softmax(x, 1)
  log_softmax_last: torch.log_softmax(x, 1)
  softmax_first:    torch.softmax(x, 0)
  numpy_last:       exp(x - max) / sum, row by row in numpy (one thread)
  var_dim1/var_dim0: torch.var(x, 1) / torch.var(x, 0) (correction 1)
  numpy_var_dim1/0: a.var(axis=1, ddof=1) / a.var(axis=0, ddof=1)

PyTorch runs on 2 threads (torch.set_num_threads(2)). Timing: timeit, best
of --repeat runs of --number calls each.

Usage: python3 scripts/bench/normalize.py [--repeat R] [--number K]
"""

import argparse
import timeit

import numpy as np
import torch

torch.set_num_threads(2)


def values(n):
    i = np.arange(n, dtype=np.uint64)
    return ((i * np.uint64(2654435761)) % np.uint64(1000)).astype(np.float32) * np.float32(0.01)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--number", type=int, default=3)
    args = parser.parse_args()

    def best(f):
        f()
        return min(timeit.repeat(f, repeat=args.repeat, number=args.number)) / args.number

    side = 4096
    a = values(side * side).reshape(side, side)
    x = torch.from_numpy(a.copy())
    dst = torch.empty_like(x)
    rows = [
        ("copy", lambda: dst.copy_(x)),
        ("softmax_last", lambda: torch.softmax(x, 1)),
        ("log_softmax_last", lambda: torch.log_softmax(x, 1)),
        ("softmax_first", lambda: torch.softmax(x, 0)),
    ]

    def numpy_last():
        e = np.exp(a - a.max(axis=1, keepdims=True))
        return e / e.sum(axis=1, keepdims=True)

    rows.append(("numpy_last", numpy_last))
    rows.append(("var_dim1", lambda: torch.var(x, 1)))
    rows.append(("var_dim0", lambda: torch.var(x, 0)))
    rows.append(("numpy_var_dim1", lambda: a.var(axis=1, ddof=1)))
    rows.append(("numpy_var_dim0", lambda: a.var(axis=0, ddof=1)))
    copy = None
    for name, f in rows:
        t = best(f)
        if name == "copy":
            copy = t
        print(f"{name:18s} {t * 1e3:8.3f} ms  {t / copy:5.2f}x copy")


if __name__ == "__main__":
    main()
