"""User clip planes and shader clip distances (set_clip_state +
clip_plane_enable), the polygon stipple (set_polygon_stipple +
poly_stipple_enable) and window rectangles (set_window_rectangles), on
both profiles, checked on pixels.

Expectations come from the definitions: a plane keeps the points where
dot(v, plane) >= 0 (v in clip space), so with a full-screen quad the kept
pixels are those whose centre satisfies the plane in NDC; a stipple keeps
pixel (x, y) when bit 31 - x % 32 of row y % 32 is set (u_pstipple.c's
reading of pipe_poly_stipple); window rectangles keep pixels inside any
rectangle (inclusive) or outside all of them (exclusive).  Changing the
planes, pattern or rectangles never compiles a new variant (sysvals).
"""

from __future__ import annotations

import numpy as np
import pytest

import glpipe
from glpipe import ClipState, PolyStipple, Prim, RasterizerState, ScissorState
from lowering.errors import InvalidArgumentError

from .util import read_rgba32f, render_target
from .util_draw import SIZE, lit, rect_tris, setup, vertices, zero_fill
from .util_raster import CLIPVERTEX_VS, WHITE, bind_shaders, draw, draw_image, rast


def fullscreen(size=SIZE):
    """Two triangles covering the viewport (pos + white rows)."""
    return vertices([p for t in rect_tris(0, 0, size, size) for p in t], WHITE, size)


def ndc_centres(size=SIZE):
    """NDC (x, y) of every pixel centre of a size x size full viewport: (h, w) arrays."""
    ys, xs = np.mgrid[0:size, 0:size] + 0.5
    return 2.0 * xs / size - 1.0, 2.0 * ys / size - 1.0


# Planes in clip space (a, b, c, d): keep a*x + b*y + c*z + d*w >= 0.
PLANE_X = (-1.0, 0.0, 0.0, 0.25)  # x <= 0.25: window x <= 10
PLANE_Y = (0.0, 1.0, 0.0, 0.5)  # y >= -0.5: window y >= 4


def _kept(planes, vx, vy):
    keep = np.ones(vx.shape, bool)
    for a, b, _c, d in planes:
        keep &= a * vx + b * vy + d >= 0
    return keep


# ---------------------------------------------------------------------------
# User clip planes
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("enable", [0b00, 0b01, 0b10, 0b11])
def test_user_clip_planes(screen, ctx, enable):
    color = setup(ctx)
    ctx.set_clip_state(ClipState(ucp=[PLANE_X, PLANE_Y]))
    rast(ctx, clip_plane_enable=enable)
    img = draw_image(ctx, color, fullscreen(), Prim.TRIANGLES)
    vx, vy = ndc_centres()
    planes = [p for i, p in enumerate((PLANE_X, PLANE_Y)) if enable >> i & 1]
    assert np.array_equal(lit(img), _kept(planes, vx, vy))


def test_changing_planes_does_not_recompile(screen, ctx):
    color = setup(ctx)
    rast(ctx, clip_plane_enable=0b1)
    ctx.set_clip_state(ClipState(ucp=[PLANE_X]))
    draw_image(ctx, color, fullscreen(), Prim.TRIANGLES)
    variants = screen.counters.shader_variants
    vx, vy = ndc_centres()
    for plane in ((1.0, 0.0, 0.0, 0.0), (0.0, -1.0, 0.0, -0.25), (1.0, 1.0, 0.0, 0.5)):
        ctx.set_clip_state(ClipState(ucp=[plane]))
        img = draw_image(ctx, color, fullscreen(), Prim.TRIANGLES)
        assert np.array_equal(lit(img), _kept([plane], vx, vy)), plane
    assert screen.counters.shader_variants == variants


def test_planes_apply_to_the_clip_vertex(screen, ctx):
    """A shader writing CLIPVERTEX is clipped by the planes against that
    vector, not the position (st/mesa passes eye-space planes then)."""
    color = setup(ctx, vs=CLIPVERTEX_VS)
    ctx.set_clip_state(ClipState(ucp=[PLANE_X]))
    rast(ctx, clip_plane_enable=1)
    img = draw_image(ctx, color, fullscreen(), Prim.TRIANGLES)
    vx, vy = ndc_centres()
    assert np.array_equal(lit(img), _kept([PLANE_X], vx + 0.5, vy))


CLIPDIST_VS = """VERT
PROPERTY NUM_CLIPDIST_ENABLED 2
DCL IN[0]
DCL IN[1]
DCL OUT[0], POSITION
DCL OUT[1], GENERIC[0]
DCL OUT[2], CLIPDIST[0]
IMM[0] FLT32 {    0.2500,    -0.5000,     0.0000,     0.0000}
  0: MOV OUT[0], IN[0]
  1: MOV OUT[1], IN[1]
  2: ADD OUT[2].xy, IN[0].xyyy, IMM[0].xyyy
  3: END
"""


# llvmpipe clips by every distance the shader writes when no GL_CLIP_DISTANCEi
# is enabled at all (against the GL spec): the variant writes the disabled
# ones as 0.0 (VariantKey.disabled_clip_distances), which 0b000 and 0b100 prove.
@pytest.mark.parametrize("enable", [0b000, 0b001, 0b010, 0b011, 0b100, 0b111])
def test_shader_clip_distances_select_by_clip_plane_enable(screen, ctx, enable):
    """CLIPDIST outputs take precedence over the user planes; enable bits pick
    among them, and bits the shader does not write (bit 2 here) count as
    disabled."""
    color = setup(ctx, vs=CLIPDIST_VS)
    ctx.set_clip_state(ClipState(ucp=[(0.0, 0.0, 0.0, -1.0)] * 8))  # would clip everything if used
    rast(ctx, clip_plane_enable=enable)
    img = draw_image(ctx, color, fullscreen(), Prim.TRIANGLES)
    vx, vy = ndc_centres()
    keep = np.ones((SIZE, SIZE), bool)
    if enable & 1:
        keep &= vx + 0.25 >= 0
    if enable & 2:
        keep &= vy - 0.5 >= 0
    assert np.array_equal(lit(img), keep)


# ---------------------------------------------------------------------------
# Polygon stipple
# ---------------------------------------------------------------------------


def _pattern():
    rng = np.random.default_rng(7)
    rows = [int(v) for v in rng.integers(0, 1 << 32, size=32, dtype=np.uint64)]
    rows[0], rows[1] = 0x80000001, 0xFFFF0000  # leftmost/rightmost pixels, half rows
    return rows


def _stipple_mask(rows, size):
    ys, xs = np.mgrid[0:size, 0:size]
    bits = np.array(rows, np.uint64)[ys % 32]
    return ((bits >> (31 - xs % 32).astype(np.uint64)) & 1).astype(bool)


def test_polygon_stipple(screen, ctx):
    size = 40  # wider than the 32-pixel pattern: it repeats
    color, _ = render_target(ctx, size, size)
    bind_shaders(ctx)
    rows = _pattern()
    ctx.set_polygon_stipple(PolyStipple(stipple=rows))
    rast(ctx, poly_stipple_enable=True)
    img = draw_image(ctx, color, fullscreen(size), Prim.TRIANGLES)
    assert np.array_equal(lit(img), _stipple_mask(rows, size))
    variants = screen.counters.shader_variants
    inverted = [~r & 0xFFFFFFFF for r in rows]
    ctx.set_polygon_stipple(PolyStipple(stipple=inverted))
    img = draw_image(ctx, color, fullscreen(size), Prim.TRIANGLES)
    assert np.array_equal(lit(img), _stipple_mask(inverted, size))
    assert screen.counters.shader_variants == variants
    rast(ctx, poly_stipple_enable=False)
    assert lit(draw_image(ctx, color, fullscreen(size), Prim.TRIANGLES)).all()


def test_set_polygon_stipple_validates(ctx):
    with pytest.raises(InvalidArgumentError, match="PolyStipple"):
        ctx.set_polygon_stipple([0] * 32)
    with pytest.raises(InvalidArgumentError, match=r"stipple\[3\]"):
        ctx.set_polygon_stipple(PolyStipple(stipple=[0, 0, 0, 1 << 32]))


# ---------------------------------------------------------------------------
# Window rectangles
# ---------------------------------------------------------------------------

RECTS = (ScissorState(minx=1, miny=2, maxx=5, maxy=9), ScissorState(minx=4, miny=10, maxx=15, maxy=13))


def _inside(rects, size=SIZE):
    m = np.zeros((size, size), bool)
    for r in rects:
        m[r.miny : r.maxy, r.minx : r.maxx] = True
    return m


@pytest.mark.parametrize("include", [True, False])
@pytest.mark.parametrize("count", [0, 1, 2])
def test_window_rectangles(screen, ctx, include, count):
    color = setup(ctx)
    rast(ctx)
    rects = RECTS[:count]
    ctx.set_window_rectangles(include, rects)
    img = draw_image(ctx, color, fullscreen(), Prim.TRIANGLES)
    inside = _inside(rects)
    assert np.array_equal(lit(img), inside if include else ~inside)


def test_window_rectangles_move_without_recompiling_and_spare_clears(screen, ctx):
    color = setup(ctx)
    rast(ctx)
    ctx.set_window_rectangles(True, RECTS)
    draw_image(ctx, color, fullscreen(), Prim.TRIANGLES)
    variants = screen.counters.shader_variants
    moved = (ScissorState(minx=0, miny=0, maxx=3, maxy=3), ScissorState(minx=10, miny=1, maxx=16, maxy=16))
    ctx.set_window_rectangles(True, moved)
    img = draw_image(ctx, color, fullscreen(), Prim.TRIANGLES)
    assert np.array_equal(lit(img), _inside(moved))
    assert screen.counters.shader_variants == variants
    # Window rectangles apply to draws only (context.rst): a clear writes everywhere.
    ctx.set_window_rectangles(True, ())
    ctx.clear(glpipe.Clear.COLOR0, None, (0.25, 0.5, 0.75, 1.0), 0.0, 0)
    assert np.all(read_rgba32f(screen, color) == (0.25, 0.5, 0.75, 1.0))
    zero_fill(screen, color)
    draw(ctx, fullscreen(), Prim.TRIANGLES)
    assert not lit(read_rgba32f(screen, color)).any()


def test_set_window_rectangles_validates(ctx):
    with pytest.raises(InvalidArgumentError, match="at most 8"):
        ctx.set_window_rectangles(True, [ScissorState(maxx=1, maxy=1)] * 9)
    with pytest.raises(InvalidArgumentError, match=r"rects\[0\] is not a ScissorState"):
        ctx.set_window_rectangles(True, [(0, 0, 1, 1)])
    with pytest.raises(InvalidArgumentError, match="max < min"):
        ctx.set_window_rectangles(False, [ScissorState(minx=4, maxx=2, maxy=1)])


def test_set_clip_state_validates(ctx):
    with pytest.raises(InvalidArgumentError, match="ClipState"):
        ctx.set_clip_state([(0.0, 0.0, 0.0, 1.0)])


def test_clip_plane_enable_beyond_the_host_is_refused(screen, ctx):
    limit = min(screen.profile.limit("GL_MAX_CLIP_DISTANCES"), 8)
    ctx.create_rasterizer_state(RasterizerState(clip_plane_enable=(1 << limit) - 1))
    if limit < 8:
        from lowering.errors import UnsupportedError

        with pytest.raises(UnsupportedError, match="clip_plane_enable"):
            ctx.create_rasterizer_state(RasterizerState(clip_plane_enable=1 << limit))


def test_all_eight_user_planes(screen, ctx):
    """PIPE_CAP_CLIP_PLANES = 1 means PIPE_MAX_CLIP_PLANES (8): every plane clips."""
    if screen.profile.limit("GL_MAX_CLIP_DISTANCES") < 8:
        pytest.skip("the host has fewer than 8 clip distances (the cap then says how many)")
    color = setup(ctx)
    planes = [
        (-1.0, 0.0, 0.0, 0.75 - 0.0625 * i) if i % 2 == 0 else (0.0, 1.0, 0.0, 0.75 - 0.0625 * i) for i in range(8)
    ]
    ctx.set_clip_state(ClipState(ucp=planes))
    rast(ctx, clip_plane_enable=0xFF)
    img = draw_image(ctx, color, fullscreen(), Prim.TRIANGLES)
    vx, vy = ndc_centres()
    assert np.array_equal(lit(img), _kept(planes, vx, vy))
    assert 0 < lit(img).sum() < SIZE * SIZE


def test_eight_window_rectangles_and_no_more(screen, ctx):
    """PIPE_CAP_MAX_WINDOW_RECTANGLES = 8: eight work, nine are refused."""
    color = setup(ctx)
    rast(ctx)
    rects = tuple(ScissorState(minx=2 * i, miny=i, maxx=2 * i + 1, maxy=i + 3) for i in range(8))
    ctx.set_window_rectangles(True, rects)
    img = draw_image(ctx, color, fullscreen(), Prim.TRIANGLES)
    assert np.array_equal(lit(img), _inside(rects))
    with pytest.raises(InvalidArgumentError, match="at most 8"):
        ctx.set_window_rectangles(True, rects + (ScissorState(maxx=1, maxy=1),))


def test_polygon_stipple_leaves_lines_alone(screen, ctx):
    """Gallium's polygon stipple applies to polygons only."""
    color = setup(ctx)
    ctx.set_polygon_stipple(PolyStipple(stipple=[0x55555555] * 32))
    rast(ctx, poly_stipple_enable=True)
    img = draw_image(ctx, color, vertices([(1.0, 8.5), (15.0, 8.5)], WHITE), Prim.LINES)
    assert lit(img)[8, 2:14].all()
