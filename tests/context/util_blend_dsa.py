"""Helpers for the blend and depth/stencil/alpha tests.

Per-fragment tests draw many small cases into one render target: case i
covers pixel column i (and, for the face tests, row 0 with a front-facing
quad and row 1 with a back-facing one), so one readback checks them all.
Destination contents (colour, depth, stencil) are written and read with raw
GL on the texture objects (glTextureSubImage2D / glGetTextureImage), which
no per-fragment state affects -- never through the code under test.
"""

from __future__ import annotations

import numpy as np

import glpipe
from glpipe import (
    Bind,
    DrawInfo,
    Format,
    Prim,
    ResourceTemplate,
    ShaderState,
    SurfaceTemplate,
    Target,
    VertexBuffer,
    VertexElement,
)
from glpipe.dirty import Dirty

from .util import COLOR_FS, PASS_VS, vertex_buffer

# -- pipeline ------------------------------------------------------------------


def pipeline(ctx, fs_text=COLOR_FS):
    """PASS_VS + ``fs_text`` + (position, colour) float4 vertex elements, bound."""
    vs = ctx.create_vs_state(ShaderState(tokens=PASS_VS))
    fs = ctx.create_fs_state(ShaderState(tokens=fs_text))
    ve = ctx.create_vertex_elements_state(
        [
            VertexElement(src_offset=0, vertex_buffer_index=0, src_format=Format.R32G32B32A32_FLOAT),
            VertexElement(src_offset=16, vertex_buffer_index=0, src_format=Format.R32G32B32A32_FLOAT),
        ]
    )
    ctx.bind_vs_state(vs)
    ctx.bind_fs_state(fs)
    ctx.bind_vertex_elements_state(ve)
    return vs, fs, ve


def bind_rasterizer(ctx, **fields):
    """Bind a rasterizer with ``fields`` when the rasterizer CSO exists (it
    arrives with its own module); without it GL's defaults apply, which are
    what these tests ask for (CCW front faces, no culling, multisampling on)."""
    if hasattr(ctx, "create_rasterizer_state"):
        ctx.bind_rasterizer_state(ctx.create_rasterizer_state(glpipe.RasterizerState(**fields)))


def front_ccw_rasterizer(ctx):
    """Counter-clockwise front faces (Gallium's sense: on its window, y
    growing downward), no culling."""
    bind_rasterizer(ctx, front_ccw=True)


def _quad(x0, y0, x1, y1, z, color, ccw=True):
    """Two triangles over the NDC rectangle (x0 < x1, y0 < y1), wound
    counter-clockwise in Gallium's window space (front under
    front_ccw_rasterizer) or clockwise.  With the positive viewport scales
    these tests use, window y grows with NDC y, and Gallium's rule
    (docs/rasterizer.md "Winding": e = p0 - p2, f = p1 - p2, det = e.x * f.y -
    e.y * f.x, front_ccw front when det < 0) gives (a, b, c) det =
    (x1 - x0) * (y1 - y0) > 0: clockwise; (a, c, b) is counter-clockwise."""
    a, b, c, d = (x0, y0), (x1, y0), (x1, y1), (x0, y1)
    tris = (a, c, b, a, d, c) if ccw else (a, b, c, a, c, d)
    return [[x, y, z, 1.0, *color] for x, y in tris]


def pixel_quad(width, height, px, py, color, z=0.0, ccw=True):
    """Vertices (6 x 8 floats) of a quad covering window pixel (px, py)."""
    x0, x1 = -1 + 2 * px / width, -1 + 2 * (px + 1) / width
    y0, y1 = -1 + 2 * py / height, -1 + 2 * (py + 1) / height
    return _quad(x0, y0, x1, y1, z, color, ccw)


def column_cases(screen, ctx, colors, height=1, z=0.0):
    """A vertex buffer with one quad per column i (full height) in ``colors[i]``,
    bound; returns draw(i) which draws case i."""
    width = len(colors)
    verts = []
    for i, col in enumerate(colors):
        verts += _quad(-1 + 2 * i / width, -1, -1 + 2 * (i + 1) / width, 1, z, col)
    vb = vertex_buffer(screen, np.array(verts, np.float32))
    ctx.set_vertex_buffers([VertexBuffer(buffer=vb, stride=32)])

    def draw(i):
        ctx.draw_vbo(DrawInfo(mode=Prim.TRIANGLES, start=6 * i, count=6))

    return draw


def fullscreen(screen, ctx, color, z=0.0):
    """Bind a vertex buffer with one triangle covering the viewport; returns draw()."""
    verts = np.array([[-1, -1, z, 1, *color], [3, -1, z, 1, *color], [-1, 3, z, 1, *color]], np.float32)
    ctx.set_vertex_buffers([VertexBuffer(buffer=vertex_buffer(screen, verts), stride=32)])

    def draw():
        ctx.draw_vbo(DrawInfo(mode=Prim.TRIANGLES, start=0, count=3))

    return draw


# -- render targets ------------------------------------------------------------


def texture(screen, fmt, width, height, bind, samples=0):
    return screen.resource_create(
        ResourceTemplate(
            target=Target.TEXTURE_2D, format=fmt, width0=width, height0=height, bind=bind, nr_samples=samples
        )
    )


def bind_targets(ctx, width, height, colors=(), zs=None):
    """Surfaces on the given colour resources (and zs resource) bound as the
    framebuffer with a full viewport (depth range 0..1)."""
    cbufs = tuple(ctx.create_surface(r, SurfaceTemplate(format=r.format)) for r in colors)
    zsurf = ctx.create_surface(zs, SurfaceTemplate(format=zs.format)) if zs is not None else None
    ctx.set_framebuffer_state(glpipe.FramebufferState(width=width, height=height, cbufs=cbufs, zsbuf=zsurf))
    ctx.set_viewport_states(
        0, [glpipe.ViewportState(scale=(width / 2, height / 2, 0.5), translate=(width / 2, height / 2, 0.5))]
    )
    return cbufs, zsurf


def color_target(screen, ctx, width, height, fmt=Format.R32G32B32A32_FLOAT, bind=None):
    bind = Bind.RENDER_TARGET | Bind.SAMPLER_VIEW if bind is None else bind
    res = texture(screen, fmt, width, height, bind)
    bind_targets(ctx, width, height, (res,))
    return res


# -- raw GL transfers ------------------------------------------------------------

_PIXEL = {
    "rgba32f": ("GL_RGBA", "GL_FLOAT", np.float32, 4),
    "rgba8": ("GL_RGBA", "GL_UNSIGNED_BYTE", np.uint8, 4),
    "red8": ("GL_RED", "GL_UNSIGNED_BYTE", np.uint8, 1),
    "depth32f": ("GL_DEPTH_COMPONENT", "GL_FLOAT", np.float32, 1),
    "depth24s8": ("GL_DEPTH_STENCIL", "GL_UNSIGNED_INT_24_8", np.uint32, 1),
}


class _Alignment:
    """Pack/unpack alignment 1 for the duration (restored after)."""

    def __init__(self, gl):
        self.gl = gl

    def __enter__(self):
        gl = self.gl
        self.saved = (gl.glGetIntegerv(gl.GL_PACK_ALIGNMENT), gl.glGetIntegerv(gl.GL_UNPACK_ALIGNMENT))
        gl.glPixelStorei(gl.GL_PACK_ALIGNMENT, 1)
        gl.glPixelStorei(gl.GL_UNPACK_ALIGNMENT, 1)

    def __exit__(self, *exc):
        gl = self.gl
        gl.glPixelStorei(gl.GL_PACK_ALIGNMENT, int(self.saved[0]))
        gl.glPixelStorei(gl.GL_UNPACK_ALIGNMENT, int(self.saved[1]))


def upload(screen, res, kind, data):
    """Write ``data`` (rows = window y) into level 0 of ``res`` with raw GL."""
    gl = screen.host.gl
    fmt, typ, dtype, _n = _PIXEL[kind]
    data = np.ascontiguousarray(data, dtype)
    with _Alignment(gl):
        gl.glTextureSubImage2D(
            res.gl_object, 0, 0, 0, res.width0, res.height0, getattr(gl, fmt), getattr(gl, typ), data
        )


def read(screen, res, kind):
    """Level 0 of ``res`` read with raw GL: shape (h, w, n) (n = 1 squeezed)."""
    gl = screen.host.gl
    fmt, typ, dtype, n = _PIXEL[kind]
    out = np.zeros((res.height0, res.width0, n), dtype)
    with _Alignment(gl):
        gl.glGetTextureImage(res.gl_object, 0, getattr(gl, fmt), getattr(gl, typ), out.nbytes, out)
    return out[..., 0] if n == 1 else out


def pack_d24s8(depth, stencil):
    """GL_UNSIGNED_INT_24_8 words: 24-bit unorm depth above 8-bit stencil."""
    d = np.round(np.asarray(depth, np.float64) * 0xFFFFFF).astype(np.uint32)
    return (d << 8) | (np.asarray(stencil, np.uint32) & 0xFF)


# -- multisampling through raw GL ----------------------------------------------------


def clear_msaa(screen, ctx, res, rgba):
    """Clear a multisampled colour texture with raw GL (all masks open), before
    the context draws; the context's shadows are reset so it re-emits."""
    gl = screen.host.gl
    fbo = int(gl.glGenFramebuffers(1))
    gl.glBindFramebuffer(gl.GL_FRAMEBUFFER, fbo)
    gl.glFramebufferTexture2D(gl.GL_FRAMEBUFFER, gl.GL_COLOR_ATTACHMENT0, res.gl_target, res.gl_object, 0)
    gl.glColorMask(True, True, True, True)
    gl.glDisable(gl.GL_SCISSOR_TEST)
    gl.glDisable(gl.GL_RASTERIZER_DISCARD)
    gl.glClearBufferfv(gl.GL_COLOR, 0, np.asarray(rgba, np.float32))
    gl.glBindFramebuffer(gl.GL_FRAMEBUFFER, 0)
    gl.glDeleteFramebuffers(1, [fbo])
    forget_host_state(ctx)


def resolve_rgba32f(screen, ctx, msaa):
    """Resolve a 4x RGBA32F texture into a new single-sample one with raw
    glBlitFramebuffer; returns its texels (h, w, 4)."""
    gl = screen.host.gl
    w, h = msaa.width0, msaa.height0
    single = texture(screen, Format.R32G32B32A32_FLOAT, w, h, Bind.SAMPLER_VIEW)
    fbos = [int(f) for f in gl.glGenFramebuffers(2)]
    gl.glBindFramebuffer(gl.GL_READ_FRAMEBUFFER, fbos[0])
    gl.glFramebufferTexture2D(gl.GL_READ_FRAMEBUFFER, gl.GL_COLOR_ATTACHMENT0, msaa.gl_target, msaa.gl_object, 0)
    gl.glBindFramebuffer(gl.GL_DRAW_FRAMEBUFFER, fbos[1])
    gl.glFramebufferTexture2D(gl.GL_DRAW_FRAMEBUFFER, gl.GL_COLOR_ATTACHMENT0, gl.GL_TEXTURE_2D, single.gl_object, 0)
    gl.glDisable(gl.GL_SCISSOR_TEST)
    gl.glBlitFramebuffer(0, 0, w, h, 0, 0, w, h, gl.GL_COLOR_BUFFER_BIT, gl.GL_NEAREST)
    gl.glBindFramebuffer(gl.GL_FRAMEBUFFER, 0)
    gl.glDeleteFramebuffers(2, fbos)
    forget_host_state(ctx)
    return read(screen, single, "rgba32f")


def sample_positions(screen, res, samples):
    """The host's sample positions (x, y in 0..1 of a pixel) for ``res``."""
    gl = screen.host.gl
    fbo = int(gl.glGenFramebuffers(1))
    gl.glBindFramebuffer(gl.GL_FRAMEBUFFER, fbo)
    gl.glFramebufferTexture2D(gl.GL_FRAMEBUFFER, gl.GL_COLOR_ATTACHMENT0, res.gl_target, res.gl_object, 0)
    pos = []
    for i in range(samples):
        out = np.zeros(2, np.float32)
        gl.glGetMultisamplefv(gl.GL_SAMPLE_POSITION, i, out)
        pos.append(tuple(float(v) for v in out))
    gl.glBindFramebuffer(gl.GL_FRAMEBUFFER, 0)
    gl.glDeleteFramebuffers(1, [fbo])
    return pos


def forget_host_state(ctx):
    """After raw GL touched bindings or masks: make the context re-emit."""
    ctx.blend_part._reset_blend_shadow()
    ctx.dsa_part._reset_dsa_shadow()
    ctx.dirty |= Dirty.FRAMEBUFFER | Dirty.SCISSOR | Dirty.VIEWPORT


# -- counting GL calls ------------------------------------------------------------------


class CountingGL:
    """Stands in for ``ctx.gl`` and records the name of every GL function called."""

    def __init__(self, gl):
        self._gl = gl
        self.calls = []

    def __getattr__(self, name):
        value = getattr(self._gl, name)
        if name.startswith("gl") and callable(value):
            calls = self.calls

            def counted(*args, _f=value, _n=name):
                calls.append(_n)
                return _f(*args)

            return counted
        return value
