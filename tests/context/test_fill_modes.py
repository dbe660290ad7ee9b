"""Faces drawn in different fill modes (RasterizerState.fill_front != fill_back).

Gallium fills each polygon in the mode of its own facing, in primitive order
(cso/rasterizer.rst; Mesa's draw_pipe_unfilled.c).  Every expectation here
is the same geometry drawn by the host with *one* fill mode at a time: the
test decomposes the draw into triangles itself (GL's assembly rules, written
out below per primitive), computes each triangle's facing from the window
positions it placed (Gallium's rule, docs/rasterizer.md "Winding": det =
e.x * f.y - e.y * f.x with e = p0 - p2, f = p1 - p2 is front-facing when
negative with front_ccw, positive without), and draws the runs
of one facing in order, each as indexed TRIANGLES with a rasterizer whose
two faces share that run's mode.  ADD blending makes double draws and
missing draws show; where order matters a test draws without blending.
``test_reference_decomposition_is_the_hosts`` checks the test's own
decomposition against the host drawing the original primitive in one mode.
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
    PolyStipple,
    Prim,
    RasterizerState,
    ShaderState,
    UnsupportedError,
    VertexBuffer,
    VertexElement,
    ViewportState,
)

from .util import PASS_VS, render_target, triangle_gs, vertex_buffer
from .util_draw import ADD_BLEND, FLAT_FS, POS_COLOR, read_and_clear, vertices, zero_fill
from .util_raster import TRIANGLES_TES, WINDOW_VS, clear_depth, gallium_front, read_depth

SIZE = 32
FILL, LINE, POINT = PolygonMode.FILL, PolygonMode.LINE, PolygonMode.POINT
PAIRS = [(FILL, LINE), (LINE, POINT), (POINT, FILL)]
PAIR_IDS = ["fill-line", "line-point", "point-fill"]
ADD = ADD_BLEND  # (short names: used throughout)


# ---------------------------------------------------------------------------
# The reference: GL's triangle assembly, facing, runs
# ---------------------------------------------------------------------------


def ref_triangles(prim, n, first=False):
    """Vertex positions (0..n-1 in the draw) of each triangle GL assembles
    from ``n`` vertices of ``prim``, in order, listed with GL's winding and
    the provoking vertex first (``first``) or last."""
    out = []
    if prim == Prim.TRIANGLES:
        out = [(3 * i, 3 * i + 1, 3 * i + 2) for i in range(n // 3)]
    elif prim == Prim.TRIANGLES_ADJACENCY:
        out = [(6 * i, 6 * i + 2, 6 * i + 4) for i in range(n // 6)]
    elif prim in (Prim.TRIANGLE_STRIP, Prim.TRIANGLE_STRIP_ADJACENCY):
        s = 2 if prim == Prim.TRIANGLE_STRIP_ADJACENCY else 1
        count = (n - 4) // 2 if s == 2 else n - 2
        for i in range(max(count, 0)):
            a, b, c = s * i, s * (i + 1), s * (i + 2)
            if i % 2 == 0:
                out.append((a, b, c))
            else:  # GL: (i+1, i, i+2); provoking i+2 (last) or i (first)
                out.append((a, c, b) if first else (b, a, c))
    elif prim == Prim.TRIANGLE_FAN:
        for i in range(max(n - 2, 0)):  # (0, i+1, i+2); provoking i+2 (last) or i+1 (first)
            out.append((i + 1, i + 2, 0) if first else (0, i + 1, i + 2))
    elif prim == Prim.QUADS:
        for q in range(n // 4):
            a, b, c, d = range(4 * q, 4 * q + 4)
            out += [(a, b, c), (a, c, d)] if first else [(a, b, d), (b, c, d)]
    elif prim == Prim.QUAD_STRIP:
        for q in range(max((n - 2) // 2, 0)):
            a, b, c, d = range(2 * q, 2 * q + 4)
            out += [(a, b, d), (a, d, c)] if first else [(a, b, d), (c, a, d)]
    elif prim == Prim.POLYGON:
        for k in range(1, n - 1):
            out.append((0, k, k + 1) if first else (k, k + 1, 0))
    return out


def facing(window, tris, front_ccw=True):
    """True for front-facing triangles by Gallium's rule on their window
    positions (``gallium_front``: det < 0 with front_ccw, det > 0 without;
    det = 0 is back-facing, as for the draw module and GL)."""
    return [gallium_front([window[v] for v in t], front_ccw) for t in tris]


def ref_runs(faces):
    """[(is front, [triangle numbers])] of maximal runs of one facing."""
    out = []
    for k, f in enumerate(faces):
        if out and out[-1][0] == f:
            out[-1][1].append(k)
        else:
            out.append((f, [k]))
    return out


def colours(n):
    """A distinct small colour per vertex (sums stay exact in float32)."""
    v = np.arange(n)
    return np.stack([(v % 16 + 1) / 256.0, (v // 16 % 16 + 1) / 256.0, np.full(n, 1 / 64), np.full(n, 1 / 32)], 1)


def mesh(seed, n):
    """``n`` window points in [2, SIZE - 2) from a fixed seed (strips and fans of them have mixed facing)."""
    rng = np.random.default_rng(seed)
    return [tuple(p) for p in np.round(rng.uniform(2, SIZE - 2, (n, 2)) * 4) / 4 + 0.125]


# ---------------------------------------------------------------------------
# Drawing helpers
# ---------------------------------------------------------------------------


def setup(ctx, blend=True, vs=PASS_VS, elements=POS_COLOR, fs=FLAT_FS):
    color, _ = render_target(ctx, SIZE, SIZE)
    zero_fill(ctx.screen, color)
    ctx.bind_vs_state(ctx.create_vs_state(ShaderState(tokens=vs)))
    ctx.bind_fs_state(ctx.create_fs_state(ShaderState(tokens=fs)))
    ctx.bind_vertex_elements_state(ctx.create_vertex_elements_state(list(elements)))
    if blend:
        ctx.bind_blend_state(ctx.create_blend_state(ADD))
    return color


def rast(ctx, front, back, **fields):
    templ = {"point_size": 1.0, "line_width": 1.0, "front_ccw": True}
    templ.update(fields)
    cso = ctx.create_rasterizer_state(RasterizerState(fill_front=front, fill_back=back, **templ))
    ctx.bind_rasterizer_state(cso)
    return cso


image = read_and_clear


def boundary_pairs(prim, n):
    """The vertex pairs {u, v} on the boundary of the quads / quad-strip
    quads / polygon of an ``n``-vertex draw of ``prim`` (GL's Begin/End
    boundary order: a quad a b c d, a strip quad v2i v2i+1 v2i+3 v2i+2, a
    polygon v0 .. vn-1); None for primitives whose triangles are the
    polygons (every edge is one).  Their inner edges are no polygon edges:
    fill modes LINE / POINT do not draw them (edge flags)."""
    if prim == Prim.QUADS:
        cycles = [tuple(range(4 * q, 4 * q + 4)) for q in range(n // 4)]
    elif prim == Prim.QUAD_STRIP:
        cycles = [(2 * q, 2 * q + 1, 2 * q + 3, 2 * q + 2) for q in range(max((n - 2) // 2, 0))]
    elif prim == Prim.POLYGON:
        cycles = [tuple(range(n))] if n >= 3 else []
    else:
        return None
    return {frozenset((c[i], c[(i + 1) % len(c)])) for c in cycles for i in range(len(c))}


def draw_boundary(ctx, verts, tris, mode, pairs, first, **info):
    """A LINE / POINT run of translated triangles as GL draws the polygons:
    per triangle (in order) the edges v2->v0, v0->v1, v1->v2 on the boundary
    as LINES (POINT: the vertex starting such an edge), each in the colour of
    the triangle's provoking vertex (flat shading is the polygon's)."""
    rows = []
    for tri in tris:
        pv = verts[tri[0] if first else tri[2]]
        for j in (2, 0, 1):
            u, v = tri[j], tri[(j + 1) % 3]
            if frozenset((u, v)) in pairs:
                ends = (u, v) if mode == LINE else (u,)
                rows += [np.concatenate([verts[e][:4], pv[4:]]) for e in ends]
    if rows:
        data = np.asarray(rows, np.float32)
        ctx.set_vertex_buffers([VertexBuffer(buffer=data, stride=32)])
        ctx.draw_vbo(DrawInfo(mode=Prim.LINES if mode == LINE else Prim.POINTS, count=len(rows), **info))
        ctx.set_vertex_buffers([VertexBuffer(buffer=verts, stride=32)])


def draw_expected(ctx, tris_by_run, front, back, fields, instance=None, boundary=None, **info):
    """Draw each (is front, [vertex triples]) run as indexed TRIANGLES with one
    fill mode; ``boundary`` = (vertex rows, boundary_pairs) for the triangles
    of translated primitives, whose LINE / POINT runs draw_boundary draws."""
    for is_front, tris in tris_by_run:
        mode = front if is_front else back
        rast(ctx, mode, mode, **fields)
        if boundary is not None and boundary[1] is not None and mode != FILL:
            draw_boundary(ctx, boundary[0], tris, mode, boundary[1], fields.get("flatshade_first", False), **info)
            continue
        idx = np.asarray(tris, np.uint32).reshape(-1)
        ctx.draw_vbo(DrawInfo(mode=Prim.TRIANGLES, index_size=4, index=idx, count=len(idx), **info))


def expected_runs(window, prim, n, front_ccw=True, first=False, offset=0):
    tris = ref_triangles(prim, n, first)
    faces = facing([window[v + offset] for v in range(n)], tris, front_ccw)
    return [(f, [tuple(v + offset for v in tris[k]) for k in ks]) for f, ks in ref_runs(faces)], faces


def split_and_expected(ctx, color, verts, window, prim, front, back, fields=None, first=False, **info):
    """(image of the split draw, image of the reference draws, facings)."""
    fields = dict(fields or {})
    fields.setdefault("flatshade_first", first)
    ctx.set_vertex_buffers([VertexBuffer(buffer=verts, stride=32)])
    rast(ctx, front, back, **fields)
    ctx.draw_vbo(DrawInfo(mode=prim, count=len(verts), **info))
    got = image(ctx, color)
    runs, faces = expected_runs(window, prim, len(verts), fields.get("front_ccw", True), first)
    ctx.set_vertex_buffers([VertexBuffer(buffer=verts, stride=32)])
    draw_expected(ctx, runs, front, back, fields, boundary=(verts, boundary_pairs(prim, len(verts))), **info)
    return got, image(ctx, color), faces


def grid_mesh(flip_every=3):
    """TRIANGLES: two per 6x6-pixel cell of a 5x5 grid, every ``flip_every``-th
    (from the first) reversed (Gallium's det < 0), the others with det > 0
    (back-facing under front_ccw True; ``flip_every`` None: none reversed)."""
    pts = []
    k = 0
    for cy in range(5):
        for cx in range(5):
            x0, y0 = 1.25 + 6 * cx, 1.25 + 6 * cy
            for tri in (
                ((x0, y0), (x0 + 5, y0), (x0, y0 + 5)),
                ((x0 + 5, y0 + 0.5), (x0 + 5, y0 + 5), (x0 + 0.5, y0 + 5)),
            ):
                pts += list(tri[::-1] if flip_every and k % flip_every == 0 else tri)
                k += 1
    return pts


# ---------------------------------------------------------------------------
# Triangles of mixed facing
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("front_ccw", [True, False], ids=["ccw", "cw"])
@pytest.mark.parametrize("front, back", PAIRS, ids=PAIR_IDS)
def test_mixed_mesh_each_face_in_its_mode(ctx, front, back, front_ccw):
    color = setup(ctx)
    pts = grid_mesh()
    verts = vertices(pts, colours(len(pts)), SIZE)
    got, want, faces = split_and_expected(ctx, color, verts, pts, Prim.TRIANGLES, front, back, {"front_ccw": front_ccw})
    assert any(faces) and not all(faces)
    assert got.any()
    np.testing.assert_array_equal(got, want)


def test_single_mode_images_differ(ctx):
    """The expectation is sensitive: the same mesh in one mode looks different."""
    color = setup(ctx)
    pts = grid_mesh()
    verts = vertices(pts, colours(len(pts)), SIZE)
    got, _, _ = split_and_expected(ctx, color, verts, pts, Prim.TRIANGLES, FILL, LINE)
    for mode in (FILL, LINE):
        rast(ctx, mode, mode)
        ctx.draw_vbo(DrawInfo(mode=Prim.TRIANGLES, count=len(verts)))
        assert not np.array_equal(image(ctx, color), got)


def test_primitive_order_is_kept(ctx):
    """No blending, overlapping triangles: the last one drawn wins, so the
    runs must go in primitive order (two passes by facing would not)."""
    color = setup(ctx, blend=False)
    pts = [
        (2, 2),
        (28, 2),
        (2, 28),  # det > 0: front (front_ccw False), filled
        (4, 4),
        (4, 26),
        (26, 4),  # det < 0: back, lines
        (3, 3),
        (20, 3),
        (3, 20),  # front again, on top of the lines
        (2, 10),
        (2, 14),
        (30, 12),
    ]  # back
    cols = [(0.25, 0, 0, 1)] * 3 + [(0, 0.5, 0, 1)] * 3 + [(0, 0, 0.75, 1)] * 3 + [(0.5, 0.5, 0, 1)] * 3
    verts = vertices(pts, cols, SIZE)
    got, want, faces = split_and_expected(ctx, color, verts, pts, Prim.TRIANGLES, FILL, LINE, {"front_ccw": False})
    assert faces == [True, False, True, False]
    np.testing.assert_array_equal(got, want)
    # All fronts, then all backs: a different picture.
    draw_expected(ctx, [(True, [(0, 1, 2), (6, 7, 8)]), (False, [(3, 4, 5), (9, 10, 11)])], FILL, LINE, {})
    assert not np.array_equal(image(ctx, color), got)


# ---------------------------------------------------------------------------
# Strips, fans, adjacency, quads, polygons
# ---------------------------------------------------------------------------

SHAPES = [
    Prim.TRIANGLE_STRIP,
    Prim.TRIANGLE_FAN,
    Prim.QUADS,
    Prim.QUAD_STRIP,
    Prim.POLYGON,
    Prim.TRIANGLES_ADJACENCY,
    Prim.TRIANGLE_STRIP_ADJACENCY,
]


@pytest.mark.parametrize("first", [False, True], ids=["pv-last", "pv-first"])
@pytest.mark.parametrize("prim", SHAPES, ids=lambda p: p.name.lower())
def test_reference_decomposition_is_the_hosts(ctx, prim, first):
    """The test's own assembly (ref_triangles) drawn as TRIANGLES equals the
    host drawing the primitive itself, in one fill mode (LINE: edge order
    and provoking vertex both show)."""
    color = setup(ctx)
    pts = mesh(int(prim) + 10, 14)
    verts = vertices(pts, colours(len(pts)), SIZE)
    ctx.set_vertex_buffers([VertexBuffer(buffer=verts, stride=32)])
    rast(ctx, LINE, LINE, flatshade_first=first)
    ctx.draw_vbo(DrawInfo(mode=prim, count=len(verts)))
    native = image(ctx, color)
    draw_expected(
        ctx,
        [(True, ref_triangles(prim, len(pts), first))],
        LINE,
        LINE,
        {"flatshade_first": first},
        boundary=(verts, boundary_pairs(prim, len(pts))),
    )
    np.testing.assert_array_equal(image(ctx, color), native)


@pytest.mark.parametrize("first", [False, True], ids=["pv-last", "pv-first"])
@pytest.mark.parametrize("prim", SHAPES, ids=lambda p: p.name.lower())
@pytest.mark.parametrize("front, back", PAIRS, ids=PAIR_IDS)
def test_strips_fans_and_polygons(ctx, prim, front, back, first):
    """Points placed at random: the strip's and fan's windings alternate irregularly."""
    color = setup(ctx)
    pts = mesh(int(prim), 14)
    verts = vertices(pts, colours(len(pts)), SIZE)
    got, want, faces = split_and_expected(ctx, color, verts, pts, prim, front, back, first=first)
    if prim in (Prim.TRIANGLE_STRIP, Prim.TRIANGLE_FAN, Prim.QUAD_STRIP):
        assert any(faces) and not all(faces)
    np.testing.assert_array_equal(got, want)


def test_fan_with_alternating_winding(ctx):
    """A fan whose outer vertices go back and forth: every other triangle flips."""
    color = setup(ctx)
    pts = [(16, 16), (30, 16), (16, 30), (26, 26), (2, 16), (6, 26), (16, 2)]  # angles 0, 90, 45, 180, 135, 270
    verts = vertices(pts, colours(len(pts)), SIZE)
    got, want, faces = split_and_expected(ctx, color, verts, pts, Prim.TRIANGLE_FAN, FILL, LINE)
    # The first triangle (16, 16), (30, 16), (16, 30): e = (0, -14), f = (14, -14),
    # det = 196 > 0, back-facing with this file's front_ccw True; then alternating.
    assert faces == [False, True, False, True, False]
    np.testing.assert_array_equal(got, want)


# ---------------------------------------------------------------------------
# Indexed draws, restart, multi-draw, instancing
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "prim",
    [Prim.TRIANGLE_STRIP, Prim.TRIANGLE_FAN, Prim.TRIANGLES, Prim.QUADS, Prim.POLYGON],
    ids=lambda p: p.name.lower(),
)
@pytest.mark.parametrize("resource", [False, True], ids=["user-indices", "index-buffer"])
@pytest.mark.parametrize("size", [2, 4])
def test_indexed_with_restart_and_bias(ctx, resource, size, prim):
    """Restart ends a primitive (a strip, a fan, a polygon, a pending triangle
    or quad) as if the draw ended there; index_bias is added after the lookup."""
    color = setup(ctx)
    pts = mesh(7, 16)
    verts = vertices(pts, colours(len(pts)), SIZE)
    bias = 3
    marker = 0xFFFF if size == 2 else 0xFFFFFFFF
    # Index values (before the bias): three runs between restart indices.
    idx = [0, 1, 2, 3, 4, marker, 5, 6, 7, 8, 9, 10, marker, 11, 12]
    arr = np.asarray(idx, np.uint16 if size == 2 else np.uint32)
    index = vertex_buffer(ctx.screen, arr) if resource else arr
    ctx.set_vertex_buffers([VertexBuffer(buffer=verts, stride=32)])
    rast(ctx, LINE, FILL)
    ctx.draw_vbo(
        DrawInfo(
            mode=prim,
            index_size=size,
            index=index,
            count=len(idx),
            index_bias=bias,
            primitive_restart=True,
            restart_index=marker,
        )
    )
    got = image(ctx, color)
    runs, pairs = [], set()
    for strip in ([0, 1, 2, 3, 4], [5, 6, 7, 8, 9, 10], [11, 12]):
        # (QUADS / POLYGON: the LINE face draws each run's polygons' outlines)
        pairs |= {frozenset(strip[v] + bias for v in p) for p in boundary_pairs(prim, len(strip)) or ()}
        for t in ref_triangles(prim, len(strip)):
            tri = tuple(strip[v] + bias for v in t)
            f = facing(pts, [tri])[0]
            if runs and runs[-1][0] == f:
                runs[-1][1].append(tri)
            else:
                runs.append((f, [tri]))
    assert len(runs) >= 2
    draw_expected(ctx, runs, LINE, FILL, {}, boundary=(verts, pairs if boundary_pairs(prim, 3) is not None else None))
    np.testing.assert_array_equal(got, image(ctx, color))


def test_multi_draw_items_in_order(ctx):
    color = setup(ctx)
    pts = mesh(3, 20)
    verts = vertices(pts, colours(len(pts)), SIZE)
    ctx.set_vertex_buffers([VertexBuffer(buffer=verts, stride=32)])
    rast(ctx, POINT, LINE)
    items = [DrawStartCountBias(start=2, count=7), DrawStartCountBias(start=10, count=9)]
    ctx.draw_vbo(DrawInfo(mode=Prim.TRIANGLE_FAN), draws=items)
    got = image(ctx, color)
    for d in items:
        runs, _ = expected_runs(pts, Prim.TRIANGLE_FAN, d.count, offset=d.start)
        draw_expected(ctx, runs, POINT, LINE, {})
    np.testing.assert_array_equal(got, image(ctx, color))


# VS: position * (IN[2].x, 1) + (IN[2].y, IN[2].z): a per-instance mirror and shift.
INSTANCE_VS = """VERT
DCL IN[0]
DCL IN[1]
DCL IN[2]
DCL OUT[0], POSITION
DCL OUT[1], GENERIC[0]
DCL TEMP[0]
  0: MOV TEMP[0], IN[0]
  1: MAD TEMP[0].x, IN[0].xxxx, IN[2].xxxx, IN[2].yyyy
  2: ADD TEMP[0].y, IN[0].yyyy, IN[2].zzzz
  3: MOV OUT[0], TEMP[0]
  4: MOV OUT[1], IN[1]
  5: END
"""


@pytest.mark.parametrize("divisor, start_instance", [(1, 0), (1, 2), (2, 1)])
def test_instances_with_different_facing(ctx, divisor, start_instance):
    """Odd per-instance elements mirror x: those instances' facings are inverted."""
    elements = POS_COLOR + (
        VertexElement(
            src_offset=0, vertex_buffer_index=1, src_format=Format.R32G32B32A32_FLOAT, instance_divisor=divisor
        ),
    )
    color = setup(ctx, vs=INSTANCE_VS, elements=elements)
    pts = [(3, 3), (13, 3), (3, 13), (4, 20), (14, 20), (9, 29), (2, 15), (12, 17), (6, 11)]
    verts = vertices(pts, colours(len(pts)), SIZE)
    per_instance = np.array(
        [[1, 0, 0, 0], [-1, 0, 0.05, 0], [1, 1.0, 0, 0], [-1, 0.5, 0.1, 0], [1, 0.6, 0.02, 0], [-1, 0.9, 0, 0]],
        np.float32,
    )
    instances = 4
    buffers = [VertexBuffer(buffer=verts, stride=32), VertexBuffer(buffer=per_instance, stride=16)]
    ctx.set_vertex_buffers(buffers)
    rast(ctx, FILL, LINE)
    ctx.draw_vbo(
        DrawInfo(mode=Prim.TRIANGLES, count=len(verts), instance_count=instances, start_instance=start_instance)
    )
    got = image(ctx, color)
    base = ref_triangles(Prim.TRIANGLES, len(pts))
    kinds = set()
    for k in range(instances):
        sx, tx, ty, _ = per_instance[start_instance + k // divisor]
        window = [((2 * x / SIZE - 1) * sx + tx, 2 * y / SIZE - 1 + ty) for x, y in pts]  # NDC: same sign of area
        faces = facing(window, base)
        kinds.add(tuple(faces))
        ctx.set_vertex_buffers(buffers)
        draw_expected(
            ctx,
            [(f, [base[i] for i in ks]) for f, ks in ref_runs(faces)],
            FILL,
            LINE,
            {},
            start_instance=start_instance + k // divisor,
        )
    assert len(kinds) == 2
    np.testing.assert_array_equal(got, image(ctx, color))


def test_instances_of_one_facing_draw_once(screen, ctx):
    """A draw whose triangles all face one way is one instanced draw."""
    color = setup(ctx)
    pts = grid_mesh(flip_every=None)[:12]
    assert not any(facing(pts, ref_triangles(Prim.TRIANGLES, len(pts))))  # all back: drawn in fill_back's mode
    verts = vertices(pts, colours(len(pts)), SIZE)
    ctx.set_vertex_buffers([VertexBuffer(buffer=verts, stride=32)])
    rast(ctx, LINE, FILL)
    before = screen.counters.draw_calls
    ctx.draw_vbo(DrawInfo(mode=Prim.TRIANGLES, count=len(verts), instance_count=3))
    got = image(ctx, color)
    assert screen.counters.draw_calls == before + 1
    rast(ctx, FILL, FILL)
    ctx.draw_vbo(DrawInfo(mode=Prim.TRIANGLES, count=len(verts), instance_count=3))
    np.testing.assert_array_equal(got, image(ctx, color))


def test_resource_vertex_buffer(screen, ctx):
    color = setup(ctx)
    pts = mesh(5, 12)
    verts = vertices(pts, colours(len(pts)), SIZE)
    res = vertex_buffer(screen, verts)
    ctx.set_vertex_buffers([VertexBuffer(buffer=res, stride=32)])
    rast(ctx, FILL, POINT)
    ctx.draw_vbo(DrawInfo(mode=Prim.TRIANGLE_STRIP, count=len(verts)))
    got = image(ctx, color)
    runs, _ = expected_runs(pts, Prim.TRIANGLE_STRIP, len(pts))
    draw_expected(ctx, runs, FILL, POINT, {})
    np.testing.assert_array_equal(got, image(ctx, color))


# ---------------------------------------------------------------------------
# Window transform: facing in Gallium's window coordinates
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("bottom_edge_rule", [False, True], ids=["top-edge", "bottom-edge"])
@pytest.mark.parametrize("y_scale", [1.0, -1.0], ids=["y-up", "y-flipped"])
def test_facing_after_the_viewport(profile, ctx, y_scale, bottom_edge_rule):
    """A negative viewport y scale mirrors the window positions, which turns
    every facing around (computed here from the transformed positions)."""
    if bottom_edge_rule and profile == "gl33":
        with pytest.raises(UnsupportedError, match="bottom_edge_rule"):
            rast(ctx, FILL, LINE, bottom_edge_rule=True)
        return
    color = setup(ctx)
    ctx.set_viewport_states(
        0, [ViewportState(scale=(SIZE / 2, y_scale * SIZE / 2, 0.5), translate=(SIZE / 2, SIZE / 2, 0.5))]
    )
    pts = mesh(11, 12)
    verts = vertices(pts, colours(len(pts)), SIZE)  # NDC = window / 16 - 1 under the y-up viewport
    window = [(x, SIZE / 2 + y_scale * (y - SIZE / 2)) for x, y in pts]
    fields = {"bottom_edge_rule": bottom_edge_rule}
    ctx.set_vertex_buffers([VertexBuffer(buffer=verts, stride=32)])
    rast(ctx, FILL, LINE, **fields)
    ctx.draw_vbo(DrawInfo(mode=Prim.TRIANGLE_STRIP, count=len(verts)))
    got = image(ctx, color)
    runs, faces = expected_runs(window, Prim.TRIANGLE_STRIP, len(pts))
    assert any(faces) and not all(faces)
    draw_expected(ctx, runs, FILL, LINE, fields)
    np.testing.assert_array_equal(got, image(ctx, color))


# ---------------------------------------------------------------------------
# Per-mode state: class-sensitive variants, polygon offset, the host record
# ---------------------------------------------------------------------------

STIPPLE = PolyStipple(stipple=tuple(0x33333333 if r % 4 < 2 else 0xCCCCCCCC for r in range(32)))


@pytest.mark.parametrize(
    "front, back, fields",
    [
        (FILL, LINE, {"poly_stipple_enable": True}),
        (POINT, FILL, {"poly_stipple_enable": True}),
        (POINT, LINE, {"point_smooth": True, "point_size": 3.0}),
        (FILL, POINT, {"point_quad_rasterization": True, "sprite_coord_enable": 1, "point_size": 4.0}),
    ],
    ids=["stipple-fill-line", "stipple-point-fill", "smooth-points", "sprite-points"],
)
def test_class_sensitive_fields_follow_each_runs_mode(ctx, front, back, fields):
    """Polygon stipple reaches the FILL runs only, round points and sprite
    coordinates the POINT runs only (docs/rasterizer.md "Primitive class")."""
    fs = (
        FLAT_FS
        if "sprite_coord_enable" not in fields
        else """FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL OUT[0], COLOR
  0: MOV OUT[0], IN[0]
  1: END
"""
    )
    color = setup(ctx, fs=fs)
    ctx.set_polygon_stipple(STIPPLE)
    pts = grid_mesh()
    verts = vertices(pts, colours(len(pts)), SIZE)
    got, want, _ = split_and_expected(ctx, color, verts, pts, Prim.TRIANGLES, front, back, fields)
    np.testing.assert_array_equal(got, want)


def _depth_setup(ctx):
    from glpipe import DepthStencilAlphaState, Func, SurfaceTemplate  # noqa: I001 (local: depth only)
    from glpipe import Bind, ResourceTemplate, Target, FramebufferState

    color = setup(ctx)
    zs = ctx.screen.resource_create(
        ResourceTemplate(
            target=Target.TEXTURE_2D, format=Format.Z32_FLOAT, width0=SIZE, height0=SIZE, bind=Bind.DEPTH_STENCIL
        )
    )
    cbuf = ctx.create_surface(color, SurfaceTemplate(format=Format.R32G32B32A32_FLOAT))
    zsurf = ctx.create_surface(zs, SurfaceTemplate(format=Format.Z32_FLOAT))
    ctx.set_framebuffer_state(FramebufferState(width=SIZE, height=SIZE, cbufs=(cbuf,), zsbuf=zsurf))
    ctx.bind_depth_stencil_alpha_state(
        ctx.create_depth_stencil_alpha_state(
            DepthStencilAlphaState(depth_enabled=True, depth_writemask=True, depth_func=Func.ALWAYS)
        )
    )
    return color, zs


@pytest.mark.parametrize(
    "fields",
    [
        {"offset_line": True, "offset_units": 64.0, "offset_scale": 1.0},
        {"offset_tri": True, "offset_units": 64.0},
        {"offset_tri": True, "offset_point": True, "offset_units": 0.125, "offset_units_unscaled": True},
        {
            "offset_line": True,
            "offset_units": 0.25,
            "offset_scale": 0.0,
            "offset_units_unscaled": True,
            "offset_clamp": 0.1,
        },
    ],
    ids=["line-scaled", "tri-scaled", "tri-point-unscaled", "line-unscaled-clamped"],
)
def test_polygon_offset_by_each_runs_mode(ctx, fields):
    """offset_tri / offset_line / offset_point apply to the runs drawn in
    that mode only (the depth buffer shows it)."""
    color, zs = _depth_setup(ctx)
    pts = grid_mesh()
    verts = vertices(pts, colours(len(pts)), SIZE)
    verts[:, 2] = np.linspace(-0.5, 0.5, len(verts))
    results = []
    for split in (True, False):
        clear_depth(ctx.screen, zs, 1.0)
        ctx.set_vertex_buffers([VertexBuffer(buffer=verts, stride=32)])
        if split:
            rast(ctx, FILL, LINE, **fields)
            ctx.draw_vbo(DrawInfo(mode=Prim.TRIANGLES, count=len(verts)))
        else:
            runs, _ = expected_runs(pts, Prim.TRIANGLES, len(pts))
            draw_expected(ctx, runs, FILL, LINE, fields)
        results.append((image(ctx, color), read_depth(ctx.screen, zs)))
    (got, got_z), (want, want_z) = results
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(got_z, want_z)
    assert (got_z < 1.0).any()


def test_host_polygon_mode_is_restored(ctx):
    """After a split draw the host holds the CSO's recorded polygon mode, so
    the next rasterizer's transition is right (here: no call at all)."""
    color = setup(ctx)
    pts = grid_mesh()
    verts = vertices(pts, colours(len(pts)), SIZE)
    ctx.set_vertex_buffers([VertexBuffer(buffer=verts, stride=32)])
    rast(ctx, FILL, LINE)
    ctx.draw_vbo(DrawInfo(mode=Prim.TRIANGLES, count=len(verts)))  # the last run is LINE
    image(ctx, color)
    tri = vertices([(1, 1), (30, 1), (1, 30)], (0.25, 0.25, 0.25, 1.0), SIZE)
    for cso in (None, rast(ctx, FILL, FILL, front_ccw=False)):
        ctx.bind_rasterizer_state(cso)
        ctx.set_vertex_buffers([VertexBuffer(buffer=tri, stride=32)])
        ctx.draw_vbo(DrawInfo(mode=Prim.TRIANGLES, count=3))
        img = image(ctx, color)
        assert img[10, 10, 0] == 0.25 and img[5, 12, 0] == 0.25  # filled inside


def test_points_and_lines_draw_as_usual(ctx):
    """Fill modes do not touch points and lines: the split rasterizer draws them as one that is not split."""
    color = setup(ctx)
    pts = mesh(4, 10)
    verts = vertices(pts, colours(len(pts)), SIZE)
    images = []
    for front, back in ((POINT, LINE), (FILL, FILL)):
        ctx.set_vertex_buffers([VertexBuffer(buffer=verts, stride=32)])
        rast(ctx, front, back)
        ctx.draw_vbo(DrawInfo(mode=Prim.LINE_STRIP, count=len(verts)))
        ctx.draw_vbo(DrawInfo(mode=Prim.POINTS, count=len(verts)))
        images.append(image(ctx, color))
    np.testing.assert_array_equal(images[0], images[1])
    assert images[0].any()


def test_a_culled_face_is_not_split(ctx):
    """cull_face BACK: only front faces are drawn, all in fill_front (one mode, no split)."""
    color = setup(ctx)
    pts = grid_mesh()
    verts = vertices(pts, colours(len(pts)), SIZE)
    ctx.set_vertex_buffers([VertexBuffer(buffer=verts, stride=32)])
    rast(ctx, LINE, FILL, cull_face=Face.BACK)
    ctx.draw_vbo(DrawInfo(mode=Prim.TRIANGLES, count=len(verts)))
    got = image(ctx, color)
    runs, _ = expected_runs(pts, Prim.TRIANGLES, len(pts))
    draw_expected(ctx, [r for r in runs if r[0]], LINE, LINE, {})
    np.testing.assert_array_equal(got, image(ctx, color))


# ---------------------------------------------------------------------------
# Refusals
# ---------------------------------------------------------------------------

PRIMID_FS = """FRAG
DCL IN[0], PRIM_ID, CONSTANT
DCL OUT[0], COLOR
DCL TEMP[0]
  0: I2F TEMP[0].x, IN[0].xxxx
  1: MOV OUT[0], TEMP[0].xxxx
  2: END
"""

INSTANCEID_VS = """VERT
DCL IN[0]
DCL IN[1]
DCL SV[0], INSTANCEID
DCL OUT[0], POSITION
DCL OUT[1], GENERIC[0]
DCL TEMP[0]
  0: I2F TEMP[0].x, SV[0].xxxx
  1: MOV OUT[0], IN[0]
  2: ADD OUT[1], IN[1], TEMP[0].xxxx
  3: END
"""


def _refused(ctx, match, **info):
    pts = grid_mesh()
    verts = vertices(pts, colours(len(pts)), SIZE)
    ctx.set_vertex_buffers([VertexBuffer(buffer=verts, stride=32), VertexBuffer(buffer=verts, stride=16)])
    with pytest.raises(UnsupportedError, match=match):
        ctx.draw_vbo(DrawInfo(mode=Prim.TRIANGLES, count=len(verts), **info))


def test_refused_with_a_gs_making_triangles(ctx):
    setup(ctx)
    ctx.bind_gs_state(ctx.create_gs_state(ShaderState(tokens=triangle_gs("TRIANGLE_STRIP", (0, 1, 2)))))
    rast(ctx, FILL, LINE)
    _refused(ctx, "fill_front / fill_back.*geometry")


def test_a_gs_making_lines_is_not_split(ctx):
    color = setup(ctx)
    ctx.bind_gs_state(ctx.create_gs_state(ShaderState(tokens=triangle_gs("LINE_STRIP", (0, 1, 2, 0)))))
    pts = grid_mesh()
    verts = vertices(pts, colours(len(pts)), SIZE)
    images = []
    for front, back in ((FILL, POINT), (LINE, LINE)):
        ctx.set_vertex_buffers([VertexBuffer(buffer=verts, stride=32)])
        rast(ctx, front, back)
        ctx.draw_vbo(DrawInfo(mode=Prim.TRIANGLES, count=len(verts)))
        images.append(image(ctx, color))
    np.testing.assert_array_equal(images[0], images[1])


def test_refused_when_the_fs_reads_prim_id(ctx):
    setup(ctx, fs=PRIMID_FS)
    rast(ctx, FILL, LINE)
    _refused(ctx, "fill_front / fill_back.*PRIM_ID")


def test_refused_line_stipple_on_line_faces(ctx):
    setup(ctx)
    rast(ctx, FILL, LINE, line_stipple_enable=True, line_stipple_pattern=0xF0F0)
    _refused(ctx, "line_stipple_enable")
    rast(ctx, FILL, POINT, line_stipple_enable=True, line_stipple_pattern=0xF0F0)
    pts = grid_mesh()
    ctx.set_vertex_buffers([VertexBuffer(buffer=vertices(pts, colours(len(pts)), SIZE), stride=32)])
    ctx.draw_vbo(DrawInfo(mode=Prim.TRIANGLES, count=len(pts)))  # no LINE face: accepted


def test_refused_instanced_with_instance_id(ctx):
    setup(ctx, vs=INSTANCEID_VS)
    rast(ctx, FILL, LINE)
    _refused(ctx, "fill_front / fill_back.*INSTANCEID", instance_count=2)
    pts = grid_mesh()
    ctx.set_vertex_buffers([VertexBuffer(buffer=vertices(pts, colours(len(pts)), SIZE), stride=32)])
    ctx.draw_vbo(DrawInfo(mode=Prim.TRIANGLES, count=len(pts)))  # one instance: accepted


def test_refused_instanced_with_mixed_divisors(ctx):
    elements = POS_COLOR[:1] + (
        VertexElement(src_offset=0, vertex_buffer_index=1, src_format=Format.R32G32B32A32_FLOAT, instance_divisor=1),
        VertexElement(src_offset=0, vertex_buffer_index=1, src_format=Format.R32G32B32A32_FLOAT, instance_divisor=2),
    )
    vs = PASS_VS.replace("DCL IN[1]\n", "DCL IN[1]\nDCL IN[2]\n")
    setup(ctx, vs=vs, elements=elements)
    rast(ctx, FILL, LINE)
    _refused(ctx, "fill_front / fill_back.*instance_divisor", instance_count=2)


def test_fill_rectangle_still_refused(ctx):
    with pytest.raises(UnsupportedError, match="FILL_RECTANGLE"):
        ctx.create_rasterizer_state(RasterizerState(fill_front=PolygonMode.FILL_RECTANGLE, fill_back=FILL))


def test_refused_offset_clamp_with_slope_on_a_line_face(ctx):
    """With a clamp the FS computes the whole unscaled offset, which it
    cannot for a line-filled face with a slope term: refused at create, as
    for one fill mode (docs/rasterizer.md "Unscaled polygon offset units")."""
    with pytest.raises(UnsupportedError, match="offset_units_unscaled"):
        ctx.create_rasterizer_state(
            RasterizerState(
                fill_front=FILL,
                fill_back=LINE,
                offset_line=True,
                offset_units=1.0,
                offset_scale=1.0,
                offset_clamp=0.5,
                offset_units_unscaled=True,
            )
        )
    # The same on the FILL face only: accepted.
    ctx.create_rasterizer_state(
        RasterizerState(
            fill_front=FILL,
            fill_back=LINE,
            offset_tri=True,
            offset_units=1.0,
            offset_scale=1.0,
            offset_clamp=0.5,
            offset_units_unscaled=True,
        )
    )


def test_refused_with_a_tes_making_triangles(profile, ctx):
    if profile == "gl33":
        pytest.skip("no tessellation on gl33 (set_patch_vertices refuses: test_draw_features)")
    setup(ctx)
    ctx.bind_tes_state(ctx.create_tes_state(ShaderState(tokens=TRIANGLES_TES)))
    ctx.set_patch_vertices(3)
    rast(ctx, FILL, LINE)
    pts = grid_mesh()
    ctx.set_vertex_buffers([VertexBuffer(buffer=vertices(pts, colours(len(pts)), SIZE), stride=32)])
    with pytest.raises(UnsupportedError, match="fill_front / fill_back.*tessellation"):
        ctx.draw_vbo(DrawInfo(mode=Prim.PATCHES, count=len(pts)))


# ---------------------------------------------------------------------------
# Other vertex stages' conventions
# ---------------------------------------------------------------------------


def test_window_space_positions(ctx):
    """A VS_WINDOW_SPACE_POSITION VS: facing from the window positions it writes."""

    color = setup(ctx, vs=WINDOW_VS)
    pts = mesh(21, 12)
    verts = vertices(pts, colours(len(pts)), SIZE)
    verts[:, 0:2] = np.asarray(pts, np.float32)
    verts[:, 2] = 0.5
    got, want, faces = split_and_expected(ctx, color, verts, pts, Prim.TRIANGLE_STRIP, LINE, FILL)
    assert any(faces) and not all(faces)
    np.testing.assert_array_equal(got, want)


# VS: GENERIC[0] = colour + DRAWID / 64 in red.
DRAWID_VS = """VERT
DCL IN[0]
DCL IN[1]
DCL SV[0], DRAWID
DCL OUT[0], POSITION
DCL OUT[1], GENERIC[0]
DCL TEMP[0]
IMM[0] FLT32 {0.015625, 0.0, 0.0, 0.0}
  0: I2F TEMP[0].x, SV[0].xxxx
  1: MOV OUT[0], IN[0]
  2: MAD OUT[1], TEMP[0].xxxx, IMM[0].xyyy, IN[1]
  3: END
"""


def test_multi_draw_with_drawid(screen, ctx):
    """Each item's runs see the item's DRAWID (drawid + i with increment_draw_id)."""
    from glpipe import Cap

    if screen.get_param(Cap.DRAW_PARAMETERS) == 0:
        pytest.skip("DRAW_PARAMETERS is 0 on this profile: no DRAWID (test_caps_proven_draw proves the cap)")
    color = setup(ctx, vs=DRAWID_VS)
    pts = mesh(3, 20)
    verts = vertices(pts, colours(len(pts)), SIZE)
    ctx.set_vertex_buffers([VertexBuffer(buffer=verts, stride=32)])
    rast(ctx, FILL, LINE)
    items = [DrawStartCountBias(start=0, count=8), DrawStartCountBias(start=9, count=10)]
    ctx.draw_vbo(DrawInfo(mode=Prim.TRIANGLE_STRIP, drawid=2, increment_draw_id=True), draws=items)
    got = image(ctx, color)
    for i, d in enumerate(items):
        runs, _ = expected_runs(pts, Prim.TRIANGLE_STRIP, d.count, offset=d.start)
        draw_expected(ctx, runs, FILL, LINE, {}, drawid=2 + i)
    np.testing.assert_array_equal(got, image(ctx, color))
    assert got[..., 0].max() > 2 / 64
