#!/usr/bin/env python3
# Requires: torch==2.15.0, numpy==2.4.6
"""Indexing by tensors in PyTorch and NumPy (CPU), on the cases of
`benches/indexing.rs`, with the same byte accounting.

Cases (float32):
  copy:              64 MiB into a preallocated buffer (Tensor.copy_ on 2
                     threads): the memory-bandwidth reference
  index_select_rows: 65,536 random rows of a (1,000,000, 128) table
                     (torch.index_select; numpy take(axis=0))
  gather_dim1:       (4096, 4096) along dim 1 with a random index of the same
                     shape (torch.gather; numpy take_along_axis)
  scatter_add_dim1:  (4096, 4096) of zeros, the same matrix scattered along
                     dim 1 by the same random index (torch.scatter_add, out
                     of place; numpy add.at on a copy)
  masked_fill:       (4096, 4096) with a random mask, half true, out of place
                     (Tensor.masked_fill; numpy where)
  masked_select:     the elements of (4096, 4096) that mask picks
                     (Tensor.masked_select; numpy boolean indexing)
  take:              4M random positions of 16M elements (torch.take;
                     numpy take)
  index_rows:        x[idx], 65,536 random rows of (1,000,000, 64)
  index_pairs:       x[i, j], 4M random pairs of (4096, 4096)
  index_put_accumulate: x.index_put_((i, j), ones, accumulate=True) of the
                     same pairs (numpy add.at)

numpy runs on one thread; PyTorch on 2 (torch.set_num_threads(2)). Bytes: a
gather reads and writes each output element and reads each index (8 bytes).
Timing: timeit, best of --repeat runs of --number calls each.

Usage: python3 scripts/bench/indexing.py [--repeat R] [--number K]
"""

import argparse
import timeit

import numpy as np
import torch

torch.set_num_threads(2)


def values(n):
    i = np.arange(n, dtype=np.uint64)
    return ((i * np.uint64(2654435761)) % np.uint64(1000)).astype(np.float32) * np.float32(0.001)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--number", type=int, default=3)
    args = parser.parse_args()
    rng = np.random.default_rng(0)

    def best(f):
        f()
        return min(timeit.repeat(f, repeat=args.repeat, number=args.number)) / args.number

    side = 4096
    square = values(side * side).reshape(side, side)
    t_square = torch.from_numpy(square)
    t_dst = torch.empty_like(t_square)
    rows, width, picked = 1_000_000, 128, 65_536
    table = values(rows * width).reshape(rows, width)
    t_table = torch.from_numpy(table)
    picks = rng.integers(0, rows, picked)
    t_picks = torch.from_numpy(picks)
    gidx = rng.integers(0, side, (side, side))
    t_gidx = torch.from_numpy(gidx)
    tidx = rng.integers(0, side * side, 1 << 22)
    t_tidx = torch.from_numpy(tidx)
    flat = square.reshape(-1)
    t_zeros = torch.zeros(side, side)
    mask = rng.integers(0, 2, (side, side)).astype(bool)
    t_mask = torch.from_numpy(mask)
    zeros = np.zeros((side, side), dtype=np.float32)
    rows = np.arange(side)[:, None]

    def numpy_scatter_add():
        out = zeros.copy()
        np.add.at(out, (rows, gidx), square)
        return out
    t_flat = t_square.view(-1)
    adv = values(1_000_000 * 64).reshape(1_000_000, 64)
    t_adv = torch.from_numpy(adv)
    adv_picks = rng.integers(0, 1_000_000, 65_536)
    t_adv_picks = torch.from_numpy(adv_picks)
    n = 1 << 22
    pi, pj = rng.integers(0, side, n), rng.integers(0, side, n)
    t_pi, t_pj = torch.from_numpy(pi), torch.from_numpy(pj)
    t_ones, ones = torch.ones(n), np.ones(n, dtype=np.float32)
    t_acc, acc = torch.zeros(side, side), np.zeros((side, side), dtype=np.float32)

    cases = [
        ("copy", "torch (2 threads)", lambda: t_dst.copy_(t_square), 8 * side * side),
        ("index_select_rows", "numpy", lambda: table.take(picks, axis=0), 8 * picked * width + 8 * picked),
        ("index_select_rows", "torch", lambda: torch.index_select(t_table, 0, t_picks), 8 * picked * width + 8 * picked),
        ("gather_dim1", "numpy", lambda: np.take_along_axis(square, gidx, axis=1), 16 * side * side),
        ("gather_dim1", "torch", lambda: torch.gather(t_square, 1, t_gidx), 16 * side * side),
        ("scatter_add_dim1", "numpy", numpy_scatter_add, 16 * side * side),
        ("scatter_add_dim1", "torch", lambda: torch.scatter_add(t_zeros, 1, t_gidx, t_square), 16 * side * side),
        ("masked_fill", "numpy", lambda: np.where(mask, np.float32(0), square), 9 * side * side),
        ("masked_fill", "torch", lambda: t_square.masked_fill(t_mask, 0.0), 9 * side * side),
        ("masked_select", "numpy", lambda: square[mask], 7 * side * side),
        ("masked_select", "torch", lambda: t_square.masked_select(t_mask), 7 * side * side),
        ("take", "numpy", lambda: flat.take(tidx), 16 << 22),
        ("take", "torch", lambda: torch.take(t_flat, t_tidx), 16 << 22),
        ("index_rows", "numpy", lambda: adv[adv_picks], 8 * 65_536 * 64 + 8 * 65_536),
        ("index_rows", "torch", lambda: t_adv[t_adv_picks], 8 * 65_536 * 64 + 8 * 65_536),
        ("index_pairs", "numpy", lambda: square[pi, pj], 24 * n),
        ("index_pairs", "torch", lambda: t_square[t_pi, t_pj], 24 * n),
        ("index_put_accumulate", "numpy", lambda: np.add.at(acc, (pi, pj), ones), 28 * n),
        ("index_put_accumulate", "torch", lambda: t_acc.index_put_((t_pi, t_pj), t_ones, accumulate=True), 28 * n),
    ]
    print(f"torch {torch.__version__}, numpy {np.__version__}, torch threads {torch.get_num_threads()}")
    for group, name, f, nbytes in cases:
        t = best(f)
        print(f"{group:18s} {name:18s} {t * 1e3:8.2f} ms  {nbytes / t / 1e9:6.1f} GB/s")


if __name__ == "__main__":
    main()
