"""Viewports and scissors: set_viewport_states, set_scissor_states.

Gallium gives a viewport as scale/translate: window = ndc * scale +
translate.  GL wants a rectangle and a depth range, so per axis
``x0 = tx - |sx|``, ``width = 2|sx|``, and in depth ``near = tz - sz``,
``far = tz + sz`` (or ``near = tz``, ``far = tz + sz`` with clip_halfz, where
NDC z runs 0..1).  A negative y scale (a frontend flipping y for a
window-system framebuffer) has no GL rectangle: the rectangle is taken
from |sy| and the flip is done in the vertex stage through the sysvals
block (``VariantKey.y_flip``), which the rasterizer module wires.

Multiple viewports/scissors need GL 4.1 (``viewport_array``); without it
only slot 0 exists and the cap PIPE_CAP_MAX_VIEWPORTS says 1.
"""

from __future__ import annotations

from lowering.errors import InvalidArgumentError, UnsupportedError

from .defs import PIPE_MAX_VIEWPORTS
from .dirty import Dirty
from .state import ScissorState, ViewportState


def viewport_rect(vp: ViewportState, clip_halfz: bool = False) -> tuple:
    """(x, y, width, height, near, far) of a Gallium viewport."""
    sx, sy, sz = vp.scale
    tx, ty, tz = vp.translate
    ax, ay = abs(sx), abs(sy)
    if clip_halfz:
        near, far = tz, tz + sz
    else:
        near, far = tz - sz, tz + sz
    return (tx - ax, ty - ay, 2.0 * ax, 2.0 * ay, near, far)


class ViewportMixin:
    """Context methods for viewports and scissors (mixed into Context)."""

    def _init_viewport(self) -> None:
        prof = self.screen.profile
        self._max_viewports = prof.limit("GL_MAX_VIEWPORTS") if prof.has("viewport_array") else 1
        self._max_viewports = max(1, min(self._max_viewports, PIPE_MAX_VIEWPORTS))
        self.viewports = [ViewportState()] * self._max_viewports
        self.scissors = [ScissorState()] * self._max_viewports
        self._viewport_y_flip = False  # VariantKey.y_flip of the last vertex stage (variant_keys.py)

    def _slots(self, what: str, start_slot: int, items) -> tuple:
        items = tuple(items)
        if start_slot < 0 or start_slot + len(items) > self._max_viewports:
            raise InvalidArgumentError(
                f"{what}: slots {start_slot}..{start_slot + len(items) - 1} outside the "
                f"{self._max_viewports} viewport(s) this host profile has (PIPE_CAP_MAX_VIEWPORTS)")
        return items

    def set_viewport_states(self, start_slot: int, viewports) -> None:
        """pipe_context::set_viewport_states(start_slot, viewports)."""
        if (type(start_slot) is int and type(viewports) in (list, tuple) and 0 <= start_slot
                and start_slot + len(viewports) <= self._max_viewports and not self.destroyed):
            # Compared first (templates compare by a cached key): setting what
            # is already set validates nothing.
            current = self.viewports
            i = start_slot
            for vp in viewports:
                if current[i] != vp:
                    break
                i += 1
            else:
                return
        self.check_alive("set_viewport_states")
        items = self._slots("set_viewport_states", start_slot, viewports)
        for i, vp in enumerate(items):
            if not isinstance(vp, ViewportState):
                raise InvalidArgumentError(f"set_viewport_states: viewports[{i}] is not a ViewportState")
            if vp.scale[0] < 0:
                # GL has no mirrored viewport and no variant mirrors x.
                raise UnsupportedError(f"set_viewport_states: viewports[{i}] has a negative x scale "
                                       f"{vp.scale[0]}; only y may be flipped")
        changed = False
        for i, vp in enumerate(items):
            if self.viewports[start_slot + i] != vp:
                self.viewports[start_slot + i] = vp
                changed = True
        if changed:
            self.dirty |= Dirty.VIEWPORT
            # A negative y scale is a flip in the last vertex stage (the GL
            # rectangle takes |scale|): a variant, so it recompiles only when
            # the direction changes.
            flip = any(vp.scale[1] < 0 for vp in self.viewports)
            if flip != self._viewport_y_flip:
                self._viewport_y_flip = flip
                self.dirty |= Dirty.PROGRAM

    def set_scissor_states(self, start_slot: int, scissors) -> None:
        """pipe_context::set_scissor_states(start_slot, scissors); used when the
        rasterizer's scissor is enabled."""
        self.check_alive("set_scissor_states")
        items = self._slots("set_scissor_states", start_slot, scissors)
        for i, sc in enumerate(items):
            if not isinstance(sc, ScissorState):
                raise InvalidArgumentError(f"set_scissor_states: scissors[{i}] is not a ScissorState")
            if sc.maxx < sc.minx or sc.maxy < sc.miny:
                raise InvalidArgumentError(f"set_scissor_states: scissors[{i}] has max < min: {sc!r}")
        changed = False
        for i, sc in enumerate(items):
            if self.scissors[start_slot + i] != sc:
                self.scissors[start_slot + i] = sc
                changed = True
        if changed:
            self.dirty |= Dirty.SCISSOR

    # -- host side -------------------------------------------------------------

    def _clip_halfz(self) -> bool:
        rast = getattr(self, "rasterizer", None)
        return bool(rast is not None and rast.templ.clip_halfz)

    def _half_pixel_center(self) -> bool:
        rast = getattr(self, "rasterizer", None)
        return rast is None or bool(rast.templ.half_pixel_center)

    def _emit_viewport(self) -> None:
        gl = self.gl
        halfz = self._clip_halfz()
        flip = self._viewport_y_flip
        for i, vp in enumerate(self.viewports):
            if vp.scale[1] and (vp.scale[1] < 0) != flip:
                raise UnsupportedError(
                    f"draw_vbo: viewport {i} flips y and another does not; glpipe flips y for all viewports "
                    f"at once (in the shader)")
        if self._max_viewports > 1:
            # half_pixel_center = False (D3D9 integer pixel centres): Gallium's
            # point (x, y) is GL's (x + 0.5, y + 0.5), so the whole transform
            # moves by half a pixel (glpipe/rasterizer.py; gl33 refuses it).
            shift = 0.0 if self._half_pixel_center() else 0.5
            for i, vp in enumerate(self.viewports):
                x, y, w, h, n, f = viewport_rect(vp, halfz)
                gl.glViewportIndexedf(i, x + shift, y + shift, w, h)
                gl.glDepthRangeIndexed(i, n, f)
        else:
            x, y, w, h, n, f = viewport_rect(self.viewports[0], halfz)
            # glViewport takes integers; Gallium viewports from GL frontends are
            # integral, and sub-pixel origins need viewport_array's float entry.
            gl.glViewport(int(round(x)), int(round(y)), int(round(w)), int(round(h)))
            gl.glDepthRange(n, f)

    def _emit_scissor(self) -> None:
        gl = self.gl
        if self._max_viewports > 1:
            for i, sc in enumerate(self.scissors):
                gl.glScissorIndexed(i, sc.minx, sc.miny, sc.maxx - sc.minx, sc.maxy - sc.miny)
        else:
            sc = self.scissors[0]
            gl.glScissor(sc.minx, sc.miny, sc.maxx - sc.minx, sc.maxy - sc.miny)


__all__ = ["ViewportMixin", "viewport_rect"]
