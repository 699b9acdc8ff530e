#!/usr/bin/env python3
"""Build time of type-level shapes: one program of 200 differently-shaped
operations, written once with `shaped` and once with `ndarray`, compiled by
the same cargo; prints the seconds of each and their ratio.

The two programs do the same work in the same order: broadcasting adds,
matrix products, sums along an axis, transposed copies and
concatenations, each on its own sizes, so every static shape is a new
instantiation. Dependencies are built first; then each program's own crate
is rebuilt (after a touch) `--runs` times and the fastest build counts, in
two ways: from scratch (`CARGO_INCREMENTAL=0`: every function of the
program is compiled and linked again) and incrementally (cargo's default for
debug builds, where an unchanged crate mostly relinks).

    python3 scripts/bench/compile_time.py [--ops 200] [--runs 3] [--release] [--only KIND]

`--only add|matmul|sum|transpose|cat|gather|scatter_add|masked_fill` writes 200 operations of one
kind, to see what each kind costs (the op families added after the first
five are measured this way only, so that the default mix stays comparable).

`--dependencies` measures what a new user meets instead: each program built
from nothing, its dependencies included (a fresh target directory, as after
`cargo new`), once; it prints the wall and CPU seconds (user + system, all
of cargo's processes), the number of crates compiled and the binary's size.
`--features` passes features to shaped (with `--no-default-features` in it
if wanted), to see what a lighter dependency saves.

The projects are written under `target/compile-time/` (ignored by git).
"""

import argparse
import os
import pathlib
import random
import resource
import shutil
import subprocess
import time

ROOT = pathlib.Path(__file__).resolve().parents[2]
OUT = ROOT / "target" / "compile-time"


def sizes(rng, count):
    return [rng.randint(2, 9) for _ in range(count)]


KINDS = ["add", "matmul", "sum", "transpose", "cat"]
# The op families added since: each measured alone with `--only`, so that
# the default mix stays the program the history in docs/performance.md
# measured.
EXTRA_KINDS = ["gather", "scatter_add", "masked_fill"]


def op_pair(i, rng, only=None):
    """The `i`-th operation as (shaped statement, ndarray statement)."""
    if only == "gather":  # (m, n) gathered along 1 by an (m, k) index
        m, n, k = sizes(rng, 3)
        return (
            f"let a = Tensor::<f32, shape![{m}, {n}]>::ones();\n"
            f"    let i = Tensor::<i64, shape![{m}, {k}]>::zeros();\n"
            f"    let c = a.gather::<1>(&i);\n    acc += c[[0, 0]];",
            f"let a = Array2::<f32>::ones(({m}, {n}));\n"
            f"    let i = Array2::<i64>::zeros(({m}, {k}));\n"
            f"    let c = Array2::from_shape_fn(({m}, {k}), |(r, j)| a[[r, i[[r, j]] as usize]]);\n"
            f"    acc += c[[0, 0]];",
        )
    if only == "scatter_add":  # (m, k) added into (m, n) along 1 at an (m, k) index
        m, n, k = sizes(rng, 3)
        return (
            f"let mut a = Tensor::<f32, shape![{m}, {n}]>::zeros();\n"
            f"    let i = Tensor::<i64, shape![{m}, {k}]>::zeros();\n"
            f"    let s = Tensor::<f32, shape![{m}, {k}]>::ones();\n"
            f"    a.scatter_add_::<1>(&i, &s);\n    acc += a[[0, 0]];",
            f"let mut a = Array2::<f32>::zeros(({m}, {n}));\n"
            f"    let i = Array2::<i64>::zeros(({m}, {k}));\n"
            f"    let s = Array2::<f32>::ones(({m}, {k}));\n"
            f"    for ((r, j), &v) in s.indexed_iter() {{ a[[r, i[[r, j]] as usize]] += v; }}\n"
            f"    acc += a[[0, 0]];",
        )
    if only == "masked_fill":  # (m, n) with a (1, n) mask
        m, n = sizes(rng, 2)
        return (
            f"let a = Tensor::<f32, shape![{m}, {n}]>::ones();\n"
            f"    let mask = Tensor::<bool, shape![1, {n}]>::ones();\n"
            f"    let c = a.masked_fill(&mask, 0.0);\n    acc += c[[0, 0]];",
            f"let a = Array2::<f32>::ones(({m}, {n}));\n"
            f"    let mask = Array2::<bool>::from_elem((1, {n}), true);\n"
            f"    let c = ndarray::Zip::from(&a).and_broadcast(&mask).map_collect(|&v, &m| if m {{ 0.0 }} else {{ v }});\n"
            f"    acc += c[[0, 0]];",
        )
    kind = KINDS.index(only) if only else i % 5
    if kind == 0:  # (m, 1, k) + (n, k) broadcast to (m, n, k)
        m, n, k = sizes(rng, 3)
        return (
            f"let a = Tensor::<f32, shape![{m}, 1, {k}]>::ones();\n"
            f"    let b = Tensor::<f32, shape![{n}, {k}]>::ones();\n"
            f"    let c = &a + &b;\n    acc += c[[0, 0, 0]];",
            f"let a = Array3::<f32>::ones(({m}, 1, {k}));\n"
            f"    let b = Array2::<f32>::ones(({n}, {k}));\n"
            f"    let c = &a + &b;\n    acc += c[[0, 0, 0]];",
        )
    if kind == 1:  # (m, k) . (k, n)
        m, k, n = sizes(rng, 3)
        return (
            f"let a = Tensor::<f32, shape![{m}, {k}]>::ones();\n"
            f"    let b = Tensor::<f32, shape![{k}, {n}]>::ones();\n"
            f"    let c = a.matmul(&b);\n    acc += c[[0, 0]];",
            f"let a = Array2::<f32>::ones(({m}, {k}));\n"
            f"    let b = Array2::<f32>::ones(({k}, {n}));\n"
            f"    let c = a.dot(&b);\n    acc += c[[0, 0]];",
        )
    if kind == 2:  # sum of (m, n, k) along axis 1
        m, n, k = sizes(rng, 3)
        return (
            f"let a = Tensor::<f32, shape![{m}, {n}, {k}]>::ones();\n"
            f"    let c = a.sum_dim::<1>();\n    acc += c[[0, 0]];",
            f"let a = Array3::<f32>::ones(({m}, {n}, {k}));\n"
            f"    let c = a.sum_axis(Axis(1));\n    acc += c[[0, 0]];",
        )
    if kind == 3:  # a transposed (m, n) made contiguous
        m, n = sizes(rng, 2)
        return (
            f"let a = Tensor::<f32, shape![{m}, {n}]>::ones();\n"
            f"    let c = a.t().contiguous();\n    acc += c[[0, 0]];",
            f"let a = Array2::<f32>::ones(({m}, {n}));\n"
            f"    let c = a.t().as_standard_layout().into_owned();\n    acc += c[[0, 0]];",
        )
    # (m, k) and (n, k) concatenated along axis 0
    m, n, k = sizes(rng, 3)
    return (
        f"let a = Tensor::<f32, shape![{m}, {k}]>::ones();\n"
        f"    let b = Tensor::<f32, shape![{n}, {k}]>::ones();\n"
        f"    let c = (&a, &b).cat::<0>();\n    acc += c[[0, 0]];",
        f"let a = Array2::<f32>::ones(({m}, {k}));\n"
        f"    let b = Array2::<f32>::ones(({n}, {k}));\n"
        f"    let c = concatenate(Axis(0), &[a.view(), b.view()]).unwrap();\n"
        f"    acc += c[[0, 0]];",
    )


def write_project(name, dependency, prelude, bodies):
    project = OUT / name
    (project / "src").mkdir(parents=True, exist_ok=True)
    (project / "Cargo.toml").write_text(
        f'[package]\nname = "{name}"\nversion = "0.0.0"\nedition = "2021"\n\n'
        f"[dependencies]\n{dependency}\n\n[workspace]\n"
    )
    functions = "".join(
        f"\n#[inline(never)]\nfn op{i}() -> f32 {{\n    let mut acc = 0.0;\n    {body}\n    acc\n}}\n"
        for i, body in enumerate(bodies)
    )
    calls = " + ".join(f"op{i}()" for i in range(len(bodies)))
    (project / "src" / "main.rs").write_text(
        f"{prelude}\n{functions}\nfn main() {{\n    println!(\"{{}}\", {calls});\n}}\n"
    )
    return project


def build_seconds(project, release, runs, incremental):
    flags = ["--release"] if release else []
    target = project / ("target" if incremental else "target-scratch")
    env = dict(os.environ, CARGO_TARGET_DIR=str(target))
    if not incremental:
        env["CARGO_INCREMENTAL"] = "0"
    subprocess.run(["cargo", "build", "-q", *flags], cwd=project, env=env, check=True)
    best = float("inf")
    for _ in range(runs):
        (project / "src" / "main.rs").touch()
        start = time.perf_counter()
        subprocess.run(["cargo", "build", "-q", *flags], cwd=project, env=env, check=True)
        best = min(best, time.perf_counter() - start)
    return best


def shaped_dependency(features):
    """The `[dependencies]` line for shaped with `features` ("" for the
    defaults; "no-default-features" turns them off)."""
    wanted = [f for f in features.split(",") if f and f != "no-default-features"]
    extra = ", default-features = false" if "no-default-features" in features else ""
    listed = f", features = {wanted!r}".replace("'", '"') if wanted else ""
    return f'shaped = {{ path = "{ROOT}"{extra}{listed} }}'


def build_from_nothing(project, release):
    """Wall seconds, CPU seconds, crates compiled and binary bytes of a
    build of `project` and its dependencies into a fresh target directory."""
    flags = ["--release"] if release else []
    target = project / "target-fresh"
    shutil.rmtree(target, ignore_errors=True)
    env = dict(os.environ, CARGO_TARGET_DIR=str(target))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(
        ["cargo", "build", *flags], cwd=project, env=env, check=True,
        capture_output=True, text=True,
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    crates = sum(1 for line in done.stderr.splitlines() if line.strip().startswith("Compiling "))
    binary = target / ("release" if release else "debug") / project.name
    return wall, cpu, crates, binary.stat().st_size


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ops", type=int, default=200)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--release", action="store_true")
    parser.add_argument("--only", choices=KINDS + EXTRA_KINDS, help="operations of this kind only")
    parser.add_argument("--dependencies", action="store_true",
                        help="build each program and its dependencies from nothing, once")
    parser.add_argument("--features", default="",
                        help="shaped's features, e.g. 'no-default-features' or 'half,complex'")
    args = parser.parse_args()
    rng = random.Random(7)
    pairs = [op_pair(i, rng, args.only) for i in range(args.ops)]
    shaped = write_project(
        "ops_shaped",
        shaped_dependency(args.features),
        "use shaped::prelude::*;",
        [p[0] for p in pairs],
    )
    ndarray = write_project(
        "ops_ndarray",
        'ndarray = "0.17"',
        "use ndarray::{concatenate, Array2, Array3, Axis};",
        [p[1] for p in pairs],
    )
    profile = "release" if args.release else "debug"
    if args.dependencies:
        print(f"{args.ops} ops, {profile} build from nothing, dependencies included:")
        print(f"  {'':8} {'wall':>8} {'cpu':>8} {'crates':>7} {'binary':>9}")
        results = {}
        for name, project in (("shaped", shaped), ("ndarray", ndarray)):
            wall, cpu, crates, size = build_from_nothing(project, args.release)
            results[name] = cpu
            print(f"  {name:8} {wall:7.1f}s {cpu:7.1f}s {crates:7} {size / 1e6:7.1f}MB")
        print(f"  cpu ratio {results['shaped'] / results['ndarray']:.2f}")
        return
    print(f"{args.ops} ops, {profile} build of the program's crate (best of {args.runs}):")
    print(f"  {'':12} {'shaped':>8} {'ndarray':>8} {'ratio':>6}")
    for incremental in (False, True):
        s = build_seconds(shaped, args.release, args.runs, incremental)
        n = build_seconds(ndarray, args.release, args.runs, incremental)
        name = "incremental" if incremental else "from scratch"
        print(f"  {name:12} {s:7.2f}s {n:7.2f}s {s / n:6.2f}")


if __name__ == "__main__":
    main()
