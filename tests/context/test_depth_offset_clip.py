"""offset_units_unscaled and separate near / far depth clipping, on both profiles.

Expectations come from Gallium's definitions (cso/rasterizer.rst), in numpy:

* window depth z_w = z_ndc * scale_z + translate_z, affine in window x, y
  over a triangle with constant w;
* polygon offset with unscaled units: o = offset_scale * m + offset_units,
  m = max(|dz_w/dx|, |dz_w/dy|) per pixel, offset_units a depth value
  (D3D9's bias), o bounded above by a positive offset_clamp, below by a
  negative one; applied to polygons by the mode they are filled in
  (offset_tri / offset_line / offset_point), never to points and lines;
* clipping keeps -w <= z <= w (0 <= z <= w with clip_halfz); a disabled
  plane does not clip, and PIPE_CAP_DEPTH_CLAMP_ENABLE 0 makes depth_clamp =
  !depth_clip_far, which clamps depth to the depth range; with it off
  (near plane off, far on) only GL's [0, 1] clamp applies, also for depth
  ranges narrower than [0, 1] (test_near_plane_off_with_a_narrow_depth_range).

Depth is read back through raw GL (util_raster.read_depth), colours too.
"""

from __future__ import annotations

import numpy as np
import pytest

from glpipe import (
    Cap,
    ClipState,
    Format,
    PolygonMode,
    Prim,
    RasterizerState,
    ShaderState,
    UnsupportedError,
    ViewportState,
)

from .util import triangle_gs
from .util_draw import SIZE, lit, rect_tris
from .util_raster import (
    WINDOW_VS,
    bind_shaders,
    clear_depth,
    depth_target,
    draw,
    draw_image,
    rast,
    read_depth,
    tri_vertices,
)

# (depth format, bits of its fixed-point mantissa; 0: float)
DEPTH_FORMATS = [(Format.Z16_UNORM, 16), (Format.Z24X8_UNORM, 24), (Format.Z32_FLOAT, 0)]
XS = np.arange(SIZE) + 0.5  # pixel centres
QUAD = [p for t in rect_tris(0, 0, SIZE, SIZE) for p in t]

# An FS writing its own depth (0.25) and one with early fragment tests.
DEPTH_FS = """FRAG
DCL IN[0], GENERIC[0], CONSTANT
DCL OUT[0], COLOR
DCL OUT[1], POSITION
IMM[0] FLT32 {0.25, 0.0, 0.0, 0.0}
  0: MOV OUT[0], IN[0]
  1: MOV OUT[1].z, IMM[0].xxxx
  2: END
"""
EARLY_FS = """FRAG
PROPERTY FS_EARLY_DEPTH_STENCIL 1
DCL IN[0], GENERIC[0], CONSTANT
DCL OUT[0], COLOR
  0: MOV OUT[0], IN[0]
  1: END
"""
# A VS writing all eight clip distances (1.0: nothing clipped by them).
CLIPDIST8_VS = """VERT
DCL IN[0]
DCL IN[1]
DCL OUT[0], POSITION
DCL OUT[1], GENERIC[0]
DCL OUT[2..3], CLIPDIST
IMM[0] FLT32 {1.0, 1.0, 1.0, 1.0}
  0: MOV OUT[0], IN[0]
  1: MOV OUT[1], IN[1]
  2: MOV OUT[2], IMM[0]
  3: MOV OUT[3], IMM[0]
  4: END
"""


def quantize(z, bits: int) -> np.ndarray:
    """Depth as a buffer of ``bits`` fixed-point bits stores it (0: float32)."""
    z = np.clip(np.asarray(z, np.float64), 0.0, 1.0)
    if not bits:
        return z.astype(np.float32)
    top = 2.0**bits - 1
    return np.round(z * top) / top


def tolerance(bits: int) -> float:
    """One unit of the fixed-point format (plus float rounding of the interpolation)."""
    return 1.0 / (2.0**bits - 1) + 1e-7 if bits else 2e-6


def slope_triangle(zx: float, zy: float = 0.0):
    """A triangle covering the target whose NDC depth is ``zx * x + zy * y``
    (x, y window pixels): window depth 0.5 + 0.5 * (zx * x + zy * y)."""
    pts = [(0, 0), (4 * SIZE, 0), (0, 4 * SIZE)]
    z = [0.5 * 0 + zx * x + zy * y for x, y in pts]
    return tri_vertices(pts, z=z), 0.5 * zx, 0.5 * zy


def plain_depth(dzx: float, dzy: float) -> np.ndarray:
    """(SIZE, SIZE) window depth of ``slope_triangle`` at the pixel centres."""
    ys, xs = np.mgrid[0:SIZE, 0:SIZE] + 0.5
    return 0.5 + dzx * xs + dzy * ys


# ---------------------------------------------------------------------------
# offset_units_unscaled
# ---------------------------------------------------------------------------


def test_caps(screen):
    assert screen.get_param(Cap.POLYGON_OFFSET_UNITS_UNSCALED) == 1
    assert screen.get_param(Cap.DEPTH_CLIP_DISABLE_SEPARATE) == 1
    assert screen.get_param(Cap.DEPTH_CLAMP_ENABLE) == 0


@pytest.mark.parametrize("fmt, bits", DEPTH_FORMATS, ids=lambda v: getattr(v, "name", ""))
def test_unscaled_units_are_a_depth_value(screen, ctx, fmt, bits):
    """units added as they are: 0.5 + 0.125, whatever the depth format."""
    _, zs = depth_target(ctx, zs=fmt)
    bind_shaders(ctx)
    tri, _, _ = slope_triangle(0.0)
    for units in (0.125, -0.25):
        clear_depth(screen, zs, 1.0)
        rast(ctx, offset_tri=True, offset_units=units, offset_units_unscaled=True)
        draw(ctx, tri, Prim.TRIANGLES)
        depth = read_depth(screen, zs).astype(np.float64)
        assert np.allclose(depth, quantize(0.5 + units, bits), atol=tolerance(bits), rtol=0), units


@pytest.mark.parametrize("fmt, bits", DEPTH_FORMATS, ids=lambda v: getattr(v, "name", ""))
def test_unscaled_units_plus_slope(screen, ctx, fmt, bits):
    """o = scale * m + units: the slope term is GL's (host), the units unscaled.
    dz/dy = 0, so every permitted form of m is |dz/dx|."""
    _, zs = depth_target(ctx, zs=fmt)
    bind_shaders(ctx)
    tri, dzx, dzy = slope_triangle(1.0 / 64)
    clear_depth(screen, zs, 1.0)
    rast(ctx, offset_tri=True, offset_scale=4.0, offset_units=0.0625, offset_units_unscaled=True)
    draw(ctx, tri, Prim.TRIANGLES)
    want = quantize(plain_depth(dzx, dzy) + 4.0 * abs(dzx) + 0.0625, bits)
    assert np.allclose(read_depth(screen, zs), want, atol=tolerance(bits), rtol=0)


@pytest.mark.parametrize("fmt, bits", DEPTH_FORMATS, ids=lambda v: getattr(v, "name", ""))
def test_unscaled_units_with_clamp(screen, ctx, fmt, bits):
    """With offset_clamp the shader computes all of o (m = max of both slopes) and clamps the sum."""
    _, zs = depth_target(ctx, zs=fmt)
    bind_shaders(ctx)
    tri, dzx, dzy = slope_triangle(1.0 / 64, -1.0 / 128)
    m = max(abs(dzx), abs(dzy))
    plain = plain_depth(dzx, dzy)
    cases = [
        (2.0, 0.01, 0.5, 2.0 * m + 0.01),  # clamp above the offset: no effect
        (2.0, 0.01, 0.02, 0.02),  # positive clamp bounds above
        (-2.0, -0.01, -0.015, -0.015),  # negative clamp bounds below
        (-2.0, -0.01, 0.001, -2.0 * m - 0.01),
    ]  # a positive clamp leaves a negative offset alone
    for scale, units, clamp, offset in cases:
        clear_depth(screen, zs, 1.0)
        rast(
            ctx, offset_tri=True, offset_scale=scale, offset_units=units, offset_clamp=clamp, offset_units_unscaled=True
        )
        draw(ctx, tri, Prim.TRIANGLES)
        want = quantize(plain + offset, bits)
        assert np.allclose(read_depth(screen, zs), want, atol=tolerance(bits), rtol=0), (scale, units, clamp)


def test_offset_applies_by_fill_mode_never_to_lines_and_points(screen, ctx):
    """offset_tri: filled triangles only.  Lines and points are never offset;
    offset_line offsets line-filled polygons but not lines."""
    _, zs = depth_target(ctx)
    bind_shaders(ctx)
    units = 0.25
    tri = tri_vertices([(1, 1), (14, 1), (1, 14)], z=0.0)
    line = tri_vertices([(0.5, 8.5), (15.5, 8.5)], z=0.0)
    points = tri_vertices([(3.5, 3.5), (10.5, 12.5)], z=0.0)
    cases = [  # (fields, geometry, mode, offset expected)
        ({"offset_tri": True}, tri, Prim.TRIANGLES, True),
        ({"offset_tri": True}, line, Prim.LINES, False),
        ({"offset_tri": True}, points, Prim.POINTS, False),
        ({"offset_line": True, "offset_point": True}, tri, Prim.TRIANGLES, False),
        ({"offset_line": True}, line, Prim.LINES, False),
        ({"offset_point": True}, points, Prim.POINTS, False),
        (
            {"offset_line": True, "fill_front": PolygonMode.LINE, "fill_back": PolygonMode.LINE},
            tri,
            Prim.TRIANGLES,
            True,
        ),
        (
            {"offset_tri": True, "fill_front": PolygonMode.LINE, "fill_back": PolygonMode.LINE},
            tri,
            Prim.TRIANGLES,
            False,
        ),
        (
            {"offset_point": True, "fill_front": PolygonMode.POINT, "fill_back": PolygonMode.POINT},
            tri,
            Prim.TRIANGLES,
            True,
        ),
    ]
    for fields, geometry, mode, offset in cases:
        clear_depth(screen, zs, 1.0)
        rast(ctx, offset_units=units, offset_units_unscaled=True, **fields)
        draw(ctx, geometry, mode)
        depth = read_depth(screen, zs)
        drawn = depth != 1.0
        assert drawn.sum() >= 2, fields
        assert np.all(depth[drawn] == np.float32(0.5 + units if offset else 0.5)), (fields, mode)


def test_classes_alternate_without_losing_the_offset(screen, ctx):
    """Triangles and lines with one offset_tri rasterizer, in turns: the class
    is keyed per draw."""
    _, zs = depth_target(ctx)
    bind_shaders(ctx)
    rast(ctx, offset_tri=True, offset_units=0.125, offset_units_unscaled=True)
    tri = tri_vertices([(0, 0), (8, 0), (0, 8)], z=0.0)
    line = tri_vertices([(8.5, 12.5), (15.5, 12.5)], z=0.0)
    clear_depth(screen, zs, 1.0)
    for _ in range(2):
        draw(ctx, tri, Prim.TRIANGLES)
        draw(ctx, line, Prim.LINES)
    depth = read_depth(screen, zs)
    assert depth[1, 1] == np.float32(0.625) and depth[12, 10] == np.float32(0.5)


def test_new_values_do_not_recompile(screen, ctx):
    """Scale, units and clamp live in sysvals: CSOs differing only there share a program."""
    _, zs = depth_target(ctx)
    bind_shaders(ctx)
    tri, _, _ = slope_triangle(0.0)
    rast(ctx, offset_tri=True, offset_units=0.125, offset_units_unscaled=True)
    draw(ctx, tri, Prim.TRIANGLES)
    programs = len(ctx.shader_part._programs)
    for units in (0.0625, 0.25):
        rast(ctx, offset_tri=True, offset_units=units, offset_units_unscaled=True)
        draw(ctx, tri, Prim.TRIANGLES)
        assert np.all(read_depth(screen, zs) == np.float32(0.5 + units))
    assert len(ctx.shader_part._programs) == programs


def test_fs_writing_depth_gets_no_offset(screen, ctx):
    _, zs = depth_target(ctx)
    bind_shaders(ctx, fs=DEPTH_FS)
    rast(ctx, offset_tri=True, offset_scale=1.0, offset_units=0.125, offset_units_unscaled=True)
    tri, _, _ = slope_triangle(1.0 / 64)
    draw(ctx, tri, Prim.TRIANGLES)
    assert np.all(read_depth(screen, zs) == np.float32(0.25))


def test_early_fragment_tests_are_refused(screen, ctx):
    """GL ignores a written depth with early fragment tests: refused, never silently unbiased."""
    depth_target(ctx)
    bind_shaders(ctx)
    tri, _, _ = slope_triangle(0.0)
    rast(ctx, offset_tri=True, offset_units=0.125, offset_units_unscaled=True)
    draw(ctx, tri, Prim.TRIANGLES)  # the plain FS is fine
    with pytest.raises(
        UnsupportedError,
        match="offset_units_unscaled" if screen.profile.glsl_version >= 420 else "FS_EARLY_DEPTH_STENCIL",
    ):
        ctx.bind_fs_state(ctx.create_fs_state(ShaderState(tokens=EARLY_FS)))
        draw(ctx, tri, Prim.TRIANGLES)


def test_clamp_with_slope_on_line_filled_polygons_is_refused(ctx):
    with pytest.raises(UnsupportedError, match="offset_units_unscaled"):
        ctx.create_rasterizer_state(
            RasterizerState(
                offset_line=True,
                offset_scale=1.0,
                offset_units=0.1,
                offset_clamp=0.5,
                offset_units_unscaled=True,
                fill_front=PolygonMode.LINE,
                fill_back=PolygonMode.LINE,
            )
        )
    # Without the clamp (host slope), or without a slope, it is accepted.
    ctx.create_rasterizer_state(
        RasterizerState(
            offset_line=True,
            offset_scale=1.0,
            offset_units=0.1,
            offset_units_unscaled=True,
            fill_front=PolygonMode.LINE,
            fill_back=PolygonMode.LINE,
        )
    )
    ctx.create_rasterizer_state(
        RasterizerState(
            offset_line=True,
            offset_units=0.1,
            offset_clamp=0.5,
            offset_units_unscaled=True,
            fill_front=PolygonMode.LINE,
            fill_back=PolygonMode.LINE,
        )
    )


# ---------------------------------------------------------------------------
# depth_clip_near / depth_clip_far
# ---------------------------------------------------------------------------


def clip_setup(ctx, halfz: bool, zs=Format.Z32_FLOAT):
    """Colour + depth target with the depth range [0, 1] for ``halfz``."""
    color, zsres = depth_target(ctx, zs=zs)
    sz, tz = (1.0, 0.0) if halfz else (0.5, 0.5)
    ctx.set_viewport_states(0, [ViewportState(scale=(SIZE / 2, SIZE / 2, sz), translate=(SIZE / 2, SIZE / 2, tz))])
    return color, zsres, sz, tz


def z_ramp(halfz: bool):
    """NDC z along window x running from 0.5 beyond the near plane to 0.5
    beyond the far one (constant in y, w = 1); per pixel centre."""
    lo, hi = (-0.5, 1.5) if halfz else (-1.5, 1.5)

    def z_of(x):
        return lo + (hi - lo) * x / SIZE

    return z_of, z_of(XS)


@pytest.mark.parametrize("halfz", [False, True], ids=["gl_z", "halfz"])
@pytest.mark.parametrize("near, far", [(True, True), (False, True), (True, False), (False, False)])
def test_depth_clip_planes(screen, ctx, near, far, halfz):
    color, zs, sz, tz = clip_setup(ctx, halfz)
    bind_shaders(ctx)
    z_of, z = z_ramp(halfz)
    rast(ctx, depth_clip_near=near, depth_clip_far=far, clip_halfz=halfz)
    clear_depth(screen, zs, 0.75)
    verts = tri_vertices(QUAD, z=[z_of(x) for x, _ in QUAD])
    img = draw_image(ctx, color, verts, Prim.TRIANGLES)
    lo = 0.0 if halfz else -1.0
    keep = np.ones(SIZE, bool)
    if near:
        keep &= z >= lo
    if far:
        keep &= z <= 1.0
    assert np.array_equal(lit(img), np.broadcast_to(keep, (SIZE, SIZE))), (near, far)
    want = np.clip(z * sz + tz, 0.0, 1.0)  # depth range [0, 1]: depth_clamp or GL's own clamp
    depth = read_depth(screen, zs)
    assert np.allclose(depth[:, keep], np.broadcast_to(want[keep], (SIZE, keep.sum())), atol=2e-6)
    assert np.all(depth[:, ~keep] == 0.75)


@pytest.mark.parametrize("near, far", [(False, True), (True, False)])
def test_depth_clip_plane_with_user_planes(screen, ctx, near, far):
    """User plane 0 (keep y_ndc >= 0: window rows 8..15) and the depth plane clip together."""
    color = clip_setup(ctx, False)[0]
    bind_shaders(ctx)
    z_of, z = z_ramp(False)
    ctx.set_clip_state(ClipState(ucp=((0.0, 1.0, 0.0, 0.0),) + ((0.0, 0.0, 0.0, 1.0),) * 7))
    rast(ctx, depth_clip_near=near, depth_clip_far=far, clip_plane_enable=0b1)
    img = draw_image(ctx, color, tri_vertices(QUAD, z=[z_of(x) for x, _ in QUAD]), Prim.TRIANGLES)
    keep_x = (z >= -1.0) if near else (z <= 1.0)
    keep_y = XS >= SIZE / 2
    assert np.array_equal(lit(img), keep_y[:, None] & keep_x[None, :])


def test_depth_clip_plane_through_a_gs(screen, ctx):
    """The distance is written by the last vertex stage, here a GS."""
    color = clip_setup(ctx, False)[0]
    bind_shaders(ctx)
    ctx.bind_gs_state(ctx.create_gs_state(ShaderState(tokens=triangle_gs("TRIANGLE_STRIP", (0, 1, 2)))))
    z_of, z = z_ramp(False)
    rast(ctx, depth_clip_near=True, depth_clip_far=False)
    img = draw_image(ctx, color, tri_vertices(QUAD, z=[z_of(x) for x, _ in QUAD]), Prim.TRIANGLES)
    assert np.array_equal(lit(img), np.broadcast_to(z >= -1.0, (SIZE, SIZE)))


def test_seven_user_planes_leave_the_last_distance(screen, ctx):
    color = clip_setup(ctx, False)[0]
    bind_shaders(ctx)
    z_of, z = z_ramp(False)
    ctx.set_clip_state(ClipState(ucp=((0.0, 0.0, 0.0, 1.0),) * 8))  # never clip
    rast(ctx, depth_clip_near=False, depth_clip_far=True, clip_plane_enable=0x7F)
    img = draw_image(ctx, color, tri_vertices(QUAD, z=[z_of(x) for x, _ in QUAD]), Prim.TRIANGLES)
    assert np.array_equal(lit(img), np.broadcast_to(z <= 1.0, (SIZE, SIZE)))


def test_no_free_clip_distance_is_refused(screen, ctx):
    with pytest.raises(UnsupportedError, match="depth_clip_near"):
        ctx.create_rasterizer_state(RasterizerState(depth_clip_near=False, depth_clip_far=True, clip_plane_enable=0xFF))
    # A shader writing all eight distances leaves none either: refused at the draw.
    clip_setup(ctx, False)
    bind_shaders(ctx, vs=CLIPDIST8_VS)
    rast(ctx, depth_clip_near=False, depth_clip_far=True, clip_plane_enable=0xFF >> 4)
    with pytest.raises(UnsupportedError, match="depth_clip_near"):
        draw(ctx, tri_vertices(QUAD), Prim.TRIANGLES)


# (scale z, translate z) of depth ranges not [0, 1]: narrow (beyond the near
# plane depth stays above n = 0.25), one whose near side runs below 0 (Gallium
# clamps to 0, not to n = 0.05), and a reversed one (n = 0.75 > f = 0.25).
NARROW_RANGES = [(0.25, 0.5), (0.3, 0.35), (-0.25, 0.5)]


@pytest.mark.parametrize("halfz", [False, True], ids=["gl_z", "halfz"])
@pytest.mark.parametrize("sz, tz", NARROW_RANGES, ids=["narrow", "below_0", "reversed"])
def test_near_plane_off_with_a_narrow_depth_range(screen, ctx, sz, tz, halfz):
    """Near plane off, far on: depth_clamp = !depth_clip_far is off, so depth
    is z_ndc * sz + tz clamped to [0, 1] only, also beyond the near plane
    (glpipe: the host gets the range [0, 1], the vertex stage the transform).
    clip_halfz changes only where the near plane would have clipped."""
    color, zs = depth_target(ctx)
    ctx.set_viewport_states(0, [ViewportState(scale=(SIZE / 2, SIZE / 2, sz), translate=(SIZE / 2, SIZE / 2, tz))])
    bind_shaders(ctx)
    z_of, z = z_ramp(halfz)
    rast(ctx, depth_clip_near=False, depth_clip_far=True, clip_halfz=halfz)
    img = draw_image(ctx, color, tri_vertices(QUAD, z=[z_of(x) for x, _ in QUAD]), Prim.TRIANGLES)
    keep = z <= 1.0
    assert np.array_equal(lit(img), np.broadcast_to(keep, (SIZE, SIZE)))
    want = np.clip(z * sz + tz, 0.0, 1.0)
    # Beyond the near plane the host's own clamp to the depth range [n, f] would differ.
    n, f = (tz, tz + sz) if halfz else (tz - sz, tz + sz)
    beyond = keep & (z < (0.0 if halfz else -1.0))
    assert beyond.any() and not np.allclose(want[beyond], np.clip(want[beyond], min(n, f), max(n, f)))
    assert np.allclose(read_depth(screen, zs)[:, keep], np.broadcast_to(want[keep], (SIZE, keep.sum())), atol=2e-6)
    # Back to both planes on: the host's depth range is the viewport's again.
    rast(ctx)
    clear_depth(screen, zs, 0.0)
    draw_image(ctx, color, tri_vertices(QUAD, z=[z_of(x) for x, _ in QUAD]), Prim.TRIANGLES)
    inside = (z >= (0.0 if halfz else -1.0)) & keep
    assert np.allclose(
        read_depth(screen, zs)[:, inside], np.broadcast_to(want[inside], (SIZE, inside.sum())), atol=2e-6
    )


def test_near_plane_off_through_a_gs_and_fs_depth(screen, ctx):
    """The transform runs in the last vertex stage (a GS here), and a depth
    the FS writes (0.25 outside the range [0.4, 0.6]) is clamped to [0, 1]
    only, as the rasterized one."""
    color, zs = depth_target(ctx)
    ctx.set_viewport_states(0, [ViewportState(scale=(SIZE / 2, SIZE / 2, 0.1), translate=(SIZE / 2, SIZE / 2, 0.5))])
    bind_shaders(ctx)
    ctx.bind_gs_state(ctx.create_gs_state(ShaderState(tokens=triangle_gs("TRIANGLE_STRIP", (0, 1, 2)))))
    z_of, z = z_ramp(False)
    rast(ctx, depth_clip_near=False, depth_clip_far=True)
    draw_image(ctx, color, tri_vertices(QUAD, z=[z_of(x) for x, _ in QUAD]), Prim.TRIANGLES)
    keep = z <= 1.0
    want = np.clip(z * 0.1 + 0.5, 0.0, 1.0)
    assert np.allclose(read_depth(screen, zs)[:, keep], np.broadcast_to(want[keep], (SIZE, keep.sum())), atol=2e-6)
    ctx.bind_gs_state(None)
    ctx.bind_fs_state(ctx.create_fs_state(ShaderState(tokens=DEPTH_FS)))
    draw_image(ctx, color, tri_vertices(QUAD, z=[z_of(x) for x, _ in QUAD]), Prim.TRIANGLES)
    assert np.allclose(read_depth(screen, zs)[:, keep], 0.25, atol=2e-6)


# A GS that sends each triangle to viewport 1.
VIEWPORT1_GS = """GEOM
PROPERTY GS_INPUT_PRIMITIVE TRIANGLES
PROPERTY GS_OUTPUT_PRIMITIVE TRIANGLE_STRIP
PROPERTY GS_MAX_OUTPUT_VERTICES 3
DCL IN[][0], POSITION
DCL IN[][1], GENERIC[0]
DCL OUT[0], POSITION
DCL OUT[1], GENERIC[0]
DCL OUT[2], VIEWPORT_INDEX
IMM[0] UINT32 {0, 1, 0, 0}
  0: MOV OUT[0], IN[0][0]
  1: MOV OUT[1], IN[0][1]
  2: MOV OUT[2].x, IMM[0].yyyy
  3: EMIT IMM[0].xxxx
  4: MOV OUT[0], IN[1][0]
  5: MOV OUT[1], IN[1][1]
  6: MOV OUT[2].x, IMM[0].yyyy
  7: EMIT IMM[0].xxxx
  8: MOV OUT[0], IN[2][0]
  9: MOV OUT[1], IN[2][1]
 10: MOV OUT[2].x, IMM[0].yyyy
 11: EMIT IMM[0].xxxx
 12: END
"""


def test_near_plane_off_with_a_viewport_index_is_refused(screen, ctx):
    """The vertex stage applies viewport 0's depth transform, so with more
    than one viewport a last stage writing VIEWPORT_INDEX is refused at the
    draw."""
    if screen.get_param(Cap.MAX_VIEWPORTS) == 1:
        pytest.skip("one viewport on this profile (no shader can write VIEWPORT_INDEX)")
    color, zs = depth_target(ctx)
    vp = ViewportState(scale=(SIZE / 2, SIZE / 2, 0.25), translate=(SIZE / 2, SIZE / 2, 0.5))
    ctx.set_viewport_states(0, [vp, vp])
    bind_shaders(ctx)
    ctx.bind_gs_state(ctx.create_gs_state(ShaderState(tokens=VIEWPORT1_GS)))
    rast(ctx, depth_clip_near=False, depth_clip_far=True)
    verts = tri_vertices(QUAD, z=0.0)
    with pytest.raises(UnsupportedError, match="VIEWPORT_INDEX"):
        draw(ctx, verts, Prim.TRIANGLES)
    rast(ctx)  # both planes on: the host's viewports, no refusal
    img = draw_image(ctx, color, verts, Prim.TRIANGLES)
    assert lit(img).all()
    assert np.allclose(read_depth(screen, zs), 0.5, atol=2e-6)


def test_depth_clamp_follows_depth_clip_far(screen, ctx):
    """PIPE_CAP_DEPTH_CLAMP_ENABLE is 0, so frontends set depth_clamp =
    !depth_clip_far (screen.rst) and glpipe derives the clamp from the clip
    fields: a template contradicting that rule (depth_clamp True with both
    planes on, False with both off) draws as the rule says.  With both planes
    on, depth stays in the range anyway; an FS-written 0.25 outside the range
    [0.4, 0.6] is kept (no range clamp); with both off it is clamped to 0.4."""
    assert screen.get_param(Cap.DEPTH_CLAMP_ENABLE) == 0
    color, zs = depth_target(ctx)
    ctx.set_viewport_states(0, [ViewportState(scale=(SIZE / 2, SIZE / 2, 0.1), translate=(SIZE / 2, SIZE / 2, 0.5))])
    bind_shaders(ctx, fs=DEPTH_FS)
    for clip, clamp, want in ((True, True, 0.25), (True, False, 0.25), (False, False, 0.4), (False, True, 0.4)):
        rast(ctx, depth_clip_near=clip, depth_clip_far=clip, depth_clamp=clamp)
        clear_depth(screen, zs, 1.0)
        draw_image(ctx, color, tri_vertices(QUAD, z=0.0), Prim.TRIANGLES)
        assert np.allclose(read_depth(screen, zs), want, atol=2e-6), (clip, clamp)


@pytest.mark.parametrize("halfz", [False, True], ids=["gl_z", "halfz"])
def test_near_plane_off_with_a_window_space_position(screen, ctx, halfz):
    """A window-space position has no viewport transform: its z is the
    depth (0.3 here), with the near plane off and a narrow viewport range."""
    color, zs = depth_target(ctx)
    ctx.set_viewport_states(0, [ViewportState(scale=(SIZE / 2, SIZE / 2, 0.1), translate=(SIZE / 2, SIZE / 2, 0.5))])
    bind_shaders(ctx, vs=WINDOW_VS)
    rast(ctx, depth_clip_near=False, depth_clip_far=True, clip_halfz=halfz)
    verts = np.zeros((6, 8), np.float32)
    verts[:, :2] = [p for t in rect_tris(0, 0, SIZE, SIZE) for p in t]
    verts[:, 2:] = (0.3, 1.0, 1.0, 1.0, 1.0, 1.0)
    img = draw_image(ctx, color, verts, Prim.TRIANGLES)
    assert lit(img).all()
    assert np.allclose(read_depth(screen, zs), 0.3, atol=2e-6)
