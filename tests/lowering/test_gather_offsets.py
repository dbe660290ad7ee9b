"""TG4 with four texel offsets (PIPE_CAP_TEXTURE_GATHER_OFFSETS).

A TG4 may carry up to four TEX_OFFSET operands (tgsi_instruction_texture
num_offsets); with four, texel k of the result is fetched as GLSL's
textureGatherOffsets defines it (GLSL 4.00 section 8.9.3): apply offsets[k]
to P, take that LINEAR footprint, and select its i0j0 texel.  For integer
offsets that is texel (floor(u - 0.5) + dx_k, floor(v - 0.5) + dy_k),
wrapped by the sampler's wrap modes -- the model the draws below are checked
against.

The first half pins parsing, validation and the emitted GLSL without a GL
context; the second draws through glpipe on both host profiles (gl33 has no
gpu_shader5: the cap says 0 there and the shader is refused).
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

from glpipe import (
    Cap,
    ConstantBuffer,
    Format,
    Func,
    SamplerViewTemplate,
    ShaderType,
    Target,
    TexCompare,
    TexWrap,
)
from glpipe.caps import EMULATED_GATHER_OFFSETS
from lowering import dump, parse, to_glsl, validate
from lowering.errors import ShaderValidationError, UnsupportedError
from lowering.ir import TexOffset

sys.path.append(str(Path(__file__).resolve().parents[1]))  # tests/: the context helpers live in a package there
from context.util_caps import gl_int
from context.util_sampling import (
    Sampling,
    bind_sampling,
    make_texture,
    nearest,
    upload,
    wrap_index,
)

GATHER_GLSL = 450

# --------------------------------------------------------------------------
# Parse, validate, emit (no GL)
# --------------------------------------------------------------------------

IMM_OFFSETS = "IMM[0].xyz, IMM[0].zwx, IMM[1].xyz, IMM[1].zwx"  # (1,-2) (3,5) (-4,0) (7,-8)


def tg4_fs(target: str = "2D", offsets: str = IMM_OFFSETS, comp: int = 2, sview: str | None = None) -> str:
    """A FS: OUT[0] = TG4 of IN[0] with ``offsets`` (component ``comp``)."""
    return (
        f"FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nDCL SAMP[0]\n"
        f"DCL SVIEW[0], {sview or target}, FLOAT\nDCL CONST[0][0..1]\n"
        f"IMM[0] INT32 {{1, -2, 3, 5}}\nIMM[1] INT32 {{-4, 0, 7, -8}}\nIMM[2] UINT32 {{{comp}, 0, 0, 0}}\n"
        f"  0: TG4 OUT[0], IN[0], IMM[2].xxxx, SAMP[0], {target}, {offsets}\n  1: END\n"
    )


def _main(source: str) -> str:
    return source[source.index("void main()") :]


def test_four_offsets_parse_and_dump_round_trip():
    shader = parse(tg4_fs())
    inst = shader.instructions[0]
    assert inst.tex_offsets == (
        TexOffset("IMM", 0, (0, 1, 2)),
        TexOffset("IMM", 0, (2, 3, 0)),
        TexOffset("IMM", 1, (0, 1, 2)),
        TexOffset("IMM", 1, (2, 3, 0)),
    )
    assert parse(dump(shader)) == shader
    validate(shader)


@pytest.mark.parametrize("opcode, count", [("TG4", 2), ("TG4", 3), ("TEX", 2), ("TXF", 4)])
def test_offset_counts_other_than_one_or_four_on_tg4_are_refused(opcode, count):
    srcs = "IN[0], IMM[2].xxxx, SAMP[0]" if opcode == "TG4" else "IN[0], SAMP[0]"
    offsets = ", ".join(["IMM[0].xyz"] * count)
    text = tg4_fs().replace(
        f"TG4 OUT[0], IN[0], IMM[2].xxxx, SAMP[0], 2D, {IMM_OFFSETS}", f"{opcode} OUT[0], {srcs}, 2D, {offsets}"
    )
    with pytest.raises(ShaderValidationError, match=f"{opcode} with {count} texture offsets"):
        validate(parse(text))


# (target, GLSL P, shadow reference argument)
EMIT_CASES = [
    ("2D", "glp_generic_0.xy", ""),
    ("2D_ARRAY", "glp_generic_0.xyz", ""),
    ("RECT", "glp_generic_0.xy", ""),
    ("SHADOW2D", "glp_generic_0.xy", "glp_generic_0.z, "),
    ("SHADOWRECT", "glp_generic_0.xy", "glp_generic_0.z, "),
    ("SHADOW2D_ARRAY", "glp_generic_0.xyz", "glp_generic_0.w, "),
]


@pytest.mark.parametrize("target, p, ref", EMIT_CASES)
def test_immediate_offsets_emit_texture_gather_offsets(target, p, ref):
    glsl = to_glsl(tg4_fs(target), GATHER_GLSL).source
    comp = "" if ref else ", 2"  # shadow gathers compare; they select no component
    array = "ivec2[4](ivec2(1, -2), ivec2(3, 5), ivec2(-4, 0), ivec2(7, -8))"
    assert f"textureGatherOffsets(glp_fs_samp0, {p}, {ref}{array}{comp})" in _main(glsl)


def test_run_time_offsets_take_texel_i0j0_of_four_gathers():
    """A non-immediate offset: texel k is textureGatherOffset(P, offsets[k]).w (its i0j0)."""
    glsl = to_glsl(tg4_fs(offsets=DYNAMIC_OFFSETS), GATHER_GLSL).source
    calls = [
        f"textureGatherOffset(glp_fs_samp0, glp_generic_0.xy, {o}, 2).w"
        for o in ("floatBitsToInt(cb0.c[0].xy)", "ivec2(3, 5)", "floatBitsToInt(cb0.c[1].zw)", "ivec2(7, -8)")
    ]
    assert f"vec4({', '.join(calls)})" in _main(glsl)
    assert "textureGatherOffsets" not in glsl


DYNAMIC_OFFSETS = "CONST[0][0].xyz, IMM[0].zwx, CONST[0][1].zwx, IMM[1].zwx"


@pytest.fixture(scope="module")
def host_compiler():
    # tests/lowering/glsl_compile.py: compiles on a private EGL context
    from glsl_compile import HostCompiler

    compiler = HostCompiler()
    yield compiler
    compiler.release()


@pytest.mark.parametrize("version, extensions", [(450, ()), (330, ("GL_ARB_gpu_shader5", "GL_ARB_texture_gather"))])
@pytest.mark.parametrize("offsets", [IMM_OFFSETS, DYNAMIC_OFFSETS], ids=["immediate", "run-time"])
@pytest.mark.parametrize("target", [case[0] for case in EMIT_CASES])
def test_emitted_glsl_compiles_on_the_host(host_compiler, target, offsets, version, extensions):
    source = to_glsl(tg4_fs(target, offsets), version, extensions=set(extensions)).source
    assert host_compiler.compile(source, host_compiler.GL.GL_FRAGMENT_SHADER) is None, source


def test_four_offsets_need_gpu_shader5():
    """GLSL 330 without extensions gathers with four texel fetches (texture_emul.gather);
    with GL_ARB_gpu_shader5 and GL_ARB_texture_gather it enables both and uses the built-in;
    with GL_ARB_texture_gather alone the four offsets are emulated."""
    plain = to_glsl(tg4_fs(), 330).source
    assert "textureGather" not in plain and "#extension" not in plain and "glp_gather_" in plain
    only = to_glsl(tg4_fs(), 330, extensions={"GL_ARB_texture_gather"}).source
    assert "textureGather" not in only and "#extension" not in only
    glsl = to_glsl(tg4_fs(), 330, extensions={"GL_ARB_gpu_shader5", "GL_ARB_texture_gather"}).source
    assert "#extension GL_ARB_gpu_shader5 : require" in glsl
    assert "#extension GL_ARB_texture_gather : require" in glsl


def test_four_offsets_on_a_cube_are_refused():
    with pytest.raises(UnsupportedError, match="texel offsets on target CUBE"):
        to_glsl(tg4_fs("CUBE"), GATHER_GLSL)


# --------------------------------------------------------------------------
# Draws through glpipe: expected texels from the definition, in numpy
# --------------------------------------------------------------------------

SIZE = 8  # texture is SIZE x SIZE; the target is 4 x 4
PIXELS = 4


def _texels(layers: int = 1) -> np.ndarray:
    """Distinct RGBA32F texels: R = x, G = y, B = 10 x + y, A = 100 * layer."""
    y, x = np.mgrid[0:SIZE, 0:SIZE].astype(np.float32)
    return np.stack([np.stack([x, y, 10 * x + y, np.full_like(x, 100 * layer)], -1) for layer in range(layers)])


def _expected(texels: np.ndarray, offsets, wrap: TexWrap) -> np.ndarray:
    """(PIXELS, PIXELS, 4): texel k of pixel (x, y) is the i0j0 texel of the
    footprint at P + offsets[k].  The draw puts P at u = SIZE (x + 0.5) /
    PIXELS texels, so floor(u - 0.5) = 2 x exactly (likewise v)."""
    out = np.zeros((PIXELS, PIXELS, 4), np.float32)
    for y in range(PIXELS):
        for x in range(PIXELS):
            for k, (dx, dy) in enumerate(offsets):
                i = wrap_index(2 * x + dx, SIZE, wrap, linear=True)
                j = wrap_index(2 * y + dy, SIZE, wrap, linear=True)
                out[y, x, k] = texels[j, i]
    return out


def _offset_limits(screen):
    """(MIN, MAX)_TEXTURE_GATHER_OFFSET as the caps answer them, checked against raw GL."""
    lo, hi = screen.get_param(Cap.MIN_TEXTURE_GATHER_OFFSET), screen.get_param(Cap.MAX_TEXTURE_GATHER_OFFSET)
    assert (lo, hi) == (
        gl_int(screen, "GL_MIN_PROGRAM_TEXTURE_GATHER_OFFSET"),
        gl_int(screen, "GL_MAX_PROGRAM_TEXTURE_GATHER_OFFSET"),
    )
    return lo, hi


def _offsets_fs(target: str, imm: str, offsets: str, comp: int = 0) -> str:
    return (
        f"FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nDCL SAMP[0]\n"
        f"DCL SVIEW[0], {target.replace('SHADOW', '')}, FLOAT\nDCL CONST[0][0..1]\n{imm}"
        f"IMM[2] UINT32 {{{comp}, 0, 0, 0}}\n"
        f"  0: TG4 OUT[0], IN[0], IMM[2].xxxx, SAMP[0], {target}, {offsets}\n  1: END\n"
    )


def _refused_on_this_host(screen, ctx, fs) -> bool:
    """Where the host lacks gpu_shader5 the cap says 0; on gl33 (no textureGather at
    all) the four offsets still run, as texel fetches (texture_emul.gather), and the
    test checks them like native's; a host with textureGather but not gpu_shader5
    refuses them."""
    if screen.profile.has("gpu_shader5") or not screen.profile.has("texture_gather"):
        assert screen.get_param(Cap.TEXTURE_GATHER_OFFSETS) == 1
        return False
    assert screen.get_param(Cap.TEXTURE_GATHER_OFFSETS) == 0
    assert screen.get_param(Cap.MIN_TEXTURE_GATHER_OFFSET) == screen.get_param(Cap.MAX_TEXTURE_GATHER_OFFSET) == 0
    S = Sampling(ctx, PIXELS, PIXELS)
    with pytest.raises(UnsupportedError, match="TG4 with four offsets"):
        S.draw(fs, (0, 0, 0, 0), (1, 1, 0, 0))
    return True


@pytest.mark.parametrize("wrap", [TexWrap.REPEAT, TexWrap.CLAMP_TO_EDGE, TexWrap.MIRROR_REPEAT])
def test_gather_offsets_2d(screen, ctx, wrap):
    """2D, component B: immediate offsets (two at the cap limits) and the same
    offsets read at run time from a constant buffer give the model's texels."""

    def imm_fs(lo, hi):
        return _offsets_fs(
            "2D",
            f"IMM[0] INT32 {{{lo}, 3, -5, {hi}}}\nIMM[1] INT32 {{6, 1, -1, -7}}\n",
            "IMM[0].xyz, IMM[0].zwx, IMM[1].xyz, IMM[1].zwx",
            comp=2,
        )

    if _refused_on_this_host(screen, ctx, imm_fs(0, 0)):
        return
    # gl33: the lookups take any offset; the caps offer llvmpipe's range (EMULATED_GATHER_OFFSETS)
    if screen.profile.has("texture_gather"):
        lo, hi = _offset_limits(screen)
    else:
        lo, hi = screen.get_param(Cap.MIN_TEXTURE_GATHER_OFFSET), screen.get_param(Cap.MAX_TEXTURE_GATHER_OFFSET)
        assert (lo, hi) == EMULATED_GATHER_OFFSETS
    offsets = [(lo, 3), (-5, hi), (6, 1), (-1, -7)]
    tex = make_texture(screen, Target.TEXTURE_2D, Format.R32G32B32A32_FLOAT, SIZE, SIZE)
    texels = _texels()[0]
    upload(screen, tex, 0, texels)
    view = ctx.create_sampler_view(tex, SamplerViewTemplate(format=tex.format, target=Target.TEXTURE_2D))
    bind_sampling(ctx, view, ctx.create_sampler_state(nearest(wrap_s=wrap, wrap_t=wrap)))
    expected = _expected(texels[..., 2], offsets, wrap)
    S = Sampling(ctx, PIXELS, PIXELS)
    np.testing.assert_array_equal(S.draw(imm_fs(lo, hi), (0, 0, 0, 0), (1, 1, 0, 0)), expected)

    run_time = np.array(offsets, np.int32).reshape(2, 4)  # CONST[0][0] = (o0, o1), CONST[0][1] = (o2, o3)
    ctx.set_constant_buffer(ShaderType.FRAGMENT, 0, ConstantBuffer(user_buffer=run_time))
    dyn_fs = _offsets_fs(
        "2D",
        "IMM[0] INT32 {1, 1, 1, 1}\nIMM[1] INT32 {1, 1, 1, 1}\n",
        "CONST[0][0].xyz, CONST[0][0].zwx, CONST[0][1].xyz, CONST[0][1].zwx",
        comp=2,
    )
    np.testing.assert_array_equal(S.draw(dyn_fs, (0, 0, 0, 0), (1, 1, 0, 0)), expected)


def test_gather_offsets_2d_array_and_rect(screen, ctx):
    """2D_ARRAY (layer 1 of 3, component A then R) and RECT (unnormalized
    coordinates, clamp to edge): texels from the model."""
    fs = _offsets_fs(
        "2D_ARRAY",
        "IMM[0] INT32 {-2, 1, 4, -3}\nIMM[1] INT32 {0, 6, 3, 3}\n",
        "IMM[0].xyz, IMM[0].zwx, IMM[1].xyz, IMM[1].zwx",
        comp=0,
    )
    if _refused_on_this_host(screen, ctx, fs):
        return
    offsets = [(-2, 1), (4, -3), (0, 6), (3, 3)]
    arr = make_texture(screen, Target.TEXTURE_2D_ARRAY, Format.R32G32B32A32_FLOAT, SIZE, SIZE, array_size=3)
    texels = _texels(3)
    texels[..., 0] += texels[..., 3]  # R = x + 100 * layer: shows which layer was read
    upload(screen, arr, 0, texels)
    view = ctx.create_sampler_view(
        arr, SamplerViewTemplate(format=arr.format, target=Target.TEXTURE_2D_ARRAY, last_layer=2)
    )
    bind_sampling(ctx, view, ctx.create_sampler_state(nearest()))
    S = Sampling(ctx, PIXELS, PIXELS)
    got = S.draw(fs, (0, 0, 1, 0), (1, 1, 1, 0))  # .z = layer 1 everywhere
    np.testing.assert_array_equal(got, _expected(texels[1][..., 0], offsets, TexWrap.REPEAT))

    rect = make_texture(screen, Target.TEXTURE_RECT, Format.R32G32B32A32_FLOAT, SIZE, SIZE)
    upload(screen, rect, 0, _texels()[0])
    view = ctx.create_sampler_view(rect, SamplerViewTemplate(format=rect.format, target=Target.TEXTURE_RECT))
    clamp = TexWrap.CLAMP_TO_EDGE
    bind_sampling(ctx, view, ctx.create_sampler_state(nearest(wrap_s=clamp, wrap_t=clamp, unnormalized_coords=True)))
    rect_fs = fs.replace("2D_ARRAY", "RECT").replace("IMM[2] UINT32 {0,", "IMM[2] UINT32 {1,")
    got = S.draw(rect_fs, (0, 0, 0, 0), (SIZE, SIZE, 0, 0))  # texel units
    np.testing.assert_array_equal(got, _expected(_texels()[0][..., 1], offsets, clamp))


def test_gather_offsets_shadow2d(screen, ctx):
    """SHADOW2D: each gathered texel is compared (LEQUAL: ref <= depth) with
    the reference in src0.z; texels from the model, compared in numpy."""
    fs = _offsets_fs(
        "SHADOW2D",
        "IMM[0] INT32 {-1, -1, 2, 0}\nIMM[1] INT32 {0, 3, 5, -4}\n",
        "IMM[0].xyz, IMM[0].zwx, IMM[1].xyz, IMM[1].zwx",
    )
    if _refused_on_this_host(screen, ctx, fs):
        return
    offsets = [(-1, -1), (2, 0), (0, 3), (5, -4)]
    y, x = np.mgrid[0:SIZE, 0:SIZE]
    depth = ((x * 7 + y * 3) % 16 / 16.0 + 1 / 32).astype(np.float32)  # exact in float, never equal to ref
    tex = make_texture(screen, Target.TEXTURE_2D, Format.Z32_FLOAT, SIZE, SIZE)
    upload(screen, tex, 0, depth[..., None], gl_format="GL_DEPTH_COMPONENT")
    view = ctx.create_sampler_view(tex, SamplerViewTemplate(format=tex.format, target=Target.TEXTURE_2D))
    bind_sampling(
        ctx, view, ctx.create_sampler_state(nearest(compare_mode=TexCompare.R_TO_TEXTURE, compare_func=Func.LEQUAL))
    )
    ref = 0.5
    got = Sampling(ctx, PIXELS, PIXELS).draw(fs, (0, 0, ref, 0), (1, 1, ref, 0))
    expected = (ref <= _expected(depth, offsets, TexWrap.REPEAT)).astype(np.float32)
    assert 0 < expected.sum() < expected.size  # both outcomes occur
    np.testing.assert_array_equal(got, expected)
