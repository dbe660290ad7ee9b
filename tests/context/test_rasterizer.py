"""Rasterizer state (cso/rasterizer.rst), on both profiles, checked on pixels.

Every expectation is computed here from the Gallium / GL definitions --
coverage of pixel centres (or of the host's sample positions, read through
raw GL), the polygon offset formula of GL 4.5 §14.6.5 with a D32F buffer
(r = 2^(e - 23)), the viewport transform -- never from what glpipe drew.
Fields the host cannot honour must raise UnsupportedError naming the field
(docs/rasterizer.md).
"""

from __future__ import annotations

import numpy as np
import pytest

import glpipe
from glpipe import (
    Cap,
    CapF,
    Face,
    Format,
    PolygonMode,
    Prim,
    RasterizerState,
    ScissorState,
    ShaderState,
    SpriteCoord,
    ViewportState,
)
from glpipe.enums import ConservativeRaster
from lowering.errors import InvalidArgumentError, ObjectDestroyedError, UnsupportedError

from .util import read_rgba32f
from .util_draw import (
    FLAT_FS,
    SIZE,
    lit,
    rect_tris,
    setup,
    triangle_coverage,
    vertices,
    zero_fill,
)
from .util_fastpath import requires_fast_path
from .util_raster import (
    BLUE,
    COLOR_FS,
    GREEN,
    RED,
    SMOOTH_FS,
    TRIANGLES_TES,
    TWO_SIDE_VS,
    WHITE,
    bind_shaders,
    covered_by_centres,
    depth_target,
    draw,
    draw_image,
    gallium_front,
    msaa_target,
    rast,
    read_depth,
    resolve_msaa,
    sample_positions,
    signed_area,
    tri_vertices,
)


@pytest.fixture
def caps(screen):
    """The screen's caps (the ``draw`` and ``shaders`` rows this module proves
    are delivered)."""
    return screen.caps


# ---------------------------------------------------------------------------
# Culling and winding
# ---------------------------------------------------------------------------

# Gallium's det (docs/rasterizer.md "Winding") > 0: clockwise on Gallium's
# y-down window (front with front_ccw False), counter-clockwise for GL.
POS_TRI = ((1.0, 1.0), (7.0, 2.0), (2.0, 14.0))
NEG_TRI = ((9.0, 1.0), (10.0, 14.0), (15.0, 2.0))  # det < 0


@pytest.mark.parametrize("front_ccw", [False, True])
@pytest.mark.parametrize("cull", list(Face))
def test_cull_face_and_front_ccw(screen, ctx, cull, front_ccw):
    assert signed_area(POS_TRI) > 0 > signed_area(NEG_TRI)
    color = setup(ctx)
    rast(ctx, cull_face=cull, front_ccw=front_ccw)
    verts = np.concatenate([vertices(POS_TRI, RED), vertices(NEG_TRI, GREEN)])
    img = draw_image(ctx, color, verts, Prim.TRIANGLES)
    expected = np.zeros((SIZE, SIZE, 4), np.float32)
    ambiguous = np.zeros((SIZE, SIZE), bool)
    for tri, col in ((POS_TRI, RED), (NEG_TRI, GREEN)):
        front = gallium_front(tri, front_ccw)
        face = Face.FRONT if front else Face.BACK
        cov, amb = triangle_coverage([tri])
        ambiguous |= amb
        if not cull & face:
            expected[cov] = col
    sure = ~ambiguous
    assert np.array_equal(img[sure], expected[sure])
    if cull != Face.FRONT_AND_BACK:
        assert lit(img).any()


# ---------------------------------------------------------------------------
# Fill modes
# ---------------------------------------------------------------------------

BIG_TRI = ((1.5, 1.5), (14.5, 1.5), (1.5, 14.5))  # vertices at pixel centres; hypotenuse x + y = 16


def _edge_distance(tri):
    """Per pixel centre: distance to the nearest edge of ``tri`` and whether it is inside."""
    ys, xs = np.mgrid[0:SIZE, 0:SIZE] + 0.5
    dist = np.full((SIZE, SIZE), np.inf)
    for (ax, ay), (bx, by) in zip(tri, tri[1:] + tri[:1], strict=True):
        dx, dy = bx - ax, by - ay
        t = np.clip(((xs - ax) * dx + (ys - ay) * dy) / (dx * dx + dy * dy), 0, 1)
        dist = np.minimum(dist, np.hypot(xs - ax - t * dx, ys - ay - t * dy))
    inside = covered_by_centres([tri])
    return dist, inside


def test_fill_line_draws_the_outline_only(screen, ctx):
    color = setup(ctx)
    rast(ctx, fill_front=PolygonMode.LINE, fill_back=PolygonMode.LINE)
    img = draw_image(ctx, color, vertices(BIG_TRI, WHITE), Prim.TRIANGLES)
    on = lit(img)
    # Presence: pixels whose centre lies on an edge (away from the corners).
    for k in range(3, 12):
        assert on[1, k] and on[k, 1] and on[15 - k, k], k
    # Absence: pixels more than a pixel away from every edge, inside or out.
    dist, inside = _edge_distance(list(BIG_TRI))
    assert not on[dist > 1.0].any()
    assert inside[dist > 1.0].any() and (~inside)[dist > 1.0].any()


def test_fill_point_draws_the_vertices_only(screen, ctx):
    color = setup(ctx)
    rast(ctx, fill_front=PolygonMode.POINT, fill_back=PolygonMode.POINT, point_size=1.0)
    img = draw_image(ctx, color, vertices(BIG_TRI, WHITE), Prim.TRIANGLES)
    expected = np.zeros((SIZE, SIZE), bool)
    for x, y in BIG_TRI:
        expected[int(y), int(x)] = True
    assert np.array_equal(lit(img), expected)


def test_fill_modes_of_a_culled_face_do_not_count(screen, ctx):
    """fill_back differs from fill_front but back faces are culled: accepted,
    front faces drawn in their mode."""
    color = setup(ctx)
    tri = BIG_TRI if gallium_front(BIG_TRI, front_ccw=True) else BIG_TRI[::-1]
    rast(ctx, front_ccw=True, cull_face=Face.BACK, fill_front=PolygonMode.LINE, fill_back=PolygonMode.FILL)
    img = draw_image(ctx, color, vertices(tri, WHITE), Prim.TRIANGLES)
    dist, inside = _edge_distance(list(tri))
    assert lit(img)[1, 5] and not lit(img)[inside & (dist > 1.0)].any()


def test_fill_rectangle_is_refused(ctx):
    # (Different modes for the two faces work: tests/context/test_fill_modes.py.)
    with pytest.raises(UnsupportedError, match="FILL_RECTANGLE"):
        ctx.create_rasterizer_state(
            RasterizerState(fill_front=PolygonMode.FILL_RECTANGLE, fill_back=PolygonMode.FILL_RECTANGLE)
        )


# ---------------------------------------------------------------------------
# Polygon offset (D32F: r = 2^(e - 23), e the exponent of the largest depth)
# ---------------------------------------------------------------------------


def _float_r(zmax: float) -> float:
    return 2.0 ** (np.floor(np.log2(zmax)) - 23)


def _offset_setup(ctx):
    _, zs = depth_target(ctx)
    bind_shaders(ctx)
    return zs


def test_offset_units_with_a_float_depth_buffer(screen, ctx):
    zs = _offset_setup(ctx)
    tri = tri_vertices([(0, 0), (32, 0), (0, 32)], z=0.0)  # window depth 0.5 everywhere
    rast(ctx, offset_tri=True, offset_units=1000.0)
    draw(ctx, tri, Prim.TRIANGLES)
    depth = read_depth(screen, zs)
    assert np.all(depth[2:12, 2:12] == np.float32(0.5 + 1000.0 * _float_r(0.5)))
    rast(ctx, offset_tri=False, offset_units=1000.0)  # the switch off: no offset
    draw(ctx, tri, Prim.TRIANGLES)
    assert np.all(read_depth(screen, zs)[2:12, 2:12] == 0.5)


def test_offset_scale_follows_the_depth_slope(screen, ctx):
    zs = _offset_setup(ctx)
    # NDC z 0 at window x 0 to 0.5 at window x 32, constant in y: dz/dx = 0.25/32
    # per pixel, dz/dy = 0, so both of GL's choices for m give 1/128.
    tri = tri_vertices([(0, 0), (32, 0), (0, 32)], z=[0.0, 0.5, 0.0])
    rast(ctx, offset_tri=True, offset_scale=2.0)
    draw(ctx, tri, Prim.TRIANGLES)
    depth = read_depth(screen, zs)
    xs = np.arange(SIZE) + 0.5
    plain = 0.5 + 0.25 * xs / 32
    expected = plain + 2.0 / 128
    assert np.allclose(depth[3, :12], expected[:12], atol=1e-6)
    assert np.allclose(depth[8, :6], expected[:6], atol=1e-6)


def test_offset_clamp(screen, ctx, caps):
    if not screen.profile.has("polygon_offset_clamp"):
        assert caps.param[Cap.POLYGON_OFFSET_CLAMP] == 0
        with pytest.raises(UnsupportedError, match="offset_clamp"):
            ctx.create_rasterizer_state(RasterizerState(offset_tri=True, offset_scale=2.0, offset_clamp=0.001))
        # A clamp with every offset off is harmless and accepted.
        ctx.create_rasterizer_state(RasterizerState(offset_clamp=0.001))
        return
    assert caps.param[Cap.POLYGON_OFFSET_CLAMP] == 1
    zs = _offset_setup(ctx)
    tri = tri_vertices([(0, 0), (32, 0), (0, 32)], z=[0.0, 0.5, 0.0])
    xs = np.arange(SIZE) + 0.5
    plain = 0.5 + 0.25 * xs / 32
    for clamp, offset in ((0.001, 0.001), (-0.001, 2.0 / 128), (0.5, 2.0 / 128)):
        rast(ctx, offset_tri=True, offset_scale=2.0, offset_clamp=clamp)
        draw(ctx, tri, Prim.TRIANGLES)
        assert np.allclose(read_depth(screen, zs)[3, :12], plain[:12] + offset, atol=1e-6), clamp
    # A negative offset is bounded below by a negative clamp.
    rast(ctx, offset_tri=True, offset_scale=-2.0, offset_clamp=-0.001)
    draw(ctx, tri, Prim.TRIANGLES)
    assert np.allclose(read_depth(screen, zs)[3, :12], plain[:12] - 0.001, atol=1e-6)


@pytest.mark.parametrize("mode, flag", [(PolygonMode.LINE, "offset_line"), (PolygonMode.POINT, "offset_point")])
def test_offset_of_line_and_point_filled_polygons(screen, ctx, mode, flag):
    """offset_line / offset_point apply to polygons drawn in LINE / POINT fill
    mode; offset_tri does not."""
    zs = _offset_setup(ctx)
    tri = tri_vertices(BIG_TRI, z=0.0)
    units = 4096.0
    want = np.float32(0.5 + units * _float_r(0.5))
    for fields, expect in (({flag: True}, want), ({"offset_tri": True}, np.float32(0.5))):
        from .util_raster import clear_depth

        clear_depth(screen, zs, 1.0)
        rast(ctx, fill_front=mode, fill_back=mode, offset_units=units, **fields)
        draw(ctx, tri, Prim.TRIANGLES)
        depth = read_depth(screen, zs)
        drawn = depth != 1.0
        assert drawn[1, 1] and drawn.sum() >= 3
        assert np.all(depth[drawn] == expect), fields


# ---------------------------------------------------------------------------
# Scissor, rasterizer discard (both re-emitted after a clear clobbers them)
# ---------------------------------------------------------------------------


def test_scissor_enable(screen, ctx):
    color = setup(ctx)
    ctx.set_scissor_states(0, [ScissorState(minx=3, miny=2, maxx=9, maxy=13)])
    quad = vertices([p for t in rect_tris(0, 0, 16, 16) for p in t], WHITE)
    rast(ctx, scissor=True)
    img = draw_image(ctx, color, quad, Prim.TRIANGLES)
    expected = np.zeros((SIZE, SIZE), bool)
    expected[2:13, 3:9] = True
    assert np.array_equal(lit(img), expected)
    # A clear switches GL's scissor test off; the next draw must turn it back on.
    ctx.clear(glpipe.Clear.COLOR0, None, (0.0, 0.0, 0.0, 0.0), 0.0, 0)
    draw(ctx, quad, Prim.TRIANGLES)
    assert np.array_equal(lit(read_rgba32f(screen, color)), expected)
    rast(ctx, scissor=False)
    img = draw_image(ctx, color, quad, Prim.TRIANGLES)
    assert lit(img).all()


def test_rasterizer_discard(screen, ctx):
    color = setup(ctx)
    quad = vertices([p for t in rect_tris(0, 0, 16, 16) for p in t], WHITE)
    rast(ctx, rasterizer_discard=True)
    assert not lit(draw_image(ctx, color, quad, Prim.TRIANGLES)).any()
    # A clear turns GL's discard off (clears must write): the next draw turns it on again.
    ctx.clear(glpipe.Clear.COLOR0, None, (0.0, 0.0, 0.0, 0.0), 0.0, 0)
    assert not lit(draw_image(ctx, color, quad, Prim.TRIANGLES)).any()
    rast(ctx, rasterizer_discard=False)
    assert lit(draw_image(ctx, color, quad, Prim.TRIANGLES)).all()


# ---------------------------------------------------------------------------
# Flat shading and the provoking vertex
# ---------------------------------------------------------------------------

COLOR_VS = """VERT
DCL IN[0]
DCL IN[1]
DCL OUT[0], POSITION
DCL OUT[1], COLOR
  0: MOV OUT[0], IN[0]
  1: MOV OUT[1], IN[1]
  2: END
"""


@pytest.mark.parametrize("first", [True, False])
def test_flatshade_uses_the_provoking_vertex(screen, ctx, first):
    color = setup(ctx, vs=COLOR_VS, fs=COLOR_FS)
    tri = BIG_TRI
    cols = np.array([RED, GREEN, BLUE], np.float32)
    rast(ctx, flatshade=True, flatshade_first=first)
    img = draw_image(ctx, color, vertices(tri, cols), Prim.TRIANGLES)
    cov, amb = triangle_coverage([tri])
    want = cols[0] if first else cols[2]
    assert np.all(img[cov & ~amb] == want)
    # Without flatshade, COLOR-interpolated inputs are smooth: the interior mixes.
    rast(ctx, flatshade=False, flatshade_first=first)
    img = draw_image(ctx, color, vertices(tri, cols), Prim.TRIANGLES)
    mid = img[5, 5]
    assert 0 < mid[0] < 1 and 0 < mid[1] < 1 and 0 < mid[2] < 1


@pytest.mark.parametrize("first", [True, False])
def test_flatshade_first_picks_the_provoking_vertex_of_flat_inputs_and_quads(screen, ctx, first):
    """CONSTANT inputs use the provoking vertex too (glProvokingVertex), and
    QUADS (index translation) follow the convention: first = v0, last = v3."""
    color = setup(ctx, fs=FLAT_FS)
    cols = np.array([RED, GREEN, BLUE, WHITE], np.float32)
    rast(ctx, flatshade_first=first)
    img = draw_image(ctx, color, vertices(BIG_TRI, cols[:3]), Prim.TRIANGLES)
    cov, amb = triangle_coverage([BIG_TRI])
    assert np.all(img[cov & ~amb] == (cols[0] if first else cols[2]))
    quad = [(2.0, 2.0), (14.0, 2.0), (14.0, 14.0), (2.0, 14.0)]
    img = draw_image(ctx, color, vertices(quad, cols), Prim.QUADS)
    assert np.all(img[3:13, 3:13] == (cols[0] if first else cols[3]))


# ---------------------------------------------------------------------------
# Two-sided colour, colour clamping (variants)
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("twoside", [False, True])
def test_light_twoside_reads_the_back_colour_on_back_faces(screen, ctx, twoside):
    color = setup(ctx, vs=TWO_SIDE_VS, fs=COLOR_FS)
    rast(ctx, light_twoside=twoside, front_ccw=True)
    front_tri, back_tri = (NEG_TRI, POS_TRI)
    assert gallium_front(front_tri, True) and not gallium_front(back_tri, True)
    verts = np.concatenate([vertices(front_tri, RED), vertices(back_tri, RED)])
    img = draw_image(ctx, color, verts, Prim.TRIANGLES)
    front, famb = triangle_coverage([front_tri])
    back, bamb = triangle_coverage([back_tri])
    assert np.all(img[front & ~famb] == RED)
    assert np.all(img[back & ~bamb] == (BLUE if twoside else RED))


def test_light_twoside_without_a_back_colour_keeps_the_front_colour(screen, ctx):
    color = setup(ctx, vs=COLOR_VS, fs=COLOR_FS)
    rast(ctx, light_twoside=True, front_ccw=True)
    assert not gallium_front(POS_TRI, True)
    img = draw_image(ctx, color, vertices(POS_TRI, GREEN), Prim.TRIANGLES)
    back, bamb = triangle_coverage([POS_TRI])
    assert np.all(img[back & ~bamb] == GREEN)


UNCLAMPED = (2.0, -1.0, 0.5, 3.0)


def test_clamp_vertex_color(screen, ctx):
    color = setup(ctx, vs=COLOR_VS, fs=COLOR_FS)
    quad = vertices([p for t in rect_tris(0, 0, 16, 16) for p in t], UNCLAMPED)
    rast(ctx, clamp_vertex_color=True)
    assert np.all(draw_image(ctx, color, quad, Prim.TRIANGLES) == np.clip(UNCLAMPED, 0, 1))
    rast(ctx, clamp_vertex_color=False)
    assert np.all(draw_image(ctx, color, quad, Prim.TRIANGLES) == np.float32(UNCLAMPED))


CONST_FS = """FRAG
DCL OUT[0], COLOR
IMM[0] FLT32 {    2.0000,    -0.5000,     0.2500,     4.0000}
  0: MOV OUT[0], IMM[0]
  1: END
"""


def test_clamp_fragment_color(screen, ctx):
    color = setup(ctx, fs=CONST_FS)
    quad = vertices([p for t in rect_tris(0, 0, 16, 16) for p in t], WHITE)
    rast(ctx, clamp_fragment_color=True)
    assert np.all(draw_image(ctx, color, quad, Prim.TRIANGLES) == (1.0, 0.0, 0.25, 1.0))
    rast(ctx, clamp_fragment_color=False)
    assert np.all(draw_image(ctx, color, quad, Prim.TRIANGLES) == (2.0, -0.5, 0.25, 4.0))


# ---------------------------------------------------------------------------
# Points and lines
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, 8])
def test_point_of_size_n_covers_n_by_n_pixels(screen, ctx, n):
    color = setup(ctx)
    # Odd sizes centred on a pixel centre, even ones on a pixel corner: the
    # square's edges then fall between pixel centres (no ties).
    c = 8.5 if n % 2 else 8.0
    rast(ctx, point_size=float(n))
    img = draw_image(ctx, color, vertices([(c, c)], WHITE), Prim.POINTS)
    expected = np.zeros((SIZE, SIZE), bool)
    lo = int(c - n / 2 + 0.5)
    expected[lo : lo + n, lo : lo + n] = True
    assert np.array_equal(lit(img), expected)


PSIZE_VS = """VERT
DCL IN[0]
DCL IN[1]
DCL OUT[0], POSITION
DCL OUT[1], GENERIC[0]
DCL OUT[2], PSIZE
  0: MOV OUT[0], IN[0]
  1: MOV OUT[1], IN[1]
  2: MOV OUT[2], IN[1].wwww
  3: END
"""


def test_point_size_per_vertex(screen, ctx):
    """point_size_per_vertex: each point takes the PSIZE its VS writes (here
    the colour's alpha), not point_size."""
    color = setup(ctx, vs=PSIZE_VS)
    pts = [(3.5, 3.5), (11.5, 11.5)]
    cols = [(1.0, 1.0, 1.0, 3.0), (1.0, 1.0, 1.0, 5.0)]
    rast(ctx, point_size=1.0, point_size_per_vertex=True)
    img = draw_image(ctx, color, vertices(pts, cols), Prim.POINTS)
    expected = np.zeros((SIZE, SIZE), bool)
    expected[2:5, 2:5] = True
    expected[9:14, 9:14] = True
    assert np.array_equal(lit(img), expected)
    rast(ctx, point_size=1.0, point_size_per_vertex=False)
    img = draw_image(ctx, color, vertices(pts, cols), Prim.POINTS)
    expected = np.zeros((SIZE, SIZE), bool)
    expected[3, 3] = expected[11, 11] = True
    assert np.array_equal(lit(img), expected)


@pytest.mark.parametrize("mode", [SpriteCoord.UPPER_LEFT, SpriteCoord.LOWER_LEFT])
def test_sprite_coord_replaces_the_generic_input(screen, ctx, mode):
    color = setup(ctx, fs=SMOOTH_FS)
    rast(ctx, point_size=8.0, point_quad_rasterization=True, sprite_coord_enable=1, sprite_coord_mode=mode)
    img = draw_image(ctx, color, vertices([(8.0, 8.0)], RED), Prim.POINTS)
    # Pixels 4..11 each way; s grows with x from the left edge (x = 4), t from
    # the edge Gallium names: UPPER_LEFT = window row 0's side (smallest y).
    centres = (np.arange(4, 12) + 0.5 - 4.0) / 8.0
    s = np.broadcast_to(centres[None, :], (8, 8))
    t = np.broadcast_to(centres[:, None], (8, 8))
    if mode == SpriteCoord.LOWER_LEFT:
        t = 1.0 - t
    sprite = img[4:12, 4:12]
    assert np.allclose(sprite[..., 0], s, atol=1e-5) and np.allclose(sprite[..., 1], t, atol=1e-5)
    assert np.all(sprite[..., 2:] == (0.0, 1.0))
    assert lit(img).sum() == 64
    # Not enabled: the varying is the vertex's colour.
    rast(ctx, point_size=8.0, point_quad_rasterization=True)
    img = draw_image(ctx, color, vertices([(8.0, 8.0)], RED), Prim.POINTS)
    assert np.all(img[4:12, 4:12] == RED)
    # Enabled without point_quad_rasterization: cso/rasterizer.rst says "point
    # sprite coordinates are not generated", so the varying is the colour again.
    rast(ctx, point_size=8.0, point_quad_rasterization=False, sprite_coord_enable=1, sprite_coord_mode=mode)
    img = draw_image(ctx, color, vertices([(8.0, 8.0)], RED), Prim.POINTS)
    assert np.all(img[4:12, 4:12] == RED)


@pytest.mark.parametrize("width", [1, 3, 5])
def test_line_width(screen, ctx, caps, width):
    assert caps.paramf[CapF.MAX_LINE_WIDTH] >= 5.0
    color = setup(ctx)
    rast(ctx, line_width=float(width))
    img = draw_image(ctx, color, vertices([(2.5, 8.5), (13.5, 8.5)], WHITE), Prim.LINES)
    rows = np.flatnonzero(lit(img)[:, 6])
    assert list(rows) == list(range(8 - width // 2, 8 + width // 2 + 1))
    assert np.all(lit(img)[8, 3:12])
    img = draw_image(ctx, color, vertices([(7.5, 2.5), (7.5, 13.5)], WHITE), Prim.LINES)
    cols = np.flatnonzero(lit(img)[6, :])
    assert list(cols) == list(range(7 - width // 2, 7 + width // 2 + 1))


def test_line_smooth_gives_fractional_coverage(screen, ctx):
    """line_smooth (GL_LINE_SMOOTH, or glpipe's own antialiased lines on a
    host with the smooth_line_crash quirk): a diagonal line's edge pixels
    carry fractional coverage in alpha; an aliased line's pixels are all or
    nothing.  (Their exact coverage: test_smooth_lines.py.)"""
    color = setup(ctx)
    seg = vertices([(2.0, 3.0), (14.0, 12.0)], WHITE)
    rast(ctx, line_smooth=True, line_width=1.0)
    alpha = draw_image(ctx, color, seg, Prim.LINES)[..., 3]
    assert ((alpha > 0.01) & (alpha < 0.99)).sum() >= 10
    rast(ctx, line_smooth=False, line_width=1.0)
    alpha = draw_image(ctx, color, seg, Prim.LINES)[..., 3]
    assert set(np.unique(alpha)) <= {0.0, 1.0} and (alpha == 1).sum() >= 10
    # A wide smooth line (GL_SMOOTH_LINE_WIDTH_RANGE): a fully covered core, soft edges.
    rast(ctx, line_smooth=True, line_width=3.0)
    alpha = draw_image(ctx, color, seg, Prim.LINES)[..., 3]
    assert (alpha > 0.99).sum() >= 10 and ((alpha > 0.01) & (alpha < 0.99)).sum() >= 10


def test_poly_smooth_is_passed_to_the_host(screen, ctx):
    """GL_POLYGON_SMOOTH is a request the host may fulfil or not (llvmpipe
    does not antialias polygons, docs/rasterizer.md): glpipe forwards it."""
    color = setup(ctx)
    gl = screen.host.gl
    rast(ctx, poly_smooth=True)
    draw_image(ctx, color, vertices(BIG_TRI, WHITE), Prim.TRIANGLES)
    assert gl.glIsEnabled(gl.GL_POLYGON_SMOOTH)
    rast(ctx, poly_smooth=False)
    draw_image(ctx, color, vertices(BIG_TRI, WHITE), Prim.TRIANGLES)
    assert not gl.glIsEnabled(gl.GL_POLYGON_SMOOTH)


# ---------------------------------------------------------------------------
# Depth clipping, clamping, clip_halfz
# ---------------------------------------------------------------------------


def test_depth_clip_disabled_clamps_depth(screen, ctx):
    color, zs = depth_target(ctx)
    bind_shaders(ctx)
    quad = [p for t in rect_tris(0, 0, 16, 16) for p in t]
    for z, clamped in ((1.5, 1.0), (-1.5, 0.0)):
        from .util_raster import clear_depth

        clear_depth(screen, zs, 0.25)
        rast(ctx)  # clipping on: the whole quad is outside the depth range
        assert not lit(draw_image(ctx, color, tri_vertices(quad, z=z), Prim.TRIANGLES)).any()
        rast(ctx, depth_clip_near=False, depth_clip_far=False)
        img = draw_image(ctx, color, tri_vertices(quad, z=z), Prim.TRIANGLES)
        assert lit(img).all()
        assert np.all(read_depth(screen, zs) == clamped)


def test_clip_halfz(screen, ctx, caps):
    # glClipControl natively, the vertex-stage remap on gl33 (test_halfz_pixel_center.py has more).
    assert caps.param[Cap.CLIP_HALFZ] == 1
    color, zs = depth_target(ctx)
    bind_shaders(ctx)
    quad = [p for t in rect_tris(0, 0, 16, 16) for p in t]
    # D3D-style viewport: window z = 0.5 * z_ndc + 0.25 over NDC z in [0, 1].
    ctx.set_viewport_states(0, [ViewportState(scale=(8.0, 8.0, 0.5), translate=(8.0, 8.0, 0.25))])
    rast(ctx, clip_halfz=True)
    for z in (0.0, 0.5, 0.875):
        draw_image(ctx, color, tri_vertices(quad, z=z), Prim.TRIANGLES)
        assert np.allclose(read_depth(screen, zs), 0.5 * z + 0.25, atol=1e-7), z
    # NDC z below 0 is outside the [0, w] clip volume: clipped.
    assert not lit(draw_image(ctx, color, tri_vertices(quad, z=-0.25), Prim.TRIANGLES)).any()
    # Without clip_halfz NDC z runs over [-1, 1]: z = -0.25 is drawn (a GL
    # viewport, window z = 0.5 * z_ndc + 0.5).
    ctx.set_viewport_states(0, [ViewportState(scale=(8.0, 8.0, 0.5), translate=(8.0, 8.0, 0.5))])
    rast(ctx, clip_halfz=False)
    img = draw_image(ctx, color, tri_vertices(quad, z=-0.25), Prim.TRIANGLES)
    assert lit(img).all()
    assert np.allclose(read_depth(screen, zs), 0.5 * -0.25 + 0.5, atol=1e-7)


# ---------------------------------------------------------------------------
# Pixel centres, edge rule
# ---------------------------------------------------------------------------


def test_half_pixel_center(screen, ctx):
    # Float viewports natively, the vertex-stage shift on gl33 (test_halfz_pixel_center.py has more).
    color = setup(ctx)
    tris = rect_tris(2.2, 3.3, 5.7, 9.6)
    verts = vertices([p for t in tris for p in t], WHITE)
    for half, offset in ((True, 0.5), (False, 0.0)):
        rast(ctx, half_pixel_center=half)
        img = draw_image(ctx, color, verts, Prim.TRIANGLES)
        assert np.array_equal(lit(img), covered_by_centres(tris, offset)), half
    # Integer centres: columns 3..5 and rows 4..9 (GL's half-integer: 2..5, 3..9).
    assert lit(img)[4:10, 3:6].all() and not lit(img)[:, 2].any()


def test_top_left_rule_with_y_zero_on_top(screen, ctx):
    """bottom_edge_rule = False: a pixel centre exactly on a top edge (the
    smaller window y) or a left edge is inside, on a bottom or right edge
    outside (Gallium's rule for FBOs, which the host follows)."""
    color = setup(ctx)
    rast(ctx, bottom_edge_rule=False)
    tris = rect_tris(2.5, 2.5, 6.5, 6.5)  # every edge through pixel centres
    img = draw_image(ctx, color, vertices([p for t in tris for p in t], WHITE), Prim.TRIANGLES)
    expected = np.zeros((SIZE, SIZE), bool)
    expected[2:6, 2:6] = True
    assert np.array_equal(lit(img), expected)
    # True: test_bottom_edge_rule.py (native; refused without glClipControl).


# ---------------------------------------------------------------------------
# Multisampling
# ---------------------------------------------------------------------------


def _msaa_ok(screen):
    return screen.is_format_supported(
        Format.R32G32B32A32_FLOAT, glpipe.Target.TEXTURE_2D, 4, 4, glpipe.Bind.RENDER_TARGET
    )


MS_TRI = ((1.3, 1.1), (14.7, 2.9), (3.1, 14.2))


@pytest.mark.parametrize("multisample", [True, False])
def test_multisample_on_a_4x_target(screen, ctx, multisample):
    if not _msaa_ok(screen):
        pytest.skip("the host cannot render RGBA32F at 4 samples")
    res = msaa_target(ctx)
    bind_shaders(ctx)
    rast(ctx, multisample=multisample)
    draw(ctx, vertices(MS_TRI, WHITE), Prim.TRIANGLES)
    img = resolve_msaa(screen, res)
    positions = sample_positions(screen, res)
    assert len(positions) == 4
    if multisample:
        cover = np.mean([_covered_at(MS_TRI, sx, sy) for sx, sy in positions], axis=0)
    else:
        cover = covered_by_centres([MS_TRI]).astype(np.float32)
    _, ambiguous = triangle_coverage([MS_TRI], margin=0.02)
    amb = ambiguous | _near_edge_samples(MS_TRI, positions)
    assert np.allclose(img[..., 3][~amb], cover[~amb], atol=1e-6)
    fractional = (img[..., 3] > 0) & (img[..., 3] < 1)
    assert fractional.any() == multisample


def _covered_at(tri, sx, sy):
    ys, xs = np.mgrid[0:SIZE, 0:SIZE].astype(np.float64)
    xs, ys = xs + sx, ys + sy
    (x0, y0), (x1, y1), (x2, y2) = tri
    sign = 1.0 if (x1 - x0) * (y2 - y0) - (x2 - x0) * (y1 - y0) > 0 else -1.0
    inside = np.ones((SIZE, SIZE), bool)
    for (ax, ay), (bx, by) in (((x0, y0), (x1, y1)), ((x1, y1), (x2, y2)), ((x2, y2), (x0, y0))):
        inside &= sign * ((bx - ax) * (ys - ay) - (by - ay) * (xs - ax)) > 0
    return inside.astype(np.float32)


def _near_edge_samples(tri, positions, margin=0.02):
    """Pixels with a sample point within ``margin`` of an edge (tie rule decides)."""
    ys, xs = np.mgrid[0:SIZE, 0:SIZE].astype(np.float64)
    near = np.zeros((SIZE, SIZE), bool)
    for sx, sy in positions:
        px, py = xs + sx, ys + sy
        for (ax, ay), (bx, by) in zip(tri, tri[1:] + tri[:1], strict=True):
            dx, dy = bx - ax, by - ay
            t = np.clip(((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy), 0, 1)
            near |= np.hypot(px - ax - t * dx, py - ay - t * dy) < margin
    return near


THRESHOLD_FS = """FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL OUT[0], COLOR
DCL TEMP[0]
IMM[0] FLT32 {    0.3312,     1.0000,     0.0000,     0.0000}
  0: SLT TEMP[0].x, IN[0].xxxx, IMM[0].xxxx
  1: MOV OUT[0], TEMP[0].xxxx
  2: END
"""


def test_force_persample_interp(screen, ctx, caps):
    """force_persample_interp: inputs are interpolated at each sample, so a
    threshold on an input that varies inside a pixel gives that pixel a
    fractional resolved value (the share of samples below the threshold)."""
    if not screen.profile.has("sample_shading"):
        assert caps.param[Cap.FORCE_PERSAMPLE_INTERP] == 0
        with pytest.raises(UnsupportedError, match="force_persample_interp"):
            ctx.create_rasterizer_state(RasterizerState(force_persample_interp=True))
        return
    if not _msaa_ok(screen):
        pytest.skip("the host cannot render RGBA32F at 4 samples")
    res = msaa_target(ctx)
    bind_shaders(ctx, fs=THRESHOLD_FS)
    # GENERIC[0].x = window x / 16 over a full-screen quad; the threshold
    # 0.3312 * 16 = 5.2992 lies inside pixel column 5.
    quad = [p for t in rect_tris(0, 0, 16, 16) for p in t]
    cols = [(x / 16.0, 0.0, 0.0, 1.0) for x, _ in quad]
    rast(ctx, multisample=True, force_persample_interp=True)
    draw(ctx, vertices(quad, cols), Prim.TRIANGLES)
    img = resolve_msaa(screen, res)[..., 0]
    positions = sample_positions(screen, res)
    xs = np.arange(SIZE)[:, None] + positions[None, :, 0]
    expected = np.mean(xs / 16.0 < np.float32(0.3312), axis=1)
    assert 0 < expected[5] < 1
    assert np.allclose(img, np.broadcast_to(expected[None, :], (SIZE, SIZE)), atol=1e-6)
    # Per-pixel shading: every pixel is all or nothing.
    rast(ctx, multisample=True, force_persample_interp=False)
    draw(ctx, vertices(quad, cols), Prim.TRIANGLES)
    img = resolve_msaa(screen, res)[..., 0]
    assert set(np.unique(img)) <= {0.0, 1.0}


# ---------------------------------------------------------------------------
# Viewport y flip, window-coordinate sysvals
# ---------------------------------------------------------------------------


def test_negative_viewport_y_scale_flips(screen, ctx):
    """window y = ndc_y * scale_y + translate_y with scale_y < 0: the image is
    mirrored, and facing is decided on the flipped window coordinates."""
    color = setup(ctx)
    ctx.set_viewport_states(0, [ViewportState(scale=(8.0, -8.0, 0.5), translate=(8.0, 8.0, 0.5))])
    ndc_tri = ((-0.75, 0.25), (0.75, 0.25), (-0.75, 0.875))  # CCW in NDC (y up)
    win_tri = tuple((8.0 * x + 8.0, -8.0 * y + 8.0) for x, y in ndc_tri)
    assert signed_area(win_tri) < 0  # Gallium's det < 0 once flipped
    verts = vertices(
        [((x + 1) * 8, (y + 1) * 8) for x, y in ndc_tri], RED
    )  # vertices() takes window coords of a +y viewport
    rast(ctx, front_ccw=True)
    img = draw_image(ctx, color, verts, Prim.TRIANGLES)
    cov, amb = triangle_coverage([win_tri])
    assert np.all(img[cov & ~amb] == RED) and not lit(img)[~cov & ~amb].any()
    # Front-facing in window coordinates (det < 0 with front_ccw): culled by
    # cull FRONT, kept by cull BACK.
    assert gallium_front(win_tri, front_ccw=True)
    rast(ctx, front_ccw=True, cull_face=Face.FRONT)
    assert not lit(draw_image(ctx, color, verts, Prim.TRIANGLES)).any()
    rast(ctx, front_ccw=True, cull_face=Face.BACK)
    img = draw_image(ctx, color, verts, Prim.TRIANGLES)
    assert np.all(img[cov & ~amb] == RED) and not lit(img)[~cov & ~amb].any()


def test_negative_viewport_x_scale_is_refused(ctx):
    with pytest.raises(UnsupportedError, match="negative x scale"):
        ctx.set_viewport_states(0, [ViewportState(scale=(-8.0, 8.0, 0.5), translate=(8.0, 8.0, 0.5))])


LOWER_LEFT_FS = """FRAG
PROPERTY FS_COORD_ORIGIN LOWER_LEFT
DCL IN[0], POSITION, LINEAR
DCL OUT[0], COLOR
  0: MOV OUT[0], IN[0]
  1: END
"""


def test_lower_left_fragment_coordinates_use_the_framebuffer_height(screen, ctx):
    """FS_COORD_ORIGIN LOWER_LEFT: y = height - window y, with the height
    from the sysvals block (a non-square framebuffer catches a mix-up)."""
    from .util import render_target

    w, h = 16, 12
    color, _ = render_target(ctx, w, h)
    zero_fill(screen, color)
    bind_shaders(ctx, fs=LOWER_LEFT_FS)
    rast(ctx)
    quad = vertices([p for t in rect_tris(0, 0, 2, 2) for p in t], WHITE, size=2)  # NDC -1..1
    draw(ctx, quad, Prim.TRIANGLES)
    img = read_rgba32f(screen, color)
    ys, xs = np.mgrid[0:h, 0:w] + 0.5
    assert np.allclose(img[..., 0], xs) and np.allclose(img[..., 1], h - ys)


# ---------------------------------------------------------------------------
# Tessellation defaults
# ---------------------------------------------------------------------------


def test_set_tess_state_default_levels(screen, ctx):
    """Without a TCS the default levels tessellate the patch: at level 1 a
    wireframe shows the triangle's outline only, at level 6 inner edges too."""
    if not screen.profile.has("tessellation_shader"):
        with pytest.raises(UnsupportedError, match="tessellation"):
            ctx.set_tess_state((2.0, 2.0, 2.0, 2.0), (2.0, 2.0))
        return
    color = setup(ctx)
    ctx.bind_tes_state(ctx.create_tes_state(ShaderState(tokens=TRIANGLES_TES)))
    ctx.set_patch_vertices(3)
    rast(ctx, fill_front=PolygonMode.LINE, fill_back=PolygonMode.LINE)
    dist, inside = _edge_distance(list(BIG_TRI))
    images = {}
    for level in (1.0, 6.0):
        ctx.set_tess_state((level,) * 4, (level, level))
        images[level] = lit(draw_image(ctx, color, vertices(BIG_TRI, WHITE), Prim.PATCHES))
        gl = screen.host.gl
        outer = np.zeros(4, np.float32)
        gl.glGetFloatv(gl.GL_PATCH_DEFAULT_OUTER_LEVEL, outer)
        assert np.all(outer == level)
    assert not images[1.0][inside & (dist > 1.0)].any()
    assert images[6.0][inside & (dist > 1.0)].sum() >= 10


def test_set_tess_state_rejects_bad_levels(screen, ctx):
    error = InvalidArgumentError if screen.profile.has("tessellation_shader") else UnsupportedError
    with pytest.raises(error, match="4 outer and 2 inner|tessellation"):
        ctx.set_tess_state((1.0, 1.0), (1.0, 1.0))


# ---------------------------------------------------------------------------
# Refusals: every field the host cannot honour names itself
# ---------------------------------------------------------------------------

REFUSED = [
    ("point_line_tri_clip", {"point_line_tri_clip": True, "point_quad_rasterization": True}),
    ("line_rectangular", {"line_rectangular": True}),
    ("conservative_raster_mode", {"conservative_raster_mode": ConservativeRaster.POST_SNAP}),
    ("tile_raster_order_fixed", {"tile_raster_order_fixed": True}),
    ("unclamped_fragment_depth_values", {"unclamped_fragment_depth_values": True}),
    ("representative_fragment_test", {"representative_fragment_test": True}),
]


@pytest.mark.parametrize("field, fields", REFUSED, ids=[r[0] for r in REFUSED])
def test_fields_the_host_cannot_honour_are_refused(ctx, field, fields):
    with pytest.raises(UnsupportedError, match=field):
        ctx.create_rasterizer_state(RasterizerState(**fields))


def test_accepted_combinations_that_look_refusable(ctx):
    """point_smooth with quad rasterization is ignored by Gallium's own rule;
    rectangular lines are GL's with multisampling or smoothing."""
    ctx.create_rasterizer_state(RasterizerState(point_smooth=True, point_quad_rasterization=True))
    ctx.create_rasterizer_state(RasterizerState(line_rectangular=True, multisample=True))
    ctx.create_rasterizer_state(RasterizerState(line_rectangular=True, line_smooth=True))


def test_point_smooth_caps_are_the_host_point_range(screen, caps):
    """point_smooth is a variant on both profiles (tests/context/test_prim_class.py),
    so the antialiased point range is the host's point range."""
    lo, hi = screen.profile.limit("GL_POINT_SIZE_RANGE")
    assert (caps.paramf[CapF.MIN_POINT_SIZE_AA], caps.paramf[CapF.MAX_POINT_SIZE_AA]) == (float(lo), float(hi))
    assert caps.paramf[CapF.MAX_POINT_SIZE_AA] >= 8.0


def test_bad_templates(ctx):
    with pytest.raises(InvalidArgumentError, match="RasterizerState"):
        ctx.create_rasterizer_state(glpipe.BlendState())
    with pytest.raises(InvalidArgumentError, match="point_size"):
        ctx.create_rasterizer_state(RasterizerState(point_size=-1.0))
    with pytest.raises(InvalidArgumentError, match="line_width"):
        ctx.create_rasterizer_state(RasterizerState(line_width=float("nan")))
    with pytest.raises(InvalidArgumentError, match="clip_plane_enable"):
        ctx.create_rasterizer_state(RasterizerState(clip_plane_enable=0x100))


# ---------------------------------------------------------------------------
# Binding, deleting, variants, redundant binds
# ---------------------------------------------------------------------------


def test_bind_delete_rules(screen, ctx):
    a = ctx.create_rasterizer_state(RasterizerState(point_size=1.0))
    ctx.bind_rasterizer_state(a)
    ctx.delete_rasterizer_state(a)  # the bound state: unbound
    assert ctx.rasterizer_part.rasterizer is None
    with pytest.raises(ObjectDestroyedError):
        ctx.bind_rasterizer_state(a)
    with pytest.raises(InvalidArgumentError):
        ctx.bind_rasterizer_state(glpipe.BlendState())
    other = screen.context_create()
    try:
        b = other.create_rasterizer_state(RasterizerState())
        with pytest.raises(InvalidArgumentError, match="another context"):
            ctx.bind_rasterizer_state(b)
    finally:
        other.destroy()
    c = ctx.create_rasterizer_state(RasterizerState())
    ctx.destroy_rasterizer_state(c)  # the spec's spelling
    assert c.destroyed


def test_redundant_binds_make_no_gl_call(screen, ctx):
    requires_fast_path(ctx)  # counts the fast path's GL calls (docs/debug.md)
    setup(ctx)
    a = rast(ctx, cull_face=Face.BACK, scissor=True)
    ctx.set_scissor_states(0, [ScissorState(minx=0, miny=0, maxx=16, maxy=16)])
    tri = vertices(BIG_TRI, WHITE)
    draw(ctx, tri, Prim.TRIANGLES)
    before = screen.counters.gl_state_calls
    ctx.bind_rasterizer_state(a)
    ctx.set_clip_state(ctx.rasterizer_part.clip_state)
    ctx.set_polygon_stipple(ctx.rasterizer_part.poly_stipple)
    ctx.set_window_rectangles(False, ())
    draw(ctx, tri, Prim.TRIANGLES)
    assert screen.counters.gl_state_calls == before
    # A real switch sends what differs -- the cull switch and the scissor
    # switch -- plus the rasterizer-discard switch, which a clear may have
    # changed behind the record: three calls, not the whole block.
    b = ctx.create_rasterizer_state(RasterizerState(point_size=1.0, line_width=1.0))
    ctx.bind_rasterizer_state(b)
    draw(ctx, tri, Prim.TRIANGLES)
    assert screen.counters.gl_state_calls == before + 2
    gl = screen.host.gl
    assert not gl.glIsEnabled(gl.GL_CULL_FACE) and not gl.glIsEnabled(gl.GL_SCISSOR_TEST)


def test_contexts_sharing_the_host_see_their_own_state(screen, ctx):
    """Two pipe contexts draw in turn on the one host GL context, each with its
    own rasterizer: every draw gets its context's culling and fill mode."""
    other = screen.context_create()
    try:
        colors = {}
        for c, fields in (
            (ctx, {"cull_face": Face.BACK, "front_ccw": True}),
            (other, {"fill_front": PolygonMode.LINE, "fill_back": PolygonMode.LINE}),
        ):
            colors[c] = setup(c)
            rast(c, **fields)
        verts = np.concatenate([vertices(POS_TRI, RED), vertices(NEG_TRI, GREEN)])
        assert gallium_front(NEG_TRI, True) and not gallium_front(POS_TRI, True)  # ctx culls POS_TRI
        cov_pos, amb_pos = triangle_coverage([POS_TRI])
        cov_neg, amb_neg = triangle_coverage([NEG_TRI])
        dist, inside = _edge_distance(list(POS_TRI))
        for _ in range(2):
            img = draw_image(ctx, colors[ctx], verts, Prim.TRIANGLES)
            assert np.all(img[cov_neg & ~amb_neg] == GREEN) and not lit(img)[cov_pos & ~amb_pos].any()
            img = draw_image(other, colors[other], verts, Prim.TRIANGLES)
            # Outlines: pixels on the edges lit, the inside not.
            assert lit(img)[dist < 0.25].sum() >= 5 and not lit(img)[inside & (dist > 1.0)].any()
    finally:
        other.destroy()


def test_raw_gl_changes_are_recovered_by_reset_rasterizer_shadow(screen, ctx):
    """Code that changes rasterizer GL state with raw GL tells the context
    (``_reset_rasterizer_shadow``); the next draw sends the whole block."""
    color = setup(ctx)
    rast(ctx)
    tri = vertices(BIG_TRI, WHITE)
    draw_image(ctx, color, tri, Prim.TRIANGLES)
    gl = screen.host.gl
    gl.glEnable(gl.GL_CULL_FACE)
    gl.glCullFace(gl.GL_FRONT_AND_BACK)
    gl.glPolygonMode(gl.GL_FRONT_AND_BACK, gl.GL_POINT)
    ctx.rasterizer_part._reset_rasterizer_shadow()
    img = draw_image(ctx, color, tri, Prim.TRIANGLES)
    cov, amb = triangle_coverage([BIG_TRI])
    assert np.all(lit(img)[cov & ~amb])


def test_only_variant_fields_recompile(screen, ctx):
    setup(ctx, vs=COLOR_VS, fs=COLOR_FS)
    tri = vertices(BIG_TRI, WHITE)
    rast(ctx)
    draw(ctx, tri, Prim.TRIANGLES)
    variants, programs = screen.counters.shader_variants, screen.counters.programs_linked
    # Fixed-function fields only: the same program.
    rast(ctx, cull_face=Face.FRONT, scissor=True, point_size=4.0, line_width=2.0, offset_tri=True)
    draw(ctx, tri, Prim.TRIANGLES)
    assert (screen.counters.shader_variants, screen.counters.programs_linked) == (variants, programs)
    # flatshade: the FS and the VS (COLOR varyings become flat) get variants, once.
    flat = rast(ctx, flatshade=True)
    draw(ctx, tri, Prim.TRIANGLES)
    assert screen.counters.shader_variants == variants + 2
    rast(ctx)
    draw(ctx, tri, Prim.TRIANGLES)
    ctx.bind_rasterizer_state(flat)
    draw(ctx, tri, Prim.TRIANGLES)
    assert screen.counters.shader_variants == variants + 2
    assert screen.counters.programs_linked == programs + 1


def test_the_default_state_when_nothing_is_bound(screen, ctx):
    """With no rasterizer bound the template defaults apply (no culling, fill,
    GL's pixel centres); point size and line width clamp to the host's minimum."""
    color = setup(ctx)
    ctx.bind_rasterizer_state(None)
    img = draw_image(ctx, color, vertices(BIG_TRI, WHITE), Prim.TRIANGLES)
    cov, amb = triangle_coverage([BIG_TRI])
    assert np.all(lit(img)[cov & ~amb]) and not lit(img)[~cov & ~amb].any()
    img = draw_image(ctx, color, vertices([(4.5, 4.5)], WHITE), Prim.POINTS)
    assert lit(img).sum() == 1 and lit(img)[4, 4]


def test_sprite_coord_enable_leaves_triangles_alone(screen, ctx):
    """sprite_coord_enable replaces inputs of points only (cso/rasterizer.rst)."""
    color = setup(ctx, fs=SMOOTH_FS)
    rast(ctx, point_quad_rasterization=True, sprite_coord_enable=1)
    img = draw_image(ctx, color, vertices(BIG_TRI, RED), Prim.TRIANGLES)
    cov, amb = triangle_coverage([BIG_TRI])
    assert np.all(img[cov & ~amb] == RED)


def test_rasterizer_caps_once_delivered(screen, caps):
    """What the rasterizer caps say once the ``draw`` row is on, each proven
    by the tests named."""
    p, f = caps.param, caps.paramf
    has = screen.profile.has
    expected = {
        Cap.FLATSHADE: 1,  # test_flatshade_uses_the_provoking_vertex
        Cap.TWO_SIDED_COLOR: 1,  # test_light_twoside_*
        Cap.VERTEX_COLOR_CLAMPED: 1,  # test_clamp_vertex_color
        Cap.FRAGMENT_COLOR_CLAMPED: 1,  # test_clamp_fragment_color
        Cap.POINT_SPRITE: 1,  # test_sprite_coord_replaces_the_generic_input
        Cap.POINT_SIZE_FIXED: 1,  # test_point_of_size_n_covers_n_by_n_pixels
        Cap.DEPTH_CLIP_DISABLE: int(has("depth_clamp")),  # test_depth_clip_disabled_clamps_depth
        Cap.DEPTH_CLIP_DISABLE_SEPARATE: int(has("depth_clamp")),  # test_depth_offset_clip.py
        Cap.DEPTH_CLAMP_ENABLE: 0,
        Cap.CLIP_HALFZ: 1,  # test_clip_halfz (a variant without clip_control)
        Cap.POLYGON_OFFSET_CLAMP: int(has("polygon_offset_clamp")),  # test_offset_clamp
        Cap.POLYGON_OFFSET_UNITS_UNSCALED: 1,  # test_depth_offset_clip.py
        Cap.FORCE_PERSAMPLE_INTERP: int(has("sample_shading")),  # test_force_persample_interp
        Cap.CLIP_PLANES: 1,  # test_all_eight_user_planes (8 host clip distances)
        Cap.MAX_WINDOW_RECTANGLES: 8,  # test_eight_window_rectangles_and_no_more
    }
    assert {cap: p[cap] for cap in expected} == expected
    assert f[CapF.MIN_LINE_WIDTH] == 1.0 and f[CapF.MAX_LINE_WIDTH] >= 5.0  # test_line_width
    assert f[CapF.MAX_LINE_WIDTH_AA] >= 1.0  # test_line_smooth_*
    assert f[CapF.MIN_POINT_SIZE] == 1.0 and f[CapF.MAX_POINT_SIZE] >= 8.0  # point size tests
    assert f[CapF.MIN_POINT_SIZE_AA] == 1.0 and f[CapF.MAX_POINT_SIZE_AA] >= 8.0  # point_smooth tests
