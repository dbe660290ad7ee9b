"""Viewports and scissors: set_viewport_states, set_scissor_states.

``ViewportPart`` (``ctx.viewport_part``) turns Gallium's scale/translate
viewports into GL rectangles and depth ranges, keeps the scissors, and
overrides the transform while a VS_WINDOW_SPACE_POSITION shader is bound.
docs/coordinates.md explains the transform, the y flip, clip_halfz,
half_pixel_center, the depth-only clamp and the window-space override.
"""

from __future__ import annotations

from collections.abc import Sequence

from lowering.errors import InvalidArgumentError, UnsupportedError

from .boundary import items, uint32
from .dirty import Dirty
from .enums import PIPE_MAX_VIEWPORTS, ShaderType
from .part import Area, Part
from .templates import ScissorState, ViewportState


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


class ViewportPart(Part):
    """The viewport area: viewports, scissors, the window-space override.

    Interface read by other areas: ``viewports`` (sysvals), ``viewport_y_flip``
    (the variant key's y flip), ``window_space`` (rasterizer),
    ``note_window_space`` (VS binds), ``check_viewport_depth`` (variant keys)."""

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        prof = ctx.screen.profile
        self._max_viewports = prof.limit("GL_MAX_VIEWPORTS") if prof.has("viewport_array") else 1
        self._max_viewports = max(1, min(self._max_viewports, PIPE_MAX_VIEWPORTS))
        # glViewportIndexedf: sub-pixel origins, hence the native half-pixel shift.
        self._float_viewports = prof.has("viewport_array")
        self.viewports = [ViewportState()] * self._max_viewports
        self.scissors = [ScissorState()] * self._max_viewports
        self.viewport_y_flip = False  # VariantKey.y_flip of the last vertex stage (variant_keys.py)

    def _slots(self, what: str, start_slot: int, states) -> tuple:
        states = items(states, f"{what}: the states")
        start_slot = uint32(start_slot, f"{what}: start_slot")
        if start_slot < 0 or start_slot + len(states) > self._max_viewports:
            raise InvalidArgumentError(
                f"{what}: slots {start_slot}..{start_slot + len(states) - 1} outside the "
                f"{self._max_viewports} viewport(s) this host profile has (PIPE_CAP_MAX_VIEWPORTS)"
            )
        return states

    def set_viewport_states(self, start_slot: int, viewports: Sequence[ViewportState]) -> None:
        """pipe_context::set_viewport_states(start_slot, viewports)."""
        if (
            type(start_slot) is int
            and type(viewports) in (list, tuple)
            and 0 <= start_slot
            and start_slot + len(viewports) <= self._max_viewports
            and not self.ctx.destroyed
        ):
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
        self.ctx.check_alive("set_viewport_states")
        items = self._slots("set_viewport_states", start_slot, viewports)
        for i, vp in enumerate(items):
            if not isinstance(vp, ViewportState):
                raise InvalidArgumentError(f"set_viewport_states: viewports[{i}] is not a ViewportState")
            if vp.scale[0] < 0:
                # GL has no mirrored viewport and no variant mirrors x.
                raise UnsupportedError(
                    f"set_viewport_states: viewports[{i}] has a negative x scale {vp.scale[0]}; only y may be flipped"
                )
        changed = False
        for i, vp in enumerate(items):
            if self.viewports[start_slot + i] != vp:
                self.viewports[start_slot + i] = vp
                changed = True
        if changed:
            self.ctx.dirty |= Dirty.VIEWPORT
            # A negative y scale is a flip in the last vertex stage (the GL
            # rectangle takes |scale|): a variant, so it recompiles only when
            # the direction changes.
            flip = any(vp.scale[1] < 0 for vp in self.viewports)
            if flip != self.viewport_y_flip:
                self.viewport_y_flip = flip
                self.ctx.dirty |= Dirty.PROGRAM

    def set_scissor_states(self, start_slot: int, scissors: Sequence[ScissorState]) -> None:
        """pipe_context::set_scissor_states(start_slot, scissors); used when the
        rasterizer's scissor is enabled."""
        self.ctx.check_alive("set_scissor_states")
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
            self.ctx.dirty |= Dirty.SCISSOR

    # -- host side -------------------------------------------------------------

    def _clip_halfz(self) -> bool:
        """Whether the host maps NDC z in [0, 1]: the rasterizer's clip_halfz,
        except under ``_viewport_depth`` (rasterizer.py ``_host_halfz``)."""
        rast = self.ctx.rasterizer_part.rasterizer
        return bool(rast is not None and rast.viewport_fields[0])

    def _half_pixel_center(self) -> bool:
        rast = self.ctx.rasterizer_part.rasterizer
        return rast is None or bool(rast.templ.half_pixel_center)

    def _viewport_depth(self) -> bool:
        """The last vertex stage does the viewport's z transform and the host
        gets the depth range [0, 1] (near plane off, far plane on;
        docs/coordinates.md "Viewports")."""
        rast = self.ctx.rasterizer_part.rasterizer
        return bool(rast is not None and rast.viewport_fields[2])

    def check_viewport_depth(self, cso) -> None:
        """glpipe/variant_keys.py, keying ``viewport_depth`` for the last
        vertex stage ``cso``: the pass reads viewport 0's transform only, so a
        stage that selects viewports (VIEWPORT_INDEX) is refused where more
        than one viewport exists."""
        if self._max_viewports > 1 and cso.info.writes_viewport_index:
            raise UnsupportedError(
                "draw_vbo: RasterizerState.depth_clip_near = False with depth_clip_far = True clamps depth to "
                "[0, 1] only (depth_clamp = !depth_clip_far), which glpipe does by applying viewport 0's depth "
                "transform in the last vertex stage; a shader writing VIEWPORT_INDEX may select another viewport"
            )

    def _emit_viewport(self) -> None:
        gl = self.ctx.gl
        halfz = self._clip_halfz()
        # The depth transform in the vertex stage: the host's range is [0, 1],
        # so GL_DEPTH_CLAMP clamps to [0, 1] as Gallium's depth_clamp = False.
        depth01 = self._viewport_depth()
        flip = self.viewport_y_flip
        for i, vp in enumerate(self.viewports):
            if vp.scale[1] and (vp.scale[1] < 0) != flip:
                raise UnsupportedError(
                    f"draw_vbo: viewport {i} flips y and another does not; glpipe flips y for all viewports "
                    f"at once (in the shader)"
                )
        if self._float_viewports:
            # half_pixel_center = False (D3D9 integer pixel centres): Gallium's
            # point (x, y) is GL's (x + 0.5, y + 0.5), so the whole transform
            # moves by half a pixel (without float viewports the last vertex
            # stage moves instead: VariantKey.integer_pixel_centers).
            shift = 0.0 if self._half_pixel_center() else 0.5
            for i, vp in enumerate(self.viewports):
                x, y, w, h, n, f = viewport_rect(vp, halfz)
                gl.glViewportIndexedf(i, x + shift, y + shift, w, h)
                gl.glDepthRangeIndexed(i, *((0.0, 1.0) if depth01 else (n, f)))
        else:
            x, y, w, h, n, f = viewport_rect(self.viewports[0], halfz)
            # glViewport takes integers; Gallium viewports from GL frontends are
            # integral, and sub-pixel origins need viewport_array's float entry.
            # The halfz depth range works here too: the variant remaps z.
            gl.glViewport(int(round(x)), int(round(y)), int(round(w)), int(round(h)))
            gl.glDepthRange(*((0.0, 1.0) if depth01 else (n, f)))

    def _emit_scissor(self) -> None:
        gl = self.ctx.gl
        if self._max_viewports > 1:
            for i, sc in enumerate(self.scissors):
                gl.glScissorIndexed(i, sc.minx, sc.miny, sc.maxx - sc.minx, sc.maxy - sc.miny)
        else:
            sc = self.scissors[0]
            gl.glScissor(sc.minx, sc.miny, sc.maxx - sc.minx, sc.maxy - sc.miny)

    # -- VS_WINDOW_SPACE_POSITION ----------------------------------------------
    # Gallium: a VS with this property writes window coordinates; no
    # clipping, no viewport transform.  While such a VS is bound (with or
    # without a GS / TES after it, as in Mesa's draw module: a stage that
    # passes the position through keeps it) the host gets one fixed
    # transform -- the framebuffer's rectangle, depth range 0..1,
    # GL_DEPTH_CLAMP (no near / far clipping) -- and the sysvals block gets
    # that transform as viewport_scale / viewport_translate, through which
    # the lowering maps the window coordinates back to clip space
    # (lowering/glsl/emitter.py), so nothing recompiles.  GL still clips
    # x / y to the framebuffer, which draws nothing anyway.  The user's
    # viewports come back when the VS goes (Dirty.VIEWPORT re-emits them,
    # and the rasterizer is re-sent for its depth clamp).

    window_space = False  # the bound VS writes window coordinates

    def note_window_space(self) -> None:
        """Whether the bound VS writes window-space positions; on a change,
        dirty the transform.  Called by VS binds and deletes only
        (glpipe/shaders.py), so other shader switches cost nothing."""
        vs = self.ctx.shader_part.shaders[_VS]
        on = vs is not None and vs.window_space  # decided at create (ShaderCSO.window_space)
        if on != self.window_space:
            self.window_space = on
            self.ctx.dirty |= Dirty.VIEWPORT
            if not on:
                self.ctx.rasterizer_part._reset_rasterizer_shadow()  # GL_DEPTH_CLAMP back to the rasterizer's

    def _window_space_transform(self) -> tuple:
        """(scale, translate) of the fixed window-space transform: the
        framebuffer rectangle, depth 0..1 (z_ndc = z with clip_halfz, else
        2z - 1); y negated where the last vertex stage flips y
        (VariantKey.y_flip), so the flip cancels."""
        fb = self.ctx.framebuffer_part.framebuffer
        w, h = max(float(fb.width), 1.0), max(float(fb.height), 1.0)
        sz, tz = (1.0, 0.0) if self._clip_halfz() else (0.5, 0.5)
        sy = -0.5 * h if self.viewport_y_flip else 0.5 * h
        return (0.5 * w, sy, sz, 1.0), (0.5 * w, 0.5 * h, tz, 0.0)

    def _emit_window_space(self) -> None:
        """DERIVED_ORDER row after the transform sysvals and the rasterizer:
        while a window-space VS is bound, override the viewports, the
        transform sysvals and the depth clamp (see above)."""
        if not self.window_space:
            return
        gl = self.ctx.gl
        scale, translate = self._window_space_transform()
        w, h = 2.0 * scale[0], 2.0 * translate[1]
        if self._float_viewports:
            shift = 0.0 if self._half_pixel_center() else 0.5
            for i in range(self._max_viewports):
                gl.glViewportIndexedf(i, shift, shift, w, h)
                gl.glDepthRangeIndexed(i, 0.0, 1.0)
        else:
            gl.glViewport(0, 0, int(w), int(h))
            gl.glDepthRange(0.0, 1.0)
        # Behind the rasterizer's record, which is per host: forget it, so the
        # next rasterizer emit -- of this context once the VS goes
        # (note_window_space), or of another context on the host, or of a
        # context made after this one is destroyed -- sends the whole block.
        gl.glEnable(gl.GL_DEPTH_CLAMP)
        self.ctx.rasterizer_part.rast_host.forget()
        self.ctx.sysvals_part._set_sysval("viewport_scale", scale)
        self.ctx.sysvals_part._set_sysval("viewport_translate", translate)


# The VS slot of Context.shaders as a plain int (read on every shader bind).
_VS = int(ShaderType.VERTEX)

AREA = Area(
    "viewport_part",
    part=ViewportPart,
    methods=("set_viewport_states", "set_scissor_states"),
    rows=((Dirty.VIEWPORT, ViewportPart._emit_viewport), (Dirty.SCISSOR, ViewportPart._emit_scissor)),
    # Overrides the viewports, the transform sysvals and the rasterizer's
    # depth clamp while a window-space VS is bound (binding a rasterizer
    # then sets Dirty.VIEWPORT, so other rasterizer switches pay nothing here).
    late_rows=((Dirty.FRAMEBUFFER | Dirty.VIEWPORT | Dirty.RASTERIZER, ViewportPart._emit_window_space),),
)

__all__ = ["AREA", "ViewportPart", "viewport_rect"]
