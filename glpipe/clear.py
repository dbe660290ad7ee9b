"""Clears: pipe_context::clear, clear_render_target, clear_depth_stencil.

``ClearPart`` (``ctx.clear_part``): a clear writes every layer of the
surface and ignores the pipeline state (masks, scissor, discard, dither:
Gallium's rule), so the host state glClearBuffer obeys is put in the
neutral position and the clobbered blocks are dirtied.  Colours go through
the Gallium format and the host storage's emulation swizzle
(``host_clear_color``).  docs/formats.md "Clears" has the details.
"""

from __future__ import annotations

import ctypes
import math
import numbers
from collections.abc import Sequence

from lowering.errors import InvalidArgumentError

from .boundary import flag, in_range, integer, items, number, show, uint32
from .dirty import Dirty
from .enums import Clear, Swizzle, Target
from .formats import util_format_description
from .framebuffer import Surface
from .part import Area, Part
from .templates import ScissorState

_ALL_CLEAR_BITS = int(Clear.DEPTH | Clear.STENCIL | Clear.COLOR)

# Per texture target: how one layer of a surface attaches to an FBO.
# "cube": glFramebufferTexture2D with the face target (a plain cube map's
# faces are layers only for glFramebufferTextureLayer from GL 4.5 on);
# "layer": glFramebufferTextureLayer; "1d" / "2d": the level itself.
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


def linear_to_srgb(c: float) -> float:
    """The sRGB transfer function (IEC 61966-2-1), on [0, 1] after clamping."""
    c = min(max(c, 0.0), 1.0)
    return c * 12.92 if c <= 0.0031308 else 1.055 * c ** (1.0 / 2.4) - 0.055


def _color4(color, what: str) -> tuple:
    vals = items(color, f"{what}: color")
    if len(vals) != 4:
        raise InvalidArgumentError(f"{what}: expected 4 colour values, got {len(vals)}: {show(color)}")
    return vals


def _as_float(v, what: str) -> float:
    return number(v, f"{what}: colour value")


def _as_int(v, what: str, fmt_name: str) -> int:
    if isinstance(v, bool) or not isinstance(v, numbers.Real):
        raise InvalidArgumentError(f"{what}: colour value {show(v)} is not a number")
    if isinstance(v, numbers.Integral):
        # pipe_color_union: int32 or uint32 channels (then clamped to the format's).
        return integer(v, f"{what}: colour value", "int32" if v < 0 else "uint32")
    if math.isfinite(v) and float(v).is_integer():
        return integer(int(v), f"{what}: colour value", "int32" if v < 0 else "uint32")
    raise InvalidArgumentError(
        f"{what}: {fmt_name} is a pure integer format; clear values must be integers, got {show(v)}"
    )


def host_clear_color(fmt, storage, color, what: str) -> tuple[str, tuple]:
    """(kind, values) to hand glClearBuffer for clearing a surface of pipe
    format ``fmt`` held in ``storage`` (formats.HostFormat) to ``color``.

    ``kind`` is "f", "i" or "ui" (glClearBufferfv / iv / uiv); ``values``
    are the four host components.  docs/formats.md "Clears" gives the path a
    colour takes: through the Gallium format's channels (and sRGB
    encoding), then through the host emulation swizzle.
    """
    desc = util_format_description(fmt)
    vals = _color4(color, what)
    if desc.is_pure_integer:
        kind = "ui" if desc.is_pure_uint else "i"
        vals = [_as_int(v, what, desc.name) for v in vals]
        one = 1
    else:
        kind = "f"
        vals = [_as_float(v, what) for v in vals]
        if desc.is_srgb:
            vals = [linear_to_srgb(v) for v in vals[:3]] + [vals[3]]
        one = 1.0
    # Gallium texel: channel i takes the first component whose swizzle reads it.
    stored = []
    for i, ch in enumerate(desc.channels):
        comp = next((c for c, s in enumerate(desc.swizzle[:4]) if s == i), None)
        value = vals[comp] if comp is not None else 0
        if desc.is_pure_integer and comp is not None:
            # Clamp to the channel's range: an emulated storage may be wider
            # (R10G10B10A2_SINT lives in RGBA16I) and must not keep bits the
            # Gallium format has no room for.
            bits = ch.size
            lo, hi = (0, (1 << bits) - 1) if desc.is_pure_uint else (-(1 << (bits - 1)), (1 << (bits - 1)) - 1)
            value = min(max(value, lo), hi)
        stored.append(value)
    # What sampling the Gallium texel returns, per R, G, B, A.
    sampled = []
    for s in desc.swizzle[:4]:
        s = int(s)
        sampled.append(stored[s] if s < len(stored) else (one if s == Swizzle.ONE else 0))
    # Host texel component k holds what the emulation swizzle reads from it.
    swz = [int(s) for s in storage.swizzle]
    host = []
    for k in range(4):
        comp = next((c for c, s in enumerate(swz) if s == k), None)
        host.append(sampled[comp] if comp is not None else (one if k == 3 else 0))
    if kind == "ui":
        host = [v & 0xFFFFFFFF for v in host]
    return kind, tuple(host)


def _depth_value(depth, what: str) -> float:
    # A C double, clamped to [0, 1] as GL clamps a depth clear value.
    return min(max(number(depth, f"{what}: depth"), 0.0), 1.0)


def _stencil_value(stencil, what: str) -> int:
    # A C unsigned; GL masks a stencil clear value to the buffer's bits
    # (glClearBufferiv), which are 8 for every stencil format glpipe has.
    return uint32(stencil, f"{what}: stencil") & 0xFF


def _rect(dstx, dsty, width, height, what: str) -> tuple:
    vals = (dstx, dsty, width, height)
    # unsigned in p_context.h; GL takes them as GLint, so at most 2**31 - 1.
    return tuple(
        in_range(v, f"{what}: {name}", 0, 2**31 - 1)
        for name, v in zip(("dstx", "dsty", "width", "height"), vals, strict=True)
    )


class ClearPart(Part):
    """The clear area: clear, clear_render_target, clear_depth_stencil."""

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        # Private FBOs of clear_render_target / clear_depth_stencil, made on
        # first use: 0 = not made yet.
        self._clear_fbos = {"COLOR": 0, "ZS": 0}

    def destroy(self) -> None:
        """Delete the private FBOs (Context.destroy)."""
        names = [n for n in self._clear_fbos.values() if n]
        if names:
            self.ctx.gl.glDeleteFramebuffers(len(names), names)
        self._clear_fbos = {"COLOR": 0, "ZS": 0}

    # -- GL state a clear needs -------------------------------------------------

    def _neutral_clear_state(self, scissor, color: bool, depth: bool, stencil: bool) -> bool:
        """Put the GL state glClearBuffer obeys into Gallium's clear position;
        set the dirty bits of what changed.  ``scissor`` is None or
        (x, y, w, h).  Returns whether GL_FRAMEBUFFER_SRGB was on (it is
        turned off; ``_end_clear_state`` turns it back on)."""
        gl = self.ctx.gl
        dirty = Dirty.RASTERIZER
        gl.glDisable(gl.GL_RASTERIZER_DISCARD)
        if scissor is None:
            gl.glDisable(gl.GL_SCISSOR_TEST)
        else:
            gl.glEnable(gl.GL_SCISSOR_TEST)
            # glScissor sets every viewport's rectangle; clears use index 0.
            gl.glScissor(*scissor)
            dirty |= Dirty.SCISSOR
        srgb = False
        if color:
            gl.glColorMask(True, True, True, True)
            gl.glDisable(gl.GL_DITHER)
            srgb = bool(gl.glIsEnabled(gl.GL_FRAMEBUFFER_SRGB))
            if srgb:
                gl.glDisable(gl.GL_FRAMEBUFFER_SRGB)
            dirty |= Dirty.BLEND
        if depth:
            gl.glDepthMask(True)
            dirty |= Dirty.DSA
        if stencil:
            gl.glStencilMask(0xFF)  # both faces; clears use the front mask
            dirty |= Dirty.DSA
        self.ctx.dirty |= dirty
        self.ctx._forget_other_contexts()
        return srgb

    def _end_clear_state(self, srgb_was_on: bool, scissored: bool) -> None:
        """Undo what must not outlive a clear: GL_FRAMEBUFFER_SRGB goes back on
        if it was on, and a scissor the clear enabled goes off again (GL's
        default), so a later draw of any context that has not emitted its
        rasterizer yet is not cut to the clear's rectangle.  The other
        switches stay in their neutral (GL default) position; the dirty bits
        already say they must be re-emitted."""
        gl = self.ctx.gl
        if srgb_was_on:
            gl.glEnable(gl.GL_FRAMEBUFFER_SRGB)
        if scissored:
            gl.glDisable(gl.GL_SCISSOR_TEST)

    def _clear_color_buffer(self, drawbuffer: int, kind: str, values: tuple) -> None:
        gl = self.ctx.gl
        if kind == "f":
            gl.glClearBufferfv(gl.GL_COLOR, drawbuffer, _F4(*values))
        elif kind == "i":
            gl.glClearBufferiv(gl.GL_COLOR, drawbuffer, _I4(*values))
        else:
            gl.glClearBufferuiv(gl.GL_COLOR, drawbuffer, _U4(*values))

    def _clear_zs(self, attachment: str, do_depth: bool, do_stencil: bool, depth: float, stencil: int) -> None:
        gl = self.ctx.gl
        if do_depth and do_stencil and attachment == "DEPTH_STENCIL":
            gl.glClearBufferfi(gl.GL_DEPTH_STENCIL, 0, depth, stencil)
            return
        if do_depth:
            gl.glClearBufferfv(gl.GL_DEPTH, 0, _F1(depth))
        if do_stencil:
            gl.glClearBufferiv(gl.GL_STENCIL, 0, _I1(stencil))

    # -- pipe_context::clear ---------------------------------------------------

    def clear(
        self,
        buffers: Clear | int,
        scissor_state: ScissorState | None,
        color: Sequence[float] | Sequence[int],
        depth: float,
        stencil: int,
    ) -> None:
        """pipe_context::clear: clear the bound colour buffers named by
        ``buffers`` (Clear.COLOR0..7) to ``color`` and the bound zsbuf's depth
        (Clear.DEPTH) / stencil (Clear.STENCIL) to ``depth`` / ``stencil``,
        every layer, ignoring masks and the scissor; ``scissor_state`` (a
        ScissorState or None) limits the cleared region."""
        self.ctx.check_alive("clear")
        if isinstance(buffers, bool) or not isinstance(buffers, numbers.Integral):
            raise InvalidArgumentError(f"clear: buffers must be a Clear mask, got {show(buffers)}")
        buffers = int(buffers)
        if buffers & ~_ALL_CLEAR_BITS or buffers < 0:
            raise InvalidArgumentError(f"clear: unknown PIPE_CLEAR bits {buffers & ~_ALL_CLEAR_BITS:#x}")
        scissor = None
        if scissor_state is not None:
            if not isinstance(scissor_state, ScissorState):
                raise InvalidArgumentError(
                    f"clear: scissor_state must be a ScissorState or None, got {type(scissor_state).__name__}"
                )
            sc = scissor_state
            if sc.maxx < sc.minx or sc.maxy < sc.miny:
                raise InvalidArgumentError(f"clear: scissor_state has max < min: {sc!r}")
            scissor = (sc.minx, sc.miny, sc.maxx - sc.minx, sc.maxy - sc.miny)
        fb = self.ctx.framebuffer_part.framebuffer
        colors = []
        for i in range(fb.nr_cbufs):
            surf = fb.cbufs[i]
            if surf is None or not buffers & (int(Clear.COLOR0) << i):
                continue
            surf.check_alive(f"clear: framebuffer cbufs[{i}]")
            kind, values = host_clear_color(surf.format, surf.texture.storage, color, f"clear (cbufs[{i}])")
            colors.append((i, kind, values))
        zs = fb.zsbuf
        do_depth = do_stencil = False
        if zs is not None:
            zs.check_alive("clear: framebuffer zsbuf")
            desc = util_format_description(zs.format)
            do_depth = bool(buffers & Clear.DEPTH) and desc.is_depth
            do_stencil = bool(buffers & Clear.STENCIL) and desc.is_stencil
        dval = _depth_value(depth, "clear") if do_depth else 0.0
        sval = _stencil_value(stencil, "clear") if do_stencil else 0
        if not colors and not do_depth and not do_stencil:
            return  # nothing bound that the mask names
        self.ctx.host.make_current()
        # Bound unconditionally: every context of a screen shares one GL
        # context, so another context (or clear_render_target's private FBO)
        # may hold the GL binding even when Dirty.FRAMEBUFFER is clear.  A
        # cached FBO costs one dict lookup and glBindFramebuffer.
        self.ctx.framebuffer_part._emit_framebuffer()
        srgb = self._neutral_clear_state(scissor, bool(colors), do_depth, do_stencil)

        def clear_buffers() -> None:
            for i, kind, values in colors:
                self._clear_color_buffer(i, kind, values)
            if do_depth or do_stencil:
                self._clear_zs(zs.attachment, do_depth, do_stencil, dval, sval)

        # clear always honours the render condition (context.rst); the
        # glClearBuffer calls draw nothing, so no query needs suspending.
        gate = self.ctx._render_gate
        if gate is not None:
            gate(clear_buffers)
        else:
            clear_buffers()
        self._end_clear_state(srgb, scissor is not None)
        self.ctx.host.check("clear")

    # -- clears of any surface -------------------------------------------------

    def clear_render_target(
        self,
        surface: Surface,
        color: Sequence[float] | Sequence[int],
        dstx: int,
        dsty: int,
        width: int,
        height: int,
        render_condition_enabled: bool,
    ) -> None:
        """pipe_context::clear_render_target: clear the rectangle
        (dstx, dsty, width, height) of every layer of colour ``surface`` (bound
        or not) to ``color``; under the context's render condition when
        ``render_condition_enabled`` (docs/queries.md)."""
        self.ctx.check_alive("clear_render_target")
        flag(render_condition_enabled, "clear_render_target: render_condition_enabled")
        self.ctx.framebuffer_part.check_surface(surface, "clear_render_target: surface", color=True)
        rect = _rect(dstx, dsty, width, height, "clear_render_target")
        kind, values = host_clear_color(surface.format, surface.texture.storage, color, "clear_render_target")
        gated = self.ctx.render_condition_part.honoured(render_condition_enabled, "clear_render_target")
        if rect[2] == 0 or rect[3] == 0:
            return
        self._gated(
            gated,
            self._clear_surface_layers,
            surface,
            "COLOR",
            rect,
            lambda: self._clear_color_buffer(0, kind, values),
            color=True,
            depth=False,
            stencil=False,
            what="clear_render_target",
        )

    def _gated(self, gated: bool, op, *args, **kwargs) -> None:
        """``op`` under the render condition if ``gated``, else as it is."""
        if gated:
            self.ctx.render_condition_part.gate(lambda: op(*args, **kwargs))
        else:
            op(*args, **kwargs)

    def clear_depth_stencil(
        self,
        surface: Surface,
        clear_flags: Clear | int,
        depth: float,
        stencil: int,
        dstx: int,
        dsty: int,
        width: int,
        height: int,
        render_condition_enabled: bool,
    ) -> None:
        """pipe_context::clear_depth_stencil: clear depth (Clear.DEPTH) and/or
        stencil (Clear.STENCIL) of the rectangle of every layer of
        depth/stencil ``surface`` (bound or not).  Bits the format lacks are
        ignored.  Under the context's render condition when
        ``render_condition_enabled``."""
        self.ctx.check_alive("clear_depth_stencil")
        flag(render_condition_enabled, "clear_depth_stencil: render_condition_enabled")
        self.ctx.framebuffer_part.check_surface(surface, "clear_depth_stencil: surface", color=False)
        if isinstance(clear_flags, bool) or not isinstance(clear_flags, numbers.Integral):
            raise InvalidArgumentError(
                f"clear_depth_stencil: clear_flags must be a Clear mask, got {show(clear_flags)}"
            )
        flags = int(clear_flags)
        if flags & ~int(Clear.DEPTHSTENCIL) or flags < 0:
            raise InvalidArgumentError(
                f"clear_depth_stencil: clear_flags may only hold DEPTH and STENCIL, got {flags:#x}"
            )
        rect = _rect(dstx, dsty, width, height, "clear_depth_stencil")
        desc = util_format_description(surface.format)
        do_depth = bool(flags & Clear.DEPTH) and desc.is_depth
        do_stencil = bool(flags & Clear.STENCIL) and desc.is_stencil
        dval = _depth_value(depth, "clear_depth_stencil") if do_depth else 0.0
        sval = _stencil_value(stencil, "clear_depth_stencil") if do_stencil else 0
        gated = self.ctx.render_condition_part.honoured(render_condition_enabled, "clear_depth_stencil")
        if rect[2] == 0 or rect[3] == 0 or not (do_depth or do_stencil):
            return
        att = surface.attachment
        self._gated(
            gated,
            self._clear_surface_layers,
            surface,
            "ZS",
            rect,
            lambda: self._clear_zs(att, do_depth, do_stencil, dval, sval),
            color=False,
            depth=do_depth,
            stencil=do_stencil,
            what="clear_depth_stencil",
        )

    def _private_fbo(self, kind: str) -> int:
        fbo = self._clear_fbos[kind]
        gl = self.ctx.gl
        if not fbo:
            fbo = int(gl.glGenFramebuffers(1))
            gl.glBindFramebuffer(gl.GL_FRAMEBUFFER, fbo)
            if kind == "COLOR":
                gl.glDrawBuffers(1, [gl.GL_COLOR_ATTACHMENT0])
                gl.glReadBuffer(gl.GL_COLOR_ATTACHMENT0)
            else:
                gl.glDrawBuffer(gl.GL_NONE)
                gl.glReadBuffer(gl.GL_NONE)
            self._clear_fbos[kind] = fbo
        else:
            gl.glBindFramebuffer(gl.GL_FRAMEBUFFER, fbo)
        return fbo

    def _attach_layer(self, att: int, surface, layer: int) -> None:
        gl = self.ctx.gl
        res = surface.texture
        tex = res.gl_object
        kind = _ATTACH_KIND[res.target]
        if kind == "layer":
            gl.glFramebufferTextureLayer(gl.GL_FRAMEBUFFER, att, tex, surface.level, layer)
        elif kind == "cube":
            gl.glFramebufferTexture2D(
                gl.GL_FRAMEBUFFER, att, gl.GL_TEXTURE_CUBE_MAP_POSITIVE_X + layer, tex, surface.level
            )
        elif kind == "1d":
            gl.glFramebufferTexture1D(gl.GL_FRAMEBUFFER, att, res.gl_target, tex, surface.level)
        else:
            gl.glFramebufferTexture2D(gl.GL_FRAMEBUFFER, att, res.gl_target, tex, surface.level)

    def _clear_surface_layers(
        self, surface, fbo_kind: str, rect: tuple, do_clear, color: bool, depth: bool, stencil: bool, what: str
    ) -> None:
        """Attach each layer of ``surface`` to the private FBO and run
        ``do_clear`` scissored to ``rect`` (clipped to the surface)."""
        gl = self.ctx.gl
        self.ctx.host.make_current()
        x, y, w, h = rect
        w = min(w, surface.width - x)
        h = min(h, surface.height - y)
        if w <= 0 or h <= 0:
            return
        self._private_fbo(fbo_kind)
        # The context's framebuffer is no longer bound.
        self.ctx.dirty |= Dirty.FRAMEBUFFER
        self.ctx._forget_other_contexts()
        if fbo_kind == "COLOR":
            atts = [gl.GL_COLOR_ATTACHMENT0]
        else:
            atts = [
                {
                    "DEPTH_STENCIL": gl.GL_DEPTH_STENCIL_ATTACHMENT,
                    "DEPTH": gl.GL_DEPTH_ATTACHMENT,
                    "STENCIL": gl.GL_STENCIL_ATTACHMENT,
                }[surface.attachment]
            ]
        layered_target = _ATTACH_KIND[surface.texture.target] in ("layer", "cube")
        layers = range(surface.first_layer, surface.last_layer + 1) if layered_target else range(1)
        srgb = self._neutral_clear_state((x, y, w, h), color, depth, stencil)
        try:
            for layer in layers:
                for att in atts:
                    self._attach_layer(att, surface, layer)
                status = gl.glCheckFramebufferStatus(gl.GL_FRAMEBUFFER)
                if status != gl.GL_FRAMEBUFFER_COMPLETE:
                    self.ctx.host.clear_errors()
                    raise InvalidArgumentError(
                        f"{what}: the host GL cannot render to {surface!r} "
                        f"(glCheckFramebufferStatus = 0x{int(status):04x})"
                    )
                do_clear()
        finally:
            for att in atts:
                # Detach, so the private FBO does not keep the texture alive.
                gl.glFramebufferRenderbuffer(gl.GL_FRAMEBUFFER, att, gl.GL_RENDERBUFFER, 0)
            self._end_clear_state(srgb, True)
        self.ctx.host.check(what)


# Argument arrays of glClearBuffer*.
_F4, _I4, _U4 = ctypes.c_float * 4, ctypes.c_int32 * 4, ctypes.c_uint32 * 4
_F1, _I1 = ctypes.c_float * 1, ctypes.c_int32 * 1

AREA = Area(
    "clear_part",
    part=ClearPart,
    methods=("clear", "clear_render_target", "clear_depth_stencil"),
    destroy=ClearPart.destroy,
)

__all__ = ["AREA", "ClearPart", "host_clear_color", "linear_to_srgb"]
