"""Cost of the soft doubles: DADD / DMUL per fragment, emulated (gl33) next to native.

    python benchmarks/bench_fp64.py [--size 512] [--chain 16] [--reps 5] [--json | --markdown]

One process, one headless EGL context (llvmpipe), both forms of the same
TGSI fragment shader: lowered at GLSL 330 without extensions (what the gl33
profile compiles: the opcodes run on ``uvec2`` words through
lowering/glsl/soft_fp64.py) and at GLSL 450 with the host's extensions (the
native profile: real ``double``).  The shader converts the fragment's x to a
double and applies the opcode ``chain`` times in a dependent chain (each
result feeds the next, so nothing folds), then D2F to the colour output.  A
draw covers ``size`` x ``size`` fragments; each timed draw ends with
glFinish, the best of ``reps`` is kept, and the cost of one opcode is

    (time(chain) - time(0 ops)) / chain / fragments

so the F2D / D2F frame and the draw itself cancel out.  The first draw of
each program (compile and link, llvmpipe's JIT) is reported separately.

The numbers are llvmpipe's (CPU) and depend on the machine and on how many
threads llvmpipe runs; the ratio soft / native is the figure to read.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path or sys.path.index(str(ROOT)) != 0:
    sys.path.insert(0, str(ROOT))  # measure this working tree, not an installed copy

import numpy as np

OPS = ("DADD", "DMUL")

VS = """#version {version}
void main()
{{
    vec2 p = vec2(float((gl_VertexID & 1) << 2) - 1.0, float((gl_VertexID & 2) << 1) - 1.0);
    gl_Position = vec4(p, 0.0, 1.0);
}}
"""


def chain_tgsi(op: str, chain: int) -> str:
    """A FRAG program: x = double(frag x); x = op(x, CONST[0][0].xy) ``chain`` times; out = float(x)."""
    lines = [
        "FRAG",
        "DCL IN[0], POSITION, LINEAR",
        "DCL OUT[0], COLOR",
        "DCL CONST[0][0]",
        "DCL TEMP[0..1]",
        "F2D TEMP[0].xy, IN[0].xxxx",
        "MOV TEMP[1], CONST[0][0]",
    ]
    lines += [f"{op} TEMP[0].xy, TEMP[0].xyxy, TEMP[1].xyxy"] * chain
    lines += ["D2F OUT[0].x, TEMP[0].xyxy", "MOV OUT[0].yzw, IN[0].yyzw", "END"]
    return "\n".join(lines) + "\n"


class Bench:
    """A standalone context drawing lowered fragment shaders over a size x size target."""

    def __init__(self, size: int):
        import moderngl

        self.moderngl = moderngl
        self.ctx = moderngl.create_context(standalone=True, backend="egl", require=330)  # stays current
        self.size = size
        self.target = self.ctx.texture((size, size), 4, dtype="f4")
        self.fbo = self.ctx.framebuffer(color_attachments=[self.target])

    def program(self, tgsi: str, version: int):
        """Lower ``tgsi`` as the gl33 (330) or native (450) profile would; returns (program, vao, ubo)."""
        import lowering

        exts = frozenset() if version < 400 else frozenset(self.ctx.extensions)
        shader = lowering.to_glsl(tgsi, glsl_version=version, extensions=exts)
        prog = self.ctx.program(vertex_shader=VS.format(version=version), fragment_shader=shader.source)
        refl = shader.reflection
        info = refl.const_buffer(0)
        ubo = self.ctx.buffer(np.array([1.0000001, 0.0], np.float64).tobytes())
        if info is not None:
            ubo.bind_to_uniform_block(info.binding)
            for name, binding in refl.uniform_block_bindings:
                if name in prog:
                    prog[name].binding = binding
        return prog, self.ctx.vertex_array(prog, []), ubo

    def time_draw(self, vao, reps: int):
        """(first draw seconds, best of ``reps`` later draws)."""
        self.fbo.use()
        self.fbo.viewport = (0, 0, self.size, self.size)
        t0 = time.perf_counter()
        vao.render(self.moderngl.TRIANGLES, vertices=3)
        self.ctx.finish()
        first = time.perf_counter() - t0
        best = float("inf")
        for _ in range(reps):
            t0 = time.perf_counter()
            vao.render(self.moderngl.TRIANGLES, vertices=3)
            self.ctx.finish()
            best = min(best, time.perf_counter() - t0)
        return first, best

    def release(self):
        self.ctx.release()


def run(size: int = 512, chain: int = 16, reps: int = 5, ops=OPS) -> dict:
    """Measure every opcode of ``ops`` soft (330) and native (450); returns the results dict."""
    bench = Bench(size)
    frags = size * size
    rows = []
    try:
        for op in ops:
            row = {"op": op}
            for form, version in (("native", 450), ("soft", 330)):
                timings = {}
                for n in (0, chain):
                    prog, vao, ubo = bench.program(chain_tgsi(op, n), version)
                    timings[n] = bench.time_draw(vao, reps)
                    for obj in (vao, prog, ubo):
                        obj.release()
                per_op = max(timings[chain][1] - timings[0][1], 0.0) / chain / frags
                row[f"{form}_ns_per_op"] = per_op * 1e9
                row[f"{form}_first_draw_ms"] = timings[chain][0] * 1e3
            row["ratio"] = row["soft_ns_per_op"] / row["native_ns_per_op"] if row["native_ns_per_op"] else None
            rows.append(row)
    finally:
        bench.release()
    return {
        "size": size,
        "chain": chain,
        "reps": reps,
        "fragments": frags,
        "machine": platform.machine(),
        "cpus": os.cpu_count(),
        "rows": rows,
    }


def format_markdown(results: dict) -> str:
    out = [
        f"Soft doubles vs native, {results['size']}x{results['size']} fragments, chains of "
        f"{results['chain']} (best of {results['reps']}; llvmpipe, {results['cpus']} CPUs)",
        "",
        "| opcode | native ns/op/fragment | soft ns/op/fragment | soft / native | first draw native / soft (ms) |",
        "|---|---|---|---|---|",
    ]
    for r in results["rows"]:
        ratio = f"{r['ratio']:.1f}x" if r["ratio"] else "n/a"
        out.append(
            f"| {r['op']} | {r['native_ns_per_op']:.3f} | {r['soft_ns_per_op']:.3f} | {ratio} | "
            f"{r['native_first_draw_ms']:.0f} / {r['soft_first_draw_ms']:.0f} |"
        )
    return "\n".join(out) + "\n"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", type=int, default=512)
    ap.add_argument("--chain", type=int, default=16)
    ap.add_argument("--reps", type=int, default=5)
    fmt = ap.add_mutually_exclusive_group()
    fmt.add_argument("--json", action="store_true")
    fmt.add_argument("--markdown", action="store_true")
    args = ap.parse_args(argv)
    results = run(args.size, args.chain, args.reps)
    print(json.dumps(results, indent=2) if args.json else format_markdown(results), end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())
