"""pipe_context::resource_copy_region (the copy area, ``CopyPart``).

context.rst "Blitting": a memcpy between resources of the same or
copy-compatible formats (same block size; compressed <-> plain where
COPY_BETWEEN_COMPRESSED_AND_PLAIN_FORMATS says so); source and destination
may be one resource but must not overlap.  The ladder, cheapest first, each
rung only where exact (docs/blits.md): glCopyBufferSubData for buffers;
glCopyImageSubData; glBlitFramebuffer (same storage, 1:1, NEAREST: the MSAA
copies of a host without copy_image); the transfers (numpy bytes) for the rest.
"""

from __future__ import annotations

from typing import NamedTuple

from lowering.errors import InvalidArgumentError, UnsupportedError

from . import blit_gl
from .boundary import instance, int32, span, uint32
from .enums import Bind, Cap, Map, Target
from .formats import util_format_description
from .part import Area, Part
from .resource import Resource
from .templates import Box

_ONE_D = (Target.TEXTURE_1D, Target.TEXTURE_1D_ARRAY)


class TexBox(NamedTuple):
    """A box of one level, validated: texels (x, y, z, w, h, d) with y/h of a
    1D target normalised to 0/1, and the level's extent (lw, lh, ld)."""

    x: int
    y: int
    z: int
    w: int
    h: int
    d: int
    lw: int
    lh: int
    ld: int


def check_level(res, level, what: str) -> int:
    """``level`` as an int inside ``res``'s mip chain."""
    level = uint32(level, f"{what}: level")
    if level > res.last_level:
        raise InvalidArgumentError(f"{what}: level {level} outside the resource's levels 0..{res.last_level}")
    return level


def texture_box(res, level: int, box, what: str, allow_negative: bool = False) -> TexBox:
    """``box`` of ``level`` of texture ``res``: inside the level.  With
    ``allow_negative`` (a blit source) a negative width / height / depth
    mirrors, covering [x + width, x), and x / y may reach past the level."""
    box = instance(box, Box, f"{what}: box")
    lw, lh, ld = res.level_extent(level)
    x, y, z, w, h, d = box.x, box.y, box.z, box.width, box.height, box.depth
    if res.target in _ONE_D:
        if y != 0 or h not in (0, 1, -1):
            raise InvalidArgumentError(f"{what}: box {box!r}: a {res.target.name} has no y (y 0, height 1)")
        h = 1 if h == 0 else h
    for name, value in (("x", x), ("y", y), ("z", z), ("width", w), ("height", h), ("depth", d)):
        int32(value, f"{what}: box.{name}")
    if w == 0 or h == 0 or d == 0 or (not allow_negative and (w < 0 or h < 0 or d < 0)):
        raise InvalidArgumentError(f"{what}: box {box!r} is empty or negative")
    # A blit source may reach past the level in x and y (the blit clamps to
    # the edge, as u_blitter's CLAMP_TO_EDGE sampler does); its layers must exist.
    axes = ((z, d, ld, "z"),) if allow_negative else ((x, w, lw, "x"), (y, h, lh, "y"), (z, d, ld, "z"))
    for start, count, limit, axis in axes:
        lo = min(start, start + count)
        span(lo, abs(count), limit, f"{what}: box {axis} range of level {level} ({lw}x{lh}x{ld})")
    return TexBox(x, y, z, w, h, d, lw, lh, ld)


def _blocks(desc, tb: TexBox, what: str) -> tuple:
    """(bx, by, nbx, nby) of a texel box, which must be block aligned (or
    end at the level's edge)."""
    bw, bh = desc.block_width, desc.block_height
    if tb.x % bw or tb.y % bh or (tb.w % bw and tb.x + tb.w != tb.lw) or (tb.h % bh and tb.y + tb.h != tb.lh):
        raise InvalidArgumentError(
            f"{what}: box ({tb.x}, {tb.y}) {tb.w}x{tb.h} of {desc.name} must be aligned to its {bw}x{bh} blocks"
        )
    return tb.x // bw, tb.y // bh, -(-tb.w // bw), -(-tb.h // bh)


class CopyPart(Part):
    """The copy area: resource_copy_region."""

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        self.fb_blitter = blit_gl.FramebufferBlitter(ctx)
        self._copy_image = ctx.screen.profile.has("copy_image")
        self._renderable_cache: dict = {}
        #: The rung the last texture copy took (docs/blits.md; tests read it).
        self.last_rung = ""

    def destroy(self) -> None:
        """Delete the private FBOs (Context.destroy)."""
        self.fb_blitter.destroy()

    def resource_copy_region(
        self,
        dst: Resource,
        dst_level: int,
        dstx: int,
        dsty: int,
        dstz: int,
        src: Resource,
        src_level: int,
        src_box: Box,
    ) -> None:
        """pipe_context::resource_copy_region: copy ``src_box`` of
        ``src_level`` of ``src`` unmodified to (``dstx``, ``dsty``, ``dstz``)
        of ``dst_level`` of ``dst`` (context.rst "Blitting").  Boxes outside
        a level, overlapping regions of one resource, incompatible formats
        and unequal sample counts raise InvalidArgumentError, changing nothing."""
        what = "resource_copy_region"
        ctx = self.ctx
        ctx.check_alive(what)
        ctx._check_resource(dst, f"{what}: dst")
        ctx._check_resource(src, f"{what}: src")
        dstx, dsty, dstz = (uint32(v, f"{what}: dst{n}") for v, n in ((dstx, "x"), (dsty, "y"), (dstz, "z")))
        if (dst.target == Target.BUFFER) != (src.target == Target.BUFFER):
            raise InvalidArgumentError(
                f"{what}: copies are buffer to buffer or texture to texture, not {src!r} to {dst!r}"
            )
        if dst.target == Target.BUFFER:
            self._copy_buffers(dst, dst_level, dstx, dsty, dstz, src, src_level, src_box, what)
            return
        dst_level = check_level(dst, dst_level, f"{what}: dst")
        src_level = check_level(src, src_level, f"{what}: src")
        sb = texture_box(src, src_level, src_box, f"{what}: src")
        sdesc, ddesc = util_format_description(src.format), util_format_description(dst.format)
        self._check_formats(dst, src, sdesc, ddesc, what)
        bx, by, nbx, nby = _blocks(sdesc, sb, f"{what}: src")
        if dst.target in _ONE_D and dsty != 0:
            raise InvalidArgumentError(f"{what}: dsty must be 0 for a {dst.target.name}, got {dsty}")
        dw_, dh_, dd_ = dst.level_extent(dst_level)
        dbw, dbh = ddesc.block_width, ddesc.block_height
        if dstx % dbw or dsty % dbh:
            raise InvalidArgumentError(f"{what}: ({dstx}, {dsty}) is not aligned to {ddesc.name}'s {dbw}x{dbh} blocks")
        span(dstx // dbw, nbx, -(-dw_ // dbw), f"{what}: dst x range (blocks) of level {dst_level}")
        span(dsty // dbh, nby, -(-dh_ // dbh), f"{what}: dst y range (blocks) of level {dst_level}")
        span(dstz, sb.d, dd_, f"{what}: dst z range of level {dst_level}")
        # The destination region in its texels: as many blocks as the source
        # (the last block of a compressed level may reach past its edge).
        dw, dh = min(nbx * dbw, dw_ - dstx), min(nby * dbh, dh_ - dsty)
        if dst is src and dst_level == src_level:
            apart = dstx >= sb.x + sb.w or sb.x >= dstx + dw or dsty >= sb.y + sb.h or sb.y >= dsty + dh
            if not (apart or dstz >= sb.z + sb.d or sb.z >= dstz + sb.d):
                raise InvalidArgumentError(
                    f"{what}: source and destination regions of {src!r} overlap (context.rst forbids it)"
                )
        ctx.host.make_current()
        dst_box = Box(x=dstx, y=dsty, z=dstz, width=dw, height=dh if dst.target not in _ONE_D else 1, depth=sb.d)
        self.last_rung = self.copy_texture(dst, dst_level, dst_box, src, src_level, sb)
        ctx.host.check(what)

    # -- the rungs --------------------------------------------------------------

    def texture_rung(self, dst, src) -> str | None:
        """The rung of the texture ladder exact for copying ``src`` to
        ``dst`` on this host: "copy_image", "blit_framebuffer", "numpy", or
        None when none is (multisampled textures without copy_image whose
        host formats differ or whose depth a blit would round)."""
        if self._copy_image and blit_gl.copy_image_exact(dst, src):
            return "copy_image"
        if src.nr_samples > 1 or dst.nr_samples > 1:
            desc = util_format_description(src.format)
            if not blit_gl.same_storage(dst, src) or (desc.is_depth and not blit_gl.depth_blit_exact(desc)):
                return None  # the transfers cannot carry multisampled texels
            return "blit_framebuffer"
        if blit_gl.blit_copy_exact(self._renderable, dst, src):
            return "blit_framebuffer"  # one GL copy instead of two transfers (hosts without copy_image)
        return "numpy"

    def _renderable(self, fmt, target) -> bool:
        """is_format_supported(fmt, target, RENDER_TARGET), asked once per
        pair (it costs ~0.25 ms: a copy's fixed cost)."""
        key = (fmt, target)
        ok = self._renderable_cache.get(key)
        if ok is None:
            ok = self._renderable_cache[key] = bool(
                self.ctx.screen.is_format_supported(fmt, target, 0, 0, Bind.RENDER_TARGET)
            )
        return ok

    def copy_texture(self, dst, dst_level: int, dst_box: Box, src, src_level: int, sb: TexBox) -> str:
        """The texture ladder for a validated copy (also blit's first rung);
        returns the rung taken ("copy_image", "blit_framebuffer", "numpy")."""
        src_box = Box(x=sb.x, y=sb.y, z=sb.z, width=sb.w, height=sb.h, depth=sb.d)
        rung = self.texture_rung(dst, src)
        if rung is None:
            raise UnsupportedError(
                f"resource_copy_region: {src.format.name} -> {dst.format.name} between multisampled "
                f"textures needs glCopyImageSubData (copy_image), which the {self.ctx.screen.profile.name} "
                f"profile lacks"
            )
        if rung == "copy_image":
            blit_gl.copy_image(self.ctx, dst, dst_level, (dst_box.x, dst_box.y, dst_box.z), src, src_level, src_box)
        elif rung == "blit_framebuffer":
            self._blit_copy(dst, dst_level, dst_box, src, src_level, sb)
        else:
            # numpy: Gallium's bytes through the transfers (any format they carry).
            t = self.ctx.transfer_map(src, src_level, Map.READ, src_box)
            try:
                data = t.data.copy()
                stride, layer_stride = t.stride, t.layer_stride
            finally:
                self.ctx.transfer_unmap(t)
            self.ctx.texture_subdata(dst, dst_level, Map.WRITE, dst_box, data, stride, layer_stride)
        return rung

    def _blit_copy(self, dst, dst_level: int, dst_box: Box, src, src_level: int, sb: TexBox) -> None:
        """glBlitFramebuffer 1:1, NEAREST, layer by layer (the caller decided it is exact)."""
        bits = _mask_bits(self.ctx.gl, src.format)
        rect = (sb.x, sb.y, sb.x + sb.w, sb.y + sb.h, dst_box.x, dst_box.y, dst_box.x + sb.w, dst_box.y + sb.h)
        pairs = [(sb.z + i, dst_box.z + i) for i in range(sb.d)]
        self.fb_blitter.blit_layers(dst, dst_level, src, src_level, pairs, rect, bits, False)

    def _check_formats(self, dst, src, sdesc, ddesc, what: str) -> None:
        if src.nr_samples != dst.nr_samples:
            raise InvalidArgumentError(
                f"{what}: sample counts differ ({src.nr_samples} vs {dst.nr_samples}); resolve with a blit"
            )
        if sdesc.blocksize != ddesc.blocksize:
            raise InvalidArgumentError(
                f"{what}: {sdesc.name} and {ddesc.name} are not copy-compatible "
                f"({sdesc.blocksize} vs {ddesc.blocksize} bytes per block)"
            )
        if (sdesc.is_depth_or_stencil or ddesc.is_depth_or_stencil) and src.format != dst.format:
            raise InvalidArgumentError(
                f"{what}: depth/stencil copies need one format, got {sdesc.name} and {ddesc.name}"
            )
        if sdesc.is_compressed != ddesc.is_compressed:
            if not self.ctx.screen.get_param(Cap.COPY_BETWEEN_COMPRESSED_AND_PLAIN_FORMATS):
                raise UnsupportedError(
                    f"{what}: {sdesc.name} -> {ddesc.name}: PIPE_CAP_COPY_BETWEEN_COMPRESSED_AND_PLAIN_FORMATS is 0"
                )
        elif sdesc.is_compressed and (sdesc.block_width, sdesc.block_height) != (ddesc.block_width, ddesc.block_height):
            raise InvalidArgumentError(f"{what}: {sdesc.name} and {ddesc.name} have different block sizes")

    def _copy_buffers(self, dst, dst_level, dstx, dsty, dstz, src, src_level, src_box, what: str) -> None:
        if uint32(dst_level, f"{what}: dst_level") or uint32(src_level, f"{what}: src_level"):
            raise InvalidArgumentError(f"{what}: a buffer has only level 0")
        if dsty or dstz:
            raise InvalidArgumentError(f"{what}: a buffer destination has dsty = dstz = 0, got ({dsty}, {dstz})")
        box = instance(src_box, Box, f"{what}: src_box")
        if box.y or box.z or box.height not in (0, 1) or box.depth not in (0, 1):
            raise InvalidArgumentError(f"{what}: src_box {box!r}: a buffer box has y = z = 0 and height/depth 1")
        if box.width <= 0:
            raise InvalidArgumentError(f"{what}: src_box {box!r} is empty or negative")
        span(box.x, box.width, src.width0, f"{what}: src bytes")
        span(dstx, box.width, dst.width0, f"{what}: dst bytes")
        if dst is src and dstx < box.x + box.width and box.x < dstx + box.width:
            raise InvalidArgumentError(
                f"{what}: bytes [{box.x}, {box.x + box.width}) and [{dstx}, {dstx + box.width}) of one buffer overlap"
            )
        self.ctx.host.make_current()
        blit_gl.copy_buffer(self.ctx, dst, dstx, src, box.x, box.width)
        self.ctx.host.check(what)


def _mask_bits(gl, fmt) -> int:
    """glBlitFramebuffer's buffer bits for everything ``fmt`` holds."""
    desc = util_format_description(fmt)
    bits = 0
    if desc.is_depth:
        bits |= gl.GL_DEPTH_BUFFER_BIT
    if desc.is_stencil:
        bits |= gl.GL_STENCIL_BUFFER_BIT
    return bits or gl.GL_COLOR_BUFFER_BIT


AREA = Area(
    "copy_part",
    part=CopyPart,
    methods=("resource_copy_region",),
    destroy=CopyPart.destroy,
)

__all__ = ["AREA", "CopyPart", "TexBox", "check_level", "texture_box"]
