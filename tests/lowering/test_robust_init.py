"""Registers a program reads before writing read zero (issue 12, "the process dies" (b)).

Gallium's software drivers start every TEMP, OUT and ADDR register at zero; GLSL
leaves locals undefined, and llvmpipe turns an undefined cube coordinate fed to
TXB into a dead process at draw time.  The draws that used to kill the process
run in a child interpreter, so the suite survives them and sees the exit status.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(os.path.dirname(__file__)))  # tests/: the context helpers

from context.util import vertex_buffer
from context.util_draw import setup, vertices

from glpipe import DrawInfo, Prim, VertexBuffer
from lowering import to_glsl

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# The child: draws a triangle covering pixel (0, 0) with GENERIC[0] = (1, 0, 0, 1)
# and the FS given on stdin; with a cube view bound when asked, face f of which
# holds the colour (f + 1) / 8.  Prints pixel (0, 0) as JSON.
_CHILD = """
import json, sys
sys.path[:0] = ["tests"]
import numpy as np
import glpipe
from glpipe import DrawInfo, Format, Prim, SamplerViewTemplate, ShaderType, Target, VertexBuffer
from context.util import read_rgba32f, vertex_buffer
from context.util_draw import setup, vertices
from context.util_sampling import make_texture, nearest, upload
profile, with_view = sys.argv[1], sys.argv[2] == "1"
fs = sys.stdin.read()
screen = glpipe.create_screen(profile=profile)
ctx = screen.context_create()
color = setup(ctx, fs=fs)
if with_view:
    tex = make_texture(screen, Target.TEXTURE_CUBE, Format.R32G32B32A32_FLOAT, 2, 2, array_size=6)
    for face in range(6):
        upload(screen, tex, 0, np.full((2, 2, 4), (face + 1) / 8, np.float32), face=face)
    view = ctx.create_sampler_view(tex, SamplerViewTemplate(format=tex.format, target=Target.TEXTURE_CUBE, last_layer=5))
    ctx.set_sampler_views(ShaderType.FRAGMENT, 0, [view])
    ctx.bind_sampler_states(ShaderType.FRAGMENT, 0, [ctx.create_sampler_state(nearest())])
verts = vertices([(0, 0), (32, 0), (0, 32)], (1, 0, 0, 1))
ctx.set_vertex_buffers([VertexBuffer(buffer=vertex_buffer(screen, verts), stride=32)])
ctx.draw_vbo(DrawInfo(mode=Prim.TRIANGLES, start=0, count=3))
print(json.dumps(read_rgba32f(screen, color)[0, 0].tolist()))
"""


def run_child(profile: str, fs: str, with_view: bool) -> subprocess.CompletedProcess:
    """Run ``_CHILD`` on ``profile`` in a fresh interpreter (cwd: the worktree root)."""
    return subprocess.run(
        [sys.executable, "-c", _CHILD, profile, "1" if with_view else "0"],
        input=fs,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
    )


# TEMP[0].x written, .yzw never: the cube coordinate and the bias read garbage.
TXB_PARTLY_WRITTEN = """FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL OUT[0], COLOR
DCL SAMP[0]
DCL SVIEW[0], CUBE, FLOAT
DCL TEMP[0..1]
  0: MOV TEMP[0].x, IN[0].xxxx
  1: TXB TEMP[1], TEMP[0], SAMP[0], CUBE
  2: MOV OUT[0], TEMP[1]
  3: END
"""


@pytest.mark.parametrize("with_view", [False, True], ids=["no_view", "cube_view"])
def test_txb_cube_of_unwritten_temps_does_not_kill_the_process(profile, with_view):
    proc = run_child(profile, TXB_PARTLY_WRITTEN, with_view)
    assert proc.returncode == 0, f"the draw killed the child (status {proc.returncode}): {proc.stderr[-2000:]}"
    pixel = json.loads(proc.stdout.strip().splitlines()[-1])
    if with_view:
        # Direction (1, 0, 0) with .yzw zero: the +X face (face 0, colour 1/8), bias 0.
        assert pixel == [0.125] * 4


def _draw_pixel(ctx, fs: str) -> np.ndarray:
    from context.util import read_rgba32f

    color = setup(ctx, fs=fs)
    verts = vertices([(0, 0), (32, 0), (0, 32)], (1, 0, 0, 1))
    ctx.set_vertex_buffers([VertexBuffer(buffer=vertex_buffer(ctx.screen, verts), stride=32)])
    ctx.draw_vbo(DrawInfo(mode=Prim.TRIANGLES, start=0, count=3))
    return read_rgba32f(ctx.screen, color)[0, 0]


# Each reads a register nothing wrote; zero-initialised registers give the sums below.
READS_BEFORE_WRITES = {
    # TEMP[0] never written: 0 + (0.25, 0.5, 0.75, 1).
    "temp": (
        """FRAG
DCL OUT[0], COLOR
DCL TEMP[0..1]
IMM[0] FLT32 {0.25, 0.5, 0.75, 1.0}
  0: ADD TEMP[1], TEMP[0], IMM[0]
  1: MOV OUT[0], TEMP[1]
  2: END
""",
        [0.25, 0.5, 0.75, 1.0],
    ),
    # Element 2 of the array is never written; element 0 is; ADDR[0] is 2.
    "temp_array": (
        """FRAG
DCL OUT[0], COLOR
DCL TEMP[0..3], ARRAY(1)
DCL ADDR[0]
IMM[0] FLT32 {0.25, 0.5, 0.75, 1.0}
IMM[1] INT32 {2, 0, 0, 0}
  0: MOV TEMP[0], IMM[0]
  1: UARL ADDR[0].x, IMM[1].xxxx
  2: ADD OUT[0], TEMP[ADDR[0].x](1), IMM[0]
  3: END
""",
        [0.25, 0.5, 0.75, 1.0],
    ),
    # ADDR[0] never written: IMM[ADDR[0].x + 1] is IMM[1].
    "addr": (
        """FRAG
DCL OUT[0], COLOR
DCL ADDR[0]
IMM[0] FLT32 {9.0, 9.0, 9.0, 9.0}
IMM[1] FLT32 {0.125, 0.25, 0.375, 0.5}
IMM[2] FLT32 {7.0, 7.0, 7.0, 7.0}
  0: MOV OUT[0], IMM[ADDR[0].x+1]
  1: END
""",
        [0.125, 0.25, 0.375, 0.5],
    ),
    # OUT[0] read before it is written.
    "output": (
        """FRAG
DCL OUT[0], COLOR
IMM[0] FLT32 {0.25, 0.5, 0.75, 1.0}
  0: ADD OUT[0], OUT[0], IMM[0]
  1: END
""",
        [0.25, 0.5, 0.75, 1.0],
    ),
}


@pytest.mark.parametrize("name", sorted(READS_BEFORE_WRITES))
def test_register_read_before_written_is_zero(ctx, name):
    fs, expected = READS_BEFORE_WRITES[name]
    assert _draw_pixel(ctx, fs).tolist() == expected


_REGISTER_DECL = (
    "    vec4 t",
    "    ivec4 t",
    "    uvec4 t",
    "    ivec4 addr",
)


@pytest.mark.parametrize("version", [330, 450])
@pytest.mark.parametrize("name", sorted(READS_BEFORE_WRITES))
def test_emitted_registers_are_declared_with_zero(name, version):
    """No register variable is declared without a value: the GLSL says zero
    (an array by a loop over its elements before the program's first line)."""
    lines = to_glsl(READS_BEFORE_WRITES[name][0], version).source.splitlines()
    loops = [ln for ln in lines if ln.lstrip().startswith("for (") and "(0.0);" in ln]
    bare = []
    for ln in lines:
        if not (ln.startswith(_REGISTER_DECL) and ln.endswith(";") and "=" not in ln):
            continue
        array = re.fullmatch(r"\s*\w+ (\w+)\[\d+\];", ln)
        if array is None or not any(f"{array.group(1)}[" in loop for loop in loops):
            bare.append(ln)
    assert bare == [], f"registers declared without an initialiser: {bare}"
