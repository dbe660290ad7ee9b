"""The variant passes (lowering/glsl/passes*.py): text and execution on the host GL.

Text: each pass adds its code only when its VariantKey field asks for it, in
the stages it applies to (a field set for another stage, or at its default,
gives exactly the plain lowering), and every keyed variant compiles and
links with the neighbouring stage's variant at GLSL 330 and 450.

Execution: a small ModernGL rig of its own (not exec_harness: the passes
need vertex shaders, points, clip distances and a sysvals block with chosen
values) lowers a TGSI VS (and GS) + FS with keys as the context builds them,
fills ``glp_sysvals`` from the field table, draws into an RGBA32F target and
reads it back; the expected images are computed in numpy from the Gallium /
GL definitions (alpha functions, stipple bits, rectangle tests, half-planes,
point-sprite coordinates, GL_CLAMP filtering, ...).  Pixels whose centre lies
within a small margin of a primitive edge are not compared.
"""

from __future__ import annotations

import os
from dataclasses import fields

import numpy as np
import pytest

from lowering import VariantKey, parse, to_glsl, validate
from lowering.glsl import passes
from lowering.glsl import sysval_block as sysvals
from lowering.glsl.variant import (
    PIPE_FUNC_ALWAYS,
    PIPE_FUNC_EQUAL,
    PIPE_FUNC_GEQUAL,
    PIPE_FUNC_GREATER,
    PIPE_FUNC_LEQUAL,
    PIPE_FUNC_LESS,
    PIPE_FUNC_NEVER,
    PIPE_FUNC_NOTEQUAL,
)

VERSIONS = (330, 450)
CLEAR = (-1.0, -1.0, -1.0, -1.0)
GL_CLIP_DISTANCE0 = 0x3000

# ---------------------------------------------------------------------------
# TGSI used throughout
# ---------------------------------------------------------------------------

# A pass-through VS: IN[0] position, IN[1] an attribute copied to the varyings.
VS = """VERT
DCL IN[0]
DCL IN[1]
DCL OUT[0], POSITION
DCL OUT[1], COLOR
DCL OUT[2], GENERIC[0]
DCL OUT[3], GENERIC[1]
DCL OUT[4], PSIZE
IMM[0] FLT32 {16.0, 0.0, 0.0, 0.0}
  0: MOV OUT[0], IN[0]
  1: MOV OUT[1], IN[1]
  2: MOV OUT[2], IN[1]
  3: MOV OUT[3], IN[1]
  4: MOV OUT[4].x, IMM[0].xxxx
  5: END
"""

# The same VS with a back color (-attribute, so front and back differ).
VS_BCOLOR = VS.replace("DCL OUT[4], PSIZE", "DCL OUT[4], PSIZE\nDCL OUT[5], BCOLOR").replace(
    "  5: END", "  5: MOV OUT[5], -IN[1]\n  6: END"
)

# A VS writing a clip vertex (x doubled) besides the position.
VS_CLIPVERTEX = """VERT
DCL IN[0]
DCL IN[1]
DCL OUT[0], POSITION
DCL OUT[1], CLIPVERTEX
DCL OUT[2], COLOR
IMM[0] FLT32 {2.0, 1.0, 1.0, 1.0}
  0: MOV OUT[0], IN[0]
  1: MUL OUT[1], IN[0], IMM[0]
  2: MOV OUT[2], IN[1]
  3: END
"""

# A pass-through GS (triangles), the last vertex stage when present.
GS = """GEOM
PROPERTY GS_INPUT_PRIMITIVE TRIANGLES
PROPERTY GS_OUTPUT_PRIMITIVE TRIANGLE_STRIP
PROPERTY GS_MAX_OUTPUT_VERTICES 3
DCL IN[][0], POSITION
DCL IN[][1], COLOR
DCL OUT[0], POSITION
DCL OUT[1], COLOR
  0: MOV OUT[0], IN[0][0]
  1: MOV OUT[1], IN[0][1]
  2: EMIT IMM[0].xxxx
  3: MOV OUT[0], IN[1][0]
  4: MOV OUT[1], IN[1][1]
  5: EMIT IMM[0].xxxx
  6: MOV OUT[0], IN[2][0]
  7: MOV OUT[1], IN[2][1]
  8: EMIT IMM[0].xxxx
  9: END
"""
GS = GS.replace("DCL OUT[1], COLOR\n", "DCL OUT[1], COLOR\nIMM[0] UINT32 {0, 0, 0, 0}\n")

FS_COLOR = """FRAG
DCL IN[0], COLOR, COLOR
DCL OUT[0], COLOR
  0: MOV OUT[0], IN[0]
  1: END
"""

FS_ONE = """FRAG
DCL OUT[0], COLOR
IMM[0] FLT32 {1.0, 0.5, 0.25, 1.0}
  0: MOV OUT[0], IMM[0]
  1: END
"""

# OUT = (x - 0.5) * 0.125 in every channel: 0, 0.125, ... per pixel column.
FS_RAMP = """FRAG
DCL IN[0], POSITION, LINEAR
DCL OUT[0], COLOR
DCL TEMP[0]
IMM[0] FLT32 {0.125, -0.5, 0.0, 0.0}
  0: ADD TEMP[0].x, IN[0].xxxx, IMM[0].yyyy
  1: MUL OUT[0], TEMP[0].xxxx, IMM[0].xxxx
  2: END
"""

FS_SPRITE = """FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL IN[1], GENERIC[1], PERSPECTIVE
DCL OUT[0], COLOR
DCL OUT[1], COLOR[1]
  0: MOV OUT[0], IN[0]
  1: MOV OUT[1], IN[1]
  2: END
"""

FS_POSITION = """FRAG
DCL IN[0], POSITION, LINEAR
DCL OUT[0], COLOR
  0: MOV OUT[0], IN[0]
  1: END
"""


def fs_tex(op: str = "TEX", s_scale: float = 0.0625, s_bias: float = -0.5) -> str:
    """FS sampling SVIEW/SAMP 0 (2D) at s = window x * s_scale + s_bias, t = 0.5
    (TXP: with the coordinates doubled and q = 2)."""
    lookup = {
        "TEX": "TEX TEMP[1], TEMP[0], SAMP[0], 2D",
        "TXP": "TXP TEMP[1], TEMP[0], SAMP[0], 2D",
        "SAMPLE": "SAMPLE TEMP[1], TEMP[0], SVIEW[0], SAMP[0]",
    }[op]
    scale = "IMM[0].zzzz" if op == "TXP" else "IMM[0].wwww"  # TXP: coords * 2, q = 2
    return f"""FRAG
DCL IN[0], POSITION, LINEAR
DCL OUT[0], COLOR
DCL SAMP[0]
DCL SVIEW[0], 2D, FLOAT
DCL TEMP[0..1]
IMM[0] FLT32 {{{s_scale!r}, {s_bias!r}, 2.0, 1.0}}
IMM[1] FLT32 {{0.5, 0.0, 0.0, 0.0}}
  0: MAD TEMP[0].x, IN[0].xxxx, IMM[0].xxxx, IMM[0].yyyy
  1: MOV TEMP[0].y, IMM[1].xxxx
  2: MUL TEMP[0].xy, TEMP[0].xyyy, {scale}
  3: MOV TEMP[0].zw, {scale}
  4: {lookup}
  5: MOV OUT[0], TEMP[1]
  6: END
"""


# ---------------------------------------------------------------------------
# Keys as the context builds them
# ---------------------------------------------------------------------------

VERTEX_FIELDS = ("clip_plane_enable", "clamp_vertex_color")
BOTH_FIELDS = ("two_side", "flatshade")


def fs_interpolation(fs_text: str):
    """VariantKey.output_interpolation for the stage feeding ``fs_text`` (glpipe/variant_keys.py)."""
    info = validate(parse(fs_text))
    return tuple(
        (io.semantic, io.semantic_index, io.interpolate or "PERSPECTIVE", io.location)
        for io in info.inputs
        if io.semantic is not None and io.interpolate is not None
    )


def stage_keys(fs_text: str, fs_fields=None, last_fields=None):
    """(last vertex stage key, FS key): two_side / flatshade go to both stages,
    the vertex-side fields to the last vertex stage, the rest to the FS."""
    fs_fields = dict(fs_fields or {})
    last = dict(last_fields or {})
    for name in BOTH_FIELDS:
        if name in fs_fields:
            last.setdefault(name, fs_fields[name])
    last["output_interpolation"] = fs_interpolation(fs_text)
    return VariantKey(**last), VariantKey(**fs_fields)


# ---------------------------------------------------------------------------
# The rig
# ---------------------------------------------------------------------------


def sysvals_bytes(width: int, height: int, **values) -> bytes:
    """The glp_sysvals block: fb_size for ``width x height`` plus ``values``
    (field name -> one vec4 or a list of vec4s), typed per the field table."""
    kinds = {"vec4": np.float32, "uvec4": np.uint32, "ivec4": np.int32}
    raw = np.zeros(sysvals.SIZE, np.uint8)
    values.setdefault("fb_size", [width, height, 1.0 / width, 1.0 / height])
    for name, value in values.items():
        field = next(f for f in sysvals.SYSVALS if f.name == name)
        arr = np.asarray(value, kinds[field.glsl_type]).reshape(-1, 4)
        assert arr.shape[0] <= field.count, name
        raw[field.offset : field.offset + arr.nbytes] = np.frombuffer(arr.tobytes(), np.uint8)
    return raw.tobytes()


class Rig:
    """One standalone EGL context drawing lowered VS [+ GS] + FS into RGBA32F."""

    def __init__(self):
        os.environ.setdefault("PYOPENGL_PLATFORM", "egl")
        import moderngl

        self.mgl = moderngl
        self.ctx = moderngl.create_context(standalone=True, backend="egl", require=330)

    def lower(self, text: str, version: int, key=None):
        exts = frozenset() if version < 400 else frozenset(self.ctx.extensions)
        return to_glsl(text, glsl_version=version, key=key, extensions=exts)

    def program(self, stages):
        """Link lowered ``stages`` (GLSLShader objects); binds blocks / samplers by name."""
        by_stage = {s.stage: s.source for s in stages}
        prog = self.ctx.program(
            vertex_shader=by_stage["VERT"], fragment_shader=by_stage.get("FRAG"), geometry_shader=by_stage.get("GEOM")
        )
        members = set(prog)
        for s in stages:
            for name, binding in s.reflection.uniform_block_bindings:
                if name in members:
                    prog[name].binding = binding
            for name, unit in s.reflection.sampler_units:
                if name in members:
                    prog[name].value = unit
        return prog

    def draw(
        self,
        version,
        vs_text,
        fs_text,
        vertices,
        *,
        size=(32, 32),
        fs_fields=None,
        last_fields=None,
        gs_text=None,
        mode=None,
        sysval_values=None,
        textures=None,
        clip_plane_enable=None,
    ):
        """Draw ``vertices`` ((N, 8): position xyzw, attribute) and return the target
        as (height, width, 4) float32, row 0 = window y 0.  ``clip_plane_enable``:
        the rasterizer's mask when it differs from the key's (shader CLIPDIST)."""
        mgl = self.mgl
        width, height = size
        last_key, fs_key = stage_keys(fs_text, fs_fields, last_fields)
        if gs_text is None:
            vs = self.lower(vs_text, version, last_key)
            stages = [vs]
        else:
            vs = self.lower(vs_text, version, VariantKey(output_interpolation=fs_interpolation(gs_text)))
            stages = [vs, self.lower(gs_text, version, last_key)]
        fs = self.lower(fs_text, version, fs_key)
        stages.append(fs)
        with self.ctx:
            prog = self.program(stages)
            keep = [prog]
            data = np.asarray(vertices, np.float32).reshape(-1, 8)
            vbo = self.ctx.buffer(data.tobytes())
            keep.append(vbo)
            attrs = [n for n in ("glp_attr_0", "glp_attr_1") if n in prog]
            layout = " ".join("4f" if f"glp_attr_{k}" in attrs else "4x4" for k in range(2))
            vao = self.ctx.vertex_array(prog, [(vbo, layout, *attrs)])
            target = self.ctx.texture((width, height), 4, dtype="f4")
            fbo = self.ctx.framebuffer(color_attachments=[target])
            keep += [vao, target, fbo]
            ubo = self.ctx.buffer(sysvals_bytes(width, height, **(sysval_values or {})))
            keep.append(ubo)
            for s in stages:
                if s.reflection.sysvals_binding is not None:
                    ubo.bind_to_uniform_block(s.reflection.sysvals_binding)
            for view, (tex, sampler) in (textures or {}).items():
                unit = fs.reflection.texture_unit(view)
                tex.use(unit)
                sampler.use(unit)
            # The context's job: enable the clip distances the last stage writes.
            last = stages[-2]
            enable = last_key.clip_plane_enable if clip_plane_enable is None else clip_plane_enable
            clip = enable & last.reflection.clip_distance_mask
            for i in range(8):
                (self.ctx.enable_direct if (clip >> i) & 1 else self.ctx.disable_direct)(GL_CLIP_DISTANCE0 + i)
            self.ctx.enable(mgl.PROGRAM_POINT_SIZE)
            self.ctx.disable(mgl.CULL_FACE | mgl.DEPTH_TEST | mgl.BLEND)
            try:
                fbo.use()
                fbo.viewport = (0, 0, width, height)
                fbo.clear(*CLEAR)
                vao.render(mode if mode is not None else mgl.TRIANGLES)
                out = np.frombuffer(fbo.read(components=4, dtype="f4"), np.float32).reshape(height, width, 4)
            finally:
                for i in range(8):
                    self.ctx.disable_direct(GL_CLIP_DISTANCE0 + i)
                for obj in keep:
                    obj.release()
        return out.copy()

    def release(self):
        self.ctx.release()


@pytest.fixture(scope="module")
def rig():
    r = Rig()
    yield r
    r.release()


@pytest.fixture(params=VERSIONS, ids=lambda v: f"glsl{v}")
def version(request):
    return request.param


def quad(x0, y0, x1, y1, attr=(1.0, 1.0, 1.0, 1.0)):
    """Two CCW triangles covering the NDC rectangle, every vertex carrying ``attr``."""
    p = [(x0, y0), (x1, y0), (x1, y1), (x0, y0), (x1, y1), (x0, y1)]
    return [[x, y, 0.0, 1.0, *attr] for x, y in p]


def centers(width, height):
    """NDC (x, y) of every pixel centre, arrays of shape (height, width)."""
    xs = (np.arange(width) + 0.5) / width * 2.0 - 1.0
    ys = (np.arange(height) + 0.5) / height * 2.0 - 1.0
    return np.meshgrid(xs, ys)


def covered(img):
    return img[..., 3] != CLEAR[3]


# ---------------------------------------------------------------------------
# Text: each pass appears only when asked for, where it applies
# ---------------------------------------------------------------------------

FS_ALL_INPUTS = """FRAG
DCL IN[0], COLOR, COLOR
DCL IN[1], GENERIC[0], PERSPECTIVE
DCL OUT[0], COLOR
DCL SAMP[0]
DCL SVIEW[0], 2D, FLOAT
DCL TEMP[0]
  0: TEX TEMP[0], IN[1], SAMP[0], 2D
  1: ADD OUT[0], TEMP[0], IN[0]
  2: END
"""
VS_COLORS = VS.replace(
    "DCL OUT[0], POSITION", "DCL OUT[0], POSITION\nDCL SAMP[0]\nDCL SVIEW[0], 2D, FLOAT\nDCL TEMP[0]"
).replace("  5: END", "  5: TEX TEMP[0], IN[1], SAMP[0], 2D\n  6: MOV OUT[2], TEMP[0]\n  7: END")

# field -> (value, stage text that uses it, a fragment of the code the pass adds)
MARKERS = {
    "two_side": (True, FS_ALL_INPUTS, "gl_FrontFacing ? glp_color_0 : glp_bcolor_0"),
    "sprite_coord_enable": (1, FS_ALL_INPUTS, "vec4(gl_PointCoord.x, 1.0 - gl_PointCoord.y, 0.0, 1.0)"),
    "poly_stipple": (True, FS_ALL_INPUTS, "sysvals.stipple[(glp_window_pos.y & 31) >> 2]"),
    "window_rectangles": (2, FS_ALL_INPUTS, "sysvals.window_rect[glp_r]"),
    "clamp_fragment_color": (True, FS_ALL_INPUTS, "glp_frag_color_0 = clamp(glp_frag_color_0, 0.0, 1.0);"),
    "alpha_func": (PIPE_FUNC_LESS, FS_ALL_INPUTS, "if (!(glp_frag_color_0.a < sysvals.alpha_ref.x)) discard;"),
    "gl_clamp": ((1, 0, 0), FS_ALL_INPUTS, "clamp(glp_clamped"),
    "clip_plane_enable": (0b110, VS_COLORS, "gl_ClipDistance[2] = dot(gl_Position, sysvals.clip_plane[2]);"),
    "disabled_clip_distances": (
        0b10,
        VS_COLORS.replace("DCL OUT[4], PSIZE", "DCL OUT[4], PSIZE\nDCL OUT[5], CLIPDIST").replace(
            "  7: END", "  7: MOV OUT[5], IN[0]\n  8: END"
        ),
        "gl_ClipDistance[1] = 0.0;",
    ),
    "clamp_vertex_color": (True, VS_COLORS, "glp_color_0 = clamp(glp_color_0, 0.0, 1.0);"),
    "y_flip": (True, VS_COLORS, "gl_Position.y = -gl_Position.y;"),
}
MARKERS_VS_TWO_SIDE = "glp_bcolor_0 = glp_color_0;"


@pytest.mark.parametrize("field", sorted(MARKERS))
def test_pass_code_only_when_keyed(field):
    value, text, marker = MARKERS[field]
    plain = to_glsl(text).source
    assert marker not in plain
    assert to_glsl(text, key=VariantKey()).source == plain
    keyed = to_glsl(text, key=VariantKey(**{field: value})).source
    assert marker in keyed, keyed
    # No other pass's code sneaks in.
    for other, (_v, _t, other_marker) in MARKERS.items():
        if other != field:
            assert other_marker not in keyed, f"{field} key produced {other}'s code"


def test_vertex_two_side_copies_back_color():
    src = to_glsl(VS_COLORS, key=VariantKey(two_side=True)).source
    assert MARKERS_VS_TWO_SIDE in src
    assert "out glp_bcolor_0_block { vec4 glp_bcolor_0; };" in src
    # A shader with its own BCOLOR keeps it.
    own = to_glsl(VS_BCOLOR, key=VariantKey(two_side=True)).source
    assert MARKERS_VS_TWO_SIDE not in own and "glp_bcolor_0 = -glp_attr_1;" in own


# two_side and y_flip apply to both the FS and the last vertex stage.
ONE_SIDED = sorted(set(MARKERS) - {"two_side", "y_flip"})


@pytest.mark.parametrize("field", ONE_SIDED)
def test_field_for_another_stage_changes_nothing(field):
    """A fragment field on a VS and a vertex field on an FS give the plain lowering
    (gl_clamp applies everywhere, so it is checked with a sampler the shader lacks)."""
    value, text, _marker = MARKERS[field]
    other = VS_COLORS if text is FS_ALL_INPUTS else FS_ALL_INPUTS
    if field == "gl_clamp":
        value, other = (2, 2, 2), text  # SAMP[1]: not used by the shader
    assert to_glsl(other, key=VariantKey(**{field: value})).source == to_glsl(other).source
    # ... and so does a key naming only other stages' fields, even all of them at once.
    vertex_only = VariantKey(clip_plane_enable=3, clamp_vertex_color=True)
    assert to_glsl(FS_ALL_INPUTS, key=vertex_only).source == to_glsl(FS_ALL_INPUTS).source


def test_table_names_every_variant_field():
    """Each VariantKey field is a pass row, built into the emitter, or plain-lowering state."""
    plain = {
        "color_output_types",
        "nr_cbufs",
        "output_interpolation",
        "tess_clip_cull",
        "vs_input_types",
        "cs_block_size",
        "dual_source_blend",
        "sprite_coord_mode",
        "window_rectangles_include",
        "depth_clip_slot",
    }
    rows = {p.field for p in passes.PASSES} | set(passes.BUILT_IN)
    assert {f.name for f in fields(VariantKey)} - plain - rows == set()
    for p in passes.PASSES:
        assert p.hook in passes.HOOKS and p.doc


def test_docs_describe_every_pass():
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[2] / "docs" / "lowering.md").read_text()
    section = doc.split("## Variant passes", 1)[1].split("\n## ", 1)[0]
    for p in passes.PASSES:
        assert f"`{p.field}`" in section, p.field


def test_clip_planes_respect_shader_clip_distances():
    """With CLIPDIST outputs the pass adds nothing; the reflection names the written distances."""
    text = """VERT
PROPERTY NUM_CLIPDIST_ENABLED 3
DCL IN[0]
DCL OUT[0], POSITION
DCL OUT[1], CLIPDIST
  0: MOV OUT[0], IN[0]
  1: MOV OUT[1], IN[0]
  2: END
"""
    plain = to_glsl(text)
    keyed = to_glsl(text, key=VariantKey(clip_plane_enable=0xFF))
    assert keyed.source == plain.source
    assert keyed.reflection.clip_distance_mask == 0b111 == plain.reflection.clip_distance_mask
    ucp = to_glsl(VS_CLIPVERTEX, key=VariantKey(clip_plane_enable=0b1001))
    assert "gl_ClipDistance[3] = dot(glp_clipvertex, sysvals.clip_plane[3]);" in ucp.source
    assert "gl_Position, sysvals.clip_plane" not in ucp.source
    assert ucp.reflection.clip_distance_mask == 0b1001
    assert to_glsl(VS_CLIPVERTEX).reflection.clip_distance_mask == 0
    window = VS.replace("VERT\n", "VERT\nPROPERTY VS_WINDOW_SPACE_POSITION 1\n")
    assert "gl_ClipDistance" not in to_glsl(window, key=VariantKey(clip_plane_enable=1)).source


def test_gs_runs_vertex_passes_before_each_emit():
    key = VariantKey(clip_plane_enable=1, y_flip=True, clamp_vertex_color=True, two_side=True)
    src = to_glsl(GS, key=key).source
    body = src.split("void main()", 1)[1]
    chunks = body.split("EmitVertex();")
    assert len(chunks) == 4
    for chunk in chunks[:3]:
        for line in (
            "gl_ClipDistance[0] = dot(gl_Position, sysvals.clip_plane[0]);",
            "glp_bcolor_0 = glp_color_0;",
            "glp_color_0 = clamp(glp_color_0, 0.0, 1.0);",
            "gl_Position.y = -gl_Position.y;",
        ):
            assert line in chunk
        # Order: clip distances from the unflipped position, flip last.
        assert chunk.index("gl_ClipDistance[0]") < chunk.index("gl_Position.y = -")
    assert "gl_Position.y" not in chunks[3]


def test_fragment_passes_skip_integer_colors():
    text = FS_ONE.replace("DCL OUT[0], COLOR", "DCL OUT[0], COLOR\nDCL OUT[1], COLOR[1]").replace(
        "  1: END", "  1: MOV OUT[1], IMM[0]\n  2: END"
    )
    key = VariantKey(color_output_types=("int", "float"), clamp_fragment_color=True, alpha_func=PIPE_FUNC_LESS)
    src = to_glsl(text, key=key).source
    assert "glp_frag_color_1 = clamp(glp_frag_color_1, 0.0, 1.0);" in src
    assert "clamp(glp_frag_color_0" not in src
    assert "alpha_ref" not in src  # GL skips the alpha test for an integer buffer 0
    no_color0 = "FRAG\nDCL OUT[0], COLOR[1]\nIMM[0] FLT32 {1.0, 1.0, 1.0, 1.0}\nMOV OUT[0], IMM[0]\nEND\n"
    assert "discard" not in to_glsl(no_color0, key=VariantKey(alpha_func=PIPE_FUNC_NEVER)).source
    assert "discard;" in to_glsl(FS_ONE, key=VariantKey(alpha_func=PIPE_FUNC_NEVER)).source


def test_sprite_coordinates_follow_the_texcoord_semantic():
    text = FS_SPRITE.replace("GENERIC[0]", "TEXCOORD[0]")
    src = to_glsl(text, key=VariantKey(sprite_coord_enable=0b11, sprite_coord_mode=1)).source
    assert "glp_frag_color_0 = glp_sprite_coord;" in src  # TEXCOORD[0] replaced
    assert "glp_frag_color_1 = glp_generic_1;" in src  # GENERIC[1] is not a texcoord here
    assert "vec4(gl_PointCoord.x, gl_PointCoord.y, 0.0, 1.0)" in src  # LOWER_LEFT: GL's own t
    flipped = to_glsl(text, key=VariantKey(sprite_coord_enable=1, sprite_coord_mode=1, y_flip=True)).source
    assert "1.0 - gl_PointCoord.y" in flipped


def test_window_rectangles_inclusive_without_rectangles_discards_all():
    src = to_glsl(FS_ONE, key=VariantKey(window_rectangles_include=True)).source
    assert "discard;" in src and "window_rect" not in src
    assert to_glsl(FS_ONE, key=VariantKey(window_rectangles=0)).source == to_glsl(FS_ONE).source


GL_CLAMP_TEX = """FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL OUT[0], COLOR
DCL SAMP[0..5]
DCL SVIEW[0], 2D, FLOAT
DCL SVIEW[1], RECT, FLOAT
DCL SVIEW[2], CUBE, FLOAT
DCL SVIEW[3], 2D_ARRAY, FLOAT
DCL SVIEW[4], 2D, FLOAT
DCL SVIEW[5], 3D, FLOAT
DCL TEMP[0..1]
  0: TEX TEMP[0], IN[0], SAMP[0], 2D
  1: TXB TEMP[1], IN[0], SAMP[0], 2D
  2: ADD TEMP[0], TEMP[0], TEMP[1]
  3: TEX TEMP[1], IN[0], SAMP[1], RECT
  4: ADD TEMP[0], TEMP[0], TEMP[1]
  5: TEX TEMP[1], IN[0], SAMP[2], CUBE
  6: ADD TEMP[0], TEMP[0], TEMP[1]
  7: TXL TEMP[1], IN[0], SAMP[3], 2D_ARRAY
  8: ADD TEMP[0], TEMP[0], TEMP[1]
  9: TXF TEMP[1], IN[0], SAMP[4], 2D
 10: ADD TEMP[0], TEMP[0], TEMP[1]
 11: TXP TEMP[1], IN[0], SAMP[5], 3D
 12: ADD OUT[0], TEMP[0], TEMP[1]
 13: END
"""


def test_gl_clamp_coordinates_per_target():
    key = VariantKey(gl_clamp=(0b111111, 0b111111, 0b100000))
    body = to_glsl(GL_CLAMP_TEX, key=key).source.split("void main()", 1)[1]
    expected_lines = [
        # TEX 2D: s, t clamped; the LOD comes from the unclamped coordinate.
        "glp_clamped2.xy = clamp(glp_clamped2.xy, 0.0, 1.0);   // GL_CLAMP (sampler 0)",
        "t0_0 = textureGrad(glp_fs_samp0, glp_clamped2, dFdx(glp_coord1), dFdy(glp_coord1));",
        # TXB: the bias scales the gradients by 2^bias.
        "float glp_bias_scale5 = exp2(glp_generic_0.w);",
        "dFdx(glp_coord3) * glp_bias_scale5, dFdy(glp_coord3) * glp_bias_scale5);",
        # RECT: texel coordinates, clamped to [0, size]; no mip levels, no gradients.
        "glp_clamped7.xy = clamp(glp_clamped7.xy, vec2(0.0), vec2(textureSize(glp_fs_samp1)).xy);",
        "t1_1 = texture(glp_fs_samp1, glp_clamped7);",
        # CUBE: directions, no wrap: untouched.
        "t1_2 = texture(glp_fs_samp2, glp_generic_0.xyz);",
        # 2D_ARRAY TXL: s, t but not the layer; explicit LOD stays.
        "glp_clamped9.xy = clamp(glp_clamped9.xy, 0.0, 1.0);   // GL_CLAMP (sampler 3)",
        "t1_3 = textureLod(glp_fs_samp3, glp_clamped9, glp_generic_0.w);",
        # TXF: a texel fetch has no wrap.
        "t1_4 = texelFetch(glp_fs_samp4, floatBitsToInt(glp_generic_0.xy), floatBitsToInt(glp_generic_0.w));",
        # TXP 3D: projected first, then s, t, r clamped (r only for sampler 5's bit).
        "vec3 glp_coord10 = glp_generic_0.xyz / glp_generic_0.w;",
        "glp_clamped11.xyz = clamp(glp_clamped11.xyz, 0.0, 1.0);   // GL_CLAMP (sampler 5)",
    ]
    for line in expected_lines:
        assert line in body, line
    assert "textureProj" not in body
    # Only t of sampler 0: one component.
    only_t = to_glsl(GL_CLAMP_TEX, key=VariantKey(gl_clamp=(0, 1, 0))).source
    assert "glp_clamped2.y = clamp(glp_clamped2.y, 0.0, 1.0);" in only_t
    assert only_t.count("GL_CLAMP (sampler") == 2  # TEX and TXB of sampler 0
    # In a vertex shader texture() has no implicit LOD: no gradients.
    vs = to_glsl(VS_COLORS, key=VariantKey(gl_clamp=(1, 1, 0))).source
    assert "textureGrad" not in vs and "texture(glp_vs_samp0, glp_clamped" in vs


def test_gl_clamp_gather_and_sample_family():
    text = """FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL OUT[0], COLOR
DCL SAMP[0]
DCL SAMP[3]
DCL SVIEW[0], 2D, FLOAT
DCL SVIEW[1], 2D, FLOAT
DCL TEMP[0..1]
IMM[0] UINT32 {0, 0, 0, 0}
  0: TG4 TEMP[0], IN[0], IMM[0].xxxx, SAMP[0], 2D
  1: SAMPLE TEMP[1], IN[0], SVIEW[1], SAMP[3]
  2: ADD TEMP[0], TEMP[0], TEMP[1]
  3: LODQ TEMP[1], IN[0], SAMP[0], 2D
  4: ADD OUT[0], TEMP[0], TEMP[1]
  5: END
"""
    exts = {"GL_ARB_texture_query_lod", "GL_ARB_texture_gather"}
    src = to_glsl(text, glsl_version=450, key=VariantKey(gl_clamp=(0b1001, 0, 0)), extensions=exts).source
    assert "textureGather(glp_fs_samp0, glp_clamped" in src
    assert "textureGrad(glp_fs_samp1, glp_clamped" in src  # SAMPLE through SAMP[3]
    assert "textureQueryLod(glp_fs_samp0, glp_generic_0.xy)" in src  # queries see the real coordinate


# Keys for the compile / link matrix: (last vertex stage fields, FS fields).
LINK_CASES = {
    "clip+two_side+flat": (dict(clip_plane_enable=0b101), dict(two_side=True, flatshade=True)),
    "y_flip+stipple": (dict(y_flip=True), dict(y_flip=True, poly_stipple=True)),
    "clamps+sprite": (dict(clamp_vertex_color=True), dict(clamp_fragment_color=True, sprite_coord_enable=3)),
    "everything": (
        dict(clip_plane_enable=0xFF, clamp_vertex_color=True, y_flip=True),
        dict(
            two_side=True,
            flatshade=True,
            alpha_func=PIPE_FUNC_GEQUAL,
            sprite_coord_enable=2,
            sprite_coord_mode=1,
            poly_stipple=True,
            window_rectangles=8,
            clamp_fragment_color=True,
            y_flip=True,
            gl_clamp=(1, 1, 1),
        ),
    ),
}
LINK_CASES_FS_EVERYTHING = VariantKey(**LINK_CASES["everything"][1])
FS_LINK = FS_ALL_INPUTS.replace(
    "DCL IN[1], GENERIC[0], PERSPECTIVE", "DCL IN[1], GENERIC[0], PERSPECTIVE\nDCL IN[2], GENERIC[1], LINEAR, CENTROID"
).replace("  2: END", "  2: ADD OUT[0], OUT[0], IN[2]\n  3: END")


def _compile_cases():
    """name -> (TGSI, key, minimum GLSL version, extensions) of keyed variants to compile."""
    import golden_cases as G

    gather = """FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL OUT[0], COLOR
DCL SAMP[0]
DCL SVIEW[0], 2D_ARRAY, FLOAT
DCL SVIEW[1], 2D, FLOAT
DCL TEMP[0..1]
IMM[0] UINT32 {0, 0, 0, 0}
  0: TG4 TEMP[0], IN[0], IMM[0].xxxx, SAMP[0], 2D_ARRAY
  1: GATHER4 TEMP[1], IN[0], SVIEW[1], SAMP[0]
  2: ADD OUT[0], TEMP[0], TEMP[1]
  3: END
"""
    cases = {f"marker-{f}": (text, VariantKey(**{f: v}), 330, ()) for f, (v, text, _m) in MARKERS.items()}
    full = VariantKey(gl_clamp=(0xFF, 0xFF, 0xFF))
    cases.update(
        {
            "gl_clamp-targets": (GL_CLAMP_TEX, full, 330, ()),
            "gl_clamp-rect-t": (GL_CLAMP_TEX, VariantKey(gl_clamp=(0, 2, 0)), 330, ()),
            "gl_clamp-gather": (gather, full, 450, ("GL_ARB_texture_gather", "GL_ARB_gpu_shader5")),
            "window-rects-include-none": (FS_ONE, VariantKey(window_rectangles_include=True), 330, ()),
            "gs-all": (
                GS,
                VariantKey(two_side=True, clip_plane_enable=0xFF, clamp_vertex_color=True, y_flip=True, flatshade=True),
                330,
                (),
            ),
            "tes-all": (
                G.read_input("tes_basic"),
                VariantKey(clip_plane_enable=0x81, y_flip=True, two_side=True, clamp_vertex_color=True),
                400,
                (),
            ),
            "vs-window-space": (
                VS.replace("VERT\n", "VERT\nPROPERTY VS_WINDOW_SPACE_POSITION 1\n"),
                VariantKey(clip_plane_enable=3, y_flip=True),
                330,
                (),
            ),
            "fs-everything": (FS_LINK, LINK_CASES_FS_EVERYTHING, 330, ()),
            "fs-sprite-texcoord": (
                FS_SPRITE.replace("GENERIC", "TEXCOORD"),
                VariantKey(sprite_coord_enable=3, y_flip=True),
                330,
                (),
            ),
        }
    )
    return cases


@pytest.fixture(scope="module")
def compiler():
    from glsl_compile import HostCompiler

    c = HostCompiler()
    yield c
    c.release()


COMPILE_RUNS = [(name, v) for name, case in sorted(_compile_cases().items()) for v in VERSIONS if v >= case[2]]


@pytest.mark.parametrize("name,glsl", COMPILE_RUNS, ids=[f"{n}-glsl{v}" for n, v in COMPILE_RUNS])
def test_keyed_variants_compile(compiler, name, glsl):
    """Every keyed variant compiles on the host and passes glslangValidator (which
    does not share Mesa's leniency)."""
    from glsl_compile import GLSLANG, glslang_check

    from lowering.glsl.emitter import GL_SHADER_TYPES

    text, key, _min_version, exts = _compile_cases()[name]
    version = glsl
    shader = to_glsl(text, glsl_version=version, key=key, extensions=frozenset(exts))
    log = compiler.compile(shader.source, GL_SHADER_TYPES[shader.stage])
    assert log is None, f"{name} does not compile:\n{log}\n{shader.source}"
    if GLSLANG is not None:
        log = glslang_check(shader.source, shader.stage)
        assert log is None, f"glslangValidator rejects {name}:\n{log}"


@pytest.mark.parametrize("case", sorted(LINK_CASES))
@pytest.mark.parametrize("with_gs", [False, True], ids=["vs-fs", "vs-gs-fs"])
def test_separately_lowered_variants_link(rig, version, case, with_gs):
    last_fields, fs_fields = LINK_CASES[case]
    last_key, fs_key = stage_keys(FS_LINK, fs_fields, last_fields)
    fs = rig.lower(FS_LINK, version, fs_key)
    if with_gs:
        gs_text = GS.replace("DCL OUT[1], COLOR", "DCL OUT[1], COLOR\nDCL OUT[2], GENERIC[0]")
        stages = [
            rig.lower(VS_COLORS, version, VariantKey(output_interpolation=fs_interpolation(GS))),
            rig.lower(gs_text, version, last_key),
        ]
    else:
        stages = [rig.lower(VS_COLORS, version, last_key)]
    with rig.ctx:
        prog = rig.program(stages + [fs])  # ModernGL raises on a compile or link error
        prog.release()


def test_subroutines_and_interp_on_two_sided_colors(rig):
    """Pass inputs are globals (subroutines read them); INTERP_* picks the face's varying."""
    text = """FRAG
DCL IN[0], COLOR, COLOR
DCL OUT[0], COLOR
DCL TEMP[0]
  0: CAL :3
  1: INTERP_CENTROID TEMP[0], IN[0]
  2: END
  3: BGNSUB
  4: ADD OUT[0], IN[0], TEMP[0]
  5: RET
  6: ENDSUB
"""
    fs = rig.lower(text, 450, VariantKey(two_side=True))
    assert "gl_FrontFacing ? interpolateAtCentroid(glp_color_0) : interpolateAtCentroid(glp_bcolor_0)" in fs.source
    vs = rig.lower(VS, 450, stage_keys(text, dict(two_side=True))[0])
    with rig.ctx:
        rig.program([vs, fs]).release()


# ---------------------------------------------------------------------------
# Execution
# ---------------------------------------------------------------------------

FULL = quad(-1.0, -1.0, 1.0, 1.0)

ALPHA_FUNCS = {
    PIPE_FUNC_NEVER: lambda a, r: np.zeros_like(a, bool),
    PIPE_FUNC_LESS: np.less,
    PIPE_FUNC_EQUAL: np.equal,
    PIPE_FUNC_LEQUAL: np.less_equal,
    PIPE_FUNC_GREATER: np.greater,
    PIPE_FUNC_NOTEQUAL: np.not_equal,
    PIPE_FUNC_GEQUAL: np.greater_equal,
    PIPE_FUNC_ALWAYS: lambda a, r: np.ones_like(a, bool),
}


@pytest.mark.parametrize("func", sorted(ALPHA_FUNCS))
def test_alpha_test_executes(rig, version, func):
    ref = 0.5
    img = rig.draw(
        version,
        VS,
        FS_RAMP,
        FULL,
        size=(16, 1),
        fs_fields=dict(alpha_func=func),
        sysval_values=dict(alpha_ref=[ref, 0, 0, 0]),
    )
    alpha = (np.arange(16) + 0.5 - 0.5) * 0.125  # 0, 0.125, ..., 1.875; 0.5 is column 4
    keep = ALPHA_FUNCS[func](alpha.astype(np.float32), np.float32(ref))
    expected = np.where(keep, alpha, CLEAR[0])
    np.testing.assert_array_equal(img[0, :, 3], expected.astype(np.float32))


def test_alpha_test_sees_the_clamped_color(rig, version):
    ref = 1.2
    fields_ = dict(alpha_func=PIPE_FUNC_LESS, clamp_fragment_color=True)
    img = rig.draw(
        version, VS, FS_RAMP, FULL, size=(16, 1), fs_fields=fields_, sysval_values=dict(alpha_ref=[ref, 0, 0, 0])
    )
    alpha = np.clip(np.arange(16) * 0.125, 0.0, 1.0)  # clamped first: 1.0 < 1.2 passes
    np.testing.assert_array_equal(img[0, :, 3], alpha.astype(np.float32))
    unclamped = rig.draw(
        version,
        VS,
        FS_RAMP,
        FULL,
        size=(16, 1),
        fs_fields=dict(alpha_func=PIPE_FUNC_LESS),
        sysval_values=dict(alpha_ref=[ref, 0, 0, 0]),
    )
    raw = np.arange(16) * 0.125
    np.testing.assert_array_equal(unclamped[0, :, 3], np.where(raw < ref, raw, CLEAR[0]).astype(np.float32))


def stipple_mask(pattern, width, height, flip=False):
    """Gallium: fragment (x, y) survives when bit 31 - x%32 of pattern[y%32] is set."""
    x, y = np.meshgrid(np.arange(width), np.arange(height))
    gy = (height - 1 - y) if flip else y  # y_flip: GL row y is Gallium row H-1-y
    rows = np.asarray(pattern, np.uint64)[gy % 32]
    return ((rows >> (31 - (x % 32)).astype(np.uint64)) & 1).astype(bool)


@pytest.mark.parametrize("flip", [False, True], ids=["plain", "y_flip"])
def test_polygon_stipple_executes(rig, version, flip):
    rng = np.random.default_rng(7)
    pattern = rng.integers(0, 2**32, 32, dtype=np.uint64).astype(np.uint32)
    pattern[0] = 0x80000001  # the MSB is the leftmost pixel
    width, height = 64, 48
    img = rig.draw(
        version,
        VS,
        FS_ONE,
        FULL,
        size=(width, height),
        fs_fields=dict(poly_stipple=True, y_flip=flip),
        sysval_values=dict(stipple=pattern.reshape(8, 4)),
    )
    np.testing.assert_array_equal(covered(img), stipple_mask(pattern, width, height, flip))


RECTS = [(3, 4, 10, 7), (15, 20, 9, 9), (28, 0, 10, 40)]  # x, y, width, height (the last one overhangs)


def rect_mask(rects, width, height):
    x, y = np.meshgrid(np.arange(width), np.arange(height))
    inside = np.zeros((height, width), bool)
    for rx, ry, rw, rh in rects:
        inside |= (x >= rx) & (x < rx + rw) & (y >= ry) & (y < ry + rh)
    return inside


@pytest.mark.parametrize("count,include", [(3, True), (3, False), (2, False), (0, True)])
def test_window_rectangles_execute(rig, version, count, include):
    img = rig.draw(
        version,
        VS,
        FS_ONE,
        FULL,
        fs_fields=dict(window_rectangles=count, window_rectangles_include=include),
        sysval_values=dict(window_rect=RECTS),
    )  # all three in sysvals; `count` are active
    inside = rect_mask(RECTS[:count], 32, 32)
    np.testing.assert_array_equal(covered(img), inside if include else ~inside)


def two_triangles(front=(1.0, 0.25, 0.0, 1.0)):
    """Left: CCW (front facing in GL's default), right: CW (back facing)."""
    a = list(front)
    return [
        [-0.9, -0.8, 0, 1, *a],
        [-0.1, -0.8, 0, 1, *a],
        [-0.5, 0.8, 0, 1, *a],
        [0.1, -0.8, 0, 1, *a],
        [0.5, 0.8, 0, 1, *a],
        [0.9, -0.8, 0, 1, *a],
    ]


def inside_triangle(v, width, height, margin=0.06):
    """Pixels whose centre is inside triangle ``v`` ((3, 2) NDC) by more than ``margin``."""
    x, y = centers(width, height)
    s = []
    for k in range(3):
        (x0, y0), (x1, y1) = v[k], v[(k + 1) % 3]
        e = (x1 - x0) * (y - y0) - (y1 - y0) * (x - x0)
        s.append(e / np.hypot(x1 - x0, y1 - y0))
    s = np.array(s)
    return np.all(s > margin, axis=0) | np.all(s < -margin, axis=0)


@pytest.mark.parametrize("vs_name", ["bcolor", "no_bcolor"])
def test_two_sided_color_executes(rig, version, vs_name):
    front = (1.0, 0.25, 0.0, 1.0)
    vs_text = VS_BCOLOR if vs_name == "bcolor" else VS
    img = rig.draw(version, vs_text, FS_COLOR, two_triangles(front), size=(32, 16), fs_fields=dict(two_side=True))
    tris = np.array([[-0.9, -0.8], [-0.1, -0.8], [-0.5, 0.8], [0.1, -0.8], [0.5, 0.8], [0.9, -0.8]])
    left, right = inside_triangle(tris[:3], 32, 16), inside_triangle(tris[3:], 32, 16)
    assert left.sum() > 10 and right.sum() > 10
    back = tuple(-c for c in front) if vs_name == "bcolor" else front  # no BCOLOR: the front color
    np.testing.assert_allclose(img[left], np.broadcast_to(front, (left.sum(), 4)), atol=1e-6)
    np.testing.assert_allclose(img[right], np.broadcast_to(back, (right.sum(), 4)), atol=1e-6)
    # Without the key the back face shows COLOR.
    plain = rig.draw(version, vs_text, FS_COLOR, two_triangles(front), size=(32, 16))
    np.testing.assert_allclose(plain[right], np.broadcast_to(front, (right.sum(), 4)), atol=1e-6)


PLANES = [(1.0, 0.5, 0.0, 0.2), (0.0, 0.0, 0.0, -1.0), (-0.3, 1.0, 0.0, 0.45)]  # plane 1 would clip all


@pytest.mark.parametrize("vs_name,with_gs", [("position", False), ("clipvertex", False), ("position", True)])
def test_user_clip_planes_execute(rig, version, vs_name, with_gs):
    vs_text = VS_CLIPVERTEX if vs_name == "clipvertex" else VS
    img = rig.draw(
        version,
        vs_text,
        FS_COLOR,
        FULL,
        last_fields=dict(clip_plane_enable=0b101),
        gs_text=GS if with_gs else None,
        sysval_values=dict(clip_plane=PLANES),
    )
    x, y = centers(32, 32)
    cx = 2.0 * x if vs_name == "clipvertex" else x  # the planes apply to CLIPVERTEX when written
    d = [a * cx + b * y + c * 0.0 + w for a, b, c, w in (PLANES[0], PLANES[2])]
    expected = (d[0] >= 0) & (d[1] >= 0)
    sure = (np.abs(d[0]) > 1e-3) & (np.abs(d[1]) > 1e-3)
    assert expected.sum() > 50 and (~expected).sum() > 50
    np.testing.assert_array_equal(covered(img)[sure], expected[sure])


VS_CLIPDIST = """VERT
PROPERTY NUM_CLIPDIST_ENABLED 2
DCL IN[0]
DCL IN[1]
DCL OUT[0], POSITION
DCL OUT[1], CLIPDIST
DCL OUT[2], COLOR
IMM[0] FLT32 {0.25, -0.5, 0.0, 0.0}
  0: MOV OUT[0], IN[0]
  1: ADD OUT[1].x, IN[0].xxxx, IMM[0].xxxx
  2: ADD OUT[1].y, IN[0].yyyy, IMM[0].yyyy
  3: MOV OUT[2], IN[1]
  4: END
"""


@pytest.mark.parametrize("enable", [0b000, 0b001, 0b010, 0b011, 0b100, 0b111])
def test_shader_clip_distances_follow_clip_plane_enable(rig, version, enable):
    """CLIPDIST outputs take precedence over user planes; clip_plane_enable picks
    among them and unwritten ones count as disabled (keyed as the context does)."""
    from lowering.glsl.passes.vertex import written_clip_distances

    written = written_clip_distances(parse(VS_CLIPDIST))
    assert written == 0b11
    last = dict(disabled_clip_distances=written & ~enable) if written & ~enable else {}
    img = rig.draw(
        version,
        VS_CLIPDIST,
        FS_COLOR,
        FULL,
        last_fields=last,
        clip_plane_enable=enable,
        sysval_values=dict(clip_plane=[(0.0, 0.0, 0.0, -1.0)] * 8),
    )  # would clip all if used
    x, y = centers(32, 32)
    keep = np.ones((32, 32), bool)
    if enable & 1:
        keep &= x + 0.25 >= 0
    if enable & 2:
        keep &= y - 0.5 >= 0
    np.testing.assert_array_equal(covered(img), keep)


def sprite_expected(mode_upper_left, flip, size=16, width=32, height=32):
    """(s, t) of each pixel of a ``size`` point centred in the target, in Gallium's orientation."""
    x, y = np.meshgrid(np.arange(width), np.arange(height))
    gy = (height - 1 - y) if flip else y
    lo = width / 2 - size / 2
    s = (x + 0.5 - lo) / size
    t = (gy + 0.5 - lo) / size  # UPPER_LEFT: t = 0 at the smallest Gallium y
    if not mode_upper_left:
        t = 1.0 - t
    inside = (x >= lo) & (x < lo + size) & (y >= lo) & (y < lo + size)
    return s, t, inside


@pytest.mark.parametrize(
    "mode,flip", [(0, False), (1, False), (0, True)], ids=["upper_left", "lower_left", "upper_left-y_flip"]
)
def test_sprite_coordinates_execute(rig, version, mode, flip):
    attr = (0.75, 0.125, 0.5, 0.25)
    img = rig.draw(
        version,
        VS,
        FS_SPRITE,
        [[0.0, 0.0, 0.0, 1.0, *attr]],
        mode=rig.mgl.POINTS,
        fs_fields=dict(sprite_coord_enable=0b1, sprite_coord_mode=mode, y_flip=flip),
    )
    s, t, inside = sprite_expected(mode == 0, flip)
    assert np.array_equal(covered(img), inside)
    np.testing.assert_allclose(img[inside][:, 0], s[inside], atol=1e-5)
    np.testing.assert_allclose(img[inside][:, 1], t[inside], atol=1e-5)
    np.testing.assert_array_equal(img[inside][:, 2:], np.broadcast_to([0.0, 1.0], (inside.sum(), 2)))
    # GENERIC[1] (bit 1 clear) still reads the vertex shader's varying.
    assert (
        "glp_frag_color_1 = glp_generic_1;" in rig.lower(FS_SPRITE, version, VariantKey(sprite_coord_enable=1)).source
    )


def test_fragment_color_clamp_executes(rig, version):
    fs = FS_RAMP.replace("IMM[0] FLT32 {0.125, -0.5, 0.0, 0.0}", "IMM[0] FLT32 {0.25, -8.5, 0.0, 0.0}")
    img = rig.draw(version, VS, fs, FULL, size=(32, 1), fs_fields=dict(clamp_fragment_color=True))
    raw = (np.arange(32) - 8.0) * 0.25  # -2 .. 5.75
    np.testing.assert_array_equal(img[0, :, 0], np.clip(raw, 0.0, 1.0).astype(np.float32))
    plain = rig.draw(version, VS, fs, FULL, size=(32, 1))
    np.testing.assert_array_equal(plain[0, :, 0], raw.astype(np.float32))


def test_vertex_color_clamp_executes(rig, version):
    attr = (-0.5, 1.5, 0.25, 2.0)
    img = rig.draw(
        version, VS, FS_COLOR, quad(-1, -1, 1, 1, attr), size=(8, 8), last_fields=dict(clamp_vertex_color=True)
    )
    np.testing.assert_allclose(img.reshape(-1, 4), np.broadcast_to(np.clip(attr, 0, 1), (64, 4)), atol=1e-6)


def gl_clamp_linear(texels, border, s):
    """GL 1.x GL_CLAMP with a LINEAR filter along s (t hits one row exactly):
    clamp s to [0, 1], then the usual linear filter with border texels outside."""
    n = texels.shape[0]
    u = np.clip(s, 0.0, 1.0) * n - 0.5
    i0 = np.floor(u).astype(int)
    a = (u - i0)[:, None]

    def texel(i):
        ok = (i >= 0) & (i < n)
        return np.where(ok[:, None], texels[np.clip(i, 0, n - 1)], border)

    return (1 - a) * texel(i0) + a * texel(i0 + 1)


@pytest.mark.parametrize("op", ["TEX", "TXP", "SAMPLE"])
def test_gl_clamp_executes(rig, version, op):
    mgl = rig.mgl
    texels = np.array(
        [[0.0, 0.2, 0.4, 1.0], [1.0, 0.0, 0.5, 1.0], [0.5, 0.5, 0.0, 1.0], [0.25, 1.0, 1.0, 1.0]], np.float32
    )
    border = np.array([1.0, 0.5, 0.25, 0.0], np.float32)
    with rig.ctx:
        tex = rig.ctx.texture((4, 1), 4, texels.tobytes(), dtype="f4")
        sampler = rig.ctx.sampler(filter=(mgl.LINEAR, mgl.LINEAR), border_color=tuple(border))
    try:
        img = rig.draw(
            version,
            VS,
            fs_tex(op),
            FULL,
            size=(32, 1),
            fs_fields=dict(gl_clamp=(1, 1, 0)),
            textures={0: (tex, sampler)},
        )
        plain = rig.draw(version, VS, fs_tex(op), FULL, size=(32, 1), textures={0: (tex, sampler)})
    finally:
        with rig.ctx:
            tex.release()
            sampler.release()
    s = (np.arange(32) + 0.5) * 0.0625 - 0.5  # -0.47 .. 1.47
    expected = gl_clamp_linear(texels, border, s)
    np.testing.assert_allclose(img[0], expected, atol=2.0 / 256)
    # Without the pass CLAMP_TO_BORDER reaches the pure border color beyond s = 1 + 1/8:
    # the coordinate clamp is what turns it into GL_CLAMP.
    far = s > 1.0 + 1.0 / 8
    np.testing.assert_allclose(plain[0][far], np.broadcast_to(border, (far.sum(), 4)), atol=1e-6)
    assert np.abs(expected[far] - border).max() > 0.1


def test_gl_clamp_keeps_the_unclamped_lod(rig, version):
    """Level 0 holds 0, every smaller level 1: where the clamp flattens the coordinate
    the LOD must still come from the unclamped one (rho = 8 texels * 0.5 / pixel -> level 2)."""
    mgl = rig.mgl
    with rig.ctx:
        tex = rig.ctx.texture((8, 1), 4, np.zeros((8, 4), np.float32).tobytes(), dtype="f4")
        tex.build_mipmaps()
        for level, w in ((1, 4), (2, 2), (3, 1)):
            tex.write(np.ones((w, 4), np.float32).tobytes(), level=level)
        sampler = rig.ctx.sampler(filter=(mgl.LINEAR_MIPMAP_NEAREST, mgl.LINEAR), border_color=(1.0,) * 4)
    fs = fs_tex("TEX", 0.5, -8.0)  # s = -7.75 .. 8.25, t = 0.5 (row 0 exactly)
    try:
        img = rig.draw(
            version, VS, fs, FULL, size=(32, 2), fs_fields=dict(gl_clamp=(1, 0, 0)), textures={0: (tex, sampler)}
        )
    finally:
        with rig.ctx:
            tex.release()
            sampler.release()
    np.testing.assert_allclose(img[..., 0], 1.0, atol=1e-6)


def test_fragment_y_flip_executes(rig, version):
    img = rig.draw(version, VS, FS_POSITION, FULL, size=(8, 16), fs_fields=dict(y_flip=True))
    x, y = np.meshgrid(np.arange(8) + 0.5, np.arange(16) + 0.5)
    np.testing.assert_array_equal(img[..., 0], x.astype(np.float32))
    np.testing.assert_array_equal(img[..., 1], (16 - y).astype(np.float32))  # Gallium y = H - GL y


@pytest.mark.parametrize("with_gs", [False, True], ids=["vs", "gs"])
def test_vertex_y_flip_executes(rig, version, with_gs):
    rect = quad(-0.6, 0.25, 0.3, 0.75)
    img = rig.draw(version, VS, FS_COLOR, rect, last_fields=dict(y_flip=True), gs_text=GS if with_gs else None)
    x, y = centers(32, 32)
    expected = (x > -0.6) & (x < 0.3) & (y > -0.75) & (y < -0.25)  # mirrored in clip space
    np.testing.assert_array_equal(covered(img), expected)
