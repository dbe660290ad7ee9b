"""Shader properties past the host's limits are refused at create (issue 12 item 2).

The stop-22 fuzz campaign found TCS_VERTICES_OUT 65535 and 32768 (seeds
12028501, 12045279, saved as tests/fuzz/findings/internal_*.tcs.tgsi) passing
``create_tcs_state`` and then failing at draw with "internal error: the host
rejected ... vertices (65535) exceeds GL_MAX_PATCH_VERTICES".  Every
size-like property of a stage is checked against the host limit GL compares it
with (lowering/limits.py ``PROPERTY_LIMITS``), and the error names the
property, its value and the limit.  A value at the limit is accepted and
draws.
"""

from __future__ import annotations

import os

import numpy as np
import pytest

import glpipe
from glpipe import (
    DrawInfo,
    Format,
    Prim,
    ShaderState,
    ShaderValidationError,
    UnsupportedError,
    VertexBuffer,
    VertexElement,
)

FINDINGS = os.path.join(os.path.dirname(__file__), "..", "fuzz", "findings")

VS = "VERT\nDCL IN[0]\nDCL OUT[0], POSITION\n  0: MOV OUT[0], IN[0]\n  1: END\n"
FS = "FRAG\nDCL OUT[0], COLOR\nIMM[0] FLT32 {0.25, 0.5, 0.75, 1.0}\n  0: MOV OUT[0], IMM[0]\n  1: END\n"
TES = (
    "TESS_EVAL\nPROPERTY TES_PRIM_MODE 4\nDCL IN[][0], POSITION\nDCL SV[0], TESSCOORD\n"
    "DCL OUT[0], POSITION\nDCL TEMP[0]\n  0: MUL TEMP[0], SV[0].xxxx, IN[0][0]\n"
    "  1: MAD TEMP[0], SV[0].yyyy, IN[1][0], TEMP[0]\n  2: MAD OUT[0], SV[0].zzzz, IN[2][0], TEMP[0]\n  3: END\n"
)


def _tcs(vertices: int) -> str:
    return (
        f"TESS_CTRL\nPROPERTY TCS_VERTICES_OUT {vertices}\nDCL IN[][0], POSITION\nDCL SV[0], INVOCATIONID\n"
        "DCL OUT[][0], POSITION\nDCL OUT[1], TESSOUTER\nDCL OUT[2], TESSINNER\nDCL ADDR[0]\n"
        "IMM[0] FLT32 {1.0, 1.0, 1.0, 1.0}\n  0: UARL ADDR[0].x, SV[0].xxxx\n"
        "  1: MOV OUT[ADDR[0].x][0], IN[ADDR[0].x][0]\n  2: MOV OUT[1], IMM[0]\n  3: MOV OUT[2], IMM[0]\n  4: END\n"
    )


def _gs(vertices: int, invocations: int = 1) -> str:
    """A GS passing each triangle's first vertex on, as a point."""
    lines = [
        "GEOM",
        "PROPERTY GS_INPUT_PRIMITIVE TRIANGLES",
        "PROPERTY GS_OUTPUT_PRIMITIVE POINTS",
        f"PROPERTY GS_MAX_OUTPUT_VERTICES {vertices}",
        f"PROPERTY GS_INVOCATIONS {invocations}",
        "DCL IN[][0], POSITION",
        "DCL OUT[0], POSITION",
        "IMM[0] UINT32 {0, 0, 0, 0}",
        "  0: MOV OUT[0], IN[0][0]",
        "  1: EMIT IMM[0].xxxx",
        "  2: END",
    ]
    return "\n".join(lines) + "\n"


def _draw(ctx, mode, count, tri=((-1, -1, 0, 1), (3, -1, 0, 1), (-1, 3, 0, 1))):
    """Draw ``count`` vertices of ``tri`` (by default covering the 4x4 target); the pixels."""
    screen = ctx.screen
    color = screen.resource_create(
        glpipe.ResourceTemplate(format=Format.R8G8B8A8_UNORM, width0=4, height0=4, bind=glpipe.Bind.RENDER_TARGET)
    )
    surf = ctx.create_surface(color, glpipe.SurfaceTemplate(format=color.format))
    ctx.set_framebuffer_state(glpipe.FramebufferState(width=4, height=4, cbufs=(surf,)))
    ctx.set_viewport_states(0, [glpipe.ViewportState(scale=(2, 2, 0.5), translate=(2, 2, 0.5))])
    ctx.clear(glpipe.Clear.COLOR0, None, (0, 0, 0, 0), 0, 0)
    ctx.bind_rasterizer_state(ctx.create_rasterizer_state(glpipe.RasterizerState()))
    ctx.bind_vertex_elements_state(
        ctx.create_vertex_elements_state([VertexElement(src_format=Format.R32G32B32A32_FLOAT)])
    )
    ctx.set_vertex_buffers([VertexBuffer(buffer=np.array(tri, np.float32), stride=16)])
    ctx.draw_vbo(DrawInfo(mode=mode, count=count))
    out = np.zeros((4, 4, 4), np.uint8)
    gl = screen.host.gl
    gl.glBindTexture(gl.GL_TEXTURE_2D, color.gl_object)
    gl.glGetTexImage(gl.GL_TEXTURE_2D, 0, gl.GL_RGBA, gl.GL_UNSIGNED_BYTE, out)
    gl.glBindTexture(gl.GL_TEXTURE_2D, 0)
    return out


def _no_tessellation(screen, ctx) -> bool:
    """gl33 has no tessellation stage: a TCS is refused at create (and nothing more to test)."""
    if screen.profile.has("tessellation_shader"):
        return False
    with pytest.raises(UnsupportedError, match="tessellation"):
        ctx.create_tcs_state(ShaderState(tokens=_tcs(3)))
    return True


@pytest.mark.parametrize("seed", [12028501, 12045279])
def test_fuzzed_tcs_vertices_out_past_the_host_limit_is_refused_at_create(screen, ctx, seed):
    with open(os.path.join(FINDINGS, f"internal_{seed}.tcs.tgsi")) as f:
        tokens = f.read()
    if _no_tessellation(screen, ctx):
        return
    limit = screen.profile.limit("GL_MAX_PATCH_VERTICES")
    value = int(tokens.split("TCS_VERTICES_OUT ")[1].split()[0])
    with pytest.raises(ShaderValidationError, match=rf"TCS_VERTICES_OUT {value}.*{limit}.*GL_MAX_PATCH_VERTICES"):
        ctx.create_tcs_state(ShaderState(tokens=tokens))


def test_tcs_vertices_out_at_the_limit_draws_and_past_it_or_zero_is_refused(screen, ctx):
    if _no_tessellation(screen, ctx):
        return
    limit = int(screen.profile.limit("GL_MAX_PATCH_VERTICES"))
    for bad in (limit + 1, 0):
        with pytest.raises(ShaderValidationError, match=rf"TCS_VERTICES_OUT {bad}\b"):
            ctx.create_tcs_state(ShaderState(tokens=_tcs(bad)))
    with pytest.raises(glpipe.PipeError, match="TCS_VERTICES_OUT"):
        ctx.create_tcs_state(ShaderState(tokens=_tcs(-1)))  # (not an unsigned value: refused by the parser)
    # At the limit: the host compiles it.  The patch's first 3 output vertices
    # are the input triangle (TCS_VERTICES_OUT only sizes the output patch).
    ctx.bind_vs_state(ctx.create_vs_state(ShaderState(tokens=VS)))
    ctx.bind_tcs_state(ctx.create_tcs_state(ShaderState(tokens=_tcs(limit))))
    ctx.bind_tes_state(ctx.create_tes_state(ShaderState(tokens=TES)))
    ctx.bind_fs_state(ctx.create_fs_state(ShaderState(tokens=FS)))
    ctx.set_patch_vertices(3)
    img = _draw(ctx, Prim.PATCHES, 3)
    np.testing.assert_array_equal(img[0, 0], (64, 128, 191, 255))


def test_gs_output_vertices_and_invocations_past_the_host_limits_are_refused(screen, ctx):
    vertices = int(screen.profile.limit("GL_MAX_GEOMETRY_OUTPUT_VERTICES"))
    with pytest.raises(ShaderValidationError, match=rf"GS_MAX_OUTPUT_VERTICES {vertices + 1}.*{vertices}"):
        ctx.create_gs_state(ShaderState(tokens=_gs(vertices + 1)))
    if screen.profile.has("gpu_shader5"):
        invocations = int(screen.profile.limit("GL_MAX_GEOMETRY_SHADER_INVOCATIONS"))
        with pytest.raises(ShaderValidationError, match=rf"GS_INVOCATIONS {invocations + 1}.*{invocations}"):
            ctx.create_gs_state(ShaderState(tokens=_gs(1, invocations + 1)))
    else:
        with pytest.raises(UnsupportedError, match="GS_INVOCATIONS"):
            ctx.create_gs_state(ShaderState(tokens=_gs(1, 2)))


def test_gs_at_the_limits_draws(screen, ctx):
    vertices = int(screen.profile.limit("GL_MAX_GEOMETRY_OUTPUT_VERTICES"))
    invocations = max(1, int(screen.profile.limit("GL_MAX_GEOMETRY_SHADER_INVOCATIONS")))
    ctx.bind_vs_state(ctx.create_vs_state(ShaderState(tokens=VS)))
    ctx.bind_gs_state(ctx.create_gs_state(ShaderState(tokens=_gs(vertices, invocations))))
    ctx.bind_fs_state(ctx.create_fs_state(ShaderState(tokens=FS)))
    # Each invocation emits one point at the first vertex, (-0.75, -0.75): the centre of pixel (0, 0).
    img = _draw(ctx, Prim.TRIANGLES, 3, ((-0.75, -0.75, 0, 1), (1, -1, 0, 1), (-1, 1, 0, 1)))
    expect = np.zeros((4, 4, 4), np.uint8)
    expect[0, 0] = (64, 128, 191, 255)
    np.testing.assert_array_equal(img, expect)
