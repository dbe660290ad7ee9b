"""Texel fetches and size queries in compute programs, on both profiles
(native: the host's compute shaders; gl33: the numpy TGSI executor,
fallback/tgsi_exec/texture.py), issue 16 item 3.

Every result is checked against numpy from the definition (texelFetch of
the uploaded texels, Gallium's value per format, zeros outside the level;
textureSize / textureQueryLevels from the resource's extents), and the
executor's bytes are compared with the host's for the same input.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from conftest import get_screen

from glpipe import (
    Bind,
    Box,
    ComputeCap,
    ComputeState,
    Format,
    GridInfo,
    Map,
    ResourceTemplate,
    SamplerState,
    SamplerViewTemplate,
    ShaderBuffer,
    ShaderCap,
    ShaderIR,
    ShaderType,
    Target,
    TexFilter,
    TexMipFilter,
    TexWrap,
)
from glpipe.enums import Swizzle
from glpipe.format_table import FORMAT_TABLE
from lowering.errors import UnsupportedError

from .util_compute import read_buffer, shader_buffer
from .util_sampling import nearest

NEAREST_MIP = nearest(min_mip_filter=TexMipFilter.NEAREST)

# TGSI target -> (Gallium target, which grid axis is the layer (or None), the
# grid axes that are texel coordinates).
TARGETS = {
    "1D": (Target.TEXTURE_1D, None, (0,)),
    "2D": (Target.TEXTURE_2D, None, (0, 1)),
    "3D": (Target.TEXTURE_3D, None, (0, 1, 2)),
    "1D_ARRAY": (Target.TEXTURE_1D_ARRAY, 1, (0,)),
    "2D_ARRAY": (Target.TEXTURE_2D_ARRAY, 2, (0, 1)),
    "BUFFER": (Target.BUFFER, None, (0,)),
}

# format -> (SVIEW return type, numpy dtype of a channel, channels, the Gallium value of texel data)
FORMATS = {
    Format.R8G8B8A8_UNORM: ("FLOAT", np.uint8, 4),
    Format.R32G32B32A32_FLOAT: ("FLOAT", np.float32, 4),
    Format.R16G16_SINT: ("SINT", np.int16, 2),
    Format.R32_UINT: ("UINT", np.uint32, 1),
}

W, H, D = 5, 4, 3  # level 0 extent (layers for arrays); level 1 is minified


def _values(fmt, raw: np.ndarray) -> np.ndarray:
    """The (..., 4) words a fetch returns for ``raw`` texels (Gallium: missing
    channels read 0, a missing alpha 1), computed from the definition."""
    ret, _, n = FORMATS[fmt]
    shape = raw.shape[:-1]
    if ret == "FLOAT":
        # UNORM8: llvmpipe's float(x) * (1 / 255.0f) (tests/context/test_compute_textures.py
        # test_unorm_conversion_is_llvmpipes shows the host does exactly this).
        f = raw.astype(np.float32) * np.float32(1 / 255) if raw.dtype == np.uint8 else raw
        out = np.zeros((*shape, 4), np.float32)
        out[..., :n] = f
        if n < 4:
            out[..., 3] = 1.0
        return out.view(np.uint32)
    out = np.zeros((*shape, 4), np.int64)
    out[..., :n] = raw
    if n < 4:
        out[..., 3] = 1
    return (out & 0xFFFFFFFF).astype(np.uint32)


def _extent(target: str, level: int) -> tuple[int, int, int]:
    """(width, height, layers | depth) of ``level`` as the grid addresses it."""
    w = max(W >> level, 1)
    h = max(H >> level, 1)
    if target in ("1D", "BUFFER"):
        return (w if target == "1D" else 24, 1, 1)
    if target == "1D_ARRAY":
        return (w, D, 1)
    if target == "2D":
        return (w, h, 1)
    if target == "2D_ARRAY":
        return (w, h, D)
    return (w, h, max(D >> level, 1))


def make_texture(screen, ctx, target: str, fmt: Format, rng):
    """A texture (2 levels) or buffer of random texels; returns it and, per
    level, the expected fetch words indexed [z | layer][y | layer][x]."""
    gtarget = TARGETS[target][0]
    _, dtype, n = FORMATS[fmt]
    info = np.iinfo(dtype) if np.dtype(dtype).kind in "iu" else None

    def random(shape):
        if info is None:
            return rng.standard_normal((*shape, n)).astype(dtype)
        return rng.integers(info.min, info.max, (*shape, n), dtype=dtype, endpoint=True)

    if target == "BUFFER":
        texels = random((24,))
        res = shader_buffer(screen, ctx, texels, extra_bind=Bind.SAMPLER_VIEW)
        return res, [_values(fmt, texels).reshape(1, 1, 24, 4)]
    w, h, d = W, (1 if target in ("1D", "1D_ARRAY") else H), (1 if target in ("1D", "2D") else D)
    res = screen.resource_create(
        ResourceTemplate(
            target=gtarget,
            format=fmt,
            width0=w,
            height0=h,
            depth0=d if target == "3D" else 1,
            array_size=d if "ARRAY" in target else 1,
            last_level=1,
            bind=Bind.SAMPLER_VIEW,
        )
    )
    expected = []
    for level in range(2):
        lw, lh, ld = res.level_extent(level)
        texels = random((ld, lh, lw))
        bs = texels.itemsize * n
        ctx.texture_subdata(res, level, Map.WRITE, Box(width=lw, height=lh, depth=ld), texels, lw * bs, lw * lh * bs)
        words = _values(fmt, texels)  # (layers | depth, h, w, 4)
        expected.append(words)
    return res, expected


def fetch_kernel(target: str, ret: str, grid, lod: int, opcode: str = "TXF") -> str:
    nx, ny, _ = grid
    fetch = (
        f"TXF TEMP[2], TEMP[1], SAMP[0], {target}" if opcode == "TXF" else "SAMPLE_I TEMP[2], TEMP[1], SVIEW[0].zyxw"
    )
    return f"""COMP
DCL SV[0], BLOCK_ID
DCL SAMP[0]
DCL SVIEW[0], {target}, {ret}
DCL BUFFER[0]
DCL TEMP[0..2]
IMM[0] UINT32 {{{nx}, {ny}, 16, {lod}}}
UMAD TEMP[0].x, SV[0].zzzz, IMM[0].yyyy, SV[0].yyyy
UMAD TEMP[0].x, TEMP[0].xxxx, IMM[0].xxxx, SV[0].xxxx
UMUL TEMP[0].x, TEMP[0].xxxx, IMM[0].zzzz
MOV TEMP[1].xyz, SV[0].xyzz
MOV TEMP[1].w, IMM[0].wwww
{fetch}
STORE BUFFER[0].xyzw, TEMP[0].xxxx, TEMP[2]
END
"""


def expected_fetch(target: str, fmt: Format, levels, grid, lod: int) -> np.ndarray:
    """texelFetch over the grid (one lane per grid point); outside the level
    the format's zero texel (llvmpipe's answer; GLSL leaves it undefined)."""
    _, layer_axis, axes = TARGETS[target]
    nx, ny, nz = grid
    out = np.zeros((nz, ny, nx, 4), np.uint32)
    out[:] = _values(fmt, np.zeros((1, FORMATS[fmt][2]), FORMATS[fmt][1]))[0]
    if lod >= len(levels):
        return out
    words = levels[lod]
    dd, hh, ww = words.shape[:3]
    for z in range(nz):
        for y in range(ny):
            for x in range(nx):
                g = (x, y, z)
                xx = g[0]
                yy = g[1] if 1 in axes else 0
                d = g[layer_axis] if layer_axis is not None else (g[2] if 2 in axes else 0)
                if xx < ww and yy < hh and d < dd:
                    out[z, y, x] = words[d, yy, xx]
    return out


def run_fetch(screen, target: str, fmt: Format, lod: int, opcode: str = "TXF", swizzle=None) -> tuple:
    """Run the fetch kernel over the level extent + 1 in each used axis;
    returns (got words, expected words)."""
    ctx = screen.context_create()
    try:
        rng = np.random.default_rng(hash((target, int(fmt))) & 0xFFFF)
        res, levels = make_texture(screen, ctx, target, fmt, rng)
        ex = _extent(target, 0)
        grid = tuple(e + 1 if e > 1 or a == 0 else 1 for a, e in enumerate(ex))
        if target == "1D_ARRAY":
            grid = (ex[0] + 1, ex[1] + 1, 1)
        templ = SamplerViewTemplate(format=fmt, target=TARGETS[target][0])
        if target == "BUFFER":
            templ = SamplerViewTemplate(format=fmt, target=Target.BUFFER, offset=0, size=res.width0)
        else:
            templ = SamplerViewTemplate(
                format=fmt,
                target=TARGETS[target][0],
                first_level=0,
                last_level=1,
                first_layer=0,
                last_layer=(D - 1) if "ARRAY" in target else 0,
            )
        if swizzle is not None:
            r, g, b, a = swizzle
            templ = dataclasses.replace(templ, swizzle_r=r, swizzle_g=g, swizzle_b=b, swizzle_a=a)
        view = ctx.create_sampler_view(res, templ)
        ctx.set_sampler_views(ShaderType.COMPUTE, 0, [view])
        # A frontend binds a sampler with every view: GL treats an integer
        # texture with a filtering sampler as incomplete (TXF reads zeros).
        ctx.bind_sampler_states(ShaderType.COMPUTE, 0, [ctx.create_sampler_state(NEAREST_MIP)])
        n = grid[0] * grid[1] * grid[2]
        out = shader_buffer(screen, ctx, np.full(n * 4, 0xDEADBEEF, np.uint32))
        ctx.set_shader_buffers(ShaderType.COMPUTE, 0, [ShaderBuffer(buffer=out, buffer_size=out.width0)], 1)
        ret = FORMATS[fmt][0]
        cso = ctx.create_compute_state(ComputeState(prog=fetch_kernel(target, ret, grid, lod, opcode)))
        ctx.bind_compute_state(cso)
        ctx.launch_grid(GridInfo(block=(1, 1, 1), grid=grid))
        got = read_buffer(ctx, out, np.uint32).reshape(grid[2], grid[1], grid[0], 4)
        want = expected_fetch(target, fmt, levels, grid, lod)
        ctx.set_sampler_views(ShaderType.COMPUTE, 0, [None])
        ctx.delete_compute_state(cso)
        return got, want
    finally:
        ctx.destroy()


@pytest.mark.parametrize("target", list(TARGETS))
@pytest.mark.parametrize("fmt", list(FORMATS), ids=lambda f: f.name)
def test_txf_every_target_and_format(screen, target, fmt):
    """TXF at level 0 and 1 (and past the view's levels), over the level
    plus one texel in each axis: in range the texel's Gallium value, out
    of range zeros."""
    for lod in (0, 1, 2) if target != "BUFFER" else (0,):
        got, want = run_fetch(screen, target, fmt, lod)
        np.testing.assert_array_equal(got, want, err_msg=f"{target} {fmt.name} lod {lod}")


@pytest.mark.parametrize("target", ["2D", "2D_ARRAY", "BUFFER"])
def test_executor_fetch_is_byte_exact_with_the_host(target):
    """The same kernel and texels on both profiles: the executor's bytes are
    the host's (including what llvmpipe returns outside the texture)."""
    results = {}
    for profile in ("native", "gl33"):
        screen = get_screen(profile)
        results[profile] = [run_fetch(screen, target, fmt, 0)[0] for fmt in FORMATS]
    for fmt, a, b in zip(FORMATS, results["native"], results["gl33"], strict=True):
        assert a.tobytes() == b.tobytes(), fmt.name


def test_sample_i_applies_the_operand_swizzle_and_the_view_swizzle(screen):
    """SAMPLE_I: the view's swizzle (A, B, G, 1) then the SVIEW operand's (.zyxw)."""
    swz = (Swizzle.W, Swizzle.Z, Swizzle.Y, Swizzle.ONE)
    got, want = run_fetch(screen, "2D", Format.R8G8B8A8_UNORM, 0, opcode="SAMPLE_I", swizzle=swz)
    one = np.float32(1.0).view(np.uint32)
    viewed = np.stack([want[..., 3], want[..., 2], want[..., 1], np.full(want.shape[:-1], one)], -1)
    inside = want.any(axis=-1)
    viewed[~inside] = 0  # out of range: the zero texel (R8G8B8A8 has alpha: all 0) ...
    viewed[~inside, 3] = one  # ... through the view swizzle (.a = ONE)
    np.testing.assert_array_equal(got, viewed[..., [2, 1, 0, 3]])


TXQ_KERNEL = """COMP
DCL SV[0], BLOCK_ID
DCL SAMP[0]
DCL SVIEW[0], {target}, FLOAT
DCL BUFFER[0]
DCL TEMP[0..1]
IMM[0] UINT32 {{16, 0, 0, 0}}
UMUL TEMP[0].x, SV[0].xxxx, IMM[0].xxxx
{query}
STORE BUFFER[0].xyzw, TEMP[0].xxxx, TEMP[1]
END
"""


@pytest.mark.parametrize(
    "target,gtarget,dims",
    [
        ("1D", Target.TEXTURE_1D, (16, 1, 1, 1)),
        ("2D", Target.TEXTURE_2D, (16, 8, 1, 1)),
        ("3D", Target.TEXTURE_3D, (16, 8, 4, 1)),
        ("1D_ARRAY", Target.TEXTURE_1D_ARRAY, (16, 1, 1, 5)),
        ("2D_ARRAY", Target.TEXTURE_2D_ARRAY, (16, 8, 1, 5)),
        ("CUBE", Target.TEXTURE_CUBE, (16, 16, 1, 6)),
        ("RECT", Target.TEXTURE_RECT, (16, 8, 1, 1)),
    ],
)
@pytest.mark.parametrize("opcode", ["TXQ", "SVIEWINFO"])
def test_size_queries(screen, ctx, target, gtarget, dims, opcode):
    """TXQ / SVIEWINFO of levels 0..2 of a view starting at level 1 of the
    resource: textureSize of the view's level, the layers of an array view,
    and the view's level count (textureQueryLevels) in .w."""
    w, h, d, layers = dims
    mips = gtarget != Target.TEXTURE_RECT
    res = screen.resource_create(
        ResourceTemplate(
            target=gtarget,
            format=Format.R8G8B8A8_UNORM,
            width0=w,
            height0=h,
            depth0=d,
            array_size=layers,
            last_level=3 if mips else 0,
            bind=Bind.SAMPLER_VIEW,
        )
    )
    # (A 3D view from level 1 fails natively: create_sampler_view gets
    # GL_INVALID_VALUE from the host's texture view -- left to the sampler-view area.)
    first_level = 1 if mips and target != "3D" else 0
    last_layer = layers - 1
    view = ctx.create_sampler_view(
        res,
        SamplerViewTemplate(
            format=res.format,
            target=gtarget,
            first_level=first_level,
            last_level=3 if mips else 0,
            first_layer=0,
            last_layer=last_layer,
        ),
    )
    ctx.set_sampler_views(ShaderType.COMPUTE, 0, [view])
    ctx.bind_sampler_states(ShaderType.COMPUTE, 0, [ctx.create_sampler_state(NEAREST_MIP if mips else nearest())])
    out = shader_buffer(screen, ctx, np.full(3 * 4, 0xDEADBEEF, np.uint32))
    ctx.set_shader_buffers(ShaderType.COMPUTE, 0, [ShaderBuffer(buffer=out, buffer_size=out.width0)], 1)
    query = (
        f"TXQ TEMP[1], SV[0].xxxx, SAMP[0], {target}" if opcode == "TXQ" else "SVIEWINFO TEMP[1], SV[0].xxxx, SVIEW[0]"
    )
    cso = ctx.create_compute_state(ComputeState(prog=TXQ_KERNEL.format(target=target, query=query)))
    ctx.bind_compute_state(cso)
    nlods = 3 if mips else 1
    nlevels = 4 - first_level if mips else 1
    ctx.launch_grid(GridInfo(block=(1, 1, 1), grid=(nlods, 1, 1)))
    got = read_buffer(ctx, out, np.uint32).reshape(3, 4)[:nlods]
    view_layers = layers
    for lod in range(nlods):
        lv = lod + first_level
        mw, mh, md = (max(n >> lv, 1) for n in (w, h, d))
        size = {
            "1D": (mw, 0, 0),
            "2D": (mw, mh, 0),
            "RECT": (w, h, 0),
            "3D": (mw, mh, md),
            "1D_ARRAY": (mw, view_layers, 0),
            "2D_ARRAY": (mw, mh, view_layers),
            "CUBE": (mw, mh, 0),
        }[target]
        levels = nlevels
        np.testing.assert_array_equal(got[lod], [*size, levels], err_msg=f"lod {lod}")


def test_compute_texture_caps_are_used(screen, ctx):
    """The compute stage's sampler view / sampler caps are non-zero on both
    profiles, and a view bound at the last slot is fetched from."""
    views = screen.get_shader_param(ShaderType.COMPUTE, ShaderCap.MAX_SAMPLER_VIEWS)
    samplers = screen.get_shader_param(ShaderType.COMPUTE, ShaderCap.MAX_TEXTURE_SAMPLERS)
    assert views >= 16 and samplers >= 16
    last = min(views, samplers) - 1
    res = screen.resource_create(
        ResourceTemplate(target=Target.TEXTURE_2D, format=Format.R32_UINT, width0=2, height0=1, bind=Bind.SAMPLER_VIEW)
    )
    ctx.texture_subdata(res, 0, Map.WRITE, Box(width=2, height=1, depth=1), np.array([7, 11], np.uint32), 8, 8)
    view = ctx.create_sampler_view(res, SamplerViewTemplate(format=res.format, target=Target.TEXTURE_2D))
    ctx.set_sampler_views(ShaderType.COMPUTE, last, [view])
    ctx.bind_sampler_states(ShaderType.COMPUTE, last, [ctx.create_sampler_state(nearest())])
    out = shader_buffer(screen, ctx, np.zeros(8, np.uint32))
    ctx.set_shader_buffers(ShaderType.COMPUTE, 0, [ShaderBuffer(buffer=out, buffer_size=out.width0)], 1)
    prog = f"""COMP
DCL SV[0], BLOCK_ID
DCL SAMP[{last}]
DCL SVIEW[{last}], 2D, UINT
DCL BUFFER[0]
DCL TEMP[0..1]
IMM[0] UINT32 {{16, 0, 0, 0}}
UMUL TEMP[0].x, SV[0].xxxx, IMM[0].xxxx
MOV TEMP[1], IMM[0].yyyy
MOV TEMP[1].x, SV[0].xxxx
TXF TEMP[1], TEMP[1], SAMP[{last}], 2D
STORE BUFFER[0].xyzw, TEMP[0].xxxx, TEMP[1]
END
"""
    cso = ctx.create_compute_state(ComputeState(prog=prog))
    ctx.bind_compute_state(cso)
    ctx.launch_grid(GridInfo(block=(1, 1, 1), grid=(2, 1, 1)))
    np.testing.assert_array_equal(read_buffer(ctx, out, np.uint32).reshape(2, 4), [[7, 0, 0, 1], [11, 0, 0, 1]])


# One lookup per invocation: coordinates (s, t, lod) from BUFFER[0], the
# result to BUFFER[1] (TXL: explicit lod; TEX: implicit -- no derivatives in
# compute: lambda_base 0, the base level, as llvmpipe; SAMPLE_L through SVIEW
# with its operand swizzle).
LOOKUP = """COMP
DCL SV[0], BLOCK_ID
DCL SAMP[0]
DCL SVIEW[0], 2D, FLOAT
DCL BUFFER[0]
DCL BUFFER[1]
DCL TEMP[0..2]
IMM[0] UINT32 {{16, 0, 0, 0}}
UMUL TEMP[0].x, SV[0].xxxx, IMM[0].xxxx
LOAD TEMP[1], BUFFER[0], TEMP[0].xxxx
{op}
STORE BUFFER[1].xyzw, TEMP[0].xxxx, TEMP[2]
END
"""
LOOKUP_OPS = {
    "TXL": "TXL TEMP[2], TEMP[1].xyzz, SAMP[0], 2D",
    "TEX": "TEX TEMP[2], TEMP[1], SAMP[0], 2D",
    "SAMPLE_L": "SAMPLE_L TEMP[2], TEMP[1], SVIEW[0].wzyx, SAMP[0], TEMP[1].zzzz",
}
WRAPS = {
    TexWrap.REPEAT: lambda i, n: i % n,
    TexWrap.MIRROR_REPEAT: lambda i, n: (i % (2 * n)) if (i % (2 * n)) < n else 2 * n - 1 - (i % (2 * n)),
    TexWrap.CLAMP_TO_EDGE: lambda i, n: min(max(i, 0), n - 1),
    TexWrap.CLAMP_TO_BORDER: lambda i, n: i if 0 <= i < n else None,
    TexWrap.MIRROR_CLAMP_TO_EDGE: lambda i, n: min(i if i >= 0 else -1 - i, n - 1),
}
BORDER = (0.25, -2.0, 8.0, 0.5)


def gl_lookup(levels, s, t, lam, st: SamplerState) -> np.ndarray:
    """GL 4.5 §8.14 for one 2D lookup, in float64 from the definition."""
    lam = min(max(lam + st.lod_bias, st.min_lod), st.max_lod)
    q = len(levels) - 1

    def level(k, filt):
        img = levels[k]
        h, w = img.shape[:2]

        def texel(i, j):
            ii, jj = WRAPS[st.wrap_s](i, w), WRAPS[st.wrap_t](j, h)
            return np.array(BORDER) if ii is None or jj is None else img[jj, ii]

        u, v = s * w, t * h
        if filt == TexFilter.NEAREST:
            return texel(int(np.floor(u)), int(np.floor(v)))
        u, v = u - 0.5, v - 0.5
        i0, j0 = int(np.floor(u)), int(np.floor(v))
        a, b = u - i0, v - j0
        return (
            (1 - a) * (1 - b) * texel(i0, j0)
            + a * (1 - b) * texel(i0 + 1, j0)
            + (1 - a) * b * texel(i0, j0 + 1)
            + a * b * texel(i0 + 1, j0 + 1)
        )

    if lam <= 0:
        return level(0, st.mag_img_filter)
    if st.min_mip_filter == TexMipFilter.NONE:
        return level(0, st.min_img_filter)
    if st.min_mip_filter == TexMipFilter.NEAREST:
        d = 0 if lam <= 0.5 else min(int(np.ceil(lam + 0.5)) - 1, q)
        return level(d, st.min_img_filter)
    if lam >= q:
        return level(q, st.min_img_filter)
    d = int(np.floor(lam))
    f = lam - d
    return (1 - f) * level(d, st.min_img_filter) + f * level(d + 1, st.min_img_filter)


SAMPLERS = {
    "nearest_repeat": SamplerState(min_mip_filter=TexMipFilter.NEAREST, max_lod=8.0),
    "linear_mirror": SamplerState(
        wrap_s=TexWrap.MIRROR_REPEAT,
        wrap_t=TexWrap.REPEAT,
        min_img_filter=TexFilter.LINEAR,
        mag_img_filter=TexFilter.LINEAR,
        min_mip_filter=TexMipFilter.LINEAR,
        max_lod=8.0,
    ),
    "linear_border": SamplerState(
        wrap_s=TexWrap.CLAMP_TO_BORDER,
        wrap_t=TexWrap.CLAMP_TO_EDGE,
        min_img_filter=TexFilter.LINEAR,
        mag_img_filter=TexFilter.LINEAR,
        min_mip_filter=TexMipFilter.NONE,
        border_color=BORDER,
        max_lod=8.0,
    ),
    "lod_clamped_bias": SamplerState(
        min_img_filter=TexFilter.LINEAR,
        mag_img_filter=TexFilter.NEAREST,
        min_mip_filter=TexMipFilter.LINEAR,
        lod_bias=0.5,
        min_lod=0.25,
        max_lod=1.5,
    ),
}


def run_lookup(screen, op: str, st: SamplerState):
    """(got, expected) of LOOKUP over a fixed set of coordinates and lods."""
    rng = np.random.default_rng(7)
    w = h = 8
    levels = [rng.integers(-8, 8, (h >> k, w >> k, 4)).astype(np.float32) / 4 for k in range(4)]
    ss = np.array([-0.7, -0.03, 0.0, 0.0625, 0.3, 0.5, 0.77, 1.0, 1.2, 2.31])
    lods = np.array([0.0, 0.3, 0.75, 1.25, 2.5, 5.0])
    coords = np.array([(x, (x * 1.7 + 0.11) % 1.6 - 0.2, lod, 0) for x in ss for lod in lods], np.float32)
    ctx = screen.context_create()
    try:
        res = screen.resource_create(
            ResourceTemplate(
                target=Target.TEXTURE_2D,
                format=Format.R32G32B32A32_FLOAT,
                width0=w,
                height0=h,
                last_level=3,
                bind=Bind.SAMPLER_VIEW,
            )
        )
        for k, img in enumerate(levels):
            lw = img.shape[1]
            ctx.texture_subdata(
                res, k, Map.WRITE, Box(width=lw, height=img.shape[0], depth=1), img, lw * 16, img.nbytes
            )
        view = ctx.create_sampler_view(
            res, SamplerViewTemplate(format=res.format, target=Target.TEXTURE_2D, first_level=0, last_level=3)
        )
        ctx.set_sampler_views(ShaderType.COMPUTE, 0, [view])
        ctx.bind_sampler_states(ShaderType.COMPUTE, 0, [ctx.create_sampler_state(st)])
        src = shader_buffer(screen, ctx, coords)
        out = shader_buffer(screen, ctx, np.zeros(coords.size, np.float32))
        ctx.set_shader_buffers(
            ShaderType.COMPUTE, 0, [ShaderBuffer(buffer=b, buffer_size=b.width0) for b in (src, out)], 0b10
        )
        cso = ctx.create_compute_state(ComputeState(prog=LOOKUP.format(op=LOOKUP_OPS[op])))
        ctx.bind_compute_state(cso)
        ctx.launch_grid(GridInfo(block=(1, 1, 1), grid=(len(coords), 1, 1)))
        got = read_buffer(ctx, out, np.float32).reshape(-1, 4)
    finally:
        ctx.destroy()
    want = np.array(
        [gl_lookup(levels, float(c[0]), float(c[1]), 0.0 if op == "TEX" else float(c[2]), st) for c in coords]
    )
    if op == "SAMPLE_L":
        want = want[:, [3, 2, 1, 0]]  # the SVIEW operand's .wzyx
    return got, want


@pytest.mark.parametrize("name", list(SAMPLERS))
@pytest.mark.parametrize("op", list(LOOKUP_OPS))
def test_filtered_lookups(screen, op, name):
    """TXL / TEX / SAMPLE_L with nearest and linear filtering, mip filters,
    wrap modes, the border colour, lod bias and clamps: GL's definition in
    float64 (float32 blends round within 1e-6 of it)."""
    got, want = run_lookup(screen, op, SAMPLERS[name])
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-5)


@pytest.mark.parametrize("name", list(SAMPLERS))
def test_filtered_lookups_match_the_host(name):
    """The executor's filtered lookups against llvmpipe's on the same input:
    nearest filtering byte for byte, linear blends within one float32 ulp of
    the values (llvmpipe's JIT orders the blend arithmetic differently)."""
    native = run_lookup(get_screen("native"), "TXL", SAMPLERS[name])[0]
    gl33 = run_lookup(get_screen("gl33"), "TXL", SAMPLERS[name])[0]
    if SAMPLERS[name].min_img_filter == TexFilter.NEAREST and SAMPLERS[name].mag_img_filter == TexFilter.NEAREST:
        assert gl33.tobytes() == native.tobytes()
    # Texel values lie in [-2, 2]: one float32 ulp there is 2.4e-7.
    np.testing.assert_allclose(gl33, native, rtol=0, atol=5e-7)


CUBE = """COMP
DCL SAMP[0]
DCL SVIEW[0], CUBE, FLOAT
DCL BUFFER[0]
DCL TEMP[0]
IMM[0] FLT32 {0.5, 0.5, 1.0, 0.0}
TEX TEMP[0], IMM[0], SAMP[0], CUBE
STORE BUFFER[0].xyzw, IMM[0].wwww, TEMP[0]
END
"""


def test_cube_and_shadow_lookups_are_refused_by_the_executor(screen, ctx):
    """Cube maps and shadow comparisons have no executor function: refused
    at create on gl33, naming the target; the host runs them natively."""
    shadow = CUBE.replace("CUBE, FLOAT", "2D, FLOAT").replace("SAMP[0], CUBE", "SAMP[0], SHADOW2D")
    for prog, target in ((CUBE, "CUBE"), (shadow, "SHADOW2D")):
        if screen.get_compute_param(ShaderIR.TGSI, ComputeCap.IR_TARGET) == "numpy":
            with pytest.raises(UnsupportedError, match=target):
                ctx.create_compute_state(ComputeState(prog=prog))
        else:
            ctx.delete_compute_state(ctx.create_compute_state(ComputeState(prog=prog)))


def test_partial_last_block_fetches_and_samples(screen, ctx):
    """A launch with last_block runs on the executor on every profile (GLSL
    cannot vary local_size): its texel fetches and filtered lookups read the
    same texels as a host launch; disabled threads write nothing."""
    res = screen.resource_create(
        ResourceTemplate(target=Target.TEXTURE_2D, format=Format.R32_FLOAT, width0=8, height0=1, bind=Bind.SAMPLER_VIEW)
    )
    texels = np.arange(8, dtype=np.float32) * np.float32(1.5)
    ctx.texture_subdata(res, 0, Map.WRITE, Box(width=8, height=1, depth=1), texels, 32, 32)
    ctx.set_sampler_views(
        ShaderType.COMPUTE,
        0,
        [ctx.create_sampler_view(res, SamplerViewTemplate(format=res.format, target=Target.TEXTURE_2D))],
    )
    ctx.bind_sampler_states(
        ShaderType.COMPUTE, 0, [ctx.create_sampler_state(SamplerState(min_mip_filter=TexMipFilter.NONE))]
    )
    out = shader_buffer(screen, ctx, np.full(8 * 8, 7, np.uint32))
    ctx.set_shader_buffers(ShaderType.COMPUTE, 0, [ShaderBuffer(buffer=out, buffer_size=out.width0)], 1)
    prog = """COMP
DCL SV[0], THREAD_ID
DCL SAMP[0]
DCL SVIEW[0], 2D, FLOAT
DCL BUFFER[0]
DCL TEMP[0..3]
IMM[0] UINT32 {32, 0, 16, 0}
IMM[1] FLT32 {0.125, 0.0625, 0.5, 0.0}
UMUL TEMP[0].x, SV[0].xxxx, IMM[0].xxxx
MOV TEMP[1], IMM[0].yyyy
MOV TEMP[1].x, SV[0].xxxx
TXF TEMP[2], TEMP[1], SAMP[0], 2D
U2F TEMP[1].x, SV[0].xxxx
MAD TEMP[1].x, TEMP[1].xxxx, IMM[1].xxxx, IMM[1].yyyy
MOV TEMP[1].y, IMM[1].zzzz
TEX TEMP[3], TEMP[1], SAMP[0], 2D
STORE BUFFER[0].xyzw, TEMP[0].xxxx, TEMP[2]
UADD TEMP[0].x, TEMP[0].xxxx, IMM[0].zzzz
STORE BUFFER[0].xyzw, TEMP[0].xxxx, TEMP[3]
END
"""
    ctx.bind_compute_state(ctx.create_compute_state(ComputeState(prog=prog)))
    ctx.launch_grid(GridInfo(block=(8, 1, 1), grid=(1, 1, 1), last_block=(5, 0, 0)))
    got = read_buffer(ctx, out, np.uint32).reshape(8, 2, 4)
    one = np.float32(1.0).view(np.uint32)
    want = np.stack([texels.view(np.uint32), np.zeros(8, np.uint32), np.zeros(8, np.uint32), np.full(8, one)], 1)
    for k in range(5):  # nearest at texel centres: TEX reads texel k too
        np.testing.assert_array_equal(got[k, 0], want[k])
        np.testing.assert_array_equal(got[k, 1], want[k])
    assert (got[5:] == 7).all()  # threads 5..7 of the last block are disabled


MORE_FORMATS = (
    Format.Z32_FLOAT,
    Format.Z24_UNORM_S8_UINT,
    Format.Z16_UNORM,
    Format.L8_UNORM,
    Format.A8_UNORM,
    Format.L8A8_UNORM,
    Format.I8_UNORM,
    Format.B8G8R8X8_UNORM,
    Format.B5G6R5_UNORM,
    Format.R10G10B10A2_UNORM,
    Format.R16_SNORM,
    Format.R8G8_SNORM,
    Format.R16G16B16A16_UNORM,
    Format.R8G8B8A8_SRGB,
    Format.R32G32_SINT,
)


def _fetch_raw(profile: str, fmt: Format) -> bytes:
    """TXF of 16 texels of random bytes (depth values in range) on ``profile``."""
    screen = get_screen(profile)
    bs = FORMAT_TABLE[fmt].blocksize
    raw = np.random.default_rng(int(fmt)).integers(0, 256, 16 * bs, dtype=np.uint8)
    if fmt == Format.Z32_FLOAT:
        raw = np.linspace(0, 1, 16, dtype=np.float32).view(np.uint8)
    ctx = screen.context_create()
    try:
        res = screen.resource_create(
            ResourceTemplate(target=Target.TEXTURE_2D, format=fmt, width0=16, height0=1, bind=Bind.SAMPLER_VIEW)
        )
        ctx.texture_subdata(res, 0, Map.WRITE, Box(width=16, height=1, depth=1), raw, 16 * bs, 16 * bs)
        view = ctx.create_sampler_view(res, SamplerViewTemplate(format=fmt, target=Target.TEXTURE_2D))
        ctx.set_sampler_views(ShaderType.COMPUTE, 0, [view])
        ctx.bind_sampler_states(ShaderType.COMPUTE, 0, [ctx.create_sampler_state(nearest())])
        out = shader_buffer(screen, ctx, np.zeros(17 * 4, np.uint32))
        ctx.set_shader_buffers(ShaderType.COMPUTE, 0, [ShaderBuffer(buffer=out, buffer_size=out.width0)], 1)
        ret = "SINT" if FORMAT_TABLE[fmt].is_pure_integer else "FLOAT"
        cso = ctx.create_compute_state(ComputeState(prog=fetch_kernel("2D", ret, (17, 1, 1), 0)))
        ctx.bind_compute_state(cso)
        ctx.launch_grid(GridInfo(block=(1, 1, 1), grid=(17, 1, 1)))
        return read_buffer(ctx, out, np.uint32).tobytes()
    finally:
        ctx.destroy()


@pytest.mark.parametrize("fmt", MORE_FORMATS, ids=lambda f: f.name)
def test_executor_decodes_formats_as_the_host(fmt):
    """Depth (d, 0, 0, 1), luminance / alpha / intensity, BGR orders, packed
    and signed-normalized formats and sRGB: the executor's fetch decodes
    every texel (and the one past the edge) to the host's bytes.  sRGB:
    the executor decodes with the exact formula, llvmpipe with a polynomial
    approximation -- they agree within 2e-3."""
    gl33, native = _fetch_raw("gl33", fmt), _fetch_raw("native", fmt)
    if FORMAT_TABLE[fmt].is_srgb:
        a, b = np.frombuffer(gl33, np.float32), np.frombuffer(native, np.float32)
        np.testing.assert_allclose(a, b, rtol=0, atol=2e-3)
    else:
        assert gl33 == native


def test_compressed_view_is_refused_clearly_by_the_executor(screen, ctx):
    """A compressed view a program fetches from: the host samples it; the
    executor (no per-texel decode of block formats) raises UnsupportedError
    at the launch naming the format, and writes nothing."""
    res = screen.resource_create(
        ResourceTemplate(target=Target.TEXTURE_2D, format=Format.DXT1_RGBA, width0=4, height0=4, bind=Bind.SAMPLER_VIEW)
    )
    block = np.array([0xFF, 0xFF, 0x00, 0x00, 0, 0, 0, 0], np.uint8)  # colour0 white, every texel index 0
    ctx.texture_subdata(res, 0, Map.WRITE, Box(width=4, height=4, depth=1), block, 8, 8)
    view = ctx.create_sampler_view(res, SamplerViewTemplate(format=res.format, target=Target.TEXTURE_2D))
    ctx.set_sampler_views(ShaderType.COMPUTE, 0, [view])
    ctx.bind_sampler_states(ShaderType.COMPUTE, 0, [ctx.create_sampler_state(nearest())])
    out = shader_buffer(screen, ctx, np.zeros(4, np.uint32))
    ctx.set_shader_buffers(ShaderType.COMPUTE, 0, [ShaderBuffer(buffer=out, buffer_size=out.width0)], 1)
    ctx.bind_compute_state(ctx.create_compute_state(ComputeState(prog=fetch_kernel("2D", "FLOAT", (1, 1, 1), 0))))
    if screen.get_compute_param(ShaderIR.TGSI, ComputeCap.IR_TARGET) == "numpy":
        with pytest.raises(UnsupportedError, match="DXT1_RGBA"):
            ctx.launch_grid(GridInfo(block=(1, 1, 1), grid=(1, 1, 1)))
        assert not read_buffer(ctx, out, np.uint32).any()
    else:
        ctx.launch_grid(GridInfo(block=(1, 1, 1), grid=(1, 1, 1)))
        np.testing.assert_array_equal(read_buffer(ctx, out, np.float32), [1.0, 1.0, 1.0, 1.0])
