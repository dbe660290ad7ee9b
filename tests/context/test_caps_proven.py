"""Shader caps proven by draws, on both profiles (docs/caps.md "Proof table").

Every cap the ``shaders`` row turns on and no other test exercises is
proven here by running what it promises in a real draw: values computed by
hand (or in numpy) from the TGSI / GLSL definitions, never from what glpipe
printed.  Where a cap is 0 on a profile, the test checks that the feature
is refused there with UnsupportedError, so the 0 is true as well.

Caps answered by a limit are exercised *at* the limit (the last slot, the
last vec4, every varying), with the limit itself checked against the host
GL read directly.
"""

from __future__ import annotations

import numpy as np
import pytest

from glpipe import (
    Bind,
    Cap,
    ConstantBuffer,
    DrawInfo,
    Format,
    Prim,
    ResourceTemplate,
    ShaderCap,
    ShaderIR,
    ShaderState,
    ShaderType,
    Target,
    VertexBuffer,
)
from lowering.errors import InvalidArgumentError, UnsupportedError

from .util_caps import (
    FULL_TRI,
    bind_chain,
    chain_stages,
    counted_loop,
    draw,
    gl_int,
    io_expected,
    io_fs,
    io_gs,
    io_tcs,
    io_tes,
    io_vs,
    number,
    stage_chain,
)
from .util_sampling import (
    bind_sampling,
    make_texture,
    nearest,
    upload,
    view_2d,
)

UINT = Format.R32G32B32A32_UINT

# ShaderType of each stage_chain stage, and the GL name infix of its limits.
STAGE = {
    "VS": ShaderType.VERTEX,
    "TCS": ShaderType.TESS_CTRL,
    "TES": ShaderType.TESS_EVAL,
    "GS": ShaderType.GEOMETRY,
    "FS": ShaderType.FRAGMENT,
}
GL_STAGE = {"VS": "VERTEX", "TCS": "TESS_CONTROL", "TES": "TESS_EVALUATION", "GS": "GEOMETRY", "FS": "FRAGMENT"}


def native(screen) -> bool:
    return screen.profile.name == "native"


def f32(x) -> np.ndarray:
    return np.asarray(x, np.float32)


# ---------------------------------------------------------------------------
# GLSL feature level
# ---------------------------------------------------------------------------


def test_glsl_feature_level(screen):
    """330 on gl33 (its GLSL); on native the host's GLSL (4.50 on llvmpipe):
    images and atomic counters (4.20), compute and shader buffers (4.30) and
    stream output (4.40) are delivered.  Each version's features are proven
    by the tests docs/caps.md "GLSL feature level" lists.  Legacy I/O works:
    the compatibility level is the same."""
    gl = screen.host.gl
    host = gl.glGetString(gl.GL_SHADING_LANGUAGE_VERSION)
    host = host.decode() if isinstance(host, bytes) else str(host)
    major, minor = host.split()[0].split(".")[:2]
    host_level = int(major) * 100 + int(minor[:2])
    want = min(host_level, 450) if native(screen) else 330
    assert screen.get_param(Cap.GLSL_FEATURE_LEVEL) == want
    # Legacy I/O works (tests/context/test_legacy_io.py): the same level.
    assert screen.get_param(Cap.GLSL_FEATURE_LEVEL_COMPATIBILITY) == want
    assert screen.get_param(Cap.ESSL_FEATURE_LEVEL) == 0


def test_only_tgsi_is_accepted(screen, ctx):
    """SUPPORTED_IRS = 1 << TGSI on every stage that runs; other IRs are refused."""
    for stage in STAGE.values():
        irs = screen.get_shader_param(stage, ShaderCap.SUPPORTED_IRS)
        assert irs in (0, 1 << ShaderIR.TGSI)
        assert (irs != 0) == (screen.get_shader_param(stage, ShaderCap.MAX_INSTRUCTIONS) > 0)
    with pytest.raises(InvalidArgumentError, match="TGSI only"):
        ctx.create_fs_state(ShaderState(type=ShaderIR.NIR, tokens="FRAG\n  0: END\n"))


# ---------------------------------------------------------------------------
# ALU, flow control, addressing
# ---------------------------------------------------------------------------

ALU_FS = """FRAG
DCL OUT[0], COLOR
DCL TEMP[0]
IMM[0] FLT32 {1.0, 3.0, 16.0, 2.0}
  0: DIV TEMP[0].x, IMM[0].xxxx, IMM[0].yyyy
  1: SQRT TEMP[0].y, IMM[0].zzzz
  2: SQRT TEMP[0].z, IMM[0].wwww
  3: MOV TEMP[0].w, IMM[0].xxxx
  4: MOV OUT[0], TEMP[0]
  5: END
"""

SAT_VS = """VERT
DCL IN[0]
DCL OUT[0], POSITION
DCL OUT[1], GENERIC[0]
IMM[0] FLT32 {2.0, -1.0, 0.5, 1.0}
  0: MOV OUT[0], IN[0]
  1: MOV_SAT OUT[1], IMM[0]
  2: END
"""

FLAT_FS = """FRAG
DCL IN[0], GENERIC[0], CONSTANT
DCL OUT[0], COLOR
  0: MOV OUT[0], IN[0]
  1: END
"""


def test_div_sqrt_and_vertex_saturate(screen, ctx):
    """TGSI_DIV, TGSI_SQRT_SUPPORTED: 1/3, sqrt(16), sqrt(2) as float32
    computes them; VERTEX_SHADER_SATURATE: _SAT in a VS clamps to [0, 1]."""
    assert screen.get_param(Cap.TGSI_DIV) == 1 == screen.get_param(Cap.VERTEX_SHADER_SATURATE)
    assert screen.get_shader_param(ShaderType.FRAGMENT, ShaderCap.TGSI_SQRT_SUPPORTED) == 1
    got = draw(ctx, ALU_FS)[0, 0]
    np.testing.assert_allclose(got, [1 / 3, 4.0, np.sqrt(2.0), 1.0], rtol=3e-7)
    assert list(draw(ctx, FLAT_FS, vs=SAT_VS)[0, 0]) == [1.0, 0.0, 0.5, 1.0]


INT_FS = """FRAG
DCL OUT[0], COLOR
DCL TEMP[0]
IMM[0] INT32 {-7, 2, 100000, 3}
IMM[1] UINT32 {4294967295, 16, 7, 5}
  0: IDIV TEMP[0].x, IMM[0].xxxx, IMM[0].yyyy
  1: UMUL TEMP[0].y, IMM[1].xxxx, IMM[1].yyyy
  2: UMOD TEMP[0].z, IMM[0].zzzz, IMM[1].zzzz
  3: ISHR TEMP[0].w, IMM[0].xxxx, IMM[0].yyyy
  4: MOV OUT[0], TEMP[0]
  5: END
"""


def test_integer_opcodes(screen, ctx):
    """INTEGERS: signed division truncates (-7 / 2 = -3), 0xffffffff * 16
    wraps to 0xfffffff0, 100000 mod 7 = 5, -7 >> 2 (arithmetic) = -2."""
    assert screen.get_shader_param(ShaderType.FRAGMENT, ShaderCap.INTEGERS) == 1
    got = draw(ctx, INT_FS, fmt=UINT)[0, 0]
    assert [int(v) for v in got] == [(-3) & 0xFFFFFFFF, (0xFFFFFFFF * 16) & 0xFFFFFFFF, 100000 % 7, (-2) & 0xFFFFFFFF]


SUB_FS = (
    "FRAG\nDCL OUT[0], COLOR\nDCL TEMP[0..2]\nIMM[0] FLT32 {1.0, 2.0, 100.0, 0.5}\n"
    "IMM[1] INT32 {0, 6, 1, 3}\n"
    + number(
        [
            # main: t0 = 0; t0 = sub(t0) twice; for i in 0..5: if i == 3 continue; t1 += i
            "MOV TEMP[0], IMM[0].wwww",
            "CAL :30",
            "CAL :30",
            "MOV TEMP[1], IMM[1].xxxx",
            "MOV TEMP[2].x, IMM[1].xxxx",
            "BGNLOOP",
            "ISGE TEMP[2].y, TEMP[2].xxxx, IMM[1].yyyy",
            "UIF TEMP[2].yyyy",
            "BRK",
            "ENDIF",
            "USEQ TEMP[2].z, TEMP[2].xxxx, IMM[1].wwww",
            "UADD TEMP[2].x, TEMP[2].xxxx, IMM[1].zzzz",
            "UIF TEMP[2].zzzz",
            "CONT",
            "ENDIF",
            "UADD TEMP[1].x, TEMP[1].xxxx, TEMP[2].xxxx",
            "ENDLOOP",
            "I2F TEMP[0].y, TEMP[1].xxxx",
            "MOV OUT[0], TEMP[0]",
            # RET in the main block: what follows never runs
            "RET",
            "MOV OUT[0], IMM[0].zzzz",
            "NOP",
            "NOP",
            "NOP",
            "NOP",
            "NOP",
            "NOP",
            "NOP",
            "NOP",
            "END",
            # 30: sub: t0 = t0 * 2 + 1, early RET when t0 > 2 (skips the + 100)
            "BGNSUB",
            "MAD TEMP[0].x, TEMP[0].xxxx, IMM[0].yyyy, IMM[0].xxxx",
            "FSLT TEMP[2].w, IMM[0].yyyy, TEMP[0].xxxx",
            "UIF TEMP[2].wwww",
            "RET",
            "ENDIF",
            "ADD TEMP[0].x, TEMP[0].xxxx, IMM[0].zzzz",
            "ENDSUB",
            "END",
        ]
    )
)


def test_subroutines_and_cont(screen, ctx):
    """SUBROUTINES (BGNSUB / ENDSUB / CAL / RET, RET in the main block) and
    CONT_SUPPORTED.  By hand: 0.5 -> 0.5*2+1 = 2 (not > 2: + 100 = 102) ->
    102*2+1 = 205 (> 2: early RET); the loop sums i+1 over i in 0..5 except
    the i == 3 iteration it continues past: 1+2+3+5+6 = 17."""
    for stage in (ShaderType.VERTEX, ShaderType.FRAGMENT):
        assert screen.get_shader_param(stage, ShaderCap.SUBROUTINES) == 1
        assert screen.get_shader_param(stage, ShaderCap.CONT_SUPPORTED) == 1
    got = draw(ctx, SUB_FS)[0, 0]
    assert list(got) == [205.0, 17.0, 0.5, 0.5]


ADDR_FS = """FRAG
DCL OUT[0], COLOR
DCL CONST[0][0..3]
DCL TEMP[0..4], ARRAY(1)
DCL TEMP[5..6]
IMM[0] INT32 {2, 1, 3, 0}
IMM[1] FLT32 {10.0, 20.0, 30.0, 40.0}
  0: MOV TEMP[5].x, IMM[0].xxxx
  1: MOV TEMP[6], CONST[0][TEMP[5].x+1]
  2: MOV TEMP[0], IMM[1].xxxx
  3: MOV TEMP[1], IMM[1].yyyy
  4: MOV TEMP[2], IMM[1].zzzz
  5: MOV TEMP[3], IMM[1].wwww
  6: ADD TEMP[6].y, TEMP[6].yyyy, TEMP[TEMP[5].x].xxxx
  7: MOV OUT[0], TEMP[6]
  8: END
"""


def test_any_register_as_address(screen, ctx):
    """TGSI_ANY_REG_AS_ADDRESS, INDIRECT_CONST_ADDR, INDIRECT_TEMP_ADDR: a
    TEMP (no ADDR register) indexes the constant file (CONST[0][2 + 1] = the
    4th vec4, 12..15) and a TEMP array (TEMP[2] = 30)."""
    assert screen.get_param(Cap.TGSI_ANY_REG_AS_ADDRESS) == 1
    for cap in (ShaderCap.INDIRECT_CONST_ADDR, ShaderCap.INDIRECT_TEMP_ADDR):
        assert screen.get_shader_param(ShaderType.FRAGMENT, cap) == 1
    cb = np.arange(16, dtype=np.float32)
    got = draw(
        ctx, ADDR_FS, before=lambda c: c.set_constant_buffer(ShaderType.FRAGMENT, 0, ConstantBuffer(user_buffer=cb))
    )[0, 0]
    assert list(got) == [12.0, 13.0 + 30.0, 14.0, 15.0]


def _big_fs(temps: int, depth: int, texs: int) -> str:
    """A FS with ``temps`` TEMPs all live at once, IFs nested ``depth`` deep
    and ``texs`` dependent texture fetches (each coordinate from the last
    result): sum_t t = temps (temps - 1) / 2 in .x, depth in .y, the chained
    fetch result (0.25) in .z."""
    head = [
        "FRAG",
        "DCL OUT[0], COLOR",
        "DCL SAMP[0]",
        "DCL SVIEW[0], 2D, FLOAT",
        f"DCL TEMP[0..{temps + 1}]",
        "IMM[0] FLT32 {1.0, 0.0, 0.5, 0.25}",
    ]
    code = ["MOV TEMP[0], IMM[0].yyyy"]
    for t in range(1, temps):  # TEMP[t] = t, kept live until summed below
        code.append(f"ADD TEMP[{t}], TEMP[{t - 1}], IMM[0].xxxx")
    acc = temps
    code.append(f"MOV TEMP[{acc}], IMM[0].yyyy")
    for t in range(1, temps):
        code.append(f"ADD TEMP[{acc}].x, TEMP[{acc}].xxxx, TEMP[{t}].xxxx")
    for _ in range(depth):
        code += ["IF IMM[0].xxxx", f"ADD TEMP[{acc}].y, TEMP[{acc}].yyyy, IMM[0].xxxx"]
    code += ["NOP"] + ["ENDIF"] * depth
    code.append(f"MOV TEMP[{acc + 1}], IMM[0].zzzz")
    for _ in range(texs):
        code.append(f"TEX TEMP[{acc + 1}], TEMP[{acc + 1}], SAMP[0], 2D")
    code += [
        f"MOV TEMP[{acc}].z, TEMP[{acc + 1}].xxxx",
        f"MOV TEMP[{acc}].w, IMM[0].xxxx",
        f"MOV OUT[0], TEMP[{acc}]",
        "END",
    ]
    return "\n".join(head) + "\n" + number(code)


def test_shader_at_the_size_limits(screen, ctx):
    """MAX_INSTRUCTIONS (= _ALU_ / _TEX_INSTRUCTIONS, MAX_TEX_INDIRECTIONS),
    MAX_CONTROL_FLOW_DEPTH and MAX_TEMPS are the sizes the host compiles in
    bounded time (lowering/limits.py, docs/caps.md "Shader size limits"), and a
    shader at them runs: IFs nested MAX_CONTROL_FLOW_DEPTH deep, 64 dependent
    fetches and as many TEMPs live at once as fill MAX_INSTRUCTIONS.  The
    texture's texel is (0.25, 0.25, ...), so every fetch after the first reads
    at (0.25, 0.25): the chain ends at 0.25.  (tests/lowering/test_robust_limits.py
    has the refusals one past each limit.)"""
    instructions = screen.get_shader_param(ShaderType.FRAGMENT, ShaderCap.MAX_INSTRUCTIONS)
    for cap in (ShaderCap.MAX_ALU_INSTRUCTIONS, ShaderCap.MAX_TEX_INSTRUCTIONS, ShaderCap.MAX_TEX_INDIRECTIONS):
        assert screen.get_shader_param(ShaderType.FRAGMENT, cap) == instructions
    depth = screen.get_shader_param(ShaderType.FRAGMENT, ShaderCap.MAX_CONTROL_FLOW_DEPTH)
    texs = 64
    # _big_fs has 2 temps + 3 depth + texs + 6 instructions (END included).
    temps = (instructions - 3 * depth - texs - 6) // 2
    assert temps + 2 <= screen.get_shader_param(ShaderType.FRAGMENT, ShaderCap.MAX_TEMPS)
    assert 2 * temps + 3 * depth + texs + 6 <= instructions
    tex = make_texture(screen, Target.TEXTURE_2D, Format.R32G32B32A32_FLOAT, 2, 2)
    upload(screen, tex, 0, np.full((2, 2, 4), 0.25, np.float32))
    got = draw(
        ctx,
        _big_fs(temps, depth, texs),
        before=lambda c: bind_sampling(c, view_2d(c, tex), c.create_sampler_state(nearest())),
    )[0, 0]
    assert list(got) == [temps * (temps - 1) / 2, float(depth), 0.25, 1.0]


# ---------------------------------------------------------------------------
# I/O limits per stage
# ---------------------------------------------------------------------------


def test_inputs_and_outputs_at_the_limit_in_every_stage(screen, ctx):
    """MAX_INPUTS / MAX_OUTPUTS of VS, TCS, TES, GS (and FS inputs) =
    GL_MAX_<STAGE>_{INPUT,OUTPUT}_COMPONENTS / 4: POSITION plus limit - 1
    GENERICs pass through every stage the profile has, each stage copying
    them in a loop through IN[ADDR + 1] / OUT[ADDR + 1] (INDIRECT_INPUT_ADDR,
    INDIRECT_OUTPUT_ADDR, declaration ranges: TGSI_ANY_INOUT_DECL_RANGE)."""
    stages = chain_stages(screen)
    limits = [gl_int(screen, "GL_MAX_VERTEX_OUTPUT_COMPONENTS") // 4]
    for s in stages[1:-1]:
        st = STAGE[s]
        want_in = gl_int(screen, f"GL_MAX_{GL_STAGE[s]}_INPUT_COMPONENTS") // 4
        want_out = gl_int(screen, f"GL_MAX_{GL_STAGE[s]}_OUTPUT_COMPONENTS") // 4
        assert screen.get_shader_param(st, ShaderCap.MAX_INPUTS) == min(want_in, 32)
        assert screen.get_shader_param(st, ShaderCap.MAX_OUTPUTS) == min(want_out, 32)
        for cap in (ShaderCap.INDIRECT_INPUT_ADDR, ShaderCap.INDIRECT_OUTPUT_ADDR, ShaderCap.TGSI_ANY_INOUT_DECL_RANGE):
            assert screen.get_shader_param(st, cap) == 1
        limits += [min(want_in, 32), min(want_out, 32)]
    assert screen.get_shader_param(ShaderType.VERTEX, ShaderCap.MAX_OUTPUTS) == min(limits[0], 32)
    assert screen.get_shader_param(ShaderType.FRAGMENT, ShaderCap.INDIRECT_INPUT_ADDR) == 1
    n = min(limits) - 1  # GENERICs besides POSITION
    assert n == 31  # llvmpipe: 128 components everywhere (and GL 3.3's minimum for the VS is 64)

    def before(c):
        if "GS" in stages:
            c.bind_gs_state(c.create_gs_state(ShaderState(tokens=io_gs(n))))
        if "TCS" in stages:
            c.bind_tcs_state(c.create_tcs_state(ShaderState(tokens=io_tcs(n))))
            c.bind_tes_state(c.create_tes_state(ShaderState(tokens=io_tes(n))))
            c.set_patch_vertices(3)

    mode = Prim.PATCHES if "TCS" in stages else Prim.TRIANGLES
    got = draw(ctx, io_fs(n), vs=io_vs(n), mode=mode, before=before)[0, 0]
    np.testing.assert_array_equal(got, io_expected(n))


def test_varyings_at_the_limit(screen, ctx):
    """MAX_VARYINGS = FS MAX_INPUTS = GL_MAX_FRAGMENT_INPUT_COMPONENTS / 4:
    that many GENERICs from the VS reach the FS, each intact."""
    n = screen.get_param(Cap.MAX_VARYINGS)
    assert (
        n
        == gl_int(screen, "GL_MAX_FRAGMENT_INPUT_COMPONENTS") // 4
        == screen.get_shader_param(ShaderType.FRAGMENT, ShaderCap.MAX_INPUTS)
    )
    np.testing.assert_array_equal(draw(ctx, io_fs(n), vs=io_vs(n))[0, 0], io_expected(n))


# ---------------------------------------------------------------------------
# Constant buffers and sampler slots of every stage
# ---------------------------------------------------------------------------


def _fill_buffer(screen, res, offset, data) -> None:
    gl = screen.host.gl
    data = np.ascontiguousarray(data)
    gl.glBindBuffer(gl.GL_COPY_WRITE_BUFFER, res.gl_object)
    gl.glBufferSubData(gl.GL_COPY_WRITE_BUFFER, offset, data.nbytes, data)
    gl.glBindBuffer(gl.GL_COPY_WRITE_BUFFER, 0)


def test_constant_buffers_at_the_limits_in_every_stage(screen, ctx):
    """MAX_CONST_BUFFERS, MAX_CONST_BUFFER0_SIZE (and the screen's
    MAX_CONSTANT_BUFFER_SIZE_UINT): every stage declares all its constant
    buffers at once (with glpipe's sysvals block beside them) and reads the
    *last* vec4 of a buffer of exactly the size limit in slot 0.  Stage j's
    buffer k holds (k + 1) * 4^j, its big buffer's last vec4 4^j * 1000, so
    a slot bound to the wrong stage or binding changes the sum.  The slot
    past the limit, and a buffer declared one vec4 past the size, are refused."""
    stages = chain_stages(screen)
    size = screen.get_param(Cap.MAX_CONSTANT_BUFFER_SIZE_UINT)
    assert size == gl_int(screen, "GL_MAX_UNIFORM_BLOCK_SIZE")
    extra, expected = {}, 0.0
    for j, s in enumerate(stages):
        st = STAGE[s]
        n = screen.get_shader_param(st, ShaderCap.MAX_CONST_BUFFERS)
        assert n == min(gl_int(screen, f"GL_MAX_{GL_STAGE[s]}_UNIFORM_BLOCKS") - 1, 16)
        assert screen.get_shader_param(st, ShaderCap.MAX_CONST_BUFFER0_SIZE) == size
        big = screen.resource_create(
            ResourceTemplate(target=Target.BUFFER, format=Format.R8_UNORM, width0=size, bind=Bind.CONSTANT_BUFFER)
        )
        _fill_buffer(screen, big, size - 16, np.full(4, 1000.0 * 4**j, np.float32))
        ctx.set_constant_buffer(st, 0, ConstantBuffer(buffer=big, buffer_size=size))
        for k in range(1, n):
            ctx.set_constant_buffer(st, k, ConstantBuffer(user_buffer=np.full(4, (k + 1) * 4.0**j, np.float32)))
        with pytest.raises((InvalidArgumentError, UnsupportedError)):
            ctx.set_constant_buffer(st, n, ConstantBuffer(user_buffer=np.zeros(4, np.float32)))
        decls = [f"DCL CONST[0][0..{size // 16 - 1}]"] + [f"DCL CONST[{k}][0]" for k in range(1, n)]
        code = [f"MOV TEMP[5], CONST[0][{size // 16 - 1}]"] + [
            f"ADD TEMP[5], TEMP[5], CONST[{k}][0]" for k in range(1, n)
        ]
        extra[s] = (decls, (), code)
        expected += 4.0**j * (1000 + sum(k + 1 for k in range(1, n)))
    bind_chain(ctx, stage_chain(stages, extra))
    mode = Prim.PATCHES if "TCS" in stages else Prim.TRIANGLES
    got = draw_bound(ctx, mode)
    np.testing.assert_array_equal(got, np.full(4, expected, np.float32))
    # One vec4 past the size limit is refused, naming the limit.
    past = size // 16
    with pytest.raises(UnsupportedError, match="GL_MAX_UNIFORM_BLOCK_SIZE"):
        draw(ctx, f"FRAG\nDCL OUT[0], COLOR\nDCL CONST[0][0..{past}]\n  0: MOV OUT[0], CONST[0][{past}]\n  1: END\n")


def draw_bound(ctx, mode=Prim.TRIANGLES, width=1, height=1):
    """Draw FULL_TRI (position only) with the shaders already bound, into a
    fresh RGBA32F target; return pixel (0, 0)."""
    from glpipe import VertexElement

    from .util import read_rgba32f, render_target
    from .util_draw import zero_fill

    color, _ = render_target(ctx, width, height)
    zero_fill(ctx.screen, color)
    ctx.bind_vertex_elements_state(
        ctx.create_vertex_elements_state([VertexElement(src_format=Format.R32G32B32A32_FLOAT)])
    )
    ctx.set_vertex_buffers([VertexBuffer(buffer=FULL_TRI, stride=16)])
    ctx.draw_vbo(DrawInfo(mode=mode, count=3))
    return read_rgba32f(ctx.screen, color)[0, 0]


def test_every_sampler_slot_of_every_stage(screen, ctx):
    """MAX_TEXTURE_SAMPLERS = MAX_SAMPLER_VIEWS per stage: every stage
    fetches (TXF) from all its slots at once; stage j slot k's 1x1 texture
    holds k + 1 + 100 j, so each slot must reach its own GL unit.  Slot n is
    refused."""
    stages = chain_stages(screen)
    smp = ctx.create_sampler_state(nearest())
    extra, expected = {}, 0.0
    for j, s in enumerate(stages):
        st = STAGE[s]
        n = screen.get_shader_param(st, ShaderCap.MAX_TEXTURE_SAMPLERS)
        assert n == screen.get_shader_param(st, ShaderCap.MAX_SAMPLER_VIEWS)
        assert (
            16
            <= n
            <= min(
                32,
                gl_int(
                    screen, "GL_MAX_TEXTURE_IMAGE_UNITS" if s == "FS" else f"GL_MAX_{GL_STAGE[s]}_TEXTURE_IMAGE_UNITS"
                ),
            )
        )
        views = []
        for k in range(n):
            tex = make_texture(screen, Target.TEXTURE_2D, Format.R32G32B32A32_FLOAT, 1, 1)
            upload(screen, tex, 0, np.full((1, 1, 4), k + 1 + 100 * j, np.float32))
            views.append(view_2d(ctx, tex))
        ctx.set_sampler_views(st, 0, views)
        ctx.bind_sampler_states(st, 0, [smp] * n)
        with pytest.raises((InvalidArgumentError, UnsupportedError)):
            ctx.bind_sampler_states(st, n, [smp])
        decls = [f"DCL SAMP[{k}]" for k in range(n)] + [f"DCL SVIEW[{k}], 2D, FLOAT" for k in range(n)]
        code = ["MOV TEMP[5], IMM[0].yyyy"]
        for k in range(n):
            code += [f"TXF TEMP[6], IMM[0].xxxx, SAMP[{k}], 2D", "ADD TEMP[5], TEMP[5], TEMP[6]"]
        extra[s] = (decls, ("IMM[0] INT32 {0, 0, 0, 0}",), code)
        expected += sum(k + 1 + 100 * j for k in range(n))
    bind_chain(ctx, stage_chain(stages, extra))
    got = draw_bound(ctx, Prim.PATCHES if "TCS" in stages else Prim.TRIANGLES)
    np.testing.assert_array_equal(got, np.full(4, expected, np.float32))


# ---------------------------------------------------------------------------
# Geometry and tessellation limits
# ---------------------------------------------------------------------------


def _points_gs(max_vertices: int, emit: int, size: int, invocations: int = 1) -> str:
    """A GS turning one point into ``emit`` points at the centres of pixels
    0..emit-1 of a ``size``-wide grid (row-major); with ``invocations``
    > 1, invocation i emits only point i (and writes i + 1 to GENERIC[0])."""
    head = [
        "GEOM",
        "PROPERTY GS_INPUT_PRIMITIVE POINTS",
        "PROPERTY GS_OUTPUT_PRIMITIVE POINTS",
        f"PROPERTY GS_MAX_OUTPUT_VERTICES {max_vertices}",
        f"PROPERTY GS_INVOCATIONS {invocations}",
        "DCL IN[][0], POSITION",
        "DCL OUT[0], POSITION",
        "DCL OUT[1], GENERIC[0]",
        "DCL TEMP[0..9]",
        "DCL ADDR[0]",
        f"IMM[0] FLT32 {{0.0, 1.0, {2.0 / size}, {1.0 / size - 1.0}}}",
        f"IMM[1] INT32 {{0, {emit}, 1, {size}}}",
    ]
    if invocations > 1:
        head.insert(6, "DCL SV[0], INVOCATIONID")
        start = ["MOV TEMP[9].x, SV[0].xxxx", "UADD TEMP[8].x, SV[0].xxxx, IMM[1].zzzz"]
        cond = "USGE TEMP[9].y, TEMP[9].xxxx, TEMP[8].xxxx"
    else:
        start = ["MOV TEMP[9].x, IMM[1].xxxx"]
        cond = "ISGE TEMP[9].y, TEMP[9].xxxx, IMM[1].yyyy"
    body = start + [
        "BGNLOOP",
        cond,
        "UIF TEMP[9].yyyy",
        "BRK",
        "ENDIF",
        "UMOD TEMP[1].x, TEMP[9].xxxx, IMM[1].wwww",
        "UDIV TEMP[1].y, TEMP[9].xxxx, IMM[1].wwww",
        "U2F TEMP[0].xy, TEMP[1].xyxy",
        "MAD TEMP[0].xy, TEMP[0].xyxy, IMM[0].zzzz, IMM[0].wwww",
        "MOV TEMP[0].zw, IMM[0].xxxy",
        "MOV OUT[0], TEMP[0]",
        "UADD TEMP[2].x, TEMP[9].xxxx, IMM[1].zzzz",
        "U2F OUT[1], TEMP[2].xxxx",
        "EMIT IMM[1].xxxx",
        "UADD TEMP[9].x, TEMP[9].xxxx, IMM[1].zzzz",
        "ENDLOOP",
        "END",
    ]
    return "\n".join(head) + "\n" + number(body)


POINT = np.array([[0, 0, 0, 1]], np.float32)


def test_geometry_shader_output_limits(screen, ctx):
    """MAX_GEOMETRY_OUTPUT_VERTICES and MAX_GEOMETRY_TOTAL_OUTPUT_COMPONENTS
    (the host's values): a GS declaring the vertex limit emits as many
    POSITION + GENERIC points (8 components each) as the component limit
    allows; every one lands on its own pixel with value index + 1."""
    nverts = screen.get_param(Cap.MAX_GEOMETRY_OUTPUT_VERTICES)
    total = screen.get_param(Cap.MAX_GEOMETRY_TOTAL_OUTPUT_COMPONENTS)
    assert nverts == gl_int(screen, "GL_MAX_GEOMETRY_OUTPUT_VERTICES") >= 256
    assert total == gl_int(screen, "GL_MAX_GEOMETRY_TOTAL_OUTPUT_COMPONENTS") >= 1024
    emit, size = total // 8, 16
    gs = _points_gs(nverts, emit, size)
    img = draw(
        ctx,
        FLAT_FS,
        size,
        size,
        verts=POINT,
        mode=Prim.POINTS,
        before=lambda c: c.bind_gs_state(c.create_gs_state(ShaderState(tokens=gs))),
    )
    want = np.zeros(size * size, np.float32)
    want[:emit] = np.arange(1, emit + 1)
    np.testing.assert_array_equal(img[..., 0].reshape(-1), want)


def test_geometry_shader_invocations(screen, ctx):
    """MAX_GS_INVOCATIONS: with gpu_shader5 the host's limit (32 on
    llvmpipe), each invocation i drawing point i with value i + 1; gl33 has
    exactly one invocation and refuses more."""
    n = screen.get_param(Cap.MAX_GS_INVOCATIONS)
    gs = _points_gs(1, 1, 32, invocations=max(n, 2))
    if not screen.profile.has("gpu_shader5"):
        assert n == 1
        with pytest.raises(UnsupportedError, match="GS_INVOCATIONS"):
            draw(
                ctx,
                FLAT_FS,
                32,
                1,
                verts=POINT,
                mode=Prim.POINTS,
                before=lambda c: c.bind_gs_state(c.create_gs_state(ShaderState(tokens=gs))),
            )
        return
    assert n == gl_int(screen, "GL_MAX_GEOMETRY_SHADER_INVOCATIONS") == 32
    img = draw(
        ctx,
        FLAT_FS,
        32,
        1,
        verts=POINT,
        mode=Prim.POINTS,
        before=lambda c: c.bind_gs_state(c.create_gs_state(ShaderState(tokens=gs))),
    )
    np.testing.assert_array_equal(img[0, :, 0], np.arange(1, 33, dtype=np.float32))


def _patch_tcs(n: int) -> str:
    head = [
        "TESS_CTRL",
        "PROPERTY TCS_VERTICES_OUT 3",
        "DCL IN[][0], POSITION",
        "DCL SV[0], INVOCATIONID",
        "DCL OUT[][0], POSITION",
        "DCL OUT[1], TESSOUTER",
        "DCL OUT[2], TESSINNER",
        f"DCL OUT[3..{n + 2}], PATCH[0]",
        "DCL TEMP[0..9]",
        "DCL ADDR[0..1]",
        "IMM[0] FLT32 {1.0, 1.0, 1.0, 1.0}",
        f"IMM[1] INT32 {{0, {n}, 1, 0}}",
        "IMM[2] FLT32 {1.0, 2.0, 3.0, 4.0}",
    ]
    body = (
        [
            "UARL ADDR[1].x, SV[0].xxxx",
            "MOV OUT[ADDR[1].x][0], IN[ADDR[1].x][0]",
            "MOV OUT[1], IMM[0]",
            "MOV OUT[2], IMM[0]",
        ]
        + counted_loop(
            "IMM[1]",
            [
                "I2F TEMP[1].x, TEMP[9].xxxx",
                "ADD TEMP[1].x, TEMP[1].xxxx, IMM[0].xxxx",
                "MUL TEMP[1], TEMP[1].xxxx, IMM[2]",
                "MOV OUT[ADDR[0].x+3], TEMP[1]",
            ],
        )
        + ["END"]
    )
    return "\n".join(head) + "\n" + number(body)


def _patch_tes(n: int) -> str:
    head = [
        "TESS_EVAL",
        "PROPERTY TES_PRIM_MODE 4",
        "PROPERTY TES_SPACING 0",
        "PROPERTY TES_VERTEX_ORDER_CW 0",
        "PROPERTY TES_POINT_MODE 0",
        "DCL IN[][0], POSITION",
        f"DCL IN[1..{n}], PATCH[0]",
        "DCL SV[0], TESSCOORD",
        "DCL OUT[0], POSITION",
        "DCL OUT[1], GENERIC[0]",
        "DCL TEMP[0..9]",
        "DCL ADDR[0]",
        "IMM[0] FLT32 {0.0, 0.0, 0.0, 0.0}",
        f"IMM[1] INT32 {{0, {n}, 1, 0}}",
    ]
    body = (
        [
            "MUL TEMP[0], SV[0].xxxx, IN[0][0]",
            "MAD TEMP[0], SV[0].yyyy, IN[1][0], TEMP[0]",
            "MAD TEMP[0], SV[0].zzzz, IN[2][0], TEMP[0]",
            "MOV OUT[0], TEMP[0]",
            "MOV TEMP[2], IMM[0]",
        ]
        + counted_loop("IMM[1]", ["ADD TEMP[2], TEMP[2], IN[ADDR[0].x+1]"])
        + ["MOV OUT[1], TEMP[2]", "END"]
    )
    return "\n".join(head) + "\n" + number(body)


def test_patch_varyings_at_the_limit(screen, ctx):
    """MAX_SHADER_PATCH_VARYINGS = GL_MAX_TESS_PATCH_COMPONENTS / 4: the TCS
    writes PATCH[i] = (i + 1) * (1, 2, 3, 4) for every one, the TES sums
    them: n (n + 1) / 2 * (1, 2, 3, 4).  0 without tessellation, where TCS
    creation is refused."""
    n = screen.get_param(Cap.MAX_SHADER_PATCH_VARYINGS)
    if not screen.profile.has("tessellation_shader"):
        assert n == 0
        with pytest.raises(UnsupportedError):
            ctx.create_tcs_state(ShaderState(tokens=_patch_tcs(4)))
        return
    assert n == gl_int(screen, "GL_MAX_TESS_PATCH_COMPONENTS") // 4 >= 30

    def before(c):
        c.bind_tcs_state(c.create_tcs_state(ShaderState(tokens=_patch_tcs(n))))
        c.bind_tes_state(c.create_tes_state(ShaderState(tokens=_patch_tes(n))))
        c.set_patch_vertices(3)

    got = draw(ctx, FLAT_FS, mode=Prim.PATCHES, before=before)[0, 0]
    s = n * (n + 1) / 2
    assert list(got) == [s, 2 * s, 3 * s, 4 * s]
