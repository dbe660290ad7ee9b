"""Throughput of compute: the numpy TGSI executor next to llvmpipe's native
compute shaders, on the classic kernels of tests/context/test_compute_kernels.py
and tests/context/test_shader_images.py.

    python benchmarks/bench_compute.py [--max-log2 20] [--reps 3] [--json]

For each kernel (vector add, histogram with atomics, the shared-memory
reduction, the image blur reading and writing R32_FLOAT images) and each
grid size 2^k invocations (vector add: k = 0 .. max-log2, blocks of
min(2^k, 64); the kernels with a fixed block: from one block, k = 6), one
launch_grid through glpipe is timed on the ``native`` profile (host compute
shaders) and on ``gl33`` (the executor), best of ``reps``, including the
read-back of the results (a transfer_map READ: both paths must finish).
Reported: seconds, and invocations x TGSI instructions per second (the
executor's work unit; the host's number uses the same count).  The
executor's cost should grow linearly with invocations once a launch spans
more than one chunk of lanes (fallback/tgsi_exec CHUNK_LANES).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path or sys.path.index(str(ROOT)) != 0:
    sys.path.insert(0, str(ROOT))  # measure this working tree, not an installed copy

import numpy as np

BLOCK = 64


def _kernels():
    """name -> (TGSI text, shared bytes, smallest log2 of invocations)."""
    from tests.context import test_compute_kernels as k
    from tests.context import test_shader_images as im

    add = k.VECTOR_ADD.replace("IMM[0] UINT32 {1000, 4, 0, 0}", "IMM[0] UINT32 {%N%, 4, 0, 0}")
    reduction = k._reduction(True).replace("IMM[0] UINT32 {64, 4, 1000, 0}", "IMM[0] UINT32 {64, 4, %N%, 0}")
    return {
        "vector_add": (add, 0, 0),
        "histogram": (k.HISTOGRAM, 0, 6),
        "reduction": (reduction, 4, 6),
        "image_blur": (im.BLUR_CS, 0, 6),
    }


def _image_shape(n: int) -> tuple[int, int]:
    """(width, height) of an n-texel image for the 8x8-block blur (n >= 64, a power of 2)."""
    k = n.bit_length() - 1
    return 1 << ((k + 1) // 2), 1 << (k // 2)


def _instructions(text: str) -> int:
    from lowering import parse

    return len(parse(text).instructions)


def _buffers(name: str, n: int):
    rng = np.random.default_rng(0)
    if name == "vector_add":
        return [
            rng.standard_normal(n).astype(np.float32),
            rng.standard_normal(n).astype(np.float32),
            np.zeros(n, np.float32),
        ]
    if name == "histogram":
        return [rng.integers(0, 16, n, dtype=np.uint32), np.zeros(16, np.uint32), np.zeros(n, np.uint32)]
    return [rng.integers(0, 1000, n, dtype=np.uint32), np.zeros(n // BLOCK, np.uint32)]


def _time_one(screen, text: str, name: str, n: int, local: int, reps: int) -> float:
    from glpipe import ComputeState, Format, GridInfo, ImageAccess, ImageView, ShaderType
    from tests.context.test_shader_images import image_texture, read_texture
    from tests.context.util_compute import bind_buffers, read_buffer, shader_buffer

    ctx = screen.context_create()
    try:
        if name == "image_blur":
            w, h = _image_shape(n)
            src = np.random.default_rng(0).standard_normal((h, w)).astype(np.float32)
            imgs = [image_texture(screen, ctx, a, Format.R32_FLOAT) for a in (src, np.zeros_like(src))]
            access = (ImageAccess.READ, ImageAccess.WRITE)
            views = [
                ImageView(resource=r, format=Format.R32_FLOAT, access=a) for r, a in zip(imgs, access, strict=True)
            ]
            ctx.set_shader_images(ShaderType.COMPUTE, 0, views)
            info = GridInfo(block=(8, 8, 1), grid=(w // 8, h // 8, 1))

            def read_back():
                read_texture(ctx, imgs[1], np.float32)

            resources = imgs
        else:
            resources = [shader_buffer(screen, ctx, a) for a in _buffers(name, n)]
            bind_buffers(ctx, *resources)
            block = min(n, BLOCK)
            info = GridInfo(block=(block, 1, 1), grid=(n // block, 1, 1))

            def read_back():
                read_buffer(ctx, resources[-1], np.uint8)

        cso = ctx.create_compute_state(ComputeState(prog=text.replace("%N%", str(n)), req_local_mem=local))
        ctx.bind_compute_state(cso)
        ctx.launch_grid(info)  # compile / prepare outside the timing
        read_back()
        best = float("inf")
        for _ in range(reps):
            t0 = time.perf_counter()
            ctx.launch_grid(info)
            read_back()
            best = min(best, time.perf_counter() - t0)
        for r in resources:
            screen.resource_destroy(r)
        return best
    finally:
        ctx.destroy()


def run(max_log2: int = 20, reps: int = 3, profiles=("native", "gl33")) -> dict:
    """Measure every kernel at its smallest .. 2^max_log2 invocations on ``profiles``."""
    import glpipe

    screens = {p: glpipe.create_screen(profile=p) for p in profiles}
    rows = []
    for name, (text, local, min_log2) in _kernels().items():
        insts = _instructions(text.replace("%N%", "1"))
        for k in range(min_log2, max_log2 + 1):
            n = 1 << k
            row = {"kernel": name, "invocations": n, "instructions": insts}
            for p, screen in screens.items():
                screen.host.make_current()
                secs = _time_one(screen, text, name, n, local, reps)
                row[f"{p}_s"] = secs
                row[f"{p}_ips"] = n * insts / secs if secs > 0 else 0.0
            rows.append(row)
    for s in screens.values():
        s.destroy()
    return {"profiles": list(profiles), "rows": rows}


def format_text(results: dict) -> str:
    """The table docs/compute.md quotes."""
    profiles = results["profiles"]
    head = "kernel       invocations  " + "  ".join(f"{p + ' s':>11}  {p + ' inst/s':>14}" for p in profiles)
    out = [head, "-" * len(head)]
    for r in results["rows"]:
        cells = "  ".join(f"{r[p + '_s']:11.5f}  {r[p + '_ips']:14.3e}" for p in profiles)
        out.append(f"{r['kernel']:<12} {r['invocations']:>11}  {cells}")
    return "\n".join(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--max-log2", type=int, default=20)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    results = run(args.max_log2, args.reps)
    print(json.dumps(results, indent=1) if args.json else format_text(results))


if __name__ == "__main__":
    main()
