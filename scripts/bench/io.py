#!/usr/bin/env python3
"""Python's file formats on the cases of benches/io.rs: safetensors.torch
(one 64 MiB tensor of a 1 GiB and of a 128 MiB file, lazily with safe_open;
load_file of a whole 256 MiB file) and numpy.save / numpy.load of 256 MiB of
float32 (over the last file, to a new one, transposed, every other column). Files in the temporary directory, read from the page cache.

    python3 scripts/bench/io.py [--repeat 5] [--number 3]

Pinned: torch==2.15.0, numpy==2.4.6, safetensors==0.8.0.
"""

import argparse
import os
import tempfile
import timeit

import numpy as np
import torch
from safetensors import safe_open
from safetensors.torch import load_file, save_file

MIB = 1 << 20
torch.set_num_threads(2)


def best(f, repeat, number):
    return min(timeit.repeat(f, repeat=repeat, number=number)) / number


def report(name, seconds, nbytes=None):
    rate = f"  {nbytes / seconds / 1e9:7.2f} GB/s" if nbytes else ""
    print(f"{name:40s} {seconds * 1e3:10.3f} ms{rate}")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--repeat", type=int, default=5)
    p.add_argument("--number", type=int, default=3)
    args = p.parse_args()
    tmp = tempfile.gettempdir()
    t = torch.arange(16 * MIB, dtype=torch.float32)
    files = {}
    for label, count in [("1GiB", 16), ("128MiB", 2), ("256MiB", 4)]:
        path = os.path.join(tmp, f"py-bench-{label}.safetensors")
        save_file({f"layer.{i:02}": t.clone() for i in range(count)}, path)
        files[label] = path

    def one(path):
        with safe_open(path, framework="pt") as f:
            return f.get_tensor("layer.01")

    for label in ["1GiB", "128MiB"]:
        report(f"safe_open_get_tensor/{label}/torch", best(lambda: one(files[label]), args.repeat, args.number))
    # load_file maps the file: its tensors are the file's pages (as shaped's
    # SafeTensors::mmap). Cloning them is the materialized load (as load_all).
    report("load_file/256MiB/torch", best(lambda: load_file(files["256MiB"]), args.repeat, args.number), 256 * MIB)
    report("load_file_clone/256MiB/torch",
           best(lambda: [v.clone() for v in load_file(files["256MiB"]).values()], args.repeat, args.number),
           256 * MIB)

    a = np.arange(64 * MIB, dtype=np.float32)
    npy = os.path.join(tmp, "py-bench-256MiB.npy")
    report("npy_write_256MiB/numpy", best(lambda: np.save(npy, a), args.repeat, args.number), 256 * MIB)

    def new_file():
        os.remove(npy)
        start = timeit.default_timer()
        np.save(npy, a)
        return timeit.default_timer() - start

    report("npy_write_new_256MiB/numpy", min(new_file() for _ in range(args.repeat * args.number)), 256 * MIB)
    m = a.reshape(8192, 8192)
    report("npy_write_transposed_256MiB/numpy", best(lambda: np.save(npy, m.T), args.repeat, args.number), 256 * MIB)
    report("npy_write_every_other_column_256MiB/numpy",
           best(lambda: np.save(npy, m[:, ::2]), args.repeat, args.number), 128 * MIB)
    np.save(npy, a)
    report("npy_read_256MiB/numpy", best(lambda: np.load(npy), args.repeat, args.number), 256 * MIB)
    for path in list(files.values()) + [npy]:
        os.remove(path)


if __name__ == "__main__":
    main()
