#!/usr/bin/env python3
# Requires: torch==2.15.0, numpy==2.4.6
"""Elementwise math and concatenation in numpy and PyTorch (CPU, float32),
the counterpart of `benches/math.rs`, with the same byte accounting.

Cases:
  exp, sigmoid, tanh, gelu, silu, sin of 16M float32 in [-4, 4), log of them + 4.5
  (a new output each call); x * 2 + 1 (PyTorch's two operations: what
  `map(|x| x * 2.0 + 1.0)` computes in one pass)
  cat of two (2048, 4096) float32 along axis 0 and axis 1
  (torch.cat / np.concatenate)

PyTorch runs on 2 threads (torch.set_num_threads(2)); numpy on one.
Bytes: each element read or written counts once, 4 bytes each (2 x 4 x n).
Timing: timeit, best of --repeat runs of --number calls.

Usage: python3 scripts/bench/math.py [--repeat R] [--number K]
"""

import argparse
import timeit

import numpy as np
import torch

assert torch.__version__.startswith("2.15.0"), torch.__version__
torch.set_num_threads(2)

N = 1 << 24


def values(n):
    i = np.arange(n, dtype=np.uint64)
    return ((i * np.uint64(2654435761)) % np.uint64(8000)).astype(np.float32) * np.float32(0.001) - np.float32(4.0)


def report(name, seconds, n_bytes, n_elems):
    print(f"{name:32s} {seconds * 1e3:9.2f} ms  {seconds / n_elems * 1e9:7.3f} ns/elem  {n_bytes / seconds / 1e9:7.2f} GB/s")


def best(f, repeat, number):
    return min(timeit.repeat(f, repeat=repeat, number=number)) / number


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--repeat", type=int, default=5)
    p.add_argument("--number", type=int, default=3)
    args = p.parse_args()
    x = values(N)
    t = torch.from_numpy(x.copy())
    positive = x + np.float32(4.5)
    t_positive = torch.from_numpy(positive.copy())
    unary_bytes = 2 * 4 * N
    for name, np_f, torch_f in [
        ("exp", lambda: np.exp(x), lambda: torch.exp(t)),
        ("sigmoid", lambda: 1.0 / (1.0 + np.exp(-x)), lambda: torch.sigmoid(t)),
        ("tanh", lambda: np.tanh(x), lambda: torch.tanh(t)),
        ("gelu", lambda: None, lambda: torch.nn.functional.gelu(t)),
        ("silu", lambda: x / (np.float32(1.0) + np.exp(-x)), lambda: torch.nn.functional.silu(t)),
        ("sin", lambda: np.sin(x), lambda: torch.sin(t)),
        ("log", lambda: np.log(positive), lambda: torch.log(t_positive)),
        ("map_x2p1", lambda: x * np.float32(2.0) + np.float32(1.0), lambda: t * 2.0 + 1.0),
    ]:
        if np_f() is not None:  # numpy has no erf
            report(f"{name}/numpy", best(np_f, args.repeat, args.number), unary_bytes, N)
        report(f"{name}/torch_2_threads", best(torch_f, args.repeat, args.number), unary_bytes, N)
    # float16: 2 bytes read and 2 written per element.
    h = t.to(torch.float16)
    for name, torch_f in [
        ("exp_f16", lambda: torch.exp(h)),
        ("tanh_f16", lambda: torch.tanh(h)),
        ("gelu_f16", lambda: torch.nn.functional.gelu(h)),
    ]:
        report(f"{name}/torch_2_threads", best(torch_f, args.repeat, args.number), 2 * 2 * N, N)
    # The functions of three tensors: 3 reads and a write per element (2
    # reads for lerp by a number).
    y = x * np.float32(0.5) + np.float32(1.0)
    w = (x + np.float32(4.0)) * np.float32(0.125)
    ty, tw = torch.from_numpy(y.copy()), torch.from_numpy(w.copy())
    for name, n_bytes, torch_f in [
        ("lerp_number", 3 * 4 * N, lambda: torch.lerp(t, ty, 0.3)),
        ("lerp_tensor", 4 * 4 * N, lambda: torch.lerp(t, ty, tw)),
        ("addcmul", 4 * 4 * N, lambda: torch.addcmul(t, ty, tw, value=0.5)),
        ("addcdiv", 4 * 4 * N, lambda: torch.addcdiv(t, ty, tw, value=0.5)),
    ]:
        report(f"{name}/torch_2_threads", best(torch_f, args.repeat, args.number), n_bytes, N)
    n = 2048 * 4096
    a = values(n).reshape(2048, 4096)
    b = values(n).reshape(2048, 4096)
    ta, tb = torch.from_numpy(a.copy()), torch.from_numpy(b.copy())
    cat_bytes = 2 * 4 * 2 * n
    for axis in (0, 1):
        report(f"cat_axis{axis}/numpy", best(lambda: np.concatenate([a, b], axis), args.repeat, args.number), cat_bytes, 2 * n)
        report(f"cat_axis{axis}/torch_2_threads", best(lambda: torch.cat([ta, tb], axis), args.repeat, args.number), cat_bytes, 2 * n)


if __name__ == "__main__":
    main()
