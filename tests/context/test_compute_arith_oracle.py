"""The executor's arithmetic breadth through launch_grid (issue 16 items 3
and 4): doubles, 64-bit integers and their conversions, transcendentals and
the wrapping atomics, each run by launch_grid on the profile (host GLSL on
native, the numpy executor on gl33), by the executor directly, and by numpy
written from tgsi.rst.  Exact opcodes must agree bit for bit; the
transcendentals within GLSL 4.50 section 4.7.1's bounds."""

from __future__ import annotations

import math

import numpy as np
import pytest

from fallback.tgsi_exec import BufferBinding, Dispatch, prepare, run_grid
from glpipe import ComputeState, GridInfo
from lowering import parse, validate

from .util_compute import bind_buffers, read_buffer, shader_buffer

U32 = np.uint32
U64 = np.uint64
I64 = np.int64


def _kernel(op: str, n: int, nsrc: int) -> str:
    loads = "\n".join(f"LOAD TEMP[{k + 1}], BUFFER[{k}], TEMP[0].xxxx" for k in range(nsrc))
    srcs = ", ".join(f"TEMP[{k + 1}]" for k in range(nsrc))
    return f"""COMP
PROPERTY CS_FIXED_BLOCK_WIDTH {n}
PROPERTY CS_FIXED_BLOCK_HEIGHT 1
PROPERTY CS_FIXED_BLOCK_DEPTH 1
DCL SV[0], THREAD_ID
DCL BUFFER[0..3]
DCL TEMP[0..4]
IMM[0] UINT32 {{16, 0, 0, 0}}
UMUL TEMP[0].x, SV[0].xxxx, IMM[0].xxxx
{loads}
MOV TEMP[4], IMM[0].yyyy
{op} TEMP[4], {srcs}
STORE BUFFER[3].xyzw, TEMP[0].xxxx, TEMP[4]
END
"""


def _three_ways(screen, ctx, op: str, *srcs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(launch_grid's (n, 4) words, the executor's) of ``op`` over vec4 rows."""
    srcs = tuple(np.ascontiguousarray(s).view(U32).reshape(-1, 4) for s in srcs)
    n = srcs[0].shape[0]
    text = _kernel(op, n, len(srcs))
    data = list(srcs) + [np.zeros((n, 4), U32)] * (3 - len(srcs)) + [np.zeros((n, 4), U32)]
    res = [shader_buffer(screen, ctx, d) for d in data]
    bind_buffers(ctx, *res)
    ctx.bind_compute_state(ctx.create_compute_state(ComputeState(prog=text)))
    ctx.launch_grid(GridInfo(block=(n, 1, 1)))
    gl_out = read_buffer(ctx, res[3], U32).reshape(n, 4)
    binds = {k: BufferBinding(d.ravel().copy(), d.nbytes) for k, d in enumerate(data)}
    run_grid(prepare(validate(parse(text)).shader, 0), Dispatch((n, 1, 1), (1, 1, 1)), binds)
    return gl_out, binds[3].words.reshape(n, 4)


def _agree(gl_out, ex_out, ref, op):
    np.testing.assert_array_equal(ex_out, ref, err_msg=f"{op}: executor vs numpy")
    np.testing.assert_array_equal(gl_out, ref, err_msg=f"{op}: launch_grid vs numpy")


def _q(values) -> np.ndarray:
    return np.array([int(v) & (2**64 - 1) for v in values], U64)


# Dividends and divisors (no zero divisor and no INT64_MIN / -1: undefined in tgsi.rst).
A64 = _q([7, -7, 2**63 - 1, -(2**63), 12345678901234567, 1, 0, -(2**40) - 3])
B64 = _q([2, 2, -3, 7, -98765, 2**63 - 1, 5, 1000003])


def _c_divmod(a: int, b: int) -> tuple[int, int]:
    q = abs(a) // abs(b)
    q = -q if (a < 0) != (b < 0) else q
    return q, a - q * b


WIDE = {
    "U64DIV": lambda a, b: a // b,
    "U64MOD": lambda a, b: a % b,
    "I64DIV": lambda a, b: _c_divmod(_s(a), _s(b))[0],
    "I64MOD": lambda a, b: _c_divmod(_s(a), _s(b))[1],
}


def _s(v: int) -> int:
    return v - 2**64 if v >= 2**63 else v


@pytest.mark.parametrize("op", sorted(WIDE))
def test_64_bit_division_gl_executor_numpy_agree(screen, ctx, op):
    gl_out, ex_out = _three_ways(screen, ctx, op, A64, B64)
    ref = _q([WIDE[op](int(a), int(b)) for a, b in zip(A64, B64, strict=True)]).view(U32).reshape(-1, 4)
    _agree(gl_out, ex_out, ref, op)


D = np.array([2.5, -2.5, 1e300, -3.75, 0.1, 4.0e-310, 7.0, -0.0], np.float64)
E = np.array([0.5, 3.0, 1e-300, -1.25, 3.0, 2.0, -7.0, 5.0], np.float64)

DOUBLE = {
    "DDIV": (lambda x, y: x / y, 2),
    "DFRAC": (lambda x: x - np.floor(x), 1),
    "DTRUNC": (np.trunc, 1),
    "DCEIL": (np.ceil, 1),
    "DSSG": (lambda x: np.where(x > 0, 1.0, np.where(x < 0, -1.0, 0.0)), 1),
    "DSQRT": (lambda x: np.sqrt(np.abs(x)), 1),
}


@pytest.mark.parametrize("op", sorted(DOUBLE))
def test_double_opcode_gl_executor_numpy_agree(screen, ctx, op):
    fn, nsrc = DOUBLE[op]
    srcs = (D, E)[:nsrc] if op != "DSQRT" else (np.abs(D),)
    gl_out, ex_out = _three_ways(screen, ctx, op, *srcs)
    with np.errstate(all="ignore"):
        ref = np.asarray(fn(*srcs), np.float64)
    np.testing.assert_array_equal(ex_out, ref.view(U32).reshape(-1, 4), err_msg=f"{op}: executor vs numpy")
    # The host by value: GLSL need not keep the sign of a zero result (llvmpipe's
    # ceil(-0.0) is +0.0), every other bit must match.
    got = np.ascontiguousarray(gl_out).view(np.float64).ravel()
    np.testing.assert_array_equal(got, ref, err_msg=f"{op}: launch_grid vs numpy")


def _xy(lanes32: np.ndarray) -> np.ndarray:
    out = np.zeros((lanes32.size // 2, 4), U32)
    out[:, 0:2] = lanes32.view(U32).reshape(-1, 2)
    return out


def test_conversions_gl_executor_numpy_agree(screen, ctx):
    """D2I (in range), I642F / U642F (correctly rounded), F2I64 (in range)."""
    d = np.array([2.9, -2.9, 2147483647.0, -2147483648.0, 0.5, -0.5, 1e9, -7.0], np.float64)
    gl_out, ex_out = _three_ways(screen, ctx, "D2I", d)
    _agree(gl_out, ex_out, _xy(np.trunc(d).astype(np.int32)), "D2I")
    q = _q([1, -1, 2**24 + 1, 2**53 + 3, -(2**62) - 2**38 - 1, 2**63 - 1, 0x123456789ABCDEF, -5])
    gl_out, ex_out = _three_ways(screen, ctx, "I642F", q)
    _agree(gl_out, ex_out, _xy(np.array([_f32(_s(int(v))) for v in q], np.float32)), "I642F")
    gl_out, ex_out = _three_ways(screen, ctx, "U642F", q)
    _agree(gl_out, ex_out, _xy(np.array([_f32(int(v)) for v in q], np.float32)), "U642F")
    f = np.array([1.5, -1.5, 1e18, -1e18, 0.0, 3.0e9, -3.0e9, 123.9], np.float32)
    words = np.zeros((4, 4), U32)
    words[:, 0:2] = f.view(U32).reshape(4, 2)
    gl_out, ex_out = _three_ways(screen, ctx, "F2I64", words)
    _agree(gl_out, ex_out, np.trunc(f.astype(np.float64)).astype(I64).view(U32).reshape(-1, 4), "F2I64")


def _f32(v: int) -> float:
    """``v`` rounded once to float32 (ties to even), exactly."""
    from fractions import Fraction

    x = np.float32(float(v))
    cands = [np.nextafter(x, np.float32(-np.inf)), x, np.nextafter(x, np.float32(np.inf))]
    return float(min(cands, key=lambda c: (abs(Fraction(float(c)) - v), int(np.float32(c).view(U32)) & 1)))


@pytest.mark.parametrize("op, fn", [("SIN", np.sin), ("COS", np.cos)])
def test_sin_cos_within_glsl_precision(screen, ctx, op, fn):
    """GLSL 4.50 4.7.1: absolute error <= 2^-11 on [-pi, pi] for both paths."""
    x = np.linspace(-math.pi, math.pi, 64).astype(np.float32)
    words = np.zeros((x.size, 4), U32)
    words[:, 0] = x.view(U32)
    gl_out, ex_out = _three_ways(screen, ctx, op, words)
    exact = fn(x.astype(np.float64))[:, None]
    for name, out in (("executor", ex_out), ("launch_grid", gl_out)):
        err = np.abs(out.view(np.float32).astype(np.float64) - exact)
        assert err.max() <= 2.0**-11, f"{op} {name}: {err.max()}"


ATOMIC = """COMP
PROPERTY CS_FIXED_BLOCK_WIDTH 16
PROPERTY CS_FIXED_BLOCK_HEIGHT 1
PROPERTY CS_FIXED_BLOCK_DEPTH 1
DCL SV[0], THREAD_ID
DCL BUFFER[0]
DCL TEMP[0]
IMM[0] UINT32 {0, 1, 4, 0}
{op} TEMP[0].x, BUFFER[0], IMM[0].xxxx, IMM[0].zzzz
END
"""


@pytest.mark.parametrize("op, start", [("ATOMINC_WRAP", 0), ("ATOMDEC_WRAP", 3)])
def test_wrapping_atomics_final_value_gl_executor_numpy_agree(screen, ctx, op, start):
    """16 lanes on one word with src 4: the final value does not depend on the
    host's lane order (each step is +1 / -1 modulo the wrap)."""
    text = ATOMIC.replace("{op}", op)
    res = shader_buffer(screen, ctx, np.array([start], U32))
    bind_buffers(ctx, res)
    ctx.bind_compute_state(ctx.create_compute_state(ComputeState(prog=text)))
    ctx.launch_grid(GridInfo(block=(16, 1, 1)))
    binds = {0: BufferBinding(np.array([start], U32), 4)}
    run_grid(prepare(validate(parse(text)).shader, 0), Dispatch((16, 1, 1), (1, 1, 1)), binds)
    v = start
    for _ in range(16):  # tgsi.rst: inc stores old + 1 while <= src else 0; dec old - 1 while 0 < old < src else 0
        v = (v + 1 if v + 1 <= 4 else 0) if op == "ATOMINC_WRAP" else (v - 1 if 0 < v < 4 else 0)
    assert int(binds[0].words[0]) == v, "executor vs numpy"
    assert int(read_buffer(ctx, res, U32)[0]) == v, "launch_grid vs numpy"
