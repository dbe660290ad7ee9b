"""fallback.indices: QUADS / QUAD_STRIP / POLYGON to TRIANGLES, line loops to LINES.

Expected values come from the GL specification, not from the code:

* Primitive assembly (OpenGL 1.5 spec section 2.6.1, unchanged in the
  compatibility profiles): independent quad j is vertices 4j+1..4j+4 (in
  that order, trailing 1-3 vertices ignored); quad strip quad i "has
  vertices (in order) v2i, v2i+1, v2i+3, v2i+2" (fewer than four vertices
  draw nothing, an odd last vertex is ignored); a polygon is its vertices in
  order (fewer than three draw nothing).  Those orders are the boundaries
  whose signed area gives each primitive's winding.
* Provoking vertex: ARB_provoking_vertex table 2.12 "Provoking vertex
  selection" (GL 3.2+ compatibility), vertices numbered from 1:
  independent quad 4i-3 (first) / 4i (last); quad strip 2i-1 / 2i+2; when
  QUADS_FOLLOW_PROVOKING_VERTEX is false both columns are 4i / 2i+2; single
  polygon 1 / 1; line loop i / i+1 (1 for the closing segment).  Gallium's
  rasterizer.rst (flatshade_first) states the same exceptions.
* Primitive restart: glPrimitiveRestartIndex: the draw behaves "as if the
  drawing command ended with the immediately preceding transfer, and
  another drawing command is immediately started"; context.rst: compared
  before index_bias is added.

The hand-derived lists below follow the triangle order documented in the
module's docstring table; every other test checks properties (winding,
provoking vertex, coverage) against the spec helpers here.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from fallback.indices import (
    NEEDS_TRANSLATION,
    Translation,
    edge_masks,
    generate_sequential,
    translate,
    translate_line_loop,
)
from glpipe.enums import Prim
from lowering.errors import InvalidArgumentError

FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# ---------------------------------------------------------------------------
# The spec, written independently of the code under test
# ---------------------------------------------------------------------------


def spec_primitives(prim, n):
    """GL's primitives of an n-vertex draw: tuples of 0-based positions in boundary order."""
    if prim == Prim.QUADS:
        return [(4 * j, 4 * j + 1, 4 * j + 2, 4 * j + 3) for j in range(n // 4)]
    if prim == Prim.QUAD_STRIP:
        # 1-based "v2i, v2i+1, v2i+3, v2i+2" for quad i = 1, 2, ... is, 0-based
        # for quad k = i-1: 2k, 2k+1, 2k+3, 2k+2.
        return [(2 * k, 2 * k + 1, 2 * k + 3, 2 * k + 2) for k in range(max(0, (n - 2) // 2))]
    if prim == Prim.POLYGON:
        return [tuple(range(n))] if n >= 3 else []
    raise AssertionError(prim)


def spec_provoking(prim, i, convention, quads_follow=True):
    """1-based provoking vertex of primitive i (1-based), from table 2.12."""
    if prim == Prim.QUADS:
        return 4 * i - 3 if (convention == "first" and quads_follow) else 4 * i
    if prim == Prim.QUAD_STRIP:
        return 2 * i - 1 if (convention == "first" and quads_follow) else 2 * i + 2
    if prim == Prim.POLYGON:
        return 1
    raise AssertionError(prim)


def gl_triangle_provoking(tri, convention):
    """The vertex GL takes as a TRIANGLES triangle's provoking vertex (table 2.12: 3i-2 / 3i)."""
    return tri[0] if convention == "first" else tri[2]


def signed_area(pts):
    """Shoelace signed area of a polygon given in boundary order."""
    x, y = np.asarray(pts, dtype=np.float64).T
    return 0.5 * float(np.sum(x * np.roll(y, -1) - np.roll(x, -1) * y))


def cyclic_order_kept(tri, boundary):
    """True when tri visits its vertices in the boundary's cyclic order (same winding)."""
    m = len(boundary)
    p = [boundary.index(v) for v in tri]
    if len(set(p)) != 3:
        return False
    return ((p[1] - p[0]) % m) + ((p[2] - p[1]) % m) + ((p[0] - p[2]) % m) == m


def triangles(t: Translation):
    assert t.prim == Prim.TRIANGLES
    assert t.indices.size % 3 == 0
    return [tuple(int(v) for v in tri) for tri in t.indices.reshape(-1, 3)]


def check_translation_shape(t: Translation):
    assert t.indices.ndim == 1 and t.indices.flags.c_contiguous
    assert t.count == t.indices.size
    assert t.index_size == t.indices.dtype.itemsize
    assert t.indices.dtype in (np.uint16, np.uint32)


def check_against_spec(prim, n, out_tris, convention, quads_follow=True, value_of=lambda p: p):
    """Properties every translation must have, derived from the spec helpers.

    ``value_of`` maps a position in the draw to the value the output holds
    there (the index buffer's value, or the vertex number).
    """
    prims = spec_primitives(prim, n)
    per_prim = len(prims[0]) - 2 if prims else 0
    assert len(out_tris) == len(prims) * per_prim
    for i, boundary in enumerate(prims, start=1):
        tris = out_tris[(i - 1) * per_prim : i * per_prim]
        values = [value_of(p) for p in boundary]
        pv = value_of(spec_provoking(prim, i, convention, quads_follow) - 1)
        covered = set()
        for tri in tris:
            assert gl_triangle_provoking(tri, convention) == pv, (prim, i, tri)
            assert cyclic_order_kept(tri, values), (prim, i, tri, values)
            covered |= set(tri)
        assert covered == set(values)


# ---------------------------------------------------------------------------
# Hand-derived cases
# ---------------------------------------------------------------------------


def test_one_quad_last_vertex_convention():
    # quad a b c d = 0 1 2 3, provoking d (spec 4i): (a,b,d) (b,c,d)
    t = translate(Prim.QUADS, 4)
    assert t.prim == Prim.TRIANGLES and t.index_size == 2 and t.count == 6
    assert t.indices.tolist() == [0, 1, 3, 1, 2, 3]


def test_one_quad_first_vertex_convention():
    # provoking a (spec 4i-3): (a,b,c) (a,c,d)
    t = translate(Prim.QUADS, 4, provoking="first")
    assert t.indices.tolist() == [0, 1, 2, 0, 2, 3]


def test_two_quads_and_trailing_vertex_dropped():
    expected = [0, 1, 3, 1, 2, 3, 4, 5, 7, 5, 6, 7]
    assert translate(Prim.QUADS, 8).indices.tolist() == expected
    # 5 vertices: GL ignores the incomplete trailing group.
    assert translate(Prim.QUADS, 5).indices.tolist() == [0, 1, 3, 1, 2, 3]
    assert translate(Prim.QUADS, 3).count == 0
    assert translate(Prim.QUADS, 0).count == 0


def test_flatshade_first_is_the_gallium_spelling_of_provoking():
    assert translate(Prim.QUADS, 4, flatshade_first=True).indices.tolist() == [0, 1, 2, 0, 2, 3]
    assert translate(Prim.QUADS, 4, flatshade_first=False).indices.tolist() == [0, 1, 3, 1, 2, 3]
    assert translate(Prim.QUADS, 4, provoking="first", flatshade_first=True).count == 6
    with pytest.raises(InvalidArgumentError, match="flatshade_first"):
        translate(Prim.QUADS, 4, provoking="last", flatshade_first=True)
    with pytest.raises(InvalidArgumentError, match="flatshade_first"):
        translate(Prim.QUADS, 4, flatshade_first="yes")


def test_quads_with_start():
    t = translate(Prim.QUADS, 4, start=10, provoking="first")
    assert t.indices.tolist() == [10, 11, 12, 10, 12, 13]


def test_quads_not_following_convention_keep_last_vertex():
    # QUADS_FOLLOW_PROVOKING_VERTEX false: PV is 4i even under "first"; GL takes
    # the first vertex of each triangle, so d leads: (d,a,b) (d,b,c).
    t = translate(Prim.QUADS, 4, provoking="first", quads_follow_provoking_vertex=False)
    assert t.indices.tolist() == [3, 0, 1, 3, 1, 2]
    t = translate(Prim.QUAD_STRIP, 4, provoking="first", quads_follow_provoking_vertex=False)
    assert t.indices.tolist() == [3, 0, 1, 3, 2, 0]


def test_quad_strip_of_six():
    # quads (0,1,3,2) and (2,3,5,4); PV last d = 3 then 5; first a = 0 then 2.
    assert translate(Prim.QUAD_STRIP, 6).indices.tolist() == [0, 1, 3, 2, 0, 3, 2, 3, 5, 4, 2, 5]
    assert translate(Prim.QUAD_STRIP, 6, provoking="first").indices.tolist() == [0, 1, 3, 0, 3, 2, 2, 3, 5, 2, 5, 4]
    # odd trailing vertex ignored, fewer than 4 draw nothing
    assert translate(Prim.QUAD_STRIP, 7).indices.tolist() == translate(Prim.QUAD_STRIP, 6).indices.tolist()
    assert translate(Prim.QUAD_STRIP, 3).count == 0


def test_polygon_of_five():
    # provoking vertex is vertex 1 under both conventions
    assert translate(Prim.POLYGON, 5, provoking="first").indices.tolist() == [0, 1, 2, 0, 2, 3, 0, 3, 4]
    assert translate(Prim.POLYGON, 5, provoking="last").indices.tolist() == [1, 2, 0, 2, 3, 0, 3, 4, 0]
    assert translate(Prim.POLYGON, 2).count == 0


def test_indexed_quads_use_values_not_positions():
    t = translate(Prim.QUADS, 4, indices=[9, 8, 7, 6], index_size=2)
    assert t.indices.tolist() == [9, 8, 6, 8, 7, 6]


def test_indexed_start_is_an_element_offset():
    buf = np.array([100, 101, 102, 103, 40, 41, 42, 43], dtype=np.uint16)
    t = translate(Prim.QUADS, 4, start=4, indices=buf, index_size=2, provoking="first")
    assert t.indices.tolist() == [40, 41, 42, 40, 42, 43]


def test_restart_in_the_middle_of_quads():
    idx = [10, 11, 12, 13, 0xFFFF, 20, 21, 22, 23, 24]
    t = translate(
        Prim.QUADS,
        len(idx),
        indices=np.array(idx, np.uint16),
        index_size=2,
        primitive_restart=True,
        restart_index=0xFFFF,
    )
    # the quad count restarts after the marker; 24 is an incomplete trailing vertex
    assert t.indices.tolist() == [10, 11, 13, 11, 12, 13, 20, 21, 23, 21, 22, 23]
    assert t.index_size == 2 and not t.primitive_restart


def test_restart_splits_an_incomplete_quad():
    idx = [0, 1, 2, 0xFFFF, 3, 4, 5, 6]
    t = translate(
        Prim.QUADS,
        8,
        indices=np.array(idx, np.uint16),
        index_size=2,
        primitive_restart=True,
        restart_index=0xFFFF,
        provoking="first",
    )
    assert t.indices.tolist() == [3, 4, 5, 3, 5, 6]


def test_restart_off_treats_the_value_as_a_vertex():
    idx = [0, 1, 2, 0xFFFF]
    t = translate(Prim.QUADS, 4, indices=np.array(idx, np.uint16), index_size=2, provoking="first")
    assert t.indices.tolist() == [0, 1, 2, 0, 2, 0xFFFF]
    assert t.index_size == 4  # 0xffff is kept out of 16-bit output


def test_custom_restart_index_with_one_byte_indices():
    idx = bytes([0, 1, 2, 3, 4, 7, 5, 6, 8, 9])
    t = translate(Prim.POLYGON, 10, indices=idx, index_size=1, primitive_restart=True, restart_index=7)
    # fans (0,1,2,3,4) and (5,6,8,9), PV = each polygon's first vertex (last position)
    assert t.indices.tolist() == [1, 2, 0, 2, 3, 0, 3, 4, 0, 6, 8, 5, 8, 9, 5]
    assert t.index_size == 2


def test_restart_index_0xffff_never_matches_one_byte_indices():
    idx = bytes([0, 1, 2, 255, 4, 5])
    t = translate(
        Prim.POLYGON, 6, indices=idx, index_size=1, primitive_restart=True, restart_index=0xFFFF, provoking="first"
    )
    assert t.indices.tolist() == [0, 1, 2, 0, 2, 255, 0, 255, 4, 0, 4, 5]


def test_restart_compared_before_bias_on_raw_values():
    # With restart_index 5, the raw value 5 restarts, whatever bias the draw adds later.
    idx = np.array([0, 1, 2, 3, 5, 6, 7, 8, 9], np.uint32)
    t = translate(Prim.QUADS, 9, indices=idx, index_size=4, primitive_restart=True, restart_index=5, provoking="first")
    assert t.indices.tolist() == [0, 1, 2, 0, 2, 3, 6, 7, 8, 6, 8, 9]


def test_quad_strip_restart():
    R = 0xFFFFFFFF
    idx = np.array([0, 1, 2, 3, 4, R, 5, 6, 7, 8], np.uint32)
    t = translate(Prim.QUAD_STRIP, 10, indices=idx, index_size=4, primitive_restart=True, restart_index=R)
    assert t.indices.tolist() == [0, 1, 3, 2, 0, 3, 5, 6, 8, 7, 5, 8]


def test_consecutive_and_edge_restarts():
    R = 0xFFFF
    idx = np.array([R, R, 0, 1, 2, 3, R, R, R], np.uint16)
    t = translate(Prim.QUADS, 9, indices=idx, index_size=2, primitive_restart=True, restart_index=R)
    assert t.indices.tolist() == [0, 1, 3, 1, 2, 3]
    only = np.full(5, R, np.uint16)
    assert translate(Prim.POLYGON, 5, indices=only, index_size=2, primitive_restart=True, restart_index=R).count == 0


def test_raw_bytes_are_read_little_endian():
    raw = np.array([1, 0, 2, 0, 3, 0, 4, 0], np.uint8)  # a mapped buffer's bytes
    t = translate(Prim.QUADS, 4, indices=raw, index_size=2, provoking="first")
    assert t.indices.tolist() == [1, 2, 3, 1, 3, 4]
    t = translate(Prim.QUADS, 4, indices=memoryview(bytes(raw)), index_size=2, provoking="first")
    assert t.indices.tolist() == [1, 2, 3, 1, 3, 4]


# ---------------------------------------------------------------------------
# Index size choice
# ---------------------------------------------------------------------------


def test_index_size_switches_at_0xffff():
    assert translate(Prim.QUADS, 4, start=65531).index_size == 2  # max 65534
    t = translate(Prim.QUADS, 4, start=65532)  # max 65535
    assert t.index_size == 4 and t.indices.dtype == np.uint32
    t = translate(Prim.QUADS, 4, indices=[0, 1, 2, 70000], index_size=4)
    assert t.index_size == 4 and 70000 in t.indices.tolist()


def test_unused_large_values_do_not_widen():
    # the dropped trailing index is not in the output, so it does not force 4 bytes
    t = translate(Prim.QUADS, 5, indices=[0, 1, 2, 3, 100000], index_size=4)
    assert t.index_size == 2


@FAST
@given(
    st.lists(st.integers(0, 0xFFFFFFFE), min_size=0, max_size=40),
    st.sampled_from([Prim.QUADS, Prim.QUAD_STRIP, Prim.POLYGON]),
)
def test_output_size_rule(values, prim):
    t = translate(prim, len(values), indices=values, index_size=4)
    check_translation_shape(t)
    if t.count:
        assert t.index_size == (2 if max(t.indices.tolist()) < 0xFFFF else 4)
        assert set(t.indices.tolist()) <= set(values)
    else:
        assert t.index_size == 2


# ---------------------------------------------------------------------------
# Geometry: winding, provoking vertex, coverage
# ---------------------------------------------------------------------------


@st.composite
def convex_polygon(draw, n):
    """n points in convex position: angle-ordered on a circle, then a random affine map."""
    gaps = np.array(draw(st.lists(st.floats(0.2, 1.0), min_size=n, max_size=n)))
    angles = np.cumsum(gaps / gaps.sum() * 2 * np.pi) + draw(st.floats(0, 2 * np.pi))
    pts = np.stack([np.cos(angles), np.sin(angles)], axis=1)
    m = np.array(draw(st.lists(st.floats(-2, 2), min_size=4, max_size=4))).reshape(2, 2)
    # The 2x2 determinant written out: LAPACK's LU warns on singular draws.
    assume(abs(m[0, 0] * m[1, 1] - m[0, 1] * m[1, 0]) > 0.2)  # includes reflections: both windings
    return pts @ m.T + np.array(draw(st.lists(st.floats(-5, 5), min_size=2, max_size=2)))


def check_geometry(prim, pts, t, convention, quads_follow=True):
    n = len(pts)
    out = triangles(t)
    check_against_spec(prim, n, out, convention, quads_follow)
    prims = spec_primitives(prim, n)
    per_prim = len(prims[0]) - 2
    for i, boundary in enumerate(prims):
        area = signed_area(pts[list(boundary)])
        tri_areas = [signed_area(pts[list(tri)]) for tri in out[i * per_prim : (i + 1) * per_prim]]
        for a in tri_areas:
            assert np.sign(a) == np.sign(area)
        assert sum(abs(a) for a in tri_areas) == pytest.approx(abs(area), rel=1e-9, abs=1e-12)


@FAST
@given(st.data(), st.integers(1, 3), st.sampled_from(["first", "last"]), st.booleans())
def test_random_convex_quads(data, nquads, convention, quads_follow):
    pts = np.concatenate([data.draw(convex_polygon(4)) for _ in range(nquads)])
    t = translate(Prim.QUADS, len(pts), provoking=convention, quads_follow_provoking_vertex=quads_follow)
    check_translation_shape(t)
    check_geometry(Prim.QUADS, pts, t, convention, quads_follow)


@FAST
@given(
    st.lists(st.floats(0.1, 1.0), min_size=2, max_size=6),
    st.lists(st.floats(-0.3, 0.3), min_size=7, max_size=7),
    st.lists(st.floats(0.7, 1.3), min_size=7, max_size=7),
    st.booleans(),
    st.sampled_from(["first", "last"]),
    st.booleans(),
    st.booleans(),
)
def test_random_quad_strips(steps, bottoms, tops, mirror, convention, quads_follow, odd_tail):
    # A ladder: vertex 2k on the bottom rail, 2k+1 on the top rail, x strictly
    # increasing, so every quad (2k, 2k+1, 2k+3, 2k+2) is a convex trapezoid.
    xs = np.concatenate([[0.0], np.cumsum(steps)])
    pts = []
    for k, x in enumerate(xs):
        pts += [(x, bottoms[k]), (x, tops[k])]
    if odd_tail:
        pts.append((xs[-1] + 1.0, 0.0))
    pts = np.array(pts)
    if mirror:
        pts[:, 0] = -pts[:, 0]
    t = translate(Prim.QUAD_STRIP, len(pts), provoking=convention, quads_follow_provoking_vertex=quads_follow)
    check_translation_shape(t)
    check_geometry(Prim.QUAD_STRIP, pts, t, convention, quads_follow)


@FAST
@given(st.data(), st.integers(3, 12), st.sampled_from(["first", "last"]))
def test_random_convex_polygons(data, n, convention):
    pts = data.draw(convex_polygon(n))
    t = translate(Prim.POLYGON, n, provoking=convention)
    check_translation_shape(t)
    check_geometry(Prim.POLYGON, pts, t, convention)


# ---------------------------------------------------------------------------
# Restart runs against a reference split written from the GL rule
# ---------------------------------------------------------------------------


def reference_runs(values, restart_index):
    """Split like GL: each marker ends one draw and starts the next."""
    runs, cur = [], []
    for v in values:
        if v == restart_index:
            runs.append(cur)
            cur = []
        else:
            cur.append(v)
    runs.append(cur)
    return runs


@FAST
@given(
    st.lists(st.integers(0, 70000), unique=True, min_size=0, max_size=40),
    st.lists(st.integers(0, 40), max_size=6),
    st.sampled_from([Prim.QUADS, Prim.QUAD_STRIP, Prim.POLYGON]),
    st.sampled_from(["first", "last"]),
    st.sampled_from([0xFFFFFFFF, 0xFFFF, 70001]),
)
def test_restart_runs_match_the_gl_rule(values, cuts, prim, convention, restart_index):
    seq = list(values)
    for c in sorted(cuts, reverse=True):
        seq.insert(min(c, len(seq)), restart_index)
    buf = np.array(seq, dtype=np.uint32)
    t = translate(
        prim,
        len(seq),
        indices=buf,
        index_size=4,
        primitive_restart=True,
        restart_index=restart_index,
        provoking=convention,
    )
    check_translation_shape(t)
    assert restart_index not in t.indices.tolist()
    out = triangles(t)
    pos = 0
    for run in reference_runs(seq, restart_index):
        n_tris = sum(len(p) - 2 for p in spec_primitives(prim, len(run)))
        check_against_spec(prim, len(run), out[pos : pos + n_tris], convention, value_of=lambda p, run=run: run[p])
        pos += n_tris
    assert pos == len(out)


@FAST
@given(
    st.lists(st.integers(0, 300), min_size=0, max_size=30),
    st.sampled_from([Prim.QUADS, Prim.QUAD_STRIP, Prim.POLYGON]),
    st.sampled_from(["first", "last"]),
    st.integers(0, 5),
)
def test_indexed_equals_non_indexed_through_the_buffer(values, prim, convention, start):
    # Translating through an index buffer = translating positions, then looking them up.
    buf = np.array([7] * start + values, dtype=np.uint16)
    a = translate(prim, len(values), start=start, indices=buf, index_size=2, provoking=convention)
    b = translate(prim, len(values), provoking=convention)
    assert a.indices.tolist() == [values[p] for p in b.indices.tolist()]


# ---------------------------------------------------------------------------
# Line loops
# ---------------------------------------------------------------------------


def test_line_loop_is_native_and_passes_through():
    t = translate(Prim.LINE_LOOP, 4, indices=[5, 6, 7, 8], index_size=1)
    assert t.prim == Prim.LINE_LOOP and t.indices.tolist() == [5, 6, 7, 8] and t.index_size == 2
    assert translate(Prim.LINE_LOOP, 3, start=2).indices.tolist() == [2, 3, 4]
    assert Prim.LINE_LOOP not in NEEDS_TRANSLATION


def test_line_loop_to_lines():
    t = translate_line_loop(4)
    assert t.prim == Prim.LINES
    assert t.indices.tolist() == [0, 1, 1, 2, 2, 3, 3, 0]
    assert translate_line_loop(2, start=3).indices.tolist() == [3, 4, 4, 3]
    assert translate_line_loop(1).count == 0


def test_line_loop_restart_closes_each_loop():
    R = 0xFF
    idx = bytes([1, 2, 3, R, 4, R, 5, 6, R])
    t = translate_line_loop(9, indices=idx, index_size=1, primitive_restart=True, restart_index=R)
    assert t.indices.tolist() == [1, 2, 2, 3, 3, 1, 5, 6, 6, 5]


@FAST
@given(st.integers(0, 20), st.sampled_from(["first", "last"]))
def test_line_loop_provoking_vertex_matches_spec(n, convention):
    segs = translate_line_loop(n).indices.reshape(-1, 2).tolist()
    assert len(segs) == (n if n >= 2 else 0)
    for i, seg in enumerate(segs, start=1):
        # table 2.12, line loop: first i; last i+1 if i < n else 1 (1-based)
        spec = i if convention == "first" else (i + 1 if i < n else 1)
        # GL's LINES provoking vertex: 2i-1 (first) / 2i (last) -> seg[0] / seg[1]
        assert (seg[0] if convention == "first" else seg[1]) == spec - 1


# ---------------------------------------------------------------------------
# Pass-through of native primitives
# ---------------------------------------------------------------------------


def test_native_prims_pass_through():
    assert NEEDS_TRANSLATION == {Prim.QUADS, Prim.QUAD_STRIP, Prim.POLYGON}
    t = translate(Prim.TRIANGLES, 5, start=1)
    assert t.prim == Prim.TRIANGLES and t.indices.tolist() == [1, 2, 3, 4, 5]
    t = translate(Prim.PATCHES, 3, indices=np.array([4, 5, 6], np.uint32), index_size=4)
    assert t.prim == Prim.PATCHES and t.indices.tolist() == [4, 5, 6] and t.index_size == 2


def test_native_prims_keep_restart_as_all_ones():
    idx = bytes([0, 1, 2, 9, 3, 4, 5])
    t = translate(Prim.TRIANGLE_STRIP, 7, indices=idx, index_size=1, primitive_restart=True, restart_index=9)
    assert t.primitive_restart and t.restart_index == 0xFFFF and t.index_size == 2
    assert t.indices.tolist() == [0, 1, 2, 0xFFFF, 3, 4, 5]
    t = translate(Prim.LINE_STRIP, 4, indices=[0, 70000, 5, 1], index_size=4, primitive_restart=True, restart_index=5)
    assert t.restart_index == 0xFFFFFFFF and t.indices.tolist() == [0, 70000, 0xFFFFFFFF, 1]
    # no marker present: nothing to restart
    t = translate(Prim.LINE_STRIP, 3, indices=[0, 1, 2], index_size=2, primitive_restart=True, restart_index=0xFFFF)
    assert not t.primitive_restart


def test_non_indexed_draw_ignores_restart():
    t = translate(Prim.QUADS, 4, primitive_restart=True, restart_index=2, provoking="first")
    assert t.indices.tolist() == [0, 1, 2, 0, 2, 3]


def test_generate_sequential():
    s = generate_sequential(3, 4)
    assert s.tolist() == [3, 4, 5, 6] and s.dtype == np.uint16
    assert generate_sequential(65534, 2).dtype == np.uint32
    assert generate_sequential(0, 0).size == 0


# ---------------------------------------------------------------------------
# Errors name the argument
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "kwargs, word",
    [
        (dict(prim=99, count=4), "prim"),
        (dict(prim="quads", count=4), "prim"),
        (dict(prim=Prim.QUADS, count=-1), "count"),
        (dict(prim=Prim.QUADS, count=4.0), "count"),
        (dict(prim=Prim.QUADS, count=4, start=-2), "start"),
        (dict(prim=Prim.QUADS, count=4, provoking="middle"), "provoking"),
        (dict(prim=Prim.QUADS, count=4, provoking=True), "provoking"),
        (dict(prim=Prim.QUADS, count=4, indices=[0, 1, 2, 3]), "index_size"),
        (dict(prim=Prim.QUADS, count=4, index_size=2), "index_size"),
        (dict(prim=Prim.QUADS, count=4, indices=[0, 1, 2, 3], index_size=3), "index_size"),
        (dict(prim=Prim.QUADS, count=5, indices=[0, 1, 2, 3], index_size=2), "count"),
        (dict(prim=Prim.QUADS, count=4, start=1, indices=b"\0" * 8, index_size=2), "start"),
        (dict(prim=Prim.QUADS, count=4, indices=[0, 1, 2, 300], index_size=1), "indices"),
        (dict(prim=Prim.QUADS, count=4, indices=[0, 1, 2, -1], index_size=2), "indices"),
        (dict(prim=Prim.QUADS, count=4, indices=object(), index_size=2), "indices"),
        (
            dict(
                prim=Prim.QUADS, count=4, indices=[0, 1, 2, 3], index_size=2, primitive_restart=True, restart_index=-1
            ),
            "restart_index",
        ),
        (
            dict(
                prim=Prim.QUADS,
                count=4,
                indices=[0, 1, 2, 3],
                index_size=2,
                primitive_restart=True,
                restart_index=1 << 32,
            ),
            "restart_index",
        ),
        (dict(prim=Prim.QUADS, count=4, primitive_restart=1), "primitive_restart"),
        (dict(prim=Prim.QUADS, count=4, flatshade="yes"), "flatshade"),
        (dict(prim=Prim.QUADS, count=2, start=0xFFFFFFFF), "start"),
    ],
)
def test_bad_arguments(kwargs, word):
    with pytest.raises(InvalidArgumentError, match=word):
        translate(**kwargs)


def test_line_loop_bad_arguments():
    with pytest.raises(InvalidArgumentError, match="count"):
        translate_line_loop(-3)
    with pytest.raises(InvalidArgumentError, match="index_size"):
        translate_line_loop(3, indices=[0, 1, 2])
    with pytest.raises(InvalidArgumentError, match="start"):
        generate_sequential(-1, 3)


def test_flatshade_does_not_change_the_order():
    # flat (CONSTANT) shader inputs use the provoking vertex whether or not
    # rasterizer flatshade is set, so the order is provoking-correct either way.
    for prim in NEEDS_TRANSLATION:
        a = translate(prim, 12, provoking="first", flatshade=True)
        b = translate(prim, 12, provoking="first", flatshade=False)
        assert a.indices.tolist() == b.indices.tolist()


# ---------------------------------------------------------------------------
# Speed guard (the measured figure is far lower; this only catches a
# regression to per-vertex Python loops, which would take many seconds)
# ---------------------------------------------------------------------------


def test_four_million_vertex_quads_translate_whole():
    """A draw of a million quads (the vectorised path; its speed is measured
    in benchmarks/, not here): every quad becomes two triangles over exactly
    its own four vertices, and restart runs keep only whole quads."""
    n = 4_000_000
    plain = translate(Prim.QUADS, n)
    assert plain.count == 6 * (n // 4)
    rel = plain.indices.astype(np.int64).reshape(-1, 6) - 4 * np.arange(n // 4, dtype=np.int64)[:, None]
    assert rel.min() == 0 and rel.max() == 3
    assert (rel[:, :, None] == np.arange(4)).any(axis=1).all()  # each quad's four corners used
    # Restart every 9th index: runs of 8 indices hold two whole quads each.
    idx = (np.arange(n, dtype=np.uint32) * 7) % 1_000_003
    idx[::9] = 0xFFFFFFFF
    indexed = translate(Prim.QUADS, n, indices=idx, index_size=4, primitive_restart=True, restart_index=0xFFFFFFFF)
    run_lengths = np.minimum(8, n - 9 * np.arange((n + 8) // 9) - 1)  # after each restart marker
    whole = int((run_lengths // 4).sum())
    assert indexed.count == 6 * whole


# ---------------------------------------------------------------------------
# Edge masks: which edges of translate()'s triangles lie on the boundary
# ---------------------------------------------------------------------------
#
# Expected masks come from translate()'s triangles and the spec's boundary
# (spec_primitives: GL Begin/End order), never from edge_masks: bit j of a
# triangle is set when its vertices j and j+1 (mod 3) are neighbours on the
# boundary of the primitive the triangle belongs to.


def boundary_pairs_of(cycle):
    return {frozenset((cycle[i], cycle[(i + 1) % len(cycle)])) for i in range(len(cycle))}


def expected_masks(prim, runs, out_tris):
    """Masks of ``out_tris`` (translate's triangles, in order) for ``runs``
    (lists of the values each restart run holds; unique values)."""
    masks, pos = [], 0
    for run in runs:
        for boundary in spec_primitives(prim, len(run)):
            pairs = boundary_pairs_of([run[p] for p in boundary])
            for tri in out_tris[pos : pos + len(boundary) - 2]:
                masks.append(sum(1 << j for j in range(3) if frozenset((tri[j], tri[(j + 1) % 3])) in pairs))
            pos += len(boundary) - 2
    assert pos == len(out_tris)
    return masks


def test_edge_masks_one_quad_by_hand():
    # Last convention: (a,b,d) has a->b and d->a on the boundary (bits 0, 2);
    # (b,c,d) has b->c and c->d (bits 0, 1); b-d is the diagonal.
    assert edge_masks(Prim.QUADS, 4).tolist() == [0b101, 0b011]
    # First convention: (a,b,c): a->b, b->c; (a,c,d): c->d, d->a.
    assert edge_masks(Prim.QUADS, 4, provoking="first").tolist() == [0b011, 0b110]


def test_edge_masks_polygon_of_five_by_hand():
    # First convention: (v0,v1,v2) (v0,v2,v3) (v0,v3,v4); v0-v2 and v0-v3 are fan diagonals.
    assert edge_masks(Prim.POLYGON, 5, flatshade_first=True).tolist() == [0b011, 0b010, 0b110]
    # A triangle as a polygon: every edge is on the boundary.
    assert edge_masks(Prim.POLYGON, 3).tolist() == [0b111]


@pytest.mark.parametrize("quads_follow", [True, False], ids=["follow", "not-follow"])
@pytest.mark.parametrize("convention", ["first", "last"])
@pytest.mark.parametrize("prim", [Prim.QUADS, Prim.QUAD_STRIP, Prim.POLYGON], ids=lambda p: p.name.lower())
@pytest.mark.parametrize("n", [0, 3, 4, 5, 7, 8, 11, 12])
def test_edge_masks_non_indexed(prim, convention, quads_follow, n):
    start = 5
    t = translate(prim, n, start=start, provoking=convention, quads_follow_provoking_vertex=quads_follow)
    got = edge_masks(prim, n, start=start, provoking=convention, quads_follow_provoking_vertex=quads_follow)
    assert got.dtype == np.uint8
    assert got.tolist() == expected_masks(prim, [list(range(start, start + n))], triangles(t))


@pytest.mark.parametrize("convention", ["first", "last"])
@pytest.mark.parametrize("prim", [Prim.QUADS, Prim.QUAD_STRIP, Prim.POLYGON], ids=lambda p: p.name.lower())
@pytest.mark.parametrize("restart", [False, True], ids=["no-restart", "restart"])
@pytest.mark.parametrize("size", [1, 2, 4])
def test_edge_masks_indexed(prim, convention, restart, size):
    marker = {1: 0xFF, 2: 0xFFFF, 4: 0xFFFFFFFF}[size]
    # Runs of 5, 8 and 3 unique values between markers (with restart on).
    runs = [[9, 3, 7, 1, 12], [20, 21, 4, 5, 30, 31, 2, 6], [40, 41, 42]]
    seq = runs[0] + [marker] + runs[1] + [marker] + runs[2]
    buf = np.asarray([77, 78] + seq, {1: np.uint8, 2: np.uint16, 4: np.uint32}[size])
    kw = {
        "start": 2,
        "indices": buf,
        "index_size": size,
        "primitive_restart": restart,
        "restart_index": marker,
        "provoking": convention,
    }
    t = translate(prim, len(seq), **kw)
    got = edge_masks(prim, len(seq), **kw)
    # Without restart the marker is an ordinary vertex value: one run.
    ref_runs = runs if restart else [seq]
    assert got.tolist() == expected_masks(prim, ref_runs, triangles(t))
    if restart and prim == Prim.POLYGON:
        # Each run is its own polygon: its first and last fan triangles carry
        # the edges through its v0 (the whole-draw fan would not).
        assert len(got) == 3 + 6 + 1


@FAST
@given(
    st.lists(st.integers(0, 500), unique=True, max_size=40),
    st.lists(st.integers(0, 40), max_size=6),
    st.sampled_from([Prim.QUADS, Prim.QUAD_STRIP, Prim.POLYGON]),
    st.sampled_from(["first", "last"]),
    st.booleans(),
)
def test_edge_masks_random_restart_runs(values, cuts, prim, convention, quads_follow):
    marker = 0xFFFF
    seq = list(values)
    for c in sorted(cuts, reverse=True):
        seq.insert(min(c, len(seq)), marker)
    buf = np.asarray(seq, np.uint16)
    kw = {
        "indices": buf,
        "index_size": 2,
        "primitive_restart": True,
        "restart_index": marker,
        "provoking": convention,
        "quads_follow_provoking_vertex": quads_follow,
    }
    t = translate(prim, len(seq), **kw)
    got = edge_masks(prim, len(seq), **kw)
    assert got.tolist() == expected_masks(prim, reference_runs(seq, marker), triangles(t))


def test_edge_masks_edges_run_in_boundary_direction():
    """Edge j of a triangle runs from its vertex j to vertex j + 1 in the
    boundary's direction, so the VS edge flag of vertex j is the one that applies."""
    for prim in NEEDS_TRANSLATION:
        for convention in ("first", "last"):
            t = translate(prim, 12, provoking=convention)
            masks = edge_masks(prim, 12, provoking=convention)
            for tri, mask in zip(triangles(t), masks.tolist(), strict=True):
                cycles = [b for b in spec_primitives(prim, 12) if set(tri) <= set(b)]
                assert cycles
                for j in range(3):
                    if mask >> j & 1:
                        u, v = tri[j], tri[(j + 1) % 3]
                        assert any(c[(c.index(u) + 1) % len(c)] == v for c in cycles), (prim, tri, j)


@pytest.mark.parametrize(
    "prim", [Prim.TRIANGLES, Prim.TRIANGLE_STRIP, Prim.LINE_LOOP, Prim.POINTS], ids=lambda p: p.name.lower()
)
def test_edge_masks_refuses_a_primitive_that_is_not_translated(prim):
    with pytest.raises(InvalidArgumentError, match=f"{prim.name} is not translated"):
        edge_masks(prim, 6)


def test_edge_masks_bad_arguments():
    with pytest.raises(InvalidArgumentError, match="count"):
        edge_masks(Prim.QUADS, -4)
    with pytest.raises(InvalidArgumentError, match="provoking"):
        edge_masks(Prim.QUADS, 4, provoking="middle")
    with pytest.raises(InvalidArgumentError, match="index_size"):
        edge_masks(Prim.QUADS, 4, indices=[0, 1, 2, 3])
