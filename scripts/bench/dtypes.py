#!/usr/bin/env python3
# Requires: torch==2.15.0, numpy==2.4.6
"""Elementwise addition of 16M elements in PyTorch (CPU) for the element
types of `benches/dtypes.rs`: float16, bfloat16, float32, float64, int32,
complex64, and int32 + float32; and `a / b` in float16 and float32. GB/s
counts 3 x itemsize x n bytes, as the Rust benchmark does. Timing: best of --repeat runs of --number calls.

    python3 scripts/bench/dtypes.py
    THP_MEM_ALLOC_ENABLE=1 python3 scripts/bench/dtypes.py
"""

import argparse
import timeit

import torch

N = 1 << 24


def values(dtype, seed):
    i = torch.arange(N, dtype=torch.int64)
    v = ((i * 2654435761 + seed) % 1000).to(torch.float64) * 0.01
    return v.to(dtype)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--repeat", type=int, default=10)
    p.add_argument("--number", type=int, default=3)
    args = p.parse_args()
    print(f"torch {torch.__version__}, threads {torch.get_num_threads()}")
    print(f"{'case':28} {'ms':>8} {'GB/s':>7}")
    cases = [
        ("float16", torch.float16, torch.float16),
        ("bfloat16", torch.bfloat16, torch.bfloat16),
        ("float32", torch.float32, torch.float32),
        ("float64", torch.float64, torch.float64),
        ("int32", torch.int32, torch.int32),
        ("complex64", torch.complex64, torch.complex64),
        ("int32 + float32", torch.int32, torch.float32),
    ]
    for name, da, db in cases:
        a, b = values(da, 1), values(db, 2)
        out = torch.result_type(a, b)
        itemsize = torch.empty((), dtype=out).element_size()
        nbytes = a.element_size() * N + b.element_size() * N + itemsize * N
        (a + b)  # warm-up
        t = min(timeit.Timer(lambda: a + b).repeat(args.repeat, args.number)) / args.number
        print(f"{name:28} {t * 1e3:8.2f} {nbytes / t / 1e9:7.1f}")
    for name, dtype in [("float16 a / b", torch.float16), ("float32 a / b", torch.float32)]:
        a, b = values(dtype, 1), values(dtype, 2)
        nbytes = 3 * a.element_size() * N
        t = min(timeit.Timer(lambda: a / b).repeat(args.repeat, args.number)) / args.number
        print(f"{name:28} {t * 1e3:8.2f} {nbytes / t / 1e9:7.1f}")


if __name__ == "__main__":
    main()
