"""The host GL rungs of the copy / blit ladder (docs/blits.md):
``glCopyImageSubData`` and ``glBlitFramebuffer`` between layers of two
resources, with the rules deciding when each is *exact* for a request.

Shared by resource_copy_region (glpipe/copy.py) and blit (glpipe/blit.py).
Each call leaves the context's host state marked for re-emission the way the
clears do (glpipe/clear.py): the framebuffer, scissor and rasterizer blocks
are dirtied and other contexts of the screen forget their shadows.
"""

from __future__ import annotations

from lowering.errors import HostGLError

from .dirty import Dirty
from .enums import Target
from .formats import host_decodes, util_format_description

# How one layer of a level attaches to an FBO, per target (GL 4.5 §9.2.8):
# "layer": glFramebufferTextureLayer (arrays, 3D slices, cube arrays);
# "cube": glFramebufferTexture2D with the face's target; "1d" / "2d": the
# level itself (MSAA 2D: its multisample target).
_ATTACH_KIND = {
    Target.TEXTURE_1D: "1d",
    Target.TEXTURE_2D: "2d",
    Target.TEXTURE_RECT: "2d",
    Target.TEXTURE_CUBE: "cube",
    Target.TEXTURE_1D_ARRAY: "layer",
    Target.TEXTURE_2D_ARRAY: "layer",
    Target.TEXTURE_3D: "layer",
    Target.TEXTURE_CUBE_ARRAY: "layer",
}

# GL pixel formats / types whose client layout is the texel's own byte
# layout (no component reordering, no packing): a raw copy of such host
# texels is a copy of Gallium's bytes.
_CANONICAL_FORMATS = frozenset(
    ("GL_RED", "GL_RG", "GL_RGB", "GL_RGBA", "GL_RED_INTEGER", "GL_RG_INTEGER", "GL_RGB_INTEGER", "GL_RGBA_INTEGER")
)
_CANONICAL_TYPES = frozenset(
    (
        "GL_UNSIGNED_BYTE",
        "GL_BYTE",
        "GL_UNSIGNED_SHORT",
        "GL_SHORT",
        "GL_UNSIGNED_INT",
        "GL_INT",
        "GL_HALF_FLOAT",
        "GL_FLOAT",
    )
)


def faithful(res) -> bool:
    """The host holds ``res``'s texels as Gallium's bytes: no conversion on
    transfer (``transfer_as``) and no decoded compressed shadow."""
    storage = res.storage
    return storage.transfer_as is None and not host_decodes(util_format_description(res.format), storage)


def same_storage(a, b) -> bool:
    """Both resources are held in the same host internal format, filled the
    same way (so host texels correspond one to one)."""
    sa, sb = a.storage, b.storage
    return (sa.internal_format, sa.gl_format, sa.gl_type, sa.transfer_as) == (
        sb.internal_format,
        sb.gl_format,
        sb.gl_type,
        sb.transfer_as,
    )


def depth_blit_exact(desc) -> bool:
    """glBlitFramebuffer keeps this depth channel exactly: float, or unorm of
    at most 16 bits.  (GL blits depth through floats: llvmpipe returns 24-bit
    unorm depth off by one in the low bits.)"""
    depth = desc.channels[int(desc.swizzle[0])]
    return depth.type.name == "FLOAT" or depth.size <= 16


def blit_copy_exact(renderable, dst, src) -> bool:
    """A 1:1 NEAREST glBlitFramebuffer between these single-sampled
    textures is a byte copy: one Gallium format held in one renderable host
    format without conversion, whose every channel survives the blit's
    float round trip -- unorm (k / (2^b - 1) converts back to k for b <= 16
    under any rounding, GL 4.5 §2.3.5), not sRGB (decode / encode), or pure
    integers (copied as integers, §18.3.1).  snorm is not (-128 and -127
    both read as -1.0), floats are not (NaN payloads and denormals need not
    survive), nor padding channels (X: the host may write anything).
    ``renderable(format, target)``: the host renders to that format
    (is_format_supported with RENDER_TARGET, cached by the caller)."""
    if src.format != dst.format or src.nr_samples > 1 or dst.nr_samples > 1:
        return False
    desc = util_format_description(src.format)
    if desc.is_compressed or desc.is_depth_or_stencil or desc.is_srgb or not desc.is_plain:
        return False
    kinds = {c.type.name for c in desc.channels[: desc.nr_channels]}
    unorm = kinds == {"UNORM"} and all(c.size <= 16 for c in desc.channels[: desc.nr_channels])
    if not (unorm or (desc.is_pure_integer and "VOID" not in kinds)):
        return False
    if not (same_storage(dst, src) and faithful(src)):
        return False
    return renderable(src.format, src.target) and renderable(dst.format, dst.target)


def _canonical(res) -> bool:
    s = res.storage
    if s.compressed:
        return faithful(res)
    return faithful(res) and s.gl_format_name in _CANONICAL_FORMATS and s.gl_type_name in _CANONICAL_TYPES


def copy_image_exact(dst, src) -> bool:
    """glCopyImageSubData copies raw host texels: exact for Gallium's
    byte copy when both hosts hold the same internal format, or when both
    hold Gallium's bytes in their canonical layout (GL 4.5 §18.3.3: copies
    between internal formats of one size, and compressed <-> uncompressed of
    equal block / texel size).  Depth/stencil only between identical formats."""
    zs = util_format_description(src.format).is_depth_or_stencil
    if zs or util_format_description(dst.format).is_depth_or_stencil:
        return same_storage(dst, src) and src.format == dst.format
    if same_storage(dst, src):
        return faithful(src) or src.format == dst.format
    return _canonical(dst) and _canonical(src)


def copy_image(ctx, dst, dst_level, dst_xyz, src, src_level, src_box) -> None:
    """glCopyImageSubData of ``src_box`` (texels of src) to ``dst_xyz``.
    Layers, cube faces and 3D slices are all z (GL 4.5 §18.3.3: "slices of
    a TEXTURE_1D_ARRAY ... are specified with srcZ and srcDepth"), as in
    Gallium's boxes."""
    gl = ctx.gl
    w, h, d = src_box.width, src_box.height, src_box.depth
    sx, sy, sz = src_box.x, src_box.y, src_box.z
    dx, dy, dz = dst_xyz
    gl.glCopyImageSubData(
        src.gl_object,
        src.gl_target,
        src_level,
        sx,
        sy,
        sz,
        dst.gl_object,
        dst.gl_target,
        dst_level,
        dx,
        dy,
        dz,
        w,
        max(h, 1),
        max(d, 1),
    )


def copy_buffer(ctx, dst, dst_offset: int, src, src_offset: int, size: int) -> None:
    """glCopyBufferSubData through the COPY_READ / COPY_WRITE bindings
    (no draw state depends on them), restored afterwards."""
    gl = ctx.gl
    prev_r = int(gl.glGetIntegerv(gl.GL_COPY_READ_BUFFER_BINDING))
    prev_w = int(gl.glGetIntegerv(gl.GL_COPY_WRITE_BUFFER_BINDING))
    gl.glBindBuffer(gl.GL_COPY_READ_BUFFER, src.gl_object)
    gl.glBindBuffer(gl.GL_COPY_WRITE_BUFFER, dst.gl_object)
    try:
        gl.glCopyBufferSubData(gl.GL_COPY_READ_BUFFER, gl.GL_COPY_WRITE_BUFFER, src_offset, dst_offset, size)
    finally:
        gl.glBindBuffer(gl.GL_COPY_READ_BUFFER, prev_r)
        gl.glBindBuffer(gl.GL_COPY_WRITE_BUFFER, prev_w)


def attachment_of(gl, fmt) -> int:
    """The FBO attachment point a layer of format ``fmt`` goes to."""
    desc = util_format_description(fmt)
    if desc.is_depth and desc.is_stencil:
        return gl.GL_DEPTH_STENCIL_ATTACHMENT
    if desc.is_depth:
        return gl.GL_DEPTH_ATTACHMENT
    if desc.is_stencil:
        return gl.GL_STENCIL_ATTACHMENT
    return gl.GL_COLOR_ATTACHMENT0


def _attach(gl, fb_target: int, att: int, res, level: int, layer: int) -> None:
    tex = res.gl_object
    kind = _ATTACH_KIND[res.target]
    if kind == "layer":
        gl.glFramebufferTextureLayer(fb_target, att, tex, level, layer)
    elif kind == "cube":
        gl.glFramebufferTexture2D(fb_target, att, gl.GL_TEXTURE_CUBE_MAP_POSITIVE_X + layer, tex, level)
    elif kind == "1d":
        gl.glFramebufferTexture1D(fb_target, att, res.gl_target, tex, level)
    else:
        gl.glFramebufferTexture2D(fb_target, att, res.gl_target, tex, level)


class FramebufferBlitter:
    """Two private FBOs (read, draw) of one context and glBlitFramebuffer
    between layers attached to them.  ``destroy`` deletes them."""

    def __init__(self, ctx) -> None:
        self.ctx = ctx
        self._fbos: tuple[int, int] | None = None

    def destroy(self) -> None:
        """Delete the private FBOs (Context.destroy)."""
        if self._fbos is not None:
            self.ctx.gl.glDeleteFramebuffers(2, list(self._fbos))
            self._fbos = None

    def _bind(self) -> tuple[int, int]:
        gl = self.ctx.gl
        if self._fbos is None:
            names = gl.glGenFramebuffers(2)
            self._fbos = (int(names[0]), int(names[1]))
        gl.glBindFramebuffer(gl.GL_READ_FRAMEBUFFER, self._fbos[0])
        gl.glBindFramebuffer(gl.GL_DRAW_FRAMEBUFFER, self._fbos[1])
        return self._fbos

    def blit_layers(self, dst, dst_level, src, src_level, pairs, rects, mask_bits, linear, scissor=None) -> None:
        """For each (src layer, dst layer) of ``pairs``: glBlitFramebuffer of
        ``rects`` = (sx0, sy0, sx1, sy1, dx0, dy0, dx1, dy1) with ``mask_bits``
        (GL_COLOR/DEPTH/STENCIL_BUFFER_BIT) and NEAREST or LINEAR.  Only the
        scissor test (``scissor``: None or (x, y, w, h)) and, off here,
        sRGB conversion and rasterizer discard act on a blit (GL 4.5 §18.3.1)."""
        ctx, gl = self.ctx, self.ctx.gl
        ctx.host.make_current()
        ctx.dirty |= Dirty.FRAMEBUFFER | Dirty.RASTERIZER | Dirty.SCISSOR
        ctx._forget_other_contexts()
        read_fbo, draw_fbo = self._bind()
        src_att, dst_att = attachment_of(gl, src.format), attachment_of(gl, dst.format)
        color = src_att == gl.GL_COLOR_ATTACHMENT0
        if color:
            gl.glReadBuffer(gl.GL_COLOR_ATTACHMENT0)
            gl.glDrawBuffers(1, [gl.GL_COLOR_ATTACHMENT0])
        else:
            gl.glReadBuffer(gl.GL_NONE)
            gl.glDrawBuffer(gl.GL_NONE)
        srgb = bool(gl.glIsEnabled(gl.GL_FRAMEBUFFER_SRGB))
        if srgb:
            gl.glDisable(gl.GL_FRAMEBUFFER_SRGB)
        gl.glDisable(gl.GL_RASTERIZER_DISCARD)
        if scissor is None:
            gl.glDisable(gl.GL_SCISSOR_TEST)
        else:
            gl.glEnable(gl.GL_SCISSOR_TEST)
            gl.glScissor(*scissor)
        try:
            for s_layer, d_layer in pairs:
                _attach(gl, gl.GL_READ_FRAMEBUFFER, src_att, src, src_level, s_layer)
                _attach(gl, gl.GL_DRAW_FRAMEBUFFER, dst_att, dst, dst_level, d_layer)
                for fb in (gl.GL_READ_FRAMEBUFFER, gl.GL_DRAW_FRAMEBUFFER):
                    status = gl.glCheckFramebufferStatus(fb)
                    if status != gl.GL_FRAMEBUFFER_COMPLETE:
                        ctx.host.clear_errors()
                        raise HostGLError(
                            f"blit: the host cannot attach {src!r} / {dst!r} (status 0x{int(status):04x})"
                        )
                gl.glBlitFramebuffer(*rects, mask_bits, gl.GL_LINEAR if linear else gl.GL_NEAREST)
        finally:
            for fb, att in ((gl.GL_READ_FRAMEBUFFER, src_att), (gl.GL_DRAW_FRAMEBUFFER, dst_att)):
                gl.glFramebufferRenderbuffer(fb, att, gl.GL_RENDERBUFFER, 0)
            if srgb:
                gl.glEnable(gl.GL_FRAMEBUFFER_SRGB)
            if scissor is not None:
                gl.glDisable(gl.GL_SCISSOR_TEST)
            gl.glBindFramebuffer(gl.GL_FRAMEBUFFER, 0)


__all__ = [
    "FramebufferBlitter",
    "attachment_of",
    "blit_copy_exact",
    "copy_buffer",
    "copy_image",
    "copy_image_exact",
    "depth_blit_exact",
    "faithful",
    "same_storage",
]
