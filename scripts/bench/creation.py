#!/usr/bin/env python3
"""PyTorch's constructors on the cases of benches/creation.rs: a copy
(clone) of 16M float32, linspace, arange with a step and zeros_like of 16M,
eye of (4096, 4096). PyTorch runs on 2 threads (torch.set_num_threads(2)).

    python3 scripts/bench/creation.py [--repeat 5] [--number 3]
"""

import argparse
import timeit

import torch

N = 1 << 24
torch.set_num_threads(2)


def best(f, repeat, number):
    return min(timeit.repeat(f, repeat=repeat, number=number)) / number


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--repeat", type=int, default=5)
    p.add_argument("--number", type=int, default=3)
    args = p.parse_args()
    x = torch.ones(N)
    for name, f in [
        ("copy", lambda: x.clone()),
        ("linspace", lambda: torch.linspace(-1.0, 1.0, N)),
        ("arange_step", lambda: torch.arange(0.0, N * 0.5, 0.5)),
        ("zeros_like", lambda: torch.zeros_like(x)),
        ("eye_4096", lambda: torch.eye(4096)),
    ]:
        s = best(f, args.repeat, args.number)
        print(f"{name + '/torch_2_threads':32s} {s * 1e3:9.2f} ms  {4 * N / s / 1e9:7.2f} GB/s")


if __name__ == "__main__":
    main()
