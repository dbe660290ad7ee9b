"""The ``mul_extended_crash`` host quirk (glpipe/host/quirks.py): on llvmpipe,
``umulExtended`` / ``imulExtended`` of 1 (or ~0) and a select between constants
kill the process at draw in geometry and tessellation stages.

Found by issue 12's TGSI fuzzer (stop-23 native campaign, seed 51025365, saved as
tests/fuzz/findings/host_crash_51025365.tcs.tgsi): a TCS computing ``SGT`` of a
constant and an input, then ``UMUL_HI`` of the result by an immediate 1, died with
SIGSEGV at its first draw.  glpipe lowers IMUL_HI / UMUL_HI to the GLSL 3.30
helpers on such a host (lowering/glsl/int_emul.py ``IntOp.avoid``).  Constructs
that may kill the process run in child interpreters, on the bare driver
(``preload.without_settings()``).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest

from glpipe.host import preload, quirks
from lowering import to_glsl

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FINDING = os.path.join(ROOT, "tests", "fuzz", "findings", "host_crash_51025365.tcs.tgsi")


def _child(code: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", code, *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=preload.without_settings(),
        timeout=300,
    )


# A GS computing umulExtended(1u, a select between two constants): raw GLSL through
# ModernGL, no glpipe involved.
_RAW_GS = """
import os
os.environ.setdefault("PYOPENGL_PLATFORM", "egl")
import moderngl, numpy as np
ctx = moderngl.create_context(standalone=True, backend="egl", require=450)
gs = '''#version 450 core
layout(triangles) in;
layout(triangle_strip, max_vertices = 3) out;
layout(std140, binding = 0) uniform B { vec4 c; } cb;
void main() {
    uint hi, lo;
    umulExtended(1u, floatBitsToUint(cb.c.z > 0.5 ? 1.0 : 0.0), hi, lo);
    for (int i = 0; i < 3; i++) { gl_Position = gl_in[i].gl_Position + vec4(uintBitsToFloat(hi)); EmitVertex(); }
}'''
prog = ctx.program(
    vertex_shader="#version 450 core\\nlayout(location = 0) in vec4 p;\\nvoid main() { gl_Position = p; }",
    geometry_shader=gs,
    fragment_shader="#version 450 core\\nlayout(location = 0) out vec4 c;\\nvoid main() { c = vec4(1.0); }",
)
ctx.buffer(np.zeros(4, np.float32).tobytes()).bind_to_uniform_block(0)
fbo = ctx.simple_framebuffer((4, 4))
fbo.use()
vbo = ctx.buffer(np.array([(-1, -1, 0, 1), (3, -1, 0, 1), (-1, 3, 0, 1)], np.float32).tobytes())
ctx.vertex_array(prog, [(vbo, "4f", "p")]).render(moderngl.TRIANGLES, vertices=3)
ctx.finish()
print("drawn")
"""

# The finding drawn through glpipe the way the fuzzer draws it.
_GLPIPE_FINDING = """
import sys
from tests.fuzz.tgsi_runner import HostDraw
print(HostDraw(sys.argv[1]).run(open(sys.argv[2]).read()))
"""

# A GS whose outputs are the IMUL_HI / UMUL_HI of 1 and ~0 by a select between two
# constant words (CONST[0][0].yz, picked by CONST[0][0].x > 0.5), read back exactly
# through an integer render target.
_GS = """GEOM
PROPERTY GS_INPUT_PRIMITIVE TRIANGLES
PROPERTY GS_OUTPUT_PRIMITIVE TRIANGLE_STRIP
PROPERTY GS_MAX_OUTPUT_VERTICES 3
DCL IN[][0], POSITION
DCL OUT[0], POSITION
DCL OUT[1], GENERIC[0]
DCL CONST[0][0]
DCL TEMP[0..1]
IMM[0] UINT32 {1, 4294967295, 0, 0}
IMM[1] FLT32 {0.5, 0.0, 0.0, 0.0}
  0: FSLT TEMP[0].x, IMM[1].xxxx, CONST[0][0].xxxx
  1: UCMP TEMP[0].x, TEMP[0].xxxx, CONST[0][0].yyyy, CONST[0][0].zzzz
  2: UMUL_HI TEMP[1].x, IMM[0].xxxx, TEMP[0].xxxx
  3: UMUL_HI TEMP[1].y, IMM[0].yyyy, TEMP[0].xxxx
  4: IMUL_HI TEMP[1].z, IMM[0].yyyy, TEMP[0].xxxx
  5: IMUL_HI TEMP[1].w, IMM[0].xxxx, TEMP[0].xxxx
  6: MOV OUT[0], IN[0][0]
  7: MOV OUT[1], TEMP[1]
  8: EMIT IMM[0].zzzz
  9: MOV OUT[0], IN[1][0]
 10: MOV OUT[1], TEMP[1]
 11: EMIT IMM[0].zzzz
 12: MOV OUT[0], IN[2][0]
 13: MOV OUT[1], TEMP[1]
 14: EMIT IMM[0].zzzz
 15: END
"""

_FS = """FRAG
DCL IN[0], GENERIC[0], CONSTANT
DCL OUT[0], COLOR
  0: MOV OUT[0], IN[0]
  1: END
"""

_GLPIPE_GS = """
import json, sys
import numpy as np
import glpipe as g
screen = g.create_screen(profile=sys.argv[1])
ctx = screen.context_create()
words = json.loads(sys.argv[2])
tex = screen.resource_create(g.ResourceTemplate(format=g.Format.R32G32B32A32_UINT, width0=4, height0=4,
                                                bind=g.Bind.RENDER_TARGET))
surf = ctx.create_surface(tex, g.SurfaceTemplate(format=tex.format))
ctx.set_framebuffer_state(g.FramebufferState(width=4, height=4, cbufs=(surf,)))
ctx.set_viewport_states(0, [g.ViewportState(scale=(2, 2, 0.5), translate=(2, 2, 0.5))])
ctx.bind_rasterizer_state(ctx.create_rasterizer_state(g.RasterizerState()))
ctx.bind_vertex_elements_state(ctx.create_vertex_elements_state([g.VertexElement(src_format=g.Format.R32G32B32A32_FLOAT)]))
ctx.set_vertex_buffers([g.VertexBuffer(buffer=np.array([(-1, -1, 0, 1), (3, -1, 0, 1), (-1, 3, 0, 1)], np.float32), stride=16)])
vs = "VERT\\nDCL IN[0]\\nDCL OUT[0], POSITION\\n  0: MOV OUT[0], IN[0]\\n  1: END\\n"
ctx.bind_vs_state(ctx.create_vs_state(g.ShaderState(tokens=vs)))
ctx.bind_gs_state(ctx.create_gs_state(g.ShaderState(tokens=sys.stdin.read())))
ctx.bind_fs_state(ctx.create_fs_state(g.ShaderState(tokens=FS)))
ctx.set_constant_buffer(g.ShaderType.GEOMETRY, 0, g.ConstantBuffer(user_buffer=np.array(words, np.uint32)))
ctx.draw_vbo(g.DrawInfo(mode=g.Prim.TRIANGLES, count=3))
t = ctx.transfer_map(tex, 0, g.Map.READ, g.Box(0, 0, 0, 4, 4, 1))
print(json.dumps(np.frombuffer(bytes(t.data), np.uint32).reshape(-1, 4).tolist()))
ctx.transfer_unmap(t)
""".replace("FS)))", repr(_FS) + ")))")


def _expected(chosen: int) -> list[int]:
    """UMUL_HI(1, x), UMUL_HI(~0, x), IMUL_HI(-1, x), IMUL_HI(1, x) from tgsi.rst's
    definition: the high 32 bits of the 64-bit product (signed for IMUL_HI)."""
    signed = chosen - (1 << 32) if chosen >= 1 << 31 else chosen
    return [
        (1 * chosen) >> 32,
        (0xFFFFFFFF * chosen) >> 32,
        ((-1 * signed) >> 32) & 0xFFFFFFFF,
        ((1 * signed) >> 32) & 0xFFFFFFFF,
    ]


def test_mul_extended_crash_quirk(screen):
    """On a host of the row, the raw construct kills a child (the row is true; a fixed
    release makes this fail: narrow the range), and glpipe draws the finding."""
    row = quirks.BY_FACT["mul_extended_crash"]
    profile = screen.host.profile
    if not row.matches(profile.renderer, profile.version_string):
        assert not screen.host_facts.has("mul_extended_crash")
        return
    assert screen.host_facts.has("mul_extended_crash")
    raw = _child(_RAW_GS)
    assert raw.returncode != 0 and "drawn" not in raw.stdout, (raw.returncode, raw.stderr[-500:])
    done = _child(_GLPIPE_FINDING, profile.name, FINDING)
    assert done.returncode == 0, f"the finding killed the child (status {done.returncode}): {done.stderr[-800:]}"
    outcome = done.stdout.strip().splitlines()[-1]
    if screen.profile.has("tessellation_shader"):
        assert outcome == "drawn"
    else:  # gl33: a TCS is refused at create (GL 4.0 stage)
        assert outcome == "refused:UnsupportedError"


@pytest.mark.parametrize("select", [True, False], ids=["picks-y", "picks-z"])
def test_mul_hi_of_a_select_in_a_geometry_shader(profile, select):
    """The quirk's construct through glpipe gives tgsi.rst's high words, exactly."""
    y, z = 5, 0x80000003
    x = np.float32(1.0 if select else 0.0).view(np.uint32)
    proc = subprocess.run(
        [sys.executable, "-c", _GLPIPE_GS, profile, json.dumps([int(x), y, z, 0])],
        input=_GS,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
    )
    assert proc.returncode == 0, f"the draw killed the child (status {proc.returncode}): {proc.stderr[-800:]}"
    pixels = json.loads(proc.stdout.strip().splitlines()[-1])
    assert pixels == [_expected(y if select else z)] * 16


@pytest.mark.parametrize("opcode", ["UMUL_HI", "IMUL_HI"])
def test_lowering_avoids_mul_extended_under_the_quirk(opcode):
    text = _GS.replace("UMUL_HI", opcode).replace("IMUL_HI", opcode)
    builtin = "umulExtended" if opcode == "UMUL_HI" else "imulExtended"
    assert builtin in to_glsl(text, 450).source
    worked = to_glsl(text, 450, host_facts={"mul_extended_crash"}).source
    assert "mulExtended" not in worked and "glp_umul_hi" in worked
