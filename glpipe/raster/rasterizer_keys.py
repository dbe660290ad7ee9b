"""What a ``RasterizerState`` template means for glpipe, decided once at
create time (glpipe/raster/rasterizer.py builds the CSO from it): the fields the
host cannot honour (``REFUSED``), the entries of the CSO's variant-key
tuple (``key_of`` and the emulation / depth / origin entries, positions
``KEY_*``), and the primitive classes the class-sensitive fields apply to
(``prim_classes``).  docs/rasterizer.md describes every field.
"""

from __future__ import annotations

from lowering.errors import UnsupportedError
from lowering.glsl.passes.depth import (
    DEPTH_CLIP_FAR,
    DEPTH_CLIP_NEAR,
    DEPTH_CLIP_NEAR_HALFZ,
    DEPTH_CLIP_NONE,
    DEPTH_OFFSET_FULL,
    DEPTH_OFFSET_OFF,
    DEPTH_OFFSET_UNITS,
)
from lowering.glsl.passes.last_pixel import (
    LINE_LAST_PIXEL_HALF_CENTERS,
    LINE_LAST_PIXEL_INTEGER_CENTERS,
    LINE_LAST_PIXEL_OFF,
)
from lowering.glsl.passes.vertex import written_clip_distances

from ..enums import ConservativeRaster, Face, PolygonMode
from ..templates import RasterizerState


def effective_fill_modes(t: RasterizerState) -> set:
    """The fill modes of the faces that are not culled."""
    modes = set()
    if not t.cull_face & Face.FRONT:
        modes.add(PolygonMode(t.fill_front))
    if not t.cull_face & Face.BACK:
        modes.add(PolygonMode(t.fill_back))
    return modes


def any_offset(t: RasterizerState) -> bool:
    return bool(t.offset_point or t.offset_line or t.offset_tri)


# Polygon offset with unscaled units (passes/depth.py; docs/rasterizer.md
# "Unscaled polygon offset units"): GL cannot take the units unscaled, so an
# FS variant adds them.  Without a clamp the host keeps the slope term
# (glPolygonOffset(scale, 0)); a clamp must bound the sum, so the FS then
# computes all of it and the host offset is off.
OFFSET_FLAG = {PolygonMode.FILL: "offset_tri", PolygonMode.LINE: "offset_line", PolygonMode.POINT: "offset_point"}


def offset_mode(t: RasterizerState) -> int:
    """DEPTH_OFFSET_* of the variant: OFF unless the units are unscaled and non-zero."""
    if not (any_offset(t) and t.offset_units_unscaled and t.offset_units != 0):
        return DEPTH_OFFSET_OFF
    return DEPTH_OFFSET_FULL if t.offset_clamp != 0 else DEPTH_OFFSET_UNITS


def offset_fill_modes(t: RasterizerState) -> set:
    """The fill modes of the drawn faces whose offset switch is on (empty: the
    offset reaches no fragment -- GL's and Gallium's offsets apply to
    polygons only, by the mode each is filled in)."""
    return {m for m in effective_fill_modes(t) if getattr(t, OFFSET_FLAG.get(m, ""), False)}


def fill_split(t: RasterizerState) -> tuple[PolygonMode, PolygonMode] | None:
    """(fill_front, fill_back) when both faces are drawn in different modes
    (glpipe/raster/fill_modes.py draws each triangle in its own face's mode), else
    None."""
    if len(effective_fill_modes(t)) < 2:
        return None
    return (PolygonMode(t.fill_front), PolygonMode(t.fill_back))


def depth_clip_plane(t: RasterizerState) -> int:
    """DEPTH_CLIP_* : the plane that still clips when only one is disabled."""
    if t.depth_clip_near == t.depth_clip_far:
        return DEPTH_CLIP_NONE
    if t.depth_clip_near:
        return DEPTH_CLIP_NEAR_HALFZ if t.clip_halfz else DEPTH_CLIP_NEAR
    return DEPTH_CLIP_FAR


def depth_clip_slot(clip_plane_enable: int, shader_ir, max_distances: int) -> int:
    """The gl_ClipDistance slot of the depth plane (passes/depth.py): the
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
        f"host's (PIPE_CAP_CLIP_PLANES)"
    )


# (field, refused when (template, profile) says so, why).  Checked in order at
# create time; the first match raises UnsupportedError naming the field.
REFUSED = (
    (
        "fill_front / fill_back",
        lambda t, p: PolygonMode.FILL_RECTANGLE in effective_fill_modes(t),
        "PIPE_POLYGON_MODE_FILL_RECTANGLE needs GL_NV_fill_rectangle (PIPE_CAP_POLYGON_MODE_FILL_RECTANGLE is 0)",
    ),
    (
        "offset_clamp",
        lambda t, p: (
            any_offset(t)
            and t.offset_clamp != 0
            and not p.has("polygon_offset_clamp")
            and offset_mode(t) != DEPTH_OFFSET_FULL
        ),
        (
            "a polygon offset clamp needs GL_ARB_polygon_offset_clamp (PIPE_CAP_POLYGON_OFFSET_CLAMP is 0 on this "
            "host profile)"
        ),
    ),
    (
        "offset_units_unscaled",
        lambda t, p: (
            offset_mode(t) == DEPTH_OFFSET_FULL
            and t.offset_scale != 0
            and offset_fill_modes(t) & {PolygonMode.LINE, PolygonMode.POINT}
        ),
        (
            "with offset_clamp the fragment shader computes the whole offset, and the depth slope of a line- or "
            "point-filled polygon is not visible to it (without a clamp, or with offset_scale 0, it works)"
        ),
    ),
    (
        "point_line_tri_clip",
        lambda t, p: t.point_line_tri_clip,
        "GL clips points and lines as points and lines, not as the triangles D3D clips",
    ),
    (
        "line_rectangular",
        lambda t, p: t.line_rectangular and not (t.multisample or t.line_smooth),
        "GL draws aliased lines as parallelograms; rectangular lines come only with multisampling or line_smooth",
    ),
    (
        "conservative_raster_mode",
        lambda t, p: t.conservative_raster_mode != ConservativeRaster.OFF,
        "conservative rasterization is not in core GL (PIPE_CAP_CONSERVATIVE_RASTER_* are 0)",
    ),
    (
        "depth_clip_near / depth_clip_far",
        lambda t, p: t.depth_clip_near != t.depth_clip_far and t.clip_plane_enable & 0xFF == 0xFF,
        (
            "clipping against one depth plane only needs a free clip distance, and clip_plane_enable uses all "
            "PIPE_MAX_CLIP_PLANES (PIPE_CAP_CLIP_PLANES)"
        ),
    ),
    (
        "depth_clip_near / depth_clip_far",
        lambda t, p: not (t.depth_clip_near and t.depth_clip_far) and not p.has("depth_clamp"),
        "disabling depth clipping needs GL_ARB_depth_clamp (PIPE_CAP_DEPTH_CLIP_DISABLE is 0)",
    ),
    (
        "bottom_edge_rule",
        lambda t, p: t.bottom_edge_rule and not p.has("clip_control"),
        (
            "the host GL rasterizes framebuffer objects with the top-left rule (top = window y 0); the bottom-left "
            "rule needs glClipControl(GL_UPPER_LEFT) (GL 4.5 / GL_ARB_clip_control), which this host profile lacks "
            '(docs/rasterizer.md "Bottom edge rule")'
        ),
    ),
    (
        "force_persample_interp",
        lambda t, p: t.force_persample_interp and not p.has("sample_shading"),
        (
            "per-sample interpolation needs sample shading (GL 4.0 / GL_ARB_sample_shading; "
            "PIPE_CAP_FORCE_PERSAMPLE_INTERP is 0 on this host profile)"
        ),
    ),
    (
        "tile_raster_order_fixed",
        lambda t, p: t.tile_raster_order_fixed,
        "GL promises no tile order (PIPE_CAP_TILE_RASTER_ORDER is 0)",
    ),
    (
        "unclamped_fragment_depth_values",
        lambda t, p: t.unclamped_fragment_depth_values,
        "core GL clamps fragment depth to [0, 1] (GL_NV_depth_buffer_float is not used)",
    ),
    (
        "representative_fragment_test",
        lambda t, p: t.representative_fragment_test,
        "GL_NV_representative_fragment_test is not used",
    ),
)


def key_of(t: RasterizerState, smooth_range: tuple[float, float] | None = None) -> tuple:
    """The fields shader variants depend on, normalised so that equal
    behaviour compares equal (the sprite origin only matters with sprites).
    ``smooth_range``: the host's smooth line widths where glpipe draws
    antialiased lines itself (``line_smooth_key``), else None."""
    # cso/rasterizer.rst: without point_quad_rasterization "point sprite
    # coordinates are not generated".
    sprites = int(t.sprite_coord_enable) & 0xFFFF if t.point_quad_rasterization else 0
    return (
        bool(t.flatshade),
        bool(t.light_twoside),
        bool(t.clamp_vertex_color),
        bool(t.clamp_fragment_color),
        sprites,
        int(t.sprite_coord_mode) if sprites else 0,
        bool(t.poly_stipple_enable),
        int(t.clip_plane_enable) & 0xFF,
        # cso/rasterizer.rst: point_quad_rasterization disables point smoothing.
        bool(t.point_smooth and not t.point_quad_rasterization),
        # The pattern and factor are sysvals (glpipe/raster/line_stipple.py): never recompile.
        bool(t.line_stipple_enable),
        last_pixel_key(t),
        # Both faces drawn in different modes: draws of polygons are split
        # by facing (glpipe/raster/fill_modes.py), and the class is keyed per run.
        tuple(int(m) for m in fill_split(t) or ()),
        edge_fill(t),
        line_smooth_key(t, smooth_range),
    )


def line_smooth_key(t: RasterizerState, smooth_range: tuple[float, float] | None) -> float:
    """The key entry of line_smooth drawn by glpipe (the host quirk
    smooth_line_crash: lowering/glsl/passes/smooth_line.py): the line width,
    clamped to the host's smooth range as glLineWidth would be, or 0.0 --
    the host smooths (``smooth_range`` None), no line is smooth, GL's rule
    turns smoothing off (multisample rasterization: GL 4.5 §14.5.4 draws
    multisample lines whether LINE_SMOOTH is on or not), or nothing is
    rasterized."""
    if smooth_range is None or not t.line_smooth or t.multisample or t.rasterizer_discard:
        return 0.0
    lo, hi = smooth_range
    return min(max(float(t.line_width), lo), hi)


def edge_fill(t: RasterizerState) -> tuple:
    """The key entry of polygon edge flags (glpipe/raster/polygon_edges.py): the
    fill modes of the drawn faces, sorted, when one of them is LINE or
    POINT; else ()."""
    modes = effective_fill_modes(t)
    if not modes & {PolygonMode.LINE, PolygonMode.POINT}:
        return ()
    return tuple(sorted(int(m) for m in modes))


def last_pixel_key(t: RasterizerState) -> int:
    """The key entry of line_last_pixel (lowering/glsl/passes/last_pixel.py):
    0 where GL's diamond-exit rule does not apply -- smooth lines and
    multisample rasterization draw rectangles ending at the end point, with
    no omitted pixel to add (docs/rasterizer.md "Line last pixel") --, else
    1 (GL pixel centres) or 2 (integer centres: the pass moves Gallium's
    window coordinates by 0.5 into GL's)."""
    if not t.line_last_pixel or t.line_smooth or t.multisample:
        return LINE_LAST_PIXEL_OFF
    return LINE_LAST_PIXEL_HALF_CENTERS if t.half_pixel_center else LINE_LAST_PIXEL_INTEGER_CENTERS


def viewport_depth(t: RasterizerState) -> bool:
    """Near plane off, far plane on: Gallium's depth_clamp (= !depth_clip_far)
    is off, so depth is clamped to [0, 1] only, but the host's GL_DEPTH_CLAMP
    clamps to the depth range.  The host then gets the depth range [0, 1]
    and the last vertex stage does the viewport's z transform
    (VariantKey.viewport_depth; glpipe/viewport.py), so the host's clamp is
    Gallium's.  clip_halfz then changes nothing on the host (no host depth
    clipping, and Gallium's z transform is the same either way)."""
    return bool(t.depth_clip_far and not t.depth_clip_near)


def host_halfz(t: RasterizerState) -> bool:
    """Whether the host maps NDC z in [0, 1] (glClipControl ZERO_TO_ONE, or
    the z' = 2z - w variant): clip_halfz, unless the vertex stage does the
    depth transform (``viewport_depth``)."""
    return bool(t.clip_halfz) and not viewport_depth(t)


def emulated_key(t: RasterizerState, emulate: tuple) -> tuple:
    """The key entries of the fields a host without the GL switch gets through
    the last vertex stage: (clip_halfz without glClipControl, half_pixel_center
    = False without float viewports).  ``emulate`` is the context's
    ``_rast_emulate``; on a host with both switches the entries stay False, so
    the native path compiles no extra variant."""
    halfz, centres = emulate
    return (host_halfz(t) and halfz, (not t.half_pixel_center) and centres)


def origin_key(t: RasterizerState) -> tuple:
    """The key entry of bottom_edge_rule (refused without glClipControl): the
    host draws with clip origin GL_UPPER_LEFT, whose y mirror the last vertex
    stage undoes (VariantKey.y_flip, XOR-ed with a negative viewport y scale
    by glpipe/variant_keys.py; docs/rasterizer.md "Bottom edge rule")."""
    return (bool(t.bottom_edge_rule),)


def depth_key(t: RasterizerState) -> tuple:
    """The key entries of this module's depth variants: the unscaled offset
    mode (only when the offset reaches some fragment) and the depth plane
    that still clips."""
    return (offset_mode(t) if offset_fill_modes(t) else DEPTH_OFFSET_OFF, depth_clip_plane(t))


# Positions in RasterizerCSO.key.value (read by glpipe/variant_keys.py).
KEY_FLATSHADE, KEY_TWO_SIDE, KEY_CLAMP_VERTEX, KEY_CLAMP_FRAGMENT = 0, 1, 2, 3
KEY_SPRITE_ENABLE, KEY_SPRITE_MODE, KEY_POLY_STIPPLE, KEY_CLIP_PLANES = 4, 5, 6, 7
KEY_POINT_SMOOTH, KEY_LINE_STIPPLE, KEY_LINE_LAST_PIXEL, KEY_FILL_SPLIT = 8, 9, 10, 11
KEY_EDGE_FILL, KEY_LINE_SMOOTH = 12, 13
# origin_key's entry closes the tuple (counted from its end), emulated_key's
# precede it, depth_key's precede those.
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
FILL_CLASS = {
    PolygonMode.FILL: PRIM_CLASS_POLYGONS,
    PolygonMode.LINE: PRIM_CLASS_LINES,
    PolygonMode.POINT: PRIM_CLASS_POINTS,
}


def class_fields_on(key: tuple) -> bool:
    """Whether a field that applies to one primitive class only is on
    (poly_stipple_enable, sprite_coord_enable, point_smooth, line stipple,
    line last pixel, glpipe's antialiased lines, an unscaled polygon offset).  A face drawn as lines or
    points is not one: its polygons' edge flags are keyed by draw mode
    (glpipe/raster/polygon_edges.py), not by class."""
    return bool(
        key[KEY_POLY_STIPPLE]
        or key[KEY_SPRITE_ENABLE]
        or key[KEY_POINT_SMOOTH]
        or key[KEY_LINE_STIPPLE]
        or key[KEY_LINE_LAST_PIXEL]
        or key[KEY_LINE_SMOOTH]
        or key[KEY_DEPTH_OFFSET]
    )


def polygon_class(t: RasterizerState, key: tuple, mode) -> int:
    """The class of polygons filled in ``mode``: glPolygonMode POINT / LINE
    rasterizes their vertices / edges as points / lines (as Mesa's draw
    module's unfilled stage does ahead of its stipple and aapoint stages),
    with PRIM_CLASS_OFFSET while an unscaled offset applies to that mode."""
    cls = FILL_CLASS[mode]
    if key[KEY_DEPTH_OFFSET] and getattr(t, OFFSET_FLAG[mode]):
        cls |= PRIM_CLASS_OFFSET
    return cls


def prim_classes(t: RasterizerState, key: tuple) -> tuple[int, int, int] | None:
    """None unless a class-sensitive field is on (``class_fields_on``) or the
    faces have different fill modes; else the class points, lines and
    polygons rasterize as under this state, polygons by the fill mode of the
    faces that are drawn (``polygon_class``).  With two fill modes the draws
    of polygons are split into runs of one facing, each keyed with its own
    mode's class (glpipe/raster/fill_modes.py); the entry here is PRIM_CLASS_POLYGONS
    (also when no face is drawn: any class will do)."""
    split = key[KEY_FILL_SPLIT]
    if not (class_fields_on(key) or split):
        return None
    modes = effective_fill_modes(t)
    polygons = polygon_class(t, key, modes.pop()) if len(modes) == 1 else PRIM_CLASS_POLYGONS
    return (PRIM_CLASS_POINTS, PRIM_CLASS_LINES, polygons)
