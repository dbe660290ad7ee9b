"""Samplers and sampler views indexed by an address register, on pixels.

``TEX ..., SAMP[ADDR[0].x+k]`` reads the texture of sampler view ``k +
ADDR[0].x`` (tgsi.rst: the effective index is the constant plus the
address), in the fragment and the vertex shader, for declared ranges
(``DCL SAMP[0..3]``) and separate declarations, for TEX-style and
SAMPLE-style opcodes and for size queries.  The index comes from a
constant buffer through UARL / ARL, so it is only known at run time.

Every texture is filled with one colour (and has its own width), so the
expected value of a lookup is the colour (or width) of the texture the
index selects: the values uploaded, picked by the hand-computed index.
"""

from __future__ import annotations

import numpy as np
import pytest

from glpipe import (
    ConstantBuffer,
    Format,
    ShaderState,
    ShaderType,
    Target,
)
from lowering.errors import ShaderValidationError

from .util import COLOR_FS
from .util_sampling import Sampling, make_texture, nearest, upload, view_2d

# Four 1-row textures: texture k is (k + 1) texels wide and every texel has COLORS[k].
COLORS = np.array(
    [[1.0, 0.0, 0.0, 1.0], [0.0, 1.0, 0.0, 0.5], [0.0, 0.0, 1.0, 0.25], [0.5, 0.25, 0.75, 1.0]], np.float32
)
N = len(COLORS)


def _bind_textures(ctx, stage):
    """Textures k = 0..3 (width k + 1, colour COLORS[k]) on slots 0..3 of ``stage`` with NEAREST samplers."""
    views, samplers = [], []
    for k in range(N):
        res = make_texture(ctx.screen, Target.TEXTURE_2D, Format.R32G32B32A32_FLOAT, k + 1, 1)
        upload(ctx.screen, res, 0, np.tile(COLORS[k], (1, k + 1, 1)))
        views.append(view_2d(ctx, res))
        samplers.append(ctx.create_sampler_state(nearest()))
    ctx.set_sampler_views(stage, 0, views)
    ctx.bind_sampler_states(stage, 0, samplers)


def _index_constant(ctx, stage, value, as_float=False):
    """CONST[0][0].x = ``value`` (a uint word for UARL, a float for ARL)."""
    data = np.zeros(4, np.float32 if as_float else np.uint32)
    data[0] = value
    ctx.set_constant_buffer(stage, 0, ConstantBuffer(user_buffer=data.view(np.uint32)))


SEPARATE = "".join(f"DCL SAMP[{k}]\nDCL SVIEW[{k}], 2D, FLOAT\n" for k in range(N))
RANGES = "DCL SAMP[0..3]\nDCL SVIEW[0..3], 2D, FLOAT\n"


def _fs(decls, body, arl="UARL"):
    return (
        f"FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\n{decls}"
        f"DCL CONST[0][0]\nDCL ADDR[0]\nDCL TEMP[0]\n"
        f"  0: {arl} ADDR[0].x, CONST[0][0].xxxx\n{body}"
    )


# (TGSI declarations, lookup, index base) -- the lookup reads IN[0] (s, t = 0.5, 0.5, lod 0).
FS_LOOKUPS = {
    "tex_separate": (SEPARATE, "  1: TEX OUT[0], IN[0], SAMP[ADDR[0].x], 2D\n  2: END\n", 0),
    "tex_range_plus_1": (RANGES, "  1: TEX OUT[0], IN[0], SAMP[ADDR[0].x+1], 2D\n  2: END\n", 1),
    "txl_range": (RANGES, "  1: TXL OUT[0], IN[0], SAMP[ADDR[0].x], 2D\n  2: END\n", 0),
    "txb_range": (RANGES, "  1: TXB OUT[0], IN[0], SAMP[ADDR[0].x], 2D\n  2: END\n", 0),
    "txf_range": (
        RANGES + "IMM[0] INT32 {0, 0, 0, 0}\n",
        "  1: TXF OUT[0], IMM[0], SAMP[ADDR[0].x], 2D\n  2: END\n",
        0,
    ),
    "sample_view_indexed": (RANGES, "  1: SAMPLE OUT[0], IN[0], SVIEW[ADDR[0].x], SAMP[0]\n  2: END\n", 0),
    "sample_i_view_indexed": (
        RANGES + "IMM[0] INT32 {0, 0, 0, 0}\n",
        "  1: SAMPLE_I OUT[0], IMM[0], SVIEW[ADDR[0].x]\n  2: END\n",
        0,
    ),
    "sample_both_indexed": (RANGES, "  1: SAMPLE OUT[0], IN[0], SVIEW[ADDR[0].x+2], SAMP[ADDR[0].x+2]\n  2: END\n", 2),
}

CENTRE = ((0.5, 0.5, 0.0, 0.0), (0.5, 0.5, 0.0, 0.0))


@pytest.mark.parametrize("case", sorted(FS_LOOKUPS))
def test_fs_lookup_selects_the_indexed_texture(ctx, case):
    """Each run-time index picks texture base + index: its colour, never texture 0's."""
    decls, body, base = FS_LOOKUPS[case]
    S = Sampling(ctx, 1, 1)
    _bind_textures(ctx, ShaderType.FRAGMENT)
    tokens = _fs(decls, body)
    for index in range(N - base):
        _index_constant(ctx, ShaderType.FRAGMENT, index)
        got = S.draw(tokens, *CENTRE)[0, 0]
        np.testing.assert_array_equal(got, COLORS[base + index], err_msg=f"{case}: ADDR = {index}")


def test_fs_arl_from_a_float_constant(ctx):
    """ARL floors a float constant (2.75 -> 2): texture 2."""
    S = Sampling(ctx, 1, 1)
    _bind_textures(ctx, ShaderType.FRAGMENT)
    _index_constant(ctx, ShaderType.FRAGMENT, 2.75, as_float=True)
    tokens = _fs(SEPARATE, "  1: TEX OUT[0], IN[0], SAMP[ADDR[0].x], 2D\n  2: END\n", arl="ARL")
    np.testing.assert_array_equal(S.draw(tokens, *CENTRE)[0, 0], COLORS[2])


def test_fs_size_query_of_the_indexed_view(ctx):
    """TXQ on SAMP[ADDR[0].x]: the width of the selected texture (k + 1)."""
    S = Sampling(ctx, 1, 1)
    _bind_textures(ctx, ShaderType.FRAGMENT)
    tokens = _fs(
        RANGES + "IMM[0] INT32 {0, 0, 0, 0}\n",
        "  1: TXQ TEMP[0].x, IMM[0].xxxx, SAMP[ADDR[0].x], 2D\n"
        "  2: I2F OUT[0].x, TEMP[0].xxxx\n  3: MOV OUT[0].yzw, IMM[0].xxxx\n  4: END\n",
    )
    for index in range(N):
        _index_constant(ctx, ShaderType.FRAGMENT, index)
        assert S.draw(tokens, *CENTRE)[0, 0, 0] == index + 1


def test_fs_out_of_range_index_reads_a_declared_texture(ctx):
    """GL leaves an out-of-range index undefined; it must not crash and must
    read one of the declared textures (glpipe clamps into the range)."""
    S = Sampling(ctx, 1, 1)
    _bind_textures(ctx, ShaderType.FRAGMENT)
    tokens = _fs(RANGES, "  1: TEX OUT[0], IN[0], SAMP[ADDR[0].x], 2D\n  2: END\n")
    for index in (7, 0xFFFFFFFF):  # past the end, and -1
        _index_constant(ctx, ShaderType.FRAGMENT, index)
        got = S.draw(tokens, *CENTRE)[0, 0]
        assert any(np.array_equal(got, c) for c in COLORS), got


def test_fs_direct_and_indexed_lookups_of_one_range(ctx):
    """A direct TEX on SAMP[3] and an indexed one in the same shader both read the right texture."""
    S = Sampling(ctx, 1, 1)
    _bind_textures(ctx, ShaderType.FRAGMENT)
    tokens = _fs(
        RANGES,
        "  1: TEX TEMP[0], IN[0], SAMP[3], 2D\n"
        "  2: TEX OUT[0], IN[0], SAMP[ADDR[0].x], 2D\n"
        "  3: ADD OUT[0], OUT[0], TEMP[0]\n  4: END\n",
    )
    for index in range(N):
        _index_constant(ctx, ShaderType.FRAGMENT, index)
        np.testing.assert_array_equal(S.draw(tokens, *CENTRE)[0, 0], COLORS[index] + COLORS[3])


VS_LOOKUP = """VERT
DCL IN[0]
DCL IN[1]
DCL OUT[0], POSITION
DCL OUT[1], GENERIC[0]
{decls}DCL CONST[0][0]
DCL ADDR[0]
  0: MOV OUT[0], IN[0]
  1: UARL ADDR[0].x, CONST[0][0].xxxx
  2: TXL OUT[1], IN[1], SAMP[ADDR[0].x{offset}], 2D
  3: END
"""


@pytest.mark.parametrize("decls,base", [(SEPARATE, 0), (RANGES, 1)], ids=["separate", "range_plus_1"])
def test_vs_lookup_selects_the_indexed_texture(ctx, decls, base):
    """The same in the vertex shader: the VS samples texture base + index
    (TXL at lod 0) and the FS writes the interpolated (constant) colour."""
    S = Sampling(ctx, 1, 1)
    _bind_textures(ctx, ShaderType.VERTEX)
    vs = ctx.create_vs_state(ShaderState(tokens=VS_LOOKUP.format(decls=decls, offset=f"+{base}" if base else "")))
    ctx.bind_vs_state(vs)
    for index in range(N - base):
        _index_constant(ctx, ShaderType.VERTEX, index)
        got = S.draw(COLOR_FS, *CENTRE)[0, 0]
        np.testing.assert_array_equal(got, COLORS[base + index], err_msg=f"ADDR = {index}")


def test_index_base_outside_the_declared_range_is_refused(ctx):
    """The constant part of the index must lie in a declared range: SAMP[ADDR[0].x+5]
    with SAMP[0..3] declared is refused at create, naming the line and the register."""
    tokens = _fs(RANGES, "  1: TEX OUT[0], IN[0], SAMP[ADDR[0].x+5], 2D\n  2: END\n")
    with pytest.raises(ShaderValidationError, match=r"SAMP\[ADDR\[0\]\.x\+5\]") as info:
        ctx.create_fs_state(ShaderState(tokens=tokens))
    assert "line" in str(info.value)


def test_fs_sampler_state_indexed_with_a_fixed_view(ctx):
    """SAMPLE with SVIEW[0] fixed and SAMP[ADDR[0].x] indexed: the sampler *state* of slot
    index is used -- each slot clamps to the border with its own border colour, so a
    lookup outside [0, 1] returns the border colour of the selected sampler."""
    from glpipe import TexWrap

    S = Sampling(ctx, 1, 1)
    res = make_texture(ctx.screen, Target.TEXTURE_2D, Format.R32G32B32A32_FLOAT, 1, 1)
    upload(ctx.screen, res, 0, COLORS[:1][None])
    ctx.set_sampler_views(ShaderType.FRAGMENT, 0, [view_2d(ctx, res)])
    borders = COLORS[::-1]
    ctx.bind_sampler_states(
        ShaderType.FRAGMENT,
        0,
        [
            ctx.create_sampler_state(
                nearest(
                    wrap_s=TexWrap.CLAMP_TO_BORDER,
                    wrap_t=TexWrap.CLAMP_TO_BORDER,
                    border_color=tuple(float(c) for c in b),
                )
            )
            for b in borders
        ],
    )
    tokens = _fs(
        "DCL SAMP[0..3]\nDCL SVIEW[0], 2D, FLOAT\n", "  1: SAMPLE OUT[0], IN[0], SVIEW[0], SAMP[ADDR[0].x]\n  2: END\n"
    )
    outside = ((-3.0, -3.0, 0.0, 0.0), (-3.0, -3.0, 0.0, 0.0))
    for index in range(N):
        _index_constant(ctx, ShaderType.FRAGMENT, index)
        np.testing.assert_array_equal(S.draw(tokens, *outside)[0, 0], borders[index], err_msg=f"ADDR = {index}")
    # inside the texture every sampler reads the one texel
    np.testing.assert_array_equal(S.draw(tokens, *CENTRE)[0, 0], COLORS[0])


def test_fs_one_range_indexed_by_two_address_registers(ctx):
    """The same range fetched with TXF through ADDR[1] (= index + 1) and sampled with
    TEX through ADDR[0] (= index) in one shader: each reads its own texture."""
    S = Sampling(ctx, 1, 1)
    _bind_textures(ctx, ShaderType.FRAGMENT)
    tokens = _fs(
        RANGES + "IMM[0] INT32 {0, 0, 0, 0}\nIMM[1] UINT32 {1, 0, 0, 0}\nDCL ADDR[1]\nDCL TEMP[1]\n",
        "  1: UADD TEMP[1].x, CONST[0][0].xxxx, IMM[1].xxxx\n"
        "  2: UARL ADDR[1].x, TEMP[1].xxxx\n"
        "  3: TXF TEMP[0], IMM[0], SAMP[ADDR[1].x], 2D\n"
        "  4: TEX OUT[0], IN[0], SAMP[ADDR[0].x], 2D\n"
        "  5: ADD OUT[0], OUT[0], TEMP[0]\n  6: END\n",
    )
    for index in range(N - 1):
        _index_constant(ctx, ShaderType.FRAGMENT, index)
        np.testing.assert_array_equal(S.draw(tokens, *CENTRE)[0, 0], COLORS[index] + COLORS[index + 1])


def test_fs_texel_fetch_without_sampler_state(ctx):
    """SAMPLE_I uses no sampler state (the reflection says sampler None): the context
    binds the view alone, directly and for an indexed view."""
    S = Sampling(ctx, 1, 1)
    _bind_textures(ctx, ShaderType.FRAGMENT)
    direct = _fs(RANGES + "IMM[0] INT32 {0, 0, 0, 0}\n", "  1: SAMPLE_I OUT[0], IMM[0], SVIEW[2]\n  2: END\n")
    np.testing.assert_array_equal(S.draw(direct, *CENTRE)[0, 0], COLORS[2])
