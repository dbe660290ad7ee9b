"""Antialiased lines (RasterizerState.line_smooth) on both profiles.

On a host with the ``smooth_line_crash`` quirk (glpipe/host/quirks.py; this
machine's llvmpipe) glpipe never enables the host's GL_LINE_SMOOTH and draws
the lines itself (lowering/glsl/passes/smooth_line.py).  The expectations are
GL's definition (GL 4.5 §14.5.2): an antialiased line is the rectangle of
width w centred on the segment, a fragment's coverage is the area of its
pixel square inside it -- computed here exactly for axis-aligned lines and
by supersampling each pixel (128 x 128) for slanted ones.  glpipe computes a
pixel's area between the two edges and its area between the two ends
exactly and multiplies them; the product is the area except in the pixels
where an edge meets an end, so slanted lines are held to 0.02 per pixel
(that corner error and the supersampling's) and to their area w * l in total.
"""

from __future__ import annotations

import numpy as np
import pytest

from glpipe import Face, PolygonMode, Prim, RasterizerState, ShaderState
from glpipe.host import quirks
from glpipe.raster.rasterizer_keys import KEY_LINE_SMOOTH
from lowering.errors import UnsupportedError

from .util_draw import lit, setup, vertices
from .util_raster import COLOR_FS, ISOLINES_TES, TWO_SIDE_VS, WHITE, draw_image, rast

SIZE = 32
CORNER_ERROR = 0.02  # per pixel, slanted lines (module docstring)


def rectangle_coverage(a, b, width, size=SIZE, n=128) -> np.ndarray:
    """(size, size) area of each pixel inside the rectangle of ``width``
    around the segment a -> b (window coordinates), n x n samples per pixel."""
    a, b = np.asarray(a, float), np.asarray(b, float)
    d = b - a
    length = np.hypot(*d)
    u = d / length
    v = np.array([-u[1], u[0]])
    offs = (np.arange(n) + 0.5) / n
    sx, sy = np.meshgrid(offs, offs)
    out = np.zeros((size, size))
    for y in range(size):
        for x in range(size):
            p = np.stack([x + sx - a[0], y + sy - a[1]], -1)
            along, across = p @ u, p @ v
            out[y, x] = np.mean((along >= 0) & (along <= length) & (np.abs(across) <= width / 2))
    return out


def segment_distance(a, b, size=SIZE) -> np.ndarray:
    """(size, size) distance of each pixel centre from the segment a -> b."""
    a, b = np.asarray(a, float), np.asarray(b, float)
    y, x = np.mgrid[0:size, 0:size] + 0.5
    p = np.stack([x - a[0], y - a[1]], -1)
    d = b - a
    t = np.clip(p @ d / (d @ d), 0.0, 1.0)
    return np.linalg.norm(p - t[..., None] * d, axis=-1)


def box_coverage(lo, hi, size=SIZE) -> np.ndarray:
    """(size, size) exact area of each pixel inside the axis-aligned box lo..hi."""
    edges = np.arange(size, dtype=float)
    ox = np.clip(np.minimum(edges + 1, hi[0]) - np.maximum(edges, lo[0]), 0, None)
    oy = np.clip(np.minimum(edges + 1, hi[1]) - np.maximum(edges, lo[1]), 0, None)
    return oy[:, None] * ox[None, :]


def smooth_image(ctx, color, points, mode=Prim.LINES, colors=WHITE, **fields):
    rast(ctx, line_smooth=True, **{"line_width": 1.0, **fields})
    return draw_image(ctx, color, vertices(points, colors, SIZE), mode)


def test_the_host_smoothing_is_never_used_under_the_quirk(screen, ctx):
    """The quirk row matches this host's strings, and a smooth-line draw
    leaves the host's GL_LINE_SMOOTH off (it would kill the process)."""
    row = quirks.BY_FACT["smooth_line_crash"]
    prof = screen.profile
    assert screen.host_facts.has("smooth_line_crash") == row.matches(prof.renderer, prof.version_string)
    assert screen.host_facts.has("smooth_line_crash"), "this machine's llvmpipe has the quirk"
    color = setup(ctx, size=SIZE)
    smooth_image(ctx, color, [(3.0, 4.0), (28.0, 20.0)])
    gl = screen.host.gl
    assert not gl.glIsEnabled(gl.GL_LINE_SMOOTH)


AXIS_ALIGNED = [
    ((2.0, 8.3), (29.0, 8.3), 1.0),
    ((2.6, 15.5), (27.2, 15.5), 3.0),
    ((7.7, 3.0), (7.7, 28.0), 2.5),
    ((20.25, 30.0), (20.25, 4.5), 1.0),
]


@pytest.mark.parametrize("a, b, width", AXIS_ALIGNED)
def test_axis_aligned_lines_cover_exactly_their_rectangle(screen, ctx, a, b, width):
    color = setup(ctx, size=SIZE)
    alpha = smooth_image(ctx, color, [a, b], line_width=width)[..., 3]
    half = np.where(np.asarray(a) == np.asarray(b), width / 2, 0.0)
    expected = box_coverage(np.minimum(a, b) - half, np.maximum(a, b) + half)
    assert np.abs(alpha - expected).max() < 1e-4, np.argwhere(np.abs(alpha - expected) >= 1e-4).tolist()


SLANTED = [
    ((2.0, 3.0), (28.0, 24.0), 1.0),
    ((4.3, 27.1), (26.8, 5.6), 2.0),
    ((16.0, 2.0), (19.0, 29.0), 4.5),
    ((3.0, 3.0), (29.0, 29.0), 1.0),
]


@pytest.mark.parametrize("a, b, width", SLANTED)
def test_slanted_lines_cover_their_rectangle(screen, ctx, a, b, width):
    """Per pixel the area within CORNER_ERROR; in total the rectangle's
    area (w times l) within 0.2%."""
    color = setup(ctx, size=SIZE)
    alpha = smooth_image(ctx, color, [a, b], line_width=width)[..., 3]
    expected = rectangle_coverage(a, b, width)
    assert np.abs(alpha - expected).max() <= CORNER_ERROR
    area = width * np.hypot(b[0] - a[0], b[1] - a[1])
    assert alpha.sum() == pytest.approx(area, rel=0.002)
    # Nothing farther than a pixel's reach (sqrt(2)/2) from the rectangle.
    assert np.all(alpha[segment_distance(a, b) > width / 2 + np.sqrt(0.5)] == 0)
    assert ((alpha > 0.02) & (alpha < 0.98)).sum() >= 10  # and the edges are soft


def test_colour_and_alpha_are_multiplied_by_coverage(screen, ctx):
    """Only the alpha of the colour is scaled; rgb is the shader's."""
    color = setup(ctx, size=SIZE)
    img = smooth_image(ctx, color, [(2.0, 8.3), (29.0, 8.3)], colors=(0.25, 0.5, 0.75, 0.5))
    covered = img[..., 3] > 0
    expected = rectangle_coverage((2.0, 8.3), (29.0, 8.3), 1.0)
    assert np.array_equal(covered, expected > 0)
    assert np.allclose(img[covered][:, :3], (0.25, 0.5, 0.75))
    assert np.abs(img[..., 3] - 0.5 * expected).max() < 2e-3


STRIP = [(3.0, 4.0), (27.0, 6.0), (20.0, 27.0), (5.0, 22.0)]


def _as_lines(points, close=False):
    pts = list(points) + ([points[0]] if close else [])
    return [p for a, b in zip(pts, pts[1:], strict=False) for p in (a, b)]


@pytest.mark.parametrize("mode, close", [(Prim.LINE_STRIP, False), (Prim.LINE_LOOP, True)])
def test_strips_and_loops_are_their_segments(screen, ctx, mode, close):
    """Each segment of a strip or loop is its own rectangle, drawn in order:
    the same pixels as LINES of the same segments (blending off)."""
    color = setup(ctx, size=SIZE)
    lines = smooth_image(ctx, color, _as_lines(STRIP, close), Prim.LINES)
    strip = smooth_image(ctx, color, STRIP, mode)
    assert np.allclose(strip, lines, atol=1e-5)
    assert lit(strip).sum() > 100


def test_polygon_state_does_not_apply_to_lines(screen, ctx):
    """Culling, fill modes, polygon offset and polygon smoothing are for
    polygons (cso/rasterizer.rst): a smooth line is drawn the same under
    them, in its front colour with light_twoside (lines are front-facing),
    and the polygon state still applies to the next triangle."""
    color = setup(ctx, vs=TWO_SIDE_VS, fs=COLOR_FS, size=SIZE)
    seg = [(3.0, 5.0), (28.0, 23.0)]
    plain = smooth_image(ctx, color, seg, line_width=2.0)
    polygon_state = {
        "cull_face": Face.FRONT_AND_BACK,
        "fill_front": PolygonMode.POINT,
        "fill_back": PolygonMode.LINE,
        "offset_tri": True,
        "offset_units": 1000.0,
        "poly_smooth": True,
        "light_twoside": True,
    }
    got = smooth_image(ctx, color, seg, line_width=2.0, **polygon_state)
    assert np.allclose(got, plain, atol=1e-5)
    assert np.allclose(got[got[..., 3] > 0][:, :3], 1.0)  # the front colour (BCOLOR is blue)
    tri = vertices([(2.0, 2.0), (30.0, 2.0), (2.0, 30.0)], WHITE, SIZE)
    assert not lit(draw_image(ctx, color, tri, Prim.TRIANGLES)).any()  # still culled
    gl = screen.host.gl
    assert gl.glIsEnabled(gl.GL_CULL_FACE) and gl.glIsEnabled(gl.GL_POLYGON_OFFSET_FILL)


PASS_GS = """GEOM
PROPERTY GS_INPUT_PRIMITIVE LINES
PROPERTY GS_OUTPUT_PRIMITIVE LINE_STRIP
PROPERTY GS_MAX_OUTPUT_VERTICES 2
DCL IN[][0], POSITION
DCL IN[][1], GENERIC[0]
DCL OUT[0], POSITION
DCL OUT[1], GENERIC[0]
IMM[0] UINT32 {0, 0, 0, 0}
  0: MOV OUT[0], IN[0][0]
  1: MOV OUT[1], IN[0][1]
  2: EMIT IMM[0].xxxx
  3: MOV OUT[0], IN[1][0]
  4: MOV OUT[1], IN[1][1]
  5: EMIT IMM[0].xxxx
  6: ENDPRIM IMM[0].xxxx
  7: END
"""


def test_lines_a_geometry_shader_emits_are_smoothed(screen, ctx):
    color = setup(ctx, size=SIZE)
    points = [(2.0, 3.0), (28.0, 24.0), (4.0, 27.0), (26.0, 6.0)]
    without = smooth_image(ctx, color, points, line_width=1.5)
    ctx.bind_gs_state(ctx.create_gs_state(ShaderState(tokens=PASS_GS)))
    with_gs = smooth_image(ctx, color, points, line_width=1.5)
    assert np.allclose(with_gs, without, atol=1e-5)
    assert ((with_gs[..., 3] > 0.02) & (with_gs[..., 3] < 0.98)).sum() >= 10


def test_isolines_are_smoothed(screen, ctx):
    """A TES drawing isolines feeds glpipe's generated GS: two segments of a
    patch (outer level 2) cover their rectangles like LINES of the same
    segments.  (gl33 has no tessellation: create_tes_state refuses it.)"""
    color = setup(ctx, size=SIZE)
    if not screen.profile.has("tessellation_shader"):
        with pytest.raises(UnsupportedError):
            ctx.create_tes_state(ShaderState(tokens=ISOLINES_TES))
        return
    a, m, b = (3.0, 5.0), (15.5, 15.0), (28.0, 25.0)  # m: the patch's midpoint, where u = 1/2
    lines = smooth_image(ctx, color, [a, m, m, b], line_width=2.0)
    ctx.set_tess_state((1.0, 2.0, 1.0, 1.0), (1.0, 1.0))
    ctx.bind_tes_state(ctx.create_tes_state(ShaderState(tokens=ISOLINES_TES)))
    ctx.set_patch_vertices(2)
    rast(ctx, line_smooth=True, line_width=2.0)
    patch = draw_image(ctx, color, vertices([a, b], WHITE, SIZE), Prim.PATCHES)
    assert np.allclose(patch, lines, atol=1e-4)
    assert ((patch[..., 3] > 0.02) & (patch[..., 3] < 0.98)).sum() >= 10


def test_a_too_large_geometry_shader_is_refused(screen, ctx):
    """Five vertices per vertex must fit the host's GS limits."""
    color = setup(ctx, size=SIZE)
    big = PASS_GS.replace("GS_MAX_OUTPUT_VERTICES 2", "GS_MAX_OUTPUT_VERTICES 256")
    ctx.bind_gs_state(ctx.create_gs_state(ShaderState(tokens=big)))
    with pytest.raises(UnsupportedError, match="line_smooth"):
        smooth_image(ctx, color, [(2.0, 3.0), (28.0, 24.0)])


def test_stippled_smooth_line(screen, ctx):
    """line_stipple with line_smooth: a horizontal line from pixel centre
    (2.5, 8.5) to (29.5, 8.5); column c is fragment s = c - 2 along it
    (cso/rasterizer.rst: bit (s / (factor + 1)) % 16 of the pattern) and
    covers clamp(l/2 + 0.5 - |c + 0.5 - 16|) of its row (0.5 at both ends)."""
    pattern = 0x0F0F
    color = setup(ctx, size=SIZE)
    img = smooth_image(ctx, color, [(2.5, 8.5), (29.5, 8.5)], line_stipple_enable=True, line_stipple_pattern=pattern)
    expected = np.zeros((SIZE, SIZE))
    row = rectangle_coverage((2.5, 8.5), (29.5, 8.5), 1.0)[8]
    for c in range(SIZE):
        s = c - 2
        if row[c] > 0 and (pattern >> (s % 16)) & 1:
            expected[8, c] = row[c]
    assert np.abs(img[..., 3] - expected).max() < 2e-3, np.argwhere(np.abs(img[..., 3] - expected) > 2e-3)


def test_multisample_and_discard_leave_it_to_the_host(screen, ctx):
    """GL 4.5 §14.5.4: multisample rasterization draws lines the same with
    or without LINE_SMOOTH; rasterizer_discard draws nothing.  Neither
    compiles the smooth-line variant (the key entry is 0)."""
    color = setup(ctx, size=SIZE)
    ms = rast(ctx, line_smooth=True, multisample=True, line_width=1.0)
    plain = ctx.create_rasterizer_state(RasterizerState(line_smooth=False, multisample=True, line_width=1.0))
    assert ms.key.value[KEY_LINE_SMOOTH] == 0.0
    got = draw_image(ctx, color, vertices([(2.0, 3.0), (28.0, 24.0)], WHITE, SIZE), Prim.LINES)
    ctx.bind_rasterizer_state(plain)
    want = draw_image(ctx, color, vertices([(2.0, 3.0), (28.0, 24.0)], WHITE, SIZE), Prim.LINES)
    assert np.array_equal(got, want) and lit(got).any()
    discard = rast(ctx, line_smooth=True, rasterizer_discard=True)
    assert discard.key.value[KEY_LINE_SMOOTH] == 0.0
    assert not lit(draw_image(ctx, color, vertices([(2.0, 3.0), (28.0, 24.0)], WHITE, SIZE), Prim.LINES)).any()


def test_stippled_smooth_diagonal_line(screen, ctx):
    """The stipple counter counts major-axis pixels along a slanted line too:
    on a 45-degree line from pixel centre (2.5, 3.5) the pixel (2 + i, 3 + i)
    is fragment s = i (its centre lies on the line), so its alpha is its
    coverage where bit i % 16 of the pattern is set and 0 elsewhere."""
    pattern = 0x0F0F
    a, b = (2.5, 3.5), (27.5, 28.5)
    color = setup(ctx, size=SIZE)
    img = smooth_image(ctx, color, [a, b], line_stipple_enable=True, line_stipple_pattern=pattern)
    cover = rectangle_coverage(a, b, 1.0)
    for i in range(26):
        want = cover[3 + i, 2 + i] if (pattern >> (i % 16)) & 1 else 0.0
        assert abs(img[3 + i, 2 + i, 3] - want) <= CORNER_ERROR, (i, img[3 + i, 2 + i, 3], want)
