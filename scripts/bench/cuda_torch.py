"""PyTorch on a CUDA device, timed as examples/cuda_bandwidth.rs times shaped:
the same cases (f32 and bf16, 256M elements, contiguous and broadcast adds, a
copy, sums; f32 + bf16), bandwidth as bytes read and written against the
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
for dtype, name in [(torch.float32, "f32"), (torch.bfloat16, "bf16")]:
    m = 4096
    x = torch.ones(m, m, dtype=dtype, device="cuda")
    s = seconds(lambda: x @ x)
    print(f"{name}: {'a @ b (' + str(m) + 'x' + str(m) + ')':<40} {s * 1e3:7.3f} ms {2 * m**3 / s / 1e12:6.1f} TFLOP/s"
          f" (tf32 {torch.backends.cuda.matmul.allow_tf32})")
