"""pipe_context::clear_texture and clear_buffer (the resource-clear area,
``ResourceClearPart``).

context.rst "Clearing": clear_texture fills a box of one level with a value
given in the resource's own format (one texel, or one block of a compressed
format); clear_buffer repeats a ``clear_value`` of n bytes over
[offset, offset + size), both multiples of n.  The ladder (docs/blits.md):
glClearTexSubImage / glClearBufferSubData where the host has them and its
texels are Gallium's bytes; a clear through a surface for multisampled
textures; the transfers (numpy tiles) for the rest.
"""

from __future__ import annotations

import ctypes

import numpy as np

from fallback.format_pack import unpack_rgba
from lowering.errors import InvalidArgumentError

from . import blit_gl
from .boundary import span, uint64
from .copy import check_level, texture_box
from .enums import Clear, Map, Target
from .formats import util_format_description
from .part import Area, Part
from .resource import Resource
from .templates import Box, SurfaceTemplate

# Pattern size -> (internal format, format, type) of glClearBufferSubData:
# unsigned integer formats, whose texels are the pattern's bytes unchanged.
_BUFFER_FORMATS = {
    1: ("GL_R8UI", "GL_RED_INTEGER", "GL_UNSIGNED_BYTE"),
    2: ("GL_R16UI", "GL_RED_INTEGER", "GL_UNSIGNED_SHORT"),
    4: ("GL_R32UI", "GL_RED_INTEGER", "GL_UNSIGNED_INT"),
    8: ("GL_RG32UI", "GL_RG_INTEGER", "GL_UNSIGNED_INT"),
    12: ("GL_RGB32UI", "GL_RGB_INTEGER", "GL_UNSIGNED_INT"),
    16: ("GL_RGBA32UI", "GL_RGBA_INTEGER", "GL_UNSIGNED_INT"),
}


def _value_bytes(data, n: int, what: str) -> np.ndarray:
    """The first ``n`` bytes of a buffer-protocol object (at least ``n`` long)."""
    if isinstance(data, (str, int, float)) or data is None:
        raise InvalidArgumentError(f"{what} must be bytes (a buffer-protocol object), got {type(data).__name__}")
    try:
        raw = np.frombuffer(memoryview(data).cast("B"), np.uint8)
    except (TypeError, ValueError):
        raise InvalidArgumentError(f"{what} must be a C-contiguous buffer, got {type(data).__name__}") from None
    if raw.size < n:
        raise InvalidArgumentError(f"{what} holds {raw.size} bytes; one texel of the format needs {n}")
    return raw[:n].copy()


class ResourceClearPart(Part):
    """The resource-clear area: clear_texture, clear_buffer."""

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        profile = ctx.screen.profile
        self._clear_texture = profile.has("clear_texture")
        self._clear_buffer = profile.has("clear_buffer_object")
        #: The rung the last clear_texture took (docs/blits.md; tests read it).
        self.last_rung = ""

    def clear_texture(self, res: Resource, level: int, box: Box, data: bytes) -> None:
        """pipe_context::clear_texture: fill ``box`` of ``level`` of texture
        ``res`` with the texel ``data`` (bytes in the resource's format: one
        block of a compressed format).  A box outside the level or short
        data raise InvalidArgumentError, changing nothing."""
        what = "clear_texture"
        ctx = self.ctx
        ctx.check_alive(what)
        ctx._check_resource(res, what)
        if res.target == Target.BUFFER:
            raise InvalidArgumentError(f"{what}: {res!r} is a BUFFER (use clear_buffer)")
        level = check_level(res, level, what)
        tb = texture_box(res, level, box, what)
        desc = util_format_description(res.format)
        value = _value_bytes(data, desc.blocksize, f"{what}: data")
        bw, bh = desc.block_width, desc.block_height
        if tb.x % bw or tb.y % bh or (tb.w % bw and tb.x + tb.w != tb.lw) or (tb.h % bh and tb.y + tb.h != tb.lh):
            raise InvalidArgumentError(f"{what}: box {box!r} is not aligned to {desc.name}'s {bw}x{bh} blocks")
        ctx.host.make_current()
        if self._clear_texture and blit_gl.faithful(res) and not desc.is_compressed:
            self._gl_clear_texture(res, level, tb, value)
            self.last_rung = "glClearTexSubImage"
        elif res.nr_samples > 1:
            self._clear_through_surface(res, level, tb, value, desc)
            self.last_rung = "surface"
        else:
            nbx, nby = -(-tb.w // bw), -(-tb.h // bh)
            tiled = np.tile(value, (tb.d, nby, nbx))
            stride = nbx * desc.blocksize
            h = 1 if res.target in (Target.TEXTURE_1D, Target.TEXTURE_1D_ARRAY) else tb.h
            wbox = Box(x=tb.x, y=tb.y, z=tb.z, width=tb.w, height=h, depth=tb.d)
            ctx.texture_subdata(res, level, Map.WRITE, wbox, tiled, stride, stride * nby)
            self.last_rung = "numpy"
        ctx.host.check(what)

    def _gl_clear_texture(self, res, level: int, tb, value: np.ndarray) -> None:
        """glClearTexSubImage with the texel in the host's transfer layout,
        which for a faithful storage is Gallium's bytes (glpipe/blit_gl.py).
        Layers and faces are z (GL 4.5 §8.21), as in Gallium's boxes."""
        gl = self.ctx.gl
        storage = res.storage
        y, h = (tb.z, tb.d) if res.target == Target.TEXTURE_1D_ARRAY else (tb.y, tb.h)
        z, d = (0, 1) if res.target == Target.TEXTURE_1D_ARRAY else (tb.z, tb.d)
        gl.glClearTexSubImage(
            res.gl_object,
            level,
            tb.x,
            y,
            z,
            tb.w,
            h,
            d,
            storage.gl_format,
            storage.gl_type,
            ctypes.c_void_p(value.ctypes.data),
        )

    def _clear_through_surface(self, res, level: int, tb, value: np.ndarray, desc) -> None:
        """A multisampled texture without glClearTexSubImage: the texel as a
        colour (or depth / stencil) through clear_render_target /
        clear_depth_stencil of a surface over the box's layers."""
        ctx = self.ctx
        rgba = unpack_rgba(res.format, value, 1, decode_srgb=True)[0]
        surf = ctx.create_surface(
            res, SurfaceTemplate(format=res.format, level=level, first_layer=tb.z, last_layer=tb.z + tb.d - 1)
        )
        try:
            if desc.is_depth_or_stencil:
                flags = (Clear.DEPTH if desc.is_depth else 0) | (Clear.STENCIL if desc.is_stencil else 0)
                ctx.clear_depth_stencil(surf, flags, float(rgba[0]), int(rgba[1]), tb.x, tb.y, tb.w, tb.h, False)
            else:
                color = tuple(int(c) for c in rgba) if desc.is_pure_integer else tuple(float(c) for c in rgba)
                ctx.clear_render_target(surf, color, tb.x, tb.y, tb.w, tb.h, False)
        finally:
            ctx.surface_destroy(surf)

    def clear_buffer(self, res: Resource, offset: int, size: int, clear_value: bytes) -> None:
        """pipe_context::clear_buffer: repeat ``clear_value`` (1, 2, 4, 8,
        12 or 16 bytes) over bytes [offset, offset + size) of buffer ``res``;
        offset and size must be multiples of its length (context.rst)."""
        what = "clear_buffer"
        ctx = self.ctx
        ctx.check_alive(what)
        ctx._check_resource(res, what)
        if res.target != Target.BUFFER:
            raise InvalidArgumentError(f"{what}: {res!r} is not a BUFFER (use clear_texture)")
        offset = uint64(offset, f"{what}: offset")
        size = uint64(size, f"{what}: size")
        try:
            n = memoryview(clear_value).nbytes if not isinstance(clear_value, (str, int, float)) else -1
        except TypeError:
            n = -1
        if n not in _BUFFER_FORMATS:
            raise InvalidArgumentError(
                f"{what}: clear_value must be a buffer of 1, 2, 4, 8, 12 or 16 bytes, got {clear_value!r:.40}"
            )
        value = _value_bytes(clear_value, n, f"{what}: clear_value")
        if offset % n or size % n:
            raise InvalidArgumentError(
                f"{what}: offset {offset} and size {size} must be multiples of the {n}-byte value"
            )
        span(offset, size, res.width0, f"{what}: bytes")
        if size == 0:
            return
        ctx.host.make_current()
        if self._clear_buffer:
            gl = ctx.gl
            ifmt, fmt, typ = (getattr(gl, name) for name in _BUFFER_FORMATS[n])
            prev = int(gl.glGetIntegerv(gl.GL_COPY_WRITE_BUFFER_BINDING))
            gl.glBindBuffer(gl.GL_COPY_WRITE_BUFFER, res.gl_object)
            try:
                gl.glClearBufferSubData(
                    gl.GL_COPY_WRITE_BUFFER, ifmt, offset, size, fmt, typ, ctypes.c_void_p(value.ctypes.data)
                )
            finally:
                gl.glBindBuffer(gl.GL_COPY_WRITE_BUFFER, prev)
        else:
            ctx.buffer_subdata(res, Map.WRITE, offset, np.tile(value, size // n))
        ctx.host.check(what)


AREA = Area("resource_clear_part", part=ResourceClearPart, methods=("clear_texture", "clear_buffer"))

__all__ = ["AREA", "ResourceClearPart"]
