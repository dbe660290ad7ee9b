"""pipe_context::blit (the blit area, ``BlitPart``).

Every field of pipe_blit_info: scaling (mirrored with negative source
sizes), NEAREST / LINEAR, format conversion, mask, scissor, swizzle,
window rectangles, alpha_blend, MSAA resolves.  A ladder, cheapest first,
each rung taken only when it is exact for the request (docs/blits.md):
the copy area's texture ladder (glCopyImageSubData, or a 1:1
glBlitFramebuffer), glBlitFramebuffer, the shader blitter
(glpipe/blitter.py: multisampled blits, stencil included), the numpy rung
(fallback/blit.py) over the transfers.  A blit never counts toward a
user's queries: only the shader blitter draws, with the queries suspended.
"""

from __future__ import annotations

import dataclasses
from typing import NamedTuple

import numpy as np

from fallback import blit as np_blit
from lowering.errors import InvalidArgumentError, UnsupportedError

from . import blit_gl
from .blitter import ShaderBlitter
from .boundary import flags, instance, member, uint32
from .copy import TexBox, check_level, texture_box
from .enums import Bind, Map, Mask, Swizzle, Target, TexFilter
from .format_table import FormatDesc
from .formats import Format, util_format_description
from .part import Area, Part
from .resource import Resource
from .templates import BlitInfo, BlitSide, Box, ResourceTemplate, ScissorState

_IDENTITY = (Swizzle.X, Swizzle.Y, Swizzle.Z, Swizzle.W)
_COLOR_BITS = {0: Mask.R, 1: Mask.G, 2: Mask.B, 3: Mask.A}


class _Side(NamedTuple):
    res: Resource
    level: int
    box: TexBox
    format: Format
    desc: FormatDesc


def _channel_mask(desc) -> int:
    """The Mask bits a format has: its colour channels, or Z / S."""
    if desc.is_depth_or_stencil:
        return (Mask.Z if desc.is_depth else 0) | (Mask.S if desc.is_stencil else 0)
    bits = 0
    for comp, s in enumerate(desc.swizzle[:4]):
        if int(s) < 4:
            bits |= _COLOR_BITS[comp]
    return bits


def _rect(s: ScissorState, what: str) -> tuple:
    s = instance(s, ScissorState, what)
    return (s.minx, s.miny, s.maxx, s.maxy)


def _centres_off_edges(src_n: int, dst_n: int) -> bool:
    """No destination pixel centre of a NEAREST blit maps exactly onto a
    source texel edge: ``(2i + 1) * src_n / (2 * dst_n)`` is never an
    integer (then any correct host rounding picks the same texel)."""
    if abs(src_n) == dst_n:
        return True
    i = np.arange(dst_n, dtype=np.int64)
    return not bool(np.any(((2 * i + 1) * abs(src_n)) % (2 * dst_n) == 0))


class BlitPart(Part):
    """The blit area: blit."""

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        #: The rung the last blit took: "copy_image", "blit_framebuffer"
        #: (also a copy's), "shader", "numpy" (docs/blits.md; tests read it).
        self.last_rung = ""
        self._blitter: ShaderBlitter | None = None

    def destroy(self) -> None:
        """Delete the shader blitter's objects (Context.destroy)."""
        if self._blitter is not None:
            self._blitter.destroy()
            self._blitter = None

    # -- validation ------------------------------------------------------------

    def _side(self, side, name: str, dst: bool) -> _Side:
        what = f"blit: {name}"
        side = instance(side, BlitSide, what)
        res = side.resource
        self.ctx._check_resource(res, f"{what}.resource")
        if res.target == Target.BUFFER:
            raise InvalidArgumentError(f"{what}.resource: a blit moves texels; {res!r} is a BUFFER")
        level = check_level(res, side.level, f"{what}.level")
        fmt = member(Format, side.format, f"{what}.format")
        desc = util_format_description(fmt)
        rdesc = util_format_description(res.format)
        if fmt == Format.NONE or desc.blocksize != rdesc.blocksize or desc.block_width != rdesc.block_width:
            raise InvalidArgumentError(
                f"{what}.format: {fmt.name} is not a view of the {rdesc.name} resource (block sizes differ)"
            )
        box = texture_box(res, level, side.box, f"{what}.box", allow_negative=not dst)
        return _Side(res, level, box, fmt, desc)

    def blit(self, info: BlitInfo) -> None:
        """pipe_context::blit: copy ``info.src.box`` of ``info.src`` into
        ``info.dst.box`` of ``info.dst``, scaling, filtering, converting and
        resolving as pipe_blit_info says (context.rst "Blitting").  Bad
        fields raise InvalidArgumentError, requests no rung can do exactly
        UnsupportedError; either way nothing is written."""
        ctx = self.ctx
        ctx.check_alive("blit")
        info = instance(info, BlitInfo, "blit: info")
        dst = self._side(info.dst, "dst", True)
        src = self._side(info.src, "src", False)
        mask = int(flags(Mask, info.mask, "blit: mask"))
        linear = member(TexFilter, info.filter, "blit: filter") == TexFilter.LINEAR
        uint32(info.dst_sample, "blit: dst_sample")
        swizzle = tuple(member(Swizzle, s, "blit: swizzle") for s in info.swizzle) if info.swizzle_enable else _IDENTITY
        if len(swizzle) != 4 or any(s > Swizzle.ONE for s in swizzle):
            raise InvalidArgumentError(f"blit: swizzle must be 4 of X, Y, Z, W, 0, 1, got {info.swizzle!r}")
        scissor = _rect(info.scissor, "blit: scissor") if info.scissor_enable else None
        rects = tuple(_rect(r, "blit: window_rectangles") for r in info.window_rectangles)
        if src.desc.is_pure_integer != dst.desc.is_pure_integer and not (
            src.desc.is_depth_or_stencil or dst.desc.is_depth_or_stencil
        ):
            raise InvalidArgumentError(
                f"blit: {src.format.name} -> {dst.format.name}: integer and non-integer formats do not convert "
                f"(as GL's BlitFramebuffer, Gallium blits keep the two apart)"
            )
        if src.desc.is_depth_or_stencil != dst.desc.is_depth_or_stencil:
            raise InvalidArgumentError(
                f"blit: {src.format.name} -> {dst.format.name}: depth/stencil and colour formats do not blit "
                f"into each other"
            )
        # Only what both sides have is written (a Z blit into S8 writes nothing).
        mask &= _channel_mask(dst.desc) & (_channel_mask(src.desc) if src.desc.is_depth_or_stencil else Mask.RGBA)
        if not mask:
            return
        if src.desc.is_pure_integer or src.desc.is_depth_or_stencil or dst.desc.is_pure_integer:
            linear = False  # integers, depth and stencil are never filtered (GL: NEAREST only)
        if dst.box.d != abs(src.box.d) and src.res.target != Target.TEXTURE_3D:
            raise InvalidArgumentError(
                f"blit: {abs(src.box.d)} source layers cannot scale to {dst.box.d} (only 3D sources scale in z)"
            )
        if dst.res is src.res and dst.level == src.level:
            if self._overlap(dst.box, src.box):
                raise InvalidArgumentError("blit: source and destination regions of one resource overlap")
        req = (dst, src, mask, linear, swizzle, scissor, rects, info)
        cond = ctx.render_condition_part
        if cond.honoured(info.render_condition_enable, "blit") and not cond.allows():
            return  # the render condition discards the blit (context.rst "Conditional Rendering")
        ctx.host.make_current()
        if self._try_copy(*req):
            ctx.host.check("blit")
            return
        if dst.desc.is_compressed:
            # Only a same-format 1:1 copy (the rung above) writes compressed blocks.
            raise InvalidArgumentError(
                f"blit: cannot render into compressed {dst.format.name} (only a 1:1 copy of the same format)"
            )
        if self._try_framebuffer(*req) or self._try_shader(*req):
            ctx.host.check("blit")
            return
        self._numpy(*req)
        ctx.host.check("blit")

    @staticmethod
    def _overlap(a: TexBox, b: TexBox) -> bool:
        def rng(start: int, n: int) -> tuple:
            return (min(start, start + n), max(start, start + n))

        for (a0, a1), (b0, b1) in zip(
            (rng(a.x, a.w), rng(a.y, a.h), rng(a.z, a.d)), (rng(b.x, b.w), rng(b.y, b.h), rng(b.z, b.d)), strict=True
        ):
            if a1 <= b0 or b1 <= a0:
                return False
        return True

    # -- rung 1: a copy ------------------------------------------------------------

    @staticmethod
    def _plain(dst, src, mask, swizzle, scissor, rects, info) -> bool:
        """Nothing but moving texels: all channels, no swizzle, blend,
        scissor, window rectangles or sample mask (``dst_sample`` on a
        multisampled destination), source inside its level."""
        sb = src.box
        return (
            mask == _channel_mask(dst.desc)
            and not (info.dst_sample and dst.res.nr_samples > 1)
            and swizzle == _IDENTITY
            and scissor is None
            and not rects
            and not info.window_rectangle_include
            and not info.alpha_blend
            and sb.w > 0
            and sb.h > 0
            and sb.d > 0
            and sb.x + sb.w <= sb.lw
            and sb.y + sb.h <= sb.lh
        )

    def _try_copy(self, dst, src, mask, linear, swizzle, scissor, rects, info) -> bool:
        sb, db = src.box, dst.box
        if not self._plain(dst, src, mask, swizzle, scissor, rects, info):
            return False
        if (sb.w, sb.h, sb.d) != (db.w, db.h, db.d) or src.res.nr_samples != dst.res.nr_samples:
            return False
        formats = {src.format, dst.format, src.res.format, dst.res.format}
        if len(formats) != 1 or info.sample0_only:
            return False
        if self.ctx.copy_part.texture_rung(dst.res, src.res) is None:
            return False  # no exact copy on this host: the next rungs may still blit it
        dst_box = Box(x=db.x, y=db.y, z=db.z, width=db.w, height=db.h, depth=db.d)
        self.last_rung = self.ctx.copy_part.copy_texture(dst.res, dst.level, dst_box, src.res, src.level, sb)
        return True

    # -- rung 2: glBlitFramebuffer -----------------------------------------------------

    def _framebuffer_exact(self, dst, src, mask, linear, swizzle, scissor, rects, info) -> bool:
        """glBlitFramebuffer gives Gallium's answer (GL 4.5 §18.3.1)."""
        sd, dd = src.desc, dst.desc
        sb, db = src.box, dst.box
        if not self._plain(dst, src, mask | _channel_mask(dd), swizzle, None, rects, info):
            return False
        if src.format != src.res.format or dst.format != dst.res.format or dst.res.nr_samples > 1:
            return False  # views cast formats; GL cannot upsample
        if sd.is_depth_or_stencil or dd.is_depth_or_stencil or sd.is_pure_integer or sd.is_srgb or dd.is_srgb:
            if src.format != dst.format or (sb.w, sb.h) != (db.w, db.h):
                return False  # GL converts none of these exactly: identical, unscaled only
            if src.res.nr_samples > 1:
                return False  # GL picks "a single sample", not necessarily sample 0
        if not sd.is_depth_or_stencil and mask != _channel_mask(dd):
            return False  # GL has no colour mask for blits (Z / S are its buffer bits)
        storages_plain = all(
            blit_gl.faithful(s.res) and tuple(int(c) for c in s.res.storage.swizzle) == (0, 1, 2, 3) for s in (src, dst)
        )
        if not storages_plain and not (src.format == dst.format and blit_gl.same_storage(dst.res, src.res)):
            return False
        if src.res.nr_samples > 1 and ((sb.w, sb.h) != (db.w, db.h) or info.sample0_only or src.format != dst.format):
            return False
        if sb.d != db.d:
            return False
        if not linear and not (_centres_off_edges(sb.w, db.w) and _centres_off_edges(sb.h, db.h)):
            return False  # a pixel centre lands on a texel edge: which texel GL takes is the host's rounding
        if any(s.desc.is_depth and not blit_gl.depth_blit_exact(s.desc) for s in (src, dst)):
            return False  # GL blits depth through floats: 24-bit unorm depth comes back rounded
        if linear and (sb.w, sb.h) != (db.w, db.h):
            # GL may clamp LINEAR at the source rectangle; Gallium clamps at the level.
            full = min(sb.x, sb.x + sb.w) == 0 and abs(sb.w) == sb.lw and min(sb.y, sb.y + sb.h) == 0
            if not (full and abs(sb.h) == sb.lh):
                return False
        return min(sb.x, sb.x + sb.w) >= 0 and max(sb.x, sb.x + sb.w) <= sb.lw and max(sb.y, sb.y + sb.h) <= sb.lh

    def _try_framebuffer(self, dst, src, mask, linear, swizzle, scissor, rects, info) -> bool:
        if not self._framebuffer_exact(dst, src, mask, linear, swizzle, scissor, rects, info):
            return False
        gl = self.ctx.gl
        bits = 0
        if mask & Mask.RGBA:
            bits |= gl.GL_COLOR_BUFFER_BIT
        if mask & Mask.Z:
            bits |= gl.GL_DEPTH_BUFFER_BIT
        if mask & Mask.S:
            bits |= gl.GL_STENCIL_BUFFER_BIT
        sb, db = src.box, dst.box
        rect = (sb.x, sb.y, sb.x + sb.w, sb.y + sb.h, db.x, db.y, db.x + db.w, db.y + db.h)
        sz0 = min(sb.z, sb.z + sb.d)
        pairs = [(sz0 + (i if sb.d > 0 else abs(sb.d) - 1 - i), db.z + i) for i in range(db.d)]
        gl_scissor = None
        if scissor is not None:
            minx, miny, maxx, maxy = scissor
            gl_scissor = (minx, miny, max(maxx - minx, 0), max(maxy - miny, 0))
        self.ctx.copy_part.fb_blitter.blit_layers(
            dst.res, dst.level, src.res, src.level, pairs, rect, bits, linear, gl_scissor
        )
        self.last_rung = "blit_framebuffer"
        return True

    # -- rung 3: the shader blitter ----------------------------------------------------

    def _try_shader(self, dst, src, mask, linear, swizzle, scissor, rects, info) -> bool:
        """The textured-quad blitter (glpipe/blitter.py) for the multisampled
        blits the GL rungs refuse: a resolve into a single-sampled texture
        (sample 0, or the mean of the samples for non-integer colour), a
        single-sampled source drawn into every (or ``dst_sample``'s) sample,
        and u_blitter's MSAA copy between equal sample counts (sample i
        drawn with the sample mask 1 << i); stencil included."""
        s_ms, d_ms = src.res.nr_samples > 1, dst.res.nr_samples > 1
        if not (s_ms or d_ms):
            return False  # single-sampled: numpy is exact
        if s_ms and d_ms and src.res.nr_samples != dst.res.nr_samples:
            # GL 4.5 §18.3.1 makes it INVALID_OPERATION and u_blitter's MSAA
            # copy (do_blits) needs src_samples == dst_samples: no result defined.
            raise UnsupportedError(
                f"blit: {src.res.nr_samples}x -> {dst.res.nr_samples}x: multisampled blits between unequal sample "
                f"counts have no defined result (docs/blits.md)"
            )
        if s_ms and not d_ms and linear and (abs(src.box.w), abs(src.box.h)) != (dst.box.w, dst.box.h):
            self._resolve_then_filter(dst, src, info)
            return True
        if swizzle != _IDENTITY or rects or info.window_rectangle_include:
            return False  # not drawn by this blitter
        if src.res.target not in (Target.TEXTURE_2D, Target.TEXTURE_2D_ARRAY) or dst.res.target not in (
            Target.TEXTURE_2D,
            Target.TEXTURE_2D_ARRAY,
        ):
            return False
        if linear and not s_ms and (src.box.w, src.box.h) != (dst.box.w, dst.box.h):
            return False  # the blitter fetches texels: NEAREST, or 1:1
        if mask & Mask.S and not self._stencil_drawable(src):
            return False
        if self._blitter is None:
            self._blitter = ShaderBlitter(self.ctx)
        self._blitter.blit(
            dst, src, mask, scissor, int(info.dst_sample), bool(info.sample0_only), bool(info.alpha_blend)
        )
        self.last_rung = "shader"
        return True

    def _resolve_then_filter(self, dst, src, info: BlitInfo) -> None:
        """A scaled LINEAR resolve is u_blitter's resolve-then-filter (its
        "resolve linear" shaders): the bilinear blend of the per-texel means.
        The source layers are resolved 1:1 into a single-sampled texture of
        the level's size, which is then blitted with every other field of
        ``info`` by the ladder (glBlitFramebuffer or numpy)."""
        ctx = self.ctx
        sb = src.box
        z0, nz = min(sb.z, sb.z + sb.d), abs(sb.d)
        tmp = ctx.screen.resource_create(
            ResourceTemplate(
                target=src.res.target,
                format=src.format,
                width0=sb.lw,
                height0=sb.lh,
                array_size=src.res.array_size,
                bind=Bind.SAMPLER_VIEW | Bind.RENDER_TARGET,
            )
        )
        try:
            whole = Box(x=0, y=0, z=z0, width=sb.lw, height=sb.lh, depth=nz)
            self.blit(
                BlitInfo(
                    dst=BlitSide(resource=tmp, level=0, box=whole, format=src.format),
                    src=BlitSide(resource=src.res, level=src.level, box=whole, format=src.format),
                    mask=Mask.RGBA,
                )
            )
            resolved = self.last_rung
            self.blit(
                dataclasses.replace(
                    info,
                    src=BlitSide(
                        resource=tmp,
                        level=0,
                        box=Box(x=sb.x, y=sb.y, z=sb.z, width=sb.w, height=sb.h, depth=sb.d),
                        format=src.format,
                    ),
                    render_condition_enable=False,  # decided once, by the caller
                )
            )
            self.last_rung = f"{resolved}+{self.last_rung}"
        finally:
            ctx.screen.resource_destroy(tmp)

    def _stencil_drawable(self, src) -> bool:
        """The blitter gathers the source stencil into an R8_UINT texture of
        the source's sample count by drawing with the source as the depth /
        stencil buffer: both must be renderable on this host."""
        screen = self.ctx.screen
        n = src.res.nr_samples
        return bool(
            src.res.bind & Bind.DEPTH_STENCIL
            and screen.is_format_supported(Format.R8_UINT, src.res.target, n, n, Bind.RENDER_TARGET | Bind.SAMPLER_VIEW)
        )

    # -- rung 4: numpy ----------------------------------------------------------------

    def _numpy(self, dst, src, mask, linear, swizzle, scissor, rects, info) -> None:
        if src.res.nr_samples > 1 or dst.res.nr_samples > 1:
            raise UnsupportedError(
                f"blit: {src.format.name} ({src.res.nr_samples}x) -> {dst.format.name} ({dst.res.nr_samples}x): "
                f"no rung does this multisampled blit exactly on the {self.ctx.screen.profile.name} profile "
                f"(docs/blits.md)"
            )
        ctx = self.ctx
        sb, db = src.box, dst.box
        # The source: whole level (sampling clamps to its edge), layers in use.
        z0, z1 = min(sb.z, sb.z + sb.d), max(sb.z, sb.z + sb.d)
        src_box = Box(x=0, y=0, z=z0, width=sb.lw, height=sb.lh, depth=z1 - z0)
        t = ctx.transfer_map(src.res, src.level, Map.READ, src_box)
        try:
            raw = np.array(t.data, copy=True)
        finally:
            ctx.transfer_unmap(t)
        values = np_blit.unpack_level(src.format, raw, sb.lw, sb.lh)
        sampled = np_blit.sample(
            values,
            (sb.x, sb.y, sb.z - z0, sb.w, sb.h, sb.d),
            (db.w, db.h, db.d),
            linear,
            src.res.target == Target.TEXTURE_3D,
        )
        if swizzle != _IDENTITY:
            sampled = np_blit.apply_swizzle(sampled, swizzle)
        dst_box = Box(x=db.x, y=db.y, z=db.z, width=db.w, height=db.h, depth=db.d)
        t = ctx.transfer_map(dst.res, dst.level, Map.READ, dst_box)
        try:
            old_raw = np.array(t.data, copy=True)
            stride, layer_stride = t.stride, t.layer_stride
        finally:
            ctx.transfer_unmap(t)
        old = np_blit.unpack_level(dst.format, old_raw, db.w, db.h)
        if dst.desc.is_pure_integer:
            sampled = sampled.astype(old.dtype)  # uint <-> sint: pack clamps to the channel's range
        keep = np_blit.region_mask(db.x, db.y, db.w, db.h, scissor, rects, bool(info.window_rectangle_include))
        packed = np_blit.merge(dst.format, old, sampled, mask, keep, bool(info.alpha_blend))
        ctx.texture_subdata(dst.res, dst.level, Map.WRITE, dst_box, packed, stride, layer_stride)
        self.last_rung = "numpy"


AREA = Area("blit_part", part=BlitPart, methods=("blit",), destroy=BlitPart.destroy)

__all__ = ["AREA", "BlitPart"]
