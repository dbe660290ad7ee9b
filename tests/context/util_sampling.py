"""Helpers for the sampler / sampler-view / constant-buffer tests.

Textures are filled with raw GL (glTexSubImage* on ModernGL's scratch unit)
and results read back with raw GL (util.read_rgba32f), so the code under
test only does what is tested: sampling.  Expected values come from the
numpy models below, written from the GL 4.5 spec's texture-wrap and
filtering equations (§8.14), not from glpipe.
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
    SamplerState,
    SamplerViewTemplate,
    ShaderState,
    ShaderType,
    Target,
    TexWrap,
    VertexBuffer,
    VertexElement,
)

from .util import PASS_VS, read_rgba32f, render_target, vertex_buffer


def tex_fs(target="2D", op="TEX", ret="FLOAT", sview=True, extra_decls="", coord="IN[0]"):
    """A FS that writes ``op OUT[0], IN[0], SAMP[0], target`` (TGSI text)."""
    sv = f"DCL SVIEW[0], {target}, {ret}\n" if sview else ""
    return (
        f"FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nDCL SAMP[0]\n{sv}{extra_decls}"
        f"  0: {op} OUT[0], {coord}, SAMP[0], {target}\n  1: END\n"
    )


def make_texture(
    screen, target, fmt, width, height=1, depth=1, array_size=1, last_level=0, nr_samples=0, bind=Bind.SAMPLER_VIEW
):
    """A texture resource (no data)."""
    return screen.resource_create(
        ResourceTemplate(
            target=target,
            format=fmt,
            width0=width,
            height0=height,
            depth0=depth,
            array_size=array_size,
            last_level=last_level,
            nr_samples=nr_samples,
            bind=bind,
        )
    )


_GL_TARGETS = {
    Target.TEXTURE_1D: "GL_TEXTURE_1D",
    Target.TEXTURE_2D: "GL_TEXTURE_2D",
    Target.TEXTURE_3D: "GL_TEXTURE_3D",
    Target.TEXTURE_RECT: "GL_TEXTURE_RECTANGLE",
    Target.TEXTURE_1D_ARRAY: "GL_TEXTURE_1D_ARRAY",
    Target.TEXTURE_2D_ARRAY: "GL_TEXTURE_2D_ARRAY",
    Target.TEXTURE_CUBE: "GL_TEXTURE_CUBE_MAP",
    Target.TEXTURE_CUBE_ARRAY: "GL_TEXTURE_CUBE_MAP_ARRAY",
}


def upload(screen, res, level, data, gl_format="GL_RGBA", gl_type="GL_FLOAT", face=None):
    """Raw-GL upload of ``data`` (rows x cols x comps, or layers x rows x cols x comps) into ``level``.

    ``face``: cube face index for TEXTURE_CUBE.  Uses the scratch unit."""
    gl = screen.host.gl
    data = np.ascontiguousarray(data)
    tgt = getattr(gl, _GL_TARGETS[res.target])
    gl.glActiveTexture(gl.GL_TEXTURE0 + screen.host.scratch_texture_unit)
    gl.glBindTexture(tgt, res.gl_object)
    gl.glPixelStorei(gl.GL_UNPACK_ALIGNMENT, 1)
    fmt, typ = getattr(gl, gl_format), getattr(gl, gl_type)
    if res.target in (Target.TEXTURE_1D,):
        gl.glTexSubImage1D(tgt, level, 0, data.shape[-2], fmt, typ, data)
    elif res.target == Target.TEXTURE_CUBE:
        gl.glTexSubImage2D(
            gl.GL_TEXTURE_CUBE_MAP_POSITIVE_X + face, level, 0, 0, data.shape[1], data.shape[0], fmt, typ, data
        )
    elif res.target in (Target.TEXTURE_2D, Target.TEXTURE_RECT, Target.TEXTURE_1D_ARRAY):
        gl.glTexSubImage2D(tgt, level, 0, 0, data.shape[1], data.shape[0], fmt, typ, data)
    else:  # 3D, 2D array, cube array: (layers, rows, cols, comps)
        gl.glTexSubImage3D(tgt, level, 0, 0, 0, data.shape[2], data.shape[1], data.shape[0], fmt, typ, data)
    gl.glBindTexture(tgt, 0)
    assert screen.host.clear_errors() == []


def texel_grid(w, h, comps=4, scale=1.0):
    """Distinct texel values: (h, w, 4) float32 with R = x + 1, G = y + 1,
    B = 10 x + y, A = 1 (times ``scale``)."""
    y, x = np.mgrid[0:h, 0:w].astype(np.float32)
    out = np.stack([x + 1, y + 1, 10 * x + y, np.ones_like(x)], axis=-1) * np.float32(scale)
    return out[..., :comps]


class Sampling:
    """A context set up to draw a W x H quad whose GENERIC[0] runs linearly
    from ``lo`` (window corner 0,0) to ``hi`` (corner W,H), into RGBA32F."""

    def __init__(self, ctx, width, height):
        self.ctx = ctx
        self.width, self.height = width, height
        self.color, _ = render_target(ctx, width, height)
        self.vs = ctx.create_vs_state(ShaderState(tokens=PASS_VS))
        ctx.bind_vs_state(self.vs)
        self.ve = ctx.create_vertex_elements_state(
            [
                VertexElement(src_offset=0, vertex_buffer_index=0, src_format=Format.R32G32B32A32_FLOAT),
                VertexElement(src_offset=16, vertex_buffer_index=0, src_format=Format.R32G32B32A32_FLOAT),
            ]
        )
        ctx.bind_vertex_elements_state(self.ve)
        self._fs_cache = {}

    def fs(self, tokens):
        """A (cached) FS CSO for ``tokens``."""
        cso = self._fs_cache.get(tokens)
        if cso is None:
            cso = self.ctx.create_fs_state(ShaderState(tokens=tokens))
            self._fs_cache[tokens] = cso
        return cso

    def coords(self, lo, hi):
        """GENERIC[0] at every pixel centre (h, w, 4) as the rasterizer interpolates it (float64 model)."""
        lo, hi = np.asarray(lo, np.float64), np.asarray(hi, np.float64)
        fx = (np.arange(self.width) + 0.5) / self.width
        fy = (np.arange(self.height) + 0.5) / self.height
        out = np.empty((self.height, self.width, 4))
        out[..., 0] = lo[0] + (hi[0] - lo[0]) * fx[None, :]
        out[..., 1] = lo[1] + (hi[1] - lo[1]) * fy[:, None]
        out[..., 2] = lo[2] + (hi[2] - lo[2]) * fx[None, :]
        out[..., 3] = lo[3] + (hi[3] - lo[3]) * fy[:, None]
        return out

    def draw(self, fs_tokens, lo, hi, read=True):
        """Draw the quad with ``fs_tokens``; return the (h, w, 4) image (RGBA32F
        targets; ``read=False`` for others, which the caller reads).

        x runs GENERIC.x and .z from lo to hi, y runs .y and .w."""
        ctx = self.ctx
        ctx.bind_fs_state(self.fs(fs_tokens))
        l0, l1, l2, l3 = lo
        h0, h1, h2, h3 = hi
        quad = np.array(
            [
                [-1, -1, 0, 1, l0, l1, l2, l3],
                [1, -1, 0, 1, h0, l1, h2, l3],
                [-1, 1, 0, 1, l0, h1, l2, h3],
                [1, -1, 0, 1, h0, l1, h2, l3],
                [1, 1, 0, 1, h0, h1, h2, h3],
                [-1, 1, 0, 1, l0, h1, l2, h3],
            ],
            np.float32,
        )
        ctx.set_vertex_buffers([VertexBuffer(buffer=vertex_buffer(ctx.screen, quad), stride=32)])
        ctx.draw_vbo(DrawInfo(mode=Prim.TRIANGLES, start=0, count=6))
        return read_rgba32f(ctx.screen, self.color) if read else None


def delivered_caps(screen):
    """The screen's caps (``param`` / ``paramf`` / ``shader``): the ``shaders``
    and ``draw`` rows are delivered, so this is what get_param answers."""
    return screen.caps


def read_int(screen, res, signed=False):
    """Texel rows of a 32-bit integer RGBA 2D texture via glGetTexImage (scratch unit)."""
    gl = screen.host.gl
    out = np.zeros((res.height0, res.width0, 4), np.int32 if signed else np.uint32)
    gl.glActiveTexture(gl.GL_TEXTURE0 + screen.host.scratch_texture_unit)
    gl.glBindTexture(gl.GL_TEXTURE_2D, res.gl_object)
    gl.glGetTexImage(gl.GL_TEXTURE_2D, 0, gl.GL_RGBA_INTEGER, gl.GL_INT if signed else gl.GL_UNSIGNED_INT, out)
    gl.glBindTexture(gl.GL_TEXTURE_2D, 0)
    return out


# --------------------------------------------------------------------------
# numpy model of GL texture addressing and filtering (GL 4.5 §8.14.2)
# --------------------------------------------------------------------------

BORDER = -1  # index meaning "the border colour"


def _mirror(a):
    return np.where(a >= 0, a, -(1 + a))


def wrap_coord(s, mode, linear):
    """The coordinate transform some wraps apply before addressing: GL_CLAMP clamps
    s to [0, 1]; the mirror-once modes take |s| (MIRROR_CLAMP also clamps to 1)."""
    if mode == TexWrap.CLAMP:
        return np.clip(s, 0.0, 1.0)
    if mode == TexWrap.MIRROR_CLAMP:
        return np.minimum(np.abs(s), 1.0)
    if mode in (TexWrap.MIRROR_CLAMP_TO_EDGE, TexWrap.MIRROR_CLAMP_TO_BORDER):
        return np.abs(s)
    return s


def wrap_index(i, size, mode, linear):
    """GL's wrap(i) for integer texel indices (table 8.20 + EXT_texture_mirror_clamp);
    BORDER where the border colour is read."""
    i = np.asarray(i, np.int64)
    if mode == TexWrap.REPEAT:
        return np.mod(i, size)
    if mode == TexWrap.MIRROR_REPEAT:
        return (size - 1) - _mirror(np.mod(i, 2 * size) - size)
    border = mode in (TexWrap.CLAMP_TO_BORDER, TexWrap.MIRROR_CLAMP_TO_BORDER) or (
        linear and mode in (TexWrap.CLAMP, TexWrap.MIRROR_CLAMP)
    )
    if border:
        j = np.clip(i, -1, size)
        return np.where((j < 0) | (j >= size), BORDER, j)
    return np.clip(i, 0, size - 1)  # CLAMP_TO_EDGE, MIRROR_CLAMP_TO_EDGE, CLAMP / MIRROR_CLAMP nearest


def sample_2d(tex, border, s, t, wrap_s, wrap_t, linear):
    """Sample ``tex`` ((h, w, C) array) at normalized (s, t) arrays the GL way."""
    h, w = tex.shape[:2]
    s = wrap_coord(s, wrap_s, linear)
    t = wrap_coord(t, wrap_t, linear)
    u, v = s * w, t * h
    border = np.asarray(border, np.float64)

    def fetch(i, j):
        ii, jj = wrap_index(i, w, wrap_s, linear), wrap_index(j, h, wrap_t, linear)
        out = tex[np.clip(jj, 0, h - 1), np.clip(ii, 0, w - 1)].astype(np.float64)
        out[(ii == BORDER) | (jj == BORDER)] = border
        return out

    if not linear:
        return fetch(np.floor(u).astype(np.int64), np.floor(v).astype(np.int64))
    i0, j0 = np.floor(u - 0.5).astype(np.int64), np.floor(v - 0.5).astype(np.int64)
    a = (u - 0.5 - np.floor(u - 0.5))[..., None]
    b = (v - 0.5 - np.floor(v - 0.5))[..., None]
    return (
        (1 - a) * (1 - b) * fetch(i0, j0)
        + a * (1 - b) * fetch(i0 + 1, j0)
        + (1 - a) * b * fetch(i0, j0 + 1)
        + a * b * fetch(i0 + 1, j0 + 1)
    )


def view_2d(ctx, res, fmt=None, **kw):
    """A TEXTURE_2D sampler view of ``res`` covering its levels unless told."""
    kw.setdefault("last_level", res.last_level)
    return ctx.create_sampler_view(res, SamplerViewTemplate(format=fmt or res.format, target=Target.TEXTURE_2D, **kw))


def bind_sampling(ctx, view, sampler, stage=ShaderType.FRAGMENT, slot=0):
    """Bind ``view`` and ``sampler`` at ``slot`` of ``stage``."""
    ctx.set_sampler_views(stage, slot, [view])
    ctx.bind_sampler_states(stage, slot, [sampler])


def nearest(**kw) -> SamplerState:
    """A NEAREST, no-mip sampler (wraps etc. from ``kw``)."""
    base = {
        "min_img_filter": glpipe.TexFilter.NEAREST,
        "mag_img_filter": glpipe.TexFilter.NEAREST,
        "min_mip_filter": glpipe.TexMipFilter.NONE,
    }
    base.update(kw)
    return SamplerState(**base)


def linear(**kw) -> SamplerState:
    """A LINEAR, no-mip sampler."""
    base = {
        "min_img_filter": glpipe.TexFilter.LINEAR,
        "mag_img_filter": glpipe.TexFilter.LINEAR,
        "min_mip_filter": glpipe.TexMipFilter.NONE,
    }
    base.update(kw)
    return SamplerState(**base)
