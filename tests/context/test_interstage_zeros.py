"""Inputs no earlier stage writes read what Gallium defines (issue 12 item 2).

Gallium links stages by semantic and lets a stage read an input the previous
stage never writes (Mesa's software drivers read zeros); GL links an input
block only to an output block of the same name.  The stop-22 campaign found
three ways this still failed to link ("internal error: the host could not
link"), saved under tests/fuzz/findings/:

* an FS reading FOG[3] with no interpolation mode (seed 12056312): the last
  vertex stage declared the missing varyings only for inputs with one;
* a GS reading LAYER[2] (seed 12034386): LAYER has a single slot (gl_Layer),
  so LAYER[2] is refused at create; LAYER[0] the VS does not write reads 0;
* a TCS reading a PATCH input (seed 12037712), declared ``patch in``, which
  GLSL 4.50 section 4.3.4 allows in a TES only: a TCS reads PATCH per vertex,
  from the VS's output of that semantic, as Gallium matches it.

Expected values come from the spec's definitions: zeros for a varying nothing
writes, 0 for gl_Layer / gl_ViewportIndex that no stage statically writes
(GLSL 4.50 section 7.1.5), 0 for the first primitive's gl_PrimitiveID.
"""

from __future__ import annotations

import os

import numpy as np
import pytest

import glpipe
from glpipe import DrawInfo, Format, Prim, ShaderState, UnsupportedError, VertexBuffer, VertexElement
from glpipe.errors import PipeError, ShaderValidationError

FINDINGS = os.path.join(os.path.dirname(__file__), "..", "fuzz", "findings")
SIZE = 4
COLOR = (0.25, 0.5, 0.75, 1.0)
# One triangle covering the target, each vertex (x, y, z, w, r, g, b, a).
BIG = np.array([(x, y, 0.0, 1.0, *COLOR) for x, y in ((-1, -1), (3, -1), (-1, 3))], np.float32)

VS = """VERT
DCL IN[0]
DCL IN[1]
DCL OUT[0], POSITION
DCL OUT[1], GENERIC[0]
  0: MOV OUT[0], IN[0]
  1: MOV OUT[1], IN[1]
  2: END
"""


def _read(path: str) -> str:
    with open(os.path.join(FINDINGS, path)) as f:
        return f.read()


def _draw(ctx, stages: dict, mode=Prim.TRIANGLES, vertices=BIG) -> np.ndarray:
    """Bind ``stages`` ({"vs": tokens, ...}) and draw ``vertices``; the RGBA32F pixels."""
    screen = ctx.screen
    color = screen.resource_create(
        glpipe.ResourceTemplate(
            format=Format.R32G32B32A32_FLOAT, width0=SIZE, height0=SIZE, bind=glpipe.Bind.RENDER_TARGET
        )
    )
    surf = ctx.create_surface(color, glpipe.SurfaceTemplate(format=color.format))
    ctx.set_framebuffer_state(glpipe.FramebufferState(width=SIZE, height=SIZE, cbufs=(surf,)))
    ctx.set_viewport_states(
        0, [glpipe.ViewportState(scale=(SIZE / 2, SIZE / 2, 0.5), translate=(SIZE / 2, SIZE / 2, 0.5))]
    )
    ctx.clear(glpipe.Clear.COLOR0, None, (9, 9, 9, 9), 0, 0)
    ctx.bind_rasterizer_state(ctx.create_rasterizer_state(glpipe.RasterizerState()))
    for stage, tokens in stages.items():
        getattr(ctx, f"bind_{stage}_state")(getattr(ctx, f"create_{stage}_state")(ShaderState(tokens=tokens)))
    ctx.bind_vertex_elements_state(
        ctx.create_vertex_elements_state(
            [
                VertexElement(src_format=Format.R32G32B32A32_FLOAT),
                VertexElement(src_offset=16, src_format=Format.R32G32B32A32_FLOAT),
            ]
        )
    )
    ctx.set_vertex_buffers([VertexBuffer(buffer=vertices, stride=32)])
    if mode == Prim.PATCHES:
        ctx.set_patch_vertices(3)
    ctx.draw_vbo(DrawInfo(mode=mode, count=len(vertices)))
    out = np.zeros((SIZE, SIZE, 4), np.float32)
    gl = screen.host.gl
    gl.glBindTexture(gl.GL_TEXTURE_2D, color.gl_object)
    gl.glGetTexImage(gl.GL_TEXTURE_2D, 0, gl.GL_RGBA, gl.GL_FLOAT, out)
    gl.glBindTexture(gl.GL_TEXTURE_2D, 0)
    return out


def _fs(decl: str, convert: str = "MOV") -> str:
    """An FS writing ``convert`` of its one input plus COLOR: COLOR where the input reads 0."""
    return (
        f"FRAG\nDCL IN[0], {decl}\nDCL OUT[0], COLOR\nDCL TEMP[0]\n"
        "IMM[0] FLT32 {0.25, 0.5, 0.75, 1.0}\n"
        f"  0: {convert} TEMP[0], IN[0]\n  1: ADD OUT[0], TEMP[0], IMM[0]\n  2: END\n"
    )


def _uniform(img: np.ndarray, value) -> None:
    np.testing.assert_array_equal(img, np.broadcast_to(np.float32(value), img.shape))


# -- the fragment shader: every input semantic, written by nothing -----------------

# Read from a varying the last vertex stage declares and writes zero: each with
# no interpolation mode (the finding) and with one.
VARYING_INPUTS = [
    "GENERIC[3]",
    "TEXCOORD[1]",
    "COLOR[0]",
    "COLOR[1]",
    "BCOLOR[0]",
    "FOG[3]",
    "NORMAL[0]",
    "PATCH[0]",
    "CLIPVERTEX[0]",
    "EDGEFLAG[0]",
    "VIEWPORT_MASK[0]",
    "CULLDIST[0]",
    "CLIPDIST[0]",
    "CLIPDIST[1]",
]


@pytest.mark.parametrize("interp", ["", ", PERSPECTIVE", ", LINEAR", ", CONSTANT"])
@pytest.mark.parametrize("decl", VARYING_INPUTS)
def test_fs_varying_input_nothing_writes_reads_zero(ctx, decl, interp):
    _uniform(_draw(ctx, {"vs": VS, "fs": _fs(decl + interp)}), COLOR)


# Built-ins whose value GL defines whatever the vertex stages write (integers: U2F).
BUILTIN_INPUTS = ("PRIM_ID", "LAYER", "VIEWPORT_INDEX")


@pytest.mark.parametrize("semantic", BUILTIN_INPUTS)
def test_fs_builtin_input_nothing_writes_reads_zero(ctx, semantic):
    fs = _fs(f"{semantic}[0], CONSTANT", "U2F")
    try:
        img = _draw(ctx, {"vs": VS, "fs": fs})
    except UnsupportedError as exc:
        # gl33: no gl_Layer / gl_ViewportIndex in an FS (GL 4.3): the requirement names the feature.
        assert ctx.screen.profile.glsl_version < 430 and "FS input" in str(exc)
        return
    _uniform(img, COLOR)


def test_fs_point_coord_nothing_writes_reads_the_point_coordinate(ctx):
    """PCOORD is gl_PointCoord (GL 4.5 section 14.4): (0.5, 0.5) at the centre of a
    one-pixel point, and (0, 1) in z and w (stages.py)."""
    point = np.array([(-0.75, -0.75, 0.0, 1.0, *COLOR)], np.float32)  # the centre of pixel (0, 0)
    img = _draw(ctx, {"vs": VS, "fs": _fs("PCOORD[0], LINEAR")}, Prim.POINTS, point)
    expect = np.full((SIZE, SIZE, 4), 9, np.float32)
    expect[0, 0] = (0.75, 1.0, 0.75, 2.0)
    np.testing.assert_array_equal(img, expect)


def test_fuzzed_fs_fog_input_nothing_writes_draws(ctx):
    """Seed 12056312: FOG[3], PRIM_ID and CLIPDIST[0] inputs the VS does not write."""
    tokens = _read("internal_12056312.frag.tgsi")
    try:
        _draw(ctx, {"vs": VS, "fs": tokens})
    except UnsupportedError as exc:
        # gl33 has no 64-bit integers for its U64MIN / I2I64: refused, naming the feature.
        assert not ctx.screen.profile.has("gpu_shader_int64") and "int64" in str(exc)


# -- a GS reading LAYER ----------------------------------------------------------

GS_LAYER = """GEOM
PROPERTY GS_INPUT_PRIMITIVE TRIANGLES
PROPERTY GS_OUTPUT_PRIMITIVE TRIANGLE_STRIP
PROPERTY GS_MAX_OUTPUT_VERTICES 3
DCL IN[][0], POSITION
DCL IN[][1], GENERIC[0]
DCL IN[][2], LAYER[0]
DCL IN[][3], VIEWPORT_INDEX[0]
DCL OUT[0], POSITION
DCL OUT[1], GENERIC[0]
DCL TEMP[0..1]
IMM[0] UINT32 {0, 0, 0, 0}
IMM[1] FLT32 {1.0, 0.0, 0.0, 0.0}
  0: U2F TEMP[0], IN[0][2].xxxx
  1: U2F TEMP[1], IN[1][3].xxxx
  2: ADD TEMP[0], TEMP[0], TEMP[1]
  3: MUL TEMP[0], TEMP[0], IMM[1]
  4: ADD OUT[1], IN[0][1], TEMP[0]
  5: MOV OUT[0], IN[0][0]
  6: EMIT IMM[0].xxxx
  7: ADD OUT[1], IN[1][1], TEMP[0]
  8: MOV OUT[0], IN[1][0]
  9: EMIT IMM[0].xxxx
 10: ADD OUT[1], IN[2][1], TEMP[0]
 11: MOV OUT[0], IN[2][0]
 12: EMIT IMM[0].xxxx
 13: END
"""

FS = "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\n  0: MOV OUT[0], IN[0]\n  1: END\n"


def test_gs_layer_and_viewport_index_nothing_writes_read_zero(ctx):
    _uniform(_draw(ctx, {"vs": VS, "gs": GS_LAYER, "fs": FS}), COLOR)


# Writes layer 1 and viewport index 2 (the GS reads them; only its own gl_Layer is rasterized).
VS_LAYER = """VERT
DCL IN[0]
DCL IN[1]
DCL OUT[0], POSITION
DCL OUT[1], GENERIC[0]
DCL OUT[2], LAYER
DCL OUT[3], VIEWPORT_INDEX
IMM[0] UINT32 {1, 2, 0, 0}
  0: MOV OUT[0], IN[0]
  1: MOV OUT[1], IN[1]
  2: MOV OUT[2].x, IMM[0].xxxx
  3: MOV OUT[3].x, IMM[0].yyyy
  4: END
"""


def test_gs_reads_the_layer_and_viewport_index_the_vs_writes(ctx):
    _uniform(_draw(ctx, {"vs": VS_LAYER, "gs": GS_LAYER, "fs": FS}), (COLOR[0] + 3, *COLOR[1:]))


def test_fuzzed_gs_layer_2_is_refused_at_create(ctx):
    """Seed 12034386: GL has one gl_Layer: LAYER[2] names no slot."""
    with pytest.raises(ShaderValidationError, match=r"LAYER\[2\]"):
        ctx.create_gs_state(ShaderState(tokens=_read("internal_12034386.geom.tgsi")))


# -- PATCH between the VS, the TCS and the TES ------------------------------------

# The VS passes its colour as PATCH[1] (a per-vertex output: Gallium matches by semantic).
VS_PATCH = VS.replace("DCL OUT[1], GENERIC[0]", "DCL OUT[1], PATCH[1]")

# Reads PATCH[1] (the VS's) and PATCH[2] (nothing writes it) of vertex 0 into its patch output PATCH[0].
TCS_PATCH = """TESS_CTRL
PROPERTY TCS_VERTICES_OUT 3
DCL IN[][0], POSITION
DCL IN[][1], PATCH[1]
DCL IN[][2], PATCH[2]
DCL SV[0], INVOCATIONID
DCL OUT[][0], POSITION
DCL OUT[1], TESSOUTER
DCL OUT[2], TESSINNER
DCL OUT[3], PATCH[0]
DCL ADDR[0]
IMM[0] FLT32 {1.0, 1.0, 1.0, 1.0}
  0: UARL ADDR[0].x, SV[0].xxxx
  1: MOV OUT[ADDR[0].x][0], IN[ADDR[0].x][0]
  2: MOV OUT[1], IMM[0]
  3: MOV OUT[2], IMM[0]
  4: ADD OUT[3], IN[0][1], IN[0][2]
  5: END
"""

# Passes the patch's PATCH[0] to the FS.
TES_PATCH = """TESS_EVAL
PROPERTY TES_PRIM_MODE 4
DCL IN[][0], POSITION
DCL IN[1], PATCH[0]
DCL SV[0], TESSCOORD
DCL OUT[0], POSITION
DCL OUT[1], GENERIC[0]
DCL TEMP[0]
  0: MUL TEMP[0], SV[0].xxxx, IN[0][0]
  1: MAD TEMP[0], SV[0].yyyy, IN[1][0], TEMP[0]
  2: MAD OUT[0], SV[0].zzzz, IN[2][0], TEMP[0]
  3: MOV OUT[1], IN[1]
  4: END
"""

TES_PLAIN = TES_PATCH.replace("DCL IN[1], PATCH[0]\n", "").replace("  3: MOV OUT[1], IN[1]", "  3: MOV OUT[1], SV[0]")


def _no_tessellation(ctx) -> bool:
    if ctx.screen.profile.has("tessellation_shader"):
        return False
    with pytest.raises(UnsupportedError, match="tessellation"):
        ctx.create_tcs_state(ShaderState(tokens=TCS_PATCH))
    return True


def test_tcs_patch_value_arrives_in_the_tes(ctx):
    if _no_tessellation(ctx):
        return
    img = _draw(ctx, {"vs": VS_PATCH, "tcs": TCS_PATCH, "tes": TES_PATCH, "fs": FS}, Prim.PATCHES)
    _uniform(img, COLOR)


def test_fuzzed_tcs_patch_input_draws(ctx):
    """Seed 12037712: a TCS reading PATCH[1], which the VS does not write."""
    if _no_tessellation(ctx):
        return
    tokens = _read("internal_12037712.tcs.tgsi")
    try:
        _draw(ctx, {"vs": VS, "tcs": tokens, "tes": TES_PLAIN, "fs": FS}, Prim.PATCHES)
    except PipeError as exc:  # only a PipeError, and never the host's refusal
        assert "internal error" not in str(exc)
        raise


# -- every saved finding of this family: refused at create, or drawn ----------------

TCS_PLAIN = (
    "TESS_CTRL\nPROPERTY TCS_VERTICES_OUT 3\nDCL IN[][0], POSITION\nDCL SV[0], INVOCATIONID\n"
    "DCL OUT[][0], POSITION\nDCL OUT[1], TESSOUTER\nDCL OUT[2], TESSINNER\nDCL ADDR[0]\n"
    "IMM[0] FLT32 {1.0, 1.0, 1.0, 1.0}\n  0: UARL ADDR[0].x, SV[0].xxxx\n"
    "  1: MOV OUT[ADDR[0].x][0], IN[ADDR[0].x][0]\n  2: MOV OUT[1], IMM[0]\n  3: MOV OUT[2], IMM[0]\n  4: END\n"
)
# The stages drawn around a finding of each kind (it takes its own slot), and the draw.
_AROUND = {
    "vert": ({"fs": FS}, Prim.TRIANGLES, BIG),
    "frag": ({"vs": VS}, Prim.TRIANGLES, BIG),
    "geom": ({"vs": VS, "fs": FS}, None, None),
    "tcs": ({"vs": VS, "tes": TES_PLAIN, "fs": FS}, Prim.PATCHES, BIG),
}
_GS_DRAW = {"POINTS": Prim.POINTS, "TRIANGLES": Prim.TRIANGLES, "TRIANGLES_ADJACENCY": Prim.TRIANGLES_ADJACENCY}
_SLOT = {"vert": "vs", "frag": "fs", "geom": "gs", "tcs": "tcs"}
FINDING_FILES = sorted(f for f in os.listdir(FINDINGS) if f.startswith("internal_"))


@pytest.mark.parametrize("name", FINDING_FILES)
def test_saved_finding_is_refused_at_create_or_draws(ctx, name):
    """Each program the campaigns saved as an "internal error" is now either
    refused at create with a PipeError naming the reason, or draws."""
    kind = name.split(".")[1]
    tokens = _read(name)
    stages, mode, vertices = _AROUND[kind]
    try:
        getattr(ctx, f"create_{_SLOT[kind]}_state")(ShaderState(tokens=tokens))
    except PipeError as exc:
        assert "internal error" not in str(exc)
        return
    if kind == "geom":
        prim = tokens.split("GS_INPUT_PRIMITIVE ")[1].split()[0]
        mode = _GS_DRAW[prim]
        vertices = np.resize(BIG, (6 if "ADJACENCY" in prim else 3, 8))
    try:
        _draw(ctx, {**stages, _SLOT[kind]: tokens}, mode, vertices)
    except PipeError as exc:
        assert "internal error" not in str(exc)


# -- outputs with no GL built-in, read by the FS ---------------------------------


@pytest.mark.parametrize("semantic", ["CLIPVERTEX", "EDGEFLAG"])
def test_fs_reads_what_the_vs_writes_to_an_output_without_a_builtin(ctx, semantic):
    """CLIPVERTEX and EDGEFLAG have no GL output variable (the VS keeps them in a
    local for the clip-plane and edge-flag rules); an FS reading one reads the
    value the VS wrote, as Gallium links stages by semantic."""
    vs = VS.replace("DCL OUT[1], GENERIC[0]", f"DCL OUT[1], {semantic}")
    img = _draw(ctx, {"vs": vs, "fs": _fs(f"{semantic}[0], PERSPECTIVE")})
    _uniform(img, [2 * c for c in COLOR])
