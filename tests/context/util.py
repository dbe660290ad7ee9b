"""Helpers for context tests: render targets, readback through raw GL (not
through the code under test), and tiny TGSI programs."""

from __future__ import annotations

import numpy as np

import glpipe
from glpipe import Bind, Format, ResourceTemplate, SurfaceTemplate, Target

PASS_VS = """VERT
DCL IN[0]
DCL IN[1]
DCL OUT[0], POSITION
DCL OUT[1], GENERIC[0]
  0: MOV OUT[0], IN[0]
  1: MOV OUT[1], IN[1]
  2: END
"""

COLOR_FS = """FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL OUT[0], COLOR
  0: MOV OUT[0], IN[0]
  1: END
"""


def triangle_gs(output_prim: str, order) -> str:
    """TGSI of a GS taking triangles (POSITION, GENERIC[0]) and emitting the
    input vertices ``order`` (e.g. (0, 1, 2) passes the triangle through as
    a TRIANGLE_STRIP; (0, 1, 2, 0) with LINE_STRIP draws its outline)."""
    body = []
    for v in order:
        n = len(body)
        body += [f"{n:3}: MOV OUT[0], IN[{v}][0]", f"{n + 1:3}: MOV OUT[1], IN[{v}][1]", f"{n + 2:3}: EMIT IMM[0].xxxx"]
    body.append(f"{len(body):3}: END")
    return (
        "GEOM\nPROPERTY GS_INPUT_PRIMITIVE TRIANGLES\n"
        f"PROPERTY GS_OUTPUT_PRIMITIVE {output_prim}\nPROPERTY GS_MAX_OUTPUT_VERTICES {len(order)}\n"
        "DCL IN[][0], POSITION\nDCL IN[][1], GENERIC[0]\nDCL OUT[0], POSITION\nDCL OUT[1], GENERIC[0]\n"
        "IMM[0] UINT32 {0, 0, 0, 0}\n" + "\n".join(body) + "\n"
    )


def render_target(ctx, width, height, fmt=Format.R32G32B32A32_FLOAT, zs=None):
    """A colour texture (and optional depth/stencil texture) bound as the
    framebuffer with a full viewport; returns (color_resource, zs_resource)."""
    screen = ctx.screen
    color = screen.resource_create(
        ResourceTemplate(
            target=Target.TEXTURE_2D,
            format=fmt,
            width0=width,
            height0=height,
            bind=Bind.RENDER_TARGET | Bind.SAMPLER_VIEW,
        )
    )
    cbuf = ctx.create_surface(color, SurfaceTemplate(format=fmt))
    zsres = zsurf = None
    if zs is not None:
        zsres = screen.resource_create(
            ResourceTemplate(target=Target.TEXTURE_2D, format=zs, width0=width, height0=height, bind=Bind.DEPTH_STENCIL)
        )
        zsurf = ctx.create_surface(zsres, SurfaceTemplate(format=zs))
    ctx.set_framebuffer_state(glpipe.FramebufferState(width=width, height=height, cbufs=(cbuf,), zsbuf=zsurf))
    ctx.set_viewport_states(
        0, [glpipe.ViewportState(scale=(width / 2, height / 2, 0.5), translate=(width / 2, height / 2, 0.5))]
    )
    return color, zsres


def read_rgba32f(screen, res, level=0) -> np.ndarray:
    """Texel rows of an RGBA32F 2D texture via glGetTexImage: shape (h, w, 4), row 0 = window y 0."""
    gl = screen.host.gl
    w = max(1, res.width0 >> level)
    h = max(1, res.height0 >> level)
    out = np.zeros((h, w, 4), np.float32)
    gl.glBindTexture(gl.GL_TEXTURE_2D, res.gl_object)
    gl.glGetTexImage(gl.GL_TEXTURE_2D, level, gl.GL_RGBA, gl.GL_FLOAT, out)
    gl.glBindTexture(gl.GL_TEXTURE_2D, 0)
    return out


def vertex_buffer(screen, array, bind=Bind.VERTEX_BUFFER) -> glpipe.Resource:
    """A BUFFER resource (``bind``: a vertex buffer unless told) holding
    ``array``'s bytes (uploaded with raw GL)."""
    data = np.ascontiguousarray(array)
    res = screen.resource_create(
        ResourceTemplate(target=Target.BUFFER, format=Format.R8_UNORM, width0=data.nbytes, bind=bind)
    )
    gl = screen.host.gl
    gl.glBindBuffer(gl.GL_COPY_WRITE_BUFFER, res.gl_object)
    gl.glBufferSubData(gl.GL_COPY_WRITE_BUFFER, 0, data.nbytes, data)
    gl.glBindBuffer(gl.GL_COPY_WRITE_BUFFER, 0)
    return res
