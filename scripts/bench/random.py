#!/usr/bin/env python3
"""PyTorch's CPU random tensors on the cases of benches/random.rs: rand and
randn of 16M float32 (new tensors), uniform_ in place, randn of 16M
float64. PyTorch runs on 2 threads (torch.set_num_threads(2)).

    python3 scripts/bench/random.py [--repeat 5] [--number 3]
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
    g = torch.Generator().manual_seed(0)
    x = torch.zeros(N)
    for name, bytes_per, f in [
        ("rand", 4, lambda: torch.rand(N, generator=g)),
        ("randn", 4, lambda: torch.randn(N, generator=g)),
        ("uniform_", 4, lambda: x.uniform_(-1.0, 1.0, generator=g)),
        ("randn_f64", 8, lambda: torch.randn(N, dtype=torch.float64, generator=g)),
        ("randperm_1M", 8 * 1_000_000 / N, lambda: torch.randperm(1_000_000, generator=g)),
    ]:
        s = best(f, args.repeat, args.number)
        print(f"{name + '/torch_2_threads':32s} {s * 1e3:9.2f} ms  {bytes_per * N / s / 1e9:7.2f} GB/s")


if __name__ == "__main__":
    main()
