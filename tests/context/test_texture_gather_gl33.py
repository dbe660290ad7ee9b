"""TG4 on both profiles: component select, offsets, shadow, arrays and rects.

textureGather is GLSL 4.00 (GL_ARB_texture_gather; component select, shadow,
run-time and four offsets GL_ARB_gpu_shader5).  On the gl33 profile TG4 is
four texel fetches of the bilinear footprint (lowering/glsl/texture_emul.py:
texelFetch inside the level, the bound sampler at the texel's centre outside
it and for comparisons).  Expected texels come from the GL definition
(tests/context/util_sampling.py wrap_index: GL's wrap table, border included)
and every picture is also compared, bit for bit, with the native profile's
textureGather.  Cube targets (their own lookups, across faces) are checked
in tests/context/test_texture_gather_cube*.py.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from glpipe import (
    Bind,
    ConstantBuffer,
    Format,
    Func,
    SamplerViewTemplate,
    ShaderType,
    Target,
    TexCompare,
    TexFilter,
    TexWrap,
)

from .util import vertex_buffer
from .util_sampling import BORDER, Sampling, bind_sampling, make_texture, nearest, upload, view_2d, wrap_index

F32 = Format.R32G32B32A32_FLOAT
SIZE = 8
# GL's gather order: (i0, j1), (i1, j1), (i1, j0), (i0, j0)
CORNERS = ((0, 1), (1, 1), (1, 0), (0, 0))
LO, HI = (-0.3, -0.3, 0, 0), (1.3, 1.3, 0, 0)  # u * 8 - 0.5 stays >= 0.1 from an integer
BORDER_COLOR = (0.25, 0.5, 0.75, 1.0)


def _texels():
    """SIZE x SIZE x 4: channel c of texel (i, j) = 100 c + 10 j + i (all distinct)."""
    j, i = np.mgrid[0:SIZE, 0:SIZE].astype(np.float32)
    return np.stack([100 * c + 10 * j + i for c in range(4)], -1).astype(np.float32)


def _expected(coords, comp, wrap, offsets=((0, 0),) * 4, four=False):
    """Component ``comp`` of the four footprint texels at every pixel (GL 4.x 8.14.2);
    ``four`` (textureGatherOffsets): texel k is the (i0, j0) texel of the footprint
    at P + offsets[k] (GLSL 4.00 section 8.9.3)."""
    tex = _texels()
    u, v = coords[..., 0] * SIZE - 0.5, coords[..., 1] * SIZE - 0.5
    i0, j0 = np.floor(u).astype(np.int64), np.floor(v).astype(np.int64)
    out = np.empty(coords.shape[:2] + (4,))
    for k, ((ci, cj), (oi, oj)) in enumerate(zip(((0, 0),) * 4 if four else CORNERS, offsets, strict=True)):
        ii = wrap_index(i0 + ci + oi, SIZE, wrap, True)
        jj = wrap_index(j0 + cj + oj, SIZE, wrap, True)
        val = tex[np.clip(jj, 0, SIZE - 1), np.clip(ii, 0, SIZE - 1), comp].astype(np.float64)
        out[..., k] = np.where((ii == BORDER) | (jj == BORDER), BORDER_COLOR[comp], val)
    return out


def _fs(comp, offsets="", decls=""):
    return f"""FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL OUT[0], COLOR
DCL SAMP[0]
DCL SVIEW[0], 2D, FLOAT
{decls}IMM[0] UINT32 {{0, 1, 2, 3}}
IMM[1] INT32 {{-2, 3, 1, -1}}
  0: TG4 OUT[0], IN[0], IMM[0].{"xyzw"[comp] * 4}, SAMP[0], 2D{offsets}
  1: END
"""


def _setup(ctx, wrap, filt):
    tex = make_texture(ctx.screen, Target.TEXTURE_2D, F32, SIZE, SIZE)
    upload(ctx.screen, tex, 0, _texels())
    sampler = nearest(wrap_s=wrap, wrap_t=wrap, min_img_filter=filt, mag_img_filter=filt, border_color=BORDER_COLOR)
    bind_sampling(ctx, view_2d(ctx, tex), ctx.create_sampler_state(sampler))
    return Sampling(ctx, 16, 16)


def _on_native(screen, run):
    """``run(ctx)`` on a fresh context of the native profile's screen; this profile current after."""
    from conftest import get_screen

    native = get_screen("native")
    nctx = native.context_create()
    try:
        return run(nctx)
    finally:
        nctx.destroy()
        get_screen(screen.profile.name)


WRAPS = [TexWrap.REPEAT, TexWrap.CLAMP_TO_EDGE, TexWrap.CLAMP_TO_BORDER, TexWrap.MIRROR_REPEAT]


@pytest.mark.parametrize("filt", [TexFilter.NEAREST, TexFilter.LINEAR], ids=lambda f: f.name)
@pytest.mark.parametrize("wrap", WRAPS, ids=lambda w: w.name)
def test_tg4_components_and_wraps(screen, ctx, wrap, filt):
    """Every component over coordinates from -0.3 to 1.3 (the footprint leaves the texture)."""
    S = _setup(ctx, wrap, filt)
    coords = S.coords(LO, HI)
    for comp in range(4):
        got = S.draw(_fs(comp), LO, HI)
        np.testing.assert_array_equal(got, _expected(coords, comp, wrap), err_msg=f"component {comp}")


def _offsets_case(ctx, wrap):
    S = _setup(ctx, wrap, TexFilter.LINEAR)
    return {
        "one": S.draw(_fs(1, ", IMM[1].xyz"), LO, HI),
        "four": S.draw(_fs(2, ", IMM[1].xyz, IMM[1].zww, IMM[0].xxx, IMM[1].wyz"), LO, HI),
        "dynamic": S.draw(
            _fs(3, ", TEMP[0].xyz", "DCL TEMP[0]\n")
            .replace("  0: TG4", "  0: MOV TEMP[0], IMM[1].wyzz\n  1: TG4")
            .replace("  1: END", "  2: END"),
            LO,
            HI,
        ),
    }, S.coords(LO, HI)


@pytest.mark.parametrize("wrap", [TexWrap.REPEAT, TexWrap.CLAMP_TO_BORDER], ids=lambda w: w.name)
def test_tg4_offsets(screen, ctx, wrap):
    """One immediate offset, four immediate offsets (TEXTURE_GATHER_OFFSETS) and a run-time one."""
    got, coords = _offsets_case(ctx, wrap)
    np.testing.assert_array_equal(got["one"], _expected(coords, 1, wrap, [(-2, 3)] * 4))
    np.testing.assert_array_equal(
        got["four"], _expected(coords, 2, wrap, [(-2, 3), (1, -1), (0, 0), (-1, 3)], four=True)
    )
    np.testing.assert_array_equal(got["dynamic"], _expected(coords, 3, wrap, [(-1, 3)] * 4))
    theirs, _ = _on_native(screen, lambda c: _offsets_case(c, wrap))
    for name in got:
        np.testing.assert_array_equal(got[name], theirs[name], err_msg=name)


SHADOW_FS = """FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL OUT[0], COLOR
DCL SAMP[0]
DCL SVIEW[0], SHADOW2D, FLOAT
IMM[0] UINT32 {0, 1, 2, 3}
IMM[1] INT32 {1, -1, 0, 0}
  0: TG4 OUT[0], IN[0], IMM[0].xxxx, SAMP[0], SHADOW2D, IMM[1].xyz
  1: END
"""


def _shadow_case(ctx, wrap):
    depth = make_texture(ctx.screen, Target.TEXTURE_2D, Format.Z32_FLOAT, SIZE, SIZE)
    j, i = np.mgrid[0:SIZE, 0:SIZE]
    upload(ctx.screen, depth, 0, ((i + j) / 16.0).astype(np.float32)[..., None], gl_format="GL_DEPTH_COMPONENT")
    view = ctx.create_sampler_view(depth, SamplerViewTemplate(format=Format.Z32_FLOAT, target=Target.TEXTURE_2D))
    sampler = nearest(
        wrap_s=wrap,
        wrap_t=wrap,
        min_img_filter=TexFilter.LINEAR,
        mag_img_filter=TexFilter.LINEAR,
        compare_mode=TexCompare.R_TO_TEXTURE,
        compare_func=Func.LEQUAL,
        border_color=(0.3, 0.3, 0.3, 0.3),
    )
    bind_sampling(ctx, view, ctx.create_sampler_state(sampler))
    S = Sampling(ctx, 16, 16)
    lo, hi = (-0.3, -0.3, 0.45, 0), (1.3, 1.3, 0.45, 0)  # reference 0.45 in .z
    return S.draw(SHADOW_FS, lo, hi), S.coords(lo, hi)


@pytest.mark.parametrize("wrap", [TexWrap.CLAMP_TO_EDGE, TexWrap.CLAMP_TO_BORDER], ids=lambda w: w.name)
def test_tg4_shadow_compares_each_texel(screen, ctx, wrap):
    """Shadow TG4 with an offset: each footprint texel is ref <= depth (LEQUAL), 1 or 0."""
    got, coords = _shadow_case(ctx, wrap)
    j, i = np.mgrid[0:SIZE, 0:SIZE]
    depth = (i + j) / 16.0
    u, v = coords[..., 0] * SIZE - 0.5, coords[..., 1] * SIZE - 0.5
    i0, j0 = np.floor(u).astype(np.int64) + 1, np.floor(v).astype(np.int64) - 1
    exp = np.empty_like(got)
    for k, (ci, cj) in enumerate(CORNERS):
        ii, jj = wrap_index(i0 + ci, SIZE, wrap, True), wrap_index(j0 + cj, SIZE, wrap, True)
        d = np.where((ii == BORDER) | (jj == BORDER), 0.3, depth[np.clip(jj, 0, 7), np.clip(ii, 0, 7)])
        exp[..., k] = (np.float32(0.45) <= d.astype(np.float32)).astype(np.float32)
    np.testing.assert_array_equal(got, exp)
    theirs, _ = _on_native(screen, lambda c: _shadow_case(c, wrap))
    np.testing.assert_array_equal(got, theirs)


def test_corpus_tex_gather_gl33_equals_native(screen, ctx):
    """tex_gather.frag (Mesa's TG4 of every component, offsets, arrays, shadow, rect,
    integer texels, a seamless cube): this profile's pixels equal native's."""
    path = Path(__file__).parent.parent / "lowering" / "corpus" / "tgsi" / "tex_gather.frag.tgsi"
    fs = path.read_text()
    # the shadow reference v_ref (GENERIC[1]) from GENERIC[0].w: Sampling's VS writes GENERIC[0] only
    fs = fs.replace("DCL IN[1].x, GENERIC[1], PERSPECTIVE\n", "").replace("IN[1].xxxx", "IN[0].wwww")

    def run(c):
        s = c.screen
        rng = np.random.default_rng(7)
        views = []
        for target, fmt, kw in [
            (Target.TEXTURE_2D, F32, {}),
            (Target.TEXTURE_2D_ARRAY, F32, dict(array_size=3)),
            (Target.TEXTURE_CUBE, F32, dict(array_size=6)),
            (Target.TEXTURE_2D, Format.Z32_FLOAT, {}),
            (Target.TEXTURE_RECT, F32, {}),
            (Target.TEXTURE_2D, Format.R32G32B32A32_SINT, {}),
        ]:
            res = make_texture(s, target, fmt, SIZE, SIZE, **kw)
            layers = kw.get("array_size", 1)
            if fmt == Format.Z32_FLOAT:
                upload(s, res, 0, rng.random((SIZE, SIZE, 1)).astype(np.float32), gl_format="GL_DEPTH_COMPONENT")
            elif target == Target.TEXTURE_CUBE:
                for face, data in enumerate(rng.random((6, SIZE, SIZE, 4)).astype(np.float32)):
                    upload(s, res, 0, data, face=face)
            elif fmt == F32:
                data = rng.random((layers, SIZE, SIZE, 4)).astype(np.float32)
                upload(s, res, 0, data if layers > 1 else data[0])
            else:
                upload(
                    s,
                    res,
                    0,
                    rng.integers(-99, 99, (SIZE, SIZE, 4)).astype(np.int32),
                    gl_format="GL_RGBA_INTEGER",
                    gl_type="GL_INT",
                )
            views.append(
                c.create_sampler_view(res, SamplerViewTemplate(format=fmt, target=target, last_layer=layers - 1))
            )
        c.set_sampler_views(ShaderType.FRAGMENT, 0, views)
        plain = c.create_sampler_state(nearest(wrap_s=TexWrap.REPEAT, wrap_t=TexWrap.CLAMP_TO_EDGE))
        shadow = c.create_sampler_state(nearest(compare_mode=TexCompare.R_TO_TEXTURE, compare_func=Func.LESS))
        # (a RECT texture only takes the clamping wraps)
        rect = c.create_sampler_state(
            nearest(wrap_s=TexWrap.CLAMP_TO_EDGE, wrap_t=TexWrap.CLAMP_TO_BORDER, border_color=BORDER_COLOR)
        )
        cube = c.create_sampler_state(nearest(seamless_cube_map=True))
        c.bind_sampler_states(ShaderType.FRAGMENT, 0, [plain, plain, cube, shadow, rect, plain])
        # CONST[0][0].xy: the run-time offset (u_off) = (1, -1)
        cbuf = vertex_buffer(s, np.array([1, -1, 0, 0], np.int32), bind=Bind.CONSTANT_BUFFER)
        c.set_constant_buffer(ShaderType.FRAGMENT, 0, ConstantBuffer(buffer=cbuf, buffer_size=16))
        S = Sampling(c, 16, 16)
        return S.draw(fs, (-0.2, -0.2, 1.2, 0.2), (1.2, 1.2, 0.3, 0.8))

    ours = run(ctx)
    theirs = _on_native(screen, run)
    assert np.isfinite(ours).all()
    np.testing.assert_array_equal(ours, theirs)
