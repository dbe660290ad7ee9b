"""Cull distances on every primitive kind, on both profiles, and gl33's
pixels against native's on the same TGSI.

The gl33 host has no gl_CullDistance; glpipe lowers each cull distance to a
clip distance that is -1 where the cull distance is out and huge elsewhere
(lowering/glsl/passes/cull.py, docs/lowering.md "Cull distances without
gl_CullDistance").  These tests hold both profiles to the rule itself:

* GL 4.5 section 13.5 (and tgsi.rst CLIPDIST): a primitive is discarded when,
  for some cull distance, the distance is negative at every one of its
  vertices; otherwise it is drawn whole (a cull distance never clips).
* What counts as "out" beyond "negative": llvmpipe's draw module (the
  native profile's rasterizer; draw_pipe_user_cull.c) also culls by NaN and
  by +-infinity, and -0.0 is not negative.  ``_out`` states that rule; the
  special-value test checks the native profile follows it and gl33 the same.

Expectations: which primitives survive is computed here in numpy from the
per-vertex values; the expected image is the same surviving primitives drawn
as a plain list without any cull distance (a draw that shares no code with
the emulation), and gl33's image must equal native's pixel for pixel.
"""

from __future__ import annotations

import numpy as np
import pytest
from conftest import get_screen

from glpipe import DrawInfo, Format, Prim, ShaderState, VertexBuffer, VertexElement
from glpipe.enums import Cap

from .util import read_rgba32f
from .util_draw import SIZE, lit, setup, zero_fill
from .util_raster import rast

ELEMENTS = [
    VertexElement(src_offset=16 * i, vertex_buffer_index=0, src_format=Format.R32G32B32A32_FLOAT) for i in range(3)
]
STRIDE = 48  # position, cull distances (x, y), colour


def _vs(ncull: int, instanced: bool = False) -> str:
    """VS: POSITION = IN[0], CLIPDIST[0] = IN[1] (NUM_CULLDIST_ENABLED ``ncull``),
    GENERIC[0] = IN[2].  Instanced: instance i moves right by i * 0.5 (NDC)
    and its cull distances drop by i."""
    head = (
        f"VERT\nPROPERTY NUM_CULLDIST_ENABLED {ncull}\nDCL IN[0]\nDCL IN[1]\nDCL IN[2]\n"
        "DCL OUT[0], POSITION\nDCL OUT[1], CLIPDIST[0]\nDCL OUT[2], GENERIC[0]\n"
    )
    if not instanced:
        return head + "  0: MOV OUT[0], IN[0]\n  1: MOV OUT[1], IN[1]\n  2: MOV OUT[2], IN[2]\n  3: END\n"
    return (
        head + "DCL SV[0], INSTANCEID\nDCL TEMP[0]\nIMM[0] FLT32 {0.5, 0.0, 0.0, 0.0}\n"
        "  0: I2F TEMP[0].x, SV[0].xxxx\n"
        "  1: MUL TEMP[0].y, TEMP[0].xxxx, IMM[0].xxxx\n"
        "  2: MOV OUT[0], IN[0]\n"
        "  3: ADD OUT[0].x, IN[0].xxxx, TEMP[0].yyyy\n"
        "  4: MOV OUT[1], IN[1]\n"
        "  5: ADD OUT[1].xy, IN[1].xyyy, -TEMP[0].xxxx\n"
        "  6: MOV OUT[2], IN[2]\n"
        "  7: END\n"
    )


PLAIN_VS = """VERT
DCL IN[0]
DCL IN[1]
DCL IN[2]
DCL OUT[0], POSITION
DCL OUT[1], GENERIC[0]
  0: MOV OUT[0], IN[0]
  1: MOV OUT[1], IN[2]
  2: END
"""

WHITE_FS = """FRAG
DCL OUT[0], COLOR
IMM[0] FLT32 {1.0, 1.0, 1.0, 1.0}
  0: MOV OUT[0], IMM[0]
  1: END
"""

SMOOTH_FS = """FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL OUT[0], COLOR
  0: MOV OUT[0], IN[0]
  1: END
"""


def _out(d) -> np.ndarray:
    """Whether cull distance ``d`` is out: negative (not -0.0), NaN or infinite."""
    d = np.asarray(d, np.float32)
    return (d < 0) | ~np.isfinite(d)


def _ndc(px):
    return px / SIZE * 2.0 - 1.0


def _rows(win_xy, culls, colors) -> np.ndarray:
    """Vertex rows: NDC position from window pixels, cull distances (x, y), colour."""
    win_xy = np.asarray(win_xy, np.float64)
    n = len(win_xy)
    out = np.zeros((n, 12), np.float32)
    out[:, 0] = _ndc(win_xy[:, 0])
    out[:, 1] = _ndc(win_xy[:, 1])
    out[:, 3] = 1.0
    c = np.asarray(culls, np.float32).reshape(n, -1)
    out[:, 4 : 4 + c.shape[1]] = c
    out[:, 8:12] = colors
    return out


def _draw(ctx, color, rows, mode, **info) -> np.ndarray:
    zero_fill(ctx.screen, color)
    rows = np.ascontiguousarray(rows, np.float32)
    ctx.set_vertex_buffers([VertexBuffer(buffer=rows, stride=STRIDE)])
    info.setdefault("count", len(rows))
    ctx.draw_vbo(DrawInfo(mode=mode, **info))
    return read_rgba32f(ctx.screen, color)


def _render(profile: str, rows, mode, survivors_rows, survivors_mode, ncull=2, fs=WHITE_FS, instanced=0):
    """(image with cull distances, image of the survivors drawn plainly) on ``profile``."""
    screen = get_screen(profile)
    assert screen.get_param(Cap.CULL_DISTANCE) == 1
    ctx = screen.context_create()
    try:
        color = setup(ctx, vs=_vs(ncull, bool(instanced)), fs=fs, elements=ELEMENTS)
        rast(ctx, point_size=3.0, line_width=1.0)
        extra = {"instance_count": instanced} if instanced else {}
        culled = _draw(ctx, color, rows, mode, **extra)
        ctx.bind_vs_state(ctx.create_vs_state(ShaderState(tokens=PLAIN_VS)))
        if len(survivors_rows):
            plain = _draw(ctx, color, survivors_rows, survivors_mode)
        else:
            plain = np.zeros_like(culled)
        return culled, plain
    finally:
        ctx.destroy()


def _check(profile, rows, mode, survivors_rows, survivors_mode, **kw):
    culled, plain = _render(profile, rows, mode, survivors_rows, survivors_mode, **kw)
    np.testing.assert_array_equal(culled, plain)
    if profile != "native":
        native, _ = _render("native", rows, mode, survivors_rows, survivors_mode, **kw)
        np.testing.assert_array_equal(culled, native)
    return culled


SPECIAL = np.array([-1.0, -0.0, 0.0, 1.0, np.nan, np.inf, -np.inf, -1e-30, 1e30], np.float32)


def test_cap_cull_distance_on_every_profile(screen):
    """PIPE_CAP_CULL_DISTANCE is 1 on both profiles (emulated on gl33), with 8
    combined clip and cull distances (PIPE_MAX_CLIP_OR_CULL_DISTANCE_COUNT)."""
    assert screen.get_param(Cap.CULL_DISTANCE) == 1


def test_points_special_values(profile):
    """POINTS, one per cell, each with cull distance x from SPECIAL (y = 1):
    a point survives unless its x is out; native follows ``_out`` too."""
    n = len(SPECIAL)
    xy = np.array([[2.5 + 4 * (i % 4), 2.5 + 4 * (i // 4)] for i in range(n)])
    culls = np.stack([SPECIAL, np.ones(n, np.float32)], axis=1)
    rows = _rows(xy, culls, (1, 1, 1, 1))
    keep = ~_out(SPECIAL)
    img = _check(profile, rows, Prim.POINTS, rows[keep], Prim.POINTS)
    assert lit(img).any() and keep.sum() < n


def test_points_second_distance(profile):
    """The second cull distance culls as well as the first."""
    n = len(SPECIAL)
    xy = np.array([[2.5 + 4 * (i % 4), 2.5 + 4 * (i // 4)] for i in range(n)])
    culls = np.stack([np.ones(n, np.float32), SPECIAL], axis=1)
    rows = _rows(xy, culls, (1, 1, 1, 1))
    _check(profile, rows, Prim.POINTS, rows[~_out(SPECIAL)], Prim.POINTS)


def _cull_pairs():
    """All ordered pairs of SPECIAL (per-vertex x) with y = 1."""
    return [(a, b) for a in SPECIAL for b in SPECIAL]


def test_lines_every_pair(profile):
    """LINES: one horizontal segment per row, its two ends' cull distances
    every pair of SPECIAL values (16 per draw); culled only when both ends
    are out."""
    pairs = _cull_pairs()
    for start in range(0, len(pairs), 16):
        chunk = pairs[start : start + 16]
        xy, culls = [], []
        for row, (a, b) in enumerate(chunk):
            xy += [[1.0, row + 0.5], [15.0, row + 0.5]]
            culls += [[a, 1.0], [b, 1.0]]
        rows = _rows(xy, culls, (1, 1, 1, 1))
        keep = ~(_out([a for a, _ in chunk]) & _out([b for _, b in chunk]))
        survivors = rows.reshape(-1, 2, 12)[keep].reshape(-1, 12)
        _check(profile, rows, Prim.LINES, survivors, Prim.LINES)


def _cells():
    """Nine separate triangles, one per 5x5 cell (window pixels)."""
    tris = []
    for i in range(9):
        x0, y0 = 0.5 + 5 * (i % 3), 0.5 + 5 * (i // 3)
        tris.append([[x0, y0], [x0 + 4.5, y0 + 0.5], [x0 + 1.0, y0 + 4.5]])
    return np.array(tris)


def test_triangles_either_distance(profile):
    """TRIANGLES with two cull distances: a triangle is culled when one
    distance is out at all three vertices -- mixed signs in each distance
    keep it whole; the colour is interpolated (pixels equal native's)."""
    rng = np.random.default_rng(18)
    tris = _cells()
    culls = np.empty((9, 3, 2), np.float32)
    for t in range(9):
        kind = t % 3
        culls[t] = rng.uniform(0.1, 2.0, (3, 2))
        if kind == 0:
            culls[t, :, t % 2] *= -1  # one distance out everywhere: culled
        elif kind == 1:
            culls[t, :2, 0] *= -1  # out at two vertices of x, two of y (not the same): drawn
            culls[t, 1:, 1] *= -1
    colors = rng.uniform(0.0, 1.0, (27, 4)).astype(np.float32)
    rows = _rows(tris.reshape(-1, 2), culls.reshape(-1, 2), colors)
    keep = ~(_out(culls[..., 0]).all(axis=1) | _out(culls[..., 1]).all(axis=1))
    assert 0 < keep.sum() < 9
    survivors = rows.reshape(9, 3, 12)[keep].reshape(-1, 12)
    _check(profile, rows, Prim.TRIANGLES, survivors, Prim.TRIANGLES, fs=SMOOTH_FS)


def test_triangle_strip(profile):
    """TRIANGLE_STRIP along a band: triangle i (vertices i, i+1, i+2) is
    culled when x is out at all three; the survivors drawn as a list give
    the same pixels."""
    xs = np.repeat(np.arange(8) * 2.0 + 0.5, 2)
    ys = np.tile([3.0, 12.0], 8)
    cull_x = np.array([1, 1, -1, -1, -1, 2, -1, -1, -3, -1, 1, 1, -1, np.nan, -1, -1], np.float32)
    culls = np.stack([cull_x, np.ones(16, np.float32)], axis=1)
    rows = _rows(np.stack([xs, ys], axis=1), culls, (1, 1, 1, 1))
    tris = [(i, i + 1, i + 2) for i in range(14)]
    keep = [t for t in tris if not _out(cull_x[list(t)]).all()]
    assert 0 < len(keep) < len(tris)
    survivors = np.concatenate([rows[list(t)] for t in keep])
    _check(profile, rows, Prim.TRIANGLE_STRIP, survivors, Prim.TRIANGLES)


def test_line_strip(profile):
    """LINE_STRIP: segment i is culled when x is out at both of its ends."""
    xs = np.array([1.5, 14.5, 1.5, 14.5, 1.5, 14.5, 1.5, 14.5])
    ys = np.arange(8) * 2.0 + 0.5
    cull_x = np.array([1, -1, -1, 1, -2, -np.inf, -1, 3], np.float32)
    culls = np.stack([cull_x, np.ones(8, np.float32)], axis=1)
    rows = _rows(np.stack([xs, ys], axis=1), culls, (1, 1, 1, 1))
    segs = [(i, i + 1) for i in range(7)]
    keep = [s for s in segs if not _out(cull_x[list(s)]).all()]
    assert 0 < len(keep) < len(segs)
    survivors = np.concatenate([rows[list(s)] for s in keep])
    _check(profile, rows, Prim.LINE_STRIP, survivors, Prim.LINES)


def test_instanced(profile):
    """Two instances of three triangles; instance i's cull distances are the
    vertex's minus i (the VS reads INSTANCEID), so a triangle with x in
    (0, 1) at every vertex is drawn by instance 0 and culled in instance 1."""
    tris = np.array(
        [
            [[0.5, 0.5], [3.5, 1.0], [1.0, 4.5]],
            [[0.5, 6.0], [3.5, 6.5], [1.0, 10.0]],
            [[0.5, 11.0], [3.5, 11.5], [1.0, 15.0]],
        ]
    )
    cull_x = np.array([[0.5, 0.25, 0.75], [2.0, 0.5, 3.0], [-1.0, -0.5, -0.25]], np.float32)
    culls = np.stack([cull_x, np.full((3, 3), 5.0, np.float32)], axis=-1)
    rows = _rows(tris.reshape(-1, 2), culls.reshape(-1, 2), (1, 1, 1, 1))
    survivors = []
    for inst in range(2):
        for t in range(3):
            if not _out(cull_x[t] - inst).all():
                r = rows[3 * t : 3 * t + 3].copy()
                r[:, 0] += 0.5 * inst
                survivors.append(r)
    assert len(survivors) == 3  # instance 0: triangles 0, 1; instance 1: triangle 1
    _check(profile, rows, Prim.TRIANGLES, np.concatenate(survivors), Prim.TRIANGLES, instanced=2)


def test_fourth_distance_with_clip_distances(profile):
    """NUM_CLIPDIST_ENABLED 2 + NUM_CULLDIST_ENABLED 2 in one register: the
    clip distances (x, y: positive, never clipping, their bits off) leave the
    triangles whole; w, the second cull distance, culls triangle 0."""
    tris = _cells()[:3]
    culls = np.ones((3, 3, 4), np.float32)
    culls[0, :, 3] = -0.5
    culls[1, :2, 3] = -0.5
    rows = np.zeros((9, 16), np.float32)
    rows[:, :12] = _rows(tris.reshape(-1, 2), np.zeros((9, 2)), (1, 1, 1, 1))
    rows[:, 4:8] = culls.reshape(-1, 4)
    vs = _vs(2).replace(
        "PROPERTY NUM_CULLDIST_ENABLED 2", "PROPERTY NUM_CLIPDIST_ENABLED 2\nPROPERTY NUM_CULLDIST_ENABLED 2"
    )
    results = []
    for prof in dict.fromkeys((profile, "native")):
        screen = get_screen(prof)
        ctx = screen.context_create()
        try:
            color = setup(ctx, vs=vs, fs=WHITE_FS, elements=ELEMENTS)
            ctx.set_vertex_buffers([VertexBuffer(buffer=np.ascontiguousarray(rows[:, :12]), stride=STRIDE)])
            zero_fill(ctx.screen, color)
            ctx.draw_vbo(DrawInfo(mode=Prim.TRIANGLES, count=9))
            culled = read_rgba32f(ctx.screen, color)
            ctx.bind_vs_state(ctx.create_vs_state(ShaderState(tokens=PLAIN_VS)))
            plain = _draw(ctx, color, rows[3:9, :12], Prim.TRIANGLES)
        finally:
            ctx.destroy()
        np.testing.assert_array_equal(culled, plain)
        results.append(culled)
    np.testing.assert_array_equal(results[0], results[-1])


def _strip_gs() -> str:
    """A Gallium GS writing cull distances: each input triangle's vertices
    and one more (vertex 2 moved right by 0.5 NDC, its cull distance x from
    GENERIC[0].y) out as a 4-vertex TRIANGLE_STRIP; CLIPDIST[0] x = GENERIC[0].x."""
    lines = []
    for v in range(3):
        lines += [f"MOV OUT[0], IN[{v}][0]", f"MOV OUT[1], IN[{v}][1].xxxx", "EMIT IMM[0].xxxx"]
    lines += [
        "MOV TEMP[0], IN[2][0]",
        "ADD TEMP[0].x, TEMP[0].xxxx, IMM[1].xxxx",
        "MOV OUT[0], TEMP[0]",
        "MOV OUT[1], IN[2][1].yyyy",
        "EMIT IMM[0].xxxx",
        "END",
    ]
    body = "".join(f"  {i}: {line}\n" for i, line in enumerate(lines))
    return (
        "GEOM\nPROPERTY GS_INPUT_PRIMITIVE TRIANGLES\nPROPERTY GS_OUTPUT_PRIMITIVE TRIANGLE_STRIP\n"
        "PROPERTY GS_MAX_OUTPUT_VERTICES 4\nPROPERTY NUM_CULLDIST_ENABLED 1\nDCL IN[][0], POSITION\n"
        "DCL IN[][1], GENERIC[0]\nDCL OUT[0], POSITION\nDCL OUT[1], CLIPDIST[0]\nDCL TEMP[0]\n"
        "IMM[0] UINT32 {0, 0, 0, 0}\nIMM[1] FLT32 {0.5, 0.0, 0.0, 0.0}\n" + body
    )


PASS_GENERIC_VS = """VERT
DCL IN[0]
DCL IN[1]
DCL IN[2]
DCL OUT[0], POSITION
DCL OUT[1], GENERIC[0]
  0: MOV OUT[0], IN[0]
  1: MOV OUT[1], IN[1]
  2: END
"""


@pytest.mark.parametrize("fourth", [1.0, -1.0])
def test_gallium_gs_strip_culls_each_triangle(profile, fourth):
    """A Gallium GS emitting a strip: its two triangles are culled one by one
    (no buffering of the strip needed): the first (vertices 0-2, x out at all
    three) always; the second (vertices 1-3) only when the fourth vertex's x
    is out too."""
    tri = np.array([[1.0, 2.0], [7.0, 2.0], [4.0, 9.0]])
    generic = np.array([[-1.0, fourth], [-2.0, fourth], [-0.5, fourth]], np.float32)
    rows = _rows(tri, generic, (1, 1, 1, 1))
    corners = np.vstack([tri, tri[2] + [4.0, 0.0]])
    strip = _rows(corners, np.zeros((4, 2)), (1, 1, 1, 1))
    keep = [] if fourth < 0 else [strip[[1, 2, 3]]]
    results = []
    for prof in dict.fromkeys((profile, "native")):
        screen = get_screen(prof)
        ctx = screen.context_create()
        try:
            color = setup(ctx, vs=PASS_GENERIC_VS, fs=WHITE_FS, elements=ELEMENTS)
            gs = ctx.create_gs_state(ShaderState(tokens=_strip_gs()))
            ctx.bind_gs_state(gs)
            culled = _draw(ctx, color, rows, Prim.TRIANGLES)
            ctx.bind_gs_state(None)
            ctx.bind_vs_state(ctx.create_vs_state(ShaderState(tokens=PLAIN_VS)))
            plain = _draw(ctx, color, np.concatenate(keep), Prim.TRIANGLES) if keep else np.zeros_like(culled)
        finally:
            ctx.destroy()
        np.testing.assert_array_equal(culled, plain)
        assert lit(culled).any() == bool(keep)
        results.append(culled)
    np.testing.assert_array_equal(results[0], results[-1])


def test_lines_with_last_pixel_and_stipple(profile):
    """LINES through glpipe's generated GS (line_last_pixel and line stipple
    on): the GS passes the cull distances on, and the extra last-pixel
    segments it emits are culled with their segment.  The survivors are
    drawn with the same rasterizer and no cull distance."""
    xs = np.array([1.5, 14.5, 1.5, 14.5, 1.5, 14.5, 1.5, 14.5])
    ys = np.array([0.5, 3.5, 4.5, 7.5, 8.5, 11.5, 12.5, 15.0])
    # Survivors are in at both ends: the extra last-pixel segment repeats the
    # end vertex, so with that end out it is culled on both profiles (glpipe's
    # last-pixel GS applies the cull rule to what it emits).
    cull_x = np.array([1, 0.5, -1, -1, 2, 0.0, -1, np.nan], np.float32)
    culls = np.stack([cull_x, np.ones(8, np.float32)], axis=1)
    rows = _rows(np.stack([xs, ys], axis=1), culls, (1, 1, 1, 1))
    keep = [(i, i + 1) for i in range(0, 8, 2) if not _out(cull_x[[i, i + 1]]).all()]
    assert 0 < len(keep) < 4
    survivors = np.concatenate([rows[list(s)] for s in keep])
    results = []
    for prof in dict.fromkeys((profile, "native")):
        screen = get_screen(prof)
        ctx = screen.context_create()
        try:
            color = setup(ctx, vs=_vs(2), fs=WHITE_FS, elements=ELEMENTS)
            rast(
                ctx,
                line_width=1.0,
                line_last_pixel=True,
                line_stipple_enable=True,
                line_stipple_factor=1,
                line_stipple_pattern=0xF0F3,
            )
            culled = _draw(ctx, color, rows, Prim.LINES)
            ctx.bind_vs_state(ctx.create_vs_state(ShaderState(tokens=PLAIN_VS)))
            plain = _draw(ctx, color, survivors, Prim.LINES)
        finally:
            ctx.destroy()
        np.testing.assert_array_equal(culled, plain)
        assert lit(culled).any()
        results.append(culled)
    np.testing.assert_array_equal(results[0], results[-1])
