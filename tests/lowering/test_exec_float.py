"""Execution tests: float32 opcodes of the core ISA, run on the host GL.

Each test lowers one opcode (wrapped by ``exec_harness.OpProgram``), runs it
over a batch of cases (one pixel / invocation per case) at GLSL 330 and 450,
and compares with ``tgsi_reference`` under the opcode's precision rule
(``exec_harness.PRECISION``, which cites GLSL 4.50 section 4.7.1).
"""

from __future__ import annotations

import math
import os
import sys

import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(__file__))

import exec_harness as H
import tgsi_reference as R

gl = H.module_harness()
version = H.version_fixture()

INF, NAN = float("inf"), float("nan")
PI = math.pi
F32_MAX = 3.4028234663852886e38
F32_MIN_NORMAL = 1.1754943508222875e-38
DENORM = 1.401298464324817e-45  # smallest float32 denormal


# Two-source component-wise ops: (src0 values, src1 values), one scalar case per channel.
BINARY = {
    "ADD": (
        [1, -0.0, INF, 1e38, F32_MAX, 1, 0.1, -2.5, DENORM, 1e-30, -INF, 7],
        [2, -0.0, 1, 1e38, -F32_MAX, 2**-24, 0.2, 2.5, DENORM, -1e-30, -1, -0.0],
    ),
    "SUB": ([5, 0.0, INF, -1e38, 1, 0.3, -0.0, 2], [3, 0.0, 1, 1e38, 1 + 2**-23, 0.1, 0.0, -2]),
    "MUL": (
        [3, -0.0, 1e20, INF, 1.5, 0.1, -7, 1e-20, 1e-30, 2**64],
        [4, 5, 1e20, -2, 1.5, 0.1, -0.125, 1e-20, 1e30, 2**63],
    ),
    "DIV": ([1, -7, 1, 1, -1, 10, 0.5, 1e30, 22, 3], [3, 2, 0.0, -0.0, 0.0, 4, 1e-5, 7, 7, 1e-3]),
    "MIN": ([1, -0.0, NAN, 1, -INF, NAN, 3, -1e30, 2.5], [2, 0.0, 1, NAN, 5, NAN, -7, 1e30, 2.5]),
    "MAX": ([1, -0.0, NAN, 1, -INF, NAN, 3, -1e30, INF], [2, 0.0, 1, NAN, 5, NAN, -7, 1e30, 1]),
    "DST": ([1, 2, 3, 4, -1, 0.5], [5, 6, 7, 8, -2, 3]),
}

UNARY = {
    "FRC": [1.25, -1.25, -0.0, 1e10, 3.5, -3.75, 0.999, -1e-3, 8388609, 0.0, 100.1, -0.5],
    "FLR": [1.5, -1.5, 2.5, -2.5, 0.4999, -0.0, 1e10, 8388609.0, 0.5, -0.5, -1e-30, INF],
    "CEIL": [1.5, -1.5, 2.5, -2.5, 0.4999, -0.0, 1e10, 8388609.0, 0.5, -0.5, 1e-30, -INF],
    "TRUNC": [1.5, -1.5, 2.9, -2.9, 0.4999, -0.0, 1e10, 8388609.0, 0.5, -0.5, -0.99, INF],
    "ROUND": [1.5, -1.5, 2.5, -2.5, 0.4999, -0.0, 1e10, 8388609.0, 0.5, -0.5, 1.49, -3.51],
    "SSG": [3, -3, 0.0, -0.0, INF, -INF, 1e-30, -1e-30, 0.5, -2.5],
    "ABS": [3, -3, 0.0, -0.0, INF, -INF, -1e-30, 1.5],
}

# Scalar (REPL) ops: value in .x; .yzw hold other values the opcode must ignore.
REPL_UNARY = {
    "RCP": [1, 3, -4, 0.0, -0.0, INF, 0.1, 1e-10, 7, -123.5],
    "RSQ": [4, 0.25, 2, 1e-20, 3, 100, 0.0, -4, 1e20, 0.5],
    "SQRT": [4, 2, 0.0, 1e30, 0.01, 9, 1e-20, -1, 0.5, 123456],
    "EX2": [0, 1, -1, 10, -10, 0.5, 3.3, -0.75, 100, -100],
    "LG2": [1, 2, 8, 0.75, 1e-10, 1e30, 0.5, 1.5, 3, 1000, INF],
    "SIN": [0, PI / 6, PI / 2, -PI, 3, -2, 1e-3, 1, -0.5, PI],
    "COS": [0, PI / 3, PI / 2, -PI, 3, -2, 1e-3, 1, -0.5, PI],
}


def _with_noise(xs):
    """.x = the case value, .yzw = distractors (a REPL op must read only .x)."""
    x = np.array(xs, dtype=np.float64)
    return R.f32_words(np.stack([x, np.full_like(x, 5.0), np.full_like(x, -3.0), np.full_like(x, 0.25)], 1))


@pytest.mark.parametrize("op", sorted(BINARY))
def test_binary(gl, version, op):
    a, b = BINARY[op]
    rnd = H.random_f32(op, 8, -50, 50)
    a, b = list(a) + list(rnd), list(b) + list(rnd[::-1] + 1)
    H.run_check(gl, op, H.columns(a, b), version)


def test_pow(gl, version):
    # GLSL pow is undefined for x < 0 and for x == 0 with y <= 0: positive bases only.
    rnd = H.random_f32("POW", 8, -10, 10)
    x = [2, 2, 10, 0.5, 3, 1.5, 100, 7, 0.25, 2] + list(np.abs(rnd) + 0.5)
    y = [3, 0.5, -2, 10, 4, 2.5, 0.5, 0, -1.5, 20] + list(rnd / 4)
    H.run_check(gl, "POW", [_with_noise(x), _with_noise(y)], version)


@pytest.mark.parametrize("op", sorted(UNARY))
def test_unary(gl, version, op):
    vals = list(UNARY[op]) + list(H.random_f32(op, 8, -1000, 1000))
    H.run_check(gl, op, [H.pack(vals)], version)


@pytest.mark.parametrize("op", sorted(REPL_UNARY))
def test_scalar_replicated(gl, version, op):
    vals = list(REPL_UNARY[op])
    H.run_check(gl, op, [_with_noise(vals)], version)


@pytest.mark.parametrize("op", ["MAD", "FMA"])
def test_multiply_add(gl, version, op):
    # 1+2^-12 squared = 1 + 2^-11 + 2^-24: rounding the product first loses
    # the 2^-24, so with c = -(1+2^-11) the unfused result is 0, the fused 2^-24.
    e = 1 + 2**-12
    a = [e, 2, -3, 0.5, 1e20, e, 1.5, -0.0, 3]
    b = [e, 3, 4, 0.25, 1e20, -e, 2, 5, 1e-3]
    c = [-(1 + 2**-11), 1, 12, -0.125, 1, 1 + 2**-11, -3, -0.0, -0.003]
    H.run_check(gl, op, H.columns(a, b, c), version)


def test_lrp(gl, version):
    a = [0, 1, 0.5, 0.25, -1, 2, 0.1, 1e-3]
    b = [10, 10, 4, 8, 3, 5, 100, -7]
    c = [20, 20, 8, -8, 1, 1, 0, 7]
    H.run_check(gl, "LRP", H.columns(a, b, c), version)


@pytest.mark.parametrize("op,n", [("DP2", 2), ("DP3", 3), ("DP4", 4)])
def test_dot(gl, version, op, n):
    s0 = R.f32_words(
        [[1, 2, 3, 4], [0.5, -1, 2, 100], [1e10, 1, -1e10, 5], [-0.0, 0, 0, 0], [3, 4, 1000, 1000]]
        + H.random_f32(op, 20).reshape(5, 4).tolist()
    )
    s1 = R.f32_words(
        [[5, 6, 7, 8], [4, 4, 4, 4], [1, 3, 1, 0.5], [0, 0, 0, 0], [3, 4, 0, -7]]
        + H.random_f32(op + "b", 20).reshape(5, 4).tolist()
    )
    H.run_check(gl, op, [s0, s1], version)


@pytest.mark.parametrize("op", ["ADD", "DIV", "MIN", "MAX", "FRC", "ROUND"])
def test_float_compute(gl, op):
    """Float ops through the CS path (LOAD from / STORE to BUFFER keeps every bit)."""
    if op in BINARY:
        a, b = BINARY[op]
        H.run_check(gl, op, H.columns(a, b), 450, path="cs")
    else:
        H.run_check(gl, op, [H.pack(UNARY[op])], 450, path="cs")


@pytest.mark.parametrize("op", ["RSQ", "EX2", "SIN"])
def test_scalar_replicated_compute(gl, op):
    H.run_check(gl, op, [_with_noise(REPL_UNARY[op])], 450, path="cs")


def test_cmp(gl, version):
    # dst = src0 < 0 ? src1 : src2 ; -0.0 and NaN are not < 0.
    c = [-1, 0.0, -0.0, 1, NAN, -INF, -1e-30, INF, -5, 3]
    H.run_check(
        gl,
        "CMP",
        H.columns(c, [11, 12, 13, 14, 15, 16, 17, 18, 19, 20], [-1, -2, -3, -4, -5, -6, -7, -8, -9, -10]),
        version,
    )


def test_ldexp(gl, version):
    x = [1.5, 1, 3, 1, -2, 0.0, INF, 1.5, 0.75, -0.0, 5, 1]
    e = [3, -1, 100, 127, 10, 50, -3, -130, -1, 4, 0, -126]
    H.run_check(gl, "LDEXP", [H.pack(x), H.pack(e, "u32")], version)


# ---------------------------------------------------------------------------
# Modifiers, writemasks, swizzles, saturate, raw bit moves
# ---------------------------------------------------------------------------


def test_mov_preserves_raw_bits(gl, version):
    """MOV is an untyped copy: an integer immediate read back as float bits is unchanged."""
    bits = [0x00000001, 0x7F800001, 0xFFC12345, 0x80000000, 0x00000000, 0xFFFFFFFF, 0x007FFFFF, 0x3F800000]
    body = "MOV DST, IMM[2]"
    decls = "IMM[2] UINT32 {0x00000001, 0x7f800001, 0xffc12345, 0x80000000}"
    got = H.run_check(gl, "MOV", [H.pack([0] * 4)], version, body=body, decls=decls, expected=R.words([bits[:4]]))
    assert got is not None
    # and through a TEMP from a CONST (no immediate involved): every pattern kept
    H.run_check(gl, "MOV", [H.pack(bits, "u32")], version)


@pytest.mark.parametrize(
    "operand,fn",
    [
        ("-SRC0", lambda x: -x),
        ("|SRC0|", np.abs),
        ("-|SRC0|", lambda x: -np.abs(x)),
    ],
    ids=["neg", "abs", "negabs"],
)
def test_mov_float_modifiers(gl, version, operand, fn):
    """MOV's source modifiers are float modifiers (tgsi.rst): sign bit flipped/cleared, -0.0 too."""
    x = np.array([1.5, -2.0, 0.0, -0.0, INF, -INF, 1e-30, -3e38], dtype=np.float32)
    src = R.f32_words(x.reshape(-1, 4))
    with np.errstate(all="ignore"):
        exp = R.f32_words(fn(x).astype(np.float32).reshape(-1, 4))
    H.run_check(
        gl,
        "MOV",
        [src],
        version,
        operands=[operand],
        expected=exp,
        rule=H.Precision("bits", why="sign-bit modifiers are exact"),
    )


def test_swizzle_and_writemask(gl, version):
    """ADD TEMP.xz, SRC0.wzyx, SRC1.xxxx: swizzles select, .y/.w keep their old value."""
    s0 = R.f32_words([[1, 2, 3, 4], [10, 20, 30, 40]])
    s1 = R.f32_words([[100, 0, 0, 0], [-1, 9, 9, 9]])
    a, b = R.as_f32(s0), R.as_f32(s1)
    exp = R.f32_words(np.stack([a[:, 3] + b[:, 0], a[:, 2] + b[:, 0], a[:, 1] + b[:, 0], a[:, 0] + b[:, 0]], 1))
    H.run_check(gl, "ADD", [s0, s1], version, mask="xz", operands=["SRC0.wzyx", "SRC1.xxxx"], expected=exp)


@pytest.mark.parametrize("mask", ["x", "yw", "xyz", "w"])
def test_replicated_writemask(gl, version, mask):
    """A REPL op writes its scalar to every channel of the mask and nothing else."""
    H.run_check(gl, "RCP", [_with_noise([2, 4, -8, 0.5])], version, mask=mask)


def test_saturate(gl, version):
    """_SAT clamps the stored result to [0, 1] (tgsi.rst 'Other Modifiers')."""
    a = [0.25, -3, 5, 0.5, -0.0, INF, -INF, 1]
    b = [0.25, 1, -3.5, 0.7, 0.0, 1, 1, -1e-30]
    srcs = H.columns(a, b)
    with np.errstate(all="ignore"):
        exp = R.f32_words(np.clip(R.as_f32(srcs[0]) + R.as_f32(srcs[1]), 0, 1))
    H.run_check(gl, "ADD", srcs, version, suffix="", operands=None, expected=exp, body="ADD_SAT DST, SRC0, SRC1")


def test_integer_negate_modifier(gl, version):
    """On an integer-typed source '-' is a two's-complement negate: UADD a, -b = a - b."""
    a = [5, 0, 0x80000000, 7, 0xFFFFFFFF, 100]
    b = [3, 1, 1, 0x80000000, 0xFFFFFFFF, 200]
    srcs = H.columns(a, b, dtype="u32")
    exp = R.words(R.as_i32(srcs[0]).astype(np.int64) - R.as_i32(srcs[1]).astype(np.int64))
    H.run_check(gl, "UADD", srcs, version, operands=["SRC0", "-SRC1"], expected=exp)


def test_harness_rgba32f_keeps_bits(gl):
    """The harness's premise: a float store to RGBA32F keeps every bit (NaN payloads, denormals, -0).

    Checked with hand-written GLSL (not the emitter) copying UBO words to the target.
    """
    import moderngl

    words = np.array(
        [0x7FC00001, 0x7F800001, 0xFFC12345, 0x00000001, 0x80000000, 0x807FFFFF, 0x3F800000, 0xDEADBEEF] * 4,
        dtype=np.uint32,
    ).reshape(8, 4)
    fs = """#version 330
uniform Data { uvec4 v[8]; };
out vec4 color;
void main() { color = uintBitsToFloat(v[int(gl_FragCoord.x)]); }
"""
    with gl.ctx:
        prog = gl.ctx.program(vertex_shader=H.FULL_SCREEN_VS.format(version=330), fragment_shader=fs)
        buf = gl.ctx.buffer(words.tobytes())
        buf.bind_to_uniform_block(0)
        prog["Data"].binding = 0
        tex = gl.ctx.texture((8, 1), 4, dtype="f4")
        fbo = gl.ctx.framebuffer([tex])
        fbo.use()
        vao = gl.ctx.vertex_array(prog, [])
        vao.render(moderngl.TRIANGLES, vertices=3)
        got = np.frombuffer(fbo.read(components=4, dtype="f4"), dtype=np.uint32).reshape(8, 4)
        for obj in (vao, fbo, tex, buf, prog):
            obj.release()
    np.testing.assert_array_equal(got, words)


def test_indexed_and_per_draw_modes_agree(gl, version):
    """The harness's two ways of feeding cases give the same words (checks ADDR indexing)."""
    a = R.f32_words(H.random_f32("modes", 16).reshape(4, 4))
    prog = H.OpProgram("ADD", 2)
    got_addr = gl.run_op(prog, [a, a], version, index_mode="addr")
    got_draw = gl.run_op(prog, [a, a], version, index_mode="draw")
    np.testing.assert_array_equal(got_addr, got_draw)
    H.check("ADD", got_addr, [a, a])


# ---------------------------------------------------------------------------
# Derivatives (FS only): of a linear function of the window position
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("ddx,ddy", [("DDX", "DDY"), ("DDX_FINE", "DDY_FINE")])
def test_derivatives_of_linear_functions(gl, version, ddx, ddy):
    """d/dx and d/dy of (3x, 5y, -2x, y/2) = (3, 0, 0, 0.5) exactly (one quad row is helpers)."""
    from lowering.errors import UnsupportedError

    src = R.f32_words(np.zeros((8, 4)))
    body = (
        f"MUL SRC0, IN[0].xyxy, IMM[2]\n"
        f"{ddx} DST.xy, SRC0.xyxy\n"  # (d(3x)/dx, d(5y)/dx) = (3, 0)
        f"{ddy} DST.zw, SRC0.zwzw"
    )  # (d(-2x)/dy, d(y/2)/dy) = (0, 0.5)
    exp = R.f32_words(np.tile([3.0, 0.0, 0.0, 0.5], (8, 1)))
    try:
        H.run_check(
            gl,
            ddx,
            [src],
            version,
            body=body,
            decls="IMM[2] FLT32 {3.0, 5.0, -2.0, 0.5}",
            expected=exp,
            rule=H.Precision("f32", why="derivatives of linear functions are exact"),
        )
    except UnsupportedError as err:
        # dFdxFine/dFdyFine are GLSL 450 (ARB_derivative_control)
        assert version < 450 and ddx.endswith("_FINE") and ("FINE" in str(err)), err
        H.REFUSED.append((ddx, version))


# ---------------------------------------------------------------------------
# Removed opcodes still found in older TGSI text
# ---------------------------------------------------------------------------

LEGACY_UNARY = {
    "LIT": [[1, 2, 0, 3], [-1, 2, 0, 3], [0.5, 0, 9, 2], [2, 4, 9, 0.5], [1, 3, 0, -1], [1, 0.5, 0, 300]],
    "EXP": [[0, 9, 9, 9], [1.5, 9, 9, 9], [-1.5, 9, 9, 9], [3.25, 0, 0, 0], [-0.0, 1, 1, 1], [10, 0, 0, 0]],
    "LOG": [[3, 9, 9, 9], [0.75, 9, 9, 9], [-3, 9, 9, 9], [100, 0, 0, 0], [1e-5, 1, 1, 1], [5.5, 0, 0, 0]],
    "NRM": [[3, 4, 0, 9], [1, 1, 1, 9], [-2, 0.5, 7, 0], [0, 0, -5, 3], [1e-3, 2e-3, -2e-3, 1]],
    "NRM4": [[3, 4, 0, 0], [1, 1, 1, 1], [-2, 0.5, 7, 1], [0, 0, -5, 0], [1e3, 2e3, -2e3, 4e3]],
    "SCS": [[0, 9, 9, 9], [PI / 6, 9, 9, 9], [-PI, 0, 0, 0], [1, 0, 0, 0], [-2.5, 1, 1, 1], [3, 0, 0, 0]],
    "RCC": [[2, 9, 9, 9], [-4, 9, 9, 9], [1e-30, 0, 0, 0], [1e25, 0, 0, 0], [-1e-30, 1, 1, 1], [0.1, 0, 0, 0]],
}
LEGACY_BINARY = {
    "XPD": (
        [[1, 0, 0, 9], [0, 1, 0, 9], [1, 2, 3, 0], [-2, 0.5, 4, 1], [3, 3, 3, 3]],
        [[0, 1, 0, 9], [0, 0, 1, 9], [4, 5, 6, 0], [7, -1, 0.25, 2], [3, 3, 3, 3]],
    ),
    "DPH": (
        [[1, 2, 3, 99], [0.5, -1, 2, 99], [1e10, 1, -1e10, 0], [0, 0, 0, 0]],
        [[4, 5, 6, 7], [4, 4, 4, -3], [1, 3, 1, 0.5], [1, 1, 1, -0.0]],
    ),
    "SFL": ([[1, 2, 3, 4]], [[5, 6, 7, 8]]),
    "STR": ([[1, 2, 3, 4]], [[5, 6, 7, 8]]),
}
LEGACY_TERNARY = {
    "DP2A": (
        [[1, 2, 9, 9], [0.5, -1, 9, 9], [3, 4, 0, 0]],
        [[3, 4, 9, 9], [2, 2, 9, 9], [5, -6, 0, 0]],
        [[10, 99, 99, 99], [-1, 0, 0, 0], [0.25, 7, 7, 7]],
    ),
    # CND: src2 > 0.5 ? src0 : src1   (0.5 itself and NaN pick src1)
    "CND": (
        [[1, 2, 3, 4], [5, 6, 7, 8]],
        [[-1, -2, -3, -4], [-5, -6, -7, -8]],
        [[0.5, 0.6, NAN, -1], [1, 0.50001, 0, INF]],
    ),
    "CLAMP": ([[-1, 0.5, 2, 0.25], [5, -5, 0, 1]], [[0, 0, 0, 0], [-1, -1, 1, 1]], [[1, 1, 1, 1], [2, 2, 2, 3]]),
}


@pytest.mark.parametrize("op", sorted(LEGACY_UNARY))
def test_legacy_unary(gl, version, op):
    H.run_check(gl, op, [R.f32_words(LEGACY_UNARY[op])], version)


@pytest.mark.parametrize("op", sorted(LEGACY_BINARY))
def test_legacy_binary(gl, version, op):
    H.run_check(gl, op, [R.f32_words(r) for r in LEGACY_BINARY[op]], version)


@pytest.mark.parametrize("op", sorted(LEGACY_TERNARY))
def test_legacy_ternary(gl, version, op):
    H.run_check(gl, op, [R.f32_words(r) for r in LEGACY_TERNARY[op]], version)


# ---------------------------------------------------------------------------
# The comparison itself must be able to fail
# ---------------------------------------------------------------------------


def test_check_rejects_wrong_results():
    """check() catches an off-by-one-ulp exact op, a wrong bit, and a clobbered masked-out channel."""
    a, b = R.f32_words([[1, 2, 3, 4]]), R.f32_words([[0.5, 0.25, 8, -1]])
    good = R.reference("ADD", a, b)
    H.check("ADD", good, [a, b])
    with pytest.raises(AssertionError, match="ADD"):
        H.check("ADD", good + np.array([[1, 0, 0, 0]], np.uint32), [a, b])
    with pytest.raises(AssertionError, match="UADD"):
        H.check("UADD", R.reference("UADD", a, b) ^ np.uint32(1), [a, b])
    with pytest.raises(AssertionError):
        H.check("ADD", good, [a, b], mask="xy")  # .zw must still hold the sentinel
    masked = good.copy()
    masked[:, 2:] = H.SENTINEL[2:]
    H.check("ADD", masked, [a, b], mask="xy")
