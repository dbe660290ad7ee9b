"""Rasterizer state: ``RasterizerPart`` (``ctx.rasterizer_part``) --
create/bind/delete_rasterizer_state, set_clip_state, set_polygon_stipple,
set_window_rectangles, set_tess_state -- and draw_vbo's hooks into the
rasterizer emulations (line stipple, polygon edges, fill modes).

A ``RasterizerCSO`` is the template resolved once into GL state slots, its
variant-key entries and the fields other areas read; a bind swaps it and
sets dirty bits; the emit sends the cached transition from what the host
holds (one record per host).  docs/rasterizer.md, "In the code" and
"Emission and cost", has the design; the field table there says what glpipe
does with every field and what it refuses at create time.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from glpipe.boundary import flag, items, numbers_of
from lowering.errors import InvalidArgumentError, UnsupportedError
from lowering.glsl.passes.depth import DEPTH_OFFSET_FULL

from ..dirty import Dirty, KeepGeneral
from ..enums import (
    PIPE_MAX_CLIP_PLANES,
    PIPE_MAX_WINDOW_RECTANGLES,
    Face,
    PolygonMode,
)
from ..host.hotgl import OP
from ..host.shadow import Shadow, host_shadow
from ..part import Area, Part
from ..shaders import variant_input
from ..templates import ClipState, PolyStipple, RasterizerState, ScissorState
from .rasterizer_keys import (
    KEY_DEPTH_CLIP,
    KEY_DEPTH_OFFSET,
    KEY_EDGE_FILL,
    KEY_FILL_SPLIT,
    KEY_LINE_LAST_PIXEL,
    KEY_LINE_SMOOTH,
    KEY_LINE_STIPPLE,
    REFUSED,
    any_offset,
    depth_clip_slot,
    depth_key,
    effective_fill_modes,
    emulated_key,
    host_halfz,
    key_of,
    offset_mode,
    origin_key,
    prim_classes,
    viewport_depth,
)

# Gallium's fill modes GL's glPolygonMode can take.
_GL_POLYGON_MODE = {PolygonMode.FILL: "GL_FILL", PolygonMode.LINE: "GL_LINE", PolygonMode.POINT: "GL_POINT"}
_GL_CULL = {Face.FRONT: "GL_FRONT", Face.BACK: "GL_BACK", Face.FRONT_AND_BACK: "GL_FRONT_AND_BACK"}

# (attribute of _Resolved, GL capability): one glEnable / glDisable each.
_SWITCHES = (
    ("cull", "GL_CULL_FACE"),
    ("offset_point", "GL_POLYGON_OFFSET_POINT"),
    ("offset_line", "GL_POLYGON_OFFSET_LINE"),
    ("offset_tri", "GL_POLYGON_OFFSET_FILL"),
    ("scissor", "GL_SCISSOR_TEST"),
    ("poly_smooth", "GL_POLYGON_SMOOTH"),
    ("point_size_per_vertex", "GL_PROGRAM_POINT_SIZE"),
    ("line_smooth", "GL_LINE_SMOOTH"),
    ("multisample", "GL_MULTISAMPLE"),
    ("depth_clamp", "GL_DEPTH_CLAMP"),
    ("rasterizer_discard", "GL_RASTERIZER_DISCARD"),
)


_OP_ENABLE, _OP_DISABLE = OP["glEnable"], OP["glDisable"]


class _GLEnums:
    """GL enum values by name as plain ints (``gl.GL_CCW`` / ``gl["GL_CCW"]``)."""

    def __init__(self, gl):
        self._gl = gl

    def __getattr__(self, name: str) -> int:
        return int(getattr(self._gl, name))

    __getitem__ = __getattr__


# Slots of _SWITCHES the clear code turns off behind the record (glpipe/clear.py).
_CLEAR_CLOBBERS = frozenset(i for i, (attr, _) in enumerate(_SWITCHES) if attr in ("scissor", "rasterizer_discard"))


class _HostRasterizer(Shadow):
    """What one host GL context holds of the rasterizer block (its shadow,
    glpipe/host/shadow.py: the slot values, None = unknown) and the
    GL_CLIP_DISTANCEi mask (None: unknown).  Shared by every pipe context on
    the host."""

    __slots__ = ("clip_distances",)

    def __init__(self) -> None:
        super().__init__()
        self.clip_distances = None

    def cleared(self) -> None:
        """A clear may have changed the scissor test and rasterizer discard
        behind the record: make those slots unknown, so the next transition
        sends them."""
        self.lose(_CLEAR_CLOBBERS)


def _slot_calls(have, slots: tuple) -> tuple:
    """(calls, slot values after them) taking a host holding ``have`` (slot
    values; None: unknown) to ``slots`` (None entries: don't care, the host
    keeps what it has); the rasterizer shadow interns and caches."""
    calls, after = [], []
    for i, want in enumerate(slots):
        prior = None if have is None else have[i]
        if want is None:
            after.append(prior)
            continue
        if want != prior:
            calls.append(want)
        after.append(want)
    return calls, tuple(after)


class DrawFlags(NamedTuple):
    """What the draw path reads of a CSO's variant key (``RasterizerCSO.
    draw_flags``), copied into the part's ``rast_*`` attributes by a bind."""

    class_sensitive: bool  # prim_classes is not None: draw_vbo keys each draw's primitive class
    line_stipple: bool  # line_stipple_enable (glpipe/raster/line_stipple.py)
    line_last_pixel: int  # the line_last_pixel key entry (glpipe/raster/line_stipple.py)
    line_smooth: float  # the line width glpipe draws antialiased lines with (0.0: none; the host quirk)
    line_gs: bool  # any of the three: line draws get the generated GS
    fill_split: bool  # the faces are drawn in different fill modes (glpipe/raster/fill_modes.py)
    edge_fill: bool  # a face is drawn as lines or points (glpipe/raster/polygon_edges.py)


class ViewportFields(NamedTuple):
    """What the viewport transform reads of a CSO (glpipe/viewport.py)."""

    host_halfz: bool  # the host maps NDC z to [0, 1] (rasterizer_keys.host_halfz)
    half_pixel_center: bool  # GL's pixel centres (False: integer centres, a +0.5 shift)
    viewport_depth: bool  # the last vertex stage does the depth transform (rasterizer_keys.viewport_depth)


class RasterizerCSO:
    """A rasterizer state object: the template resolved into host calls per
    GL state slot (``slots``), the variant-relevant fields (``key``) and the
    fields other blocks read.  ``transitions`` caches, per host state it was
    emitted over, (the calls to send, the host state afterwards)."""

    __slots__ = (
        "__weakref__",
        "clip_plane_enable",
        "context",
        "depth_clip_plane",
        "depth_offset",
        "destroyed",
        "key",
        "line_stipple",
        "persample",
        "smooth_overrides",
        "draw_flags",
        "prim_classes",
        "slots",
        "templ",
        "transitions",
        "viewport_fields",
    )

    def __init__(
        self,
        context,
        templ: RasterizerState,
        slots: tuple,
        emulate: tuple,
        smooth_range: tuple[float, float] | None = None,
        smooth_overrides: tuple = (),
    ):
        self.context = context
        self.templ = templ
        self.destroyed = False
        self.slots = slots
        self.transitions: dict = {}
        # The holder (shaders.variant_input): compared with ``is``.
        self.key = variant_input(
            key_of(templ, smooth_range) + depth_key(templ) + emulated_key(templ, emulate) + origin_key(templ)
        )
        # Not None: the variant depends on the draw's primitive class (draw_vbo keys it).
        self.prim_classes = prim_classes(templ, self.key.value)
        # What the draw path reads of the key, worked out here so a bind copies it.
        k = self.key.value
        self.draw_flags = DrawFlags(
            self.prim_classes is not None,
            k[KEY_LINE_STIPPLE],
            k[KEY_LINE_LAST_PIXEL],
            k[KEY_LINE_SMOOTH],
            bool(k[KEY_LINE_STIPPLE] or k[KEY_LINE_LAST_PIXEL] or k[KEY_LINE_SMOOTH]),
            bool(k[KEY_FILL_SPLIT]),
            bool(k[KEY_EDGE_FILL]),
        )
        self.clip_plane_enable = int(templ.clip_plane_enable) & 0xFF
        # Not DEPTH_CLIP_NONE: one more GL_CLIP_DISTANCEi, the depth plane's (_emit_clip_distances).
        self.depth_clip_plane = self.key.value[KEY_DEPTH_CLIP]
        # sysvals.depth_offset while bound, when an unscaled offset variant may run (else None).
        self.depth_offset = (
            (float(templ.offset_scale), float(templ.offset_units), float(templ.offset_clamp), 0.0)
            if self.key.value[KEY_DEPTH_OFFSET]
            else None
        )
        # What the viewport transform reads (glpipe/viewport.py): the host's
        # halfz, the pixel centres, the depth transform in the vertex stage.
        self.viewport_fields = ViewportFields(host_halfz(templ), bool(templ.half_pixel_center), viewport_depth(templ))
        self.persample = bool(templ.force_persample_interp)
        # Antialiased lines drawn by glpipe are triangles: the host's polygon
        # state this CSO turns on, off around such a draw and back after it
        # ((off function, args, on function, args) each; _draw_smooth_lines).
        self.smooth_overrides = smooth_overrides if k[KEY_LINE_SMOOTH] else ()
        # sysvals.line_stipple (pattern, factor) while bound; None: stipple off.
        self.line_stipple = (
            (int(templ.line_stipple_pattern), int(templ.line_stipple_factor)) if templ.line_stipple_enable else None
        )

    def __repr__(self) -> str:
        return "<RasterizerCSO deleted>" if self.destroyed else f"<RasterizerCSO {len(self.transitions)} transitions>"


class RasterizerPart(Part):
    """The rasterizer area (``ctx.rasterizer_part``): rasterizer state, user
    clip planes, the polygon stipple, window rectangles and default
    tessellation levels, and draw_vbo's hooks into the rasterizer
    emulations (line stipple, polygon edges, fill modes)."""

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        gl = ctx.gl
        prof = ctx.screen.profile
        self._rast_caps = {name: int(getattr(gl, name)) for _, name in _SWITCHES}
        self._rast_has_clip_control = prof.has("clip_control")
        self._rast_has_offset_clamp = prof.has("polygon_offset_clamp")
        self._rast_has_tess = prof.has("tessellation_shader")
        self._rast_point_range = tuple(float(v) for v in prof.limit("GL_POINT_SIZE_RANGE", (1.0, 1.0)))
        self._rast_line_range = tuple(float(v) for v in prof.limit("GL_ALIASED_LINE_WIDTH_RANGE", (1.0, 1.0)))
        self._rast_smooth_line_range = tuple(
            float(v) for v in prof.limit("GL_SMOOTH_LINE_WIDTH_RANGE", self._rast_line_range)
        )
        self.rast_max_clip_distances = min(int(prof.limit("GL_MAX_CLIP_DISTANCES", 8)), PIPE_MAX_CLIP_PLANES)
        if self._rast_has_offset_clamp and not ctx._hot.glPolygonOffsetClamp:
            # glpipe/host/hotgl.py asks for the core name, then the EXT one (a GL 4.5
            # host with the extension may only export the latter).
            raise UnsupportedError(
                "the host reports polygon offset clamp but exports no glPolygonOffsetClamp entry point"
            )
        # Variants stand in for the GL switches this host lacks (lowering/glsl/passes/vertex.py):
        # clip_halfz without glClipControl, integer pixel centres without float viewports.
        self._rast_emulate = (not self._rast_has_clip_control, not prof.has("viewport_array"))
        # The host quirk smooth_line_crash (glpipe/host/quirks.py): glpipe draws
        # antialiased lines itself, with these widths (docs/rasterizer.md
        # "Antialiased lines"); None: the host's GL_LINE_SMOOTH does.
        self._rast_smooth = self._rast_smooth_line_range if ctx.screen.host_facts.has("smooth_line_crash") else None
        self.rasterizer = None
        self.rasterizer_default = self._new_cso(RasterizerState())
        self.rast_key = self.rasterizer_default.key
        self._rast_viewport = self.rasterizer_default.viewport_fields
        self._rast_persample = False
        self._rast_draw_flags = self.rasterizer_default.draw_flags
        self.rast_class_sensitive = False  # bound CSO's prim_classes is not None: draw_vbo keys the class
        self.rast_line_stipple = False  # bound CSO's line_stipple_enable (glpipe/raster/line_stipple.py)
        self.rast_line_last_pixel = 0  # bound CSO's line_last_pixel key entry (glpipe/raster/line_stipple.py)
        self.rast_line_smooth = 0.0  # bound CSO's line_smooth key entry: glpipe's antialiased lines' width
        self.rast_line_gs = False  # any: line draws get the generated GS (glpipe/raster/line_stipple.py)
        self._rast_fill_split = False  # bound CSO draws its faces in different fill modes (glpipe/raster/fill_modes.py)
        self.rast_edge_fill = False  # bound CSO draws a face as lines or points (glpipe/raster/polygon_edges.py)
        # draw_vbo's hooks into this area (glpipe/draw.py; _set_draw_hooks): None while idle.
        ctx._raster_draw_keys = ctx._raster_draw = ctx._raster_translated = None
        self.rast_host = host_shadow(ctx.host, "rasterizer", _HostRasterizer)
        # Non-CSO state, as Gallium last set it.
        self.clip_state = ClipState()
        self.poly_stipple = PolyStipple()
        self.window_rectangles = (False, ())  # (include, rects)
        self.window_rect_key = variant_input((0, False))  # VariantKey.window_rectangles / _include
        self.tess_state = ((1.0,) * 4, (1.0,) * 2)  # GL's default patch levels
        ctx.dirty |= Dirty.RASTERIZER | Dirty.TESS

    # -- CSO -----------------------------------------------------------------

    def create_rasterizer_state(self, templ: RasterizerState) -> RasterizerCSO:
        """pipe_context::create_rasterizer_state: validate and resolve once.

        Fields the host cannot honour raise UnsupportedError naming the field
        (docs/rasterizer.md); nothing is silently ignored."""
        ctx = self.ctx
        ctx.check_alive("create_rasterizer_state")
        if not isinstance(templ, RasterizerState):
            raise InvalidArgumentError(
                f"create_rasterizer_state: expected a RasterizerState, got {type(templ).__name__}"
            )
        prof = ctx.screen.profile
        for field, refused, why in REFUSED:
            if refused(templ, prof):
                raise UnsupportedError(f"create_rasterizer_state: RasterizerState.{field}: {why}")
        for name in ("point_size", "line_width"):
            value = getattr(templ, name)
            if not value >= 0.0:  # also catches NaN
                raise InvalidArgumentError(f"RasterizerState.{name}: {value!r} is negative or not a number")
        if not 0 <= templ.clip_plane_enable < 1 << PIPE_MAX_CLIP_PLANES:
            raise InvalidArgumentError(
                f"RasterizerState.clip_plane_enable {templ.clip_plane_enable:#x} is not a "
                f"mask of PIPE_MAX_CLIP_PLANES ({PIPE_MAX_CLIP_PLANES}) bits"
            )
        if templ.line_stipple_enable and not (
            0 <= templ.line_stipple_pattern <= 0xFFFF and 0 <= templ.line_stipple_factor <= 255
        ):
            raise InvalidArgumentError(
                f"RasterizerState.line_stipple_pattern / line_stipple_factor: {templ.line_stipple_pattern!r} / "
                f"{templ.line_stipple_factor!r} are not a 16-bit pattern and an 8-bit factor (repeat - 1)"
            )
        if templ.clip_plane_enable >> self.rast_max_clip_distances:
            raise UnsupportedError(
                f"create_rasterizer_state: RasterizerState.clip_plane_enable {templ.clip_plane_enable:#x} enables "
                f"planes beyond the host's {self.rast_max_clip_distances} clip distances (PIPE_CAP_CLIP_PLANES)"
            )
        cso = ctx._own(self._new_cso(templ))
        ctx.host.check("create_rasterizer_state")
        return cso

    def _new_cso(self, templ: RasterizerState) -> RasterizerCSO:
        return RasterizerCSO(
            self.ctx,
            templ,
            self._rasterizer_slots(templ),
            self._rast_emulate,
            self._rast_smooth,
            self._smooth_overrides(templ),
        )

    def _smooth_overrides(self, t: RasterizerState) -> tuple:
        """The host polygon state ``t`` turns on that must be off while glpipe's
        antialiased lines (triangles) are drawn: Gallium culls, offsets,
        smooths and fills polygons only, never lines."""
        if self._rast_smooth is None:
            return ()
        gl = _GLEnums(self.ctx.gl)
        out = []
        switches = (
            (t.cull_face != Face.NONE, "GL_CULL_FACE"),
            (bool(t.offset_tri) and offset_mode(t) != DEPTH_OFFSET_FULL, "GL_POLYGON_OFFSET_FILL"),
            (bool(t.poly_smooth), "GL_POLYGON_SMOOTH"),
        )
        for on, cap in switches:
            if on:
                out.append(("glDisable", (gl[cap],), "glEnable", (gl[cap],)))
        modes = effective_fill_modes(t)
        mode = PolygonMode(t.fill_front) if len(modes) > 1 else modes.pop() if modes else PolygonMode.FILL
        if mode != PolygonMode.FILL:
            both = gl.GL_FRONT_AND_BACK
            out.append(("glPolygonMode", (both, gl.GL_FILL), "glPolygonMode", (both, gl[_GL_POLYGON_MODE[mode]])))
        return tuple(out)

    def _rasterizer_slots(self, t: RasterizerState) -> tuple:
        """One ``(hotgl.OP index, args)`` per GL state slot, None where ``t``
        does not care (docs/rasterizer.md "In the code"); same slots, same order for
        every template of a host."""
        gl = _GLEnums(self.ctx.gl)
        modes = effective_fill_modes(t)
        # Two modes (faces drawn differently): fill_front here; glpipe/raster/fill_modes.py
        # switches per run of one facing and restores this.
        mode = PolygonMode(t.fill_front) if len(modes) > 1 else modes.pop() if modes else PolygonMode.FILL
        flags = {
            "cull": t.cull_face != Face.NONE,
            "offset_point": bool(t.offset_point),
            "offset_line": bool(t.offset_line),
            "offset_tri": bool(t.offset_tri),
            "scissor": bool(t.scissor),
            "poly_smooth": bool(t.poly_smooth),
            "point_size_per_vertex": bool(t.point_size_per_vertex),
            # Never the host's under the smooth_line_crash quirk (key entry KEY_LINE_SMOOTH).
            "line_smooth": bool(t.line_smooth) and self._rast_smooth is None,
            "multisample": bool(t.multisample),
            # GL_DEPTH_CLAMP disables near and far clipping and clamps to the
            # depth range.  With one plane off the other comes back as a clip
            # distance (passes/depth.py); the clamp is then Gallium's
            # depth_clamp = !depth_clip_far (PIPE_CAP_DEPTH_CLAMP_ENABLE 0)
            # except beyond a disabled near plane (docs/rasterizer.md).
            "depth_clamp": not (t.depth_clip_near and t.depth_clip_far),
            "rasterizer_discard": bool(t.rasterizer_discard),
        }
        full_offset = offset_mode(t) == DEPTH_OFFSET_FULL
        if full_offset:  # the FS variant computes the whole offset
            flags["offset_point"] = flags["offset_line"] = flags["offset_tri"] = False
        calls = [((_OP_ENABLE if flags[attr] else _OP_DISABLE), (self._rast_caps[cap],)) for attr, cap in _SWITCHES]
        # Gallium judges winding over window positions with y growing downward
        # from row 0 (softpipe sp_setup.c, draw_pipe_cull.c: front when
        # front_ccw and det < 0, or not front_ccw and det > 0); glpipe's window
        # positions are GL's one to one, whose y grows upward, so Gallium's
        # counter-clockwise is GL's clockwise: front_ccw is GL_CW (Mesa's
        # st/mesa: front_ccw ^= 1 for its y-0-at-bottom FBOs).
        # bottom_edge_rule draws with clip origin UPPER_LEFT, under which GL
        # negates the area a (GL 4.5 §14.6.1; Mesa: front_ccw ^= 1 for
        # UPPER_LEFT); the vertex stage undoes the origin's y mirror, so the
        # window positions are unchanged and the GL front face flips back.
        # docs/rasterizer.md "Winding".
        gl_cw = bool(t.front_ccw) != bool(t.bottom_edge_rule)
        calls.append((OP["glFrontFace"], (gl.GL_CW if gl_cw else gl.GL_CCW,)))
        calls.append((OP["glCullFace"], (gl[_GL_CULL[Face(t.cull_face)]],)) if flags["cull"] else None)
        calls.append((OP["glPolygonMode"], (gl.GL_FRONT_AND_BACK, gl[_GL_POLYGON_MODE[mode]])))
        # Unscaled units never reach GL (DEPTH_OFFSET_UNITS: the FS adds them).
        units = 0.0 if t.offset_units_unscaled else float(t.offset_units)
        if not any_offset(t) or full_offset:
            calls.append(None)
        elif self._rast_has_offset_clamp:
            calls.append((OP["glPolygonOffsetClamp"], (float(t.offset_scale), units, float(t.offset_clamp))))
        else:
            calls.append((OP["glPolygonOffset"], (float(t.offset_scale), units)))
        # GL clamps sizes to the implementation's range (and refuses 0, which
        # is the template's default): do it here, as the caps announce it.
        lo, hi = self._rast_point_range
        calls.append((OP["glPointSize"], (min(max(float(t.point_size), lo), hi),)))
        lo, hi = self._rast_smooth_line_range if t.line_smooth else self._rast_line_range
        calls.append((OP["glLineWidth"], (min(max(float(t.line_width), lo), hi),)))
        calls.append(
            (
                OP["glProvokingVertex"],
                (gl.GL_FIRST_VERTEX_CONVENTION if t.flatshade_first else gl.GL_LAST_VERTEX_CONVENTION,),
            )
        )
        if self._rast_has_clip_control:
            # The one glClipControl call: the origin gives the bottom-edge rule
            # (Mesa: bottom_edge_rule ^= ClipOrigin == UPPER_LEFT for FBOs),
            # the depth mode the host's halfz (glpipe/viewport.py).
            calls.append(
                (
                    OP["glClipControl"],
                    (
                        gl.GL_UPPER_LEFT if t.bottom_edge_rule else gl.GL_LOWER_LEFT,
                        gl.GL_ZERO_TO_ONE if host_halfz(t) else gl.GL_NEGATIVE_ONE_TO_ONE,
                    ),
                )
            )
        return tuple(calls)

    def bind_rasterizer_state(self, cso: RasterizerCSO | None) -> None:
        """pipe_context::bind_rasterizer_state (None: the template defaults)."""
        previous = self.rasterizer
        if cso is previous:
            return
        ctx = self.ctx
        if cso is None:
            used = self.rasterizer_default
        else:
            if type(cso) is not RasterizerCSO or cso.context is not ctx or cso.destroyed:
                ctx._check_cso(cso, RasterizerCSO, "bind_rasterizer_state")  # raises, naming what is wrong
            used = cso
        self.rasterizer = cso
        ctx.dirty |= Dirty.RASTERIZER_CSO
        if ctx.viewport_part.window_space:
            ctx.dirty |= Dirty.VIEWPORT  # the window-space override follows the rasterizer (viewport.py)
        was = previous or self.rasterizer_default
        if used.clip_plane_enable != was.clip_plane_enable or used.depth_clip_plane != was.depth_clip_plane:
            ctx.dirty |= Dirty.CLIP  # the GL_CLIP_DISTANCEi switches (_emit_clip_distances)
        if used.key is not self.rast_key:
            self.rast_key = used.key
            ctx.dirty |= Dirty.PROGRAM  # VariantKey fields (glpipe/variant_keys.py)
            # Class sensitivity follows from the key.  While it is on, draws stay
            # off draw_vbo's fast path (Dirty.DRAW_STATE, kept set by the general
            # path), which keys each draw's primitive class (glpipe/variant_keys.py).
            flags = used.draw_flags  # (RasterizerCSO)
            if flags != self._rast_draw_flags:
                self._rast_draw_flags = flags
                (
                    self.rast_class_sensitive,
                    self.rast_line_stipple,
                    self.rast_line_last_pixel,
                    self.rast_line_smooth,
                    self.rast_line_gs,
                    self._rast_fill_split,
                    self.rast_edge_fill,
                ) = flags
                self._set_draw_hooks()
            if self.rast_class_sensitive or self.rast_edge_fill:
                ctx.dirty |= Dirty.DRAW_STATE  # (edge flags: glpipe/raster/polygon_edges.py keys the next draw)
        if used.line_stipple is not None:
            ctx.sysvals_part._set_sysval("line_stipple", used.line_stipple)  # marks the block dirty only on a change
        if used.depth_offset is not None:
            ctx.sysvals_part._set_sysval("depth_offset", used.depth_offset)  # scale, units, clamp (passes/depth.py)
        if used.viewport_fields != self._rast_viewport:
            self._rast_viewport = used.viewport_fields
            ctx.dirty |= Dirty.VIEWPORT  # depth range (clip_halfz), half-pixel shift
        if used.persample != self._rast_persample:
            self._rast_persample = used.persample
            ctx.dirty |= Dirty.MIN_SAMPLES  # sample shading is shared with set_min_samples

    def delete_rasterizer_state(self, cso: RasterizerCSO) -> None:
        """pipe_context::delete_rasterizer_state.  Deleting the bound state is
        a frontend bug in Gallium; glpipe unbinds it, so the next draw uses
        the template defaults."""
        self.ctx._check_cso(cso, RasterizerCSO, "delete_rasterizer_state")
        if self.rasterizer is cso:
            self.bind_rasterizer_state(None)
        cso.destroyed = True

    destroy_rasterizer_state = delete_rasterizer_state  # the spec's spelling

    # -- non-CSO state ---------------------------------------------------------

    def set_clip_state(self, state: ClipState) -> None:
        """pipe_context::set_clip_state: the user clip planes (a, b, c, d) in
        clip coordinates, used by the planes the rasterizer's
        clip_plane_enable selects when the shader writes no clip distances.
        They go into the sysvals block: changing them never recompiles."""
        ctx = self.ctx
        ctx.check_alive("set_clip_state")
        if not isinstance(state, ClipState):
            raise InvalidArgumentError(f"set_clip_state: expected a ClipState, got {type(state).__name__}")
        for i, plane in enumerate(state.ucp):
            if len(plane) != 4 or any(isinstance(c, bool) or not isinstance(c, (int, float)) for c in plane):
                raise InvalidArgumentError(f"ClipState.ucp[{i}]: expected 4 numbers (a, b, c, d), got {plane!r}")
        if state == self.clip_state:
            return
        self.clip_state = state
        for i, plane in enumerate(state.ucp):
            ctx.sysvals_part._set_sysval("clip_plane", plane, i)

    def set_polygon_stipple(self, stipple: PolyStipple) -> None:
        """pipe_context::set_polygon_stipple: 32 rows of 32 bits.  Row r
        applies to window rows y with y % 32 == r; within a row the most
        significant bit is x % 32 == 0 (Gallium's convention, as
        util_pstipple reads it)."""
        ctx = self.ctx
        ctx.check_alive("set_polygon_stipple")
        if not isinstance(stipple, PolyStipple):
            raise InvalidArgumentError(f"set_polygon_stipple: expected a PolyStipple, got {type(stipple).__name__}")
        rows = stipple.stipple
        if len(rows) != 32:
            raise InvalidArgumentError(f"PolyStipple.stipple: expected 32 rows, got {len(rows)}")
        for r, row in enumerate(rows):
            if isinstance(row, bool) or not isinstance(row, int) or not 0 <= row <= 0xFFFFFFFF:
                raise InvalidArgumentError(f"PolyStipple.stipple[{r}]: {row!r} is not a 32-bit row")
        if stipple == self.poly_stipple:
            return
        self.poly_stipple = stipple
        # sysvals.stipple[r // 4][r % 4] is row r as Gallium gives it; the
        # variant reads bit 31 - x % 32 (lowering/glsl/passes/fragment.py).
        for i in range(8):
            ctx.sysvals_part._set_sysval("stipple", rows[4 * i : 4 * i + 4], i)

    def set_window_rectangles(self, include: bool, rects: Sequence[ScissorState]) -> None:
        """pipe_context::set_window_rectangles(include, rects): up to
        PIPE_MAX_WINDOW_RECTANGLES ScissorStates (max exclusive).  With
        ``include`` a fragment outside every rectangle is discarded, else a
        fragment inside any rectangle is; draws only (not clears or blits).
        Implemented in the fragment shader variant: the count and mode are
        VariantKey fields, the rectangles sysvals."""
        ctx = self.ctx
        ctx.check_alive("set_window_rectangles")
        include = flag(include, "set_window_rectangles: include")
        rects = items(rects, "set_window_rectangles: rects")
        if len(rects) > PIPE_MAX_WINDOW_RECTANGLES:
            raise InvalidArgumentError(
                f"set_window_rectangles: {len(rects)} rectangles, at most "
                f"{PIPE_MAX_WINDOW_RECTANGLES} (PIPE_CAP_MAX_WINDOW_RECTANGLES)"
            )
        for i, r in enumerate(rects):
            if not isinstance(r, ScissorState):
                raise InvalidArgumentError(f"set_window_rectangles: rects[{i}] is not a ScissorState")
            if r.maxx < r.minx or r.maxy < r.miny:
                raise InvalidArgumentError(f"set_window_rectangles: rects[{i}] has max < min: {r!r}")
        value = (bool(include), rects)
        if value == self.window_rectangles:
            return
        self.window_rectangles = value
        for i, r in enumerate(rects):
            ctx.sysvals_part._set_sysval("window_rect", (r.minx, r.miny, r.maxx - r.minx, r.maxy - r.miny), i)
        key = variant_input((len(rects), bool(include)))
        if key is not self.window_rect_key:
            self.window_rect_key = key
            ctx.dirty |= Dirty.PROGRAM  # VariantKey.window_rectangles / _include

    def set_tess_state(self, default_outer_level: Sequence[float], default_inner_level: Sequence[float]) -> None:
        """pipe_context::set_tess_state: the tessellation levels used when no
        tessellation control shader is bound (GL_PATCH_DEFAULT_OUTER_LEVEL /
        INNER_LEVEL), also readable by shaders as the TESS_DEFAULT_*_LEVEL
        system values (sysvals).  Needs tessellation on the host."""
        ctx = self.ctx
        ctx.check_alive("set_tess_state")
        if not self._rast_has_tess:
            raise UnsupportedError(
                f"set_tess_state: tessellation is not available on the {ctx.screen.profile.name} profile"
            )
        outer = numbers_of(default_outer_level, "set_tess_state: default_outer_level (4 outer and 2 inner levels)", 4)
        inner = numbers_of(default_inner_level, "set_tess_state: default_inner_level (4 outer and 2 inner levels)", 2)
        if (outer, inner) == self.tess_state:
            return
        self.tess_state = (outer, inner)
        ctx.sysvals_part._set_sysval("tess_default_outer", outer)
        ctx.sysvals_part._set_sysval("tess_default_inner", inner)
        ctx.dirty |= Dirty.TESS

    # -- emit ----------------------------------------------------------------

    def _forget_rasterizer_clobbers(self) -> None:
        """Dirty.RASTERIZER's row in DERIVED_ORDER, just before
        _emit_rasterizer: a clear (of this context, or of another one: the
        draw prologue sets every bit) may have changed the scissor test and
        rasterizer discard behind the host's record."""
        self.rast_host.cleared()

    def _emit_rasterizer(self) -> None:
        """Take the host from what it holds to the bound CSO: the CSO's
        cached transition from the held state (docs/rasterizer.md "In the
        code", the host record)."""
        ctx = self.ctx
        cso = self.rasterizer or self.rasterizer_default
        # The shadow's hit path, inline (glpipe/host/shadow.py: a call costs).
        host = self.rast_host
        step = cso.transitions.get(host.held)
        if step is None:
            step = host.transition(cso.transitions, _slot_calls, cso.slots)
        calls, host.held, n = step
        if n:
            ops = ctx._hot_ops
            for op, args in calls:
                ops[op](*args)
            ctx._counters.gl_state_calls += n

    def _reset_rasterizer_shadow(self) -> None:
        """Raw GL changed rasterizer state behind glpipe's back: forget what
        the host holds, so the next draw sends the whole block."""
        self.rast_host.forget()
        self.rast_host.clip_distances = None
        self.ctx.dirty |= Dirty.RASTERIZER

    def _emit_clip_distances(self) -> None:
        """GL_CLIP_DISTANCEi switches: the rasterizer's clip_plane_enable, cut
        to the gl_ClipDistance[i] the program's last vertex stage writes
        (``Reflection.clip_distance_mask``: the shader's own CLIPDIST
        outputs, else the user-plane distances its variant computes).
        Gallium counts unwritten distances as disabled; GL leaves an enabled
        unwritten one undefined.  Runs on Dirty.CLIP (a bind changed
        clip_plane_enable, or a new program writes other distances:
        shaders.py) and Dirty.RASTERIZER.  With one depth plane disabled the
        other one's distance is enabled too (``depth_clip_slot``, the slot
        variant_keys.py gave the last vertex stage)."""
        ctx = self.ctx
        cso = self.rasterizer or self.rasterizer_default
        mask = cso.clip_plane_enable
        if cso.depth_clip_plane:
            last = ctx.variant_keys_part._last_vertex_stage()
            if last is not None:
                mask |= 1 << depth_clip_slot(mask, ctx.shader_part.shaders[last].ir, self.rast_max_clip_distances)
        host = self.rast_host
        prog = ctx.shader_part.program
        # Clip distances standing for cull distances (lowering/glsl/passes/cull.py) are always on.
        cull = prog.cull_clip_mask if prog is not None else 0
        if not mask and not cull and host.clip_distances == 0:
            return  # the common case: no planes, none enabled
        if mask:
            mask &= prog.clip_mask if prog is not None else 0  # shaders.py: the last vertex stage's
        mask |= cull
        old = host.clip_distances
        if mask == old:
            return
        gl = ctx.gl
        calls = 0
        base = int(gl.GL_CLIP_DISTANCE0)
        for i in range(self.rast_max_clip_distances):
            bit = 1 << i
            if old is None or (old ^ mask) & bit:
                (gl.glEnable if mask & bit else gl.glDisable)(base + i)
                calls += 1
        host.clip_distances = mask
        ctx._counters.gl_state_calls += calls

    # -- draw_vbo's hooks (glpipe/draw.py) ------------------------------------
    # While the bound CSO needs work per draw, the context's hooks name it:
    # ``_raster_draw_keys(mode)`` before the derived state (key the draw's
    # primitive class and edge flags), ``_raster_draw(info, draws)`` after it
    # (draw through an emulation; True when it drew), ``_raster_translated``
    # per index-translated polygon draw (its edge masks).  None otherwise, so
    # the draw tests one attribute per hook and knows no emulation by name.

    def _set_draw_hooks(self) -> None:
        """After the bound CSO's draw flags changed: the hooks, and this
        area's reasons to keep draw_vbo on its general path (KeepGeneral)."""
        ctx = self.ctx
        edges = ctx.polygon_edges_part
        keyed = self.rast_class_sensitive or self.rast_edge_fill
        ctx._raster_draw_keys = self._rasterizer_draw_keys if keyed else None
        emulated = self.rast_line_stipple or self.rast_line_smooth or self.rast_edge_fill or self._rast_fill_split
        ctx._raster_draw = self._rasterizer_draw if emulated else None
        ctx._raster_translated = edges._edge_masks_translated if self.rast_edge_fill else None
        ctx._keep_general(KeepGeneral.PRIM_CLASS, self.rast_class_sensitive)
        ctx._keep_general(KeepGeneral.EDGE_FLAGS, self.rast_edge_fill and edges.edge_sticky)

    def _rasterizer_draw_keys(self, mode) -> None:
        """Hook: key this draw.  A field on that applies to one primitive
        class (polygon / line stipple, sprite coordinates, point smoothing,
        line last pixel, unscaled offset, per-face fill modes): Dirty.PROGRAM
        if the draw's class is not the one keyed (glpipe/variant_keys.py);
        lines get the generated GS (glpipe/raster/line_stipple.py); a face drawn as
        lines / points gets the draw's edge flags (glpipe/raster/polygon_edges.py)."""
        ctx = self.ctx
        if self.rast_class_sensitive:
            ctx.variant_keys_part._key_prim_class(mode)
            if self.rast_line_gs:
                ctx.line_stipple_part._key_line_gs(mode)
        if self.rast_edge_fill:
            ctx.polygon_edges_part._key_polygon_edges(mode)

    def _rasterizer_draw(self, info, draws) -> bool:
        """Hook: draw through an emulation when this draw needs one; True
        when it drew.  Antialiased lines drawn by glpipe: the polygon state
        off around the draw (``_draw_smooth_lines``, which draws stippled
        strips too).  A stippled strip or loop: segment bases first
        (glpipe/raster/line_stipple.py); stippled polygons drawn as lines: edge
        counters first (glpipe/raster/polygon_edges.py); faces in different fill
        modes: runs of one facing (glpipe/raster/fill_modes.py)."""
        ctx = self.ctx
        if self.rast_line_smooth and ctx.line_stipple_part.line_smooth_key:
            self._draw_smooth_lines(info, draws)
            return True
        if self.rast_line_stipple and ctx.line_stipple_part.ls_assembly is not None:
            ctx.line_stipple_part._draw_line_stipple_strips(info, draws)
            return True
        if self.rast_edge_fill and ctx.polygon_edges_part.edge_stippled:
            ctx.polygon_edges_part._draw_edge_stipple(info, draws)
            return True
        return bool(self._rast_fill_split and ctx.fill_modes_part._draw_fill_split(info, draws))

    def _draw_smooth_lines(self, info, draws) -> None:
        """A line draw antialiased by glpipe (its GS draws quads of triangles,
        lowering/glsl/passes/smooth_line.py): the bound CSO's polygon state
        off around it (``RasterizerCSO.smooth_overrides``), then back, so the
        host state is what the CSO's record says again."""
        ctx = self.ctx
        gl = ctx.gl
        overrides = (self.rasterizer or self.rasterizer_default).smooth_overrides
        for off, args, _, _ in overrides:
            getattr(gl, off)(*args)
        try:
            if self.rast_line_stipple and ctx.line_stipple_part.ls_assembly is not None:
                ctx.line_stipple_part._draw_line_stipple_strips(info, draws)
            else:
                ctx._draw_kind(info, draws, None)
        finally:
            for _, _, on, args in overrides:
                getattr(gl, on)(*args)
            ctx._counters.gl_state_calls += 2 * len(overrides)

    def _emit_persample_interp(self) -> None:
        """force_persample_interp: per-sample shading at the full rate
        (GL_SAMPLE_SHADING, min 1.0), which interpolates every input at its
        sample.  It overrides set_min_samples' fraction (glpipe/blend.py
        emits that just before this; a bind that turns the flag off sets
        Dirty.MIN_SAMPLES so that fraction is re-sent)."""
        ctx = self.ctx
        if self._rast_persample:
            gl = ctx.gl
            gl.glEnable(gl.GL_SAMPLE_SHADING)
            gl.glMinSampleShading(1.0)
            ctx._counters.gl_state_calls += 2

    def _emit_tess_state(self) -> None:
        """GL_PATCH_DEFAULT_OUTER/INNER_LEVEL from set_tess_state (host-global
        state: re-sent whenever another context drew)."""
        ctx = self.ctx
        if not self._rast_has_tess:
            return
        gl = ctx.gl
        outer, inner = self.tess_state
        gl.glPatchParameterfv(gl.GL_PATCH_DEFAULT_OUTER_LEVEL, outer)
        gl.glPatchParameterfv(gl.GL_PATCH_DEFAULT_INNER_LEVEL, inner + (0.0, 0.0))
        ctx._counters.gl_state_calls += 2

    def _drop_rasterizer_caches(self) -> None:
        """GLPIPE_DEBUG=nofast, before each draw (glpipe/debug.py
        NOFAST_DROPS): forget the bound and default CSOs' transitions and
        the host's record (slots and clip distances), so the emits send
        every slot and every GL_CLIP_DISTANCEi switch."""
        for cso in (self.rasterizer, self.rasterizer_default):
            if cso is not None:
                cso.transitions.clear()
        self._reset_rasterizer_shadow()

    def destroy(self) -> None:
        """Context.destroy: unbind the CSO (the host record is per host and
        stays, as true as it was)."""
        self.rasterizer = None


AREA = Area(
    "rasterizer_part",
    part=RasterizerPart,
    methods=(
        "create_rasterizer_state",
        "bind_rasterizer_state",
        "delete_rasterizer_state",
        "destroy_rasterizer_state",
        "set_clip_state",
        "set_polygon_stipple",
        "set_window_rectangles",
        "set_tess_state",
    ),
    # A block with a shadow of the host state has two bits (glpipe/dirty.py):
    # X (the host lost it) runs a "forget" row first, X_CSO only the emit.
    rows=(
        (Dirty.RASTERIZER, RasterizerPart._forget_rasterizer_clobbers),
        (Dirty.RASTERIZER | Dirty.RASTERIZER_CSO, RasterizerPart._emit_rasterizer),
        (Dirty.RASTERIZER | Dirty.CLIP, RasterizerPart._emit_clip_distances),  # the distances the shader writes
        (Dirty.TESS, RasterizerPart._emit_tess_state),
    ),
    # force_persample_interp overrides min samples' fraction (blend's row).
    late_rows=((Dirty.RASTERIZER | Dirty.MIN_SAMPLES | Dirty.FRAMEBUFFER, RasterizerPart._emit_persample_interp),),
    destroy=RasterizerPart.destroy,
    drop_caches=RasterizerPart._drop_rasterizer_caches,
)

__all__ = ["AREA", "DrawFlags", "RasterizerCSO", "RasterizerPart", "ViewportFields"]
