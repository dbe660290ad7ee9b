"""Line stipple: RasterizerState.line_stipple_enable / _factor / _pattern.

The expectations come from GL's rule (4.6 compatibility profile 14.5.2.2;
Gallium's factor is GL's minus one): a counter s numbers a line's fragments
along its major axis from 0; fragment s is drawn iff bit
(s // (factor + 1)) % 16 of the pattern is 1; s restarts for every LINES
segment and at every strip / loop / restart, and continues along a strip
(a loop's closing segment too).

Geometry.  Every endpoint is a pixel centre nudged by (0.1, 0.15) (``verts``)
and every line is horizontal, vertical or at 45 degrees, so the line passes
within 0.15 pixel of every fragment centre, never through a diamond's corner
(where GL's diamond-exit rule leaves the choice to the implementation), and
the rule draws exactly the pixels from the first endpoint's up to (not
including) the last one's: ``line_pixels`` below.  No fragment centre lies
on a stipple boundary: the k-th fragment centre is k +- 0.15 pixel along the
major axis from the start, so its count is never ambiguous.
Each test first checks that the unstippled draw covers exactly the modelled
pixels (the geometry assumption), then that the stippled one keeps exactly
the pixels the rule selects.  The segments of one draw never share a pixel.
"""

from __future__ import annotations

import itertools
from typing import NamedTuple

import numpy as np
import pytest

from glpipe import (
    DrawInfo,
    DrawStartCountBias,
    Format,
    PolygonMode,
    Prim,
    RasterizerState,
    ShaderState,
    VertexBuffer,
    VertexElement,
)
from lowering.errors import InvalidArgumentError, UnsupportedError

from .util import read_rgba32f, vertex_buffer
from .util_draw import POS_COLOR, SIZE, lit, setup, vertices, zero_fill
from .util_raster import (
    GS_TWO_STRIPS,
    INSTANCE_OFFSET_ELEMENTS,
    INSTANCE_OFFSET_VS,
    ISOLINES_TES,
    WHITE,
    draw,
    draw_image,
    rast,
)

PATTERN = 0b1100_1100_1111_0001  # bit 0 first: 1 0 0 0 1 1 1 1 0 0 1 1 0 0 1 1


NUDGE = (0.1, 0.15)


def verts(points, color=WHITE) -> np.ndarray:
    """Vertex rows for window-space ``points`` (pixel centres), nudged off the diamonds' corners."""
    return vertices([(x + NUDGE[0], y + NUDGE[1]) for x, y in points], color)


def line_pixels(p0, p1) -> list:
    """The pixels GL's diamond-exit rule draws for a segment between two
    pixel centres that is axis-aligned or at 45 degrees, in drawing order:
    the start pixel up to the end pixel, the end excluded."""
    (x0, y0), (x1, y1) = (tuple(int(np.floor(c)) for c in p) for p in (p0, p1))
    dx, dy = x1 - x0, y1 - y0
    n = max(abs(dx), abs(dy))
    assert dx == 0 or dy == 0 or abs(dx) == abs(dy), "the model covers axis-aligned and diagonal lines"
    return [(x0 + k * np.sign(dx), y0 + k * np.sign(dy)) for k in range(n)]


def kept(pattern: int, factor: int, s: int) -> bool:
    """GL's rule for fragment s (Gallium factor = repeat count - 1)."""
    return bool((pattern >> ((s // (factor + 1)) % 16)) & 1)


def image(pixels) -> np.ndarray:
    out = np.zeros((SIZE, SIZE), bool)
    for x, y in pixels:
        out[y, x] = True
    return out


def strip_model(points, pattern, factor, closed=False):
    """(all pixels, stippled pixels) of one strip through ``points``: the
    counter continues from segment to segment."""
    pts = list(points) + ([points[0]] if closed else [])
    every, on, s = [], [], 0
    for a, b in itertools.pairwise(pts):
        for px in line_pixels(a, b):
            every.append(px)
            if kept(pattern, factor, s):
                on.append(px)
            s += 1
    assert len(set(every)) == len(every), "test geometry: segments must not share pixels"
    return every, on


def lines_model(segments, pattern, factor):
    """(all, stippled) pixels of independent segments: each restarts at 0."""
    every, on = [], []
    for a, b in segments:
        e, o = strip_model([a, b], pattern, factor)
        every += e
        on += o
    assert len(set(every)) == len(every)
    return every, on


class Setup(NamedTuple):
    color: object  # the render target
    plain: object  # a rasterizer without stipple
    stipple: object  # the same with line stipple (bound by stipple_setup)


def check(ctx, st: Setup, verts, mode, model, **info):
    """Unstippled coverage == the model's pixels; stippled == the rule's."""
    every, on = model
    ctx.bind_rasterizer_state(st.plain)
    assert np.array_equal(lit(draw_image(ctx, st.color, verts, mode, **info)), image(every)), "geometry assumption"
    ctx.bind_rasterizer_state(st.stipple)
    got = lit(draw_image(ctx, st.color, verts, mode, **info))
    assert np.array_equal(got, image(on)), f"stippled pixels differ at {np.argwhere(got != image(on)).tolist()}"


def stipple_setup(ctx, pattern=PATTERN, factor=0, **shaders) -> Setup:
    """Target, shaders and both rasterizers (the stippled one bound)."""
    color = setup(ctx, **shaders)
    plain = ctx.create_rasterizer_state(RasterizerState(point_size=1.0, line_width=1.0))
    stipple = rast(ctx, line_stipple_enable=True, line_stipple_pattern=pattern, line_stipple_factor=factor)
    return Setup(color, plain, stipple)


# ---------------------------------------------------------------------------
# LINES: every segment restarts
# ---------------------------------------------------------------------------

SEGMENTS = {
    "horizontal": [((0.5, 2.5), (15.5, 2.5)), ((14.5, 5.5), (1.5, 5.5))],
    "vertical": [((3.5, 0.5), (3.5, 15.5)), ((9.5, 14.5), (9.5, 2.5))],
    "diagonal": [((0.5, 1.5), (14.5, 15.5)), ((15.5, 7.5), (8.5, 14.5))],
}


@pytest.mark.parametrize("pattern, factor", [(PATTERN, 0), (0x00FF, 0), (0b1011, 2), (0xA5C3, 1), (0x8001, 0)])
@pytest.mark.parametrize("shape", sorted(SEGMENTS))
def test_lines(screen, ctx, shape, pattern, factor):
    segs = SEGMENTS[shape]
    st = stipple_setup(ctx, pattern, factor)
    rows = verts([p for seg in segs for p in seg], WHITE)
    check(ctx, st, rows, Prim.LINES, lines_model(segs, pattern, factor))


def test_lines_adjacency(screen, ctx):
    """LINES_ADJACENCY draws v1-v2 of each group of four; each restarts."""
    segs = [((1.5, 2.5), (14.5, 2.5)), ((12.5, 4.5), (12.5, 15.5))]
    st = stipple_setup(ctx)
    pts = []
    for a, b in segs:
        pts += [(0.5, 0.5), a, b, (0.5, 0.5)]
    check(ctx, st, verts(pts, WHITE), Prim.LINES_ADJACENCY, lines_model(segs, PATTERN, 0))


# ---------------------------------------------------------------------------
# Strips and loops: the counter continues
# ---------------------------------------------------------------------------

TURNS = [(1.5, 1.5), (12.5, 1.5), (12.5, 12.5), (3.5, 12.5), (3.5, 4.5), (9.5, 10.5)]


@pytest.mark.parametrize("factor", [0, 1, 3])
def test_line_strip_continues_around_corners(screen, ctx, factor):
    st = stipple_setup(ctx, factor=factor)
    check(ctx, st, verts(TURNS, WHITE), Prim.LINE_STRIP, strip_model(TURNS, PATTERN, factor))


def test_line_loop_closing_segment_continues(screen, ctx):
    square = [(2.5, 2.5), (13.5, 2.5), (13.5, 13.5), (2.5, 13.5)]
    st = stipple_setup(ctx)
    check(ctx, st, verts(square, WHITE), Prim.LINE_LOOP, strip_model(square, PATTERN, 0, closed=True))


def test_line_strip_adjacency(screen, ctx):
    inner = [(1.5, 3.5), (13.5, 3.5), (13.5, 14.5), (2.5, 14.5)]
    st = stipple_setup(ctx, pattern=0x3C3C ^ 0x0101)
    pts = [(0.5, 0.5)] + inner + [(0.5, 0.5)]
    check(ctx, st, verts(pts, WHITE), Prim.LINE_STRIP_ADJACENCY, strip_model(inner, 0x3C3C ^ 0x0101, 0))


@pytest.mark.parametrize("index_size", [2, 4])
def test_primitive_restart_resets(screen, ctx, index_size):
    """Two strips in one indexed draw: the second starts at 0 again."""
    first = [(1.5, 1.5), (13.5, 1.5), (13.5, 7.5)]
    second = [(1.5, 12.5), (6.5, 12.5), (11.5, 12.5), (11.5, 3.5)]
    st = stipple_setup(ctx)
    rows = verts(first + second, WHITE)
    restart = (1 << (8 * index_size)) - 1
    dtype = np.uint16 if index_size == 2 else np.uint32
    idx = np.array([0, 1, 2, restart, 3, 4, 5, 6], dtype)
    e1, o1 = strip_model(first, PATTERN, 0)
    e2, o2 = strip_model(second, PATTERN, 0)
    check(
        ctx,
        st,
        rows,
        Prim.LINE_STRIP,
        (e1 + e2, o1 + o2),
        index_size=index_size,
        index=idx,
        count=len(idx),
        primitive_restart=True,
        restart_index=restart,
    )


def test_line_loops_with_restart_close_each_loop(screen, ctx):
    """Two loops in one indexed draw from an index buffer resource: each
    closes itself, its closing segment continuing its own counter."""
    a = [(1.5, 1.5), (7.5, 1.5), (7.5, 7.5)]
    b = [(9.5, 9.5), (14.5, 9.5), (14.5, 14.5), (9.5, 14.5)]
    st = stipple_setup(ctx, pattern=0x7E5B)
    idx = vertex_buffer(screen, np.array([0, 1, 2, 0xFFFF, 3, 4, 5, 6], np.uint16))
    ea, oa = strip_model(a, 0x7E5B, 0, closed=True)
    eb, ob = strip_model(b, 0x7E5B, 0, closed=True)
    check(
        ctx,
        st,
        verts(a + b, WHITE),
        Prim.LINE_LOOP,
        (ea + eb, oa + ob),
        index_size=2,
        index=idx,
        count=8,
        primitive_restart=True,
        restart_index=0xFFFF,
    )


def test_indexed_strip_with_index_bias(screen, ctx):
    pts = [(2.5, 2.5), (2.5, 13.5), (13.5, 13.5)]
    st = stipple_setup(ctx)
    rows = verts([(0.5, 0.5)] * 3 + pts, WHITE)
    idx = np.array([2, 1, 0], np.uint16)  # + bias 3: vertices 5, 4, 3 = pts reversed
    check(
        ctx,
        st,
        rows,
        Prim.LINE_STRIP,
        strip_model(pts[::-1], PATTERN, 0),
        index_size=2,
        index=idx,
        count=3,
        index_bias=3,
    )


def test_multi_draw_strips_restart_per_draw(screen, ctx):
    a = [(1.5, 1.5), (10.5, 1.5), (10.5, 6.5)]
    b = [(2.5, 14.5), (14.5, 14.5), (14.5, 8.5)]
    st = stipple_setup(ctx)
    rows = np.ascontiguousarray(verts(a + b, WHITE))
    ea, oa = strip_model(a, PATTERN, 0)
    eb, ob = strip_model(b, PATTERN, 0)
    draws = [DrawStartCountBias(start=0, count=3), DrawStartCountBias(start=3, count=3)]
    for rs, expected in ((st.plain, image(ea + eb)), (st.stipple, image(oa + ob))):
        ctx.bind_rasterizer_state(rs)
        zero_fill(screen, st.color)
        ctx.set_vertex_buffers([VertexBuffer(buffer=rows, stride=32)])
        ctx.draw_vbo(DrawInfo(mode=Prim.LINE_STRIP), draws)
        assert np.array_equal(lit(read_rgba32f(screen, st.color)), expected)


# Instance i: x scaled by IN[2].x about the viewport centre (NDC 0), y moved
# by IN[2].y: the strip's first segment has a different length per instance,
# so the second segment's base differs too.
INSTANCED_VS = """VERT
DCL IN[0]
DCL IN[1]
DCL IN[2]
DCL OUT[0], POSITION
DCL OUT[1], GENERIC[0]
DCL TEMP[0]
  0: MOV TEMP[0], IN[0]
  1: MUL TEMP[0].x, IN[0].xxxx, IN[2].xxxx
  2: ADD TEMP[0].y, IN[0].yyyy, IN[2].yyyy
  3: MOV OUT[0], TEMP[0]
  4: MOV OUT[1], IN[1]
  5: END
"""


@pytest.mark.parametrize("start_instance", [0, 1])
def test_instanced_strip(screen, ctx, start_instance):
    strip = [(8.5, 1.5), (10.5, 1.5), (10.5, 4.5)]
    per_instance = [(1.0, 0.0), (3.0, 1.0), (2.0, 0.5)]  # (x scale, NDC y offset: 1.0 = 8 px)
    elements = list(POS_COLOR) + [
        VertexElement(src_offset=0, vertex_buffer_index=1, instance_divisor=1, src_format=Format.R32G32B32A32_FLOAT)
    ]
    st = stipple_setup(ctx, vs=INSTANCED_VS, elements=elements)
    inst = np.zeros((3, 4), np.float32)
    inst[:, :2] = per_instance
    every, on = [], []
    for sx, oy in per_instance[start_instance : start_instance + 2]:
        # (the pixels the scaled, nudged vertices fall in: x nudge 0.3 at most, y 0.15)
        pts = [(8.0 + (x + NUDGE[0] - 8.0) * sx, y + oy * SIZE / 2) for x, y in strip]
        e, o = strip_model(pts, PATTERN, 0)
        every += e
        on += o
    rows = np.ascontiguousarray(verts(strip, WHITE))
    for rs, expected in ((st.plain, image(every)), (st.stipple, image(on))):
        ctx.bind_rasterizer_state(rs)
        zero_fill(screen, st.color)
        ctx.set_vertex_buffers([VertexBuffer(buffer=rows, stride=32), VertexBuffer(buffer=inst, stride=16)])
        ctx.draw_vbo(DrawInfo(mode=Prim.LINE_STRIP, count=3, instance_count=2, start_instance=start_instance))
        assert np.array_equal(lit(read_rgba32f(screen, st.color)), expected)


# ---------------------------------------------------------------------------
# A Gallium GS emitting line strips (GS_TWO_STRIPS: util_raster.py)
# ---------------------------------------------------------------------------


def test_gs_line_strips(screen, ctx):
    """The counter continues along a GS's strip and restarts at EndPrimitive."""
    tri = [(1.5, 1.5), (12.5, 1.5), (12.5, 12.5)]
    st = stipple_setup(ctx)
    ctx.bind_gs_state(ctx.create_gs_state(ShaderState(tokens=GS_TWO_STRIPS)))
    e1, o1 = strip_model(tri, PATTERN, 0)
    e2, o2 = strip_model([tri[2], tri[0]], PATTERN, 0)
    check(ctx, st, verts(tri, WHITE), Prim.TRIANGLES, (e1 + e2, o1 + o2))


# ---------------------------------------------------------------------------
# Other classes, refusals, no recompiles
# ---------------------------------------------------------------------------


def test_triangles_and_points_are_not_stippled(screen, ctx):
    st = stipple_setup(ctx, pattern=0x0001)
    full = [(0.0, 0.0), (16.0, 0.0), (16.0, 16.0), (0.0, 0.0), (16.0, 16.0), (0.0, 16.0)]
    assert lit(draw_image(ctx, st.color, vertices(full, WHITE), Prim.TRIANGLES)).all()
    pts = [(x + 0.5, 7.5) for x in range(SIZE)]
    expected = np.zeros((SIZE, SIZE), bool)
    expected[7, :] = True
    assert np.array_equal(lit(draw_image(ctx, st.color, verts(pts, WHITE), Prim.POINTS)), expected)
    # and lines in between are stippled (bit 0 only: the first fragment of each segment)
    got = lit(draw_image(ctx, st.color, verts([(0.5, 3.5), (15.5, 3.5)], WHITE), Prim.LINES))
    assert np.array_equal(got, image([(0, 3)]))


# ---------------------------------------------------------------------------
# Polygons drawn with fill mode LINE: their edges, in Mesa's draw-module order
# ---------------------------------------------------------------------------
# Gallium's reference (draw_decompose_tmp.h + draw_pipe_unfilled.c): each
# polygon's triangles in the draw module's vertex order; per triangle the
# polygon's edges E2 (v2->v0), E0 (v0->v1), E1 (v1->v2); the counter restarts
# with each polygon (a triangle of TRIANGLES / strips / fans, a quad, a
# POLYGON) and runs on from edge to edge.  The sequences below are written
# out by hand from that order.


def sequence_model(segments, pattern, factor):
    """(all, stippled) pixels of segments drawn in order with one counter."""
    every, on, s = [], [], 0
    for a, b in segments:
        for px in line_pixels(a, b):
            every.append(px)
            if kept(pattern, factor, s):
                on.append(px)
            s += 1
    assert len(set(every)) == len(every), "test geometry: edges must not share pixels"
    return every, on


def polygon_setup(ctx, factor=0, **fields) -> Setup:
    """Both rasterizers draw polygons as lines; the second stipples them."""
    color = setup(ctx)
    line = {"fill_front": PolygonMode.LINE, "fill_back": PolygonMode.LINE, "point_size": 1.0, "line_width": 1.0}
    line.update(fields)
    plain = ctx.create_rasterizer_state(RasterizerState(**line))
    stipple = rast(ctx, line_stipple_enable=True, line_stipple_pattern=PATTERN, line_stipple_factor=factor, **line)
    return Setup(color, plain, stipple)


SQUARE = [(2.5, 2.5), (12.5, 2.5), (12.5, 12.5), (2.5, 12.5)]  # a b c d; Gallium det > 0 (GL: counter-clockwise)


@pytest.mark.parametrize("first", [False, True], ids=["pv-last", "pv-first"])
def test_stippled_quad_edges(ctx, first):
    """QUADS: one counter around the quad.  Last vertex: triangles (a b d)
    (b c d), edges d->a, a->b | b->c, c->d.  First vertex: (a b c) (a c d),
    edges a->b, b->c | d->a, c->d."""
    a, b, c, d = SQUARE
    st = polygon_setup(ctx, flatshade_first=first)
    order = [(a, b), (b, c), (d, a), (c, d)] if first else [(d, a), (a, b), (b, c), (c, d)]
    check(ctx, st, verts(SQUARE), Prim.QUADS, sequence_model(order, PATTERN, 0))


@pytest.mark.parametrize("first", [False, True], ids=["pv-last", "pv-first"])
def test_stippled_polygon_edges(ctx, first):
    """POLYGON a b c d: one counter around it.  Last vertex: fan triangles
    (b c a) (c d a), edges a->b, b->c | c->d, d->a; first vertex: (a b c)
    (a c d), edges a->b, b->c | d->a, c->d."""
    a, b, c, d = SQUARE
    st = polygon_setup(ctx, flatshade_first=first)
    order = [(a, b), (b, c), (d, a), (c, d)] if first else [(a, b), (b, c), (c, d), (d, a)]
    check(ctx, st, verts(SQUARE), Prim.POLYGON, sequence_model(order, PATTERN, 0))


def test_stippled_triangle_edges_restart_per_triangle(ctx):
    """TRIANGLES: every triangle restarts the counter; its edges go v2->v0,
    v0->v1, v1->v2 (factor 1: each bit covers two fragments)."""
    t1 = [(1.5, 1.5), (13.5, 1.5), (1.5, 13.5)]
    t2 = [(14.5, 14.5), (3.5, 14.5), (14.5, 3.5)]  # no pixel shared with t1's edges
    st = polygon_setup(ctx, factor=1)
    every, on = [], []
    for v0, v1, v2 in (t1, t2):
        e, o = sequence_model([(v2, v0), (v0, v1), (v1, v2)], PATTERN, 1)
        every += e
        on += o
    check(ctx, st, verts(t1 + t2), Prim.TRIANGLES, (every, on))


def test_stippled_quads_per_instance(screen, ctx):
    """Two instances of a quad, the second moved by a per-instance offset:
    each has its own counters (texels per instance)."""
    a, b, c, d = [(x, y) for x, y in SQUARE[:1]] + [(8.5, 2.5), (8.5, 6.5), (2.5, 6.5)]
    st = polygon_setup(ctx)
    ctx.bind_vs_state(ctx.create_vs_state(ShaderState(tokens=INSTANCE_OFFSET_VS)))
    ctx.bind_vertex_elements_state(ctx.create_vertex_elements_state(list(INSTANCE_OFFSET_ELEMENTS)))
    offsets = np.array([[0, 0, 0, 0], [0, 1.0, 0, 0]], np.float32)  # +1 NDC = +8 px in y
    quad = verts([a, b, c, d])
    ctx.set_vertex_buffers(
        [
            VertexBuffer(buffer=vertex_buffer(screen, quad), stride=32),
            VertexBuffer(buffer=vertex_buffer(screen, offsets), stride=16),
        ]
    )
    order = [(d, a), (a, b), (b, c), (c, d)]
    up = [tuple((x, y + 8) for x, y in seg) for seg in order]
    every, on = sequence_model(order, PATTERN, 0)
    every2, on2 = sequence_model(up, PATTERN, 0)
    ctx.draw_vbo(DrawInfo(mode=Prim.QUADS, count=4, instance_count=2))
    got = lit(read_rgba32f(screen, st.color))
    assert np.array_equal(got, image(on + on2)), np.argwhere(got != image(on + on2)).tolist()


EDGEFLAG_VS = """VERT
DCL IN[0]
DCL IN[1]
DCL OUT[0], POSITION
DCL OUT[1], GENERIC[0]
DCL OUT[2], EDGEFLAG
  0: MOV OUT[0], IN[0]
  1: MOV OUT[1], IN[1]
  2: MOV OUT[2], IN[1]
  3: END
"""


def test_stippled_polygon_edges_refused_where_not_modelled(ctx):
    """Stippled LINE polygons are refused, naming the field, where glpipe
    does not stipple them: a vertex shader writing EDGEFLAG, strip adjacency,
    triangles made by a geometry shader."""
    polygon_setup(ctx)
    tri = verts([(1.5, 1.5), (12.5, 1.5), (12.5, 12.5)], WHITE)
    with pytest.raises(UnsupportedError, match="line_stipple_enable"):
        draw(
            ctx,
            verts([(1.5, 1.5), (9.5, 1.5), (1.5, 9.5), (9.5, 9.5), (3.5, 5.5), (5.5, 3.5)], WHITE),
            Prim.TRIANGLE_STRIP_ADJACENCY,
        )
    vs = ctx.shader_part.shaders[0]
    ctx.bind_vs_state(ctx.create_vs_state(ShaderState(tokens=EDGEFLAG_VS)))
    with pytest.raises(UnsupportedError, match="line_stipple_enable"):
        draw(ctx, tri, Prim.TRIANGLES)
    ctx.bind_vs_state(vs)
    from .util import triangle_gs

    ctx.bind_gs_state(ctx.create_gs_state(ShaderState(tokens=triangle_gs("TRIANGLE_STRIP", (0, 1, 2)))))
    with pytest.raises(UnsupportedError, match="line_stipple_enable"):
        draw(ctx, tri, Prim.TRIANGLES)
    ctx.bind_gs_state(None)
    draw(ctx, tri, Prim.TRIANGLES)  # the VS-fed triangle draws
    draw(ctx, verts([(0.5, 3.5), (15.5, 3.5)], WHITE), Prim.LINES)  # lines still draw


def test_bad_pattern_or_factor(ctx):
    for fields in ({"line_stipple_pattern": 0x10000}, {"line_stipple_factor": 256}, {"line_stipple_pattern": -1}):
        with pytest.raises(InvalidArgumentError, match="line_stipple"):
            ctx.create_rasterizer_state(RasterizerState(line_stipple_enable=True, **fields))


def test_pattern_and_factor_changes_do_not_recompile(screen, ctx):
    st = stipple_setup(ctx)
    seg = [((0.5, 2.5), (15.5, 2.5))]
    strip = [(1.5, 5.5), (14.5, 5.5), (14.5, 14.5)]
    states = [(PATTERN, 0), (0x0F0F, 1), (0x1234, 2), (PATTERN, 0)]
    csos = [
        ctx.create_rasterizer_state(
            RasterizerState(
                point_size=1.0, line_width=1.0, line_stipple_enable=True, line_stipple_pattern=p, line_stipple_factor=f
            )
        )
        for p, f in states
    ]
    seen = None
    for cso, (p, f) in zip(csos, states, strict=True):
        ctx.bind_rasterizer_state(cso)
        got = lit(draw_image(ctx, st.color, verts([q for s in seg for q in s], WHITE), Prim.LINES))
        assert np.array_equal(got, image(lines_model(seg, p, f)[1]))
        got = lit(draw_image(ctx, st.color, verts(strip, WHITE), Prim.LINE_STRIP))
        assert np.array_equal(got, image(strip_model(strip, p, f)[1]))
        if seen is None:
            seen = (screen.counters.shader_variants, screen.counters.programs_linked)
        assert (screen.counters.shader_variants, screen.counters.programs_linked) == seen


def test_stipple_off_again_draws_whole_lines(screen, ctx):
    st = stipple_setup(ctx)
    strip = [(1.5, 5.5), (14.5, 5.5), (14.5, 14.5)]
    every, on = strip_model(strip, PATTERN, 0)
    for _ in range(2):
        ctx.bind_rasterizer_state(st.stipple)
        assert np.array_equal(lit(draw_image(ctx, st.color, verts(strip, WHITE), Prim.LINE_STRIP)), image(on))
        ctx.bind_rasterizer_state(st.plain)
        assert np.array_equal(lit(draw_image(ctx, st.color, verts(strip, WHITE), Prim.LINE_STRIP)), image(every))


def test_tessellated_isolines_restart_per_segment(screen, ctx):
    """A TES with isolines and no GS: the generated GS runs after the TES.
    Isolines reach the rasterizer as independent segments (a GS receives
    them as ``lines``), so every segment restarts the counter: one isoline
    of two equal segments, 1.5 -> 7.5 -> 13.5 on row 8."""
    if not screen.profile.has("tessellation_shader"):
        pytest.skip("no tessellation on this profile (create_tes_state refuses it: test_draw_features.py)")
    st = stipple_setup(ctx)
    ctx.set_tess_state((1.0, 2.0, 1.0, 1.0), (1.0, 1.0))
    ctx.bind_tes_state(ctx.create_tes_state(ShaderState(tokens=ISOLINES_TES)))
    ctx.set_patch_vertices(2)
    segs = [((1.5, 8.5), (7.5, 8.5)), ((7.5, 8.5), (13.5, 8.5))]
    check(ctx, st, verts([(1.5, 8.5), (13.5, 8.5)], WHITE), Prim.PATCHES, lines_model(segs, PATTERN, 0))


PRIM_ID_FS = """FRAG
DCL SV[0], PRIM_ID
DCL OUT[0], COLOR
IMM[0] FLT32 {    0.0000,     0.0000,     0.0000,     1.0000}
  0: U2F OUT[0].x, SV[0].xxxx
  1: MOV OUT[0].yzw, IMM[0]
  2: END
"""


@pytest.mark.parametrize("field", ["line_stipple_enable", "line_last_pixel", "line_smooth"])
def test_primitive_id_passes_the_generated_gs(screen, ctx, field):
    """With glpipe's generated GS in the pipeline the FS still reads each
    line's primitive ID (GL: the FS sees what the GS writes, so the GS
    passes gl_PrimitiveIDIn on): segment i lights only pixels holding i."""
    color = setup(ctx, fs=PRIM_ID_FS)
    fields = {"line_stipple_pattern": 0xFFFF} if field == "line_stipple_enable" else {}
    rast(ctx, **{field: True}, **fields)
    rows = (2, 6, 10)
    pts = [p for r in rows for p in ((1.5, r + 0.5), (SIZE - 1.5, r + 0.5))]
    img = draw_image(ctx, color, verts(pts), Prim.LINES)
    for i, r in enumerate(rows):
        drawn = img[r, :, 3] > 0
        assert drawn[2 : SIZE - 2].all(), r
        assert np.array_equal(img[r, drawn, 0], np.full(drawn.sum(), float(i), np.float32)), r
