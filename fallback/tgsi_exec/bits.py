"""More ALU opcodes of the numpy TGSI executor: the bit-manipulation
opcodes (POPC, BREV, LSB, UMSB, IMSB, UBFE, IBFE, BFI), the float
opcodes SUB, ABS, ROUND, SSG, SGT, SLE, and the 64-bit integer opcodes.

Each is one function on ``(lanes, 4)`` uint32 words, as in ``alu.py``
(which merges ``MORE_ALU`` into its ``ALU`` table).  Semantics are
tgsi.rst's, which are GLSL's bitCount / bitfieldReverse / findLSB /
findMSB / bitfieldExtract / bitfieldInsert: findLSB / findMSB give -1 when
no bit qualifies; a bitfield of 0 bits extracts 0 and inserts nothing.
An offset + bits past 32 is undefined in GLSL; here only the low 5 bits of
each are used and the field is clipped at bit 31 (docs/compute.md).

TGSI keeps a 64-bit value in two 32-bit channels, low word first: lane 0
of an opcode is ``.xy``, lane 1 is ``.zw`` (tgsi.rst "64-bit integer
ISA"). Each function here views its ``(lanes, 4)`` uint32 sources as
``(lanes, 2)`` uint64 / int64 pairs, computes in numpy's 64-bit types
(which wrap like the hardware) and writes the pairs back; comparisons give
32-bit ~0 / 0 in ``.x`` and ``.z``; shift counts are the 32-bit ``.x`` /
``.y`` of src1 masked with 0x3f; I2I64 / U2I64 widen ``.x`` / ``.y``.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

U32 = np.uint32
F32 = np.float32
I32 = np.int32
U64 = np.uint64
I64 = np.int64
_ONES = np.uint64(0xFFFFFFFF)


def _words(x: np.ndarray) -> np.ndarray:
    return x.astype(U32, copy=False) if x.dtype != F32 else x.view(U32)


def _popcount(x: np.ndarray) -> np.ndarray:
    x = x - ((x >> U32(1)) & U32(0x55555555))
    x = (x & U32(0x33333333)) + ((x >> U32(2)) & U32(0x33333333))
    x = (x + (x >> U32(4))) & U32(0x0F0F0F0F)
    return (x * U32(0x01010101)) >> U32(24)


def _msb(x: np.ndarray) -> np.ndarray:
    """Index of the highest set bit of uint32 words, -1 (all ones) for 0."""
    out = np.full(x.shape, -1, np.int64)
    nz = x != 0
    out[nz] = np.floor(np.log2(x[nz].astype(np.float64))).astype(np.int64)
    return out.astype(I32).view(U32)


def op_popc(a):
    return _popcount(a)


def op_brev(a):
    x = a.copy()
    for shift, m in ((1, 0x55555555), (2, 0x33333333), (4, 0x0F0F0F0F), (8, 0x00FF00FF)):
        x = ((x >> U32(shift)) & U32(m)) | ((x & U32(m)) << U32(shift))
    return (x >> U32(16)) | (x << U32(16))


def op_lsb(a):
    low = a & (~a + U32(1))  # the lowest set bit alone
    return _msb(low)


def op_umsb(a):
    return _msb(a)


def op_imsb(a):
    s = a.view(I32)
    return _msb(np.where(s < 0, ~a, a))  # the first bit differing from the sign bit


def _field(offset: np.ndarray, bits: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    off = (offset & U32(31)).astype(np.uint64)
    n = np.minimum(bits.astype(np.uint64) & np.uint64(63), np.uint64(32) - off)
    mask = ((np.uint64(1) << n) - np.uint64(1)) & _ONES
    return off, n, mask


def op_ubfe(a, offset, bits):
    off, n, mask = _field(offset, bits)
    return ((a.astype(np.uint64) >> off) & mask).astype(U32)


def op_ibfe(a, offset, bits):
    off, n, mask = _field(offset, bits)
    v = (a.astype(np.uint64) >> off) & mask
    sign = np.where(n > 0, (v >> np.maximum(n, np.uint64(1)) - np.uint64(1)) & np.uint64(1), np.uint64(0))
    v = np.where(sign == 1, v | (~mask & _ONES), v)
    return v.astype(U32)


def op_bfi(base, insert, offset, bits):
    off, n, mask = _field(offset, bits)
    field = (mask << off) & _ONES
    out = (base.astype(np.uint64) & ~field & _ONES) | ((insert.astype(np.uint64) << off) & field)
    return out.astype(U32)


def op_round(a):
    return _words(np.rint(a.view(F32)))  # half to even (tgsi.rst ROUND; GLSL roundEven)


def op_sub(a, b):
    return _words(a.view(F32) - b.view(F32))


def op_abs(a):
    return a & U32(0x7FFFFFFF)  # clears the sign bit, -0.0 and NaN included


def op_ssg(a):
    x = a.view(F32)
    # tgsi.rst: (src > 0) ? 1 : (src < 0) ? -1 : 0 -- so -0.0 gives +0.0 (and NaN 0.0), as tgsi_exec.
    return _words(np.where(x > 0, F32(1.0), np.where(x < 0, F32(-1.0), F32(0.0))))


def op_sgt(a, b):
    return _words(np.where(a.view(F32) > b.view(F32), F32(1.0), F32(0.0)))


def op_sle(a, b):
    return _words(np.where(a.view(F32) <= b.view(F32), F32(1.0), F32(0.0)))


#: opcode -> (function, replicate the scalar result); merged into alu.ALU.
MORE_ALU: dict[str, tuple[Callable[..., np.ndarray], bool]] = {
    "POPC": (op_popc, False),
    "BREV": (op_brev, False),
    "LSB": (op_lsb, False),
    "UMSB": (op_umsb, False),
    "IMSB": (op_imsb, False),
    "UBFE": (op_ubfe, False),
    "IBFE": (op_ibfe, False),
    "BFI": (op_bfi, False),
    "SUB": (op_sub, False),
    "ABS": (op_abs, False),
    "ROUND": (op_round, False),
    "SSG": (op_ssg, False),
    "SGT": (op_sgt, False),
    "SLE": (op_sle, False),
}


# -- 64-bit integers (two channels per value) -------------------------------------

_LOW = U64(0xFFFFFFFF)


def _u64(v: np.ndarray) -> np.ndarray:
    """(lanes, 4) words -> (lanes, 2) uint64 (xy, zw)."""
    return v[:, 0::2].astype(U64) | (v[:, 1::2].astype(U64) << U64(32))


def _words64(q: np.ndarray) -> np.ndarray:
    """(lanes, 2) 64-bit values -> (lanes, 4) words, low word first."""
    q = q.view(U64) if q.dtype == I64 else q
    out = np.empty((q.shape[0], 4), U32)
    out[:, 0::2] = (q & _LOW).astype(U32)
    out[:, 1::2] = (q >> U64(32)).astype(U32)
    return out


def _compare(cond: np.ndarray) -> np.ndarray:
    out = np.zeros((cond.shape[0], 4), U32)
    out[:, 0::2] = np.where(cond, U32(0xFFFFFFFF), U32(0))
    return out


def _binary(fn: Callable, signed: bool = False) -> Callable:
    def op(a, b):
        x, y = _u64(a), _u64(b)
        return _words64(np.asarray(fn(x.view(I64), y.view(I64)) if signed else fn(x, y)))

    return op


def _cmp(fn: Callable, signed: bool = False) -> Callable:
    def op(a, b):
        x, y = _u64(a), _u64(b)
        return _compare(fn(x.view(I64), y.view(I64)) if signed else fn(x, y))

    return op


def _shift(fn: Callable, signed: bool = False) -> Callable:
    def op(a, b):
        x = _u64(a)
        n = (b[:, 0:2] & U32(0x3F)).astype(U64)
        return _words64(fn(x.view(I64), n.astype(I64)) if signed else fn(x, n))

    return op


def _widen(signed: bool) -> Callable:
    def op(a):
        lo = a[:, 0:2]
        return _words64(lo.view(np.int32).astype(I64) if signed else lo.astype(U64))

    return op


def op_i64neg(a):
    return _words64(U64(0) - _u64(a))


def op_i64ssg(a):
    return _words64(np.sign(_u64(a).view(I64)))


def op_i64abs(a):
    x = _u64(a).view(I64)
    return _words64(np.where(x < 0, U64(0) - x.view(U64), x.view(U64)))


#: opcode -> (function, replicate the scalar result); merged into alu.ALU.
WIDE_ALU: dict[str, tuple[Callable[..., np.ndarray], bool]] = {
    "U64ADD": (_binary(lambda x, y: x + y), False),
    "U64MUL": (_binary(lambda x, y: x * y), False),
    "U64MIN": (_binary(np.minimum), False),
    "U64MAX": (_binary(np.maximum), False),
    "I64MIN": (_binary(np.minimum, signed=True), False),
    "I64MAX": (_binary(np.maximum, signed=True), False),
    "U64SEQ": (_cmp(np.equal), False),
    "U64SNE": (_cmp(np.not_equal), False),
    "U64SLT": (_cmp(np.less), False),
    "U64SGE": (_cmp(np.greater_equal), False),
    "I64SLT": (_cmp(np.less, signed=True), False),
    "I64SGE": (_cmp(np.greater_equal, signed=True), False),
    "U64SHL": (_shift(lambda x, n: x << n), False),
    "U64SHR": (_shift(lambda x, n: x >> n), False),
    "I64SHR": (_shift(lambda x, n: x >> n, signed=True), False),
    "I64NEG": (op_i64neg, False),
    "I64ABS": (op_i64abs, False),
    "I64SSG": (op_i64ssg, False),
    "I2I64": (_widen(True), False),
    "U2I64": (_widen(False), False),
}


# -- doubles (two channels per value, as the 64-bit integers) ------------------------


def _f64(v: np.ndarray) -> np.ndarray:
    return _u64(v).view(np.float64)


def _dbinary(fn: Callable) -> Callable:
    def op(a, b):
        return _words64(np.asarray(fn(_f64(a), _f64(b)), np.float64).view(U64))

    return op


def _dcmp(fn: Callable) -> Callable:
    def op(a, b):
        return _compare(fn(_f64(a), _f64(b)))

    return op


def _dunary(fn: Callable) -> Callable:
    def op(a):
        return _words64(np.asarray(fn(_f64(a)), np.float64).view(U64))

    return op


def op_f2d(a):
    return _words64(a[:, 0:2].view(F32).astype(np.float64).view(U64))


def op_i2d(a):
    return _words64(a[:, 0:2].view(I32).astype(np.float64).view(U64))


def op_u2d(a):
    return _words64(a[:, 0:2].astype(np.float64).view(U64))


def op_d2f(a):
    out = np.zeros((a.shape[0], 4), U32)
    out[:, 0:2] = _f64(a).astype(F32).view(U32)  # lane 0 -> .x, lane 1 -> .y (tgsi.rst D2F)
    return out


#: DMIN / DMAX of a NaN and a number give the number, as the executor's MIN / MAX.
WIDE_ALU.update(
    {
        "DADD": (_dbinary(lambda x, y: x + y), False),
        "DMUL": (_dbinary(lambda x, y: x * y), False),
        "DMIN": (_dbinary(np.fmin), False),
        "DMAX": (_dbinary(np.fmax), False),
        "DSEQ": (_dcmp(np.equal), False),
        "DSNE": (_dcmp(np.not_equal), False),
        "DSLT": (_dcmp(np.less), False),
        "DSGE": (_dcmp(np.greater_equal), False),
        "DABS": (_dunary(np.abs), False),
        "DNEG": (_dunary(np.negative), False),
        "F2D": (op_f2d, False),
        "I2D": (op_i2d, False),
        "U2D": (op_u2d, False),
        "D2F": (op_d2f, False),
    }
)

__all__ = ["MORE_ALU", "WIDE_ALU"]
