"""RasterizerState.bottom_edge_rule on both profiles (native: clip origin
UPPER_LEFT with the y mirror undone in the vertex stage; gl33: refused).

Expectations come from Gallium's definition (cso/rasterizer.rst), in numpy:
a sample strictly inside a triangle is covered; a sample exactly on an edge
is covered when that edge is a *left* edge (not horizontal, interior to its
right) or, with bottom_edge_rule False, a *top* edge (horizontal, interior
at larger window y -- "top" is y = 0), with True a *bottom* edge
(horizontal, interior at smaller y).  Window y is the render target's row
(docs/coordinates.md).  Everything else -- facing, culling, gl_FragCoord,
derivatives, polygon stipple, sprite coordinates -- must not change, which
the tests check against draws with bottom_edge_rule False away from the
rows where samples lie on horizontal edges.
"""

from __future__ import annotations

import numpy as np
import pytest

from glpipe import (
    Face,
    PolyStipple,
    Prim,
    RasterizerState,
    UnsupportedError,
    ViewportState,
)

from .util_draw import SIZE, lit, rect_tris, setup
from .util_raster import SMOOTH_FS, WHITE, WINDOW_VS, draw_image, gallium_front, rast, signed_area

# Triangles in window coordinates whose horizontal and vertical edges lie on
# sample centres (k + 0.5) and whose slanted edges pass through none.
TOP_TRI = ((2.5, 3.5), (13.5, 3.5), (2.5, 8.5))  # top edge y = 3.5, left edge x = 2.5
BOTTOM_TRI = ((3.5, 12.5), (14.5, 12.5), (14.5, 9.5))  # bottom edge y = 12.5, right edge x = 14.5
TIE_TRIS = [TOP_TRI, BOTTOM_TRI, TOP_TRI[::-1], BOTTOM_TRI[::-1]]
TIE_RECT = rect_tris(2.5, 2.5, 6.5, 6.5)  # every edge through sample centres

# Viewports: the full target, and the same with a negative y scale (the
# variant flips y; the bottom-edge rule flips it once more).
UP = ViewportState(scale=(SIZE / 2, SIZE / 2, 0.5), translate=(SIZE / 2, SIZE / 2, 0.5))
DOWN = ViewportState(scale=(SIZE / 2, -SIZE / 2, 0.5), translate=(SIZE / 2, SIZE / 2, 0.5))

FRAGCOORD_FS = """FRAG
DCL IN[0], POSITION, LINEAR
DCL OUT[0], COLOR
  0: MOV OUT[0], IN[0]
  1: END
"""
# x: facing (+1 front, -1 back), y / z: d/dx and d/dy of GENERIC[0].x / .y.
FACE_DERIV_FS = """FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL IN[1], FACE, CONSTANT
DCL OUT[0], COLOR
DCL TEMP[0]
IMM[0] FLT32 {0.0, 0.0, 0.0, 1.0}
  0: MOV TEMP[0], IMM[0]
  1: MOV TEMP[0].x, IN[1].xxxx
  2: DDX TEMP[0].y, IN[0].xxxx
  3: DDY TEMP[0].z, IN[0].yyyy
  4: MOV OUT[0], TEMP[0]
  5: END
"""


def window_vertices(points, viewport, colors=WHITE) -> np.ndarray:
    """pos+colour rows placing window-space ``points`` through ``viewport``
    (NDC = (window - translate) / scale, so a negative y scale is honoured)."""
    pts = np.asarray(points, np.float64).reshape(-1, 2)
    out = np.zeros((len(pts), 8), np.float32)
    out[:, 0] = (pts[:, 0] - viewport.translate[0]) / viewport.scale[0]
    out[:, 1] = (pts[:, 1] - viewport.translate[1]) / viewport.scale[1]
    out[:, 3] = 1.0
    out[:, 4:] = np.broadcast_to(np.asarray(colors, np.float32), (len(pts), 4))
    return out


def edge_rule_coverage(tris, bottom: bool, size: int = SIZE) -> np.ndarray:
    """Boolean (size, size): pixel (x, y) covered by one of ``tris`` under
    Gallium's tie rule (the module docstring), sample at (x + 0.5, y + 0.5)."""
    ys, xs = np.mgrid[0:size, 0:size].astype(np.float64) + 0.5
    covered = np.zeros((size, size), bool)
    for tri in tris:
        (x0, y0), (x1, y1), (x2, y2) = tri
        sign = 1.0 if (x1 - x0) * (y2 - y0) - (x2 - x0) * (y1 - y0) > 0 else -1.0
        inside = np.ones((size, size), bool)
        for (ax, ay), (bx, by) in ((tri[0], tri[1]), (tri[1], tri[2]), (tri[2], tri[0])):
            # e > 0 inside; its gradient points into the triangle.
            e = sign * ((bx - ax) * (ys - ay) - (by - ay) * (xs - ax))
            gx, gy = -sign * (by - ay), sign * (bx - ax)
            if by == ay:  # horizontal edge: top (interior at larger y) or bottom
                owns = (gy < 0) if bottom else (gy > 0)
            else:  # a left edge has the interior to its right
                owns = gx > 0
            inside &= (e > 0) | ((e == 0) & owns)
        covered |= inside
    return covered


def _draw(ctx, color, tris, viewport, bottom: bool) -> np.ndarray:
    ctx.set_viewport_states(0, [viewport])
    pts = [p for t in tris for p in t]
    return draw_image(ctx, color, window_vertices(pts, viewport), Prim.TRIANGLES)


def _native(screen) -> bool:
    return screen.profile.has("clip_control")


def test_refused_without_clip_control(screen, ctx):
    """gl33 has no glClipControl: True is refused naming the field; False is
    the host's own rule on both profiles."""
    ctx.create_rasterizer_state(RasterizerState(bottom_edge_rule=False))
    if _native(screen):
        ctx.create_rasterizer_state(RasterizerState(bottom_edge_rule=True))
    else:
        with pytest.raises(UnsupportedError, match="bottom_edge_rule.*glClipControl"):
            ctx.create_rasterizer_state(RasterizerState(bottom_edge_rule=True))


@pytest.mark.parametrize("viewport", [UP, DOWN], ids=["y_up", "y_down"])
@pytest.mark.parametrize("bottom", [False, True])
def test_samples_on_horizontal_edges(screen, ctx, bottom, viewport):
    """Top edges at y = 3.5 / 2.5 and bottom edges at y = 12.5 / 6.5 through
    sample centres: False draws the top rows and not the bottom ones, True
    the reverse; left edges in, right edges out either way; both windings."""
    if bottom and not _native(screen):
        pytest.skip("refused on this profile (test_refused_without_clip_control)")
    color = setup(ctx)
    rast(ctx, bottom_edge_rule=bottom)
    for tris in ([t] for t in TIE_TRIS):
        want = edge_rule_coverage(tris, bottom)
        assert want.any() and not np.array_equal(want, edge_rule_coverage(tris, not bottom))
        assert np.array_equal(lit(_draw(ctx, color, tris, viewport, bottom)), want), tris
    img = lit(_draw(ctx, color, TIE_RECT, viewport, bottom))
    expected = np.zeros((SIZE, SIZE), bool)
    if bottom:
        expected[3:7, 2:6] = True  # rows 3..6: the bottom edge y = 6.5 is in, the top y = 2.5 out
    else:
        expected[2:6, 2:6] = True
    assert np.array_equal(img, expected)
    assert np.array_equal(img, edge_rule_coverage(TIE_RECT, bottom))


# Triangles off the sample grid (no ties): Gallium's det (docs/rasterizer.md
# "Winding") > 0 for the first, < 0 for the second.
POS_TRI = ((1.3, 1.2), (7.6, 4.1), (1.4, 7.7))
NEG_TRI = ((9.2, 8.3), (8.9, 14.6), (14.7, 12.1))


@pytest.mark.parametrize("viewport", [UP, DOWN], ids=["y_up", "y_down"])
@pytest.mark.parametrize("front_ccw", [True, False])
def test_facing_culling_and_derivatives_unchanged(screen, ctx, front_ccw, viewport):
    """gl_FrontFacing, culling and DDX / DDY with bottom_edge_rule True equal
    the False draw (no sample lies on an edge here), which itself follows
    Gallium's rule: det > 0 is front-facing exactly when not front_ccw."""
    if not _native(screen):
        pytest.skip("bottom_edge_rule is refused on this profile")
    assert signed_area(POS_TRI) > 0 > signed_area(NEG_TRI)
    color = setup(ctx, fs=FACE_DERIV_FS)
    ctx.set_viewport_states(0, [viewport])
    pts = [p for t in (POS_TRI, NEG_TRI) for p in t]
    # GENERIC[0] = (x / 16, y / 8): d/dx = 1/16, d/dy = 1/8 in window pixels.
    verts = window_vertices(pts, viewport)
    verts[:, 4] = [x / 16.0 for x, _ in pts]
    verts[:, 5] = [y / 8.0 for _, y in pts]
    pos_px = edge_rule_coverage([POS_TRI], False)
    neg_px = edge_rule_coverage([NEG_TRI], False)
    front = 1.0 if gallium_front(POS_TRI, front_ccw) else -1.0
    assert gallium_front(NEG_TRI, front_ccw) == (front < 0)
    images = {}
    for bottom in (False, True):
        for cull in (Face.NONE, Face.BACK):
            rast(ctx, bottom_edge_rule=bottom, front_ccw=front_ccw, cull_face=cull)
            img = draw_image(ctx, color, verts, Prim.TRIANGLES)
            images[bottom, cull] = img
            drawn = lit(img)
            if cull == Face.NONE:
                assert np.array_equal(drawn, pos_px | neg_px)
                assert np.all(img[pos_px, 0] == front) and np.all(img[neg_px, 0] == -front)
                assert np.allclose(img[drawn, 1], 1 / 16) and np.allclose(img[drawn, 2], 1 / 8)
            else:
                assert np.array_equal(drawn, pos_px if front > 0 else neg_px)
    assert np.array_equal(images[True, Face.NONE], images[False, Face.NONE])
    assert np.array_equal(images[True, Face.BACK], images[False, Face.BACK])


@pytest.mark.parametrize("viewport", [UP, DOWN], ids=["y_up", "y_down"])
def test_frag_coord_and_stipple_unchanged(screen, ctx, viewport):
    """gl_FragCoord reads (x + 0.5, y + 0.5) and the polygon stipple keeps
    its rows under bottom_edge_rule True: the rectangle with edges through
    sample centres equals the False draw except in its two tie rows."""
    if not _native(screen):
        pytest.skip("bottom_edge_rule is refused on this profile")
    color = setup(ctx, fs=FRAGCOORD_FS)
    rows = [(0xA5A5A5A5 if r % 3 else 0xFFFF0000) ^ (r * 0x01010101) for r in range(32)]
    ctx.set_polygon_stipple(PolyStipple(stipple=rows))
    tris = rect_tris(1.5, 2.5, 14.5, 12.5)
    ys, xs = np.mgrid[0:SIZE, 0:SIZE]
    stipple_on = np.array([[(rows[y % 32] >> (31 - x % 32)) & 1 for x in range(SIZE)] for y in range(SIZE)], bool)
    images = {}
    for bottom in (False, True):
        for stipple in (False, True):
            rast(ctx, bottom_edge_rule=bottom, poly_stipple_enable=stipple)
            img = _draw(ctx, color, tris, viewport, bottom)
            images[bottom, stipple] = img
            want = edge_rule_coverage(tris, bottom) & (stipple_on if stipple else True)
            assert np.array_equal(lit(img), want)
            assert np.allclose(img[want, 0], xs[want] + 0.5) and np.allclose(img[want, 1], ys[want] + 0.5)
    away = np.ones(SIZE, bool)
    away[[2, 12]] = False  # the tie rows: top edge y = 2.5, bottom edge y = 12.5
    for stipple in (False, True):
        assert np.array_equal(images[True, stipple][away], images[False, stipple][away])
        assert lit(images[True, stipple][away]).any()


@pytest.mark.parametrize("viewport", [UP, DOWN], ids=["y_up", "y_down"])
def test_sprite_coordinates_unchanged(screen, ctx, viewport):
    """An 8-pixel sprite centred on (8.5, 8.5) has its horizontal edges on
    sample rows 4.5 and 12.5: the rule picks rows 4..11 (False) or 5..12
    (True); the sprite coordinates are the same functions of the pixel."""
    if not _native(screen):
        pytest.skip("bottom_edge_rule is refused on this profile")
    color = setup(ctx, fs=SMOOTH_FS)
    ctx.set_viewport_states(0, [viewport])
    verts = window_vertices([(8.5, 8.5)], viewport)
    centres = np.arange(SIZE) + 0.5
    s = (centres - 4.5) / 8.0
    t = (centres - 4.5) / 8.0  # UPPER_LEFT: t = 0 at the smaller window y
    images = {}
    for bottom in (False, True):
        rast(ctx, bottom_edge_rule=bottom, point_size=8.0, point_quad_rasterization=True, sprite_coord_enable=1)
        img = draw_image(ctx, color, verts, Prim.POINTS)
        images[bottom] = img
        rows = slice(5, 13) if bottom else slice(4, 12)
        expected = np.zeros((SIZE, SIZE), bool)
        expected[rows, 4:12] = True  # left edge x = 4.5 in, right edge x = 12.5 out
        assert np.array_equal(lit(img), expected)
        sprite = img[rows, 4:12]
        assert np.allclose(sprite[..., 0], np.broadcast_to(s[None, 4:12], (8, 8)), atol=1e-5)
        assert np.allclose(sprite[..., 1], np.broadcast_to(t[rows, None], (8, 8)), atol=1e-5)
    away = np.ones(SIZE, bool)
    away[[4, 12]] = False
    assert np.array_equal(images[True][away], images[False][away])


@pytest.mark.parametrize("bottom", [False, True])
def test_integer_pixel_centres(screen, ctx, bottom):
    """half_pixel_center = False samples pixel (x, y) at (x, y): a rectangle
    from (2, 2) to (6, 6) has every edge on samples; the rule picks rows
    2..5 (False) or 3..6 (True), columns 2..5 either way."""
    if bottom and not _native(screen):
        pytest.skip("refused on this profile (test_refused_without_clip_control)")
    color = setup(ctx)
    rast(ctx, bottom_edge_rule=bottom, half_pixel_center=False)
    img = lit(_draw(ctx, color, rect_tris(2.0, 2.0, 6.0, 6.0), UP, bottom))
    expected = np.zeros((SIZE, SIZE), bool)
    expected[(slice(3, 7) if bottom else slice(2, 6)), 2:6] = True
    assert np.array_equal(img, expected)


@pytest.mark.parametrize("viewport", [UP, DOWN], ids=["y_up", "y_down"])
def test_window_space_position(screen, ctx, viewport):
    """A VS_WINDOW_SPACE_POSITION VS skips the viewport but not the tie
    rule: the window-space rectangle (2.5, 2.5)-(6.5, 6.5) covers rows 3..6
    with bottom_edge_rule True, whatever the viewport's y direction."""
    if not _native(screen):
        pytest.skip("bottom_edge_rule is refused on this profile")
    color = setup(ctx, vs=WINDOW_VS)
    ctx.set_viewport_states(0, [viewport])
    verts = np.zeros((6, 8), np.float32)
    verts[:, :2] = [p for t in TIE_RECT for p in t]
    verts[:, 2:] = (0.5, 1.0, 1.0, 1.0, 1.0, 1.0)
    for bottom in (False, True):
        rast(ctx, bottom_edge_rule=bottom)
        img = lit(draw_image(ctx, color, verts, Prim.TRIANGLES))
        assert np.array_equal(img, edge_rule_coverage(TIE_RECT, bottom)), bottom
