"""INTERP_CENTROID / INTERP_SAMPLE / INTERP_OFFSET on a 4x multisampled target,
every pixel, on both profiles (issue 18 item 3).

On ``native`` these are GLSL 4.00's interpolateAt*; on ``gl33`` the FS
re-interpolates from derivatives (lowering/glsl/passes/interp.py) and, where
the value it starts from is not the one GLSL 3.30 delivers -- the centroid of a
CENTER input, the pixel-centre value of a CENTROID input -- reads a copy of
the varying with the other qualifier, which the last vertex stage (VS or GS
here) writes because its variant key says so (``VariantKey.interp_copies``,
docs/lowering.md "Interpolation functions without interpolateAt*").

The triangle's edges cross pixels, so partially covered pixels (whose
centroid is not their centre) are checked too: the resolved pixel is the
value times the covered fraction (the target is cleared to 0).  Expected
values come from the geometry in float64 (``test_interp_emulation``'s
barycentrics, perspective-correct with the vertices' w) at the positions
GL_SAMPLE_POSITION reports, never from the code under test:

* INTERP_SAMPLE k: sample k's position; INTERP_OFFSET: centre + offset;
* INTERP_CENTROID: the centre when all samples are covered, else the first
  covered sample -- llvmpipe's centroid (lp_bld_interp.c
  calc_centroid_offsets; GL 4.5 14.6.4 lets it be any covered position), the
  same for the ``centroid`` qualifier and interpolateAtCentroid;
* CONSTANT: the provoking (last) vertex's value.

llvmpipe divides a smooth input's v/w at the new position by 1/w at the
centre (``test_interp_emulation.llvmpipe_native_w``): that factor is part of
what it delivers for interpolateAt* and for every ``centroid``-qualified
input, so the expectation multiplies it in there (gl33's centroid is the
host's own centroid qualifier; gl33's offsets and samples are computed
perspective-correct).

Tolerance: 2e-5 relative + 2e-5 absolute on values up to 10.  The host
evaluates planes in float32 (a0 + dadx x + dady y, ~1 ulp = 1e-6 at 10), the
emulation adds the quad differences of those values (dFdx, one more rounding
of the same size, times an offset below 1) and one divide; resolving four
samples averages float32 values.  A few ulp in all, well under 2e-5; a wrong
position (an eighth of a pixel) is off by more than 0.1 on this triangle.
"""

from __future__ import annotations

import numpy as np
import pytest
from conftest import get_screen  # (tests/ is on sys.path: pytest rootdir conftest)

import glpipe
from glpipe import Bind, Format

from .test_interp_emulation import COLOR_VS, NDC, OFFSET, PASS_GS, expected, one_over_w, vertices
from .util import PASS_VS, vertex_buffer
from .util_blend_dsa import bind_rasterizer, bind_targets, clear_msaa, resolve_rgba32f, sample_positions, texture

W = H = 8
SAMPLES = 4
TOL = dict(rtol=2e-5, atol=2e-5)
PIX_Y, PIX_X = np.mgrid[0:H, 0:W].astype(np.float64)

_OPS = {
    "offset": "  0: INTERP_OFFSET TEMP[0], IN[0], IMM[0].xyxy\n",
    "sample": "  0: INTERP_SAMPLE TEMP[0], IN[0], IMM[1].{s}{s}{s}{s}\n",
    # the sample index from a register, not an immediate
    "sample_reg": "  0: UADD TEMP[1].x, IMM[1].{s}, IMM[1].xxxx\n  1: INTERP_SAMPLE TEMP[0], IN[0], TEMP[1].xxxx\n",
    "centroid": "  0: INTERP_CENTROID TEMP[0], IN[0]\n",
}


def fs_text(op: str, interp: str, location: str, sample: int = 0) -> str:
    """An FS writing ``op`` of GENERIC[0] (``interp``, ``location``) to COLOR."""
    body = _OPS[op].format(s="xyzw"[sample])
    n = body.count("\n")
    loc = "" if location == "CENTER" else f", {location}"
    return (
        f"FRAG\nDCL IN[0], GENERIC[0], {interp}{loc}\nDCL OUT[0], COLOR\nDCL TEMP[0..1]\n"
        f"IMM[0] FLT32 {{{OFFSET[0]}, {OFFSET[1]}, 0.0, 0.0}}\nIMM[1] INT32 {{0, 1, 2, 3}}\n"
        f"{body}  {n}: MOV OUT[0], TEMP[0]\n  {n + 1}: END\n"
    )


def _edges():
    win = np.stack([(NDC[:, 0] + 1) * W / 2, (NDC[:, 1] + 1) * H / 2], -1)
    return [(win[a], win[b]) for a, b in ((0, 1), (1, 2), (2, 0))]


def coverage(positions):
    """(covered (H, W, S), ambiguous (H, W)): which samples of each pixel are
    inside the triangle, and pixels with a sample too near an edge to tell."""
    covered = np.ones((H, W, len(positions)), bool)
    ambiguous = np.zeros((H, W), bool)
    for k, (sx, sy) in enumerate(positions):
        px, py = PIX_X + sx, PIX_Y + sy
        for (ax, ay), (bx, by) in _edges():
            dist = ((bx - ax) * (py - ay) - (by - ay) * (px - ax)) / np.hypot(bx - ax, by - ay)
            covered[..., k] &= dist > 0
            ambiguous |= np.abs(dist) < 1e-3
    return covered, ambiguous


def at(renderer, interp, px, py, host_ratio=False):
    """GENERIC[0] at window positions (px, py) of pixels centred at PIX + 0.5;
    ``host_ratio``: as llvmpipe (``renderer``) delivers it (v/w there over 1/w
    at the centre)."""
    want = expected(interp, px, py)
    if interp == "PERSPECTIVE" and host_ratio and "llvmpipe" in renderer:
        want = want * (one_over_w(px, py) / one_over_w(PIX_X + 0.5, PIX_Y + 0.5))[..., None]
    return want


def expected_image(renderer, native, op, interp, location, sample, positions):
    """The resolved image ``fs_text(op, interp, location, sample)`` should give on
    the host ``renderer`` (``native``: with interpolateAt*), and the mask of
    pixels it is defined on (not ambiguous)."""
    covered, ambiguous = coverage(positions)
    cx, cy = PIX_X + 0.5, PIX_Y + 0.5
    if op == "centroid":
        # First covered sample (index order), the centre when all are covered.
        first = np.argmax(covered, -1)
        pos = np.array(positions)[first]
        full = covered.all(-1)
        px, py = np.where(full, cx, PIX_X + pos[..., 0]), np.where(full, cy, PIX_Y + pos[..., 1])
        value = at(renderer, interp, px, py, host_ratio=True)  # the host's centroid on both profiles
    else:
        ox, oy = OFFSET if op == "offset" else (positions[sample][0] - 0.5, positions[sample][1] - 0.5)
        value = at(renderer, interp, cx + ox, cy + oy, host_ratio=native)
    fraction = covered.sum(-1) / len(positions)
    return value * fraction[..., None], ~ambiguous


def draw(screen, ctx, fs: str, last: str = "VS", samples: int = SAMPLES):
    """The triangle through PASS_VS (and PASS_GS when ``last`` is "GS") and ``fs``
    into a ``samples``-sample RGBA32F target cleared to 0; returns the resolved
    image and the sample positions."""
    res = texture(screen, Format.R32G32B32A32_FLOAT, W, H, Bind.RENDER_TARGET, samples=samples)
    bind_targets(ctx, W, H, (res,))
    bind_rasterizer(ctx, multisample=True)
    clear_msaa(screen, ctx, res, (0, 0, 0, 0))
    vs = ctx.create_vs_state(glpipe.ShaderState(tokens=PASS_VS))
    ctx.bind_vs_state(vs)
    ctx.bind_fs_state(ctx.create_fs_state(glpipe.ShaderState(tokens=fs)))
    ctx.bind_gs_state(ctx.create_gs_state(glpipe.ShaderState(tokens=PASS_GS)) if last == "GS" else None)
    ve = [
        glpipe.VertexElement(src_offset=0, vertex_buffer_index=0, src_format=Format.R32G32B32A32_FLOAT),
        glpipe.VertexElement(src_offset=16, vertex_buffer_index=0, src_format=Format.R32G32B32A32_FLOAT),
    ]
    ctx.bind_vertex_elements_state(ctx.create_vertex_elements_state(ve))
    ctx.set_vertex_buffers([glpipe.VertexBuffer(buffer=vertex_buffer(screen, vertices()), stride=32)])
    ctx.draw_vbo(glpipe.DrawInfo(mode=glpipe.Prim.TRIANGLES, start=0, count=3))
    return resolve_rgba32f(screen, ctx, res), sample_positions(screen, res, samples)


CASES = [
    (op, interp, location)
    for op in ("offset", "sample", "sample_reg", "centroid")
    for interp in ("PERSPECTIVE", "LINEAR", "CONSTANT")
    for location in ("CENTER", "CENTROID")
]


@pytest.mark.parametrize("last", ["VS", "GS"])
@pytest.mark.parametrize("op,interp,location", CASES)
def test_interp_on_4x_msaa_every_pixel(screen, ctx, op, interp, location, last):
    """Every unambiguous pixel, partially covered ones included, resolves to the
    value at the position the function names times the covered fraction."""
    sample = 2
    img, positions = draw(screen, ctx, fs_text(op, interp, location, sample), last)
    renderer, native = screen.profile.renderer, screen.profile.has("interpolate_at")
    want, mask = expected_image(renderer, native, op.replace("_reg", ""), interp, location, sample, positions)
    covered, _ = coverage(positions)
    partial = covered.any(-1) & ~covered.all(-1) & mask
    assert partial.sum() >= 4, "the triangle's edges must cross pixels"
    if op == "centroid" and interp != "CONSTANT":
        # The centroid is not the centre there: the test can tell them apart.
        centre = at(renderer, interp, PIX_X + 0.5, PIX_Y + 0.5) * (covered.sum(-1) / SAMPLES)[..., None]
        assert np.abs(centre - want)[partial].max() > 0.05
    np.testing.assert_allclose(img[mask], want[mask], **TOL)


@pytest.mark.parametrize("op,interp,location", [c for c in CASES if c[1] != "CONSTANT" and c[0] != "sample_reg"])
def test_gl33_equals_native_on_4x_msaa(op, interp, location):
    """The same draw on both profiles: gl33's pixels equal native's, every pixel
    (ambiguous edge pixels included: both rasterize the same samples), once
    llvmpipe's centre-1/w factor is divided out of native's offsets and
    samples (gl33 computes those perspective-correct; both use the host's
    centroid)."""
    images = []
    for name in ("native", "gl33"):
        screen = get_screen(name)
        ctx = screen.context_create()
        try:
            img, positions = draw(screen, ctx, fs_text(op, interp, location, 1))
        finally:
            ctx.destroy()
        if name == "native" and interp == "PERSPECTIVE" and op != "centroid" and "llvmpipe" in screen.profile.renderer:
            ox, oy = OFFSET if op == "offset" else (positions[1][0] - 0.5, positions[1][1] - 0.5)
            cx, cy = PIX_X + 0.5, PIX_Y + 0.5
            img = img * (one_over_w(cx, cy) / one_over_w(cx + ox, cy + oy))[..., None]
        images.append(img)
    assert np.abs(images[0]).max() > 0
    np.testing.assert_allclose(images[1], images[0], **TOL)


@pytest.mark.parametrize("winding", ["front", "back"])
@pytest.mark.parametrize("op,location", [("centroid", "CENTER"), ("offset", "CENTROID")])
def test_two_sided_color_on_4x_msaa(screen, ctx, op, location, winding):
    """A COLOR input under light_twoside: either face gives the COLOR values
    (smooth) at the function's position.  On gl33 the FS re-interpolates the
    face's varying, so the VS writes the copy of COLOR[0] and of the BCOLOR[0]
    it fills from it (the back face reads that one); native uses interpolateAt*.

    (From stop 24 to stop 26 this ran on gl33 only: on native, a later
    smooth-line draw of tests/context run in order died with SIGSEGV inside
    llvmpipe.  That is the host quirk smooth_line_crash (docs/host.md): llvmpipe
    dies in GL_LINE_SMOOTH draws after many distinct FS input layouts, which
    these draws made likelier; glpipe no longer uses the host's smooth lines.)"""
    img, positions = _draw_color(screen, ctx, op, location, winding == "back", light_twoside=True)
    keys = _variant_keys(ctx)
    native = screen.profile.has("interpolate_at")
    want, mask = expected_image(screen.profile.renderer, native, op, "PERSPECTIVE", location, 0, positions)
    np.testing.assert_allclose(img[mask], want[mask], **TOL)
    assert keys[0].two_side
    if native:
        assert not keys[0].interp_copies and not keys[4].interp_copies
    else:
        assert keys[0].interp_copies == keys[4].interp_copies != ()


@pytest.mark.parametrize("op,location", [("centroid", "CENTER"), ("offset", "CENTROID")])
def test_flatshaded_color_on_4x_msaa(screen, ctx, op, location):
    """A COLOR input under flatshade is flat: every function returns the
    provoking vertex's value, and no copy is keyed for it."""
    img, positions = _draw_color(screen, ctx, op, location, False, flatshade=True)
    renderer, native = screen.profile.renderer, screen.profile.has("interpolate_at")
    want, mask = expected_image(renderer, native, op, "CONSTANT", location, 0, positions)
    np.testing.assert_allclose(img[mask], want[mask], **TOL)
    assert all(k is None or not k.interp_copies for k in _variant_keys(ctx))


def _draw_color(screen, ctx, op, location, reverse, **rasterizer):
    """COLOR_VS and ``op`` of a COLOR[0] input (``location``) on a 4x target; the
    vertices in reverse order (the back face) when ``reverse``."""
    fs = fs_text(op, "COLOR", location).replace("GENERIC[0], COLOR", "COLOR[0], COLOR")
    res = texture(screen, Format.R32G32B32A32_FLOAT, W, H, Bind.RENDER_TARGET, samples=SAMPLES)
    bind_targets(ctx, W, H, (res,))
    bind_rasterizer(ctx, multisample=True, **rasterizer)
    clear_msaa(screen, ctx, res, (0, 0, 0, 0))
    ctx.bind_vs_state(ctx.create_vs_state(glpipe.ShaderState(tokens=COLOR_VS)))
    ctx.bind_fs_state(ctx.create_fs_state(glpipe.ShaderState(tokens=fs)))
    ve = [
        glpipe.VertexElement(src_offset=0, vertex_buffer_index=0, src_format=Format.R32G32B32A32_FLOAT),
        glpipe.VertexElement(src_offset=16, vertex_buffer_index=0, src_format=Format.R32G32B32A32_FLOAT),
    ]
    ctx.bind_vertex_elements_state(ctx.create_vertex_elements_state(ve))
    data = vertices()[::-1].copy() if reverse else vertices()
    ctx.set_vertex_buffers([glpipe.VertexBuffer(buffer=vertex_buffer(screen, data), stride=32)])
    ctx.draw_vbo(glpipe.DrawInfo(mode=glpipe.Prim.TRIANGLES, start=0, count=3))
    return resolve_rgba32f(screen, ctx, res), sample_positions(screen, res, SAMPLES)


def _variant_keys(ctx):
    return [v.key if v is not None else None for v in ctx.shader_part.program.variants]


PLAIN_FS = """FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE, CENTROID
DCL IN[1], GENERIC[1], LINEAR
DCL OUT[0], COLOR
  0: ADD OUT[0], IN[0], IN[1]
  1: END
"""


@pytest.mark.parametrize("last", ["VS", "GS"])
def test_no_copies_without_interpolation_functions(screen, ctx, last):
    """Cost: an FS without INTERP_* keys no copy on a 4x target, so the last
    stage's key is the one it has without multisampling (no extra varying)."""
    draw(screen, ctx, PLAIN_FS, last)
    msaa = _variant_keys(ctx)
    draw(screen, ctx, PLAIN_FS, last, samples=0)
    assert _variant_keys(ctx) == msaa
    assert all(k is None or not k.interp_copies for k in msaa)


@pytest.mark.parametrize("last", ["VS", "GS"])
def test_copies_only_where_the_fs_needs_them(screen, ctx, last):
    """gl33, 4x: INTERP_CENTROID of a CENTER input keys a centroid copy into
    the FS and the last stage (not into a VS feeding a GS); INTERP_OFFSET of
    a CENTER input needs none.  Native (interpolateAt*) and single-sample
    targets key none."""
    stage = 3 if last == "GS" else 0
    draw(screen, ctx, fs_text("centroid", "LINEAR", "CENTER"), last)
    keys = _variant_keys(ctx)
    if screen.profile.has("interpolate_at"):
        assert all(k is None or not k.interp_copies for k in keys)
        return
    assert keys[4].interp_copies == keys[stage].interp_copies == (("GENERIC", 0, "CENTROID"),)
    assert all(k is None or not k.interp_copies for n, k in enumerate(keys) if n not in (stage, 4))
    assert "centroid" in ctx.shader_part.program.variants[stage].glsl.source
    draw(screen, ctx, fs_text("centroid", "LINEAR", "CENTER"), last, samples=0)
    assert all(k is None or not k.interp_copies for k in _variant_keys(ctx))
    draw(screen, ctx, fs_text("offset", "LINEAR", "CENTER"), last)
    assert all(k is None or not k.interp_copies for k in _variant_keys(ctx))


PASS_TCS = """TESS_CTRL
PROPERTY TCS_VERTICES_OUT 3
DCL IN[][0], POSITION
DCL IN[][1], GENERIC[0]
DCL SV[0], INVOCATIONID
DCL OUT[][0], POSITION
DCL OUT[][1], GENERIC[0]
DCL OUT[2], TESSOUTER
DCL OUT[3], TESSINNER
DCL ADDR[0]
IMM[0] FLT32 {1.0, 1.0, 1.0, 1.0}
  0: UARL ADDR[0].x, SV[0].xxxx
  1: MOV OUT[ADDR[0].x][0], IN[ADDR[0].x][0]
  2: MOV OUT[ADDR[0].x][1], IN[ADDR[0].x][1]
  3: MOV OUT[2], IMM[0]
  4: MOV OUT[3], IMM[0]
  5: END
"""

# Levels 1: the patch is the one triangle, its corners at tessellation
# coordinates (1, 0, 0) ... exactly, so the TES passes the VS's values on.
PASS_TES = """TESS_EVAL
PROPERTY TES_PRIM_MODE 4
PROPERTY TES_SPACING 2
PROPERTY TES_VERTEX_ORDER_CW 0
PROPERTY TES_POINT_MODE 0
DCL IN[][0], POSITION
DCL IN[][1], GENERIC[0]
DCL SV[0], TESSCOORD
DCL OUT[0], POSITION
DCL OUT[1], GENERIC[0]
DCL TEMP[0]
  0: MUL TEMP[0], SV[0].xxxx, IN[0][0]
  1: MAD TEMP[0], SV[0].yyyy, IN[1][0], TEMP[0]
  2: MAD TEMP[0], SV[0].zzzz, IN[2][0], TEMP[0]
  3: MOV OUT[0], TEMP[0]
  4: MUL TEMP[0], SV[0].xxxx, IN[0][1]
  5: MAD TEMP[0], SV[0].yyyy, IN[1][1], TEMP[0]
  6: MAD TEMP[0], SV[0].zzzz, IN[2][1], TEMP[0]
  7: MOV OUT[1], TEMP[0]
  8: END
"""


# The cases that need a copy: the centroid of a CENTER input, the centre of a CENTROID one.
COPY_CASES = [
    (op, interp, location)
    for op, location in (("centroid", "CENTER"), ("offset", "CENTROID"), ("sample", "CENTROID"))
    for interp in ("PERSPECTIVE", "LINEAR")
]


@pytest.mark.parametrize("op,interp,location", COPY_CASES)
def test_tes_last_stage_writes_the_copies(op, interp, location):
    """A TES as the last stage: glpipe's profiles never pair tessellation with
    the emulation (gl33 has no TES), so this lowers the stages as the
    context would key them -- VS, TCS and TES at the host's GLSL, the TES
    with the FS's interp_copies, the FS at GLSL 3.30 without extensions --
    links them on a host of its own and draws into a 4x target: every
    unambiguous pixel as ``expected_image`` says (the gl33 expectation: the
    host's centroid, offsets perspective-correct)."""
    import moderngl

    from glpipe.host.gl import create_host
    from lowering import parse, to_glsl, validate
    from lowering.glsl.passes.interp import needed_copies
    from lowering.glsl.variant import VariantKey

    host = create_host(profile="native")
    try:
        if not host.profile.has("tessellation_shader"):
            pytest.skip("the host has no tessellation")
        mgl, gl = host.mgl, host.gl
        fbo = mgl.framebuffer([mgl.renderbuffer((W, H), 4, samples=SAMPLES, dtype="f4")])
        fbo.use()
        positions = []
        for k in range(SAMPLES):
            out = np.zeros(2, np.float32)
            gl.glGetMultisamplefv(gl.GL_SAMPLE_POSITION, k, out)
            positions.append((float(out[0]), float(out[1])))
        fs = fs_text(op, interp, location, 1)
        copies = needed_copies(parse(fs))
        assert copies, "this FS needs a copy on a multisampled target"
        fs_key = VariantKey(sample_positions=tuple(v for p in positions for v in p), interp_copies=copies)
        tes_key = VariantKey(output_interpolation=(("GENERIC", 0, interp, location),), interp_copies=copies)
        glsl = host.profile.glsl_version
        sources = {
            "vertex_shader": to_glsl(PASS_VS, glsl_version=glsl).source,
            "tess_control_shader": to_glsl(PASS_TCS, glsl_version=glsl).source,
            "tess_evaluation_shader": to_glsl(validate(parse(PASS_TES)), glsl_version=glsl, key=tes_key).source,
            "fragment_shader": to_glsl(fs, glsl_version=330, key=fs_key, extensions=frozenset()).source,
        }
        assert "interpolateAt" not in sources["fragment_shader"]
        assert "_at_" in sources["tess_evaluation_shader"]
        prog = mgl.program(**sources)
        data = vertices()
        vbo = mgl.buffer(data.tobytes())
        vao = mgl.vertex_array(prog, [(vbo, "4f 4f", "glp_attr_0", "glp_attr_1")])
        fbo.clear(0.0, 0.0, 0.0, 0.0)
        mgl.viewport = (0, 0, W, H)
        gl.glPatchParameteri(gl.GL_PATCH_VERTICES, 3)
        vao.render(moderngl.PATCHES, vertices=3)
        single = mgl.framebuffer([mgl.renderbuffer((W, H), 4, dtype="f4")])
        mgl.copy_framebuffer(single, fbo)
        img = np.frombuffer(single.read(components=4, dtype="f4"), np.float32).reshape(H, W, 4)
        want, mask = expected_image(host.profile.renderer, False, op, interp, location, 1, positions)
        assert np.abs(want[mask]).max() > 0
        np.testing.assert_allclose(img[mask], want[mask], **TOL)
    finally:
        host.release()


def test_interp_copies_key_is_checked():
    """VariantKey.interp_copies: (semantic, index >= 0, CENTER or CENTROID)
    entries, also from the CLI's ``SEM:index:LOC``."""
    from lowering.errors import InvalidArgumentError
    from lowering.glsl.variant import VariantKey

    assert VariantKey(interp_copies=(("GENERIC", 3, "CENTROID"),)).interp_copies[0][1] == 3
    for bad in (("GENERIC", 0), ("GENERIC", -1, "CENTER"), ("GENERIC", 0, "SAMPLE"), (0, 0, "CENTER")):
        with pytest.raises(InvalidArgumentError, match="interp_copies"):
            VariantKey(interp_copies=(bad,))
    parsed = VariantKey.parse(["interp_copies=generic:1:centroid,COLOR:0:CENTER"])
    assert parsed.interp_copies == (("GENERIC", 1, "CENTROID"), ("COLOR", 0, "CENTER"))
    with pytest.raises(InvalidArgumentError, match="interp_copies"):
        VariantKey.parse(["interp_copies=GENERIC:x:CENTER"])


def test_needed_copies_from_the_tgsi():
    """needed_copies: a copy only where the declared location is not the one
    the function reads from; none for flat inputs (COLOR ones under flatshade)."""
    from lowering import parse
    from lowering.glsl.passes.interp import needed_copies

    assert needed_copies(parse(fs_text("centroid", "LINEAR", "CENTER"))) == (("GENERIC", 0, "CENTROID"),)
    assert needed_copies(parse(fs_text("centroid", "LINEAR", "CENTROID"))) == ()
    assert needed_copies(parse(fs_text("sample_reg", "PERSPECTIVE", "CENTROID"))) == (("GENERIC", 0, "CENTER"),)
    assert needed_copies(parse(fs_text("offset", "PERSPECTIVE", "CENTER"))) == ()
    assert needed_copies(parse(fs_text("centroid", "CONSTANT", "CENTER"))) == ()
    color = parse(fs_text("centroid", "COLOR", "CENTER").replace("GENERIC[0], COLOR", "COLOR[0], COLOR"))
    assert needed_copies(color) == (("COLOR", 0, "CENTROID"),)
    assert needed_copies(color, flatshade=True) == ()
