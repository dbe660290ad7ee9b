"""Cost of gl33's texture query and gather emulations per fragment, native GLSL 4.x vs GLSL 3.30.

    python benchmarks/bench_texture_emul.py [--size 512] [--chain 8] [--reps 5] [--json]

One headless EGL context (llvmpipe), one run, both forms side by side.  Each
case's TGSI fragment shader is lowered twice by ``lowering.to_glsl``: at GLSL
450 with the host's extensions (*native*: ``textureGather*``,
``textureQueryLod``, ``textureQueryLevels``) and at GLSL 330 without
extensions (*emulated*, what the gl33 profile runs:
lowering/glsl/texture_emul.py's four texel fetches, the GL LOD formula over
the sysvals block's sampler parameters, the sysvals block's level count).
The benchmark checks the GLSL it draws is the form it names.

Cases (docs/performance.md "Cost of the shader emulations"):

* ``TG4_Y``: TG4 of component y (textureGather's component select is
  GL_ARB_gpu_shader5; gl33: four texel fetches);
* ``TG4_OFFSETS``: TG4 with four offsets (textureGatherOffsets);
* ``TG4_CUBE``: TG4 of component x on an 8x8 RGBA32F cube with seamless_cube_map
  (gl33: four lookups at texel centres, lowering/glsl/texture_gather_cube.py);
* ``LODQ``: textureQueryLod (gl33: derivatives, log2 and the sampler's clamps);
* ``TXQ_LEVELS``: TXQ's mip level count (gl33: one word of the sysvals block).

A full-target triangle (benchmarks/bench_interp.py's) carries one varying;
the FS runs a chain of ``chain`` dependent steps ``P = frac(acc.xy); acc +=
OP(P)`` on an 8x8 RGBA32F texture with 4 levels, REPEAT, NEAREST.  Reported
per case and form: ns per fragment per step (best of ``reps`` timed draws
over ``size x size`` fragments, glFinish included, minus a baseline draw
whose chain has the same steps with OP replaced by a MOV) and the ratio.
Numbers are llvmpipe's on this machine's CPU; a GPU's ratio differs.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path or sys.path.index(str(ROOT)) != 0:
    sys.path.insert(0, str(ROOT))  # measure this working tree, not an installed copy

import numpy as np

from benchmarks.bench_interp import Bench

# case -> (TGSI lines of OP, writing TEMP[2] from the coordinates in TEMP[1];
#          what the native GLSL calls, which the emulated GLSL must not)
CASES = {
    "TG4_Y": (["TG4 TEMP[2], TEMP[1], IMM[1].yyyy, SAMP[0], 2D"], "textureGather"),
    "TG4_OFFSETS": (
        ["TG4 TEMP[2], TEMP[1], IMM[1].xxxx, SAMP[0], 2D, IMM[2].xyz, IMM[2].zww, IMM[1].xxx, IMM[2].wyz"],
        "textureGatherOffset",
    ),
    "TG4_CUBE": (["TG4 TEMP[2], TEMP[1], IMM[1].xxxx, SAMP[0], CUBE"], "textureGather"),
    "LODQ": (["LODQ TEMP[2].xy, TEMP[1], SAMP[0], 2D"], "textureQueryLod"),
    "TXQ_LEVELS": (
        ["TXQ TEMP[3], IMM[1].xxxx, SAMP[0], 2D", "I2F TEMP[2], TEMP[3]"],
        "textureQueryLevels",
    ),
}


def tgsi(case: str, chain: int, op: bool = True) -> str:
    """FRAG: ``chain`` dependent steps of ``case`` (``op`` False: the same chain
    with the operation replaced by a MOV, the baseline)."""
    lines = [
        "FRAG",
        "DCL IN[0], GENERIC[0], PERSPECTIVE",
        "DCL OUT[0], COLOR",
        "DCL SAMP[0]",
        f"DCL SVIEW[0], {'CUBE' if case == 'TG4_CUBE' else '2D'}, FLOAT",
        "DCL TEMP[0..3]",
        "IMM[0] FLT32 {0.001, 0.0, 0.0, 0.0}",
        "IMM[1] UINT32 {0, 1, 2, 3}",
        "IMM[2] INT32 {-2, 3, 1, -1}",
        "MOV TEMP[0], IN[0]",
    ]
    for _ in range(chain):
        lines.append("FRC TEMP[1], TEMP[0]")
        lines += CASES[case][0] if op else ["MOV TEMP[2], TEMP[1]"]
        lines.append("MAD TEMP[0], TEMP[2], IMM[0].xxxx, TEMP[0]")
    lines += ["MOV OUT[0], TEMP[0]", "END"]
    return "\n".join(lines) + "\n"


class TextureBench(Bench):
    """bench_interp's context and target, plus an 8x8 4-level RGBA32F texture
    on unit 0, an 8x8 RGBA32F cube on unit 1 (seamless filtering on) and a zeroed
    sysvals block (the level count set, 4; the cube sampler's seamless bit set)."""

    def __init__(self, size: int):
        super().__init__(size)
        rng = np.random.default_rng(1)
        self.texture = self.ctx.texture((8, 8), 4, rng.random((8, 8, 4), np.float32).tobytes(), dtype="f4")
        self.texture.build_mipmaps(0, 3)
        self.texture.repeat_x = self.texture.repeat_y = True
        self.texture.filter = (self.mgl.NEAREST_MIPMAP_NEAREST, self.mgl.NEAREST)
        self.cube = self.ctx.texture_cube((8, 8), 4, rng.random((6, 8, 8, 4), np.float32).tobytes(), dtype="f4")
        self.cube.filter = (self.mgl.NEAREST, self.mgl.NEAREST)
        self.ctx.enable_direct(0x884F)  # GL_TEXTURE_CUBE_MAP_SEAMLESS, for the native textureGather
        self.sysvals = None

    def program(self, text: str, native: bool):
        """(program, vao, FS GLSL), the texture and the sysvals block bound."""
        prog, vao, source = super().program(text, native)
        self.texture.use(0)
        self.cube.use(1)
        for name in prog:
            if name.startswith("glp_fs_samp"):
                prog[name].value = 1 if "CUBE" in text else 0
        if "glp_sysvals" in prog:
            block = prog["glp_sysvals"]
            words = np.zeros(max(block.size, 16) // 4, np.uint32)
            if "TXQ" in text or "LODQ" in text:
                from lowering.glsl.sysval_block import STAGE_NUMBER, field_offset, view_levels_word

                levels = field_offset("view_levels") // 4 + view_levels_word(STAGE_NUMBER["FRAG"], 0)
                if levels < words.size:
                    words[levels] = 4
            if "CUBE" in text:
                from lowering.glsl.sysval_block import STAGE_NUMBER, field_offset, sampler_lod_index

                words[field_offset("sampler_seamless") // 4 + sampler_lod_index(STAGE_NUMBER["FRAG"], 0)] = 1
            if self.sysvals is not None:
                self.sysvals.release()
            self.sysvals = self.ctx.buffer(words.tobytes())
            self.sysvals.bind_to_uniform_block(7)
            block.binding = 7
        return prog, vao, source


def run(size: int = 512, chain: int = 8, reps: int = 5, cases=tuple(CASES)) -> dict:
    """Measure both forms of each case; {"cases": [{case, native_ns, emulated_ns, ratio}], ...}."""
    b = TextureBench(size)
    try:
        frags = size * size
        rows = []
        for case in cases:
            row = {"case": case}
            marker = CASES[case][1]
            for form, native in (("native", True), ("emulated", False)):
                timings = {}
                for name, text in (("plain", tgsi(case, chain, False)), ("full", tgsi(case, chain))):
                    prog, vao, source = b.program(text, native)
                    if name == "full" and native != (marker in source):
                        raise AssertionError(f"{case} {form}: the GLSL is not the {form} form")
                    timings[name] = b.time_draw(vao, reps)
                    vao.release()
                    prog.release()
                row[f"{form}_ns"] = max(timings["full"] - timings["plain"], 0.0) / chain * 1e9 / frags
            row["ratio"] = row["emulated_ns"] / row["native_ns"] if row["native_ns"] > 0 else None
            rows.append(row)
        return {"size": size, "chain": chain, "reps": reps, "renderer": b.ctx.info["GL_RENDERER"], "cases": rows}
    finally:
        b.release()


def format_text(results: dict) -> str:
    """The report as a small table."""
    out = [
        f"texture query / gather emulation cost per fragment per step ({results['renderer']}, "
        f"{results['size']}x{results['size']} fragments, chain {results['chain']}, best of {results['reps']})",
        f"{'case':<12} {'native ns':>10} {'emulated ns':>12} {'ratio':>7}",
    ]
    for r in results["cases"]:
        ratio = "-" if r["ratio"] is None else f"{r['ratio']:.1f}x"  # None: native below the noise
        out.append(f"{r['case']:<12} {r['native_ns']:>10.2f} {r['emulated_ns']:>12.2f} {ratio:>7}")
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
