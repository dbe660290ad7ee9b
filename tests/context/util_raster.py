"""Helpers for the rasterizer tests (test_rasterizer.py, test_clip_stipple_windows.py):
drawing with a given rasterizer template, depth and multisample readback
through raw GL (never through the code under test), and the window-space
geometry the expectations are computed from."""

from __future__ import annotations

import numpy as np

import glpipe
from glpipe import (
    Bind,
    DepthStencilAlphaState,
    DrawInfo,
    Format,
    Func,
    RasterizerState,
    ResourceTemplate,
    ShaderState,
    SurfaceTemplate,
    Target,
    VertexBuffer,
    VertexElement,
)

from .util import PASS_VS, read_rgba32f
from .util_draw import FLAT_FS, POS_COLOR, SIZE, vertices, zero_fill

WHITE = (1.0, 1.0, 1.0, 1.0)
RED = (1.0, 0.0, 0.0, 1.0)
GREEN = (0.0, 1.0, 0.0, 1.0)
BLUE = (0.0, 0.0, 1.0, 1.0)

# FS whose colour is the GENERIC[0] varying, interpolated.
SMOOTH_FS = """FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL OUT[0], COLOR
  0: MOV OUT[0], IN[0]
  1: END
"""


def rast(ctx, **fields):
    """Create and bind a rasterizer: 1-pixel points and lines unless ``fields`` say otherwise."""
    templ = {"point_size": 1.0, "line_width": 1.0}
    templ.update(fields)
    cso = ctx.create_rasterizer_state(RasterizerState(**templ))
    ctx.bind_rasterizer_state(cso)
    return cso


def bind_shaders(ctx, vs=PASS_VS, fs=FLAT_FS, elements=POS_COLOR):
    """Bind a VS, an FS and vertex elements (position + colour by default)."""
    ctx.bind_vs_state(ctx.create_vs_state(ShaderState(tokens=vs)))
    ctx.bind_fs_state(ctx.create_fs_state(ShaderState(tokens=fs)))
    ctx.bind_vertex_elements_state(ctx.create_vertex_elements_state(list(elements)))


def draw(ctx, verts, mode, stride=32, **info):
    """Draw ``verts`` (rows of float32) from user memory as vertex buffer 0."""
    verts = np.ascontiguousarray(verts, np.float32)
    ctx.set_vertex_buffers([VertexBuffer(buffer=verts, stride=stride)])
    info.setdefault("count", len(verts))
    ctx.draw_vbo(DrawInfo(mode=mode, **info))


def draw_image(ctx, color, verts, mode, **info):
    """Zero the colour buffer (raw GL), draw, read it back: (h, w, 4) float32."""
    zero_fill(ctx.screen, color)
    draw(ctx, verts, mode, **info)
    return read_rgba32f(ctx.screen, color)


def tri_vertices(points, color=WHITE, z=0.0, size=SIZE):
    """pos+colour rows for window-space ``points`` at NDC depth ``z`` (scalar or per vertex)."""
    v = vertices(points, color, size)
    v[:, 2] = z
    return v


def depth_target(ctx, size=SIZE, zs=Format.Z32_FLOAT):
    """An RGBA32F colour buffer plus a depth buffer (D32F by default) with a
    full viewport; depth test ALWAYS with writes on (the depth buffer records
    every fragment's depth).  Returns (color, zs_resource)."""
    from .util import render_target

    color, zsres = render_target(ctx, size, size, zs=zs)
    dsa = ctx.create_depth_stencil_alpha_state(
        DepthStencilAlphaState(depth_enabled=True, depth_writemask=True, depth_func=Func.ALWAYS)
    )
    ctx.bind_depth_stencil_alpha_state(dsa)
    return color, zsres


def read_depth(screen, res) -> np.ndarray:
    """Depth texels as float32 (h, w) via glGetTexImage(GL_DEPTH_COMPONENT)."""
    gl = screen.host.gl
    out = np.zeros((res.height0, res.width0), np.float32)
    gl.glBindTexture(gl.GL_TEXTURE_2D, res.gl_object)
    gl.glPixelStorei(gl.GL_PACK_ALIGNMENT, 4)
    gl.glGetTexImage(gl.GL_TEXTURE_2D, 0, gl.GL_DEPTH_COMPONENT, gl.GL_FLOAT, out)
    gl.glBindTexture(gl.GL_TEXTURE_2D, 0)
    return out


def clear_depth(screen, res, value: float) -> None:
    """Fill a D32F texture with ``value`` (raw GL upload)."""
    gl = screen.host.gl
    data = np.full((res.height0, res.width0), value, np.float32)
    gl.glBindTexture(gl.GL_TEXTURE_2D, res.gl_object)
    gl.glPixelStorei(gl.GL_UNPACK_ALIGNMENT, 4)
    gl.glTexSubImage2D(gl.GL_TEXTURE_2D, 0, 0, 0, res.width0, res.height0, gl.GL_DEPTH_COMPONENT, gl.GL_FLOAT, data)
    gl.glBindTexture(gl.GL_TEXTURE_2D, 0)


# ---------------------------------------------------------------------------
# Multisampling
# ---------------------------------------------------------------------------


def msaa_target(ctx, samples=4, size=SIZE):
    """A multisampled RGBA32F colour buffer bound with a full viewport."""
    screen = ctx.screen
    fmt = Format.R32G32B32A32_FLOAT
    res = screen.resource_create(
        ResourceTemplate(
            target=Target.TEXTURE_2D,
            format=fmt,
            width0=size,
            height0=size,
            nr_samples=samples,
            nr_storage_samples=samples,
            bind=Bind.RENDER_TARGET,
        )
    )
    surf = ctx.create_surface(res, SurfaceTemplate(format=fmt))
    ctx.set_framebuffer_state(glpipe.FramebufferState(width=size, height=size, cbufs=(surf,)))
    ctx.set_viewport_states(
        0, [glpipe.ViewportState(scale=(size / 2, size / 2, 0.5), translate=(size / 2, size / 2, 0.5))]
    )
    ctx.clear(glpipe.Clear.COLOR0, None, (0.0, 0.0, 0.0, 0.0), 0.0, 0)
    return res


def resolve_msaa(screen, res) -> np.ndarray:
    """Average the samples of a multisampled RGBA32F texture with raw GL
    (glBlitFramebuffer into a single-sampled texture): (h, w, 4) float32."""
    gl = screen.host.gl
    w, h = res.width0, res.height0
    saved = _save_fb_state(gl)
    fbos = gl.glGenFramebuffers(2)
    tex = gl.glGenTextures(1)
    gl.glBindTexture(gl.GL_TEXTURE_2D, tex)
    gl.glTexImage2D(gl.GL_TEXTURE_2D, 0, gl.GL_RGBA32F, w, h, 0, gl.GL_RGBA, gl.GL_FLOAT, None)
    gl.glBindFramebuffer(gl.GL_READ_FRAMEBUFFER, fbos[0])
    gl.glFramebufferTexture2D(
        gl.GL_READ_FRAMEBUFFER, gl.GL_COLOR_ATTACHMENT0, gl.GL_TEXTURE_2D_MULTISAMPLE, res.gl_object, 0
    )
    gl.glBindFramebuffer(gl.GL_DRAW_FRAMEBUFFER, fbos[1])
    gl.glFramebufferTexture2D(gl.GL_DRAW_FRAMEBUFFER, gl.GL_COLOR_ATTACHMENT0, gl.GL_TEXTURE_2D, tex, 0)
    gl.glDisable(gl.GL_SCISSOR_TEST)
    gl.glDisable(gl.GL_RASTERIZER_DISCARD)
    gl.glBlitFramebuffer(0, 0, w, h, 0, 0, w, h, gl.GL_COLOR_BUFFER_BIT, gl.GL_NEAREST)
    out = np.zeros((h, w, 4), np.float32)
    gl.glBindFramebuffer(gl.GL_READ_FRAMEBUFFER, fbos[1])
    gl.glGetTexImage(gl.GL_TEXTURE_2D, 0, gl.GL_RGBA, gl.GL_FLOAT, out)
    _restore_fb_state(gl, saved)
    gl.glDeleteFramebuffers(2, fbos)
    gl.glDeleteTextures(1, [tex])
    return out


def sample_positions(screen, res) -> np.ndarray:
    """The host's sample positions (n, 2) within a pixel, for a framebuffer of
    ``res`` (GL_SAMPLE_POSITION through raw GL)."""
    gl = screen.host.gl
    saved = _save_fb_state(gl)
    fbo = gl.glGenFramebuffers(1)
    gl.glBindFramebuffer(gl.GL_FRAMEBUFFER, fbo)
    gl.glFramebufferTexture2D(
        gl.GL_FRAMEBUFFER, gl.GL_COLOR_ATTACHMENT0, gl.GL_TEXTURE_2D_MULTISAMPLE, res.gl_object, 0
    )
    n = int(gl.glGetIntegerv(gl.GL_SAMPLES))
    out = np.zeros((n, 2), np.float32)
    for i in range(n):
        pos = np.zeros(2, np.float32)
        gl.glGetMultisamplefv(gl.GL_SAMPLE_POSITION, i, pos)
        out[i] = pos
    _restore_fb_state(gl, saved)
    gl.glDeleteFramebuffers(1, [fbo])
    return out


def _save_fb_state(gl) -> tuple:
    """The GL state the readback helpers change, so they can put it back
    (the context under test shadows it and must find it as it left it)."""
    return (
        int(gl.glGetIntegerv(gl.GL_DRAW_FRAMEBUFFER_BINDING)),
        int(gl.glGetIntegerv(gl.GL_READ_FRAMEBUFFER_BINDING)),
        bool(gl.glIsEnabled(gl.GL_SCISSOR_TEST)),
        bool(gl.glIsEnabled(gl.GL_RASTERIZER_DISCARD)),
    )


def _restore_fb_state(gl, saved: tuple) -> None:
    draw_fb, read_fb, scissor, discard = saved
    gl.glBindFramebuffer(gl.GL_DRAW_FRAMEBUFFER, draw_fb)
    gl.glBindFramebuffer(gl.GL_READ_FRAMEBUFFER, read_fb)
    (gl.glEnable if scissor else gl.glDisable)(gl.GL_SCISSOR_TEST)
    (gl.glEnable if discard else gl.glDisable)(gl.GL_RASTERIZER_DISCARD)


# ---------------------------------------------------------------------------
# Geometry
# ---------------------------------------------------------------------------


def signed_area(points) -> float:
    """Twice the signed area of a polygon in window coordinates (x right, y =
    row): sum of x_i * y_(i+1) - x_(i+1) * y_i.  Positive means
    counter-clockwise for GL, whose window y grows upward, and clockwise for
    Gallium, whose window y grows downward from row 0 over the same numbers
    (docs/rasterizer.md "Winding"); for a triangle it equals Gallium's det,
    so a positive area is front-facing exactly when front_ccw is False
    (``gallium_front``)."""
    pts = np.asarray(points, np.float64)
    x, y = pts[:, 0], pts[:, 1]
    return float(np.sum(x * np.roll(y, -1) - np.roll(x, -1) * y))


def gallium_front(tri, front_ccw: bool) -> bool:
    """Gallium's facing of a triangle given by its window positions p0, p1,
    p2 (softpipe's sp_setup.c, the draw module's draw_pipe_cull.c): with
    e = p0 - p2, f = p1 - p2 and det = e.x * f.y - e.y * f.x it is front-facing
    when (front_ccw and det < 0) or (not front_ccw and det > 0); det = 0 is
    back-facing (as the draw module's cull stage and GL say)."""
    (x0, y0), (x1, y1), (x2, y2) = tri
    ex, ey, fx, fy = x0 - x2, y0 - y2, x1 - x2, y1 - y2
    det = ex * fy - ey * fx
    return bool(det < 0) if front_ccw else bool(det > 0)


def covered_by_centres(tris, centres_offset=0.5, size=SIZE):
    """Boolean (size, size): pixel (x, y) covered when its sample point
    (x + offset, y + offset) lies strictly inside one of ``tris`` (window
    coordinates).  offset 0.5 is GL's (and half_pixel_center's) pixel centre,
    0 the integer centres of half_pixel_center = False."""
    ys, xs = np.mgrid[0:size, 0:size].astype(np.float64) + centres_offset
    covered = np.zeros((size, size), bool)
    for (x0, y0), (x1, y1), (x2, y2) in tris:
        area = (x1 - x0) * (y2 - y0) - (x2 - x0) * (y1 - y0)
        sign = 1.0 if area > 0 else -1.0
        inside = np.ones((size, size), bool)
        for (ax, ay), (bx, by) in (((x0, y0), (x1, y1)), ((x1, y1), (x2, y2)), ((x2, y2), (x0, y0))):
            inside &= sign * ((bx - ax) * (ys - ay) - (by - ay) * (xs - ax)) > 0
        covered |= inside
    return covered


# Shaders several rasterizer tests share.

# A VS_WINDOW_SPACE_POSITION VS passing a position (window coordinates) and one varying.
# Two-sided colour: the VS writes COLOR = the vertex colour and BCOLOR = blue,
# the FS shows the COLOR input (front or back colour as light_twoside picks).
TWO_SIDE_VS = """VERT
DCL IN[0]
DCL IN[1]
DCL OUT[0], POSITION
DCL OUT[1], COLOR
DCL OUT[2], BCOLOR
IMM[0] FLT32 {    0.0000,     0.0000,     1.0000,     1.0000}
  0: MOV OUT[0], IN[0]
  1: MOV OUT[1], IN[1]
  2: MOV OUT[2], IMM[0]
  3: END
"""

COLOR_FS = """FRAG
DCL IN[0], COLOR, COLOR
DCL OUT[0], COLOR
  0: MOV OUT[0], IN[0]
  1: END
"""


WINDOW_VS = """VERT
PROPERTY VS_WINDOW_SPACE_POSITION 1
DCL IN[0]
DCL IN[1]
DCL OUT[0], POSITION
DCL OUT[1], GENERIC[0]
  0: MOV OUT[0], IN[0]
  1: MOV OUT[1], IN[1]
  2: END
"""

# Triangles in; out: the strip v0 v1 v2, EndPrimitive, then the strip v2 v0.
GS_TWO_STRIPS = """GEOM
PROPERTY GS_INPUT_PRIMITIVE TRIANGLES
PROPERTY GS_OUTPUT_PRIMITIVE LINE_STRIP
PROPERTY GS_MAX_OUTPUT_VERTICES 5
DCL IN[][0], POSITION
DCL IN[][1], GENERIC[0]
DCL OUT[0], POSITION
DCL OUT[1], GENERIC[0]
IMM[0] UINT32 {0, 0, 0, 0}
  0: MOV OUT[0], IN[0][0]
  1: MOV OUT[1], IN[0][1]
  2: EMIT IMM[0].xxxx
  3: MOV OUT[0], IN[1][0]
  4: MOV OUT[1], IN[1][1]
  5: EMIT IMM[0].xxxx
  6: MOV OUT[0], IN[2][0]
  7: MOV OUT[1], IN[2][1]
  8: EMIT IMM[0].xxxx
  9: ENDPRIM IMM[0].xxxx
 10: MOV OUT[0], IN[2][0]
 11: MOV OUT[1], IN[2][1]
 12: EMIT IMM[0].xxxx
 13: MOV OUT[0], IN[0][0]
 14: MOV OUT[1], IN[0][1]
 15: EMIT IMM[0].xxxx
 16: END
"""

# A TES for isolines: each vertex at u between the patch's two corners.
ISOLINES_TES = """TESS_EVAL
PROPERTY TES_PRIM_MODE 1
PROPERTY TES_SPACING 2
PROPERTY TES_VERTEX_ORDER_CW 0
PROPERTY TES_POINT_MODE 0
DCL IN[][0], POSITION
DCL IN[][1], GENERIC[0]
DCL SV[0], TESSCOORD
DCL OUT[0], POSITION
DCL OUT[1], GENERIC[0]
DCL TEMP[0]
  0: LRP TEMP[0], SV[0].xxxx, IN[1][0], IN[0][0]
  1: MOV OUT[0], TEMP[0]
  2: MOV OUT[1], IN[0][1]
  3: END
"""

# A TES for the triangle domain: each vertex at the barycentric mix of the
# patch's corners, with corner 0's varying.
TRIANGLES_TES = """TESS_EVAL
PROPERTY TES_PRIM_MODE 4
PROPERTY TES_SPACING 2
PROPERTY TES_VERTEX_ORDER_CW 0
PROPERTY TES_POINT_MODE 0
DCL IN[][0], POSITION
DCL IN[][1], GENERIC[0]
DCL SV[0], TESSCOORD
DCL OUT[0], POSITION
DCL OUT[1], GENERIC[0]
DCL TEMP[0..1]
  0: MUL TEMP[0], IN[1][0], SV[0].yyyy
  1: MAD TEMP[0], IN[0][0], SV[0].xxxx, TEMP[0]
  2: MAD TEMP[0], IN[2][0], SV[0].zzzz, TEMP[0]
  3: MOV OUT[0], TEMP[0]
  4: MOV OUT[1], IN[0][1]
  5: END
"""


# A VS whose clip vertex is its position moved by +0.5 in x.
CLIPVERTEX_VS = """VERT
DCL IN[0]
DCL IN[1]
DCL OUT[0], POSITION
DCL OUT[1], GENERIC[0]
DCL OUT[2], CLIPVERTEX
IMM[0] FLT32 {    0.5000,     0.0000,     0.0000,     0.0000}
  0: MOV OUT[0], IN[0]
  1: MOV OUT[1], IN[1]
  2: ADD OUT[2], IN[0], IMM[0]
  3: END
"""


# A VS adding a per-instance offset (IN[2], vertex buffer 1, divisor 1) to the position.
INSTANCE_OFFSET_VS = """VERT
DCL IN[0]
DCL IN[1]
DCL IN[2]
DCL OUT[0], POSITION
DCL OUT[1], GENERIC[0]
  0: ADD OUT[0], IN[0], IN[2]
  1: MOV OUT[1], IN[1]
  2: END
"""
INSTANCE_OFFSET_ELEMENTS = POS_COLOR + (
    VertexElement(src_offset=0, vertex_buffer_index=1, instance_divisor=1, src_format=Format.R32G32B32A32_FLOAT),
)
