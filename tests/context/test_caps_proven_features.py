"""Shader caps that follow a host feature, proven by draws on both profiles
(docs/caps.md "Proof table").

Each test runs the feature on the profile whose cap says yes and checks the
cap says 0 and the feature is refused (UnsupportedError) where it says no.
Expected values are worked out by hand from the TGSI / GLSL definitions.
"""

from __future__ import annotations

import numpy as np
import pytest

from glpipe import (
    Bind,
    Cap,
    Clear,
    ConstantBuffer,
    DepthStencilAlphaState,
    DrawInfo,
    Format,
    FramebufferState,
    Func,
    Prim,
    RasterizerState,
    ResourceTemplate,
    SamplerViewTemplate,
    ShaderCap,
    ShaderState,
    ShaderType,
    StencilOp,
    StencilRef,
    StencilState,
    SurfaceTemplate,
    Target,
    VertexBuffer,
    VertexElement,
    ViewportState,
)
from glpipe.caps import EMULATED_GATHER_OFFSETS
from lowering.errors import InvalidArgumentError, UnsupportedError

from .util_blend_dsa import bind_targets, read, texture
from .util_caps import FULL_TRI, POS_VS, RED_FS, draw
from .util_sampling import (
    Sampling,
    bind_sampling,
    make_texture,
    nearest,
    tex_fs,
    upload,
    view_2d,
)

UINT = Format.R32G32B32A32_UINT


def cap(screen, name) -> int:
    return screen.get_param(Cap[name])


def check_refused(screen, ctx, caps, run):
    """The caps ``caps`` are all 0 and ``run(ctx)`` raises UnsupportedError."""
    for name in caps:
        assert cap(screen, name) == 0, name
    with pytest.raises(UnsupportedError):
        run(ctx)


def as_u32(values) -> list:
    return [int(v) & 0xFFFFFFFF for v in values]


# ---------------------------------------------------------------------------
# Doubles, 64-bit integers, fma / ldexp
# ---------------------------------------------------------------------------

DOUBLE_FS = """FRAG
DCL OUT[0], COLOR
DCL TEMP[0..3]
IMM[0] FLT64 {1.0, 9.313225746154785e-10}
IMM[1] FLT64 {2.5, 0.75}
IMM[2] INT32 {3, -2, 0, 0}
IMM[3] FLT32 {0.0, 0.0, 0.0, 0.0}
IMM[4] FLT64 {-40.0, 0.0}
  0: MOV TEMP[3], IMM[3]
  1: DADD TEMP[0].xy, IMM[0].xyxy, IMM[0].zwzw
  2: DADD TEMP[0].xy, TEMP[0].xyxy, -IMM[0].xyxy
  3: D2F TEMP[3].x, TEMP[0].xyxy
  4: DROUND TEMP[1].xy, IMM[1].xyxy
  5: D2F TEMP[3].y, TEMP[1].xyxy
  6: DLDEXP TEMP[2].xy, IMM[1].zwzw, IMM[2].xxxx
  7: D2F TEMP[3].z, TEMP[2].xyxy
  8: DFRACEXP TEMP[1].xy, TEMP[2].x, IMM[4].xyxy
  9: D2F TEMP[3].w, TEMP[1].xyxy
 10: I2F TEMP[2].x, TEMP[2].xxxx
 11: ADD TEMP[3].w, TEMP[3].wwww, TEMP[2].xxxx
 12: MOV OUT[0], TEMP[3]
 13: END
"""


DDIV_FS = """FRAG
DCL OUT[0], COLOR
DCL TEMP[0]
IMM[0] FLT64 {1.0, 3.0}
  0: DDIV TEMP[0].xy, IMM[0].xyxy, IMM[0].zwzw
  1: D2F OUT[0].x, TEMP[0].xyxy
  2: END
"""


def test_doubles_in_a_draw(screen, ctx):
    """DOUBLES, TGSI_DROUND_SUPPORTED, TGSI_DFRACEXP_DLDEXP_SUPPORTED: (1 +
    2^-30) - 1 in double precision is 2^-30 (float would give 0); DROUND(2.5)
    = 2 (half to even); DLDEXP(0.75, 3) = 6; DFRACEXP(-40) = -0.625 * 2^6,
    written here as mantissa + exponent = 5.375.

    Without GLSL 4.00 doubles (gl33) these opcodes run on the soft doubles
    (lowering/glsl/soft_fp64.py), but the caps stay 0 while any double opcode
    (DDIV, DRCP, DSQRT, DRSQ, DFMA) has no soft form: a draw with DDIV is
    refused."""
    from lowering.glsl.wide import soft_fp64_complete

    fs_caps = [ShaderCap.TGSI_DROUND_SUPPORTED, ShaderCap.TGSI_DFRACEXP_DLDEXP_SUPPORTED]
    got = draw(ctx, DOUBLE_FS)[0, 0]
    assert list(got) == [2.0**-30, 2.0, 6.0, -0.625 + 6]
    if not (screen.profile.has("gpu_shader_fp64") or soft_fp64_complete()):
        assert all(screen.get_shader_param(ShaderType.FRAGMENT, c) == 0 for c in fs_caps)
        return check_refused(screen, ctx, ["DOUBLES"], lambda c: draw(c, DDIV_FS))
    assert cap(screen, "DOUBLES") == 1
    assert all(screen.get_shader_param(ShaderType.FRAGMENT, c) == 1 for c in fs_caps)
    assert draw(ctx, DDIV_FS)[0, 0, 0] == np.float32(1.0 / 3.0)


INT64_FS = """FRAG
DCL OUT[0], COLOR
DCL TEMP[0..2]
IMM[0] UINT64 {4294967296, 4294967295}
IMM[1] INT64 {-7, 2}
  0: U64ADD TEMP[0].xy, IMM[0].xyxy, IMM[0].zwzw
  1: I64DIV TEMP[1].xy, IMM[1].xyxy, IMM[1].zwzw
  2: I64MOD TEMP[2].xy, IMM[1].xyxy, IMM[1].zwzw
  3: MOV TEMP[0].z, TEMP[1].xxxx
  4: MOV TEMP[0].w, TEMP[2].xxxx
  5: MOV OUT[0], TEMP[0]
  6: END
"""


INT64_MUL_FS = """FRAG
DCL OUT[0], COLOR
DCL TEMP[0..1]
IMM[0] UINT64 {4294967295, 4294967295}
IMM[1] INT64 {-9223372036854775807, 16777217}
  0: U64MUL TEMP[0].xy, IMM[0].xyxy, IMM[0].zwzw
  1: I642F TEMP[1].xy, IMM[1]
  2: MOV TEMP[0].zw, TEMP[1].xxxy
  3: MOV OUT[0], TEMP[0]
  4: END
"""


def test_int64_in_a_draw(screen, ctx):
    """INT64, INT64_DIVMOD on both profiles (gl33: GLSL 3.30 helpers on uvec2):
    2^32 + (2^32 - 1) = 2^33 - 1 (low word 0xffffffff, high 1); -7 / 2 = -3 and
    -7 % 2 = -1 (truncating), low words shown; (2^32 - 1)^2 = 0xfffffffe_00000001
    (carries across the word boundary); I642F(-(2^63 - 1)) = -2^63 and
    I642F(2^24 + 1) = 2^24 (ties to even)."""
    assert cap(screen, "INT64") == cap(screen, "INT64_DIVMOD") == 1
    got = draw(ctx, INT64_FS, fmt=UINT)[0, 0]
    total = 2**32 + 2**32 - 1
    assert as_u32(got) == as_u32([total & 0xFFFFFFFF, total >> 32, -3, -1])
    got = draw(ctx, INT64_MUL_FS, fmt=UINT)[0, 0]
    assert as_u32(got[:2]) == [0x00000001, 0xFFFFFFFE]
    assert list(np.asarray(got[2:], dtype=np.uint32).view(np.float32)) == [-(2.0**63), 2.0**24]


FMA_FS = """FRAG
DCL OUT[0], COLOR
DCL TEMP[0]
IMM[0] FLT32 {1.000244140625, -1.00048828125, 1.0, 0.0}
IMM[1] INT32 {200, 0, 0, 0}
IMM[2] FLT32 {7.888609052210118e-31, 0.0, 0.0, 0.0}
  0: FMA TEMP[0].x, IMM[0].xxxx, IMM[0].xxxx, IMM[0].yyyy
  1: LDEXP TEMP[0].y, IMM[2].xxxx, IMM[1].xxxx
  2: MOV TEMP[0].zw, IMM[0].zzzz
  3: MOV OUT[0], TEMP[0]
  4: END
"""


FMA_ONLY_FS = FMA_FS.replace("  1: LDEXP TEMP[0].y, IMM[2].xxxx, IMM[1].xxxx\n", "  1: MOV TEMP[0].y, IMM[0].wwww\n")
LDEXP_FS = FMA_FS.replace(
    "  0: FMA TEMP[0].x, IMM[0].xxxx, IMM[0].xxxx, IMM[0].yyyy\n", "  0: MOV TEMP[0].x, IMM[0].wwww\n"
)


def test_fma(screen, ctx):
    """TGSI_FMA_SUPPORTED: a = 1 + 2^-12: a*a = 1 + 2^-11 + 2^-24 rounds (as a
    float) to 1 + 2^-11, so only a fused fma(a, a, -(1 + 2^-11)) gives 2^-24."""
    fma_cap = ShaderCap.TGSI_FMA_SUPPORTED
    if not screen.profile.has("gpu_shader5"):
        assert screen.get_shader_param(ShaderType.FRAGMENT, fma_cap) == 0
        with pytest.raises(UnsupportedError):
            draw(ctx, FMA_ONLY_FS)
        return
    assert screen.get_shader_param(ShaderType.FRAGMENT, fma_cap) == 1
    got = draw(ctx, FMA_ONLY_FS)[0, 0]
    assert list(got) == [2.0**-24, 0.0, 1.0, 1.0]


def test_ldexp(screen, ctx):
    """TGSI_LDEXP_SUPPORTED on every profile (gl33: int_emul's glp_ldexp):
    ldexp(2^-100, 200) = 2^100, where 2^-100 * 2^200 would overflow the float
    exp2(200)."""
    for stage in (ShaderType.VERTEX, ShaderType.FRAGMENT):
        assert screen.get_shader_param(stage, ShaderCap.TGSI_LDEXP_SUPPORTED) == 1
    got = draw(ctx, LDEXP_FS)[0, 0]
    assert list(got) == [0.0, 2.0**100, 1.0, 1.0]


# ---------------------------------------------------------------------------
# Texturing: gather, query lod, derivatives, MSAA fetch, cube arrays, offsets
# ---------------------------------------------------------------------------


def _grid_texture(screen, size):
    """size x size RGBA32F: R = x, G = y, B = 10 x + y, A = 1."""
    tex = make_texture(screen, Target.TEXTURE_2D, Format.R32G32B32A32_FLOAT, size, size)
    y, x = np.mgrid[0:size, 0:size].astype(np.float32)
    upload(screen, tex, 0, np.stack([x, y, 10 * x + y, np.ones_like(x)], -1))
    return tex


GATHER_FS = """FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL OUT[0], COLOR
DCL OUT[1], COLOR[1]
DCL SAMP[0]
DCL SVIEW[0], 2D, FLOAT
DCL CONST[0][0]
IMM[0] UINT32 {{0, 1, 2, 3}}
IMM[1] INT32 {{{lo}, {hi}, 0, 0}}
  0: TG4 OUT[0], IN[0], IMM[0].zzzz, SAMP[0], 2D, IMM[1].xyz
  1: TG4 OUT[1], IN[0], IMM[0].zzzz, SAMP[0], 2D, CONST[0][0].xyz
  2: END
"""


def test_texture_gather(screen, ctx):
    """MAX_TEXTURE_GATHER_COMPONENTS (4), TEXTURE_GATHER_SM5 (component
    select, run-time offsets), MIN/MAX_TEXTURE_GATHER_OFFSET used at the
    limits.  At texel (64, 64) of a 128^2 grid the 2x2 footprint is i0 = j0 =
    63; TG4 returns (i0, j1), (i1, j1), (i1, j0), (i0, j0) of one component."""
    lo, hi = cap(screen, "MIN_TEXTURE_GATHER_OFFSET"), cap(screen, "MAX_TEXTURE_GATHER_OFFSET")
    fs = GATHER_FS.format(lo=lo, hi=hi)
    # gl33 runs TG4 as lookups on every gather target (tests/context/test_texture_gather_gl33.py,
    # test_texture_gather_cube*.py), which take any offset: the caps offer llvmpipe's native range.
    assert cap(screen, "MAX_TEXTURE_GATHER_COMPONENTS") == 4 and cap(screen, "TEXTURE_GATHER_SM5") == 1
    if screen.profile.has("texture_gather"):
        limits = (
            screen.profile.limit("GL_MIN_PROGRAM_TEXTURE_GATHER_OFFSET"),
            screen.profile.limit("GL_MAX_PROGRAM_TEXTURE_GATHER_OFFSET"),
        )
    else:
        limits = EMULATED_GATHER_OFFSETS
    assert (lo, hi) == limits
    tex = _grid_texture(screen, 128)
    bind_sampling(ctx, view_2d(ctx, tex), ctx.create_sampler_state(nearest()))
    S = Sampling(ctx, 1, 1)
    second = screen.resource_create(
        ResourceTemplate(
            target=Target.TEXTURE_2D, format=Format.R32G32B32A32_FLOAT, width0=1, height0=1, bind=Bind.RENDER_TARGET
        )
    )
    bind_targets(ctx, 1, 1, (S.color, second))
    run_time = np.array([5, -7, 0, 0], np.int32)  # from a constant buffer: not an immediate
    ctx.set_constant_buffer(ShaderType.FRAGMENT, 0, ConstantBuffer(user_buffer=run_time))
    S.draw(fs, (0.5, 0.5, 0, 1), (0.5, 0.5, 0, 1), read=False)

    def footprint(i0, j0):  # component 2 (B = 10 x + y) of (i0, j1), (i1, j1), (i1, j0), (i0, j0)
        return [10 * i0 + j0 + 1, 10 * (i0 + 1) + j0 + 1, 10 * (i0 + 1) + j0, 10 * i0 + j0]

    # COLOR[0]: the immediate offset (lo, hi); COLOR[1]: the run-time offset (5, -7).
    assert list(read(screen, S.color, "rgba32f")[0, 0]) == footprint(63 + lo, 63 + hi)
    assert list(read(screen, second, "rgba32f")[0, 0]) == footprint(63 + 5, 63 - 7)


LOD_FS = """FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL OUT[0], COLOR
DCL SAMP[0]
DCL SVIEW[0], 2D, FLOAT
DCL TEMP[0..1]
  0: LODQ TEMP[0].xy, IN[0], SAMP[0], 2D
  1: DDX TEMP[1].x, IN[0].xxxx
  2: DDY TEMP[1].y, IN[0].yyyy
  3: MOV TEMP[0].zw, TEMP[1].xxxy
  4: MOV OUT[0], TEMP[0]
  5: END
"""

FINE_FS = """FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL OUT[0], COLOR
DCL TEMP[0]
IMM[0] FLT32 {0.0, 0.0, 0.0, 0.0}
  0: MOV TEMP[0], IMM[0]
  1: DDX_FINE TEMP[0].x, IN[0].xxxx
  2: DDY_FINE TEMP[0].y, IN[0].yyyy
  3: MOV OUT[0], TEMP[0]
  4: END
"""


def test_derivatives_and_query_lod(screen, ctx):
    """FRAGMENT_SHADER_DERIVATIVES: GENERIC.x runs 0..2 over 4 pixels (d/dx =
    0.5), .y 0..8 over 4 rows (d/dy = 2).  TEXTURE_QUERY_LOD: over an 8^2
    texture that is 4 and 16 texels per pixel: lambda = log2(16) = 4, and the
    single-level view clamps the level to 0.  FS_FINE_DERIVATIVE: the fine
    derivatives of the same linear ramps."""
    assert cap(screen, "FRAGMENT_SHADER_DERIVATIVES") == 1
    tex = _grid_texture(screen, 8)
    bind_sampling(ctx, view_2d(ctx, tex), ctx.create_sampler_state(nearest()))
    S = Sampling(ctx, 4, 4)
    lo, hi = (0, 0, 0, 1), (2, 8, 0, 1)
    # gl33: the GL formula with the sampler's lod state from the sysvals block
    # (tests/context/test_texture_lod_query.py has the grid of footprints).
    assert cap(screen, "TEXTURE_QUERY_LOD") == 1
    img = S.draw(LOD_FS, lo, hi)
    np.testing.assert_allclose(img.reshape(-1, 4), np.tile([0.0, 4.0, 0.5, 2.0], (16, 1)), atol=1e-5)
    # gl33: plain dFdx / dFdy, which the screen's probe found fine on llvmpipe
    # (tests/context/test_fine_derivatives.py has the non-linear cases).
    assert cap(screen, "FS_FINE_DERIVATIVE") == 1
    np.testing.assert_allclose(S.draw(FINE_FS, lo, hi).reshape(-1, 4), np.tile([0.5, 2.0, 0, 0], (16, 1)), atol=1e-6)


MSAA_FETCH_FS = """FRAG
DCL OUT[0], COLOR
DCL SAMP[0]
DCL SVIEW[0], 2D_MSAA, FLOAT
DCL TEMP[0..1]
IMM[0] INT32 {0, 0, 0, 0}
IMM[1] INT32 {0, 1, 2, 3}
IMM[2] FLT32 {1.0, 10.0, 100.0, 1000.0}
  0: MOV TEMP[1], IMM[0]
  1: MOV TEMP[1].w, IMM[1].xxxx
  2: TXF TEMP[0].x, TEMP[1], SAMP[0], 2D_MSAA
  3: MOV TEMP[1].w, IMM[1].yyyy
  4: TXF TEMP[0].y, TEMP[1], SAMP[0], 2D_MSAA
  5: MOV TEMP[1].w, IMM[1].zzzz
  6: TXF TEMP[0].z, TEMP[1], SAMP[0], 2D_MSAA
  7: MOV TEMP[1].w, IMM[1].wwww
  8: TXF TEMP[0].w, TEMP[1], SAMP[0], 2D_MSAA
  9: MOV OUT[0], TEMP[0]
 10: END
"""

TXQS_FS = """FRAG
DCL OUT[0], COLOR
DCL SAMP[0]
DCL SVIEW[0], 2D_MSAA, FLOAT
DCL TEMP[0]
IMM[0] INT32 {0, 0, 0, 0}
  0: MOV TEMP[0], IMM[0]
  1: TXQS TEMP[0].x, SAMP[0], 2D_MSAA
  2: MOV OUT[0], TEMP[0]
  3: END
"""


def test_multisample_texture_fetch_and_sample_count(screen, ctx):
    """GLSL 1.50's sampler2DMS (TXF of one sample): sample k of a 4x texture
    was written alone (sample mask 1 << k) with 1, 10, 100, 1000.
    TEXTURE_QUERY_SAMPLES: TXQS reads 4."""
    tex = screen.resource_create(
        ResourceTemplate(
            target=Target.TEXTURE_2D,
            format=Format.R32G32B32A32_FLOAT,
            width0=1,
            height0=1,
            nr_samples=4,
            nr_storage_samples=4,
            bind=Bind.RENDER_TARGET | Bind.SAMPLER_VIEW,
        )
    )
    values = (1.0, 10.0, 100.0, 1000.0)
    ctx.set_framebuffer_state(
        FramebufferState(
            width=1, height=1, samples=4, cbufs=(ctx.create_surface(tex, SurfaceTemplate(format=tex.format)),)
        )
    )
    ctx.set_viewport_states(0, [ViewportState(scale=(0.5, 0.5, 0.5), translate=(0.5, 0.5, 0.5))])
    ctx.clear(Clear.COLOR0, None, (0, 0, 0, 0), 0, 0)
    ctx.bind_vs_state(ctx.create_vs_state(ShaderState(tokens=POS_VS)))
    ctx.bind_vertex_elements_state(
        ctx.create_vertex_elements_state([VertexElement(src_format=Format.R32G32B32A32_FLOAT)])
    )
    ctx.set_vertex_buffers([VertexBuffer(buffer=FULL_TRI, stride=16)])
    ctx.bind_rasterizer_state(ctx.create_rasterizer_state(RasterizerState(multisample=True)))
    for k, v in enumerate(values):
        ctx.bind_fs_state(
            ctx.create_fs_state(
                ShaderState(
                    tokens=f"FRAG\nDCL OUT[0], COLOR\nIMM[0] FLT32 {{{v}, {v}, {v}, {v}}}\n  0: MOV OUT[0], IMM[0]\n  1: END\n"
                )
            )
        )
        ctx.set_sample_mask(1 << k)
        ctx.draw_vbo(DrawInfo(mode=Prim.TRIANGLES, count=3))
    ctx.set_sample_mask(0xFFFFFFFF)
    view = ctx.create_sampler_view(tex, SamplerViewTemplate(format=tex.format, target=Target.TEXTURE_2D))
    ctx.set_sampler_views(ShaderType.FRAGMENT, 0, [view])
    assert list(draw(ctx, MSAA_FETCH_FS)[0, 0]) == list(values)
    if not screen.profile.has("shader_texture_image_samples"):
        return check_refused(screen, ctx, ["TEXTURE_QUERY_SAMPLES"], lambda c: draw(c, TXQS_FS, fmt=UINT))
    assert cap(screen, "TEXTURE_QUERY_SAMPLES") == 1
    assert draw(ctx, TXQS_FS, fmt=UINT)[0, 0, 0] == 4


def test_cube_map_array_sampling(screen, ctx):
    """GLSL 4.00's samplerCubeArray: direction +Y (face 2) of cube 1 reads
    layer 6 * 1 + 2 = 8 of a 12-layer cube array whose layer k holds k."""
    if not screen.profile.has("texture_cube_map_array"):
        assert cap(screen, "CUBE_MAP_ARRAY") == 0
        with pytest.raises(UnsupportedError):
            make_texture(screen, Target.TEXTURE_CUBE_ARRAY, Format.R32G32B32A32_FLOAT, 1, 1, array_size=12)
        return
    tex = make_texture(screen, Target.TEXTURE_CUBE_ARRAY, Format.R32G32B32A32_FLOAT, 1, 1, array_size=12)
    upload(screen, tex, 0, np.array([[[[k, 0, 0, 1]]] for k in range(12)], np.float32))
    view = ctx.create_sampler_view(
        tex, SamplerViewTemplate(format=tex.format, target=Target.TEXTURE_CUBE_ARRAY, last_layer=11)
    )
    bind_sampling(ctx, view, ctx.create_sampler_state(nearest()))
    S = Sampling(ctx, 1, 1)
    for direction, cube, layer in (((0, 1, 0), 1, 8), ((-1, 0, 0), 0, 1), ((0, 0, -1), 1, 11)):
        coord = (*direction, cube)
        assert S.draw(tex_fs(target="CUBEARRAY"), coord, coord)[0, 0, 0] == layer


OFFSET_FS = """FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL OUT[0], COLOR
DCL SAMP[0]
DCL SVIEW[0], 2D, FLOAT
DCL TEMP[0..1]
IMM[0] INT32 {{{lo}, {hi}, 0, 0}}
IMM[1] INT32 {{64, 64, 0, 0}}
  0: TEX TEMP[0], IN[0], SAMP[0], 2D, IMM[0].xyz
  1: TXF_LZ TEMP[1], IMM[1], SAMP[0], 2D, IMM[0].yxz
  2: MOV OUT[0].xy, TEMP[0].xyxy
  3: MOV OUT[0].zw, TEMP[1].xxxy
  4: END
"""


def test_texel_offsets_at_the_limits_and_txf_lz(screen, ctx):
    """MIN/MAX_TEXEL_OFFSET (the host's GL_MIN/MAX_PROGRAM_TEXEL_OFFSET):
    TEX at texel (64, 64) with offset (min, max) reads texel (64 + min, 64 +
    max); TGSI_TEX_TXF_LZ: TXF_LZ (level 0 implied) with offset (max, min)."""
    lo, hi = cap(screen, "MIN_TEXEL_OFFSET"), cap(screen, "MAX_TEXEL_OFFSET")
    assert (lo, hi) == (
        screen.profile.limit("GL_MIN_PROGRAM_TEXEL_OFFSET"),
        screen.profile.limit("GL_MAX_PROGRAM_TEXEL_OFFSET"),
    )
    assert lo <= -8 and hi >= 7  # GL 3.0's minimum range
    assert cap(screen, "TGSI_TEX_TXF_LZ") == 1
    tex = _grid_texture(screen, 128)
    bind_sampling(ctx, view_2d(ctx, tex), ctx.create_sampler_state(nearest()))
    c = 64.5 / 128
    got = Sampling(ctx, 1, 1).draw(OFFSET_FS.format(lo=lo, hi=hi), (c, c, 0, 1), (c, c, 0, 1))[0, 0]
    assert list(got) == [64 + lo, 64 + hi, 64 + hi, 64 + lo]


INTERP_FS = """FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL OUT[0], COLOR
DCL TEMP[0..1]
IMM[0] FLT32 {0.25, -0.375, 0.0, 0.0}
  0: INTERP_OFFSET TEMP[0], IN[0], IMM[0].xyxy
  1: INTERP_CENTROID TEMP[1], IN[0]
  2: MOV OUT[0].xy, TEMP[0].xyxy
  3: MOV OUT[0].zw, TEMP[1].xxxy
  4: END
"""


def test_interpolate_at_offset_and_centroid(screen, ctx):
    """GLSL 4.00's interpolateAt*: GENERIC = window (x, y) over a 4x2 target;
    at offset (0.25, -0.375) pixel (i, j) reads (i + 0.75, j + 0.125);
    centroid of a fully covered single-sample pixel is its centre.  Without
    gpu_shader5 the lowering re-interpolates (passes/interp.py; more in
    test_interp_emulation.py)."""
    S = Sampling(ctx, 4, 2)
    lo, hi = (0, 0, 0, 1), (4, 2, 0, 1)
    img = S.draw(INTERP_FS, lo, hi)
    y, x = np.mgrid[0:2, 0:4].astype(np.float32)
    np.testing.assert_allclose(img, np.stack([x + 0.75, y + 0.125, x + 0.5, y + 0.5], -1), atol=1e-6)


# ---------------------------------------------------------------------------
# Packing, clock, subgroups
# ---------------------------------------------------------------------------

PACK_FS = """FRAG
DCL OUT[0], COLOR
DCL TEMP[0]
IMM[0] FLT32 {1.5, -2.0, 0.0, 0.0}
  0: MOV TEMP[0], IMM[0]
  1: PK2H TEMP[0].x, IMM[0].xyxy
  2: UP2H TEMP[0].zw, TEMP[0].xxxx
  3: MOV OUT[0], TEMP[0]
  4: END
"""


def test_pack_half_float(screen, ctx):
    """SHADER_PACK_HALF_FLOAT: PK2H(1.5, -2) = half bits 0x3e00 | 0xc000 << 16;
    UP2H gives 1.5 and -2.0 back (float bits 0x3fc00000, 0xc0000000)."""
    if not screen.profile.has("shading_language_packing"):
        return check_refused(screen, ctx, ["SHADER_PACK_HALF_FLOAT"], lambda c: draw(c, PACK_FS, fmt=UINT))
    assert cap(screen, "SHADER_PACK_HALF_FLOAT") == 1
    got = draw(ctx, PACK_FS, fmt=UINT)[0, 0]
    halves = np.array([1.5, -2.0], np.float16).view(np.uint16)
    floats = np.array([1.5, -2.0], np.float32).view(np.uint32)
    # .y keeps the -2.0 it was initialised with.
    assert as_u32(got) == [int(halves[0]) | int(halves[1]) << 16, int(floats[1]), int(floats[0]), int(floats[1])]


CLOCK_FS = """FRAG
DCL OUT[0], COLOR
DCL TEMP[0..2]
IMM[0] FLT32 {1.0, 2.0, 3.0, 4.0}
  0: CLOCK TEMP[0].xy
  1: SIN TEMP[1].x, IMM[0].xxxx
  2: CLOCK TEMP[2].xy
  3: MOV TEMP[0].zw, TEMP[2].xxxy
  4: MOV OUT[0], TEMP[0]
  5: END
"""


def test_shader_clock(screen, ctx):
    """SHADER_CLOCK: CLOCK reads a 64-bit counter (lo, hi) that runs
    forward: a later read in the same invocation is not smaller, and the
    counter is not stuck at 0."""
    if not screen.profile.has("shader_clock"):
        return check_refused(screen, ctx, ["SHADER_CLOCK"], lambda c: draw(c, CLOCK_FS, fmt=UINT))
    assert cap(screen, "SHADER_CLOCK") == 1
    img = draw(ctx, CLOCK_FS, 4, 4, fmt=UINT).reshape(-1, 4).astype(np.uint64)
    first = img[:, 0] | img[:, 1] << np.uint64(32)
    second = img[:, 2] | img[:, 3] << np.uint64(32)
    assert np.all(second >= first) and np.any(second > 0)


VOTE_FS = """FRAG
DCL SV[0], SUBGROUP_INVOCATION
DCL OUT[0], COLOR
DCL TEMP[0..2]
IMM[0] UINT32 {1, 0, 7, 0}
  0: VOTE_ALL TEMP[0].x, IMM[0].xxxx
  1: VOTE_ANY TEMP[0].y, IMM[0].yyyy
  2: VOTE_EQ TEMP[0].z, IMM[0].zzzz
  3: BALLOT TEMP[1].xy, IMM[0].xxxx
  4: USHR TEMP[2].x, TEMP[1].xxxx, SV[0].xxxx
  5: AND TEMP[0].w, TEMP[2].xxxx, IMM[0].xxxx
  6: MOV OUT[0], TEMP[0]
  7: END
"""


def test_subgroup_vote_and_ballot(screen, ctx):
    """SHADER_GROUP_VOTE: every invocation votes true -> all = ~0; none
    does -> any = 0; equal values -> eq = ~0.  SHADER_BALLOT: the ballot of
    a true predicate has the invocation's own bit set (subgroups of up to 32
    lanes here: the low word)."""
    if not (screen.profile.has("shader_group_vote") and screen.profile.has("shader_ballot")):
        return check_refused(screen, ctx, ["SHADER_GROUP_VOTE", "SHADER_BALLOT"], lambda c: draw(c, VOTE_FS, fmt=UINT))
    assert cap(screen, "SHADER_GROUP_VOTE") == cap(screen, "SHADER_BALLOT") == 1
    img = draw(ctx, VOTE_FS, 4, 4, fmt=UINT).reshape(-1, 4)
    assert all(as_u32(px) == [0xFFFFFFFF, 0, 0xFFFFFFFF, 1] for px in img)


# ---------------------------------------------------------------------------
# Vertex-stage outputs: cull distances, layer / viewport
# ---------------------------------------------------------------------------

CULL_VS = """VERT
PROPERTY NUM_CLIPDIST_ENABLED 0
PROPERTY NUM_CULLDIST_ENABLED 1
DCL IN[0]
DCL OUT[0], POSITION
DCL OUT[1], CLIPDIST
  0: MOV OUT[0], IN[0]
  1: MOV OUT[1].x, IN[0].zzzz
  2: END
"""


def test_cull_distance(screen, ctx):
    """CULL_DISTANCE: the cull distance is the vertex's z.  The left triangle
    (all three negative) is culled; the right one (one positive) is drawn
    whole -- culling never clips."""
    left = [[-1, -1, -0.5, 1], [-0.1, -1, -0.5, 1], [-1, 1, -0.5, 1]]
    right = [[0.1, -1, -0.5, 1], [1, -1, 0.5, 1], [0.1, 1, -0.5, 1]]
    verts = np.array(left + right, np.float32)
    assert cap(screen, "CULL_DISTANCE") == 1  # gl33: lowered to clip distances (docs/lowering.md)
    lit = draw(ctx, RED_FS, 8, 8, vs=CULL_VS, verts=verts)[..., 0] > 0
    assert not lit[:, :4].any()
    # The right triangle, from the independent coverage model (window coords).
    from .util_draw import triangle_coverage

    tri = [((x + 1) * 4, (y + 1) * 4) for x, y, _, _ in right]
    covered, ambiguous = triangle_coverage([tri], size=8)
    assert np.array_equal(lit[~ambiguous], covered[~ambiguous]) and lit[:, 4:].any()


LAYER_VS = """VERT
DCL IN[0]
DCL SV[0], INSTANCEID
DCL OUT[0], POSITION
DCL OUT[1], LAYER
DCL OUT[2], VIEWPORT_INDEX
DCL OUT[3], GENERIC[0]
  0: MOV OUT[0], IN[0]
  1: MOV OUT[1].x, SV[0].xxxx
  2: MOV OUT[2].x, SV[0].xxxx
  3: U2F OUT[3], SV[0].xxxx
  4: END
"""

LAYER_TES = """TESS_EVAL
PROPERTY TES_PRIM_MODE 4
PROPERTY TES_SPACING 0
PROPERTY TES_VERTEX_ORDER_CW 0
PROPERTY TES_POINT_MODE 0
DCL IN[][0], POSITION
DCL SV[0], TESSCOORD
DCL SV[1], PRIM_ID
DCL OUT[0], POSITION
DCL OUT[1], LAYER
DCL OUT[2], VIEWPORT_INDEX
DCL OUT[3], GENERIC[0]
DCL TEMP[0]
  0: MUL TEMP[0], SV[0].xxxx, IN[0][0]
  1: MAD TEMP[0], SV[0].yyyy, IN[1][0], TEMP[0]
  2: MAD TEMP[0], SV[0].zzzz, IN[2][0], TEMP[0]
  3: MOV OUT[0], TEMP[0]
  4: MOV OUT[1].x, SV[1].xxxx
  5: MOV OUT[2].x, SV[1].xxxx
  6: U2F OUT[3], SV[1].xxxx
  7: END
"""

PASS_TCS = """TESS_CTRL
PROPERTY TCS_VERTICES_OUT 3
DCL IN[][0], POSITION
DCL SV[0], INVOCATIONID
DCL OUT[][0], POSITION
DCL OUT[1], TESSOUTER
DCL OUT[2], TESSINNER
DCL ADDR[0]
IMM[0] FLT32 {1.0, 1.0, 1.0, 1.0}
  0: UARL ADDR[0].x, SV[0].xxxx
  1: MOV OUT[ADDR[0].x][0], IN[ADDR[0].x][0]
  2: MOV OUT[1], IMM[0]
  3: MOV OUT[2], IMM[0]
  4: END
"""

PLUS_ONE_FS = """FRAG
DCL IN[0], GENERIC[0], CONSTANT
DCL OUT[0], COLOR
IMM[0] FLT32 {1.0, 1.0, 1.0, 1.0}
  0: ADD OUT[0], IN[0], IMM[0]
  1: END
"""


def _layered_target(ctx, n):
    """An n x 1 x n-layer RGBA32F array bound layered, one 1x1 viewport per
    column (viewport i covers pixel i)."""
    screen = ctx.screen
    res = screen.resource_create(
        ResourceTemplate(
            target=Target.TEXTURE_2D_ARRAY,
            format=Format.R32G32B32A32_FLOAT,
            width0=n,
            height0=1,
            array_size=n,
            bind=Bind.RENDER_TARGET,
        )
    )
    surf = ctx.create_surface(res, SurfaceTemplate(format=res.format, first_layer=0, last_layer=n - 1))
    ctx.set_framebuffer_state(FramebufferState(width=n, height=1, layers=n, cbufs=(surf,)))
    ctx.set_viewport_states(0, [ViewportState(scale=(0.5, 0.5, 0.5), translate=(i + 0.5, 0.5, 0.5)) for i in range(n)])
    ctx.clear(Clear.COLOR0, None, (0, 0, 0, 0), 0, 0)
    return res


def _read_layers(screen, res):
    gl = screen.host.gl
    out = np.zeros((res.array_size, res.height0, res.width0, 4), np.float32)
    gl.glBindTexture(gl.GL_TEXTURE_2D_ARRAY, res.gl_object)
    gl.glGetTexImage(gl.GL_TEXTURE_2D_ARRAY, 0, gl.GL_RGBA, gl.GL_FLOAT, out)
    gl.glBindTexture(gl.GL_TEXTURE_2D_ARRAY, 0)
    return out[:, 0, :, 0]


def test_vs_and_tes_write_layer_and_viewport(screen, ctx):
    """MAX_VIEWPORTS (16 = GL_MAX_VIEWPORTS capped at PIPE_MAX_VIEWPORTS; 1 on
    gl33, which refuses a second viewport), VS_LAYER_VIEWPORT and
    TES_LAYER_VIEWPORT: instance / primitive i writes layer i and viewport
    i, so layer i gets value i + 1 in column i only (a diagonal)."""
    n = cap(screen, "MAX_VIEWPORTS")
    if not screen.profile.has("viewport_array"):
        # gl33: one viewport; the VS's layer goes through a generated GS
        # (tests/context/test_vs_layer_gl33.py proves the layers); no tessellation.
        assert n == 1 and cap(screen, "VS_LAYER_VIEWPORT") == 1 and cap(screen, "TES_LAYER_VIEWPORT") == 0
        with pytest.raises(InvalidArgumentError, match="MAX_VIEWPORTS"):
            ctx.set_viewport_states(0, [ViewportState(scale=(1, 1, 0.5))] * 2)
        return
    assert n == min(16, screen.profile.limit("GL_MAX_VIEWPORTS"))
    assert cap(screen, "VS_LAYER_VIEWPORT") == cap(screen, "TES_LAYER_VIEWPORT") == 1
    diagonal = np.diag(np.arange(1, n + 1, dtype=np.float32))
    res = _layered_target(ctx, n)
    ctx.bind_vs_state(ctx.create_vs_state(ShaderState(tokens=LAYER_VS)))
    ctx.bind_fs_state(ctx.create_fs_state(ShaderState(tokens=PLUS_ONE_FS)))
    ctx.bind_vertex_elements_state(
        ctx.create_vertex_elements_state([VertexElement(src_format=Format.R32G32B32A32_FLOAT)])
    )
    ctx.set_vertex_buffers([VertexBuffer(buffer=FULL_TRI, stride=16)])
    ctx.draw_vbo(DrawInfo(mode=Prim.TRIANGLES, count=3, instance_count=n))
    np.testing.assert_array_equal(_read_layers(screen, res), diagonal)
    res = _layered_target(ctx, n)
    ctx.bind_vs_state(ctx.create_vs_state(ShaderState(tokens=POS_VS)))
    ctx.bind_tcs_state(ctx.create_tcs_state(ShaderState(tokens=PASS_TCS)))
    ctx.bind_tes_state(ctx.create_tes_state(ShaderState(tokens=LAYER_TES)))
    ctx.set_patch_vertices(3)
    ctx.set_vertex_buffers([VertexBuffer(buffer=np.tile(FULL_TRI, (n, 1)), stride=16)])
    ctx.draw_vbo(DrawInfo(mode=Prim.PATCHES, count=3 * n))
    np.testing.assert_array_equal(_read_layers(screen, res), diagonal)


# ---------------------------------------------------------------------------
# Fragment outputs: stencil export, framebuffer fetch
# ---------------------------------------------------------------------------

STENCIL_FS = """FRAG
DCL IN[0], POSITION, LINEAR
DCL OUT[0], COLOR
DCL OUT[1], STENCIL
DCL TEMP[0]
IMM[0] FLT32 {1.0, 0.0, 0.0, 1.0}
IMM[1] INT32 {40, 0, 0, 0}
  0: F2I TEMP[0].x, IN[0].xxxx
  1: UADD TEMP[0].x, TEMP[0].xxxx, IMM[1].xxxx
  2: MOV OUT[1].y, TEMP[0].xxxx
  3: MOV OUT[0], IMM[0]
  4: END
"""


def test_shader_stencil_export(screen, ctx):
    """SHADER_STENCIL_EXPORT: the FS's STENCIL output (40 + pixel x) replaces
    the reference (9) under stencil op REPLACE."""

    def run(c):
        col = texture(screen, Format.R32G32B32A32_FLOAT, 4, 1, Bind.RENDER_TARGET)
        zs = texture(screen, Format.Z24_UNORM_S8_UINT, 4, 1, Bind.DEPTH_STENCIL)
        bind_targets(c, 4, 1, (col,), zs)
        c.clear(Clear.DEPTHSTENCIL, None, (0, 0, 0, 0), 1.0, 0)
        front = StencilState(enabled=True, func=Func.ALWAYS, zpass_op=StencilOp.REPLACE, valuemask=0xFF, writemask=0xFF)
        c.bind_depth_stencil_alpha_state(
            c.create_depth_stencil_alpha_state(DepthStencilAlphaState(stencil=(front, StencilState())))
        )
        c.set_stencil_ref(StencilRef(ref_value=(9, 9)))
        c.bind_vs_state(c.create_vs_state(ShaderState(tokens=POS_VS)))
        c.bind_fs_state(c.create_fs_state(ShaderState(tokens=STENCIL_FS)))
        c.bind_vertex_elements_state(
            c.create_vertex_elements_state([VertexElement(src_format=Format.R32G32B32A32_FLOAT)])
        )
        c.set_vertex_buffers([VertexBuffer(buffer=FULL_TRI, stride=16)])
        c.draw_vbo(DrawInfo(mode=Prim.TRIANGLES, count=3))
        return read(screen, zs, "depth24s8") & 0xFF

    if not screen.profile.has("shader_stencil_export"):
        return check_refused(screen, ctx, ["SHADER_STENCIL_EXPORT"], run)
    assert cap(screen, "SHADER_STENCIL_EXPORT") == 1
    assert list(run(ctx)[0]) == [40, 41, 42, 43]


def _fbfetch_fs(n: int) -> str:
    lines = ["FRAG"] + [f"DCL OUT[{i}], COLOR[{i}]" for i in range(n)] + ["DCL TEMP[0]"]
    lines += [f"IMM[{i}] FLT32 {{{i + 1}.0, 0.5, 0.25, 0.125}}" for i in range(n)]
    code = []
    for i in range(n):
        code += [f"FBFETCH TEMP[0], OUT[{i}]", f"ADD OUT[{i}], TEMP[0], IMM[{i}]"]
    return "\n".join(lines) + "\n" + "".join(f"  {k}: {c}\n" for k, c in enumerate(code + ["END"]))


def test_framebuffer_fetch_on_every_render_target(screen, ctx):
    """FBFETCH = MAX_RENDER_TARGETS: every colour buffer's old value is read
    (FBFETCH) and written back plus (i + 1, .5, .25, .125); two draws over
    buffers cleared to (1, 2, 3, 4) leave (1 + 2 (i + 1), 3, 3.5, 4.25)."""
    n = cap(screen, "MAX_RENDER_TARGETS")
    fs = _fbfetch_fs(n)
    res = [texture(screen, Format.R32G32B32A32_FLOAT, 2, 2, Bind.RENDER_TARGET) for _ in range(n)]

    def run(c):
        bind_targets(c, 2, 2, res)
        c.clear(Clear.COLOR, None, (1.0, 2.0, 3.0, 4.0), 0, 0)
        c.bind_vs_state(c.create_vs_state(ShaderState(tokens=POS_VS)))
        c.bind_fs_state(c.create_fs_state(ShaderState(tokens=fs)))
        c.bind_vertex_elements_state(
            c.create_vertex_elements_state([VertexElement(src_format=Format.R32G32B32A32_FLOAT)])
        )
        c.set_vertex_buffers([VertexBuffer(buffer=FULL_TRI, stride=16)])
        c.draw_vbo(DrawInfo(mode=Prim.TRIANGLES, count=3))
        c.draw_vbo(DrawInfo(mode=Prim.TRIANGLES, count=3))

    if not screen.profile.has("shader_framebuffer_fetch"):
        return check_refused(screen, ctx, ["FBFETCH"], run)
    assert cap(screen, "FBFETCH") == n == 8
    run(ctx)
    for i, r in enumerate(res):
        got = read(screen, r, "rgba32f")
        assert np.all(got == np.float32([1 + 2 * (i + 1), 3.0, 3.5, 4.25])), i
