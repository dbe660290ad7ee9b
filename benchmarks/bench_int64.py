"""Cost of the 64-bit integer emulation: soft U64MUL / I64DIV per fragment vs native int64_t.

    python benchmarks/bench_int64.py [--size 512] [--chain 8] [--reps 5] [--json]

One headless EGL context (llvmpipe), one run, both forms side by side.  The
same TGSI fragment shader is lowered twice by ``lowering.to_glsl`` at GLSL
450: with the host's GL_ARB_gpu_shader_int64 (*native*: ``int64_t``) and
without that one extension (*emulated*: lowering/glsl/soft_int64.py's
GLSL 3.30 helpers on ``uvec2``, what the gl33 profile runs).  The shader
fetches two 64-bit operands per fragment from an RGBA32UI texture, then runs
a chain of ``chain`` steps ``x = x + 1; acc = acc ^ OP(x, y)`` (the
increment keeps the compiler from merging the steps) and writes ``acc``.

Reported per case: ns per fragment per step for each form (best of ``reps``
timed draws over ``size x size`` fragments, glFinish included, minus a
baseline draw of the same shader with an empty chain) and the ratio.  Every
step includes one 64-bit add and xor of bookkeeping in both forms.  Operands:
dividends full 64-bit, divisors of 20..40 bits (so the soft division runs
its bit loop for 24..44 quotient bits; 32-bit operands would take its fast
path).  Numbers are llvmpipe's on this machine's CPU; a GPU's ratio differs.
"""

from __future__ import annotations

import argparse
import gc
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path or sys.path.index(str(ROOT)) != 0:
    sys.path.insert(0, str(ROOT))  # measure this working tree, not an installed copy

import numpy as np

CASES = ("U64MUL", "I64DIV", "U64SHR")

VS = """#version 450
void main()
{
    vec2 p = vec2(float((gl_VertexID & 1) << 2) - 1.0, float((gl_VertexID & 2) << 1) - 1.0);
    gl_Position = vec4(p, 0.0, 1.0);
}
"""


def tgsi(op: str, chain: int) -> str:
    """FRAG: TEMP[1] = x (texel .xy), TEMP[2] = y (.zw); ``chain`` steps; acc out."""
    lines = [
        "FRAG",
        "DCL IN[0], POSITION, LINEAR",
        "DCL OUT[0], COLOR",
        "DCL SVIEW[0], 2D, UINT",
        "DCL TEMP[0..4]",
        "IMM[0] UINT32 {0, 0, 1, 0}",
        "F2U TEMP[0].xy, IN[0].xyyy",
        "MOV TEMP[0].zw, IMM[0].xxxx",
        "SAMPLE_I TEMP[1], TEMP[0], SVIEW[0]",
        "MOV TEMP[2].xy, TEMP[1].zwzw",
        "MOV TEMP[3], IMM[0].xxxx",
    ]
    for _ in range(chain):
        lines += [
            "U64ADD TEMP[1].xy, TEMP[1].xyxy, IMM[0].zwzw",
            f"{op} TEMP[4].xy, TEMP[1].xyxy, TEMP[2].xyxy",
            "XOR TEMP[3].xy, TEMP[3].xyxy, TEMP[4].xyxy",
        ]
    lines += ["MOV OUT[0], TEMP[3]", "END"]
    return "\n".join(lines) + "\n"


def operands(size: int, seed: int = 64) -> np.ndarray:
    """(size*size, 4) words: x full 64-bit, y of 20..40 bits (never 0)."""
    rng = np.random.default_rng(seed)
    n = size * size
    x = rng.integers(0, 2**63, n, dtype=np.uint64) << np.uint64(1)
    y = rng.integers(1 << 19, 1 << 20, n, dtype=np.uint64) << rng.integers(0, 21, n, dtype=np.uint64)
    return np.stack([x, y], 1).view(np.uint32).reshape(n, 4)


class Bench:
    """One EGL context, the operand texture and a target of ``size x size`` RGBA32UI."""

    def __init__(self, size: int):
        import moderngl

        self.mgl = moderngl
        self.ctx = moderngl.create_context(standalone=True, backend="egl", require=450)
        self.size = size
        self.extensions = frozenset(self.ctx.extensions)
        self.tex = self.ctx.texture((size, size), 4, operands(size).tobytes(), dtype="u4")
        self.tex.filter = (moderngl.NEAREST, moderngl.NEAREST)
        self.target = self.ctx.texture((size, size), 4, dtype="u4")
        self.fbo = self.ctx.framebuffer(color_attachments=[self.target])

    def program(self, text: str, native: bool):
        """(program, vao, GLSL) of ``text`` lowered with or without GL_ARB_gpu_shader_int64."""
        import lowering

        exts = self.extensions if native else self.extensions - {"GL_ARB_gpu_shader_int64"}
        shader = lowering.to_glsl(text, glsl_version=450, extensions=exts)
        prog = self.ctx.program(vertex_shader=VS, fragment_shader=shader.source)
        unit = shader.reflection.texture_unit(0)
        for name, u in shader.reflection.sampler_units:
            if name in prog:
                prog[name].value = u
        self.tex.use(unit)
        return prog, self.ctx.vertex_array(prog, []), shader.source

    def time_draw(self, vao, reps: int) -> float:
        """Best wall time of one full-target draw (glFinish included), seconds."""
        self.fbo.use()
        vao.render(self.mgl.TRIANGLES, vertices=3)  # warm-up: JIT the shader
        self.ctx.finish()
        best = float("inf")
        gc.disable()
        try:
            for _ in range(reps):
                t0 = time.perf_counter()
                vao.render(self.mgl.TRIANGLES, vertices=3)
                self.ctx.finish()
                best = min(best, time.perf_counter() - t0)
        finally:
            gc.enable()
        return best

    def release(self) -> None:
        """Release the GL context."""
        self.ctx.release()


def run(size: int = 512, chain: int = 8, reps: int = 5, cases=CASES) -> dict:
    """Measure ``cases``; returns {"cases": [{case, native_ns, emulated_ns, ratio}, ...], ...}."""
    b = Bench(size)
    try:
        if "GL_ARB_gpu_shader_int64" not in b.extensions:
            return {"unavailable": "the host has no GL_ARB_gpu_shader_int64 to compare with", "cases": []}
        frags = size * size
        rows = []
        for op in cases:
            row = {"case": op}
            for form, native in (("native", True), ("emulated", False)):
                base_prog, base_vao, _ = b.program(tgsi(op, 0), native)
                prog, vao, source = b.program(tgsi(op, chain), native)
                if native != ("GL_ARB_gpu_shader_int64" in source):
                    raise AssertionError(f"{op} {form}: unexpected GLSL form")
                base = b.time_draw(base_vao, reps)
                full = b.time_draw(vao, reps)
                row[f"{form}_ns"] = max(full - base, 0.0) * 1e9 / (frags * chain)
                for obj in (vao, prog, base_vao, base_prog):
                    obj.release()
            row["ratio"] = row["emulated_ns"] / row["native_ns"] if row["native_ns"] > 0 else float("inf")
            rows.append(row)
        return {"size": size, "chain": chain, "reps": reps, "renderer": b.ctx.info["GL_RENDERER"], "cases": rows}
    finally:
        b.release()


def format_text(results: dict) -> str:
    """The report as a small table."""
    if "unavailable" in results:
        return f"bench_int64: {results['unavailable']}\n"
    out = [
        f"64-bit integer emulation cost per fragment per step ({results['renderer']}, "
        f"{results['size']}x{results['size']} fragments, chain {results['chain']}, best of {results['reps']})",
        f"{'case':<8} {'native ns':>10} {'emulated ns':>12} {'ratio':>7}",
    ]
    for r in results["cases"]:
        out.append(f"{r['case']:<8} {r['native_ns']:>10.2f} {r['emulated_ns']:>12.2f} {r['ratio']:>6.1f}x")
    return "\n".join(out) + "\n"


def main(argv=None) -> dict:
    """Command line entry point."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--size", type=int, default=512)
    p.add_argument("--chain", type=int, default=8)
    p.add_argument("--reps", type=int, default=5)
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    results = run(args.size, args.chain, args.reps)
    sys.stdout.write(json.dumps(results, indent=2) + "\n" if args.json else format_text(results))
    return results


if __name__ == "__main__":
    main()
