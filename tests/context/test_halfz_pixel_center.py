"""clip_halfz and half_pixel_center = False on both profiles, checked on pixels.

The native profile has glClipControl and float viewports; gl33 has neither
and gets both through the last vertex stage (VariantKey.clip_halfz,
VariantKey.integer_pixel_centers; docs/rasterizer.md).  Every expectation
here comes from Gallium's definitions, computed in numpy:

* the viewport transform: window = ndc * scale + translate, NDC = clip / w,
  for x, y and z alike (with clip_halfz NDC z runs over [0, 1], else over
  [-1, 1]: that is the clip volume, the formula is the same);
* depth is z_ndc * scale_z + translate_z, where z_ndc is affine in window
  coordinates over a triangle (a projective map keeps planes), so it is
  interpolated with screen-space barycentrics even with varying w;
* clipping keeps 0 <= z <= w (clip_halfz) or -w <= z <= w, which for w > 0
  is 0 <= z_ndc <= 1 per pixel; with depth clipping off the depth is
  clamped to the viewport's depth range instead;
* coverage: pixel (i, j) is covered when its sample point -- (i + 0.5, j +
  0.5), or (i, j) with half_pixel_center = False -- is inside the triangle,
  a point on an edge counting when the edge is a top edge (interior below,
  window y 0 on top) or a left edge (interior to its right): Gallium's rule
  with bottom_edge_rule = False (test_rasterizer.py proves the host follows
  it for framebuffer objects).
"""

from __future__ import annotations

import numpy as np
import pytest

from glpipe import Cap, Prim, ShaderState, ViewportState

from .util import PASS_VS, triangle_gs
from .util_draw import FLAT_FS, POS_COLOR, SIZE, lit, setup
from .util_raster import WHITE, clear_depth, depth_target, draw_image, rast, read_depth

# A pass-through GS: the variant passes then run before each EmitVertex.
GS_PASS = triangle_gs("TRIANGLE_STRIP", (0, 1, 2))

FULL = ((SIZE / 2, SIZE / 2), (SIZE / 2, SIZE / 2))  # (scale xy, translate xy) of the whole target


def clip_rows(window_pts, z_ndc, w, scale, translate, color=WHITE) -> np.ndarray:
    """POS_COLOR rows whose clip positions land on ``window_pts`` (Gallium
    window coordinates) through the viewport (scale, translate), at NDC
    depth ``z_ndc`` and clip w ``w`` (scalars or one per vertex)."""
    pts = np.asarray(window_pts, np.float64).reshape(-1, 2)
    n = len(pts)
    z = np.broadcast_to(np.asarray(z_ndc, np.float64), (n,))
    w = np.broadcast_to(np.asarray(w, np.float64), (n,))
    rows = np.zeros((n, 8), np.float32)
    rows[:, 0] = (pts[:, 0] - translate[0]) / scale[0] * w
    rows[:, 1] = (pts[:, 1] - translate[1]) / scale[1] * w
    rows[:, 2] = z * w
    rows[:, 3] = w
    rows[:, 4:] = color
    return rows


def edge_values(tri, xs, ys):
    """Per edge of ``tri``: (signed value, positive inside; inward normal)."""
    (x0, y0), (x1, y1), (x2, y2) = tri
    sign = 1.0 if (x1 - x0) * (y2 - y0) - (x2 - x0) * (y1 - y0) > 0 else -1.0
    out = []
    for (ax, ay), (bx, by) in (((x0, y0), (x1, y1)), ((x1, y1), (x2, y2)), ((x2, y2), (x0, y0))):
        e = sign * ((bx - ax) * (ys - ay) - (by - ay) * (xs - ax))
        out.append((e, (-sign * (by - ay), sign * (bx - ax)), np.hypot(bx - ax, by - ay)))
    return out


def coverage(tri, offset: float, size: int = SIZE) -> np.ndarray:
    """(size, size) bool: pixel (x, y) covered when (x + offset, y + offset)
    is inside ``tri`` under the top-left rule (module docstring)."""
    ys, xs = np.mgrid[0:size, 0:size].astype(np.float64) + offset
    inside = np.ones((size, size), bool)
    for e, (nx, ny), _length in edge_values(tri, xs, ys):
        top_left = nx > 0 or (nx == 0 and ny > 0)
        inside &= (e > 0) | ((e == 0) & top_left)
    return inside


# ---------------------------------------------------------------------------
# clip_halfz: depth and near / far clipping
# ---------------------------------------------------------------------------

# Window positions, NDC depth and clip w of a triangle crossing z = 0 (near
# vertex 0) and z = w (near vertex 2) of the halfz clip volume.
DEPTH_TRI = ((1.0, 1.0), (15.0, 3.0), (4.0, 15.0))
DEPTH_Z = (-0.7, 0.6, 1.8)
DEPTH_W = (1.0, 2.0, 0.5)
VP_Z = (0.4, 0.5)  # scale z, translate z: depth range [0.5, 0.9] halfz, [0.1, 0.9] otherwise
CLEARED = 0.123


def expected_depth(halfz: bool, clip: bool, margin: float = 0.02):
    """(drawn, sure, depth): which pixels are drawn, which are far enough
    from an edge or a clip line to be certain, and their depth."""
    ys, xs = np.mgrid[0:SIZE, 0:SIZE].astype(np.float64) + 0.5
    edges = edge_values(DEPTH_TRI, xs, ys)
    dist = np.stack([e / length for e, _n, length in edges])  # pixels, positive inside
    area = sum(e for e, _n, _l in edges)  # twice the area, the same everywhere
    # Barycentric weight of vertex k is the edge value opposite it over the area.
    lam = [edges[1][0] / area, edges[2][0] / area, edges[0][0] / area]
    z_ndc = sum(weight * z for weight, z in zip(lam, DEPTH_Z, strict=True))
    lo = 0.0 if halfz else -1.0
    sz, tz = VP_Z
    inside = dist.min(axis=0) > 0
    sure = np.abs(dist).min(axis=0) > margin
    drawn = inside.copy()
    near, far = (tz, tz + sz) if halfz else (tz - sz, tz + sz)
    depth = z_ndc * sz + tz
    if clip:
        drawn &= (z_ndc >= lo) & (z_ndc <= 1.0)
        # z_ndc changes by about 0.15 per pixel here: 0.01 is well below a pixel.
        sure &= (np.abs(z_ndc - lo) > 0.01) & (np.abs(z_ndc - 1.0) > 0.01)
    else:
        depth = np.clip(depth, near, far)
    return drawn, sure, depth


@pytest.mark.parametrize(
    "halfz, clip", [(True, True), (True, False), (False, True)], ids=["halfz", "halfz-depth_clamp", "minus_one_to_one"]
)
@pytest.mark.parametrize("last", ["vs", "gs"])
def test_clip_halfz_depth_and_clipping(screen, ctx, halfz, clip, last):
    assert screen.caps.param[Cap.CLIP_HALFZ] == 1
    setup(ctx)  # shaders and a plain rasterizer
    color, zs = depth_target(ctx)  # colour + D32F, depth test ALWAYS with writes
    if last == "gs":
        ctx.bind_gs_state(ctx.create_gs_state(ShaderState(tokens=GS_PASS)))
    (sx, sy), (tx, ty) = FULL
    ctx.set_viewport_states(0, [ViewportState(scale=(sx, sy, VP_Z[0]), translate=(tx, ty, VP_Z[1]))])
    rast(ctx, clip_halfz=halfz, depth_clip_near=clip, depth_clip_far=clip)
    clear_depth(screen, zs, CLEARED)
    img = draw_image(ctx, color, clip_rows(DEPTH_TRI, DEPTH_Z, DEPTH_W, (sx, sy), (tx, ty)), Prim.TRIANGLES)
    got = read_depth(screen, zs)
    drawn, sure, depth = expected_depth(halfz, clip)
    assert np.array_equal(lit(img)[sure], drawn[sure])
    assert np.allclose(got[sure & drawn], depth[sure & drawn], atol=1e-5)
    assert np.all(got[sure & ~drawn] == np.float32(CLEARED))
    # The triangle really crosses the clip planes: some of it is cut, some drawn.
    inside = expected_depth(halfz, False)[0]
    if clip:
        assert (inside & sure & ~drawn).any() and (drawn & sure).any()


def test_clip_halfz_clips_exactly_zero_to_w(screen, ctx):
    """Whole-target quads at NDC z just inside and just outside [0, 1] (w = 2):
    drawn or not as clipping to 0 <= z <= w says."""
    setup(ctx)
    color, zs = depth_target(ctx)
    (sx, sy), (tx, ty) = FULL
    ctx.set_viewport_states(0, [ViewportState(scale=(sx, sy, 1.0), translate=(tx, ty, 0.0))])
    rast(ctx, clip_halfz=True)
    quad = ((0, 0), (16, 0), (0, 16), (0, 16), (16, 0), (16, 16))
    for z, drawn in ((-0.01, False), (0.0, True), (0.25, True), (1.0, True), (1.01, False)):
        clear_depth(screen, zs, CLEARED)
        img = draw_image(ctx, color, clip_rows(quad, z, 2.0, (sx, sy), (tx, ty)), Prim.TRIANGLES)
        assert lit(img).all() == drawn and lit(img).any() == drawn, z
        if drawn:
            assert np.allclose(read_depth(screen, zs), z, atol=1e-6), z  # scale 1, translate 0


# ---------------------------------------------------------------------------
# half_pixel_center = False: coverage
# ---------------------------------------------------------------------------

# Hand-derived: vertices on integer window coordinates; the legs x = 2 and
# y = 2 are a left and a top edge, the hypotenuse x + y = 12 a right/bottom
# edge.  GL's centres (i + 0.5, j + 0.5): covered iff i, j >= 2 and
# i + j + 1 < 12.  Integer centres (i, j) sit on the legs (counted) and on the
# hypotenuse (not counted): i, j >= 2 and i + j < 12 -- the diagonal
# i + j = 11 is covered only with integer centres.
HAND_TRI = ((2.0, 2.0), (10.0, 2.0), (2.0, 10.0))


def hand_expectation(half: bool) -> np.ndarray:
    j, i = np.mgrid[0:SIZE, 0:SIZE]
    return (i >= 2) & (j >= 2) & (i + j <= (10 if half else 11))


@pytest.mark.parametrize("last", ["vs", "gs"])
def test_integer_pixel_centres_hand_derived(screen, ctx, last):
    color = setup(ctx)
    if last == "gs":
        ctx.bind_gs_state(ctx.create_gs_state(ShaderState(tokens=GS_PASS)))
    for half in (True, False):
        rast(ctx, half_pixel_center=half)
        img = draw_image(ctx, color, clip_rows(HAND_TRI, 0.0, 1.0, *FULL), Prim.TRIANGLES)
        assert np.array_equal(lit(img), hand_expectation(half)), half
        assert np.array_equal(hand_expectation(half), coverage(HAND_TRI, 0.5 if half else 0.0))
    assert lit(img)[6, 5] and lit(img)[2, 9] and not lit(img)[2, 10]  # (x 5, y 6), (9, 2) on the diagonal


# Integer-vertex triangles (window coordinates of the viewport given) and the
# viewports: the whole target, y flipped (negative y scale), a smaller one
# off the origin, and w = 2 / 0.5 vertices.
TRIS = (
    ((2.0, 1.0), (13.0, 4.0), (4.0, 12.0)),
    ((14.0, 2.0), (3.0, 9.0), (12.0, 14.0)),
    ((5.0, 5.0), (9.0, 5.0), (5.0, 11.0)),
)
VIEWPORTS = {
    "full": FULL,
    "y_flipped": ((SIZE / 2, -SIZE / 2), (SIZE / 2, SIZE / 2)),
    "offset": ((6.0, 7.0), (8.0, 8.0)),  # x 2..14, y 1..15
}


@pytest.mark.parametrize("vp", sorted(VIEWPORTS))
@pytest.mark.parametrize("w", [1.0, 2.0, 0.5])
def test_integer_pixel_centres_follow_the_top_left_rule(screen, ctx, vp, w):
    color = setup(ctx)
    scale, translate = VIEWPORTS[vp]
    ctx.set_viewport_states(0, [ViewportState(scale=scale + (0.5,), translate=translate + (0.5,))])
    differs = False
    for tri in TRIS:
        for half in (True, False):
            rast(ctx, half_pixel_center=half)
            img = draw_image(ctx, color, clip_rows(tri, 0.0, w, scale, translate), Prim.TRIANGLES)
            assert np.array_equal(lit(img), coverage(tri, 0.5 if half else 0.0)), (tri, half)
        differs |= not np.array_equal(coverage(tri, 0.5), coverage(tri, 0.0))
    assert differs  # the two centre conventions are told apart


def _variant_keys(*csos):
    return [key for cso in csos for key in cso.variants]


def test_moving_the_viewport_never_recompiles(screen, ctx):
    """The shift reads the viewport scale from the sysvals block: a new
    viewport changes the pixels, not the program; on the native profile no
    variant has the emulation fields at all."""
    color = setup(ctx)
    vs = ctx.create_vs_state(ShaderState(tokens=PASS_VS))
    fs = ctx.create_fs_state(ShaderState(tokens=FLAT_FS))
    ctx.bind_vs_state(vs)
    ctx.bind_fs_state(fs)
    ctx.bind_vertex_elements_state(ctx.create_vertex_elements_state(list(POS_COLOR)))
    rast(ctx, half_pixel_center=False, clip_halfz=True)
    # The same clip-space triangle through two viewports.
    rows = clip_rows(HAND_TRI, 0.5, 1.0, *FULL)
    ndc = rows[:, :2] / rows[:, 3:4]
    seen = None
    for scale, translate in (FULL, ((4.0, 4.0), (7.0, 6.0)), ((6.0, 6.0), (8.0, 9.0))):
        ctx.set_viewport_states(0, [ViewportState(scale=scale + (0.5,), translate=translate + (0.0,))])
        img = draw_image(ctx, color, rows, Prim.TRIANGLES)
        window = ndc * np.asarray(scale) + np.asarray(translate)
        assert np.array_equal(lit(img), coverage(tuple(map(tuple, window)), 0.0)), scale
        keys = _variant_keys(vs, fs)
        assert seen is None or keys == seen
        seen = keys
    emulated = not screen.profile.has("viewport_array"), not screen.profile.has("clip_control")
    vs_keys = list(vs.variants)
    assert len(vs_keys) == 1
    assert vs_keys[0].integer_pixel_centers == emulated[0]
    assert vs_keys[0].clip_halfz == emulated[1]


def test_native_host_compiles_no_extra_variant(screen, ctx):
    """Switching clip_halfz / half_pixel_center recompiles only where a
    variant does the work (gl33); natively they are GL state."""
    color = setup(ctx)
    vs = ctx.create_vs_state(ShaderState(tokens=PASS_VS))
    ctx.bind_vs_state(vs)
    for fields in (
        {},
        {"clip_halfz": True},
        {"half_pixel_center": False},
        {"clip_halfz": True, "half_pixel_center": False},
    ):
        rast(ctx, **fields)
        draw_image(ctx, color, clip_rows(HAND_TRI, 0.5, 1.0, *FULL), Prim.TRIANGLES)
    native = screen.profile.has("clip_control") and screen.profile.has("viewport_array")
    assert len(vs.variants) == (1 if native else 4)
