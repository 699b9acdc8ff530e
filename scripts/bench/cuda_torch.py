"""PyTorch on a CUDA device, timed as examples/cuda_bandwidth.rs times shaped:
the same cases (f32 and bf16, 256M elements, contiguous and broadcast adds, a
copy, sums; f32 + bf16; the indexing cases; softmax, logsumexp, var and
the 2-norm along rows and columns; the random fills (randn, rand, uniform_,
normal_, bernoulli_, random_, poisson); the scans; the sorts and the sets, in elements per
second; exp, tanh, gelu and abs of f32 and f16), bandwidth as bytes read and written against the
device-to-device copy of the same bytes. Run it on the machine that runs the
example, in the same session, to compare the two.

    python3 scripts/bench/cuda_torch.py

Timing: a warm-up, then 20 runs between CUDA events (each `a + b` allocates
its output from PyTorch's caching allocator, as shaped's from the
stream-ordered pool).
"""

import torch

N = 256 << 20
ROWS = 16384
COLS = N // ROWS
REPEATS = 20


def seconds(f):
    f()
    torch.cuda.synchronize()
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    for _ in range(REPEATS):
        f()
    end.record()
    torch.cuda.synchronize()
    return start.elapsed_time(end) / 1e3 / REPEATS


def report(name, case, s, moved, copy):
    gbs = moved / s / 1e9
    print(f"{name}: {case:<40} {s * 1e3:7.3f} ms {gbs:6.0f} GB/s = {100 * gbs / copy:5.1f}% of copy")


def run(dtype, name):
    size = torch.tensor([], dtype=dtype).element_size()
    nbytes = N * size
    src = torch.zeros(nbytes, dtype=torch.uint8, device="cuda")
    dst = torch.empty_like(src)
    copy = 2 * nbytes / seconds(lambda: dst.copy_(src)) / 1e9
    print(f"{name}: device copy of {nbytes >> 20} MiB: {copy:.0f} GB/s (torch {torch.__version__})")
    del src, dst
    a = torch.ones(ROWS, COLS, dtype=dtype, device="cuda")
    b = torch.ones(ROWS, COLS, dtype=dtype, device="cuda")
    row = torch.ones(COLS, dtype=dtype, device="cuda")
    column = torch.ones(ROWS, 1, dtype=dtype, device="cuda")
    cases = [
        ("a.clone()", lambda: a.clone(), 2 * nbytes),
        ("a + b (contiguous)", lambda: a + b, 3 * nbytes),
        ("a + row (16384x16384 + 16384)", lambda: a + row, 2 * nbytes),
        ("a + column (16384x16384 + 16384x1)", lambda: a + column, 2 * nbytes),
        ("a.sum()", lambda: a.sum(), nbytes),
        ("a.sum(1) (rows)", lambda: a.sum(1), nbytes),
        ("a.sum(0) (columns)", lambda: a.sum(0), nbytes),
    ]
    for case, f, moved in cases:
        report(name, case, seconds(f), moved, copy)
    return copy


copy = run(torch.float32, "f32")
run(torch.bfloat16, "bf16")
a = torch.ones(ROWS, COLS, dtype=torch.float32, device="cuda")
b = torch.ones(ROWS, COLS, dtype=torch.bfloat16, device="cuda")
report("mixed", "f32 a + bf16 b (promoted, contiguous)", seconds(lambda: a + b), N * (4 + 2 + 4), copy)
g = torch.Generator(device="cuda").manual_seed(7)
a = torch.randint(0, 1000, (ROWS, COLS), device="cuda", generator=g).float()
rows = torch.randint(0, ROWS, (ROWS,), device="cuda", generator=g)
along = torch.randint(0, COLS, (ROWS, COLS), device="cuda", generator=g)
anywhere = torch.randint(0, N, (N // 4,), device="cuda", generator=g)
mask = torch.randint(0, 2, (ROWS, COLS), device="cuda", generator=g) == 1
target = torch.zeros(ROWS, COLS, device="cuda")
for case, f, moved in [
    ("a.index_select(0, rows) (16384 rows)", lambda: a.index_select(0, rows), 2 * N * 4 + ROWS * 8),
    ("a.gather(1, idx) (int64 idx, a's shape)", lambda: a.gather(1, along), 2 * N * 4 + N * 8),
    ("a.take(idx) (N/4 anywhere)", lambda: a.take(anywhere), (N // 4) * (4 + 4 + 8)),
    ("t.scatter_add_(1, idx, a) (in place)", lambda: target.scatter_add_(1, along, a), 3 * N * 4 + N * 8),
    ("a.masked_fill(mask, 0) (bool mask)", lambda: a.masked_fill(mask, 0.0), 2 * N * 4 + N),
    ("a.masked_select(mask) (half picked)", lambda: a.masked_select(mask), N * 4 + N + N * 2),
    ("a.index(&[rows]) (x[idx], 16384 rows)", lambda: a[rows], 2 * N * 4 + ROWS * 8),
]:
    report("index", case, seconds(f), moved, copy)
del a, rows, along, anywhere, mask, target
a = torch.randint(0, 1000, (ROWS, COLS), device="cuda", generator=g).float() / 100
for dim, along in [(1, "rows"), (0, "columns")]:
    for case, f, moved in [
        (f"a.softmax({dim}) ({along})", lambda: a.softmax(dim), 2 * N * 4),
        (f"a.log_softmax({dim}) ({along})", lambda: a.log_softmax(dim), 2 * N * 4),
        (f"a.logsumexp([{dim}]) ({along})", lambda: a.logsumexp([dim]), N * 4),
        (f"a.var([{dim}], 1) ({along})", lambda: a.var([dim], correction=1), N * 4),
        (f"a.vector_norm(2, [{dim}]) ({along})", lambda: torch.linalg.vector_norm(a, 2, [dim]), N * 4),
    ]:
        report("normalize", case, seconds(f), moved, copy)
del a
like = torch.zeros(ROWS, COLS, device="cuda")
x = torch.zeros_like(like)
rates = torch.full_like(like, 4.0)
for case, f, moved in [
    ("randn_like (new, 256M)", lambda: torch.randn_like(like), N * 4),
    ("rand_like (new, 256M)", lambda: torch.rand_like(like), N * 4),
    ("x.uniform_(-1, 1) (in place)", lambda: x.uniform_(-1.0, 1.0, generator=g), N * 4),
    ("x.normal_(0, 1) (in place)", lambda: x.normal_(0.0, 1.0, generator=g), N * 4),
    ("x.bernoulli_(0.3) (in place)", lambda: x.bernoulli_(0.3, generator=g), N * 4),
    ("x.random_to_(1000) (in place)", lambda: x.random_(1000, generator=g), N * 4),
    ("rates.poisson() (rate 4)", lambda: torch.poisson(rates, generator=g), 2 * N * 4),
]:
    report("random", case, seconds(f), moved, copy)
del like, x, rates
a = torch.randint(0, 1000, (ROWS, COLS), device="cuda", generator=g).float() / 1000 + 0.5
flat = a.reshape(-1)
report("scan", "a.flatten().cumsum(0) (one line)", seconds(lambda: flat.cumsum(0)), 2 * N * 4, copy)
for dim, along in [(1, "rows"), (0, "columns")]:
    for case, f, moved in [
        (f"a.cumsum({dim}) ({along})", lambda: a.cumsum(dim), 2 * N * 4),
        (f"a.cummax({dim}) ({along})", lambda: a.cummax(dim), 4 * N * 4),
        (f"a.logcumsumexp({dim}) ({along})", lambda: a.logcumsumexp(dim), 2 * N * 4),
    ]:
        report("scan", case, seconds(f), moved, copy)
del a, flat
side = 4096
a = torch.randint(0, 1 << 24, (side, side), device="cuda", generator=g).float() / 4096 - 2048
flat = a.reshape(-1)
for case, f in [
    ("a.flatten().sort(0) (16M, one line)", lambda: flat.sort(dim=0, stable=True)),
    ("a.sort(1) (rows of 4096)", lambda: a.sort(dim=1, stable=True)),
    ("a.topk(10, 1) (rows of 4096)", lambda: a.topk(10, 1)),
]:
    s = seconds(f)
    print(f"sort: {case:<40} {s * 1e3:7.3f} ms {side * side / s / 1e9:6.2f} G elements/s")
del a, flat
n, m = 1 << 24, 1 << 22
ints = torch.randint(0, 65536, (n,), device="cuda", generator=g)
floats = torch.randint(0, 1 << 24, (m,), device="cuda", generator=g).float() / (1 << 24)
bounds = torch.arange(65536, device="cuda").float() / 65536
wide = torch.randint(0, 1 << 24, (n,), device="cuda", generator=g).float() / (1 << 24)
for case, count, f in [
    ("x.unique() (16M int64 < 65536)", n, lambda: torch.unique(ints)),
    ("x.unique(inverse, counts) (16M int64)", n,
     lambda: torch.unique(ints, return_inverse=True, return_counts=True)),
    ("x.bincount() (16M int64 < 65536)", n, lambda: torch.bincount(ints)),
    ("f.unique(inverse) (4M f32)", m, lambda: torch.unique(floats, return_inverse=True)),
    ("b.searchsorted(f) (4M f32 in 64K)", m, lambda: torch.searchsorted(bounds, floats)),
    ("u.histc(100) (16M f32)", n, lambda: torch.histc(wide, 100, 0.0, 1.0)),
]:
    s = seconds(f)
    print(f"sets: {case:<40} {s * 1e3:7.3f} ms {count / s / 1e9:6.2f} G elements/s")
del ints, floats, bounds, wide
for dtype, name in [(torch.float32, "math f32"), (torch.float16, "math f16")]:
    nbytes = N * torch.tensor([], dtype=dtype).element_size()
    src = torch.zeros(nbytes, dtype=torch.uint8, device="cuda")
    dst = torch.empty_like(src)
    copy = 2 * nbytes / seconds(lambda: dst.copy_(src)) / 1e9
    del src, dst
    a = ((torch.arange(N, device="cuda") % 2001).float() / 250 - 4).to(dtype).reshape(ROWS, COLS)
    for case, f in [
        ("a.exp()", lambda: a.exp()),
        ("a.tanh()", lambda: a.tanh()),
        ("a.gelu() (erf)", lambda: torch.nn.functional.gelu(a)),
        ("a.abs()", lambda: a.abs()),
    ]:
        report(name, case, seconds(f), 2 * nbytes, copy)
    del a
for dtype, name in [(torch.float32, "f32"), (torch.bfloat16, "bf16"), (torch.float16, "f16"), (torch.float64, "f64")]:
    for batch, m in [(1, 4096), (64, 512)]:
        x = torch.ones(*([batch] if batch > 1 else []), m, m, dtype=dtype, device="cuda")
        case = f"a @ b ({m}x{m})" if batch == 1 else f"a.bmm(b) ({batch}x{m}x{m})"
        s = seconds(lambda: x @ x)
        print(f"{name}: {case:<40} {s * 1e3:7.3f} ms {2 * batch * m**3 / s / 1e12:6.1f} TFLOP/s"
              f" (tf32 {torch.backends.cuda.matmul.allow_tf32})")
