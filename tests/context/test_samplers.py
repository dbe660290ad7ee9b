"""Sampler CSOs on pixels: wrap modes, filters, LOD selection, compare mode,
border colours, anisotropy, seamless cubes, reduction, unnormalized
coordinates; binding rules (redundant binds, delete while bound, slots).

Expected values come from the numpy model in util_sampling (GL 4.5 §8.14),
never from glpipe.
"""

from __future__ import annotations

import numpy as np
import pytest

from glpipe import (
    Bind,
    Cap,
    CapF,
    Format,
    Func,
    InvalidArgumentError,
    ObjectDestroyedError,
    SamplerState,
    SamplerViewTemplate,
    ShaderType,
    Target,
    TexCompare,
    TexFilter,
    TexMipFilter,
    TexReduction,
    TexWrap,
    UnsupportedError,
)
from glpipe.dirty import Dirty

from .util import render_target
from .util_blend_dsa import CountingGL
from .util_sampling import (
    Sampling,
    bind_sampling,
    delivered_caps,
    linear,
    make_texture,
    nearest,
    read_int,
    sample_2d,
    tex_fs,
    texel_grid,
    upload,
    view_2d,
)

BORDER = (0.25, 0.5, 0.75, 0.125)


def _mirror_clamp_supported(screen, mode) -> bool:
    """Whether the host profile has the wrap (the same rule the caps use)."""

    if mode == TexWrap.MIRROR_CLAMP_TO_EDGE:
        return screen.profile.has("texture_mirror_clamp_to_edge")
    if mode in (TexWrap.MIRROR_CLAMP, TexWrap.MIRROR_CLAMP_TO_BORDER):
        return screen.profile.has("texture_mirror_clamp")
    return True


# -- wrap modes and filters ------------------------------------------------------------------

# 20 x 16 pixels over a 4 x 3 texture: u = 4 s runs -9.2 .. 10.8 (one texel per pixel),
# v = 3 t runs -4.1 .. 7.9; no pixel centre lands on a texel edge (nearest) or centre (linear).
_LO = (-2.3, -4.1 / 3, 0.0, 1.0)
_HI = (2.7, -4.1 / 3 + 4.0, 0.0, 1.0)


@pytest.mark.parametrize("mode,filt", [(m, f) for m in TexWrap for f in ("nearest", "linear")])
def test_every_wrap_mode_outside_0_1(screen, ctx, mode, filt):
    """Each wrap mode on s and t (and a different one on the other axis) at
    coordinates from -2.3 to 2.7: texel indices from GL's wrap functions."""
    make = nearest if filt == "nearest" else linear
    if not _mirror_clamp_supported(screen, mode):
        with pytest.raises(UnsupportedError, match=mode.name):
            ctx.create_sampler_state(make(wrap_s=mode))
        caps = delivered_caps(screen)
        key = Cap.TEXTURE_MIRROR_CLAMP_TO_EDGE if mode == TexWrap.MIRROR_CLAMP_TO_EDGE else Cap.TEXTURE_MIRROR_CLAMP
        assert caps.param[key] == 0
        return
    S = Sampling(ctx, 20, 16)
    tex = make_texture(screen, Target.TEXTURE_2D, Format.R32G32B32A32_FLOAT, 4, 3)
    data = texel_grid(4, 3)
    upload(screen, tex, 0, data)
    other = TexWrap.MIRROR_REPEAT if mode != TexWrap.MIRROR_REPEAT else TexWrap.REPEAT
    for ws, wt in ((mode, other), (other, mode)):
        smp = ctx.create_sampler_state(make(wrap_s=ws, wrap_t=wt, border_color=BORDER))
        bind_sampling(ctx, view_2d(ctx, tex), smp)
        img = S.draw(tex_fs(), _LO, _HI)
        c = S.coords(_LO, _HI)
        expected = sample_2d(data, BORDER, c[..., 0], c[..., 1], ws, wt, filt == "linear")
        np.testing.assert_allclose(img, expected, atol=2e-3, err_msg=f"wrap_s={ws.name} wrap_t={wt.name} {filt}")


def test_gl_clamp_linear_selects_the_variant(screen, ctx):
    """GL_CLAMP with a LINEAR filter puts the slot's bit into the stage's
    VariantKey.gl_clamp (and asks for a new program); NEAREST does not."""
    S = Sampling(ctx, 4, 4)
    tex = make_texture(screen, Target.TEXTURE_2D, Format.R32G32B32A32_FLOAT, 4, 3)
    upload(screen, tex, 0, texel_grid(4, 3))
    ctx.set_sampler_views(ShaderType.FRAGMENT, 0, [view_2d(ctx, tex)])
    near = ctx.create_sampler_state(nearest(wrap_s=TexWrap.CLAMP, wrap_t=TexWrap.CLAMP))
    lin = ctx.create_sampler_state(linear(wrap_s=TexWrap.REPEAT, wrap_t=TexWrap.CLAMP, wrap_r=TexWrap.CLAMP))
    ctx.bind_sampler_states(ShaderType.FRAGMENT, 3, [near])
    S.draw(tex_fs(), _LO, _HI)
    ctx.bind_sampler_states(ShaderType.FRAGMENT, 3, [lin])
    assert ctx.dirty & Dirty.PROGRAM
    S.draw(tex_fs(), _LO, _HI)
    fs = S.fs(tex_fs())
    clamps = {key.gl_clamp for key in fs.variants}
    assert clamps == {(0, 0, 0), (0, 1 << 3, 1 << 3)}
    ctx.bind_sampler_states(ShaderType.FRAGMENT, 3, [None])
    assert ctx.samplers_part.gl_clamp_masks[ShaderType.FRAGMENT] == (0, 0, 0)


def test_gl_clamp_linear_blends_the_edge_with_the_border(screen, ctx):
    """PIPE_TEX_WRAP_CLAMP + LINEAR = GL 1.x GL_CLAMP: s clamped to [0, 1],
    then linear filtering reads the border beyond the edge texel."""
    S = Sampling(ctx, 20, 16)
    tex = make_texture(screen, Target.TEXTURE_2D, Format.R32G32B32A32_FLOAT, 4, 3)
    data = texel_grid(4, 3)
    upload(screen, tex, 0, data)
    smp = ctx.create_sampler_state(linear(wrap_s=TexWrap.CLAMP, wrap_t=TexWrap.CLAMP, border_color=BORDER))
    bind_sampling(ctx, view_2d(ctx, tex), smp)
    img = S.draw(tex_fs(), _LO, _HI)
    c = S.coords(_LO, _HI)
    expected = sample_2d(data, BORDER, c[..., 0], c[..., 1], TexWrap.CLAMP, TexWrap.CLAMP, True)
    np.testing.assert_allclose(img, expected, atol=2e-3)


def test_mag_and_min_filters_apart(screen, ctx):
    """A magnified draw uses mag_img_filter, a minified one min_img_filter
    (MIPFILTER_NONE: the base level only)."""
    tex = make_texture(screen, Target.TEXTURE_2D, Format.R32G32B32A32_FLOAT, 8, 8)
    data = texel_grid(8, 8)
    upload(screen, tex, 0, data)
    view = view_2d(ctx, tex)
    for mag, mn in ((TexFilter.LINEAR, TexFilter.NEAREST), (TexFilter.NEAREST, TexFilter.LINEAR)):
        smp = ctx.create_sampler_state(
            SamplerState(min_img_filter=mn, mag_img_filter=mag, min_mip_filter=TexMipFilter.NONE, max_lod=10)
        )
        bind_sampling(ctx, view, smp)
        # Magnified: 32 pixels over 3 texels (lambda = log2(3/32) < 0).
        S = Sampling(ctx, 32, 32)
        lo, hi = (0.3 / 8, 0.3 / 8, 0, 1), (3.3 / 8, 3.3 / 8, 0, 1)
        c = S.coords(lo, hi)
        np.testing.assert_allclose(
            S.draw(tex_fs(), lo, hi),
            sample_2d(data, BORDER, c[..., 0], c[..., 1], TexWrap.REPEAT, TexWrap.REPEAT, mag == TexFilter.LINEAR),
            atol=2e-3,
        )
        # Minified: 2 pixels over 8 texels (lambda = 2): base level, min filter.
        S = Sampling(ctx, 2, 2)
        lo, hi = (0.05, 0.05, 0, 1), (1.05, 1.05, 0, 1)
        c = S.coords(lo, hi)
        np.testing.assert_allclose(
            S.draw(tex_fs(), lo, hi),
            sample_2d(data, BORDER, c[..., 0], c[..., 1], TexWrap.REPEAT, TexWrap.REPEAT, mn == TexFilter.LINEAR),
            atol=2e-3,
        )


# -- mip selection: TXL / TXB / TEX with lod clamps and bias -----------------------------------


def _mip_texture(screen, ctx, levels=4):
    """An 8x8 RGBA32F texture whose level L is the constant (L + 1, 0, 0, 1)."""
    tex = make_texture(screen, Target.TEXTURE_2D, Format.R32G32B32A32_FLOAT, 8, 8, last_level=levels - 1)
    for level in range(levels):
        n = 8 >> level
        upload(screen, tex, level, np.tile(np.array([level + 1, 0, 0, 1], np.float32), (n, n, 1)))
    return tex


def _gl_level_value(lam, mip, q, base=0):
    """The R a constant-per-level chain gives at lambda' (GL 4.5 §8.14.3):
    MIPMAP_NEAREST picks d = base if lambda <= 1/2 else base + ceil(lambda + 1/2) - 1,
    MIPMAP_LINEAR blends floor(lambda) and the next by frac(lambda); levels
    clamp to q; lambda <= 0 magnifies from the base level."""
    if lam <= 0:
        return base + 1.0
    if mip == TexMipFilter.NONE:
        return base + 1.0
    if mip == TexMipFilter.NEAREST:
        d = base if lam <= 0.5 else base + int(np.ceil(lam + 0.5)) - 1
        return min(d, q) + 1.0
    d1 = min(base + int(np.floor(lam)), q)
    d2 = min(d1 + 1, q)
    f = lam - np.floor(lam)
    return (1 - f) * (d1 + 1) + f * (d2 + 1)


@pytest.mark.parametrize("mip", [TexMipFilter.NEAREST, TexMipFilter.LINEAR, TexMipFilter.NONE])
def test_txl_lod_with_min_max_lod(screen, ctx, mip):
    """TXL's explicit lod, clamped to [min_lod, max_lod], picks the level as GL
    defines; MIPFILTER_NONE always reads the base level."""
    tex = _mip_texture(screen, ctx)
    view = view_2d(ctx, tex)
    S = Sampling(ctx, 1, 1)
    fs = tex_fs(op="TXL")
    for min_lod, max_lod in ((0.0, 10.0), (1.2, 10.0), (0.0, 1.3), (0.7, 2.2)):
        smp = ctx.create_sampler_state(
            SamplerState(
                min_mip_filter=mip,
                min_img_filter=TexFilter.NEAREST,
                mag_img_filter=TexFilter.NEAREST,
                min_lod=min_lod,
                max_lod=max_lod,
            )
        )
        bind_sampling(ctx, view, smp)
        for lod in (0.0, 0.3, 0.8, 1.25, 2.7, 6.0):
            lam = float(np.clip(lod, min_lod, max_lod))
            img = S.draw(fs, (0.5, 0.5, 0, lod), (0.5, 0.5, 0, lod))
            want = _gl_level_value(lam, mip, 3)
            assert img[0, 0, 0] == pytest.approx(want, abs=2e-3), (min_lod, max_lod, lod)


def test_lod_bias_on_tex_and_txb(screen, ctx):
    """An 8x8 draw over the 8x8 level 0 has lambda 0; the sampler's lod_bias
    (TEX) and the shader's bias plus lod_bias (TXB) move it up the chain."""
    tex = _mip_texture(screen, ctx)
    view = view_2d(ctx, tex)
    S = Sampling(ctx, 8, 8)
    lo, hi = (0.0, 0.0, 0.0, 0.0), (1.0, 1.0, 0.0, 0.0)
    for bias, shader_bias in ((0.0, 0.0), (1.2, 0.0), (2.3, 0.0), (1.1, 1.1), (0.0, 2.9), (-1.0, 2.2)):
        smp = ctx.create_sampler_state(SamplerState(min_mip_filter=TexMipFilter.NEAREST, lod_bias=bias, max_lod=10.0))
        bind_sampling(ctx, view, smp)
        op = "TXB" if shader_bias else "TEX"
        img = S.draw(tex_fs(op=op), (lo[0], lo[1], 0, shader_bias), (hi[0], hi[1], 0, shader_bias))
        lam = bias + shader_bias
        want = _gl_level_value(lam, TexMipFilter.NEAREST, 3)
        np.testing.assert_allclose(img[..., 0], want, atol=2e-3, err_msg=f"bias {bias} shader {shader_bias}")
    # The cap MAX_TEXTURE_LOD_BIAS itself is accepted both ways: the last level, the base level.
    cap = delivered_caps(screen).paramf[CapF.MAX_TEXTURE_LOD_BIAS]
    assert cap == screen.profile.limit("GL_MAX_TEXTURE_LOD_BIAS") and cap >= 3
    for bias, level_value in ((cap, 4.0), (-cap, 1.0)):
        bind_sampling(
            ctx,
            view,
            ctx.create_sampler_state(SamplerState(min_mip_filter=TexMipFilter.NEAREST, lod_bias=bias, max_lod=10.0)),
        )
        np.testing.assert_allclose(S.draw(tex_fs(), lo, hi)[..., 0], level_value)


# -- compare mode ---------------------------------------------------------------------------------

_GL_COMPARE = {
    Func.NEVER: lambda r, d: np.zeros_like(d),
    Func.ALWAYS: lambda r, d: np.ones_like(d),
    Func.LESS: lambda r, d: r < d,
    Func.LEQUAL: lambda r, d: r <= d,
    Func.EQUAL: lambda r, d: r == d,
    Func.GREATER: lambda r, d: r > d,
    Func.GEQUAL: lambda r, d: r >= d,
    Func.NOTEQUAL: lambda r, d: r != d,
}


@pytest.mark.parametrize("func", list(Func))
def test_compare_mode_on_a_depth_texture(screen, ctx, func):
    """SHADOW2D with compare_mode R_TO_TEXTURE: 1 where ``ref func texel`` holds
    (GL 4.5 §8.23: the reference is src0.z), else 0."""
    depths = np.array([[0.125, 0.375, 0.625, 0.875]], np.float32)
    tex = make_texture(screen, Target.TEXTURE_2D, Format.Z32_FLOAT, 4, 1, bind=Bind.SAMPLER_VIEW | Bind.DEPTH_STENCIL)
    upload(screen, tex, 0, depths[..., None], gl_format="GL_DEPTH_COMPONENT", gl_type="GL_FLOAT")
    smp = ctx.create_sampler_state(
        nearest(
            compare_mode=TexCompare.R_TO_TEXTURE,
            compare_func=func,
            wrap_s=TexWrap.CLAMP_TO_EDGE,
            wrap_t=TexWrap.CLAMP_TO_EDGE,
        )
    )
    bind_sampling(ctx, view_2d(ctx, tex), smp)
    S = Sampling(ctx, 4, 3)
    # Reference per row: below, equal to (texel 1's 0.375), and above most texels.
    for ref in (0.25, 0.375, 0.75):
        img = S.draw(tex_fs(target="SHADOW2D"), (0.0, 0.5, ref, 1.0), (1.0, 0.5, ref, 1.0))
        want = _GL_COMPARE[func](np.float32(ref), depths[0]).astype(np.float32)
        np.testing.assert_array_equal(img[:, :, 0], np.broadcast_to(want, (3, 4)), err_msg=f"ref {ref}")


def test_compare_mode_none_reads_depth(screen, ctx):
    """Without compare mode a depth texture reads its depth in .x."""
    depths = np.array([[0.125, 0.375, 0.625, 0.875]], np.float32)
    tex = make_texture(screen, Target.TEXTURE_2D, Format.Z32_FLOAT, 4, 1, bind=Bind.SAMPLER_VIEW | Bind.DEPTH_STENCIL)
    upload(screen, tex, 0, depths[..., None], gl_format="GL_DEPTH_COMPONENT", gl_type="GL_FLOAT")
    bind_sampling(ctx, view_2d(ctx, tex), ctx.create_sampler_state(nearest()))
    S = Sampling(ctx, 4, 1)
    img = S.draw(tex_fs(), (0.0, 0.5, 0, 1), (1.0, 0.5, 0, 1))
    np.testing.assert_allclose(img[0, :, 0], depths[0])


# -- border colours ---------------------------------------------------------------------------------


def _int_target(ctx, w, h, fmt):
    color, _ = render_target(ctx, w, h, fmt=fmt)
    return color


@pytest.mark.parametrize("signed", [False, True])
def test_integer_border_color(screen, ctx, signed):
    """border_color_is_integer: an integer texture reads the border words
    unconverted (values a float could not hold exactly)."""
    fmt = Format.R32G32B32A32_SINT if signed else Format.R32G32B32A32_UINT
    border = (-7, 2**31 - 3, -(2**31), 123456789) if signed else (2**32 - 5, 16777217, 0, 7)
    tex = make_texture(screen, Target.TEXTURE_2D, fmt, 2, 1)
    texels = np.array([[[1, 2, 3, 4], [5, 6, 7, 8]]], np.int32 if signed else np.uint32)
    upload(screen, tex, 0, texels, gl_format="GL_RGBA_INTEGER", gl_type="GL_INT" if signed else "GL_UNSIGNED_INT")
    S = Sampling(ctx, 4, 1)
    color = _int_target(ctx, 4, 1, fmt)
    S.color = color
    smp = ctx.create_sampler_state(
        nearest(
            wrap_s=TexWrap.CLAMP_TO_BORDER,
            wrap_t=TexWrap.CLAMP_TO_EDGE,
            border_color=border,
            border_color_is_integer=True,
        )
    )
    bind_sampling(ctx, view_2d(ctx, tex), smp)
    # s = -0.25, 0.25, 0.75, 1.25: border, texel 0, texel 1, border.
    S.draw(tex_fs(ret="SINT" if signed else "UINT"), (-0.5, 0.5, 0, 1), (1.5, 0.5, 0, 1), read=False)
    img = read_int(screen, color, signed)
    want = np.array([border, texels[0, 0], texels[0, 1], border], np.int64).astype(np.int32 if signed else np.uint32)
    np.testing.assert_array_equal(img[0], want)


def test_integer_texture_under_a_linear_sampler_fetches_nearest(screen, ctx):
    """Integer formats are never filtered: a LINEAR sampler reads the nearest
    texel of an R32G32B32A32_UINT texture (GL would call it incomplete)."""
    tex = make_texture(screen, Target.TEXTURE_2D, Format.R32G32B32A32_UINT, 4, 1)
    texels = (np.arange(16, dtype=np.uint32).reshape(1, 4, 4) + 1) * 1000003
    upload(screen, tex, 0, texels, gl_format="GL_RGBA_INTEGER", gl_type="GL_UNSIGNED_INT")
    S = Sampling(ctx, 8, 1)
    color = _int_target(ctx, 8, 1, Format.R32G32B32A32_UINT)
    smp = ctx.create_sampler_state(linear(min_mip_filter=TexMipFilter.LINEAR, max_lod=4, wrap_s=TexWrap.CLAMP_TO_EDGE))
    bind_sampling(ctx, view_2d(ctx, tex), smp)
    S.draw(tex_fs(ret="UINT"), (0.0, 0.5, 0, 1), (1.0, 0.5, 0, 1), read=False)
    np.testing.assert_array_equal(read_int(screen, color)[0], np.repeat(texels[0], 2, axis=0))


def test_float_border_color_and_int_words_on_a_float_texture(screen, ctx):
    """A float border reads as given on a float texture; integer border words
    read as their float bit patterns (pipe_color_union)."""
    tex = make_texture(screen, Target.TEXTURE_2D, Format.R32G32B32A32_FLOAT, 2, 1)
    texels = texel_grid(2, 1)
    upload(screen, tex, 0, texels)
    S = Sampling(ctx, 4, 1)
    words = np.array([0.5, -2.0, 1e6, 0.0], np.float32).view(np.uint32)
    for state, expect in (
        ({"border_color": BORDER}, np.array(BORDER, np.float32)),
        ({"border_color": tuple(int(w) for w in words), "border_color_is_integer": True}, words.view(np.float32)),
    ):
        smp = ctx.create_sampler_state(nearest(wrap_s=TexWrap.CLAMP_TO_BORDER, **state))
        bind_sampling(ctx, view_2d(ctx, tex), smp)
        img = S.draw(tex_fs(), (-0.5, 0.5, 0, 1), (1.5, 0.5, 0, 1))
        np.testing.assert_array_equal(img[0, 0], expect)
        np.testing.assert_array_equal(img[0, 3], expect)
        np.testing.assert_array_equal(img[0, 1:3], texels[0])


def test_border_color_validation(ctx):
    """A fractional value with border_color_is_integer, or one wider than 32 bits, is refused."""
    with pytest.raises(InvalidArgumentError, match="border_color"):
        ctx.create_sampler_state(SamplerState(border_color=(0.5, 0, 0, 0), border_color_is_integer=True))
    with pytest.raises(InvalidArgumentError, match="32 bits"):
        ctx.create_sampler_state(SamplerState(border_color=(2**32, 0, 0, 0), border_color_is_integer=True))


# -- anisotropy, reduction, seamless cubes, unnormalized coordinates ------------------------------------


def test_max_anisotropy_is_clamped_to_the_cap(screen, ctx):
    """max_anisotropy reaches the GL sampler clamped to the cap
    MAX_TEXTURE_ANISOTROPY; with the cap 0 (no host support) it is ignored."""
    gl = screen.host.gl
    cap = delivered_caps(screen).paramf[CapF.MAX_TEXTURE_ANISOTROPY]
    assert delivered_caps(screen).param[Cap.ANISOTROPIC_FILTER] == (cap > 0)
    for requested in (0, 1, 4, 64):
        smp = ctx.create_sampler_state(SamplerState(max_anisotropy=requested))
        assert screen.host.clear_errors() == []
        if cap > 0:
            value = np.zeros(1, np.float32)
            gl.glGetSamplerParameterfv(smp.gl_sampler, 0x84FE, value)
            assert value[0] == (min(requested, cap) if requested > 1 else 1.0)


def test_reduction_modes(screen, ctx):
    """MIN / MAX reduction: LINEAR filtering returns the min / max of the 2x2
    footprint (GL_ARB_texture_filter_minmax); without the host feature the
    modes are refused and SAMPLER_REDUCTION_MINMAX stays 0."""
    if not screen.profile.has("texture_filter_minmax"):
        for mode in (TexReduction.MIN, TexReduction.MAX):
            with pytest.raises(UnsupportedError, match="texture_filter_minmax"):
                ctx.create_sampler_state(linear(reduction_mode=mode))
        assert delivered_caps(screen).param[Cap.SAMPLER_REDUCTION_MINMAX] == 0
        return
    tex = make_texture(screen, Target.TEXTURE_2D, Format.R32G32B32A32_FLOAT, 4, 3)
    data = texel_grid(4, 3)
    upload(screen, tex, 0, data)
    S = Sampling(ctx, 6, 4)
    lo, hi = (0.2, 0.25, 0, 1), (0.8, 0.75, 0, 1)
    c = S.coords(lo, hi)
    u, v = c[..., 0] * 4 - 0.5, c[..., 1] * 3 - 0.5
    i0, j0 = np.floor(u).astype(int), np.floor(v).astype(int)
    taps = np.stack([data[np.clip(j0 + dj, 0, 2), np.clip(i0 + di, 0, 3)] for dj in (0, 1) for di in (0, 1)])
    for mode, reduce in ((TexReduction.MIN, taps.min(axis=0)), (TexReduction.MAX, taps.max(axis=0))):
        smp = ctx.create_sampler_state(
            linear(reduction_mode=mode, wrap_s=TexWrap.CLAMP_TO_EDGE, wrap_t=TexWrap.CLAMP_TO_EDGE)
        )
        bind_sampling(ctx, view_2d(ctx, tex), smp)
        np.testing.assert_allclose(S.draw(tex_fs(), lo, hi), reduce, atol=1e-5, err_msg=mode.name)


def _cube(screen, ctx, size=2):
    """A cube whose face f is the constant (f + 1, 0, 0, 1)."""
    tex = make_texture(screen, Target.TEXTURE_CUBE, Format.R32G32B32A32_FLOAT, size, size, array_size=6)
    for face in range(6):
        upload(screen, tex, 0, np.tile(np.array([face + 1, 0, 0, 1], np.float32), (size, size, 1)), face=face)
    return tex, ctx.create_sampler_view(tex, SamplerViewTemplate(target=Target.TEXTURE_CUBE, last_layer=5))


def test_seamless_cube_map(screen, ctx):
    """Linear sampling right at the edge of +X towards +Y: without seamless
    filtering the footprint stays on +X (exactly face 0's value); with it,
    +Y's texels take part (GL 4.5 §8.13.1)."""
    _tex, view = _cube(screen, ctx)
    S = Sampling(ctx, 1, 1)
    fs = tex_fs(target="CUBE")
    # Direction (1, 0.999, 0): +X face, t right at the +Y edge.
    lo = hi = (1.0, 0.999, 0.0, 1.0)
    results = {}
    for seamless in (False, True):
        smp = ctx.create_sampler_state(
            linear(seamless_cube_map=seamless, wrap_s=TexWrap.CLAMP_TO_EDGE, wrap_t=TexWrap.CLAMP_TO_EDGE)
        )
        bind_sampling(ctx, view, smp)
        results[seamless] = S.draw(fs, lo, hi)[0, 0, 0]
    assert results[False] == pytest.approx(1.0)  # face 0 (+X) alone
    assert 1.0 < results[True] < 3.0  # blended with +Y (face 2)


def test_seamless_per_sampler_where_the_host_has_it(screen, ctx):
    """Two cube samplers at once, one seamless: per-sampler hosts
    (ARB_seamless_cubemap_per_texture) keep them apart; elsewhere the
    global switch makes both seamless (SEAMLESS_CUBE_MAP_PER_TEXTURE 0)."""

    _tex, view = _cube(screen, ctx)
    fs = (
        "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nDCL SAMP[0]\nDCL SAMP[1]\n"
        "DCL SVIEW[0], CUBE, FLOAT\nDCL SVIEW[1], CUBE, FLOAT\nDCL TEMP[0..1]\n"
        "  0: TEX TEMP[0], IN[0].xyzz, SAMP[0], CUBE\n  1: TEX TEMP[1], IN[0].xyzz, SAMP[1], CUBE\n"
        "  2: MOV OUT[0].x, TEMP[0].xxxx\n  3: MOV OUT[0].y, TEMP[1].xxxx\n  4: END\n"
    )
    plain = ctx.create_sampler_state(linear(wrap_s=TexWrap.CLAMP_TO_EDGE, wrap_t=TexWrap.CLAMP_TO_EDGE))
    seamless = ctx.create_sampler_state(
        linear(seamless_cube_map=True, wrap_s=TexWrap.CLAMP_TO_EDGE, wrap_t=TexWrap.CLAMP_TO_EDGE)
    )
    ctx.set_sampler_views(ShaderType.FRAGMENT, 0, [view, view])
    ctx.bind_sampler_states(ShaderType.FRAGMENT, 0, [plain, seamless])
    S = Sampling(ctx, 1, 1)
    px = S.draw(fs, (1.0, 0.999, 0.0, 1.0), (1.0, 0.999, 0.0, 1.0))[0, 0]
    assert 1.0 < px[1] < 3.0
    if screen.profile.has("seamless_cubemap_per_texture"):
        assert px[0] == pytest.approx(1.0)
    else:
        assert px[0] == pytest.approx(px[1])


def test_unnormalized_coords_on_rect_and_refused_elsewhere(screen, ctx):
    """unnormalized_coords with a RECT view samples texel coordinates; with a
    2D view the draw raises UnsupportedError (GL has no such mode)."""
    rect = make_texture(screen, Target.TEXTURE_RECT, Format.R32G32B32A32_FLOAT, 4, 3)
    data = texel_grid(4, 3)
    upload(screen, rect, 0, data)
    rview = ctx.create_sampler_view(rect, SamplerViewTemplate(target=Target.TEXTURE_RECT))
    smp = ctx.create_sampler_state(
        nearest(
            unnormalized_coords=True,
            wrap_s=TexWrap.CLAMP_TO_EDGE,
            wrap_t=TexWrap.CLAMP_TO_EDGE,
            min_mip_filter=TexMipFilter.NEAREST,
        )
    )
    bind_sampling(ctx, rview, smp)
    S = Sampling(ctx, 8, 6)
    lo, hi = (-1.0, 0.0, 0, 1), (5.0, 3.0, 0, 1)
    img = S.draw(tex_fs(target="RECT"), lo, hi)
    c = S.coords(lo, hi)
    np.testing.assert_allclose(
        img, sample_2d(data, BORDER, c[..., 0] / 4, c[..., 1] / 3, TexWrap.CLAMP_TO_EDGE, TexWrap.CLAMP_TO_EDGE, False)
    )
    tex2d = make_texture(screen, Target.TEXTURE_2D, Format.R32G32B32A32_FLOAT, 4, 3)
    bind_sampling(ctx, view_2d(ctx, tex2d), smp)
    with pytest.raises(UnsupportedError, match="unnormalized_coords"):
        S.draw(tex_fs(), lo, hi)


def test_vertex_shader_samples_through_its_own_slots(screen, ctx):
    """bind_sampler_states / set_sampler_views for the VERTEX stage: a VS fetch
    (TXL) with a NEAREST sampler feeds the colour."""
    from glpipe import ShaderState

    tex = make_texture(screen, Target.TEXTURE_2D, Format.R32G32B32A32_FLOAT, 4, 3)
    data = texel_grid(4, 3)
    upload(screen, tex, 0, data)
    vs = (
        "VERT\nDCL IN[0]\nDCL IN[1]\nDCL OUT[0], POSITION\nDCL OUT[1], GENERIC[0]\nDCL SAMP[0]\n"
        "DCL SVIEW[0], 2D, FLOAT\n  0: MOV OUT[0], IN[0]\n  1: TXL OUT[1], IN[1], SAMP[0], 2D\n  2: END\n"
    )
    fs = "FRAG\nDCL IN[0], GENERIC[0], CONSTANT\nDCL OUT[0], COLOR\n  0: MOV OUT[0], IN[0]\n  1: END\n"
    S = Sampling(ctx, 2, 2)
    ctx.bind_vs_state(ctx.create_vs_state(ShaderState(tokens=vs)))
    bind_sampling(ctx, view_2d(ctx, tex), ctx.create_sampler_state(nearest()), stage=ShaderType.VERTEX)
    # Every vertex reads texel (2, 1): s = 2.5/4, t = 1.5/3, lod 0.
    img = S.draw(fs, (2.5 / 4, 0.5, 0, 0), (2.5 / 4, 0.5, 0, 0))
    np.testing.assert_allclose(img, np.broadcast_to(data[1, 2], img.shape))


_GS_TXL = """GEOM
PROPERTY GS_INPUT_PRIMITIVE TRIANGLES
PROPERTY GS_OUTPUT_PRIMITIVE TRIANGLE_STRIP
PROPERTY GS_MAX_OUTPUT_VERTICES 3
PROPERTY GS_INVOCATIONS 1
DCL IN[][0], POSITION
DCL IN[][1], GENERIC[0]
DCL OUT[0], POSITION
DCL OUT[1], GENERIC[0]
DCL SAMP[2]
DCL SVIEW[2], 2D, FLOAT
DCL TEMP[0]
DCL CONST[1][0..0]
IMM[0] UINT32 {0, 0, 0, 0}
  0: TXL TEMP[0], IN[0][1], SAMP[2], 2D
  1: ADD TEMP[0], TEMP[0], CONST[1][0]
  2: MOV OUT[0], IN[0][0]
  3: MOV OUT[1], TEMP[0]
  4: EMIT IMM[0].xxxx
  5: MOV OUT[0], IN[1][0]
  6: MOV OUT[1], TEMP[0]
  7: EMIT IMM[0].xxxx
  8: MOV OUT[0], IN[2][0]
  9: MOV OUT[1], TEMP[0]
 10: EMIT IMM[0].xxxx
 11: ENDPRIM IMM[0].xxxx
 12: END
"""


def test_geometry_shader_samples_and_reads_constants(screen, ctx):
    """The GEOMETRY stage's slots: SVIEW/SAMP 2 and constant buffer 1 of the
    GS feed the colour (GS exists on both profiles)."""
    from glpipe import ConstantBuffer, ShaderState

    tex = make_texture(screen, Target.TEXTURE_2D, Format.R32G32B32A32_FLOAT, 4, 3)
    data = texel_grid(4, 3)
    upload(screen, tex, 0, data)
    fs = "FRAG\nDCL IN[0], GENERIC[0], CONSTANT\nDCL OUT[0], COLOR\n  0: MOV OUT[0], IN[0]\n  1: END\n"
    S = Sampling(ctx, 2, 2)
    gs = ctx.create_gs_state(ShaderState(tokens=_GS_TXL))
    ctx.bind_gs_state(gs)
    bind_sampling(ctx, view_2d(ctx, tex), ctx.create_sampler_state(nearest()), stage=ShaderType.GEOMETRY, slot=2)
    offset = np.array([[100, 200, 300, 400]], np.float32)
    ctx.set_constant_buffer(ShaderType.GEOMETRY, 1, ConstantBuffer(user_buffer=offset))
    img = S.draw(fs, (1.5 / 4, 2.5 / 3, 0, 0), (1.5 / 4, 2.5 / 3, 0, 0))  # texel (1, 2)
    np.testing.assert_allclose(img, np.broadcast_to(data[2, 1] + offset[0], img.shape))
    ctx.bind_gs_state(None)


# -- binding rules -------------------------------------------------------------------------------------


def test_redundant_sampler_binds_make_no_gl_call(screen, ctx):
    """Rebinding the bound samplers sets no dirty bit and costs no GL call at
    the next draw; switching to another sampler rebinds one unit."""
    tex = make_texture(screen, Target.TEXTURE_2D, Format.R32G32B32A32_FLOAT, 4, 3)
    upload(screen, tex, 0, texel_grid(4, 3))
    a = ctx.create_sampler_state(nearest())
    b = ctx.create_sampler_state(linear())
    view = view_2d(ctx, tex)
    bind_sampling(ctx, view, a)
    S = Sampling(ctx, 2, 2)
    S.draw(tex_fs(), _LO, _HI)
    counting = CountingGL(ctx.gl)
    ctx.gl = counting
    try:
        ctx.bind_sampler_states(ShaderType.FRAGMENT, 0, [a])
        ctx.set_sampler_views(ShaderType.FRAGMENT, 0, [view])
        assert not ctx.dirty & (Dirty.SAMPLERS | Dirty.SAMPLER_VIEWS)
        ctx.bind_sampler_states(ShaderType.FRAGMENT, 0, [b])
        ctx.bind_sampler_states(ShaderType.FRAGMENT, 0, [a])
        ctx.sampler_views_part._emit_sampler_views()
        assert counting.calls == []
        ctx.bind_sampler_states(ShaderType.FRAGMENT, 0, [b])
        ctx.sampler_views_part._emit_sampler_views()
        assert counting.calls == ["glBindSampler"]
    finally:
        ctx.gl = counting._gl


def test_delete_sampler_state_rules(screen, ctx):
    """Deleting a bound sampler unbinds it; a deleted sampler cannot be bound
    or deleted again; samplers of another context are refused."""
    a = ctx.create_sampler_state(nearest())
    ctx.bind_sampler_states(ShaderType.FRAGMENT, 2, [a])
    ctx.delete_sampler_state(a)
    assert ctx.samplers_part.sampler_states[ShaderType.FRAGMENT][2] is None
    with pytest.raises(ObjectDestroyedError):
        ctx.bind_sampler_states(ShaderType.FRAGMENT, 0, [a])
    with pytest.raises(ObjectDestroyedError):
        ctx.destroy_sampler_state(a)
    other = screen.context_create()
    try:
        b = other.create_sampler_state(nearest())
        with pytest.raises(InvalidArgumentError, match="another context"):
            ctx.bind_sampler_states(ShaderType.FRAGMENT, 0, [b])
    finally:
        other.destroy()


def test_bind_sampler_states_argument_errors(screen, ctx):
    """Bad stage, negative or too-large slot ranges, wrong object types."""
    a = ctx.create_sampler_state(nearest())
    with pytest.raises(InvalidArgumentError, match="ShaderType"):
        ctx.bind_sampler_states(17, 0, [a])
    with pytest.raises(InvalidArgumentError, match="negative"):
        ctx.bind_sampler_states(ShaderType.FRAGMENT, -1, [a])
    with pytest.raises(InvalidArgumentError, match="PIPE_MAX_SAMPLERS"):
        ctx.bind_sampler_states(ShaderType.FRAGMENT, 31, [a, a])
    with pytest.raises(InvalidArgumentError, match="SamplerCSO"):
        ctx.bind_sampler_states(ShaderType.FRAGMENT, 0, ["nope"])
    with pytest.raises(InvalidArgumentError, match="SamplerState"):
        ctx.create_sampler_state({"wrap_s": 0})
    units = screen.bindings.stage("FRAG").tex_count
    if units < 32:
        with pytest.raises(UnsupportedError, match="sampler"):
            ctx.bind_sampler_states(ShaderType.FRAGMENT, units, [a])


def test_sample_pairs_any_view_with_any_sampler(screen, ctx):
    """SAMPLE dst, coord, SVIEW[a], SAMP[b]: the texture of view a filtered by
    sampler b, for crossed pairs in one shader (inside: the view's texel;
    outside: the sampler's border)."""
    ta = make_texture(screen, Target.TEXTURE_2D, Format.R32G32B32A32_FLOAT, 1, 1)
    tb = make_texture(screen, Target.TEXTURE_2D, Format.R32G32B32A32_FLOAT, 1, 1)
    upload(screen, ta, 0, np.array([[[1.0, 0, 0, 0]]], np.float32))
    upload(screen, tb, 0, np.array([[[2.0, 0, 0, 0]]], np.float32))
    s0 = ctx.create_sampler_state(nearest(wrap_s=TexWrap.CLAMP_TO_BORDER, border_color=(10.0, 0, 0, 0)))
    s1 = ctx.create_sampler_state(nearest(wrap_s=TexWrap.CLAMP_TO_BORDER, border_color=(20.0, 0, 0, 0)))
    ctx.set_sampler_views(ShaderType.FRAGMENT, 0, [view_2d(ctx, ta), view_2d(ctx, tb)])
    ctx.bind_sampler_states(ShaderType.FRAGMENT, 0, [s0, s1])
    fs = (
        "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nDCL SAMP[0]\nDCL SAMP[1]\n"
        "DCL SVIEW[0], 2D, FLOAT\nDCL SVIEW[1], 2D, FLOAT\nDCL TEMP[0..1]\n"
        "  0: SAMPLE TEMP[0], IN[0], SVIEW[1], SAMP[0]\n  1: SAMPLE TEMP[1], IN[0], SVIEW[0], SAMP[1]\n"
        "  2: MOV OUT[0].x, TEMP[0].xxxx\n  3: MOV OUT[0].y, TEMP[1].xxxx\n  4: END\n"
    )
    S = Sampling(ctx, 2, 1)
    img = S.draw(fs, (0.0, 0.5, 0, 1), (2.0, 0.5, 0, 1))  # s = 0.5 (inside), 1.5 (outside)
    np.testing.assert_array_equal(img[0, :, :2], [[2.0, 1.0], [10.0, 20.0]])


def test_samplers_are_a_part(ctx):
    """The samplers area is a part (docs/architecture.md): ``ctx.samplers_part``
    owns the slots and the GL_CLAMP variant input; the pipe_context methods
    are its bound methods; a CSO still belongs to the context."""
    from glpipe import samplers as samplers_module
    from glpipe.context import PARTS

    part = ctx.samplers_part
    assert isinstance(part, samplers_module.SamplerPart) and part.ctx is ctx
    assert samplers_module.AREA in PARTS and not hasattr(samplers_module, "SamplerMixin")
    for name in ("create_sampler_state", "bind_sampler_states", "delete_sampler_state"):
        assert getattr(ctx, name).__self__ is part
    clamp = ctx.create_sampler_state(
        SamplerState(wrap_s=TexWrap.CLAMP, min_img_filter=TexFilter.LINEAR, mag_img_filter=TexFilter.LINEAR)
    )
    assert clamp.context is ctx
    ctx.bind_sampler_states(ShaderType.FRAGMENT, 1, [clamp])
    assert part.sampler_states[ShaderType.FRAGMENT][1] is clamp
    assert part.gl_clamp_masks[ShaderType.FRAGMENT] == (0b10, 0, 0)
    ctx.delete_sampler_state(clamp)
    assert part.sampler_states[ShaderType.FRAGMENT][1] is None
    assert part.gl_clamp_masks[ShaderType.FRAGMENT] == (0, 0, 0)
