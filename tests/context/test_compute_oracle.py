"""The executor as an oracle: each opcode run by launch_grid on the profile
(host GLSL on native, the executor on gl33), by the executor directly, and
by a numpy reference from tgsi.rst, on inputs at their edges (integers) and
with specials (floats).  All three must agree bit for bit."""

from __future__ import annotations

import numpy as np
import pytest

from fallback.tgsi_exec import BufferBinding, Dispatch, prepare, run_grid
from glpipe import ComputeState, GridInfo
from lowering import parse, validate

from .util_compute import bind_buffers, read_buffer, shader_buffer

U32 = np.uint32
INTS = np.array([0, 1, 2, 3, 31, 32, 33, 1000, 0x7FFFFFFF, 0x80000000, 0x80000001, 0xFFFFFFFE, 0xFFFFFFFF], U32)
FLOATS = np.array([0.0, -0.0, 1.0, -1.5, 0.25, 3.0e38, -3.0e38, 1.0e-30, np.inf, -np.inf], np.float32)


def _s(x):
    return x.astype(np.int64) - ((x.astype(np.int64) >> 31) << 32)


INT_OPS = {
    "UADD": lambda a, b: a.astype(np.uint64) + b,
    "UMUL": lambda a, b: a.astype(np.uint64) * b,
    "UDIV": lambda a, b: np.where(b == 0, 0xFFFFFFFF, a // np.maximum(b, 1)),
    "UMOD": lambda a, b: np.where(b == 0, 0xFFFFFFFF, a % np.maximum(b, 1)),
    "SHL": lambda a, b: a.astype(np.uint64) << (b & 31),
    "USHR": lambda a, b: a >> (b & 31),
    "ISHR": lambda a, b: _s(a) >> (b & 31),
    "IMIN": lambda a, b: np.minimum(_s(a), _s(b)),
    "UMAX": np.maximum,
    "AND": np.bitwise_and,
    "OR": np.bitwise_or,
    "USLT": lambda a, b: np.where(a < b, 0xFFFFFFFF, 0),
    "ISGE": lambda a, b: np.where(_s(a) >= _s(b), 0xFFFFFFFF, 0),
    "USNE": lambda a, b: np.where(a != b, 0xFFFFFFFF, 0),
}
FLOAT_OPS = {
    "ADD": lambda a, b: a + b,
    "MUL": lambda a, b: a * b,
    "MIN": np.fmin,
    "MAX": np.fmax,
    "FSLT": lambda a, b: np.where(a < b, 0xFFFFFFFF, 0).astype(U32).view(np.float32),
    "SGE": lambda a, b: (a >= b).astype(np.float32),
}


def _kernel(op: str, n: int) -> str:
    return f"""COMP
PROPERTY CS_FIXED_BLOCK_WIDTH {n}
PROPERTY CS_FIXED_BLOCK_HEIGHT 1
PROPERTY CS_FIXED_BLOCK_DEPTH 1
DCL SV[0], THREAD_ID
DCL BUFFER[0]
DCL BUFFER[1]
DCL BUFFER[2]
DCL TEMP[0..2]
IMM[0] UINT32 {{4, 0, 0, 0}}
UMUL TEMP[0].x, SV[0].xxxx, IMM[0].xxxx
LOAD TEMP[1].x, BUFFER[0], TEMP[0].xxxx
LOAD TEMP[2].x, BUFFER[1], TEMP[0].xxxx
{op} TEMP[1].x, TEMP[1].xxxx, TEMP[2].xxxx
STORE BUFFER[2].x, TEMP[0].xxxx, TEMP[1].xxxx
END
"""


def _three_ways(screen, ctx, op, a_words, b_words):
    n = a_words.size
    text = _kernel(op, n)
    ra, rb = shader_buffer(screen, ctx, a_words), shader_buffer(screen, ctx, b_words)
    rc = shader_buffer(screen, ctx, np.zeros(n, U32))
    bind_buffers(ctx, ra, rb, rc)
    ctx.bind_compute_state(ctx.create_compute_state(ComputeState(prog=text)))
    ctx.launch_grid(GridInfo(block=(n, 1, 1)))
    gl_out = read_buffer(ctx, rc, U32)
    binds = {0: BufferBinding(a_words.copy(), a_words.nbytes), 1: BufferBinding(b_words.copy(), b_words.nbytes)}
    binds[2] = BufferBinding(np.zeros(n, U32), 4 * n)
    run_grid(prepare(validate(parse(text)).shader, 0), Dispatch((n, 1, 1), (1, 1, 1)), binds)
    return gl_out, binds[2].words


@pytest.mark.parametrize("op", sorted(INT_OPS))
def test_integer_opcode_gl_executor_numpy_agree(screen, ctx, op):
    a = np.repeat(INTS, INTS.size)
    b = np.tile(INTS, INTS.size)
    gl_out, ex_out = _three_ways(screen, ctx, op, a, b)
    ref = (INT_OPS[op](a, b).astype(np.int64) & 0xFFFFFFFF).astype(U32)
    np.testing.assert_array_equal(ex_out, ref, err_msg=f"{op}: executor vs numpy")
    np.testing.assert_array_equal(gl_out, ref, err_msg=f"{op}: launch_grid vs numpy")


@pytest.mark.parametrize("op", sorted(FLOAT_OPS))
def test_float_opcode_gl_executor_numpy_agree(screen, ctx, op):
    a = np.repeat(FLOATS, FLOATS.size)
    b = np.tile(FLOATS, FLOATS.size)
    gl_out, ex_out = _three_ways(screen, ctx, op, a.view(U32), b.view(U32))
    with np.errstate(all="ignore"):
        ref = np.asarray(FLOAT_OPS[op](a, b), np.float32).view(U32)
    np.testing.assert_array_equal(ex_out, ref, err_msg=f"{op}: executor vs numpy")
    np.testing.assert_array_equal(gl_out, ref, err_msg=f"{op}: launch_grid vs numpy")
