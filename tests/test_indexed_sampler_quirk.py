"""Host quirk ``indexed_sampler_array_crash`` (glpipe/host/quirks.py): on llvmpipe a
filtered lookup through a sampler array indexed by a dynamically uniform value
(``texture(s[cb.i], p)``) kills the process at draw time (SIGSEGV) when the stage
also samples a texture of another target (a 2D array, a cube).

Found by issue 12's TGSI fuzzer: five mutations of the corpus program
tests/lowering/in/tex_indexed.tgsi (saved as tests/fuzz/findings/host_crash_*.frag.tgsi)
died in llvmpipe on the native profile.  The tests here prove the row on a matching
host (raw GLSL, no glpipe, in a child interpreter), check that the lowering avoids
the construct under the quirk, and draw the five programs and their reduction on
both profiles in child interpreters (a crash kills the child, not the suite), with
every pixel compared with a model computed here from the TGSI text.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import numpy as np
import pytest

from glpipe.host import preload, quirks
from lowering import to_glsl

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FINDINGS = os.path.join(ROOT, "tests", "fuzz", "findings")
SEEDS = (2006409, 2010263, 2013407, 2018467, 2019717)
FACT = "indexed_sampler_array_crash"


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


def _finding(seed: int) -> str:
    with open(os.path.join(FINDINGS, f"host_crash_{seed}.frag.tgsi")) as fh:
        return fh.read()


# -- the row is true on a matching host ------------------------------------------------

# The smallest construct found (reduced by hand from the lowered GLSL): a uniform-indexed
# element of a sampler2D array sampled with textureLod, and a sampler2DArray sampled
# beside it.  Either lookup alone draws; so does a constant or a varying index, a
# texelFetch / textureSize through the array, or a sampler2D in place of the array one.
_RAW = """
import os, sys
os.environ.setdefault("PYOPENGL_PLATFORM", "egl")
import moderngl, numpy as np
ctx = moderngl.create_context(standalone=True, backend="egl", require=450)
other, coord = sys.argv[1], sys.argv[2]
vs = '''#version 450 core
layout(location = 0) in vec4 p;
out vec4 v;
void main() { v = vec4(0.25, 0.25, 0.0, 0.0); gl_Position = p; }'''
fs = '''#version 450 core
layout(std140, binding = 0) uniform B { ivec4 c; } cb;
layout(binding = 0) uniform sampler2D s[3];
layout(binding = 3) uniform %s o;
in vec4 v;
layout(location = 0) out vec4 color;
void main() { color = textureLod(s[cb.c.y], v.xy, 0.0) + vec4(texture(o, v.%s).x); }''' % (other, coord)
prog = ctx.program(vertex_shader=vs, fragment_shader=fs)
ctx.buffer(np.zeros(4, np.int32).tobytes()).bind_to_uniform_block(0)
fbo = ctx.simple_framebuffer((4, 4))
fbo.use()
vbo = ctx.buffer(np.array([(-1, -1, 0, 1), (3, -1, 0, 1), (-1, 3, 0, 1)], np.float32).tobytes())
ctx.vertex_array(prog, [(vbo, "4f", "p")]).render()
fbo.read()
print("drawn")
"""


def test_indexed_sampler_array_crash_quirk(screen):
    """On a host of the row the raw construct kills a process (the row is true; a
    fixed release makes this fail: narrow the row's range) and the same GLSL with a
    sampler2D beside the array draws (the row names the right construct)."""
    row = quirks.BY_FACT[FACT]
    profile = screen.host.profile
    if not row.matches(profile.renderer, profile.version_string):
        assert not screen.host_facts.has(FACT)
        return
    assert screen.host_facts.has(FACT)
    for other in ("sampler2DArray", "samplerCube"):
        died = _child(_RAW, other, "xyz")
        assert died.returncode < 0, (other, died.returncode, died.stdout, died.stderr[-800:])
    lives = _child(_RAW, "sampler2D", "xy")
    assert lives.returncode == 0 and "drawn" in lives.stdout, lives.stderr[-800:]


# -- the lowering avoids it --------------------------------------------------------------


def test_lowering_uses_no_sampler_array_under_the_quirk():
    """Without the quirk GLSL 4.50 indexes a sampler array; with it every indexed
    lookup of tex_indexed.tgsi is a switch over the declared units, each case a
    sampler of its own (the form GLSL 3.30 already uses)."""
    with open(os.path.join(ROOT, "tests", "lowering", "in", "tex_indexed.tgsi")) as fh:
        text = fh.read()
    plain = to_glsl(text, 450).source
    assert "samparr" in plain and "switch" not in plain
    worked = to_glsl(text, 450, host_facts={FACT}).source
    assert "samparr" not in worked and not re.search(r"\w\[[^]]*clamp\(", worked)
    assert worked.count("switch (") == 5  # TEX, TXL, TXF, TXQ, SAMPLE
    assert worked == to_glsl(text, 450, host_facts={FACT}).source  # deterministic
    # GLSL 3.30 (no dynamic indexing at all) is the same switch whatever the facts.
    assert to_glsl(text, 330).source == to_glsl(text, 330, host_facts={FACT}).source


# -- the programs drawn with known textures ----------------------------------------------

# Units 0..2: 2D textures (k + 1) x (k + 2) of one colour C2D[k]; units 3..5: 2D array
# textures 1 x 1 with two layers, layer L of colour CARR[k - 3][L]; NEAREST samplers.
C2D = np.array([[1, 2, 3, 4], [10, 20, 30, 40], [100, 200, 300, 400]], np.float64)
CARR = np.array([[[0, 0, 0, 0], [5, 6, 7, 8]], [[0, 0, 0, 0], [50, 60, 70, 80]], [[0, 0, 0, 0], [500, 600, 700, 800]]])
SIZES = [(k + 1, k + 2) for k in range(3)]
# TEXCOORD[0] at every vertex: s = t = 0.5, layer r = 1.0, lod q = 0.
COORD = (0.5, 0.5, 1.0, 0.0)

_DRAW = """
import json, sys
sys.path[:0] = ["tests"]
import numpy as np
import glpipe
from glpipe import (ConstantBuffer, DrawInfo, Format, Prim, SamplerViewTemplate, ShaderType, Target,
                    VertexBuffer)
from context.util import read_rgba32f, vertex_buffer
from context.util_draw import setup
from context.util_sampling import make_texture, nearest, upload
from test_indexed_sampler_quirk import C2D, CARR, COORD, SIZES
VS = '''VERT
DCL IN[0]
DCL IN[1]
DCL OUT[0], POSITION
DCL OUT[1], TEXCOORD[0]
  0: MOV OUT[0], IN[0]
  1: MOV OUT[1], IN[1]
  2: END
'''
screen = glpipe.create_screen(profile=sys.argv[1])
ctx = screen.context_create()
color = setup(ctx, vs=VS, fs=sys.stdin.read(), size=1)
views = []
for k, (w, h) in enumerate(SIZES):
    res = make_texture(screen, Target.TEXTURE_2D, Format.R32G32B32A32_FLOAT, w, h)
    upload(screen, res, 0, np.tile(C2D[k].astype(np.float32), (h, w, 1)))
    views.append(ctx.create_sampler_view(res, SamplerViewTemplate(format=res.format, target=Target.TEXTURE_2D)))
for layers in CARR:
    res = make_texture(screen, Target.TEXTURE_2D_ARRAY, Format.R32G32B32A32_FLOAT, 1, 1, array_size=2)
    upload(screen, res, 0, np.asarray(layers, np.float32).reshape(2, 1, 1, 4))
    views.append(ctx.create_sampler_view(res, SamplerViewTemplate(format=res.format, target=Target.TEXTURE_2D_ARRAY, last_layer=1)))
ctx.set_sampler_views(ShaderType.FRAGMENT, 0, views)
ctx.bind_sampler_states(ShaderType.FRAGMENT, 0, [ctx.create_sampler_state(nearest()) for _ in views])
tri = np.array([[-1, -1, 0, 1, *COORD], [3, -1, 0, 1, *COORD], [-1, 3, 0, 1, *COORD]], np.float32)
ctx.set_vertex_buffers([VertexBuffer(buffer=vertex_buffer(screen, tri), stride=32)])
out = []
for pair in json.loads(sys.argv[2]):
    ctx.set_constant_buffer(ShaderType.FRAGMENT, 0, ConstantBuffer(user_buffer=np.array(pair + [0, 0], np.int32)))
    ctx.draw_vbo(DrawInfo(mode=Prim.TRIANGLES, start=0, count=3))
    out.append(read_rgba32f(screen, color)[0, 0].tolist())
print(json.dumps(out))
"""

_LINE = re.compile(r"^\s*-?\d+:\s+(\w+)\s+(.*)$")
_REG = re.compile(r"^(-?)(\w+)\[(.+?)\](?:\[(\d+)\])?(?:\.([xyzw]+))?$")
_ADDR = re.compile(r"ADDR\[(\d+)\]\.([xyzw])(?:\+(-?\d+))?")


def model(text: str, const: tuple[int, int]) -> np.ndarray:
    """OUT[0] of one of these programs, evaluated from its TGSI text over the textures
    above.  Registers are untyped 32-bit words, zero at the start (tgsi.rst): TEX / TXL /
    SAMPLE write the filtered texel as floats, TXF the texel (0, 0), TXQ level 0's
    (width, height) as integers; ADD reads floats (an integer read as a float is its
    bit pattern), I2F converts; a 2D array's layer is round(r); an indexed unit is the
    address plus the constant."""
    regs: dict[str, np.ndarray] = {}
    sview_target = {}
    for m in re.finditer(r"DCL SVIEW\[(\d+)(?:\.\.(\d+))?\], (\w+)", text):
        for k in range(int(m[1]), int(m[2] or m[1]) + 1):
            sview_target[k] = m[3]
    imm = {}
    for m in re.finditer(r"IMM\[(\d+)\] (\w+) \{([^}]*)\}", text):
        kind = np.float32 if m[2] == "FLT32" else np.int32
        imm[int(m[1])] = np.array([float(x) for x in m[3].split(",")], kind).view(np.uint32)

    def words(values, kind=np.float32) -> np.ndarray:
        return np.asarray(values, kind).view(np.uint32)

    def as_float(w) -> np.ndarray:
        return w.view(np.float32)

    def as_int(w) -> np.ndarray:
        return w.view(np.int32)

    def unit(tok):
        inner = re.search(r"\[(.*)\]", tok)[1]
        a = _ADDR.fullmatch(inner)
        if a is None:
            return int(inner)
        return int(as_int(regs.get(f"ADDR[{a[1]}]", np.zeros(4, np.uint32)))["xyzw".index(a[2])]) + int(a[3] or 0)

    def read(tok):
        m = _REG.match(tok)
        if m[2] == "IN":
            v = words(COORD)
        elif m[2] == "IMM":
            v = imm[int(m[3])]
        elif m[2] == "CONST":
            v = words([const[0], const[1], 0, 0], np.int32)
        else:
            v = regs.get(f"{m[2]}[{m[3]}]", np.zeros(4, np.uint32))
        sw = m[5] or "xyzw"
        sw = (sw * 4)[:4] if len(sw) == 1 else sw
        return np.array([v["xyzw".index(c)] for c in sw], np.uint32)

    def texel(u, target, coord):
        if target == "2D_ARRAY":
            layer = int(np.clip(np.round(as_float(coord)[2]), 0, 1))
            return words(CARR[u - 3][layer])
        return words(C2D[u])

    for line in text.splitlines():
        m = _LINE.match(line)
        if m is None or m[1] == "END":
            continue
        op, args = m[1], [a.strip() for a in re.split(r",\s*(?![^\[]*\])", m[2])]
        if op in ("TEX", "TXL"):
            value = texel(unit(args[2]), args[3], read(args[1]))
        elif op == "SAMPLE":
            u = unit(args[2])
            value = texel(u, sview_target[u], read(args[1]))
        elif op == "TXF":
            value = words(C2D[unit(args[2])])
        elif op == "TXQ":
            value = words([*SIZES[unit(args[2])], 0, 0], np.int32)
        elif op == "UARL":
            value = read(args[1])
        elif op == "ADD":
            value = words(as_float(read(args[1])) + as_float(read(args[2])))
        elif op == "I2F":
            value = words(as_int(read(args[1])).astype(np.float32))
        elif op == "MOV":
            value = read(args[1])
        else:
            raise AssertionError(f"the model has no {op}")
        dst = _REG.match(args[0])
        reg = regs.setdefault(f"{dst[2]}[{dst[3]}]", np.zeros(4, np.uint32))
        for c in dst[5] or "xyzw":
            reg["xyzw".index(c)] = value["xyzw".index(c)]
    return as_float(regs["OUT[0]"]).astype(np.float64)


def _draw(profile: str, fs: str, consts: list[tuple[int, int]]) -> np.ndarray:
    proc = _child(_DRAW, profile, json.dumps([list(c) for c in consts]), stdin=fs)
    assert proc.returncode == 0, f"the draw killed the child (status {proc.returncode}): {proc.stderr[-1500:]}"
    return np.array(json.loads(proc.stdout.strip().splitlines()[-1]))


# ADDR[0].x = 0 is the one value every lookup of tex_indexed keeps in its declared range
# (TXF adds 2 to it over units 0..2, SAMPLE adds 3 over views 3..5); ADDR[1].y + 1
# selects every 2D unit.
CONSTS = [(0, -1), (0, 0), (0, 1)]


def test_the_model_reads_what_the_program_says():
    """The model on a hand-evaluated case: tex_indexed with ADDR[0].x = 0, ADDR[1].y = 0:
    TEX unit 0 + TXL unit 1 + TXF unit 2 + (TEX unit 5 layer 1 .x, SAMPLE view 3
    layer 1 .yzw) + float(TXQ unit 0 = (1, 2))."""
    expected = C2D[0] + C2D[1] + C2D[2] + np.array([500, 6, 7, 8]) + np.array([1, 2, 0, 0])
    np.testing.assert_array_equal(model(_finding(2006409), (0, 0)), expected)
    # seed 2010263 lost its TXQ: TEMP[3] is read unwritten, so zero; seed 2013407 lost
    # its I2F: the sizes' integer bits read as floats are denormals, nothing next to 500.
    np.testing.assert_array_equal(model(_finding(2010263), (0, 0)), expected - np.array([1, 2, 0, 0]))
    np.testing.assert_array_equal(model(_finding(2013407), (0, 0)), expected - np.array([1, 2, 0, 0]))


@pytest.mark.parametrize("seed", SEEDS)
def test_fuzzed_program_draws_its_values(profile, seed):
    """Each of the five programs that killed llvmpipe is created and drawn in a
    child, and every index it is drawn with gives the model's value."""
    text = _finding(seed)
    got = _draw(profile, text, CONSTS)
    for const, pixel in zip(CONSTS, got, strict=True):
        np.testing.assert_array_equal(pixel, model(text, const), err_msg=f"seed {seed}, ADDR = {const}")


# The construct alone in TGSI: TXL through SAMP[ADDR[1].y+1] next to TEX on a 2D_ARRAY unit.
REDUCED = """FRAG
DCL IN[0], TEXCOORD[0], PERSPECTIVE
DCL OUT[0], COLOR
DCL SAMP[0]
DCL SAMP[1]
DCL SAMP[2]
DCL SAMP[3..5]
DCL SVIEW[0], 2D, FLOAT
DCL SVIEW[1], 2D, FLOAT
DCL SVIEW[2], 2D, FLOAT
DCL SVIEW[3..5], 2D_ARRAY, FLOAT
DCL CONST[0][0]
DCL ADDR[0..1]
DCL TEMP[0..1]
  0: UARL ADDR[1].y, CONST[0][0].yyyy
  1: TXL TEMP[0], IN[0], SAMP[ADDR[1].y+1], 2D
  2: TEX TEMP[1].x, IN[0], SAMP[5], 2D_ARRAY
  3: ADD OUT[0], TEMP[0], TEMP[1]
  4: END
"""


def test_reduced_program_draws_the_selected_texels(profile):
    """ADDR[1].y = -1, 0, 1 selects 2D units 0, 1, 2 for the TXL; the TEX reads
    layer 1 of unit 5 into .x: colour of the unit plus (500, 0, 0, 0), by hand."""
    got = _draw(profile, REDUCED, CONSTS)
    for k, pixel in enumerate(got):
        np.testing.assert_array_equal(pixel, C2D[k] + np.array([500, 0, 0, 0]))
        np.testing.assert_array_equal(pixel, model(REDUCED, CONSTS[k]))
