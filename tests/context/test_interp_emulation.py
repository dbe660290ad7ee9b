"""INTERP_OFFSET / INTERP_SAMPLE / INTERP_CENTROID on both profiles.

GL 4.00's interpolateAt* are native on the ``native`` profile and emulated on
``gl33`` (lowering/glsl/passes/interp.py: re-interpolation from the screen-space
derivatives of ``a/w`` and ``1/w``).  Expectations are the attribute evaluated
at the requested window position in float64 from the triangle's vertices
(perspective-correct barycentrics, docs/lowering.md "Interpolation functions"),
never the code under test; ``test_gl33_matches_native_pixels`` also compares
every pixel of the two profiles.
"""

from __future__ import annotations

import numpy as np
import pytest
from conftest import get_screen  # (tests/ is on sys.path: pytest rootdir conftest)

import glpipe
from glpipe import Bind, Format
from lowering.errors import UnsupportedError

from .util import read_rgba32f, vertex_buffer
from .util_blend_dsa import (
    bind_rasterizer,
    bind_targets,
    clear_msaa,
    color_target,
    pipeline,
    resolve_rgba32f,
    sample_positions,
    texture,
)

W = H = 8
# Clip-space vertices (NDC times w, w = 1, 2, 4: perspective matters) and the
# attribute (GENERIC[0]) at each.  The triangle cuts the 8x8 target, so edge
# pixels (whose neighbours in the 2x2 quad are outside it) are exercised.
NDC = np.array([[-0.9, -0.8], [0.95, -0.35], [-0.3, 0.9]])
WS = np.array([1.0, 2.0, 4.0])
ATTR = np.array([[0.0, 10.0, -3.0, 1.0], [8.0, 0.0, 5.0, 2.0], [2.0, 6.0, 1.0, -4.0]])

INTERP_OPS = {
    "offset": "INTERP_OFFSET TEMP[0], IN[0], IMM[0].xyxy",
    "sample": "INTERP_SAMPLE TEMP[0], IN[0], IMM[1].{s}{s}{s}{s}",
    "centroid": "INTERP_CENTROID TEMP[0], IN[0]",
}
OFFSET = (0.3125, -0.4375)


def fs_text(op: str, interp: str, sample: int = 0) -> str:
    """An FS writing ``op`` of GENERIC[0] (interpolated as ``interp``) to COLOR."""
    text = INTERP_OPS[op].format(s="xyzw"[sample])
    return (
        f"FRAG\nDCL IN[0], GENERIC[0], {interp}\nDCL OUT[0], COLOR\nDCL TEMP[0]\n"
        f"IMM[0] FLT32 {{{OFFSET[0]}, {OFFSET[1]}, 0.0, 0.0}}\nIMM[1] INT32 {{0, 1, 2, 3}}\n"
        f"  0: {text}\n  1: MOV OUT[0], TEMP[0]\n  2: END\n"
    )


def vertices() -> np.ndarray:
    out = np.zeros((3, 8), np.float32)
    out[:, 0:2] = NDC * WS[:, None]
    out[:, 3] = WS
    out[:, 4:8] = ATTR
    return out


def barycentrics(px: np.ndarray, py: np.ndarray) -> np.ndarray:
    """Screen-space barycentrics (..., 3) of window positions (px, py): row 0
    of the target is window y 0 (NDC y -1), the viewport spans the target."""
    win = np.stack([(NDC[:, 0] + 1) * W / 2, (NDC[:, 1] + 1) * H / 2], -1)
    (x0, y0), (x1, y1), (x2, y2) = win
    area = (x1 - x0) * (y2 - y0) - (x2 - x0) * (y1 - y0)
    l1 = ((px - x0) * (y2 - y0) - (x2 - x0) * (py - y0)) / area
    l2 = ((x1 - x0) * (py - y0) - (px - x0) * (y1 - y0)) / area
    return np.stack([1 - l1 - l2, l1, l2], -1)


def one_over_w(px: np.ndarray, py: np.ndarray) -> np.ndarray:
    """1/w (gl_FragCoord.w) at window positions: affine in screen space."""
    return barycentrics(px, py) @ (1 / WS)


def expected(interp: str, px: np.ndarray, py: np.ndarray) -> np.ndarray:
    """GENERIC[0] at window positions (px, py), perspective-correct there
    for PERSPECTIVE (GLSL 4.00 8.13.2: the input "interpolated at" the
    position)."""
    lam = barycentrics(px, py)
    if interp == "CONSTANT":
        return np.broadcast_to(ATTR[2], px.shape + (4,))  # the last (provoking) vertex
    if interp == "PERSPECTIVE":
        lam = lam / WS
        lam = lam / lam.sum(-1, keepdims=True)
    return lam @ ATTR


def llvmpipe_native_w(screen) -> bool:
    """True where the profile's interpolateAt* is llvmpipe's own, which
    divides the attribute's a/w at the new position by 1/w at the pixel
    centre, not at that position (lp_bld_interp.c, lp_build_interp_soa:
    ``a * rcp(pos.w)``), so a smooth input's value is off by the factor
    1/w(c + o) / 1/w(c).  glpipe's emulation is perspective-correct."""
    return screen.profile.has("gpu_shader5") and "llvmpipe" in screen.profile.renderer


def expected_on(screen, interp: str, cx, cy, ox, oy) -> np.ndarray:
    """``expected`` at (cx + ox, cy + oy) as ``screen``'s profile delivers it."""
    want = expected(interp, cx + ox, cy + oy)
    if interp == "PERSPECTIVE" and llvmpipe_native_w(screen):
        want = want * (one_over_w(cx + ox, cy + oy) / one_over_w(cx, cy))[..., None]
    return want


def covered(px: np.ndarray, py: np.ndarray, margin: float = 0.0) -> np.ndarray:
    """Window positions inside the triangle by at least ``margin`` pixels."""
    win = np.stack([(NDC[:, 0] + 1) * W / 2, (NDC[:, 1] + 1) * H / 2], -1)
    inside = np.ones(px.shape, bool)
    for a, b in ((0, 1), (1, 2), (2, 0)):
        (ax, ay), (bx, by) = win[a], win[b]
        length = np.hypot(bx - ax, by - ay)
        inside &= ((bx - ax) * (py - ay) - (by - ay) * (px - ax)) / length > margin
    return inside


def draw(screen, ctx, fs: str, samples: int = 0):
    """Draw the triangle with ``fs`` into a W x H RGBA32F target (``samples``
    > 1: multisampled, returned resolved); also returns the sample positions."""
    if samples > 1:
        res = texture(screen, Format.R32G32B32A32_FLOAT, W, H, Bind.RENDER_TARGET, samples=samples)
        bind_targets(ctx, W, H, (res,))
        bind_rasterizer(ctx, multisample=True)
        clear_msaa(screen, ctx, res, (0, 0, 0, 0))
    else:
        res = color_target(screen, ctx, W, H)
        bind_rasterizer(ctx)
    pipeline(ctx, fs)
    ctx.set_vertex_buffers([glpipe.VertexBuffer(buffer=vertex_buffer(screen, vertices()), stride=32)])
    ctx.draw_vbo(glpipe.DrawInfo(mode=glpipe.Prim.TRIANGLES, start=0, count=3))
    if samples > 1:
        return resolve_rgba32f(screen, ctx, res), sample_positions(screen, res, samples)
    return read_rgba32f(screen, res), [(0.5, 0.5)]


PIX_Y, PIX_X = np.mgrid[0:H, 0:W].astype(np.float64)
TOL = dict(rtol=2e-5, atol=2e-5)


@pytest.mark.parametrize("interp", ["PERSPECTIVE", "LINEAR", "CONSTANT"])
def test_interp_offset_single_sample(screen, ctx, interp):
    """INTERP_OFFSET: every covered pixel reads the attribute at its centre + offset."""
    img, _ = draw(screen, ctx, fs_text("offset", interp))
    mask = covered(PIX_X + 0.5, PIX_Y + 0.5)
    want = expected_on(screen, interp, PIX_X + 0.5, PIX_Y + 0.5, *OFFSET)
    assert mask.sum() > 10 and (~mask).sum() > 10
    np.testing.assert_allclose(img[mask], want[mask], **TOL)
    np.testing.assert_array_equal(img[~mask], 0.0)


@pytest.mark.parametrize("interp", ["PERSPECTIVE", "LINEAR"])
def test_interp_sample_and_centroid_single_sample(screen, ctx, interp):
    """Single-sample framebuffer: INTERP_SAMPLE evaluates at the pixel centre
    (GLSL 4.00 8.13.2: no multisample buffer) and INTERP_CENTROID too (the
    pixel is only drawn when its centre is covered)."""
    mask = covered(PIX_X + 0.5, PIX_Y + 0.5)
    want = expected(interp, PIX_X + 0.5, PIX_Y + 0.5)
    for text in (fs_text("sample", interp, 2), fs_text("centroid", interp)):
        img, _ = draw(screen, ctx, text)
        np.testing.assert_allclose(img[mask], want[mask], **TOL)


@pytest.mark.parametrize("sample", [0, 1, 2, 3])
@pytest.mark.parametrize("interp", ["PERSPECTIVE", "LINEAR"])
def test_interp_sample_on_4x_msaa(screen, ctx, interp, sample):
    """INTERP_SAMPLE on a 4x target: the attribute at sample ``sample``'s
    position (the host's pattern, GL_SAMPLE_POSITION); pixels whose four
    samples are all well inside resolve to exactly that value."""
    img, positions = draw(screen, ctx, fs_text("sample", interp, sample), samples=4)
    sx, sy = positions[sample]
    assert (sx, sy) != (0.5, 0.5)
    mask = covered(PIX_X + 0.5, PIX_Y + 0.5, margin=0.75)
    assert mask.sum() > 5
    want = expected_on(screen, interp, PIX_X + 0.5, PIX_Y + 0.5, sx - 0.5, sy - 0.5)
    np.testing.assert_allclose(img[mask], want[mask], **TOL)


def test_interp_offset_on_4x_msaa(screen, ctx):
    """INTERP_OFFSET ignores the samples: centre + offset on a 4x target too."""
    img, _ = draw(screen, ctx, fs_text("offset", "PERSPECTIVE"), samples=4)
    mask = covered(PIX_X + 0.5, PIX_Y + 0.5, margin=0.75)
    want = expected_on(screen, "PERSPECTIVE", PIX_X + 0.5, PIX_Y + 0.5, *OFFSET)
    np.testing.assert_allclose(img[mask], want[mask], **TOL)


def test_interp_centroid_on_4x_msaa(screen, ctx):
    """INTERP_CENTROID on a 4x target: a fully covered pixel's centroid is its
    centre.  gl33 reads a centroid-qualified copy the VS writes
    (VariantKey.interp_copies); test_interp_msaa.py checks partly covered
    pixels too."""
    img, _ = draw(screen, ctx, fs_text("centroid", "PERSPECTIVE"), samples=4)
    mask = covered(PIX_X + 0.5, PIX_Y + 0.5, margin=0.75)
    want = expected("PERSPECTIVE", PIX_X + 0.5, PIX_Y + 0.5)
    np.testing.assert_allclose(img[mask], want[mask], **TOL)


def test_msaa_reinterpolation_without_copies_is_refused():
    """A key made by hand with the sample positions of a 4x framebuffer but no
    interp_copies: the centroid of a CENTER input and the centre of a
    CENTROID input are not expressible at GLSL 3.30, so the lowering refuses,
    naming the opcode and what is missing."""
    from lowering import to_glsl
    from lowering.glsl.variant import VariantKey

    key = VariantKey(sample_positions=(0.375, 0.125, 0.875, 0.375, 0.125, 0.625, 0.625, 0.875))
    with pytest.raises(UnsupportedError, match="INTERP_CENTROID of IN.0. on a multisampled.*interp_copies"):
        to_glsl(fs_text("centroid", "PERSPECTIVE"), glsl_version=330, key=key, extensions=frozenset())
    with pytest.raises(UnsupportedError, match="INTERP_OFFSET of IN.0. on a multisampled.*CENTROID"):
        to_glsl(CENTROID_INPUT_FS, glsl_version=330, key=key, extensions=frozenset())
    keyed = VariantKey(sample_positions=key.sample_positions, interp_copies=(("GENERIC", 0, "CENTROID"),))
    source = to_glsl(fs_text("centroid", "PERSPECTIVE"), glsl_version=330, key=keyed, extensions=frozenset()).source
    assert "centroid vec4 glp_generic_0_at_centroid;" in source and "interpolateAt" not in source


CENTROID_INPUT_FS = """FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE, CENTROID
DCL OUT[0], COLOR
DCL TEMP[0]
IMM[0] FLT32 {0.25, 0.25, 0.0, 0.0}
  0: INTERP_OFFSET TEMP[0], IN[0], IMM[0].xyxy
  1: MOV OUT[0], TEMP[0]
  2: END
"""


def test_interp_offset_of_a_centroid_input(screen, ctx):
    """INTERP_OFFSET of a CENTROID-declared input is relative to the pixel
    centre whatever the declaration (GLSL 4.00 8.13.2).  Single-sample: the
    centroid is the centre; on a 4x target gl33 re-interpolates from a
    pixel-centre copy the VS writes (VariantKey.interp_copies)."""
    want = expected_on(screen, "PERSPECTIVE", PIX_X + 0.5, PIX_Y + 0.5, 0.25, 0.25)
    img, _ = draw(screen, ctx, CENTROID_INPUT_FS)
    mask = covered(PIX_X + 0.5, PIX_Y + 0.5)
    np.testing.assert_allclose(img[mask], want[mask], **TOL)
    img, _ = draw(screen, ctx, CENTROID_INPUT_FS, samples=4)
    mask = covered(PIX_X + 0.5, PIX_Y + 0.5, margin=0.75)
    np.testing.assert_allclose(img[mask], want[mask], **TOL)


CASES = [
    (op, interp, samples)
    for op in ("offset", "sample", "centroid")
    for interp in ("PERSPECTIVE", "LINEAR")
    for samples in (0, 4)
]


@pytest.mark.parametrize("op,interp,samples", CASES)
def test_gl33_matches_native_pixels(op, interp, samples):
    """The same TGSI on both profiles gives the same pixels, every pixel
    (edges and MSAA resolves included), within float rounding (one run: it
    uses both profiles' screens itself).  Where the native function is
    llvmpipe's (``llvmpipe_native_w``) a smooth input re-interpolated away
    from the centre differs by exactly its 1/w ratio, which is divided out
    of the native pixels first (computed from the geometry)."""
    images = []
    for name in ("native", "gl33"):
        screen = get_screen(name)
        ctx = screen.context_create()
        try:
            img, positions = draw(screen, ctx, fs_text(op, interp, 1), samples)
        finally:
            ctx.destroy()
        if name == "native" and interp == "PERSPECTIVE" and op != "centroid" and llvmpipe_native_w(screen):
            # (INTERP_SAMPLE of sample 1; a single-sample target's only position is the centre)
            ox, oy = (
                OFFSET
                if op == "offset"
                else (positions[-1 if samples <= 1 else 1][0] - 0.5, positions[-1 if samples <= 1 else 1][1] - 0.5)
            )
            cx, cy = PIX_X + 0.5, PIX_Y + 0.5
            img = img * (one_over_w(cx, cy) / one_over_w(cx + ox, cy + oy))[..., None]
        images.append(img)
    assert np.abs(images[0]).max() > 0
    np.testing.assert_allclose(images[1], images[0], **TOL)


COLOR_VS = """VERT
DCL IN[0]
DCL IN[1]
DCL OUT[0], POSITION
DCL OUT[1], COLOR[0]
  0: MOV OUT[0], IN[0]
  1: MOV OUT[1], IN[1]
  2: END
"""

COLOR_OFFSET_FS = """FRAG
DCL IN[0], COLOR[0], COLOR
DCL OUT[0], COLOR
DCL TEMP[0]
IMM[0] FLT32 {0.3125, -0.4375, 0.0, 0.0}
  0: INTERP_OFFSET TEMP[0], IN[0], IMM[0].xyxy
  1: MOV OUT[0], TEMP[0]
  2: END
"""


@pytest.mark.parametrize("two_side,flatshade", [(True, False), (False, True)])
def test_interp_offset_of_a_color_input(screen, ctx, two_side, flatshade):
    """A COLOR-interpolated input: smooth (here through the two-sided
    selection of the front face's varying), or flat under flatshade (the
    provoking -- last -- vertex's value wherever it is re-interpolated)."""
    res = color_target(screen, ctx, W, H)
    bind_rasterizer(ctx, light_twoside=two_side, flatshade=flatshade)
    pipeline(ctx, COLOR_OFFSET_FS)
    ctx.bind_vs_state(ctx.create_vs_state(glpipe.ShaderState(tokens=COLOR_VS)))
    ctx.set_vertex_buffers([glpipe.VertexBuffer(buffer=vertex_buffer(screen, vertices()), stride=32)])
    ctx.draw_vbo(glpipe.DrawInfo(mode=glpipe.Prim.TRIANGLES, start=0, count=3))
    img = read_rgba32f(screen, res)
    mask = covered(PIX_X + 0.5, PIX_Y + 0.5)
    if flatshade:
        want = expected("CONSTANT", PIX_X, PIX_Y)
    else:
        want = expected_on(screen, "PERSPECTIVE", PIX_X + 0.5, PIX_Y + 0.5, *OFFSET)
    np.testing.assert_allclose(img[mask], want[mask], **TOL)


PASS_GS = """GEOM
PROPERTY GS_INPUT_PRIMITIVE TRIANGLES
PROPERTY GS_OUTPUT_PRIMITIVE TRIANGLE_STRIP
PROPERTY GS_MAX_OUTPUT_VERTICES 3
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
  6: MOV OUT[0], IN[2][0]
  7: MOV OUT[1], IN[2][1]
  8: EMIT IMM[0].xxxx
  9: END
"""


def test_interp_offset_behind_a_geometry_shader(screen, ctx):
    """The re-interpolation needs no generated stage, so a bound Gallium GS
    changes nothing: the triangle it emits is re-interpolated the same."""
    res = color_target(screen, ctx, W, H)
    bind_rasterizer(ctx)
    pipeline(ctx, fs_text("offset", "LINEAR"))
    ctx.bind_gs_state(ctx.create_gs_state(glpipe.ShaderState(tokens=PASS_GS)))
    ctx.set_vertex_buffers([glpipe.VertexBuffer(buffer=vertex_buffer(screen, vertices()), stride=32)])
    ctx.draw_vbo(glpipe.DrawInfo(mode=glpipe.Prim.TRIANGLES, start=0, count=3))
    img = read_rgba32f(screen, res)
    ctx.bind_gs_state(None)
    mask = covered(PIX_X + 0.5, PIX_Y + 0.5)
    want = expected("LINEAR", PIX_X + 0.5 + OFFSET[0], PIX_Y + 0.5 + OFFSET[1])
    np.testing.assert_allclose(img[mask], want[mask], **TOL)


PLAIN_FS = """FRAG
DCL IN[0], GENERIC[0], LINEAR
DCL OUT[0], COLOR
  0: MOV OUT[0], IN[0]
  1: END
"""


def _draw_line(screen, ctx, fs: str, width: float) -> np.ndarray:
    seg = np.array([[-0.9, -0.7, 0, 1, 0, 1, 2, 3], [0.8, -0.1, 0, 1, 8, -1, 2, 5]], np.float32)
    res = color_target(screen, ctx, W, H)
    bind_rasterizer(ctx, line_width=width)
    pipeline(ctx, fs)
    ctx.set_vertex_buffers([glpipe.VertexBuffer(buffer=vertex_buffer(screen, seg), stride=32)])
    ctx.draw_vbo(glpipe.DrawInfo(mode=glpipe.Prim.LINES, start=0, count=2))
    return read_rgba32f(screen, res)


@pytest.mark.parametrize("width", [1.0, 3.0])
def test_interp_offset_on_lines(screen, ctx, width):
    """Lines: the varying as the host rasterizes the line is affine in the
    window position; INTERP_OFFSET reads that same function at centre +
    offset (the plane is fitted, in float64, to a plain draw's pixels)."""
    plain = _draw_line(screen, ctx, PLAIN_FS, width)
    drawn = np.abs(plain).max(-1) > 0
    assert drawn.sum() >= 6
    centres = np.stack([PIX_X[drawn] + 0.5, PIX_Y[drawn] + 0.5, np.ones(drawn.sum())], -1)
    plane, *_ = np.linalg.lstsq(centres, plain[drawn].astype(np.float64), rcond=None)
    np.testing.assert_allclose(centres @ plane, plain[drawn], **TOL)  # it is a plane
    got = _draw_line(screen, ctx, fs_text("offset", "LINEAR"), width)
    want = (centres + [OFFSET[0], OFFSET[1], 0.0]) @ plane
    if (
        screen.profile.has("interpolate_at")
        and "llvmpipe" in screen.profile.renderer
        and not np.allclose(got[drawn], want, **TOL)
    ):
        # Seen in full-suite runs (alone it often passes): NaN or stale values in
        # some components, depending on what ran before -- the native path's, not
        # glpipe's; the gl33 run of this test checks glpipe's re-interpolation.
        pytest.xfail(
            "host bug (Mesa 22.3 llvmpipe): interpolateAtOffset on a line returns NaN / "
            "garbage in some components, depending on earlier state"
        )
    np.testing.assert_allclose(got[drawn], want, **TOL)


def test_sample_positions_key_is_checked():
    """VariantKey.sample_positions: (x, y) pairs of floats in [0, 1]."""
    from lowering.errors import InvalidArgumentError
    from lowering.glsl.variant import VariantKey

    assert VariantKey(sample_positions=(0.375, 0.125, 0.875, 0.375)).sample_positions[1] == 0.125
    for bad in ((0.5,), (0.5, 1.5), (0, 0)):
        with pytest.raises(InvalidArgumentError, match="sample_positions"):
            VariantKey(sample_positions=bad)
