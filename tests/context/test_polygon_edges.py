"""Polygon edge flags: QUADS / QUAD_STRIP / POLYGON drawn with fill mode LINE
or POINT show their boundary only, and a VS writing EDGEFLAG turns edges off.

The rule (Gallium cso/rasterizer.rst fill modes, Mesa's draw_pipe_unfilled.c,
GL 4.6 compatibility profile 10.1.17 / 14.6.4): a polygon drawn as lines
draws its boundary edges whose edge flag is set (a quad's diagonal, a quad
strip quad's diagonal and a polygon's fan diagonals are no polygon edges),
as points the vertices starting such an edge -- each once per polygon.  The
flat colour of every fragment is the polygon's provoking vertex colour.

Expectations are independent of the code under test: hand-derived pixel
sets for axis-aligned geometry whose vertices sit on pixel centres (a 1-px
line through pixel centres lights exactly the pixels it passes; corners are
left out where GL's last-pixel rule decides them), or a reference drawn with
plain LINES / POINTS (no polygon, so no edge flags) on the boundary edges in
the polygon's provoking-vertex colour.  ADD blending makes a double draw show
as a doubled colour.
"""

from __future__ import annotations

import numpy as np
import pytest

from glpipe import (
    DrawInfo,
    DrawStartCountBias,
    Face,
    Format,
    PolygonMode,
    Prim,
    RasterizerState,
    ShaderState,
    VertexBuffer,
    VertexElement,
)

from .util import PASS_VS, render_target, vertex_buffer
from .util_draw import ADD_BLEND, FLAT_FS, POS_COLOR, read_and_clear, vertices, zero_fill
from .util_raster import INSTANCE_OFFSET_ELEMENTS, INSTANCE_OFFSET_VS, gallium_front

SIZE = 16
FILL, LINE, POINT = PolygonMode.FILL, PolygonMode.LINE, PolygonMode.POINT
ADD = ADD_BLEND  # (short names: used throughout)


# ---------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------


def colours(n):
    """A distinct colour per vertex; every channel a small dyadic fraction,
    so sums of a few of them stay exact in float32."""
    v = np.arange(n)
    return np.stack([(v + 1) / 64.0, np.full(n, 1 / 8), np.full(n, 1 / 4), np.full(n, 1 / 2)], 1)


def setup(ctx, size=SIZE, vs=PASS_VS, fs=FLAT_FS, elements=POS_COLOR, blend=True):
    """A cleared size x size RGBA32F target, shaders, vertex elements, ADD blending."""
    color, _ = render_target(ctx, size, size)
    zero_fill(ctx.screen, color)
    ctx.bind_vs_state(ctx.create_vs_state(ShaderState(tokens=vs)))
    ctx.bind_fs_state(ctx.create_fs_state(ShaderState(tokens=fs)))
    ctx.bind_vertex_elements_state(ctx.create_vertex_elements_state(list(elements)))
    if blend:
        ctx.bind_blend_state(ctx.create_blend_state(ADD))
    return color


def rast(ctx, front, back=None, **fields):
    """Bind a rasterizer with 1-px points and lines and the given fill modes."""
    templ = {"point_size": 1.0, "line_width": 1.0, "front_ccw": True}
    templ.update(fields)
    cso = ctx.create_rasterizer_state(
        RasterizerState(fill_front=front, fill_back=front if back is None else back, **templ)
    )
    ctx.bind_rasterizer_state(cso)
    return cso


image = read_and_clear


def draw(ctx, verts, mode, **info):
    ctx.set_vertex_buffers([VertexBuffer(buffer=np.ascontiguousarray(verts, np.float32), stride=32)])
    info.setdefault("count", len(verts))
    ctx.draw_vbo(DrawInfo(mode=mode, **info))


def pixel(p):
    """The pixel (x, y) whose centre is the window point p (x + 0.5, y + 0.5)."""
    return int(np.floor(p[0])), int(np.floor(p[1]))


def segment_pixels(a, b):
    """Pixels strictly between the pixel-centre points a and b of an axis-aligned
    or 45-degree segment (the ends left out: the last-pixel rule decides them)."""
    (x0, y0), (x1, y1) = pixel(a), pixel(b)
    n = max(abs(x1 - x0), abs(y1 - y0))
    assert abs(x1 - x0) in (0, n) and abs(y1 - y0) in (0, n), "only axis-aligned or diagonal segments"
    sx, sy = np.sign(x1 - x0), np.sign(y1 - y0)
    return [(x0 + k * sx, y0 + k * sy) for k in range(1, n)]


def mask_of(pixels, size=SIZE):
    m = np.zeros((size, size), bool)
    for x, y in pixels:
        m[y, x] = True
    return m


def assert_pixels(img, pixels, color):
    """Every pixel in ``pixels`` holds exactly ``color``."""
    color = np.asarray(color, np.float32)
    assert pixels, "nothing to check"
    bad = [(x, y, tuple(img[y, x])) for x, y in pixels if not np.array_equal(img[y, x], color)]
    assert not bad, f"expected {tuple(color)} at these pixels, got: {bad[:6]}"


def assert_zero(img, mask):
    """Every pixel where ``mask`` is set is 0."""
    assert mask.any(), "nothing to check"
    bad = np.argwhere(mask & np.any(img != 0, axis=-1))
    assert not len(bad), f"pixels (y, x) that should be empty are drawn: {bad[:8].tolist()}"


def square_sets(x0, y0, x1, y1, size=SIZE):
    """For the square with corners at the centres of pixels (x0, y0) .. (x1, y1):
    (non-corner perimeter pixels per side [bottom, right, top, left], the
    mask of pixels strictly inside, the mask outside the closed pixel box)."""
    c = [(x0 + 0.5, y0 + 0.5), (x1 + 0.5, y0 + 0.5), (x1 + 0.5, y1 + 0.5), (x0 + 0.5, y1 + 0.5)]
    sides = [segment_pixels(c[i], c[(i + 1) % 4]) for i in range(4)]
    inside = np.zeros((size, size), bool)
    inside[y0 + 1 : y1, x0 + 1 : x1] = True
    outside = np.ones((size, size), bool)
    outside[y0 : y1 + 1, x0 : x1 + 1] = False
    return sides, inside, outside


def corners(x0, y0, x1, y1):
    """The pixel-centre corners of that square from (x0, y0), with Gallium's
    det > 0 (docs/rasterizer.md "Winding"): clockwise on its y-down window,
    counter-clockwise for GL."""
    return [(x0 + 0.5, y0 + 0.5), (x1 + 0.5, y0 + 0.5), (x1 + 0.5, y1 + 0.5), (x0 + 0.5, y1 + 0.5)]


def quad_pv(q, first):
    """Provoking vertex of independent quad q (0-based vertex number): the
    spec's 4i-3 (first) or 4i (last), i = q + 1."""
    return 4 * q if first else 4 * q + 3


# ---------------------------------------------------------------------------
# 1. QUADS: the outline, no diagonal
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("ccw", [True, False], ids=["ccw", "cw"])
@pytest.mark.parametrize("first", [False, True], ids=["pv-last", "pv-first"])
def test_quad_outline_without_diagonal(ctx, first, ccw):
    color = setup(ctx)
    pts = corners(3, 3, 12, 12)
    if not ccw:
        pts = pts[::-1]
    cols = colours(4)
    rast(ctx, LINE, flatshade_first=first)
    draw(ctx, vertices(pts, cols), Prim.QUADS)
    img = image(ctx, color)
    sides, inside, outside = square_sets(3, 3, 12, 12)
    pv = cols[quad_pv(0, first)]
    assert_pixels(img, [p for s in sides for p in s], pv)  # each side once, in the PV colour
    assert_zero(img, inside)  # the diagonal (k, k) is not drawn
    assert_zero(img, outside)


# ---------------------------------------------------------------------------
# 2. QUAD_STRIP: shared edges drawn (by both quads), no diagonals
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("first", [False, True], ids=["pv-last", "pv-first"])
def test_quad_strip_outlines(ctx, first):
    """Three 4 x 9 px quads side by side; strip quad k is v2k v2k+1 v2k+3 v2k+2."""
    color = setup(ctx)
    xs = [1, 5, 9, 13]
    pts = [p for x in xs for p in ((x + 0.5, 3.5), (x + 0.5, 12.5))]  # bottom, top per column
    cols = colours(len(pts))
    rast(ctx, LINE, flatshade_first=first)
    draw(ctx, vertices(pts, cols), Prim.QUAD_STRIP)
    img = image(ctx, color)
    # Strip quad k's provoking vertex: the spec's 2i-1 (first) / 2i+2 (last), i = k + 1.
    pv = [cols[2 * k if first else 2 * k + 3] for k in range(3)]
    for k in range(3):
        sides, inside, _ = square_sets(xs[k], 3, xs[k + 1], 12)
        bottom, right, top, left = sides
        assert_pixels(img, bottom + top, pv[k])
        assert_zero(img, inside)  # no diagonal
        if k == 0:
            assert_pixels(img, left, pv[0])
        if k == 2:
            assert_pixels(img, right, pv[2])
        else:  # the shared edge is an edge of quad k and of quad k + 1: drawn by both (ADD)
            assert_pixels(img, right, pv[k] + pv[k + 1])
    outside = np.ones((SIZE, SIZE), bool)
    outside[3:13, 1:14] = False
    assert_zero(img, outside)


# ---------------------------------------------------------------------------
# 3. POLYGON: the boundary, as plain LINES would draw it
# ---------------------------------------------------------------------------

HEXAGON = [(8.5, 2.5), (13.5, 5.5), (13.5, 10.5), (8.5, 13.5), (3.5, 10.5), (3.5, 5.5)]  # det > 0, pixel centres


def boundary_lines(pts, pv_colour, size=SIZE):
    """LINES rows v0->v1, v1->v2, ..., vn-1->v0 in the polygon's PV colour."""
    rows = []
    for i in range(len(pts)):
        rows += [pts[i], pts[(i + 1) % len(pts)]]
    return vertices(rows, pv_colour, size)


def distance_to_boundary(pts, size=SIZE):
    """Per pixel: the distance of its centre from the nearest boundary segment."""
    ys, xs = np.mgrid[0:size, 0:size] + 0.5
    best = np.full((size, size), np.inf)
    for i in range(len(pts)):
        (ax, ay), (bx, by) = pts[i], pts[(i + 1) % len(pts)]
        dx, dy = bx - ax, by - ay
        t = np.clip(((xs - ax) * dx + (ys - ay) * dy) / (dx * dx + dy * dy), 0, 1)
        best = np.minimum(best, np.hypot(xs - ax - t * dx, ys - ay - t * dy))
    return best


@pytest.mark.parametrize("ccw", [True, False], ids=["ccw", "cw"])
@pytest.mark.parametrize("first", [False, True], ids=["pv-last", "pv-first"])
def test_polygon_boundary_equals_lines(ctx, first, ccw):
    color = setup(ctx)
    pts = HEXAGON if ccw else HEXAGON[::-1]
    cols = colours(len(pts))
    rast(ctx, LINE, flatshade_first=first)
    draw(ctx, vertices(pts, cols), Prim.POLYGON)
    got = image(ctx, color)
    assert_zero(got, distance_to_boundary(pts) > 1.5)  # the fan diagonals cross the middle
    # The reference: plain lines (no polygon, no edge flags) in v0's colour
    # (a polygon's provoking vertex is its first under both conventions).
    rast(ctx, FILL, flatshade_first=first)
    draw(ctx, boundary_lines(pts, cols[0]), Prim.LINES)
    want = image(ctx, color)
    assert want.any()
    # Vertex pixels included: a corner goes with the edge leaving it (where
    # the fan's first and last triangles meet at v0 too).
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("first", [False, True], ids=["pv-last", "pv-first"])
def test_quad_corners_equal_a_line_loop(ctx, first):
    """A quad's outline, corners included, is the LINE_LOOP a b c d in its
    PV colour (same segment directions as the quad's boundary edges)."""
    color = setup(ctx)
    pts = corners(3, 3, 12, 12)
    cols = colours(4)
    rast(ctx, LINE, flatshade_first=first)
    draw(ctx, vertices(pts, cols), Prim.QUADS)
    got = image(ctx, color)
    draw(ctx, vertices(pts, cols[quad_pv(0, first)]), Prim.LINE_LOOP)
    np.testing.assert_array_equal(got, image(ctx, color))


# ---------------------------------------------------------------------------
# 4. POINT: each vertex once, in its polygon's PV colour
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("first", [False, True], ids=["pv-last", "pv-first"])
def test_points_of_two_quads_once_each(ctx, first):
    color = setup(ctx)
    pts = corners(1, 2, 6, 9) + corners(9, 4, 14, 13)
    cols = colours(8)
    rast(ctx, POINT, flatshade_first=first)
    draw(ctx, vertices(pts, cols), Prim.QUADS)
    img = image(ctx, color)
    want = np.zeros_like(img)
    for v, p in enumerate(pts):
        x, y = pixel(p)
        want[y, x] = cols[quad_pv(v // 4, first)]  # once: a diagonal's ends are not drawn twice
    np.testing.assert_array_equal(img, want)


@pytest.mark.parametrize("first", [False, True], ids=["pv-last", "pv-first"])
def test_points_of_a_polygon_once_each(ctx, first):
    color = setup(ctx)
    cols = colours(len(HEXAGON))
    rast(ctx, POINT, flatshade_first=first)
    draw(ctx, vertices(HEXAGON, cols), Prim.POLYGON)
    img = image(ctx, color)
    want = np.zeros_like(img)
    for p in HEXAGON:
        x, y = pixel(p)
        want[y, x] = cols[0]
    np.testing.assert_array_equal(img, want)


# ---------------------------------------------------------------------------
# 5. A VS writing EDGEFLAG
# ---------------------------------------------------------------------------

EDGEFLAG_VS = """VERT
DCL IN[0]
DCL IN[1]
DCL IN[2]
DCL OUT[0], POSITION
DCL OUT[1], GENERIC[0]
DCL OUT[2], EDGEFLAG
  0: MOV OUT[0], IN[0]
  1: MOV OUT[1], IN[1]
  2: MOV OUT[2], IN[2]
  3: END
"""

# Position, colour from buffer 0; the edge flag (x) from buffer 1.
FLAG_ELEMENTS = POS_COLOR + (VertexElement(src_offset=0, vertex_buffer_index=1, src_format=Format.R32G32B32A32_FLOAT),)


def draw_flagged(ctx, verts, flags, mode):
    flag_rows = np.zeros((len(flags), 4), np.float32)
    flag_rows[:, 0] = flags
    ctx.set_vertex_buffers(
        [
            VertexBuffer(buffer=np.ascontiguousarray(verts, np.float32), stride=32),
            VertexBuffer(buffer=flag_rows, stride=16),
        ]
    )
    ctx.draw_vbo(DrawInfo(mode=mode, count=len(verts)))


TRI = [(3.5, 3.5), (12.5, 3.5), (3.5, 12.5)]  # det > 0; edges: bottom (row 3), diagonal, left


@pytest.mark.parametrize("first", [False, True], ids=["pv-last", "pv-first"])
def test_edgeflag_triangle_lines(ctx, first):
    """Flags (1, 0, 1): the edge v1 -> v2 (the diagonal) is off, the others are drawn."""
    color = setup(ctx, vs=EDGEFLAG_VS, elements=FLAG_ELEMENTS)
    cols = colours(3)
    rast(ctx, LINE, flatshade_first=first)
    draw_flagged(ctx, vertices(TRI, cols), [1, 0, 1], Prim.TRIANGLES)
    img = image(ctx, color)
    pv = cols[0 if first else 2]
    assert_pixels(img, segment_pixels(TRI[0], TRI[1]) + segment_pixels(TRI[2], TRI[0]), pv)
    assert_zero(img, mask_of(segment_pixels(TRI[1], TRI[2])))
    assert_zero(
        img, ~mask_of(segment_pixels(TRI[0], TRI[1]) + segment_pixels(TRI[2], TRI[0]) + [pixel(p) for p in TRI])
    )
    # All flags on: the diagonal is drawn (the flag is what turned it off).
    draw_flagged(ctx, vertices(TRI, cols), [1, 1, 1], Prim.TRIANGLES)
    assert_pixels(image(ctx, color), segment_pixels(TRI[1], TRI[2]), pv)


def test_edgeflag_triangle_points(ctx):
    """Flags (1, 0, 1): vertex 1 starts the edge that is off, so its point is not drawn."""
    color = setup(ctx, vs=EDGEFLAG_VS, elements=FLAG_ELEMENTS)
    cols = colours(3)
    rast(ctx, POINT)
    draw_flagged(ctx, vertices(TRI, cols), [1, 0, 1], Prim.TRIANGLES)
    img = image(ctx, color)
    want = np.zeros_like(img)
    for v in (0, 2):
        x, y = pixel(TRI[v])
        want[y, x] = cols[2]
    np.testing.assert_array_equal(img, want)


@pytest.mark.parametrize("first", [False, True], ids=["pv-last", "pv-first"])
def test_edgeflag_quad(ctx, first):
    """QUADS + EDGEFLAG: flags (1, 1, 0, 1) turn off the edge c -> d; the
    diagonal stays off (it is no boundary edge); POINT drops vertex c."""
    color = setup(ctx, vs=EDGEFLAG_VS, elements=FLAG_ELEMENTS)
    pts = corners(3, 3, 12, 12)
    cols = colours(4)
    pv = cols[quad_pv(0, first)]
    rast(ctx, LINE, flatshade_first=first)
    draw_flagged(ctx, vertices(pts, cols), [1, 1, 0, 1], Prim.QUADS)
    img = image(ctx, color)
    (bottom, right, top, left), inside, outside = square_sets(3, 3, 12, 12)
    assert_pixels(img, bottom + right + left, pv)
    assert_zero(img, mask_of(top) | inside | outside)
    rast(ctx, POINT, flatshade_first=first)
    draw_flagged(ctx, vertices(pts, cols), [1, 1, 0, 1], Prim.QUADS)
    img = image(ctx, color)
    want = np.zeros_like(img)
    for v in (0, 1, 3):
        x, y = pixel(pts[v])
        want[y, x] = pv
    np.testing.assert_array_equal(img, want)


# ---------------------------------------------------------------------------
# 6. Regression: TRIANGLES keep every edge
# ---------------------------------------------------------------------------


def test_triangles_forming_a_quad_draw_the_diagonal(ctx):
    color = setup(ctx)
    a, b, c, d = corners(3, 3, 12, 12)
    cols = colours(6)
    rast(ctx, LINE)
    draw(ctx, vertices([a, b, c, a, c, d], cols), Prim.TRIANGLES)
    img = image(ctx, color)
    # PV last: triangle 0's is c (vertex 2), triangle 1's is d (vertex 5).
    assert_pixels(img, segment_pixels(a, c), cols[2] + cols[5])  # the shared edge: once per triangle
    (bottom, right, top, left), _, outside = square_sets(3, 3, 12, 12)
    assert_pixels(img, bottom + right, cols[2])
    assert_pixels(img, top + left, cols[5])
    assert_zero(img, outside)


# ---------------------------------------------------------------------------
# 7. Multi-draw and instancing: masks per GL draw and per instance
# ---------------------------------------------------------------------------

# Three 5 x 5 px quads in a 16 x 16 target.
QUAD_BOXES = [(1, 1, 6, 6), (9, 1, 14, 6), (1, 9, 6, 14)]


def assert_outlined(img, boxes, pvs, size=SIZE):
    """Each box outlined in its PV colour, nothing inside, nothing elsewhere."""
    anywhere = np.zeros((size, size), bool)
    for box, pv in zip(boxes, pvs, strict=True):
        sides, inside, outside = square_sets(*box, size=size)
        assert_pixels(img, [p for s in sides for p in s], pv)
        assert_zero(img, inside)
        anywhere |= ~outside
    assert_zero(img, ~anywhere)


def test_multi_draw_quads(ctx):
    color = setup(ctx)
    pts = [p for box in QUAD_BOXES for p in corners(*box)]
    cols = colours(len(pts))
    rast(ctx, LINE)
    # Items of 1 and 2 quads: the second item's masks cover its own 4 triangles.
    ctx.set_vertex_buffers([VertexBuffer(buffer=vertices(pts, cols), stride=32)])
    ctx.draw_vbo(
        DrawInfo(mode=Prim.QUADS), draws=[DrawStartCountBias(start=0, count=4), DrawStartCountBias(start=4, count=8)]
    )
    assert_outlined(image(ctx, color), QUAD_BOXES, [cols[3], cols[7], cols[11]])


def test_multi_draw_polygons(ctx):
    """Two polygons in one multi-draw: each has its own first and last fan
    triangle (the masks are indexed per GL draw)."""
    color = setup(ctx, size=32)
    hexa = list(HEXAGON)
    moved = [(x + 16, y + 16) for x, y in HEXAGON]
    pts = hexa + moved
    cols = colours(len(pts))
    rast(ctx, LINE)
    ctx.set_vertex_buffers([VertexBuffer(buffer=vertices(pts, cols, 32), stride=32)])
    ctx.draw_vbo(
        DrawInfo(mode=Prim.POLYGON), draws=[DrawStartCountBias(start=0, count=6), DrawStartCountBias(start=6, count=6)]
    )
    got = image(ctx, color)
    rast(ctx, FILL)
    draw(ctx, np.concatenate([boundary_lines(hexa, cols[0], 32), boundary_lines(moved, cols[6], 32)]), Prim.LINES)
    want = image(ctx, color)
    assert want.any()
    np.testing.assert_array_equal(got, want)  # vertex pixels included


@pytest.mark.parametrize("start_instance", [0, 1])
def test_instanced_quads(ctx, start_instance):
    """Two instances of two quads, the second instance moved 8 px up (a
    per-instance offset, divisor 1): gl_PrimitiveID restarts per instance."""
    color = setup(ctx, vs=INSTANCE_OFFSET_VS, elements=INSTANCE_OFFSET_ELEMENTS)
    boxes = [(1, 1, 6, 6), (9, 1, 14, 6)]
    pts = [p for box in boxes for p in corners(*box)]
    cols = colours(len(pts))
    offsets = np.zeros((3, 4), np.float32)
    offsets[start_instance + 1, 1] = 8 * 2.0 / SIZE  # 8 px in NDC
    rast(ctx, LINE)
    ctx.set_vertex_buffers(
        [VertexBuffer(buffer=vertices(pts, cols), stride=32), VertexBuffer(buffer=offsets, stride=16)]
    )
    ctx.draw_vbo(DrawInfo(mode=Prim.QUADS, count=len(pts), instance_count=2, start_instance=start_instance))
    img = image(ctx, color)
    moved = [(x0, y0 + 8, x1, y1 + 8) for x0, y0, x1, y1 in boxes]
    assert_outlined(img, boxes + moved, [cols[3], cols[7]] * 2)


# ---------------------------------------------------------------------------
# 8. Culling and faces in different modes
# ---------------------------------------------------------------------------


def two_facing_quads(size=32):
    """A front quad with pixel-centre corners and a back quad with corners
    on pixel corners (its FILL covers exactly the pixels inside), under this
    file's front_ccw True: Gallium's det < 0 (counter-clockwise on its y-down
    window) for the front one, det > 0 for the back one (``gallium_front``)."""
    front = corners(2, 3, 12, 13)[::-1]
    back = [(18, 3), (28, 3), (28, 13), (18, 13)]
    assert gallium_front(front[:3], True) and gallium_front(front[2:] + front[:1], True)
    assert not gallium_front(back[:3], True) and not gallium_front(back[2:] + back[:1], True)
    return front + back, (2, 3, 12, 13)


def test_cull_back_front_outlined(ctx):
    color = setup(ctx, size=32)
    pts, box = two_facing_quads()
    cols = colours(8)
    rast(ctx, LINE, FILL, cull_face=Face.BACK)
    draw(ctx, vertices(pts, cols, 32), Prim.QUADS)
    assert_outlined(image(ctx, color), [box], [cols[3]], size=32)  # the back quad is absent


@pytest.mark.parametrize("first", [False, True], ids=["pv-last", "pv-first"])
def test_front_lines_back_filled(ctx, first):
    color = setup(ctx, size=32)
    pts, box = two_facing_quads()
    cols = colours(8)
    rast(ctx, LINE, FILL, flatshade_first=first)
    draw(ctx, vertices(pts, cols, 32), Prim.QUADS)
    img = image(ctx, color)
    sides, inside, outside = square_sets(*box, size=32)
    assert_pixels(img, [p for s in sides for p in s], cols[quad_pv(0, first)])
    assert_zero(img, inside)
    filled = [(x, y) for x in range(18, 28) for y in range(3, 13)]
    assert_pixels(img, filled, cols[quad_pv(1, first)])  # every pixel once (ADD)
    assert_zero(img, outside & ~mask_of(filled, 32))


# ---------------------------------------------------------------------------
# 9. PRIM_ID in the FS: the translated triangles' IDs
# ---------------------------------------------------------------------------


def primid_fs(decl):
    """FS: red = (primitive ID + 1) / 8 (so ID 0 is visible), alpha 1."""
    return f"""FRAG
{decl}
DCL OUT[0], COLOR
DCL TEMP[0]
IMM[0] FLT32 {{1.0, 0.125, 0.0, 1.0}}
  0: I2F TEMP[0].x, {decl.split()[1].rstrip(",")}.xxxx
  1: ADD TEMP[0].x, TEMP[0].xxxx, IMM[0].xxxx
  2: MUL TEMP[0].x, TEMP[0].xxxx, IMM[0].yyyy
  3: MOV OUT[0], IMM[0].zzzw
  4: MOV OUT[0].x, TEMP[0].xxxx
  5: END
"""


@pytest.mark.parametrize("decl", ["DCL IN[0], PRIM_ID, CONSTANT", "DCL SV[0], PRIM_ID"], ids=["input", "sv"])
def test_prim_id_of_translated_triangles(ctx, decl):
    """Quad q is triangles 2q and 2q + 1 (fallback/indices.py: primitive IDs
    count triangles); its outline shows only those IDs."""
    color = setup(ctx, fs=primid_fs(decl), blend=False)
    boxes = QUAD_BOXES[:2]
    pts = [p for box in boxes for p in corners(*box)]
    rast(ctx, LINE)
    draw(ctx, vertices(pts, colours(8)), Prim.QUADS)
    img = image(ctx, color)
    for q, box in enumerate(boxes):
        sides, inside, _ = square_sets(*box)
        outline = [p for s in sides for p in s]
        ids = {round(float(img[y, x, 0]) * 8) - 1 for x, y in outline}
        assert ids == {2 * q, 2 * q + 1}, (q, ids)  # both triangles own boundary edges
        assert np.all(img[[y for _, y in outline], [x for x, _ in outline], 3] == 1.0)
        assert_zero(img, inside)


# ---------------------------------------------------------------------------
# 10. draw_vbo's fast path (resource vertex buffers, a DrawInfo drawn again)
# ---------------------------------------------------------------------------


def test_fast_path_draws_keep_vertex_edge_flags(screen, ctx):
    """A plain TRIANGLES draw from resource buffers takes draw_vbo's fast path
    when nothing changed; binding a VS writing EDGEFLAG under a LINE
    rasterizer between two draws of it must still give the second one its
    edge flags (and binding a VS without, take them away again)."""
    color = setup(ctx, elements=FLAG_ELEMENTS)
    cols = colours(3)
    flags = np.zeros((3, 4), np.float32)
    flags[:, 0] = (1, 0, 1)
    ctx.set_vertex_buffers(
        [
            VertexBuffer(buffer=vertex_buffer(screen, vertices(TRI, cols)), stride=32),
            VertexBuffer(buffer=vertex_buffer(screen, flags), stride=16),
        ]
    )
    rast(ctx, LINE)
    info = DrawInfo(mode=Prim.TRIANGLES, count=3)
    ctx.draw_vbo(info)
    ctx.draw_vbo(info)  # the fast path from here on
    every = image(ctx, color)
    assert_pixels(every, segment_pixels(TRI[1], TRI[2]), 2 * cols[2])  # no flags: the diagonal twice
    plain_vs = ctx.shader_part.shaders[0]
    ctx.bind_vs_state(ctx.create_vs_state(ShaderState(tokens=EDGEFLAG_VS)))
    ctx.draw_vbo(info)
    img = image(ctx, color)
    assert_pixels(img, segment_pixels(TRI[0], TRI[1]) + segment_pixels(TRI[2], TRI[0]), cols[2])
    assert_zero(img, mask_of(segment_pixels(TRI[1], TRI[2])))
    # A draw of points in between (no polygons: no edge flags), then the
    # triangle again: its flags come back.
    ctx.draw_vbo(DrawInfo(mode=Prim.POINTS, count=3))
    image(ctx, color)
    ctx.draw_vbo(info)
    np.testing.assert_array_equal(image(ctx, color), img)
    ctx.bind_vs_state(plain_vs)
    ctx.draw_vbo(info)
    np.testing.assert_array_equal(image(ctx, color), every / 2)


def test_triangles_after_quads_draw_every_edge(screen, ctx):
    """A TRIANGLES draw (fast-path candidate once drawn) after a QUADS draw
    (edge flags on: a GS reading boundary masks) is a pair of polygons of its
    own again: the diagonal they share is drawn by both."""
    color = setup(ctx)
    a, b, c, d = corners(3, 3, 12, 12)
    cols = colours(10)
    rows = vertices([a, b, c, d, a, b, c, a, c, d], cols)  # a quad, then two triangles
    ctx.set_vertex_buffers([VertexBuffer(buffer=vertex_buffer(screen, rows), stride=32)])
    rast(ctx, LINE)
    tris = DrawInfo(mode=Prim.TRIANGLES, start=4, count=6)
    ctx.draw_vbo(tris)
    ctx.draw_vbo(tris)  # memoized: the fast path from here on
    before = image(ctx, color)
    ctx.draw_vbo(DrawInfo(mode=Prim.QUADS, count=4))
    assert_zero(image(ctx, color), square_sets(3, 3, 12, 12)[1])  # the quad: no diagonal inside
    ctx.draw_vbo(tris)
    ctx.draw_vbo(tris)
    after = image(ctx, color)
    # PV last: triangle 0's is c (row 6), triangle 1's is d (row 9); two draws.
    assert_pixels(after, segment_pixels(a, c), 2 * (cols[6] + cols[9]))
    np.testing.assert_array_equal(after, before)
