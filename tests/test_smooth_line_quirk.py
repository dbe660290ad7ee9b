"""The ``smooth_line_crash`` host quirk (glpipe/host/quirks.py): on llvmpipe, a
line drawn with GL_LINE_SMOOTH kills the process after enough programs with
distinct fragment input layouts were drawn.

Found by issue 12: the full test suite died in a native smooth-line test; the
run's shaders rebuilt in raw ModernGL died the same way without glpipe in the
process (scripts/repro/smooth_line_crash.py, docs/robustness.md).  On such a
host glpipe never enables GL_LINE_SMOOTH and draws antialiased lines itself
(lowering/glsl/passes/smooth_line.py; their pixels are checked in
tests/context/test_smooth_lines.py).  Constructs that may kill the process run
in child interpreters.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from glpipe.host import quirks

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPT = os.path.join(ROOT, "scripts", "repro", "smooth_line_crash.py")


def _run(*argv: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, *argv], capture_output=True, text=True, cwd=ROOT, timeout=600, env=dict(os.environ)
    )


def test_smooth_line_crash_quirk(screen):
    """On a host of the row the raw construct kills a child (the row is true;
    a fixed release makes this fail: narrow the range), and the same draws
    with the line aliased live (the smoothing is the trigger)."""
    row = quirks.BY_FACT["smooth_line_crash"]
    profile = screen.host.profile
    if not row.matches(profile.renderer, profile.version_string):
        assert not screen.host_facts.has("smooth_line_crash")
        return
    assert screen.host_facts.has("smooth_line_crash")
    raw = _run(SCRIPT)
    assert raw.returncode != 0 and "lived" not in raw.stdout, (raw.returncode, raw.stderr[-500:])
    aliased = _run(SCRIPT, "--no-smooth")
    assert aliased.returncode == 0 and "lived" in aliased.stdout, (aliased.returncode, aliased.stderr[-500:])


# The raw script's sequence through glpipe: programs passing 1-12 GENERIC
# varyings with random interpolation and location (some FSs with a kill; no
# SAMPLE location on a host without it), drawn
# into a 4x or a single-sample target; an FS with INTERP_CENTROID (where the
# host has interpolateAt*); then one
# smooth line, blended.  Prints the line's total alpha.
_GLPIPE_SEQUENCE = """
import random, sys
import numpy as np
import glpipe as g
profile, programs, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rng = random.Random(seed)
screen = g.create_screen(profile=profile)
ctx = screen.context_create()
F = g.Format.R32G32B32A32_FLOAT
def target(samples):
    res = screen.resource_create(g.ResourceTemplate(format=F, width0=16, height0=16, nr_samples=samples,
                                                    nr_storage_samples=samples, bind=g.Bind.RENDER_TARGET))
    return res, ctx.create_surface(res, g.SurfaceTemplate(format=F))
single, ms = target(0), target(4)
def bind(t):
    ctx.set_framebuffer_state(g.FramebufferState(width=16, height=16, cbufs=(t[1],)))
ctx.set_viewport_states(0, [g.ViewportState(scale=(8, 8, 0.5), translate=(8, 8, 0.5))])
ctx.bind_vertex_elements_state(ctx.create_vertex_elements_state([
    g.VertexElement(src_offset=0, src_format=F), g.VertexElement(src_offset=16, src_format=F)]))
tri = np.array([[-0.9, -0.9, 0, 1, 1, 0, 0, 1], [0.9, -0.9, 0, 1, 0, 1, 0, 1], [0, 0.9, 0, 1, 0, 0, 1, 1]], np.float32)
line = np.array([[-0.8, -0.5, 0, 1, 1, 1, 1, 1], [0.7, 0.6, 0, 1, 1, 1, 1, 1]], np.float32)
def draw(vs, fs, verts, mode):
    ctx.bind_vs_state(ctx.create_vs_state(g.ShaderState(tokens=vs)))
    ctx.bind_fs_state(ctx.create_fs_state(g.ShaderState(tokens=fs)))
    ctx.set_vertex_buffers([g.VertexBuffer(buffer=verts, stride=32)])
    ctx.draw_vbo(g.DrawInfo(mode=mode, count=len(verts)))
ctx.bind_rasterizer_state(ctx.create_rasterizer_state(g.RasterizerState(multisample=True)))
INTERP = ["PERSPECTIVE", "LINEAR", "CONSTANT", "PERSPECTIVE, CENTROID", "LINEAR, SAMPLE", "PERSPECTIVE, SAMPLE"]
if not screen.profile.has("sample_shading"):  # (GL 3.3: no sample qualifier)
    INTERP = [q for q in INTERP if "SAMPLE" not in q]
for _ in range(programs):
    n = rng.randint(1, 12)
    vs = "VERT\\nDCL IN[0]\\nDCL IN[1]\\nDCL OUT[0], POSITION\\n" + "".join(
        f"DCL OUT[{i + 1}], GENERIC[{i}]\\n" for i in range(n))
    vs += "  0: MOV OUT[0], IN[0]\\n" + "".join(f"{i + 1:3}: MOV OUT[{i + 1}], IN[1]\\n" for i in range(n))
    vs += f"{n + 1:3}: END\\n"
    fs = "FRAG\\n" + "".join(f"DCL IN[{i}], GENERIC[{i}], {rng.choice(INTERP)}\\n" for i in range(n))
    fs += "DCL OUT[0], COLOR\\nDCL TEMP[0]\\nIMM[0] FLT32 {0.0, 100.0, 0.0, 0.0}\\n  0: MOV TEMP[0], IMM[0].xxxx\\n"
    pc = 1
    for i in range(n):
        fs += f"{pc:3}: ADD TEMP[0], TEMP[0], IN[{i}]\\n"; pc += 1
    if rng.random() < 0.3:
        fs += f"{pc:3}: SLT TEMP[0].w, IMM[0].yyyy, TEMP[0].xxxx\\n{pc + 1:3}: KILL_IF -TEMP[0].wwww\\n"; pc += 2
    fs += f"{pc:3}: MOV OUT[0], TEMP[0]\\n{pc + 1:3}: END\\n"
    bind(ms if rng.random() < 0.5 else single)
    draw(vs, fs, tri, g.Prim.TRIANGLES)
pass_vs = "VERT\\nDCL IN[0]\\nDCL IN[1]\\nDCL OUT[0], POSITION\\nDCL OUT[1], COLOR\\n  0: MOV OUT[0], IN[0]\\n  1: MOV OUT[1], IN[1]\\n  2: END\\n"
bind(ms)
if screen.profile.has("sample_shading"):
    iat = "FRAG\\nDCL IN[0], COLOR, COLOR\\nDCL OUT[0], COLOR\\nDCL TEMP[0]\\n  0: INTERP_CENTROID TEMP[0], IN[0]\\n  1: MOV OUT[0], TEMP[0]\\n  2: END\\n"
    draw(pass_vs, iat, tri, g.Prim.TRIANGLES)
bind(single)
ctx.clear(g.Clear.COLOR0, None, (0.0, 0.0, 0.0, 0.0), 0.0, 0)
ctx.bind_rasterizer_state(ctx.create_rasterizer_state(g.RasterizerState(line_smooth=True, line_width=1.0)))
rt = g.RTBlendState(blend_enable=True, rgb_dst_factor=g.BlendFactor.ONE, alpha_dst_factor=g.BlendFactor.ONE)
ctx.bind_blend_state(ctx.create_blend_state(g.BlendState(rt=(rt,))))
flat = "FRAG\\nDCL IN[0], COLOR, CONSTANT\\nDCL OUT[0], COLOR\\n  0: MOV OUT[0], IN[0]\\n  1: END\\n"
draw(pass_vs, flat, line, g.Prim.LINES)
t = ctx.transfer_map(single[0], 0, g.Map.READ, g.Box(0, 0, 0, 16, 16, 1))
alpha = np.frombuffer(bytes(t.data), np.float32).reshape(16, 16, 4)[..., 3]
ctx.transfer_unmap(t)
print(float(alpha.sum()))
"""


@pytest.mark.parametrize("seed", [2, 5])
def test_glpipe_lives_through_the_raw_sequence(profile, seed):
    """The raw script's ingredients through glpipe, 250 programs: the child
    lives, and the smooth line covers its rectangle's area, w * l (the line
    lies inside the 16 x 16 target: (1.6, 4) to (13.6, 12.8) in pixels)."""
    done = _run("-c", _GLPIPE_SEQUENCE, profile, "250", str(seed))
    assert done.returncode == 0, f"the child died (status {done.returncode}): {done.stderr[-800:]}"
    total = json.loads(done.stdout.strip().splitlines()[-1])
    length = ((13.6 - 1.6) ** 2 + (12.8 - 4.0) ** 2) ** 0.5
    assert total == pytest.approx(1.0 * length, rel=0.002)
