"""Cost of the INTERP_* re-interpolation: per fragment, interpolateAt* vs gl33's form.

    python benchmarks/bench_interp.py [--size 512] [--chain 8] [--reps 5] [--json]

One headless EGL context (llvmpipe), one run, both forms side by side.  The
same TGSI vertex and fragment shaders are lowered twice by
``lowering.to_glsl``: at GLSL 450 (*native*: ``interpolateAtOffset``) and at
GLSL 330 without extensions (*emulated*: lowering/glsl/passes/interp.py's
re-interpolation from derivatives, what the gl33 profile runs).  A
full-target triangle carries one smooth (perspective) varying; the FS runs
a chain of ``chain`` dependent steps ``acc += INTERP_OFFSET(v, frac(acc.xy)
- 0.5)`` and writes ``acc``.

Reported per form: ns per fragment per step (best of ``reps`` timed draws
over ``size x size`` fragments, glFinish included, minus a baseline draw of
the same shaders with an empty chain) and the ratio.  The emulated form
also pays its derivatives once per fragment (taken at the top of ``main``
when an INTERP_* reads the varying): ``setup`` is a one-step shader's time
beyond one step and its baseline.

A second case, INTERP_CENTROID on a 4x multisampled target, measures the
centroid copy (docs/lowering.md "Interpolation functions without
interpolateAt*"): the emulated form keys the VS and the FS as the context
does (``VariantKey.interp_copies``), so the VS writes a second,
``centroid``-qualified copy of the varying which the FS reads.  The steps
read the same centroid value (the compiler may share it), so what matters
is ``setup``: one interpolateAtCentroid against one more varying.  Numbers
are llvmpipe's on this machine's CPU; a GPU's ratio differs.
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

VS = """VERT
DCL IN[0]
DCL IN[1]
DCL OUT[0], POSITION
DCL OUT[1], GENERIC[0]
  0: MOV OUT[0], IN[0]
  1: MOV OUT[1], IN[1]
  2: END
"""


# case -> (the INTERP_* step, samples of the target, the GLSL built-in the native form calls)
CASES = {
    "INTERP_OFFSET": ("INTERP_OFFSET TEMP[2], IN[0], TEMP[1].xyxx", 0, "interpolateAtOffset"),
    "INTERP_CENTROID 4x": ("INTERP_CENTROID TEMP[2], IN[0]", 4, "interpolateAtCentroid"),
}
# The 4x pattern handed to the emulated FS (its INTERP_CENTROID reads the copy, not these).
_SAMPLE_POSITIONS = (0.375, 0.125, 0.875, 0.375, 0.125, 0.625, 0.625, 0.875)


def tgsi(chain: int, interp: bool = True, case: str = "INTERP_OFFSET") -> str:
    """FRAG: ``chain`` dependent steps of ``case`` on GENERIC[0] (``interp``
    False: the same chain reading the varying itself, the baseline)."""
    lines = [
        "FRAG",
        "DCL IN[0], GENERIC[0], PERSPECTIVE",
        "DCL OUT[0], COLOR",
        "DCL TEMP[0..2]",
        "IMM[0] FLT32 {0.5, 0.0, 0.0, 0.0}",
        "MOV TEMP[0], IN[0]",
    ]
    for _ in range(chain):
        lines += [
            "FRC TEMP[1].xy, TEMP[0].xyyy",
            "ADD TEMP[1].xy, TEMP[1].xyyy, -IMM[0].xxxx",
            CASES[case][0] if interp else "MOV TEMP[2], IN[0]",
            "ADD TEMP[0], TEMP[0], TEMP[2]",
        ]
    lines += ["MOV OUT[0], TEMP[0]", "END"]
    return "\n".join(lines) + "\n"


def triangle() -> np.ndarray:
    """A triangle covering the target, clip w 1, 2, 4 (perspective matters)."""
    ndc = np.array([[-1.0, -1.0], [3.0, -1.0], [-1.0, 3.0]])
    w = np.array([1.0, 2.0, 4.0])
    out = np.zeros((3, 8), np.float32)
    out[:, :2] = ndc * w[:, None]
    out[:, 3] = w
    out[:, 4:] = [[0.1, 0.2, 0.3, 0.4], [5.0, 0.5, 1.0, 2.0], [0.3, 7.0, 2.0, 1.0]]
    return out


class Bench:
    """One EGL context and a ``size x size`` RGBA32F target."""

    def __init__(self, size: int):
        import moderngl

        self.mgl = moderngl
        self.ctx = moderngl.create_context(standalone=True, backend="egl", require=450)
        self.size = size
        self.target = self.ctx.texture((size, size), 4, dtype="f4")
        self.fbos = {
            0: self.ctx.framebuffer(color_attachments=[self.target]),
            4: self.ctx.framebuffer(color_attachments=[self.ctx.renderbuffer((size, size), 4, samples=4, dtype="f4")]),
        }
        self.fbo = self.fbos[0]
        self.vbo = self.ctx.buffer(triangle().tobytes())

    def program(self, text: str, native: bool, samples: int = 0):
        """(program, vao, FS GLSL) of ``text`` lowered natively (450) or as gl33
        does (330; on a ``samples`` > 1 target keyed as the context keys it)."""
        import lowering
        from lowering.glsl.passes.interp import needed_copies
        from lowering.glsl.variant import VariantKey

        version, exts = (450, frozenset(self.ctx.extensions)) if native else (330, frozenset())
        vs_key = fs_key = VariantKey()
        if samples > 1 and not native:
            copies = needed_copies(lowering.parse(text))
            fs_key = VariantKey(sample_positions=_SAMPLE_POSITIONS, interp_copies=copies)
            vs_key = VariantKey(output_interpolation=(("GENERIC", 0, "PERSPECTIVE", "CENTER"),), interp_copies=copies)
        vs = lowering.to_glsl(VS, glsl_version=version, extensions=exts, key=vs_key)
        fs = lowering.to_glsl(text, glsl_version=version, extensions=exts, key=fs_key)
        prog = self.ctx.program(vertex_shader=vs.source, fragment_shader=fs.source)
        names = [v.name for v in vs.reflection.inputs]
        vao = self.ctx.vertex_array(prog, [(self.vbo, "4f 4f", *names)])
        return prog, vao, fs.source

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


def run(size: int = 512, chain: int = 8, reps: int = 5) -> dict:
    """Measure both forms of each case; returns {"cases": [{case, native_ns,
    emulated_ns, ratio, native_setup_ns, emulated_setup_ns}], ...}."""
    b = Bench(size)
    try:
        frags = size * size
        rows = []
        for case, (_step, samples, builtin) in CASES.items():
            b.fbo = b.fbos[samples]
            row = {"case": case}
            for form, native in (("native", True), ("emulated", False)):
                timings = {}
                for name, text in (
                    ("plain", tgsi(chain, False, case)),
                    ("full", tgsi(chain, True, case)),
                    ("plain1", tgsi(1, False, case)),
                    ("one", tgsi(1, True, case)),
                ):
                    prog, vao, source = b.program(text, native, samples)
                    if name in ("full", "one") and native != (builtin in source):
                        raise AssertionError(f"{case} {form}: unexpected GLSL form")
                    timings[name] = b.time_draw(vao, reps)
                    vao.release()
                    prog.release()
                per_step = max(timings["full"] - timings["plain"], 0.0) / chain
                row[f"{form}_ns"] = per_step * 1e9 / frags
                # a one-step shader's extra time beyond one step: what the form pays once per fragment
                row[f"{form}_setup_ns"] = max(timings["one"] - timings["plain1"] - per_step, 0.0) * 1e9 / frags
            row["ratio"] = row["emulated_ns"] / row["native_ns"] if row["native_ns"] > 0 else float("inf")
            rows.append(row)
        return {"size": size, "chain": chain, "reps": reps, "renderer": b.ctx.info["GL_RENDERER"], "cases": rows}
    finally:
        b.release()


def format_text(results: dict) -> str:
    """The report as a small table."""
    out = [
        f"INTERP_* re-interpolation cost per fragment ({results['renderer']}, "
        f"{results['size']}x{results['size']} fragments, chain {results['chain']}, best of {results['reps']})",
        f"{'case':<19} {'native ns':>10} {'emulated ns':>12} {'ratio':>7} {'setup ns (nat/emu)':>20}",
    ]
    for r in results["cases"]:
        out.append(
            f"{r['case']:<19} {r['native_ns']:>10.2f} {r['emulated_ns']:>12.2f} {r['ratio']:>6.1f}x "
            f"{r['native_setup_ns']:>9.2f}/{r['emulated_setup_ns']:.2f}"
        )
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
