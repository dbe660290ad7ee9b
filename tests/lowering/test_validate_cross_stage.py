"""A later stage reading what an earlier one does not write (issue 12 item 2).

Gallium links stages by semantic and lets a stage read an input the previous
stage never writes (tgsi.rst: the value is undefined; Mesa's software drivers
read zeros).  GL links only an input block some output block matches, so
glpipe declares the missing outputs in the earlier stage and initialises them
to zero -- for the FS (the last vertex stage's outputs) and, here, for a GS,
TCS and TES reading what the VS / TCS does not write.  Expected pixels: the
colour each vertex carries plus zeros for the unwritten input.
"""

from __future__ import annotations

import numpy as np
import pytest

import glpipe
from glpipe import DrawInfo, Format, Prim, ShaderState, VertexBuffer, VertexElement
from lowering.errors import UnsupportedError

SIZE = 4
# Two triangles covering the viewport, each vertex (x, y, z, w, r, g, b, a).
COLOR = (0.25, 0.5, 0.75, 1.0)
QUAD = np.array(
    [(x, y, 0.0, 1.0, *COLOR) for x, y in ((-1, -1), (1, -1), (-1, 1), (-1, 1), (1, -1), (1, 1))], np.float32
)

VS = """VERT
DCL IN[0]
DCL IN[1]
DCL OUT[0], POSITION
DCL OUT[1], GENERIC[0]
  0: MOV OUT[0], IN[0]
  1: MOV OUT[1], IN[1]
  2: END
"""

FS = """FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL OUT[0], COLOR
  0: MOV OUT[0], IN[0]
  1: END
"""

# Adds GENERIC[5] and TEXCOORD[2], which the VS never writes, to each vertex's colour.
GS = """GEOM
PROPERTY GS_INPUT_PRIMITIVE TRIANGLES
PROPERTY GS_OUTPUT_PRIMITIVE TRIANGLE_STRIP
PROPERTY GS_MAX_OUTPUT_VERTICES 3
DCL IN[][0], POSITION
DCL IN[][1], GENERIC[0]
DCL IN[][2], GENERIC[5]
DCL IN[][3], TEXCOORD[2]
DCL OUT[0], POSITION
DCL OUT[1], GENERIC[0]
DCL TEMP[0]
IMM[0] UINT32 {0, 0, 0, 0}
  0: ADD TEMP[0], IN[0][1], IN[0][2]
  1: ADD OUT[1], TEMP[0], IN[0][3]
  2: MOV OUT[0], IN[0][0]
  3: EMIT IMM[0].xxxx
  4: ADD TEMP[0], IN[1][1], IN[1][2]
  5: ADD OUT[1], TEMP[0], IN[1][3]
  6: MOV OUT[0], IN[1][0]
  7: EMIT IMM[0].xxxx
  8: ADD TEMP[0], IN[2][1], IN[2][2]
  9: ADD OUT[1], TEMP[0], IN[2][3]
 10: MOV OUT[0], IN[2][0]
 11: EMIT IMM[0].xxxx
 12: END
"""

# Passes POSITION and GENERIC[0] on, and adds GENERIC[3] (not written by the VS).
TCS = """TESS_CTRL
PROPERTY TCS_VERTICES_OUT 3
DCL IN[][0], POSITION
DCL IN[][1], GENERIC[0]
DCL IN[][2], GENERIC[3]
DCL SV[0], INVOCATIONID
DCL OUT[][0], POSITION
DCL OUT[][1], GENERIC[0]
DCL OUT[2], TESSOUTER
DCL OUT[3], TESSINNER
DCL ADDR[0]
DCL TEMP[0]
IMM[0] FLT32 {1.0, 1.0, 1.0, 1.0}
  0: UARL ADDR[0].x, SV[0].xxxx
  1: MOV OUT[ADDR[0].x][0], IN[ADDR[0].x][0]
  2: ADD OUT[ADDR[0].x][1], IN[ADDR[0].x][1], IN[ADDR[0].x][2]
  3: MOV OUT[2], IMM[0]
  4: MOV OUT[3], IMM[0]
  5: END
"""

# Adds GENERIC[7] (per vertex) and PATCH[1] (per patch), which the TCS never writes.
TES = """TESS_EVAL
PROPERTY TES_PRIM_MODE 4
PROPERTY TES_SPACING 0
PROPERTY TES_VERTEX_ORDER_CW 0
PROPERTY TES_POINT_MODE 0
DCL IN[][0], POSITION
DCL IN[][1], GENERIC[0]
DCL IN[][2], GENERIC[7]
DCL IN[3], PATCH[1]
DCL SV[0], TESSCOORD
DCL OUT[0], POSITION
DCL OUT[1], GENERIC[0]
DCL TEMP[0..1]
  0: MUL TEMP[0], SV[0].xxxx, IN[0][0]
  1: MAD TEMP[0], SV[0].yyyy, IN[1][0], TEMP[0]
  2: MAD TEMP[0], SV[0].zzzz, IN[2][0], TEMP[0]
  3: MOV OUT[0], TEMP[0]
  4: ADD TEMP[1], IN[0][1], IN[0][2]
  5: ADD OUT[1], TEMP[1], IN[3]
  6: END
"""


def _draw(ctx, stages: dict, mode=Prim.TRIANGLES) -> np.ndarray:
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
    ctx.clear(glpipe.Clear.COLOR0, None, (0, 0, 0, 0), 0, 0)
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
    ctx.set_vertex_buffers([VertexBuffer(buffer=QUAD, stride=32)])
    if mode == Prim.PATCHES:
        ctx.set_patch_vertices(3)
    ctx.draw_vbo(DrawInfo(mode=mode, count=len(QUAD)))
    out = np.zeros((SIZE, SIZE, 4), np.float32)
    gl = screen.host.gl
    gl.glBindTexture(gl.GL_TEXTURE_2D, color.gl_object)
    gl.glGetTexImage(gl.GL_TEXTURE_2D, 0, gl.GL_RGBA, gl.GL_FLOAT, out)
    gl.glBindTexture(gl.GL_TEXTURE_2D, 0)
    return out


def test_gs_reads_varyings_the_vs_does_not_write(ctx):
    img = _draw(ctx, {"vs": VS, "gs": GS, "fs": FS})
    np.testing.assert_array_equal(img, np.broadcast_to(np.float32(COLOR), img.shape))


def test_tcs_and_tes_read_varyings_the_previous_stage_does_not_write(ctx):
    if not ctx.screen.profile.has("tessellation_shader"):
        # gl33: no tessellation stage (PIPE_SHADER_CAP_* of TESS_CTRL are 0): refused at create.
        with pytest.raises(UnsupportedError, match="tessellation"):
            ctx.create_tcs_state(ShaderState(tokens=TCS))
        return
    img = _draw(ctx, {"vs": VS, "tcs": TCS, "tes": TES, "fs": FS}, mode=Prim.PATCHES)
    np.testing.assert_array_equal(img, np.broadcast_to(np.float32(COLOR), img.shape))


# Found by the fuzzer: a GS reading the clip vertex, point coordinate or viewport mask
# the VS does not write failed to link like the user varyings once did.
GS_OTHER = (
    GS.replace("DCL IN[][3], TEXCOORD[2]", "DCL IN[][3], CLIPVERTEX\nDCL IN[][4], PCOORD\nDCL IN[][5], VIEWPORT_MASK")
    .replace("  0: ADD TEMP[0], IN[0][1], IN[0][2]", "  0: ADD TEMP[0], IN[0][1], IN[0][4]")
    .replace("  4: ADD TEMP[0], IN[1][1], IN[1][2]", "  4: ADD TEMP[0], IN[1][1], IN[1][5]")
)


def test_gs_reads_clip_vertex_point_coord_and_viewport_mask_the_vs_does_not_write(ctx):
    img = _draw(ctx, {"vs": VS, "gs": GS_OTHER, "fs": FS})
    np.testing.assert_array_equal(img, np.broadcast_to(np.float32(COLOR), img.shape))
