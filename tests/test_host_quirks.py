"""The host quirks table (glpipe/host/quirks.py): every row names a test that
exists, the rows match the hosts they say, and each quirk's workaround holds.

Constructs that kill the process on a quirky host run in a child interpreter,
so the suite survives and sees the exit status.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest

from glpipe import Cap
from glpipe.host import facts, preload, quirks
from lowering import to_glsl
from lowering.glsl.requirements import HOST_FACTS

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _child(code: str, *args: str, stdin: str = "") -> subprocess.CompletedProcess:
    """Run ``code`` in a fresh interpreter at the worktree root, on the driver as
    it comes: without the settings glpipe makes before it loads (they avoid some
    quirks below GL; glpipe/host/preload.py), so each quirk and its workaround
    are seen on the bare driver."""
    return subprocess.run(
        [sys.executable, "-c", code, *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=preload.without_settings(),
        timeout=300,
    )


# -- the table -------------------------------------------------------------------------


@pytest.mark.parametrize("row", quirks.QUIRKS, ids=lambda q: q.fact)
def test_every_quirk_names_its_probe_and_an_existing_test(row):
    path, _, name = row.test.partition("::")
    assert name, f"{row.fact}: the test must be a pytest node id (file::function), not {row.test!r}"
    with open(os.path.join(ROOT, path)) as fh:
        assert f"def {name}(" in fh.read(), f"{row.fact}: {row.test} does not exist"
    assert row.found_by and row.what and row.effect
    assert row.fixed is None or row.fixed > row.first


@pytest.mark.parametrize("row", quirks.QUIRKS, ids=lambda q: q.fact)
def test_every_quirk_is_a_host_fact_the_lowering_knows(row):
    assert row.fact in facts.FACTS
    assert row.fact in HOST_FACTS


def test_rows_match_by_renderer_and_version_range():
    row = quirks.Quirk("x", r"^llvmpipe\b", (22, 0), (23, 1), "w", "f", "t", "e")
    assert row.matches("llvmpipe (LLVM 15.0.6, 256 bits)", "4.5 (Core Profile) Mesa 22.3.6")
    assert not row.matches("llvmpipe (LLVM 15.0.6, 256 bits)", "4.5 (Core Profile) Mesa 23.1.0")
    assert not row.matches("llvmpipe (LLVM 12.0.0, 256 bits)", "4.5 (Core Profile) Mesa 21.3")
    assert not row.matches("AMD Radeon RX 6600 (radeonsi, navi23)", "4.6 (Core Profile) Mesa 22.3.6")
    assert row.matches("llvmpipe", "4.5")  # the driver without a version: assumed affected
    assert quirks.driver_version("4.6.0 NVIDIA 535.54") is None
    assert quirks.driver_version("3.3 (Core Profile) Mesa 22.3") == (22, 3, 0)


def test_the_screen_reports_the_quirks_of_its_host(screen):
    profile = screen.host.profile
    expected = quirks.host_quirks(profile.renderer, profile.version_string)
    assert {f for f in screen.host_facts.holds if f in quirks.BY_FACT} == expected
    for fact in expected:
        assert "holds" in screen.host_facts.reasons[fact]


# -- subgroup_reads_crash ----------------------------------------------------------------

# readFirstInvocationARB of a word converted to float: the smallest construct that
# aborts llvmpipe's back end (raw GLSL, no glpipe involved).
_RAW_READ_FIRST = """
import os
os.environ.setdefault("PYOPENGL_PLATFORM", "egl")
import moderngl
ctx = moderngl.create_context(standalone=True, backend="egl", require=450)
vs = '''#version 450 core
out vec4 v;
void main() { vec2 p = vec2(float((gl_VertexID & 1) << 2) - 1.0, float((gl_VertexID & 2) << 1) - 1.0);
              v = vec4(p, p); gl_Position = vec4(p, 0.0, 1.0); }'''
fs = '''#version 450 core
#extension GL_ARB_shader_ballot : require
in vec4 v; out vec4 c;
void main() { c = vec4(float(readFirstInvocationARB(floatBitsToUint(v.x)))); }'''
fbo = ctx.simple_framebuffer((4, 4), dtype="f4")
fbo.use()
ctx.vertex_array(ctx.program(vertex_shader=vs, fragment_shader=fs), []).render(vertices=3)
print("drawn")
"""

# Draws the FS on stdin over a 4x4 target, GENERIC[0] = (0.5, 0.25, 0.75, 0.125) at
# every vertex; prints every pixel as JSON, or the refusal.
_GLPIPE_DRAW = """
import json, sys
sys.path[:0] = ["tests"]
import glpipe
from glpipe import DrawInfo, Prim, VertexBuffer, UnsupportedError
from context.util import read_rgba32f, vertex_buffer
from context.util_draw import setup, vertices
screen = glpipe.create_screen(profile=sys.argv[1])
ctx = screen.context_create()
try:
    color = setup(ctx, fs=sys.stdin.read(), size=4)
    verts = vertices([(0, 0), (8, 0), (0, 8)], (0.5, 0.25, 0.75, 0.125), size=4)
    ctx.set_vertex_buffers([VertexBuffer(buffer=vertex_buffer(screen, verts), stride=32)])
    ctx.draw_vbo(DrawInfo(mode=Prim.TRIANGLES, start=0, count=3))
except UnsupportedError as exc:
    print(json.dumps({"refused": str(exc)}))
    raise SystemExit(0)
print(json.dumps({"pixels": read_rgba32f(screen, color).reshape(-1, 4).tolist()}))
"""

_CORPUS = os.path.join(ROOT, "tests", "lowering", "corpus", "tgsi", "subgroup_ballot.frag.tgsi")


def _draw_in_child(profile: str, fs: str) -> dict:
    proc = _child(_GLPIPE_DRAW, profile, stdin=fs)
    assert proc.returncode == 0, f"the draw killed the child (status {proc.returncode}): {proc.stderr[-1500:]}"
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_subgroup_reads_crash_quirk(screen):
    """On a host of the row the native construct does kill a process (the row is
    true; a fixed release makes this fail: narrow the row's range), and glpipe's
    lowering of READ_FIRST / READ_INVOC is drawn without dying."""
    row = quirks.BY_FACT["subgroup_reads_crash"]
    profile = screen.host.profile
    if not row.matches(profile.renderer, profile.version_string):
        assert not screen.host_facts.has("subgroup_reads_crash")
        return
    raw = _child(_RAW_READ_FIRST)
    assert raw.returncode != 0 and "Cannot select" in raw.stderr, (raw.returncode, raw.stderr[-500:])
    with open(_CORPUS) as fh:
        result = _draw_in_child(profile.name, fh.read())
    if not screen.profile.has("shader_ballot"):
        assert screen.get_param(Cap.SHADER_BALLOT) == 0
        assert "READ_FIRST" in result["refused"] or "BALLOT" in result["refused"]
        return
    assert screen.get_param(Cap.SHADER_BALLOT) == 1
    # The varying is the same everywhere: READ_FIRST reads 0.25 in every invocation;
    # READ_INVOC reads invocation 1's (0.75, 0.125) where invocation 1 is active
    # (GL_ARB_shader_ballot leaves an inactive one undefined; glpipe's reads give 0).
    pixels = result["pixels"]
    assert all(p[0] == 0.25 for p in pixels)
    assert all(p[1:3] in ([0.75, 0.125], [0.0, 0.0]) for p in pixels)
    assert any(p[1:3] == [0.75, 0.125] for p in pixels)


# READ_INVOC / READ_FIRST / VOTE_EQ of the invocation ids (different in every
# invocation), and the mask of the active invocations to check them against.
_LANES_FS = """FRAG
DCL SV[0], SUBGROUP_INVOCATION
DCL OUT[0], COLOR
DCL TEMP[0..1]
IMM[0] UINT32 {1, 0, 0, 0}
  0: READ_INVOC TEMP[0].x, SV[0].xxxx, IMM[0].xxxx
  1: READ_FIRST TEMP[0].y, SV[0].xxxx
  2: VOTE_EQ TEMP[0].z, SV[0].xxxx
  3: BALLOT TEMP[1].xy, IMM[0].xxxx
  4: MOV TEMP[0].w, TEMP[1].xxxx
  5: U2F TEMP[1], TEMP[0]
  6: MOV OUT[0], TEMP[1]
  7: END
"""


def test_subgroup_reads_between_invocations(profile, screen):
    """Per pixel, from the mask of active invocations (BALLOT(true), .w): READ_INVOC
    of the ids at invocation 1 is 1 where invocation 1 is active; READ_FIRST is the
    lowest active id; VOTE_EQ of the ids is ~0 only when one invocation is active."""
    result = _draw_in_child(profile, _LANES_FS)
    if not (screen.profile.has("shader_ballot") and screen.profile.has("shader_group_vote")):
        assert screen.get_param(Cap.SHADER_BALLOT) == 0 or screen.get_param(Cap.SHADER_GROUP_VOTE) == 0
        assert "refused" in result
        return
    for x, y, z, w in result["pixels"]:
        mask = int(w)
        assert mask != 0
        if mask & 2:
            assert x == 1.0
        assert y == float((mask & -mask).bit_length() - 1)
        assert z == (float(np.float32(0xFFFFFFFF)) if mask & (mask - 1) == 0 else 0.0)


@pytest.mark.parametrize("version", [450])
def test_lowering_uses_no_subgroup_read_under_the_quirk(version):
    with open(_CORPUS) as fh:
        text = fh.read()
    ext = frozenset({"GL_ARB_shader_ballot", "GL_ARB_gpu_shader_int64", "GL_ARB_shader_group_vote"})
    plain = to_glsl(text, version, extensions=ext).source
    assert "readFirstInvocationARB(" in plain and "readInvocationARB(" in plain
    worked = to_glsl(text, version, extensions=ext, host_facts={"subgroup_reads_crash"}).source
    assert "readFirstInvocationARB" not in worked and "readInvocationARB" not in worked
    vote = to_glsl(_LANES_FS, version, extensions=ext, host_facts={"subgroup_reads_crash"}).source
    assert "readFirstInvocationARB" not in vote and "readInvocationARB" not in vote
