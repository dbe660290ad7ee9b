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


def _bits(fn):
    """A per-word integer function applied elementwise (a reference for bit opcodes)."""
    return lambda *a: np.array([fn(*(int(v) for v in t)) for t in zip(*a, strict=True)], np.int64)


def _msb_signed(x):
    v = x - (1 << 32) if x >> 31 else x
    v = ~v if v < 0 else v  # the first bit differing from the sign bit (tgsi.rst IMSB)
    return v.bit_length() - 1


def _bfe(x, off, bits, signed):
    if bits == 0:
        return 0
    v = (x >> off) & ((1 << bits) - 1)
    return v - (1 << bits) if signed and v >> (bits - 1) else v


#: Unary integer opcodes (tgsi.rst): value -> result.
INT_UNARY = {
    "POPC": _bits(lambda x: bin(x).count("1")),
    "BREV": _bits(lambda x: int(f"{x:032b}"[::-1], 2)),
    "LSB": _bits(lambda x: (x & -x).bit_length() - 1),
    "UMSB": _bits(lambda x: x.bit_length() - 1),
    "IMSB": _bits(_msb_signed),
}
#: Bitfield opcodes (GLSL bitfieldExtract / bitfieldInsert): sources -> result.
BITFIELD_OPS = {
    "UBFE": _bits(lambda x, o, b: _bfe(x, o, b, False)),
    "IBFE": _bits(lambda x, o, b: _bfe(x, o, b, True)),
    "BFI": _bits(lambda base, ins, o, b: (base & ~(((1 << b) - 1) << o)) | ((ins & ((1 << b) - 1)) << o)),
}
FLOAT_UNARY = {
    "ABS": np.abs,
    "SSG": np.sign,
    "ROUND": np.rint,
}
FLOAT_OPS = {
    "SUB": lambda a, b: a - b,
    "SGT": lambda a, b: (a > b).astype(np.float32),
    "SLE": lambda a, b: (a <= b).astype(np.float32),
    "ADD": lambda a, b: a + b,
    "MUL": lambda a, b: a * b,
    "MIN": np.fmin,
    "MAX": np.fmax,
    "FSLT": lambda a, b: np.where(a < b, 0xFFFFFFFF, 0).astype(U32).view(np.float32),
    "SGE": lambda a, b: (a >= b).astype(np.float32),
}


def _kernel(op: str, n: int, nsrc: int = 2) -> str:
    loads = "\n".join(f"LOAD TEMP[{k + 1}].x, BUFFER[{k}], TEMP[0].xxxx" for k in range(nsrc))
    srcs = ", ".join(f"TEMP[{k + 1}].xxxx" for k in range(nsrc))
    return f"""COMP
PROPERTY CS_FIXED_BLOCK_WIDTH {n}
PROPERTY CS_FIXED_BLOCK_HEIGHT 1
PROPERTY CS_FIXED_BLOCK_DEPTH 1
DCL SV[0], THREAD_ID
DCL BUFFER[0..4]
DCL TEMP[0..4]
IMM[0] UINT32 {{4, 0, 0, 0}}
UMUL TEMP[0].x, SV[0].xxxx, IMM[0].xxxx
{loads}
{op} TEMP[1].x, {srcs}
STORE BUFFER[4].x, TEMP[0].xxxx, TEMP[1].xxxx
END
"""


def _three_ways(screen, ctx, op, *src_words):
    """(launch_grid's result, the executor's result) of ``op`` on the sources (one lane each)."""
    n = src_words[0].size
    text = _kernel(op, n, len(src_words))
    srcs = [np.ascontiguousarray(s, U32) for s in src_words]
    srcs += [np.zeros(n, U32)] * (4 - len(srcs))
    res = [shader_buffer(screen, ctx, s) for s in srcs] + [shader_buffer(screen, ctx, np.zeros(n, U32))]
    bind_buffers(ctx, *res)
    ctx.bind_compute_state(ctx.create_compute_state(ComputeState(prog=text)))
    ctx.launch_grid(GridInfo(block=(n, 1, 1)))
    gl_out = read_buffer(ctx, res[4], U32)
    binds = {k: BufferBinding(s.copy(), s.nbytes) for k, s in enumerate(srcs)}
    binds[4] = BufferBinding(np.zeros(n, U32), 4 * n)
    run_grid(prepare(validate(parse(text)).shader, 0), Dispatch((n, 1, 1), (1, 1, 1)), binds)
    return gl_out, binds[4].words


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


def _check(gl_out, ex_out, ref, op):
    np.testing.assert_array_equal(ex_out, ref, err_msg=f"{op}: executor vs numpy")
    np.testing.assert_array_equal(gl_out, ref, err_msg=f"{op}: launch_grid vs numpy")


@pytest.mark.parametrize("op", sorted(INT_UNARY))
def test_integer_unary_opcode_gl_executor_numpy_agree(screen, ctx, op):
    gl_out, ex_out = _three_ways(screen, ctx, op, INTS)
    _check(gl_out, ex_out, (INT_UNARY[op](INTS) & 0xFFFFFFFF).astype(U32), op)


@pytest.mark.parametrize("op", sorted(BITFIELD_OPS))
def test_bitfield_opcode_gl_executor_numpy_agree(screen, ctx, op):
    """Every (offset, bits) with offset + bits <= 32 (beyond, GLSL leaves the result undefined)."""
    pairs = np.array([(o, b) for o in (0, 1, 7, 16, 31) for b in (0, 1, 5, 16, 31, 32) if o + b <= 32], U32)
    values = np.array([0x00000000, 0xFFFFFFFF, 0x80000001, 0x12345678, 0xA5A5A5A5], U32)
    x = np.repeat(values, pairs.shape[0])
    off, bits = np.tile(pairs[:, 0], values.size), np.tile(pairs[:, 1], values.size)
    args = (x, off, bits) if op != "BFI" else (x, ~x, off, bits)
    gl_out, ex_out = _three_ways(screen, ctx, op, *args)
    _check(gl_out, ex_out, (BITFIELD_OPS[op](*args) & 0xFFFFFFFF).astype(U32), op)


@pytest.mark.parametrize("op", sorted(FLOAT_UNARY))
def test_float_unary_opcode_gl_executor_numpy_agree(screen, ctx, op):
    x = np.r_[FLOATS, np.float32([0.5, 2.5, -2.5, 3.5, 1.75])]  # halves tell ROUND's ties to even
    gl_out, ex_out = _three_ways(screen, ctx, op, x.view(U32))
    _check(gl_out, ex_out, np.asarray(FLOAT_UNARY[op](x), np.float32).view(U32), op)


I64S = np.array(
    [0, 1, 2, 63, 64, 0xFFFFFFFF, 0x100000000, 0x7FFFFFFFFFFFFFFF, 0x8000000000000000, 0xFFFFFFFFFFFFFFFF], np.uint64
)


def _sx(x):
    return x.view(np.int64)


#: 64-bit integer opcodes (tgsi.rst, two channels per value): (a, b) uint64 -> result.
WIDE_OPS = {
    "U64ADD": lambda a, b: a + b,
    "U64MUL": lambda a, b: a * b,
    "U64MIN": np.minimum,
    "I64MAX": lambda a, b: np.maximum(_sx(a), _sx(b)).view(np.uint64),
    "U64SHL": lambda a, b: a << (b & np.uint64(63)),
    "U64SHR": lambda a, b: a >> (b & np.uint64(63)),
    "I64SHR": lambda a, b: (_sx(a) >> (b & np.uint64(63)).astype(np.int64)).view(np.uint64),
}
WIDE_COMPARES = {
    "U64SEQ": np.equal,
    "U64SLT": np.less,
    "I64SLT": lambda a, b: _sx(a) < _sx(b),
    "I64SGE": lambda a, b: _sx(a) >= _sx(b),
}


def _wide_kernel(op: str, n: int, dmask: str, s0: str, s1: str | None) -> str:
    second = f", TEMP[2].{s1}" if s1 else ""
    return f"""COMP
PROPERTY CS_FIXED_BLOCK_WIDTH {n}
PROPERTY CS_FIXED_BLOCK_HEIGHT 1
PROPERTY CS_FIXED_BLOCK_DEPTH 1
DCL SV[0], THREAD_ID
DCL BUFFER[0..2]
DCL TEMP[0..2]
IMM[0] UINT32 {{8, 0, 0, 0}}
UMUL TEMP[0].x, SV[0].xxxx, IMM[0].xxxx
LOAD TEMP[1].xy, BUFFER[0], TEMP[0].xxxx
LOAD TEMP[2].xy, BUFFER[1], TEMP[0].xxxx
MOV TEMP[1].zw, IMM[0].yyyy
{op} TEMP[1].{dmask}, TEMP[1].{s0}{second}
STORE BUFFER[2].xy, TEMP[0].xxxx, TEMP[1].xyxy
END
"""


def _wide_three_ways(screen, ctx, text, a, b):
    n = a.size
    srcs = [np.ascontiguousarray(a).view(U32), np.ascontiguousarray(b).view(U32), np.zeros(2 * n, U32)]
    res = [shader_buffer(screen, ctx, s) for s in srcs]
    bind_buffers(ctx, *res)
    ctx.bind_compute_state(ctx.create_compute_state(ComputeState(prog=text)))
    ctx.launch_grid(GridInfo(block=(n, 1, 1)))
    gl_out = read_buffer(ctx, res[2], U32)
    binds = {k: BufferBinding(s.copy(), s.nbytes) for k, s in enumerate(srcs)}
    run_grid(prepare(validate(parse(text)).shader, 0), Dispatch((n, 1, 1), (1, 1, 1)), binds)
    return gl_out, binds[2].words


def _needs_int64(profile, screen):
    from glpipe.enums import Cap

    if profile == "native" and not screen.get_param(Cap.INT64):
        pytest.skip("the host has no 64-bit integers (PIPE_CAP_INT64 is 0)")


@pytest.mark.parametrize("op", sorted(WIDE_OPS))
def test_int64_opcode_gl_executor_numpy_agree(profile, screen, ctx, op):
    _needs_int64(profile, screen)
    a = np.repeat(I64S, I64S.size)
    b = np.tile(I64S, I64S.size)
    s1 = "xxxx" if "SH" in op else "xyxy"
    gl_out, ex_out = _wide_three_ways(screen, ctx, _wide_kernel(op, a.size, "xy", "xyxy", s1), a, b)
    _check(gl_out, ex_out, np.asarray(WIDE_OPS[op](a, b), np.uint64).view(U32), op)


@pytest.mark.parametrize("op", sorted(WIDE_COMPARES))
def test_int64_compare_gl_executor_numpy_agree(profile, screen, ctx, op):
    """32-bit ~0 / 0 in dst.x (lane 0; .y is left as loaded)."""
    _needs_int64(profile, screen)
    a = np.repeat(I64S, I64S.size)
    b = np.tile(I64S, I64S.size)
    gl_out, ex_out = _wide_three_ways(screen, ctx, _wide_kernel(op, a.size, "x", "xyxy", "xyxy"), a, b)
    ref = a.view(U32).reshape(-1, 2).copy()
    ref[:, 0] = np.where(WIDE_COMPARES[op](a, b), 0xFFFFFFFF, 0)
    _check(gl_out, ex_out, ref.ravel(), op)


@pytest.mark.parametrize("op", ["I2I64", "U2I64"])
def test_int64_widen_gl_executor_numpy_agree(profile, screen, ctx, op):
    _needs_int64(profile, screen)
    x = np.repeat(INTS, 1)
    a = np.ascontiguousarray(np.stack([x, np.zeros_like(x)], 1)).view(np.uint64).ravel()
    gl_out, ex_out = _wide_three_ways(screen, ctx, _wide_kernel(op, a.size, "xy", "xxxx", None), a, a)
    ref = (_s(x) if op == "I2I64" else x.astype(np.int64)).view(np.uint64)
    _check(gl_out, ex_out, ref.view(U32), op)


F64S = np.array([0.0, 1.0, -1.5, 0.1, 1e300, -1e300, 1e-310, np.inf, -np.inf, 3.0], np.float64)
DOUBLE_OPS = {
    "DADD": lambda a, b: a + b,
    "DMUL": lambda a, b: a * b,
    "DMIN": np.minimum,
    "DMAX": np.maximum,
}
DOUBLE_COMPARES = {"DSEQ": np.equal, "DSNE": np.not_equal, "DSLT": np.less, "DSGE": np.greater_equal}


def _needs_doubles(profile, screen):
    from glpipe.enums import Cap

    if profile == "native" and not screen.get_param(Cap.DOUBLES):
        pytest.skip("the host has no doubles (PIPE_CAP_DOUBLES is 0)")


@pytest.mark.parametrize("op", sorted(DOUBLE_OPS))
def test_double_opcode_gl_executor_numpy_agree(profile, screen, ctx, op):
    _needs_doubles(profile, screen)
    a, b = np.repeat(F64S, F64S.size), np.tile(F64S, F64S.size)
    gl_out, ex_out = _wide_three_ways(screen, ctx, _wide_kernel(op, a.size, "xy", "xyxy", "xyxy"), a, b)
    with np.errstate(all="ignore"):
        ref = np.asarray(DOUBLE_OPS[op](a, b), np.float64)
    _check(gl_out, ex_out, ref.view(U32), op)


@pytest.mark.parametrize("op", sorted(DOUBLE_COMPARES))
def test_double_compare_gl_executor_numpy_agree(profile, screen, ctx, op):
    _needs_doubles(profile, screen)
    a, b = np.repeat(F64S, F64S.size), np.tile(F64S, F64S.size)
    gl_out, ex_out = _wide_three_ways(screen, ctx, _wide_kernel(op, a.size, "x", "xyxy", "xyxy"), a, b)
    ref = a.view(U32).reshape(-1, 2).copy()
    ref[:, 0] = np.where(DOUBLE_COMPARES[op](a, b), 0xFFFFFFFF, 0)
    _check(gl_out, ex_out, ref.ravel(), op)


@pytest.mark.parametrize("op", ["DABS", "DNEG", "D2F"])
def test_double_unary_gl_executor_numpy_agree(profile, screen, ctx, op):
    _needs_doubles(profile, screen)
    a = F64S
    gl_out, ex_out = _wide_three_ways(
        screen, ctx, _wide_kernel(op, a.size, "xy" if op != "D2F" else "x", "xyxy", None), a, a
    )
    if op == "D2F":
        ref = a.view(U32).reshape(-1, 2).copy()
        with np.errstate(all="ignore"):
            ref[:, 0] = a.astype(np.float32).view(U32)
        ref = ref.ravel()
    else:
        ref = (np.abs(a) if op == "DABS" else -a).view(U32)
    _check(gl_out, ex_out, ref, op)


@pytest.mark.parametrize("op", ["F2D", "I2D", "U2D"])
def test_double_widen_gl_executor_numpy_agree(profile, screen, ctx, op):
    _needs_doubles(profile, screen)
    x = FLOATS.view(U32) if op == "F2D" else INTS
    a = np.ascontiguousarray(np.stack([x, np.zeros_like(x)], 1)).view(np.uint64).ravel()
    gl_out, ex_out = _wide_three_ways(screen, ctx, _wide_kernel(op, a.size, "xy", "xxxx", None), a, a)
    conv = {"F2D": x.view(np.float32), "I2D": _s(x), "U2D": x}[op]
    _check(gl_out, ex_out, conv.astype(np.float64).view(U32), op)


@pytest.mark.parametrize("op", ["I64NEG", "I64ABS", "I64SSG"])
def test_int64_unary_gl_executor_numpy_agree(profile, screen, ctx, op):
    _needs_int64(profile, screen)
    a = I64S
    gl_out, ex_out = _wide_three_ways(screen, ctx, _wide_kernel(op, a.size, "xy", "xyxy", None), a, a)
    x = _sx(a)
    ref = {"I64NEG": -x, "I64ABS": np.abs(x), "I64SSG": np.sign(x)}[op]
    _check(gl_out, ex_out, ref.view(np.uint64).view(U32), op)
