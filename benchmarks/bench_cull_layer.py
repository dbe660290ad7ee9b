"""Cost of gl33's cull-distance and vertex-stage-layer emulations per primitive, native vs gl33 profile.

    python benchmarks/bench_cull_layer.py [--grid 64] [--reps 5] [--json]

Two glpipe screens in one process: the ``native`` profile (GL 4.5: the host's
gl_CullDistance, and gl_Layer written by the vertex shader) and ``gl33`` (GL
3.3 core: each cull distance lowered to a clip distance,
lowering/glsl/passes/cull.py; LAYER from the VS through a generated
pass-through geometry shader, lowering/glsl/passes/layer.py).  Both draw the
same thing through the same pipe calls: ``2 * grid^2`` small triangles tiling
a 4-layer ``4 * grid``-pixel square RGBA32F target, one draw_vbo each.

Cases (docs/performance.md "Cost of the shader emulations"):

* ``plain``: the VS writes POSITION and GENERIC[0] (the reference);
* ``CULL``: plus one cull distance (NUM_CULLDIST_ENABLED 1), negative at
  every vertex of every other triangle (half of them are culled);
* ``LAYER``: plus LAYER = (vertex id / 3) mod 4 (each layer gets a quarter).

Reported per profile and case: ns per primitive (best of ``reps`` timed
draws, a glFinish included, over the primitive count; the cases interleaved
round by round), the gl33 / native ratio, and what the case adds to
``plain`` on each profile.  The fragment work is the same on both profiles
(the same pixels are covered), so the difference between the profiles'
additions is the emulation's.  Numbers are llvmpipe's on this machine's CPU; a GPU's differ.
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

LAYERS = 4


def vs(case: str) -> str:
    """VERT of ``case``: IN[0] position, IN[1] (cull distance, 0, 0, 0)."""
    head = ["VERT"] + (["PROPERTY NUM_CULLDIST_ENABLED 1"] if case == "CULL" else [])
    head += ["DCL IN[0]", "DCL IN[1]", "DCL OUT[0], POSITION", "DCL OUT[1], GENERIC[0]"]
    body = ["MOV OUT[0], IN[0]", "MOV OUT[1], IN[1]"]
    if case == "CULL":
        head.append("DCL OUT[2].x, CLIPDIST[0]")
        body.append("MOV OUT[2].x, IN[1].xxxx")
    elif case == "LAYER":
        head += ["DCL OUT[2], LAYER", "DCL SV[0], VERTEXID", "DCL TEMP[0]", f"IMM[0] INT32 {{3, {LAYERS - 1}, 0, 0}}"]
        body += ["IDIV TEMP[0].x, SV[0].xxxx, IMM[0].xxxx", "AND OUT[2].x, TEMP[0].xxxx, IMM[0].yyyy"]
    return "\n".join(head + body + ["END"]) + "\n"


FS = """FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL OUT[0], COLOR
  0: MOV OUT[0], IN[0]
  1: END
"""


def triangles(grid: int) -> np.ndarray:
    """(6 grid^2, 8) float32: position, then (cull distance, 0.5, 0.25, 1) -- the
    cull distance -1 at the three vertices of every odd triangle, else 1."""
    step = 2.0 / grid
    x, y = np.meshgrid(np.arange(grid) * step - 1.0, np.arange(grid) * step - 1.0)
    x, y = x.ravel(), y.ravel()
    corners = [(0, 0), (1, 0), (0, 1), (0, 1), (1, 0), (1, 1)]
    out = np.zeros((grid * grid, 6, 8), np.float32)
    for k, (cx, cy) in enumerate(corners):
        out[:, k, 0] = x + cx * step
        out[:, k, 1] = y + cy * step
    out[..., 3] = 1.0
    out[:, :3, 4] = 1.0
    out[:, 3:, 4] = -1.0  # the second triangle of every cell is culled
    out[..., 5:7] = (0.5, 0.25)
    out[..., 7] = 1.0
    return out.reshape(-1, 8)


def measure(profile: str, grid: int, reps: int, cases) -> dict:
    """{case: best seconds per draw} on a fresh screen of ``profile``."""
    import glpipe
    from glpipe import (
        Bind,
        DrawInfo,
        Format,
        FramebufferState,
        Prim,
        RasterizerState,
        ResourceTemplate,
        ShaderState,
        SurfaceTemplate,
        Target,
        VertexBuffer,
        VertexElement,
        ViewportState,
    )

    screen = glpipe.create_screen(profile=profile)
    ctx = screen.context_create()
    try:
        size = 4 * grid
        res = screen.resource_create(
            ResourceTemplate(
                target=Target.TEXTURE_2D_ARRAY,
                format=Format.R32G32B32A32_FLOAT,
                width0=size,
                height0=size,
                array_size=LAYERS,
                bind=Bind.RENDER_TARGET,
            )
        )
        surf = ctx.create_surface(res, SurfaceTemplate(format=res.format, first_layer=0, last_layer=LAYERS - 1))
        ctx.set_framebuffer_state(FramebufferState(width=size, height=size, layers=LAYERS, cbufs=(surf,)))
        ctx.set_viewport_states(
            0, [ViewportState(scale=(size / 2, size / 2, 0.5), translate=(size / 2, size / 2, 0.5))]
        )
        ctx.bind_rasterizer_state(ctx.create_rasterizer_state(RasterizerState()))
        ctx.bind_fs_state(ctx.create_fs_state(ShaderState(tokens=FS)))
        elements = [
            VertexElement(src_offset=16 * i, vertex_buffer_index=0, src_format=Format.R32G32B32A32_FLOAT)
            for i in range(2)
        ]
        ctx.bind_vertex_elements_state(ctx.create_vertex_elements_state(elements))
        verts = triangles(grid)
        ctx.set_vertex_buffers([VertexBuffer(buffer=verts, stride=32)])
        info = DrawInfo(mode=Prim.TRIANGLES, count=len(verts))
        gl = screen.host.gl
        vss = {case: ctx.create_vs_state(ShaderState(tokens=vs(case))) for case in cases}
        for case in cases:  # warm-up: compile each variant, JIT it
            ctx.bind_vs_state(vss[case])
            for _ in range(2):
                ctx.draw_vbo(info)
            gl.glFinish()
        best = dict.fromkeys(cases, float("inf"))
        gc.disable()
        try:
            for _ in range(reps):  # the cases interleaved: a load change hits them alike
                for case in cases:
                    ctx.bind_vs_state(vss[case])
                    gl.glFinish()
                    t0 = time.perf_counter()
                    ctx.draw_vbo(info)
                    gl.glFinish()
                    best[case] = min(best[case], time.perf_counter() - t0)
        finally:
            gc.enable()
        return best
    finally:
        ctx.destroy()
        screen.destroy()


def run(grid: int = 64, reps: int = 5, cases=("plain", "CULL", "LAYER")) -> dict:
    """Both profiles; {"cases": [{case, native_ns, gl33_ns, ratio}], ...} in ns per primitive."""
    prims = 2 * grid * grid
    timings = {p: measure(p, grid, reps, cases) for p in ("native", "gl33")}
    rows = []
    for case in cases:
        row = {"case": case}
        for p in timings:
            row[f"{p}_ns"] = timings[p][case] * 1e9 / prims
        row["ratio"] = row["gl33_ns"] / row["native_ns"] if row["native_ns"] > 0 else None
        if "plain" in timings["native"]:  # what the case adds to the plain draw, per profile
            for p in timings:
                row[f"{p}_extra_ns"] = (timings[p][case] - timings[p]["plain"]) * 1e9 / prims
        rows.append(row)
    return {"grid": grid, "primitives": prims, "reps": reps, "cases": rows}


def format_text(results: dict) -> str:
    """The report as a small table."""
    out = [
        f"cull distance / VS layer cost per primitive ({results['primitives']} triangles per draw, "
        f"best of {results['reps']})",
        f"{'case':<8} {'native ns':>10} {'gl33 ns':>9} {'ratio':>7} {'over plain (nat/gl33)':>22}",
    ]
    for r in results["cases"]:
        ratio = "-" if r["ratio"] is None else f"{r['ratio']:.2f}x"
        extra = f"{r['native_extra_ns']:+.1f}/{r['gl33_extra_ns']:+.1f}" if "native_extra_ns" in r else ""
        out.append(f"{r['case']:<8} {r['native_ns']:>10.1f} {r['gl33_ns']:>9.1f} {ratio:>7} {extra:>22}")
    return "\n".join(out) + "\n"


def main(argv=None) -> dict:
    """Command line entry point."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--grid", type=int, default=64)
    p.add_argument("--reps", type=int, default=5)
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    results = run(args.grid, args.reps)
    sys.stdout.write(json.dumps(results, indent=2) + "\n" if args.json else format_text(results))
    return results


if __name__ == "__main__":
    main()
