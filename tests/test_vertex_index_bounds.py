"""An indirect vertex index (``IN[ADDR[0].x][n]`` in a TCS / TES / GS, a TCS reading
``OUT[ADDR[0].x][n]``) is bounded to the vertices the stage has.

Found by issue 12's TGSI fuzzer (stop-23 native campaign, seed 23004627, saved as
tests/fuzz/findings/host_crash_23004627.tcs.tgsi): a mutated TCS whose loop never
breaks reads ``IN[ADDR[1].x][0]`` with an address that grows each iteration, and the
process died with SIGSEGV at draw.  TGSI (tgsi.rst) and GLSL (4.50 section 5.9) leave
an out-of-range index undefined, but the process must not die: llvmpipe reads such an
index out of its vertex arrays (the raw construct below), so glpipe emits
``clamp(index, 0, vertices - 1)`` as it does for the other indirect files
(docs/lowering.md "Indirect vertex indices").  The programs are drawn in child
interpreters, so a relapse kills the child and not the suite.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import numpy as np
import pytest

from lowering import to_glsl
from tests.fuzz.tgsi_runner import FS

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FINDING = os.path.join(ROOT, "tests", "fuzz", "findings", "host_crash_23004627.tcs.tgsi")


def _child(code: str, *args: str, stdin: str = "") -> subprocess.CompletedProcess:
    """Run ``code`` in a fresh interpreter at the worktree root."""
    return subprocess.run(
        [sys.executable, "-c", code, *args], input=stdin, capture_output=True, text=True, cwd=ROOT, timeout=300
    )


# -- the root: the raw construct on the host ---------------------------------------------

# A TCS reading gl_in[cb.i.x] (a uniform index) into a patch output the TES uses, raw
# GLSL through ModernGL.  Reduced from the lowered GLSL of the finding: its loop only
# supplies an ever larger index.
_RAW = """
import os, sys
os.environ.setdefault("PYOPENGL_PLATFORM", "egl")
import moderngl, numpy as np
ctx = moderngl.create_context(standalone=True, backend="egl", require=450)
print(ctx.info["GL_RENDERER"])
tcs = '''#version 450 core
layout(vertices = 3) out;
layout(std140, binding = 0) uniform B { ivec4 i; } cb;
patch out vec4 q;
void main() {
    gl_out[gl_InvocationID].gl_Position = gl_in[gl_InvocationID].gl_Position;
    q = gl_in[cb.i.x].gl_Position;
    gl_TessLevelOuter[0] = 1.0; gl_TessLevelOuter[1] = 1.0; gl_TessLevelOuter[2] = 1.0;
    gl_TessLevelInner[0] = 1.0;
}'''
tes = '''#version 450 core
layout(triangles) in;
patch in vec4 q;
void main() {
    gl_Position = vec4(q.xyz * 1e-30, 0.0) + gl_TessCoord.x * gl_in[0].gl_Position
        + gl_TessCoord.y * gl_in[1].gl_Position + gl_TessCoord.z * gl_in[2].gl_Position;
}'''
prog = ctx.program(
    vertex_shader='''#version 450 core
layout(location = 0) in vec4 p;
void main() { gl_Position = p; }''',
    tess_control_shader=tcs, tess_evaluation_shader=tes,
    fragment_shader='''#version 450 core
layout(location = 0) out vec4 color;
void main() { color = vec4(1.0); }''')
ctx.buffer(np.array([int(sys.argv[1]), 0, 0, 0], np.int32).tobytes()).bind_to_uniform_block(0)
fbo = ctx.simple_framebuffer((4, 4))
fbo.use()
vbo = ctx.buffer(np.array([(-1, -1, 0, 1), (3, -1, 0, 1), (-1, 3, 0, 1)], np.float32).tobytes())
vao = ctx.vertex_array(prog, [(vbo, "4f", "p")])
vao.patch_vertices = 3
vao.render(moderngl.PATCHES)
print("drawn", fbo.read()[:3].hex())
"""


def test_the_unbounded_index_kills_llvmpipe():
    """On llvmpipe the raw TCS draws with an index inside the patch (and up to
    1,000), and dies with a signal at 65,535: the index glpipe emitted was out of range,
    nothing in the host advertises a feature that fails (no quirk row)."""
    inside = _child(_RAW, "2")
    assert inside.returncode == 0 and "drawn ffffff" in inside.stdout, inside.stderr[-800:]
    if not inside.stdout.startswith("llvmpipe"):
        return  # another driver may read anything out of range: only the in-range draw is a fact
    assert _child(_RAW, "1000").returncode == 0
    died = _child(_RAW, "65535")
    assert died.returncode < 0, (died.returncode, died.stdout, died.stderr[-800:])


# -- the lowering bounds every indirect vertex index ---------------------------------------

_TCS_READS = """TESS_CTRL
PROPERTY TCS_VERTICES_OUT 4
DCL IN[][0], POSITION
DCL IN[][1], GENERIC[0]
DCL SV[0], INVOCATIONID
DCL OUT[][0], POSITION
DCL OUT[][1], GENERIC[0]
DCL OUT[2], TESSOUTER
DCL CONST[0][0]
DCL ADDR[0]
DCL TEMP[0..1]
  0: UARL ADDR[0].x, CONST[0][0].xxxx
  1: MOV TEMP[0], IN[ADDR[0].x][0]
  2: MOV TEMP[1], IN[ADDR[0].x+1][1]
  3: ADD TEMP[0], TEMP[0], OUT[ADDR[0].x][1]
  4: UARL ADDR[0].x, SV[0].xxxx
  5: MOV OUT[ADDR[0].x][0], TEMP[0]
  6: MOV OUT[ADDR[0].x][1], TEMP[1]
  7: END
"""
_TES_READS = """TESS_EVAL
PROPERTY TES_PRIM_MODE 4
DCL IN[][0], POSITION
DCL IN[][1], GENERIC[0]
DCL OUT[0], POSITION
DCL CONST[0][0]
DCL ADDR[0]
DCL TEMP[0]
  0: UARL ADDR[0].x, CONST[0][0].xxxx
  1: ADD TEMP[0], IN[ADDR[0].x][0], IN[ADDR[0].x][1]
  2: MOV OUT[0], TEMP[0]
  3: END
"""
_GS_READS = """GEOM
PROPERTY GS_INPUT_PRIMITIVE LINES
PROPERTY GS_OUTPUT_PRIMITIVE POINTS
PROPERTY GS_MAX_OUTPUT_VERTICES 1
DCL IN[][0], POSITION
DCL IN[][1], GENERIC[0]
DCL OUT[0], POSITION
DCL OUT[1], GENERIC[0]
DCL CONST[0][0]
DCL ADDR[0]
  0: UARL ADDR[0].x, CONST[0][0].xxxx
  1: MOV OUT[0], IN[ADDR[0].x][0]
  2: MOV OUT[1], IN[ADDR[0].x][1]
  3: EMIT IMM[0].xxxx
  4: END
"""
_GS_READS = _GS_READS.replace("DCL ADDR[0]\n", "DCL ADDR[0]\nIMM[0] INT32 {0, 0, 0, 0}\n")


def _indexed_arrays(glsl: str) -> list[str]:
    """The index texts of every per-vertex array access (``gl_in[...]``,
    ``gl_out[...]``, ``glp_*_in[...]``, ``glp_*_out[...]``) in the body of main."""
    body = glsl[glsl.index("void main()") :]
    found = []
    for m in re.finditer(r"\b(gl_in|gl_out|glp_\w+_(?:in|out))\[", body):
        depth, k = 1, m.end()
        while depth:
            depth += {"[": 1, "]": -1}.get(body[k], 0)
            k += 1
        found.append(body[m.end() : k - 1])
    return found


@pytest.mark.parametrize(
    ("text", "bound"),
    [
        (_TCS_READS, {"in": "gl_PatchVerticesIn - 1", "out": "3"}),
        (_TES_READS, {"in": "gl_PatchVerticesIn - 1"}),
        (_GS_READS, {"in": "1"}),
    ],
    ids=["tcs", "tes", "gs"],
)
def test_indirect_vertex_indices_are_clamped(text, bound):
    """Every indirect vertex index is ``clamp(index, 0, n - 1)`` with n the vertices
    the array holds (the patch's input vertices, the TCS's output vertices, the GS
    input primitive's vertices); direct and invocation indices are left alone."""
    glsl = to_glsl(text, 450).source
    indices = _indexed_arrays(glsl)
    assert indices, glsl
    for index in indices:
        if index in ("gl_InvocationID", "0") or index.isdigit():
            continue
        m = re.fullmatch(r"clamp\((.+), 0, (.+)\)", index)
        assert m is not None, (index, glsl)
        assert "addr0.x" in m[1], index
    reads_in = [i for i in indices if "addr0" in i]
    assert reads_in
    for kind, n in bound.items():
        arrays = re.findall(rf"\b(?:gl_{kind}|glp_\w+_{kind})\[(clamp\([^;]*?, 0, {re.escape(n)}\))\]", glsl)
        assert arrays, (kind, n, glsl)


# -- a reduction of the finding drawn, with a model of its TGSI ----------------------------

# Vertex k of the patch carries GENERIC[0] = COLORS[k].  The TCS copies the positions,
# hands vertex (INVOCATIONID + c) % VERTICESIN's colour to its own vertex (the finding's
# address, always inside the patch) and writes PATCH[0] from vertex INVOCATIONID + d
# (outside the patch for most d); the TES passes vertex 0's colour and the patch word on,
# the FS writes GENERIC[0] + 16 * GENERIC[1].
COLORS = np.array([[1, 2, 3, 4], [2, 4, 6, 8], [3, 6, 9, 12]], np.float64)
REDUCED_TCS = """TESS_CTRL
PROPERTY TCS_VERTICES_OUT 3
DCL IN[][0], POSITION
DCL IN[][1], GENERIC[0]
DCL SV[0], INVOCATIONID
DCL SV[1], VERTICESIN
DCL OUT[][0], POSITION
DCL OUT[1], TESSOUTER
DCL OUT[2], TESSINNER
DCL OUT[][3], GENERIC[0]
DCL OUT[4], PATCH[0]
DCL CONST[0][0]
DCL ADDR[0]
DCL TEMP[0..1]
IMM[0] FLT32 {1.0, 1.0, 1.0, 1.0}
  0: UARL ADDR[0].x, SV[0].xxxx
  1: MOV OUT[ADDR[0].x][0], IN[ADDR[0].x][0]
  2: UADD TEMP[0].x, SV[0].xxxx, CONST[0][0].xxxx
  3: UMOD TEMP[0].x, TEMP[0].xxxx, SV[1].xxxx
  4: UARL ADDR[0].x, TEMP[0].xxxx
  5: MOV TEMP[1], IN[ADDR[0].x][1]
  6: UARL ADDR[0].x, SV[0].xxxx
  7: MOV OUT[ADDR[0].x][3], TEMP[1]
  8: UADD TEMP[0].x, SV[0].xxxx, CONST[0][0].yyyy
  9: UARL ADDR[0].x, TEMP[0].xxxx
 10: MOV OUT[4], IN[ADDR[0].x][1]
 11: MOV OUT[1], IMM[0]
 12: MOV OUT[2], IMM[0]
 13: END
"""
_TES = """TESS_EVAL
PROPERTY TES_PRIM_MODE 4
DCL IN[][0], POSITION
DCL IN[][1], GENERIC[0]
DCL IN[2], PATCH[0]
DCL SV[0], TESSCOORD
DCL OUT[0], POSITION
DCL OUT[1], GENERIC[0]
DCL OUT[2], GENERIC[1]
DCL TEMP[0]
  0: MUL TEMP[0], SV[0].xxxx, IN[0][0]
  1: MAD TEMP[0], SV[0].yyyy, IN[1][0], TEMP[0]
  2: MAD OUT[0], SV[0].zzzz, IN[2][0], TEMP[0]
  3: MOV OUT[1], IN[0][1]
  4: MOV OUT[2], IN[2]
  5: END
"""
_VS = """VERT
DCL IN[0]
DCL IN[1]
DCL OUT[0], POSITION
DCL OUT[1], GENERIC[0]
  0: MOV OUT[0], IN[0]
  1: MOV OUT[1], IN[1]
  2: END
"""
_FS = """FRAG
DCL IN[0], GENERIC[0], CONSTANT
DCL IN[1], GENERIC[1], CONSTANT
DCL OUT[0], COLOR
IMM[0] FLT32 {16.0, 0.0, 0.0, 0.0}
  0: MAD OUT[0], IN[1], IMM[0].xxxx, IN[0]
  1: END
"""

_DRAW = """
import json, sys
sys.path[:0] = ["tests"]
import numpy as np
import glpipe
from glpipe import ConstantBuffer, DrawInfo, Prim, ShaderState, ShaderType, VertexBuffer
from context.util import read_rgba32f, vertex_buffer
from context.util_draw import setup
from test_vertex_index_bounds import _FS, _TES, _VS, COLORS
screen = glpipe.create_screen(profile=sys.argv[1])
ctx = screen.context_create()
color = setup(ctx, vs=_VS, fs=_FS, size=2)
try:
    tcs = ctx.create_tcs_state(ShaderState(tokens=sys.stdin.read()))
except glpipe.PipeError as exc:
    print(json.dumps({"refused": type(exc).__name__ + ": " + str(exc)}))
    raise SystemExit(0)
ctx.bind_tcs_state(tcs)
ctx.bind_tes_state(ctx.create_tes_state(ShaderState(tokens=_TES)))
tri = np.array([[-1, -1, 0, 1, *COLORS[0]], [3, -1, 0, 1, *COLORS[1]], [-1, 3, 0, 1, *COLORS[2]]], np.float32)
ctx.set_vertex_buffers([VertexBuffer(buffer=vertex_buffer(screen, tri), stride=32)])
ctx.set_patch_vertices(3)
out = []
for pair in json.loads(sys.argv[2]):
    ctx.set_constant_buffer(ShaderType.TESS_CTRL, 0, ConstantBuffer(user_buffer=np.array(pair + [0, 0], np.int32)))
    ctx.draw_vbo(DrawInfo(mode=Prim.PATCHES, start=0, count=3))
    out.append(read_rgba32f(screen, color).reshape(-1, 4).tolist())
print(json.dumps({"pixels": out}))
"""


def model(c: int, d: int) -> np.ndarray:
    """The pixel of the reduction, from its TGSI: UADD / UMOD on 32-bit words, UARL
    reads the word as a signed integer.  Vertex 0 of the TCS output holds the colour
    of vertex (0 + c) mod 3; PATCH[0] is read from vertex id + d, which TGSI leaves
    undefined outside the patch and glpipe bounds to the nearest vertex
    (docs/lowering.md "Indirect vertex indices")."""
    g0 = COLORS[((0 + c) & 0xFFFFFFFF) % 3]
    patch = {int(np.clip(np.int32(np.uint32((i + d) & 0xFFFFFFFF)), 0, 2)) for i in range(3)}
    assert len(patch) == 1, "every invocation must write the same PATCH[0]"
    return g0 + 16 * COLORS[patch.pop()]


# (c, d): d = 0 reads every invocation's own vertex -- not one word: use d >= 2 or < -2.
PAIRS = [(0, 2), (1, 1000), (2, 65535), (5, -3), (4, 2**31 - 3)]


def test_the_model_by_hand():
    """Two cases worked by hand: c = 1 gives vertex 1's colour, d = 2 clamps ids
    0..2 + 2 to vertex 2; d = -3 clamps -3..-1 to vertex 0."""
    np.testing.assert_array_equal(model(1, 2), [2 + 48, 4 + 96, 6 + 144, 8 + 192])
    np.testing.assert_array_equal(model(5, -3), [3 + 16, 6 + 32, 9 + 48, 12 + 64])


def _draw(profile: str, text: str, pairs) -> dict:
    proc = _child(_DRAW, profile, json.dumps([list(p) for p in pairs]), stdin=text)
    assert proc.returncode == 0, f"the draw killed the child (status {proc.returncode}): {proc.stderr[-1500:]}"
    return json.loads(proc.stdout.strip().splitlines()[-1])


def _refused_without_tessellation(screen, got: dict) -> bool:
    """gl33 has no tessellation stages: create refuses, naming the feature."""
    if screen.profile.has("tessellation_shader"):
        assert "refused" not in got, got
        return False
    assert "UnsupportedError" in got["refused"] and "tessellation_shader" in got["refused"], got
    return True


def test_reduced_program_draws_the_model(screen):
    """The reduction of the finding draws, for every (c, d), the model's colour at
    every pixel; an index of 65,535 or 2^31 - 1 no longer kills the process."""
    got = _draw(screen.profile.name, REDUCED_TCS, PAIRS)
    if _refused_without_tessellation(screen, got):
        return
    for pair, pixels in zip(PAIRS, got["pixels"], strict=True):
        expected = np.tile(model(*pair), (len(pixels), 1))
        np.testing.assert_array_equal(np.array(pixels), expected, err_msg=f"(c, d) = {pair}")


_FINDING_DRAW = """
import json, sys
sys.path[:0] = ["tests"]
import numpy as np
import glpipe
from glpipe import DrawInfo, Prim, ShaderState, VertexBuffer
from context.util import read_rgba32f, vertex_buffer
from context.util_draw import setup
from fuzz.tgsi_runner import FS, TES, VS
screen = glpipe.create_screen(profile=sys.argv[1])
ctx = screen.context_create()
color = setup(ctx, vs=VS, fs=FS, size=2)
try:
    tcs = ctx.create_tcs_state(ShaderState(tokens=sys.stdin.read()))
except glpipe.PipeError as exc:
    print(json.dumps({"refused": type(exc).__name__ + ": " + str(exc)}))
    raise SystemExit(0)
ctx.bind_tcs_state(tcs)
ctx.bind_tes_state(ctx.create_tes_state(ShaderState(tokens=TES)))
tri = np.array([(-1, -1, 0, 1), (3, -1, 0, 1), (-1, 3, 0, 1)], np.float32)
ctx.set_vertex_buffers([VertexBuffer(buffer=vertex_buffer(screen, tri), stride=16)])
ctx.set_patch_vertices(3)
ctx.draw_vbo(DrawInfo(mode=Prim.PATCHES, start=0, count=3))
print(json.dumps({"pixels": read_rgba32f(screen, color).reshape(-1, 4).tolist()}))
"""


def test_the_finding_draws(screen):
    """The saved finding is created and drawn in a child on both profiles (gl33
    refuses the TCS, naming the feature), and the process lives.  Its pixels have no
    model: its first loop never breaks (the BRK reads a TEMP written only after the
    loop), so the TGSI never finishes and only the host's loop limit ends the draw;
    each pixel is the clear colour or the partner FS's colour, nothing else (on
    llvmpipe the patch is discarded: the clear colour).  The reduction above carries
    the values."""
    with open(FINDING) as fh:
        text = fh.read()
    got = _draw_finding(screen.profile.name, text)
    if _refused_without_tessellation(screen, got):
        return
    fs_color = [float(x) for x in re.search(r"IMM\[0\] FLT32 \{([^}]*)\}", FS)[1].split(",")]
    for pixel in got["pixels"]:
        assert pixel in ([0.0, 0.0, 0.0, 0.0], fs_color), pixel


def _draw_finding(profile: str, text: str) -> dict:
    proc = _child(_FINDING_DRAW, profile, stdin=text)
    assert proc.returncode == 0, f"the draw killed the child (status {proc.returncode}): {proc.stderr[-1500:]}"
    return json.loads(proc.stdout.strip().splitlines()[-1])
