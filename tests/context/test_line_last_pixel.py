"""RasterizerState.line_last_pixel: every line segment also draws the pixel
GL's diamond-exit rule omits at its end.

The expectations come from a numpy model of GL's rule (GL 4.6 core 14.5.1):
pixel f (centre c) is drawn by a segment pa -> pb when the segment meets the
open diamond R_f = {|x - xc| + |y - yc| < 1/2} and pb is not inside R_f.
line_last_pixel adds the pixel whose diamond contains pb (at most one: the
diamonds are disjoint), for every segment -- each segment of a strip or a
loop too (docs/rasterizer.md "Line last pixel").  Each draw blends with ADD
(ONE, ONE), so the image counts how often each pixel was drawn: a pixel
drawn twice shows as 2.

Geometry.  Endpoints are pixel centres nudged by (0.1, 0.15) (as in
test_line_stipple.py), so no segment passes through a diamond's corner,
where GL leaves the choice to the implementation, and every end point lies
inside its pixel's diamond.  Each test first checks the draw without
line_last_pixel against the model (the geometry assumption).
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from glpipe import (
    Blend,
    BlendFactor,
    BlendState,
    ClipState,
    PolygonMode,
    Prim,
    RTBlendState,
    ShaderState,
    ViewportState,
)
from lowering.errors import UnsupportedError

from .util import read_rgba32f
from .util_draw import SIZE, setup, vertices, zero_fill
from .util_raster import GS_TWO_STRIPS, ISOLINES_TES, SMOOTH_FS, WHITE, draw, rast

NUDGE = (0.1, 0.15)
ADD = BlendState(
    rt=(
        RTBlendState(
            blend_enable=True,
            rgb_src_factor=BlendFactor.ONE,
            rgb_dst_factor=BlendFactor.ONE,
            alpha_src_factor=BlendFactor.ONE,
            alpha_dst_factor=BlendFactor.ONE,
            rgb_func=Blend.ADD,
            alpha_func=Blend.ADD,
        ),
    )
    + (RTBlendState(),) * 7
)


# ---------------------------------------------------------------------------
# The model
# ---------------------------------------------------------------------------


def _l1_to_segment(c, a, b) -> float:
    """min over the segment a-b of |x - cx| + |y - cy|: convex and piecewise
    linear along the segment, so the minimum is at an end or where x or y
    crosses the centre's."""
    a, b, c = (np.asarray(p, np.float64) for p in (a, b, c))
    d = b - a
    ts = [0.0, 1.0] + [float((c[k] - a[k]) / d[k]) for k in range(2) if d[k] != 0]
    return min(float(np.abs(a + d * t - c).sum()) for t in ts if 0.0 <= t <= 1.0)


def _inside(p, c) -> bool:
    return abs(p[0] - c[0]) + abs(p[1] - c[1]) < 0.5


def segment_pixels(a, b, last_pixel: bool) -> list:
    """The pixels (x, y) the diamond-exit rule draws for a -> b, plus the
    end's pixel with ``last_pixel``."""
    out = []
    lo = np.floor(np.minimum(a, b)).astype(int) - 1
    hi = np.floor(np.maximum(a, b)).astype(int) + 1
    for y in range(max(lo[1], 0), min(hi[1], SIZE - 1) + 1):
        for x in range(max(lo[0], 0), min(hi[0], SIZE - 1) + 1):
            c = (x + 0.5, y + 0.5)
            if _l1_to_segment(c, a, b) < 0.5 and (not _inside(b, c) or last_pixel):
                out.append((x, y))
    return out


def counts(segments, last_pixel: bool) -> np.ndarray:
    """How often each pixel is drawn by independent ``segments``."""
    img = np.zeros((SIZE, SIZE))
    for a, b in segments:
        for x, y in segment_pixels(np.asarray(a, float), np.asarray(b, float), last_pixel):
            img[y, x] += 1
    return img


def nudged(points):
    return [(x + NUDGE[0], y + NUDGE[1]) for x, y in points]


def strip_segments(points, closed=False):
    pts = list(points) + ([points[0]] if closed else [])
    return list(itertools.pairwise(pts))


# ---------------------------------------------------------------------------
# Drawing
# ---------------------------------------------------------------------------


def lp_setup(ctx, **shaders):
    """Target, shaders and ADD blending (each fragment adds 1 to red)."""
    color = setup(ctx, **shaders)
    ctx.bind_blend_state(ctx.create_blend_state(ADD))
    return color


def drawn(ctx, color, points, mode, last_pixel, color_rgba=(1.0, 0.0, 0.0, 1.0), **fields) -> np.ndarray:
    """Draw window-space ``points`` with a rasterizer (``fields``); the red
    channel, i.e. how often each pixel was drawn."""
    rast(ctx, line_last_pixel=last_pixel, **fields)
    zero_fill(ctx.screen, color)
    draw(ctx, vertices(points, color_rgba), mode)
    return read_rgba32f(ctx.screen, color)[..., 0]


def check(ctx, color, points, mode, segments, **fields):
    """Without line_last_pixel: GL's rule; with it: every segment's end pixel too."""
    for last in (False, True):
        got = drawn(ctx, color, points, mode, last, **fields)
        want = counts(segments, last)
        assert np.array_equal(got, want), (
            f"line_last_pixel={last}: pixels differ at {np.argwhere(got != want).tolist()} "
            f"(got {got[got != want].tolist()}, want {want[got != want].tolist()})"
        )


# ---------------------------------------------------------------------------
# LINES
# ---------------------------------------------------------------------------

SEGMENTS = {
    "horizontal": [((0.5, 2.5), (14.5, 2.5)), ((14.5, 5.5), (1.5, 5.5))],
    "vertical": [((3.5, 0.5), (3.5, 14.5)), ((9.5, 14.5), (9.5, 2.5))],
    "diagonal": [((0.5, 1.5), (13.5, 14.5)), ((15.5, 7.5), (8.5, 14.5))],
    "shallow": [((1.5, 9.5), (13.5, 12.5)), ((13.5, 1.5), (2.5, 4.5))],
    "steep": [((6.5, 0.5), (11.5, 13.5)), ((15.5, 14.5), (12.5, 3.5))],
}


@pytest.mark.parametrize("shape", sorted(SEGMENTS))
def test_lines(screen, ctx, shape):
    color = lp_setup(ctx)
    segs = [tuple(nudged(s)) for s in SEGMENTS[shape]]
    check(ctx, color, [p for s in segs for p in s], Prim.LINES, segs)


def test_end_between_diamonds_adds_nothing(screen, ctx):
    """An end point in no pixel's diamond: GL drew the last pixel the segment
    touched already, so line_last_pixel changes nothing."""
    color = lp_setup(ctx)
    segs = [((2.6, 3.65), (10.05, 3.02)), ((4.6, 12.65), (4.02, 6.05))]
    for _, b in segs:
        assert not any(_inside(b, (x + 0.5, y + 0.5)) for x in range(SIZE) for y in range(SIZE))
    check(ctx, color, [p for s in segs for p in s], Prim.LINES, segs)
    assert np.array_equal(counts(segs, True), counts(segs, False))


def test_short_segment_inside_one_diamond(screen, ctx):
    """Both ends in one pixel's diamond: GL draws nothing, line_last_pixel
    draws that pixel."""
    color = lp_setup(ctx)
    segs = [((5.4, 5.45), (5.62, 5.6))]
    check(ctx, color, [p for s in segs for p in s], Prim.LINES, segs)
    assert counts(segs, True)[5, 5] == 1 and counts(segs, False).sum() == 0


# ---------------------------------------------------------------------------
# Strips and loops: every segment (so the joints are drawn twice)
# ---------------------------------------------------------------------------

STRIP = [(1.5, 1.5), (12.5, 1.5), (12.5, 12.5), (3.5, 3.5), (3.5, 10.5)]


def test_line_strip_every_segment(screen, ctx):
    color = lp_setup(ctx)
    pts = nudged(STRIP)
    check(ctx, color, pts, Prim.LINE_STRIP, strip_segments(pts))
    # (the model: each interior joint twice, the strip's end once)
    want = counts(strip_segments(pts), True)
    for x, y in STRIP[1:-1]:
        assert want[int(y), int(x)] == 2
    assert want[int(STRIP[-1][1]), int(STRIP[-1][0])] == 1


def test_line_loop_closing_segment(screen, ctx):
    color = lp_setup(ctx)
    pts = nudged(STRIP[:4])
    check(ctx, color, pts, Prim.LINE_LOOP, strip_segments(pts, closed=True))


def test_lines_adjacency(screen, ctx):
    """LINES_ADJACENCY rasterizes vertices 1 -> 2 of each four."""
    color = lp_setup(ctx)
    a, b = nudged([(2.5, 4.5), (12.5, 9.5)])
    pts = [(0.5, 0.5), a, b, (15.5, 15.5)]
    check(ctx, color, pts, Prim.LINES_ADJACENCY, [(a, b)])


# ---------------------------------------------------------------------------
# Pixel centres, wide and smooth lines, outputs of the end
# ---------------------------------------------------------------------------


def test_integer_pixel_centres(screen, ctx):
    """half_pixel_center False: Gallium's pixel (x, y) is centred on the
    integer point, so the same picture comes from points moved by -0.5."""
    color = lp_setup(ctx)
    segs = [tuple(nudged(s)) for s in SEGMENTS["shallow"] + SEGMENTS["vertical"]]
    shifted = [(x - 0.5, y - 0.5) for s in segs for (x, y) in s]
    check(ctx, color, shifted, Prim.LINES, segs, half_pixel_center=False)


def test_wide_lines_get_the_end_column(screen, ctx):
    """A 3-pixel wide x-major line covers three rows of each column it
    draws (the line's y within 1.5 of the centre); the last column too."""
    color = lp_setup(ctx)
    a, b = nudged([(1.5, 7.5), (12.5, 7.5)])
    for last in (False, True):
        got = drawn(ctx, color, [a, b], Prim.LINES, last, line_width=3.0)
        want = np.zeros((SIZE, SIZE))
        for x, y in segment_pixels(np.asarray(a), np.asarray(b), last):
            want[y - 1 : y + 2, x] = 1
        assert np.array_equal(got, want), f"line_last_pixel={last}: {np.argwhere(got != want).tolist()}"


def test_smooth_lines_are_unchanged(screen, ctx):
    """Antialiased lines are rectangles with coverage: no diamond rule, no
    omitted pixel (llvmpipe ignores the flag as well)."""
    color = lp_setup(ctx)
    pts = nudged([(1.5, 3.5), (12.5, 8.5)])
    plain = drawn(ctx, color, pts, Prim.LINES, False, line_smooth=True)
    assert plain.sum() > 0
    assert np.array_equal(drawn(ctx, color, pts, Prim.LINES, True, line_smooth=True), plain)


def test_last_pixel_has_the_end_vertex_outputs(screen, ctx):
    """Colours red -> green, interpolated: the added pixel is the end's green."""
    color = setup(ctx, fs=SMOOTH_FS)
    rast(ctx, line_last_pixel=True)
    a, b = nudged([(1.5, 4.5), (11.5, 4.5)])
    zero_fill(ctx.screen, color)
    draw(ctx, vertices([a, b], [(1.0, 0.0, 0.0, 1.0), (0.0, 1.0, 0.0, 1.0)]), Prim.LINES)
    img = read_rgba32f(ctx.screen, color)
    assert np.allclose(img[4, 11], (0.0, 1.0, 0.0, 1.0), atol=1e-5)
    assert img[4, 10, 1] < 1.0 and img[4, 1, 0] > 0.9  # the line itself is interpolated
    assert not img[4, 12].any()


# ---------------------------------------------------------------------------
# With line stipple; a GS's strips; other classes
# ---------------------------------------------------------------------------

PATTERN = 0b1100_1100_1111_0001


def kept(s: int, factor: int = 0) -> bool:
    return bool((PATTERN >> ((s // (factor + 1)) % 16)) & 1)


def _axis_pixels(a, b):
    """Axis-aligned / 45-degree segment pixels in drawing order (last pixel excluded)."""
    (x0, y0), (x1, y1) = ((int(np.floor(c)) for c in p) for p in (a, b))
    n = max(abs(x1 - x0), abs(y1 - y0))
    return [(x0 + k * np.sign(x1 - x0), y0 + k * np.sign(y1 - y0)) for k in range(n)]


def test_with_line_stipple_lines_and_strip(screen, ctx):
    """The stipple counter runs on to the added pixel: a segment of n
    fragments gets fragment n at its end pixel.  LINES restart per segment;
    a strip's next segment starts at the joint with the same count again."""
    color = lp_setup(ctx)
    segs = [tuple(nudged(s)) for s in SEGMENTS["horizontal"] + SEGMENTS["diagonal"]]
    want = np.zeros((SIZE, SIZE))
    for a, b in segs:
        px = _axis_pixels(a, b) + [tuple(int(c) for c in b)]
        for s, (x, y) in enumerate(px):
            want[y, x] += kept(s)
    got = drawn(
        ctx,
        color,
        [p for s in segs for p in s],
        Prim.LINES,
        True,
        line_stipple_enable=True,
        line_stipple_pattern=PATTERN,
    )
    assert np.array_equal(got, want), np.argwhere(got != want).tolist()

    pts = nudged(STRIP)
    want = np.zeros((SIZE, SIZE))
    s = 0
    for a, b in strip_segments(pts):
        px = _axis_pixels(a, b)
        for k, (x, y) in enumerate(px):
            want[y, x] += kept(s + k)
        s += len(px)
        want[int(b[1]), int(b[0])] += kept(s)
    got = drawn(ctx, color, pts, Prim.LINE_STRIP, True, line_stipple_enable=True, line_stipple_pattern=PATTERN)
    assert np.array_equal(got, want), np.argwhere(got != want).tolist()


def test_gs_line_strips(screen, ctx):
    """A Gallium GS emitting line strips: every segment it emits gets its last pixel."""
    color = lp_setup(ctx)
    ctx.bind_gs_state(ctx.create_gs_state(ShaderState(tokens=GS_TWO_STRIPS)))
    tri = nudged([(1.5, 1.5), (12.5, 1.5), (12.5, 12.5)])
    segs = strip_segments(tri) + [(tri[2], tri[0])]
    check(ctx, color, tri, Prim.TRIANGLES, segs)
    ctx.bind_gs_state(None)


def test_points_triangles_and_line_filled_polygons_unchanged(screen, ctx):
    """Only line primitives: points, filled triangles and the edges of
    polygons drawn in fill mode LINE keep GL's rules (D3D9 applies its last
    pixel to line lists and strips only)."""
    color = lp_setup(ctx)
    tri = nudged([(1.5, 1.5), (12.5, 2.5), (6.5, 13.5)])
    for mode, fields in (
        (Prim.POINTS, {}),
        (Prim.TRIANGLES, {}),
        (Prim.TRIANGLES, {"fill_front": PolygonMode.LINE, "fill_back": PolygonMode.LINE}),
    ):
        plain = drawn(ctx, color, tri, mode, False, **fields)
        assert plain.sum() > 0
        assert np.array_equal(drawn(ctx, color, tri, mode, True, **fields), plain), (mode, fields)


def test_switching_off_again_gives_gl_pixels(screen, ctx):
    """Switching the flag off gives GL's pixels again (same context, same shaders)."""
    color = lp_setup(ctx)
    segs = [tuple(nudged(s)) for s in SEGMENTS["steep"]]
    pts = [p for s in segs for p in s]
    for last in (True, False, True):
        got = drawn(ctx, color, pts, Prim.LINES, last, color_rgba=WHITE)
        assert np.array_equal(got, counts(segs, last))


def test_flipped_viewport_and_clip_planes(screen, ctx):
    """A negative viewport y scale (the vertex stage flips y) and an enabled
    user clip plane that clips nothing (its distance is recomputed for the
    added vertex): the pixels are the model's for the window positions."""
    color = lp_setup(ctx)
    ctx.set_viewport_states(0, [ViewportState(scale=(SIZE / 2, -SIZE / 2, 0.5), translate=(SIZE / 2, SIZE / 2, 0.5))])
    ctx.set_clip_state(ClipState(ucp=[(0.0, 0.0, 0.0, 1.0)] + [(0.0, 0.0, 0.0, 0.0)] * 7))
    segs = [tuple(nudged(s)) for s in SEGMENTS["shallow"] + SEGMENTS["steep"]]
    # vertices() maps y up to NDC; the flipped viewport puts NDC y at window SIZE - y.
    window = [((x, SIZE - y), (u, SIZE - v)) for (x, y), (u, v) in segs]
    check(ctx, color, [p for s in segs for p in s], Prim.LINES, window, clip_plane_enable=1)
    ctx.set_viewport_states(0, [ViewportState(scale=(SIZE / 2, SIZE / 2, 0.5), translate=(SIZE / 2, SIZE / 2, 0.5))])


def test_tessellated_isolines(screen, ctx):
    """A TES with isolines and no GS: the generated GS after the TES; one
    isoline of two segments, each with its last pixel."""
    if not screen.profile.has("tessellation_shader"):
        pytest.skip("no tessellation on this profile (create_tes_state refuses it: test_draw_features.py)")
    color = lp_setup(ctx)
    ctx.set_tess_state((1.0, 2.0, 1.0, 1.0), (1.0, 1.0))
    ctx.bind_tes_state(ctx.create_tes_state(ShaderState(tokens=ISOLINES_TES)))
    ctx.set_patch_vertices(2)
    a, m, b = nudged([(1.5, 8.5), (7.5, 8.5), (13.5, 8.5)])
    check(ctx, color, [a, b], Prim.PATCHES, [(a, m), (m, b)])
    ctx.bind_tes_state(None)


def test_gs_too_big_for_the_tripled_output_is_refused(screen, ctx):
    """The GS emits up to three vertices per vertex with line_last_pixel: a
    GS whose tripled output exceeds the host's limits is refused at the draw."""
    lp_setup(ctx)
    big = GS_TWO_STRIPS.replace("GS_MAX_OUTPUT_VERTICES 5", "GS_MAX_OUTPUT_VERTICES 400")
    ctx.bind_gs_state(ctx.create_gs_state(ShaderState(tokens=big)))
    rast(ctx, line_last_pixel=True)
    tri = nudged([(1.5, 1.5), (12.5, 1.5), (12.5, 12.5)])
    with pytest.raises(UnsupportedError, match="line_last_pixel"):
        draw(ctx, vertices(tri, WHITE), Prim.TRIANGLES)
    rast(ctx, line_last_pixel=False)
    draw(ctx, vertices(tri, WHITE), Prim.TRIANGLES)  # fine without it
    ctx.bind_gs_state(None)
