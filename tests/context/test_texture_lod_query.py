"""LODQ (textureQueryLod, PIPE_CAP_TEXTURE_QUERY_LOD) on both profiles.

On the gl33 profile LODQ is the GL formula in the shader (lowering/glsl/
texture_emul.py query_lod) with the bound sampler's lod_bias / min_lod /
max_lod / mip filter from the sysvals block (written by bind_sampler_states)
and the view's level count (written by set_sampler_views).  The expected
values are that formula in numpy (GL 4.x section 8.14.1, GLSL 4.00 section
8.9.1) over a grid of magnifications, minifications and anisotropic (sheared)
footprints: gl33 must give it to float precision.  The native profile is
llvmpipe's textureQueryLod, which approximates lambda as half a piecewise-linear
log2 of rho^2 (error <= 0.05) and keeps lod_bias to 1/256: it is compared with
the same model within that bound, and gl33 with native likewise.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from glpipe import (
    Cap,
    ConstantBuffer,
    Format,
    SamplerState,
    SamplerViewTemplate,
    ShaderType,
    Target,
    TexFilter,
    TexMipFilter,
)

from .util_sampling import Sampling, bind_sampling, make_texture, view_2d

# llvmpipe: lambda = 0.5 * (e + m - 1) for rho^2 = m * 2^e (max error 0.043), bias in 1/256
NATIVE_TOL = 0.05

FS = """FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL OUT[0], COLOR
DCL SAMP[0]
DCL SVIEW[0], 2D, FLOAT
DCL CONST[0][0]
DCL TEMP[0]
IMM[0] FLT32 {0.0, 0.0, 0.0, 0.0}
  0: MOV TEMP[0], IMM[0]
  1: MAD TEMP[0].x, IN[0].yyyy, CONST[0][0].xxxx, IN[0].xxxx
  2: MAD TEMP[0].y, IN[0].xxxx, CONST[0][0].yyyy, IN[0].yyyy
  3: LODQ TEMP[0].xy, TEMP[0], SAMP[0], 2D
  4: MOV OUT[0], TEMP[0]
  5: END
"""

W, H, PIX = 64, 32, 4  # texture 64 x 32 (7 levels); target 4 x 4
# (a, b, k0, k1): u = x_n a + k0 y_n b, v = y_n b + k1 x_n a over the target (x_n, y_n in [0, 1])
FOOTPRINTS = [
    (1, 1, 0, 0),
    (4, 1, 0, 0),
    (0.3, 2, 0.5, 0),
    (0.05, 0.05, 0, 0),
    (8, 8, 1, -1),
    (0.7, 0.2, 0.3, 0.9),
    (0.02, 3, 0, 0.25),
    (30, 0.5, -0.2, 0.1),
]
# (lod_bias, min_lod, max_lod, mip filter, view last_level)
# (Views of the whole 7-level chain are left out: native llvmpipe's textureQueryLod
# returns wrong values for them after the first draw, with or without glpipe's help.)
SAMPLERS = [
    (0.0, 0.0, 10.0, TexMipFilter.LINEAR, 5),
    (1.5, 0.0, 10.0, TexMipFilter.LINEAR, 4),
    (0.0, 1.0, 3.0, TexMipFilter.LINEAR, 5),
    (0.25, 0.0, 10.0, TexMipFilter.NEAREST, 5),
    (0.75, 0.0, 10.0, TexMipFilter.NONE, 5),
    (-2.0, -1.0, 10.0, TexMipFilter.LINEAR, 2),
]


def model(a, b, k0, k1, bias, min_lod, max_lod, mip, levels):
    """(x, y) of textureQueryLod for the affine footprint (GL 4.x 8.14.1, GLSL 4.00 8.9.1)."""
    dudx, dudy = a / PIX * W, k0 * b / PIX * W
    dvdx, dvdy = k1 * a / PIX * H, b / PIX * H
    rho = max(np.hypot(dudx, dvdx), np.hypot(dudy, dvdy))
    lam = np.log2(rho) + bias
    lod = min(max(lam, min_lod), max_lod)
    lod = min(max(lod, 0.0), levels - 1.0)
    x = {TexMipFilter.NONE: 0.0, TexMipFilter.NEAREST: np.ceil(lod + 0.5) - 1.0, TexMipFilter.LINEAR: lod}[mip]
    return x, lam


def _run(ctx):
    """Every (sampler, footprint) case: (got (x, y), expected (x, y)) lists."""
    tex = make_texture(ctx.screen, Target.TEXTURE_2D, Format.R32G32B32A32_FLOAT, W, H, last_level=6)
    S = Sampling(ctx, PIX, PIX)
    got, want = [], []
    for bias, mn, mx, mip, last in SAMPLERS:
        smp = ctx.create_sampler_state(
            SamplerState(
                min_img_filter=TexFilter.LINEAR,
                mag_img_filter=TexFilter.LINEAR,
                min_mip_filter=mip,
                lod_bias=bias,
                min_lod=mn,
                max_lod=mx,
            )
        )
        bind_sampling(ctx, view_2d(ctx, tex, last_level=last), smp)
        for a, b, k0, k1 in FOOTPRINTS:
            ctx.set_constant_buffer(
                ShaderType.FRAGMENT, 0, ConstantBuffer(user_buffer=np.array([k0, k1, 0, 0], np.float32))
            )
            img = S.draw(FS, (0, 0, 0, 0), (a, b, 0, 0))
            assert np.ptp(img[..., :2], axis=(0, 1)).max() < 1e-5, "one footprint: one answer per pixel"
            got.append(img[0, 0, :2].astype(np.float64))
            want.append(model(a, b, k0, k1, bias, mn, mx, mip, last + 1))
    return np.array(got), np.array(want)


def _on_native(screen, run):
    from conftest import get_screen

    native = get_screen("native")
    nctx = native.context_create()
    try:
        return run(nctx)
    finally:
        nctx.destroy()
        get_screen(screen.profile.name)


def test_lodq_follows_the_gl_formula(screen, ctx):
    """TEXTURE_QUERY_LOD on both profiles: gl33 is the formula (to float precision),
    native llvmpipe within its log2 approximation; gl33 and native agree within it."""
    assert screen.get_param(Cap.TEXTURE_QUERY_LOD) == 1
    got, want = _run(ctx)
    tol = 2e-5 if not screen.profile.has("texture_query_lod") else NATIVE_TOL
    np.testing.assert_allclose(got, want, atol=tol, rtol=0)
    theirs, _ = _on_native(screen, _run)
    np.testing.assert_allclose(got, theirs, atol=NATIVE_TOL, rtol=0)


def test_lodq_follows_sampler_binds(screen, ctx):
    """The sampler's parameters reach the shader at bind time: rebinding another
    sampler state (no new shader, no new view) changes .x and .y."""
    tex = make_texture(ctx.screen, Target.TEXTURE_2D, Format.R32G32B32A32_FLOAT, W, H, last_level=6)
    S = Sampling(ctx, PIX, PIX)
    ctx.set_constant_buffer(ShaderType.FRAGMENT, 0, ConstantBuffer(user_buffer=np.zeros(4, np.float32)))
    view = view_2d(ctx, tex, last_level=5)
    out = []
    for bias, mx in [(0.0, 10.0), (1.0, 2.0)]:
        smp = ctx.create_sampler_state(
            SamplerState(
                min_img_filter=TexFilter.LINEAR,
                mag_img_filter=TexFilter.LINEAR,
                min_mip_filter=TexMipFilter.LINEAR,
                lod_bias=bias,
                max_lod=mx,
            )
        )
        bind_sampling(ctx, view, smp)
        out.append(S.draw(FS, (0, 0, 0, 0), (1, 1, 0, 0))[0, 0, :2])
    # rho = 16 texels per pixel: lambda 4; then bias 1 (lambda 5) clamped by max_lod 2
    np.testing.assert_allclose(out, [[4.0, 4.0], [2.0, 5.0]], atol=1e-5)


def test_corpus_tex_query_gl33_close_to_native(screen, ctx):
    """tex_query.frag (Mesa's TXQ and LODQ on 2D and CUBE): sizes and level counts
    equal, the LODs within llvmpipe's approximation, on a perspective draw."""
    path = Path(__file__).parent.parent / "lowering" / "corpus" / "tgsi" / "tex_query.frag.tgsi"
    fs = path.read_text()

    def run(c):
        s = c.screen
        views = []
        for target, kw, last in [
            (Target.TEXTURE_2D, dict(width=64, height=32, last_level=6), 4),
            (Target.TEXTURE_3D, dict(width=8, height=8, depth=4, last_level=2), 2),
            (Target.TEXTURE_CUBE, dict(width=32, height=32, array_size=6, last_level=5), 4),
            (Target.TEXTURE_2D_ARRAY, dict(width=4, height=4, array_size=5, last_level=2), 2),
            (Target.TEXTURE_1D, dict(width=32, last_level=5), 5),
        ]:
            res = make_texture(s, target, Format.R32G32B32A32_FLOAT, **kw)
            views.append(
                c.create_sampler_view(
                    res,
                    SamplerViewTemplate(
                        format=res.format, target=target, last_level=last, last_layer=res.array_size - 1
                    ),
                )
            )
        c.set_sampler_views(ShaderType.FRAGMENT, 0, views)
        smp = c.create_sampler_state(
            SamplerState(
                min_img_filter=TexFilter.LINEAR,
                mag_img_filter=TexFilter.LINEAR,
                min_mip_filter=TexMipFilter.LINEAR,
                max_lod=10.0,
                lod_bias=0.5,
            )
        )
        c.bind_sampler_states(ShaderType.FRAGMENT, 0, [smp] * 5)
        c.set_constant_buffer(ShaderType.FRAGMENT, 0, ConstantBuffer(user_buffer=np.array([1, 0, 0, 0], np.int32)))
        from glpipe import VertexElement

        from .util_caps import draw

        # GENERIC[0] = a direction / coordinate that varies non-linearly (w from 1 to 3)
        pos = np.array([[-1, -1, 0, 1], [3, -1, 0, 2], [-1, 3, 0, 3]], np.float32)
        pos[:, :2] *= pos[:, 3:4]
        gen = np.array([[0.9, 0.1, 0.3, 0], [1.0, 0.6, -0.2, 0], [0.8, -0.3, 0.5, 0]], np.float32)
        vs = (
            "VERT\nDCL IN[0]\nDCL IN[1]\nDCL OUT[0], POSITION\nDCL OUT[1], GENERIC[0]\n"
            "  0: MOV OUT[0], IN[0]\n  1: MOV OUT[1], IN[1]\n  2: END\n"
        )
        fs1 = (
            fs.replace("DCL OUT[1], COLOR[1]\n", "")
            .replace("OUT[1]", "OUT[0]")
            .replace("I2F OUT[0].xy,", "I2F TEMP[1].xy,")
            .replace("I2F OUT[0].z,", "I2F TEMP[1].z,")
            .replace("I2F OUT[0].w,", "I2F TEMP[1].w,")
        )
        elements = [VertexElement(src_offset=16 * k, src_format=Format.R32G32B32A32_FLOAT) for k in range(2)]
        return draw(c, fs1, width=16, height=16, vs=vs, verts=np.concatenate([pos, gen], 1), elements=elements)

    ours = run(ctx)
    theirs = _on_native(screen, run)
    assert np.isfinite(ours).all()
    # .xy: the 2D LOD; .zw: the cube's, where llvmpipe leaves the y derivative out
    # (test_lodq_cube_face_derivatives), so only the 2D half is compared with native.
    # Under perspective the derivatives change from pixel to pixel: llvmpipe takes one
    # LOD per 2x2 quad, gl33 one per pixel (fine dFdx): up to 0.05 more apart.
    np.testing.assert_allclose(ours[..., :2], theirs[..., :2], atol=2 * NATIVE_TOL, rtol=0)
    assert np.ptp(ours[..., 1]) > 0.5, "the LOD varies over the draw"


CUBE_FS = """FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL OUT[0], COLOR
DCL SAMP[0]
DCL SVIEW[0], CUBE, FLOAT
DCL TEMP[0]
IMM[0] FLT32 {1.0, 0.0, 0.0, 0.0}
  0: MOV TEMP[0], IMM[0]
  1: MOV TEMP[0].yz, IN[0].xxyx
  2: LODQ TEMP[0].xy, TEMP[0], SAMP[0], CUBE
  3: MOV OUT[0], TEMP[0]
  4: END
"""


def _cube_run(ctx):
    """Directions (1, u, v) on the +X face: s, t = 0.5 (-v, -u) + 0.5, so with u over
    [-a/2, a/2] and v over [-b/2, b/2] across 4 pixels of a 32^2 face,
    rho = 32 * 0.5 * max(a, b) / 4 = 4 max(a, b) texels per pixel."""
    res = make_texture(ctx.screen, Target.TEXTURE_CUBE, Format.R32G32B32A32_FLOAT, 32, 32, array_size=6, last_level=5)
    view = ctx.create_sampler_view(
        res, SamplerViewTemplate(format=res.format, target=Target.TEXTURE_CUBE, last_level=4, last_layer=5)
    )
    smp = ctx.create_sampler_state(
        SamplerState(
            min_img_filter=TexFilter.LINEAR,
            mag_img_filter=TexFilter.LINEAR,
            min_mip_filter=TexMipFilter.LINEAR,
            max_lod=10.0,
            lod_bias=0.5,
        )
    )
    bind_sampling(ctx, view, smp)
    S = Sampling(ctx, PIX, PIX)
    got, want = [], []
    for a, b in [(0.25, 0.25), (1.0, 0.1), (0.05, 0.6), (0.01, 0.01)]:
        got.append(S.draw(CUBE_FS, (-a / 2, -b / 2, 0, 0), (a / 2, b / 2, 0, 0))[0, 0, :2].astype(np.float64))
        lam = np.log2(4 * max(a, b)) + 0.5
        want.append((min(max(lam, 0.0), 4.0), lam))
    return np.array(got), np.array(want)


def test_lodq_cube_face_derivatives(screen, ctx):
    """CUBE: lambda from the face coordinates' derivatives (GL 4.x 8.13, 8.14.1).
    Native llvmpipe leaves the window-y derivative out of a cube's rho (case 3,
    where it dominates, gives log2(4 a) + 0.5 = -1.82 there), so native is held
    to the model only where x dominates."""
    got, want = _cube_run(ctx)
    if not screen.profile.has("texture_query_lod"):
        np.testing.assert_allclose(got, want, atol=2e-5, rtol=0)
    else:
        x_dominates = [0, 1, 3]
        np.testing.assert_allclose(got[x_dominates], want[x_dominates], atol=NATIVE_TOL, rtol=0)
