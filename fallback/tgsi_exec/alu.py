"""ALU opcodes of the numpy TGSI executor: one small function per opcode.

Every register value is a ``(lanes, 4)`` uint32 array holding raw 32-bit
words; a function views its sources as the type the opcode reads
(``f``: float32, ``i``: int32, ``u``: uint32) and returns the result as
words.  ``ALU`` maps a TGSI opcode name to ``(function, source view)``;
REPL opcodes (tgsi.rst: a scalar of ``.x`` replicated) are marked so the
machine broadcasts their ``(lanes,)`` result.  The semantics are
tgsi.rst's (docs/compute.md "The executor"): UDIV / UMOD by zero give
0xffffffff, shift counts are masked with 0x1f, set-on-compare opcodes give
1.0 / 0.0 (float) or ~0 / 0 (integer).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .bits import MORE_ALU, WIDE_ALU
from .double import DOUBLE_ALU
from .transcend import FLOAT_ALU

U32 = np.uint32
F32 = np.float32
I32 = np.int32
ALL_ONES = U32(0xFFFFFFFF)


def f(x: np.ndarray) -> np.ndarray:
    """Words as float32 (a view)."""
    return x.view(F32)


def i(x: np.ndarray) -> np.ndarray:
    """Words as int32 (a view)."""
    return x.view(I32)


def w(x: np.ndarray) -> np.ndarray:
    """float32 / int32 / bool values as uint32 words."""
    if x.dtype == np.bool_:
        return np.where(x, ALL_ONES, U32(0))
    if x.dtype == F32 or x.dtype == I32:
        return x.view(U32)
    return x.astype(U32, copy=False)


def _fbool(cond: np.ndarray) -> np.ndarray:
    return np.where(cond, F32(1.0), F32(0.0)).view(U32)


def _ignore_fp():
    return np.errstate(all="ignore")


# -- float -----------------------------------------------------------------


def op_add(a, b):
    return w(f(a) + f(b))


def op_mul(a, b):
    return w(f(a) * f(b))


def op_mad(a, b, c):
    # MAD rounds twice (tgsi.rst: src0 * src1 + src2, not fused).
    return w(f(a) * f(b) + f(c))


def op_min(a, b):
    # GLSL min/max: a NaN operand yields the other (IEEE minNum), as llvmpipe.
    return w(np.fmin(f(a), f(b)))


def op_max(a, b):
    return w(np.fmax(f(a), f(b)))


def op_flr(a):
    return w(np.floor(f(a)))


def op_ceil(a):
    return w(np.ceil(f(a)))


def op_trunc(a):
    return w(np.trunc(f(a)))


def op_frc(a):
    x = f(a)
    return w(x - np.floor(x))


# The transcendentals run in float64 and round once to float32 (within 1 ULP:
# inside GLSL 4.50 section 4.7.1's bounds, whatever numpy's float32 paths do).


def _x64(a):
    return f(a)[:, 0].astype(np.float64)


def _round32(x):
    return x.astype(F32).view(U32)


def op_rcp(a):
    return w(F32(1.0) / f(a)[:, 0])  # IEEE division: correctly rounded


def op_rsq(a):
    return _round32(1.0 / np.sqrt(_x64(a)))


def op_sqrt(a):
    return w(np.sqrt(f(a)[:, 0]))  # IEEE square root: correctly rounded


def op_ex2(a):
    return _round32(np.exp2(_x64(a)))


def op_lg2(a):
    return _round32(np.log2(_x64(a)))


def op_pow(a, b):
    return _round32(np.power(_x64(a), _x64(b)))


def _dot(n):
    def dot(a, b):
        return w(np.sum(f(a)[:, :n] * f(b)[:, :n], axis=1, dtype=F32))

    return dot


def op_slt(a, b):
    return _fbool(f(a) < f(b))


def op_sge(a, b):
    return _fbool(f(a) >= f(b))


def op_seq(a, b):
    return _fbool(f(a) == f(b))


def op_sne(a, b):
    return _fbool(f(a) != f(b))


def op_fslt(a, b):
    return w(f(a) < f(b))


def op_fsge(a, b):
    return w(f(a) >= f(b))


def op_fseq(a, b):
    return w(f(a) == f(b))


def op_fsne(a, b):
    return w(f(a) != f(b))  # unordered: NaN != x holds


def op_cmp(a, b, c):
    return np.where(f(a) < 0, b, c)


def op_f2i(a):
    # Out of range is undefined (tgsi.rst); NaN and overflow give 0 here.  The
    # bounds are compared in float64: as float32, -2147483649.0 rounds to
    # INT_MIN itself, which would then convert to 0.
    x = f(a).astype(np.float64)
    ok = np.isfinite(x) & (x > -2147483649.0) & (x < 2147483648.0)
    return w(np.where(ok, x, 0).astype(I32))


def op_f2u(a):
    x = f(a).astype(np.float64)
    ok = np.isfinite(x) & (x > -1.0) & (x < 4294967296.0)
    return np.where(ok, x, 0).astype(np.uint64).astype(U32)


def op_i2f(a):
    return w(i(a).astype(F32))


def op_u2f(a):
    return w(a.astype(F32))


# -- integer ---------------------------------------------------------------


def op_uadd(a, b):
    return a + b


def op_umul(a, b):
    return a * b


def op_umad(a, b, c):
    return a * b + c


def op_umul_hi(a, b):
    return ((a.astype(np.uint64) * b.astype(np.uint64)) >> np.uint64(32)).astype(U32)


def op_imul_hi(a, b):
    return w(((i(a).astype(np.int64) * i(b).astype(np.int64)) >> 32).astype(I32))


def op_udiv(a, b):
    safe = np.where(b == 0, U32(1), b)
    return np.where(b == 0, ALL_ONES, a // safe)


def op_umod(a, b):
    safe = np.where(b == 0, U32(1), b)
    return np.where(b == 0, ALL_ONES, a % safe)


def op_idiv(a, b):
    # Division by zero is unspecified (tgsi.rst): 0 here; INT_MIN / -1 wraps.
    x, y = i(a).astype(np.int64), i(b).astype(np.int64)
    safe = np.where(y == 0, 1, y)
    q = np.trunc(x / safe).astype(np.int64)
    q = np.where(y == 0, 0, q)
    return q.astype(np.uint64).astype(U32)


def op_mod(a, b):
    # Signed remainder with the sign of the dividend (C's %).
    x, y = i(a).astype(np.int64), i(b).astype(np.int64)
    safe = np.where(y == 0, 1, y)
    r = np.fmod(x, safe)
    return np.where(y == 0, ALL_ONES, r.astype(np.uint64).astype(U32))


def op_imax(a, b):
    return w(np.maximum(i(a), i(b)))


def op_imin(a, b):
    return w(np.minimum(i(a), i(b)))


def op_umax(a, b):
    return np.maximum(a, b)


def op_umin(a, b):
    return np.minimum(a, b)


def op_ineg(a):
    return w(-i(a))


def op_iabs(a):
    return w(np.abs(i(a)))


def op_issg(a):
    return w(np.sign(i(a)).astype(I32))


def op_shl(a, b):
    return a << (b & U32(31))


def op_ushr(a, b):
    return a >> (b & U32(31))


def op_ishr(a, b):
    return w(i(a) >> (b & U32(31)).astype(I32))


def op_and(a, b):
    return a & b


def op_or(a, b):
    return a | b


def op_xor(a, b):
    return a ^ b


def op_not(a):
    return ~a


def op_uslt(a, b):
    return w(a < b)


def op_usge(a, b):
    return w(a >= b)


def op_useq(a, b):
    return w(a == b)


def op_usne(a, b):
    return w(a != b)


def op_islt(a, b):
    return w(i(a) < i(b))


def op_isge(a, b):
    return w(i(a) >= i(b))


def op_ucmp(a, b, c):
    return np.where(a != 0, b, c)


def op_mov(a):
    return a


#: opcode -> (function, replicate the scalar result).  The opcode names are
#: rows of lowering.opcodes.OPCODES (tests/fallback/test_tgsi_exec.py checks
#: that the table and the lowering's agree on operand counts).
ALU: dict[str, tuple[Callable[..., np.ndarray], bool]] = {
    "MOV": (op_mov, False),
    "ADD": (op_add, False),
    "MUL": (op_mul, False),
    "MAD": (op_mad, False),
    "MIN": (op_min, False),
    "MAX": (op_max, False),
    "FLR": (op_flr, False),
    "CEIL": (op_ceil, False),
    "TRUNC": (op_trunc, False),
    "FRC": (op_frc, False),
    "RCP": (op_rcp, True),
    "RSQ": (op_rsq, True),
    "SQRT": (op_sqrt, True),
    "EX2": (op_ex2, True),
    "LG2": (op_lg2, True),
    "POW": (op_pow, True),
    "DP2": (_dot(2), True),
    "DP3": (_dot(3), True),
    "DP4": (_dot(4), True),
    "SLT": (op_slt, False),
    "SGE": (op_sge, False),
    "SEQ": (op_seq, False),
    "SNE": (op_sne, False),
    "FSLT": (op_fslt, False),
    "FSGE": (op_fsge, False),
    "FSEQ": (op_fseq, False),
    "FSNE": (op_fsne, False),
    "CMP": (op_cmp, False),
    "F2I": (op_f2i, False),
    "F2U": (op_f2u, False),
    "I2F": (op_i2f, False),
    "U2F": (op_u2f, False),
    "UADD": (op_uadd, False),
    "UMUL": (op_umul, False),
    "UMAD": (op_umad, False),
    "UMUL_HI": (op_umul_hi, False),
    "IMUL_HI": (op_imul_hi, False),
    "UDIV": (op_udiv, False),
    "UMOD": (op_umod, False),
    "IDIV": (op_idiv, False),
    "MOD": (op_mod, False),
    "IMAX": (op_imax, False),
    "IMIN": (op_imin, False),
    "UMAX": (op_umax, False),
    "UMIN": (op_umin, False),
    "INEG": (op_ineg, False),
    "IABS": (op_iabs, False),
    "ISSG": (op_issg, False),
    "SHL": (op_shl, False),
    "USHR": (op_ushr, False),
    "ISHR": (op_ishr, False),
    "AND": (op_and, False),
    "OR": (op_or, False),
    "XOR": (op_xor, False),
    "NOT": (op_not, False),
    "USLT": (op_uslt, False),
    "USGE": (op_usge, False),
    "USEQ": (op_useq, False),
    "USNE": (op_usne, False),
    "ISLT": (op_islt, False),
    "ISGE": (op_isge, False),
    "UCMP": (op_ucmp, False),
    **MORE_ALU,
    **WIDE_ALU,
    **DOUBLE_ALU,
    **FLOAT_ALU,
}


def run_alu(opcode: str, srcs: list[np.ndarray]) -> np.ndarray:
    """The ``(lanes, 4)`` words ``opcode`` computes from ``srcs``."""
    fn, repl = ALU[opcode]
    with _ignore_fp():
        out = fn(*srcs)
    if repl:
        out = np.repeat(out[:, None], 4, axis=1)
    return out


__all__ = ["ALU", "run_alu"]
