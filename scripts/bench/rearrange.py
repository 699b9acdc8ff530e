#!/usr/bin/env python3
"""PyTorch's rearrangements on the cases of benches/rearrange.rs, on a
(4096, 4096) float32 matrix: a copy (clone), tril, flip of either dimension,
roll, rot90, repeat of a (2048, 4096) half, a constant pad of a (4094,
4094) matrix and a reflecting pad of a (1, 4096, 4094) batch. PyTorch runs
on 2 threads (torch.set_num_threads(2)).

    python3 scripts/bench/rearrange.py [--repeat 5] [--number 3]
"""

import argparse
import timeit

import torch
import torch.nn.functional as F

SIDE = 4096
torch.set_num_threads(2)


def best(f, repeat, number):
    return min(timeit.repeat(f, repeat=repeat, number=number)) / number


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--repeat", type=int, default=5)
    p.add_argument("--number", type=int, default=3)
    args = p.parse_args()
    x = torch.ones(SIDE, SIDE)
    half = torch.ones(SIDE // 2, SIDE)
    inner = torch.ones(SIDE - 2, SIDE - 2)
    rows = torch.ones(1, SIDE, SIDE - 2)
    for name, f in [
        ("copy", lambda: x.clone()),
        ("tril", lambda: torch.tril(x)),
        ("flip_0", lambda: torch.flip(x, [0])),
        ("flip_1", lambda: torch.flip(x, [1])),
        ("roll_1", lambda: torch.roll(x, 1, 1)),
        # rot90 returns a transposed view of a flip: .contiguous() is not
        # asked, as shaped's returns the same layout.
        ("rot90", lambda: torch.rot90(x, 1, [0, 1])),
        ("repeat_2x1", lambda: half.repeat(2, 1)),
        ("pad_constant", lambda: F.pad(inner, [1, 1, 1, 1])),
        ("pad_reflect", lambda: F.pad(rows, [1, 1], mode="reflect")),
    ]:
        s = best(f, args.repeat, args.number)
        print(f"{name + '/torch_2_threads':32s} {s * 1e3:9.2f} ms  {4 * SIDE * SIDE / s / 1e9:7.2f} GB/s")


if __name__ == "__main__":
    main()
