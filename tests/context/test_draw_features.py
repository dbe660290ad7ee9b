"""draw_vbo, feature by feature (context.rst "Drawing"), on both profiles.

Expected images are computed here from the geometry (tests/context/
util_draw.py's coverage model, or the list of vertices a draw must fetch),
never from what glpipe drew.  Points at pixel centres make index and
instancing tests exact: a lit pixel means "this vertex was fetched", with
its colour saying which data it fetched.
"""

from __future__ import annotations

import numpy as np
import pytest

import glpipe
from glpipe import (
    DrawInfo,
    DrawStartCountBias,
    Format,
    Prim,
    ShaderState,
    VertexBuffer,
    VertexElement,
)
from lowering.errors import InvalidArgumentError, UnsupportedError

from .util import read_rgba32f, vertex_buffer
from .util_draw import (
    SIZE,
    assert_coverage,
    bind_rasterizer,
    lit,
    point_grid_vertices,
    points_image,
    rect_tris,
    setup,
    triangle_coverage,
    vertices,
    zero_fill,
)

RED = (1.0, 0.0, 0.0, 1.0)
GREEN = (0.0, 1.0, 0.0, 1.0)
BLUE = (0.0, 0.0, 1.0, 1.0)
WHITE = (1.0, 1.0, 1.0, 1.0)


def _draw(ctx, verts, mode, **info):
    """Bind ``verts`` (pos+colour rows) as vertex buffer 0 (user memory) and draw."""
    ctx.set_vertex_buffers([VertexBuffer(buffer=np.ascontiguousarray(verts), stride=32)])
    info.setdefault("count", len(verts))
    ctx.draw_vbo(DrawInfo(mode=mode, **info))


# ---------------------------------------------------------------------------
# Primitive types
# ---------------------------------------------------------------------------


def test_points_light_exactly_their_pixels(screen, ctx):
    color = setup(ctx)
    pix = [(1, 2), (5, 5), (14, 0), (0, 15), (9, 11)]
    _draw(ctx, vertices([(x + 0.5, y + 0.5) for x, y in pix], GREEN), Prim.POINTS)
    img = read_rgba32f(screen, color)
    expected = np.zeros((SIZE, SIZE), bool)
    for x, y in pix:
        expected[y, x] = True
    assert np.array_equal(lit(img), expected)
    assert np.all(img[expected] == GREEN)


def _row_segment_check(img, y, x_in, x_out):
    """Pixels of row ``y`` at ``x_in`` are drawn and at ``x_out`` are not."""
    row = lit(img)[y]
    assert all(row[x] for x in x_in), f"row {y}: expected lit at {list(x_in)}, got {np.flatnonzero(row)}"
    assert not any(row[x] for x in x_out), f"row {y}: expected dark at {list(x_out)}, got {np.flatnonzero(row)}"


def test_lines_are_independent_segments(screen, ctx):
    color = setup(ctx)
    # Two segments along pixel rows 3 and 9 (y at pixel centres); LINES must
    # not join vertex 1 to vertex 2.
    pts = [(2.5, 3.5), (12.5, 3.5), (2.5, 9.5), (12.5, 9.5)]
    _draw(ctx, vertices(pts, RED), Prim.LINES)
    img = read_rgba32f(screen, color)
    _row_segment_check(img, 3, range(4, 11), [0, 15])
    _row_segment_check(img, 9, range(4, 11), [0, 15])
    assert not lit(img)[5:8].any(), "LINES joined two segments"
    assert not lit(img)[[0, 1, 12, 13, 14, 15]].any()


def test_line_strip_joins_but_does_not_close(screen, ctx):
    color = setup(ctx)
    # A U shape: along row 2, up column 13, back along row 12.  As a strip
    # the segment from the last vertex back to the first (column 2) is absent.
    pts = [(2.5, 2.5), (13.5, 2.5), (13.5, 12.5), (2.5, 12.5)]
    _draw(ctx, vertices(pts, RED), Prim.LINE_STRIP)
    img = read_rgba32f(screen, color)
    _row_segment_check(img, 2, range(4, 12), [0, 15])
    _row_segment_check(img, 12, range(4, 12), [0, 15])
    assert lit(img)[4:11, 13].all(), "the middle segment of the strip is missing"
    assert not lit(img)[4:11, 2].any(), "a LINE_STRIP closed itself"


def test_line_loop_closes(screen, ctx):
    color = setup(ctx)
    pts = [(2.5, 2.5), (13.5, 2.5), (13.5, 12.5), (2.5, 12.5)]
    _draw(ctx, vertices(pts, RED), Prim.LINE_LOOP)
    img = read_rgba32f(screen, color)
    assert lit(img)[4:11, 13].all() and lit(img)[4:11, 2].all(), "LINE_LOOP did not close"
    assert not lit(img)[5:10, 5:11].any(), "the loop's interior is drawn"


@pytest.mark.parametrize(
    "mode,points,tris",
    [
        (
            Prim.TRIANGLES,
            [(1, 1), (7, 1), (7, 6), (9, 9), (15, 9), (9, 14)],
            [((1, 1), (7, 1), (7, 6)), ((9, 9), (15, 9), (9, 14))],
        ),
        # A strip of six vertices: triangles (0,1,2) (1,2,3) (2,3,4) (3,4,5): a 12x4 band.
        (
            Prim.TRIANGLE_STRIP,
            [(2, 3), (2, 7), (8, 3), (8, 7), (14, 3), (14, 7)],
            [((2, 3), (2, 7), (8, 3)), ((2, 7), (8, 3), (8, 7)), ((8, 3), (8, 7), (14, 3)), ((8, 7), (14, 3), (14, 7))],
        ),
        # A fan around (8, 8): (c,1,2) (c,2,3) (c,3,4): three quarters of a diamond.
        (
            Prim.TRIANGLE_FAN,
            [(8, 8), (14, 8), (8, 14), (2, 8), (8, 2)],
            [((8, 8), (14, 8), (8, 14)), ((8, 8), (8, 14), (2, 8)), ((8, 8), (2, 8), (8, 2))],
        ),
    ],
)
def test_triangle_prims_cover_their_triangles(screen, ctx, mode, points, tris):
    color = setup(ctx)
    _draw(ctx, vertices(points, BLUE), mode)
    covered, ambiguous = triangle_coverage(tris)
    assert_coverage(read_rgba32f(screen, color), covered, ambiguous, BLUE)


def test_adjacency_prims_without_gs_draw_the_base_primitive(screen, ctx):
    """Without a geometry shader GL draws adjacency primitives as their base
    primitive and ignores the adjacent vertices (which here would cover
    other pixels if they were used)."""
    color = setup(ctx)
    far = (15.9, 15.9)
    # TRIANGLES_ADJACENCY: vertices 0, 2, 4 make the triangle.
    _draw(ctx, vertices([(1, 1), far, (9, 1), far, (1, 9), far], RED), Prim.TRIANGLES_ADJACENCY)
    covered, ambiguous = triangle_coverage([((1, 1), (9, 1), (1, 9))])
    assert_coverage(read_rgba32f(screen, color), covered, ambiguous, RED)

    zero_fill(screen, color)
    # TRIANGLE_STRIP_ADJACENCY with 8 vertices: triangles (0, 2, 4) and (2, 6, 4).
    pts = [(2, 2), far, (2, 8), far, (8, 2), far, (8, 8), far]
    _draw(ctx, vertices(pts, RED), Prim.TRIANGLE_STRIP_ADJACENCY)
    covered, ambiguous = triangle_coverage([((2, 2), (2, 8), (8, 2)), ((2, 8), (8, 8), (8, 2))])
    assert_coverage(read_rgba32f(screen, color), covered, ambiguous, RED)

    zero_fill(screen, color)
    # LINES_ADJACENCY: vertices 1-2 of each four; LINE_STRIP_ADJACENCY: 1..n-2.
    _draw(ctx, vertices([(0.5, 14.5), (2.5, 4.5), (13.5, 4.5), (15.5, 14.5)], RED), Prim.LINES_ADJACENCY)
    img = read_rgba32f(screen, color)
    _row_segment_check(img, 4, range(4, 12), [0, 15])
    assert not lit(img)[6:].any(), "an adjacent vertex of LINES_ADJACENCY was drawn"

    zero_fill(screen, color)
    pts = [(0.5, 14.5), (2.5, 4.5), (13.5, 4.5), (13.5, 10.5), (0.5, 0.5)]
    _draw(ctx, vertices(pts, RED), Prim.LINE_STRIP_ADJACENCY)
    img = read_rgba32f(screen, color)
    _row_segment_check(img, 4, range(4, 12), [0, 15])
    assert lit(img)[6:9, 13].all()
    assert not lit(img)[12:].any() and not lit(img)[0:3].any()


# ---------------------------------------------------------------------------
# Primitives core GL lacks: index translation (fallback.indices)
# ---------------------------------------------------------------------------


def test_quads_cover_their_rectangles_and_count_a_fallback_hit(screen, ctx):
    color = setup(ctx)
    quads = [(1, 1, 6, 5), (8, 7, 15, 14)]
    pts = []
    for x0, y0, x1, y1 in quads:
        pts += [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
    before = screen.counters.fallback_hits
    _draw(ctx, vertices(pts, GREEN), Prim.QUADS)
    assert screen.counters.fallback_hits == before + 1
    tris = [t for q in quads for t in rect_tris(*q)]
    covered, ambiguous = triangle_coverage(tris)
    assert_coverage(read_rgba32f(screen, color), covered, ambiguous, GREEN)


def test_quad_strip_and_polygon_cover_their_area(screen, ctx):
    color = setup(ctx)
    # QUAD_STRIP of 6 vertices: quads (0,1,3,2) and (2,3,5,4): a 12x6 band.
    pts = [(2, 4), (2, 10), (8, 4), (8, 10), (14, 4), (14, 10)]
    _draw(ctx, vertices(pts, GREEN), Prim.QUAD_STRIP)
    covered, ambiguous = triangle_coverage(rect_tris(2, 4, 14, 10))
    assert_coverage(read_rgba32f(screen, color), covered, ambiguous, GREEN)

    zero_fill(screen, color)
    # A convex pentagon.
    poly = [(3, 2), (12, 2), (14, 8), (8, 14), (2, 8)]
    _draw(ctx, vertices(poly, GREEN), Prim.POLYGON)
    tris = [(poly[0], poly[k], poly[k + 1]) for k in range(1, len(poly) - 1)]
    covered, ambiguous = triangle_coverage(tris)
    assert_coverage(read_rgba32f(screen, color), covered, ambiguous, GREEN)


def _colors(n):
    """n distinct colours (vertex i -> ((i+1)/16, 1 - i/16, 0.5, 1))."""
    return [((i + 1) / 16.0, 1.0 - i / 16.0, 0.5, 1.0) for i in range(n)]


def _flat_colors_by_region(img, regions):
    """Every unambiguous covered pixel of each region has the region's colour."""
    for tris, col in regions:
        covered, ambiguous = triangle_coverage(tris)
        sure = covered & ~ambiguous
        assert sure.any()
        got = img[sure]
        assert np.all(got == np.asarray(col, np.float32)), (col, np.unique(got.reshape(-1, 4), axis=0))


def test_provoking_vertex_last_by_default(screen, ctx):
    """flatshade_first = 0 (Gallium's default): a flat input takes the last
    vertex of each primitive -- triangle: v2; quad i: v4i+3 (GL table 2.12
    "4i"); quad strip quad i: v2i+3 ("2i+2"); polygon: v0 always."""
    color = setup(ctx)
    cols = _colors(8)
    tri = [(1, 1), (9, 1), (1, 9)]
    _draw(ctx, vertices(tri, cols[:3]), Prim.TRIANGLES)
    _flat_colors_by_region(read_rgba32f(screen, color), [([tuple(tri)], cols[2])])

    zero_fill(screen, color)
    quads = [(1, 1, 6, 6), (9, 9, 15, 15)]
    pts = [p for x0, y0, x1, y1 in quads for p in ((x0, y0), (x1, y0), (x1, y1), (x0, y1))]
    _draw(ctx, vertices(pts, cols), Prim.QUADS)
    _flat_colors_by_region(
        read_rgba32f(screen, color), [(rect_tris(*quads[0]), cols[3]), (rect_tris(*quads[1]), cols[7])]
    )

    zero_fill(screen, color)
    strip = [(2, 2), (2, 12), (7, 2), (7, 12), (13, 2), (13, 12)]
    _draw(ctx, vertices(strip, cols[:6]), Prim.QUAD_STRIP)
    _flat_colors_by_region(
        read_rgba32f(screen, color), [(rect_tris(2, 2, 7, 12), cols[3]), (rect_tris(7, 2, 13, 12), cols[5])]
    )

    zero_fill(screen, color)
    poly = [(3, 2), (12, 2), (14, 8), (8, 14), (2, 8)]
    _draw(ctx, vertices(poly, cols[:5]), Prim.POLYGON)
    tris = [(poly[0], poly[k], poly[k + 1]) for k in range(1, 4)]
    _flat_colors_by_region(read_rgba32f(screen, color), [(tris, cols[0])])


def test_provoking_vertex_first_with_flatshade_first(screen, ctx):
    """flatshade_first = 1: triangle v0, quad i v4i, quad strip quad i v2i,
    polygon v0 -- the index translation and GL's provoking vertex agree."""
    color = setup(ctx)
    bind_rasterizer(ctx, flatshade_first=True)
    cols = _colors(8)
    tri = [(1, 1), (9, 1), (1, 9)]
    _draw(ctx, vertices(tri, cols[:3]), Prim.TRIANGLES)
    _flat_colors_by_region(read_rgba32f(screen, color), [([tuple(tri)], cols[0])])

    zero_fill(screen, color)
    quads = [(1, 1, 6, 6), (9, 9, 15, 15)]
    pts = [p for x0, y0, x1, y1 in quads for p in ((x0, y0), (x1, y0), (x1, y1), (x0, y1))]
    _draw(ctx, vertices(pts, cols), Prim.QUADS)
    _flat_colors_by_region(
        read_rgba32f(screen, color), [(rect_tris(*quads[0]), cols[0]), (rect_tris(*quads[1]), cols[4])]
    )

    zero_fill(screen, color)
    strip = [(2, 2), (2, 12), (7, 2), (7, 12), (13, 2), (13, 12)]
    _draw(ctx, vertices(strip, cols[:6]), Prim.QUAD_STRIP)
    _flat_colors_by_region(
        read_rgba32f(screen, color), [(rect_tris(2, 2, 7, 12), cols[0]), (rect_tris(7, 2, 13, 12), cols[2])]
    )

    zero_fill(screen, color)
    poly = [(3, 2), (12, 2), (14, 8), (8, 14), (2, 8)]
    _draw(ctx, vertices(poly, cols[:5]), Prim.POLYGON)
    tris = [(poly[0], poly[k], poly[k + 1]) for k in range(1, 4)]
    _flat_colors_by_region(read_rgba32f(screen, color), [(tris, cols[0])])


def test_indexed_quads_with_restart_and_bias(screen, ctx):
    """QUADS from an index buffer: restart ends a quad run (the marker is
    compared before the bias), the bias is added after lookup."""
    color = setup(ctx)
    rects = [(1, 1, 6, 6), (9, 9, 15, 15)]
    pts = [p for x0, y0, x1, y1 in rects for p in ((x0, y0), (x1, y0), (x1, y1), (x0, y1))]
    verts = np.concatenate([np.zeros((10, 8), np.float32), vertices(pts, WHITE)])
    # Values 0..7 + bias 10; a restart (0xfe) after one index: that lone vertex
    # is an incomplete quad and is dropped, the next run starts fresh.
    idx = np.array([3, 0xFE, 0, 1, 2, 3, 0xFE, 4, 5, 6, 7], np.uint8)
    ctx.set_vertex_buffers([VertexBuffer(buffer=verts, stride=32)])
    ctx.draw_vbo(
        DrawInfo(
            mode=Prim.QUADS,
            index_size=1,
            index=idx,
            count=len(idx),
            index_bias=10,
            primitive_restart=True,
            restart_index=0xFE,
        )
    )
    covered, ambiguous = triangle_coverage([t for r in rects for t in rect_tris(*r)])
    assert_coverage(read_rgba32f(screen, color), covered, ambiguous, WHITE)


# ---------------------------------------------------------------------------
# Indexed draws
# ---------------------------------------------------------------------------


def _index_resource(screen, data: np.ndarray):
    res = vertex_buffer(screen, data)  # a BUFFER resource with the bytes (raw GL upload)
    return res


@pytest.mark.parametrize("index_size", [1, 2, 4])
@pytest.mark.parametrize("user", [True, False], ids=["user", "resource"])
def test_indexed_points_fetch_index_plus_bias(screen, ctx, index_size, user):
    color = setup(ctx)
    verts = point_grid_vertices(256)
    ctx.set_vertex_buffers([VertexBuffer(buffer=vertex_buffer(screen, verts), stride=32)])
    dtype = {1: np.uint8, 2: np.uint16, 4: np.uint32}[index_size]
    idx = np.array([9, 3, 200, 17, 17, 0, 5, 250, 40, 41], dtype)
    start, count, bias = 2, 6, 3
    index = idx if user else _index_resource(screen, idx)
    ctx.draw_vbo(
        DrawInfo(mode=Prim.POINTS, index_size=index_size, index=index, start=start, count=count, index_bias=bias)
    )
    fetched = [int(v) + bias for v in idx[start : start + count]]
    assert np.array_equal(read_rgba32f(screen, color), points_image(fetched, verts))


def test_negative_index_bias(screen, ctx):
    color = setup(ctx)
    verts = point_grid_vertices(64)
    ctx.set_vertex_buffers([VertexBuffer(buffer=vertex_buffer(screen, verts), stride=32)])
    idx = np.array([40, 50, 63, 45], np.uint16)
    ctx.draw_vbo(DrawInfo(mode=Prim.POINTS, index_size=2, index=idx, count=4, index_bias=-40))
    assert np.array_equal(read_rgba32f(screen, color), points_image([0, 10, 23, 5], verts))


def test_min_max_index_are_hints_only(screen, ctx):
    """An over-estimate of the index bounds renders exactly the same (context.rst)."""
    color = setup(ctx)
    verts = point_grid_vertices(128)
    ctx.set_vertex_buffers([VertexBuffer(buffer=vertex_buffer(screen, verts), stride=32)])
    idx = np.array([7, 100, 64, 3], np.uint32)
    images = []
    for lo, hi, valid in ((3, 100, True), (0, 0xFFFFFFFF, True), (0, 0, False)):
        zero_fill(screen, color)
        ctx.draw_vbo(
            DrawInfo(
                mode=Prim.POINTS, index_size=4, index=idx, count=4, min_index=lo, max_index=hi, index_bounds_valid=valid
            )
        )
        images.append(read_rgba32f(screen, color))
    expected = points_image([7, 100, 64, 3], verts)
    for img in images:
        assert np.array_equal(img, expected)


@pytest.mark.parametrize(
    "index_size,restart_index,values",
    [
        (1, 0xFF, [1, 2, 0xFF, 4, 5]),
        (1, 0, [3, 0, 4, 6, 0, 7]),  # restart index 0
        (2, 0xFFFF, [10, 0xFFFF, 11, 12]),
        (2, 0x1234, [20, 0x1234, 21, 22]),  # any value, not only all-ones
        (4, 0xFFFFFFFF, [30, 31, 0xFFFFFFFF, 32]),
        (4, 77, [33, 77, 34, 35, 77]),
    ],
)
def test_restart_index_points_are_skipped_before_bias(screen, ctx, index_size, restart_index, values):
    """A restart marker is compared with the index read, before index_bias:
    markers draw nothing, and other indices equal to restart_index - bias
    (which would match after adding the bias) still draw."""
    color = setup(ctx)
    verts = point_grid_vertices(256)
    ctx.set_vertex_buffers([VertexBuffer(buffer=vertex_buffer(screen, verts), stride=32)])
    dtype = {1: np.uint8, 2: np.uint16, 4: np.uint32}[index_size]
    bias = 2
    idx = np.array(values, dtype)
    ctx.draw_vbo(
        DrawInfo(
            mode=Prim.POINTS,
            index_size=index_size,
            index=idx,
            count=len(idx),
            index_bias=bias,
            primitive_restart=True,
            restart_index=restart_index,
        )
    )
    fetched = [v + bias for v in values if v != restart_index]
    assert np.array_equal(read_rgba32f(screen, color), points_image(fetched, verts))


def test_restart_index_the_type_cannot_hold_never_matches(screen, ctx):
    """1-byte indices with restart_index 0x1ff: no byte equals it, so 0xff
    is an ordinary index (vertex 255)."""
    color = setup(ctx)
    verts = point_grid_vertices(256)
    ctx.set_vertex_buffers([VertexBuffer(buffer=vertex_buffer(screen, verts), stride=32)])
    idx = np.array([0xFF, 1, 0xFF], np.uint8)
    ctx.draw_vbo(
        DrawInfo(mode=Prim.POINTS, index_size=1, index=idx, count=3, primitive_restart=True, restart_index=0x1FF)
    )
    assert np.array_equal(read_rgba32f(screen, color), points_image([255, 1], verts))


def test_restart_splits_line_strips_and_closes_line_loops(screen, ctx):
    color = setup(ctx)
    pts = [(2.5, 3.5), (13.5, 3.5), (2.5, 9.5), (13.5, 9.5), (13.5, 14.5)]
    verts = vertices(pts, RED)
    ctx.set_vertex_buffers([VertexBuffer(buffer=verts, stride=32)])
    # Strip 0-1, restart, strip 2-3-4: without the restart 1-2 would be a diagonal.
    idx = np.array([0, 1, 0xFFFF, 2, 3, 4], np.uint16)
    ctx.draw_vbo(
        DrawInfo(mode=Prim.LINE_STRIP, index_size=2, index=idx, count=6, primitive_restart=True, restart_index=0xFFFF)
    )
    img = read_rgba32f(screen, color)
    _row_segment_check(img, 3, range(4, 12), [0, 15])
    _row_segment_check(img, 9, range(4, 12), [0, 15])
    assert not lit(img)[5:8, 4:12].any(), "the strip was not split at the restart index"
    assert lit(img)[11:13, 13].all()

    zero_fill(screen, color)
    # Two loops (triangles' outlines); each closes at its restart.
    loop_pts = [(1.5, 1.5), (7.5, 1.5), (1.5, 7.5), (9.5, 9.5), (14.5, 9.5), (14.5, 14.5)]
    ctx.set_vertex_buffers([VertexBuffer(buffer=vertices(loop_pts, RED), stride=32)])
    idx = np.array([0, 1, 2, 9, 3, 4, 5], np.uint8)
    ctx.draw_vbo(
        DrawInfo(mode=Prim.LINE_LOOP, index_size=1, index=idx, count=7, primitive_restart=True, restart_index=9)
    )
    img = read_rgba32f(screen, color)
    assert lit(img)[3:6, 1].all(), "the first loop did not close at the restart index"
    assert lit(img)[10:13, 14].all()
    assert not lit(img)[2:7, 10:13].any(), "a segment joined the two loops"


def test_restart_state_does_not_leak_into_later_draws(screen, ctx):
    color = setup(ctx)
    verts = point_grid_vertices(16)
    ctx.set_vertex_buffers([VertexBuffer(buffer=vertex_buffer(screen, verts), stride=32)])
    idx = np.array([0, 1, 2, 3], np.uint16)
    ctx.draw_vbo(DrawInfo(mode=Prim.POINTS, index_size=2, index=idx, count=4, primitive_restart=True, restart_index=1))
    zero_fill(screen, color)
    # Restart off now: index 1 draws; a non-indexed draw over vertex 0 draws it.
    ctx.draw_vbo(DrawInfo(mode=Prim.POINTS, index_size=2, index=idx, count=4))
    ctx.draw_vbo(DrawInfo(mode=Prim.POINTS, start=0, count=6))
    assert np.array_equal(read_rgba32f(screen, color), points_image(range(6), verts))


def test_index_range_outside_the_buffer_is_an_error(screen, ctx):
    setup(ctx)
    ctx.set_vertex_buffers([VertexBuffer(buffer=point_grid_vertices(8), stride=32)])
    idx = np.arange(4, dtype=np.uint16)
    with pytest.raises(InvalidArgumentError, match="index buffer"):
        ctx.draw_vbo(DrawInfo(mode=Prim.POINTS, index_size=2, index=idx, start=2, count=4))
    res = _index_resource(screen, idx)
    with pytest.raises(InvalidArgumentError, match="index buffer"):
        ctx.draw_vbo(DrawInfo(mode=Prim.POINTS, index_size=2, index=res, start=0, count=5))


# ---------------------------------------------------------------------------
# Multi-draw
# ---------------------------------------------------------------------------


def test_multi_draw_non_indexed(screen, ctx):
    color = setup(ctx)
    verts = point_grid_vertices(64)
    ctx.set_vertex_buffers([VertexBuffer(buffer=vertex_buffer(screen, verts), stride=32)])
    draws = [
        DrawStartCountBias(start=0, count=3),
        DrawStartCountBias(start=20, count=2, index_bias=7),
        DrawStartCountBias(start=40, count=0),
        DrawStartCountBias(start=50, count=4),
    ]
    before = screen.counters.draw_calls
    ctx.draw_vbo(DrawInfo(mode=Prim.POINTS), draws)
    assert screen.counters.draw_calls == before + 1
    # index_bias is ignored without indices (docs/api.md "Instancing").
    fetched = [0, 1, 2, 20, 21, 50, 51, 52, 53]
    assert np.array_equal(read_rgba32f(screen, color), points_image(fetched, verts))


@pytest.mark.parametrize("user", [True, False], ids=["user", "resource"])
def test_multi_draw_indexed_each_with_its_bias(screen, ctx, user):
    color = setup(ctx)
    verts = point_grid_vertices(128)
    ctx.set_vertex_buffers([VertexBuffer(buffer=vertex_buffer(screen, verts), stride=32)])
    idx = np.array([1, 2, 3, 4, 5, 6, 7, 8], np.uint32)
    draws = [
        DrawStartCountBias(start=0, count=2, index_bias=0),
        DrawStartCountBias(start=2, count=3, index_bias=30),
        DrawStartCountBias(start=6, count=2, index_bias=100),
    ]
    index = idx if user else _index_resource(screen, idx)
    ctx.draw_vbo(DrawInfo(mode=Prim.POINTS, index_size=4, index=index), draws)
    fetched = [1, 2, 33, 34, 35, 107, 108]
    assert np.array_equal(read_rgba32f(screen, color), points_image(fetched, verts))


# ---------------------------------------------------------------------------
# Instancing
# ---------------------------------------------------------------------------

# Position = per-vertex position + per-instance offset; colour per instance.
INSTANCED_VS = """VERT
DCL IN[0]
DCL IN[1]
DCL IN[2]
DCL OUT[0], POSITION
DCL OUT[1], GENERIC[0]
  0: ADD OUT[0], IN[0], IN[2]
  1: MOV OUT[1], IN[1]
  2: END
"""


def _instanced_elements(color_divisor, offset_divisor):
    return [
        VertexElement(src_offset=0, vertex_buffer_index=0, src_format=Format.R32G32B32A32_FLOAT),
        VertexElement(
            src_offset=0, vertex_buffer_index=1, src_format=Format.R32G32B32A32_FLOAT, instance_divisor=color_divisor
        ),
        VertexElement(
            src_offset=0, vertex_buffer_index=2, src_format=Format.R32G32B32A32_FLOAT, instance_divisor=offset_divisor
        ),
    ]


def _instance_data(n):
    """Per-instance colours ((j+1)/32, 0.25, 0.75, 1) and NDC offsets moving
    instance element j to pixel row 2*j."""
    cols = np.array([[(j + 1) / 32.0, 0.25, 0.75, 1.0] for j in range(n)], np.float32)
    offs = np.zeros((n, 4), np.float32)
    offs[:, 1] = [2.0 * (2 * j) / SIZE for j in range(n)]
    return cols, offs


@pytest.mark.parametrize("start_instance", [0, 3])
@pytest.mark.parametrize("user", [False, True], ids=["resource", "user"])
def test_instancing_divisors_and_start_instance(screen, ctx, start_instance, user):
    """Element fetched for per-instance data = start_instance + instanceID // divisor
    (docs/api.md "Instancing"), instanceID from 0: colours divisor 2, offsets divisor 1."""
    color = setup(ctx, vs=INSTANCED_VS, elements=_instanced_elements(2, 1))
    base = vertices([(1.5, 0.5), (4.5, 0.5)], WHITE)[:, :4].copy()  # two vertices in row 0
    cols, offs = _instance_data(8)
    buf = (lambda a: a) if user else (lambda a: vertex_buffer(screen, a))
    ctx.set_vertex_buffers(
        [
            VertexBuffer(buffer=buf(base), stride=16),
            VertexBuffer(buffer=buf(cols), stride=16),
            VertexBuffer(buffer=buf(offs), stride=16),
        ]
    )
    instances = 4
    ctx.draw_vbo(DrawInfo(mode=Prim.POINTS, count=2, instance_count=instances, start_instance=start_instance))
    expected = np.zeros((SIZE, SIZE, 4), np.float32)
    for i in range(instances):
        row = 2 * (start_instance + i)  # offsets: divisor 1
        c = cols[start_instance + i // 2]  # colours: divisor 2
        expected[row, 1] = c
        expected[row, 4] = c
    assert np.array_equal(read_rgba32f(screen, color), expected)


def test_instanced_indexed_draw_with_start_instance_then_without(screen, ctx):
    """start_instance changes between draws (the gl33 path re-bakes offsets)."""
    color = setup(ctx, vs=INSTANCED_VS, elements=_instanced_elements(1, 1))
    base = vertices([(2.5, 0.5)], WHITE)[:, :4].copy()
    cols, offs = _instance_data(8)
    ctx.set_vertex_buffers(
        [
            VertexBuffer(buffer=vertex_buffer(screen, base), stride=16),
            VertexBuffer(buffer=vertex_buffer(screen, cols), stride=16),
            VertexBuffer(buffer=vertex_buffer(screen, offs), stride=16),
        ]
    )
    idx = np.array([0], np.uint16)
    ctx.draw_vbo(DrawInfo(mode=Prim.POINTS, index_size=2, index=idx, count=1, instance_count=2, start_instance=5))
    ctx.draw_vbo(DrawInfo(mode=Prim.POINTS, index_size=2, index=idx, count=1, instance_count=1))
    expected = np.zeros((SIZE, SIZE, 4), np.float32)
    for j in (5, 6, 0):
        expected[2 * j, 2] = cols[j]
    assert np.array_equal(read_rgba32f(screen, color), expected)


INSTANCEID_VS = """VERT
DCL IN[0]
DCL SV[0], INSTANCEID
DCL OUT[0], POSITION
DCL OUT[1], GENERIC[0]
DCL TEMP[0]
IMM[0] FLT32 {0.0, 0.125, 1.0, 0.0}
  0: I2F TEMP[0].x, SV[0].xxxx
  1: MOV TEMP[0].yzw, IMM[0].xxxz
  2: MUL TEMP[0].y, TEMP[0].xxxx, IMM[0].yyyy
  3: MOV OUT[1], TEMP[0]
  4: MAD OUT[0], TEMP[0].wyww, IMM[0].xzxx, IN[0]
  5: END
"""


def test_instanceid_counts_from_zero_whatever_start_instance(screen, ctx):
    """TGSI INSTANCEID does not include start_instance (docs/api.md "Instancing")."""
    color = setup(
        ctx,
        vs=INSTANCEID_VS,
        elements=[VertexElement(src_offset=0, vertex_buffer_index=0, src_format=Format.R32G32B32A32_FLOAT)],
    )
    base = vertices([(3.5, 0.5)], WHITE)[:, :4].copy()
    ctx.set_vertex_buffers([VertexBuffer(buffer=base, stride=16)])
    ctx.draw_vbo(DrawInfo(mode=Prim.POINTS, count=1, instance_count=3, start_instance=7))
    img = read_rgba32f(screen, color)
    expected = np.zeros((SIZE, SIZE, 4), np.float32)
    for i in range(3):
        # y offset 0.125 * i in NDC = i pixels (16-pixel viewport).
        expected[i, 3] = (i, 0.125 * i, 0.0, 1.0)
    assert np.array_equal(img, expected)


# ---------------------------------------------------------------------------
# Vertex buffers: user memory, stride 0, buffer_offset
# ---------------------------------------------------------------------------


def test_user_vertex_buffers_are_copied_per_draw(screen, ctx):
    """Each draw reads the user memory as it is at that draw; reusing (and
    then changing) the same array in the next draw does not alter the first."""
    color = setup(ctx)
    verts = vertices([(2.5, 2.5)], RED)
    ctx.set_vertex_buffers([VertexBuffer(buffer=verts, stride=32)])
    ctx.draw_vbo(DrawInfo(mode=Prim.POINTS, count=1))
    verts[0, :] = vertices([(9.5, 9.5)], GREEN)[0]
    ctx.draw_vbo(DrawInfo(mode=Prim.POINTS, count=1))
    img = read_rgba32f(screen, color)
    expected = np.zeros((SIZE, SIZE, 4), np.float32)
    expected[2, 2] = RED
    expected[9, 9] = GREEN
    assert np.array_equal(img, expected)


def test_user_memory_across_ring_renewal(screen, ctx):
    """Enough user memory to fill the streaming ring several times over:
    every draw still reads its own bytes (vertex data behind a 6 KiB
    buffer_offset, and user indices)."""
    color = setup(ctx)
    verts = point_grid_vertices(256)
    pad = 6144 // 32
    for v in range(256):
        data = np.zeros((pad + 2, 8), np.float32)
        data[pad] = verts[v]
        data[pad + 1] = verts[(v + 1) % 256]
        ctx.set_vertex_buffers([VertexBuffer(buffer=data, buffer_offset=pad * 32, stride=32)])
        idx = np.zeros(1024, np.uint16)  # 2 KiB of user indices, the one used is at start=1000
        idx[1000] = v % 2
        ctx.draw_vbo(DrawInfo(mode=Prim.POINTS, index_size=2, index=idx, start=1000, count=1))
    fetched = [v if v % 2 == 0 else (v + 1) % 256 for v in range(256)]
    assert np.array_equal(read_rgba32f(screen, color), points_image(fetched, verts))


@pytest.mark.parametrize("user", [False, True], ids=["resource", "user"])
def test_stride_zero_repeats_one_element(screen, ctx, user):
    """Stride 0: every vertex and every instance reads element 0, with and
    without start_instance."""
    elements = [
        VertexElement(src_offset=0, vertex_buffer_index=0, src_format=Format.R32G32B32A32_FLOAT),
        VertexElement(src_offset=16, vertex_buffer_index=1, src_format=Format.R32G32B32A32_FLOAT),
    ]
    color = setup(ctx, elements=elements)
    pos = vertices([(1.5, 1.5), (5.5, 1.5), (9.5, 1.5)], WHITE)[:, :4].copy()
    const = np.array([[9, 9, 9, 9], [0.5, 0.25, 0.125, 1.0], [7, 7, 7, 7]], np.float32)  # element at 16 bytes
    buf = (lambda a: a) if user else (lambda a: vertex_buffer(screen, a))
    ctx.set_vertex_buffers([VertexBuffer(buffer=buf(pos), stride=16), VertexBuffer(buffer=buf(const), stride=0)])
    ctx.draw_vbo(DrawInfo(mode=Prim.POINTS, count=3, instance_count=2, start_instance=4))
    expected = np.zeros((SIZE, SIZE, 4), np.float32)
    for x in (1, 5, 9):
        expected[1, x] = const[1]
    assert np.array_equal(read_rgba32f(screen, color), expected)


def test_stride_zero_per_instance_element_with_start_instance(screen, ctx):
    color = setup(ctx, vs=INSTANCED_VS, elements=_instanced_elements(1, 1))
    base = vertices([(6.5, 0.5)], WHITE)[:, :4].copy()
    cols, offs = _instance_data(8)
    ctx.set_vertex_buffers(
        [
            VertexBuffer(buffer=vertex_buffer(screen, base), stride=16),
            VertexBuffer(buffer=vertex_buffer(screen, cols), stride=0),
            VertexBuffer(buffer=vertex_buffer(screen, offs), stride=16),
        ]
    )
    ctx.draw_vbo(DrawInfo(mode=Prim.POINTS, count=1, instance_count=3, start_instance=2))
    expected = np.zeros((SIZE, SIZE, 4), np.float32)
    for i in range(3):
        expected[2 * (2 + i), 6] = cols[0]  # colours stride 0: element 0; offsets: start_instance + i
    assert np.array_equal(read_rgba32f(screen, color), expected)


def test_buffer_offset_and_src_offset_on_a_resource(screen, ctx):
    elements = [
        VertexElement(src_offset=8, vertex_buffer_index=0, src_format=Format.R32G32B32A32_FLOAT),
        VertexElement(src_offset=24, vertex_buffer_index=0, src_format=Format.R32G32B32A32_FLOAT),
    ]
    color = setup(ctx, elements=elements)
    verts = point_grid_vertices(32)
    data = np.zeros((32 + 3, 10), np.float32)  # 40-byte rows: 8 bytes junk, pos, colour
    data[:] = -5.0
    data[3:, 2:] = verts
    ctx.set_vertex_buffers([VertexBuffer(buffer=vertex_buffer(screen, data), buffer_offset=3 * 40, stride=40)])
    ctx.draw_vbo(DrawInfo(mode=Prim.POINTS, start=4, count=5))
    assert np.array_equal(read_rgba32f(screen, color), points_image(range(4, 9), verts))


# ---------------------------------------------------------------------------
# DRAWID
# ---------------------------------------------------------------------------

DRAWID_VS = """VERT
DCL IN[0]
DCL SV[0], DRAWID
DCL OUT[0], POSITION
DCL OUT[1], GENERIC[0]
DCL TEMP[0]
IMM[0] FLT32 {0.0, 1.0, 0.0, 0.0}
  0: I2F TEMP[0].x, SV[0].xxxx
  1: MOV TEMP[0].yzw, IMM[0].xxxy
  2: MOV OUT[1], TEMP[0]
  3: MOV OUT[0], IN[0]
  4: END
"""


def _drawid_setup(ctx):
    return setup(
        ctx,
        vs=DRAWID_VS,
        elements=[VertexElement(src_offset=0, vertex_buffer_index=0, src_format=Format.R32G32B32A32_FLOAT)],
    )


def test_drawid_single_and_multi_draw(screen, ctx):
    """DRAWID = info.drawid for a single draw; + i for draw i of a
    multi-draw with increment_draw_id; info.drawid for every draw without."""
    if not screen.profile.has("shader_draw_parameters"):
        color = _drawid_setup(ctx)
        ctx.set_vertex_buffers([VertexBuffer(buffer=point_grid_vertices(4)[:, :4].copy(), stride=16)])
        with pytest.raises(UnsupportedError):
            ctx.draw_vbo(DrawInfo(mode=Prim.POINTS, count=1, drawid=2))
        assert screen.get_param(glpipe.Cap.DRAW_PARAMETERS) == 0
        return
    color = _drawid_setup(ctx)
    pos = point_grid_vertices(64)[:, :4].copy()
    ctx.set_vertex_buffers([VertexBuffer(buffer=vertex_buffer(screen, pos), stride=16)])
    expected = np.zeros((SIZE, SIZE, 4), np.float32)

    def mark(v, drawid):
        expected[v // SIZE, v % SIZE] = (drawid, 0, 0, 1)

    ctx.draw_vbo(DrawInfo(mode=Prim.POINTS, start=0, count=2, drawid=3))
    mark(0, 3), mark(1, 3)
    draws = [
        DrawStartCountBias(start=16, count=2),
        DrawStartCountBias(start=20, count=1),
        DrawStartCountBias(start=24, count=1),
    ]
    ctx.draw_vbo(DrawInfo(mode=Prim.POINTS, drawid=5, increment_draw_id=True), draws)
    for v, d in ((16, 5), (17, 5), (20, 6), (24, 7)):
        mark(v, d)
    ctx.draw_vbo(
        DrawInfo(mode=Prim.POINTS, drawid=2, increment_draw_id=False),
        [DrawStartCountBias(start=32, count=1), DrawStartCountBias(start=33, count=1)],
    )
    mark(32, 2), mark(33, 2)
    idx = np.array([0, 1, 2, 3], np.uint16)
    ctx.draw_vbo(
        DrawInfo(mode=Prim.POINTS, index_size=2, index=idx, drawid=1, increment_draw_id=True),
        [DrawStartCountBias(start=0, count=1, index_bias=40), DrawStartCountBias(start=2, count=2, index_bias=48)],
    )
    for v, d in ((40, 1), (50, 2), (51, 2)):
        mark(v, d)
    assert np.array_equal(read_rgba32f(screen, color), expected)


# ---------------------------------------------------------------------------
# PATCHES
# ---------------------------------------------------------------------------

PASS_TCS = """TESS_CTRL
PROPERTY TCS_VERTICES_OUT 3
DCL IN[][0], POSITION
DCL IN[][1], GENERIC[0]
DCL SV[0], INVOCATIONID
DCL OUT[][0], POSITION
DCL OUT[][1], GENERIC[0]
DCL OUT[2], TESSOUTER
DCL OUT[3], TESSINNER
DCL ADDR[0]
IMM[0] FLT32 {1.0, 1.0, 1.0, 1.0}
  0: UARL ADDR[0].x, SV[0].xxxx
  1: MOV OUT[ADDR[0].x][0], IN[ADDR[0].x][0]
  2: MOV OUT[ADDR[0].x][1], IN[ADDR[0].x][1]
  3: MOV OUT[2], IMM[0]
  4: MOV OUT[3], IMM[0]
  5: END
"""

# Triangles domain, one level: the TES places each output vertex at the
# barycentric mix of the patch corners and takes corner 0's colour.
PASS_TES = """TESS_EVAL
PROPERTY TES_PRIM_MODE 4
PROPERTY TES_SPACING 0
PROPERTY TES_VERTEX_ORDER_CW 0
PROPERTY TES_POINT_MODE 0
DCL IN[][0], POSITION
DCL IN[][1], GENERIC[0]
DCL SV[0], TESSCOORD
DCL OUT[0], POSITION
DCL OUT[1], GENERIC[0]
DCL TEMP[0..1]
  0: MUL TEMP[0], SV[0].xxxx, IN[0][0]
  1: MAD TEMP[0], SV[0].yyyy, IN[1][0], TEMP[0]
  2: MAD TEMP[0], SV[0].zzzz, IN[2][0], TEMP[0]
  3: MOV OUT[0], TEMP[0]
  4: MOV OUT[1], IN[0][1]
  5: END
"""


def test_patches_with_tessellation(screen, ctx):
    if not screen.profile.has("tessellation_shader"):
        with pytest.raises(UnsupportedError):
            ctx.set_patch_vertices(3)
        setup(ctx)
        ctx.set_vertex_buffers([VertexBuffer(buffer=vertices([(1, 1), (9, 1), (1, 9)], RED), stride=32)])
        with pytest.raises(UnsupportedError, match="PATCHES"):
            ctx.draw_vbo(DrawInfo(mode=Prim.PATCHES, count=3))
        return
    color = setup(ctx)
    ctx.set_vertex_buffers(
        [VertexBuffer(buffer=vertices([(1, 1), (9, 1), (1, 9), (15, 15), (7, 15), (15, 7)], RED), stride=32)]
    )
    with pytest.raises(InvalidArgumentError, match="tessellation evaluation"):
        ctx.draw_vbo(DrawInfo(mode=Prim.PATCHES, count=6))
    ctx.bind_tcs_state(ctx.create_tcs_state(ShaderState(tokens=PASS_TCS)))
    ctx.bind_tes_state(ctx.create_tes_state(ShaderState(tokens=PASS_TES)))
    with pytest.raises(InvalidArgumentError):
        ctx.set_patch_vertices(0)
    ctx.set_patch_vertices(3)
    ctx.draw_vbo(DrawInfo(mode=Prim.PATCHES, count=6))
    covered, ambiguous = triangle_coverage([((1, 1), (9, 1), (1, 9)), ((15, 15), (7, 15), (15, 7))])
    assert_coverage(read_rgba32f(screen, color), covered, ambiguous, RED)


# ---------------------------------------------------------------------------
# What draw_vbo refuses, and the counters
# ---------------------------------------------------------------------------


def test_indirect_without_a_command_buffer_is_refused(screen, ctx):
    """Indirect draws work on both profiles (tests/context/test_draw_indirect.py);
    one without a command buffer is bad input, refused before drawing."""
    setup(ctx)
    ctx.set_vertex_buffers([VertexBuffer(buffer=point_grid_vertices(4), stride=32)])
    with pytest.raises(InvalidArgumentError, match="indirect.buffer"):
        ctx.draw_vbo(DrawInfo(mode=Prim.POINTS, count=1), None, glpipe.DrawIndirectInfo(draw_count=1))
    assert screen.get_param(glpipe.Cap.DRAW_INDIRECT) == 1


def test_draw_calls_counter_counts_draw_vbo_calls(screen, ctx):
    setup(ctx)
    ctx.set_vertex_buffers([VertexBuffer(buffer=point_grid_vertices(8), stride=32)])
    before = screen.counters.draw_calls
    hits = screen.counters.fallback_hits
    for _ in range(5):
        ctx.draw_vbo(DrawInfo(mode=Prim.POINTS, count=8))
    ctx.draw_vbo(DrawInfo(mode=Prim.TRIANGLES, count=6))
    assert screen.counters.draw_calls == before + 6
    assert screen.counters.fallback_hits == hits, "native primitives must not count as fallbacks"


def test_draw_after_destroy_raises(screen):
    c = screen.context_create()
    c.destroy()
    with pytest.raises(glpipe.ObjectDestroyedError):
        c.draw_vbo(DrawInfo(mode=Prim.POINTS, count=1))


def test_indexed_draw_without_an_index_buffer_is_an_error(screen, ctx):
    setup(ctx)
    ctx.set_vertex_buffers([VertexBuffer(buffer=point_grid_vertices(8), stride=32)])
    with pytest.raises(InvalidArgumentError, match="info.index"):
        ctx.draw_vbo(DrawInfo(mode=Prim.POINTS, index_size=2, index=None, count=3))


def test_two_contexts_drawing_in_turn(screen):
    """Two contexts of one screen share the host GL context: each draw uses
    its own context's program, vertex input, restart and target."""
    a, b = screen.context_create(), screen.context_create()
    try:
        col_a = setup(a)
        col_b = setup(
            b,
            vs=INSTANCEID_VS,
            elements=[VertexElement(src_offset=0, vertex_buffer_index=0, src_format=Format.R32G32B32A32_FLOAT)],
        )
        verts = point_grid_vertices(64)
        a.set_vertex_buffers([VertexBuffer(buffer=vertex_buffer(screen, verts), stride=32)])
        b.set_vertex_buffers(
            [VertexBuffer(buffer=vertex_buffer(screen, vertices([(5.5, 0.5)], WHITE)[:, :4].copy()), stride=16)]
        )
        idx_a = _index_resource(screen, np.array([1, 9, 3], np.uint16))
        idx_b = _index_resource(screen, np.array([0, 0], np.uint16))
        a.draw_vbo(
            DrawInfo(mode=Prim.POINTS, index_size=2, index=idx_a, count=3, primitive_restart=True, restart_index=9)
        )
        b.draw_vbo(DrawInfo(mode=Prim.POINTS, index_size=2, index=idx_b, count=1))
        a.draw_vbo(DrawInfo(mode=Prim.POINTS, start=20, count=2))
        a.draw_vbo(
            DrawInfo(mode=Prim.POINTS, index_size=2, index=idx_a, count=3, primitive_restart=True, restart_index=9)
        )
        b.draw_vbo(DrawInfo(mode=Prim.POINTS, count=1, instance_count=2))
        assert np.array_equal(read_rgba32f(screen, col_a), points_image([1, 3, 20, 21], verts))
        expected_b = np.zeros((SIZE, SIZE, 4), np.float32)
        expected_b[0, 5] = (0.0, 0.0, 0.0, 1.0)
        expected_b[1, 5] = (1.0, 0.125, 0.0, 1.0)
        assert np.array_equal(read_rgba32f(screen, col_b), expected_b)
    finally:
        a.destroy()
        b.destroy()
