"""Rasterizer state: create/bind/delete_rasterizer_state, set_clip_state,
set_polygon_stipple, set_window_rectangles, set_tess_state.

A ``RasterizerState`` is resolved once, at create time, into three things:

* ``slots``: the block as one GL call per piece of GL state, in a fixed
  slot order (``(bound GL function, args)``; ``None`` where the state does
  not matter -- the cull face while culling is off, the offset values while
  every offset is off).
* ``key``: the small tuple of fields the shader variants depend on
  (flatshade, light_twoside, colour clamps, sprite coordinates, polygon
  stipple, user clip planes, point_smooth, line_stipple_enable, line_last_pixel, the two
  faces' fill modes when they differ; clip_halfz and integer pixel centres on a host
  without their GL switch), held in its canonical ``VariantInput``
  (glpipe/shaders.py: equal tuples, one holder).  A bind compares the
  holders and sets Dirty.PROGRAM only when they differ;
  glpipe/variant_keys.py turns ``key.value`` into ``VariantKey`` fields.
  ``prim_classes`` says whether some of them apply to one primitive class
  only (stipple, sprites, point_smooth, line stipple), in which case draw_vbo keys the
  class each draw rasterizes as (docs/rasterizer.md "Primitive class").
* the few fields other blocks read: ``clip_halfz`` and ``half_pixel_center``
  (the viewport transform, glpipe/viewport.py), ``force_persample_interp``
  (sample shading, shared with set_min_samples) and ``clip_plane_enable``
  (the GL_CLIP_DISTANCEi switches, which also depend on the shader).

Emission.  Every pipe context of a screen draws on the same host GL
context, and glpipe owns its state (docs/host.md), so what the host holds of
this block is recorded once per host (``_HostRasterizer``), whichever context
emitted it.  A bind sets Dirty.RASTERIZER_CSO: the emit sends the calls that
take the host from the recorded slots to the bound CSO's -- a list computed
once per (recorded state, CSO), cached on the CSO as ``(GL entry point
index, args)`` pairs (glpipe/hotgl.py) -- so switching culling on and off
is one call.  Dirty.RASTERIZER means a clear changed the two slots it
touches behind the record (scissor test and rasterizer discard; another
context's clear reaches this one through the draw prologue, which sets
every bit): those two become unknown in the record (``_HostRasterizer.
cleared``), so the transition re-sends them.  The first draw on a host, or
one after ``_reset_rasterizer_shadow`` (raw GL changed the state), sends the
whole block (16 to 19 calls).  The GL_CLIP_DISTANCEi switches are recorded
the same way.
What the host cannot do is refused at create time with UnsupportedError
naming the field (the ``REFUSED`` table); docs/rasterizer.md lists every
field and what glpipe does with it.

Non-CSO state of this module goes into the ``glp_sysvals`` block (user clip
planes, the stipple pattern, window rectangles, default tessellation levels)
and, for the window rectangles' count and mode, into the variant key.
"""

from __future__ import annotations

import weakref

from lowering.errors import InvalidArgumentError, UnsupportedError
from lowering.glsl.passes.depth import DEPTH_OFFSET_FULL

from .defs import (
    PIPE_MAX_CLIP_PLANES,
    PIPE_MAX_WINDOW_RECTANGLES,
    Face,
    PolygonMode,
)
from .dirty import Dirty, KeepGeneral
from .hotgl import OP
from .rasterizer_keys import (
    KEY_DEPTH_CLIP,
    KEY_DEPTH_OFFSET,
    KEY_EDGE_FILL,
    KEY_FILL_SPLIT,
    KEY_LINE_LAST_PIXEL,
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
from .shaders import variant_input
from .state import ClipState, PolyStipple, RasterizerState, ScissorState

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
_RASTERIZER_CSO = Dirty.RASTERIZER_CSO  # a module global: read per bind


class _GLEnums:
    """GL enum values by name as plain ints (``gl.GL_CCW`` / ``gl["GL_CCW"]``)."""

    def __init__(self, gl):
        self._gl = gl

    def __getattr__(self, name: str) -> int:
        return int(getattr(self._gl, name))

    __getitem__ = __getattr__


# Slots of _SWITCHES the clear code turns off behind the record (glpipe/clear.py).
_CLEAR_CLOBBERS = frozenset(i for i, (attr, _) in enumerate(_SWITCHES) if attr in ("scissor", "rasterizer_discard"))


class _Held:
    """One state of the rasterizer slots a host may hold, interned per host
    (``_HostRasterizer.states``) so transitions are cached by identity.
    ``after_clear`` caches the state with the clear-clobbered slots unknown."""

    __slots__ = ("slots", "after_clear")

    def __init__(self, slots: tuple):
        self.slots = slots
        self.after_clear = None


class _HostRasterizer:
    """What one host GL context holds of the rasterizer block: ``held`` (a
    ``_Held``; None: unknown) and the GL_CLIP_DISTANCEi mask (None: unknown).
    Shared by every pipe context on the host."""

    __slots__ = ("__weakref__", "clip_distances", "held", "states")

    def __init__(self):
        self.held = None
        self.clip_distances = None
        self.states: dict[tuple, _Held] = {}

    def intern(self, slots: tuple) -> _Held:
        """The one ``_Held`` of ``slots`` on this host."""
        held = self.states.get(slots)
        if held is None:
            held = self.states[slots] = _Held(slots)
        return held

    def cleared(self) -> None:
        """A clear may have changed the scissor test and rasterizer discard
        behind the record: make those slots unknown, so the next transition
        sends them."""
        held = self.held
        if held is not None:
            after = held.after_clear
            if after is None:
                after = held.after_clear = self.intern(
                    tuple(None if i in _CLEAR_CLOBBERS else slot for i, slot in enumerate(held.slots)))
            self.held = after


_HOSTS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


class RasterizerCSO:
    """A rasterizer state object: the template resolved into host calls per
    GL state slot (``slots``), the variant-relevant fields (``key``) and the
    fields other blocks read.  ``transitions`` caches, per host state it was
    emitted over, (the calls to send, the host state afterwards)."""

    __slots__ = (
        "clip_plane_enable",
        "context",
        "depth_clip_plane",
        "depth_offset",
        "destroyed",
        "key",
        "line_stipple",
        "persample",
        "draw_flags",
        "prim_classes",
        "slots",
        "templ",
        "transitions",
        "viewport_fields",
    )

    def __init__(self, context, templ: RasterizerState, slots: tuple):
        self.context = context
        self.templ = templ
        self.destroyed = False
        self.slots = slots
        self.transitions: dict = {}
        # The holder (shaders.variant_input): compared with ``is``.
        self.key = variant_input(key_of(templ) + depth_key(templ) + emulated_key(templ, context._rast_emulate)
                                 + origin_key(templ))
        # Not None: the variant depends on the draw's primitive class (draw_vbo keys it).
        self.prim_classes = prim_classes(templ, self.key.value)
        # What the draw path reads of the key, worked out here so a bind copies
        # it: (class sensitive, line stipple, line last pixel entry, either of
        # the two -- line draws get the generated GS of glpipe/line_stipple.py
        # --, faces in different fill modes: glpipe/fill_modes.py, a face
        # drawn as lines or points: glpipe/polygon_edges.py).
        k = self.key.value
        self.draw_flags = (self.prim_classes is not None, k[KEY_LINE_STIPPLE], k[KEY_LINE_LAST_PIXEL],
                           bool(k[KEY_LINE_STIPPLE] or k[KEY_LINE_LAST_PIXEL]), bool(k[KEY_FILL_SPLIT]),
                           bool(k[KEY_EDGE_FILL]))
        self.clip_plane_enable = int(templ.clip_plane_enable) & 0xFF
        # Not DEPTH_CLIP_NONE: one more GL_CLIP_DISTANCEi, the depth plane's (_emit_clip_distances).
        self.depth_clip_plane = self.key.value[KEY_DEPTH_CLIP]
        # sysvals.depth_offset while bound, when an unscaled offset variant may run (else None).
        self.depth_offset = ((float(templ.offset_scale), float(templ.offset_units), float(templ.offset_clamp), 0.0)
                             if self.key.value[KEY_DEPTH_OFFSET] else None)
        # What the viewport transform reads (glpipe/viewport.py): the host's
        # halfz, the pixel centres, the depth transform in the vertex stage.
        self.viewport_fields = (host_halfz(templ), bool(templ.half_pixel_center), viewport_depth(templ))
        self.persample = bool(templ.force_persample_interp)
        # sysvals.line_stipple (pattern, factor) while bound; None: stipple off.
        self.line_stipple = ((int(templ.line_stipple_pattern), int(templ.line_stipple_factor))
                             if templ.line_stipple_enable else None)

    def __repr__(self) -> str:
        return "<RasterizerCSO deleted>" if self.destroyed else f"<RasterizerCSO {len(self.transitions)} transitions>"

    def transition(self, host: _HostRasterizer) -> tuple:
        """(calls, ``_Held`` after them, number of calls) taking ``host``
        from what it holds to this state; cached per held state (an interned
        object)."""
        held = host.held
        found = self.transitions.get(held)
        if found is None:
            calls, after = [], []
            for i, want in enumerate(self.slots):
                have = None if held is None else held.slots[i]
                if want is None:
                    after.append(have)          # don't care: the host keeps what it has
                    continue
                if want != have:
                    calls.append(want)
                after.append(want)
            found = self.transitions[held] = (tuple(calls), host.intern(tuple(after)), len(calls))
        return found


class RasterizerMixin:
    """Context methods for rasterizer state, user clip planes, the polygon
    stipple, window rectangles and default tessellation levels (mixed into
    Context)."""

    def _init_rasterizer(self) -> None:
        gl = self.gl
        prof = self.screen.profile
        self._rast_caps = {name: int(getattr(gl, name)) for _, name in _SWITCHES}
        self._rast_has_clip_control = prof.has("clip_control")
        self._rast_has_offset_clamp = prof.has("polygon_offset_clamp")
        self._rast_has_tess = prof.has("tessellation_shader")
        self._rast_point_range = tuple(float(v) for v in prof.limit("GL_POINT_SIZE_RANGE", (1.0, 1.0)))
        self._rast_line_range = tuple(float(v) for v in prof.limit("GL_ALIASED_LINE_WIDTH_RANGE", (1.0, 1.0)))
        self._rast_smooth_line_range = tuple(
            float(v) for v in prof.limit("GL_SMOOTH_LINE_WIDTH_RANGE", self._rast_line_range))
        self._rast_max_clip_distances = min(int(prof.limit("GL_MAX_CLIP_DISTANCES", 8)), PIPE_MAX_CLIP_PLANES)
        if self._rast_has_offset_clamp and not self._hot.glPolygonOffsetClamp:
            # glpipe/hotgl.py asks for the core name, then the EXT one (a GL 4.5
            # host with the extension may only export the latter).
            raise UnsupportedError("the host reports polygon offset clamp but exports no glPolygonOffsetClamp "
                                   "entry point")
        # Variants stand in for the GL switches this host lacks (lowering/glsl/passes/vertex.py):
        # clip_halfz without glClipControl, integer pixel centres without float viewports.
        self._rast_emulate = (not self._rast_has_clip_control, not prof.has("viewport_array"))
        self.rasterizer = None
        self._rasterizer_default = RasterizerCSO(self, RasterizerState(), self._rasterizer_slots(RasterizerState()))
        self._rast_key = self._rasterizer_default.key
        self._rast_viewport = self._rasterizer_default.viewport_fields
        self._rast_persample = False
        self._rast_draw_flags = self._rasterizer_default.draw_flags
        self._rast_class_sensitive = False  # bound CSO's prim_classes is not None: draw_vbo keys the class
        self._rast_line_stipple = False  # bound CSO's line_stipple_enable (glpipe/line_stipple.py)
        self._rast_line_last_pixel = 0  # bound CSO's line_last_pixel key entry (glpipe/line_stipple.py)
        self._rast_line_gs = False  # either: line draws get the generated GS (glpipe/line_stipple.py)
        self._rast_fill_split = False  # bound CSO draws its faces in different fill modes (glpipe/fill_modes.py)
        self._rast_edge_fill = False  # bound CSO draws a face as lines or points (glpipe/polygon_edges.py)
        # draw_vbo's hooks into this area (glpipe/draw.py; _set_draw_hooks): None while idle.
        self._raster_draw_keys = self._raster_draw = self._raster_translated = None
        self._rast_host = _HOSTS.get(self.host)
        if self._rast_host is None:
            self._rast_host = _HOSTS[self.host] = _HostRasterizer()
        # Non-CSO state, as Gallium last set it.
        self.clip_state = ClipState()
        self.poly_stipple = PolyStipple()
        self.window_rectangles = (False, ())   # (include, rects)
        self._window_rect_key = variant_input((0, False))  # VariantKey.window_rectangles / _include
        self.tess_state = ((1.0,) * 4, (1.0,) * 2)  # GL's default patch levels
        self.dirty |= Dirty.RASTERIZER | Dirty.TESS

    # -- CSO -----------------------------------------------------------------

    def create_rasterizer_state(self, templ: RasterizerState) -> RasterizerCSO:
        """pipe_context::create_rasterizer_state: validate and resolve once.

        Fields the host cannot honour raise UnsupportedError naming the field
        (docs/rasterizer.md); nothing is silently ignored."""
        self.check_alive("create_rasterizer_state")
        if not isinstance(templ, RasterizerState):
            raise InvalidArgumentError(
                f"create_rasterizer_state: expected a RasterizerState, got {type(templ).__name__}")
        prof = self.screen.profile
        for field, refused, why in REFUSED:
            if refused(templ, prof):
                raise UnsupportedError(f"create_rasterizer_state: RasterizerState.{field}: {why}")
        for name in ("point_size", "line_width"):
            value = getattr(templ, name)
            if not value >= 0.0:  # also catches NaN
                raise InvalidArgumentError(f"RasterizerState.{name}: {value!r} is negative or not a number")
        if not 0 <= templ.clip_plane_enable < 1 << PIPE_MAX_CLIP_PLANES:
            raise InvalidArgumentError(f"RasterizerState.clip_plane_enable {templ.clip_plane_enable:#x} is not a "
                                       f"mask of PIPE_MAX_CLIP_PLANES ({PIPE_MAX_CLIP_PLANES}) bits")
        if templ.line_stipple_enable and not (0 <= templ.line_stipple_pattern <= 0xFFFF
                                              and 0 <= templ.line_stipple_factor <= 255):
            raise InvalidArgumentError(
                f"RasterizerState.line_stipple_pattern / line_stipple_factor: {templ.line_stipple_pattern!r} / "
                f"{templ.line_stipple_factor!r} are not a 16-bit pattern and an 8-bit factor (repeat - 1)")
        if templ.clip_plane_enable >> self._rast_max_clip_distances:
            raise UnsupportedError(
                f"create_rasterizer_state: RasterizerState.clip_plane_enable {templ.clip_plane_enable:#x} enables "
                f"planes beyond the host's {self._rast_max_clip_distances} clip distances (PIPE_CAP_CLIP_PLANES)")
        cso = RasterizerCSO(self, templ, self._rasterizer_slots(templ))
        self.host.check("create_rasterizer_state")
        return cso

    def _rasterizer_slots(self, t: RasterizerState) -> tuple:
        """One ``(hotgl.OP index, args)`` per GL state slot, None where ``t``
        does not care (see the module docstring); same slots, same order for
        every template of a host."""
        gl = _GLEnums(self.gl)
        modes = effective_fill_modes(t)
        # Two modes (faces drawn differently): fill_front here; glpipe/fill_modes.py
        # switches per run of one facing and restores this.
        mode = PolygonMode(t.fill_front) if len(modes) > 1 else modes.pop() if modes else PolygonMode.FILL
        flags = {
            "cull": t.cull_face != Face.NONE,
            "offset_point": bool(t.offset_point), "offset_line": bool(t.offset_line),
            "offset_tri": bool(t.offset_tri), "scissor": bool(t.scissor), "poly_smooth": bool(t.poly_smooth),
            "point_size_per_vertex": bool(t.point_size_per_vertex), "line_smooth": bool(t.line_smooth),
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
        calls = [((_OP_ENABLE if flags[attr] else _OP_DISABLE), (self._rast_caps[cap],))
                 for attr, cap in _SWITCHES]
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
        calls.append((OP["glProvokingVertex"],
                      (gl.GL_FIRST_VERTEX_CONVENTION if t.flatshade_first else gl.GL_LAST_VERTEX_CONVENTION,)))
        if self._rast_has_clip_control:
            # The one glClipControl call: the origin gives the bottom-edge rule
            # (Mesa: bottom_edge_rule ^= ClipOrigin == UPPER_LEFT for FBOs),
            # the depth mode the host's halfz (glpipe/viewport.py).
            calls.append((OP["glClipControl"], (gl.GL_UPPER_LEFT if t.bottom_edge_rule else gl.GL_LOWER_LEFT,
                                                gl.GL_ZERO_TO_ONE if host_halfz(t) else gl.GL_NEGATIVE_ONE_TO_ONE)))
        return tuple(calls)

    def bind_rasterizer_state(self, cso) -> None:
        """pipe_context::bind_rasterizer_state (None: the template defaults)."""
        previous = self.rasterizer
        if cso is previous:
            return
        if cso is None:
            used = self._rasterizer_default
        else:
            if type(cso) is not RasterizerCSO or cso.context is not self or cso.destroyed:
                self._check_cso(cso, RasterizerCSO, "bind_rasterizer_state")  # raises, naming what is wrong
            used = cso
        self.rasterizer = cso
        self.dirty |= _RASTERIZER_CSO
        if self._window_space:
            self.dirty |= Dirty.VIEWPORT  # the window-space override follows the rasterizer (viewport.py)
        was = previous or self._rasterizer_default
        if used.clip_plane_enable != was.clip_plane_enable or used.depth_clip_plane != was.depth_clip_plane:
            self.dirty |= Dirty.CLIP  # the GL_CLIP_DISTANCEi switches (_emit_clip_distances)
        if used.key is not self._rast_key:
            self._rast_key = used.key
            self.dirty |= Dirty.PROGRAM  # VariantKey fields (glpipe/variant_keys.py)
            # Class sensitivity follows from the key.  While it is on, draws stay
            # off draw_vbo's fast path (Dirty.DRAW_STATE, kept set by the general
            # path), which keys each draw's primitive class (glpipe/variant_keys.py).
            flags = used.draw_flags  # (RasterizerCSO)
            if flags != self._rast_draw_flags:
                self._rast_draw_flags = flags
                (self._rast_class_sensitive, self._rast_line_stipple, self._rast_line_last_pixel,
                 self._rast_line_gs, self._rast_fill_split, self._rast_edge_fill) = flags
                self._set_draw_hooks()
            if self._rast_class_sensitive or self._rast_edge_fill:
                self.dirty |= Dirty.DRAW_STATE  # (edge flags: glpipe/polygon_edges.py keys the next draw)
        if used.line_stipple is not None:
            self.sysvals_part._set_sysval("line_stipple", used.line_stipple)  # marks the block dirty only on a change
        if used.depth_offset is not None:
            self.sysvals_part._set_sysval("depth_offset", used.depth_offset)  # scale, units, clamp (passes/depth.py)
        if used.viewport_fields != self._rast_viewport:
            self._rast_viewport = used.viewport_fields
            self.dirty |= Dirty.VIEWPORT  # depth range (clip_halfz), half-pixel shift
        if used.persample != self._rast_persample:
            self._rast_persample = used.persample
            self.dirty |= Dirty.MIN_SAMPLES  # sample shading is shared with set_min_samples

    def delete_rasterizer_state(self, cso) -> None:
        """pipe_context::delete_rasterizer_state.  Deleting the bound state is
        a frontend bug in Gallium; glpipe unbinds it, so the next draw uses
        the template defaults."""
        self._check_cso(cso, RasterizerCSO, "delete_rasterizer_state")
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
        self.check_alive("set_clip_state")
        if not isinstance(state, ClipState):
            raise InvalidArgumentError(f"set_clip_state: expected a ClipState, got {type(state).__name__}")
        for i, plane in enumerate(state.ucp):
            if len(plane) != 4 or any(isinstance(c, bool) or not isinstance(c, (int, float)) for c in plane):
                raise InvalidArgumentError(f"ClipState.ucp[{i}]: expected 4 numbers (a, b, c, d), got {plane!r}")
        if state == self.clip_state:
            return
        self.clip_state = state
        for i, plane in enumerate(state.ucp):
            self.sysvals_part._set_sysval("clip_plane", plane, i)

    def set_polygon_stipple(self, stipple: PolyStipple) -> None:
        """pipe_context::set_polygon_stipple: 32 rows of 32 bits.  Row r
        applies to window rows y with y % 32 == r; within a row the most
        significant bit is x % 32 == 0 (Gallium's convention, as
        util_pstipple reads it)."""
        self.check_alive("set_polygon_stipple")
        if not isinstance(stipple, PolyStipple):
            raise InvalidArgumentError(
                f"set_polygon_stipple: expected a PolyStipple, got {type(stipple).__name__}")
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
            self.sysvals_part._set_sysval("stipple", rows[4 * i:4 * i + 4], i)

    def set_window_rectangles(self, include, rects) -> None:
        """pipe_context::set_window_rectangles(include, rects): up to
        PIPE_MAX_WINDOW_RECTANGLES ScissorStates (max exclusive).  With
        ``include`` a fragment outside every rectangle is discarded, else a
        fragment inside any rectangle is; draws only (not clears or blits).
        Implemented in the fragment shader variant: the count and mode are
        VariantKey fields, the rectangles sysvals."""
        self.check_alive("set_window_rectangles")
        rects = tuple(rects)
        if len(rects) > PIPE_MAX_WINDOW_RECTANGLES:
            raise InvalidArgumentError(f"set_window_rectangles: {len(rects)} rectangles, at most "
                                       f"{PIPE_MAX_WINDOW_RECTANGLES} (PIPE_CAP_MAX_WINDOW_RECTANGLES)")
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
            self.sysvals_part._set_sysval("window_rect", (r.minx, r.miny, r.maxx - r.minx, r.maxy - r.miny), i)
        key = variant_input((len(rects), bool(include)))
        if key is not self._window_rect_key:
            self._window_rect_key = key
            self.dirty |= Dirty.PROGRAM  # VariantKey.window_rectangles / _include

    def set_tess_state(self, default_outer_level, default_inner_level) -> None:
        """pipe_context::set_tess_state: the tessellation levels used when no
        tessellation control shader is bound (GL_PATCH_DEFAULT_OUTER_LEVEL /
        INNER_LEVEL), also readable by shaders as the TESS_DEFAULT_*_LEVEL
        system values (sysvals).  Needs tessellation on the host."""
        self.check_alive("set_tess_state")
        if not self._rast_has_tess:
            raise UnsupportedError("set_tess_state: tessellation is not available on the "
                                   f"{self.screen.profile.name} profile")
        try:
            outer = tuple(float(v) for v in default_outer_level)
            inner = tuple(float(v) for v in default_inner_level)
        except (TypeError, ValueError):
            raise InvalidArgumentError(f"set_tess_state: expected 4 outer and 2 inner levels (numbers), got "
                                       f"{default_outer_level!r}, {default_inner_level!r}") from None
        if len(outer) != 4 or len(inner) != 2:
            raise InvalidArgumentError(f"set_tess_state: expected 4 outer and 2 inner levels, got "
                                       f"{len(outer)} and {len(inner)}")
        if (outer, inner) == self.tess_state:
            return
        self.tess_state = (outer, inner)
        self.sysvals_part._set_sysval("tess_default_outer", outer)
        self.sysvals_part._set_sysval("tess_default_inner", inner)
        self.dirty |= Dirty.TESS

    # -- emit ----------------------------------------------------------------

    def _forget_rasterizer_clobbers(self) -> None:
        """Dirty.RASTERIZER's row in DERIVED_ORDER, just before
        _emit_rasterizer: a clear (of this context, or of another one: the
        draw prologue sets every bit) may have changed the scissor test and
        rasterizer discard behind the host's record."""
        self._rast_host.cleared()

    def _emit_rasterizer(self) -> None:
        """Take the host from what it holds to the bound CSO (the module
        docstring: a cached transition)."""
        cso = self.rasterizer or self._rasterizer_default
        host = self._rast_host
        calls, host.held, n = cso.transition(host)
        if n:
            ops = self._hot_ops
            for op, args in calls:
                ops[op](*args)
            self._counters.gl_state_calls += n

    def _reset_rasterizer_shadow(self) -> None:
        """Raw GL changed rasterizer state behind glpipe's back: forget what
        the host holds, so the next draw sends the whole block."""
        self._rast_host.held = None
        self._rast_host.clip_distances = None
        self.dirty |= Dirty.RASTERIZER

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
        cso = self.rasterizer or self._rasterizer_default
        mask = cso.clip_plane_enable
        if cso.depth_clip_plane:
            last = self.variant_keys_part._last_vertex_stage()
            if last is not None:
                mask |= 1 << depth_clip_slot(mask, self.shader_part.shaders[last].ir, self._rast_max_clip_distances)
        host = self._rast_host
        if not mask and host.clip_distances == 0:
            return  # the common case: no planes, none enabled
        if mask:
            prog = self.shader_part.program
            mask &= prog.clip_mask if prog is not None else 0  # shaders.py: the last vertex stage's
        old = host.clip_distances
        if mask == old:
            return
        gl = self.gl
        calls = 0
        base = int(gl.GL_CLIP_DISTANCE0)
        for i in range(self._rast_max_clip_distances):
            bit = 1 << i
            if old is None or (old ^ mask) & bit:
                (gl.glEnable if mask & bit else gl.glDisable)(base + i)
                calls += 1
        host.clip_distances = mask
        self._counters.gl_state_calls += calls

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
        keyed = self._rast_class_sensitive or self._rast_edge_fill
        self._raster_draw_keys = self._rasterizer_draw_keys if keyed else None
        emulated = self._rast_line_stipple or self._rast_edge_fill or self._rast_fill_split
        self._raster_draw = self._rasterizer_draw if emulated else None
        self._raster_translated = self._edge_masks_translated if self._rast_edge_fill else None
        self._keep_general(KeepGeneral.PRIM_CLASS, self._rast_class_sensitive)
        self._keep_general(KeepGeneral.EDGE_FLAGS, self._rast_edge_fill and self._edge_sticky)

    def _rasterizer_draw_keys(self, mode) -> None:
        """Hook: key this draw.  A field on that applies to one primitive
        class (polygon / line stipple, sprite coordinates, point smoothing,
        line last pixel, unscaled offset, per-face fill modes): Dirty.PROGRAM
        if the draw's class is not the one keyed (glpipe/variant_keys.py);
        lines get the generated GS (glpipe/line_stipple.py); a face drawn as
        lines / points gets the draw's edge flags (glpipe/polygon_edges.py)."""
        if self._rast_class_sensitive:
            self.variant_keys_part._key_prim_class(mode)
            if self._rast_line_gs:
                self._key_line_gs(mode)
        if self._rast_edge_fill:
            self._key_polygon_edges(mode)

    def _rasterizer_draw(self, info, draws) -> bool:
        """Hook: draw through an emulation when this draw needs one; True
        when it drew.  A stippled strip or loop: segment bases first
        (glpipe/line_stipple.py); stippled polygons drawn as lines: edge
        counters first (glpipe/polygon_edges.py); faces in different fill
        modes: runs of one facing (glpipe/fill_modes.py)."""
        if self._ls_assembly is not None and self._rast_line_stipple:
            self._draw_line_stipple_strips(info, draws)
            return True
        if self._edge_stippled and self._rast_edge_fill:
            self._draw_edge_stipple(info, draws)
            return True
        return bool(self._rast_fill_split and self._draw_fill_split(info, draws))

    def _emit_persample_interp(self) -> None:
        """force_persample_interp: per-sample shading at the full rate
        (GL_SAMPLE_SHADING, min 1.0), which interpolates every input at its
        sample.  It overrides set_min_samples' fraction (glpipe/blend.py
        emits that just before this; a bind that turns the flag off sets
        Dirty.MIN_SAMPLES so that fraction is re-sent)."""
        if self._rast_persample:
            gl = self.gl
            gl.glEnable(gl.GL_SAMPLE_SHADING)
            gl.glMinSampleShading(1.0)
            self._counters.gl_state_calls += 2

    def _emit_tess_state(self) -> None:
        """GL_PATCH_DEFAULT_OUTER/INNER_LEVEL from set_tess_state (host-global
        state: re-sent whenever another context drew)."""
        if not self._rast_has_tess:
            return
        gl = self.gl
        outer, inner = self.tess_state
        gl.glPatchParameterfv(gl.GL_PATCH_DEFAULT_OUTER_LEVEL, outer)
        gl.glPatchParameterfv(gl.GL_PATCH_DEFAULT_INNER_LEVEL, inner + (0.0, 0.0))
        self._counters.gl_state_calls += 2

    def _drop_rasterizer_caches(self) -> None:
        """GLPIPE_DEBUG=nofast, before each draw (glpipe/debug.py
        NOFAST_DROPS): forget the bound and default CSOs' transitions and
        the host's record (slots and clip distances), so the emits send
        every slot and every GL_CLIP_DISTANCEi switch."""
        for cso in (self.rasterizer, self._rasterizer_default):
            if cso is not None:
                cso.transitions.clear()
        self._reset_rasterizer_shadow()

    def _destroy_rasterizer(self) -> None:
        self.rasterizer = None


__all__ = ["RasterizerCSO", "RasterizerMixin"]
