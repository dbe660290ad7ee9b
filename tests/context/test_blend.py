"""Blend state, blend colour, sample mask and min samples, checked on pixels.

Expectations come from the GL 4.5 / Gallium blend definitions written out
in numpy below (factor table, equations, logic ops), applied to the same
source / destination / constant values the test uploads -- never from what
the code under test printed.
"""

from __future__ import annotations

import numpy as np
import pytest

import glpipe
from glpipe import Bind, Blend, BlendFactor, BlendState, Cap, Format, LogicOp, Mask, RTBlendState
from lowering.errors import InvalidArgumentError, ObjectDestroyedError, UnsupportedError

from .util import vertex_buffer
from .util_blend_dsa import (
    CountingGL,
    bind_rasterizer,
    bind_targets,
    clear_msaa,
    color_target,
    column_cases,
    fullscreen,
    pipeline,
    read,
    resolve_rgba32f,
    sample_positions,
    texture,
    upload,
)
from .util_fastpath import requires_fast_path

F = BlendFactor
ALL_FACTORS = [f for f in F if f not in (F.SRC1_COLOR, F.SRC1_ALPHA, F.INV_SRC1_COLOR, F.INV_SRC1_ALPHA)]
SRC1_FACTORS = [F.SRC1_COLOR, F.SRC1_ALPHA, F.INV_SRC1_COLOR, F.INV_SRC1_ALPHA]


def delivered_caps(screen):
    """The screen's PIPE_CAP answers (the draw and shaders rows are delivered)."""
    return {cap: screen.get_param(cap) for cap in Cap}


# -- the blend model (GL 4.5 §17.3.6, table 17.2; Gallium's p_defines) -------------


def factor(f, S, D, C, S1):
    """The 4 per-channel values of factor ``f`` (rgb from the RGB row, a from the A row)."""
    As, Ad, Ac, A1 = S[3], D[3], C[3], S1[3]
    one = np.ones(4)
    base = {
        F.ONE: one,
        F.SRC_COLOR: S,
        F.SRC_ALPHA: As * one,
        F.DST_ALPHA: Ad * one,
        F.DST_COLOR: D,
        F.SRC_ALPHA_SATURATE: np.array([min(As, 1 - Ad)] * 3 + [1.0]),
        F.CONST_COLOR: C,
        F.CONST_ALPHA: Ac * one,
        F.SRC1_COLOR: S1,
        F.SRC1_ALPHA: A1 * one,
    }
    if f in base:
        return base[f]
    if f == F.ZERO:
        return 0 * one
    return 1 - base[F(int(f) & 0x0F)]  # INV_x = 1 - x (PIPE_BLENDFACTOR_INV_* = base | 0x10)


def equation(eq, s, fs, d, fd):
    return {
        Blend.ADD: s * fs + d * fd,
        Blend.SUBTRACT: s * fs - d * fd,
        Blend.REVERSE_SUBTRACT: d * fd - s * fs,
        Blend.MIN: np.minimum(s, d),
        Blend.MAX: np.maximum(s, d),
    }[eq]


def blend(rt, S, D, C, S1=(0.0, 0.0, 0.0, 0.0)):
    """What one render target holds after blending S onto D (float buffer: no clamping)."""
    S, D, C, S1 = (np.asarray(v, np.float64) for v in (S, D, C, S1))
    if rt.blend_enable:
        rgb = equation(
            rt.rgb_func, S, factor(rt.rgb_src_factor, S, D, C, S1), D, factor(rt.rgb_dst_factor, S, D, C, S1)
        )
        alpha = equation(
            rt.alpha_func, S, factor(rt.alpha_src_factor, S, D, C, S1), D, factor(rt.alpha_dst_factor, S, D, C, S1)
        )
        out = np.concatenate([rgb[:3], alpha[3:]])
    else:
        out = S.copy()
    mask = [bool(rt.colormask & m) for m in (Mask.R, Mask.G, Mask.B, Mask.A)]
    return np.where(mask, out, D)


LOGIC = {
    LogicOp.CLEAR: lambda s, d: 0 * s,
    LogicOp.NOR: lambda s, d: ~(s | d),
    LogicOp.AND_INVERTED: lambda s, d: ~s & d,
    LogicOp.COPY_INVERTED: lambda s, d: ~s,
    LogicOp.AND_REVERSE: lambda s, d: s & ~d,
    LogicOp.INVERT: lambda s, d: ~d,
    LogicOp.XOR: lambda s, d: s ^ d,
    LogicOp.NAND: lambda s, d: ~(s & d),
    LogicOp.AND: lambda s, d: s & d,
    LogicOp.EQUIV: lambda s, d: ~(s ^ d),
    LogicOp.NOOP: lambda s, d: d,
    LogicOp.OR_INVERTED: lambda s, d: ~s | d,
    LogicOp.COPY: lambda s, d: s,
    LogicOp.OR_REVERSE: lambda s, d: s | ~d,
    LogicOp.OR: lambda s, d: s | d,
    LogicOp.SET: lambda s, d: ~(0 * s),
}


def run_columns(screen, ctx, states, S, D, C=(0, 0, 0, 0)):
    """Draw case i (BlendState states[i], source S[i]) over destination D[i] in
    pixel column i of an RGBA32F target; return the texels (W, 4)."""
    width = len(states)
    rt = color_target(screen, ctx, width, 1)
    pipeline(ctx)
    upload(screen, rt, "rgba32f", np.asarray(D, np.float32).reshape(1, width, 4))
    draw = column_cases(screen, ctx, [list(s) for s in np.asarray(S, np.float32)])
    ctx.set_blend_color(C)
    for i, st in enumerate(states):
        ctx.bind_blend_state(ctx.create_blend_state(st))
        draw(i)
    return read(screen, rt, "rgba32f")[0]


def values(rng, n):
    """n random RGBA values exactly representable in float32."""
    return rng.uniform(0.05, 0.95, (n, 4)).astype(np.float32).astype(np.float64)


# -- factors, equations, colormask ----------------------------------------------------


def test_every_blend_factor_in_every_slot(screen, ctx):
    """Each factor (SRC_ALPHA_SATURATE, CONST_*, INV_* included) as rgb source,
    rgb destination, alpha source and alpha destination factor."""
    rts = []
    for f in ALL_FACTORS:
        rts += [
            RTBlendState(
                blend_enable=True,
                rgb_src_factor=f,
                rgb_dst_factor=F.INV_SRC_ALPHA,
                alpha_src_factor=F.ONE,
                alpha_dst_factor=F.ZERO,
            ),
            RTBlendState(
                blend_enable=True,
                rgb_src_factor=F.SRC_ALPHA,
                rgb_dst_factor=f,
                alpha_src_factor=F.ZERO,
                alpha_dst_factor=F.ONE,
            ),
            RTBlendState(
                blend_enable=True,
                rgb_src_factor=F.ONE,
                rgb_dst_factor=F.ZERO,
                alpha_src_factor=f,
                alpha_dst_factor=F.INV_SRC_ALPHA,
            ),
            RTBlendState(
                blend_enable=True,
                rgb_src_factor=F.ZERO,
                rgb_dst_factor=F.ONE,
                alpha_src_factor=F.SRC_ALPHA,
                alpha_dst_factor=f,
            ),
        ]
    rng = np.random.default_rng(1)
    S, D = values(rng, len(rts)), values(rng, len(rts))
    C = tuple(float(v) for v in np.float32([0.3, 0.6, 0.2, 0.7]))
    got = run_columns(screen, ctx, [BlendState(rt=[rt]) for rt in rts], S, D, C)
    want = np.array([blend(rt, S[i], D[i], C) for i, rt in enumerate(rts)])
    np.testing.assert_allclose(got, want, atol=2e-6)


def test_every_equation_rgb_and_alpha_separately(screen, ctx):
    """ADD, SUBTRACT, REVERSE_SUBTRACT, MIN, MAX on the colour and on the alpha
    channel independently (MIN/MAX ignore the factors); float targets keep
    negative results."""
    rts = [
        RTBlendState(
            blend_enable=True,
            rgb_func=e_rgb,
            rgb_src_factor=F.SRC_ALPHA,
            rgb_dst_factor=F.DST_COLOR,
            alpha_func=e_a,
            alpha_src_factor=F.INV_DST_ALPHA,
            alpha_dst_factor=F.CONST_ALPHA,
        )
        for e_rgb in Blend
        for e_a in Blend
    ]
    rng = np.random.default_rng(2)
    S, D = values(rng, len(rts)), values(rng, len(rts))
    C = (0.0, 0.0, 0.0, 0.5)
    assert delivered_caps(screen)[Cap.BLEND_EQUATION_SEPARATE] == 1
    got = run_columns(screen, ctx, [BlendState(rt=[rt]) for rt in rts], S, D, C)
    want = np.array([blend(rt, S[i], D[i], C) for i, rt in enumerate(rts)])
    np.testing.assert_allclose(got, want, atol=2e-6)


def test_colormask_every_channel_combination(screen, ctx):
    """All 16 colormasks, with and without blending: masked channels keep the destination."""
    rts = [
        RTBlendState(
            blend_enable=enable,
            rgb_src_factor=F.ONE,
            rgb_dst_factor=F.ONE,
            alpha_src_factor=F.ONE,
            alpha_dst_factor=F.ONE,
            colormask=Mask(m),
        )
        for enable in (False, True)
        for m in range(16)
    ]
    rng = np.random.default_rng(3)
    S, D = values(rng, len(rts)), values(rng, len(rts))
    got = run_columns(screen, ctx, [BlendState(rt=[rt]) for rt in rts], S, D)
    want = np.array([blend(rt, S[i], D[i], np.zeros(4)) for i, rt in enumerate(rts)])
    np.testing.assert_allclose(got, want, atol=2e-6)
    assert np.array_equal(got[0], D[0].astype(np.float32))  # mask 0 writes nothing


def test_blend_color_between_draws(screen, ctx):
    """set_blend_color alone (same CSO) changes the next draw's CONST_COLOR."""
    rt_state = RTBlendState(
        blend_enable=True,
        rgb_src_factor=F.CONST_COLOR,
        rgb_dst_factor=F.INV_CONST_COLOR,
        alpha_src_factor=F.CONST_ALPHA,
        alpha_dst_factor=F.ZERO,
    )
    rt = color_target(screen, ctx, 3, 1)
    pipeline(ctx)
    rng = np.random.default_rng(4)
    S, D = values(rng, 3), values(rng, 3)
    upload(screen, rt, "rgba32f", D.astype(np.float32).reshape(1, 3, 4))
    draw = column_cases(screen, ctx, [list(s) for s in S.astype(np.float32)])
    ctx.bind_blend_state(ctx.create_blend_state(BlendState(rt=[rt_state])))
    colors = [(0.25, 0.5, 0.75, 1.0), (1.0, 0.0, 0.5, 0.25), (0.0, 0.125, 1.0, 0.5)]
    for i, c in enumerate(colors):
        ctx.set_blend_color(c)
        draw(i)
    got = read(screen, rt, "rgba32f")[0]
    want = np.array([blend(rt_state, S[i], D[i], colors[i]) for i in range(3)])
    np.testing.assert_allclose(got, want, atol=2e-6)


# -- several render targets ------------------------------------------------------------

TWO_OUTPUT_FS = """FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL OUT[0], COLOR[0]
DCL OUT[1], COLOR[1]
IMM[0] FLT32 {    0.2500,     0.5000,     0.1250,     0.7500}
  0: MOV OUT[0], IN[0]
  1: MOV OUT[1], IMM[0]
  2: END
"""
IMM_COLOR = np.float32([0.25, 0.5, 0.125, 0.75]).astype(np.float64)


def _two_rt_draw(screen, ctx, blend_state, D0, D1, S):
    a = texture(screen, Format.R32G32B32A32_FLOAT, 1, 1, Bind.RENDER_TARGET | Bind.SAMPLER_VIEW)
    b = texture(screen, Format.R32G32B32A32_FLOAT, 1, 1, Bind.RENDER_TARGET | Bind.SAMPLER_VIEW)
    bind_targets(ctx, 1, 1, (a, b))
    pipeline(ctx, TWO_OUTPUT_FS)
    upload(screen, a, "rgba32f", np.float32(D0).reshape(1, 1, 4))
    upload(screen, b, "rgba32f", np.float32(D1).reshape(1, 1, 4))
    ctx.bind_blend_state(ctx.create_blend_state(blend_state))
    fullscreen(screen, ctx, list(np.float32(S)))()
    return read(screen, a, "rgba32f")[0, 0], read(screen, b, "rgba32f")[0, 0]


def test_without_independent_blend_rt0_state_applies_to_every_rt(screen, ctx):
    """independent_blend_enable off: rt[1]'s own fields are ignored (Gallium rule)."""
    rt0 = RTBlendState(
        blend_enable=True,
        rgb_src_factor=F.ONE,
        rgb_dst_factor=F.ONE,
        alpha_src_factor=F.ONE,
        alpha_dst_factor=F.ONE,
        colormask=Mask.R | Mask.G | Mask.A,
    )
    ignored = RTBlendState(blend_enable=False, colormask=Mask.B)
    S, D0, D1 = np.float64([0.1, 0.2, 0.3, 0.4]), np.float64([0.5, 0.25, 0.125, 0.0]), np.float64([0.0, 0.5, 0.5, 0.25])
    S = np.float32(S).astype(np.float64)
    got0, got1 = _two_rt_draw(screen, ctx, BlendState(rt=[rt0, ignored]), D0, D1, S)
    np.testing.assert_allclose(got0, blend(rt0, S, D0, np.zeros(4)), atol=2e-6)
    np.testing.assert_allclose(got1, blend(rt0, IMM_COLOR, D1, np.zeros(4)), atol=2e-6)


def test_independent_enable_and_colormask(screen, ctx):
    """Per-RT enable and colormask (GL 3.0 glEnablei/glColorMaski: both profiles)."""
    assert delivered_caps(screen)[Cap.INDEP_BLEND_ENABLE] == 1
    rt0 = RTBlendState(
        blend_enable=True, rgb_src_factor=F.ONE, rgb_dst_factor=F.ONE, alpha_src_factor=F.ONE, alpha_dst_factor=F.ONE
    )
    rt1 = RTBlendState(blend_enable=False, colormask=Mask.G | Mask.A)
    S = np.float32([0.1, 0.2, 0.3, 0.4]).astype(np.float64)
    D0, D1 = np.float64([0.5, 0.25, 0.125, 0.0]), np.float64([0.0, 0.5, 0.5, 0.25])
    got0, got1 = _two_rt_draw(screen, ctx, BlendState(independent_blend_enable=True, rt=[rt0, rt1]), D0, D1, S)
    np.testing.assert_allclose(got0, blend(rt0, S, D0, np.zeros(4)), atol=2e-6)
    np.testing.assert_allclose(got1, blend(rt1, IMM_COLOR, D1, np.zeros(4)), atol=2e-6)


def test_independent_blend_functions(screen, ctx):
    """Different equations/factors per RT where PIPE_CAP_INDEP_BLEND_FUNC says
    so; elsewhere create_blend_state refuses them with UnsupportedError."""
    rt0 = RTBlendState(
        blend_enable=True,
        rgb_func=Blend.SUBTRACT,
        rgb_src_factor=F.ONE,
        rgb_dst_factor=F.ONE,
        alpha_src_factor=F.ONE,
        alpha_dst_factor=F.ZERO,
    )
    rt1 = RTBlendState(
        blend_enable=True,
        rgb_func=Blend.MAX,
        alpha_func=Blend.ADD,
        alpha_src_factor=F.SRC_ALPHA,
        alpha_dst_factor=F.INV_SRC_ALPHA,
    )
    state = BlendState(independent_blend_enable=True, rt=[rt0, rt1])
    if not delivered_caps(screen)[Cap.INDEP_BLEND_FUNC]:
        with pytest.raises(UnsupportedError, match="draw_buffers_blend"):
            ctx.create_blend_state(state)
        return
    S = np.float32([0.6, 0.2, 0.3, 0.4]).astype(np.float64)
    D0, D1 = np.float64([0.5, 0.25, 0.125, 0.0]), np.float64([0.0, 0.75, 0.5, 0.25])
    got0, got1 = _two_rt_draw(screen, ctx, state, D0, D1, S)
    np.testing.assert_allclose(got0, blend(rt0, S, D0, np.zeros(4)), atol=2e-6)
    np.testing.assert_allclose(got1, blend(rt1, IMM_COLOR, D1, np.zeros(4)), atol=2e-6)


# -- dual-source blending ------------------------------------------------------------------


def test_dual_source_blending(screen, ctx):
    """SRC1_* factors read the FS's COLOR[1] (the second source of RT 0)."""
    assert delivered_caps(screen)[Cap.MAX_DUAL_SOURCE_RENDER_TARGETS] >= 1
    rts = [
        RTBlendState(blend_enable=True, rgb_src_factor=f, rgb_dst_factor=g, alpha_src_factor=g, alpha_dst_factor=f)
        for f, g in zip(SRC1_FACTORS, [F.INV_SRC1_ALPHA, F.SRC1_COLOR, F.INV_SRC1_COLOR, F.SRC1_ALPHA], strict=True)
    ]
    rng = np.random.default_rng(5)
    S, D = values(rng, len(rts)), values(rng, len(rts))
    width = len(rts)
    rt = color_target(screen, ctx, width, 1)
    pipeline(ctx, TWO_OUTPUT_FS)
    upload(screen, rt, "rgba32f", D.astype(np.float32).reshape(1, width, 4))
    draw = column_cases(screen, ctx, [list(s) for s in S.astype(np.float32)])
    for i, st in enumerate(rts):
        ctx.bind_blend_state(ctx.create_blend_state(BlendState(rt=[st])))
        draw(i)
    got = read(screen, rt, "rgba32f")[0]
    want = np.array([blend(st, S[i], D[i], np.zeros(4), IMM_COLOR) for i, st in enumerate(rts)])
    np.testing.assert_allclose(got, want, atol=2e-6)
    # GL reads the second source from the output at location 0, index 1 (GL 4.5
    # §17.3.6.3); llvmpipe happens to accept location 1 too, so check the wiring.
    fs_variant = ctx.shader_part.program.variants[-1]
    assert fs_variant.key.dual_source_blend and "index = 1" in fs_variant.glsl.source
    ctx.bind_blend_state(None)
    draw(0)
    assert not ctx.shader_part.program.variants[-1].key.dual_source_blend


def test_dual_source_beyond_the_first_rt_is_refused(screen, ctx):
    """Dual-source blending exists for RT 0 only (MAX_DUAL_SOURCE_RENDER_TARGETS = 1)."""
    assert delivered_caps(screen)[Cap.MAX_DUAL_SOURCE_RENDER_TARGETS] == 1
    rt1 = RTBlendState(blend_enable=True, rgb_src_factor=F.SRC1_ALPHA)
    with pytest.raises(UnsupportedError, match="dual-source"):
        ctx.create_blend_state(BlendState(independent_blend_enable=True, rt=[RTBlendState(), rt1]))


# -- logic op ---------------------------------------------------------------------------------


def test_every_logic_op_on_unorm8_bytes(screen, ctx):
    """Logic ops on an RGBA8 target, computed on the bytes; blending is off
    while the logic op is on (blend_enable is set here and must not matter)."""
    ops = list(LogicOp)
    width = len(ops)
    rt = color_target(screen, ctx, width, 1, Format.R8G8B8A8_UNORM)
    pipeline(ctx)
    rng = np.random.default_rng(6)
    src = rng.integers(0, 256, (width, 4), dtype=np.uint8)
    dst = rng.integers(0, 256, (width, 4), dtype=np.uint8)
    upload(screen, rt, "rgba8", dst.reshape(1, width, 4))
    draw = column_cases(screen, ctx, [list(np.float32(s) / np.float32(255)) for s in src])
    for i, op in enumerate(ops):
        ctx.bind_blend_state(
            ctx.create_blend_state(
                BlendState(
                    logicop_enable=True,
                    logicop_func=op,
                    rt=[RTBlendState(blend_enable=True, rgb_src_factor=F.ZERO, rgb_dst_factor=F.ONE)],
                )
            )
        )
        draw(i)
    got = read(screen, rt, "rgba8")[0]
    want = np.array([LOGIC[op](src[i], dst[i]) for i, op in enumerate(ops)], np.uint8)
    assert np.array_equal(got, want)


# -- fixups for the colour buffer's format --------------------------------------------------

NO_ALPHA_CASES = [
    RTBlendState(blend_enable=True, rgb_src_factor=F.DST_ALPHA, rgb_dst_factor=F.ZERO),
    RTBlendState(blend_enable=True, rgb_src_factor=F.ONE, rgb_dst_factor=F.INV_DST_ALPHA),
    RTBlendState(blend_enable=True, rgb_src_factor=F.SRC_ALPHA_SATURATE, rgb_dst_factor=F.ONE),
    RTBlendState(blend_enable=True, rgb_src_factor=F.INV_DST_ALPHA, rgb_dst_factor=F.DST_ALPHA),
]


def _unorm_cases(screen, ctx, fmt, cases, src, dst):
    width = len(cases)
    # RGBX: is_format_supported does not yet offer it as a RENDER_TARGET
    # (formats.py waits for these fixups); the surface is made on a sampler
    # texture, whose storage (GL_RGBA8) renders the same.
    rt = color_target(screen, ctx, width, 1, fmt, bind=Bind.SAMPLER_VIEW)
    pipeline(ctx)
    upload(screen, rt, "rgba8", dst.reshape(1, width, 4))
    draw = column_cases(screen, ctx, [list(np.float32(s) / np.float32(255)) for s in src])
    for i, st in enumerate(cases):
        ctx.bind_blend_state(ctx.create_blend_state(BlendState(rt=[st])))
        draw(i)
    return read(screen, rt, "rgba8")[0]


def test_no_alpha_render_target_reads_destination_alpha_as_one(screen, ctx):
    """R8G8B8X8 is stored as GL_RGBA8 with a garbage X byte: DST_ALPHA must read
    1 (INV_DST_ALPHA 0, SRC_ALPHA_SATURATE 0 on rgb), as on R8G8B8A8 with alpha 255."""
    rng = np.random.default_rng(7)
    n = len(NO_ALPHA_CASES)
    src = rng.integers(0, 256, (n, 4), dtype=np.uint8)
    dst = rng.integers(0, 256, (n, 4), dtype=np.uint8)
    dst[:, 3] = 0x30  # the stored X byte: a real alpha would read 0.19
    got = _unorm_cases(screen, ctx, Format.R8G8B8X8_UNORM, NO_ALPHA_CASES, src, dst)
    opaque = dst.astype(np.float64) / 255
    opaque[:, 3] = 1.0
    want = np.array([blend(st, src[i] / 255, opaque[i], np.zeros(4)) for i, st in enumerate(NO_ALPHA_CASES)])
    want = np.round(np.clip(want, 0, 1) * 255)
    assert np.abs(got[:, :3].astype(np.int32) - want[:, :3]).max() <= 1


def test_same_blend_state_follows_the_framebuffer_format(screen, ctx):
    """One CSO, drawn on RGBA8 then on RGBX8: the fixup is recomputed when the
    framebuffer changes (DST_ALPHA reads the stored alpha, then 1)."""
    st = RTBlendState(blend_enable=True, rgb_src_factor=F.DST_ALPHA, rgb_dst_factor=F.ZERO)
    cso = ctx.create_blend_state(BlendState(rt=[st]))
    pipeline(ctx)
    dst = np.array([[200, 100, 50, 0x40]], np.uint8)
    src = np.array([[255, 128, 64, 255]], np.uint8)
    results = {}
    for fmt in (Format.R8G8B8A8_UNORM, Format.R8G8B8X8_UNORM, Format.R8G8B8A8_UNORM):
        rt = color_target(screen, ctx, 1, 1, fmt, bind=Bind.SAMPLER_VIEW)
        upload(screen, rt, "rgba8", dst.reshape(1, 1, 4))
        draw = column_cases(screen, ctx, [list(np.float32(src[0]) / np.float32(255))])
        ctx.bind_blend_state(cso)
        draw(0)
        results.setdefault(fmt, []).append(read(screen, rt, "rgba8")[0, 0, :3].astype(np.int32))
    for got in results[Format.R8G8B8A8_UNORM]:
        assert np.abs(got - np.round(src[0, :3] * (0x40 / 255))).max() <= 1
    assert np.abs(results[Format.R8G8B8X8_UNORM][0] - src[0, :3]).max() <= 1


A8_FS = """FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL OUT[0], COLOR
  0: MOV OUT[0], IN[0].wwww
  1: END
"""


def test_alpha_only_target_blends_alpha_in_the_host_red_channel(screen, ctx):
    """A8 is stored as GL_R8: the alpha equation/factors and the colormask's A
    bit act on host red; CONST_COLOR on the alpha channel is the constant's
    alpha.  (The shader writes alpha to every channel: routing COLOR.a to red
    for any shader needs an output swizzle the lowering does not have yet.)"""
    cases = [
        RTBlendState(
            blend_enable=True,
            rgb_src_factor=F.ZERO,
            rgb_dst_factor=F.ONE,
            alpha_src_factor=F.SRC_ALPHA,
            alpha_dst_factor=F.INV_SRC_ALPHA,
        ),
        RTBlendState(
            blend_enable=True,
            rgb_src_factor=F.ONE,
            rgb_dst_factor=F.ZERO,
            alpha_src_factor=F.CONST_COLOR,
            alpha_dst_factor=F.DST_ALPHA,
        ),
        RTBlendState(
            blend_enable=True,
            rgb_src_factor=F.ONE,
            rgb_dst_factor=F.ONE,
            alpha_func=Blend.REVERSE_SUBTRACT,
            alpha_src_factor=F.SRC_COLOR,
            alpha_dst_factor=F.ONE,
        ),
        RTBlendState(colormask=Mask.R | Mask.G | Mask.B),
        RTBlendState(colormask=Mask.A),
    ]
    width = len(cases)
    rt = color_target(screen, ctx, width, 1, Format.A8_UNORM, bind=Bind.SAMPLER_VIEW)
    pipeline(ctx, A8_FS)
    a_src = np.array([64, 128, 32, 200, 100], np.uint8)
    a_dst = np.array([200, 100, 150, 50, 30], np.uint8)
    upload(screen, rt, "red8", a_dst.reshape(1, width))
    draw = column_cases(screen, ctx, [[0.9, 0.1, 0.3, float(np.float32(a) / np.float32(255))] for a in a_src])
    const = (0.9, 0.9, 0.9, 0.25)
    ctx.set_blend_color(const)
    for i, st in enumerate(cases):
        ctx.bind_blend_state(ctx.create_blend_state(BlendState(rt=[st])))
        draw(i)
    got = read(screen, rt, "red8")[0].astype(np.int32)
    want = []
    for i, st in enumerate(cases):
        S = np.array([0.9, 0.1, 0.3, a_src[i] / 255])
        D = np.array([0.0, 0.0, 0.0, a_dst[i] / 255])
        want.append(np.round(np.clip(blend(st, S, D, np.array(const)), 0, 1)[3] * 255))
    assert np.abs(got - np.array(want)).max() <= 1, (got, want)


# -- multisample state ----------------------------------------------------------------------


def _msaa_target(screen, ctx, size=4):
    if not screen.is_format_supported(Format.R32G32B32A32_FLOAT, glpipe.Target.TEXTURE_2D, 4, 4, Bind.RENDER_TARGET):
        pytest.fail("4x RGBA32F render targets are expected on every profile of this host")
    ms = texture(screen, Format.R32G32B32A32_FLOAT, size, size, Bind.RENDER_TARGET, samples=4)
    bind_targets(ctx, size, size, (ms,))
    bind_rasterizer(ctx, multisample=True)
    clear_msaa(screen, ctx, ms, (0, 0, 0, 0))
    return ms


@pytest.mark.parametrize("mask,covered", [(0b0101, 2), (0b0001, 1), (0b1110, 3), (0, 0), (-1, 4)])
def test_sample_mask_on_4x_msaa(screen, ctx, mask, covered):
    """set_sample_mask ANDs each fragment's coverage: the resolve averages the
    written samples with the cleared ones (-1 = ~0: every sample)."""
    ms = _msaa_target(screen, ctx)
    pipeline(ctx)
    ctx.set_sample_mask(mask)
    fullscreen(screen, ctx, [1.0, 1.0, 1.0, 1.0])()
    got = resolve_rgba32f(screen, ctx, ms)
    np.testing.assert_allclose(got, covered / 4, atol=1e-6)


def test_alpha_to_coverage(screen, ctx):
    """alpha_to_coverage: alpha 0 covers no sample, alpha 1 every sample, alpha
    0.5 some but not all (the exact pattern is the host's)."""
    ms = _msaa_target(screen, ctx, size=3)
    pipeline(ctx)
    ctx.bind_blend_state(ctx.create_blend_state(BlendState(alpha_to_coverage=True)))
    rows = np.array([[-1 + 2 * i / 3, -1 + 2 * (i + 1) / 3] for i in range(3)])
    for alpha, (y0, y1) in zip((0.0, 0.5, 1.0), rows, strict=True):
        verts = np.array(
            [[x, y, 0, 1, 1, 1, 1, alpha] for x, y in ((-1, y0), (1, y0), (1, y1), (-1, y0), (1, y1), (-1, y1))],
            np.float32,
        )
        ctx.set_vertex_buffers([glpipe.VertexBuffer(buffer=vertex_buffer(screen, verts), stride=32)])
        ctx.draw_vbo(glpipe.DrawInfo(mode=glpipe.Prim.TRIANGLES, start=0, count=6))
    got = resolve_rgba32f(screen, ctx, ms)[..., 0]  # row r drawn with alpha (0, 0.5, 1)[r]
    assert np.allclose(got[0], 0.0)
    assert np.all((got[1] > 0.0) & (got[1] < 1.0))
    assert np.allclose(got[2], 1.0)


def test_alpha_to_one(screen, ctx):
    """alpha_to_one replaces the fragment's alpha by 1 on a multisampled target."""
    for a2o, want_alpha in ((False, 0.25), (True, 1.0)):
        ms = _msaa_target(screen, ctx)
        pipeline(ctx)
        ctx.bind_blend_state(ctx.create_blend_state(BlendState(alpha_to_one=a2o)))
        fullscreen(screen, ctx, [0.5, 0.5, 0.5, 0.25])()
        got = resolve_rgba32f(screen, ctx, ms)
        np.testing.assert_allclose(got[..., 3], want_alpha, atol=1e-6)
        np.testing.assert_allclose(got[..., :3], 0.5, atol=1e-6)


SAMPLE_FS = """FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL OUT[0], COLOR
DCL TEMP[0]
IMM[0] FLT32 {    0.3000,     1.0000,     0.0000,     0.0000}
  0: FRC TEMP[0].x, IN[0].xxxx
  1: SLT TEMP[0].x, TEMP[0].xxxx, IMM[0].xxxx
  2: MOV OUT[0], TEMP[0].xxxx
  3: END
"""


def test_min_samples_shades_every_sample(screen, ctx):
    """set_min_samples(4) on a 4x target runs the FS per sample: an input equal
    to window x evaluates to x + sample_x there, so frac(x) < 0.3 holds on the
    samples left of 0.3 and never at the pixel centre (frac = 0.5)."""
    caps = delivered_caps(screen)
    if not caps[Cap.SAMPLE_SHADING]:
        ctx.set_min_samples(1)  # per-pixel shading is always there
        with pytest.raises(UnsupportedError, match="sample shading"):
            ctx.set_min_samples(2)
        return
    size = 4
    ms = _msaa_target(screen, ctx, size)
    pipeline(ctx, SAMPLE_FS)
    # generic.x = window x: -1 -> 0, +3 (NDC) -> 2 * size.
    verts = np.array(
        [[-1, -1, 0, 1, 0, 0, 0, 1], [3, -1, 0, 1, 2 * size, 0, 0, 1], [-1, 3, 0, 1, 0, 0, 0, 1]], np.float32
    )
    ctx.set_vertex_buffers([glpipe.VertexBuffer(buffer=vertex_buffer(screen, verts), stride=32)])
    info = glpipe.DrawInfo(mode=glpipe.Prim.TRIANGLES, start=0, count=3)
    ctx.draw_vbo(info)
    per_pixel = resolve_rgba32f(screen, ctx, ms)
    np.testing.assert_allclose(per_pixel[..., 0], 0.0, atol=1e-6)
    clear_msaa(screen, ctx, ms, (0, 0, 0, 0))
    ctx.set_min_samples(4)
    ctx.draw_vbo(info)
    per_sample = resolve_rgba32f(screen, ctx, ms)
    positions = sample_positions(screen, ms, 4)
    want = sum(1 for sx, _ in positions if sx < 0.3) / 4
    assert 0 < want < 1  # the host's pattern has samples on both sides
    np.testing.assert_allclose(per_sample[..., 0], want, atol=1e-6)


# -- dither ----------------------------------------------------------------------------------


def test_dither_switches_gl_dither(screen, ctx):
    """dither is a hint GL implements (or not) as GL_DITHER; the state must reach GL."""
    assert delivered_caps(screen)[Cap.DITHERING] == 1
    gl = screen.host.gl
    color_target(screen, ctx, 1, 1)
    pipeline(ctx)
    draw = fullscreen(screen, ctx, [0.5, 0.5, 0.5, 1.0])
    for dither in (True, False, True):
        ctx.bind_blend_state(ctx.create_blend_state(BlendState(dither=dither)))
        draw()
        assert bool(gl.glIsEnabled(gl.GL_DITHER)) == dither
    ctx.bind_blend_state(None)
    draw()
    assert not gl.glIsEnabled(gl.GL_DITHER)  # Gallium's default state does not dither


# -- binding rules -------------------------------------------------------------------------

BLEND_CALLS = {
    "glDisable",
    "glEnable",
    "glColorMask",
    "glColorMaski",
    "glEnablei",
    "glDisablei",
    "glBlendEquationSeparate",
    "glBlendEquationSeparatei",
    "glBlendFuncSeparate",
    "glBlendFuncSeparatei",
    "glLogicOp",
}


def test_redundant_binds_make_no_gl_call(screen, ctx):
    """Rebinding the bound CSO, or setting the same blend colour / sample mask /
    min samples, costs no GL call at the next draw (counted both through a
    stand-in for ctx.gl and by the gl-state-calls driver counter)."""
    requires_fast_path(ctx)  # counts the fast path's GL calls (docs/debug.md)
    color_target(screen, ctx, 2, 2)
    pipeline(ctx)
    draw = fullscreen(screen, ctx, [0.5, 0.5, 0.5, 1.0])
    a = ctx.create_blend_state(BlendState(rt=[RTBlendState(blend_enable=True, rgb_dst_factor=F.ONE)]))
    b = ctx.create_blend_state(BlendState(rt=[RTBlendState(colormask=Mask.R)]))
    ctx.bind_blend_state(a)
    ctx.set_blend_color((0.1, 0.2, 0.3, 0.4))
    ctx.set_sample_mask(0xF)
    draw()
    counting = CountingGL(ctx.gl)
    ctx.gl = counting
    try:
        before = screen.counters.gl_state_calls
        ctx.bind_blend_state(a)
        ctx.set_blend_color((0.1, 0.2, 0.3, 0.4))
        ctx.set_sample_mask(0xF)
        ctx.set_min_samples(1)
        draw()
        draw()
        assert counting.calls == []
        assert screen.counters.gl_state_calls == before
        # A real change emits only blend state, and the counter counts every call.
        ctx.bind_blend_state(b)
        draw()
        assert counting.calls and set(counting.calls) <= BLEND_CALLS
        assert screen.counters.gl_state_calls == before + len(counting.calls)
    finally:
        ctx.gl = counting._gl


def test_framebuffer_change_with_the_same_formats_reemits_no_blend_state(screen, ctx):
    """The blend block is cached per (CSO, colour formats): a new framebuffer of
    the same formats finds it already emitted."""
    requires_fast_path(ctx)  # counts the fast path's GL calls (docs/debug.md)
    pipeline(ctx)
    color_target(screen, ctx, 2, 2)
    draw = fullscreen(screen, ctx, [0.5, 0.5, 0.5, 1.0])
    ctx.bind_blend_state(
        ctx.create_blend_state(
            BlendState(rt=[RTBlendState(blend_enable=True, rgb_src_factor=F.DST_ALPHA, rgb_dst_factor=F.ONE)])
        )
    )
    draw()
    other = texture(screen, Format.R32G32B32A32_FLOAT, 2, 2, Bind.RENDER_TARGET | Bind.SAMPLER_VIEW)
    counting = CountingGL(ctx.gl)
    ctx.gl = counting
    try:
        bind_targets(ctx, 2, 2, (other,))
        draw()
        assert not set(counting.calls) & (BLEND_CALLS - {"glEnable", "glDisable"})
        assert "glBindFramebuffer" in counting.calls
    finally:
        ctx.gl = counting._gl


def test_blend_block_is_reemitted_after_an_outside_clobber(screen, ctx):
    """Dirty.BLEND from outside (a clear opens the colour mask, ModernGL may
    touch GL_BLEND) means the host no longer holds the block: the next draw
    emits it whole even though the same CSO is bound (glpipe/dirty.py)."""
    from glpipe.dirty import Dirty

    rt = color_target(screen, ctx, 1, 1)
    pipeline(ctx)
    upload(screen, rt, "rgba32f", np.float32([[[0.5, 0.5, 0.5, 0.5]]]))
    draw = fullscreen(screen, ctx, [0.25, 0.25, 0.25, 0.25])
    ctx.bind_blend_state(ctx.create_blend_state(BlendState(rt=[RTBlendState(colormask=Mask.R)])))
    draw()
    gl = screen.host.gl
    gl.glColorMask(True, True, True, True)  # what a clear does ...
    ctx.dirty |= Dirty.BLEND  # ... and says
    draw()
    np.testing.assert_allclose(read(screen, rt, "rgba32f")[0, 0], [0.25, 0.5, 0.5, 0.5])


def test_colormask_and_dither_hold_after_a_clear(screen, ctx):
    """clear ignores the colour mask (Gallium) by opening GL's; the next draw
    must put the bound CSO's mask back."""
    from glpipe import Clear

    rt = color_target(screen, ctx, 1, 1)
    pipeline(ctx)
    draw = fullscreen(screen, ctx, [0.25, 0.25, 0.25, 0.25])
    ctx.bind_blend_state(ctx.create_blend_state(BlendState(dither=True, rt=[RTBlendState(colormask=Mask.G)])))
    draw()
    ctx.clear(Clear.COLOR0, None, (0.5, 0.5, 0.5, 0.5), 0.0, 0)
    np.testing.assert_allclose(read(screen, rt, "rgba32f")[0, 0], 0.5)  # the clear wrote every channel
    draw()
    np.testing.assert_allclose(read(screen, rt, "rgba32f")[0, 0], [0.5, 0.25, 0.5, 0.5])
    assert screen.host.gl.glIsEnabled(screen.host.gl.GL_DITHER)


def test_two_contexts_of_a_screen_keep_their_own_blend_state(screen, ctx):
    """Contexts of one screen share the host GL context: drawing alternately,
    each draw still blends as its own context's CSO says."""
    other = screen.context_create()
    try:
        targets, draws = [], []
        for c, st in (
            (ctx, RTBlendState(blend_enable=True, rgb_dst_factor=F.ONE, alpha_dst_factor=F.ONE)),
            (other, RTBlendState(colormask=Mask.R | Mask.A)),
        ):
            rt = color_target(screen, c, 1, 1)
            pipeline(c)
            upload(screen, rt, "rgba32f", np.float32([[[0.5, 0.5, 0.5, 0.5]]]))
            c.bind_blend_state(c.create_blend_state(BlendState(rt=[st])))
            targets.append(rt)
            draws.append(fullscreen(screen, c, [0.125, 0.125, 0.125, 0.125]))
        for _ in range(2):
            draws[0]()
            draws[1]()
        np.testing.assert_allclose(read(screen, targets[0], "rgba32f")[0, 0], 0.75)  # 0.5 + 2 * 0.125
        np.testing.assert_allclose(read(screen, targets[1], "rgba32f")[0, 0], [0.125, 0.5, 0.5, 0.125])
    finally:
        other.destroy()


def test_deleting_the_bound_blend_state_unbinds_it(screen, ctx):
    """delete_blend_state of the bound CSO: the next draw uses the default (no blending)."""
    rt = color_target(screen, ctx, 1, 1)
    pipeline(ctx)
    upload(screen, rt, "rgba32f", np.float32([[[0.5, 0.5, 0.5, 0.5]]]))
    draw = fullscreen(screen, ctx, [0.25, 0.25, 0.25, 0.25])
    add = ctx.create_blend_state(
        BlendState(rt=[RTBlendState(blend_enable=True, rgb_dst_factor=F.ONE, alpha_dst_factor=F.ONE)])
    )
    ctx.bind_blend_state(add)
    draw()
    np.testing.assert_allclose(read(screen, rt, "rgba32f")[0, 0], 0.75)
    ctx.delete_blend_state(add)
    assert ctx.blend_part.blend is None
    draw()
    np.testing.assert_allclose(read(screen, rt, "rgba32f")[0, 0], 0.25)
    with pytest.raises(ObjectDestroyedError):
        ctx.bind_blend_state(add)


def test_destroy_spelling_is_an_alias(ctx):
    assert type(ctx).destroy_blend_state is type(ctx).delete_blend_state


# -- bad input --------------------------------------------------------------------------------


def test_bad_blend_input_is_refused(screen, ctx):
    with pytest.raises(InvalidArgumentError, match="BlendState"):
        ctx.create_blend_state(RTBlendState())
    with pytest.raises(UnsupportedError, match="advanced_blend_func"):
        ctx.create_blend_state(BlendState(advanced_blend_func=1))
    with pytest.raises(InvalidArgumentError, match="max_rt"):
        ctx.create_blend_state(BlendState(max_rt=8))
    with pytest.raises(InvalidArgumentError, match="set_blend_color"):
        ctx.set_blend_color((1.0, 0.0, 0.0))
    with pytest.raises(InvalidArgumentError, match="set_blend_color"):
        ctx.set_blend_color("red!")
    with pytest.raises(InvalidArgumentError, match="32 bits"):
        ctx.set_sample_mask(1 << 32)
    with pytest.raises(InvalidArgumentError, match="set_sample_mask"):
        ctx.set_sample_mask(0.5)
    with pytest.raises(InvalidArgumentError, match="set_min_samples"):
        ctx.set_min_samples(0)
    other = screen.context_create()
    try:
        foreign = other.create_blend_state(BlendState())
        with pytest.raises(InvalidArgumentError, match="another context"):
            ctx.bind_blend_state(foreign)
    finally:
        other.destroy()
