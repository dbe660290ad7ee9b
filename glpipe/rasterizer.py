"""Rasterizer state: create/bind/delete_rasterizer_state, set_clip_state,
set_polygon_stipple, set_window_rectangles, set_tess_state.

A ``RasterizerState`` is resolved once, at create time, into three things:

* ``slots``: the block as one GL call per piece of GL state, in a fixed
  slot order (``(bound GL function, args)``; ``None`` where the state does
  not matter -- the cull face while culling is off, the offset values while
  every offset is off).
* ``key``: the small tuple of fields the shader variants depend on
  (flatshade, light_twoside, colour clamps, sprite coordinates, polygon
  stipple, user clip planes, point_smooth, line_stipple_enable, line_last_pixel; clip_halfz and integer pixel centres on a host
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
naming the field (the ``_REFUSED`` table); docs/rasterizer.md lists every
field and what glpipe does with it.

Non-CSO state of this module goes into the ``glp_sysvals`` block (user clip
planes, the stipple pattern, window rectangles, default tessellation levels)
and, for the window rectangles' count and mode, into the variant key.
"""

from __future__ import annotations

import weakref

from lowering.errors import InvalidArgumentError, UnsupportedError
from lowering.glsl.passes_depth import (
    DEPTH_CLIP_FAR,
    DEPTH_CLIP_NEAR,
    DEPTH_CLIP_NEAR_HALFZ,
    DEPTH_CLIP_NONE,
    DEPTH_OFFSET_FULL,
    DEPTH_OFFSET_OFF,
    DEPTH_OFFSET_UNITS,
)
from lowering.glsl.passes_last_pixel import (
    LINE_LAST_PIXEL_HALF_CENTERS,
    LINE_LAST_PIXEL_INTEGER_CENTERS,
    LINE_LAST_PIXEL_OFF,
)
from lowering.glsl.passes_vertex import written_clip_distances

from .defs import (
    PIPE_MAX_CLIP_PLANES,
    PIPE_MAX_WINDOW_RECTANGLES,
    ConservativeRaster,
    Face,
    PolygonMode,
)
from .dirty import Dirty
from .hotgl import OP
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


def _effective_fill_modes(t: RasterizerState) -> set:
    """The fill modes of the faces that are not culled."""
    modes = set()
    if not t.cull_face & Face.FRONT:
        modes.add(PolygonMode(t.fill_front))
    if not t.cull_face & Face.BACK:
        modes.add(PolygonMode(t.fill_back))
    return modes


def _any_offset(t: RasterizerState) -> bool:
    return bool(t.offset_point or t.offset_line or t.offset_tri)


# Polygon offset with unscaled units (passes_depth.py; docs/rasterizer.md
# "Unscaled polygon offset units"): GL cannot take the units unscaled, so an
# FS variant adds them.  Without a clamp the host keeps the slope term
# (glPolygonOffset(scale, 0)); a clamp must bound the sum, so the FS then
# computes all of it and the host offset is off.
_OFFSET_FLAG = {PolygonMode.FILL: "offset_tri", PolygonMode.LINE: "offset_line", PolygonMode.POINT: "offset_point"}


def _offset_mode(t: RasterizerState) -> int:
    """DEPTH_OFFSET_* of the variant: OFF unless the units are unscaled and non-zero."""
    if not (_any_offset(t) and t.offset_units_unscaled and t.offset_units != 0):
        return DEPTH_OFFSET_OFF
    return DEPTH_OFFSET_FULL if t.offset_clamp != 0 else DEPTH_OFFSET_UNITS


def _offset_fill_mode(t: RasterizerState):
    """The fill mode of the drawn faces when its offset switch is on, else None
    (the offset then reaches no fragment: GL's and Gallium's offsets apply to
    polygons only, by the mode they are filled in)."""
    modes = _effective_fill_modes(t)
    if len(modes) != 1:
        return None
    mode = modes.pop()
    return mode if getattr(t, _OFFSET_FLAG.get(mode, ""), False) else None


def _depth_clip_plane(t: RasterizerState) -> int:
    """DEPTH_CLIP_* : the plane that still clips when only one is disabled."""
    if t.depth_clip_near == t.depth_clip_far:
        return DEPTH_CLIP_NONE
    if t.depth_clip_near:
        return DEPTH_CLIP_NEAR_HALFZ if t.clip_halfz else DEPTH_CLIP_NEAR
    return DEPTH_CLIP_FAR


def depth_clip_slot(clip_plane_enable: int, shader_ir, max_distances: int) -> int:
    """The gl_ClipDistance slot of the depth plane (passes_depth.py): the
    lowest one neither a user plane (clip_plane_enable) nor the last vertex
    stage's own CLIPDIST uses, within the host's clip distances (shared with
    the shader's cull distances).  UnsupportedError when none is free."""
    used = clip_plane_enable | written_clip_distances(shader_ir)
    ncull = int(shader_ir.property("NUM_CULLDIST_ENABLED", 0) or 0)
    for slot in range(max_distances - ncull):
        if not (used >> slot) & 1:
            return slot
    raise UnsupportedError(
        f"RasterizerState.depth_clip_near / depth_clip_far: clipping against one depth plane only needs a free "
        f"clip distance, but user planes {clip_plane_enable:#x}, the shader's clip distances "
        f"{written_clip_distances(shader_ir):#x} and {ncull} cull distances use all {max_distances} of the "
        f"host's (PIPE_CAP_CLIP_PLANES)")


# (field, refused when (template, profile) says so, why).  Checked in order at
# create time; the first match raises UnsupportedError naming the field.
_REFUSED = (
    ("fill_front / fill_back", lambda t, p: len(_effective_fill_modes(t)) > 1,
     ("different fill modes for front and back faces: core GL's glPolygonMode takes FRONT_AND_BACK only "
      "(a culled face's mode does not count)")),
    ("fill_front / fill_back", lambda t, p: PolygonMode.FILL_RECTANGLE in _effective_fill_modes(t),
     "PIPE_POLYGON_MODE_FILL_RECTANGLE needs GL_NV_fill_rectangle (PIPE_CAP_POLYGON_MODE_FILL_RECTANGLE is 0)"),
    ("offset_clamp", lambda t, p: (_any_offset(t) and t.offset_clamp != 0 and not p.has("polygon_offset_clamp")
                                   and _offset_mode(t) != DEPTH_OFFSET_FULL),
     ("a polygon offset clamp needs GL_ARB_polygon_offset_clamp (PIPE_CAP_POLYGON_OFFSET_CLAMP is 0 on this "
      "host profile)")),
    ("offset_units_unscaled",
     lambda t, p: (_offset_mode(t) == DEPTH_OFFSET_FULL and t.offset_scale != 0
                   and _offset_fill_mode(t) in (PolygonMode.LINE, PolygonMode.POINT)),
     ("with offset_clamp the fragment shader computes the whole offset, and the depth slope of a line- or "
      "point-filled polygon is not visible to it (without a clamp, or with offset_scale 0, it works)")),
    ("point_line_tri_clip", lambda t, p: t.point_line_tri_clip,
     "GL clips points and lines as points and lines, not as the triangles D3D clips"),
    ("line_rectangular", lambda t, p: t.line_rectangular and not (t.multisample or t.line_smooth),
     "GL draws aliased lines as parallelograms; rectangular lines come only with multisampling or line_smooth"),
    ("conservative_raster_mode", lambda t, p: t.conservative_raster_mode != ConservativeRaster.OFF,
     "conservative rasterization is not in core GL (PIPE_CAP_CONSERVATIVE_RASTER_* are 0)"),
    ("depth_clip_near / depth_clip_far",
     lambda t, p: t.depth_clip_near != t.depth_clip_far and t.clip_plane_enable & 0xFF == 0xFF,
     ("clipping against one depth plane only needs a free clip distance, and clip_plane_enable uses all "
      "PIPE_MAX_CLIP_PLANES (PIPE_CAP_CLIP_PLANES)")),
    ("depth_clip_near / depth_clip_far", lambda t, p: not (t.depth_clip_near and t.depth_clip_far)
     and not p.has("depth_clamp"),
     "disabling depth clipping needs GL_ARB_depth_clamp (PIPE_CAP_DEPTH_CLIP_DISABLE is 0)"),
    ("bottom_edge_rule", lambda t, p: t.bottom_edge_rule and not p.has("clip_control"),
     ("the host GL rasterizes framebuffer objects with the top-left rule (top = window y 0); the bottom-left "
      "rule needs glClipControl(GL_UPPER_LEFT) (GL 4.5 / GL_ARB_clip_control), which this host profile lacks "
      "(docs/rasterizer.md \"Bottom edge rule\")")),
    ("force_persample_interp", lambda t, p: t.force_persample_interp and not p.has("sample_shading"),
     ("per-sample interpolation needs sample shading (GL 4.0 / GL_ARB_sample_shading; "
      "PIPE_CAP_FORCE_PERSAMPLE_INTERP is 0 on this host profile)")),
    ("tile_raster_order_fixed", lambda t, p: t.tile_raster_order_fixed,
     "GL promises no tile order (PIPE_CAP_TILE_RASTER_ORDER is 0)"),
    ("unclamped_fragment_depth_values", lambda t, p: t.unclamped_fragment_depth_values,
     "core GL clamps fragment depth to [0, 1] (GL_NV_depth_buffer_float is not used)"),
    ("representative_fragment_test", lambda t, p: t.representative_fragment_test,
     "GL_NV_representative_fragment_test is not used"),
)


def _key_of(t: RasterizerState) -> tuple:
    """The fields shader variants depend on, normalised so that equal
    behaviour compares equal (the sprite origin only matters with sprites)."""
    # cso/rasterizer.rst: without point_quad_rasterization "point sprite
    # coordinates are not generated".
    sprites = int(t.sprite_coord_enable) & 0xFFFF if t.point_quad_rasterization else 0
    return (bool(t.flatshade), bool(t.light_twoside), bool(t.clamp_vertex_color), bool(t.clamp_fragment_color),
            sprites, int(t.sprite_coord_mode) if sprites else 0, bool(t.poly_stipple_enable),
            int(t.clip_plane_enable) & 0xFF,
            # cso/rasterizer.rst: point_quad_rasterization disables point smoothing.
            bool(t.point_smooth and not t.point_quad_rasterization),
            # The pattern and factor are sysvals (glpipe/line_stipple.py): never recompile.
            bool(t.line_stipple_enable),
            _last_pixel_key(t))


def _last_pixel_key(t: RasterizerState) -> int:
    """The key entry of line_last_pixel (lowering/glsl/passes_last_pixel.py):
    0 where GL's diamond-exit rule does not apply -- smooth lines and
    multisample rasterization draw rectangles ending at the end point, with
    no omitted pixel to add (docs/rasterizer.md "Line last pixel") --, else
    1 (GL pixel centres) or 2 (integer centres: the pass moves Gallium's
    window coordinates by 0.5 into GL's)."""
    if not t.line_last_pixel or t.line_smooth or t.multisample:
        return LINE_LAST_PIXEL_OFF
    return LINE_LAST_PIXEL_HALF_CENTERS if t.half_pixel_center else LINE_LAST_PIXEL_INTEGER_CENTERS


def _viewport_depth(t: RasterizerState) -> bool:
    """Near plane off, far plane on: Gallium's depth_clamp (= !depth_clip_far)
    is off, so depth is clamped to [0, 1] only, but the host's GL_DEPTH_CLAMP
    clamps to the depth range.  The host then gets the depth range [0, 1]
    and the last vertex stage does the viewport's z transform
    (VariantKey.viewport_depth; glpipe/viewport.py), so the host's clamp is
    Gallium's.  clip_halfz then changes nothing on the host (no host depth
    clipping, and Gallium's z transform is the same either way)."""
    return bool(t.depth_clip_far and not t.depth_clip_near)


def _host_halfz(t: RasterizerState) -> bool:
    """Whether the host maps NDC z in [0, 1] (glClipControl ZERO_TO_ONE, or
    the z' = 2z - w variant): clip_halfz, unless the vertex stage does the
    depth transform (``_viewport_depth``)."""
    return bool(t.clip_halfz) and not _viewport_depth(t)


def _emulated_key(t: RasterizerState, emulate: tuple) -> tuple:
    """The key entries of the fields a host without the GL switch gets through
    the last vertex stage: (clip_halfz without glClipControl, half_pixel_center
    = False without float viewports).  ``emulate`` is the context's
    ``_rast_emulate``; on a host with both switches the entries stay False, so
    the native path compiles no extra variant."""
    halfz, centres = emulate
    return (_host_halfz(t) and halfz, (not t.half_pixel_center) and centres)


def _origin_key(t: RasterizerState) -> tuple:
    """The key entry of bottom_edge_rule (refused without glClipControl): the
    host draws with clip origin GL_UPPER_LEFT, whose y mirror the last vertex
    stage undoes (VariantKey.y_flip, XOR-ed with a negative viewport y scale
    by glpipe/variant_keys.py; docs/rasterizer.md "Bottom edge rule")."""
    return (bool(t.bottom_edge_rule),)


def _depth_key(t: RasterizerState) -> tuple:
    """The key entries of this module's depth variants: the unscaled offset
    mode (only when the offset reaches some fragment) and the depth plane
    that still clips."""
    return (_offset_mode(t) if _offset_fill_mode(t) is not None else DEPTH_OFFSET_OFF, _depth_clip_plane(t))


# Positions in RasterizerCSO.key.value (read by glpipe/variant_keys.py).
KEY_FLATSHADE, KEY_TWO_SIDE, KEY_CLAMP_VERTEX, KEY_CLAMP_FRAGMENT = 0, 1, 2, 3
KEY_SPRITE_ENABLE, KEY_SPRITE_MODE, KEY_POLY_STIPPLE, KEY_CLIP_PLANES = 4, 5, 6, 7
KEY_POINT_SMOOTH, KEY_LINE_STIPPLE, KEY_LINE_LAST_PIXEL = 8, 9, 10
# _origin_key's entry closes the tuple (counted from its end), _emulated_key's
# precede it, _depth_key's precede those.
KEY_BOTTOM_EDGE_RULE = -1
KEY_CLIP_HALFZ, KEY_INTEGER_PIXEL_CENTERS = -3, -2
KEY_DEPTH_OFFSET, KEY_DEPTH_CLIP = -5, -4


# Rasterized primitive classes (glpipe/variant_keys.py keys the draw's class
# while a class-sensitive field is on; docs/rasterizer.md "Primitive class").
PRIM_CLASS_POINTS, PRIM_CLASS_LINES, PRIM_CLASS_POLYGONS = 0, 1, 2
# Or-ed into the polygons' class while an unscaled offset applies to them:
# the offset needs "is a polygon" even when its fill mode rasterizes it as
# points or lines (variant_keys.py strips the bit before comparing classes).
PRIM_CLASS_OFFSET = 4
_FILL_CLASS = {PolygonMode.FILL: PRIM_CLASS_POLYGONS, PolygonMode.LINE: PRIM_CLASS_LINES,
               PolygonMode.POINT: PRIM_CLASS_POINTS}


def _prim_classes(t: RasterizerState, key: tuple):
    """None unless a field that applies to one primitive class only is on
    (poly_stipple_enable, sprite_coord_enable, point_smooth); else the class
    points, lines and polygons rasterize as under this state: polygons take
    the fill mode of the faces that are drawn (glPolygonMode POINT / LINE
    rasterizes their vertices / edges as points / lines, as Mesa's draw
    module's unfilled stage does ahead of its stipple and aapoint stages)."""
    if not (key[KEY_POLY_STIPPLE] or key[KEY_SPRITE_ENABLE] or key[KEY_POINT_SMOOTH] or key[KEY_LINE_STIPPLE]
            or key[KEY_LINE_LAST_PIXEL] or key[KEY_DEPTH_OFFSET]):
        return None
    modes = _effective_fill_modes(t)
    polygons = _FILL_CLASS[modes.pop()] if len(modes) == 1 else PRIM_CLASS_POLYGONS  # none drawn: any class
    if key[KEY_DEPTH_OFFSET]:
        polygons |= PRIM_CLASS_OFFSET  # (the key entry is set only when the drawn fill mode's switch is on)
    return (PRIM_CLASS_POINTS, PRIM_CLASS_LINES, polygons)


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
        self.key = variant_input(_key_of(templ) + _depth_key(templ) + _emulated_key(templ, context._rast_emulate)
                                 + _origin_key(templ))
        # Not None: the variant depends on the draw's primitive class (draw_vbo keys it).
        self.prim_classes = _prim_classes(templ, self.key.value)
        self.clip_plane_enable = int(templ.clip_plane_enable) & 0xFF
        # Not DEPTH_CLIP_NONE: one more GL_CLIP_DISTANCEi, the depth plane's (_emit_clip_distances).
        self.depth_clip_plane = self.key.value[KEY_DEPTH_CLIP]
        # sysvals.depth_offset while bound, when an unscaled offset variant may run (else None).
        self.depth_offset = ((float(templ.offset_scale), float(templ.offset_units), float(templ.offset_clamp), 0.0)
                             if self.key.value[KEY_DEPTH_OFFSET] else None)
        # What the viewport transform reads (glpipe/viewport.py): the host's
        # halfz, the pixel centres, the depth transform in the vertex stage.
        self.viewport_fields = (_host_halfz(templ), bool(templ.half_pixel_center), _viewport_depth(templ))
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
        # Variants stand in for the GL switches this host lacks (lowering/glsl/passes_vertex.py):
        # clip_halfz without glClipControl, integer pixel centres without float viewports.
        self._rast_emulate = (not self._rast_has_clip_control, not prof.has("viewport_array"))
        self.rasterizer = None
        self._rasterizer_default = RasterizerCSO(self, RasterizerState(), self._rasterizer_slots(RasterizerState()))
        self._rast_key = self._rasterizer_default.key
        self._rast_viewport = self._rasterizer_default.viewport_fields
        self._rast_persample = False
        self._rast_class_sensitive = False  # bound CSO's prim_classes is not None: draw_vbo keys the class
        self._rast_line_stipple = False  # bound CSO's line_stipple_enable (glpipe/line_stipple.py)
        self._rast_line_last_pixel = 0  # bound CSO's line_last_pixel key entry (glpipe/line_stipple.py)
        self._rast_line_gs = False  # either: line draws get the generated GS (glpipe/line_stipple.py)
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
        for field, refused, why in _REFUSED:
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
        modes = _effective_fill_modes(t)
        mode = modes.pop() if modes else PolygonMode.FILL
        flags = {
            "cull": t.cull_face != Face.NONE,
            "offset_point": bool(t.offset_point), "offset_line": bool(t.offset_line),
            "offset_tri": bool(t.offset_tri), "scissor": bool(t.scissor), "poly_smooth": bool(t.poly_smooth),
            "point_size_per_vertex": bool(t.point_size_per_vertex), "line_smooth": bool(t.line_smooth),
            "multisample": bool(t.multisample),
            # GL_DEPTH_CLAMP disables near and far clipping and clamps to the
            # depth range.  With one plane off the other comes back as a clip
            # distance (passes_depth.py); the clamp is then Gallium's
            # depth_clamp = !depth_clip_far (PIPE_CAP_DEPTH_CLAMP_ENABLE 0)
            # except beyond a disabled near plane (docs/rasterizer.md).
            "depth_clamp": not (t.depth_clip_near and t.depth_clip_far),
            "rasterizer_discard": bool(t.rasterizer_discard),
        }
        offset_mode = _offset_mode(t)
        if offset_mode == DEPTH_OFFSET_FULL:  # the FS variant computes the whole offset
            flags["offset_point"] = flags["offset_line"] = flags["offset_tri"] = False
        calls = [((_OP_ENABLE if flags[attr] else _OP_DISABLE), (self._rast_caps[cap],))
                 for attr, cap in _SWITCHES]
        # bottom_edge_rule draws with clip origin UPPER_LEFT, under which GL
        # inverts facing (GL 4.5 §14.6.1, Mesa's front_ccw ^= 1); the vertex
        # stage undoes the origin's y mirror, so the window winding is the
        # unmirrored one and the front face is inverted back here.
        calls.append((OP["glFrontFace"], (gl.GL_CCW if bool(t.front_ccw) != bool(t.bottom_edge_rule) else gl.GL_CW,)))
        calls.append((OP["glCullFace"], (gl[_GL_CULL[Face(t.cull_face)]],)) if flags["cull"] else None)
        calls.append((OP["glPolygonMode"], (gl.GL_FRONT_AND_BACK, gl[_GL_POLYGON_MODE[mode]])))
        # Unscaled units never reach GL (DEPTH_OFFSET_UNITS: the FS adds them).
        units = 0.0 if t.offset_units_unscaled else float(t.offset_units)
        if not _any_offset(t) or offset_mode == DEPTH_OFFSET_FULL:
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
                                                gl.GL_ZERO_TO_ONE if _host_halfz(t) else gl.GL_NEGATIVE_ONE_TO_ONE)))
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
            self._rast_class_sensitive = used.prim_classes is not None
            self._rast_line_stipple = used.key.value[KEY_LINE_STIPPLE]  # glpipe/line_stipple.py
            self._rast_line_last_pixel = used.key.value[KEY_LINE_LAST_PIXEL]  # ditto
            # Line draws get the GS of glpipe/line_stipple.py for either.
            self._rast_line_gs = bool(self._rast_line_stipple or self._rast_line_last_pixel)
            if self._rast_class_sensitive:
                self.dirty |= Dirty.DRAW_STATE
        if used.line_stipple is not None:
            self._set_sysval("line_stipple", used.line_stipple)  # marks the block dirty only on a change
        if used.depth_offset is not None:
            self._set_sysval("depth_offset", used.depth_offset)  # scale, units, clamp (passes_depth.py)
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
            self._set_sysval("clip_plane", plane, i)

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
        # variant reads bit 31 - x % 32 (lowering/glsl/passes_fragment.py).
        for i in range(8):
            self._set_sysval("stipple", rows[4 * i:4 * i + 4], i)

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
            self._set_sysval("window_rect", (r.minx, r.miny, r.maxx - r.minx, r.maxy - r.miny), i)
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
        self._set_sysval("tess_default_outer", outer)
        self._set_sysval("tess_default_inner", inner)
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
            last = self._last_vertex_stage()
            if last is not None:
                mask |= 1 << depth_clip_slot(mask, self.shaders[last].ir, self._rast_max_clip_distances)
        host = self._rast_host
        if not mask and host.clip_distances == 0:
            return  # the common case: no planes, none enabled
        if mask:
            prog = self._program
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

    def _destroy_rasterizer(self) -> None:
        self.rasterizer = None


__all__ = ["RasterizerCSO", "RasterizerMixin"]
