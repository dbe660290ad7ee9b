"""Double and 64-bit integer opcodes of the numpy TGSI executor beyond
``bits.py``: DDIV DRCP DSQRT DRSQ DFMA DMAD DLDEXP DFRACEXP DFLR DCEIL
DTRUNC DROUND DFRAC DSSG, the conversions D2I D2U D2I64 D2U64 I642D
U642D F2I64 F2U64 I642F U642F, and I64DIV U64DIV I64MOD U64MOD.

TGSI keeps a 64-bit value in two 32-bit channels, low word first: lane 0
is ``.xy``, lane 1 is ``.zw`` (tgsi.rst "Double ISA"); conversions to 32
bits write ``.x`` / ``.y``, conversions from 32 bits read them.  Values
are computed in numpy float64 / int64 / uint64 (IEEE double, denormals
kept, as llvmpipe).  Where tgsi.rst leaves a result undefined the executor
gives what Mesa's tgsi_exec.c gives:

* a float -> integer conversion out of range or of a NaN gives 0 (as F2I);
* U64DIV / U64MOD / I64MOD by zero give all ones, I64DIV by zero gives 0,
  INT64_MIN / -1 wraps to INT64_MIN (and INT64_MIN % -1 is 0);
* DFMA rounds once (exact product and sum, computed with Python's exact
  rationals per finite lane); DMAD rounds twice (tgsi.rst lets it);
* DROUND rounds halfway cases to even (GLSL roundEven; tgsi.rst leaves
  the direction free); DSSG of -0.0 and NaN is +0.0;
* DLDEXP takes the exponent of lane 0 from ``src1.x`` and of lane 1 from
  ``src1.z``; DFRACEXP (removed from Mesa, still parsed) gives frexp's
  significand in dst0 and the exponents in dst1 ``.x`` / ``.y``.

Each function takes and returns ``(lanes, 4)`` uint32 words (DFRACEXP
returns a pair), as ``alu.py``, which merges ``DOUBLE_ALU`` into its table.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

import numpy as np

from .bits import _f64, _u64, _words64

U32 = np.uint32
I32 = np.int32
F32 = np.float32
F64 = np.float64
U64 = np.uint64
I64 = np.int64
_MIN64 = I64(-(2**63))


def _dw(x: np.ndarray) -> np.ndarray:
    """(lanes, 2) float64 -> (lanes, 4) words."""
    return _words64(np.asarray(x, F64).view(U64))


def _unary(fn: Callable) -> Callable:
    def op(a):
        return _dw(fn(_f64(a)))

    return op


def _binary(fn: Callable) -> Callable:
    def op(a, b):
        return _dw(fn(_f64(a), _f64(b)))

    return op


def _to_xy(lanes32: np.ndarray) -> np.ndarray:
    """(lanes, 2) 32-bit results -> (lanes, 4) words in ``.x`` / ``.y``."""
    out = np.zeros((lanes32.shape[0], 4), U32)
    out[:, 0:2] = lanes32.view(U32) if lanes32.dtype != U32 else lanes32
    return out


def _in_range(x: np.ndarray, lo: float, hi: float) -> np.ndarray:
    """Finite lanes strictly inside (lo, hi) (the range a truncation keeps)."""
    return np.isfinite(x) & (x > lo) & (x < hi)


# -- arithmetic -----------------------------------------------------------------


def op_dssg(a):
    x = _f64(a)
    return _dw(np.where(x > 0, 1.0, np.where(x < 0, -1.0, 0.0)))


def op_dfrac(a):
    x = _f64(a)
    return _dw(x - np.floor(x))


def op_dmad(a, b, c):
    return _dw(_f64(a) * _f64(b) + _f64(c))


def _exact_fma(x: float, y: float, z: float) -> float:
    if not (np.isfinite(x) and np.isfinite(y) and np.isfinite(z)):
        return x * y + z  # IEEE rules for infinities and NaNs
    exact = Fraction(x) * Fraction(y) + Fraction(z)
    if exact == 0:
        return x * y + z  # the sign of an exact zero follows IEEE's rounding of the sum
    try:
        return float(exact)  # Fraction -> float rounds to nearest, ties to even
    except OverflowError:
        return float("inf") if exact > 0 else float("-inf")


def op_dfma(a, b, c):
    x, y, z = _f64(a), _f64(b), _f64(c)
    out = np.empty_like(x)
    for idx in np.ndindex(x.shape):
        out[idx] = _exact_fma(float(x[idx]), float(y[idx]), float(z[idx]))
    return _dw(out)


def op_dldexp(a, b):
    e = b[:, 0::2].view(I32).astype(I64).clip(-4000, 4000)  # lane 0: .x, lane 1: .z
    return _dw(np.ldexp(_f64(a), e))


def op_dfracexp(a):
    m, e = np.frexp(_f64(a))
    return _dw(m), _to_xy(e.astype(I32))


# -- conversions ----------------------------------------------------------------


def op_d2i(a):
    x = _f64(a)
    return _to_xy(np.where(_in_range(x, -2147483649.0, 2147483648.0), np.trunc(x), 0).astype(I32))


def op_d2u(a):
    x = _f64(a)
    return _to_xy(np.where(_in_range(x, -1.0, 4294967296.0), np.trunc(x), 0).astype(U32))


def _to64(x: np.ndarray, signed: bool) -> np.ndarray:
    """float64 lanes truncated to 64-bit integers (0 out of range or NaN)."""
    if signed:
        ok = np.isfinite(x) & (x >= -(2.0**63)) & (x < 2.0**63)
        return np.where(ok, np.trunc(x), 0).astype(I64)
    ok = _in_range(x, -1.0, 2.0**64)
    return np.where(ok, np.trunc(x), 0).astype(U64)


def _d2x64(signed: bool) -> Callable:
    def op(a):
        return _words64(_to64(_f64(a), signed))

    return op


def _f2x64(signed: bool) -> Callable:
    def op(a):
        return _words64(_to64(a[:, 0:2].view(F32).astype(F64), signed))

    return op


def _x642d(signed: bool) -> Callable:
    def op(a):
        q = _u64(a)
        return _dw((q.view(I64) if signed else q).astype(F64))  # correctly rounded (C's conversion)

    return op


def _bit_length(m: np.ndarray) -> np.ndarray:
    """Bits of each uint64 (0 for 0), exactly."""
    n = np.zeros(m.shape, I64)
    for s in (32, 16, 8, 4, 2, 1):
        big = (m >> (n + s).astype(U64)) != 0
        n = np.where(big, n + s, n)
    return np.where(m != 0, n + 1, 0)


def _x642f(signed: bool) -> Callable:
    """64-bit integer -> float32, rounded once: the magnitude is cut to 53
    bits rounding to odd (the dropped bits ORed into the last one), which is
    exact in float64 and, with 53 >= 24 + 2, rounds to float32 as the exact
    value would (no double rounding)."""

    def op(a):
        q = _u64(a)
        neg = (q.view(I64) < 0) if signed else np.zeros(q.shape, bool)
        m = np.where(neg, U64(0) - q, q)  # |v| (INT64_MIN's magnitude fits a uint64)
        k = np.maximum(_bit_length(m) - 53, 0).astype(U64)
        t = m >> k
        sticky = (m & ((U64(1) << k) - U64(1))) != 0
        t = t | sticky.astype(U64)
        d = np.ldexp(t.astype(F64), k.astype(I64))
        return _to_xy(np.where(neg, -d, d).astype(F32))

    return op


# -- 64-bit integer division (Mesa's tgsi_exec results where tgsi.rst is silent) --


def _u64divmod(mod: bool) -> Callable:
    def op(a, b):
        x, y = _u64(a), _u64(b)
        safe = np.where(y == 0, U64(1), y)
        r = x % safe if mod else x // safe
        return _words64(np.where(y == 0, U64(0xFFFFFFFFFFFFFFFF), r))

    return op


def _i64divmod(mod: bool) -> Callable:
    def op(a, b):
        x, y = _u64(a).view(I64), _u64(b).view(I64)
        bad = (y == 0) | ((x == _MIN64) & (y == -1))
        sx, sy = np.where(bad, 1, x), np.where(bad, 1, y)
        # C truncates toward zero: divide the magnitudes (as uint64, where
        # |INT64_MIN| fits) and give the quotient the sign of the operands'.
        ux = np.where(sx < 0, U64(0) - sx.view(U64), sx.view(U64))
        uy = np.where(sy < 0, U64(0) - sy.view(U64), sy.view(U64))
        uq = ux // uy
        q = np.where((sx < 0) != (sy < 0), U64(0) - uq, uq).view(I64)
        r = np.where(sx < 0, -(ux % uy).view(I64), (ux % uy).view(I64))
        if mod:
            out = np.where(y == 0, I64(-1), np.where(bad, I64(0), r))
        else:
            out = np.where(y == 0, I64(0), np.where(bad, _MIN64, q))
        return _words64(out)

    return op


# -- source modifiers on 64-bit operands ------------------------------------------------
#
# They follow the operand's type (tgsi.rst "Modifiers", Mesa's tgsi_exec
# fetch_double_channel): on a double, negate and abs act on the sign of each
# 64-bit value (bit 31 of the high words .y / .w); on a 64-bit integer negate
# is the 64-bit two's complement (abs its magnitude) -- never the 32-bit
# float or integer modifier applied to each word.


def modify_wide(v: np.ndarray, typ: str, absolute: bool, negate: bool) -> np.ndarray:
    """``v`` ((lanes, 4) words, two 64-bit values) with ``|x|`` then ``-x``
    applied per 64-bit value of type ``typ`` (double / int64 / uint64)."""
    out = np.array(v, U32)
    if typ == "double":
        hi = out[:, 1::2]
        if absolute:
            hi &= U32(0x7FFFFFFF)
        if negate:
            hi ^= U32(0x80000000)
        out[:, 1::2] = hi
        return out
    q = out[:, 0::2].astype(U64) | (out[:, 1::2].astype(U64) << U64(32))
    if absolute:
        q = np.where(q.view(I64) < 0, U64(0) - q, q)
    if negate:
        q = U64(0) - q
    out[:, 0::2] = (q & U64(0xFFFFFFFF)).astype(U32)
    out[:, 1::2] = (q >> U64(32)).astype(U32)
    return out


#: opcode -> (function, replicate the scalar result); merged into alu.ALU.
DOUBLE_ALU: dict[str, tuple[Callable[..., np.ndarray], bool]] = {
    "DDIV": (_binary(lambda x, y: x / y), False),
    "DRCP": (_unary(lambda x: 1.0 / x), False),
    "DSQRT": (_unary(np.sqrt), False),
    "DRSQ": (_unary(lambda x: 1.0 / np.sqrt(x)), False),
    "DFLR": (_unary(np.floor), False),
    "DCEIL": (_unary(np.ceil), False),
    "DTRUNC": (_unary(np.trunc), False),
    "DROUND": (_unary(np.rint), False),
    "DFRAC": (op_dfrac, False),
    "DSSG": (op_dssg, False),
    "DMAD": (op_dmad, False),
    "DFMA": (op_dfma, False),
    "DLDEXP": (op_dldexp, False),
    "D2I": (op_d2i, False),
    "D2U": (op_d2u, False),
    "D2I64": (_d2x64(True), False),
    "D2U64": (_d2x64(False), False),
    "F2I64": (_f2x64(True), False),
    "F2U64": (_f2x64(False), False),
    "I642D": (_x642d(True), False),
    "U642D": (_x642d(False), False),
    "I642F": (_x642f(True), False),
    "U642F": (_x642f(False), False),
    "U64DIV": (_u64divmod(False), False),
    "U64MOD": (_u64divmod(True), False),
    "I64DIV": (_i64divmod(False), False),
    "I64MOD": (_i64divmod(True), False),
}

#: Opcodes with two destinations: opcode -> function returning one value per dst.
MULTI_DST: dict[str, Callable[..., tuple[np.ndarray, ...]]] = {"DFRACEXP": op_dfracexp}

__all__ = ["DOUBLE_ALU", "MULTI_DST", "modify_wide"]
