"""The rasterized primitive class in the variant key, and point_smooth.

Polygon stipple applies to polygons only, sprite coordinates and point
smoothing to points only (cso/rasterizer.rst; Mesa's draw module passes
points and lines through its stipple stage).  The class is the one that
reaches the rasterizer: a GS's output primitive, polygons drawn with a POINT
or LINE fill mode as points or lines.  Expectations are computed here from
those definitions (stipple bits, point-sprite coordinates, the coverage of
a circle with the one-pixel edge docs/rasterizer.md states), never from
what glpipe drew.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from glpipe import CapF, PolygonMode, PolyStipple, Prim, RasterizerState, ShaderState
from glpipe.dirty import Dirty

from .util import read_rgba32f, render_target, triangle_gs
from .util_draw import SIZE, lit, setup, vertices, zero_fill
from .util_raster import RED, SMOOTH_FS, WHITE, draw, draw_image, rast

FULL_QUAD = [(0.0, 0.0), (16.0, 0.0), (16.0, 16.0), (0.0, 16.0)]
FULL_TRIS = [FULL_QUAD[i] for i in (0, 1, 2, 0, 2, 3)]
# Even rows: every other pixel from x = 1; odd rows: four on, four off from x = 0.
PATTERN = [0x55555555 if r % 2 == 0 else 0xF0F0F0F0 for r in range(32)]

# Triangles in, each triangle's outline out as a line strip.
GS_OUTLINE = triangle_gs("LINE_STRIP", (0, 1, 2, 0))


def stipple_mask(rows, size=SIZE) -> np.ndarray:
    """(size, size) bool: pixel (x, y) passes when bit 31 - x % 32 of row y % 32 is set."""
    ys, xs = np.mgrid[0:size, 0:size]
    rows = np.asarray(rows, np.uint64)
    return ((rows[ys % 32] >> (31 - xs % 32).astype(np.uint64)) & 1).astype(bool)


def segment_distance(p0, p1, size=SIZE) -> np.ndarray:
    """Distance of every pixel centre from the segment p0-p1 (window coordinates)."""
    ys, xs = np.mgrid[0:size, 0:size].astype(np.float64) + 0.5
    (x0, y0), (x1, y1) = p0, p1
    dx, dy = x1 - x0, y1 - y0
    t = np.clip(((xs - x0) * dx + (ys - y0) * dy) / (dx * dx + dy * dy), 0.0, 1.0)
    return np.hypot(xs - (x0 + t * dx), ys - (y0 + t * dy))


def counters(screen) -> tuple:
    return screen.counters.shader_variants, screen.counters.programs_linked


# ---------------------------------------------------------------------------
# Polygon stipple: polygons only
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "mode, points",
    [(Prim.TRIANGLES, FULL_TRIS), (Prim.QUADS, FULL_QUAD), (Prim.TRIANGLE_FAN, FULL_QUAD)],
    ids=["triangles", "quads", "fan"],
)
def test_stipple_still_applies_to_polygons(screen, ctx, mode, points):
    color = setup(ctx)
    ctx.set_polygon_stipple(PolyStipple(stipple=PATTERN))
    rast(ctx, poly_stipple_enable=True)
    img = draw_image(ctx, color, vertices(points, WHITE), mode)
    assert np.array_equal(lit(img), stipple_mask(PATTERN))


def test_stipple_rekeys_between_line_and_triangle_draws(screen, ctx):
    """One rasterizer, draws of alternating class: each renders right, and
    the second round compiles and links nothing (the class only re-selects)."""
    color = setup(ctx)
    ctx.set_polygon_stipple(PolyStipple(stipple=PATTERN))
    rast(ctx, poly_stipple_enable=True)
    line = vertices([(1.0, 8.5), (15.0, 8.5)], WHITE)
    tris = vertices(FULL_TRIS, WHITE)
    line_expected = np.zeros((SIZE, SIZE), bool)
    line_expected[8, 1:15] = True  # diamond exit: x = 1..14 on row 8
    seen = None
    for round_ in range(3):
        assert np.array_equal(lit(draw_image(ctx, color, line, Prim.LINES)), line_expected)
        assert np.array_equal(lit(draw_image(ctx, color, tris, Prim.TRIANGLES)), stipple_mask(PATTERN))
        assert np.array_equal(lit(draw_image(ctx, color, line, Prim.LINE_STRIP)), line_expected)
        if round_ == 0:
            seen = counters(screen)
        assert counters(screen) == seen


def test_rasterizer_switches_rekey_the_class(screen, ctx):
    """Stipple on, off (fast path), on again; and two stipple rasterizers that
    differ only in fill mode (same variant fields, different class)."""
    color = setup(ctx)
    ctx.set_polygon_stipple(PolyStipple(stipple=PATTERN))
    filled = rast(ctx, poly_stipple_enable=True)
    outlined = ctx.create_rasterizer_state(
        RasterizerState(
            point_size=1.0,
            line_width=1.0,
            poly_stipple_enable=True,
            fill_front=PolygonMode.LINE,
            fill_back=PolygonMode.LINE,
        )
    )
    plain = ctx.create_rasterizer_state(RasterizerState(point_size=1.0, line_width=1.0))
    tris = vertices(FULL_TRIS, WHITE)
    line = vertices([(1.0, 8.5), (15.0, 8.5)], WHITE)
    stippled = stipple_mask(PATTERN)
    corners = [(2.5, 2.5), (13.5, 2.5), (2.5, 13.5)]
    small = vertices(corners, WHITE)
    edge_dist = np.min([segment_distance(corners[i], corners[(i + 1) % 3]) for i in range(3)], axis=0)
    for _ in range(2):
        ctx.bind_rasterizer_state(filled)
        assert np.array_equal(lit(draw_image(ctx, color, tris, Prim.TRIANGLES)), stippled)
        ctx.bind_rasterizer_state(plain)
        assert lit(draw_image(ctx, color, tris, Prim.TRIANGLES)).all()
        assert lit(draw_image(ctx, color, tris, Prim.TRIANGLES)).all()  # the fast path
        ctx.bind_rasterizer_state(filled)
        assert lit(draw_image(ctx, color, line, Prim.LINES))[8, 1:15].all()
        assert np.array_equal(lit(draw_image(ctx, color, tris, Prim.TRIANGLES)), stippled)
        ctx.bind_rasterizer_state(outlined)  # edges as lines, unstippled (the pattern has gaps in column 2)
        img = lit(draw_image(ctx, color, small, Prim.TRIANGLES))
        assert img[3:13, 2].all() and img[2, 3:13].all() and not img[edge_dist > 1.0].any()


def test_stipple_leaves_points_alone(screen, ctx):
    color = setup(ctx)
    ctx.set_polygon_stipple(PolyStipple(stipple=[0] * 32))  # would kill every fragment
    rast(ctx, poly_stipple_enable=True)
    pts = [(2.5, 3.5), (7.5, 8.5), (12.5, 1.5)]
    img = draw_image(ctx, color, vertices(pts, WHITE), Prim.POINTS)
    expected = np.zeros((SIZE, SIZE), bool)
    for x, y in pts:
        expected[int(y), int(x)] = True
    assert np.array_equal(lit(img), expected)


def test_gs_line_strip_from_triangles_is_not_stippled(screen, ctx):
    """The GS's output primitive decides: its lines pass an all-zero stipple,
    while the same triangle without the GS is stippled away."""
    color = setup(ctx)
    ctx.set_polygon_stipple(PolyStipple(stipple=[0] * 32))
    rast(ctx, poly_stipple_enable=True)
    corners = [(2.0, 2.0), (14.0, 3.0), (6.0, 13.0)]
    tri = vertices(corners, WHITE)
    assert not lit(draw_image(ctx, color, tri, Prim.TRIANGLES)).any()
    gs = ctx.create_gs_state(ShaderState(tokens=GS_OUTLINE))
    ctx.bind_gs_state(gs)
    img = lit(draw_image(ctx, color, tri, Prim.TRIANGLES))
    dist = np.min([segment_distance(corners[i], corners[(i + 1) % 3]) for i in range(3)], axis=0)
    # A 1-pixel line lights pixels whose centres are within a pixel of it, and
    # at least one pixel per unit of its major axis.
    assert img.sum() >= 12 + 10 + 10 - 3 and not img[dist > 1.0].any()
    ctx.bind_gs_state(None)
    assert not lit(draw_image(ctx, color, tri, Prim.TRIANGLES)).any()


@pytest.mark.parametrize("fill", [PolygonMode.LINE, PolygonMode.POINT], ids=["line", "point"])
def test_polygons_filled_as_lines_or_points_are_not_stippled(screen, ctx, fill):
    """glPolygonMode LINE / POINT rasterizes the edges / vertices as lines /
    points (GL 4.6 section 14.6.4), which polygon stipple does not touch."""
    color = setup(ctx)
    ctx.set_polygon_stipple(PolyStipple(stipple=[0] * 32))
    rast(ctx, poly_stipple_enable=True, fill_front=fill, fill_back=fill)
    corners = [(2.5, 2.5), (13.5, 2.5), (2.5, 13.5)]
    img = lit(draw_image(ctx, color, vertices(corners, WHITE), Prim.TRIANGLES))
    if fill == PolygonMode.POINT:
        expected = np.zeros((SIZE, SIZE), bool)
        for x, y in corners:
            expected[int(y), int(x)] = True
        assert np.array_equal(img, expected)
    else:
        dist = np.min([segment_distance(corners[i], corners[(i + 1) % 3]) for i in range(3)], axis=0)
        assert img.sum() >= 3 * 10 and not img[dist > 1.0].any()


def tes_source(prim_mode: int, point_mode: int) -> str:
    """A TES placing each vertex at the tess-coord-weighted patch corners
    (isolines: u between IN[0] and IN[1]; triangles: barycentric)."""
    if prim_mode == int(Prim.LINES):
        body = ["LRP TEMP[0], SV[0].xxxx, IN[1][0], IN[0][0]"]
    else:
        body = [
            "MUL TEMP[0], SV[0].xxxx, IN[0][0]",
            "MAD TEMP[0], SV[0].yyyy, IN[1][0], TEMP[0]",
            "MAD TEMP[0], SV[0].zzzz, IN[2][0], TEMP[0]",
        ]
    body += ["MOV OUT[0], TEMP[0]", "MOV OUT[1], IN[0][1]", "END"]
    return (
        "\n".join(
            [
                "TESS_EVAL",
                f"PROPERTY TES_PRIM_MODE {prim_mode}",
                "PROPERTY TES_SPACING 2",
                "PROPERTY TES_VERTEX_ORDER_CW 0",
                f"PROPERTY TES_POINT_MODE {point_mode}",
                "DCL IN[][0], POSITION",
                "DCL IN[][1], GENERIC[0]",
                "DCL SV[0], TESSCOORD",
                "DCL OUT[0], POSITION",
                "DCL OUT[1], GENERIC[0]",
                "DCL TEMP[0]",
            ]
            + [f"{i:3d}: {op}" for i, op in enumerate(body)]
        )
        + "\n"
    )


@pytest.mark.parametrize("what", ["isolines", "point_mode", "triangles"])
def test_tessellation_output_decides_the_class(screen, ctx, what):
    """With a TES bound, TES_POINT_MODE (points) and TES_PRIM_MODE (isolines:
    lines) decide; tessellated triangles are polygons and get stippled."""
    if not screen.profile.has("tessellation_shader"):
        pytest.skip("no tessellation on this profile (create_tes_state refuses it: test_draw_features.py)")
    color = setup(ctx)
    ctx.set_polygon_stipple(PolyStipple(stipple=[0] * 32))
    rast(ctx, poly_stipple_enable=True)
    ctx.set_tess_state((1.0, 1.0, 1.0, 1.0), (1.0, 1.0))
    expected = np.zeros((SIZE, SIZE), bool)
    if what == "isolines":
        tes, corners = tes_source(int(Prim.LINES), 0), [(1.0, 8.5), (15.0, 8.5)]
        expected[8, 1:15] = True
    else:
        tes, corners = (
            tes_source(int(Prim.TRIANGLES), int(what == "point_mode")),
            [(2.5, 2.5), (13.5, 2.5), (2.5, 13.5)],
        )
        if what == "point_mode":
            for x, y in corners:
                expected[int(y), int(x)] = True
    ctx.bind_tes_state(ctx.create_tes_state(ShaderState(tokens=tes)))
    ctx.set_patch_vertices(len(corners))
    img = draw_image(ctx, color, vertices(corners, WHITE), Prim.PATCHES)
    assert np.array_equal(lit(img), expected)


# ---------------------------------------------------------------------------
# Sprite coordinates: points only
# ---------------------------------------------------------------------------


def sprite_image(cx, cy, size, upper_left=True) -> np.ndarray:
    """(s, t, 0, 1) over a point of ``size`` pixels centred at (cx, cy):
    s = 0..1 left to right, t = 0 at the smallest window y (UPPER_LEFT)."""
    img = np.zeros((SIZE, SIZE, 4), np.float32)
    x0, y0 = int(cx - size / 2), int(cy - size / 2)
    for j in range(size):
        for i in range(size):
            t = (j + 0.5) / size
            img[y0 + j, x0 + i] = ((i + 0.5) / size, t if upper_left else 1.0 - t, 0.0, 1.0)
    return img


def test_sprite_coords_apply_to_points_and_not_triangles_alternately(screen, ctx):
    color = setup(ctx, fs=SMOOTH_FS)
    rast(ctx, point_quad_rasterization=True, sprite_coord_enable=1, point_size=4.0)
    point = vertices([(8.0, 8.0)], RED)
    tris = vertices(FULL_TRIS, RED)
    for _ in range(2):
        assert np.allclose(draw_image(ctx, color, point, Prim.POINTS), sprite_image(8.0, 8.0, 4), atol=1e-5)
        assert np.all(draw_image(ctx, color, tris, Prim.TRIANGLES) == RED)


def test_sprite_coords_apply_to_polygons_drawn_as_points(screen, ctx):
    color = setup(ctx, fs=SMOOTH_FS)
    rast(
        ctx,
        point_quad_rasterization=True,
        sprite_coord_enable=1,
        point_size=4.0,
        fill_front=PolygonMode.POINT,
        fill_back=PolygonMode.POINT,
    )
    img = draw_image(ctx, color, vertices([(4.0, 4.0), (12.0, 4.0), (4.0, 12.0)], RED), Prim.TRIANGLES)
    expected = sprite_image(4.0, 4.0, 4) + sprite_image(12.0, 4.0, 4) + sprite_image(4.0, 12.0, 4)
    assert np.allclose(img, expected, atol=1e-5)


# ---------------------------------------------------------------------------
# No class-sensitive field: no extra variants, the fast path stays
# ---------------------------------------------------------------------------


def test_class_is_not_keyed_without_a_class_sensitive_field(screen, ctx):
    color = setup(ctx)
    rast(ctx, flatshade=True, point_size=3.0)
    draws = [
        (vertices([(4.5, 4.5)], WHITE), Prim.POINTS),
        (vertices([(1.0, 8.5), (15.0, 8.5)], WHITE), Prim.LINES),
        (vertices(FULL_TRIS, WHITE), Prim.TRIANGLES),
    ]
    draw_image(ctx, color, *draws[0])
    seen = counters(screen)
    for verts, mode in draws * 2:
        assert lit(draw_image(ctx, color, verts, mode)).any()
    assert counters(screen) == seen
    # Nothing keeps such draws off the fast path (user vertex buffers aside).
    assert not ctx.dirty & ~(Dirty.DRAW_STATE | Dirty.VERTEX) and not ctx.rasterizer_part.rast_class_sensitive


def test_stipple_compiles_no_extra_variant_for_points_and_lines(screen, ctx):
    """Only polygons change the FS key under stipple: a point draw after a
    line draw uses the same program."""
    color = setup(ctx)
    ctx.set_polygon_stipple(PolyStipple(stipple=PATTERN))
    rast(ctx, poly_stipple_enable=True)
    draw_image(ctx, color, vertices([(1.0, 8.5), (15.0, 8.5)], WHITE), Prim.LINES)
    seen = counters(screen)
    assert lit(draw_image(ctx, color, vertices([(4.5, 4.5)], WHITE), Prim.POINTS))[4, 4]
    assert counters(screen) == seen


# ---------------------------------------------------------------------------
# point_smooth
# ---------------------------------------------------------------------------


def point_coverage(cx, cy, size, width=SIZE, height=SIZE):
    """(coverage, in_square): docs/rasterizer.md's coverage of a round point --
    clamp(size / 2 + 0.5 - d, 0, 1), d the pixel centre's distance from the
    point centre -- and which pixel centres lie strictly inside GL's square."""
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float64) + 0.5
    d = np.hypot(xs - cx, ys - cy)
    cov = np.clip(size / 2 + 0.5 - d, 0.0, 1.0)
    half = size / 2
    square = (np.abs(xs - cx) < half) & (np.abs(ys - cy) < half)
    return cov, square


def test_point_smooth_round_point_coverage(screen, ctx):
    color = setup(ctx)
    rast(ctx, point_smooth=True, point_size=8.0)
    img = draw_image(ctx, color, vertices([(8.0, 8.0)], (0.25, 0.5, 0.75, 1.0)), Prim.POINTS)
    cov, square = point_coverage(8.0, 8.0, 8.0)
    drawn = square & (cov > 0)
    # Inside: the colour with alpha = coverage; discarded where coverage is 0.
    assert np.allclose(img[drawn][:, :3], (0.25, 0.5, 0.75))
    assert np.allclose(img[..., 3], np.where(drawn, cov, 0.0), atol=2e-3)
    assert np.all(img[cov == 1.0][:, 3] == 1.0)  # inside the circle: alpha 1
    for y, x in ((4, 4), (4, 11), (11, 4), (11, 11)):  # the square's corners are gone
        assert not lit(img)[y, x]
    assert 0.0 < img[5, 4, 3] < 1.0 and 0.0 < img[4, 6, 3] < 1.0  # a fractional edge
    # Monotonic across the edge, along the diagonal from the centre outwards.
    diag = [img[7 - k, 7 - k, 3] for k in range(4)]
    assert all(a >= b for a, b in itertools.pairwise(diag)) and diag[0] == 1.0 and diag[-1] == 0.0


def test_point_smooth_multiplies_alpha_and_leaves_lines_and_triangles(screen, ctx):
    color = setup(ctx)
    rast(ctx, point_smooth=True, point_size=6.0)
    half = (1.0, 1.0, 1.0, 0.5)
    img = draw_image(ctx, color, vertices([(8.0, 8.0)], half), Prim.POINTS)
    cov, square = point_coverage(8.0, 8.0, 6.0)
    assert np.allclose(img[..., 3], np.where(square & (cov > 0), 0.5 * cov, 0.0), atol=2e-3)
    img = draw_image(ctx, color, vertices(FULL_TRIS, half), Prim.TRIANGLES)
    assert np.all(img == half)
    img = draw_image(ctx, color, vertices([(1.0, 8.5), (15.0, 8.5)], half), Prim.LINES)
    assert np.all(img[8, 1:15] == half) and lit(img).sum() == 14


PSIZE_VS = """VERT
DCL IN[0]
DCL IN[1]
DCL OUT[0], POSITION
DCL OUT[1], GENERIC[0]
DCL OUT[2], PSIZE
IMM[0] FLT32 {6.0, 0.0, 0.0, 0.0}
  0: MOV OUT[0], IN[0]
  1: MOV OUT[1], IN[1]
  2: MOV OUT[2], IMM[0].xxxx
  3: END
"""


def test_point_smooth_with_per_vertex_size(screen, ctx):
    """The coverage follows the shader's PSIZE (the pass measures the size from gl_PointCoord)."""
    color = setup(ctx, vs=PSIZE_VS)
    rast(ctx, point_smooth=True, point_size_per_vertex=True, point_size=1.0)
    img = draw_image(ctx, color, vertices([(8.0, 8.0)], WHITE), Prim.POINTS)
    cov, square = point_coverage(8.0, 8.0, 6.0)
    assert np.allclose(img[..., 3], np.where(square & (cov > 0), cov, 0.0), atol=2e-3)
    assert lit(img).sum() == (square & (cov > 0)).sum() < 36


def test_point_smooth_is_ignored_with_quad_rasterization(screen, ctx):
    """cso/rasterizer.rst: point_quad_rasterization disables point smoothing."""
    color = setup(ctx)
    rast(ctx, point_smooth=True, point_quad_rasterization=True, point_size=8.0)
    img = draw_image(ctx, color, vertices([(8.0, 8.0)], WHITE), Prim.POINTS)
    expected = np.zeros((SIZE, SIZE), bool)
    expected[4:12, 4:12] = True
    assert np.array_equal(lit(img), expected) and np.all(img[4:12, 4:12] == WHITE)


def test_point_smooth_sizes_at_the_limits(screen, ctx):
    """MIN/MAX_POINT_SIZE_AA: a point of the smallest size covers its one
    pixel fully; one of the largest is a disc of that diameter, corners gone."""
    lo, hi = screen.caps.paramf[CapF.MIN_POINT_SIZE_AA], screen.caps.paramf[CapF.MAX_POINT_SIZE_AA]
    assert lo == 1.0 and hi >= 8.0
    color = setup(ctx)
    rast(ctx, point_smooth=True, point_size=lo)
    img = draw_image(ctx, color, vertices([(4.5, 4.5)], WHITE), Prim.POINTS)
    assert lit(img).sum() == 1 and np.all(img[4, 4] == WHITE)
    n = int(np.ceil(hi)) + 1
    big, _ = render_target(ctx, n, n)
    zero_fill(screen, big)
    rast(ctx, point_smooth=True, point_size=hi)
    draw(ctx, vertices([(n / 2, n / 2)], WHITE, size=n), Prim.POINTS)
    img = read_rgba32f(screen, big)
    cov, square = point_coverage(n / 2, n / 2, hi, n, n)
    assert np.allclose(img[..., 3][square], cov[square], atol=5e-3)
    assert img[n // 2, n // 2, 3] == 1.0 and not lit(img)[0, 0] and not lit(img)[n - 1, n - 1]
